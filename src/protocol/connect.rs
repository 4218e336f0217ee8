//! `hnefi connect HOST:PORT`: a player on hnefatafl-copenhagen's light TCP server. The server
//! sends `generate_move <role>` to the side to move and expects a bare `play <role> <from>
//! <to>`, which it relays to the other player as a `play ...` line.

use super::Output;
use super::htp::Htp;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::time::Duration;

/// Plays until the server closes the connection. Returns how many moves Hnefi made.
pub fn connect(address: &str, move_time: Duration) -> Result<usize, String> {
    let stream =
        TcpStream::connect(address).map_err(|e| format!("cannot connect to {address}: {e}"))?;
    let mut writer = stream.try_clone().map_err(|e| format!("connection: {e}"))?;
    let reader = BufReader::new(stream);
    // Nothing is printed through the text protocol's own output: replies go over the socket.
    let mut htp = Htp::new(Output::new(Box::new(std::io::sink()))).with_move_time(move_time);
    let mut moves = 0;
    for line in reader.lines() {
        let line = line.map_err(|e| format!("connection: {e}"))?;
        let text = line.trim();
        log::debug!("server: {text}");
        let mut words = text.split_whitespace();
        match words.next() {
            Some("generate_move") => match htp.handle("generate_move") {
                Ok(reply) => {
                    writeln!(writer, "{reply}").map_err(|e| format!("connection: {e}"))?;
                    writer.flush().map_err(|e| format!("connection: {e}"))?;
                    moves += 1;
                }
                Err(e) => log::warn!("no move to send: {e}"),
            },
            Some("play") => {
                if let Err(e) = htp.handle(text) {
                    log::warn!("relayed move '{text}' not playable here: {e}");
                }
            }
            _ => log::info!("server says: {text}"),
        }
    }
    if let Some(o) = htp.position().outcome() {
        log::info!("game over: {o}");
    }
    Ok(moves)
}
