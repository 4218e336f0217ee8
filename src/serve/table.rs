//! One session's game and engine, on the board of `G`: the moves, the position shown, who the
//! engine plays, and the one search that follows the position shown (the engine's move at the
//! end of the game, or else the analysis). Every rule comes from the board's `Position`, as
//! in the protocols; every search from the engine API.

use super::api::{Ending, EngineSide, Event, Export, Legal, Line, PlayedMove, Request, View};
use super::error::ApiError;
use super::session::{Msg, Wire};
use crate::board::notation::{record_move, to_fen};
use crate::board::variant::NamedRules;
use crate::board::{Bitboard, Board, Move, MoveList, Position, RecordMove};
use crate::board::{Outcome, Side};
use crate::games::record::{Verdict, write_game};
use crate::report::diagram::{self, CELL, MARGIN, Marks};
use crate::report::scale::attackers_win;
use crate::search::size::Size;
use crate::search::{Go, Info, Level, Options, Score, Searcher};
use std::time::Duration;

/// The longest the analysis of one position runs: a page left open does not search for ever.
/// The analysis stays on, and the next position shown is analysed afresh.
pub const ANALYSIS_CAP: Duration = Duration::from_secs(120);
/// The engine's time a move, at least and at most.
pub const MOVETIME_MS: std::ops::RangeInclusive<u64> = 20..=30_000;
/// The most analysis lines.
pub const MAX_LINES: usize = 3;
/// Memory of one session's engine, MB.
const HASH_MB: usize = 16;

/// How a loaded record says its game ended where its moves do not end it: a resignation, a
/// loss on time.
#[derive(Clone, Debug)]
pub struct Recorded {
    pub verdict: Verdict,
    pub termination: Option<String>,
}

/// Who the engine plays and how strongly.
#[derive(Clone, Copy, Debug)]
pub struct Seat {
    pub engine: EngineSide,
    pub level: Level,
    pub movetime: Duration,
}

impl Seat {
    fn plays(&self, side: Side) -> bool {
        matches!(
            (self.engine, side),
            (EngineSide::Attackers, Side::Attackers) | (EngineSide::Defenders, Side::Defenders)
        )
    }
}

/// What the running search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Purpose {
    Move,
    Analysis,
}

/// A [`Table`] of any size: what the session asks of it.
trait AnyTable: Send {
    fn handle(&mut self, request: Request) -> Result<(), ApiError>;
    fn searched(&mut self, generation: u64) -> bool;
    fn view(&self, note: Option<String>) -> View;
    fn export(&self, what: Export) -> Exported;
    fn rules(&self) -> &NamedRules;
    fn seat(&self) -> Seat;
    fn analysing(&self) -> (bool, usize);
    fn follow(&mut self);
    fn stop(&mut self);
}

impl<G: Size> AnyTable for Table<G> {
    fn handle(&mut self, request: Request) -> Result<(), ApiError> {
        Table::handle(self, request)
    }
    fn searched(&mut self, generation: u64) -> bool {
        Table::searched(self, generation)
    }
    fn view(&self, note: Option<String>) -> View {
        Table::view(self, note)
    }
    fn export(&self, what: Export) -> Exported {
        Table::export(self, what)
    }
    fn rules(&self) -> &NamedRules {
        &self.rules
    }
    fn seat(&self) -> Seat {
        self.seat
    }
    fn analysing(&self) -> (bool, usize) {
        (self.analysis, self.lines)
    }
    fn follow(&mut self) {
        Table::follow(self)
    }
    fn stop(&mut self) {
        Table::stop(self)
    }
}

/// A game of any size, as the session holds it.
pub struct Desk(Box<dyn AnyTable>);

impl Desk {
    /// A desk for the table.
    pub fn of<G: Size>(table: Table<G>) -> Desk {
        Desk(Box::new(table))
    }

