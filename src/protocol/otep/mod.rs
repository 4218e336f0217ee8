//! OpenTafl's engine protocol (OTEP), as an engine speaks it to the OpenTafl host as that host
//! behaves (see PROTOCOL.md): `hello` at once, then the host's commands.

pub mod message;
pub mod rules;

use super::driver::{Dialogue, Reader, Search, SizeLoops, drive, read_across_sizes};
use super::{Flow, Input, LoopSettings, Output, Resize, Session};
use crate::board::Board;
use crate::board::{Rules, Side};
use crate::search::size::{Size, Standard};
use crate::search::{Go, Level, Options, SearchResult, Searcher};
use message::{AnalysisLine, CRITICAL, MessageError, NOT_CRITICAL, OtepCommand, Reply};
use std::sync::mpsc::Receiver;
use std::time::Duration;

/// Thinking time per move without a clock, unless `--movetime` says otherwise.
const MOVE_TIME: Duration = Duration::from_secs(3);
/// The most lines and seconds an `analyze` gets, however many it asks for.
const MAX_LINES: u64 = 32;
const MAX_SECONDS: u64 = 3600;

/// What the running search is for.
enum Purpose {
    Move,
    /// An analysis, after which the engine's options are restored.
    Analysis(Box<Options>),
}

pub struct Otep<G: Size> {
    out: Output,
    session: Session<G>,
    purpose: Purpose,
    /// Why the host's last rules were refused: until it sends rules Hnefi plays, there is no
    /// game to move in.
    refused: Option<String>,
}

/// Greets the host, then handles lines (`first`, then the input) until `goodbye` or end of
/// input, each game on the loop of its board's size.
pub fn run(out: Output, settings: LoopSettings, first: Option<Input>, input: Receiver<Input>) {
    out.line(&Reply::<Standard>::Hello.to_string());
    read_across_sizes::<OtepLoops>(&out, settings, first, input);
}

/// OTEP's loops, one a board size: each runs until the input ends or a game on another
/// board starts.
struct OtepLoops;

impl SizeLoops for OtepLoops {
    fn run_size<G: Size>(
        out: &Output,
        settings: LoopSettings,
        reader: &mut Reader,
    ) -> Option<Resize> {
        let mut otep = Otep::<G>::new(out.clone(), settings);
        let engine = Searcher::new(otep.session.engine_options());
        drive(&mut otep, engine, reader)
    }
}

impl<G: Size> Otep<G> {
    pub fn new(out: Output, settings: LoopSettings) -> Otep<G> {
        let rules = Rules::preset(G::PRESET);
        Otep {
            out,
            session: Session::new(rules, MOVE_TIME, settings),
            purpose: Purpose::Move,
            refused: None,
        }
    }

    fn reply(&self, reply: Reply<G>) {
        self.out.line(&reply.to_string());
    }

    fn status(&self, text: String) {
        self.reply(Reply::Status(text));
    }

    /// An error the host shows to its user; `message` is one line.
    fn error(&self, code: i64, message: String) {
        self.reply(Reply::Error { code, message });
    }

    /// Takes the host's board, with the side to move `side`.
    fn resync(&mut self, board: Board<G>, side: Side) {
        if self.session.resync(board.with_side_to_move(side)) {
            log::warn!("position differs from the host's; taking the host's");
        }
    }

    fn analyze(&mut self, lines: u64, seconds: u64, search: &mut Search<G>) {
        let options = search.engine().options().clone();
        // Analysis is for people studying the game: at full strength, whatever the level.
        let wanted = Options {
            multipv: lines.clamp(1, MAX_LINES) as usize,
            level: Level::MAX,
            ..options.clone()
        };
        // Only MultiPV changes, which needs no memory: this cannot fail, but say so if it did.
        if let Err(e) = search.engine().set_options(wanted) {
            return self.status(format!("error: analyze: {e}"));
        }
        self.purpose = Purpose::Analysis(Box::new(options));
        let limits = self.session.capped(Go {
            movetime: Some(Duration::from_secs(seconds.clamp(1, MAX_SECONDS))),
            ..Go::default()
        });
        search.start(self.session.position(), limits, Box::new(|_| {}));
    }
}

impl<G: Size> Dialogue for Otep<G> {
    type G = G;
    type Command = OtepCommand<G>;
    type Error = MessageError<G>;

