//! The move policy's local features: what lies around a move's two squares, which the
//! accumulator's rows cannot see (a man landing between an enemy and a friend captures; one
//! leaving a ring's wall opens it). Each move reads [`FEATS`] entries of a table of
//! [`PATTERNS`] weights, a block of them for each side to move and piece (man or king):
//!
//! - the four neighbours of the landing square, after the move: one entry of `STATES^4`;
//! - each neighbour with the square beyond it, in all four directions alike: four entries
//!   of `STATES^2`;
//! - the four neighbours of the square left, before the move: one entry of `STATES^4`;
//! - the landing and the leaving square's distances to the king (by files and ranks, at most
//!   20), and the landing square's to the nearest corner (at most 10): an entry each.
//!
//! Held out on the deep searches' moves, they raise the policy's top-1 agreement from 18.6 %
//! to 22.1 % (NET.md).

use crate::board::square::Direction;
use crate::board::{Bitboard, Board, Geometry, Move, Side, Square};

/// Entries a move reads.
pub const FEATS: usize = 9;
/// What a square is to the side moving: empty, own man, enemy man, own king, enemy king, an
/// empty restricted square, off the board.
const STATES: usize = 7;
const HOOD: usize = STATES.pow(4);
const PAIR: usize = STATES.pow(2);
const KING_DISTANCES: usize = 21;
const CORNER_DISTANCES: usize = 11;
/// Entries of one side and piece.
const BLOCK: usize = 2 * HOOD + PAIR + 2 * KING_DISTANCES + CORNER_DISTANCES;
/// The table's entries: a block for each side to move and piece.
pub const PATTERNS: usize = 4 * BLOCK;

/// What `square` is to the side to move once a piece has left `left` (which reads as empty).
#[inline(always)]
fn state<G: Geometry>(board: &Board<G>, square: Option<Square<G>>, left: Square<G>) -> usize {
    let Some(sq) = square else { return 6 };
    let restricted = Bitboard::<G>::RESTRICTED.contains(sq);
    if sq == left {
        return if restricted { 5 } else { 0 };
    }
    let (own, enemy) = match board.side_to_move() {
        Side::Attackers => (board.attackers(), board.defenders()),
        Side::Defenders => (board.defenders(), board.attackers()),
    };
    if own.contains(sq) {
        1
    } else if enemy.contains(sq) {
        2
    } else if board.king() == sq {
        if board.side_to_move() == Side::Defenders {
            3
        } else {
            4
        }
    } else if restricted {
        5
    } else {
        0
    }
}

/// The table entries of `mv`, a move of the side to move on `board`.
pub fn move_patterns<G: Geometry>(board: &Board<G>, mv: Move<G>) -> [u16; FEATS] {
    let (from, to) = (mv.from(), mv.to());
    let king = from == board.king();
    let block = (board.side_to_move().index() * 2 + usize::from(king)) * BLOCK;
    let mut entries = [0; FEATS];
    let mut landing = 0;
    for (i, d) in Direction::ALL.into_iter().enumerate() {
        let next = to.step(d);
        let near = state(board, next, from);
        let beyond = state(board, next.and_then(|n| n.step(d)), from);
        landing = landing * STATES + near;
        entries[1 + i] = block + HOOD + near * STATES + beyond;
    }
    entries[0] = block + landing;
    let leaving = Direction::ALL.into_iter().fold(0, |code, d| {
        code * STATES + state(board, from.step(d), from)
    });
    entries[5] = block + HOOD + PAIR + leaving;
    let k = board.king();
    let to_king = |sq: Square<G>| {
        usize::from(sq.file().abs_diff(k.file()) + sq.rank().abs_diff(k.rank()))
            .min(KING_DISTANCES - 1)
    };
    let distances = block + 2 * HOOD + PAIR;
    entries[6] = distances + to_king(to);
    entries[7] = distances + KING_DISTANCES + to_king(from);
    let last = G::SIDE - 1;
    let to_corner = usize::from(to.file().min(last - to.file()) + to.rank().min(last - to.rank()));
    entries[8] = distances + 2 * KING_DISTANCES + to_corner.min(CORNER_DISTANCES - 1);
    entries.map(|e| e as u16)
}

// Every entry fits the table's u16 indices.
const _: () = assert!(PATTERNS <= u16::MAX as usize + 1);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::rules::Rules;
    use crate::board::{Eleven, MoveList, Rulebook, Seven, Thirteen};

    fn every_entry_in_its_block<G: Geometry>(fen: &str, rules: Rules) {
        let board = Board::<G>::from_position(fen).unwrap();
        let mut list = MoveList::new();
        board.generate_moves(&Rulebook::<G>::new(rules), &mut list);
        assert!(!list.is_empty());
        for &mv in &list {
            let entries = move_patterns(&board, mv);
            let block = usize::from(entries[0]) / BLOCK;
            assert_eq!(
                block,
                board.side_to_move().index() * 2 + usize::from(mv.from() == board.king())
            );
            assert!(
                entries.iter().all(|&e| usize::from(e) / BLOCK == block),
                "{mv}"
            );
        }
    }

    #[test]
    fn every_move_reads_its_own_block_on_every_board() {
        use crate::board::Preset;
        for preset in [Preset::Brandubh, Preset::Copenhagen, Preset::Copenhagen13] {
            let rules = Rules::preset(preset);
            match rules.width {
                7 => every_entry_in_its_block::<Seven>(preset.start_fen(), rules),
                11 => every_entry_in_its_block::<Eleven>(preset.start_fen(), rules),
                _ => every_entry_in_its_block::<Thirteen>(preset.start_fen(), rules),
            }
        }
        // The defenders' king moves read the last block.
        let fen = "1a9/11/11/11/11/5k5/11/11/11/11/11 d";
        every_entry_in_its_block::<Eleven>(fen, Rules::default());
    }

    #[test]
    fn a_landing_between_an_enemy_and_a_friend_reads_the_capture_pair() {
        // The attacker d1-d5 lands beside the defender e5, with the attacker f5 beyond.
        let board =
            Board::<Eleven>::from_position("10k/11/11/11/11/11/4da5/11/11/11/3a7 a").unwrap();
        let mv = Move::new(Square::parse("d1").unwrap(), Square::parse("d5").unwrap());
        let entries = move_patterns(&board, mv);
        // East of d5: an enemy man (2), then an own man (1).
        let east = entries[1 + Direction::ALL
            .iter()
            .position(|&d| d == Direction::East)
            .unwrap()];
        assert_eq!(usize::from(east), HOOD + 2 * STATES + 1);
        // The square left reads as empty to its own neighbours' code, and d1's neighbours
        // are off the board to the south.
        assert!(usize::from(entries[5]) >= HOOD + PAIR);
    }
}
