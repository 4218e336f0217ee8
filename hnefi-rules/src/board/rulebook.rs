//! The rulebook: the one judge of whether a game is over, and how, given the board and what
//! came before it. Position (and through it the referee and the protocols), the search and
//! perft all ask it, so that they cannot drift apart on the end of a game.
//!
//! The history is read as Zobrist keys in slices, oldest first, because the search already
//! keeps its path in such a stack and must be able to ask at every node without allocating.

use super::bitboard::Bitboard;
use super::geometry::Geometry;
use super::moves::{Move, MoveList};
use super::no_escape::king_cannot_escape;
use super::outcome::{Outcome, Reason};
use super::piece::{Piece, Side};
use super::position::{Board, SetupError, WayOut};
use super::rules::{NoMoves, Repetition, Rules, WidthError};
use super::square::Square;
use super::terrain::Terrain;
use super::zobrist::Key;

/// What came before a position, as far as the rules look back: the positions since the last
/// capture (nothing from before a capture can recur, since captures only ever remove pieces)
/// and the length of the game.
#[derive(Clone, Copy, Debug)]
pub struct History<'a> {
    keys: &'a [Key],
    arrangements: &'a [Key],
    plies: usize,
}

impl<'a> History<'a> {
    /// `keys`: the keys of the positions since the last capture, or since the game was set up,
    /// oldest first and the current one left out; every ply counts, so the newest is the
    /// position the opponent moved from. `arrangements`: the [`Board::arrangement_key`]s of the
    /// same positions, which only the draw-fort rule reads (empty is enough without it).
    /// `plies`: plies played since the game was set up.
    pub fn new(keys: &'a [Key], arrangements: &'a [Key], plies: usize) -> History<'a> {
        History {
            keys,
            arrangements,
            plies,
        }
    }

    /// Nothing before the position: a board judged by itself, as perft and set-up boards are.
    pub fn none() -> History<'static> {
        History::new(&[], &[], 0)
    }

    /// The keys of the positions before, oldest first.
    pub fn keys(&self) -> &'a [Key] {
        self.keys
    }

    /// The keys of the defenders' arrangements before, oldest first.
    pub fn arrangements(&self) -> &'a [Key] {
        self.arrangements
    }

    /// Plies played since the start.
    pub fn plies(&self) -> usize {
        self.plies
    }

    /// Plies since the last capture.
    pub fn quiet_plies(&self) -> usize {
        self.keys.len()
    }

    /// The placement keys (side to move taken out) of the earlier positions, newest first, for
    /// a position with `side` to move.
    pub fn placements<G: Geometry>(&self, side: Side) -> impl Iterator<Item = Key> + 'a {
        let defenders_to_move = G::keys().defenders_to_move;
        self.keys.iter().rev().enumerate().map(move |(i, &key)| {
            // Sides alternate every ply; the newest earlier position was the opponent's.
            let mover = if i % 2 == 0 { side.opponent() } else { side };
            match mover {
                Side::Attackers => key,
                Side::Defenders => key ^ defenders_to_move,
            }
        })
    }
}

/// How often a position has stood since the last capture.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Occurrences {
    /// This time included.
    pub count: u32,
    /// Plies back to the latest earlier occurrence.
    pub latest: Option<usize>,
}

/// Whom the repetition rule favours when a position repeats.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Favours {
    /// The third occurrence wins for this side.
    Winner(Side),
    /// The third occurrence is a draw.
    Draw,
    /// Occurrences end nothing under these rules.
    Ignored,
}

/// What the rules that look back say about a position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct HistoryVerdict {
    /// How often the position occurred before.
    pub occurrences: Occurrences,
    /// The end of the game by hnefatafl.org's adjudications, repetition, the draw fort or the
    /// draw without captures, with a side to move that has no legal move put between the
    /// first and the others, as [`Rulebook::outcome`] orders them. `None`
    /// does not mean the game goes on: the mover may have won, or the side to move may be
    /// stuck, which the caller finds out when it generates moves.
    pub end: Option<Outcome>,
}

/// The rules of a game on a board of size `G`, as a judge of its end, with the rules compiled
/// for that board that moves and captures read.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Rulebook<G: Geometry> {
    rules: Rules,
    terrain: Terrain<G>,
}

impl<G: Geometry> Rulebook<G> {
    /// The rulebook of `rules`, or a [`WidthError`] if they are for boards of another size.
    pub fn checked(rules: Rules) -> Result<Self, WidthError> {
        rules.fit::<G>()?;
        Ok(Rulebook::new(rules))
    }

