//! Command-line subcommands for people: argument types and the printing around library calls.

use clap::Args;
use hnefi::board::notation::parse_fen;
use hnefi::board::{Preset, Rules, START_FEN};
use hnefi::perft::{Progress, divide};
use std::io::{IsTerminal, Write};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// The real games the repository carries, relative to its root (where the commands are run,
/// as for `positions/`).
const GAMES_CSV: &str = "data/copenhagen.csv";

#[derive(Args)]
pub struct PerftArgs {
    /// Plies to count.
    pub depth: u32,
    /// Position to count from (default: the start position).
    #[arg(long, default_value = START_FEN)]
    pub fen: String,
    /// Print the count below each root move.
    #[arg(long)]
    pub divide: bool,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Rules preset: copenhagen, copenhagen-2017, hnefatafl-org or fetlar.
    #[arg(long, default_value = "copenhagen")]
    pub rules: Preset,
}

pub fn perft(args: PerftArgs) -> Result<(), String> {
    let board = parse_fen(&args.fen).map_err(|e| format!("bad --fen: {e}"))?;
    let rules = Rules::preset(args.rules);
    if args.depth > 12 {
        return Err(format!(
            "depth {} is beyond reason (at most 12)",
            args.depth
        ));
    }
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(n) = args.threads {
        if n == 0 {
            return Err("--threads must be at least 1".into());
        }
        pool = pool.num_threads(n);
    }
    let pool = pool
        .build()
        .map_err(|e| format!("cannot start threads: {e}"))?;
    let progress = Progress::default();
    let start = Instant::now();
    let done = std::sync::atomic::AtomicBool::new(false);
    let results = std::thread::scope(|s| {
        let reporter = s.spawn(|| report_progress(&progress, &done, start));
        let results = pool.install(|| divide(&board, args.depth, &rules, &progress));
        done.store(true, Ordering::Relaxed);
        let _ = reporter.join();
        results
    });
    let elapsed = start.elapsed();
    let total: u64 = results.iter().map(|(_, n)| n).sum();
    let mut out = std::io::stdout().lock();
    if args.divide {
        for (mv, n) in &results {
            let _ = writeln!(out, "{mv}: {n}");
        }
        let _ = writeln!(out);
    }
    let _ = writeln!(out, "Nodes searched: {total}");
    let secs = elapsed.as_secs_f64();
    let _ = writeln!(
        out,
        "Time: {:.3} s ({:.1} M leaves/s)",
        secs,
        total as f64 / secs.max(1e-9) / 1e6
    );
    Ok(())
}

/// A progress line on stderr once a count has run for a second: redrawn in place on a
/// terminal, a line every five seconds otherwise.
fn report_progress(progress: &Progress, done: &std::sync::atomic::AtomicBool, start: Instant) {
    let tty = std::io::stderr().is_terminal();
    let every = if tty {
        Duration::from_millis(250)
    } else {
        Duration::from_secs(5)
    };
    let mut next = Duration::from_secs(1);
    let mut printed = false;
    while !done.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(50));
        let t = start.elapsed();
        if t < next {
            continue;
        }
        next = t + every;
        let line = format!(
            "perft: {}/{} root moves, {} leaves, {:.1} s",
            progress.roots_done.load(Ordering::Relaxed),
            progress.roots_total.load(Ordering::Relaxed),
            progress.leaves.load(Ordering::Relaxed),
            t.as_secs_f64()
        );
        if tty {
            eprint!("\r{line}\x1b[K");
        } else {
            eprintln!("{line}");
        }
        printed = true;
    }
    if printed && tty {
        eprintln!();
    }
}

#[derive(Args)]
pub struct BenchArgs {
    /// Search depth.
    #[arg(default_value_t = hnefi::bench::DEFAULT_DEPTH)]
    pub depth: u32,
}

