//! The lines hnefatafl.org's server sends, read into types. What a line means for the bot is
//! decided elsewhere; here a line is only recognised, or refused as not understood.

use super::command::ServerMove;
use super::record::{GameRecord, GamesUpdate, OpenGame, parse_open_games};
use super::seat::SERVER_SIDES;
use crate::board::Side;
use crate::board::Square;
use crate::search::size::{Size, SizedTask, run_sized};
use std::str::FromStr;

/// A game's number on the server (they count up from 0).
pub type GameId = u64;

/// A side as the server writes it: `attacker` or `defender`, read as the text protocol reads
/// it (which also takes `a`/`d` and plurals).
pub use crate::protocol::htp::message::Role;

fn role(word: Option<&str>) -> Result<Role, LineError> {
    let word = word.unwrap_or("");
    word.parse().map_err(|_| LineError::malformed("role", word))
}

/// Why a login or a new account was refused.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum LoginRefusal {
    /// The server speaks another protocol version: nothing but a new `--version-id` helps.
    WrongVersion,
    /// `create_account` for a name that exists: log in instead.
    AlreadyExists,
    /// The account still has a live connection (the server has not yet seen the old one go).
    LoggedInAlready,
    /// Too many failed logins: the server wants a pause.
    RetriedTooSoon,
    NoSuchAccount,
    WrongPassword,
    /// Anything else, as the server put it.
    Other(String),
}

impl std::fmt::Display for LoginRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoginRefusal::WrongVersion => f.write_str("the server speaks another protocol version"),
            LoginRefusal::AlreadyExists => f.write_str("an account of that name exists"),
            LoginRefusal::LoggedInAlready => {
                f.write_str("the account is logged in on another connection")
            }
            LoginRefusal::RetriedTooSoon => {
                f.write_str("too many failed logins; the server wants a pause")
            }
            LoginRefusal::NoSuchAccount => {
                f.write_str("no such account (--create-account creates it)")
            }
            LoginRefusal::WrongPassword => f.write_str("wrong password"),
            LoginRefusal::Other(text) => write!(f, "the server says '{text}'"),
        }
    }
}

impl LoginRefusal {
    /// Whether the same login may succeed a little later: the server has not yet seen an old
    /// connection go, or wants a pause after failures.
    pub fn passes(&self) -> bool {
        matches!(
            self,
            LoginRefusal::LoggedInAlready | LoginRefusal::RetriedTooSoon
        )
    }

    fn read(text: &str) -> LoginRefusal {
        let has = |word: &str| text.split_whitespace().any(|w| w == word);
        if has("wrong_version") {
            LoginRefusal::WrongVersion
        } else if has("already_exists") {
            LoginRefusal::AlreadyExists
        } else if has("logged_in_already") {
            LoginRefusal::LoggedInAlready
        } else if has("retried_too_soon") {
            LoginRefusal::RetriedTooSoon
        } else if has("account_not_in_database") {
            LoginRefusal::NoSuchAccount
        } else if has("wrong_password") {
            LoginRefusal::WrongPassword
        } else {
            LoginRefusal::Other(text.to_string())
        }
    }
}

