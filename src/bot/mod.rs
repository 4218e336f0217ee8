//! `hnefi bot`: Hnefi as a player on hnefatafl.org's server (`hnefatafl-server` of
//! hnefatafl-copenhagen), logged in like a person, as the site's own bots are.
//!
//! - `message`: the lines the server sends; `command`: the lines the bot sends;
//!   `record`: the server's JSON and RON descriptions of games;
//! - `connection`: the TCP connection and the pause between attempts;
//! - `session`: the event loop (login, every line, reconnects);
//! - `game`: one game and its engine, compiled per board size; `seat`: a game of any size,
//!   as the session holds it; `lobby`: offers and requests to join;
//! - `clock`: how long to think under the server's clock.
//!
//! PROTOCOL.md describes the protocol as the server speaks it and what the bot does.

pub mod clock;
pub mod command;
pub mod connection;
pub mod game;
pub mod lobby;
pub mod message;
pub mod record;
pub mod seat;
pub mod session;

use crate::search::{Options, OptionsError, Searcher};
use std::time::Duration;

pub use command::{Clock, Offer};
pub use lobby::{Boards, Seek};
pub use seat::SERVER_SIDES;

/// The protocol version of hnefatafl-copenhagen 6.4.1, its newest release, which the server
/// checks on the first line of every connection.
pub const VERSION_ID: &str = "32d9a140";

/// The account's password. It is shown by no log, no `{:?}` and no error: only the login
/// line sent to the server holds it.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Password(String);

impl Password {
    pub fn new(text: String) -> Password {
        Password(text)
    }

    /// The password itself, for the login line alone.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for Password {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Password(***)")
    }
}

/// Everything `hnefi bot` is told.
#[derive(Clone, Debug)]
pub struct BotConfig {
    /// `HOST[:PORT]`.
    pub server: String,
    pub username: String,
    pub password: Password,
    /// Create the account at the first login (an existing one is simply logged in to).
    pub create_account: bool,
    pub version_id: String,
    pub seek: Seek,
    /// Leave once this many games are over.
    pub games: Option<usize>,
    /// Games in play at once, offers and requests included.
    pub max_active: usize,
    /// Each game's engine.
    pub engine: Options,
    /// The most time a move may take, and the time per move of untimed games.
    pub movetime: Option<Duration>,
}

#[derive(Debug, thiserror::Error)]
pub enum BotError {
    #[error(
        "the server speaks another protocol version than '{0}': pass the VERSION_ID of the \
         hnefatafl-copenhagen release it runs with --version-id"
    )]
    WrongVersion(String),
    #[error("login refused: {0}")]
    Login(String),
    #[error(
        "could not log in at {server} in {secs} s ({tries} tries; the last: {why}); check --server"
    )]
    Unreachable {
        server: String,
        secs: u64,
        tries: u32,
        why: String,
    },
    #[error("{0}")]
    Setting(String),
    #[error(transparent)]
    Engine(#[from] OptionsError),
}

/// The server's rules for names (at most 16 letters, digits, `-` and `_`) and passwords (at
/// most 32 bytes, no control characters, which would drop the connection).
fn check(config: &BotConfig) -> Result<(), BotError> {
    let name = &config.username;
    let name_ok = !name.is_empty()
        && name.len() <= 16
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if !name_ok {
        return Err(BotError::Setting(format!(
            "username '{name}': 1 to 16 letters, digits, '-' or '_'"
        )));
    }
    let password = config.password.expose();
    if password.len() > 32 || password.chars().any(char::is_control) {
        return Err(BotError::Setting(
            "password: at most 32 bytes, no control characters".into(),
        ));
    }
    if config.version_id.is_empty() || config.version_id.contains(char::is_whitespace) {
        return Err(BotError::Setting("--version-id: one word".into()));
    }
    if config.max_active == 0 {
        return Err(BotError::Setting("--max-active must be at least 1".into()));
    }
    Ok(())
}

/// Plays on the server until `config.games` games are over, or forever. Fails only on what
/// no retry can mend: bad settings, a refused login, another protocol version, or a server
/// that never let the bot log in at all.
pub fn run(config: BotConfig) -> Result<(), BotError> {
    check(&config)?;
    // Every game gets its own engine; one now shows that the settings can be had.
    drop(Searcher::<crate::search::size::Standard>::try_new(
        config.engine.clone(),
    )?);
    if config.games == Some(0) {
        return Ok(());
    }
    session::Session::new(config).run()
}
