//! The UCI-style protocol that TaflZero speaks: FEN as in RULES.md, moves like `d1d3`.
//! Clocks: `wtime`/`winc` are the attackers' (they move first, like White), `btime`/`binc` the
//! defenders'; `atime`/`ainc`/`dtime`/`dinc` say the same without the chess names.

use super::{Input, Output, parse_amount, parse_clock, truncate};
use crate::board::notation::{parse_fen, parse_move, to_fen};
use crate::board::{Board, Position, Preset, Rules, Square};
use crate::search::params::{SearchParams, TUNABLES};
use crate::search::{Engine, Info, Limits, Options, Score, SearchResult};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Receiver;
use std::thread::JoinHandle;
use std::time::Duration;

const NAME: &str = concat!("Hnefi ", env!("CARGO_PKG_VERSION"));
const AUTHOR: &str = "the Hnefi developers";

pub struct Uci {
    out: Output,
    engine: Engine,
    position: Position,
    rules: Rules,
    ponder_enabled: bool,
    /// The most nodes a search may visit (`--nodes`).
    max_nodes: Option<u64>,
    /// A `go perft` counting in the background, so that a deep one never blocks `isready`,
    /// `stop` or `quit`.
    perft: Option<PerftRun>,
}

struct PerftRun {
    stop: Arc<AtomicBool>,
    handle: JoinHandle<()>,
}

enum Flow {
    Continue,
    Quit,
}

impl Uci {
    pub fn new(out: Output) -> Uci {
        Uci {
            out,
            engine: Engine::new(Options::default()),
            position: Position::start(Rules::default()),
            rules: Rules::default(),
            ponder_enabled: false,
            max_nodes: None,
            perft: None,
        }
    }

    /// Caps every search at `nodes` nodes, if given.
    pub fn with_max_nodes(mut self, nodes: Option<u64>) -> Uci {
        self.max_nodes = nodes;
        self
    }

    /// Handles lines (`first`, then the input) until `quit` or end of input; a search still
    /// running is stopped first.
    pub fn run(mut self, first: Option<Input>, input: Receiver<Input>) {
        for line in first.into_iter().chain(input.iter()) {
            let flow = match line {
                Input::Line(text) => self.handle(&text),
                Input::TooLong(n) => {
                    self.error(&format!("line of {n} bytes is too long; ignored"));
                    Flow::Continue
                }
            };
            if let Flow::Quit = flow {
                break;
            }
        }
        self.engine.stop();
        self.engine.wait();
        self.finish_perft();
    }

    fn error(&self, message: &str) {
        self.out.line(&format!("info string error: {message}"));
    }

    fn handle(&mut self, line: &str) -> Flow {
        let mut words = line.split_whitespace();
        let Some(command) = words.next() else {
            return Flow::Continue;
        };
        let rest: Vec<&str> = words.collect();
        match command {
            "uci" => self.uci(),
            "isready" => self.out.line("readyok"),
            "setoption" => self.setoption(&rest),
            "ucinewgame" => {
                self.finish_search();
                self.engine.clear();
                self.position = Position::start(self.rules);
            }
            "position" => self.position(&rest),
            "go" => self.go(&rest),
            "stop" => {
                self.engine.stop();
                if let Some(p) = &self.perft {
                    p.stop.store(true, Ordering::Relaxed);
                }
            }
            "ponderhit" => self.engine.ponderhit(),
            "quit" => return Flow::Quit,
            "d" => self.display(),
            "eval" => {
                for l in
                    crate::search::eval::breakdown(self.position.board(), self.position.rules())
                        .lines()
                {
                    self.out.line(&format!("info string {l}"));
                }
            }
            other => self.error(&format!("unknown command '{}'", truncate(other))),
        }
        Flow::Continue
    }

    fn uci(&self) {
        let o = self.engine.options();
        self.out.line(&format!("id name {NAME}"));
        self.out.line(&format!("id author {AUTHOR}"));
        self.out.line(&format!(
            "option name Hash type spin default {} min 1 max 65536",
            o.hash_mb
        ));
        self.out.line(&format!(
            "option name Threads type spin default {} min 1 max 256",
            o.threads
        ));
        self.out
            .line("option name MultiPV type spin default 1 min 1 max 256");
        let vars: Vec<String> = Preset::ALL.iter().map(|p| format!("var {p}")).collect();
        self.out.line(&format!(
            "option name Rules type combo default {} {}",
            Preset::Copenhagen,
            vars.join(" ")
        ));
        self.out.line(&format!(
            "option name Move Overhead type spin default {} min 0 max 5000",
            o.move_overhead.as_millis()
        ));
        self.out.line("option name Ponder type check default false");
        self.out.line("option name Clear Hash type button");
        // The search's tunable numbers, for tuners (SPSA) more than for people.
        for t in &TUNABLES {
            self.out.line(&format!(
                "option name {} type spin default {} min {} max {}",
                t.name,
                o.params.get(t),
                t.min,
                t.max
            ));
        }
        self.out.line("uciok");
    }

