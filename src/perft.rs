//! Perft: counting the leaves of the legal move tree, by position alone (history ignored).

use crate::board::{Board, MoveList, Rules};
use rayon::prelude::*;

/// Leaves at `depth` plies below `board`. A position whose game is over (by the board alone)
/// has no moves: the move that ended it is a leaf and is not expanded.
pub fn perft(board: &Board, depth: u32, rules: &Rules) -> u64 {
    match depth {
        0 => 1,
        1 => board.count_moves() as u64,
        _ => {
            let mut list = MoveList::new();
            board.generate_moves(&mut list);
            let mut total = 0;
            for &mv in &list {
                let mut child = *board;
                child.play(mv, rules);
                if child.mover_win(mv, rules).is_none() {
                    total += perft(&child, depth - 1, rules);
                }
            }
            total
        }
    }
}

/// Perft split by root move: each move with its leaf count, in generation order, computed in
/// parallel on rayon's pool.
pub fn divide(board: &Board, depth: u32, rules: &Rules) -> Vec<(crate::board::Move, u64)> {
    let mut list = MoveList::new();
    board.generate_moves(&mut list);
    list.par_iter()
        .map(|&mv| {
            let mut child = *board;
            child.play(mv, rules);
            let n = if depth <= 1 {
                1
            } else if child.mover_win(mv, rules).is_some() {
                0
            } else {
                perft(&child, depth - 1, rules)
            };
            (mv, n)
        })
        .collect()
}
