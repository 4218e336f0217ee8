//! The host's side of the hnefatafl text protocol: a fresh process per game, told the opening
//! and each move of the opponent as `play` commands. On standard input and output every
//! command is answered `= ...` or `? ...`; as the light server (the engine a client that
//! connected), moves go as bare lines and nothing else is answered.

use super::process::{Process, STARTUP_TIME};
use super::{Answer, Decision, Fault, Forfeit, HostDialogue, await_decision};
use crate::board::{Bitboard, Eleven, Move, Outcome, Position, Rules};
use crate::protocol::htp::message::{
    self, Action, Command, MessageError, Play, Reply, TimeSettings,
};
use crate::search::Clock;
use crate::tournament::spec::TimeControl;
use std::time::{Duration, Instant};

pub struct HtpHost {
    /// The engine is a light-server client.
    server: bool,
}

impl HtpHost {
    pub fn new(server: bool) -> HtpHost {
        HtpHost { server }
    }

    /// The reply to a command: what it answered, or a protocol error if it refused.
    fn reply(engine: &mut Process, within: Duration, what: &str) -> Result<message::Answer, Fault> {
        match engine.expect(within, what, |l| l.parse::<Reply>().ok())? {
            Reply::Success(answer) => Ok(answer),
            Reply::Failure(why) => Err(Fault::protocol(format!("{what}: '? {why}'"))),
        }
    }
}

fn decision(play: Play) -> Decision {
    match play.action {
        Action::Move(mv) => Decision::Move(mv),
        Action::Resigns => Decision::Resign,
    }
}

impl HostDialogue for HtpHost {
    fn handshake(&mut self, engine: &mut Process, _: Rules) -> Result<(), Fault> {
        // A light-server client says nothing until asked for a move.
        if !self.server {
            engine.send(Command::<Eleven>::Name)?;
            HtpHost::reply(engine, STARTUP_TIME, "reply to 'name'")?;
        }
        Ok(())
    }

    fn new_game(
        &mut self,
        engine: &mut Process,
        start: &Position,
        tc: &TimeControl,
    ) -> Result<(), Fault> {
        if !self.server {
            engine.send(Command::<Eleven>::TimeSettings(TimeSettings::of(tc.clock)))?;
            // Some engines do not know the command; that is theirs to ignore.
            let _ = HtpHost::reply(engine, STARTUP_TIME, "reply to time_settings");
        }
        let mut replay = Position::start(*start.rules());
        for mv in start.moves().collect::<Vec<_>>() {
            let captured = replay.play(mv);
            self.tell(engine, mv, captured, &replay)?;
        }
        Ok(())
    }

    fn tell(
        &mut self,
        engine: &mut Process,
        mv: Move,
        _: Bitboard,
        after: &Position,
    ) -> Result<(), Fault> {
        engine.send(Command::<Eleven>::Play(Play {
            side: after.side_to_move().opponent(),
            action: Action::Move(mv),
        }))?;
        if self.server {
            return Ok(());
        }
        match HtpHost::reply(engine, STARTUP_TIME, &format!("acceptance of {mv:?}")) {
            Ok(_) => Ok(()),
            Err(Fault::Forfeit(Forfeit::ProtocolError, e)) => {
                engine.tainted = true;
                Err(Fault::protocol(format!("refused the legal move: {e}")))
            }
            Err(other) => {
                engine.tainted = true;
                Err(other)
            }
        }
    }

    fn ask(
        &mut self,
        engine: &mut Process,
        pos: &Position,
        _: &TimeControl,
        _: Clock,
        deadline: Instant,
    ) -> Result<Option<Answer>, Fault> {
        engine.send(Command::<Eleven>::GenerateMove(Some(pos.side_to_move())))?;
        let server = self.server;
        await_decision(engine, deadline, |l| {
            if server {
                // Bare `play ...` lines; anything else is the client talking to itself.
                return match l.parse::<Play>() {
                    Ok(play) => Some(decision(play)),
                    Err(MessageError::NotPlay(_)) => None,
                    Err(e) => Some(Decision::Unreadable {
                        text: l.to_string(),
                        why: e.to_string(),
                    }),
                };
            }
            // Other lines are not replies (the reference engine prints some).
            let unreadable = |why: String| {
                Some(Decision::Unreadable {
                    text: l.to_string(),
                    why,
                })
            };
            match l.parse::<Reply>().ok()? {
                Reply::Success(message::Answer::Play(play)) => Some(decision(play)),
                Reply::Success(_) => unreadable("not a move".into()),
                Reply::Failure(why) => unreadable(why),
            }
        })
    }

    fn accepted(&mut self, _: &mut Process, _: &Position) -> Result<(), Fault> {
        Ok(())
    }

    fn finish(&mut self, engine: &mut Process, _: Option<Outcome>) -> Result<(), Fault> {
        engine.send(Command::<Eleven>::Quit)
    }

    fn keeps_process(&self) -> bool {
        false
    }

    fn goodbye(&self) -> Option<String> {
        None
    }
}