    /// The rulebook of `rules`, which the caller knows to be for boards of `G` (a preset of
    /// `G`, the rules of a position of `G`); where they come from outside, [`Rulebook::checked`].
    pub fn new(rules: Rules) -> Self {
        Rulebook {
            rules,
            terrain: Terrain::new(&rules),
        }
    }

    /// The rules.
    pub const fn rules(&self) -> &Rules {
        &self.rules
    }

    #[inline(always)]
    /// The rules compiled for this board: what moves and captures read.
    pub const fn terrain(&self) -> &Terrain<G> {
        &self.terrain
    }

    /// Whether `board` is a set-up these rules play: no man where the rules let no man of his
    /// kind stop. The king may stand anywhere: he starts on a throne he may not come back to
    /// under some rules (OpenTafl's Tablut).
    pub fn check_setup(&self, board: &Board<G>) -> Result<(), SetupError<G>> {
        for (men, kind) in [
            (board.attackers(), Piece::Attacker),
            (board.defenders(), Piece::Defender),
        ] {
            if let Some(sq) = (men & self.terrain.no_stop(kind)).first() {
                return Err(SetupError::PieceOnRestricted(sq, kind.name()));
            }
        }
        Ok(())
    }

    /// The same rulebook with the terrain's classic fast paths off, for tests that check the
    /// general paths give the same game.
    #[doc(hidden)]
    pub fn without_fast_paths(mut self) -> Self {
        self.terrain = self.terrain.without_fast_paths();
        self
    }

    /// Whether the game is over at `board`, and how, in the order of RULES.md: the mover's wins
    /// (`landing`: where the last move landed, unknown for a position set up from text), then
    /// hnefatafl.org's exit fort left by the attackers' move, its length limit and its test
    /// that the king cannot escape, then a side to move without a legal move, then repetition,
    /// the draw fort and the draw without captures.
    pub fn outcome(
        &self,
        board: &Board<G>,
        landing: Option<Square<G>>,
        history: &History,
    ) -> Option<Outcome> {
        self.judge(board, landing, history, || {
            self.has_legal_move(board, history)
        })
    }

    /// [`Rulebook::outcome`], and the legal moves into `list` (none when the game is over):
    /// both from one generation of the moves, where asking for each would generate them twice.
    pub fn outcome_and_moves(
        &self,
        board: &Board<G>,
        landing: Option<Square<G>>,
        history: &History,
        list: &mut MoveList<G>,
    ) -> Option<Outcome> {
        list.clear();
        let end = self.judge(board, landing, history, || {
            board.generate_moves(self, list);
            self.retain_allowed(board, history, list);
            !list.is_empty()
        });
        if end.is_some() {
            list.clear();
        }
        end
    }

    /// The order of the tests of [`Rulebook::outcome`], with `has_move` telling whether the
    /// side to move has a legal move.
    #[inline]
    fn judge(
        &self,
        board: &Board<G>,
        landing: Option<Square<G>>,
        history: &History,
        has_move: impl FnOnce() -> bool,
    ) -> Option<Outcome> {
        if let Some(win) = self.mover_win_landing(board, landing) {
            return Some(win);
        }
        if let Some(end) = self.adjudication(board, history) {
            return Some(end);
        }
        if !has_move() {
            return Some(self.no_moves(board.side_to_move()));
        }
        let occurrences = self.occurrences(board, history);
        self.end_by_history(board, history, occurrences.count)
    }

    /// The win that the move `last`, just played, gave its player, if any: escape, exit fort,
    /// king captured or encirclement, by the board alone.
    #[inline]
    pub fn mover_win(&self, board: &Board<G>, last: Move<G>) -> Option<Outcome> {
        self.mover_win_landing(board, Some(last.to()))
    }

    /// [`Rulebook::mover_win`] for a child of a node whose defenders' way out, if the
    /// attackers moved there, is `way_out` (from [`Board::way_out`]): the same answer, without
    /// the flood of the encirclement test for the children that keep it.
    #[doc(hidden)]
    #[inline]
    pub fn mover_win_past(
        &self,
        board: &Board<G>,
        last: Move<G>,
        way_out: Option<&WayOut<G>>,
    ) -> Option<Outcome> {
        self.mover_win_by(board, Some(last.to()), way_out)
    }

