//! One game the bot plays: where it stands as the server last described it, whose move it
//! is, the engine that thinks for it, and what the bot has done in it.
//!
//! The server's record (`resume_game_json`) is the truth: the bot thinks only when a fresh
//! record says it is its move, and a record that disagrees with what the bot believed
//! replaces the belief. A move the server refuses is set aside for that ply, and the bot
//! thinks again without it; after [`SEARCHED_RETRIES`] refusals at one ply it stops
//! searching and takes the next move the rules allow, and when none is left it resigns, so
//! that a disagreement on the rules can never make it loop.

use super::clock::{ClockPolicy, Clocks};
use super::command::{ServerCommand, ServerMove};
use super::message::GameId;
use super::record::GameRecord;
use crate::board::Side;
use crate::board::{Board, Move, MoveList, Position};
use crate::protocol::htp::server_rules;
use crate::search::size::Size;
use crate::search::{OnDone, SearchResult, Searcher, fallback_result};
use std::any::Any;
use std::time::{Duration, Instant};

/// Refused moves at one ply after which the bot stops searching for a replacement.
pub const SEARCHED_RETRIES: usize = 2;

/// A search's result, of the size of the game that searched: games of every size report to
/// one session, and each takes back only its own (a `SearchResult<G>`).
pub type Found = Box<dyn Any + Send>;

/// Where the bot is in a game.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Turn<G: crate::board::Geometry> {
    /// Waiting for the server's record to know where the game stands.
    Syncing,
    /// The bot's move: the engine is searching (search number `token` at ply `ply`).
    Thinking { token: u64, ply: usize },
    /// A move found while the connection was down, to send once a record confirms the ply.
    Ready { mv: Move<G>, ply: usize },
    /// A move sent and not yet answered.
    Sent { mv: Move<G>, ply: usize },
    /// The opponent's move.
    Theirs,
}

/// What the bot should do after reading a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Next {
    Nothing,
    /// Start thinking.
    Think,
    /// Send this line at once.
    Send(ServerCommand),
}

/// The end of a game, for the summary line.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Ending {
    Won,
    Lost,
    Drawn,
    /// The game went while the bot was away, or the server stopped answering for it.
    Unknown,
}

/// A game on a board of `G`'s size, which the server's first record of it gave.
pub struct ServerGame<G: crate::board::Geometry> {
    pub id: GameId,
    /// The bot's side, once a record has said it.
    pub side: Option<Side>,
    pub opponent: String,
    pub rated: bool,
    pub timed: bool,
    pub pos: Position<G>,
    pub turn: Turn<G>,
    clocks: Option<Clocks>,
    engine: Searcher<G>,
    token: u64,
    /// Moves the server refused, and the ply they were refused at.
    refused: Vec<Move<G>>,
    refused_ply: usize,
    /// Disagreements with the server's reading of the rules already logged.
    logged_disagreements: usize,
    /// When the server last asked for a move, for the time to answer.
    asked: Option<Instant>,
    /// Time from the server's `generate_move` to the bot's `play`, per move.
    pub answer_times: Vec<Duration>,
    pub refusals: usize,
    /// The side that resigned, if one did: the server also resigns for a side whose time
    /// ran out.
    pub resigned: Option<Side>,
    pub started: Instant,
}

impl<G: Size> ServerGame<G> {
    /// A game the server has asked for a move in since `asked`, if it has.
    pub fn new(id: GameId, engine: Searcher<G>, asked: Option<Instant>) -> ServerGame<G> {
        let rules = server_rules::<G>();
        let start = Board::from_fen(rules.preset.start_fen())
            .expect("every preset's start is a valid board of its size");
        ServerGame {
            id,
            side: None,
            opponent: String::new(),
            rated: false,
            timed: false,
            pos: Position::new(start, rules),
            turn: Turn::Syncing,
            clocks: None,
            engine,
            token: 0,
            refused: Vec::new(),
            refused_ply: 0,
            logged_disagreements: 0,
            asked,
            answer_times: Vec::new(),
            refusals: 0,
            resigned: None,
            started: Instant::now(),
        }
    }

    /// The server asked for a move (maybe not ours: at login it asks for every game).
    pub fn asked(&mut self, now: Instant) {
        self.asked.get_or_insert(now);
    }

