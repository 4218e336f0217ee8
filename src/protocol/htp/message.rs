//! The hnefatafl text protocol's messages, read and written the same way by Hnefi's engine loop
//! and by the match runner that drives other engines: commands (`play attacker d1 d3`) and
//! replies (`= <result>` or `? <error>`). Squares are separate tokens, `#` starts a comment.

use crate::board::square::SquareError;
use crate::board::{Bitboard, Move, Square};
use crate::board::{Geometry, Outcome, Side};
use crate::protocol::LineError;
use crate::protocol::io::command_words;
use crate::protocol::number::{NumberError, parse_amount, truncate};
use crate::search::SideClock;
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// Every command, as `list_commands` gives them.
pub const COMMANDS: [&str; 14] = [
    "protocol_version",
    "name",
    "version",
    "list_commands",
    "known_command",
    "board_size",
    "first_move",
    "time_settings",
    "play",
    "generate_move",
    "play_undo",
    "final_status",
    "show_board",
    "quit",
];

/// A side as the protocol names it.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Role(pub Side);

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self.0 {
            Side::Attackers => "attacker",
            Side::Defenders => "defender",
        })
    }
}

impl FromStr for Role {
    type Err = MessageError;

    /// `attacker` or `defender`, also `a`/`d`, plurals, and the reference program's colours.
    fn from_str(word: &str) -> Result<Role, MessageError> {
        match word.to_ascii_lowercase().as_str() {
            "attacker" | "attackers" | "a" | "black" => Ok(Role(Side::Attackers)),
            "defender" | "defenders" | "d" | "white" => Ok(Role(Side::Defenders)),
            _ => Err(MessageError::Role(truncate(word))),
        }
    }
}

/// What a side does on its turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action<G: Geometry> {
    Move(Move<G>),
    /// The side gives the game up.
    Resigns,
}

/// `play ROLE FROM TO` or `play ROLE resigns`: a turn the host tells the engine of, and the
/// body of the engine's answer to `generate_move`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Play<G: Geometry> {
    pub side: Side,
    pub action: Action<G>,
}

impl<G: Geometry> fmt::Display for Play<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.action {
            Action::Move(mv) => write!(f, "play {} {} {}", Role(self.side), mv.from(), mv.to()),
            Action::Resigns => write!(f, "play {} resigns", Role(self.side)),
        }
    }
}

impl<G: Geometry> FromStr for Play<G> {
    type Err = MessageError;

    /// Words after the destination (or after `resigns`) are ignored: relayed moves and the
    /// reference engine's resignation may carry more.
    fn from_str(text: &str) -> Result<Play<G>, MessageError> {
        let words: Vec<&str> = text.split_whitespace().collect();
        if words.first() != Some(&"play") {
            return Err(MessageError::NotPlay(truncate(text)));
        }
        let side = words
            .get(1)
            .ok_or(MessageError::PlayRole)?
            .parse::<Role>()
            .map_err(|_| MessageError::PlayRole)?
            .0;
        let action = match words[2..] {
            ["resigns", ..] => Action::Resigns,
            [from, to, ..] => {
                let from = Square::parse(from).map_err(MessageError::From)?;
                let to = Square::parse(to).map_err(MessageError::To)?;
                if from == to {
                    return Err(MessageError::SameSquare);
                }
                Action::Move(Move::new(from, to))
            }
            _ => return Err(MessageError::PlayWords),
        };
        Ok(Play { side, action })
    }
}

/// `time_settings`: no clock, or the same Fischer clock for both sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeSettings {
    Untimed,
    Fischer { minutes: u64, seconds: u64 },
}

impl TimeSettings {
    /// The protocol's words for a time control, which it can only say in whole minutes of
    /// main time and whole seconds of increment; `Untimed` for any other.
    pub fn of(control: Option<SideClock>) -> TimeSettings {
        match control {
            Some(SideClock { left, inc })
                if left.as_secs() % 60 == 0
                    && left.subsec_nanos() == 0
                    && inc.subsec_nanos() == 0 =>
            {
                TimeSettings::Fischer {
                    minutes: left.as_secs() / 60,
                    seconds: inc.as_secs(),
                }
            }
            _ => TimeSettings::Untimed,
        }
    }

    /// Each side's clock at the start. A clock too large to hold saturates: more than 584
    /// billion years is as good as endless.
    pub fn clock(self) -> Option<SideClock> {
        match self {
            TimeSettings::Untimed => None,
            TimeSettings::Fischer { minutes, seconds } => Some(SideClock::new(
                Duration::from_secs(minutes.saturating_mul(60)),
                Duration::from_secs(seconds),
            )),
        }
    }
}

