//! The board sizes the engine plays, each with what the search needs of it besides the board:
//! its hand evaluation's weights and tables (its built-in network is a row of the table in
//! `nnue/embedded.rs`, [`super::nnue::embedded`]). Everything above the board is generic over
//! a [`Size`] and compiled once per size, so that nothing asks the size at run time; a game's
//! size is chosen once, where a protocol or a tool starts it (`with_size!`), and a game that
//! must be held across calls whatever its size is held in an [`AnySize`].

use super::eval::{HandEval, weights};
use crate::board::{Eleven, Geometry, Nine, Seven, Thirteen};
use std::sync::LazyLock;

pub trait Size: Geometry {
    /// The hand evaluation of this size.
    fn hand() -> &'static HandEval<Self>;

    /// `value`, held as the [`AnySize`] of its size.
    fn hold<F: PerSize>(value: F::Of<Self>) -> AnySize<F>;
}

/// A family of types with one member a board size, such as the bot's `ServerGame<G>`: what an
/// [`AnySize`] holds.
pub trait PerSize {
    type Of<G: Size>;
}

/// A member of the family `F` for a board of a size known only at run time: the one way a game
/// of any size is held (the bot's games, serve's tables). [`each_size!`](crate::each_size)
/// runs code on it, compiled for its size; [`Size::hold`] makes one.
pub enum AnySize<F: PerSize> {
    Seven(F::Of<Seven>),
    Nine(F::Of<Nine>),
    Eleven(F::Of<Eleven>),
    Thirteen(F::Of<Thirteen>),
}

/// `$body` with `$x` bound to what the [`AnySize`] `$any` holds, whatever its size (`$any`
/// may be a value, a `&` or a `&mut`).
#[macro_export]
macro_rules! each_size {
    ($any:expr, $x:ident => $body:expr) => {
        match $any {
            $crate::search::size::AnySize::Seven($x) => $body,
            $crate::search::size::AnySize::Nine($x) => $body,
            $crate::search::size::AnySize::Eleven($x) => $body,
            $crate::search::size::AnySize::Thirteen($x) => $body,
        }
    };
}

macro_rules! size {
    ($g:ident, $weights:expr) => {
        impl Size for $g {
            #[inline(always)]
            fn hand() -> &'static HandEval<$g> {
                static HAND: LazyLock<HandEval<$g>> = LazyLock::new(|| HandEval::new($weights));
                &HAND
            }

            fn hold<F: PerSize>(value: F::Of<$g>) -> AnySize<F> {
                AnySize::$g(value)
            }
        }
    };
}

size!(Seven, weights::SEVEN);
// 9x9 and 13x13: the 11x11 weights, until a fit of their own wins (docs/training.md).
size!(Nine, weights::ELEVEN);
size!(Eleven, weights::ELEVEN);
size!(Thirteen, weights::ELEVEN);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::SIDES;
    use std::marker::PhantomData;

    /// A member a size that knows its size only by its type.
    struct Marks;
    impl PerSize for Marks {
        type Of<G: Size> = PhantomData<G>;
    }

    fn held<G: Size>() -> AnySize<Marks> {
        G::hold::<Marks>(PhantomData)
    }

    fn side<G: Size>(_: &PhantomData<G>) -> u8 {
        G::SIDE
    }

    #[test]
    fn every_side_is_held_as_its_own_size() {
        for s in SIDES {
            let any = crate::with_size!(s, held()).unwrap();
            assert_eq!(each_size!(&any, m => side(m)), s);
            let variant = match any {
                AnySize::Seven(_) => 7,
                AnySize::Nine(_) => 9,
                AnySize::Eleven(_) => 11,
                AnySize::Thirteen(_) => 13,
            };
            assert_eq!(variant, s);
        }
    }
}
