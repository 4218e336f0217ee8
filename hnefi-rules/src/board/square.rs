//! Squares of a board of any size: `a1` is index 0, the last square the top right.

use super::geometry::{Eleven, Geometry};
use std::fmt;
use std::marker::PhantomData;

/// One square of a board of geometry `G`, index `rank * side + file`, both counted from zero.
pub struct Square<G: Geometry>(u8, PhantomData<G>);

// By hand: derived impls would ask the same of `G`, which is only a marker.
impl<G: Geometry> Clone for Square<G> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}
impl<G: Geometry> Copy for Square<G> {}
impl<G: Geometry> PartialEq for Square<G> {
    #[inline(always)]
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}
impl<G: Geometry> Eq for Square<G> {}
impl<G: Geometry> PartialOrd for Square<G> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl<G: Geometry> Ord for Square<G> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.cmp(&other.0)
    }
}
impl<G: Geometry> std::hash::Hash for Square<G> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.hash(state)
    }
}
impl<G: Geometry> fmt::Debug for Square<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Square({self})")
    }
}

/// The four directions a piece moves in.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Direction {
    /// Towards the last rank.
    North,
    /// Towards the last file.
    East,
    /// Towards the first rank.
    South,
    /// Towards the first file.
    West,
}

impl Direction {
    /// The four directions, in index order.
    pub const ALL: [Direction; 4] = [
        Direction::North,
        Direction::East,
        Direction::South,
        Direction::West,
    ];

    /// North 0, east 1, south 2, west 3: an index into per-direction tables.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The direction back.
    pub const fn opposite(self) -> Direction {
        match self {
            Direction::North => Direction::South,
            Direction::East => Direction::West,
            Direction::South => Direction::North,
            Direction::West => Direction::East,
        }
    }
}

impl<G: Geometry> Square<G> {
    const SIDE: u8 = G::SIDE;

    /// The square at `index`, if it is on the board.
    pub const fn new(index: u8) -> Option<Self> {
        if (index as usize) < G::SQUARES {
            Some(Square(index, PhantomData))
        } else {
            None
        }
    }

    /// # Panics
    /// In debug builds, if `index` is off the board.
    #[inline(always)]
    pub const fn from_index(index: u8) -> Self {
        debug_assert!((index as usize) < G::SQUARES);
        Square(index, PhantomData)
    }

    /// The square at zero-based `file` and `rank`, if both are on the board.
    pub const fn from_coords(file: u8, rank: u8) -> Option<Self> {
        if file < Self::SIDE && rank < Self::SIDE {
            Some(Square(rank * Self::SIDE + file, PhantomData))
        } else {
            None
        }
    }

    #[inline(always)]
    /// The square's number, `rank * side + file`, `a1` 0.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline(always)]
    /// The square's number as a byte.
    pub const fn to_u8(self) -> u8 {
        self.0
    }

    /// Zero-based file: 0 is `a`.
    #[inline(always)]
    pub const fn file(self) -> u8 {
        self.0 % Self::SIDE
    }

    /// Zero-based rank: 0 is rank 1.
    #[inline(always)]
    pub const fn rank(self) -> u8 {
        self.0 / Self::SIDE
    }

    /// The neighbouring square in `dir`, if there is one.
    #[inline]
    pub const fn step(self, dir: Direction) -> Option<Self> {
        let (f, r) = (self.file(), self.rank());
        match dir {
            Direction::North if r + 1 < Self::SIDE => {
                Some(Square(self.0 + Self::SIDE, PhantomData))
            }
            Direction::South if r > 0 => Some(Square(self.0 - Self::SIDE, PhantomData)),
            Direction::East if f + 1 < Self::SIDE => Some(Square(self.0 + 1, PhantomData)),
            Direction::West if f > 0 => Some(Square(self.0 - 1, PhantomData)),
            _ => None,
        }
    }

    #[inline]
    /// Whether the square is on the edge.
    pub const fn is_edge(self) -> bool {
        let (f, r) = (self.file(), self.rank());
        f == 0 || r == 0 || f == Self::SIDE - 1 || r == Self::SIDE - 1
    }

    #[inline]
    /// Whether the square is a corner.
    pub const fn is_corner(self) -> bool {
        let (f, r) = (self.file(), self.rank());
        (f == 0 || f == Self::SIDE - 1) && (r == 0 || r == Self::SIDE - 1)
    }