pub fn bench(args: BenchArgs) -> Result<(), String> {
    if !(1..=30).contains(&args.depth) {
        return Err(format!("bench depth {} is out of range 1-30", args.depth));
    }
    let result = hnefi::bench::run(args.depth, |i, fen, nodes| {
        eprintln!("position {i:>2}: {nodes:>10} nodes  {fen}");
    });
    let secs = result.time.as_secs_f64().max(1e-9);
    println!(
        "{} nodes {} nps",
        result.nodes,
        (result.nodes as f64 / secs) as u64
    );
    Ok(())
}

#[derive(Args)]
pub struct EvalArgs {
    /// Position (default: the start position).
    #[arg(long, default_value = START_FEN)]
    pub fen: String,
}

pub fn eval(args: EvalArgs) -> Result<(), String> {
    let board = parse_fen(&args.fen).map_err(|e| format!("bad --fen: {e}"))?;
    print!("{}", hnefi::search::eval::breakdown(&board));
    Ok(())
}

#[derive(Args)]
pub struct TacticsArgs {
    /// Instead of solving, scan a game file (copenhagen.csv format; without a value, the
    /// real games in data/copenhagen.csv) and print the EPD of every forced win in 1 to 3
    /// moves among the last 6 positions of each game.
    #[arg(long, value_name = "GAMES_CSV", num_args = 0..=1, default_missing_value = GAMES_CSV)]
    pub generate: Option<std::path::PathBuf>,
    /// The EPD to solve.
    #[arg(long, default_value = "positions/tactics.epd")]
    pub file: std::path::PathBuf,
    /// Search depth for solving.
    #[arg(long, default_value_t = 6)]
    pub depth: u32,
}

