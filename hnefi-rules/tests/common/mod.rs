//! Shared helpers for the rules' integration tests: the real games, and boards set up from a
//! list of squares.
#![allow(dead_code)]

mod games;

pub use games::*;

use hnefi_rules::board::{Bitboard, Board, Eleven, Side, Square};

/// A board from a compact list: `"a: d1 f1; d: c3; k: e1"` (attackers, defenders, king).
pub fn setup(text: &str, side: Side) -> Board<Eleven> {
    let mut sets = [Bitboard::EMPTY; 2];
    let mut king = None;
    for part in text.split(';').map(str::trim).filter(|p| !p.is_empty()) {
        let (kind, squares) = part.split_once(':').expect("kind: squares");
        let mut squares = squares
            .split_whitespace()
            .map(|s| Square::parse(s).unwrap_or_else(|e| panic!("{s}: {e}")));
        match kind.trim() {
            "a" => sets[0] = squares.collect(),
            "d" => sets[1] = squares.collect(),
            "k" => king = squares.next_back(),
            other => panic!("unknown kind {other}"),
        }
    }
    Board::new(sets[0], sets[1], king.expect("a king"), side).expect("valid setup")
}

pub fn sq(s: &str) -> Square<Eleven> {
    Square::parse(s).unwrap()
}

pub fn squares(s: &str) -> Bitboard<Eleven> {
    s.split_whitespace().map(sq).collect()
}
