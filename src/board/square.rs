//! Squares of the 11x11 board: `a1` is index 0, `k11` is index 120.

use std::fmt;

/// Width and height of the board.
pub const SIZE: u8 = 11;
/// Number of squares.
pub const NUM_SQUARES: usize = 121;

/// One square of the board, index `rank * 11 + file`, both counted from zero.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Square(u8);

/// The four directions a piece moves in.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Direction {
    North,
    East,
    South,
    West,
}

impl Direction {
    pub const ALL: [Direction; 4] = [
        Direction::North,
        Direction::East,
        Direction::South,
        Direction::West,
    ];

    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn opposite(self) -> Direction {
        match self {
            Direction::North => Direction::South,
            Direction::East => Direction::West,
            Direction::South => Direction::North,
            Direction::West => Direction::East,
        }
    }
}

impl Square {
    /// The square at `index`, if it is on the board.
    pub const fn new(index: u8) -> Option<Square> {
        if (index as usize) < NUM_SQUARES {
            Some(Square(index))
        } else {
            None
        }
    }

    /// # Panics
    /// In debug builds, if `index` is off the board.
    pub const fn from_index(index: u8) -> Square {
        debug_assert!((index as usize) < NUM_SQUARES);
        Square(index)
    }

    /// The square at zero-based `file` and `rank`, if both are on the board.
    pub const fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if file < SIZE && rank < SIZE {
            Some(Square(rank * SIZE + file))
        } else {
            None
        }
    }

    pub const fn index(self) -> usize {
        self.0 as usize
    }

    pub const fn to_u8(self) -> u8 {
        self.0
    }

    /// Zero-based file: 0 is `a`.
    pub const fn file(self) -> u8 {
        self.0 % SIZE
    }

    /// Zero-based rank: 0 is rank 1.
    pub const fn rank(self) -> u8 {
        self.0 / SIZE
    }

    /// The neighbouring square in `dir`, if there is one.
    pub const fn step(self, dir: Direction) -> Option<Square> {
        let (f, r) = (self.file(), self.rank());
        match dir {
            Direction::North if r + 1 < SIZE => Some(Square(self.0 + SIZE)),
            Direction::South if r > 0 => Some(Square(self.0 - SIZE)),
            Direction::East if f + 1 < SIZE => Some(Square(self.0 + 1)),
            Direction::West if f > 0 => Some(Square(self.0 - 1)),
            _ => None,
        }
    }

    pub const fn is_edge(self) -> bool {
        let (f, r) = (self.file(), self.rank());
        f == 0 || r == 0 || f == SIZE - 1 || r == SIZE - 1
    }

    pub const fn is_corner(self) -> bool {
        let (f, r) = (self.file(), self.rank());
        (f == 0 || f == SIZE - 1) && (r == 0 || r == SIZE - 1)
    }

    pub const fn is_throne(self) -> bool {
        self.0 == THRONE.0
    }

    /// Throne or corner: only the king may stop here.
    pub const fn is_restricted(self) -> bool {
        self.is_throne() || self.is_corner()
    }

    /// All squares, `a1` first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..NUM_SQUARES as u8).map(Square)
    }

    /// Reads a square such as `f6` or `K11`; the whole of `text` must be the square.
    pub fn parse(text: &str) -> Result<Square, SquareError> {
        let mut chars = text.chars();
        let file_char = chars.next().ok_or(SquareError::Empty)?;
        let lower = file_char.to_ascii_lowercase();
        if !('a'..='k').contains(&lower) {
            return Err(SquareError::BadFile(file_char));
        }
        let rank_text = chars.as_str();
        if rank_text.is_empty()
            || rank_text.len() > 2
            || !rank_text.bytes().all(|b| b.is_ascii_digit())
            || rank_text.starts_with('0')
        {
            return Err(SquareError::BadRank(rank_text.to_string()));
        }
        let rank: u8 = rank_text
            .parse()
            .map_err(|_| SquareError::BadRank(rank_text.to_string()))?;
        if !(1..=SIZE).contains(&rank) {
            return Err(SquareError::BadRank(rank_text.to_string()));
        }
        Ok(Square((rank - 1) * SIZE + (lower as u8 - b'a')))
    }
}

/// The throne, `f6`.
pub const THRONE: Square = Square(5 * SIZE + 5);
/// The corners `a1`, `k1`, `a11`, `k11`.
pub const CORNERS: [Square; 4] = [Square(0), Square(10), Square(110), Square(120)];

/// Why a square could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SquareError {
    #[error("empty square name")]
    Empty,
    #[error("file '{0}' is not a letter from a to k")]
    BadFile(char),
    #[error("rank '{0}' is not a number from 1 to 11")]
    BadRank(String),
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for sq in Square::all() {
            assert_eq!(Square::parse(&sq.to_string()), Ok(sq));
        }
        assert_eq!(Square::parse("F6"), Ok(THRONE));
        assert_eq!(Square::parse("a1").unwrap().index(), 0);
        assert_eq!(Square::parse("k11").unwrap().index(), 120);
    }

    #[test]
    fn bad_names() {
        for bad in ["", "l1", "a0", "a12", "a", "a01", "1a", "a1x", "é1", "a+1"] {
            assert!(Square::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn geometry() {
        let a1 = Square::parse("a1").unwrap();
        assert!(a1.is_corner() && a1.is_edge() && a1.is_restricted());
        assert_eq!(a1.step(Direction::West), None);
        assert_eq!(a1.step(Direction::South), None);
        assert_eq!(a1.step(Direction::North), Square::parse("a2").ok());
        let k5 = Square::parse("k5").unwrap();
        assert_eq!(k5.step(Direction::East), None);
        assert!(THRONE.is_restricted() && !THRONE.is_edge());
        assert_eq!(Square::all().filter(|s| s.is_edge()).count(), 40);
    }
}
