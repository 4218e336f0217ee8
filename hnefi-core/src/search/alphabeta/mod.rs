//! One search thread: iterative deepening over principal variation search with aspiration
//! windows, null move and late move reductions, and a quiescence search over captures and
//! king threats. This file holds the thread's state and what every node asks of it; each
//! stage of the search has a file below.

mod deepen;
mod eval_cache;
mod heuristics;
mod negamax;
mod path;
mod qsearch;
mod root;

pub(crate) use heuristics::Histories;
pub use root::RootMove;

use super::eval::endgame::{lone_king, with_lone_king};
use super::eval::features::doors;
use super::eval::{PieceSquares, evaluate_given};
use super::nnue::Accumulator;
use super::params::{MAX_PLY, SearchParams};
use super::score::Score;
use super::threads::Shared;
use crate::board::rulebook::{Favours, HistoryVerdict};
use crate::board::square::Direction;
use crate::board::{Bitboard, Board, Move, Position, Rulebook};
use crate::board::{Geometry, History, Piece, Side};
use crate::search::size::Size;
use eval_cache::EvalCache;
use heuristics::Heuristics;
use path::Path;
use std::sync::atomic::Ordering;

/// Where a move leads in the search: see [`Worker::step`].
enum Step<G: Size> {
    /// The rules forbid the move here.
    Refused,
    /// The move wins the game for its player, capturing `captured`.
    Won { captured: Bitboard<G> },
    /// A child to search, entered: it captured `captured`, and `quiet` plies have passed since
    /// the last capture.
    Child { captured: Bitboard<G>, quiet: u16 },
}

/// Which of the last two moves into a node was a swing: see [`Worker::swung`].
#[derive(Clone, Copy)]
struct Swing {
    /// The attackers' move into the defenders' node: the defenders' gain may be undone at
    /// once, so it does not cut the node (reverse futility and null move pruning).
    theirs: bool,
    /// The attackers' own move before: their loss may be undone at once, so the move back is
    /// tried first and never pruned (futility and late move pruning).
    ours: bool,
}

pub struct Worker<'a, G: Size> {
    params: SearchParams,
    shared: Shared<'a, G>,
    rulebook: Rulebook<G>,
    id: usize,
    nodes: u64,
    unflushed: u64,
    seldepth: u32,
    path: Path,
    heuristics: Heuristics<G>,
    pv: Vec<[Option<Move<G>>; MAX_PLY]>,
    pv_len: Vec<usize>,
    aborted: bool,
    /// Threads in this search (breadcrumbs only matter with more than one).
    threads: usize,
    /// Under the NNUE evaluation, the accumulator of the node at each ply of the path.
    accumulators: Vec<Accumulator>,
    /// The hand evaluation's piece-square sums of the node at each ply, kept move by move.
    squares: Vec<PieceSquares>,
    /// At each ply of the path, for [`Worker::swung`]: whether the attackers to move there
    /// were ahead by the swing with the defenders shut in, and whether the move into the
    /// defenders' node there opened the ring.
    shut: Vec<bool>,
    opened: Vec<bool>,
    /// The static eval of the node at each ply of the path, for [`Worker::swung`].
    evals: Vec<Score>,
    /// The move into the node at each ply of the path (`None` at the root and after a null
    /// move), for the move back of [`Worker::swung`] nodes.
    moves: Vec<Option<Move<G>>>,
    /// The nodes after which thread 0 stops the search: the host's limit, lowered to the
    /// level's budget once the search is deep enough for it.
    node_limit: Option<u64>,
    /// The root move with the highest score proven in the iteration under way (an exact score
    /// or a fail-high bound), for a search stopped before the iteration ends.
    root_best: Option<RootMove<G>>,
    /// `swing_cp` where the attackers are to move at the root, else 0: the defenders' search
    /// is left as it was.
    swing_cp: i32,
    /// Static evals already worked out in this search.
    eval_cache: EvalCache,
}