    /// Waits for a running search to end (its bestmove is printed), so that what follows
    /// applies to a quiet engine.
    fn finish_search(&mut self) {
        if self.engine.is_searching() {
            self.engine.stop();
        }
        self.engine.wait();
        self.finish_perft();
    }

    /// Stops a background perft and waits for it (it says `info string perft stopped`).
    fn finish_perft(&mut self) {
        if let Some(p) = self.perft.take() {
            p.stop.store(true, Ordering::Relaxed);
            let _ = p.handle.join();
        }
    }

    fn setoption(&mut self, args: &[&str]) {
        let Some((name, value)) = setoption_words(args) else {
            return self.error("setoption needs 'name <option> [value <value>]'");
        };
        let mut options = self.engine.options().clone();
        let number = |v: &Option<String>, lo: u64, hi: u64| -> Result<u64, String> {
            let v = v
                .as_deref()
                .ok_or(format!("option '{name}' needs a value"))?;
            let n = parse_amount(v.trim()).map_err(|e| format!("option '{name}': {e}"))?;
            if (lo..=hi).contains(&n) {
                Ok(n)
            } else {
                Err(format!("option '{name}': {n} is outside {lo}..{hi}"))
            }
        };
        let result = match name.to_ascii_lowercase().as_str() {
            "hash" => number(&value, 1, 65536).map(|n| options.hash_mb = n as usize),
            "threads" => number(&value, 1, 256).map(|n| options.threads = n as usize),
            "multipv" => number(&value, 1, 256).map(|n| options.multipv = n as usize),
            "move overhead" => {
                number(&value, 0, 5000).map(|n| options.move_overhead = Duration::from_millis(n))
            }
            "rules" => match value.as_deref().unwrap_or("").parse::<Preset>() {
                Ok(p) => {
                    self.finish_search();
                    self.rules = Rules::preset(p);
                    self.position = rebuild(&self.position, self.rules);
                    Ok(())
                }
                Err(e) => Err(e.to_string()),
            },
            "ponder" => match value.as_deref().map(str::to_ascii_lowercase).as_deref() {
                Some("true") => {
                    self.ponder_enabled = true;
                    Ok(())
                }
                Some("false") => {
                    self.ponder_enabled = false;
                    Ok(())
                }
                _ => Err("option 'Ponder' takes true or false".to_string()),
            },
            "clear hash" => {
                self.finish_search();
                self.engine.clear();
                Ok(())
            }
            _ => match SearchParams::tunable(&name) {
                Some(t) => value
                    .as_deref()
                    .and_then(|v| v.trim().parse::<i32>().ok())
                    .ok_or(format!("option '{}' needs a whole number", t.name))
                    .and_then(|v| options.params.set(t, v).map_err(|e| e.to_string())),
                None => Err(format!("unknown option '{}'", truncate(&name))),
            },
        };
        match result {
            Ok(()) => {
                if &options != self.engine.options() {
                    self.finish_search();
                    if let Err(e) = self.engine.set_options(options) {
                        self.error(&format!("setoption name {name}: {e}"));
                    }
                }
            }
            Err(e) => self.error(&e),
        }
    }

    fn position(&mut self, args: &[&str]) {
        match parse_position(args, self.rules) {
            Ok(pos) => {
                self.finish_search();
                self.position = pos;
            }
            Err(e) => self.error(&e),
        }
    }

    fn go(&mut self, args: &[&str]) {
        let limits = match parse_go(args) {
            Ok(Go::Search(l)) => l.with_node_cap(self.max_nodes),
            Ok(Go::Perft(depth)) => return self.perft(depth),
            Err(e) => return self.error(&e),
        };
        self.finish_search();
        let out = self.out.clone();
        let done_out = self.out.clone();
        let ponder = self.ponder_enabled;
        let searchmoves = limits.searchmoves.clone();
        let started = self.engine.start(
            &self.position,
            limits,
            Box::new(move |info: &Info| out.line(&info_line(info))),
            Some(Box::new(move |r: &SearchResult| {
                done_out.line(&bestmove_line(r, ponder))
            })),
        );
        if let Err(e) = started {
            // A host waits for its bestmove whatever happens.
            self.error(&e.to_string());
            let r = crate::search::fallback_result(&self.position, &searchmoves);
            self.out.line(&bestmove_line(&r, false));
        }
    }

