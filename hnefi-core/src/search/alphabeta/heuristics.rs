//! What a search thread learns about moves as it goes, for ordering and reductions: killer
//! moves per ply, a history score per side and move, and the late move reduction table.

use crate::board::generic::{Move, MoveList};
use crate::board::{Geometry, Side};
use crate::search::params::{MAX_PLY, SearchParams};

pub(super) struct Heuristics<G: Geometry> {
    killers: Vec<[Option<Move<G>>; 2]>,
    history: Vec<i32>,
    lmr: Vec<[i32; 64]>,
    history_max: i32,
    history_bonus_max: i32,
}

impl<G: Geometry> Heuristics<G> {
    pub(super) fn new(params: &SearchParams) -> Heuristics<G> {
        let mut lmr = vec![[0i32; 64]; 64];
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (params.lmr_base as f64 / 100.0
                    + (d as f64).ln() * (m as f64).ln() / (params.lmr_divisor as f64 / 100.0))
                    as i32;
            }
        }
        Heuristics {
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: vec![0; 2 * Move::<G>::INDICES],
            lmr,
            history_max: params.history_max,
            history_bonus_max: params.history_bonus_max,
        }
    }

    pub(super) fn killers(&self, p: usize) -> [Option<Move<G>>; 2] {
        self.killers[p]
    }

    /// The history scores of `side`'s moves, by [`Move::index`].
    pub(super) fn history(&self, side: Side) -> &[i32] {
        &self.history[side.index() * Move::<G>::INDICES..(side.index() + 1) * Move::<G>::INDICES]
    }

    /// The reduction of a late move: `searched` moves tried before it at `depth`.
    pub(super) fn reduction(&self, depth: i32, searched: usize) -> i32 {
        self.lmr[(depth as usize).min(63)][searched.min(63)]
    }

    /// Killers and history for a quiet move that failed high; the quiet moves tried before it
    /// are marked down.
    pub(super) fn reward(
        &mut self,
        side: Side,
        p: usize,
        mv: Move<G>,
        depth: i32,
        tried: &MoveList<G>,
    ) {
        let k = &mut self.killers[p];
        if k[0] != Some(mv) {
            k[1] = k[0];
            k[0] = Some(mv);
        }
        let bonus = (depth * depth).min(self.history_bonus_max);
        let base = side.index() * Move::<G>::INDICES;
        let history_max = self.history_max;
        let mut apply = |m: Move<G>, delta: i32| {
            let h = &mut self.history[base + m.index()];
            *h += delta - *h * delta.abs() / history_max;
        };
        apply(mv, bonus);
        for &q in tried {
            apply(q, -bonus);
        }
    }
}