/// One line from the server.
#[derive(Clone, Debug)]
pub enum ServerLine {
    /// `= login`: logged in (also after `create_account`).
    LoggedIn,
    /// `? login ...` or `? create_account ...`.
    LoginRefused(LoginRefusal),
    /// `game ID generate_move ROLE`: ROLE is to move in game ID. At login the server sends one
    /// for every unfinished game of the account, whoever is to move.
    GenerateMove { game: GameId, role: Role },
    /// `game ID play ROLE FROM TO`: a move of game ID, relayed by the server. Its squares are
    /// read as the game's board size allows, by the game.
    Played {
        game: GameId,
        role: Role,
        mv: ServerMove,
    },
    /// `game ID play ROLE resigns`.
    Resigned { game: GameId, role: Role },
    /// `= resume_game_json {...}`: the whole game.
    Game(Box<GameRecord>),
    /// `= game_over ID attacker_wins|defender_wins`.
    GameOver { game: GameId, winner: Side },
    /// `= draw accept`: a game ended drawn, by the move limit or by agreement. It does not say
    /// which game.
    Drawn,
    /// `= draw decline`.
    DrawDeclined,
    /// `request_draw ID ROLE`: the opponent offers a draw.
    DrawOffered { game: GameId, role: Role },
    /// `= request_draw`: the answer to our own offer, which the bot never makes.
    DrawRequested,
    /// `= game`: the `game ...` command just sent (a move or a resignation) was accepted.
    GameAccepted,
    /// `? game ...`: the `game ...` command just sent was refused, and why.
    GameRefused(String),
    /// `= game_time {...}`: the clocks after a move.
    GameTime,
    /// `= new_game ID`: our offer is open as game ID.
    Created(GameId),
    /// `= challenge_requested ID`: someone asks to play our open game ID.
    Challenged(GameId),
    /// `= join_game_pending ID`: our request to play game ID is with its creator.
    JoinPending(GameId),
    /// `= decline_game ID` or `= leave_game ID`: an offer or a request withdrawn.
    Withdrawn(GameId),
    /// `= join_game ATTACKER DEFENDER ...`: a game has begun between the two.
    Started { attacker: String, defender: String },
    /// `= games_updated {...}`: open and running games that changed.
    GamesUpdated(Box<GamesUpdate>),
    /// `= initialize_display (...)`: the open games at login (the users are not read).
    OpenGames(Vec<OpenGame>),
    /// `= ping`.
    Pong,
    /// A line the bot has no use for: chat, ratings, tournaments, the server's version.
    Chatter,
    /// `? COMMAND ...` for any other command.
    Refused { command: String, reason: String },
}

/// Why a line could not be read.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum LineError {
    #[error("not a line the bot knows")]
    Unknown,
    #[error("malformed {what}: '{text}'")]
    Malformed { what: &'static str, text: String },
}

impl LineError {
    fn malformed(what: &'static str, text: &str) -> LineError {
        const MAX: usize = 200;
        let text = match text.char_indices().nth(MAX) {
            Some((i, _)) => format!("{}...", &text[..i]),
            None => text.to_string(),
        };
        LineError::Malformed { what, text }
    }
}

fn game_id(word: Option<&str>) -> Result<GameId, LineError> {
    let word = word.unwrap_or("");
    word.parse()
        .map_err(|_| LineError::malformed("game id", word))
}

fn no_more<'a>(
    mut words: impl Iterator<Item = &'a str>,
    what: &'static str,
) -> Result<(), LineError> {
    match words.next() {
        None => Ok(()),
        Some(extra) => Err(LineError::malformed(what, extra)),
    }
}

impl FromStr for ServerLine {
    type Err = LineError;

    fn from_str(line: &str) -> Result<ServerLine, LineError> {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix("= ") {
            return read_success(rest.trim_start());
        }
        if line == "=" {
            return Err(LineError::Unknown);
        }
        if let Some(rest) = line.strip_prefix("? ") {
            return Ok(read_error(rest.trim_start()));
        }
        let mut words = line.split_whitespace();
        match words.next() {
            Some("game") => read_game(words),
            Some("request_draw") => {
                let game = game_id(words.next())?;
                let role = role(words.next())?;
                Ok(ServerLine::DrawOffered { game, role })
            }
            Some("version") => Ok(ServerLine::Chatter),
            _ => Err(LineError::Unknown),
        }
    }
}