    /// Carries out a request other than a new game or a load, which make a new desk.
    pub fn handle(&mut self, request: Request) -> Result<(), ApiError> {
        self.0.handle(request)
    }

    /// The search of generation `generation` has ended: plays the engine's move, or notes the
    /// analysis stopped. Whether the page must hear of it.
    pub fn searched(&mut self, generation: u64) -> bool {
        self.0.searched(generation)
    }

    pub fn view(&self, note: Option<String>) -> View {
        self.0.view(note)
    }

    /// The game to export; a report is made on a thread of its own, so it comes as a job.
    pub fn export(&self, what: Export) -> Exported {
        self.0.export(what)
    }

    pub fn rules(&self) -> &NamedRules {
        self.0.rules()
    }

    pub fn seat(&self) -> Seat {
        self.0.seat()
    }

    /// Whether the analysis is on, and with how many lines: a new game keeps them.
    pub fn analysing(&self) -> (bool, usize) {
        self.0.analysing()
    }

    /// Starts the search the last change asked for, once the old one has stopped.
    pub fn follow(&mut self) {
        self.0.follow()
    }

    /// Tells the search to stop, without waiting: dropping the desk waits.
    pub fn stop(&mut self) {
        self.0.stop()
    }
}

/// An export: ready, or a job (the annotated report) to run away from the session's thread.
pub enum Exported {
    Text(String),
    Job(Box<dyn FnOnce() -> Result<String, ApiError> + Send>),
}

pub struct Table<G: crate::board::Geometry> {
    rules: NamedRules,
    /// The start, then the position after each move.
    positions: Vec<Position<G>>,
    moves: Vec<RecordMove<G>>,
    /// The position shown: after this many moves.
    shown: usize,
    seat: Seat,
    /// The record's result, while the game is the record's: a move played or taken back
    /// makes it another game.
    recorded: Option<Recorded>,
    analysis: bool,
    lines: usize,
    engine: Searcher<G>,
    /// What the search of this generation is for, if there is one.
    plan: Option<Purpose>,
    /// The search of this generation is yet to start.
    pending: bool,
    generation: u64,
    wire: Wire,
}

impl<G: Size> Table<G> {
    /// A game from `start` under `rules`, the `moves` played (each checked), ended as
    /// `recorded` says where the rules do not end it.
    pub fn open(
        rules: NamedRules,
        start: Board<G>,
        moves: &[Move<G>],
        recorded: Option<Recorded>,
        seat: Seat,
        (analysis, lines): (bool, usize),
        wire: Wire,
    ) -> Result<Table<G>, ApiError> {
        let engine = Searcher::try_new(Options {
            hash_mb: HASH_MB,
            move_overhead: Duration::ZERO,
            ..Options::default()
        })
        .map_err(|e| ApiError::Engine(e.to_string()))?;
        let mut table = Table {
            positions: vec![Position::new(start, rules.rules)],
            rules,
            moves: Vec::new(),
            shown: 0,
            seat,
            recorded: None,
            analysis,
            lines: lines.clamp(1, MAX_LINES),
            engine,
            plan: None,
            pending: false,
            generation: 0,
            wire,
        };
        for (i, &mv) in moves.iter().enumerate() {
            table
                .push(mv)
                .map_err(|e| ApiError::Load(format!("move {}: {e}", i + 1)))?;
        }
        table.shown = table.moves.len();
        table.recorded = recorded.filter(|r| {
            r.verdict != Verdict::Ongoing && table.positions[table.last()].outcome().is_none()
        });
        table.retarget();
        Ok(table)
    }

    fn position(&self) -> &Position<G> {
        &self.positions[self.shown]
    }

    fn last(&self) -> usize {
        self.moves.len()
    }

