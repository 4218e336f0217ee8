//! Text protocols: thin translations between lines of text and the engine API. Each protocol
//! has its messages (typed commands and replies, shared with the match runner's players) and
//! its engine loop over one [`Session`]; this module picks the protocol.

pub mod connect;
mod diagram;
mod driver;
pub mod htp;
mod io;
pub mod number;
pub mod otep;
mod session;
#[cfg(test)]
mod testing;
pub mod uci;

pub use diagram::diagram;
pub use io::{Input, LineError, MAX_LINE, Output, spawn_reader};
pub use session::{IllegalMove, Session};

use crate::search::Level;
use std::fmt;
use std::str::FromStr;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::Duration;

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
}

/// How long to wait for a host's first line before taking it for OpenTafl, which waits for
/// the engine's `hello` before it says anything.
const FIRST_LINE_WAIT: Duration = Duration::from_millis(1500);

/// What the command line sets for the engine loop, whatever the host says.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    /// Thinking time per move when an OpenTafl or hnefatafl text protocol host gives no clock
    /// (`--movetime`).
    pub move_time: Option<Duration>,
    /// The most nodes any one search may visit (`--nodes`): fixed-effort play under
    /// protocols whose hosts cannot ask for it, and quick searches in tests and fuzzing.
    pub max_nodes: Option<u64>,
    /// How strongly the engine plays (`--level`); a UCI host may change it.
    pub level: Level,
}

/// Runs the engine loop on stdin and stdout until the host quits or the input ends.
pub fn run_stdio(protocol: Option<Protocol>, settings: Settings) {
    let input = spawn_reader(std::io::BufReader::new(std::io::stdin()));
    run(protocol, input, Output::stdout(), settings);
}

/// Runs the engine loop over any input and output. Without a fixed protocol, the first line
/// decides; silence means OpenTafl.
pub fn run(protocol: Option<Protocol>, input: Receiver<Input>, out: Output, settings: Settings) {
    let (protocol, first) = match protocol {
        Some(p) => (p, None),
        None => match input.recv_timeout(FIRST_LINE_WAIT) {
            Ok(Input::Line(line)) => (Protocol::of_first_line(&line), Some(Input::Line(line))),
            Ok(other) => (Protocol::Uci, Some(other)),
            Err(RecvTimeoutError::Timeout) => (Protocol::Otep, None),
            Err(RecvTimeoutError::Disconnected) => return,
        },
    };
    match protocol {
        Protocol::Uci => uci::Uci::new(out, settings).run(first, input),
        Protocol::Otep => otep::Otep::new(out, settings).run(first, input),
        Protocol::Htp => htp::Htp::new(out, settings).run(first, input),
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
}
