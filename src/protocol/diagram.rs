//! The board as text for people, rank 11 at the top: `a` attacker, `d` defender, `k` king,
//! `+` an empty restricted square.

use crate::board::{Board, Piece, Square};

pub fn diagram(b: &Board) -> String {
    let mut s = String::new();
    for rank in (0..11).rev() {
        s.push_str(&format!("{:>2} ", rank + 1));
        for file in 0..11 {
            let sq = Square::from_coords(file, rank).expect("on board");
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
    s.push_str("   a b c d e f g h i j k\n");
    s
}
