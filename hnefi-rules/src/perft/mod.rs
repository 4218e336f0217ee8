//! Perft: the leaves of the legal move tree, by position alone (history ignored), as chess
//! engines count them. Parallel over root moves; bulk-counted at the last ply, the last two
//! fused on the classic boards (`leaf`); subtrees counted once each with a table
//! ([`PerftHash`]) where one is given.

use crate::board::geometry::Geometry;
use crate::board::moves::{Move, MoveList};
use crate::board::position::Board;
use crate::board::rulebook::Rulebook;
use crate::board::{History, Rules, Side};
use crate::parallel::*;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

mod hash;
mod leaf;

pub use hash::PerftHash;

/// Leaves at `depth` plies below `board`, which must not be a finished game. A position whose
/// game is over (by the board alone) has no moves: the move that ended it is a leaf and is not
/// expanded.
pub fn perft<G: Geometry>(board: &Board<G>, depth: u32, rules: &Rules) -> u64 {
    let rulebook = Rulebook::new(*rules);
    Walk::new(&rulebook)
        .count(board, depth)
        .expect("only a stop ends a count early")
}

/// [`perft`] under a rulebook already built.
#[doc(hidden)]
pub fn perft_with<G: Geometry>(board: &Board<G>, depth: u32, rulebook: &Rulebook<G>) -> u64 {
    Walk::new(rulebook)
        .count(board, depth)
        .expect("only a stop ends a count early")
}

/// How a count walks the tree: under which rules, until which stop, with which table.
struct Walk<'a, G: Geometry> {
    rulebook: &'a Rulebook<G>,
    stop: Option<&'a AtomicBool>,
    hash: Option<&'a PerftHash>,
}

impl<'a, G: Geometry> Walk<'a, G> {
    fn new(rulebook: &'a Rulebook<G>) -> Self {
        Walk {
            rulebook,
            stop: None,
            hash: None,
        }
    }

    /// The leaves `depth` plies below `board`; `None` if the stop was raised.
    fn count(&self, board: &Board<G>, depth: u32) -> Option<u64> {
        match depth {
            0 => Some(1),
            1 => Some(board.count_moves(self.rulebook) as u64),
            _ => {
                // Below depth 3 a subtree takes microseconds: checking there would only slow it.
                if depth >= 3 && self.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                    return None;
                }
                if let Some(n) = self.hash.and_then(|h| h.probe(board.key(), depth)) {
                    return Some(n);
                }
                let total = self.expand(board, depth)?;
                if let Some(hash) = self.hash {
                    hash.store(board.key(), depth, total);
                }
                Some(total)
            }
        }
    }

    /// The leaves below `board`, two plies or more deep, its children counted.
    fn expand(&self, board: &Board<G>, depth: u32) -> Option<u64> {
        let rulebook = self.rulebook;
        let mut list = MoveList::new();
        board.generate_moves(rulebook, &mut list);
        // Found once here, the defenders' way out spares most children the encirclement's
        // flood.
        let way_out = (board.side_to_move() == Side::Attackers && rulebook.rules().encirclement)
            .then(|| board.way_out())
            .flatten();
        if depth == 2 && leaf::applies(rulebook) {
            return Some(leaf::leaf_parents(board, &list, rulebook, way_out.as_ref()));
        }
        let mut total = 0;
        for &mv in &list {
            let mut child = *board;
            child.play(mv, rulebook);
            if rulebook
                .mover_win_past(&child, mv, way_out.as_ref())
                .is_none()
            {
                total += self.count(&child, depth - 1)?;
            }
        }
        Some(total)
    }
}

/// Whether the rulebook calls a set-up position over by the board alone (king on a corner, a
/// fort after the defenders' move, an encirclement after the attackers', no legal move): it
/// then has no moves.
pub(crate) fn is_over<G: Geometry>(board: &Board<G>, rules: &Rules) -> bool {
    Rulebook::<G>::new(*rules)
        .outcome(board, None, &History::none())
        .is_some()
}

/// Progress of a running [`divide`], readable from another thread, and its stop.
#[derive(Default)]
pub struct Progress {
    /// Root moves counted.
    pub roots_done: AtomicUsize,
    /// Root moves to count.
    pub roots_total: AtomicUsize,
    /// Leaves counted so far.
    pub leaves: AtomicU64,
    /// Set from another thread to end the count early: [`divide`] then gives `None`.
    pub stop: AtomicBool,
    /// A table of subtree counts the threads share, if one is given: a position reached by
    /// several move orders is counted once.
    pub hash: Option<PerftHash>,
}

/// Perft split by root move, in generation order, computed in parallel on the current rayon
/// pool: `None` if `progress.stop` was raised before it finished. Each root's count is added
/// to `progress` as it finishes.
pub fn divide<G: Geometry>(
    board: &Board<G>,
    depth: u32,
    rules: &Rules,
    progress: &Progress,
) -> Option<Vec<(Move<G>, u64)>> {
    let mut list = MoveList::new();
    if depth == 0 || is_over(board, rules) {
        return Some(Vec::new());
    }
    let rulebook = Rulebook::new(*rules);
    board.generate_moves(&rulebook, &mut list);
    progress.roots_total.store(list.len(), Ordering::Relaxed);
    let walk = Walk {
        rulebook: &rulebook,
        stop: Some(&progress.stop),
        hash: progress.hash.as_ref(),
    };
    list.par_iter()
        .with_max_len(1)
        .map(|&mv| {
            let mut child = *board;
            child.play(mv, &rulebook);
            let n = if depth == 1 {
                1
            } else if rulebook.mover_win(&child, mv).is_some() {
                0
            } else {
                walk.count(&child, depth - 1)?
            };
            progress.leaves.fetch_add(n, Ordering::Relaxed);
            progress.roots_done.fetch_add(1, Ordering::Relaxed);
            Some((mv, n))
        })
        .collect()
}

