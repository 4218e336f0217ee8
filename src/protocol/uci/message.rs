//! The UCI-style protocol's messages, read and written the same way by Hnefi's engine loop and
//! by the match runner that drives other engines, on boards of any size `G`. Positions are
//! FENs as in RULES.md, moves `d1d3` (`a1` up to `m13`). Clocks: `wtime`/`winc` are the attackers' (they move first, like White),
//! `btime`/`binc` the defenders'; `atime`/`ainc`/`dtime`/`dinc` say the same without the
//! chess names.

use crate::board::notation::to_fen;
use crate::board::{Board, Move, NotationError, RecordMove};
use crate::board::{Geometry, Side, side_of};
use crate::protocol::LineError;
use crate::protocol::io::command_words;
use crate::protocol::number::{NumberError, parse_amount, parse_clock, truncate};
use crate::search::{Clock, Go, Info, Score, SideClock};
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// Where a `position` command starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Setup<G: Geometry> {
    /// The start of the engine's rules.
    StartPos,
    Fen(Board<G>),
}

/// What a host asks of an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UciCommand<G: Geometry> {
    Uci,
    IsReady,
    SetOption {
        name: String,
        value: Option<String>,
    },
    UciNewGame,
    /// The game: a start and every move since, which are its history.
    Position {
        setup: Setup<G>,
        moves: Vec<Move<G>>,
    },
    Go(Go<G>),
    /// A `go` with words that are not understood: the first of them refused, and the limits
    /// understood, which the engine searches with (a host waits for its `bestmove`).
    GoInPart {
        limits: Go<G>,
        refused: CommandError<G>,
    },
    /// A `position` whose move `refused` names cannot be read: the game up to the move before.
    PositionInPart {
        setup: Setup<G>,
        moves: Vec<Move<G>>,
        refused: CommandError<G>,
    },
    /// `go perft DEPTH` (or `perft DEPTH`): the legal move tree's leaves, per first move.
    Perft(u32),
    /// `bench [DEPTH]`: `hnefi bench`'s search, its node count and speed.
    Bench(u32),
    Stop,
    PonderHit,
    Quit,
    /// `d`: the board and its facts, for people.
    Display,
    /// The evaluation term by term, for people.
    Eval,
    /// The protocols and how to leave, for people.
    Help,
}

fn millis(d: Duration) -> u128 {
    d.as_millis()
}

fn write_go<G: Geometry>(f: &mut fmt::Formatter<'_>, l: &Go<G>) -> fmt::Result {
    f.write_str("go")?;
    let sides = [Side::Attackers, Side::Defenders].map(|s| l.clock.side(s));
    for (word, side) in ["wtime", "btime"].into_iter().zip(sides) {
        if let Some(c) = side {
            write!(f, " {word} {}", millis(c.left))?;
        }
    }
    for (word, side) in ["winc", "binc"].into_iter().zip(sides) {
        if let Some(c) = side {
            write!(f, " {word} {}", millis(c.inc))?;
        }
    }
    if let Some(t) = l.movetime {
        write!(f, " movetime {}", millis(t))?;
    }
    if let Some(n) = l.nodes {
        write!(f, " nodes {n}")?;
    }
    if let Some(d) = l.depth {
        write!(f, " depth {d}")?;
    }
    if let Some(m) = l.movestogo {
        write!(f, " movestogo {m}")?;
    }
    if l.infinite {
        f.write_str(" infinite")?;
    }
    if l.ponder {
        f.write_str(" ponder")?;
    }
    if !l.searchmoves.is_empty() {
        f.write_str(" searchmoves")?;
        for m in &l.searchmoves {
            write!(f, " {m}")?;
        }
    }
    Ok(())
}

