//! Command-line subcommands for people: argument types and the printing around library calls.

use clap::Args;
use hnefi::board::notation::parse_fen;
use hnefi::board::{Preset, Rules, START_FEN};
use hnefi::perft::{Progress, divide};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
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
    print!(
        "{}",
        hnefi::search::eval::breakdown(&board, &hnefi::board::Rules::default())
    );
    Ok(())
}

#[derive(Args)]
pub struct TacticsArgs {
    /// Instead of solving, scan a game file (copenhagen.csv format; without a value, the
    /// real games in data/copenhagen.csv) and print the EPD of every forced win in 1 to 3
    /// moves among the last 6 positions of each game.
    #[arg(long, value_name = "GAMES_CSV", num_args = 0..=1, default_missing_value = GAMES_CSV)]
    pub generate: Option<PathBuf>,
    /// The EPD to solve.
    #[arg(long, default_value = "positions/tactics.epd")]
    pub file: PathBuf,
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
    pub games: PathBuf,
    /// Plies per opening.
    #[arg(long, default_value_t = 4, conflicts_with = "balanced")]
    pub plies: usize,
    /// Instead: one position per won game, --min-plies to --max-plies in, kept where a search
    /// at --nodes scores it within --band cp of even.
    #[arg(long)]
    pub balanced: bool,
    #[arg(long, default_value_t = 8, requires = "balanced")]
    pub min_plies: usize,
    #[arg(long, default_value_t = 16, requires = "balanced")]
    pub max_plies: usize,
    /// Nodes searched per position.
    #[arg(long, default_value_t = 20_000, requires = "balanced")]
    pub nodes: u64,
    /// Largest score kept, in cp either way.
    #[arg(long, default_value_t = 100, requires = "balanced")]
    pub band: i32,
    /// Worker threads (default: all cores).
    #[arg(long, requires = "balanced")]
    pub threads: Option<usize>,
    #[arg(long, default_value = "copenhagen")]
    pub rules: Preset,
}

fn format_opening(line: &[hnefi::board::Move]) -> String {
    let moves: Vec<String> = line
        .iter()
        .map(|m| format!("{}-{}", m.from(), m.to()))
        .collect();
    moves.join(" ")
}

pub fn openings(args: OpeningsArgs) -> Result<(), String> {
    let text = read_text(&args.games)?;
    if args.balanced {
        return balanced_openings(&args, &text);
    }
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
        println!("{}", format_opening(&line));
    }
    Ok(())
}

fn balanced_openings(args: &OpeningsArgs, text: &str) -> Result<(), String> {
    use hnefi::tournament::openings::{balanced_openings, later_openings_from_games};
    if args.min_plies > args.max_plies || args.nodes == 0 || args.band < 0 {
        return Err("need --min-plies <= --max-plies, --nodes >= 1 and --band >= 0".into());
    }
    let rules = Rules::preset(args.rules);
    let candidates = later_openings_from_games(text, args.min_plies, args.max_plies, rules);
    let bar = progress_bar(candidates.len() as u64, "positions");
    let pool = thread_pool(args.threads)?;
    let kept = pool
        .install(|| balanced_openings(&candidates, rules, args.nodes, args.band, || bar.inc(1)));
    bar.finish_and_clear();
    println!(
        "# Balanced openings: from each real game won by either side, the position {}-{} plies \
         in (the ply",
        args.min_plies, args.max_plies
    );
    println!(
        "# chosen from the game's line number), deduplicated, kept where Hnefi's search at {} \
         nodes",
        args.nodes
    );
    println!(
        "# (one thread, empty table) scores it within {} cp of even: {} of {} positions.",
        args.band,
        kept.len(),
        candidates.len()
    );
    let rules = if args.rules == Preset::Copenhagen {
        String::new()
    } else {
        format!(" --rules {}", args.rules)
    };
    println!(
        "#   hnefi openings --balanced {} --min-plies {} --max-plies {} --nodes {} --band {}{rules} \\",
        args.games.display(),
        args.min_plies,
        args.max_plies,
        args.nodes,
        args.band,
    );
    println!("#     > positions/openings-balanced.txt");
    for (line, _) in &kept {
        println!("{}", format_opening(line));
    }
    eprintln!(
        "openings: kept {} of {} positions within {} cp at {} nodes",
        kept.len(),
        candidates.len(),
        args.band,
        args.nodes
    );
    Ok(())
}