    fn ends_search(command: &OtepCommand<G>) -> bool {
        matches!(command, OtepCommand::Finish(_) | OtepCommand::Goodbye)
    }

    fn handle(&mut self, command: OtepCommand<G>, search: &mut Search<G>) -> Flow {
        match command {
            // A search `finish` ends is stopped by the driver as soon as the word is read.
            OtepCommand::Noop(_) | OtepCommand::Side(_) | OtepCommand::Finish(_) => {}
            OtepCommand::Rules(variant) if variant.rules.width != G::SIDE => {
                return Flow::Resize(variant.rules.width);
            }
            OtepCommand::Rules(variant) => match rules::start::<G>(&variant) {
                Ok(start) => {
                    self.refused = None;
                    self.session.new_game(start, variant.rules);
                    search.engine().clear();
                }
                Err(e) => self.refuse(MessageError::Rules(e)),
            },
            // A game waits for this move, and none will come: the game must end now rather
            // than on time, with the reason shown. An analysis holds up no game.
            OtepCommand::Play(_) if self.refused.is_some() => {
                let why = self.refused.as_deref().unwrap_or_default();
                self.error(
                    CRITICAL,
                    format!("Hnefi cannot play these rules, so it has no move: {why}"),
                );
            }
            OtepCommand::Analyze { .. } if self.refused.is_some() => {
                let why = self.refused.as_deref().unwrap_or_default();
                self.error(
                    NOT_CRITICAL,
                    format!("Hnefi cannot analyse under these rules: {why}"),
                );
            }
            OtepCommand::Position(board) | OtepCommand::Move(board) => {
                let side = self.session.side_to_move();
                self.resync(board, side);
            }
            OtepCommand::Clock(report) => self.session.set_clock(report.clock()),
            OtepCommand::Play(side) => {
                self.session.give_turn(side);
                self.purpose = Purpose::Move;
                let out = self.out.clone();
                search.start(
                    self.session.position(),
                    self.session.move_limits(),
                    Box::new(move |info| {
                        let progress = format!(
                            "depth {} score {} nodes {}",
                            info.depth, info.score, info.nodes
                        );
                        out.line(&Reply::<G>::Status(progress).to_string())
                    }),
                );
            }
            OtepCommand::OpponentMove(m) => {
                let applied = self.session.play(m.mv).is_ok();
                match m.position {
                    Some(board) => {
                        let side = self.session.side_to_move();
                        let side = if applied { side } else { side.opponent() };
                        self.resync(board, side);
                    }
                    None if !applied => self.status(format!("error: cannot play {:?}", m.mv)),
                    None => {}
                }
            }
            OtepCommand::Error(_) => {
                // Our last move was refused: take it back; the host repeats its last move.
                self.session.undo();
            }
            OtepCommand::Analyze { lines, seconds } => self.analyze(lines, seconds, search),
            OtepCommand::Goodbye => return Flow::Quit,
        }
        Flow::Continue
    }

    fn refuse(&mut self, error: MessageError<G>) {
        match error {
            // Shown at once, but not critical: OpenTafl's host sends the rules before the game
            // has begun, and a critical error then (which it answers by resigning for the
            // engine) finds no game to resign: its reader of the engine fails, and no later
            // line is read. The game ends with the critical error that answers its `play`.
            MessageError::Rules(e) => {
                self.error(NOT_CRITICAL, format!("Hnefi cannot play these rules: {e}"));
                self.refused = Some(e.to_string());
            }
            MessageError::Unknown(word) => {
                // A person who typed after the silence that picks this protocol.
                let theirs = super::Protocol::of_first_line(&word);
                self.status(format!(
                    "error: unknown command '{word}' (this is OpenTafl's engine protocol, \
                     taken after {:.1} s of silence; `quit` leaves, and `hnefi --protocol \
                     {theirs}` starts in {theirs})",
                    super::FIRST_LINE_WAIT.as_secs_f64()
                ))
            }
            other => self.status(format!("error: {other}")),
        }
    }

