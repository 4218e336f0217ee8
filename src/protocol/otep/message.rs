//! OpenTafl's engine protocol's messages, read and written the same way by Hnefi's engine loop
//! and by the match runner that drives other engines. Positions are OpenTafl strings (rank 1
//! first, `t` `T` `K`), which carry no side to move: a board read from one has the attackers
//! to move until the reader knows better. Moves are `d1-d3`, captures `xe2`.

use super::rules::{RulesError, parse_rules};
use crate::board::NotationError;
use crate::board::notation::to_opentafl;
use crate::board::opentafl::{Variant, rules_string};
use crate::board::{Bitboard, Board, Move, Square};
use crate::board::{Geometry, Outcome, Side};
use crate::protocol::LineError;
use crate::protocol::io::command_words;
use crate::protocol::number::{NumberError, parse_amount, parse_clock, truncate};
use crate::search::{Clock, SideClock};
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// The clocks as the host reports them before asking for a move. OpenTafl's clocks have main
/// time and then overtime periods (byo-yomi) of `overtime_s` each; a side whose main time is
/// spent is reported with the time left in its current period, marked `*`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockReport {
    /// Main time left in ms (in overtime: the period's time left), attackers first.
    pub main_ms: [u64; 2],
    /// Whether the side's main time is spent, attackers first.
    pub in_overtime: [bool; 2],
    /// Length of an overtime period in seconds.
    pub overtime_s: u64,
    /// Overtime periods left, attackers first.
    pub overtimes: [u64; 2],
}

impl ClockReport {
    /// The report of `clock`, which must run for both sides (see [`Clock::shown_to`]).
    /// OpenTafl's protocol has no word for an increment; a Fischer clock with left `L` and
    /// increment `I` is told as main time `L - I` and one overtime period of `I` (whole
    /// seconds, the smaller side's): what the engine may spend now is `L` either way, and the
    /// period is what it may spend on every move. OpenTafl's AI paces itself by its overtime
    /// and, told a clock without any, may think longer than the clock allows. Without an
    /// increment of a second or more the report has no overtime, as OpenTafl's host sends it.
    pub fn of(clock: Clock) -> ClockReport {
        let ms = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
        let sides = [Side::Attackers, Side::Defenders].map(|s| clock.side(s).unwrap_or_default());
        let overtime_s = sides.iter().map(|c| c.inc.as_secs()).min().unwrap_or(0);
        let period = overtime_s.saturating_mul(1000);
        let left = sides.map(|c| ms(c.left));
        if period == 0 {
            return ClockReport {
                main_ms: left,
                in_overtime: [false; 2],
                overtime_s: 0,
                overtimes: [0, 0],
            };
        }
        ClockReport {
            main_ms: left.map(|l| if l > period { l - period } else { l }),
            in_overtime: left.map(|l| l <= period),
            overtime_s,
            overtimes: [1, 1],
        }
    }

    /// What the engine plays on: a side with overtime left may spend its main time and one
    /// period now, and at least a period on every later move, which is a Fischer clock with the
    /// period as increment.
    pub fn clock(self) -> Clock {
        let side = |i: usize| {
            let main = Duration::from_millis(self.main_ms[i]);
            let period = Duration::from_secs(self.overtime_s);
            if self.overtimes[i] == 0 || period.is_zero() {
                return Some(SideClock::new(main, Duration::ZERO));
            }
            let now = if self.in_overtime[i] {
                main
            } else {
                main.saturating_add(period)
            };
            Some(SideClock::new(now, period))
        };
        Clock::new(side(0), side(1))
    }
}

/// How a game ended, as `finish` says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finish {
    NoResult,
    Draw,
    Won(Side),
}

impl Finish {
    fn code(self) -> u8 {
        match self {
            Finish::NoResult => 0,
            Finish::Draw => 1,
            Finish::Won(Side::Attackers) => 2,
            Finish::Won(Side::Defenders) => 3,
        }
    }
}

impl From<Option<Outcome>> for Finish {
    fn from(outcome: Option<Outcome>) -> Finish {
        match outcome.map(|o| o.winner) {
            None => Finish::NoResult,
            Some(None) => Finish::Draw,
            Some(Some(side)) => Finish::Won(side),
        }
    }
}

