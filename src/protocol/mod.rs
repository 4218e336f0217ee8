//! Text protocols: thin translations between lines of text and the engine API. Each protocol
//! has its messages (typed commands and replies, shared with the match runner's players) and
//! its engine loop over one [`Session`]; this module picks the protocol.

pub mod connect;
mod driver;
pub mod fuzz;
pub mod htp;
mod io;
pub mod number;
pub mod otep;
mod session;
#[cfg(test)]
mod testing;
pub mod uci;

pub use io::{Input, LineError, MAX_LINE, Output, spawn_reader};
pub use session::{IllegalMove, Session};

use crate::search::Level;
use std::fmt;
use std::str::FromStr;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// The protocols Hnefi speaks, as an engine and as a host.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// The UCI-style dialect of TaflZero.
    Uci,
    /// OpenTafl's engine protocol.
    Otep,
    /// The hnefatafl text protocol of hnefatafl-copenhagen.
    Htp,
}

impl Protocol {
    pub fn name(self) -> &'static str {
        match self {
            Protocol::Uci => "uci",
            Protocol::Otep => "otep",
            Protocol::Htp => "htp",
        }
    }

    /// The protocol a host's first line belongs to.
    fn of_first_line(line: &str) -> Protocol {
        match line.split_whitespace().next() {
            Some("rules" | "hello" | "opponent-move" | "side" | "clock") => Protocol::Otep,
            // OpenTafl's `play attackers` against the text protocol's `play attacker d1 d3`.
            Some("play") if line.split_whitespace().count() == 2 => Protocol::Otep,
            Some(word) if htp::message::COMMANDS.contains(&word) && word != "quit" => Protocol::Htp,
            _ => Protocol::Uci,
        }
    }
}

impl fmt::Display for Protocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A protocol name Hnefi does not know.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown protocol '{0}' (known: uci, otep, htp)")]
pub struct UnknownProtocol(String);

impl FromStr for Protocol {
    type Err = UnknownProtocol;

    /// `uci`, `otep` (or `opentafl`), `htp` (or `hnefatafl`), in any case.
    fn from_str(text: &str) -> Result<Protocol, UnknownProtocol> {
        match text.to_ascii_lowercase().as_str() {
            "uci" => Ok(Protocol::Uci),
            "otep" | "opentafl" => Ok(Protocol::Otep),
            "htp" | "hnefatafl" => Ok(Protocol::Htp),
            _ => Err(UnknownProtocol(number::truncate(text))),
        }
    }
}

/// Whether an engine loop goes on after a command.
enum Flow {
    Continue,
    Quit,
    /// The command is for a board of this side: the loop of that size takes the game, and
    /// handles the command again.
    Resize(u8),
}

/// A loop hands the game to the loop of another board size: `line` asked for it.
pub struct Resize {
    pub side: u8,
    pub line: Input,
}

/// How long a program on pipes has to say its first line before it is taken for OpenTafl,
/// which waits for the engine's `hello` before it says anything (and for about five seconds).
const FIRST_LINE_WAIT: Duration = Duration::from_millis(1500);

/// Said on stderr to a person who starts the engine loop at a terminal, where nothing else
/// would show until they type.
pub const BANNER: &str = concat!(
    "Hnefi ",
    env!("CARGO_PKG_VERSION"),
    ", a Copenhagen Hnefatafl engine: type uci, or help"
);

/// The answer to `help`: the protocols, how each starts and how to leave.
pub const HELP: &str = "\
Hnefi speaks three protocols on standard input and output; the first line picks one:
  uci                  the UCI-style protocol of TaflZero: uci, isready, position startpos
                       moves d1d3, go movetime 1000, d (the board), eval, stop
  hello, rules ...     OpenTafl's engine protocol (otep); also taken when a program on
                       pipes says nothing for 1.5 s, as OpenTafl's host does
  protocol_version,    the hnefatafl text protocol (htp) of hnefatafl-copenhagen
  name, play ...
`quit` leaves any of them, as does the end of input (Ctrl-D). `hnefi --protocol NAME` fixes
the protocol; `hnefi --help` lists the other commands (analyse, annotate, match, ...).";

/// How long to wait for the first line: a person at a terminal takes as long as they take,
/// a program on pipes is OpenTafl if it stays silent.
pub fn first_line_wait(stdin_is_terminal: bool) -> Option<Duration> {
    (!stdin_is_terminal).then_some(FIRST_LINE_WAIT)
}

/// What the command line sets for the engine loop, whatever the host says.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LoopSettings {
    /// Thinking time per move when an OpenTafl or hnefatafl text protocol host gives no clock
    /// (`--movetime`).
    pub move_time: Option<Duration>,
    /// The most nodes any one search may visit (`--nodes`): fixed-effort play under
    /// protocols whose hosts cannot ask for it, and quick searches in tests and fuzzing.
    pub max_nodes: Option<u64>,
    /// How strongly the engine plays (`--level`); a UCI host may change it.
    pub level: Level,
}

/// Runs the engine loop on stdin and stdout until the host quits or the input ends. At a
/// terminal without a fixed protocol, a banner on stderr says what to type.
pub fn run_stdio(protocol: Option<Protocol>, settings: LoopSettings) {
    use std::io::IsTerminal;
    let terminal = std::io::stdin().is_terminal();
    if protocol.is_none() && terminal {
        eprintln!("{BANNER}");
    }
    let input = spawn_reader(std::io::BufReader::new(std::io::stdin()));
    run_waiting(
        protocol,
        first_line_wait(terminal),
        input,
        Output::stdout(),
        settings,
    );
}