    /// A fresh record of the game; `username` tells the bot's side. Returns what to do.
    pub fn sync(&mut self, record: &GameRecord, username: &str, received: Instant) -> Next {
        let Some(side) = record.side_of(username) else {
            return Next::Nothing;
        };
        self.side = Some(side);
        self.opponent = match side {
            Side::Attackers => record.defenders.clone(),
            Side::Defenders => record.attackers.clone(),
        };
        self.rated = record.rated;
        self.clocks = Clocks::of(record, received);
        self.timed = self.clocks.is_some();
        let replay = match record.position::<G>(server_rules::<G>()) {
            Ok(replay) => replay,
            Err(e) => {
                log::error!("game {}: cannot play it: {e}; resigning", self.id);
                return Next::Send(ServerCommand::Resign {
                    game: self.id,
                    side,
                });
            }
        };
        for d in replay.disagreements.iter().skip(self.logged_disagreements) {
            log::warn!(
                "game {}: the server reads the rules otherwise: {d}",
                self.id
            );
        }
        self.logged_disagreements = replay.disagreements.len();
        self.pos = replay.position;
        let ply = self.pos.plies();
        if let Turn::Sent { ply: sent, .. } = self.turn
            && sent == ply
        {
            // Our move is on its way or about to be refused; its answer decides.
            return Next::Nothing;
        }
        if self.pos.side_to_move() != side {
            self.turn = Turn::Theirs;
            self.asked = None;
            return Next::Nothing;
        }
        // A move the server did not ask for in this connection (a reconnect) is timed from now.
        self.asked.get_or_insert(received);
        match self.turn {
            Turn::Thinking { ply: at, .. } if at == ply => Next::Nothing,
            Turn::Ready { mv, ply: at } if at == ply => Next::Send(self.sent(mv, ply)),
            _ => Next::Think,
        }
    }

    /// A move of the opponent relayed by the server, kept so that the bot knows the length
    /// of the game; the next record confirms it. Returns false if it does not fit.
    pub fn relayed(&mut self, side: Side, mv: &ServerMove) -> bool {
        if self.side == Some(side) {
            return true;
        }
        let Ok(mv) = Move::<G>::parse(&format!("{}-{}", mv.from, mv.to)) else {
            return false;
        };
        if self.pos.side_to_move() != side
            || self
                .pos
                .board()
                .check_move_under(mv, self.pos.rulebook())
                .is_err()
        {
            return false;
        }
        self.pos.play(mv);
        self.turn = Turn::Syncing;
        true
    }

    /// Starts the engine on the bot's move, or answers at once when there is nothing to
    /// think about. `done` reports the search's end with its token.
    pub fn think(
        &mut self,
        policy: &ClockPolicy,
        round_trip: Duration,
        done: impl FnOnce(u64, Found) + Send + 'static,
    ) -> Option<ServerCommand> {
        let side = self.side?;
        let ply = self.pos.plies();
        if self.refused_ply != ply {
            self.refused.clear();
            self.refused_ply = ply;
        }
        let candidates = self.candidates();
        let Some(&first) = candidates.first() else {
            log::error!("game {}: no move left to try; resigning", self.id);
            return Some(ServerCommand::Resign {
                game: self.id,
                side,
            });
        };
        if self.refused.len() >= SEARCHED_RETRIES || candidates.len() == 1 {
            return Some(self.sent(first, ply));
        }
        let moves_left = self.pos.rules().max_plies.map(|limit| {
            (usize::from(limit).saturating_sub(ply) as u32)
                .div_ceil(2)
                .max(1)
        });
        let mut limits = policy.limits::<G>(self.clocks.as_ref(), side, round_trip, moves_left);
        limits.searchmoves = candidates;
        self.token += 1;
        let token = self.token;
        let on_done: OnDone<G> = Box::new(move |result| done(token, Box::new(result.clone())));
        match self
            .engine
            .start(&self.pos, limits, Box::new(|_| {}), Some(on_done))
        {
            Ok(()) => {
                self.turn = Turn::Thinking { token, ply };
                None
            }
            Err(e) => {
                log::error!("game {}: {e}; playing without a search", self.id);
                Some(self.sent(first, ply))
            }
        }
    }

    /// The moves the bot may play now, best tried first: the legal ones the server has not
    /// refused and would not refuse. Where Hnefi's rules see no move but the server wants
    /// one, every move of the pieces is a candidate.
    fn candidates(&self) -> Vec<Move<G>> {
        let mut list = MoveList::new();
        self.pos.legal_moves(&mut list);
        if list.is_empty() {
            if let Some(end) = self.pos.outcome() {
                log::warn!(
                    "game {}: the server plays on where Hnefi's rules say {end}",
                    self.id
                );
            }
            self.pos
                .board()
                .generate_moves(self.pos.rulebook(), &mut list);
        }
        let open: Vec<Move<G>> = list
            .iter()
            .copied()
            .filter(|m| !self.refused.contains(m))
            .collect();
        // The server refuses a defenders' capture whose board before the capture was seen
        // before; such a move is kept only when nothing else is left.
        let (allowed, doubtful): (Vec<_>, Vec<_>) = open
            .into_iter()
            .partition(|&m| !self.pos.recreates_board_before_captures(m));
        if allowed.is_empty() {
            doubtful
        } else {
            allowed
        }
    }