impl<G: Geometry> fmt::Display for UciCommand<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UciCommand::Uci => f.write_str("uci"),
            UciCommand::IsReady => f.write_str("isready"),
            UciCommand::SetOption { name, value } => {
                write!(f, "setoption name {name}")?;
                match value {
                    Some(v) => write!(f, " value {v}"),
                    None => Ok(()),
                }
            }
            UciCommand::UciNewGame => f.write_str("ucinewgame"),
            UciCommand::Position { setup, moves }
            | UciCommand::PositionInPart { setup, moves, .. } => {
                match setup {
                    Setup::StartPos => f.write_str("position startpos")?,
                    Setup::Fen(board) => write!(f, "position fen {}", to_fen(board))?,
                }
                if !moves.is_empty() {
                    f.write_str(" moves")?;
                    for m in moves {
                        write!(f, " {m}")?;
                    }
                }
                Ok(())
            }
            UciCommand::Go(limits) | UciCommand::GoInPart { limits, .. } => write_go(f, limits),
            UciCommand::Perft(depth) => write!(f, "go perft {depth}"),
            UciCommand::Bench(depth) => write!(f, "bench {depth}"),
            UciCommand::Stop => f.write_str("stop"),
            UciCommand::PonderHit => f.write_str("ponderhit"),
            UciCommand::Quit => f.write_str("quit"),
            UciCommand::Display => f.write_str("d"),
            UciCommand::Eval => f.write_str("eval"),
            UciCommand::Help => f.write_str("help"),
        }
    }
}

impl<G: Geometry> FromStr for UciCommand<G> {
    type Err = CommandError<G>;

    /// One line; a blank one is [`CommandError::Empty`], and a `position fen` of another board
    /// size is [`CommandError::OtherBoard`].
    fn from_str(line: &str) -> Result<UciCommand<G>, CommandError<G>> {
        let (word, args) = command_words::<CommandError<G>>(line)?;
        let args = &args[..];
        Ok(match word {
            "uci" => UciCommand::Uci,
            "isready" => UciCommand::IsReady,
            "setoption" => {
                let (name, value) = setoption(args).ok_or(CommandError::SetOption)?;
                UciCommand::SetOption { name, value }
            }
            "ucinewgame" => UciCommand::UciNewGame,
            "position" => position(args)?,
            "go" => go(args)?,
            "stop" => UciCommand::Stop,
            "ponderhit" => UciCommand::PonderHit,
            "quit" => UciCommand::Quit,
            "d" => UciCommand::Display,
            "perft" => match args {
                [depth] => UciCommand::Perft(
                    parse_amount(depth)
                        .map_err(|e| CommandError::Number("perft".into(), e))?
                        .min(64) as u32,
                ),
                _ => return Err(CommandError::MissingNumber("perft".into())),
            },
            "bench" => match args {
                [] => UciCommand::Bench(crate::measure::bench::DEFAULT_DEPTH),
                [depth] => UciCommand::Bench(
                    parse_amount(depth)
                        .map_err(|e| CommandError::Number("bench".into(), e))?
                        .clamp(1, 30) as u32,
                ),
                _ => return Err(CommandError::Extra("bench", truncate(args[1]))),
            },
            "eval" => UciCommand::Eval,
            "help" => UciCommand::Help,
            other => return Err(CommandError::Unknown(truncate(other))),
        })
    }
}

/// `name <words...> [value <words...>]`.
fn setoption(args: &[&str]) -> Option<(String, Option<String>)> {
    if args.first() != Some(&"name") {
        return None;
    }
    let value_at = args.iter().position(|w| w.eq_ignore_ascii_case("value"));
    let name = args[1..value_at.unwrap_or(args.len())].join(" ");
    let value = value_at.map(|i| args[i + 1..].join(" "));
    Some((name, value))
}