    fn perft(&mut self, depth: u32) {
        if depth > 8 {
            return self.error("go perft: depth at most 8 here (use `hnefi perft` for more)");
        }
        self.finish_search();
        let board = *self.position.board();
        let rules = self.rules;
        let out = self.out.clone();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let counting = std::thread::Builder::new()
            .name("perft".into())
            .spawn(
                move || match crate::perft::divide_until(&board, depth, &rules, &flag) {
                    Some(lines) => {
                        let total: u64 = lines.iter().map(|(_, n)| n).sum();
                        for (mv, n) in lines {
                            out.line(&format!("{mv}: {n}"));
                        }
                        out.line("");
                        out.line(&format!("Nodes searched: {total}"));
                    }
                    None => out.line("info string perft stopped"),
                },
            );
        match counting {
            Ok(handle) => self.perft = Some(PerftRun { stop, handle }),
            Err(e) => self.error(&format!("go perft: cannot start a thread: {e}")),
        }
    }

    fn display(&self) {
        let b = self.position.board();
        for line in diagram(b).lines() {
            self.out.line(line);
        }
        self.out.line(&format!("Fen: {}", to_fen(b)));
        self.out.line(&format!("Key: {:016X}", b.key()));
        self.out
            .line(&format!("Side to move: {}", b.side_to_move()));
        self.out.line(&format!("Rules: {}", self.rules.preset));
        let status = match self.position.outcome() {
            Some(o) => o.to_string(),
            None => "ongoing".to_string(),
        };
        self.out.line(&format!("Status: {status}"));
    }
}

/// The same game under other rules: its moves replayed as far as they stay legal.
fn rebuild(pos: &Position, rules: Rules) -> Position {
    let moves: Vec<_> = pos.moves().collect();
    let mut start = pos.clone();
    while start.undo().is_some() {}
    let mut fresh = Position::new(*start.board(), rules);
    for mv in moves {
        if fresh.try_play(mv).is_err() {
            break;
        }
    }
    fresh
}

/// The option name and the value of `setoption`'s words (`name <words...> [value <words...>]`),
/// as the loop reads them; `None` without `name`.
pub fn setoption_words(args: &[&str]) -> Option<(String, Option<String>)> {
    if args.first() != Some(&"name") {
        return None;
    }
    let value_at = args.iter().position(|w| w.eq_ignore_ascii_case("value"));
    let name = args[1..value_at.unwrap_or(args.len())].join(" ");
    let value = value_at.map(|i| args[i + 1..].join(" "));
    Some((name, value))
}

/// The table size a UCI line asks for, read as the loop reads it: `Some(mb)` for a
/// `setoption name Hash value <mb>` it would take.
pub fn hash_request(line: &str) -> Option<u64> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.first() != Some(&"setoption") {
        return None;
    }
    let (name, value) = setoption_words(&words[1..])?;
    if !name.eq_ignore_ascii_case("hash") {
        return None;
    }
    parse_amount(value?.trim()).ok()
}

/// `startpos|fen <FEN> [moves m1 m2 ...]` into a position with its history.
pub fn parse_position(args: &[&str], rules: Rules) -> Result<Position, String> {
    let moves_at = args.iter().position(|&w| w == "moves");
    let (setup, moves) = match moves_at {
        Some(i) => (&args[..i], &args[i + 1..]),
        None => (args, &[][..]),
    };
    let board = match setup.first() {
        Some(&"startpos") if setup.len() == 1 => Board::start(),
        Some(&"startpos") => return Err("position startpos takes nothing before 'moves'".into()),
        Some(&"fen") => parse_fen(&setup[1..].join(" ")).map_err(|e| format!("bad FEN: {e}"))?,
        Some(other) => {
            return Err(format!(
                "position: expected 'startpos' or 'fen', found '{}'",
                truncate(other)
            ));
        }
        None => return Err("position: expected 'startpos' or 'fen'".into()),
    };
    let mut pos = Position::new(board, rules);
    for (i, text) in moves.iter().enumerate() {
        let mv = parse_move(text).map_err(|e| format!("move {}: {e}", i + 1))?;
        pos.try_play(mv)
            .map_err(|e| format!("move {} ({text}) is illegal: {e}", i + 1))?;
    }
    Ok(pos)
}