    /// The search numbered `token` has ended: the move to send, if it is still wanted.
    /// `online`: whether it can be sent now (else it waits for the next record).
    pub fn searched(&mut self, token: u64, found: Found, online: bool) -> Option<ServerCommand> {
        let Turn::Thinking { token: t, ply } = self.turn else {
            return None;
        };
        let Ok(result) = found.downcast::<SearchResult<G>>() else {
            return None;
        };
        if t != token {
            return None;
        }
        let mv = match result.best {
            Some(mv) => mv,
            None => fallback_result(&self.pos, &[])
                .best
                .or(self.candidates().first().copied())?,
        };
        log::debug!(
            "game {}: ply {} {mv}, depth {} score {} nodes {}",
            self.id,
            ply + 1,
            result.depth,
            result.score,
            result.nodes
        );
        if online {
            Some(self.sent(mv, ply))
        } else {
            self.turn = Turn::Ready { mv, ply };
            None
        }
    }

    /// Marks `mv` as sent and returns the line that sends it. A move sent again after a
    /// refusal is timed from the same request.
    fn sent(&mut self, mv: Move<G>, ply: usize) -> ServerCommand {
        if let Some(asked) = self.asked {
            let time = asked.elapsed();
            log::debug!(
                "game {}: {mv} answers the request for ply {} after {} ms",
                self.id,
                ply + 1,
                time.as_millis()
            );
            self.answer_times.push(time);
        }
        self.turn = Turn::Sent { mv, ply };
        ServerCommand::Play {
            game: self.id,
            side: self.side.unwrap_or(self.pos.side_to_move()),
            mv: ServerMove::of(mv),
        }
    }

    /// The server accepted the move sent.
    pub fn accepted(&mut self) {
        if let Turn::Sent { mv, ply } = self.turn
            && self.pos.plies() == ply
        {
            self.pos.play(mv);
            self.turn = Turn::Theirs;
            self.asked = None;
        }
    }

    /// The server refused the move sent: set it aside; the next record brings a new try.
    pub fn refused(&mut self, reason: &str) {
        if let Turn::Sent { mv, ply } = self.turn {
            log::warn!(
                "game {}: the server refused {mv} at ply {} ({reason}); trying another move",
                self.id,
                ply + 1
            );
            if self.refused_ply != ply {
                self.refused.clear();
                self.refused_ply = ply;
            }
            self.refused.push(mv);
            self.refusals += 1;
        }
        self.turn = Turn::Syncing;
    }

    /// The connection went: a move in flight may or may not have arrived.
    pub fn disconnected(&mut self) {
        if matches!(self.turn, Turn::Sent { .. }) {
            self.turn = Turn::Syncing;
        }
    }

    /// Plies the game will have once the move in flight, if any, is played.
    pub fn plies_with_sent(&self) -> usize {
        self.pos.plies() + usize::from(matches!(self.turn, Turn::Sent { .. }))
    }

    /// The game is over: stops any search. A move still unanswered is the one that ended it
    /// (the server answers a game's last move with its end).
    pub fn over(&mut self) {
        self.engine.stop();
        if let Turn::Sent { mv, ply } = self.turn
            && self.pos.plies() == ply
        {
            self.pos.play(mv);
        }
    }

