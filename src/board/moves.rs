//! Moves (two bytes) and the fixed-capacity list move generation fills.

use super::square::Square;
use arrayvec::ArrayVec;
use std::fmt;
use std::num::NonZeroU16;

/// A move from one square to another along a rank or file.
/// Packed as `from | to << 7 | 1 << 14`, so `Option<Move>` is two bytes as well.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(NonZeroU16);

const TAG: u16 = 1 << 14;

impl Move {
    pub fn new(from: Square, to: Square) -> Move {
        debug_assert_ne!(from, to);
        match NonZeroU16::new(from.to_u8() as u16 | (to.to_u8() as u16) << 7 | TAG) {
            Some(v) => Move(v),
            None => unreachable!("the tag bit is set"),
        }
    }

    pub fn from(self) -> Square {
        Square::from_index((self.0.get() & 0x7F) as u8)
    }

    pub fn to(self) -> Square {
        Square::from_index((self.0.get() >> 7 & 0x7F) as u8)
    }

    /// The two bytes, for storage.
    pub fn raw(self) -> u16 {
        self.0.get()
    }

    /// A move from [`Move::raw`]; `None` for anything that is not a stored move.
    pub fn from_raw(raw: u16) -> Option<Move> {
        if raw & !(TAG | 0x3FFF) != 0 || raw & TAG == 0 {
            return None;
        }
        let (from, to) = (
            Square::new((raw & 0x7F) as u8)?,
            Square::new((raw >> 7 & 0x7F) as u8)?,
        );
        (from != to).then(|| Move::new(from, to))
    }

    /// A compact index in `0..2^14`, for history tables.
    pub fn index(self) -> usize {
        (self.0.get() & (TAG - 1)) as usize
    }
}

/// `d1d3`, the UCI-style form.
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from(), self.to())
    }
}

/// More than any side can have, with any number of pieces: a move lands on an empty square,
/// and each empty square is reached from each of the four directions by at most one piece,
/// the nearest, so there are never more than 4 x 121 = 484 moves.
pub const MAX_MOVES: usize = 512;

/// The legal moves of a position, on the stack.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(std::mem::size_of::<Move>(), 2);
        assert_eq!(std::mem::size_of::<Option<Move>>(), 2);
    }

    #[test]
    fn packs_every_pair() {
        for a in Square::all() {
            for b in Square::all().filter(|&b| b != a) {
                let m = Move::new(a, b);
                assert_eq!((m.from(), m.to()), (a, b));
                assert!(m.index() < 1 << 14);
            }
        }
        let m = Move::new(Square::parse("d1").unwrap(), Square::parse("d3").unwrap());
        assert_eq!(m.to_string(), "d1d3");
        assert_eq!(format!("{m:?}"), "d1-d3");
    }
}
