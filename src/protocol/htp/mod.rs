//! The hnefatafl text protocol of hnefatafl-copenhagen (GTP-like), as an engine speaks it.
//! The host cannot set a position; it replays the moves. Rules default to `hnefatafl-org`.

pub mod message;

use super::driver::{Dialogue, Reader, Search, SizeLoops, drive, read_across_sizes};
use super::{Flow, Input, LoopSettings, Output, Resize, Session};
use crate::board::{Geometry, Preset, Rules, Side};
use crate::board::{MoveError, MoveList};
use crate::search::size::Size;
use crate::search::{Clock, Go, SearchResult, Searcher};
use message::{Action, Answer, COMMANDS, HtpCommand, MessageError, Play, Reply, Status};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

/// Thinking time per move without a clock, unless `--movetime` says otherwise.
const MOVE_TIME: Duration = Duration::from_secs(2);

/// Why the engine refuses a command.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal<G: Geometry> {
    #[error(transparent)]
    Message(#[from] MessageError),
    #[error("board size {0} not supported (7, 11 or 13)")]
    BoardSize(u64),
    #[error("it is the {0}' turn")]
    NotYourTurn(Side),
    #[error(transparent)]
    Illegal(#[from] MoveError<G>),
    #[error("no move to undo")]
    NothingToUndo,
    #[error("no legal move: the game is over")]
    GameOver,
}

/// The game as the protocol keeps it, for the engine loop and for `hnefi connect`: every
/// command but `generate_move` is answered at once; a generated move is a search, started
/// with [`HtpGame::move_limits`] and finished by [`HtpGame::moved`].
pub struct HtpGame<G: Geometry> {
    session: Session<G>,
}

/// The rules hnefatafl.org plays on boards of `G`.
pub fn server_rules<G: Geometry>() -> Rules {
    match G::SIDE {
        11 => Rules::preset(Preset::HnefataflOrg),
        _ => Rules::preset(G::PRESET),
    }
}

impl<G: Geometry> HtpGame<G> {
    pub fn new(settings: LoopSettings) -> HtpGame<G> {
        HtpGame {
            session: Session::new(server_rules::<G>(), MOVE_TIME, settings),
        }
    }

    pub fn session(&self) -> &Session<G> {
        &self.session
    }

    /// The answer to a command. `generate_move` needs a search and `quit` ends the loop, so
    /// their callers answer them; here they say nothing.
    pub fn answer(&mut self, command: HtpCommand<G>) -> Result<Answer<G>, Refusal<G>> {
        Ok(match command {
            HtpCommand::ProtocolVersion => Answer::Text("1-beta".into()),
            HtpCommand::Name => Answer::Text("hnefi".into()),
            HtpCommand::Version => Answer::Text(env!("CARGO_PKG_VERSION").into()),
            HtpCommand::ListCommands => Answer::Text(format!("\n{}", COMMANDS.join("\n"))),
            HtpCommand::KnownCommand(c) => {
                Answer::Known(c.is_some_and(|c| COMMANDS.contains(&c.as_str())))
            }
            HtpCommand::BoardSize(n) if n == u64::from(G::SIDE) => Answer::Empty,
            HtpCommand::BoardSize(n) => return Err(Refusal::BoardSize(n)),
            HtpCommand::FirstMove => Answer::Role(Side::Attackers),
            HtpCommand::TimeSettings(t) => {
                // The host never reports the time left: Hnefi keeps both clocks itself.
                self.session
                    .set_clock(t.clock().map_or(Clock::NONE, Clock::both));
                Answer::Empty
            }
            HtpCommand::Play(play) => self.play(play)?,
            HtpCommand::PlayUndo => {
                self.session.undo().ok_or(Refusal::NothingToUndo)?;
                Answer::Empty
            }
            HtpCommand::FinalStatus => {
                Answer::Status(Status::from(self.session.position().outcome()))
            }
            HtpCommand::ShowBoard => Answer::Text(format!(
                "\n{}",
                self.session.position().board().to_string().trim_end()
            )),
            HtpCommand::GenerateMove(_) | HtpCommand::Quit => Answer::Empty,
        })
    }

    fn play(&mut self, play: Play<G>) -> Result<Answer<G>, Refusal<G>> {
        let mv = match play.action {
            Action::Resigns => return Ok(Answer::Empty),
            Action::Move(mv) => mv,
        };
        let to_move = self.session.side_to_move();
        if play.side != to_move {
            return Err(Refusal::NotYourTurn(to_move));
        }
        Ok(Answer::Captures(self.session.play(mv)?))
    }

    /// The limits of the search for a generated move.
    pub fn move_limits(&self) -> Go<G> {
        let pos = self.session.position();
        // hnefatafl-copenhagen refuses some captures its repetition rule does not forbid
        // (see `recreates_board_before_captures`): leave those to the last resort.
        let mut legal = MoveList::new();
        pos.legal_moves(&mut legal);
        Go {
            searchmoves: legal
                .into_iter()
                .filter(|&m| !pos.recreates_board_before_captures(m))
                .collect(),
            ..self.session.move_limits()
        }
    }

    /// Plays the move a search found in `used` time and says it.
    pub fn moved(
        &mut self,
        result: &SearchResult<G>,
        used: Duration,
    ) -> Result<Play<G>, Refusal<G>> {
        let side = self.session.side_to_move();
        self.session.spend(side, used);
        let mv = result.best.ok_or(Refusal::GameOver)?;
        self.session.play(mv)?;
        Ok(Play {
            side,
            action: Action::Move(mv),
        })
    }
}

/// The engine loop.
pub struct Htp<G: Size> {
    out: Output,
    game: HtpGame<G>,
    /// When the search for a generated move started.
    thinking_since: Option<Instant>,
}

/// Handles lines (`first`, then the input) until `quit` or end of input, on the loop of the
/// board size the host asks for (`board_size`).
pub fn run(out: Output, settings: LoopSettings, first: Option<Input>, input: Receiver<Input>) {
    read_across_sizes::<HtpLoops>(&out, settings, first, input);
}

/// HTP's loops, one a board size: each runs until the input ends or the host asks for
/// another size.
struct HtpLoops;

impl SizeLoops for HtpLoops {
    fn run_size<G: Size>(
        out: &Output,
        settings: LoopSettings,
        reader: &mut Reader,
    ) -> Option<Resize> {
        let mut htp = Htp::<G> {
            out: out.clone(),
            game: HtpGame::new(settings),
            thinking_since: None,
        };
        let engine = Searcher::new(htp.game.session().engine_options());
        drive(&mut htp, engine, reader)
    }
}

impl<G: Size> Htp<G> {
    fn reply(&self, reply: Reply<G>) {
        self.out.line(&reply.to_string());
    }
}

impl<G: Size> Dialogue for Htp<G> {
    type G = G;
    type Command = HtpCommand<G>;
    type Error = MessageError;

    fn ends_search(command: &HtpCommand<G>) -> bool {
        *command == HtpCommand::Quit
    }

    fn handle(&mut self, command: HtpCommand<G>, search: &mut Search<G>) -> Flow {
        match command {
            // The server's boards (hnefatafl.org plays 7x7, 11x11 and 13x13).
            HtpCommand::BoardSize(n @ (7 | 11 | 13)) if n != u64::from(G::SIDE) => {
                return Flow::Resize(n as u8);
            }
            HtpCommand::Quit => {
                self.reply(Reply::Success(Answer::Empty));
                return Flow::Quit;
            }
            HtpCommand::GenerateMove(_) => {
                self.thinking_since = Some(Instant::now());
                let limits = self.game.move_limits();
                search.start(self.game.session().position(), limits, Box::new(|_| {}));
            }
            command => {
                let reply = match self.game.answer(command) {
                    Ok(answer) => Reply::Success(answer),
                    Err(e) => Reply::Failure(e.to_string()),
                };
                self.reply(reply);
            }
        }
        Flow::Continue
    }

    fn refuse(&mut self, error: MessageError) {
        self.reply(Reply::Failure(error.to_string()));
    }

    fn searched(&mut self, result: SearchResult<G>, _: &mut Search<G>) {
        let used = self
            .thinking_since
            .take()
            .map_or(Duration::ZERO, |t| t.elapsed());
        let reply = match self.game.moved(&result, used) {
            Ok(play) => Reply::Success(Answer::Play(play)),
            Err(e) => Reply::Failure(e.to_string()),
        };
        self.reply(reply);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::SideClock;
    use crate::search::size::Standard;

    fn generate(
        game: &mut HtpGame<Standard>,
        engine: &mut Searcher<Standard>,
    ) -> Result<Play<Standard>, Refusal<Standard>> {
        let started = Instant::now();
        let result = engine.search(game.session().position(), game.move_limits());
        game.moved(&result, started.elapsed())
    }

    fn command(
        game: &mut HtpGame<Standard>,
        text: &str,
    ) -> Result<Answer<Standard>, Refusal<Standard>> {
        game.answer(text.parse()?)
    }

    #[test]
    fn a_fischer_clock_runs_down_with_hnefi_thinking() {
        let mut game = HtpGame::new(LoopSettings::default());
        let mut engine = Searcher::default();
        command(&mut game, "time_settings fischer 1 2").unwrap();
        let minute = SideClock::new(Duration::from_secs(60), Duration::from_secs(2));
        assert_eq!(game.session().clock(), Clock::both(minute));
        // No main time left: Hnefi must live on the increment.
        game.session.set_clock(Clock::both(SideClock::new(
            Duration::ZERO,
            Duration::from_secs(1),
        )));
        assert_eq!(
            generate(&mut game, &mut engine).unwrap().side,
            Side::Attackers
        );
        let clock = game.session().clock();
        // The attackers' clock lost the thinking time and gained the increment.
        let left = clock.side(Side::Attackers).unwrap().left;
        assert!(
            left <= Duration::from_secs(1) && left > Duration::ZERO,
            "{left:?}"
        );
        assert_eq!(clock.side(Side::Defenders).unwrap().left, Duration::ZERO);
        command(&mut game, "time_settings un-timed").unwrap();
        assert_eq!(game.session().clock(), Clock::NONE);
    }

    #[test]
    fn huge_clocks_saturate_and_negative_ones_are_refused() {
        let settings = LoopSettings {
            max_nodes: Some(300),
            ..LoopSettings::default()
        };
        let mut game = HtpGame::new(settings);
        let mut engine = Searcher::default();
        command(&mut game, "time_settings fischer 1 18446744073709551615").unwrap();
        assert!(generate(&mut game, &mut engine).is_ok());
        assert!(generate(&mut game, &mut engine).is_ok());
        // The increment took the clock to its ceiling instead of overflowing.
        let left = game.session().clock().side(Side::Attackers).unwrap().left;
        assert!(left >= Duration::from_secs(u64::MAX), "{left:?}");
        for main in ["18446744073709551615", &"9".repeat(100)] {
            command(&mut game, &format!("time_settings fischer {main} 0")).unwrap();
            assert!(generate(&mut game, &mut engine).is_ok());
        }
        let before = game.session().clock();
        for (line, word) in [
            (
                "time_settings fischer -1 5",
                "minutes of main time: '-1' is negative",
            ),
            (
                "time_settings fischer 5 -3",
                "seconds of increment: '-3' is negative",
            ),
            (
                "time_settings fischer five 3",
                "'five' is not a whole number",
            ),
            ("time_settings fischer 1.5 3", "'1.5' is not a whole number"),
        ] {
            let e = command(&mut game, line).unwrap_err().to_string();
            assert!(e.contains(word), "{line}: {e}");
        }
        assert_eq!(
            game.session().clock(),
            before,
            "a refused setting changes nothing"
        );
    }

    #[test]
    fn turns_and_undo_are_checked() {
        let mut game = HtpGame::new(LoopSettings::default());
        assert_eq!(
            command(&mut game, "play defender f4 f3"),
            Err(Refusal::NotYourTurn(Side::Attackers))
        );
        assert_eq!(command(&mut game, "play_undo"), Err(Refusal::NothingToUndo));
        assert_eq!(
            command(&mut game, "play attacker d1 d3"),
            Ok(Answer::Captures(crate::board::Bitboard::EMPTY))
        );
        assert_eq!(
            command(&mut game, "play defender resigns"),
            Ok(Answer::Empty)
        );
        assert_eq!(
            command(&mut game, "final_status"),
            Ok(Answer::Status(Status::Ongoing))
        );
        assert!(matches!(
            command(&mut game, "play defender d3 d5"),
            Err(Refusal::Illegal(_))
        ));
        assert_eq!(
            command(&mut game, "board_size 13"),
            Err(Refusal::BoardSize(13))
        );
    }
}
