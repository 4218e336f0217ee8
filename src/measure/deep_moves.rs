//! How soon a fast search finds the move a deep search chose (the samples' `BESTMOVE`), with
//! the move policy and without it: the measure of issue 73's policy inside the search.

use crate::board::Position;
use crate::board::Rules;
use crate::learn::sample::Sample;
use crate::search::size::Size;
use crate::search::{Go, Options, Searcher};
use rayon::prelude::*;
use std::sync::{Arc, Mutex};

/// What the searches of a set of positions showed.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DeepMoveReport {
    /// Positions searched.
    pub positions: usize,
    /// Whose search ended on the deep move.
    pub found: usize,
    /// Mean nodes until the search settled on the deep move for good, the cap counted for
    /// those that never did.
    pub mean_nodes: f64,
    /// The median of the same.
    pub median_nodes: u64,
}

impl DeepMoveReport {
    /// The report of each position's nodes to the deep move (`None`: not found by `cap`).
    pub fn of(nodes: &[Option<u64>], cap: u64) -> DeepMoveReport {
        let mut counted: Vec<u64> = nodes.iter().map(|n| n.unwrap_or(cap)).collect();
        counted.sort_unstable();
        DeepMoveReport {
            positions: nodes.len(),
            found: nodes.iter().flatten().count(),
            mean_nodes: if counted.is_empty() {
                0.0
            } else {
                counted.iter().sum::<u64>() as f64 / counted.len() as f64
            },
            median_nodes: counted.get(counted.len() / 2).copied().unwrap_or(0),
        }
    }
}

/// For each sample with a best move, the nodes a search of at most `cap` nodes under
/// `options` (one thread) took to settle on that move: from the first iteration whose best
/// move it was and stayed to the end; `None` where the search ended on another. Each
/// position is searched from an empty table, on the current rayon pool.
pub fn nodes_to_deep_move<G: Size>(
    samples: &[Sample<G>],
    rules: Rules,
    options: &Options,
    cap: u64,
) -> Vec<Option<u64>> {
    let options = Options {
        threads: 1,
        ..options.clone()
    };
    samples
        .par_iter()
        .filter_map(|s| s.best.map(|best| (s, best)))
        .map_init(
            || Searcher::<G>::new(options.clone()),
            |engine, (s, best)| {
                engine.clear();
                let pos = Position::new(s.board, rules);
                // (nodes, best move) of each iteration's report, in order.
                let seen: Arc<Mutex<Vec<(u64, bool)>>> = Arc::default();
                let log = Arc::clone(&seen);
                let result = engine.search_with(
                    &pos,
                    Go {
                        nodes: Some(cap),
                        ..Go::default()
                    },
                    Box::new(move |info| {
                        if info.multipv == 1
                            && let Some(&mv) = info.pv.first()
                        {
                            log.lock()
                                .unwrap_or_else(|e| e.into_inner())
                                .push((info.nodes, mv == best));
                        }
                    }),
                );
                if result.best != Some(best) {
                    return None;
                }
                let seen = seen.lock().unwrap_or_else(|e| e.into_inner());
                // The last run of reports on the deep move began at ...
                let settled = seen.iter().rposition(|&(_, on)| !on).map_or(0, |i| i + 1);
                Some(seen.get(settled).map_or(result.nodes, |&(n, _)| n).min(cap))
            },
        )
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Move};
    use crate::learn::sample::GameResult;
    use crate::search::size::Standard;

    #[test]
    fn the_report_counts_the_cap_for_moves_not_found() {
        let r = DeepMoveReport::of(&[Some(10), None, Some(30)], 100);
        assert_eq!(r.positions, 3);
        assert_eq!(r.found, 2);
        assert!((r.mean_nodes - 140.0 / 3.0).abs() < 1e-9);
        assert_eq!(r.median_nodes, 30);
    }

    #[test]
    fn a_search_finds_its_own_move_and_not_another() {
        // The same search is deterministic: the move it plays is found, within the cap; a
        // legal move it does not play is not.
        let board = Board::<Standard>::start();
        let pos = Position::new(board, Rules::default());
        let played = Searcher::<Standard>::new(Options::default())
            .search(
                &pos,
                Go {
                    nodes: Some(3000),
                    ..Go::default()
                },
            )
            .best
            .expect("a move");
        let mut list = crate::board::MoveList::new();
        pos.legal_moves(&mut list);
        let other = *list.iter().find(|&&m| m != played).expect("two moves");
        let sample = |best: Move<Standard>| Sample {
            board,
            score: None,
            result: GameResult::Draw,
            game: 0,
            best: Some(best),
        };
        let found = nodes_to_deep_move(
            &[sample(played), sample(other)],
            Rules::default(),
            &Options::default(),
            3000,
        );
        assert!(found[0].is_some_and(|n| n <= 3000), "{found:?}");
        assert_eq!(found[1], None);
    }
}
