//! What a search thread learns about moves as it goes, for ordering and reductions: killer
//! moves per ply, a history score per side and move, a continuation history (a score per
//! move and the opponent's move before it), and the late move reduction table. The main
//! thread's histories last from one search of a game to the next, as the table does.

use crate::board::{Geometry, Side};
use crate::board::{Move, MoveList, Square};
use crate::search::params::{MAX_PLY, SearchParams};

/// Where a node's moves are scored in the continuation history: the row of the opponent's
/// move before them (by its piece, king or soldier, and its landing square), and the king's
/// square, which tells the node's king moves from its soldiers' ones.
#[derive(Clone, Copy)]
pub(super) struct Continuation<G: Geometry> {
    row: usize,
    king: Square<G>,
}

impl<G: Geometry> Continuation<G> {
    /// A row holds a score for each piece kind (soldier, king) and landing square.
    const ROW: usize = 2 << G::SQUARE_BITS;
    /// Rows: side to move, the opponent's piece kind, its landing square; then one row of
    /// zeros, never updated, for a node with no move before it (the root, or a null move).
    const ROWS: usize = 4 << G::SQUARE_BITS;

    /// The row of a node of `side` whose king stands on `king`, reached by the opponent's
    /// `prev` (`None`: none, or a null move).
    #[inline]
    pub(super) fn new(side: Side, king: Square<G>, prev: Option<Move<G>>) -> Continuation<G> {
        let row = match prev {
            None => Self::ROWS,
            Some(m) => {
                let by_king = (m.to() == king) as usize;
                ((side.index() * 2 + by_king) << G::SQUARE_BITS) + m.to().index()
            }
        };
        Continuation { row, king }
    }

    /// The place of `mv` within a row.
    #[inline(always)]
    pub(super) fn column(self, mv: Move<G>) -> usize {
        (((mv.from() == self.king) as usize) << G::SQUARE_BITS) + mv.to().index()
    }
}

/// A node's history scores for ordering: the side's move history and its continuation row.
#[derive(Clone, Copy)]
pub struct Histories<'a, G: Geometry> {
    main: &'a [i32],
    row: &'a [i32],
    cont: Option<Continuation<G>>,
}

impl<G: Geometry> Histories<'_, G> {
    /// The history score of `mv`.
    #[inline(always)]
    pub fn score(&self, mv: Move<G>) -> i32 {
        let base = self.main[mv.index()];
        match self.cont {
            Some(c) => base + self.row[c.column(mv)],
            None => base,
        }
    }
}

pub(super) struct Heuristics<G: Geometry> {
    killers: Vec<[Option<Move<G>>; 2]>,
    history: Vec<i32>,
    lmr: Vec<[i32; 64]>,
    history_max: i32,
    history_bonus_max: i32,
}

impl<G: Geometry> Heuristics<G> {
    /// The continuation history follows the move history in one vector, so that both pass
    /// from search to search together.
    const CONT_START: usize = 2 * Move::<G>::INDICES;

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
            history: vec![
                0;
                Self::CONT_START + (Continuation::<G>::ROWS + 1) * Continuation::<G>::ROW
            ],
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

