//! Text protocols: thin translations between lines of text and the engine API. This module
//! reads input safely (bounded lines, any bytes) and picks the protocol.

pub mod connect;
pub mod htp;
pub mod otep;
pub mod uci;

use std::io::{BufRead, Write};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The longest line accepted; longer ones are cut here and reported as an error.
pub const MAX_LINE: usize = 1 << 20;

/// A line of input, or why it could not be taken whole.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    Line(String),
    /// A line longer than [`MAX_LINE`] bytes (the rest of it was skipped).
    TooLong(usize),
}

/// Reads lines from `reader` on a thread of its own, so that the protocol stays free to
/// answer while it searches. The channel closes at end of input.
pub fn spawn_reader<R: BufRead + Send + 'static>(mut reader: R) -> Receiver<Input> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        loop {
            match read_bounded_line(&mut reader) {
                Ok(Some(input)) => {
                    if tx.send(input).is_err() {
                        break;
                    }
                }
                Ok(None) => break,
                Err(e) => {
                    log::info!("input: {e}");
                    break;
                }
            }
        }
    });
    rx
}

/// One line without its end, never holding more than [`MAX_LINE`] bytes; invalid UTF-8 is
/// replaced, not fatal.
fn read_bounded_line<R: BufRead>(reader: &mut R) -> std::io::Result<Option<Input>> {
    let mut buf = Vec::new();
    let mut total = 0usize;
    let mut saw_any = false;
    loop {
        let chunk = reader.fill_buf()?;
        if chunk.is_empty() {
            break;
        }
        saw_any = true;
        let (part, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], Some(i + 1)),
            None => (chunk, None),
        };
        total += part.len();
        if buf.len() < MAX_LINE {
            let room = MAX_LINE - buf.len();
            buf.extend_from_slice(&part[..part.len().min(room)]);
        }
        let used = done.unwrap_or(chunk.len());
        reader.consume(used);
        if done.is_some() {
            break;
        }
    }
    if !saw_any {
        return Ok(None);
    }
    if total > MAX_LINE {
        return Ok(Some(Input::TooLong(total)));
    }
    let text = String::from_utf8_lossy(&buf);
    Ok(Some(Input::Line(text.trim_end_matches('\r').to_string())))
}

/// Where protocol output goes: whole lines, flushed at once, shared with the search thread.
#[derive(Clone)]
pub struct Output {
    sink: Arc<Mutex<Box<dyn Write + Send>>>,
}

impl Output {
    pub fn new(sink: Box<dyn Write + Send>) -> Output {
        Output {
            sink: Arc::new(Mutex::new(sink)),
        }
    }

    pub fn stdout() -> Output {
        Output::new(Box::new(std::io::stdout()))
    }

    pub fn line(&self, text: &str) {
        let mut sink = self.sink.lock().unwrap_or_else(|e| e.into_inner());
        // A closed pipe is the host's business; the engine goes on until told to quit.
        let _ = writeln!(sink, "{text}");
        let _ = sink.flush();
    }
}

/// Why a number from a host was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NumberError {
    #[error("'{0}' is negative; it must be zero or more")]
    Negative(String),
    #[error("'{0}' is not a whole number")]
    NotANumber(String),
}

/// At most this many characters of a host's word are echoed back in an error.
const ECHO: usize = 40;

/// `text` cut to [`ECHO`] characters, for error messages.
pub fn truncate(text: &str) -> String {
    if text.chars().count() > ECHO {
        format!("{}...", text.chars().take(ECHO).collect::<String>())
    } else {
        text.to_string()
    }
}

/// Reads a whole number of zero or more (a `+` in front is allowed). A number too large for
/// 64 bits saturates at `u64::MAX` rather than failing: a host that sends a huge clock or
/// limit means "practically unlimited", and every use of the number saturates in turn.
pub fn parse_amount(text: &str) -> Result<u64, NumberError> {
    let (negative, body) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    if body.is_empty() || !body.bytes().all(|b| b.is_ascii_digit()) {
        return Err(NumberError::NotANumber(truncate(text)));
    }
    if negative && body.bytes().any(|b| b != b'0') {
        return Err(NumberError::Negative(truncate(text)));
    }
    // Only digits are left, so the one possible failure is overflow.
    Ok(body.parse().unwrap_or(u64::MAX))
}

/// Reads the time left on a clock, in the host's unit. A host whose clock ran past zero (it
/// took longer than it allowed) may report a negative time; that means no time left, and the
/// best answer is a move at once, so it reads as zero instead of being refused.
pub fn parse_clock(text: &str) -> Result<u64, NumberError> {
    match parse_amount(text) {
        Err(NumberError::Negative(_)) => Ok(0),
        other => other,
    }
}

/// The protocols Hnefi speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// The UCI-style dialect of TaflZero.
    Uci,
    /// OpenTafl's engine protocol.
    Otep,
    /// The hnefatafl text protocol of hnefatafl-copenhagen.
    Htp,
}

/// How long to wait for a host's first line before taking it for OpenTafl, which waits for
/// the engine's `hello` before it says anything.
const FIRST_LINE_WAIT: Duration = Duration::from_millis(1500);