/// The opponent's move, with the captures it made and the position after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpponentMove<G: Geometry> {
    pub mv: Move<G>,
    /// As far as they could be read: Hnefi works them out itself.
    pub captures: Bitboard<G>,
    pub position: Option<Board<G>>,
}

/// What a host tells an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OtepCommand<G: Geometry> {
    /// `hello`, `start` or `simple-moves`: words taken without anything to do.
    Noop(&'static str),
    /// The rules and the start, on a board of any size: a game on another board than the
    /// loop's is handed to the loop of that size.
    Rules(Variant),
    Position(Board<G>),
    Side(Side),
    Clock(ClockReport),
    /// Asks the side for a move.
    Play(Side),
    OpponentMove(OpponentMove<G>),
    /// Confirms the engine's move with the position after it.
    Move(Board<G>),
    /// The engine's last move was refused.
    Error(i64),
    /// The best `lines` lines after thinking `seconds`.
    Analyze {
        lines: u64,
        seconds: u64,
    },
    Finish(Finish),
    Goodbye,
}

fn position<G: Geometry>(text: &str) -> Result<Board<G>, NotationError<G>> {
    Board::from_opentafl(text, Side::Attackers)
}

fn side(word: Option<&&str>) -> Option<Side> {
    match word.copied() {
        Some("attackers") => Some(Side::Attackers),
        Some("defenders") => Some(Side::Defenders),
        _ => None,
    }
}

/// A move as OpenTafl writes it: a piece letter may come first (`Td1-d3`, but `k8-f8` starts
/// on file k), captures after it in any form.
fn opentafl_move<G: Geometry>(text: &str) -> Result<(Move<G>, Bitboard<G>), NotationError<G>> {
    let mut chars = text.chars();
    let text = match (chars.next(), chars.next()) {
        (Some(p), Some(f)) if p.is_alphabetic() && f.is_alphabetic() => &text[p.len_utf8()..],
        _ => text,
    };
    let (body, captures) = text.split_once(['x', 'X']).unwrap_or((text, ""));
    let captures = captures
        .split(['x', 'X', '/'])
        .filter_map(|s| Square::parse(s).ok())
        .collect();
    Ok((Move::parse(body)?, captures))
}

impl<G: Geometry> fmt::Display for OtepCommand<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OtepCommand::Noop(word) => f.write_str(word),
            OtepCommand::Rules(variant) => {
                write!(f, "rules {}", rules_string(&variant.rules, &variant.start))
            }
            OtepCommand::Position(board) => write!(f, "position {}", to_opentafl(board)),
            OtepCommand::Side(side) => write!(f, "side {side}"),
            // The OpenTafl host ends the line with a space.
            OtepCommand::Clock(c) => {
                let star = |i: usize| if c.in_overtime[i] { "*" } else { "" };
                write!(
                    f,
                    "clock {}{} {}{} {} {} {} ",
                    c.main_ms[0],
                    star(0),
                    c.main_ms[1],
                    star(1),
                    c.overtime_s,
                    c.overtimes[0],
                    c.overtimes[1]
                )
            }
            OtepCommand::Play(side) => write!(f, "play {side}"),
            OtepCommand::OpponentMove(m) => {
                write!(f, "opponent-move {}-{}", m.mv.from(), m.mv.to())?;
                // OpenTafl writes captures `xe2/g2` and reads at most four; it works them out
                // itself from the move, so more go unsaid.
                if (1..=4).contains(&m.captures.count()) {
                    let squares: Vec<String> =
                        m.captures.into_iter().map(|s| s.to_string()).collect();
                    write!(f, "x{}", squares.join("/"))?;
                }
                match &m.position {
                    Some(board) => write!(f, " {}", to_opentafl(board)),
                    None => Ok(()),
                }
            }
            OtepCommand::Move(board) => write!(f, "move {}", to_opentafl(board)),
            OtepCommand::Error(code) => write!(f, "error {code}"),
            OtepCommand::Analyze { lines, seconds } => write!(f, "analyze {lines} {seconds}"),
            OtepCommand::Finish(finish) => write!(f, "finish {}", finish.code()),
            OtepCommand::Goodbye => f.write_str("goodbye"),
        }
    }
}

