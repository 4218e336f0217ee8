//! The host's side of the hnefatafl text protocol: a fresh process per game, told the opening
//! and each move of the opponent as `play` commands. On standard input and output every
//! command is answered `= ...` or `? ...`; as the light server (the engine a client that
//! connected), moves go as bare lines and nothing else is answered.

use super::process::{Process, STARTUP_TIME};
use super::{Answer, Decision, Fault, Forfeit, HostDialogue, await_decision};
use crate::board::variant::NamedRules;
use crate::board::{Bitboard, Board, Move, Position};
use crate::board::{Geometry, Outcome};
use crate::protocol::htp::message::{
    self, Action, HtpCommand, MessageError, Play, Reply, TimeSettings,
};
use crate::search::Clock;
use crate::tournament::spec::TimeControl;
use std::time::{Duration, Instant};

/// The board sizes the text protocol's `board_size` names.
pub const SIZES: [u8; 3] = [7, 11, 13];

pub struct HtpHost {
    /// The engine is a light-server client.
    server: bool,
}

impl HtpHost {
    pub fn new(server: bool) -> HtpHost {
        HtpHost { server }
    }

    /// The reply to a command: whether it succeeded, or a protocol error if it refused.
    fn reply<G: Geometry>(engine: &mut Process, within: Duration, what: &str) -> Result<(), Fault> {
        match engine.expect(within, what, |l| l.parse::<Reply<G>>().ok())? {
            Reply::Success(_) => Ok(()),
            Reply::Failure(why) => Err(Fault::protocol(format!("{what}: '? {why}'"))),
        }
    }
}

fn decision<G: Geometry>(play: Play<G>) -> Decision<G> {
    match play.action {
        Action::Move(mv) => Decision::Move(mv),
        Action::Resigns => Decision::Resign,
    }
}

impl<G: Geometry> HostDialogue<G> for HtpHost {
    fn handshake(&mut self, engine: &mut Process, _: &NamedRules) -> Result<(), Fault> {
        // A light-server client answers nothing but a request for a move.
        if !self.server {
            engine.send(HtpCommand::<G>::Name)?;
            HtpHost::reply::<G>(engine, STARTUP_TIME, "reply to 'name'")?;
        }
        // Engines that know only 11x11 need not know the command.
        if G::SIDE != 11 {
            engine.send(HtpCommand::<G>::BoardSize(u64::from(G::SIDE)))?;
            if !self.server {
                HtpHost::reply::<G>(engine, STARTUP_TIME, "reply to 'board_size'")?;
            }
        }
        Ok(())
    }

    fn new_game(
        &mut self,
        engine: &mut Process,
        start: &Board<G>,
        pos: &Position<G>,
        tc: &TimeControl,
    ) -> Result<(), Fault> {
        if !self.server {
            engine.send(HtpCommand::<G>::TimeSettings(TimeSettings::of(tc.clock)))?;
            // Some engines do not know the command; that is theirs to ignore.
            let _ = HtpHost::reply::<G>(engine, STARTUP_TIME, "reply to time_settings");
        }
        // The protocol has no word for a position: the runner gives these engines games from
        // the rules' start alone, and the opening as moves.
        let mut replay = Position::new(*start, *pos.rules());
        for mv in pos.moves().collect::<Vec<_>>() {
            let captured = replay.play(mv);
            HostDialogue::<G>::tell(self, engine, mv, captured, &replay)?;
        }
        Ok(())
    }

    fn tell(
        &mut self,
        engine: &mut Process,
        mv: Move<G>,
        _: Bitboard<G>,
        after: &Position<G>,
    ) -> Result<(), Fault> {
        engine.send(HtpCommand::<G>::Play(Play {
            side: after.side_to_move().opponent(),
            action: Action::Move(mv),
        }))?;
        if self.server {
            return Ok(());
        }
        match HtpHost::reply::<G>(engine, STARTUP_TIME, &format!("acceptance of {mv:?}")) {
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
        pos: &Position<G>,
        _: &TimeControl,
        _: Clock,
        deadline: Instant,
    ) -> Result<Option<Answer<G>>, Fault> {
        engine.send(HtpCommand::<G>::GenerateMove(Some(pos.side_to_move())))?;
        let server = self.server;
        await_decision(engine, deadline, |l| {
            if server {
                // Bare `play ...` lines; anything else is the client talking to itself.
                return match l.parse::<Play<G>>() {
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
            match l.parse::<Reply<G>>().ok()? {
                Reply::Success(message::Answer::Play(play)) => Some(decision(play)),
                Reply::Success(_) => unreadable("not a move".into()),
                Reply::Failure(why) => unreadable(why),
            }
        })
    }

    fn accepted(&mut self, _: &mut Process, _: &Position<G>) -> Result<(), Fault> {
        Ok(())
    }

    fn finish(&mut self, engine: &mut Process, _: Option<Outcome>) -> Result<(), Fault> {
        engine.send(HtpCommand::<G>::Quit)
    }

    fn keeps_process(&self) -> bool {
        false
    }

    fn goodbye(&self) -> Option<String> {
        None
    }
}
