//! `hnefi perft`: counts the leaves of the move tree in parallel, with a progress line.

use super::CliError;
use super::common::{RulesArg, thread_pool};
use clap::Args;
use hnefi::perft::{PerftHash, Progress, divide_fen, total};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

#[derive(Args)]
pub struct PerftArgs {
    /// Plies to count.
    pub depth: u32,
    /// The position: a FEN, or an OpenTafl position string (rank 1 first) and then the side
    /// to move, `a` or `d`, on the board of --rules [default: the start position of --rules].
    #[arg(long = "fen", value_name = "POSITION")]
    pub fen: Option<String>,
    /// Print the count below each root move.
    #[arg(long)]
    pub divide: bool,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// A table of MB megabytes of subtree counts, shared by the threads: a position reached
    /// by several move orders is counted once (0, the default: none).
    #[arg(long, value_name = "MB", default_value_t = 0)]
    pub hash: usize,
    #[command(flatten)]
    pub rules: RulesArg,
}

pub fn perft(args: PerftArgs) -> Result<(), CliError> {
    let (rules, start) = args.rules.rules_and_start();
    let position = args.fen.unwrap_or(start);
    if args.depth > 12 {
        return Err(CliError::out_of_range("DEPTH", args.depth, "at most 12"));
    }
    let pool = thread_pool(args.threads)?;
    let progress = Progress {
        hash: (args.hash > 0)
            .then(|| PerftHash::new(args.hash))
            .transpose()
            .map_err(CliError::PerftHash)?,
        ..Progress::default()
    };
    let start = Instant::now();
    let done = AtomicBool::new(false);
    let results = std::thread::scope(|s| {
        let reporter = s.spawn(|| report_progress(&progress, &done, start));
        let results = pool.install(|| divide_fen(&position, args.depth, &rules, &progress));
        done.store(true, Ordering::Relaxed);
        let _ = reporter.join();
        results
    });
    let results = results?;
    let elapsed = start.elapsed();
    let total = total(args.depth, &results);
    if args.divide {
        for (mv, n) in &results {
            outln!("{mv}: {n}")?;
        }
        outln!()?;
    }
    outln!("Nodes searched: {total}")?;
    let secs = elapsed.as_secs_f64();
    outln!(
        "Time: {:.3} s ({:.1} M leaves/s)",
        secs,
        total as f64 / secs.max(1e-9) / 1e6
    )?;
    Ok(())
}

/// A progress line on stderr once a count has run for a second: redrawn in place on a
/// terminal, a line every five seconds otherwise.
fn report_progress(progress: &Progress, done: &AtomicBool, start: Instant) {
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
            use std::io::Write;
            let _ = write!(std::io::stderr(), "\r{line}\x1b[K");
        } else {
            note!("{line}");
        }
        printed = true;
    }
    if printed && tty {
        note!();
    }
}