impl<G: Geometry> FromStr for OtepCommand<G> {
    type Err = MessageError<G>;

    /// One line; a blank one is [`MessageError::Empty`].
    fn from_str(line: &str) -> Result<OtepCommand<G>, MessageError<G>> {
        let (word, args) = command_words::<MessageError<G>>(line)?;
        // Numbered as the line's words, the command's name being word 0.
        let arg = |i: usize| args.get(i - 1).copied();
        Ok(match word {
            "hello" => OtepCommand::Noop("hello"),
            "start" => OtepCommand::Noop("start"),
            "simple-moves" => OtepCommand::Noop("simple-moves"),
            "rules" => OtepCommand::Rules(parse_rules(&args.join(" "))?),
            "position" => OtepCommand::Position(
                position(arg(1).ok_or(MessageError::NoPosition("position"))?)
                    .map_err(|e| MessageError::Position("position", e))?,
            ),
            "side" => OtepCommand::Side(side(args.first()).ok_or(MessageError::Side("side"))?),
            "clock" => {
                let (Some(att), Some(def)) = (arg(1), arg(2)) else {
                    return Err(MessageError::ClockTimes);
                };
                // A trailing '*' marks main time spent (overtime running).
                let main =
                    |w: &str| parse_clock(w.trim_end_matches('*')).map_err(MessageError::Clock);
                let more =
                    |i| arg(i).map_or(Ok(0), |w| parse_amount(w).map_err(MessageError::Clock));
                OtepCommand::Clock(ClockReport {
                    main_ms: [main(att)?, main(def)?],
                    in_overtime: [att.ends_with('*'), def.ends_with('*')],
                    overtime_s: more(3)?,
                    overtimes: [more(4)?, more(5)?],
                })
            }
            "play" => OtepCommand::Play(side(args.first()).ok_or(MessageError::Side("play"))?),
            "opponent-move" => {
                let text = arg(1).ok_or(MessageError::NoMove)?;
                let (mv, captures) = opentafl_move(text).map_err(MessageError::OpponentMove)?;
                let position = match arg(2) {
                    Some(p) => {
                        Some(position(p).map_err(|e| MessageError::Position("opponent-move", e))?)
                    }
                    None => None,
                };
                OtepCommand::OpponentMove(OpponentMove {
                    mv,
                    captures,
                    position,
                })
            }
            "move" => OtepCommand::Move(
                position(arg(1).ok_or(MessageError::NoPosition("move"))?)
                    .map_err(|e| MessageError::Position("move", e))?,
            ),
            "error" => {
                let code = arg(1).unwrap_or_default();
                OtepCommand::Error(
                    code.parse()
                        .map_err(|_| MessageError::ErrorCode(truncate(code)))?,
                )
            }
            "analyze" => {
                let number = |i, default, what| {
                    arg(i).map_or(Ok(default), |w| {
                        parse_amount(w).map_err(|e| MessageError::Analyze(what, e))
                    })
                };
                OtepCommand::Analyze {
                    lines: number(1, 1, "lines")?,
                    seconds: number(2, 5, "seconds")?,
                }
            }
            "finish" => OtepCommand::Finish(match arg(1) {
                Some("0") => Finish::NoResult,
                Some("1") => Finish::Draw,
                Some("2") => Finish::Won(Side::Attackers),
                Some("3") => Finish::Won(Side::Defenders),
                other => return Err(MessageError::FinishCode(truncate(other.unwrap_or("")))),
            }),
            // `quit` for people, who leave every protocol with it.
            "goodbye" | "quit" => OtepCommand::Goodbye,
            other => return Err(MessageError::Unknown(truncate(other))),
        })
    }
}

/// One line of an analysis: its moves and its score in cp for the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnalysisLine<G: Geometry> {
    pub pv: Vec<Move<G>>,
    pub score: i32,
}

/// The code of an engine's error after which the game cannot go on.
pub const CRITICAL: i64 = -1;
/// The code of an engine's error that the host shows before going on.
pub const NOT_CRITICAL: i64 = 0;

