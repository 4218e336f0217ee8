//! One engine of a match: a child process ([`process`]) and the host's side of its protocol
//! ([`HostDialogue`], one per protocol). The runner owns the game; a player only translates
//! it into the protocol's messages and the engine's answer back into a decision.

mod htp;
mod listen;
mod otep;
mod process;
mod uci;

use super::spec::{EngineSpec, TimeControl};
use crate::board::variant::NamedRules;
use crate::board::{Bitboard, Board, Move, Position};
use crate::board::{Geometry, Outcome};
use crate::protocol::Protocol;
use crate::search::Clock;
use process::Process;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// The board sizes a hnefatafl text protocol engine can be told.
pub fn htp_sizes() -> &'static [u8] {
    &htp::SIZES
}

/// How an engine lost a game without the rules deciding it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Forfeit {
    /// A move that is not legal, or text that is not a move.
    IllegalMove,
    /// The process exited or closed its output.
    Crash,
    /// No answer by the deadline and a grace period after it: the engine is taken to hang.
    NoAnswer,
    /// The answer came after the engine's time ran out.
    TimeLoss,
    /// An answer the protocol does not allow, such as refusing a legal move.
    ProtocolError,
    /// The engine gave up.
    Resigned,
}

impl Forfeit {
    pub fn label(self) -> &'static str {
        match self {
            Forfeit::IllegalMove => "illegal move",
            Forfeit::Crash => "crash",
            Forfeit::NoAnswer => "no answer",
            Forfeit::TimeLoss => "time loss",
            Forfeit::ProtocolError => "protocol error",
            Forfeit::Resigned => "resignation",
        }
    }
}

/// Why a player could not go on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Fault {
    #[error("{} ({})", .0.label(), .1)]
    Forfeit(Forfeit, String),
    /// The match is stopping (Ctrl-C or a decided SPRT); the game does not count.
    #[error("the match is stopping")]
    Stopped,
}

impl Fault {
    fn crash(what: impl Into<String>) -> Fault {
        Fault::Forfeit(Forfeit::Crash, what.into())
    }

    fn protocol(what: impl Into<String>) -> Fault {
        Fault::Forfeit(Forfeit::ProtocolError, what.into())
    }
}

/// What an engine answered when asked for a move. Judging it is the referee's business.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision<G: Geometry> {
    Move(Move<G>),
    Resign,
    /// Text where a move belongs that is no move, and why.
    Unreadable {
        text: String,
        why: String,
    },
}

/// The answer to a move request and when it arrived.
pub struct Answer<G: Geometry> {
    pub decision: Decision<G>,
    pub at: Instant,
}

/// The host's side of one protocol, over the engine's process, for boards of `G`.
trait HostDialogue<G: Geometry>: Send {
    /// Right after the start: the protocol's greeting and the rules.
    fn handshake(&mut self, engine: &mut Process, rules: &NamedRules) -> Result<(), Fault>;

    /// Prepares a game that began on `start` and whose opening led to `pos`.
    fn new_game(
        &mut self,
        engine: &mut Process,
        start: &Board<G>,
        pos: &Position<G>,
        tc: &TimeControl,
    ) -> Result<(), Fault>;

    /// The opponent played `mv`, taking `captured`; `after` is the game after it.
    fn tell(
        &mut self,
        engine: &mut Process,
        mv: Move<G>,
        captured: Bitboard<G>,
        after: &Position<G>,
    ) -> Result<(), Fault>;

    /// Asks for a move in `pos` with the clocks as they stand and waits for it until
    /// `deadline` (`None`: no answer by then).
    fn ask(
        &mut self,
        engine: &mut Process,
        pos: &Position<G>,
        tc: &TimeControl,
        clock: Clock,
        deadline: Instant,
    ) -> Result<Option<Answer<G>>, Fault>;

    /// The engine's own move was played; `after` is the game after it.
    fn accepted(&mut self, engine: &mut Process, after: &Position<G>) -> Result<(), Fault>;

    /// The game is over (`None`: not by the rules).
    fn finish(&mut self, engine: &mut Process, outcome: Option<Outcome>) -> Result<(), Fault>;

    /// Whether one process plays game after game.
    fn keeps_process(&self) -> bool;

    /// What asks the process to leave, if anything, before it is killed when done with.
    fn goodbye(&self) -> Option<String>;
}

pub struct Player<G: Geometry> {
    spec: Arc<EngineSpec>,
    engine: Process,
    dialogue: Box<dyn HostDialogue<G>>,
}

impl<G: Geometry> Player<G> {
    /// Starts the engine and completes its handshake: `rules` played from `start`, their
    /// start on the board of `G`. A `Fault::Forfeit` here means the engine is broken (the
    /// runner checks this once before the match, and counts it as a loss during it).
    pub fn start(
        spec: Arc<EngineSpec>,
        rules: &NamedRules,
        start: Board<G>,
        stop: Arc<AtomicBool>,
    ) -> Result<Player<G>, Fault> {
        let engine = Process::start(&spec, stop)?;
        let dialogue: Box<dyn HostDialogue<G>> = match spec.proto {
            Protocol::Uci => Box::new(uci::UciHost::new(spec.options.clone(), start)),
            Protocol::Otep => Box::new(otep::OtepHost::new(start)),
            Protocol::Htp => Box::new(htp::HtpHost::new(spec.listen.is_some())),
        };
        let mut player = Player {
            spec,
            engine,
            dialogue,
        };
        player.dialogue.handshake(&mut player.engine, rules)?;
        Ok(player)
    }

    pub fn name(&self) -> &str {
        &self.spec.name
    }

    /// Whether the process can play another game: UCI engines that behaved are kept.
    pub fn reusable(&self) -> bool {
        self.dialogue.keeps_process() && !self.engine.tainted
    }

    /// Prepares a game that began on `start` and whose opening led to `pos`.
    pub fn new_game(
        &mut self,
        start: &Board<G>,
        pos: &Position<G>,
        tc: &TimeControl,
    ) -> Result<(), Fault> {
        self.dialogue.new_game(&mut self.engine, start, pos, tc)
    }

    pub fn tell(
        &mut self,
        mv: Move<G>,
        captured: Bitboard<G>,
        after: &Position<G>,
    ) -> Result<(), Fault> {
        self.dialogue.tell(&mut self.engine, mv, captured, after)
    }

    pub fn ask(
        &mut self,
        pos: &Position<G>,
        tc: &TimeControl,
        clock: Clock,
        deadline: Instant,
    ) -> Result<Option<Answer<G>>, Fault> {
        self.dialogue
            .ask(&mut self.engine, pos, tc, clock, deadline)
    }

    pub fn accepted(&mut self, after: &Position<G>) -> Result<(), Fault> {
        self.dialogue.accepted(&mut self.engine, after)
    }

    /// The game is over; tell the engine so if its protocol has words for it.
    pub fn finish(&mut self, outcome: Option<Outcome>) {
        let _ = self.dialogue.finish(&mut self.engine, outcome);
    }
}

impl<G: Geometry> Drop for Player<G> {
    fn drop(&mut self) {
        self.engine.shut_down(self.dialogue.goodbye());
    }
}

/// Waits for the answer to a move request: the first line `read` takes, by `deadline`.
fn await_decision<G: Geometry>(
    engine: &mut Process,
    deadline: Instant,
    read: impl FnMut(&str) -> Option<Decision<G>>,
) -> Result<Option<Answer<G>>, Fault> {
    match engine.wait_for(deadline, read) {
        Ok((decision, at)) => Ok(Some(Answer { decision, at })),
        Err(Some(fault)) => Err(fault),
        Err(None) => Ok(None),
    }
}