impl fmt::Display for TimeSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeSettings::Untimed => f.write_str("un-timed"),
            TimeSettings::Fischer { minutes, seconds } => write!(f, "fischer {minutes} {seconds}"),
        }
    }
}

/// What a host asks of an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HtpCommand<G: Geometry> {
    ProtocolVersion,
    Name,
    Version,
    ListCommands,
    KnownCommand(Option<String>),
    BoardSize(u64),
    FirstMove,
    TimeSettings(TimeSettings),
    Play(Play<G>),
    /// The side to move, which the host may name.
    GenerateMove(Option<Side>),
    PlayUndo,
    FinalStatus,
    ShowBoard,
    Quit,
}

impl<G: Geometry> fmt::Display for HtpCommand<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HtpCommand::ProtocolVersion => f.write_str("protocol_version"),
            HtpCommand::Name => f.write_str("name"),
            HtpCommand::Version => f.write_str("version"),
            HtpCommand::ListCommands => f.write_str("list_commands"),
            HtpCommand::KnownCommand(None) => f.write_str("known_command"),
            HtpCommand::KnownCommand(Some(c)) => write!(f, "known_command {c}"),
            HtpCommand::BoardSize(n) => write!(f, "board_size {n}"),
            HtpCommand::FirstMove => f.write_str("first_move"),
            HtpCommand::TimeSettings(t) => write!(f, "time_settings {t}"),
            HtpCommand::Play(p) => p.fmt(f),
            HtpCommand::GenerateMove(None) => f.write_str("generate_move"),
            HtpCommand::GenerateMove(Some(side)) => write!(f, "generate_move {}", Role(*side)),
            HtpCommand::PlayUndo => f.write_str("play_undo"),
            HtpCommand::FinalStatus => f.write_str("final_status"),
            HtpCommand::ShowBoard => f.write_str("show_board"),
            HtpCommand::Quit => f.write_str("quit"),
        }
    }
}

impl<G: Geometry> FromStr for HtpCommand<G> {
    type Err = MessageError;

    /// One line; a comment after `#` is dropped first, and a line with nothing else is
    /// [`MessageError::Empty`].
    fn from_str(line: &str) -> Result<HtpCommand<G>, MessageError> {
        let text = line.split('#').next().unwrap_or_default().trim();
        let (word, args) = command_words::<MessageError>(text)?;
        let args = &args[..];
        Ok(match word {
            "protocol_version" => HtpCommand::ProtocolVersion,
            "name" => HtpCommand::Name,
            "version" => HtpCommand::Version,
            "list_commands" => HtpCommand::ListCommands,
            "known_command" => HtpCommand::KnownCommand(args.first().map(|c| c.to_string())),
            "board_size" => {
                let size = args.first().ok_or(MessageError::BoardSize)?;
                HtpCommand::BoardSize(parse_amount(size).map_err(MessageError::Size)?)
            }
            "first_move" => HtpCommand::FirstMove,
            "time_settings" => HtpCommand::TimeSettings(match args {
                ["un-timed"] => TimeSettings::Untimed,
                ["fischer", minutes, seconds] => TimeSettings::Fischer {
                    minutes: parse_amount(minutes).map_err(MessageError::Minutes)?,
                    seconds: parse_amount(seconds).map_err(MessageError::Seconds)?,
                },
                _ => return Err(MessageError::TimeSettings),
            }),
            "play" => HtpCommand::Play(text.parse()?),
            "generate_move" => HtpCommand::GenerateMove(match args.first() {
                Some(role) => Some(role.parse::<Role>()?.0),
                None => None,
            }),
            "play_undo" => HtpCommand::PlayUndo,
            "final_status" => HtpCommand::FinalStatus,
            "show_board" => HtpCommand::ShowBoard,
            "quit" => HtpCommand::Quit,
            other => return Err(MessageError::Unknown(truncate(other))),
        })
    }
}

/// How the game stands, for `final_status`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Ongoing,
    Won(Side),
    Draw,
}

impl From<Option<Outcome>> for Status {
    fn from(outcome: Option<Outcome>) -> Status {
        match outcome.map(|o| o.winner) {
            None => Status::Ongoing,
            Some(Some(side)) => Status::Won(side),
            Some(None) => Status::Draw,
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Status::Ongoing => "ongoing",
            Status::Won(Side::Attackers) => "attacker_wins",
            Status::Won(Side::Defenders) => "defender_wins",
            Status::Draw => "draw",
        })
    }
}