    #[inline(always)]
    /// Whether the square is the throne.
    pub const fn is_throne(self) -> bool {
        self.0 as usize == G::SQUARES / 2
    }

    /// Throne or corner: only the king may stop here.
    #[inline]
    pub const fn is_restricted(self) -> bool {
        self.is_throne() || self.is_corner()
    }

    /// The throne, the centre square.
    pub const fn throne() -> Self {
        Square((G::SQUARES / 2) as u8, PhantomData)
    }

    /// The four corners: bottom left, bottom right, top left, top right.
    pub const fn corners() -> [Self; 4] {
        let (side, last) = (Self::SIDE, G::SQUARES as u8 - 1);
        [
            Square(0, PhantomData),
            Square(side - 1, PhantomData),
            Square(last + 1 - side, PhantomData),
            Square(last, PhantomData),
        ]
    }

    /// All squares, `a1` first.
    pub fn all() -> impl Iterator<Item = Self> {
        (0..G::SQUARES as u8).map(Self::from_index)
    }

    /// Reads a square such as `f6` or `K11`; the whole of `text` must be the square.
    pub fn parse(text: &str) -> Result<Self, SquareError> {
        let mut chars = text.chars();
        let file_char = chars.next().ok_or(SquareError::Empty)?;
        let lower = file_char.to_ascii_lowercase();
        let last_file = (b'a' + Self::SIDE - 1) as char;
        if !('a'..=last_file).contains(&lower) {
            return Err(SquareError::BadFile {
                file: file_char,
                last: last_file,
            });
        }
        let rank_text = chars.as_str();
        let bad_rank = || SquareError::BadRank {
            rank: rank_text.to_string(),
            side: Self::SIDE,
        };
        if rank_text.is_empty()
            || rank_text.len() > 2
            || !rank_text.bytes().all(|b| b.is_ascii_digit())
            || rank_text.starts_with('0')
        {
            return Err(bad_rank());
        }
        let rank: u8 = rank_text.parse().map_err(|_| bad_rank())?;
        if !(1..=Self::SIDE).contains(&rank) {
            return Err(bad_rank());
        }
        Ok(Square(
            (rank - 1) * Self::SIDE + (lower as u8 - b'a'),
            PhantomData,
        ))
    }
}

/// The throne of the 11x11 board, `f6`.
pub const THRONE: Square<Eleven> = Square::throne();
/// The corners of the 11x11 board: `a1`, `k1`, `a11`, `k11`.
pub const CORNERS: [Square<Eleven>; 4] = Square::corners();

/// Why a square could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SquareError {
    #[error("empty square name")]
    /// The text is empty.
    Empty,
    #[error("file '{file}' is not a letter from a to {last}")]
    /// A file past the board's last.
    BadFile {
        /// The file.
        file: char,
        /// The board's last file.
        last: char,
    },
    #[error("rank '{rank}' is not a number from 1 to {side}")]
    /// A rank that is no number of the board.
    BadRank {
        /// The rank as given.
        rank: String,
        /// The board's side.
        side: u8,
    },
}

impl<G: Geometry> fmt::Display for Square<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;

    #[test]
    fn names_round_trip() {
        for sq in Square::<Eleven>::all() {
            assert_eq!(Square::parse(&sq.to_string()), Ok(sq));
        }
        assert_eq!(Square::parse("F6"), Ok(THRONE));
        assert_eq!(Square::<Eleven>::parse("a1").unwrap().index(), 0);
        assert_eq!(Square::<Eleven>::parse("k11").unwrap().index(), 120);
    }

    #[test]
    fn bad_names() {
        for bad in ["", "l1", "a0", "a12", "a", "a01", "1a", "a1x", "é1", "a+1"] {
            assert!(Square::<Eleven>::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn geometry() {
        let a1 = Square::<Eleven>::parse("a1").unwrap();
        assert!(a1.is_corner() && a1.is_edge() && a1.is_restricted());
        assert_eq!(a1.step(Direction::West), None);
        assert_eq!(a1.step(Direction::South), None);
        assert_eq!(a1.step(Direction::North), Square::parse("a2").ok());
        let k5 = Square::<Eleven>::parse("k5").unwrap();
        assert_eq!(k5.step(Direction::East), None);
        assert!(THRONE.is_restricted() && !THRONE.is_edge());
        assert_eq!(Square::<Eleven>::all().filter(|s| s.is_edge()).count(), 40);
    }
}