enum Go {
    Search(Limits),
    Perft(u32),
}

fn parse_go(args: &[&str]) -> Result<Go, String> {
    let mut limits = Limits::default();
    let mut i = 0;
    let arg = |i: usize, name: &str| -> Result<&str, String> {
        args.get(i + 1)
            .copied()
            .ok_or(format!("go {name}: missing number"))
    };
    let value = |i: usize, name: &str| -> Result<u64, String> {
        parse_amount(arg(i, name)?).map_err(|e| format!("go {name}: {e}"))
    };
    // The time left on a clock, where below zero means none left (see `parse_clock`).
    let clock = |i: usize, name: &str| -> Result<u64, String> {
        parse_clock(arg(i, name)?).map_err(|e| format!("go {name}: {e}"))
    };
    let ms = Duration::from_millis;
    while i < args.len() {
        let word = args[i];
        match word {
            "infinite" => limits.infinite = true,
            "ponder" => limits.ponder = true,
            "perft" => {
                let d = value(i, word)?;
                return Ok(Go::Perft(d.min(64) as u32));
            }
            "depth" => limits.depth = Some(value(i, word)?.clamp(1, 100) as u32),
            "nodes" => limits.nodes = Some(value(i, word)?.max(1)),
            "movetime" => limits.movetime = Some(ms(value(i, word)?)),
            "wtime" | "atime" => limits.attackers_time = Some(ms(clock(i, word)?)),
            "btime" | "dtime" => limits.defenders_time = Some(ms(clock(i, word)?)),
            "winc" | "ainc" => limits.attackers_inc = Some(ms(value(i, word)?)),
            "binc" | "dinc" => limits.defenders_inc = Some(ms(value(i, word)?)),
            "movestogo" => limits.movestogo = Some(value(i, word)?.min(1000) as u32),
            "searchmoves" => {
                // Every following word that reads as a move.
                let moves: Vec<crate::board::Move> = args[i + 1..]
                    .iter()
                    .map_while(|w| parse_move(w).ok())
                    .collect();
                i += 1 + moves.len();
                limits.searchmoves = moves;
                continue;
            }
            "mate" => {
                return Err(format!("go {word} is not supported"));
            }
            other => return Err(format!("go: unknown word '{}'", truncate(other))),
        }
        i += if matches!(word, "infinite" | "ponder") {
            1
        } else {
            2
        };
    }
    Ok(Go::Search(limits))
}

/// `cp N` or `mate N` (moves, negative when losing), from the side to move's view.
pub fn score_text(score: Score) -> String {
    match score.plies_to_end() {
        Some(p) if score.0 > 0 => format!("mate {}", p.div_ceil(2)),
        Some(p) => format!("mate -{}", p.div_ceil(2).max(1)),
        None => format!("cp {}", score.0),
    }
}

fn info_line(info: &Info) -> String {
    let pv: Vec<String> = info.pv.iter().map(|m| m.to_string()).collect();
    format!(
        "info depth {} seldepth {} multipv {} score {} nodes {} nps {} hashfull {} time {} pv {}",
        info.depth,
        info.seldepth,
        info.multipv,
        score_text(info.score),
        info.nodes,
        info.nps,
        info.hashfull,
        info.time.as_millis(),
        pv.join(" ")
    )
}

fn bestmove_line(r: &SearchResult, ponder: bool) -> String {
    match (r.best, r.ponder) {
        (None, _) => "bestmove (none)".to_string(),
        (Some(b), Some(p)) if ponder => format!("bestmove {b} ponder {p}"),
        (Some(b), _) => format!("bestmove {b}"),
    }
}

/// The board as text, rank 11 at the top: `a` attacker, `d` defender, `k` king, `+` an empty
/// restricted square.
pub fn diagram(b: &Board) -> String {
    let mut s = String::new();
    for rank in (0..11).rev() {
        s.push_str(&format!("{:>2} ", rank + 1));
        for file in 0..11 {
            let sq = Square::from_coords(file, rank).expect("on board");
            let c = match b.piece_at(sq) {
                Some(crate::board::Piece::Attacker) => 'a',
                Some(crate::board::Piece::Defender) => 'd',
                Some(crate::board::Piece::King) => 'k',
                None if sq.is_restricted() => '+',
                None => '.',
            };
            s.push(c);
            s.push(' ');
        }
        s.push('\n');
    }
    s.push_str("   a b c d e f g h i j k\n");
    s
}