    /// The summary line of the finished game.
    pub fn summary(&self, ending: Ending) -> String {
        let side = self.side.map_or("?", |s| s.name());
        let result = match ending {
            Ending::Won => "won",
            Ending::Lost => "lost",
            Ending::Drawn => "drawn",
            Ending::Unknown => "ended (result unknown)",
        };
        let mut times = self.answer_times.clone();
        times.sort();
        let median = times.get(times.len() / 2).map_or(0, |d| d.as_millis());
        let max = times.last().map_or(0, |d| d.as_millis());
        let how = match (self.resigned, self.pos.outcome()) {
            (Some(side), _) if Some(side) == self.side && ending == Ending::Lost => {
                " (Hnefi resigned, or its time ran out)".to_string()
            }
            (Some(side), _) => format!(" (the {} resigned)", side.name()),
            (None, Some(end)) => format!(" ({})", end.reason.label()),
            (None, None) => String::new(),
        };
        format!(
            "game {} {result}{how}: Hnefi ({side}) vs {}, {}x{}, {}, {}, {} plies; {} moves \
             answered in median {median} ms, max {max} ms; {} refused; {} s",
            self.id,
            if self.opponent.is_empty() {
                "?"
            } else {
                &self.opponent
            },
            G::SIDE,
            G::SIDE,
            if self.rated { "rated" } else { "unrated" },
            if self.timed { "timed" } else { "untimed" },
            self.pos.plies(),
            self.answer_times.len(),
            self.refusals,
            self.started.elapsed().as_secs()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Options;
    use crate::search::size::Standard;
    use std::sync::mpsc::channel;

    fn record(moves: &str) -> GameRecord {
        let json = format!(
            r#"{{"id":3,"attackers":"bot","defenders":"human","dim":11,"start":"/3AAAAA3/5A5/11/A4D4A/A3DDD3A/AA1DDKDD1AA/A3DDD3A/A4D4A/11/5A5/3AAAAA3/","time_control":null,"time_remaining_ms":null,"moves":"{moves}","rated":false}}"#
        );
        serde_json::from_str(&json).unwrap()
    }

    fn game() -> ServerGame<Standard> {
        ServerGame::new(
            3,
            Searcher::new(Options {
                hash_mb: 1,
                ..Options::default()
            }),
            None,
        )
    }

    /// Thinks and returns the move line, whether sent at once or after the search.
    fn answer(game: &mut ServerGame<Standard>) -> ServerCommand {
        let policy = ClockPolicy {
            cap: Some(Duration::from_millis(20)),
        };
        let (tx, rx) = channel();
        if let Some(command) = game.think(&policy, Duration::ZERO, move |token, result| {
            tx.send((token, result)).unwrap();
        }) {
            return command;
        }
        let (token, found) = rx.recv().unwrap();
        game.searched(token, found, true).expect("a move")
    }

    #[test]
    fn the_record_decides_whose_move_it_is() {
        let mut g = game();
        assert_eq!(
            g.sync(&record("a4-e4"), "bot", Instant::now()),
            Next::Nothing
        );
        assert_eq!(g.turn, Turn::Theirs);
        assert_eq!(g.side, Some(Side::Attackers));
        assert_eq!(g.opponent, "human");
        assert_eq!(
            g.sync(&record("a4-e4 d6-d4xe4"), "bot", Instant::now()),
            Next::Think
        );
        assert!(matches!(
            answer(&mut g),
            ServerCommand::Play {
                game: 3,
                side: Side::Attackers,
                ..
            }
        ));
        assert!(matches!(g.turn, Turn::Sent { ply: 2, .. }));
        // A record from before the move lands changes nothing; the answer decides.
        assert_eq!(
            g.sync(&record("a4-e4 d6-d4xe4"), "bot", Instant::now()),
            Next::Nothing
        );
        g.accepted();
        assert_eq!((g.turn, g.pos.plies()), (Turn::Theirs, 3));
        assert_eq!(g.answer_times.len(), 1);
        // Not the bot's game at all.
        let mut other = game();
        assert_eq!(
            other.sync(&record(""), "someone", Instant::now()),
            Next::Nothing
        );
        assert_eq!(other.side, None);
    }

    #[test]
    fn refused_moves_are_set_aside_and_the_bot_never_loops() {
        let mut g = game();
        let start = record("");
        let mut refused = Vec::new();
        let mut legal = MoveList::new();
        g.pos.legal_moves(&mut legal);
        // The server refuses every move: the bot tries each once, searching only at first,
        // and resigns when none is left.
        for n in 0..=legal.len() {
            assert_eq!(
                g.sync(&start, "bot", Instant::now()),
                Next::Think,
                "try {n}"
            );
            match answer(&mut g) {
                ServerCommand::Play { mv, .. } => {
                    assert!(!refused.contains(&mv), "{mv} tried twice");
                    refused.push(mv);
                    g.refused("you can only play in a straight line");
                    assert_eq!(g.turn, Turn::Syncing);
                }
                ServerCommand::Resign { game: 3, side } => {
                    assert_eq!(side, Side::Attackers);
                    assert_eq!(refused.len(), legal.len());
                    return;
                }
                other => panic!("{other:?}"),
            }
        }
        panic!("no resignation");
    }

    #[test]
    fn a_move_found_while_away_waits_for_the_record() {
        let mut g = game();
        assert_eq!(g.sync(&record(""), "bot", Instant::now()), Next::Think);
        let policy = ClockPolicy {
            cap: Some(Duration::from_millis(20)),
        };
        let (tx, rx) = channel();
        assert!(
            g.think(&policy, Duration::ZERO, move |t, r| tx
                .send((t, r))
                .unwrap())
                .is_none()
        );
        let (token, found) = rx.recv().unwrap();
        let result = *found.downcast::<SearchResult<Standard>>().expect("11x11");
        let again = || -> Found { Box::new(result.clone()) };
        assert_eq!(g.searched(token + 1, again(), false), None, "an old search");
        assert_eq!(
            g.searched(token, Box::new(7u8), false),
            None,
            "another size's"
        );
        assert!(matches!(g.turn, Turn::Thinking { .. }));
        assert_eq!(g.searched(token, again(), false), None);
        assert!(matches!(g.turn, Turn::Ready { ply: 0, .. }));
        assert!(matches!(
            g.sync(&record(""), "bot", Instant::now()),
            Next::Send(ServerCommand::Play { .. })
        ));
    }
}