/// `startpos|fen <FEN> [moves m1 m2 ...]`.
fn position<G: Geometry>(args: &[&str]) -> Result<UciCommand<G>, CommandError<G>> {
    let (setup, moves) = match args.iter().position(|&w| w == "moves") {
        Some(i) => (&args[..i], &args[i + 1..]),
        None => (args, &[][..]),
    };
    let setup = match setup.first() {
        Some(&"startpos") if setup.len() == 1 => Setup::StartPos,
        Some(&"startpos") => return Err(CommandError::StartposTrailing),
        Some(&"fen") => match setup.get(1).and_then(|p| side_of(p).ok()) {
            Some(side) if side != G::SIDE => return Err(CommandError::OtherBoard(side)),
            _ => Setup::Fen(Board::from_fen(&setup[1..].join(" ")).map_err(CommandError::Fen)?),
        },
        Some(other) => return Err(CommandError::Setup(truncate(other))),
        None => return Err(CommandError::NoSetup),
    };
    let mut read = Vec::with_capacity(moves.len());
    for (i, text) in moves.iter().enumerate() {
        match Move::parse(text) {
            Ok(mv) => read.push(mv),
            Err(error) => {
                let refused = CommandError::Move {
                    number: i + 1,
                    error,
                };
                return Ok(UciCommand::PositionInPart {
                    setup,
                    moves: read,
                    refused,
                });
            }
        }
    }
    Ok(UciCommand::Position { setup, moves: read })
}

fn go<G: Geometry>(args: &[&str]) -> Result<UciCommand<G>, CommandError<G>> {
    let mut limits = Go::default();
    // Each side's time left and increment, made a clock once all words are read.
    let mut times: [Option<u64>; 2] = [None; 2];
    let mut incs: [Option<u64>; 2] = [None; 2];
    // The first word not understood; the words after it are still read.
    let mut refused = None;
    let mut i = 0;
    while i < args.len() {
        let word = args[i];
        let arg = || {
            args.get(i + 1)
                .copied()
                .ok_or_else(|| CommandError::MissingNumber(word.to_string()))
        };
        let number = |e| CommandError::Number(word.to_string(), e);
        let value = || parse_amount(arg()?).map_err(number);
        // The time left on a clock, where below zero means none left (see `parse_clock`).
        let clock = || parse_clock(arg()?).map_err(number);
        let understood: Result<(), CommandError<G>> = (|| {
            match word {
                "infinite" => limits.infinite = true,
                "ponder" => limits.ponder = true,
                "depth" => limits.depth = Some(value()?.clamp(1, 100) as u32),
                "nodes" => limits.nodes = Some(value()?.max(1)),
                "movetime" => limits.movetime = Some(Duration::from_millis(value()?)),
                "wtime" | "atime" => times[0] = Some(clock()?),
                "btime" | "dtime" => times[1] = Some(clock()?),
                "winc" | "ainc" => incs[0] = Some(value()?),
                "binc" | "dinc" => incs[1] = Some(value()?),
                "movestogo" => limits.movestogo = Some(value()?.min(1000) as u32),
                // A win in N moves of the side to move is 2N - 1 plies away: a search that deep
                // sees it where there is one.
                "mate" => {
                    let moves = value()?.clamp(1, 50);
                    limits.depth = Some((2 * moves - 1) as u32);
                }
                other => return Err(CommandError::GoWord(truncate(other))),
            }
            Ok(())
        })();
        match word {
            "perft" => match value() {
                Ok(depth) => return Ok(UciCommand::Perft(depth.min(64) as u32)),
                Err(e) => refused = refused.or(Some(e)),
            },
            "searchmoves" => {
                // Every following word that reads as a move.
                let moves: Vec<Move<G>> = args[i + 1..]
                    .iter()
                    .map_while(|w| Move::parse(w).ok())
                    .collect();
                i += 1 + moves.len();
                limits.searchmoves = moves;
                continue;
            }
            _ => {
                if let Err(e) = understood {
                    // An unknown word stands alone; a known one's bad value goes with it.
                    if matches!(e, CommandError::GoWord(_)) {
                        refused = refused.or(Some(e));
                        i += 1;
                        continue;
                    }
                    refused = refused.or(Some(e));
                }
            }
        }
        i += if matches!(word, "infinite" | "ponder") {
            1
        } else {
            2
        };
    }
    let side = |s: usize| {
        times[s].map(|t| {
            SideClock::new(
                Duration::from_millis(t),
                Duration::from_millis(incs[s].unwrap_or(0)),
            )
        })
    };
    limits.clock = Clock::new(side(0), side(1));
    Ok(match refused {
        None => UciCommand::Go(limits),
        Some(refused) => UciCommand::GoInPart { limits, refused },
    })
}