impl<'a, G: Size> Worker<'a, G> {
    pub fn new(
        shared: Shared<'a, G>,
        pos: &Position<G>,
        id: usize,
        threads: usize,
    ) -> Worker<'a, G> {
        let params = shared.params;
        let node_limit = shared.limits.nodes;
        let accumulators = match shared.net {
            Some(net) => vec![Accumulator::refresh(net, pos.board()); MAX_PLY],
            None => Vec::new(),
        };
        let swing_cp = if pos.side_to_move() == Side::Attackers {
            params.swing_cp
        } else {
            0
        };
        let mut squares = vec![PieceSquares::default(); MAX_PLY + 1];
        squares[0] = PieceSquares::of(pos.board());
        Worker {
            accumulators,
            squares,
            evals: vec![Score::ZERO; MAX_PLY + 1],
            shut: vec![false; MAX_PLY + 1],
            opened: vec![false; MAX_PLY + 1],
            moves: vec![None; MAX_PLY + 1],
            shared,
            params,
            rulebook: *pos.rulebook(),
            id,
            nodes: 0,
            unflushed: 0,
            seldepth: 0,
            path: Path::new(pos),
            heuristics: Heuristics::new(&params),
            pv: vec![[None; MAX_PLY]; MAX_PLY + 1],
            pv_len: vec![0; MAX_PLY + 1],
            aborted: false,
            threads,
            node_limit,
            root_best: None,
            swing_cp,
            eval_cache: EvalCache::new(),
        }
    }

    /// Takes up the move histories an earlier search of the game left in `kept`.
    pub fn adopt_history(&mut self, kept: &mut Vec<i32>) {
        self.heuristics.adopt_history(kept);
    }

    /// Leaves the move histories in `keep` for the next search of the game.
    pub fn give_history(&mut self, keep: &mut Vec<i32>) {
        self.heuristics.give_history(keep);
    }

    /// What came before the node on the path, `ply` plies from the root and `quiet` plies
    /// after the last capture, as the rulebook reads it.
    #[inline]
    fn past(&self, ply: u32, quiet: u16) -> History<'_> {
        self.path.past(ply, quiet)
    }

    /// The node's verdict under the rules that look back.
    #[inline]
    fn judge(&self, b: &Board<G>, ply: u32, quiet: u16) -> HistoryVerdict {
        self.rulebook.judge_history(b, &self.past(ply, quiet))
    }

    /// The static evaluation of `b`, the node `ply` plies from the root: the hand evaluation
    /// or the network, and the lone king's ending, which neither tells apart. Each board's is
    /// worked out once a search.
    #[inline]
    fn evaluate(&mut self, b: &Board<G>, ply: u32) -> Score {
        let key = b.key();
        if let Some(eval) = self.eval_cache.get(key) {
            return eval;
        }
        let eval = self.evaluate_afresh(b, ply);
        self.eval_cache.put(key, eval);
        eval
    }

    #[inline]
    fn evaluate_afresh(&self, b: &Board<G>, ply: u32) -> Score {
        let squares = self.squares[ply as usize];
        let fitted = match self.shared.net {
            None => evaluate_given(b, &self.rulebook, squares),
            Some(net) => {
                let acc = &self.accumulators[ply as usize];
                debug_assert_eq!(*acc, Accumulator::refresh(net, b), "{b:?} at ply {ply}");
                net.evaluate_position_given(acc, b, &self.rulebook, squares)
            }
        };
        let p = &self.params;
        let lone = lone_king(b, p.lone_king_soldiers, p.lone_king_room, p.lone_king_move);
        if lone == 0 {
            return fitted;
        }
        let lone = match b.side_to_move() {
            Side::Attackers => lone,
            Side::Defenders => -lone,
        };
        Score(with_lone_king(fitted.0, lone))
    }

    /// Records `eval`, the static eval of the node `ply` plies from the root (`side` to move),
    /// and says which of the last two moves was a swing (`SwingCp`, the glossary of
    /// [`crate::search::params`]): an attackers' move off a cliff of the evaluation, as a guard
    /// that leaves its door to capture loses the squeeze. One quiet move may undo it, so the
    /// static eval is no reason to prune around it.
    #[inline]
    fn swung(&mut self, ply: u32, b: &Board<G>, eval: Score, side: Side) -> Swing {
        let p = ply as usize;
        self.evals[p] = eval;
        let swing = self.swing_cp;
        if swing <= 0 {
            return Swing {
                theirs: false,
                ours: false,
            };
        }
        // The move from the node at ply k to k + 1 cost its mover `evals[k] + evals[k + 1]`.
        // Only the attackers' moves while ahead by more than the swing count, and only those
        // that opened a shut ring: the guard's step off its door (issue 46), not every blunder.
        let fell =
            |k: usize| self.evals[k].0 > swing && self.evals[k].0 + self.evals[k + 1].0 > swing;
        match side {
            Side::Attackers => {
                self.shut[p] = eval.0 > swing && shut_in(b, &self.rulebook);
                Swing {
                    theirs: false,
                    ours: p >= 1 && self.opened[p - 1],
                }
            }
            Side::Defenders => {
                let theirs =
                    p >= 1 && fell(p - 1) && self.shut[p - 1] && !shut_in(b, &self.rulebook);
                self.opened[p] = theirs;
                Swing {
                    theirs,
                    ours: false,
                }
            }
        }
    }

    /// The side to move's own last move taken back, at the node `ply` plies from the root: the
    /// quickest way back up a cliff it stepped off ([`Swing::ours`]), as a guard returns to its
    /// door after a capture.
    #[inline]
    fn move_back(&self, ply: u32) -> Option<Move<G>> {
        let p = ply as usize;
        let mv = self.moves[p.checked_sub(1)?]?;
        Some(Move::new(mv.to(), mv.from()))
    }

    /// The one step from the node `b`, `ply` plies from the root and `quiet` plies after the
    /// last capture, by `mv`, played on `child`, a copy of `b` (in place, as a board is large
    /// and the search steps for every move it tries). A move the repetition rule forbids is
    /// refused before any work on the child, and a move that wins is not entered; any other
    /// child is entered. With `probes`, the child will look itself up in the table: its bucket
    /// is fetched while the child is entered. A move landing outside `capturing`
    /// ([`Rulebook::capture_squares`] of `b`) is made without looking for captures.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn step(
        &mut self,
        b: &Board<G>,
        child: &mut Board<G>,
        mv: Move<G>,
        ply: u32,
        quiet: u16,
        probes: bool,
        capturing: Bitboard<G>,
    ) -> Step<G> {
        let Some(captured) =
            self.rulebook
                .play_allowed_on_within(child, mv, &self.past(ply, quiet), capturing)
        else {
            return Step::Refused;
        };
        if probes {
            self.shared.tt.prefetch(child.key());
        }
        if self.rulebook.mover_win(child, mv).is_some() {
            return Step::Won { captured };
        }
        let quiet = self.enter(b, child, Some((mv, captured)), ply, quiet);
        Step::Child { captured, quiet }
    }

    /// Onto the child `child` of `b` by `step` (a move and its captures; `None`: the null
    /// move): its accumulator made, itself on the path. Returns the plies since the last
    /// capture at the child. The caller searches it, then calls [`Worker::leave`].
    #[inline(always)]
    fn enter(
        &mut self,
        b: &Board<G>,
        child: &Board<G>,
        step: Option<(Move<G>, Bitboard<G>)>,
        ply: u32,
        quiet: u16,
    ) -> u16 {
        // The piece moved, read once for the sums and the accumulator.
        let moved = step.and_then(|(mv, captured)| Some((mv, captured, b.piece_at(mv.from())?)));
        let p = ply as usize;
        self.squares[p + 1] = match moved {
            Some((mv, captured, piece)) => {
                self.squares[p].after(b, piece, mv.from(), mv.to(), captured)
            }
            None => self.squares[p],
        };
        self.enter_accumulator(child, moved, ply);
        self.path.enter(child);
        self.moves[ply as usize + 1] = step.map(|(mv, _)| mv);
        match step {
            Some((_, captured)) if captured.any() => 0,
            _ => quiet.saturating_add(1),
        }
    }

    /// Back from a child that [`Worker::step`] entered.
    #[inline]
    fn leave(&mut self) {
        self.path.leave();
    }

    /// Under the NNUE evaluation, makes the accumulator of `child`, the node `ply + 1` that
    /// `moved` (the move, its captures and the piece moved) leads to from the node at `ply`;
    /// `None` for a null move.
    /// In refresh mode the accumulator is computed from `child` alone.
    // Out of line, as the search runs fewer instructions so: inlined into negamax, the
    // accumulator's update costs more than the call (cachegrind).
    #[inline(never)]
    fn enter_accumulator(
        &mut self,
        child: &Board<G>,
        moved: Option<(Move<G>, Bitboard<G>, Piece)>,
        ply: u32,
    ) {
        let Some(net) = self.shared.net else {
            return;
        };
        let (done, next) = self.accumulators.split_at_mut(ply as usize + 1);
        let acc = &mut next[0];
        if self.shared.refresh {
            *acc = Accumulator::refresh(net, child);
            return;
        }
        let parent = &done[ply as usize];
        match moved {
            Some((mv, captured, piece)) => {
                acc.set_child(parent, net, piece, mv.from(), mv.to(), captured)
            }
            None => acc.clone_from(parent),
        }
    }

    /// The score of a side to move without a legal move.
    fn no_moves_score(&self, side: Side, ply: u32) -> Score {
        Score::of_outcome(self.rulebook.no_moves(side), side, ply)
    }

    /// Whether attackers might capture the king with their next move: a cheap over-estimate.
    fn king_capturable(&self, b: &Board<G>) -> bool {
        king_open_sides(b, &self.rulebook) <= 1
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
        match self.rulebook.favours(side) {
            Favours::Winner(w) if w == side => Some(Score(self.params.repetition_score)),
            Favours::Winner(_) => Some(Score(-self.params.repetition_score)),
            Favours::Draw => Some(Score::DRAW),
            Favours::Ignored => None,
        }
    }

    fn update_pv(&mut self, ply: usize, mv: Move<G>) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let child_len = self.pv_len[ply + 1].min(MAX_PLY - 1);
        head[ply][0] = Some(mv);
        head[ply][1..=child_len].copy_from_slice(&tail[0][..child_len]);
        self.pv_len[ply] = child_len + 1;
    }

    #[inline]
    fn count_node(&mut self) {
        self.nodes += 1;
        self.unflushed += 1;
        if self.unflushed >= 1024 {
            self.flush();
        }
        if self.id == 0
            && let Some(limit) = self.node_limit
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
}

