//! `hnefi bot`: the command line of the hnefatafl.org bot (`hnefi::bot`).

use clap::{ArgGroup, Args, ValueEnum};
use hnefi::board::Side;
use hnefi::bot::{Boards, BotConfig, BotError, Clock, Offer, Seek, VERSION_ID};
use hnefi::search::{Level, Options};
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
    /// The account's password (may be empty).
    #[arg(long, default_value = "")]
    pub password: String,
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
    let games = args.games.or(matches!(seek, Seek::Join(_)).then_some(1));
    let config = BotConfig {
        server: args.server,
        username: args.username,
        password: args.password,
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
