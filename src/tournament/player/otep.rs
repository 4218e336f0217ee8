//! The host's side of OpenTafl's engine protocol: a fresh process per game, told each move of
//! the opponent with the position after it, and of the end of the game.

use super::process::{Process, STARTUP_TIME};
use super::{Answer, Decision, Fault, HostDialogue, await_decision};
use crate::board::Geometry;
use crate::board::Outcome;
use crate::board::notation::to_opentafl;
use crate::board::opentafl::Variant;
use crate::board::variant::NamedRules;
use crate::board::{Bitboard, Board, Move, Position};
use crate::protocol::otep::message::{
    CRITICAL, ClockReport, OpponentMove, OtepCommand, Reply, ReplyError,
};
use crate::search::Clock;
use crate::tournament::spec::TimeControl;
use std::time::Instant;

pub struct OtepHost<G: Geometry> {
    /// The rules' start, which the rules string carries.
    start: Board<G>,
}

impl<G: Geometry> OtepHost<G> {
    pub fn new(start: Board<G>) -> OtepHost<G> {
        OtepHost { start }
    }
}

impl<G: Geometry> HostDialogue<G> for OtepHost<G> {
    fn handshake(&mut self, engine: &mut Process, rules: &NamedRules) -> Result<(), Fault> {
        engine.expect(STARTUP_TIME, "hello", |l| {
            matches!(l.parse::<Reply<G>>(), Ok(Reply::Hello)).then_some(())
        })?;
        engine.send(OtepCommand::<G>::Rules(Variant {
            rules: rules.rules,
            start: to_opentafl(&self.start),
        }))
    }

    fn new_game(
        &mut self,
        engine: &mut Process,
        start: &Board<G>,
        pos: &Position<G>,
        _: &TimeControl,
    ) -> Result<(), Fault> {
        if pos.plies() > 0 || *start != self.start {
            engine.send(OtepCommand::Position(*pos.board()))?;
        }
        Ok(())
    }

    fn tell(
        &mut self,
        engine: &mut Process,
        mv: Move<G>,
        captured: Bitboard<G>,
        after: &Position<G>,
    ) -> Result<(), Fault> {
        engine.send(OtepCommand::OpponentMove(OpponentMove {
            mv,
            captures: captured,
            position: Some(*after.board()),
        }))
    }

    fn ask(
        &mut self,
        engine: &mut Process,
        pos: &Position<G>,
        _: &TimeControl,
        clock: Clock,
        deadline: Instant,
    ) -> Result<Option<Answer<G>>, Fault> {
        let side = pos.side_to_move();
        if let Some(shown) = clock.shown_to(side) {
            engine.send(OtepCommand::<G>::Clock(ClockReport::of(shown)))?;
        }
        engine.send(OtepCommand::<G>::Play(side))?;
        let name = engine.name().to_string();
        await_decision(engine, deadline, |l| match l.parse::<Reply<G>>() {
            Ok(Reply::Move(mv)) => Some(Decision::Move(mv)),
            // As OpenTafl's host does: the engine cannot go on, and gives the game up.
            Ok(Reply::Error {
                code: CRITICAL,
                message,
            }) => {
                log::warn!("{name}: critical error, resigns: {message}");
                Some(Decision::Resign)
            }
            Err(ReplyError::Move { text, error }) => Some(Decision::Unreadable {
                text,
                why: error.to_string(),
            }),
            _ => None,
        })
    }

    fn accepted(&mut self, engine: &mut Process, after: &Position<G>) -> Result<(), Fault> {
        engine.send(OtepCommand::Move(*after.board()))
    }

    fn finish(&mut self, engine: &mut Process, outcome: Option<Outcome>) -> Result<(), Fault> {
        engine.send(OtepCommand::<G>::Finish(outcome.into()))?;
        engine.send(OtepCommand::<G>::Goodbye)
    }

    fn keeps_process(&self) -> bool {
        false
    }

    fn goodbye(&self) -> Option<String> {
        None
    }
}
