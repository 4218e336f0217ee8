//! Boards with any number of pieces, for property tests: shared by the tests of the rules
//! crate and of the tools (tests/properties.rs).

use hnefi_rules::board::{Bitboard, Board, Eleven, Side, Square};

/// A board with any number of pieces: `cells` says per square 0 empty, 1 attacker, 2 defender
/// (restricted squares stay empty), and the king stands on `king`.
pub fn crowded(cells: &[u8], king: usize, defenders_move: bool) -> Board<Eleven> {
    let mut attackers = Bitboard::EMPTY;
    let mut defenders = Bitboard::EMPTY;
    let king = Square::new(king as u8).expect("on the board");
    for (i, &c) in cells.iter().enumerate() {
        let sq = Square::new(i as u8).expect("on the board");
        if sq == king || sq.is_restricted() {
            continue;
        }
        match c {
            1 => attackers = attackers.with(sq),
            2 => defenders = defenders.with(sq),
            _ => {}
        }
    }
    let side = if defenders_move {
        Side::Defenders
    } else {
        Side::Attackers
    };
    Board::new(attackers, defenders, king, side).expect("a playable board")
}
