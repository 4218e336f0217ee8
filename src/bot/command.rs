//! The lines the bot sends to the server. Only these can be sent; `exit`, which the server
//! obeys from anyone and which stops it, is deliberately not among them, nor is any answer
//! to a draw offer (a declined offer deletes the game on the server).

use super::Password;
use super::message::{GameId, Role};
use crate::board::Move;
use crate::board::{Geometry, Side};
use serde::Serialize;
use std::fmt;
use std::time::Duration;

/// The clock of a game the bot offers.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Clock {
    Untimed,
    Fischer { main: Duration, increment: Duration },
}

/// A game the bot offers in the lobby.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Offer {
    /// The side the bot plays.
    pub side: Side,
    pub rated: bool,
    pub clock: Clock,
    /// The board's side: 7, 11 or 13.
    pub board: u8,
}

/// A move's squares as the server writes them: upper case on 13x13 (`G1 G4`), lower case on
/// the other boards, as in the server's own records.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ServerMove {
    pub from: String,
    pub to: String,
}

impl ServerMove {
    pub fn of<G: Geometry>(mv: Move<G>) -> ServerMove {
        let square = |text: String| {
            if G::SIDE == 13 {
                text.to_ascii_uppercase()
            } else {
                text
            }
        };
        ServerMove {
            from: square(mv.from().to_string()),
            to: square(mv.to().to_string()),
        }
    }
}

impl fmt::Display for ServerMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.from, self.to)
    }
}

/// One line to the server.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ServerCommand {
    /// The first line of a connection: log in, or create the account and log in.
    Login {
        version_id: String,
        create: bool,
        username: String,
        password: Password,
    },
    /// Names the program on the account, as the site's bots do.
    SoftwareId(String),
    NewGame(Offer),
    /// Accepts the challenge to our open game (or withdraws nothing: the server does not check).
    Accept(GameId),
    /// Asks to play someone's open game.
    Join(GameId),
    /// Withdraws our offer or our request to join.
    Leave(GameId),
    /// Asks for the whole game; also attaches this connection to it after a reconnect.
    Resume(GameId),
    Play {
        game: GameId,
        side: Side,
        mv: ServerMove,
    },
    Resign {
        game: GameId,
        side: Side,
    },
    Ping,
}

impl ServerCommand {
    /// The line as logs may show it: the password hidden.
    pub fn for_log(&self) -> String {
        match self {
            ServerCommand::Login { password, .. } if !password.expose().is_empty() => {
                let line = self.to_string();
                let cut = line.len() - password.expose().len();
                format!("{}***", &line[..cut])
            }
            _ => self.to_string(),
        }
    }
}

#[derive(Serialize)]
struct NewGameJson {
    role: &'static str,
    rated: bool,
    time_settings: serde_json::Value,
    board_size: u32,
}

impl fmt::Display for Offer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let time_settings = match self.clock {
            Clock::Untimed => serde_json::json!("UnTimed"),
            Clock::Fischer { main, increment } => serde_json::json!({
                "Timed": {
                    "add_seconds": increment.as_secs(),
                    "milliseconds_left": main.as_millis() as u64,
                }
            }),
        };
        let json = NewGameJson {
            role: match self.side {
                Side::Attackers => "Attacker",
                Side::Defenders => "Defender",
            },
            rated: self.rated,
            time_settings,
            board_size: self.board.into(),
        };
        let text = serde_json::to_string(&json).map_err(|_| fmt::Error)?;
        f.write_str(&text)
    }
}

impl fmt::Display for ServerCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServerCommand::Login {
                version_id,
                create,
                username,
                password,
            } => {
                let verb = if *create { "create_account" } else { "login" };
                write!(f, "{version_id} {verb} {username}")?;
                if !password.expose().is_empty() {
                    write!(f, " {}", password.expose())?;
                }
                Ok(())
            }
            ServerCommand::SoftwareId(id) => write!(f, "software_id {id}"),
            ServerCommand::NewGame(offer) => write!(f, "new_game {offer}"),
            ServerCommand::Accept(id) => write!(f, "join_game {id}"),
            ServerCommand::Join(id) => write!(f, "join_game_pending {id}"),
            ServerCommand::Leave(id) => write!(f, "leave_game {id}"),
            ServerCommand::Resume(id) => write!(f, "resume_game_json {id}"),
            ServerCommand::Play { game, side, mv } => {
                write!(f, "game {game} play {} {mv}", Role(*side))
            }
            // The server wants a fifth word after `resigns`.
            ServerCommand::Resign { game, side } => {
                write!(f, "game {game} play {} resigns _", Role(*side))
            }
            ServerCommand::Ping => f.write_str("ping"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Seven, Thirteen};
    use crate::search::size::Standard;

    #[test]
    fn lines() {
        let login = ServerCommand::Login {
            version_id: "32d9a140".into(),
            create: true,
            username: "ai-hnefi".into(),
            password: Password::new("two words".into()),
        };
        assert_eq!(
            login.to_string(),
            "32d9a140 create_account ai-hnefi two words"
        );
        assert_eq!(login.for_log(), "32d9a140 create_account ai-hnefi ***");
        let offer = Offer {
            side: Side::Defenders,
            rated: true,
            clock: Clock::Fischer {
                main: Duration::from_secs(900),
                increment: Duration::from_secs(10),
            },
            board: 11,
        };
        assert_eq!(
            ServerCommand::NewGame(offer).to_string(),
            r#"new_game {"role":"Defender","rated":true,"time_settings":{"Timed":{"add_seconds":10,"milliseconds_left":900000}},"board_size":11}"#
        );
        let untimed = Offer {
            clock: Clock::Untimed,
            rated: false,
            side: Side::Attackers,
            board: 13,
        };
        let line = ServerCommand::NewGame(untimed).to_string();
        assert!(line.contains(r#""time_settings":"UnTimed""#), "{line}");
        assert!(line.ends_with(r#""board_size":13}"#), "{line}");
        let play = |mv: ServerMove| ServerCommand::Play {
            game: 7,
            side: Side::Attackers,
            mv,
        };
        let eleven = ServerMove::of(Move::<Standard>::parse("d1d3").unwrap());
        assert_eq!(play(eleven).to_string(), "game 7 play attacker d1 d3");
        let seven = ServerMove::of(Move::<Seven>::parse("D7-B7").unwrap());
        assert_eq!(play(seven).to_string(), "game 7 play attacker d7 b7");
        let thirteen = ServerMove::of(Move::<Thirteen>::parse("m4-j4").unwrap());
        assert_eq!(play(thirteen).to_string(), "game 7 play attacker M4 J4");
        let resign = ServerCommand::Resign {
            game: 7,
            side: Side::Defenders,
        };
        assert_eq!(resign.to_string(), "game 7 play defender resigns _");
        assert_eq!(ServerCommand::Resume(3).to_string(), "resume_game_json 3");
    }
}