/// `game ID generate_move ROLE` and `game ID play ROLE FROM TO | resigns`.
fn read_game<'a>(mut words: impl Iterator<Item = &'a str>) -> Result<ServerLine, LineError> {
    let game = game_id(words.next())?;
    match words.next() {
        Some("generate_move") => {
            let role = role(words.next())?;
            no_more(words, "generate_move")?;
            Ok(ServerLine::GenerateMove { game, role })
        }
        Some("play") => {
            let role = role(words.next())?;
            match (words.next(), words.next()) {
                (Some("resigns"), _) => Ok(ServerLine::Resigned { game, role }),
                (Some(from), Some(to)) => {
                    // Squares of the largest board the server offers: the game's own board is
                    // known only to the game the line is for.
                    struct OnBoard<'a>(&'a str);
                    impl SizedTask for OnBoard<'_> {
                        type Output = bool;
                        fn run<G: Size>(self) -> bool {
                            Square::<G>::parse(self.0).is_ok()
                        }
                    }
                    let largest = SERVER_SIDES.into_iter().max().unwrap_or(0);
                    for square in [from, to] {
                        if run_sized(largest, OnBoard(square)) != Ok(true) {
                            return Err(LineError::malformed("move", &format!("{from} {to}")));
                        }
                    }
                    no_more(words, "move")?;
                    let mv = ServerMove {
                        from: from.to_string(),
                        to: to.to_string(),
                    };
                    Ok(ServerLine::Played { game, role, mv })
                }
                _ => Err(LineError::malformed("move", "(missing squares)")),
            }
        }
        _ => Err(LineError::Unknown),
    }
}

/// The lines that begin `= `.
fn read_success(rest: &str) -> Result<ServerLine, LineError> {
    let (word, tail) = rest.split_once(' ').unwrap_or((rest, ""));
    let tail = tail.trim();
    let mut words = tail.split_whitespace();
    let id = |w: Option<&str>| game_id(w);
    Ok(match word {
        "login" if tail.is_empty() => ServerLine::LoggedIn,
        "resume_game_json" => ServerLine::Game(Box::new(
            serde_json::from_str(tail).map_err(|_| LineError::malformed("game", tail))?,
        )),
        "game_over" => {
            let game = id(words.next())?;
            let winner = match words.next() {
                Some("attacker_wins") => Side::Attackers,
                Some("defender_wins") => Side::Defenders,
                _ => return Err(LineError::malformed("game_over", tail)),
            };
            ServerLine::GameOver { game, winner }
        }
        "draw" => match tail {
            "accept" => ServerLine::Drawn,
            "decline" => ServerLine::DrawDeclined,
            _ => return Err(LineError::malformed("draw", tail)),
        },
        "request_draw" => ServerLine::DrawRequested,
        "game" if tail.is_empty() => ServerLine::GameAccepted,
        "game_time" => ServerLine::GameTime,
        "new_game" => ServerLine::Created(id(words.next())?),
        "challenge_requested" => ServerLine::Challenged(id(words.next())?),
        "join_game_pending" => ServerLine::JoinPending(id(words.next())?),
        "decline_game" | "leave_game" => ServerLine::Withdrawn(id(words.next())?),
        "join_game" => match (words.next(), words.next()) {
            (Some(attacker), Some(defender)) => ServerLine::Started {
                attacker: attacker.to_string(),
                defender: defender.to_string(),
            },
            _ => return Err(LineError::malformed("join_game", tail)),
        },
        "games_updated" => ServerLine::GamesUpdated(Box::new(
            serde_json::from_str(tail).map_err(|_| LineError::malformed("games_updated", tail))?,
        )),
        "initialize_display" => ServerLine::OpenGames(parse_open_games(tail)),
        "ping" => ServerLine::Pong,
        "users_updated"
        | "texts"
        | "text"
        | "text_game"
        | "tournament_status_0"
        | "email_get"
        | "admin"
        | "admin_tournament"
        | "archived_games" => ServerLine::Chatter,
        _ => return Err(LineError::Unknown),
    })
}

