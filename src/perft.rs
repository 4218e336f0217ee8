//! Perft: the leaves of the legal move tree, by position alone (history ignored), as chess
//! engines count them. Parallel over root moves; bulk-counted at the last ply.

use crate::board::{Board, History, Move, MoveList, Rulebook, Rules};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

/// Leaves at `depth` plies below `board`, which must not be a finished game. A position whose
/// game is over (by the board alone) has no moves: the move that ended it is a leaf and is not
/// expanded.
pub fn perft(board: &Board, depth: u32, rules: &Rules) -> u64 {
    count(board, depth, rules, None).expect("only a stop ends a count early")
}

/// [`perft`] that gives up, returning `None`, soon after `stop` is set: a deep perft can take
/// days, and a protocol must stay able to end it.
pub fn perft_until(board: &Board, depth: u32, rules: &Rules, stop: &AtomicBool) -> Option<u64> {
    count(board, depth, rules, Some(stop))
}

fn count(board: &Board, depth: u32, rules: &Rules, stop: Option<&AtomicBool>) -> Option<u64> {
    match depth {
        0 => Some(1),
        1 => Some(board.count_moves() as u64),
        _ => {
            // Below depth 3 a subtree takes microseconds: checking there would only slow it.
            if depth >= 3 && stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                return None;
            }
            let book = Rulebook::new(*rules);
            let mut list = MoveList::new();
            board.generate_moves(&mut list);
            let mut total = 0;
            for &mv in &list {
                let mut child = *board;
                child.play(mv, rules);
                if book.mover_win(&child, mv).is_none() {
                    total += count(&child, depth - 1, rules, stop)?;
                }
            }
            Some(total)
        }
    }
}

/// Whether the rulebook calls a set-up position over by the board alone (king on a corner, a
/// fort after the defenders' move, an encirclement after the attackers', no legal move): it
/// then has no moves.
pub fn is_over(board: &Board, rules: &Rules) -> bool {
    Rulebook::new(*rules)
        .outcome(board, None, &History::none())
        .is_some()
}

/// Progress of a running [`divide`], readable from another thread.
#[derive(Default)]
pub struct Progress {
    pub roots_done: AtomicUsize,
    pub roots_total: AtomicUsize,
    pub leaves: AtomicU64,
}

/// Perft split by root move, in generation order, computed in parallel on the current rayon
/// pool. Each root's count is added to `progress` as it finishes.
pub fn divide(board: &Board, depth: u32, rules: &Rules, progress: &Progress) -> Vec<(Move, u64)> {
    let mut list = MoveList::new();
    if depth == 0 || is_over(board, rules) {
        return Vec::new();
    }
    board.generate_moves(&mut list);
    progress.roots_total.store(list.len(), Ordering::Relaxed);
    list.par_iter()
        .with_max_len(1)
        .map(|&mv| {
            let mut child = *board;
            child.play(mv, rules);
            let n = if depth == 1 {
                1
            } else if Rulebook::new(*rules).mover_win(&child, mv).is_some() {
                0
            } else {
                perft(&child, depth - 1, rules)
            };
            progress.leaves.fetch_add(n, Ordering::Relaxed);
            progress.roots_done.fetch_add(1, Ordering::Relaxed);
            (mv, n)
        })
        .collect()
}

/// [`divide`] that gives up, returning `None`, soon after `stop` is set.
pub fn divide_until(
    board: &Board,
    depth: u32,
    rules: &Rules,
    stop: &AtomicBool,
) -> Option<Vec<(Move, u64)>> {
    let mut list = MoveList::new();
    if depth == 0 || is_over(board, rules) {
        return Some(Vec::new());
    }
    let book = Rulebook::new(*rules);
    board.generate_moves(&mut list);
    list.par_iter()
        .with_max_len(1)
        .map(|&mv| {
            let mut child = *board;
            child.play(mv, rules);
            let n = if depth == 1 {
                1
            } else if book.mover_win(&child, mv).is_some() {
                0
            } else {
                perft_until(&child, depth - 1, rules, stop)?
            };
            Some((mv, n))
        })
        .collect()
}

/// The perft that a [`divide`] to `depth` splits: the sum of its root moves' counts, or 1 at
/// depth 0, where by convention the position itself is the one leaf.
pub fn total(depth: u32, divided: &[(Move, u64)]) -> u64 {
    match depth {
        0 => 1,
        _ => divided.iter().map(|(_, n)| n).sum(),
    }
}

/// Total perft of a position on the current rayon pool.
pub fn perft_parallel(board: &Board, depth: u32, rules: &Rules) -> u64 {
    total(depth, &divide(board, depth, rules, &Progress::default()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_shallow() {
        let b = Board::start();
        let r = Rules::default();
        let expected = [1, 116, 6788, 806344];
        for (d, &n) in expected.iter().enumerate() {
            assert_eq!(perft(&b, d as u32, &r), n);
            assert_eq!(perft_parallel(&b, d as u32, &r), n);
        }
        let go_on = AtomicBool::new(false);
        let divided = divide_until(&b, 3, &r, &go_on).unwrap();
        assert_eq!(divided.iter().map(|(_, n)| n).sum::<u64>(), 806344);
        assert_eq!(divided, divide(&b, 3, &r, &Progress::default()));
        // Stopped: a depth that would take hours gives up at once.
        let stop = AtomicBool::new(true);
        assert_eq!(divide_until(&b, 9, &r, &stop), None);
    }
}