/// Why a line is not a command.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CommandError<G: Geometry> {
    #[error("empty line")]
    Empty,
    #[error("line of {0} bytes is too long; ignored")]
    TooLong(usize),
    #[error("unknown command '{0}'")]
    Unknown(String),
    #[error("setoption needs 'name <option> [value <value>]'")]
    SetOption,
    #[error("position startpos takes nothing before 'moves'")]
    StartposTrailing,
    #[error("bad FEN: {0}")]
    Fen(NotationError<G>),
    /// A FEN of this many ranks: a position on that board, which this size's reader does not
    /// read (the engine hands it to the loop of that size).
    #[error("position: the FEN is of a {0}x{0} board, not {side}x{side}", side = G::SIDE)]
    OtherBoard(u8),
    #[error("position: expected 'startpos' or 'fen', found '{0}'")]
    Setup(String),
    #[error("position: expected 'startpos' or 'fen'")]
    NoSetup,
    #[error("move {number}: {error}")]
    Move {
        number: usize,
        error: NotationError<G>,
    },
    #[error("go {0}: missing number")]
    MissingNumber(String),
    #[error("go {0}: {1}")]
    Number(String, NumberError),
    #[error("go: unknown word '{0}'")]
    GoWord(String),
    #[error("{0}: unexpected word '{1}'")]
    Extra(&'static str, String),
}

impl<G: Geometry> LineError for CommandError<G> {
    const BLANK: CommandError<G> = CommandError::Empty;
    const TOO_LONG: fn(usize) -> CommandError<G> = CommandError::TooLong;
}

/// A score as UCI says it, from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UciScore {
    /// Centipawns.
    Cp(i32),
    /// The side to move's moves to the win (negative: to the loss).
    Mate(i32),
}

impl From<Score> for UciScore {
    fn from(score: Score) -> UciScore {
        match score.plies_to_end() {
            Some(p) if score.0 > 0 => UciScore::Mate(p.div_ceil(2) as i32),
            Some(p) => UciScore::Mate(-(p.div_ceil(2).max(1) as i32)),
            None => UciScore::Cp(score.0),
        }
    }
}

impl fmt::Display for UciScore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UciScore::Cp(cp) => write!(f, "cp {cp}"),
            UciScore::Mate(moves) => write!(f, "mate {moves}"),
        }
    }
}

/// An `info` line: one finished iteration of one line of the search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Progress<G: Geometry> {
    pub depth: u32,
    pub seldepth: u32,
    pub multipv: usize,
    pub score: UciScore,
    pub nodes: u64,
    pub nps: u64,
    pub hashfull: u32,
    pub time_ms: u128,
    pub pv: Vec<Move<G>>,
}

impl<G: Geometry> From<&Info<G>> for Progress<G> {
    fn from(info: &Info<G>) -> Progress<G> {
        Progress {
            depth: info.depth,
            seldepth: info.seldepth,
            multipv: info.multipv,
            score: info.score.into(),
            nodes: info.nodes,
            nps: info.nps,
            hashfull: info.hashfull,
            time_ms: info.time.as_millis(),
            pv: info.pv.clone(),
        }
    }
}

impl<G: Geometry> fmt::Display for Progress<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "info depth {} seldepth {} multipv {} score {} nodes {} nps {} hashfull {} time {} pv",
            self.depth,
            self.seldepth,
            self.multipv,
            self.score,
            self.nodes,
            self.nps,
            self.hashfull,
            self.time_ms
        )?;
        self.pv.iter().try_for_each(|m| write!(f, " {m}"))
    }
}

