//! One search thread: iterative deepening over principal variation search with aspiration
//! windows, null move and late move reductions, and a quiescence search over captures and
//! king threats.

use super::eval::evaluate;
use super::ordering::{Tactics, pick, score_moves, sort_rest};
use super::params::*;
use super::score::Score;
use super::time::TimeManager;
use super::tt::{Bound, Entry, TranspositionTable};
use super::{Info, Limits};
use crate::board::rulebook::{Favours, HistoryVerdict};
use crate::board::zobrist::Key;
use crate::board::{Bitboard, Board, History, Move, MoveList, Position, Rulebook, Side};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};

/// Moves picked one at a time before the rest of a node's moves are sorted at once.
const SORT_AFTER: usize = 4;

/// What every search thread shares.
pub struct Shared<'a> {
    pub tt: &'a TranspositionTable,
    pub stop: &'a AtomicBool,
    /// Nodes of all threads, added in batches.
    pub nodes: &'a AtomicU64,
    pub time: &'a TimeManager,
    pub limits: &'a Limits,
    /// While set (a ponder search), time limits do not apply.
    pub pondering: &'a AtomicBool,
    /// The depth the main thread is searching; helpers keep one ply ahead of it.
    pub main_depth: &'a AtomicU32,
    /// Near the root, which thread is searching which position (see [`Breadcrumbs`]).
    pub breadcrumbs: &'a Breadcrumbs,
    pub params: SearchParams,
}

/// Marks left by threads on the positions they are searching near the root. A thread that
/// finds another's mark on its node reduces its late moves more and leaves the work to the
/// other, so that two threads spread out instead of searching the same lines in step.
pub struct Breadcrumbs {
    keys: Vec<AtomicU64>,
    owners: Vec<AtomicU32>,
}

/// Plies from the root where threads leave marks.
const BREADCRUMB_PLIES: u32 = 8;

impl Breadcrumbs {
    pub fn new() -> Breadcrumbs {
        Breadcrumbs {
            keys: (0..1024).map(|_| AtomicU64::new(0)).collect(),
            owners: (0..1024).map(|_| AtomicU32::new(0)).collect(),
        }
    }

    /// Claims `key` for thread `id`. Returns whether another thread holds it, and whether this
    /// thread now holds it (and must [`Breadcrumbs::release`] it).
    fn visit(&self, key: Key, id: usize) -> (bool, bool) {
        let i = (key as usize) & 1023;
        let held = self.keys[i].load(Ordering::Relaxed);
        if held == key {
            return (self.owners[i].load(Ordering::Relaxed) != id as u32, false);
        }
        if held == 0 {
            self.owners[i].store(id as u32, Ordering::Relaxed);
            self.keys[i].store(key, Ordering::Relaxed);
            return (false, true);
        }
        (false, false)
    }

    fn release(&self, key: Key) {
        self.keys[(key as usize) & 1023].store(0, Ordering::Relaxed);
    }
}

impl Default for Breadcrumbs {
    fn default() -> Breadcrumbs {
        Breadcrumbs::new()
    }
}

/// A root move with the score and line of its last full search.
#[derive(Clone, Debug)]
pub struct RootMove {
    pub mv: Move,
    pub score: Score,
    pub pv: Vec<Move>,
    pub seldepth: u32,
}

pub struct Searcher<'a> {
    params: SearchParams,
    shared: Shared<'a>,
    book: Rulebook,
    pub id: usize,
    pub nodes: u64,
    unflushed: u64,
    seldepth: u32,
    /// Keys of the game since its last capture, then of the search path; the last is the
    /// node's own.
    keys: Vec<Key>,
    /// The defenders' arrangement keys of the same positions, kept only under the draw-fort
    /// rule, the one rule that reads them.
    arrangements: Vec<Key>,
    root_plies: usize,
    killers: Vec<[Option<Move>; 2]>,
    history: Vec<i32>,
    pv: Vec<[Option<Move>; MAX_PLY]>,
    pv_len: Vec<usize>,
    lmr: Vec<[i32; 64]>,
    aborted: bool,
    /// Threads in this search (breadcrumbs only matter with more than one).
    threads: usize,
}