    /// Plays `mv` after the position shown, dropping what followed it.
    fn push(&mut self, mv: Move<G>) -> Result<(), ApiError> {
        if self.position().outcome().is_some() {
            return Err(ApiError::Over);
        }
        let mut pos = self.position().clone();
        let captures = pos.try_play(mv).map_err(|e| ApiError::IllegalMove {
            text: record_move(mv, Bitboard::EMPTY),
            why: e.to_string(),
        })?;
        self.cut(self.shown);
        self.recorded = None;
        self.positions.push(pos);
        self.moves.push(RecordMove { mv, captures });
        self.shown += 1;
        Ok(())
    }

    /// Drops the moves after the first `ply`, and shows the position they leave.
    fn cut(&mut self, ply: usize) {
        if ply < self.last() {
            self.recorded = None;
        }
        self.positions.truncate(ply + 1);
        self.moves.truncate(ply);
        self.shown = ply;
    }

    /// Whether the engine is to move: at the end of the game, on its side, the game not over.
    fn engine_to_move(&self) -> bool {
        let pos = self.position();
        self.shown == self.last() && self.seat.plays(pos.side_to_move()) && pos.outcome().is_none()
    }

    /// The position shown or what to do with it changed: a new generation, and the running
    /// search told to stop at once. The next search starts in [`Desk::follow`], once the page
    /// has its answer: waiting for a search to stop on a busy machine is no part of it.
    fn retarget(&mut self) {
        self.generation = self.wire.next_generation();
        self.engine.stop();
        self.pending = true;
        self.plan = if self.position().outcome().is_some() {
            None
        } else if self.engine_to_move() {
            Some(Purpose::Move)
        } else if self.analysis {
            Some(Purpose::Analysis)
        } else {
            None
        };
    }

    fn start(&mut self, purpose: Purpose) {
        let (level, multipv, movetime) = match purpose {
            Purpose::Move => (self.seat.level, 1, self.seat.movetime),
            Purpose::Analysis => (Level::MAX, self.lines, ANALYSIS_CAP),
        };
        let options = Options {
            level,
            multipv,
            ..self.engine.options().clone()
        };
        if *self.engine.options() != options
            && let Err(e) = self.engine.set_options(options)
        {
            log::error!("session options: {e}");
            return;
        }
        let generation = self.generation;
        let report: crate::search::Reporter<G> = match purpose {
            Purpose::Move => Box::new(|_| {}),
            Purpose::Analysis => {
                let pos = self.position().clone();
                let wire = self.wire.clone();
                Box::new(move |info| wire.event(Event::Info(line(&pos, info, generation))))
            }
        };
        let actor = self.wire.clone();
        let limits = Go {
            movetime: Some(movetime),
            ..Go::default()
        };
        let pos = self.position().clone();
        if let Err(e) = self.engine.start(
            &pos,
            limits,
            report,
            Some(Box::new(move |_| actor.tell(Msg::Searched(generation)))),
        ) {
            log::error!("{e}");
            self.plan = None;
        }
    }

    fn play_texts(&mut self, texts: &[String]) -> Result<(), ApiError> {
        if texts.is_empty() {
            return Err(ApiError::Malformed("no move to play".into()));
        }
        if self.engine_to_move() {
            return Err(ApiError::EngineToMove);
        }
        if self.position().outcome().is_some() {
            return Err(ApiError::Over);
        }
        // All or nothing: a line whose third move is refused leaves the game as it was.
        let (positions, moves, shown) = (self.positions.clone(), self.moves.clone(), self.shown);
        for text in texts {
            let played = RecordMove::<G>::parse(text)
                .map_err(|e| ApiError::IllegalMove {
                    text: text.clone(),
                    why: e.to_string(),
                })
                .and_then(|m| self.push(m.mv));
            if let Err(e) = played {
                (self.positions, self.moves, self.shown) = (positions, moves, shown);
                return Err(e);
            }
        }
        Ok(())
    }