/// The protocol a first line belongs to.
fn protocol_of(line: &str) -> Protocol {
    match line.split_whitespace().next() {
        Some("rules" | "hello" | "opponent-move" | "side" | "clock") => Protocol::Otep,
        Some(
            "protocol_version" | "name" | "version" | "list_commands" | "known_command"
            | "board_size" | "first_move" | "time_settings" | "generate_move" | "play_undo"
            | "final_status" | "show_board",
        ) => Protocol::Htp,
        // OpenTafl's `play attackers` against the text protocol's `play attacker d1 d3`.
        Some("play") if line.split_whitespace().count() == 2 => Protocol::Otep,
        Some("play") => Protocol::Htp,
        _ => Protocol::Uci,
    }
}

/// What the command line sets for the engine loop, whatever the host says.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    /// Thinking time per move when an OpenTafl or hnefatafl text protocol host gives no clock
    /// (`--movetime`).
    pub move_time: Option<Duration>,
    /// The most nodes any one search may visit (`--nodes`): fixed-effort play under
    /// protocols whose hosts cannot ask for it, and quick searches in tests and fuzzing.
    pub max_nodes: Option<u64>,
}

/// Runs the engine loop on stdin and stdout until `quit` or end of input.
pub fn run_stdio(protocol: Option<Protocol>, settings: Settings) {
    let input = spawn_reader(std::io::BufReader::new(std::io::stdin()));
    let out = Output::stdout();
    run(protocol, input, out, settings);
}

/// Runs the engine loop over any input and output. Without a fixed protocol, the first line
/// decides; silence means OpenTafl.
pub fn run(protocol: Option<Protocol>, input: Receiver<Input>, out: Output, settings: Settings) {
    let (protocol, first) = match protocol {
        Some(p) => (p, None),
        None => match input.recv_timeout(FIRST_LINE_WAIT) {
            Ok(Input::Line(line)) => (protocol_of(&line), Some(Input::Line(line))),
            Ok(other) => (Protocol::Uci, Some(other)),
            Err(RecvTimeoutError::Timeout) => (Protocol::Otep, None),
            Err(RecvTimeoutError::Disconnected) => return,
        },
    };
    match protocol {
        Protocol::Uci => uci::Uci::new(out)
            .with_max_nodes(settings.max_nodes)
            .run(first, input),
        Protocol::Htp => {
            let htp = htp::Htp::new(out).with_max_nodes(settings.max_nodes);
            match settings.move_time {
                Some(t) => htp.with_move_time(t),
                None => htp,
            }
            .run(first, input)
        }
        Protocol::Otep => {
            let first = match first {
                Some(Input::Line(l)) => Some(l),
                _ => None,
            };
            let otep = otep::Otep::new(out).with_max_nodes(settings.max_nodes);
            match settings.move_time {
                Some(t) => otep.with_move_time(t),
                None => otep,
            }
            .run(first, input)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_saturate_and_refuse_negatives() {
        assert_eq!(parse_amount("0"), Ok(0));
        assert_eq!(parse_amount("+42"), Ok(42));
        assert_eq!(parse_amount("-0"), Ok(0));
        assert_eq!(parse_amount("18446744073709551615"), Ok(u64::MAX));
        assert_eq!(parse_amount(&"9".repeat(500)), Ok(u64::MAX));
        assert!(matches!(parse_amount("-1"), Err(NumberError::Negative(_))));
        assert!(matches!(
            parse_amount("-99999999999999999999999"),
            Err(NumberError::Negative(_))
        ));
        for bad in [
            "", "-", "+", "1.5", "1e3", "--1", "+-1", "12a", " 1", "\u{661}",
        ] {
            assert!(
                matches!(parse_amount(bad), Err(NumberError::NotANumber(_))),
                "{bad}"
            );
        }
        assert!(
            parse_amount("-7")
                .unwrap_err()
                .to_string()
                .contains("'-7' is negative")
        );
        assert_eq!(parse_clock("-250"), Ok(0));
        assert_eq!(parse_clock("250"), Ok(250));
        assert!(parse_clock("x").is_err());
        assert!(truncate(&"y".repeat(100)).len() < 50);
    }

    #[test]
    fn bounded_lines() {
        let mut data: Vec<u8> = b"uci\r\nisready\n".to_vec();
        data.extend(std::iter::repeat_n(b'x', MAX_LINE + 10));
        data.extend(b"\n\xff\xfeok\nlast");
        let mut r = std::io::Cursor::new(data);
        assert_eq!(
            read_bounded_line(&mut r).unwrap(),
            Some(Input::Line("uci".into()))
        );
        assert_eq!(
            read_bounded_line(&mut r).unwrap(),
            Some(Input::Line("isready".into()))
        );
        assert_eq!(
            read_bounded_line(&mut r).unwrap(),
            Some(Input::TooLong(MAX_LINE + 10))
        );
        assert!(
            matches!(read_bounded_line(&mut r).unwrap(), Some(Input::Line(s)) if s.ends_with("ok"))
        );
        assert_eq!(
            read_bounded_line(&mut r).unwrap(),
            Some(Input::Line("last".into()))
        );
        assert_eq!(read_bounded_line(&mut r).unwrap(), None);
    }
}
