//! The board sizes the engine plays, each with what the search needs of it besides the board:
//! its hand evaluation's weights and tables (its built-in network is a row of the table in
//! `nnue/embedded.rs`, [`super::nnue::embedded`]). Everything above the board is generic over
//! a [`Size`] and compiled once per size, so that nothing asks the size at run time; a game's
//! size is chosen once, where a protocol or a tool starts it.

use super::eval::{HandEval, weights};
use crate::board::{Eleven, Geometry, Nine, Seven, Thirteen};
use std::sync::LazyLock;

pub trait Size: Geometry {
    /// The hand evaluation of this size.
    fn hand() -> &'static HandEval<Self>;
}

macro_rules! size {
    ($g:ty, $weights:expr) => {
        impl Size for $g {
            #[inline(always)]
            fn hand() -> &'static HandEval<$g> {
                static HAND: LazyLock<HandEval<$g>> = LazyLock::new(|| HandEval::new($weights));
                &HAND
            }
        }
    };
}

size!(Seven, weights::SEVEN);
// 9x9 and 13x13: the 11x11 weights, until a fit of their own wins (docs/training.md).
size!(Nine, weights::ELEVEN);
size!(Eleven, weights::ELEVEN);
size!(Thirteen, weights::ELEVEN);