/// The squares beside the king the attackers still have to take to capture him (5 when he
/// cannot be captured where he stands). A king captured like a man needs the two squares on
/// either side of him on one line, the line with fewer still to take.
fn king_open_sides<G: Geometry>(b: &Board<G>, rulebook: &Rulebook<G>) -> u32 {
    if let Some(needed) = b.king_capture_squares(rulebook) {
        return (needed & !b.attackers()).count();
    }
    if !b.king_captured_like_a_man(rulebook) {
        return 5;
    }
    let hostile = b.attackers() | rulebook.terrain().hostile_to(Piece::King, b.occupied());
    let king = b.king();
    [Direction::North, Direction::East]
        .into_iter()
        .filter_map(|d| Some([king.step(d)?, king.step(d.opposite())?]))
        .map(|pair| pair.iter().filter(|&&sq| !hostile.contains(sq)).count() as u32)
        .min()
        .unwrap_or(5)
}

/// Whether the defenders, stepping past any square but the attackers', reach no door: the
/// ring is shut, and the hand evaluation's squeeze counts.
fn shut_in<G: Geometry>(b: &Board<G>, rulebook: &Rulebook<G>) -> bool {
    let doors = doors(rulebook.terrain().escape);
    !b.pieces(Side::Defenders)
        .flood_reaches(!b.attackers(), doors)
}

