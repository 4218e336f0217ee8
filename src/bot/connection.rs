//! The TCP connection to the server: lines in on a reader thread of its own, lines out from
//! the caller, and the growing pause between attempts to connect.

use super::command::ServerCommand;
use std::io::{self, BufRead, BufReader, Write};
use std::net::{Shutdown, TcpStream, ToSocketAddrs};
use std::time::Duration;

/// The server's only port.
pub const DEFAULT_PORT: u16 = 49152;

/// The longest line read. The server's login greeting lists every user of the site in one
/// line, so this is generous; a longer line is dropped whole and logged.
const MAX_LINE: usize = 64 << 20;

/// The longest wait for a connection to open.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// A server that takes longer than this to accept a line is taken to be gone.
const WRITE_TIMEOUT: Duration = Duration::from_secs(10);

/// What the reader thread reports. `generation` tells connections apart, so that the last
/// words of an old connection are not taken for the new one's.
#[derive(Debug)]
pub enum Incoming {
    Line { generation: u64, text: String },
    Closed { generation: u64, why: String },
}

/// `HOST[:PORT]` (an IPv6 address in brackets when a port follows), the port defaulting to
/// the server's.
pub fn with_default_port(server: &str) -> String {
    if server.starts_with('[') {
        if server.contains("]:") {
            return server.to_string();
        }
        return format!("{server}:{DEFAULT_PORT}");
    }
    match server.split_once(':') {
        Some((_, port)) if !port.contains(':') && port.parse::<u16>().is_ok() => server.to_string(),
        Some(_) => format!("[{server}]:{DEFAULT_PORT}"),
        None => format!("{server}:{DEFAULT_PORT}"),
    }
}

pub struct Connection {
    stream: TcpStream,
    pub generation: u64,
}

impl Connection {
    /// Connects to `address` (`HOST:PORT`), waiting at most `timeout` for each of its
    /// addresses, and starts reading; every line and the end of the connection go to
    /// `deliver`, which returns false once nobody listens any more.
    pub fn open(
        address: &str,
        generation: u64,
        timeout: Duration,
        deliver: impl Fn(Incoming) -> bool + Send + 'static,
    ) -> io::Result<Connection> {
        let mut last = io::Error::new(io::ErrorKind::NotFound, "no address");
        let mut found = None;
        for addr in address.to_socket_addrs()? {
            match TcpStream::connect_timeout(&addr, timeout) {
                Ok(stream) => {
                    found = Some(stream);
                    break;
                }
                Err(e) => last = e,
            }
        }
        let stream = found.ok_or(last)?;
        stream.set_nodelay(true)?;
        stream.set_write_timeout(Some(WRITE_TIMEOUT))?;
        let reader = stream.try_clone()?;
        std::thread::Builder::new()
            .name(format!("server-reader-{generation}"))
            .spawn(move || read_lines(reader, generation, deliver))?;
        Ok(Connection { stream, generation })
    }

    pub fn send(&mut self, command: &ServerCommand) -> io::Result<()> {
        log::debug!("-> {}", command.for_log());
        let line = format!("{command}\n");
        self.stream.write_all(line.as_bytes())?;
        self.stream.flush()
    }

    /// Ends the connection; its reader thread then reports it closed.
    pub fn close(&self) {
        let _ = self.stream.shutdown(Shutdown::Both);
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        self.close();
    }
}

fn read_lines(stream: TcpStream, generation: u64, deliver: impl Fn(Incoming) -> bool) {
    let mut reader = BufReader::new(stream);
    let mut line = Vec::new();
    let why = loop {
        line.clear();
        match read_line_capped(&mut reader, &mut line) {
            Ok(Read::Line) => {
                let text = String::from_utf8_lossy(&line)
                    .trim_end_matches(['\r', '\n'])
                    .to_string();
                if !deliver(Incoming::Line { generation, text }) {
                    return;
                }
            }
            Ok(Read::TooLong(n)) => log::warn!("dropped a line of {n} bytes from the server"),
            Ok(Read::End) => break "the server closed the connection".to_string(),
            Err(e) => break e.to_string(),
        }
    };
    deliver(Incoming::Closed { generation, why });
}