fn read_text(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

fn thread_pool(threads: Option<usize>) -> Result<rayon::ThreadPool, String> {
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(n) = threads {
        if n == 0 {
            return Err("--threads must be at least 1".into());
        }
        pool = pool.num_threads(n);
    }
    pool.build()
        .map_err(|e| format!("cannot start threads: {e}"))
}

/// A bar on a terminal; nothing otherwise (callers that run long log lines instead).
fn progress_bar(len: u64, unit: &str) -> ProgressBar {
    let bar = ProgressBar::new(len);
    bar.set_style(
        ProgressStyle::with_template(&format!(
            "{{bar:30}} {{pos}}/{{len}} {unit} [{{elapsed_precise}} < {{eta_precise}}] {{msg}}"
        ))
        .expect("a valid template"),
    );
    bar
}

#[derive(Args)]
pub struct DatagenArgs {
    /// File the samples are appended to, a game at a time (FEN;SCORE;RESULT;GAME lines).
    #[arg(short, long)]
    pub output: PathBuf,
    /// Real games (copenhagen.csv format) whose openings start the games.
    #[arg(long, default_value = GAMES_CSV)]
    pub book: PathBuf,
    /// Games in the whole run (all shards), numbered 0 to N-1.
    #[arg(long, default_value_t = 1000)]
    pub games: u64,
    /// Nodes searched per move.
    #[arg(long, default_value_t = 5000)]
    pub nodes: u64,
    /// Nodes searched to judge whether a start is even (default: 4 x --nodes).
    #[arg(long)]
    pub balance_nodes: Option<u64>,
    /// Seed: game g is the same whatever the shard; its GAME field is seed * 10^9 + g.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Play only games g with g % N == I - 1.
    #[arg(long, default_value = "1/1", value_name = "I/N")]
    pub shard: String,
    /// Plies of a real game's opening at the start of each game.
    #[arg(long, default_value_t = 8)]
    pub book_plies: usize,
    /// Random legal moves after the opening.
    #[arg(long, default_value_t = 2)]
    pub random_plies: usize,
    /// Keep a start only if its score is within this many cp of even.
    #[arg(long, default_value_t = 300)]
    pub balance: i32,
    /// A game going on past this many plies (from the initial position) is a draw.
    #[arg(long, default_value_t = 300)]
    pub max_plies: usize,
    #[arg(long, default_value = "copenhagen")]
    pub rules: Preset,
    /// Games played at once, one engine thread each (default: all cores).
    #[arg(long, alias = "concurrency")]
    pub threads: Option<usize>,
    /// Transposition table per game, in MB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// Resume: keep the games already in the output file and play the rest (the last game in
    /// the file is cut and played again, as an interruption may have cut it short).
    #[arg(long)]
    pub skip_existing: bool,
}

fn parse_shard(text: &str) -> Result<(u64, u64), String> {
    let bad = || format!("--shard: '{text}' is not I/N with 1 <= I <= N");
    let (i, n) = text.split_once('/').ok_or_else(bad)?;
    let (i, n): (u64, u64) = (
        i.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if i == 0 || i > n {
        return Err(bad());
    }
    Ok((i, n))
}

/// Set by the first Ctrl-C; the second one ends the process at once.
fn interrupt_flag(what: &'static str) -> Arc<AtomicBool> {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let handler = ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
        eprintln!("\nhnefi: stopping {what} (Ctrl-C again to quit at once)");
    });
    if let Err(e) = handler {
        log::warn!("cannot catch Ctrl-C: {e}");
    }
    stop
}

