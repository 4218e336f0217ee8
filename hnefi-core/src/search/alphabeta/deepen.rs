//! Iterative deepening with aspiration windows, one root search per depth and line, and the
//! decision when to go no deeper.

use super::{RootMove, Worker};
use crate::board::Board;
use crate::search::Info;
use crate::search::params::MAX_PLY;
use crate::search::params::MIN_DEPTH;
use crate::search::score::Score;
use crate::search::size::Size;
use std::sync::atomic::Ordering;

impl<G: Size> Worker<'_, G> {
    /// Iterative deepening over `multipv` lines. Reports the first `shown` lines of each
    /// finished iteration through `report` (thread 0 only) and returns the depth it completed
    /// with the root moves of that depth, best first. Whichever thread completes the depth
    /// limit first stops the others.
    pub fn iterate(
        &mut self,
        board: &Board<G>,
        mut root_moves: Vec<RootMove<G>>,
        multipv: usize,
        shown: usize,
        report: &mut dyn FnMut(Info<G>),
    ) -> (u32, Vec<RootMove<G>>) {
        let max_depth = self
            .shared
            .limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 8)
            .max(1) as i32;
        let multipv = multipv.clamp(1, root_moves.len().max(1));
        let mut completed: Vec<RootMove<G>> = root_moves.clone();
        let mut completed_depth = 0;
        // Helper threads start one ply deeper every other thread, and never fall behind the
        // main thread, so that their entries are ready when it gets there.
        let mut depth = (1 + (self.id % 2) as i32).min(max_depth);
        while depth <= max_depth {
            if self.id == 0 {
                self.shared
                    .main_depth
                    .store(depth as u32, Ordering::Relaxed);
            } else {
                let ahead = self.shared.main_depth.load(Ordering::Relaxed) as i32 + 1;
                depth = depth.max(ahead.min(max_depth));
            }
            self.root_best = None;
            for pv_index in 0..multipv {
                self.seldepth = 0;
                let prev = root_moves[pv_index].score;
                let mut delta = self.params.aspiration_window;
                let (mut alpha, mut beta) =
                    if depth >= self.params.aspiration_min_depth && !prev.is_decisive() {
                        (prev - delta, prev + delta)
                    } else {
                        (-Score::INFINITE, Score::INFINITE)
                    };
                loop {
                    let score =
                        self.root_search(board, depth, alpha, beta, &mut root_moves, pv_index);
                    if self.stopped() {
                        break;
                    }
                    if score <= alpha {
                        beta = Score((alpha.0 + beta.0) / 2);
                        alpha = (score - delta).max(-Score::INFINITE);
                    } else if score >= beta {
                        beta = (score + delta).min(Score::INFINITE);
                    } else {
                        break;
                    }
                    delta += delta * self.params.aspiration_growth / 100
                        + self.params.aspiration_growth_cp;
                    if delta > self.params.aspiration_give_up {
                        alpha = -Score::INFINITE;
                        beta = Score::INFINITE;
                    }
                }
                root_moves[pv_index..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                if self.stopped() {
                    break;
                }
            }
            if self.stopped() {
                // A move that beat the first one in the unfinished iteration is the better
                // move: at a fixed time a move that iteration is up to half the time spent.
                if multipv == 1
                    && let Some(rb) = self.root_best.take()
                    && completed.first().is_none_or(|c| c.mv != rb.mv)
                {
                    if self.id == 0 {
                        report(self.info(depth as u32, 1, &rb));
                    }
                    completed.retain(|rm| rm.mv != rb.mv);
                    completed.insert(0, rb);
                }
                break;
            }
            // A later line may have scored above an earlier one: report them best first.
            root_moves[..multipv].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            if self.id == 0 {
                for (i, rm) in root_moves[..multipv.min(shown)].iter().enumerate() {
                    report(self.info(depth as u32, i + 1, rm));
                }
            }
            completed = root_moves.clone();
            completed_depth = depth as u32;
            if completed_depth >= MIN_DEPTH
                && let Some(budget) = self.shared.level_nodes
            {
                self.node_limit = Some(self.node_limit.map_or(budget, |n| n.min(budget)));
            }
            if depth == max_depth
                && !self.shared.limits.infinite
                && !self.shared.pondering.load(Ordering::Relaxed)
            {
                self.shared.stop.store(true, Ordering::Relaxed);
            }
            if self.id == 0
                && !self.shared.pondering.load(Ordering::Relaxed)
                && self.shared.time.soft_exceeded()
            {
                break;
            }
            // A forced result found with no reductions left to doubt it: deeper adds nothing.
            if completed[0]
                .score
                .plies_to_end()
                .is_some_and(|n| (n as i32) < depth - 2)
                && self.shared.limits.depth.is_none()
                && !self.shared.limits.infinite
                && self.shared.limits.nodes.is_none()
                && multipv == 1
            {
                break;
            }
            depth += 1;
        }
        self.flush();
        (completed_depth, completed)
    }

    fn info(&self, depth: u32, multipv: usize, rm: &RootMove<G>) -> Info<G> {
        let nodes = self.shared.nodes.load(Ordering::Relaxed) + self.unflushed;
        let time = self.shared.time.elapsed();
        Info {
            depth,
            seldepth: rm.seldepth.max(depth),
            multipv,
            score: rm.score,
            nodes,
            nps: (nodes as f64 / time.as_secs_f64().max(1e-3)) as u64,
            hashfull: self.shared.tt.hashfull(),
            time,
            pv: rm.pv.clone(),
        }
    }
}
