//! Command-line subcommands for people: argument types and the printing around library calls.

use clap::Args;
use hnefi::board::notation::parse_fen;
use hnefi::board::{Preset, Rules, START_FEN};
use hnefi::perft::{Progress, divide};
use std::io::{IsTerminal, Write};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

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
