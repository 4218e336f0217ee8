//! `hnefi bench` and `hnefi timetodepth`: the search over the bench positions, for its node
//! count and its speed on one or more threads.

use clap::Args;
use hnefi::board::Rules;
use hnefi::board::notation::parse_fen;
use std::time::{Duration, Instant};

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
    let fens: Vec<&str> = hnefi::bench::fens().collect();
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