    /// [`Rulebook::mover_win`] where the last move may be unknown (a position set up from
    /// text): then a king capture cannot be told apart from a king who walked into the ring,
    /// and is not called.
    pub fn mover_win_landing(
        &self,
        board: &Board<G>,
        landing: Option<Square<G>>,
    ) -> Option<Outcome> {
        self.mover_win_by(board, landing, None)
    }

    /// The one test of a mover's win, [`Rulebook::mover_win_landing`] and
    /// [`Rulebook::mover_win_past`].
    #[inline]
    fn mover_win_by(
        &self,
        board: &Board<G>,
        landing: Option<Square<G>>,
        way_out: Option<&WayOut<G>>,
    ) -> Option<Outcome> {
        let rules = &self.rules;
        let mover = board.side_to_move().opponent();
        let king = board.king();
        let reason = match mover {
            Side::Defenders => {
                if self.terrain.escape.contains(king) {
                    Some(Reason::KingEscaped)
                } else if rules.exit_fort && king.is_edge() && self.exit_fort(board) {
                    Some(Reason::ExitFort)
                } else {
                    None
                }
            }
            Side::Attackers => {
                if landing.is_some_and(|to| board.king_captured(to, self)) {
                    Some(Reason::KingCaptured)
                } else if rules.encirclement
                    && !way_out
                        .zip(landing)
                        .is_some_and(|(w, to)| w.still_open(board, to))
                    && board.encircled()
                {
                    Some(Reason::Encirclement)
                } else {
                    None
                }
            }
        };
        reason.map(|reason| Outcome::win(mover, reason))
    }

    /// Whether the king, on the edge, stands in an exit fort by these rules' test.
    fn exit_fort(&self, board: &Board<G>) -> bool {
        if self.rules.site_exit_fort {
            super::fort::is_site_exit_fort(board)
        } else {
            super::fort::is_exit_fort(board)
        }
    }

    /// The rules that look back, for a position whose mover did not win: what the search asks
    /// at each node, in one pass over the history.
    #[inline]
    pub fn judge_history(&self, board: &Board<G>, history: &History) -> HistoryVerdict {
        let occurrences = self.occurrences(board, history);
        if let Some(end) = self.adjudication(board, history) {
            return HistoryVerdict {
                occurrences,
                end: Some(end),
            };
        }
        let rules = &self.rules;
        // Most nodes are settled here, on the search's hot path, without a call.
        let may_end = occurrences.count >= 3
            || rules.draw_fort_loses
            || rules.no_capture_draw_plies.is_some();
        let end = if may_end {
            self.end_by_history(board, history, occurrences.count)
                .map(|end| {
                    if self.has_legal_move(board, history) {
                        end
                    } else {
                        self.no_moves(board.side_to_move())
                    }
                })
        } else {
            None
        };
        HistoryVerdict { occurrences, end }
    }

    fn end_by_history(&self, board: &Board<G>, history: &History, count: u32) -> Option<Outcome> {
        let rules = &self.rules;
        if count >= 3 {
            match self.favours(board.side_to_move()) {
                Favours::Winner(side) => return Some(Outcome::win(side, Reason::Repetition)),
                Favours::Draw => return Some(Outcome::draw(Reason::Repetition)),
                Favours::Ignored => {}
            }
        }
        if self.draw_fort(board, history) {
            return Some(Outcome::win(Side::Attackers, Reason::DrawFort));
        }
        if rules
            .no_capture_draw_plies
            .is_some_and(|n| history.quiet_plies() >= n as usize)
        {
            return Some(Outcome::draw(Reason::NoCaptures));
        }
        None
    }

    /// What hnefatafl.org's program declares after any move that did not win, before it looks
    /// at the side to move: the defenders' win when the attackers' move left an exit fort by
    /// its test, else a draw at its length limit, else the attackers' win when its test says
    /// the king cannot escape.
    #[inline]
    fn adjudication(&self, board: &Board<G>, history: &History) -> Option<Outcome> {
        let rules = &self.rules;
        if rules.site_exit_fort
            && rules.exit_fort
            && board.side_to_move() == Side::Defenders
            && board.king().is_edge()
            && super::fort::is_site_exit_fort(board)
        {
            return Some(Outcome::win(Side::Defenders, Reason::ExitFort));
        }
        if rules.max_plies.is_some_and(|n| history.plies >= n as usize) {
            return Some(Outcome::draw(Reason::MoveLimit));
        }
        if rules.no_escape_loses && king_cannot_escape(board) {
            return Some(Outcome::win(Side::Attackers, Reason::NoEscape));
        }
        None
    }

