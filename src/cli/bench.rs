//! `hnefi bench` and `hnefi timetodepth`: the search over the bench positions, for its node
//! count and its speed on one or more threads.

use super::CliError;
use clap::Args;
use hnefi::board::{Board, Rules};
use std::time::{Duration, Instant};

#[derive(Args)]
pub struct BenchArgs {
    /// Search depth.
    #[arg(default_value_t = hnefi::bench::DEFAULT_DEPTH)]
    pub depth: u32,
}

pub fn bench(args: BenchArgs) -> Result<(), CliError> {
    if !(1..=30).contains(&args.depth) {
        return Err(CliError::out_of_range("DEPTH", args.depth, "1-30"));
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

pub fn timetodepth(args: TtdArgs) -> Result<(), CliError> {
    use hnefi::board::Position;
    use hnefi::search::{Engine, Limits, Options};
    let boards: Vec<Board> = hnefi::bench::positions().map(|(_, b)| b).collect();
    let mut engine = Engine::try_new(Options {
        threads: args.threads.max(1),
        hash_mb: args.hash.max(1),
        ..Options::default()
    })?;
    let mut total = Duration::ZERO;
    for &i in &TTD_POSITIONS {
        let board = boards[i];
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
