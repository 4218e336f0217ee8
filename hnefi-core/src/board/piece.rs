//! The two sides and the three kinds of piece.

use std::fmt;

/// A side of the game. The attackers move first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Side {
    Attackers,
    Defenders,
}

impl Side {
    pub const fn opponent(self) -> Side {
        match self {
            Side::Attackers => Side::Defenders,
            Side::Defenders => Side::Attackers,
        }
    }

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
    Attacker,
    Defender,
    King,
}

impl Piece {
    pub const ALL: [Piece; 3] = [Piece::Attacker, Piece::Defender, Piece::King];

    pub const fn side(self) -> Side {
        match self {
            Piece::Attacker => Side::Attackers,
            Piece::Defender | Piece::King => Side::Defenders,
        }
    }

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