/// The result of a command that succeeded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer<G: Geometry> {
    /// Nothing to say (also a move that captured nothing).
    Empty,
    /// `known_command`.
    Known(bool),
    /// `first_move`.
    Role(Side),
    /// The squares a `play` captured, each followed by a space.
    Captures(Bitboard<G>),
    /// `generate_move`.
    Play(Play<G>),
    /// `final_status`.
    Status(Status),
    /// Names, versions, lists and boards.
    Text(String),
}

impl<G: Geometry> fmt::Display for Answer<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Answer::Empty => Ok(()),
            Answer::Known(known) => known.fmt(f),
            Answer::Role(side) => Role(*side).fmt(f),
            Answer::Captures(squares) => squares.into_iter().try_for_each(|s| write!(f, "{s} ")),
            Answer::Play(play) => play.fmt(f),
            Answer::Status(status) => status.fmt(f),
            Answer::Text(text) => f.write_str(text),
        }
    }
}

impl<G: Geometry> Answer<G> {
    /// The answer in `text`, the first kind that reads it whole, in the order above (the
    /// reference engine follows a generated move with `, score: ...`, which is dropped).
    fn read(text: &str) -> Answer<G> {
        let text = text.trim();
        if text.starts_with("play ") {
            let play = text.split(',').next().unwrap_or_default();
            if let Ok(play) = play.parse() {
                return Answer::Play(play);
            }
        }
        let status = [
            Status::Ongoing,
            Status::Won(Side::Attackers),
            Status::Won(Side::Defenders),
            Status::Draw,
        ]
        .into_iter()
        .find(|s| s.to_string() == text);
        let squares: Result<Bitboard<G>, SquareError> =
            text.split_whitespace().map(Square::parse).collect();
        match (text, status, squares) {
            ("", ..) => Answer::Empty,
            ("true", ..) => Answer::Known(true),
            ("false", ..) => Answer::Known(false),
            ("attacker", ..) => Answer::Role(Side::Attackers),
            ("defender", ..) => Answer::Role(Side::Defenders),
            (_, Some(status), _) => Answer::Status(status),
            (_, None, Ok(squares)) => Answer::Captures(squares),
            _ => Answer::Text(text.to_string()),
        }
    }
}

/// An engine's reply to a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply<G: Geometry> {
    /// `= <answer>`
    Success(Answer<G>),
    /// `? <why>`
    Failure(String),
}

impl<G: Geometry> fmt::Display for Reply<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::Success(answer) => write!(f, "= {answer}"),
            Reply::Failure(why) => write!(f, "? {why}"),
        }
    }
}

impl<G: Geometry> FromStr for Reply<G> {
    type Err = MessageError;

    fn from_str(line: &str) -> Result<Reply<G>, MessageError> {
        let line = line.trim();
        if let Some(answer) = line.strip_prefix('=') {
            Ok(Reply::Success(Answer::read(answer)))
        } else if let Some(why) = line.strip_prefix('?') {
            Ok(Reply::Failure(why.trim().to_string()))
        } else {
            Err(MessageError::NotReply(truncate(line)))
        }
    }
}

/// Why a line is not a message of the protocol.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MessageError {
    #[error("empty command")]
    Empty,
    #[error("line of {0} bytes is too long")]
    TooLong(usize),
    #[error("unknown command '{0}'")]
    Unknown(String),
    #[error("board_size needs a size")]
    BoardSize,
    #[error("board_size: {0}")]
    Size(NumberError),
    #[error("time_settings takes 'un-timed' or 'fischer MINUTES SECONDS'")]
    TimeSettings,
    #[error("time_settings: minutes of main time: {0}")]
    Minutes(NumberError),
    #[error("time_settings: seconds of increment: {0}")]
    Seconds(NumberError),
    #[error("'{0}' is not a role: attacker or defender")]
    Role(String),
    #[error("play needs a role: attacker or defender")]
    PlayRole,
    #[error("play needs ROLE FROM TO")]
    PlayWords,
    #[error("from: {0}")]
    From(SquareError),
    #[error("to: {0}")]
    To(SquareError),
    #[error("from and to are the same square")]
    SameSquare,
    #[error("'{0}' is not a play command")]
    NotPlay(String),
    #[error("'{0}' is not a reply ('= ...' or '? ...')")]
    NotReply(String),
}

impl LineError for MessageError {
    const BLANK: MessageError = MessageError::Empty;
    const TOO_LONG: fn(usize) -> MessageError = MessageError::TooLong;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::testing::assert_round_trips;
    use crate::search::size::Standard;