/// What an engine tells a host.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply<G: Geometry> {
    Hello,
    /// The engine's move, plain from-to: OpenTafl's reader takes at most four captures.
    Move(Move<G>),
    /// Anything for people: progress, problems. The host ignores it.
    Status(String),
    /// `error CODE MESSAGE`: the host shows the message; for [`CRITICAL`] it then ends the
    /// game (OpenTafl's host resigns it for the engine), for [`NOT_CRITICAL`] it goes on.
    Error {
        code: i64,
        message: String,
    },
    Analysis(Vec<AnalysisLine<G>>),
}

impl<G: Geometry> fmt::Display for Reply<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::Hello => f.write_str("hello"),
            Reply::Move(mv) => write!(f, "move {}-{}", mv.from(), mv.to()),
            Reply::Status(text) => write!(f, "status {text}"),
            Reply::Error { code, message } if message.is_empty() => write!(f, "error {code}"),
            Reply::Error { code, message } => write!(f, "error {code} {message}"),
            Reply::Analysis(lines) => {
                write!(f, "analysis {}", lines.len())?;
                for line in lines {
                    let pv: Vec<String> = line
                        .pv
                        .iter()
                        .map(|m| format!("{}-{}", m.from(), m.to()))
                        .collect();
                    write!(f, " {} {}", pv.join("|"), line.score)?;
                }
                Ok(())
            }
        }
    }
}

impl<G: Geometry> FromStr for Reply<G> {
    type Err = ReplyError<G>;

    fn from_str(line: &str) -> Result<Reply<G>, ReplyError<G>> {
        let line = line.trim();
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        match word {
            "hello" => Ok(Reply::Hello),
            "move" => opentafl_move(rest)
                .map(|(mv, _)| Reply::Move(mv))
                .map_err(|error| ReplyError::Move {
                    text: truncate(rest),
                    error,
                }),
            "status" => Ok(Reply::Status(rest.to_string())),
            "error" => {
                let (code, message) = rest.split_once(' ').unwrap_or((rest, ""));
                code.parse()
                    .map(|code| Reply::Error {
                        code,
                        message: message.trim().to_string(),
                    })
                    .map_err(|_| ReplyError::Unknown(truncate(line)))
            }
            "analysis" => analysis(rest).ok_or_else(|| ReplyError::Unknown(truncate(line))),
            _ => Err(ReplyError::Unknown(truncate(line))),
        }
    }
}

fn analysis<G: Geometry>(text: &str) -> Option<Reply<G>> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let (count, pairs) = words.split_first()?;
    if count.parse::<usize>().ok()? * 2 != pairs.len() {
        return None;
    }
    let lines = pairs
        .chunks(2)
        .map(|pair| {
            Some(AnalysisLine {
                pv: pair[0]
                    .split('|')
                    .map(|m| Move::parse(m).ok())
                    .collect::<Option<_>>()?,
                score: pair[1].parse().ok()?,
            })
        })
        .collect::<Option<_>>()?;
    Some(Reply::Analysis(lines))
}