    /// How many times the position (board and side to move) has stood since the last capture.
    #[inline]
    pub fn occurrences(&self, board: &Board<G>, history: &History) -> Occurrences {
        let (key, keys) = (board.key(), history.keys);
        let mut count = 1;
        let mut latest = None;
        // The side to move is in the key: only every other position back can match.
        let mut back = 2;
        while back <= keys.len() {
            if keys[keys.len() - back] == key {
                count += 1;
                latest.get_or_insert(back);
            }
            back += 2;
        }
        Occurrences { count, latest }
    }

    /// Whom a repetition of a position with `side_to_move` favours.
    pub fn favours(&self, side_to_move: Side) -> Favours {
        match self.rules.repetition {
            Repetition::ThirdLosesForDefenders => Favours::Winner(Side::Attackers),
            // The player whose move made the repetition loses; that was the opponent's move.
            Repetition::ThirdLosesForMover => Favours::Winner(side_to_move),
            Repetition::ThirdWinsForMover => Favours::Winner(side_to_move.opponent()),
            Repetition::ThirdIsDraw => Favours::Draw,
            Repetition::Off | Repetition::DefendersMayNotRepeat => Favours::Ignored,
        }
    }

    /// What it means that `stuck` has no legal move on its turn.
    pub fn no_moves(&self, stuck: Side) -> Outcome {
        match self.rules.no_moves {
            NoMoves::Loses => Outcome::win(stuck.opponent(), Reason::NoMoves),
            NoMoves::Draw => Outcome::draw(Reason::NoMoves),
        }
    }

    /// Whether the side to move has a move the rules allow, history included.
    pub fn has_legal_move(&self, board: &Board<G>, history: &History) -> bool {
        if !self.repeats_forbidden_for(board.side_to_move()) {
            return board.has_moves(self);
        }
        let mut list = MoveList::<G>::new();
        board.generate_moves(self, &mut list);
        list.iter()
            .any(|&mv| self.play_allowed(board, mv, history).is_some())
    }

    /// `mv` played from `board`, with the men it captured, or `None` where the rules forbid it
    /// as a repeat of `history`: see [`Rulebook::play_allowed_on`].
    #[inline]
    pub fn play_allowed(
        &self,
        board: &Board<G>,
        mv: Move<G>,
        history: &History,
    ) -> Option<(Board<G>, Bitboard<G>)> {
        let mut after = *board;
        let captured = self.play_allowed_on(&mut after, mv, history)?;
        Some((after, captured))
    }

    /// `mv` played on `board`, with the men it captured, or `None` where the rules forbid it
    /// as a repeat of `history` (`board` is then left played on): the one filter of the
    /// repetition rule that forbids moves. In place, for the search, which plays every move it
    /// tries through it.
    #[inline(always)]
    pub fn play_allowed_on(
        &self,
        board: &mut Board<G>,
        mv: Move<G>,
        history: &History,
    ) -> Option<Bitboard<G>> {
        let captured = board.play(mv, self);
        (!self.recreates_forbidden_board(history, board, captured)).then_some(captured)
    }

    /// Where a move of `board`'s side to move may capture, given `landings`, the squares where
    /// a landing closes a custodial capture (the union of [`crate::board::Custodial::landings`] of that side
    /// on `board`). Under captures of the classic kind these and, with shieldwalls, the edge
    /// squares beside an enemy on the edge: a move landing anywhere else captures nothing.
    /// Every square under other rules (hostile squares that come and go, Linnaean captures,
    /// shieldwalls closed by any move).
    pub fn capture_squares(&self, board: &Board<G>, landings: Bitboard<G>) -> Bitboard<G> {
        let rules = &self.rules;
        if !(self.terrain().classic_captures
            && rules.king_hammer
            && rules.king_anvil
            && !rules.linnaean
            && !rules.shieldwall_any_move)
        {
            return Bitboard::ALL;
        }
        if !rules.shieldwall {
            return landings;
        }
        let edge_enemies = board.pieces(board.side_to_move().opponent()) & Bitboard::EDGE;
        landings | (edge_enemies.neighbours() & Bitboard::EDGE)
    }

    /// [`Rulebook::play_allowed_on`], for a move of `board` that captures only if it lands on
    /// `capturing` ([`Rulebook::capture_squares`] of `board`): one landing elsewhere is played
    /// without looking for captures.
    #[inline]
    pub fn play_allowed_on_within(
        &self,
        board: &mut Board<G>,
        mv: Move<G>,
        history: &History,
        capturing: Bitboard<G>,
    ) -> Option<Bitboard<G>> {
        if capturing.contains(mv.to()) {
            return self.play_allowed_on(board, mv, history);
        }
        board.play_quiet(mv);
        (!self.recreates_forbidden_board(history, board, Bitboard::EMPTY))
            .then_some(Bitboard::EMPTY)
    }

