//! The board as text for people, the last rank at the top: `a` attacker, `d` defender, `k`
//! king, `+` an empty restricted square (a corner or the throne).

use crate::board::generic::{Board, Square};
use crate::board::{Geometry, Piece};

pub fn diagram<G: Geometry>(b: &Board<G>) -> String {
    let mut s = String::new();
    for rank in (0..G::SIDE).rev() {
        s.push_str(&format!("{:>2} ", rank + 1));
        for file in 0..G::SIDE {
            let sq = Square::<G>::from_coords(file, rank).expect("on board");
            let c = match b.piece_at(sq) {
                Some(Piece::Attacker) => 'a',
                Some(Piece::Defender) => 'd',
                Some(Piece::King) => 'k',
                None if sq.is_restricted() => '+',
                None => '.',
            };
            s.push(c);
            s.push(' ');
        }
        s.push('\n');
    }
    s.push_str("  ");
    for file in 0..G::SIDE {
        s.push(' ');
        s.push(char::from(b'a' + file));
    }
    s.push('\n');
    s
}