    /// How the game ended at the position shown: by the rules, or at the record's last move
    /// as the record says.
    fn ending(&self) -> Option<Ending> {
        if let Some(outcome) = self.position().outcome() {
            return Some(describe(outcome));
        }
        let recorded = self
            .recorded
            .as_ref()
            .filter(|_| self.shown == self.last())?;
        let (winner, won) = match recorded.verdict {
            Verdict::Win(Side::Attackers) => (Some("attackers"), "Attackers won"),
            Verdict::Win(Side::Defenders) => (Some("defenders"), "Defenders won"),
            Verdict::Draw => (None, "Drawn"),
            Verdict::Ongoing => return None,
        };
        let text = match &recorded.termination {
            Some(how) => format!("{won} ({how})."),
            None => format!("{won}, by the record."),
        };
        Some(Ending {
            winner,
            reason: "by the record",
            text,
        })
    }

    /// The game's result for its exports: the record's while the game is the record's.
    fn verdict(&self) -> Verdict {
        match &self.recorded {
            Some(recorded) => recorded.verdict,
            None => Verdict::from(self.positions[self.last()].outcome()),
        }
    }

    fn marks(&self) -> Marks<G> {
        Marks {
            last: self.shown.checked_sub(1).map(|i| self.moves[i]),
            better: None,
        }
    }

    fn legal(&self) -> Vec<Legal> {
        if self.engine_to_move() {
            return Vec::new();
        }
        let pos = self.position();
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        list.iter()
            .map(|&mv| {
                let mut after = pos.clone();
                let captures = after.play(mv);
                Legal {
                    from: mv.from().to_string(),
                    to: mv.to().to_string(),
                    captures: captures.into_iter().map(|s| s.to_string()).collect(),
                }
            })
            .collect()
    }

    fn record(&self) -> String {
        let start = self.positions[0].board();
        let moves: Vec<Move<G>> = self.moves.iter().map(|m| m.mv).collect();
        write_game(start, &moves, &self.rules, self.verdict(), false)
    }

    fn names(&self) -> (String, String) {
        let hnefi = format!("Hnefi (level {})", self.seat.level.get());
        match self.seat.engine {
            EngineSide::Attackers => (hnefi, "You".into()),
            EngineSide::Defenders => ("You".into(), hnefi),
            EngineSide::None => ("Attackers".into(), "Defenders".into()),
        }
    }
}

/// `Defenders won: the king escaped to a corner.`
fn describe(outcome: Outcome) -> Ending {
    let reason = outcome.reason.describe();
    let (winner, text) = match outcome.winner {
        Some(Side::Attackers) => (Some("attackers"), format!("Attackers won: {reason}.")),
        Some(Side::Defenders) => (Some("defenders"), format!("Defenders won: {reason}.")),
        None => (None, format!("Draw: {reason}.")),
    };
    Ending {
        winner,
        reason,
        text,
    }
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::Attackers => "attackers",
        Side::Defenders => "defenders",
    }
}

/// An analysis line for the page, its moves with what they capture.
fn line<G: Size>(pos: &Position<G>, info: &Info<G>, generation: u64) -> Line {
    let side = pos.side_to_move();
    let score = info.score.for_attackers(side);
    let mut after = pos.clone();
    let moves = info
        .pv
        .iter()
        .map_while(|&mv| after.try_play(mv).ok().map(|c| record_move(mv, c)))
        .collect();
    Line {
        generation,
        rank: info.multipv,
        depth: info.depth,
        nodes: info.nodes,
        nps: info.nps,
        chance: attackers_win(score),
        score: score_text(score),
        moves,
    }
}

/// A score from the attackers' view in pawns, or the plies to a forced end.
fn score_text(score: Score) -> String {
    match score.plies_to_end() {
        Some(n) if score > Score::DRAW => format!("attackers win in {n}"),
        Some(n) => format!("defenders win in {n}"),
        None => format!("{:+.2}", f64::from(score.0) / 100.0),
    }
}

