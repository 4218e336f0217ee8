//! The host's side of the UCI-style protocol: one process for every game; the whole game goes
//! with each request, so the engine hears nothing of the opponent's moves.

use super::process::{Process, STARTUP_TIME};
use super::{Answer, Decision, Fault, HostDialogue, await_decision};
use crate::board::{Bitboard, Move, Outcome, Position, Rules};
use crate::protocol::uci::message::{Command, Reply, Setup};
use crate::search::{Clock, Limits};
use crate::tournament::spec::TimeControl;
use std::time::Instant;

pub struct UciHost {
    /// `option.NAME=VALUE` of the engine's spec.
    options: Vec<(String, String)>,
}

impl UciHost {
    pub fn new(options: Vec<(String, String)>) -> UciHost {
        UciHost { options }
    }

    fn ready(&self, engine: &mut Process) -> Result<(), Fault> {
        engine.send(Command::IsReady)?;
        engine.expect(STARTUP_TIME, "readyok", |l| {
            matches!(l.parse(), Ok(Reply::ReadyOk)).then_some(())
        })
    }
}

impl HostDialogue for UciHost {
    fn handshake(&mut self, engine: &mut Process, rules: Rules) -> Result<(), Fault> {
        engine.send(Command::Uci)?;
        let mut offered = Vec::new();
        engine.expect(STARTUP_TIME, "uciok", |l| match l.parse() {
            Ok(Reply::Option(option)) => {
                offered.push(option.name);
                None
            }
            Ok(Reply::UciOk) => Some(()),
            _ => None,
        })?;
        let mut options = self.options.clone();
        // An engine that knows the rules presets plays the match's.
        if offered.iter().any(|n| n == "Rules") && !options.iter().any(|(n, _)| n == "Rules") {
            options.push(("Rules".into(), rules.preset.name().into()));
        }
        for (name, value) in options {
            engine.send(Command::SetOption {
                name,
                value: Some(value),
            })?;
        }
        self.ready(engine)
    }

    fn new_game(
        &mut self,
        engine: &mut Process,
        _: &Position,
        _: &TimeControl,
    ) -> Result<(), Fault> {
        engine.send(Command::UciNewGame)?;
        self.ready(engine)
    }

    fn tell(&mut self, _: &mut Process, _: Move, _: Bitboard, _: &Position) -> Result<(), Fault> {
        Ok(())
    }

    fn ask(
        &mut self,
        engine: &mut Process,
        pos: &Position,
        tc: &TimeControl,
        clock: Clock,
        deadline: Instant,
    ) -> Result<Option<Answer>, Fault> {
        engine.send(Command::Position {
            setup: Setup::StartPos,
            moves: pos.moves().collect(),
        })?;
        engine.send(Command::Go(Limits {
            clock: clock.shown_to(pos.side_to_move()).unwrap_or(Clock::NONE),
            movetime: tc.movetime,
            nodes: tc.nodes,
            depth: tc.depth,
            ..Limits::default()
        }))?;
        await_decision(engine, deadline, |l| match l.parse() {
            Ok(Reply::BestMove { best: Some(mv), .. }) => Some(Decision::Move(mv)),
            Ok(Reply::BestMove { best: None, .. }) => Some(Decision::Unreadable {
                text: "(none)".into(),
                why: "no move, though the game goes on".into(),
            }),
            Ok(_) => None,
            Err(e) => Some(Decision::Unreadable {
                text: l.to_string(),
                why: e.to_string(),
            }),
        })
    }

    fn accepted(&mut self, _: &mut Process, _: &Position) -> Result<(), Fault> {
        Ok(())
    }

    fn finish(&mut self, _: &mut Process, _: Option<Outcome>) -> Result<(), Fault> {
        Ok(())
    }

    fn keeps_process(&self) -> bool {
        true
    }

    fn goodbye(&self) -> Option<String> {
        Some(Command::Quit.to_string())
    }
}