enum Read {
    Line,
    TooLong(usize),
    End,
}

/// One line into `line`, at most [`MAX_LINE`] bytes of it kept.
fn read_line_capped(reader: &mut impl BufRead, line: &mut Vec<u8>) -> io::Result<Read> {
    let mut total = 0;
    loop {
        let chunk = match reader.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok(if total == 0 { Read::End } else { Read::Line });
        }
        let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        if total + take <= MAX_LINE {
            line.extend_from_slice(&chunk[..take]);
        }
        total += take;
        reader.consume(take);
        if done {
            return Ok(if total > MAX_LINE {
                Read::TooLong(total)
            } else {
                Read::Line
            });
        }
    }
}

/// The pause before the next attempt to connect: 1 s, doubling up to a minute, with some
/// jitter so that many bots cut off together do not all return at once.
#[derive(Debug)]
pub struct Backoff {
    next: Duration,
}

const FIRST_PAUSE: Duration = Duration::from_secs(1);
const LONGEST_PAUSE: Duration = Duration::from_secs(60);

impl Default for Backoff {
    fn default() -> Backoff {
        Backoff { next: FIRST_PAUSE }
    }
}

impl Backoff {
    /// The pause to take now; the next one will be twice as long.
    pub fn pause(&mut self) -> Duration {
        let pause = self.next;
        self.next = (self.next * 2).min(LONGEST_PAUSE);
        let jitter = rand::random::<u64>() % (pause.as_millis() as u64 / 5 + 1);
        pause + Duration::from_millis(jitter)
    }

    /// A connection held: start again from the shortest pause.
    pub fn reset(&mut self) {
        self.next = FIRST_PAUSE;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses() {
        assert_eq!(with_default_port("hnefatafl.org"), "hnefatafl.org:49152");
        assert_eq!(with_default_port("127.0.0.1:4000"), "127.0.0.1:4000");
        assert_eq!(with_default_port("::1"), "[::1]:49152");
        assert_eq!(with_default_port("[::1]:5"), "[::1]:5");
        assert_eq!(with_default_port("[::1]"), "[::1]:49152");
    }

    #[test]
    fn pauses_grow_to_a_minute_and_start_over() {
        let mut backoff = Backoff::default();
        let pauses: Vec<_> = (0..10).map(|_| backoff.pause()).collect();
        assert!(pauses[0] >= FIRST_PAUSE && pauses[0] < FIRST_PAUSE * 2);
        assert!(pauses[1] >= FIRST_PAUSE * 2);
        assert!(
            pauses
                .iter()
                .all(|&p| p <= LONGEST_PAUSE + LONGEST_PAUSE / 5)
        );
        assert!(pauses[9] >= LONGEST_PAUSE);
        backoff.reset();
        assert!(backoff.pause() < FIRST_PAUSE * 2);
    }

    #[test]
    fn long_lines_are_dropped_whole() {
        let text = format!("short\n{}\nafter", "x".repeat(MAX_LINE + 10));
        let mut reader = BufReader::new(text.as_bytes());
        let mut line = Vec::new();
        assert!(matches!(
            read_line_capped(&mut reader, &mut line),
            Ok(Read::Line)
        ));
        assert_eq!(line, b"short\n");
        line.clear();
        assert!(matches!(
            read_line_capped(&mut reader, &mut line),
            Ok(Read::TooLong(n)) if n == MAX_LINE + 11
        ));
        line.clear();
        assert!(matches!(
            read_line_capped(&mut reader, &mut line),
            Ok(Read::Line)
        ));
        assert_eq!(line, b"after");
        line.clear();
        assert!(matches!(
            read_line_capped(&mut reader, &mut line),
            Ok(Read::End)
        ));
    }
}