/// The perft that a [`divide`] to `depth` splits: the sum of its root moves' counts, or 1 at
/// depth 0, where by convention the position itself is the one leaf.
pub fn total<M>(depth: u32, divided: &[(M, u64)]) -> u64 {
    match depth {
        0 => 1,
        _ => divided.iter().map(|(_, n)| n).sum(),
    }
}

/// Total perft of a position on the current rayon pool.
pub fn perft_parallel<G: Geometry>(board: &Board<G>, depth: u32, rules: &Rules) -> u64 {
    let divided = divide(board, depth, rules, &Progress::default()).expect("nothing stops it");
    total(depth, &divided)
}

/// Why a position could not be counted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PerftError {
    /// The position is for a board size Hnefi does not play.
    #[error(transparent)]
    Size(#[from] crate::board::SizeError),
    /// The position cannot be read.
    #[error("position: {0}")]
    Position(String),
    /// [`Progress::stop`] was raised before the count finished.
    #[error("stopped before the count finished")]
    Stopped,
    /// The memory for a [`PerftHash`] of this size cannot be had.
    #[error("cannot allocate a perft hash of {mb} MB: choose a smaller --hash")]
    Hash {
        /// The size asked for, in MiB.
        mb: usize,
    },
}

/// [`divide`] of a position (a FEN, or an OpenTafl position string and the side to move)
/// under `rules`, on a board of `rules.width`. The moves come back as text.
pub fn divide_fen(
    fen: &str,
    depth: u32,
    rules: &Rules,
    progress: &Progress,
) -> Result<Vec<(String, u64)>, PerftError> {
    fn run<G: Geometry>(
        fen: &str,
        depth: u32,
        rules: &Rules,
        progress: &Progress,
    ) -> Result<Vec<(String, u64)>, PerftError> {
        let board = Board::<G>::from_position(fen).map_err(|e| {
            PerftError::Position(format!(
                "{e}; a position is a FEN or an OpenTafl position string and the side to move \
                 ('/ranks/ a') for the {side}x{side} board",
                side = G::SIDE
            ))
        })?;
        Ok(divide(&board, depth, rules, progress)
            .ok_or(PerftError::Stopped)?
            .into_iter()
            .map(|(mv, n)| (mv.to_string(), n))
            .collect())
    }
    crate::with_size!(rules.width, run(fen, depth, rules, progress))?
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_shallow() {
        let b = Board::<crate::board::Eleven>::start();
        let r = Rules::default();
        let expected = [1, 116, 6788, 806344];
        for (d, &n) in expected.iter().enumerate() {
            assert_eq!(perft(&b, d as u32, &r), n);
            assert_eq!(perft_parallel(&b, d as u32, &r), n);
        }
        let progress = Progress::default();
        let divided = divide(&b, 3, &r, &progress).unwrap();
        assert_eq!(total(3, &divided), 806344);
        assert_eq!(progress.leaves.load(Ordering::Relaxed), 806344);
        assert_eq!(progress.roots_done.load(Ordering::Relaxed), 116);
        // Stopped: a depth that would take hours gives up at once.
        let stopped = Progress::default();
        stopped.stop.store(true, Ordering::Relaxed);
        assert_eq!(divide(&b, 9, &r, &stopped), None);
    }

    /// OpenTafl's own move generator (v0.4.8.0b, through a harness around its classes, both
    /// its hard-coded variants and their rules strings) counts the same leaves.
    #[test]
    fn every_preset_counts_as_its_host() {
        use crate::board::Preset;
        let cases: [(Preset, &[u64]); 8] = [
            (Preset::SeaBattle, &[80, 4400, 353_200]),
            (Preset::Tablut, &[80, 4400, 353_200]),
            (Preset::FotevikenTablut, &[80, 4344, 337_856]),
            (Preset::Tawlbwrdd, &[136, 7620, 1_042_016]),
            (Preset::Brandub, &[40, 960, 39_512]),
            (Preset::Magpie, &[40, 960, 39_512]),
            (Preset::Fetlar, &[116, 6788, 806_344]),
            (Preset::Copenhagen13, &[]),
        ];
        for (preset, counts) in cases {
            let rules = Rules::preset(preset);
            for (depth, &n) in counts.iter().enumerate() {
                let divided = divide_fen(
                    preset.start_fen(),
                    depth as u32 + 1,
                    &rules,
                    &Progress::default(),
                );
                let total: u64 = divided.unwrap().iter().map(|(_, n)| n).sum();
                assert_eq!(total, n, "{preset} depth {}", depth + 1);
            }
        }
    }
}
