//! The engine's two ends: input read on a thread of its own, in bounded lines of any bytes,
//! and output written whole line by line, shared with the search threads.

use std::io::{BufRead, Write};
use std::str::FromStr;
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex};

/// The longest line accepted; longer ones are cut here and reported as an error.
pub const MAX_LINE: usize = 1 << 20;

/// A line of input, or why it could not be taken whole.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    Line(String),
    /// A line longer than [`MAX_LINE`] bytes (the rest of it was skipped).
    TooLong(usize),
}

/// A protocol's reason for not taking a line as a command, as far as its loop needs to know.
pub trait LineError: PartialEq + Sized {
    /// The line asked nothing (blank, or only a comment): it goes unanswered.
    const BLANK: Self;
    /// The line was longer than [`MAX_LINE`] bytes (how many it had).
    const TOO_LONG: fn(usize) -> Self;
}

/// A command line's name and the words after it; a line without a word asks nothing.
pub fn command_words<E: LineError>(line: &str) -> Result<(&str, Vec<&str>), E> {
    let mut words = line.split_whitespace();
    let name = words.next().ok_or(E::BLANK)?;
    Ok((name, words.collect()))
}

impl Input {
    /// The command on this line; `None` for one that asks nothing.
    pub fn command<C>(&self) -> Option<Result<C, C::Err>>
    where
        C: FromStr<Err: LineError>,
    {
        let parsed = match self {
            Input::Line(line) => line.parse(),
            Input::TooLong(n) => Err((C::Err::TOO_LONG)(*n)),
        };
        match parsed {
            Err(e) if e == C::Err::BLANK => None,
            parsed => Some(parsed),
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{htp, otep, uci};

    #[test]
    fn lines_as_commands_of_each_protocol() {
        let line = |text: &str| Input::Line(text.into());
        assert_eq!(
            line("isready").command(),
            Some(Ok(
                uci::message::UciCommand::<crate::search::size::Standard>::IsReady
            ))
        );
        assert_eq!(
            line("frobnicate").command::<uci::message::UciCommand<crate::search::size::Standard>>(),
            Some(Err(uci::message::CommandError::Unknown(
                "frobnicate".into()
            )))
        );
        assert_eq!(
            line(" \t ").command::<uci::message::UciCommand<crate::search::size::Standard>>(),
            None
        );
        assert_eq!(
            Input::TooLong(MAX_LINE + 1)
                .command::<otep::message::OtepCommand<crate::search::size::Standard>>(),
            Some(Err(otep::message::MessageError::TooLong(MAX_LINE + 1)))
        );
        assert_eq!(
            line("").command::<otep::message::OtepCommand<crate::search::size::Standard>>(),
            None
        );
        // A comment alone asks nothing either.
        assert_eq!(
            line("  # relayed")
                .command::<htp::message::HtpCommand<crate::search::size::Standard>>(),
            None
        );
        assert_eq!(
            line("name # relayed").command(),
            Some(Ok(
                htp::message::HtpCommand::<crate::search::size::Standard>::Name
            ))
        );
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