    /// The history scores of `side`'s moves at a node, with its continuation row if `cont`.
    pub(super) fn histories(&self, side: Side, cont: Option<Continuation<G>>) -> Histories<'_, G> {
        let row = match cont {
            Some(c) => {
                let start = Self::CONT_START + c.row * Continuation::<G>::ROW;
                &self.history[start..start + Continuation::<G>::ROW]
            }
            None => &[],
        };
        Histories {
            main: self.history(side),
            row,
            cont,
        }
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
        cont: Continuation<G>,
    ) {
        let k = &mut self.killers[p];
        if k[0] != Some(mv) {
            k[1] = k[0];
            k[0] = Some(mv);
        }
        let bonus = (depth * depth).min(self.history_bonus_max);
        let base = side.index() * Move::<G>::INDICES;
        let row = Self::CONT_START + cont.row * Continuation::<G>::ROW;
        let has_row = cont.row < Continuation::<G>::ROWS;
        let history_max = self.history_max;
        let mut apply = |m: Move<G>, delta: i32| {
            let h = &mut self.history[base + m.index()];
            *h += delta - *h * delta.abs() / history_max;
            if has_row {
                let c = &mut self.history[row + cont.column(m)];
                *c += delta - *c * delta.abs() / history_max;
            }
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
    use crate::board::Square;

    fn mv(from: &str, to: &str) -> Move<Eleven> {
        Move::new(Square::parse(from).unwrap(), Square::parse(to).unwrap())
    }

    /// A refutation is scored under the opponent's move before it. Under another move before
    /// it, it scores only its plain history; a node with no move before it reads and writes
    /// no continuation.
    #[test]
    fn a_refutation_scores_under_the_move_before_it() {
        let params = SearchParams::default();
        let mut h = Heuristics::<Eleven>::new(&params);
        let king = Square::parse("f6").unwrap();
        let side = Side::Attackers;
        let before = Continuation::new(side, king, Some(mv("e7", "e9")));
        let other = Continuation::new(side, king, Some(mv("g7", "g9")));
        let tried: MoveList<Eleven> = [mv("b6", "b9")].into_iter().collect();
        h.reward(side, 0, mv("d1", "d3"), 4, &tried, before);
        let plain = h.history_of(side, mv("d1", "d3"));
        assert!(plain > 0);
        let under = |c| h.histories(side, Some(c)).score(mv("d1", "d3"));
        // Its plain history, and as much again under the move before it.
        assert_eq!(under(before), 2 * plain);
        assert_eq!(under(other), plain);
        assert_eq!(h.histories(side, None).score(mv("d1", "d3")), plain);
        // The quiet move tried before it is marked down the same way.
        assert_eq!(
            h.histories(side, Some(before)).score(mv("b6", "b9")),
            -2 * plain
        );
        // The defenders' histories are their own.
        let theirs = Continuation::new(Side::Defenders, king, Some(mv("e7", "e9")));
        assert_eq!(
            h.histories(Side::Defenders, Some(theirs))
                .score(mv("d1", "d3")),
            0
        );
        // With no move before the node, only the plain history moves.
        let root = Continuation::new(side, king, None);
        h.reward(side, 0, mv("h1", "h3"), 4, &MoveList::new(), root);
        let plain = h.history_of(side, mv("h1", "h3"));
        assert_eq!(h.histories(side, Some(root)).score(mv("h1", "h3")), plain);
        assert_eq!(h.histories(side, Some(other)).score(mv("h1", "h3")), plain);
    }

    /// The king's moves and the soldiers' moves to one square are scored apart.
    #[test]
    fn the_kings_moves_are_scored_apart_from_the_soldiers() {
        let params = SearchParams::default();
        let mut h = Heuristics::<Eleven>::new(&params);
        let side = Side::Defenders;
        let king = Square::parse("f6").unwrap();
        let before = Continuation::new(side, king, Some(mv("d1", "d3")));
        h.reward(side, 0, mv("f6", "f8"), 4, &MoveList::new(), before);
        let plain = h.history_of(side, mv("f6", "f8"));
        // A soldier landing on f8 from f7 shares no plain history and no continuation score.
        let soldier = Continuation::new(side, Square::parse("a6").unwrap(), Some(mv("d1", "d3")));
        assert_eq!(
            h.histories(side, Some(before)).score(mv("f6", "f8")),
            2 * plain
        );
        assert_eq!(h.histories(side, Some(soldier)).score(mv("f7", "f8")), 0);
    }

    #[test]
    fn a_history_passes_to_the_next_search_and_only_of_its_board_size() {
        let params = SearchParams::default();
        let mut first = Heuristics::<Eleven>::new(&params);
        let cont = Continuation::new(Side::Attackers, Square::parse("f6").unwrap(), None);
        first.reward(
            Side::Attackers,
            0,
            mv("d1", "d3"),
            4,
            &MoveList::new(),
            cont,
        );
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

    /// Scoring returns the move `pick` would take first: the first of the best, on random
    /// boards whose histories, killers and ties vary.
    #[test]
    fn scoring_finds_the_first_pick() {
        use crate::board::rules::Preset;
        use crate::search::ordering::{Tactics, pick, score_moves};
        use crate::splitmix::SplitMix64;
        let params = SearchParams::default();
        let mut h = Heuristics::<Eleven>::new(&params);
        let mut rng = SplitMix64::new(5);
        let mut list = MoveList::new();
        crate::board::walk::random_boards::<Eleven>(
            Preset::Copenhagen,
            11,
            8,
            120,
            |board, rulebook| {
                list.clear();
                board.generate_moves(rulebook, &mut list);
                if list.is_empty() {
                    return;
                }
                let side = board.side_to_move();
                let cont = Continuation::new(side, board.king(), Some(list[0]));
                let some = |rng: &mut SplitMix64| list[rng.below(list.len())];
                if rng.below(2) == 0 {
                    let tried: MoveList<Eleven> = (0..3).map(|_| some(&mut rng)).collect();
                    let best = some(&mut rng);
                    h.reward(side, 0, best, 1 + rng.below(6) as i32, &tried, cont);
                }
                let tt = (rng.below(3) == 0).then(|| some(&mut rng));
                let tactics = Tactics::new(board, rulebook);
                let mut scores = vec![0; list.len()];
                let first = score_moves(
                    board,
                    &list,
                    &tactics,
                    tt,
                    h.killers(0),
                    h.histories(side, Some(cont)),
                    &mut scores,
                );
                let (mut picked, mut picked_scores) = (list.clone(), scores.clone());
                pick(&mut picked, &mut picked_scores, 0);
                assert_eq!(list[first], picked[0]);
                assert_eq!(scores[first], picked_scores[0]);
            },
        );
    }

    /// The two stages of a node's moves are its moves, each once, the table's move left out;
    /// every move of the first outranks every move of the second, which holds nothing noisy.
    #[test]
    fn the_two_stages_list_every_move_once_the_outranking_ones_first() {
        use crate::board::rules::{Preset, Rules};
        for preset in Preset::ALL {
            crate::with_size!(Rules::preset(preset).width, stages_of(preset)).unwrap();
        }
    }

    fn stages_of<G: crate::board::Geometry>(preset: crate::board::rules::Preset) {
        use crate::search::ordering::{Tactics, generate_stage, score_moves};
        use crate::splitmix::SplitMix64;
        let params = SearchParams::default();
        let mut h = Heuristics::<G>::new(&params);
        let mut rng = SplitMix64::new(8);
        let mut all = MoveList::new();
        let mut strangers = MoveList::<G>::new();
        crate::board::walk::random_boards::<G>(preset, 12, 10, 150, |board, rulebook| {
            all.clear();
            board.generate_moves(rulebook, &mut all);
            if all.is_empty() {
                return;
            }
            let side = board.side_to_move();
            let cont = Continuation::new(side, board.king(), None);
            let some = |rng: &mut SplitMix64| all[rng.below(all.len())];
            let tried: MoveList<G> = (0..3).map(|_| some(&mut rng)).collect();
            h.reward(
                side,
                0,
                some(&mut rng),
                1 + rng.below(6) as i32,
                &tried,
                cont,
            );
            // Candidates from this board and from earlier ones (perhaps not legal here).
            let candidate = |rng: &mut SplitMix64| match rng.below(3) {
                0 => None,
                1 => Some(some(rng)),
                _ => strangers.get(rng.below(strangers.len().max(1))).copied(),
            };
            let candidates = [
                candidate(&mut rng),
                candidate(&mut rng),
                candidate(&mut rng),
            ];
            let tt = (rng.below(2) == 0).then(|| some(&mut rng));
            let tactics = Tactics::new(board, rulebook);
            let (mut list, mut extras) = (MoveList::new(), arrayvec::ArrayVec::new());
            generate_stage(
                board,
                rulebook,
                &tactics,
                None,
                tt,
                candidates,
                &mut extras,
                &mut list,
            );
            let first = list.len();
            generate_stage(
                board,
                rulebook,
                &tactics,
                Some(crate::board::Bitboard::ALL),
                tt,
                candidates,
                &mut extras,
                &mut list,
            );
            // Listed on some squares only, the quiet stage is those of its moves that land there.
            let within: crate::board::Bitboard<G> = list[first..]
                .iter()
                .map(|m| m.to())
                .filter(|_| rng.below(2) == 0)
                .collect();
            let mut some_quiet = MoveList::new();
            generate_stage(
                board,
                rulebook,
                &tactics,
                Some(within),
                tt,
                candidates,
                &mut extras,
                &mut some_quiet,
            );
            let landing: Vec<_> = list[first..]
                .iter()
                .filter(|m| within.contains(m.to()))
                .collect();
            assert_eq!(some_quiet.iter().collect::<Vec<_>>(), landing);
            let mut staged: Vec<u16> = list.iter().chain(tt.iter()).map(|m| m.raw()).collect();
            let mut want: Vec<u16> = all.iter().map(|m| m.raw()).collect();
            staged.sort_unstable();
            want.sort_unstable();
            assert_eq!(staged, want, "{preset} {board:?}");
            let mut scores = vec![0; list.len()];
            let killers = [candidates[0], candidates[1]];
            score_moves(
                board,
                &list,
                &tactics,
                None,
                killers,
                h.histories(side, None),
                &mut scores,
            );
            // The move back outranks the quiet moves as the search raises it.
            if let Some(j) = list.iter().position(|&m| Some(m) == candidates[2]) {
                scores[j] = scores[j].max(crate::search::ordering::MOVE_BACK);
            }
            let lowest_first = scores[..first].iter().min().copied().unwrap_or(i32::MAX);
            let highest_quiet = scores[first..].iter().max().copied().unwrap_or(i32::MIN);
            assert!(lowest_first > highest_quiet, "{preset} {board:?}");
            assert!(list[first..].iter().all(|&m| !tactics.is_noisy(board, m)));
            strangers.clear();
            strangers.extend(all.iter().copied().take(20));
        });
    }
}
