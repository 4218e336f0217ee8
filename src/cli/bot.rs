//! `hnefi bot`: the command line of the hnefatafl.org bot (`hnefi::bot`).

use clap::{ArgGroup, Args, ValueEnum};
use hnefi::board::Side;
use hnefi::bot::{Boards, BotConfig, BotError, Clock, Offer, Password, Seek, VERSION_ID};
use hnefi::search::{Level, Options};
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::error::CliError;

#[derive(Clone, Copy, ValueEnum)]
pub enum SideArg {
    Attacker,
    Defender,
}

#[derive(Args)]
#[command(group(ArgGroup::new("seek").args(["new_game", "join", "join_any"])))]
pub struct BotArgs {
    /// The server, HOST[:PORT] (port 49152 by default), such as hnefatafl.org.
    #[arg(long)]
    pub server: String,
    /// The account's name (16 letters, digits, '-' or '_' at most; the site's bots use ai-...).
    #[arg(long)]
    pub username: String,
    /// The account's password, which every user of the machine can read while the bot runs
    /// (ps) and the shell's history keeps: prefer --password-file or the HNEFI_PASSWORD
    /// environment variable. Without any of them, the password is empty.
    #[arg(long, conflicts_with = "password_file")]
    pub password: Option<String>,
    /// A file that holds the account's password (a final newline is dropped), readable by
    /// its owner alone (chmod 600).
    #[arg(long, value_name = "FILE")]
    pub password_file: Option<PathBuf>,
    /// Create the account at the first login; an existing account is logged in to.
    #[arg(long)]
    pub create_account: bool,
    /// The protocol version the server expects: that of the hnefatafl-copenhagen release it
    /// runs.
    #[arg(long, default_value = VERSION_ID)]
    pub version_id: String,
    /// Offer games with this side and take every challenger, one offer open at a time.
    #[arg(long, value_enum)]
    pub new_game: Option<SideArg>,
    /// The clock of the games offered, MIN:SEC+INC (increment in seconds).
    #[arg(long, default_value = "15:00+10", value_parser = parse_tc, conflicts_with = "untimed")]
    pub tc: (Duration, Duration),
    /// Offer untimed games.
    #[arg(long)]
    pub untimed: bool,
    /// Offer unrated games.
    #[arg(long)]
    pub unrated: bool,
    /// Ask to play the open game ID (and leave after it unless --games says otherwise).
    #[arg(long)]
    pub join: Option<u64>,
    /// Ask to play any open game that waits for an opponent, on any board unless --board
    /// names the sizes.
    #[arg(long)]
    pub join_any: bool,
    /// The board of the games offered (7, 11 or 13; default 11), or the boards --join-any
    /// takes, one or several: --board 7,13.
    #[arg(long, value_delimiter = ',', conflicts_with = "join")]
    pub board: Vec<u8>,
    /// Leave once this many games are over (default: play until stopped).
    #[arg(long)]
    pub games: Option<usize>,
    /// Games in play at once, an open offer or a request to join counted.
    #[arg(long, default_value_t = 2)]
    pub max_active: usize,
    /// Search threads per game.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Transposition table per game, in MB.
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
    /// Playing strength, from 0 (a beginner can win) to 20 (full strength).
    #[arg(long, default_value_t = Level::MAX)]
    pub level: Level,
    /// The most time per move in milliseconds, whatever the clock allows; also the time per
    /// move of untimed games (default 4000 there).
    #[arg(long)]
    pub movetime: Option<u64>,
}

/// A `--tc` that is not `MIN:SEC+INC`.
#[derive(Debug, PartialEq, thiserror::Error)]
#[error("'{0}': the clock is MIN:SEC+INC, such as 15:00+10")]
pub struct TcError(String);

/// `MIN:SEC+INC`: `15:00+10`, `1:00+1`.
fn parse_tc(text: &str) -> Result<(Duration, Duration), TcError> {
    let bad = || TcError(text.to_string());
    let (main, inc) = text.split_once('+').ok_or_else(bad)?;
    let (min, sec) = main.split_once(':').ok_or_else(bad)?;
    let number = |s: &str| s.trim().parse::<u64>().map_err(|_| bad());
    let (min, sec, inc) = (number(min)?, number(sec)?, number(inc)?);
    if sec >= 60 || (min == 0 && sec == 0) {
        return Err(bad());
    }
    let main = min
        .checked_mul(60)
        .and_then(|m| m.checked_add(sec))
        .filter(|&s| s <= 1_000_000_000)
        .ok_or_else(bad)?;
    Ok((Duration::from_secs(main), Duration::from_secs(inc)))
}

/// The environment variable that may hold the password.
pub const PASSWORD_ENV: &str = "HNEFI_PASSWORD";

/// The longest password file read: the server takes 32 bytes at most.
const MAX_PASSWORD_FILE: u64 = 4096;