    /// Drops from `list`, moves of `board`, those the rules forbid as a repeat of `history`.
    pub fn retain_allowed(&self, board: &Board<G>, history: &History, list: &mut MoveList<G>) {
        if self.repeats_forbidden_for(board.side_to_move()) {
            list.retain(|mv| self.play_allowed(board, *mv, history).is_some());
        }
    }

    /// Whether some moves of `side` may be forbidden as repeats, so that callers need to ask
    /// [`Rulebook::recreates_forbidden_board`] at all.
    #[inline]
    pub fn repeats_forbidden_for(&self, side: Side) -> bool {
        self.rules.repetition == Repetition::DefendersMayNotRepeat && side == Side::Defenders
    }

    /// hnefatafl.org: whether a defenders' move from a position with `history`, which led to
    /// `after` capturing `captured`, recreates a board seen earlier. A capture never does, and
    /// is always allowed.
    pub fn recreates_forbidden_board(
        &self,
        history: &History,
        after: &Board<G>,
        captured: Bitboard<G>,
    ) -> bool {
        if !self.repeats_forbidden_for(after.side_to_move().opponent()) || captured.any() {
            return false;
        }
        // The board before the move cannot come back: the moved piece stands elsewhere.
        let placement = after.placement_key();
        history
            .placements::<G>(Side::Defenders)
            .any(|p| p == placement)
    }

    /// 2017 rule 8b: after a defenders' move, their arrangement (every defender and the king)
    /// has now stood three times with no capture in between, while they still have four men
    /// besides the king.
    pub fn draw_fort(&self, board: &Board<G>, history: &History) -> bool {
        if !self.rules.draw_fort_loses
            || board.side_to_move() != Side::Attackers
            || board.defenders().count() < 4
        {
            return false;
        }
        debug_assert_eq!(
            history.arrangements.len(),
            history.keys.len(),
            "the draw-fort rule needs the arrangements of the history"
        );
        let now = board.arrangement_key();
        // The positions after the defenders' earlier moves: every other one back.
        let same = history
            .arrangements
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .filter(|&&old| old == now)
            .count();
        same + 1 >= 3
    }
}