/// Why a line is not a command.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MessageError<G: Geometry> {
    #[error("empty line")]
    Empty,
    #[error("line of {0} bytes ignored")]
    TooLong(usize),
    #[error("unknown command '{0}'")]
    Unknown(String),
    #[error(transparent)]
    Rules(#[from] RulesError),
    #[error("{0} needs a position")]
    NoPosition(&'static str),
    #[error("{0}: {1}")]
    Position(&'static str, NotationError<G>),
    #[error("{0} needs attackers or defenders")]
    Side(&'static str),
    #[error("clock needs the attackers' and defenders' ms")]
    ClockTimes,
    #[error("clock: {0}")]
    Clock(NumberError),
    #[error("opponent-move needs a move")]
    NoMove,
    #[error("opponent-move: {0}")]
    OpponentMove(NotationError<G>),
    #[error("error: '{0}' is not a code")]
    ErrorCode(String),
    #[error("analyze: {0}: {1}")]
    Analyze(&'static str, NumberError),
    #[error("finish: '{0}' is not 0, 1, 2 or 3")]
    FinishCode(String),
}

impl<G: Geometry> LineError for MessageError<G> {
    const BLANK: MessageError<G> = MessageError::Empty;
    const TOO_LONG: fn(usize) -> MessageError<G> = MessageError::TooLong;
}

/// Why a line from an engine is not a reply a host reads.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplyError<G: Geometry> {
    #[error("'{0}' is not a reply")]
    Unknown(String),
    #[error("move '{text}': {error}")]
    Move {
        text: String,
        error: NotationError<G>,
    },
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::testing::{assert_round_trips, mv};
    use crate::search::size::Standard;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn commands_read_back_what_they_write() {
        let start = Board::start();
        let mut after = start;
        let rules = crate::board::Rules::default();
        let captured = after.play(mv("d1-d3"), &crate::board::Rulebook::new(rules));
        assert_round_trips([
            OtepCommand::Noop("hello"),
            OtepCommand::Position(start),
            OtepCommand::Side(Side::Defenders),
            OtepCommand::Clock(ClockReport {
                main_ms: [300_000, 5],
                in_overtime: [false, true],
                overtime_s: 30,
                overtimes: [3, 2],
            }),
            OtepCommand::Play(Side::Attackers),
            OtepCommand::OpponentMove(OpponentMove {
                mv: mv("d1-d3"),
                captures: captured,
                position: Some(after.with_side_to_move(Side::Attackers)),
            }),
            OtepCommand::Move(start),
            OtepCommand::Error(-1),
            OtepCommand::Analyze {
                lines: 3,
                seconds: 10,
            },
            OtepCommand::Finish(Finish::Won(Side::Defenders)),
            OtepCommand::Goodbye,
        ]);
        assert_eq!("quit".parse(), Ok(OtepCommand::<Standard>::Goodbye));
        // Rules strings say the flags, not the preset's name.
        let variant = Variant {
            rules,
            start: to_opentafl(&start),
        };
        let text = OtepCommand::<Standard>::Rules(variant.clone()).to_string();
        assert!(
            matches!(text.parse(), Ok(OtepCommand::<Standard>::Rules(back)) if back.start == variant.start),
            "{text}"
        );
    }

    #[test]
    fn fischer_clocks_are_told_with_their_increment_as_overtime() {
        let side = |left_ms, inc_ms| Some(SideClock::new(ms(left_ms), ms(inc_ms)));
        let line =
            |a, d| OtepCommand::<Standard>::Clock(ClockReport::of(Clock::new(a, d))).to_string();
        // No increment of a whole second: no overtime, as OpenTafl's host sends such a clock.
        assert_eq!(line(side(2000, 0), side(2000, 0)), "clock 2000 2000 0 0 0 ");
        assert_eq!(
            line(side(2000, 900), side(2000, 900)),
            "clock 2000 2000 0 0 0 "
        );
        // Main time and one period of the increment add up to the time left.
        assert_eq!(
            line(side(61_500, 2000), side(59_000, 2000)),
            "clock 59500 57000 2 1 1 "
        );
        // Whole seconds of the smaller increment; a side with no more than a period left is in
        // overtime, told the time left in it.
        assert_eq!(
            line(side(3000, 3500), side(1500, 2000)),
            "clock 1000 1500* 2 1 1 "
        );
        // The engine reads back what it may spend now, and the period as its increment.
        let report = ClockReport::of(Clock::new(side(61_500, 2000), side(1500, 2000)));
        assert_eq!(
            report.clock(),
            Clock::new(side(61_500, 2000), side(1500, 2000))
        );
        // A host's clock with three 30 s periods: main time and one period now.
        let Ok(OtepCommand::Clock(host)) =
            "clock 300000 25000* 30 3 2 ".parse::<OtepCommand<Standard>>()
        else {
            panic!("a clock");
        };
        assert_eq!(
            host.clock(),
            Clock::new(side(330_000, 30_000), side(25_000, 30_000))
        );
    }

    #[test]
    fn the_hosts_moves_are_read_leniently() {
        let read = |t: &str| match t.parse::<OtepCommand<Standard>>().unwrap() {
            OtepCommand::OpponentMove(m) => (m.mv, m.captures.count()),
            other => panic!("{other:?}"),
        };
        assert_eq!(read("opponent-move Td1-d3"), (mv("d1d3"), 0));
        assert_eq!(read("opponent-move k8-f8xf7/g8"), (mv("k8f8"), 2));
        assert_eq!(read("opponent-move d1d3xe2xz99"), (mv("d1d3"), 1));
    }

    #[test]
    fn captures_are_told_as_opentafl_reads_them() {
        let told = |captures: &str| {
            let captures = captures
                .split_whitespace()
                .map(|s| Square::parse(s).unwrap())
                .collect();
            OtepCommand::OpponentMove(OpponentMove {
                mv: mv("j2-j4"),
                captures,
                position: None,
            })
            .to_string()
        };
        assert_eq!(told(""), "opponent-move j2-j4");
        assert_eq!(told("i4"), "opponent-move j2-j4xi4");
        assert_eq!(told("i4 j5"), "opponent-move j2-j4xi4/j5");
        assert_eq!(told("a2 a3 a4 a5"), "opponent-move j2-j4xa2/a3/a4/a5");
        assert_eq!(told("a2 a3 a4 a5 a6"), "opponent-move j2-j4");
        assert_eq!(
            "clock 1800* -5 0 0 0 ".parse::<OtepCommand<Standard>>(),
            Ok(OtepCommand::Clock(ClockReport {
                main_ms: [1800, 0],
                in_overtime: [true, false],
                overtime_s: 0,
                overtimes: [0, 0]
            }))
        );
    }

    #[test]
    fn bad_commands_say_what_is_wrong() {
        let e = |t: &str| t.parse::<OtepCommand<Standard>>().unwrap_err().to_string();
        assert_eq!(
            e("analyze -1 5"),
            "analyze: lines: '-1' is negative; it must be zero or more"
        );
        assert!(e("analyze 2 -5").starts_with("analyze: seconds: '-5' is negative"));
        assert_eq!(
            e("analyze two"),
            "analyze: lines: 'two' is not a whole number"
        );
        assert!(e("clock 1000 lots 0 0 0").starts_with("clock: "));
        assert_eq!(e("clock 5"), "clock needs the attackers' and defenders' ms");
        assert_eq!(e("play sideways"), "play needs attackers or defenders");
        assert!(e("position /junk/").starts_with("position: "));
        assert_eq!(e("opponent-move"), "opponent-move needs a move");
        assert_eq!(e("finish 7"), "finish: '7' is not 0, 1, 2 or 3");
        assert_eq!(e("probe"), "unknown command 'probe'");
        // Another board's rules are read whole: the loop of that size takes them.
        assert!(matches!(
            "rules dim:9 start:/9/".parse::<OtepCommand<Standard>>(),
            Ok(OtepCommand::Rules(v)) if v.rules.width == 9
        ));
        assert!(matches!(
            "rules dim:10 start:/9/".parse::<OtepCommand<Standard>>(),
            Err(MessageError::Rules(RulesError::Unsupported(_)))
        ));
    }

    #[test]
    fn replies_read_back_what_they_write() {
        assert_round_trips([
            Reply::Hello,
            Reply::Move(mv("k8-f8")),
            Reply::Status("depth 3 score +0.20 nodes 500".into()),
            Reply::Error {
                code: NOT_CRITICAL,
                message: String::new(),
            },
            Reply::Error {
                code: CRITICAL,
                message: "Hnefi cannot play these rules: board size '10'".into(),
            },
            Reply::Analysis(vec![
                AnalysisLine {
                    pv: vec![mv("d1d3"), mv("e5e2")],
                    score: -12,
                },
                AnalysisLine {
                    pv: vec![mv("h1h3")],
                    score: 7,
                },
            ]),
        ]);
        assert_eq!("move Td1-d3".parse(), Ok(Reply::Move(mv("d1d3"))));
        assert!(matches!(
            "move nowhere".parse::<Reply<Standard>>(),
            Err(ReplyError::Move { .. })
        ));
        assert!("thinking".parse::<Reply<Standard>>().is_err());
    }
}