impl<G: Geometry> Progress<G> {
    /// The words after `info`: each field once, `pv` last.
    fn read(words: &[&str]) -> Option<Progress<G>> {
        let mut p = Progress {
            depth: 0,
            seldepth: 0,
            multipv: 1,
            score: UciScore::Cp(0),
            nodes: 0,
            nps: 0,
            hashfull: 0,
            time_ms: 0,
            pv: Vec::new(),
        };
        let mut i = 0;
        while i < words.len() {
            let value = words.get(i + 1).copied().unwrap_or_default();
            match words[i] {
                "depth" => p.depth = value.parse().ok()?,
                "seldepth" => p.seldepth = value.parse().ok()?,
                "multipv" => p.multipv = value.parse().ok()?,
                "nodes" => p.nodes = value.parse().ok()?,
                "nps" => p.nps = value.parse().ok()?,
                "hashfull" => p.hashfull = value.parse().ok()?,
                "time" => p.time_ms = value.parse().ok()?,
                "score" => {
                    let n = words.get(i + 2)?.parse().ok()?;
                    p.score = match value {
                        "cp" => UciScore::Cp(n),
                        "mate" => UciScore::Mate(n),
                        _ => return None,
                    };
                    i += 1;
                }
                "pv" => {
                    p.pv = words[i + 1..]
                        .iter()
                        .map(|w| Move::parse(w).ok())
                        .collect::<Option<_>>()?;
                    break;
                }
                _ => return None,
            }
            i += 2;
        }
        Some(p)
    }
}

/// The kind of an engine option, with its default and range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    Check { default: bool },
    Spin { default: i64, min: i64, max: i64 },
    Combo { default: String, vars: Vec<String> },
    Button,
    String { default: String },
}

/// An option the engine offers (`option name ... type ...`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOption {
    pub name: String,
    pub kind: OptionKind,
}

impl fmt::Display for EngineOption {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "option name {} type ", self.name)?;
        match &self.kind {
            OptionKind::Check { default } => write!(f, "check default {default}"),
            OptionKind::Spin { default, min, max } => {
                write!(f, "spin default {default} min {min} max {max}")
            }
            OptionKind::Combo { default, vars } => {
                write!(f, "combo default {default}")?;
                vars.iter().try_for_each(|v| write!(f, " var {v}"))
            }
            OptionKind::Button => f.write_str("button"),
            OptionKind::String { default } => write!(f, "string default {default}"),
        }
    }
}

impl EngineOption {
    /// The text after `option name `.
    fn read(text: &str) -> Option<EngineOption> {
        let (name, kind) = text.split_once(" type ")?;
        let words: Vec<&str> = kind.split_whitespace().collect();
        let field = |key: &str| {
            let at = words.iter().position(|w| *w == key)?;
            words.get(at + 1).copied()
        };
        let kind = match words.first().copied()? {
            "check" => OptionKind::Check {
                default: field("default")?.parse().ok()?,
            },
            "spin" => OptionKind::Spin {
                default: field("default")?.parse().ok()?,
                min: field("min")?.parse().ok()?,
                max: field("max")?.parse().ok()?,
            },
            "combo" => OptionKind::Combo {
                default: field("default")?.to_string(),
                vars: words
                    .windows(2)
                    .filter(|w| w[0] == "var")
                    .map(|w| w[1].to_string())
                    .collect(),
            },
            "button" => OptionKind::Button,
            "string" => OptionKind::String {
                default: field("default").unwrap_or_default().to_string(),
            },
            _ => return None,
        };
        Some(EngineOption {
            name: name.trim().to_string(),
            kind,
        })
    }
}

/// What an engine tells a host.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply<G: Geometry> {
    IdName(String),
    IdAuthor(String),
    Option(EngineOption),
    UciOk,
    ReadyOk,
    Info(Progress<G>),
    /// `info string <text>`: anything for people.
    InfoString(String),
    /// `info string error: <why>`: a command was refused and changed nothing.
    Error(String),
    /// `bestmove (none)` when there is no move.
    BestMove {
        best: Option<Move<G>>,
        ponder: Option<Move<G>>,
    },
    /// A first move of `go perft` and the leaves below it: `d1b1: 1`.
    PerftMove(Move<G>, u64),
    /// `Nodes searched: N`, the end of `go perft`.
    PerftTotal(u64),
    /// Lines for people: the diagram of `d`, the blank line before a perft total.
    Plain(String),
}