pub fn tactics(args: TacticsArgs) -> Result<(), String> {
    use hnefi::tactics::{Tactic, generate, solve_rate};
    if let Some(path) = args.generate {
        let text = std::fs::read_to_string(&path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let found = generate(&text, 6, 3);
        println!("# Forced wins in 1-3 moves (dm) from the last 6 positions of every game of");
        println!("# copenhagen.csv, copenhagen rules, repetition ignored; bm lists every winning");
        println!("# first move. Found and checked by the exhaustive solver (src/search/solve.rs):");
        println!(
            "#   hnefi tactics --generate {} > positions/tactics.epd",
            path.display()
        );
        for t in &found {
            println!("{}", t.to_epd());
        }
        eprintln!("{} positions", found.len());
        return Ok(());
    }
    let text = std::fs::read_to_string(&args.file)
        .map_err(|e| format!("cannot read {}: {e}", args.file.display()))?;
    let tactics: Vec<Tactic> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(Tactic::parse)
        .collect();
    for (n, solved, total) in solve_rate(&tactics, args.depth) {
        println!(
            "win in {n}: {solved}/{total} solved at depth {} ({:.1}%)",
            args.depth,
            100.0 * solved as f64 / total.max(1) as f64
        );
    }
    Ok(())
}

#[derive(Args)]
pub struct OpeningsArgs {
    /// Game file in the copenhagen.csv format.
    #[arg(default_value = GAMES_CSV)]
    pub games: std::path::PathBuf,
    /// Plies per opening.
    #[arg(long, default_value_t = 4)]
    pub plies: usize,
}

pub fn openings(args: OpeningsArgs) -> Result<(), String> {
    let text = std::fs::read_to_string(&args.games)
        .map_err(|e| format!("cannot read {}: {e}", args.games.display()))?;
    let list = hnefi::tournament::openings::openings_from_games(&text, args.plies);
    println!(
        "# The first {} plies of the real games, deduplicated, in order of first appearance:",
        args.plies
    );
    println!(
        "#   hnefi openings {} --plies {} > positions/openings.txt",
        args.games.display(),
        args.plies
    );
    for line in list {
        let moves: Vec<String> = line
            .iter()
            .map(|m| format!("{}-{}", m.from(), m.to()))
            .collect();
        println!("{}", moves.join(" "));
    }
    Ok(())
}

#[derive(Args)]
pub struct TtdArgs {
    #[arg(long, default_value_t = 9)]
    pub depth: u32,
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Transposition table size in MB (the engine's default).
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
}

/// The start and five middlegames of positions/bench.fen.
const TTD_POSITIONS: [usize; 6] = [0, 3, 8, 13, 18, 23];

pub fn timetodepth(args: TtdArgs) -> Result<(), String> {
    use hnefi::board::Position;
    use hnefi::search::{Engine, Limits, Options};
    let fens: Vec<&str> = hnefi::bench::POSITIONS
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split(';').next().unwrap_or_default().trim())
        .collect();
    let mut engine = Engine::new(Options {
        threads: args.threads.max(1),
        hash_mb: args.hash.max(1),
        ..Options::default()
    });
    let mut total = Duration::ZERO;
    for &i in &TTD_POSITIONS {
        let board = parse_fen(fens[i]).map_err(|e| e.to_string())?;
        engine.clear();
        let start = Instant::now();
        let r = engine.search(
            &Position::new(board, Rules::default()),
            Limits {
                depth: Some(args.depth),
                ..Limits::default()
            },
        );
        let t = start.elapsed();
        total += t;
        println!(
            "position {i:>2}: depth {} in {:>8.3} s, {} nodes, best {}",
            r.depth,
            t.as_secs_f64(),
            r.nodes,
            r.best.map_or("(none)".to_string(), |m| m.to_string())
        );
    }
    println!(
        "total {:.3} s to depth {} on {} thread(s)",
        total.as_secs_f64(),
        args.depth,
        args.threads
    );
    Ok(())
}

#[derive(Args)]
pub struct AnalyseArgs {
    /// Position (default: the start position).
    #[arg(long, default_value = START_FEN)]
    pub fen: String,
    /// Moves played from it, as d1d3 or d1-d3.
    #[arg(long, num_args = 1.., value_delimiter = ' ')]
    pub moves: Vec<String>,
    /// Search depth.
    #[arg(long, conflicts_with = "movetime")]
    pub depth: Option<u32>,
    /// Search time in milliseconds (default 5000 when no depth is given).
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Lines to show.
    #[arg(long, default_value_t = 1)]
    pub multipv: usize,
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    #[arg(long, default_value = "copenhagen")]
    pub rules: Preset,
}

pub fn analyse(args: AnalyseArgs) -> Result<(), String> {
    use hnefi::board::Position;
    use hnefi::board::notation::{parse_move, record_move};
    use hnefi::search::{Engine, Info, Limits, Options};
    let board = parse_fen(&args.fen).map_err(|e| format!("bad --fen: {e}"))?;
    let mut pos = Position::new(board, Rules::preset(args.rules));
    for (i, text) in args.moves.iter().filter(|m| !m.is_empty()).enumerate() {
        let mv = parse_move(text).map_err(|e| format!("--moves {}: {e}", i + 1))?;
        pos.try_play(mv)
            .map_err(|e| format!("--moves {} ({text}): {e}", i + 1))?;
    }
    if !(1..=64).contains(&args.multipv) || !(1..=256).contains(&args.threads) {
        return Err("--multipv must be 1-64 and --threads 1-256".into());
    }
    print!("{}", hnefi::protocol::uci::diagram(pos.board()));
    println!(
        "{} to move; {}",
        pos.side_to_move(),
        hnefi::board::notation::to_fen(pos.board())
    );
    if let Some(o) = pos.outcome() {
        println!("game over: {o}");
        return Ok(());
    }
    let limits = Limits {
        depth: args.depth,
        movetime: match (args.depth, args.movetime) {
            (None, None) => Some(Duration::from_millis(5000)),
            (_, t) => t.map(Duration::from_millis),
        },
        ..Limits::default()
    };
    let mut engine = Engine::new(Options {
        multipv: args.multipv,
        threads: args.threads,
        hash_mb: 64,
        ..Options::default()
    });
    let root = pos.clone();
    let report = move |info: &Info| {
        // Replay the line to write each move with its captures.
        let mut p = root.clone();
        let mut text = Vec::new();
        for &mv in &info.pv {
            if p.board().check_move(mv).is_err() {
                break;
            }
            let captured = p.play(mv);
            text.push(record_move(mv, captured));
        }
        println!(
            "depth {:>2}/{:<2} line {} {:>12}  {:>9} nodes {:>6.2} s  {}",
            info.depth,
            info.seldepth,
            info.multipv,
            info.score.to_string(),
            info.nodes,
            info.time.as_secs_f64(),
            text.join(" ")
        );
    };
    let result = engine.search_with(&pos, limits, Box::new(report));
    match result.best {
        Some(mv) => println!("best move {}-{}", mv.from(), mv.to()),
        None => println!("no move"),
    }
    Ok(())
}

#[derive(Args)]
pub struct ConnectArgs {
    /// The server's address, such as 127.0.0.1:49152.
    pub address: String,
    /// Thinking time per move in milliseconds.
    #[arg(long, default_value_t = 2000)]
    pub movetime: u64,
}

pub fn connect(args: ConnectArgs) -> Result<(), String> {
    let moves =
        hnefi::protocol::connect::connect(&args.address, Duration::from_millis(args.movetime))?;
    eprintln!("connection closed after {moves} moves by Hnefi");
    Ok(())
}

#[derive(Args)]
pub struct LatencyArgs {
    /// Searches to interrupt.
    #[arg(long, default_value_t = 20)]
    pub rounds: usize,
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
}

/// Lines written by the loop, stamped with the time they were written.
struct Stamped(std::sync::mpsc::Sender<(Instant, String)>, Vec<u8>);

impl Write for Stamped {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.1.extend_from_slice(buf);
        while let Some(i) = self.1.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.1.drain(..=i).collect();
            let _ = self.0.send((
                Instant::now(),
                String::from_utf8_lossy(&line).trim().to_string(),
            ));
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

pub fn latency(args: LatencyArgs) -> Result<(), String> {
    use hnefi::protocol::{Input, Output, Protocol, run};
    use std::sync::mpsc::channel;
    if args.rounds == 0 || args.threads == 0 {
        return Err("--rounds and --threads must be at least 1".into());
    }
    let (to_engine, input) = channel();
    let (stamp_tx, from_engine) = channel();
    let out = Output::new(Box::new(Stamped(stamp_tx, Vec::new())));
    let engine = std::thread::spawn(move || run(Some(Protocol::Uci), input, out, None));
    let send = |line: &str| {
        let t = Instant::now();
        let _ = to_engine.send(Input::Line(line.to_string()));
        t
    };
    let wait = |prefix: &str| -> Result<Instant, String> {
        loop {
            let (t, line) = from_engine
                .recv_timeout(Duration::from_secs(30))
                .map_err(|_| format!("no '{prefix}' from the engine"))?;
            if line.starts_with(prefix) {
                return Ok(t);
            }
        }
    };
    send(&format!("setoption name Threads value {}", args.threads));
    let (mut ready, mut stop) = (Vec::new(), Vec::new());
    for _ in 0..args.rounds {
        send("position startpos");
        send("go infinite");
        std::thread::sleep(Duration::from_millis(200));
        let t0 = send("isready");
        ready.push(wait("readyok")? - t0);
        let t0 = send("stop");
        stop.push(wait("bestmove")? - t0);
    }
    send("quit");
    let _ = engine.join();
    let summary = |name: &str, v: &mut Vec<Duration>| {
        v.sort();
        println!(
            "{name}: median {:.3} ms, max {:.3} ms over {} searches on {} thread(s)",
            v[v.len() / 2].as_secs_f64() * 1e3,
            v[v.len() - 1].as_secs_f64() * 1e3,
            v.len(),
            args.threads
        );
    };
    summary("isready -> readyok", &mut ready);
    summary("stop -> bestmove", &mut stop);
    Ok(())
}
