//! Moves (two bytes) and the fixed-capacity list move generation fills.

use super::geometry::{Geometry, MAX_SQUARES};
use super::square::Square;
use arrayvec::ArrayVec;
use std::fmt;
use std::marker::PhantomData;
use std::num::NonZeroU16;

/// A move from one square to another along a rank or file, packed in two bytes as
/// `from | to << B`, with `B` the geometry's [`Geometry::SQUARE_BITS`]. Up to 11x11 (`B` = 7) a
/// tag bit `1 << 14` is set too, as moves were always stored; on 13x13 (`B` = 8) the two
/// squares fill the word, which is never zero because they differ. So `Option<Move>` is two
/// bytes as well.
pub struct Move<G: Geometry>(NonZeroU16, PhantomData<G>);

// By hand: derived impls would ask the same of `G`, which is only a marker.
impl<G: Geometry> Clone for Move<G> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}
impl<G: Geometry> Copy for Move<G> {}
impl<G: Geometry> PartialEq for Move<G> {
    #[inline(always)]
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}
impl<G: Geometry> Eq for Move<G> {}
impl<G: Geometry> std::hash::Hash for Move<G> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.hash(state)
    }
}

impl<G: Geometry> Move<G> {
    const BITS: u32 = G::SQUARE_BITS;
    const MASK: u16 = (1 << G::SQUARE_BITS) - 1;
    /// The tag bit of the 7-bit packing; none in the 8-bit one.
    const TAG: u16 = if G::SQUARE_BITS == 7 { 1 << 14 } else { 0 };
    /// How many values [`Move::index`] takes.
    pub const INDICES: usize = 1 << (2 * G::SQUARE_BITS);

    #[inline(always)]
    /// The move from `from` to `to`.
    pub fn new(from: Square<G>, to: Square<G>) -> Self {
        debug_assert_ne!(from, to);
        let packed = from.to_u8() as u16 | (to.to_u8() as u16) << Self::BITS | Self::TAG;
        match NonZeroU16::new(packed) {
            Some(v) => Move(v, PhantomData),
            None => unreachable!("the tag bit is set, or the squares differ"),
        }
    }

    #[inline(always)]
    /// The square the piece leaves.
    pub fn from(self) -> Square<G> {
        Square::from_index((self.0.get() & Self::MASK) as u8)
    }

    #[inline(always)]
    /// The square the piece stops on.
    pub fn to(self) -> Square<G> {
        Square::from_index((self.0.get() >> Self::BITS & Self::MASK) as u8)
    }

    /// The two bytes, for storage.
    #[inline(always)]
    pub fn raw(self) -> u16 {
        self.0.get()
    }

    /// A move from [`Move::raw`]; `None` for anything that is not a stored move.
    pub fn from_raw(raw: u16) -> Option<Self> {
        let squares = (1u32 << (2 * Self::BITS)) - 1;
        if raw as u32 & !(Self::TAG as u32 | squares) != 0 || raw & Self::TAG != Self::TAG {
            return None;
        }
        let (from, to) = (
            Square::new((raw & Self::MASK) as u8)?,
            Square::new((raw >> Self::BITS & Self::MASK) as u8)?,
        );
        (from != to).then(|| Move::new(from, to))
    }

    /// A compact index in `0..Move::INDICES`, for history tables.
    #[inline(always)]
    pub fn index(self) -> usize {
        (self.0.get() & !Self::TAG) as usize
    }
}

/// `d1d3`, the UCI-style form.
impl<G: Geometry> fmt::Display for Move<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())
    }
}

impl<G: Geometry> fmt::Debug for Move<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from(), self.to())
    }
}

/// More than any side can have, with any number of pieces, on any board: a move lands on an
/// empty square, and each empty square is reached from each of the four directions by at
/// most one piece, the nearest, so there are never more than 4 x 169 = 676 moves.
pub const MAX_MOVES: usize = 4 * MAX_SQUARES;

/// The legal moves of a position, on the stack.
pub type MoveList<G> = ArrayVec<Move<G>, MAX_MOVES>;

#[cfg(test)]
mod tests {
    use crate::board::{Eleven, Move, Square};

    #[test]
    fn sizes() {
        assert_eq!(std::mem::size_of::<Move<Eleven>>(), 2);
        assert_eq!(std::mem::size_of::<Option<Move<Eleven>>>(), 2);
    }

    #[test]
    fn packs_every_pair() {
        for a in Square::<Eleven>::all() {
            for b in Square::all().filter(|&b| b != a) {
                let m = Move::new(a, b);
                assert_eq!((m.from(), m.to()), (a, b));
                assert!(m.index() < 1 << 14);
            }
        }
        let m = Move::new(
            Square::<Eleven>::parse("d1").unwrap(),
            Square::parse("d3").unwrap(),
        );
        assert_eq!(m.to_string(), "d1d3");
        assert_eq!(format!("{m:?}"), "d1-d3");
    }
}