/// Where an attacker may land on the way to taking the king within two moves, while attackers
/// hold all but two of his sides (the king in the net): the open sides, and the empty squares
/// that see one. Empty when he is not in the net. Only these of the attackers' quiet moves are
/// kept from pruning for the king's sake: a ring that held the king so for a hundred plies made
/// every attackers' node there search all its moves, two plies shallower (issue 46).
fn net_squares<G: Geometry>(b: &Board<G>, rulebook: &Rulebook<G>) -> Bitboard<G> {
    if king_open_sides(b, rulebook) > 2 {
        return Bitboard::EMPTY;
    }
    let open = b
        .king_capture_squares(rulebook)
        .unwrap_or_else(|| Bitboard::from_square(b.king()).neighbours())
        & !b.occupied();
    let mut squares = open;
    open.for_each_square(|s| squares |= Bitboard::rook_targets(s, b.occupied()));
    squares
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::notation::parse_fen;
    use crate::board::square::Square;

    fn net(fen: &str) -> Bitboard<crate::board::Eleven> {
        net_squares(&parse_fen(fen).unwrap(), &Rulebook::default())
    }

    fn squares(names: &[&str]) -> Bitboard<crate::board::Eleven> {
        names
            .iter()
            .fold(Bitboard::EMPTY, |b, s| b.with(Square::parse(s).unwrap()))
    }

    #[test]
    fn the_defenders_are_shut_in_while_they_reach_no_door() {
        let shut = |fen: &str| shut_in(&parse_fen(fen).unwrap(), &Rulebook::default());
        // Eight attackers on the corners' doors.
        assert!(shut("1a7a1/a9a/11/11/11/5k5/11/11/11/a9a/1a7a1 a"));
        // One door open: the king walks to it.
        assert!(!shut("1a7a1/a9a/11/11/11/5k5/11/11/11/a10/1a7a1 a"));
        // The door open, but the king and his soldier walled in on e6-g6 by attackers.
        assert!(shut("1a7a1/a9a/11/11/4aa5/3akda4/4aa5/11/11/a10/1a7a1 a"));
    }

    #[test]
    fn the_net_is_the_kings_open_sides_and_the_squares_that_see_them() {
        // Attackers on b8, d8 and c9: c7 is the last side, seen from h7's rank up to g7 and
        // down the c file.
        let one_open = "11/11/2a8/1aka7/7a3/11/11/11/11/11/6d4 a";
        let seen = squares(&[
            "c7", "a7", "b7", "d7", "e7", "f7", "g7", "c6", "c5", "c4", "c3", "c2", "c1",
        ]);
        assert_eq!(net(one_open), seen);
        // Two sides open is still the net: both sides and their lines count.
        let two_open = "11/11/11/1aka7/7a3/11/11/11/11/11/6d4 a";
        let both = net(two_open);
        assert!(both.contains(Square::parse("c7").unwrap()));
        assert!(both.contains(Square::parse("c11").unwrap()));
        assert!(both.contains(Square::parse("k9").unwrap()));
        assert!(!both.contains(Square::parse("e5").unwrap()));
        // Three sides open: not in the net, nothing kept for his sake.
        let three_open = "11/11/11/1ak8/7a3/11/11/11/11/11/6d4 a";
        assert_eq!(net(three_open), Bitboard::EMPTY);
        // A defender on the last side must be taken first, and captures are never pruned.
        let guarded = "11/11/2a8/1aka7/2d4a3/11/11/11/11/11/6d4 a";
        assert_eq!(net(guarded), Bitboard::EMPTY);
    }
}