/// Runs the engine loop over any input and output, as for a program on pipes: without a
/// fixed protocol, the first line decides; silence means OpenTafl.
pub fn run(
    protocol: Option<Protocol>,
    input: Receiver<Input>,
    out: Output,
    settings: LoopSettings,
) {
    run_waiting(protocol, Some(FIRST_LINE_WAIT), input, out, settings);
}

/// [`run`], waiting `wait` for the first line (`None`: for ever).
fn run_waiting(
    protocol: Option<Protocol>,
    wait: Option<Duration>,
    input: Receiver<Input>,
    out: Output,
    settings: LoopSettings,
) {
    let (protocol, first) = match protocol {
        Some(p) => (p, None),
        None => match choose(wait, &input, &out) {
            Some(chosen) => chosen,
            None => return,
        },
    };
    match protocol {
        Protocol::Uci => uci::run(out, settings, first, input),
        Protocol::Otep => otep::run(out, settings, first, input),
        Protocol::Htp => htp::run(out, settings, first, input),
    }
}

/// The protocol of the first line that says something, and that line; OpenTafl's if `wait`
/// passes in silence; `None` if the input ends first. Blank lines say nothing, and `help` is
/// answered here: after it a person is typing, so there is no more hurry.
fn choose(
    wait: Option<Duration>,
    input: &Receiver<Input>,
    out: &Output,
) -> Option<(Protocol, Option<Input>)> {
    let mut deadline = wait.map(|w| Instant::now() + w);
    loop {
        let next = match deadline {
            Some(d) => input.recv_timeout(d.saturating_duration_since(Instant::now())),
            None => input.recv().map_err(|_| RecvTimeoutError::Disconnected),
        };
        match next {
            Ok(Input::Line(line)) => match line.split_whitespace().next() {
                None => {}
                Some("help") => {
                    for l in HELP.lines() {
                        out.line(l);
                    }
                    deadline = None;
                }
                Some(_) => return Some((Protocol::of_first_line(&line), Some(Input::Line(line)))),
            },
            Ok(other) => return Some((Protocol::Uci, Some(other))),
            Err(RecvTimeoutError::Timeout) => return Some((Protocol::Otep, None)),
            Err(RecvTimeoutError::Disconnected) => return None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn protocols_by_name_and_by_first_line() {
        for p in [Protocol::Uci, Protocol::Otep, Protocol::Htp] {
            assert_eq!(p.to_string().parse(), Ok(p));
        }
        assert_eq!("OpenTafl".parse(), Ok(Protocol::Otep));
        assert_eq!("hnefatafl".parse(), Ok(Protocol::Htp));
        assert!(
            "xboard"
                .parse::<Protocol>()
                .unwrap_err()
                .to_string()
                .contains("known: uci, otep, htp")
        );
        for (line, p) in [
            ("uci", Protocol::Uci),
            ("quit", Protocol::Uci),
            ("rules dim:11", Protocol::Otep),
            ("play attackers", Protocol::Otep),
            ("play attacker d1 d3", Protocol::Htp),
            ("protocol_version", Protocol::Htp),
            ("show_board", Protocol::Htp),
        ] {
            assert_eq!(Protocol::of_first_line(line), p, "{line}");
        }
    }

    fn choose_from(wait: Option<Duration>, lines: &[(u64, &str)]) -> (Option<Protocol>, String) {
        let sink = testing::Sink::default();
        let (tx, rx) = std::sync::mpsc::channel();
        let lines: Vec<(u64, String)> = lines.iter().map(|&(ms, l)| (ms, l.into())).collect();
        let host = std::thread::spawn(move || {
            for (ms, line) in lines {
                std::thread::sleep(Duration::from_millis(ms));
                tx.send(Input::Line(line)).unwrap();
            }
            // Held open: the end of input must not decide.
            std::thread::sleep(Duration::from_millis(300));
        });
        let chosen = choose(wait, &rx, &Output::new(Box::new(sink.clone())));
        host.join().unwrap();
        (chosen.map(|(p, _)| p), sink.text())
    }

    #[test]
    fn a_person_at_a_terminal_is_waited_for_and_a_silent_program_is_opentafl() {
        assert_eq!(first_line_wait(true), None);
        assert_eq!(first_line_wait(false), Some(FIRST_LINE_WAIT));
        let late = FIRST_LINE_WAIT.as_millis() as u64 + 300;
        assert_eq!(
            choose_from(None, &[(late, "uci")]).0,
            Some(Protocol::Uci),
            "a terminal waits past the pipes' limit"
        );
        assert_eq!(
            choose_from(Some(Duration::from_millis(100)), &[(400, "uci")]).0,
            Some(Protocol::Otep)
        );
        // Blank lines say nothing; `help` is answered, and then the person has all the time
        // they need.
        let (chosen, said) = choose_from(
            Some(Duration::from_millis(200)),
            &[(0, ""), (0, "help"), (400, "protocol_version")],
        );
        assert_eq!(chosen, Some(Protocol::Htp));
        assert!(said.starts_with("Hnefi speaks three protocols"), "{said}");
        assert!(said.contains("`quit` leaves any of them"), "{said}");
        assert!(BANNER.starts_with("Hnefi 0.") && BANNER.ends_with("type uci, or help"));
    }
}
