//! `hnefi connect HOST:PORT`: a player on hnefatafl-copenhagen's light TCP server. The server
//! sends `generate_move <role>` to the side to move and expects a bare `play <role> <from>
//! <to>`, which it relays to the other player as a `play ...` line.

use super::LoopSettings;
use super::htp::HtpGame;
use super::htp::message::HtpCommand;
use crate::board::{Geometry, across_sizes};
use crate::search::Searcher;
use crate::search::size::{Size, SizedTask, Standard, run_sized};
use std::io::{BufRead, BufReader, Lines, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// Why a game on the server could not go on.
#[derive(Debug, thiserror::Error)]
pub enum ConnectError {
    #[error("cannot connect to {0}: {1}")]
    Connect(String, std::io::Error),
    #[error("connection: {0}")]
    Connection(#[from] std::io::Error),
    #[error("the server asked for {0}")]
    Size(#[from] crate::board::SizeError),
}

/// Plays until the server closes the connection. Returns how many moves Hnefi made.
pub fn connect(address: &str, move_time: Duration) -> Result<usize, ConnectError> {
    let stream =
        TcpStream::connect(address).map_err(|e| ConnectError::Connect(address.to_string(), e))?;
    let mut writer = stream.try_clone()?;
    let mut lines = BufReader::new(stream).lines();
    let mut moves = 0;
    across_sizes(Standard::SIDE, (), |side, ()| {
        let play = PlaySize {
            lines: &mut lines,
            writer: &mut writer,
            move_time,
            moves: &mut moves,
        };
        let next = run_sized(side, play)??;
        Ok::<_, ConnectError>(next.map(|side| (side, ())))
    })?;
    Ok(moves)
}

/// The game on one board size, compiled for it.
struct PlaySize<'a> {
    lines: &'a mut Lines<BufReader<TcpStream>>,
    writer: &'a mut TcpStream,
    move_time: Duration,
    moves: &'a mut usize,
}

impl SizedTask for PlaySize<'_> {
    type Output = Result<Option<u8>, ConnectError>;
    fn run<G: Size>(self) -> Self::Output {
        play_size::<G>(self.lines, self.writer, self.move_time, self.moves)
    }
}

/// Plays on boards of `G` until the connection ends, or `board_size` asks for another side:
/// then that side, whose game starts afresh.
fn play_size<G: Size>(
    lines: &mut Lines<BufReader<TcpStream>>,
    writer: &mut TcpStream,
    move_time: Duration,
    moves: &mut usize,
) -> Result<Option<u8>, ConnectError> {
    let mut game = HtpGame::<G>::new(LoopSettings {
        move_time: Some(move_time),
        ..LoopSettings::default()
    });
    let mut engine = Searcher::<G>::default();
    for line in lines.by_ref() {
        let line = line?;
        let text = line.trim();
        log::debug!("server: {text}");
        match text.parse() {
            Ok(HtpCommand::GenerateMove(_)) => {
                let started = Instant::now();
                let result = engine.search(game.session().position(), game.move_limits());
                match game.moved(&result, started.elapsed()) {
                    Ok(play) => {
                        writeln!(writer, "{play}")?;
                        writer.flush()?;
                        *moves += 1;
                    }
                    Err(e) => log::warn!("no move to send: {e}"),
                }
            }
            Ok(HtpCommand::Play(play)) => {
                if let Err(e) = game.answer(HtpCommand::Play(play)) {
                    log::warn!("relayed move '{text}' not playable here: {e}");
                }
            }
            Ok(HtpCommand::BoardSize(n @ (7 | 11 | 13))) if n != u64::from(G::SIDE) => {
                return Ok(Some(n as u8));
            }
            _ => log::info!("server says: {text}"),
        }
    }
    if let Some(o) = game.session().position().outcome() {
        log::info!("game over: {o}");
    }
    Ok(None)
}