/// What a [`Desk`] asks of the table it holds.
impl<G: Size> Table<G> {
    pub fn handle(&mut self, request: Request) -> Result<(), ApiError> {
        match request {
            Request::Show => return Ok(()),
            Request::Play { moves } => self.play_texts(&moves)?,
            Request::Goto { ply } if ply > self.last() => {
                return Err(ApiError::NoSuchPly {
                    ply,
                    last: self.last(),
                });
            }
            Request::Goto { ply } => self.shown = ply,
            Request::Takeback => {
                if self.last() == 0 {
                    return Err(ApiError::NothingToTakeBack);
                }
                self.cut(self.last() - 1);
                // Back to a position where the person moves, unless that is the start.
                if self.engine_to_move() && self.shown > 0 {
                    self.cut(self.shown - 1);
                }
            }
            Request::Analyse { on, lines } => {
                if !(1..=MAX_LINES).contains(&lines) {
                    return Err(ApiError::Lines(lines));
                }
                self.analysis = on;
                self.lines = lines;
            }
            Request::Engine => {
                if self.position().outcome().is_some() {
                    return Err(ApiError::Over);
                }
                // Cut the game here and let the engine take this side from now on.
                self.cut(self.shown);
                self.seat.engine = match self.position().side_to_move() {
                    Side::Attackers => EngineSide::Attackers,
                    Side::Defenders => EngineSide::Defenders,
                };
            }
            Request::New(_) | Request::Load { .. } => {
                return Err(ApiError::Malformed("a new game makes a new table".into()));
            }
        }
        self.retarget();
        Ok(())
    }

    pub fn searched(&mut self, generation: u64) -> bool {
        if generation != self.generation || self.pending {
            return false;
        }
        let Some(purpose) = self.plan.take() else {
            return false;
        };
        let result = self.engine.wait();
        match purpose {
            Purpose::Move => {
                let Some(best) = result.and_then(|r| r.best) else {
                    return false;
                };
                if let Err(e) = self.push(best) {
                    log::error!("the engine's move {best}: {e}");
                    return false;
                }
                self.retarget();
            }
            // The analysis has ended: the position is solved, or the search reached its
            // deepest or its cap. It stays on, so that the next position shown is analysed,
            // and the page keeps the lines it has; nothing searches until then.
            Purpose::Analysis => {}
        }
        true
    }

    pub fn view(&self, note: Option<String>) -> View {
        let pos = self.position();
        let special = diagram::special_squares::<G>(&self.rules.rules);
        let offset = usize::from(self.positions[0].side_to_move() == Side::Defenders);
        let moves = self
            .moves
            .iter()
            .enumerate()
            .map(|(i, m)| PlayedMove {
                ply: i + 1,
                text: record_move(m.mv, m.captures),
                side: side_name(self.positions[i].side_to_move()),
                number: (i + offset) / 2 + 1,
            })
            .collect();
        View {
            generation: self.generation,
            serial: self.wire.next_serial(),
            side: G::SIDE,
            rules: self.rules.name.clone(),
            svg: diagram::render(pos.board(), &self.marks(), special).into_string(),
            cell: CELL,
            margin: MARGIN,
            squares: Bitboard::<G>::ALL
                .into_iter()
                .map(|s| s.to_string())
                .collect(),
            to_move: side_name(pos.side_to_move()),
            engine: self.seat.engine,
            level: self.seat.level.get(),
            movetime: self.seat.movetime.as_millis() as u64,
            thinking: self.plan == Some(Purpose::Move),
            analysis: self.analysis,
            analysing: self.plan == Some(Purpose::Analysis),
            lines: self.lines,
            ply: self.shown,
            moves,
            legal: self.legal(),
            ending: self.ending(),
            fen: to_fen(pos.board()),
            note,
        }
    }

    pub fn export(&self, what: Export) -> Exported {
        match what {
            Export::Record => Exported::Text(self.record()),
            Export::Otg => Exported::Text(super::export::otg(
                &self.rules,
                &self.positions[..=self.last()],
                &self.moves,
                self.names(),
            )),
            Export::Report => {
                let job = super::export::report_job(
                    self.rules.clone(),
                    *self.positions[0].board(),
                    self.moves.clone(),
                    self.names(),
                    self.verdict(),
                );
                Exported::Job(job)
            }
        }
    }