impl<G: Geometry> fmt::Display for Reply<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::IdName(name) => write!(f, "id name {name}"),
            Reply::IdAuthor(author) => write!(f, "id author {author}"),
            Reply::Option(option) => option.fmt(f),
            Reply::UciOk => f.write_str("uciok"),
            Reply::ReadyOk => f.write_str("readyok"),
            Reply::Info(progress) => progress.fmt(f),
            Reply::InfoString(text) => write!(f, "info string {text}"),
            Reply::Error(why) => write!(f, "info string error: {why}"),
            Reply::BestMove { best: None, .. } => f.write_str("bestmove (none)"),
            Reply::BestMove {
                best: Some(best),
                ponder: None,
            } => write!(f, "bestmove {best}"),
            Reply::BestMove {
                best: Some(best),
                ponder: Some(ponder),
            } => write!(f, "bestmove {best} ponder {ponder}"),
            Reply::PerftMove(mv, n) => write!(f, "{mv}: {n}"),
            Reply::PerftTotal(n) => write!(f, "Nodes searched: {n}"),
            Reply::Plain(text) => f.write_str(text),
        }
    }
}

impl<G: Geometry> FromStr for Reply<G> {
    type Err = ReplyError<G>;

    /// Any line reads: one that is no other reply is [`Reply::Plain`].
    fn from_str(line: &str) -> Result<Reply<G>, ReplyError<G>> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let rest = |n: usize| words.get(n..).map(|w| w.join(" ")).unwrap_or_default();
        let reply = match words.as_slice() {
            ["id", "name", ..] => Some(Reply::IdName(rest(2))),
            ["id", "author", ..] => Some(Reply::IdAuthor(rest(2))),
            ["option", "name", ..] => EngineOption::read(&rest(2)).map(Reply::Option),
            ["uciok"] => Some(Reply::UciOk),
            ["readyok"] => Some(Reply::ReadyOk),
            ["info", "string", "error:", ..] => Some(Reply::Error(rest(3))),
            ["info", "string", ..] => Some(Reply::InfoString(rest(2))),
            ["info", fields @ ..] => Progress::read(fields).map(Reply::Info),
            ["bestmove", ..] => return best_move(&words[1..]),
            ["Nodes", "searched:", n] => n.parse().ok().map(Reply::PerftTotal),
            [mv, n] => mv
                .strip_suffix(':')
                .and_then(|m| Move::parse(m).ok())
                .zip(n.parse().ok())
                .map(|(m, n)| Reply::PerftMove(m, n)),
            _ => None,
        };
        Ok(reply.unwrap_or_else(|| Reply::Plain(line.to_string())))
    }
}

/// The words after `bestmove`; the engines' moves may be written as game records write them.
fn best_move<G: Geometry>(words: &[&str]) -> Result<Reply<G>, ReplyError<G>> {
    let read = |text: &str| {
        RecordMove::<G>::parse(text)
            .map(|r| r.mv)
            .map_err(|error| ReplyError::Move {
                text: truncate(text),
                error,
            })
    };
    match words {
        ["(none)", ..] => Ok(Reply::BestMove {
            best: None,
            ponder: None,
        }),
        [best, "ponder", ponder, ..] => Ok(Reply::BestMove {
            best: Some(read(best)?),
            ponder: read(ponder).ok(),
        }),
        [best, ..] => Ok(Reply::BestMove {
            best: Some(read(best)?),
            ponder: None,
        }),
        [] => Err(ReplyError::NoMove),
    }
}