    fn sq(s: &str) -> crate::board::Square<Standard> {
        Square::parse(s).unwrap()
    }

    #[test]
    fn commands_read_back_what_they_write() {
        let play = Play {
            side: Side::Defenders,
            action: Action::Move(Move::new(sq("e5"), sq("e2"))),
        };
        assert_round_trips([
            HtpCommand::ProtocolVersion,
            HtpCommand::KnownCommand(Some("play".into())),
            HtpCommand::KnownCommand(None),
            HtpCommand::BoardSize(11),
            HtpCommand::TimeSettings(TimeSettings::Untimed),
            HtpCommand::TimeSettings(TimeSettings::Fischer {
                minutes: 5,
                seconds: 3,
            }),
            HtpCommand::Play(play),
            HtpCommand::Play(Play {
                side: Side::Attackers,
                action: Action::<crate::search::size::Standard>::Resigns,
            }),
            HtpCommand::GenerateMove(Some(Side::Attackers)),
            HtpCommand::GenerateMove(None),
            HtpCommand::Quit,
        ]);
        assert_eq!(play.to_string(), "play defender e5 e2");
        assert_eq!(
            "play a e5 e2 # relayed".parse::<HtpCommand<crate::search::size::Standard>>(),
            Ok(HtpCommand::Play(Play {
                side: Side::Attackers,
                ..play
            }))
        );
    }

    #[test]
    fn bad_commands_say_what_is_wrong() {
        let e = |t: &str| {
            t.parse::<HtpCommand<crate::search::size::Standard>>()
                .unwrap_err()
                .to_string()
        };
        assert_eq!(e("  # only a comment"), "empty command");
        assert_eq!(e("dance"), "unknown command 'dance'");
        assert_eq!(
            e("play wizard f4 f3"),
            "play needs a role: attacker or defender"
        );
        assert_eq!(e("play defender f4"), "play needs ROLE FROM TO");
        assert!(e("play defender z9 z1").starts_with("from: "));
        assert_eq!(e("play defender f4 f4"), "from and to are the same square");
        assert_eq!(
            e("time_settings fischer -1 5"),
            "time_settings: minutes of main time: '-1' is negative; it must be zero or more"
        );
        assert!(e("time_settings fischer 5 x").contains("seconds of increment"));
        assert!(e("time_settings sudden").contains("'un-timed' or 'fischer"));
        assert_eq!(e("board_size"), "board_size needs a size");
        assert!(e("generate_move nobody").contains("not a role"));
    }

    #[test]
    fn replies_read_back_what_they_write() {
        let play = Play {
            side: Side::Attackers,
            action: Action::Move(Move::new(sq("d1"), sq("d3"))),
        };
        assert_round_trips([
            Reply::Success(Answer::Empty),
            Reply::Success(Answer::Known(true)),
            Reply::Success(Answer::Role(Side::Attackers)),
            Reply::Success(Answer::Captures([sq("e2"), sq("f3")].into_iter().collect())),
            Reply::Success(Answer::Play(play)),
            Reply::Success(Answer::Status(Status::Won(Side::Defenders))),
            Reply::Success(Answer::Text("1-beta".into())),
            Reply::Failure("it is the defenders' turn".into()),
        ]);
        assert_eq!(
            Reply::Success(Answer::Captures([sq("e2")].into_iter().collect())).to_string(),
            "= e2 "
        );
        assert_eq!(
            "= play attacker d1 d3, score: 12".parse(),
            Ok(Reply::Success(Answer::Play(play)))
        );
        assert_eq!(
            "= play defender resigns now".parse(),
            Ok(Reply::Success(Answer::Play(Play {
                side: Side::Defenders,
                action: Action::<crate::search::size::Standard>::Resigns
            })))
        );
        assert!(
            "thinking..."
                .parse::<Reply<crate::search::size::Standard>>()
                .is_err()
        );
    }

    #[test]
    fn time_settings_say_whole_minutes_and_seconds_only() {
        let s = Duration::from_secs;
        assert_eq!(
            TimeSettings::of(Some(SideClock::new(s(300), s(3)))),
            TimeSettings::Fischer {
                minutes: 5,
                seconds: 3
            }
        );
        assert_eq!(
            TimeSettings::of(Some(SideClock::new(s(90), s(0)))),
            TimeSettings::Untimed
        );
        assert_eq!(TimeSettings::of(None), TimeSettings::Untimed);
        let huge = TimeSettings::Fischer {
            minutes: u64::MAX,
            seconds: 1,
        };
        assert_eq!(huge.clock().unwrap().left, Duration::from_secs(u64::MAX));
    }
}
