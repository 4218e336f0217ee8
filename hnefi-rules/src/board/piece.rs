//! The two sides and the three kinds of piece.

use std::fmt;

/// A side of the game. The attackers move first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Side {
    /// The side of the attackers, twice as many, who try to capture the king.
    Attackers,
    /// The king's side, who try to bring him to safety.
    Defenders,
}

impl Side {
    /// The other side.
    pub const fn opponent(self) -> Side {
        match self {
            Side::Attackers => Side::Defenders,
            Side::Defenders => Side::Attackers,
        }
    }

    /// Attackers 0, defenders 1: an index into per-side tables.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The letter of the FEN dialect: `a` or `d`.
    pub const fn letter(self) -> char {
        match self {
            Side::Attackers => 'a',
            Side::Defenders => 'd',
        }
    }

    /// Plural name, as OpenTafl writes it: `attackers`, `defenders`.
    pub const fn name(self) -> &'static str {
        match self {
            Side::Attackers => "attackers",
            Side::Defenders => "defenders",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A kind of piece.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Piece {
    /// An attacker.
    Attacker,
    /// A defender, one of the king's men.
    Defender,
    /// The king.
    King,
}

impl Piece {
    /// The kinds of piece, in index order.
    pub const ALL: [Piece; 3] = [Piece::Attacker, Piece::Defender, Piece::King];

    /// The side the piece plays for.
    pub const fn side(self) -> Side {
        match self {
            Piece::Attacker => Side::Attackers,
            Piece::Defender | Piece::King => Side::Defenders,
        }
    }

    /// Attacker 0, defender 1, king 2: an index into per-piece tables.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The piece's name in messages.
    pub const fn name(self) -> &'static str {
        match self {
            Piece::Attacker => "attacker",
            Piece::Defender => "defender",
            Piece::King => "king",
        }
    }
}
