//! The board sizes the engine plays, each with what the search needs of it besides the board:
//! its hand evaluation's weights and tables (its built-in network is a row of the table in
//! `nnue/embedded.rs`, [`super::nnue::embedded`]). Everything above the board is generic over
//! a [`Size`] and compiled once per size, so that nothing asks the size at run time; a game's
//! size is chosen once, where a protocol or a tool starts it (`with_size!`), and a game that
//! must be held across calls whatever its size is held in an [`AnySize`].

use super::eval::{HandEval, weights};
use crate::board::Geometry;
use std::sync::LazyLock;

/// A board size the search plays: its [`Geometry`], its hand evaluation, and how a value of
/// it is held in an [`AnySize`].
pub trait Size: Geometry {
    /// The hand evaluation of this size.
    fn hand() -> &'static HandEval<Self>;

    /// `value`, held as the [`AnySize`] of its size.
    fn hold<F: PerSize>(value: F::Of<Self>) -> AnySize<F>;

    /// What `any` holds if it holds this size, else `None`.
    fn unhold<F: PerSize>(any: AnySize<F>) -> Option<F::Of<Self>>;
}

/// A family of types with one member a board size, such as the bot's `ServerGame<G>`: what an
/// [`AnySize`] holds.
pub trait PerSize {
    /// The member for boards of `G`.
    type Of<G: Size>;
}

macro_rules! sizes {
    ([] $($name:ident $side:literal $doc:literal $geometry:tt $preset:ident $opentafl:ident
        $hand:ident $nets:tt),* $(,)?) => {
        /// A member of the family `F` for a board of a size known only at run time: the one
        /// way a game of any size is held (the bot's games, serve's tables).
        /// [`each_size!`](crate::each_size) runs code on it, compiled for its size;
        /// [`Size::hold`] makes one.
        pub enum AnySize<F: PerSize> {
            $(#[doc = $doc] $name(F::Of<crate::board::$name>),)*
        }

        $(
            impl Size for crate::board::$name {
                #[inline(always)]
                fn hand() -> &'static HandEval<Self> {
                    static HAND: LazyLock<HandEval<crate::board::$name>> =
                        LazyLock::new(|| HandEval::new(weights::$hand));
                    &HAND
                }

                fn hold<F: PerSize>(value: F::Of<Self>) -> AnySize<F> {
                    AnySize::$name(value)
                }

                fn unhold<F: PerSize>(any: AnySize<F>) -> Option<F::Of<Self>> {
                    match any {
                        AnySize::$name(value) => Some(value),
                        _ => None,
                    }
                }
            }
        )*
    };
}

// The sizes' hand evaluations and holders, one a row of the size table.
crate::size_table!([sizes]);

/// `$body` with `$x` bound to what the [`AnySize`] `$any` holds, whatever its size (`$any`
/// may be a value, a `&` or a `&mut`).
#[macro_export]
macro_rules! each_size {
    ($any:expr, $x:ident => $body:expr) => {
        $crate::size_table!([$crate::__each_size] $any, $x => $body)
    };
}

/// [`each_size!`]'s arms, one a row of the size table.
#[doc(hidden)]
#[macro_export]
macro_rules! __each_size {
    ([$any:expr, $x:ident => $body:expr]
     $($name:ident $side:literal $doc:literal $geometry:tt $preset:ident $opentafl:ident
       $hand:ident $nets:tt),* $(,)?) => {
        match $any {
            $($crate::search::size::AnySize::$name($x) => $body,)*
        }
    };
}

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
        }
    }
}