/// Why an engine's line is not the reply it seems to be.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplyError<G: Geometry> {
    #[error("bestmove without a move")]
    NoMove,
    #[error("move '{text}': {error}")]
    Move {
        text: String,
        error: NotationError<G>,
    },
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::notation::START_FEN;
    use crate::protocol::testing::{assert_round_trips, mv};
    use crate::search::size::Standard;

    #[test]
    fn commands_read_back_what_they_write() {
        let s = Duration::from_millis;
        let clock = Clock::new(
            Some(SideClock::new(s(60_000), s(500))),
            Some(SideClock::new(s(55_000), s(0))),
        );
        assert_round_trips([
            UciCommand::Uci,
            UciCommand::SetOption {
                name: "Move Overhead".into(),
                value: Some("10".into()),
            },
            UciCommand::SetOption {
                name: "Clear Hash".into(),
                value: None,
            },
            UciCommand::Position {
                setup: Setup::StartPos,
                moves: vec![],
            },
            UciCommand::Position {
                setup: Setup::Fen(Board::from_fen(START_FEN).unwrap()),
                moves: vec![mv("d1d3"), mv("f4f3")],
            },
            UciCommand::Go(Go {
                clock,
                movetime: Some(s(1500)),
                nodes: Some(20_000),
                depth: Some(9),
                movestogo: Some(12),
                infinite: true,
                ponder: true,
                searchmoves: vec![mv("d1d3")],
            }),
            UciCommand::Go(Go::default()),
            UciCommand::Perft(3),
            UciCommand::Display,
            UciCommand::Help,
        ]);
        let go = UciCommand::<Standard>::Go(Go {
            clock,
            ..Go::default()
        });
        assert_eq!(go.to_string(), "go wtime 60000 btime 55000 winc 500 binc 0");
        assert_eq!(
            "go atime 10 ainc 1 nodes 5".parse::<UciCommand<Standard>>(),
            Ok(UciCommand::Go(Go {
                clock: Clock::new(Some(SideClock::new(s(10), s(1))), None),
                nodes: Some(5),
                ..Go::default()
            }))
        );
    }

    #[test]
    fn every_board_size_has_its_positions_and_moves() {
        use crate::board::{Preset, Seven, Thirteen};
        let big = |t: &str| Move::<Thirteen>::parse(t).unwrap();
        let fen = Preset::Copenhagen13.start_fen();
        assert_round_trips([
            UciCommand::<Thirteen>::Position {
                setup: Setup::Fen(Board::from_fen(fen).unwrap()),
                moves: vec![big("d1d3"), big("m4l4")],
            },
            UciCommand::Go(Go {
                searchmoves: vec![big("m9l9")],
                ..Go::default()
            }),
        ]);
        assert_round_trips([
            Reply::<Thirteen>::PerftMove(big("j13j12"), 3),
            Reply::BestMove {
                best: Some(big("a10c10")),
                ponder: Some(big("g11g12")),
            },
        ]);
        // A FEN of another board is for that board's reader; one of no board is refused here.
        let brandubh = format!("position fen {} moves c4c1", Preset::Brandubh.start_fen());
        assert_eq!(
            brandubh.parse::<UciCommand<Thirteen>>(),
            Err(CommandError::OtherBoard(7))
        );
        assert!(matches!(
            brandubh.parse::<UciCommand<Seven>>(),
            Ok(UciCommand::Position {
                setup: Setup::Fen(_),
                ..
            })
        ));
        assert_eq!(
            "position fen 5/5/5/5/5 a"
                .parse::<UciCommand<Seven>>()
                .unwrap_err()
                .to_string(),
            "bad FEN: expected 7 ranks separated by '/', found 5"
        );
        assert_eq!(
            CommandError::<Seven>::OtherBoard(9).to_string(),
            "position: the FEN is of a 9x9 board, not 7x7"
        );
        // Squares past the board are not moves of it: the game stops before.
        match "position startpos moves d1d2 h1h2 a1a2".parse::<UciCommand<Seven>>() {
            Ok(UciCommand::PositionInPart { moves, refused, .. }) => {
                assert_eq!(moves.len(), 1);
                assert!(refused.to_string().starts_with("move 2: "), "{refused}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn bad_commands_say_what_is_wrong() {
        let e = |t: &str| match t.parse::<UciCommand<Standard>>() {
            Ok(
                UciCommand::GoInPart { refused, .. } | UciCommand::PositionInPart { refused, .. },
            ) => refused.to_string(),
            other => other.unwrap_err().to_string(),
        };
        assert_eq!(e("frobnicate"), "unknown command 'frobnicate'");
        assert_eq!(
            e("setoption Hash 5"),
            "setoption needs 'name <option> [value <value>]'"
        );
        assert_eq!(
            e("position startpos moves d1d1"),
            "move 1: move 'd1d1': d1 and d1 are the same square"
        );
        assert!(e("position fen 11/11 a").starts_with("bad FEN: "));
        assert_eq!(
            e("position end"),
            "position: expected 'startpos' or 'fen', found 'end'"
        );
        assert_eq!(e("go depth"), "go depth: missing number");
        assert!(e("go nodes -5").starts_with("go nodes: '-5' is negative"));
        assert_eq!(e("go fast"), "go: unknown word 'fast'");
        // What is understood is kept: the search goes on with it.
        match "go fast depth 3 movetime -5 nodes 9".parse::<UciCommand<Standard>>() {
            Ok(UciCommand::GoInPart { limits, refused }) => {
                assert_eq!(
                    (limits.depth, limits.nodes, limits.movetime),
                    (Some(3), Some(9), None)
                );
                assert_eq!(refused.to_string(), "go: unknown word 'fast'");
            }
            other => panic!("{other:?}"),
        }
        // A win in 3 moves is at most 5 plies away.
        match "go mate 3".parse::<UciCommand<Standard>>() {
            Ok(UciCommand::Go(limits)) => assert_eq!(limits.depth, Some(5)),
            other => panic!("{other:?}"),
        }
        // A clock that ran past zero is no time left, not an error.
        assert!(
            "go wtime -30 btime 100"
                .parse::<UciCommand<Standard>>()
                .is_ok()
        );
    }

    #[test]
    fn replies_read_back_what_they_write() {
        assert_round_trips([
            Reply::IdName("Hnefi 0.1.0".into()),
            Reply::IdAuthor("the Hnefi developers".into()),
            Reply::Option(EngineOption {
                name: "Move Overhead".into(),
                kind: OptionKind::Spin {
                    default: 30,
                    min: 0,
                    max: 5000,
                },
            }),
            Reply::Option(EngineOption {
                name: "Rules".into(),
                kind: OptionKind::Combo {
                    default: "copenhagen".into(),
                    vars: vec!["copenhagen".into(), "fetlar".into()],
                },
            }),
            Reply::Option(EngineOption {
                name: "Ponder".into(),
                kind: OptionKind::Check { default: false },
            }),
            Reply::Option(EngineOption {
                name: "Clear Hash".into(),
                kind: OptionKind::Button,
            }),
            Reply::Option(EngineOption {
                name: "Book".into(),
                kind: OptionKind::String {
                    default: "none".into(),
                },
            }),
            Reply::UciOk,
            Reply::ReadyOk,
            Reply::Info(Progress {
                depth: 3,
                seldepth: 5,
                multipv: 1,
                score: UciScore::Mate(-2),
                nodes: 1000,
                nps: 20_000,
                hashfull: 4,
                time_ms: 50,
                pv: vec![mv("d1d3"), mv("f4f3")],
            }),
            Reply::InfoString("perft stopped".into()),
            Reply::Error("unknown command 'x'".into()),
            Reply::BestMove {
                best: Some(mv("d1d3")),
                ponder: Some(mv("f4f3")),
            },
            Reply::BestMove {
                best: Some(mv("d1d3")),
                ponder: None,
            },
            Reply::BestMove {
                best: None,
                ponder: None,
            },
            Reply::PerftMove(mv("d1b1"), 1),
            Reply::PerftTotal(116),
            Reply::Plain(String::new()),
            Reply::Plain(" 11 . . . a a a a a . . . ".into()),
        ]);
        assert!(matches!(
            "bestmove z9z1".parse::<Reply<Standard>>(),
            Err(ReplyError::Move { .. })
        ));
        assert_eq!(
            "bestmove".parse::<Reply<Standard>>(),
            Err(ReplyError::NoMove)
        );
        assert_eq!(
            "bestmove d1-d3xe2".parse(),
            Ok(Reply::BestMove {
                best: Some(mv("d1d3")),
                ponder: None
            })
        );
    }

    #[test]
    fn scores_count_moves_to_the_end() {
        assert_eq!(UciScore::from(Score(35)), UciScore::Cp(35));
        assert_eq!(UciScore::from(Score::win_in(3)), UciScore::Mate(2));
        assert_eq!(UciScore::from(Score::loss_in(2)), UciScore::Mate(-1));
        assert_eq!(UciScore::from(Score::loss_in(0)), UciScore::Mate(-1));
    }
}
