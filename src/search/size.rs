//! The board sizes the engine plays, each with what the search needs of it besides the board:
//! its hand evaluation's weights and tables and its built-in network. Everything above the
//! board is generic over a [`Size`] and compiled once per size, so that nothing asks the
//! size at run time; a game's size is chosen once, where a protocol or a tool starts it.

use super::eval::{HandEval, HandWeights, weights, weights7, weights9, weights13};
use super::nnue::QuantisedNetwork;
use crate::board::{Eleven, Geometry, Nine, Seven, Thirteen};
use std::sync::LazyLock;

pub trait Size: Geometry {
    /// The hand evaluation of this size.
    fn hand() -> &'static HandEval<Self>;
    /// The network built into the binary for this size, if there is one.
    fn embedded_network() -> Option<&'static QuantisedNetwork>;
}

macro_rules! size {
    ($g:ty, $weights:ident, $net:expr) => {
        impl Size for $g {
            #[inline(always)]
            fn hand() -> &'static HandEval<$g> {
                static HAND: LazyLock<HandEval<$g>> = LazyLock::new(|| {
                    HandEval::new(HandWeights {
                        scale: $weights::SCALE,
                        weights: &$weights::WEIGHTS,
                    })
                });
                &HAND
            }

            fn embedded_network() -> Option<&'static QuantisedNetwork> {
                $net
            }
        }
    };
}

size!(Seven, weights7, None);
size!(Nine, weights9, None);
size!(Eleven, weights, Some(QuantisedNetwork::embedded()));
size!(Thirteen, weights13, None);