fn clock(t: Duration) -> String {
    let s = t.as_secs();
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

pub fn datagen(args: DatagenArgs) -> Result<(), String> {
    use hnefi::learn::datagen::{Settings, book_from_games, open_output, run};
    if args.threads.is_some_and(|n| !(1..=256).contains(&n)) {
        return Err("--threads must be 1-256".into());
    }
    let settings = Settings {
        rules: Rules::preset(args.rules),
        nodes: args.nodes,
        balance_nodes: args.balance_nodes.unwrap_or(args.nodes.saturating_mul(4)),
        book_plies: args.book_plies,
        random_plies: args.random_plies,
        balance: args.balance,
        max_plies: args.max_plies,
        seed: args.seed,
        games: args.games,
        shard: parse_shard(&args.shard)?,
        hash_mb: args.hash,
    };
    settings.check().map_err(|e| e.to_string())?;
    let text = read_text(&args.book)?;
    let book = book_from_games(&text, settings.book_plies, settings.rules);
    let (mut file, skip) =
        open_output(&args.output, &settings, args.skip_existing).map_err(|e| e.to_string())?;
    let todo = settings.shard_games().filter(|g| !skip.contains(g)).count() as u64;
    eprintln!(
        "datagen: {todo} games to play (shard {}, {} already in {}), {} nodes a move, \
         {} openings of {} plies",
        args.shard,
        skip.len(),
        args.output.display(),
        settings.nodes,
        book.len(),
        settings.book_plies
    );
    let tty = std::io::stderr().is_terminal();
    let bar = progress_bar(todo, "games");
    let mut last_log = Instant::now();
    let stop = interrupt_flag("once the games in play are over");
    let output = &args.output;
    let totals = run(
        &settings,
        &book,
        &skip,
        args.threads,
        &stop,
        |game, totals| {
            file.write_all(game.text().as_bytes()).map_err(|source| {
                hnefi::learn::datagen::DatagenError::Io {
                    path: output.clone(),
                    source,
                }
            })?;
            let rate = totals.positions_per_second();
            if tty {
                bar.inc(1);
                bar.set_message(format!("{} positions, {rate:.0}/s", totals.positions));
            } else if last_log.elapsed() >= Duration::from_secs(30) || totals.games == todo {
                last_log = Instant::now();
                let left = todo.saturating_sub(totals.games) as f64;
                let eta = totals.elapsed.mul_f64(left / totals.games.max(1) as f64);
                eprintln!(
                    "datagen: {}/{todo} games, {} positions, {rate:.0} positions/s, {} < {}",
                    totals.games,
                    totals.positions,
                    clock(totals.elapsed),
                    clock(eta)
                );
            }
            Ok(())
        },
    )
    .map_err(|e| e.to_string());
    bar.finish_and_clear();
    let totals = totals?;
    eprintln!(
        "datagen: {} games, {} positions (attackers won {}, defenders won {}, drawn {}), \
         {:.0} positions/s over {:.1} s, {:.2} starts drawn per game; written to {}",
        totals.games,
        totals.positions,
        totals.attackers,
        totals.defenders,
        totals.draws,
        totals.positions_per_second(),
        totals.elapsed.as_secs_f64(),
        totals.start_tries as f64 / totals.games.max(1) as f64,
        args.output.display()
    );
    if stop.load(Ordering::Relaxed) && totals.games < todo {
        return Err(format!(
            "interrupted after {} of {todo} games; run the same command with --skip-existing \
             to play the rest",
            totals.games
        ));
    }
    Ok(())
}

#[derive(Args)]
pub struct GamesDataArgs {
    /// Game file in the copenhagen.csv format.
    #[arg(default_value = GAMES_CSV)]
    pub games: PathBuf,
    /// Where to write the samples (FEN;-;RESULT;LINE); `-` is standard output.
    #[arg(short, long, default_value = "-")]
    pub output: PathBuf,
}

pub fn games_data(args: GamesDataArgs) -> Result<(), String> {
    let text = read_text(&args.games)?;
    let (samples, r) = hnefi::learn::games::samples_from_games(&text);
    let to_stdout = args.output.as_os_str() == "-";
    let sink: Box<dyn Write> = if to_stdout {
        Box::new(std::io::stdout().lock())
    } else {
        Box::new(
            std::fs::File::create(&args.output)
                .map_err(|e| format!("cannot write {}: {e}", args.output.display()))?,
        )
    };
    let mut out = std::io::BufWriter::new(sink);
    let written = samples
        .iter()
        .try_for_each(|s| writeln!(out, "{s}"))
        .and_then(|()| out.flush());
    let name = if to_stdout {
        "standard output".to_string()
    } else {
        args.output.display().to_string()
    };
    written.map_err(|e| format!("cannot write {name}: {e}"))?;
    eprintln!(
        "games-data: {} lines: {} games used (attackers won {}, defenders won {}, drawn {}), \
         {} unfinished skipped, {} unreadable, {} cut short at an illegal move; {} positions (from games won by the attackers {}, by the defenders \
         {}, drawn {}) written to {}",
        r.lines,
        r.games.iter().sum::<usize>(),
        r.games[0],
        r.games[1],
        r.games[2],
        r.ongoing,
        r.unreadable,
        r.cut_short,
        samples.len(),
        r.positions[0],
        r.positions[1],
        r.positions[2],
        name
    );
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
    let mut engine = Engine::try_new(Options {
        threads: args.threads.max(1),
        hash_mb: args.hash.max(1),
        ..Options::default()
    })
    .map_err(|e| e.to_string())?;
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
    print!("{}", hnefi::protocol::diagram(pos.board()));
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
        hnefi::protocol::connect::connect(&args.address, Duration::from_millis(args.movetime))
            .map_err(|e| e.to_string())?;
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
    let engine =
        std::thread::spawn(move || run(Some(Protocol::Uci), input, out, Default::default()));
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

/// Which protocols `hnefi fuzz` runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FuzzProtocol {
    Uci,
    Otep,
    Htp,
    All,
}

#[derive(Args)]
pub struct FuzzArgs {
    /// The protocol whose loop is fuzzed, or all three one after another.
    #[arg(long, value_enum, default_value_t = FuzzProtocol::All)]
    pub protocol: FuzzProtocol,
    /// Lines per protocol.
    #[arg(long, default_value_t = 1_000_000)]
    pub lines: u64,
    /// Line i of a run depends only on the seed and i: a failure replays with the same seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// A line not handled within this many ms is a hang.
    #[arg(long, default_value_t = 10_000)]
    pub deadline_ms: u64,
    /// Nodes per search at most, so that searches end at once.
    #[arg(long, default_value_t = 500)]
    pub nodes: u64,
    /// Address space of the fuzzing process in MB (0: no limit), so that a runaway allocation
    /// fails inside the fuzz instead of taking a shared machine's memory.
    #[arg(long, default_value_t = 8192)]
    pub memory_mb: u64,
}

/// Limits the address space of this process to `mb` MB.
#[cfg(target_os = "linux")]
fn limit_memory(mb: u64) -> Result<(), String> {
    let bytes = mb.saturating_mul(1 << 20) as libc::rlim_t;
    let limit = libc::rlimit {
        rlim_cur: bytes,
        rlim_max: bytes,
    };
    // SAFETY: setrlimit reads the struct it is given and changes only this process's limit.
    if unsafe { libc::setrlimit(libc::RLIMIT_AS, &limit) } == 0 {
        Ok(())
    } else {
        Err(format!(
            "--memory-mb {mb}: cannot limit the address space: {}",
            std::io::Error::last_os_error()
        ))
    }
}

#[cfg(not(target_os = "linux"))]
fn limit_memory(_mb: u64) -> Result<(), String> {
    log::warn!("--memory-mb is only applied on Linux");
    Ok(())
}

pub fn fuzz(args: FuzzArgs) -> Result<(), String> {
    use hnefi::fuzz::{Config, fuzz};
    use hnefi::protocol::Protocol;
    if args.nodes == 0 || args.deadline_ms == 0 {
        return Err("--nodes and --deadline-ms must be at least 1".into());
    }
    if args.memory_mb > 0 {
        limit_memory(args.memory_mb)?;
    }
    // Hostile lines make the loops warn by the thousand; only errors are worth reading here.
    if std::env::var_os("RUST_LOG").is_none() {
        log::set_max_level(log::LevelFilter::Error);
    }
    let protocols = match args.protocol {
        FuzzProtocol::Uci => vec![Protocol::Uci],
        FuzzProtocol::Otep => vec![Protocol::Otep],
        FuzzProtocol::Htp => vec![Protocol::Htp],
        FuzzProtocol::All => vec![Protocol::Uci, Protocol::Otep, Protocol::Htp],
    };
    let mut clean = true;
    for protocol in protocols {
        let name = format!("{protocol:?}").to_lowercase();
        let config = Config {
            protocol,
            lines: args.lines,
            seed: args.seed,
            deadline: Duration::from_millis(args.deadline_ms),
            max_nodes: args.nodes,
        };
        let start = Instant::now();
        let mut last = Instant::now();
        let report = fuzz(&config, &mut |done| {
            if last.elapsed() >= Duration::from_secs(10) {
                last = Instant::now();
                eprintln!(
                    "fuzz {name}: {done} of {} lines, {:.0} s",
                    args.lines,
                    start.elapsed().as_secs_f64()
                );
            }
        });
        let secs = report.elapsed.as_secs_f64();
        println!(
            "{name}: {} lines in {secs:.1} s ({:.0} lines/s), seed {}: {} panics, {} hangs, \
             {} restarts, {}",
            report.lines,
            report.lines as f64 / secs.max(1e-9),
            args.seed,
            report.panics,
            report.hangs,
            report.restarts,
            if report.alive {
                "answered the probe and ended"
            } else {
                "DID NOT answer the probe or end"
            }
        );
        for f in &report.failures {
            println!("  {f}");
        }
        clean &= report.clean();
    }
    if clean {
        Ok(())
    } else {
        Err("the fuzz found panics or hangs (above)".into())
    }
}