impl<'a> Searcher<'a> {
    pub fn new(shared: Shared<'a>, pos: &Position, id: usize, threads: usize) -> Searcher<'a> {
        let history = pos.history();
        let mut keys = Vec::with_capacity(history.quiet_plies() + MAX_PLY + 8);
        keys.extend_from_slice(history.keys());
        keys.push(pos.key());
        let mut arrangements = Vec::new();
        if pos.rules().draw_fort_loses {
            arrangements.reserve(keys.capacity());
            arrangements.extend_from_slice(history.arrangements());
            arrangements.push(pos.board().arrangement_key());
        }
        let params = shared.params;
        let mut lmr = vec![[0i32; 64]; 64];
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (params.lmr_base as f64 / 100.0
                    + (d as f64).ln() * (m as f64).ln() / (params.lmr_divisor as f64 / 100.0))
                    as i32;
            }
        }
        Searcher {
            shared,
            params,
            book: *pos.rulebook(),
            id,
            nodes: 0,
            unflushed: 0,
            seldepth: 0,
            root_plies: pos.plies(),
            keys,
            arrangements,
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: vec![0; 2 << 14],
            pv: vec![[None; MAX_PLY]; MAX_PLY + 1],
            pv_len: vec![0; MAX_PLY + 1],
            lmr,
            aborted: false,
            threads,
        }
    }

    fn quiet_at_root(&self) -> u16 {
        (self.keys.len() - 1) as u16
    }

    /// Onto the path: the node `b`, which the caller searches next.
    #[inline]
    fn enter(&mut self, b: &Board) {
        self.keys.push(b.key());
        if self.book.rules().draw_fort_loses {
            self.arrangements.push(b.arrangement_key());
        }
    }

    #[inline]
    fn leave(&mut self) {
        self.keys.pop();
        if self.book.rules().draw_fort_loses {
            self.arrangements.pop();
        }
    }

    /// What came before the node on the path, `ply` plies from the root and `quiet` plies
    /// after the last capture, as the rulebook reads it.
    #[inline]
    fn past(&self, ply: u32, quiet: u16) -> History<'_> {
        let now = self.keys.len() - 1;
        let from = now - quiet as usize;
        let arrangements = if self.book.rules().draw_fort_loses {
            &self.arrangements[from..now]
        } else {
            &[]
        };
        History::new(
            &self.keys[from..now],
            arrangements,
            self.root_plies + ply as usize,
        )
    }

    /// The node's verdict under the rules that look back.
    #[inline]
    fn judge(&self, b: &Board, ply: u32, quiet: u16) -> HistoryVerdict {
        self.book.judge_history(b, &self.past(ply, quiet))
    }

    /// The score of a side to move without a legal move.
    fn no_moves_score(&self, side: Side, ply: u32) -> Score {
        Score::of_outcome(self.book.no_moves(side), side, ply)
    }

    #[inline]
    fn count_node(&mut self) {
        self.nodes += 1;
        self.unflushed += 1;
        if self.unflushed >= 1024 {
            self.flush();
        }
        if self.id == 0
            && let Some(limit) = self.shared.limits.nodes
            && self.nodes >= limit
        {
            self.shared.stop.store(true, Ordering::Relaxed);
        }
    }

    fn flush(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.unflushed, Ordering::Relaxed);
        self.unflushed = 0;
        if self.id == 0
            && !self.shared.pondering.load(Ordering::Relaxed)
            && self.shared.time.hard_exceeded()
        {
            self.shared.stop.store(true, Ordering::Relaxed);
        }
    }

    #[inline]
    fn stopped(&mut self) -> bool {
        if !self.aborted && self.shared.stop.load(Ordering::Relaxed) {
            self.aborted = true;
        }
        self.aborted
    }

    /// Iterative deepening. Reports each finished iteration through `report` (thread 0 only)
    /// and returns the depth it completed with the root moves of that depth, best first.
    /// Whichever thread completes the depth limit first stops the others.
    pub fn iterate(
        &mut self,
        board: &Board,
        mut root_moves: Vec<RootMove>,
        multipv: usize,
        report: &mut dyn FnMut(Info),
    ) -> (u32, Vec<RootMove>) {
        let max_depth = self
            .shared
            .limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 8)
            .max(1) as i32;
        let multipv = multipv.clamp(1, root_moves.len().max(1));
        let mut completed: Vec<RootMove> = root_moves.clone();
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
            for pv_index in 0..multipv {
                self.seldepth = 0;
                let prev = root_moves[pv_index].score;
                let mut delta = self.params.aspiration_window;
                let (mut alpha, mut beta) = if depth >= 4 && !prev.is_decisive() {
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
                    delta += delta / 2 + 10;
                    if delta > 1000 {
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
                break;
            }
            // A later line may have scored above an earlier one: report them best first.
            root_moves[..multipv].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            if self.id == 0 {
                for (i, rm) in root_moves[..multipv].iter().enumerate() {
                    report(self.info(depth as u32, i + 1, rm));
                }
            }
            completed = root_moves.clone();
            completed_depth = depth as u32;
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

    fn info(&self, depth: u32, multipv: usize, rm: &RootMove) -> Info {
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

    fn root_search(
        &mut self,
        board: &Board,
        depth: i32,
        mut alpha: Score,
        beta: Score,
        root_moves: &mut [RootMove],
        first: usize,
    ) -> Score {
        self.count_node();
        let quiet = self.quiet_at_root();
        let mut best = -Score::INFINITE;
        // Odd helper threads take the root moves after the first in reverse order: the two
        // threads then meet in the middle, each finding the other's results in the table.
        let n = root_moves.len();
        let order: Vec<usize> = if self.id % 2 == 1 {
            std::iter::once(first).chain((first + 1..n).rev()).collect()
        } else {
            (first..n).collect()
        };
        for i in order {
            let mv = root_moves[i].mv;
            let mut child = *board;
            let captured = child.play(mv, self.book.rules());
            let score = if self.book.mover_win(&child, mv).is_some() {
                self.pv_len[1] = 0;
                Score::win_in(1)
            } else {
                let q = if captured.any() { 0 } else { quiet + 1 };
                self.enter(&child);
                let mut s = if i == first {
                    -self.negamax(&child, depth - 1, -beta, -alpha, 1, q)
                } else {
                    let s = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, 1, q);
                    if s > alpha && s < beta {
                        -self.negamax(&child, depth - 1, -beta, -alpha, 1, q)
                    } else {
                        s
                    }
                };
                self.leave();
                if self.stopped() {
                    return best;
                }
                if s.is_decisive() && s.0 > 0 {
                    s = s.min(Score::win_in(1));
                }
                s
            };
            let rm = &mut root_moves[i];
            if score > alpha || i == first {
                rm.score = score;
                rm.seldepth = self.seldepth;
                rm.pv.clear();
                rm.pv.push(mv);
                rm.pv.extend(self.pv[1][..self.pv_len[1]].iter().flatten());
            } else {
                rm.score = -Score::INFINITE;
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
                if score >= beta {
                    break;
                }
            }
        }
        best
    }

    /// Whether attackers might capture the king with their next move: a cheap over-estimate.
    fn king_capturable(&self, b: &Board) -> bool {
        b.king_capture_squares(self.book.rules())
            .is_some_and(|needed| (needed & !b.attackers()).count() <= 1)
    }

    /// The search's own reading of a position that repeats one on its path without ending the
    /// game yet: the second occurrence is worth `repetition_score` to the side the repetition
    /// rule favours, so that the search steers into or away from a cycle before the third
    /// occurrence, which is past its horizon, decides it. A repetition of the game before the
    /// root is left to the rules: the side to move there may still avoid a third.
    fn repeated_in_path(&self, side: Side, verdict: &HistoryVerdict, ply: u32) -> Option<Score> {
        let seen = verdict.occurrences;
        if seen.count < 2 || seen.latest.is_none_or(|back| back > ply as usize) {
            return None;
        }
        match self.book.favours(side) {
            Favours::Winner(w) if w == side => Some(Score(self.params.repetition_score)),
            Favours::Winner(_) => Some(Score(-self.params.repetition_score)),
            Favours::Draw => Some(Score::DRAW),
            Favours::Ignored => None,
        }
    }

    fn update_pv(&mut self, ply: usize, mv: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let child_len = self.pv_len[ply + 1].min(MAX_PLY - 1);
        head[ply][0] = Some(mv);
        head[ply][1..=child_len].copy_from_slice(&tail[0][..child_len]);
        self.pv_len[ply] = child_len + 1;
    }

    fn negamax(
        &mut self,
        b: &Board,
        mut depth: i32,
        mut alpha: Score,
        beta: Score,
        ply: u32,
        quiet: u16,
    ) -> Score {
        let p = ply as usize;
        self.pv_len[p] = 0;
        // Before the horizon, so that a move that ends the game this way (a losing third
        // repetition, a draw fort, a counted draw) ends it at depth 1 too, as the referee would.
        let verdict = self.judge(b, ply, quiet);
        if let Some(end) = verdict.end {
            return Score::of_outcome(end, b.side_to_move(), ply);
        }
        if let Some(s) = self.repeated_in_path(b.side_to_move(), &verdict, ply) {
            return s;
        }
        if depth <= 0 || p >= MAX_PLY - 8 {
            return self.qsearch(b, alpha, beta, ply, 0, quiet);
        }
        self.count_node();
        if self.stopped() {
            return Score::ZERO;
        }
        self.seldepth = self.seldepth.max(ply);
        let pv_node = beta.0 - alpha.0 > 1;
        let side = b.side_to_move();

        // Mate distance pruning.
        let lo = alpha.max(Score::loss_in(ply));
        let hi = beta.min(Score::win_in(ply + 1));
        if lo >= hi {
            return lo;
        }

        let tactics = Tactics::new(b, self.book.rules());
        if side == Side::Defenders && tactics.open_lines.any() {
            return Score::win_in(ply + 1);
        }
        // Two open lines are lost in two plies, unless the attackers are stuck: then the game is
        // over now, which the check for moves below finds.
        if side == Side::Attackers
            && tactics.open_lines.count() >= 2
            && !self.king_capturable(b)
            && self.book.has_legal_move(b, &self.past(ply, quiet))
        {
            return Score::loss_in(ply + 2);
        }
        let threat = side == Side::Attackers && tactics.open_lines.any();
        if threat {
            depth += 1;
        }

        let key = b.key();
        let tt = self.shared.tt.probe(key);
        let tt_move = tt.and_then(|e| e.mv);
        if let Some(e) = tt
            && !pv_node
            && e.depth >= depth
        {
            let s = e.score.from_tt(ply);
            let cut = match e.bound {
                Bound::Exact => true,
                Bound::Lower => s >= beta,
                Bound::Upper => s <= alpha,
            };
            if cut {
                return s;
            }
        }

        // The table's move, if legal here, is tried before the others are generated: it often
        // cuts at once. A legal one also proves the side has a move.
        let tt_move = tt_move.filter(|&m| b.check_move(m).is_ok());
        if tt_move.is_none() && b.count_moves() == 0 {
            return self.no_moves_score(side, ply);
        }
        let eval = tt.map_or_else(|| evaluate(b, self.book.rules()), |e| e.eval);

        // Threats the static eval cannot see: a king on or next to the edge may build a fort
        // with his next move, a king two moves from a corner may make a double threat. Worked
        // out only where pruning would otherwise happen.
        let danger = |b: &Board| {
            side == Side::Attackers
                && ((self.book.rules().exit_fort
                    && (Bitboard::rook_targets(b.king(), b.occupied()).with(b.king())
                        & Bitboard::EDGE)
                        .any())
                    || super::eval::corner_distance(b) <= 2)
        };
        let may_prune = !pv_node
            && !threat
            && !beta.is_decisive()
            && ((depth <= self.params.rfp_max_depth
                && eval.0 - self.params.rfp_margin * depth >= beta.0)
                || (depth >= self.params.nmp_min_depth && eval >= beta && p > 0));
        if may_prune && !danger(b) {
            if depth <= self.params.rfp_max_depth
                && eval.0 - self.params.rfp_margin * depth >= beta.0
            {
                return eval;
            }
            if depth >= self.params.nmp_min_depth && eval >= beta && p > 0 {
                let r = self.params.nmp_base_reduction + depth / self.params.nmp_depth_divisor;
                let null = b.with_side_to_move(side.opponent());
                self.enter(&null);
                let s = -self.negamax(&null, depth - 1 - r, -beta, -beta + 1, ply + 1, quiet + 1);
                self.leave();
                if self.stopped() {
                    return Score::ZERO;
                }
                if s >= beta {
                    return if s.is_decisive() { beta } else { s };
                }
            }
        }

        let mut list = MoveList::new();
        let mut scores = [0i32; crate::board::moves::MAX_MOVES];
        let mut generated = false;
        if let Some(m) = tt_move {
            list.push(m);
        }

        let forbid = self.book.repeats_forbidden_for(side);
        let (others_here, marked) = if self.threads > 1 && ply < BREADCRUMB_PLIES {
            self.shared.breadcrumbs.visit(key, self.id)
        } else {
            (false, false)
        };
        let original_alpha = alpha;
        let mut best = -Score::INFINITE;
        let mut best_move = None;
        let mut searched = 0usize;
        let mut quiets_tried = MoveList::new();
        let mut i = 0;
        loop {
            if i == list.len() {
                if generated {
                    break;
                }
                generated = true;
                b.generate_moves(&mut list);
                if let Some(m) = tt_move
                    && let Some(dup) = list[i..].iter().position(|&x| x == m)
                {
                    list.swap_remove(i + dup);
                }
                let killers = self.killers[p];
                let hist = &self.history[side.index() << 14..(side.index() + 1) << 14];
                score_moves(
                    b,
                    &list[i..],
                    &tactics,
                    None,
                    killers,
                    hist,
                    &mut scores[i..],
                );
                if i == list.len() {
                    break;
                }
            }
            // Generation happens at move 0 or 1, so from SORT_AFTER on the rest is sorted.
            if i < SORT_AFTER {
                pick(&mut list, &mut scores, i);
            } else if i == SORT_AFTER {
                sort_rest(&mut list, &mut scores, i);
            }
            let mv = list[i];
            i += 1;
            let mut child = *b;
            let captured = child.play(mv, self.book.rules());
            let child_quiet = if captured.any() {
                0
            } else {
                quiet.saturating_add(1)
            };
            if forbid
                && self
                    .book
                    .recreates_forbidden_board(&self.past(ply, quiet), &child, captured)
            {
                continue;
            }
            let noisy = captured.any() || tactics.is_noisy(b, mv);
            let score = if self.book.mover_win(&child, mv).is_some() {
                self.pv_len[p + 1] = 0;
                Score::win_in(ply + 1)
            } else {
                self.shared.tt.prefetch(child.key());
                self.enter(&child);
                let s = if searched == 0 {
                    -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1, child_quiet)
                } else {
                    let mut r = 0;
                    if depth >= self.params.lmr_min_depth
                        && searched >= self.params.lmr_full_moves as usize
                        && !noisy
                        && !threat
                        && Some(mv) != tt_move
                    {
                        r = self.lmr[(depth as usize).min(63)][searched.min(63)];
                        if pv_node {
                            r -= 1;
                        }
                        if others_here {
                            r += 1;
                        }
                        r = r.clamp(0, depth - 2);
                    }
                    let mut s = -self.negamax(
                        &child,
                        depth - 1 - r,
                        -alpha - 1,
                        -alpha,
                        ply + 1,
                        child_quiet,
                    );
                    if s > alpha && r > 0 {
                        s = -self.negamax(
                            &child,
                            depth - 1,
                            -alpha - 1,
                            -alpha,
                            ply + 1,
                            child_quiet,
                        );
                    }
                    if s > alpha && s < beta {
                        s = -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1, child_quiet);
                    }
                    s
                };
                self.leave();
                s
            };
            searched += 1;
            if self.stopped() {
                if marked {
                    self.shared.breadcrumbs.release(key);
                }
                return Score::ZERO;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(mv);
                    alpha = score;
                    self.update_pv(p, mv);
                    if score >= beta {
                        if !noisy {
                            self.reward(side, p, mv, depth, &quiets_tried);
                        }
                        break;
                    }
                }
            }
            if !noisy {
                quiets_tried.push(mv);
            }
        }
        if marked {
            self.shared.breadcrumbs.release(key);
        }
        if searched == 0 {
            return self.no_moves_score(side, ply);
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared.tt.store(
            key,
            Entry {
                mv: best_move,
                score: best.to_tt(ply),
                eval,
                depth,
                bound,
            },
        );
        best
    }

    /// Killers and history for a quiet move that failed high; the quiet moves tried before it
    /// are marked down.
    fn reward(&mut self, side: Side, p: usize, mv: Move, depth: i32, tried: &MoveList) {
        let k = &mut self.killers[p];
        if k[0] != Some(mv) {
            k[1] = k[0];
            k[0] = Some(mv);
        }
        let bonus = (depth * depth).min(400);
        let base = side.index() << 14;
        let mut apply = |m: Move, delta: i32| {
            let h = &mut self.history[base + m.index()];
            *h += delta - *h * delta.abs() / self.params.history_max;
        };
        apply(mv, bonus);
        for &q in tried {
            apply(q, -bonus);
        }
    }

    fn qsearch(
        &mut self,
        b: &Board,
        mut alpha: Score,
        beta: Score,
        ply: u32,
        qply: u32,
        quiet: u16,
    ) -> Score {
        // Past the horizon the rules that look back still end games; the horizon node itself
        // was judged by negamax.
        if qply > 0
            && let Some(end) = self.judge(b, ply, quiet).end
        {
            return Score::of_outcome(end, b.side_to_move(), ply);
        }
        self.count_node();
        if self.stopped() {
            return Score::ZERO;
        }
        self.seldepth = self.seldepth.max(ply);
        let p = ply as usize;
        self.pv_len[p.min(MAX_PLY)] = 0;
        let side = b.side_to_move();
        let tactics = Tactics::new(b, self.book.rules());
        if side == Side::Defenders && tactics.open_lines.any() {
            return Score::win_in(ply + 1);
        }
        let threat = side == Side::Attackers && tactics.open_lines.any();
        if threat
            && tactics.open_lines.count() >= 2
            && !self.king_capturable(b)
            && self.book.has_legal_move(b, &self.past(ply, quiet))
        {
            return Score::loss_in(ply + 2);
        }
        let eval = evaluate(b, self.book.rules());
        if p >= MAX_PLY - 2 || qply >= self.params.qsearch_max_ply as u32 {
            return eval;
        }
        let mut best = if threat {
            Score::loss_in(ply + 2)
        } else {
            if eval >= beta {
                return eval;
            }
            alpha = alpha.max(eval);
            eval
        };
        let king = b.king();
        let king_zone = Bitboard::from_square(king).neighbours();
        let capturable = side == Side::Attackers && self.king_capturable(b);
        let mut targets = tactics.any_capture | tactics.block_squares;
        if capturable {
            targets |= king_zone;
        }
        let mut list = MoveList::new();
        b.generate_moves_to(targets, &mut list);
        if side == Side::Defenders {
            // King moves to a corner or, near the horizon, to a square that sees one.
            let reach = Bitboard::rook_targets(king, b.occupied());
            // Near the horizon also moves that see a corner, and moves to the edge (forts).
            let wanted = if qply < 2 {
                Bitboard::CORNERS | tactics.corner_sight | Bitboard::EDGE
            } else {
                Bitboard::CORNERS
            };
            for to in reach & wanted & !targets {
                list.push(Move::new(king, to));
            }
        }
        if self.book.repeats_forbidden_for(side) {
            let (book, history) = (&self.book, self.past(ply, quiet));
            list.retain(|mv| {
                let mut after = *b;
                let captured = after.play(*mv, book.rules());
                !book.recreates_forbidden_board(&history, &after, captured)
            });
        }
        if list.is_empty() && !self.book.has_legal_move(b, &self.past(ply, quiet)) {
            return self.no_moves_score(side, ply);
        }
        let mut scores = [0i32; crate::board::moves::MAX_MOVES];
        let hist = &self.history[side.index() << 14..(side.index() + 1) << 14];
        score_moves(b, &list, &tactics, None, [None; 2], hist, &mut scores);
        for i in 0..list.len() {
            pick(&mut list, &mut scores, i);
            let mv = list[i];
            let mut child = *b;
            let captured = child.play(mv, self.book.rules());
            let score = if self.book.mover_win(&child, mv).is_some() {
                Score::win_in(ply + 1)
            } else {
                let child_quiet = if captured.any() {
                    0
                } else {
                    quiet.saturating_add(1)
                };
                self.enter(&child);
                let s = -self.qsearch(&child, -beta, -alpha, ply + 1, qply + 1, child_quiet);
                self.leave();
                s
            };
            if self.stopped() {
                return Score::ZERO;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}