    fn searched(&mut self, result: SearchResult<G>, search: &mut Search<G>) {
        match std::mem::replace(&mut self.purpose, Purpose::Move) {
            Purpose::Move => match result.best {
                Some(mv) => {
                    // The search's move is legal here.
                    let _ = self.session.play(mv);
                    self.reply(Reply::Move(mv));
                }
                None => self.status("no legal move".into()),
            },
            Purpose::Analysis(options) => {
                if let Err(e) = search.engine().set_options(*options) {
                    self.status(format!("error: analyze: {e}"));
                }
                let lines = result
                    .lines
                    .iter()
                    .map(|line| AnalysisLine {
                        pv: line.pv.clone(),
                        score: line.score.0,
                    })
                    .collect();
                self.reply(Reply::Analysis(lines));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Side;
    use crate::protocol::testing::Sink;
    use crate::search::{Clock, SideClock};
    use std::sync::mpsc::channel;

    /// A loop with a 300-node cap, talked to line by line as a host does.
    struct Host {
        to_engine: std::sync::mpsc::Sender<Input>,
        sink: Sink,
        seen: usize,
        engine: std::thread::JoinHandle<()>,
    }

    impl Host {
        fn start() -> Host {
            let sink = Sink::default();
            let settings = LoopSettings {
                max_nodes: Some(300),
                ..LoopSettings::default()
            };
            let out = Output::new(Box::new(sink.clone()));
            let (to_engine, rx) = channel();
            let engine = std::thread::spawn(move || run(out, settings, None, rx));
            Host {
                to_engine,
                sink,
                seen: 0,
                engine,
            }
        }

        fn say(&self, line: &str) {
            self.to_engine.send(Input::Line(line.into())).unwrap();
        }

        /// The lines since the last call, up to the first that starts with `prefix`.
        fn until(&mut self, prefix: &str) -> Vec<String> {
            for _ in 0..1000 {
                let text = self.sink.text();
                let lines: Vec<String> = text.lines().skip(self.seen).map(String::from).collect();
                if let Some(i) = lines.iter().position(|l| l.starts_with(prefix)) {
                    self.seen += i + 1;
                    return lines[..=i].to_vec();
                }
                std::thread::sleep(Duration::from_millis(10));
            }
            panic!("no '{prefix}'");
        }

        fn goodbye(self) {
            self.say("goodbye");
            self.engine.join().unwrap();
        }
    }

    #[test]
    fn huge_negative_and_bad_clocks() {
        let mut otep = Otep::<crate::search::size::Standard>::new(
            Output::new(Box::new(std::io::sink())),
            LoopSettings::default(),
        );
        let mut clock = |line: &str| {
            if let Ok(OtepCommand::Clock(c)) =
                line.parse::<OtepCommand<crate::search::size::Standard>>()
            {
                otep.session.set_clock(c.clock());
            }
            otep.session.clock()
        };
        let max = Duration::from_millis(u64::MAX);
        assert_eq!(
            clock("clock 18446744073709551615 99999999999999999999999* 0 0 0 "),
            Clock::both(SideClock::new(max, Duration::ZERO))
        );
        // A clock run past zero is no time left.
        let c = clock("clock -20 5000 0 0 0");
        assert_eq!(c.side(Side::Attackers).unwrap().left, Duration::ZERO);
        for bad in ["clock 1000 lots 0 0 0", "clock 5", "clock 1e3 5"] {
            assert_eq!(clock(bad), c, "{bad}: unchanged");
        }
        let mut host = Host::start();
        assert_eq!(host.until("hello"), ["hello"]);
        host.say("clock 18446744073709551615 99999999999999999999999* 0 0 0 ");
        host.say("play attackers");
        host.until("move ");
        host.say("clock -20 5000 0 0 0");
        host.say("clock 1000 lots 0 0 0");
        assert!(host.until("status error: ")[0].starts_with("status error: clock: 'lots'"));
        host.say("play defenders");
        host.until("move ");
        host.goodbye();
    }

    #[test]
    fn analyze_refuses_negative_numbers_and_caps_huge_ones() {
        let mut host = Host::start();
        host.say("analyze -1 5");
        let refused = host.until("status error");
        assert!(
            refused
                .last()
                .unwrap()
                .starts_with("status error: analyze: lines: '-1' is negative")
        );
        // Capped at 32 lines and an hour; the node cap ends it at once.
        host.say("analyze 18446744073709551615 18446744073709551615");
        host.until("analysis ");
        // MultiPV is back at 1 for the next one.
        host.say("analyze");
        assert!(
            host.until("analysis ")
                .last()
                .unwrap()
                .starts_with("analysis 1 ")
        );
        host.goodbye();
    }
}