    pub fn follow(&mut self) {
        if !std::mem::take(&mut self.pending) {
            return;
        }
        // The search told to stop ends here, and its answer, of an old generation, is passed
        // over when it arrives.
        self.engine.wait();
        if let Some(purpose) = self.plan {
            self.start(purpose);
        }
    }

    pub fn stop(&mut self) {
        self.engine.stop();
    }
}

impl<G: crate::board::Geometry> Drop for Table<G> {
    /// A table dropped stops its search at once: a search left running would hold a core
    /// for up to its cap after the page has gone.
    fn drop(&mut self) {
        self.engine.stop();
        self.engine.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Seven;
    use crate::serve::api::Export;

    fn brandubh(engine: EngineSide) -> (Table<Seven>, std::sync::mpsc::Receiver<Msg>) {
        let rules: NamedRules = "brandubh".parse().unwrap();
        let start = rules.start_board::<Seven>().unwrap();
        let seat = Seat {
            engine,
            level: Level::MIN,
            movetime: Duration::from_millis(20),
        };
        let (wire, inbox, _) = Wire::for_tests();
        (
            Table::open(rules, start, &[], None, seat, (false, 1), wire).unwrap(),
            inbox,
        )
    }

    fn play(table: &mut Table<Seven>, moves: &[&str]) -> Result<(), ApiError> {
        let moves = moves.iter().map(|m| m.to_string()).collect();
        table.handle(Request::Play { moves })
    }

    #[test]
    fn bad_moves_and_requests_are_refused_with_a_4xx_and_change_nothing() {
        let (mut table, _) = brandubh(EngineSide::None);
        let illegal = play(&mut table, &["d4-d7"]).unwrap_err();
        assert_eq!(illegal.status(), 422);
        assert!(
            illegal
                .to_string()
                .starts_with("d4-d7 cannot be played here: "),
            "{illegal}"
        );
        assert_eq!(play(&mut table, &["nonsense"]).unwrap_err().status(), 422);
        assert_eq!(play(&mut table, &[]).unwrap_err().status(), 400);
        // The second move of a line refused: the first is not kept either.
        assert_eq!(
            play(&mut table, &["d5-f5", "d5-d4"]).unwrap_err().status(),
            422
        );
        assert_eq!(table.view(None).moves.len(), 0);
        let no_move = table.handle(Request::Goto { ply: 1 }).unwrap_err();
        assert_eq!(
            (no_move.status(), no_move.to_string()),
            (422, "there is no move 1: the game has 0".into())
        );
        assert_eq!(table.handle(Request::Takeback).unwrap_err().status(), 422);
        let lines = table
            .handle(Request::Analyse { on: true, lines: 4 })
            .unwrap_err();
        assert_eq!(lines.status(), 422);
        play(&mut table, &["d5-f5", "d6-f6xf5"]).unwrap();
        let view = table.view(None);
        assert_eq!(view.moves[1].text, "d6-f6xf5");
        assert_eq!(view.to_move, "defenders");
        table.handle(Request::Goto { ply: 1 }).unwrap();
        assert_eq!(table.view(None).fen, "3a3/3a3/5d1/aadkdaa/3d3/3a3/3a3 a");
    }

    #[test]
    fn the_records_result_holds_at_its_last_move_until_the_game_changes() {
        let rules: NamedRules = "brandubh".parse().unwrap();
        let start = rules.start_board::<Seven>().unwrap();
        let moves: Vec<_> = ["d5-f5", "d6-f6"]
            .iter()
            .map(|m| RecordMove::<Seven>::parse(m).unwrap().mv)
            .collect();
        let recorded = Recorded {
            verdict: Verdict::Win(Side::Defenders),
            termination: Some("on time".into()),
        };
        let seat = Seat {
            engine: EngineSide::None,
            level: Level::MIN,
            movetime: Duration::from_millis(20),
        };
        let (wire, _, _) = Wire::for_tests();
        let mut table =
            Table::open(rules, start, &moves, Some(recorded), seat, (false, 1), wire).unwrap();
        let ending = |table: &Table<Seven>| table.view(None).ending.map(|e| e.text);
        assert_eq!(ending(&table).as_deref(), Some("Defenders won (on time)."));
        let exported = |table: &Table<Seven>| match table.export(Export::Record) {
            Exported::Text(record) => record,
            Exported::Job(_) => panic!("a record is text"),
        };
        assert!(exported(&table).ends_with(",White,brandubh"));
        table.handle(Request::Goto { ply: 1 }).unwrap();
        assert_eq!(ending(&table), None);
        table.handle(Request::Goto { ply: 2 }).unwrap();
        play(&mut table, &["d3-c3"]).unwrap();
        assert_eq!(ending(&table), None);
        assert!(exported(&table).ends_with(",Ongoing,brandubh"));
    }

    /// A solved position: the search ends at once, and the analysis stays on, through the
    /// game's end and back.
    #[test]
    fn the_analysis_of_a_solved_position_ends_but_stays_on() {
        let rules: NamedRules = "brandubh".parse().unwrap();
        // The king on c7 reaches the corner a7 or g7 in one move.
        let start = Board::<Seven>::from_fen("2k4/7/7/1a5/4a2/a6/7 d").unwrap();
        let seat = Seat {
            engine: EngineSide::None,
            level: Level::MIN,
            movetime: Duration::from_millis(20),
        };
        let (wire, inbox, _) = Wire::for_tests();
        let mut table = Table::open(rules, start, &[], None, seat, (true, 1), wire).unwrap();
        let searched = |table: &mut Table<Seven>| {
            table.follow();
            let Ok(Msg::Searched(generation)) = inbox.recv() else {
                panic!("the search did not end");
            };
            assert!(table.searched(generation));
        };
        assert!(table.view(None).analysing);
        searched(&mut table);
        let view = table.view(None);
        assert_eq!((view.analysis, view.analysing), (true, false));
        play(&mut table, &["c7-a7"]).unwrap();
        let view = table.view(None);
        assert_eq!((view.analysis, view.analysing), (true, false));
        assert_eq!(view.ending.map(|e| e.winner), Some(Some("defenders")));
        // Back at the start, which is analysed again.
        table.handle(Request::Goto { ply: 0 }).unwrap();
        assert!(table.view(None).analysing);
        searched(&mut table);
        assert!(table.view(None).analysis);
    }

    #[test]
    fn the_engine_answers_and_its_turn_is_its_own() {
        let (mut table, inbox) = brandubh(EngineSide::Attackers);
        play(&mut table, &["d5-f5"]).unwrap();
        let view = table.view(None);
        assert!(view.thinking && view.legal.is_empty());
        assert_eq!(
            play(&mut table, &["d4-d5"]).unwrap_err(),
            ApiError::EngineToMove
        );
        table.follow();
        let Ok(Msg::Searched(generation)) = inbox.recv() else {
            panic!("the search did not end");
        };
        assert!(table.searched(generation));
        let view = table.view(None);
        assert_eq!((view.moves.len(), view.thinking), (2, false));
        assert!(!view.legal.is_empty());
        // An answer of an older search is passed over.
        assert!(!table.searched(generation));
        let Exported::Text(record) = table.export(Export::Record) else {
            panic!("a record is text");
        };
        assert!(
            record.starts_with("d5-f5 ") && record.ends_with(",brandubh"),
            "{record}"
        );
        table.handle(Request::Takeback).unwrap();
        assert_eq!(table.view(None).moves.len(), 0);
    }
}
