//! `hnefi bench`: a fixed search over fixed positions, one thread, for a node count that
//! changes only when the search does, and a speed figure.

use crate::board::Rules;
use crate::board::{Board, Position};
use crate::search::nnue::QuantisedNetwork;
use crate::search::size::Size;
use crate::search::{EvalKind, Limits, Options, OptionsError, Searcher};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The positions, built into the binary so that `bench` runs anywhere: 11x11's, whose node
/// count is the `Bench:` signature.
pub const POSITIONS: &str = include_str!("../../positions/bench.fen");
/// 13x13's, to weigh its node against 11x11's.
pub const POSITIONS_13: &str = include_str!("../../positions/bench-13.fen");
pub const DEFAULT_DEPTH: u32 = 7;

/// The bench positions of boards `side` squares wide, where there are some.
pub fn positions_text(side: u8) -> Option<&'static str> {
    match side {
        11 => Some(POSITIONS),
        13 => Some(POSITIONS_13),
        _ => None,
    }
}

/// The bench positions of `G` in order, each with its FEN (none for a size without any).
pub fn positions<G: Size>() -> impl Iterator<Item = (&'static str, Board<G>)> {
    positions_text(G::SIDE)
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let fen = l.split(';').next().unwrap_or_default().trim();
            (
                fen,
                Board::from_fen(fen).expect("bench positions are valid"),
            )
        })
}

pub struct BenchResult {
    pub nodes: u64,
    pub time: Duration,
    pub positions: usize,
}

impl BenchResult {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.time.as_secs_f64().max(1e-9)) as u64
    }
}

/// Searches every position of `G` to `depth` under `rules` on one thread with a cleared 16 MB
/// table and the evaluation of `eval` (and `net`, or else the size's built-in network),
/// calling `each` with the position's number, FEN and node count.
pub fn run<G: Size>(
    rules: Rules,
    depth: u32,
    eval: EvalKind,
    net: Option<Arc<QuantisedNetwork>>,
    mut each: impl FnMut(usize, &str, u64),
) -> Result<BenchResult, OptionsError> {
    let mut engine = Searcher::<G>::try_new(Options {
        hash_mb: 16,
        threads: 1,
        eval,
        net,
        ..Options::default()
    })?;
    let mut nodes = 0;
    let mut time = Duration::ZERO;
    let mut count = 0;
    for (fen, board) in positions::<G>() {
        let pos = Position::checked(board, rules).expect("the caller's rules fit their size");
        engine.clear();
        let start = Instant::now();
        let result = engine.search(
            &pos,
            Limits {
                depth: Some(depth),
                ..Limits::default()
            },
        );
        time += start.elapsed();
        nodes += result.nodes;
        count += 1;
        each(count, fen, result.nodes);
    }
    Ok(BenchResult {
        nodes,
        time,
        positions: count,
    })
}
