//! What a search thread learns about moves as it goes, for ordering and reductions: killer
//! moves per ply, a history score per side and move, and the late move reduction table. The main
//! thread's history lasts from one search of a game to the next, as the table does.

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

    /// Takes up the history scores the last search of the game left: the moves that refuted
    /// before mostly refute again a move later, and a short search has no time to learn them
    /// afresh. A history of another board size is ignored.
    pub(super) fn adopt_history(&mut self, kept: &mut Vec<i32>) {
        if kept.len() == self.history.len() {
            std::mem::swap(&mut self.history, kept);
        }
    }

    /// The history scores, for the next search of the game.
    pub(super) fn give_history(&mut self, keep: &mut Vec<i32>) {
        std::mem::swap(&mut self.history, keep);
    }

    #[cfg(test)]
    pub(super) fn history_of(&self, side: Side, mv: Move<G>) -> i32 {
        self.history(side)[mv.index()]
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Eleven;
    use crate::board::generic::Square;

    fn mv(from: &str, to: &str) -> Move<Eleven> {
        Move::new(Square::parse(from).unwrap(), Square::parse(to).unwrap())
    }

    #[test]
    fn a_history_passes_to_the_next_search_and_only_of_its_board_size() {
        let params = SearchParams::default();
        let mut first = Heuristics::<Eleven>::new(&params);
        first.reward(Side::Attackers, 0, mv("d1", "d3"), 4, &MoveList::new());
        let kept = first.history_of(Side::Attackers, mv("d1", "d3"));
        assert!(kept > 0);
        let mut store = Vec::new();
        first.give_history(&mut store);
        let mut next = Heuristics::<Eleven>::new(&params);
        next.adopt_history(&mut store);
        assert_eq!(next.history_of(Side::Attackers, mv("d1", "d3")), kept);
        // A store of another size is left alone.
        let mut other = vec![5; 7];
        let mut fresh = Heuristics::<Eleven>::new(&params);
        fresh.adopt_history(&mut other);
        assert_eq!(other, vec![5; 7]);
        assert_eq!(fresh.history_of(Side::Attackers, mv("d1", "d3")), 0);
    }
}