impl Default for Rulebook<super::geometry::Eleven> {
    fn default() -> Self {
        Rulebook::new(Rules::default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::board::geometry::Eleven;
    use crate::board::notation::parse_move;
    use crate::board::rules::Preset;

    /// A move landing outside the capture squares plays as a full make does, on random games
    /// of every preset (each with its own board).
    #[test]
    fn moves_outside_the_capture_squares_play_as_a_full_make() {
        fn check<G: Geometry>(preset: Preset) {
            let mut list = MoveList::new();
            crate::board::walk::random_boards::<G>(preset, 17, 20, 150, |board, rulebook| {
                let mover = board.side_to_move();
                let landings = crate::board::captures::Custodial::of(board, mover, rulebook)
                    .landings(!board.occupied())
                    .into_iter()
                    .fold(Bitboard::EMPTY, |all, l| all | l);
                let capturing = rulebook.capture_squares(board, landings);
                list.clear();
                board.generate_moves(rulebook, &mut list);
                for &mv in &list {
                    let (mut full, mut within) = (*board, *board);
                    let history = History::none();
                    let a = rulebook.play_allowed_on(&mut full, mv, &history);
                    let b = rulebook.play_allowed_on_within(&mut within, mv, &history, capturing);
                    assert_eq!(a, b, "{preset} {mv}");
                    assert_eq!(full, within, "{preset} {mv}");
                }
            });
        }
        for preset in Preset::ALL {
            crate::with_size!(Rules::preset(preset).width, check(preset)).unwrap();
        }
    }

    /// The keys and arrangements of the boards before each of `moves` from the start, and the
    /// board they lead to.
    fn line(moves: &str, rules: &Rules) -> (Vec<Key>, Vec<Key>, Board<Eleven>) {
        let mut board = Board::start();
        let (mut keys, mut arrangements) = (Vec::new(), Vec::new());
        for m in moves.split_whitespace() {
            keys.push(board.key());
            arrangements.push(board.arrangement_key());
            let captured = board.play(parse_move(m).unwrap(), &Rulebook::<Eleven>::new(*rules));
            assert!(captured.is_empty(), "the lines here capture nothing");
        }
        (keys, arrangements, board)
    }

    const CYCLE: &str = "d1d2 f4f3 d2d1 f3f4";

    #[test]
    fn occurrences_count_every_other_position_and_the_latest() {
        let rules = Rules::default();
        let rulebook = Rulebook::<Eleven>::new(rules);
        let (keys, arr, board) = line(&format!("{CYCLE} {CYCLE}"), &rules);
        let history = History::new(&keys, &arr, keys.len());
        assert_eq!(
            rulebook.occurrences(&board, &history),
            Occurrences {
                count: 3,
                latest: Some(4)
            }
        );
        assert_eq!(
            rulebook.outcome(&board, None, &history),
            Some(Outcome::win(Side::Attackers, Reason::Repetition))
        );
        // Judged as if the last capture came four plies ago: the second occurrence only.
        let recent = History::new(&keys[4..], &arr[4..], keys.len());
        assert_eq!(rulebook.occurrences(&board, &recent).count, 2);
        assert_eq!(rulebook.outcome(&board, None, &recent), None);
    }

    #[test]
    fn favours_by_rule_and_side() {
        let favours = |p, side| Rulebook::<Eleven>::new(Rules::preset(p)).favours(side);
        use Side::*;
        assert_eq!(
            favours(Preset::Copenhagen, Defenders),
            Favours::Winner(Attackers)
        );
        assert_eq!(
            favours(Preset::Copenhagen2017, Defenders),
            Favours::Winner(Defenders)
        );
        assert_eq!(favours(Preset::Fetlar, Attackers), Favours::Draw);
        assert_eq!(favours(Preset::HnefataflOrg, Attackers), Favours::Ignored);
    }

    #[test]
    fn counted_draws_read_the_history_lengths() {
        let rulebook = Rulebook::<Eleven>::new(Rules::preset(Preset::HnefataflOrg));
        let board = Board::start();
        let draw = |plies| rulebook.outcome(&board, None, &History::new(&[], &[], plies));
        assert_eq!(draw(140), None);
        assert_eq!(draw(141), Some(Outcome::draw(Reason::MoveLimit)));
        let rulebook = Rulebook::<Eleven>::new(Rules {
            draw_fort_loses: false,
            ..Rules::preset(Preset::Copenhagen2017)
        });
        let keys = [1; 100];
        let quiet = |n: usize| rulebook.outcome(&board, None, &History::new(&keys[..n], &[], 200));
        assert_eq!(quiet(99), None);
        assert_eq!(quiet(100), Some(Outcome::draw(Reason::NoCaptures)));
    }

    /// The lone king boxed in on the edge: he has no legal move.
    fn stuck_king() -> Board<Eleven> {
        let board =
            crate::board::notation::parse_fen("11/11/11/11/11/11/11/11/11/4a6/3aka5 d").unwrap();
        assert_eq!(board.count_moves(&Rulebook::default()), 0);
        board
    }

    #[test]
    fn a_stuck_side_comes_before_the_rules_that_look_back() {
        let rulebook = Rulebook::<Eleven>::new(Rules::preset(Preset::Copenhagen2017));
        let keys = [1; 100];
        let history = History::new(&keys, &[], 140);
        let stuck = Some(Outcome::win(Side::Attackers, Reason::NoMoves));
        assert_eq!(rulebook.outcome(&stuck_king(), None, &history), stuck);
        assert_eq!(rulebook.judge_history(&stuck_king(), &history).end, stuck);
    }

    #[test]
    fn hnefatafl_org_adjudicates_before_looking_at_the_side_to_move() {
        // As the site's program does: the length limit first, then its no-escape test (which
        // the boxed lone king fails), and only then the side without a move.
        let rulebook = Rulebook::<Eleven>::new(Rules::preset(Preset::HnefataflOrg));
        let at = |plies| History::new(&[], &[], plies);
        let limit = Some(Outcome::draw(Reason::MoveLimit));
        assert_eq!(rulebook.outcome(&stuck_king(), None, &at(141)), limit);
        assert_eq!(rulebook.judge_history(&stuck_king(), &at(141)).end, limit);
        let no_escape = Some(Outcome::win(Side::Attackers, Reason::NoEscape));
        assert_eq!(rulebook.outcome(&stuck_king(), None, &at(20)), no_escape);
        assert_eq!(
            rulebook.judge_history(&stuck_king(), &at(20)).end,
            no_escape
        );
    }
}
