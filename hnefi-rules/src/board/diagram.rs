//! The board as text for people: `Display` for a [`Board`], the last rank at the top, `a` an
//! attacker, `d` a defender, `k` the king, `+` an empty restricted square (a corner or the
//! throne), `.` any other empty one, the files' letters under the board.

use super::geometry::Geometry;
use super::piece::Piece;
use super::position::Board;
use super::square::Square;
use std::fmt;

impl<G: Geometry> fmt::Display for Board<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..G::SIDE).rev() {
            write!(f, "{:>2} ", rank + 1)?;
            for file in 0..G::SIDE {
                let sq = Square::<G>::from_coords(file, rank).expect("on the board");
                let c = match self.piece_at(sq) {
                    Some(Piece::Attacker) => 'a',
                    Some(Piece::Defender) => 'd',
                    Some(Piece::King) => 'k',
                    None if sq.is_restricted() => '+',
                    None => '.',
                };
                write!(f, "{c} ")?;
            }
            writeln!(f)?;
        }
        write!(f, "  ")?;
        for file in 0..G::SIDE {
            write!(f, " {}", char::from(b'a' + file))?;
        }
        writeln!(f)
    }
}

#[cfg(test)]
mod tests {
    use crate::board::{Board, Preset, Seven};

    #[test]
    fn brandubh_is_drawn_with_its_throne_and_corners() {
        let board = crate::board::Board::<Seven>::from_fen(Preset::Brandubh.start_fen()).unwrap();
        let text = board.to_string();
        assert_eq!(text.lines().count(), 8);
        assert_eq!(text.lines().next(), Some(" 7 + . . a . . + "));
        assert_eq!(text.lines().nth(3), Some(" 4 a a d k d a a "));
        assert_eq!(text.lines().last(), Some("   a b c d e f g"));
        assert!(
            Board::start()
                .to_string()
                .starts_with("11 + . . a a a a a . . + \n")
        );
    }
}