/// The lines that begin `? `: the command they answer, then why.
fn read_error(rest: &str) -> ServerLine {
    let (command, reason) = rest.split_once(' ').unwrap_or((rest, ""));
    let reason = reason.trim().to_string();
    match command {
        "login" | "create_account" => ServerLine::LoginRefused(LoginRefusal::read(&reason)),
        "game" => ServerLine::GameRefused(reason),
        _ => ServerLine::Refused {
            command: command.to_string(),
            reason,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(line: &str) -> ServerLine {
        line.parse().unwrap_or_else(|e| panic!("{line}: {e}"))
    }

    #[test]
    fn game_lines() {
        assert!(matches!(
            read("game 7 generate_move defender"),
            ServerLine::GenerateMove {
                game: 7,
                role: Role(Side::Defenders)
            }
        ));
        match read("game 7 play attacker D1 d3") {
            ServerLine::Played { game: 7, role, mv } => {
                assert_eq!(role, Role(Side::Attackers));
                assert_eq!(mv.to_string(), "D1 d3");
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            read("game 7 play attacker resigns "),
            ServerLine::Resigned { game: 7, .. }
        ));
        assert!(matches!(
            read("= game_over 7 defender_wins"),
            ServerLine::GameOver {
                game: 7,
                winner: Side::Defenders
            }
        ));
        assert!(matches!(read("= game"), ServerLine::GameAccepted));
        assert!(matches!(
            read("? game play: you can only play in a straight line"),
            ServerLine::GameRefused(r) if r.contains("straight")
        ));
        assert!(matches!(read("= draw accept"), ServerLine::Drawn));
        assert!(matches!(
            read("request_draw 3 attacker"),
            ServerLine::DrawOffered { game: 3, .. }
        ));
    }

    #[test]
    fn lobby_and_login_lines() {
        assert!(matches!(read("= login"), ServerLine::LoggedIn));
        assert!(matches!(
            read("? login wrong_version"),
            ServerLine::LoginRefused(LoginRefusal::WrongVersion)
        ));
        assert!(matches!(
            read("? create_account already_exists unknown error"),
            ServerLine::LoginRefused(LoginRefusal::AlreadyExists)
        ));
        assert!(matches!(
            read("? login multiple_possible_errors retried_too_soon 2026-01-01"),
            ServerLine::LoginRefused(LoginRefusal::RetriedTooSoon)
        ));
        assert!(matches!(read("= new_game 4"), ServerLine::Created(4)));
        assert!(matches!(
            read("= challenge_requested 4"),
            ServerLine::Challenged(4)
        ));
        match read("= join_game ai-att ai-def rated fischer 900000 10 11") {
            ServerLine::Started { attacker, defender } => {
                assert_eq!((attacker.as_str(), defender.as_str()), ("ai-att", "ai-def"));
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(read("version 6.4.1"), ServerLine::Chatter));
        assert!(matches!(read("= ping"), ServerLine::Pong));
        assert!(matches!(
            read("? join_game_pending the id doesn't refer to a pending game unknown error"),
            ServerLine::Refused { command, .. } if command == "join_game_pending"
        ));
    }

    #[test]
    fn nonsense_is_refused_not_panicked_on() {
        let long = "x".repeat(100_000);
        for line in [
            "",
            "=",
            "= ",
            "?",
            "game",
            "game x play attacker d1 d3",
            "game 1 play wizard d1 d3",
            "game 1 play attacker z99 d3",
            "game 1 play attacker d1",
            "game 1 play attacker d1 d1",
            "game 1 generate_move",
            "game 99999999999999999999999 generate_move attacker",
            "= game_over 1 nobody_wins",
            "= resume_game_json {\"id\":",
            "= games_updated [1,2",
            "= join_game onlyone",
            "= draw maybe",
            "\u{0}\u{1}\u{7f}",
            "é ü 😀",
            &long,
        ] {
            let _ = line.parse::<ServerLine>();
        }
        assert_eq!(
            "hello".parse::<ServerLine>().unwrap_err(),
            LineError::Unknown
        );
        assert!(matches!(
            "= resume_game_json {\"id\":".parse::<ServerLine>(),
            Err(LineError::Malformed { .. })
        ));
    }
}
