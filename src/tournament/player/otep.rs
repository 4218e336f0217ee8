//! The host's side of OpenTafl's engine protocol: a fresh process per game, told each move of
//! the opponent with the position after it, and of the end of the game.

use super::process::{Process, STARTUP_TIME};
use super::{Answer, Decision, Fault, HostDialogue, await_decision};
use crate::board::notation::to_opentafl;
use crate::board::opentafl::Variant;
use crate::board::{Bitboard, Eleven, Move, Outcome, Position, Rules};
use crate::protocol::otep::message::{ClockReport, Command, OpponentMove, Reply, ReplyError};
use crate::search::Clock;
use crate::tournament::spec::TimeControl;
use std::time::Instant;

pub struct OtepHost;

impl HostDialogue for OtepHost {
    fn handshake(&mut self, engine: &mut Process, rules: Rules) -> Result<(), Fault> {
        engine.expect(STARTUP_TIME, "hello", |l| {
            matches!(l.parse::<Reply>(), Ok(Reply::Hello)).then_some(())
        })?;
        engine.send(Command::<Eleven>::Rules(Variant {
            rules,
            start: to_opentafl(Position::start(rules).board()),
        }))
    }

    fn new_game(
        &mut self,
        engine: &mut Process,
        start: &Position,
        _: &TimeControl,
    ) -> Result<(), Fault> {
        if start.plies() > 0 {
            engine.send(Command::Position(*start.board()))?;
        }
        Ok(())
    }

    fn tell(
        &mut self,
        engine: &mut Process,
        mv: Move,
        captured: Bitboard,
        after: &Position,
    ) -> Result<(), Fault> {
        engine.send(Command::OpponentMove(OpponentMove {
            mv,
            captures: captured,
            position: Some(*after.board()),
        }))
    }

    fn ask(
        &mut self,
        engine: &mut Process,
        pos: &Position,
        _: &TimeControl,
        clock: Clock,
        deadline: Instant,
    ) -> Result<Option<Answer>, Fault> {
        let side = pos.side_to_move();
        if let Some(shown) = clock.shown_to(side) {
            engine.send(Command::<Eleven>::Clock(ClockReport::of(shown)))?;
        }
        engine.send(Command::<Eleven>::Play(side))?;
        await_decision(engine, deadline, |l| match l.parse() {
            Ok(Reply::Move(mv)) => Some(Decision::Move(mv)),
            Err(ReplyError::Move { text, error }) => Some(Decision::Unreadable {
                text,
                why: error.to_string(),
            }),
            _ => None,
        })
    }

    fn accepted(&mut self, engine: &mut Process, after: &Position) -> Result<(), Fault> {
        engine.send(Command::Move(*after.board()))
    }

    fn finish(&mut self, engine: &mut Process, outcome: Option<Outcome>) -> Result<(), Fault> {
        engine.send(Command::<Eleven>::Finish(outcome.into()))?;
        engine.send(Command::<Eleven>::Goodbye)
    }

    fn keeps_process(&self) -> bool {
        false
    }

    fn goodbye(&self) -> Option<String> {
        None
    }
}