/// Why the password could not be had. No message shows the password.
#[derive(Debug, thiserror::Error)]
pub enum PasswordError {
    #[error("--password-file {}: {source}", path.display())]
    Read { path: PathBuf, source: io::Error },
    #[error(
        "--password-file {path}: others may read or change it (mode {mode:03o}); make it its \
         owner's alone: chmod 600 {path}",
        path = path.display()
    )]
    Exposed { path: PathBuf, mode: u32 },
    #[error("--password-file {}: not UTF-8 text", path.display())]
    FileNotText { path: PathBuf },
    #[error("{PASSWORD_ENV}: not UTF-8 text")]
    EnvNotText,
}

/// The password: `--password-file`, else `--password` (with a warning: it is on view to the
/// whole machine), else `HNEFI_PASSWORD`, else empty.
fn password(args: &BotArgs) -> Result<Password, PasswordError> {
    if let Some(path) = &args.password_file {
        return read_password_file(path).map(Password::new);
    }
    if let Some(text) = &args.password {
        if !text.is_empty() {
            log::warn!(
                "--password is on view to every user of this machine (ps, /proc/PID/cmdline) \
                 and stays in the shell's history; use --password-file FILE (chmod 600) or \
                 the {PASSWORD_ENV} environment variable"
            );
        }
        return Ok(Password::new(text.clone()));
    }
    match std::env::var(PASSWORD_ENV) {
        Ok(text) => Ok(Password::new(text)),
        Err(std::env::VarError::NotPresent) => Ok(Password::default()),
        Err(std::env::VarError::NotUnicode(_)) => Err(PasswordError::EnvNotText),
    }
}

/// The password in `path`, a file that must be its owner's alone: a password others can read
/// is no secret, and one others can change is not the owner's.
fn read_password_file(path: &Path) -> Result<String, PasswordError> {
    let read = |source| PasswordError::Read {
        path: path.to_path_buf(),
        source,
    };
    let file = std::fs::File::open(path).map_err(read)?;
    // The mode of the file opened, not of whatever the path names a moment later.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = file.metadata().map_err(read)?.permissions().mode() & 0o777;
        if mode & 0o077 != 0 {
            return Err(PasswordError::Exposed {
                path: path.to_path_buf(),
                mode,
            });
        }
    }
    let mut bytes = Vec::new();
    file.take(MAX_PASSWORD_FILE)
        .read_to_end(&mut bytes)
        .map_err(read)?;
    let text = String::from_utf8(bytes).map_err(|_| PasswordError::FileNotText {
        path: path.to_path_buf(),
    })?;
    // Editors end a file with a newline; it is not part of the password.
    let text = text.strip_suffix('\n').unwrap_or(&text);
    let text = text.strip_suffix('\r').unwrap_or(text);
    Ok(text.to_string())
}

/// What the bot looks for in the lobby.
fn seek(args: &BotArgs) -> Result<Seek, BotError> {
    let boards = Boards::of(&args.board).map_err(|side| {
        BotError::Setting(format!(
            "--board {side}: the server's boards are 7, 11 and 13"
        ))
    })?;
    Ok(if let Some(side) = args.new_game {
        let board = match args.board[..] {
            [] => 11,
            [board] => board,
            _ => {
                return Err(BotError::Setting(
                    "--board: --new-game offers one board size at a time".into(),
                ));
            }
        };
        let (main, increment) = args.tc;
        let clock = if args.untimed {
            Clock::Untimed
        } else {
            Clock::Fischer { main, increment }
        };
        Seek::Offer(Offer {
            side: match side {
                SideArg::Attacker => Side::Attackers,
                SideArg::Defender => Side::Defenders,
            },
            rated: !args.unrated,
            clock,
            board,
        })
    } else if let Some(id) = args.join {
        Seek::Join(id)
    } else if args.join_any {
        Seek::JoinAny(if args.board.is_empty() {
            Boards::all()
        } else {
            boards
        })
    } else if !args.board.is_empty() {
        return Err(BotError::Setting(
            "--board: needs --new-game or --join-any".into(),
        ));
    } else {
        Seek::Nothing
    })
}

pub fn bot(args: BotArgs) -> Result<(), CliError> {
    let seek = seek(&args)?;
    let password = password(&args)?;
    let games = args.games.or(matches!(seek, Seek::Join(_)).then_some(1));
    let config = BotConfig {
        server: args.server,
        username: args.username,
        password,
        create_account: args.create_account,
        version_id: args.version_id,
        seek,
        games,
        max_active: args.max_active,
        engine: Options {
            threads: args.threads,
            hash_mb: args.hash,
            level: args.level,
            ..Options::default()
        },
        movetime: args.movetime.map(Duration::from_millis),
    };
    Ok(hnefi::bot::run(config)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks() {
        assert_eq!(
            parse_tc("1:00+1"),
            Ok((Duration::from_secs(60), Duration::from_secs(1)))
        );
        assert_eq!(
            parse_tc("15:00+10"),
            Ok((Duration::from_secs(900), Duration::from_secs(10)))
        );
        for bad in [
            "",
            "15",
            "15+10",
            "1:60+1",
            "0:00+5",
            "a:00+1",
            "1:00+-1",
            "99999999999:00+1",
        ] {
            assert!(parse_tc(bad).is_err(), "{bad}");
        }
    }
}
