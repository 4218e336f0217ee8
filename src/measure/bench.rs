//! `hnefi bench`: a fixed search over fixed positions, one thread, for a node count that
//! changes only when the search does, and a speed figure; and `hnefi timetodepth`, the time
//! some of them take to a depth on one or more threads.

use crate::board::Move;
use crate::board::Rules;
use crate::board::{Board, Position};
use crate::search::nnue::QuantisedNetwork;
use crate::search::size::Size;
use crate::search::{EvalKind, Go, Options, OptionsError, Searcher};
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
            Go {
                depth: Some(depth),
                ..Go::default()
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

/// The bench positions timed by [`time_to_depth`]: the start and five middlegames.
pub const TTD_POSITIONS: [usize; 6] = [0, 3, 8, 13, 18, 23];

/// What [`time_to_depth`] found in one position.
pub struct DepthReached<G: Size> {
    /// The position's number in the bench positions.
    pub position: usize,
    /// The depth of the last iteration.
    pub depth: u32,
    pub time: Duration,
    pub nodes: u64,
    pub best: Option<Move<G>>,
}

/// Searches each of [`TTD_POSITIONS`] of `G` to `depth` under the default rules with
/// `threads` threads and a table of `hash_mb`, cleared before each, calling `each` as each
/// ends. Returns the time of all.
pub fn time_to_depth<G: Size>(
    depth: u32,
    threads: usize,
    hash_mb: usize,
    mut each: impl FnMut(&DepthReached<G>),
) -> Result<Duration, OptionsError> {
    let boards: Vec<Board<G>> = positions::<G>().map(|(_, b)| b).collect();
    let mut engine = Searcher::<G>::try_new(Options {
        threads: threads.max(1),
        hash_mb: hash_mb.max(1),
        ..Options::default()
    })?;
    let mut total = Duration::ZERO;
    for &i in TTD_POSITIONS.iter().filter(|&&i| i < boards.len()) {
        engine.clear();
        let start = Instant::now();
        let pos = Position::new(boards[i], Rules::default());
        let result = engine.search(
            &pos,
            Go {
                depth: Some(depth),
                ..Go::default()
            },
        );
        let time = start.elapsed();
        total += time;
        each(&DepthReached {
            position: i,
            depth: result.depth,
            time,
            nodes: result.nodes,
            best: result.best,
        });
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::size::Standard;

    #[test]
    fn time_to_depth_reaches_the_depth_in_each_position_it_names() {
        let mut seen = Vec::new();
        time_to_depth::<Standard>(2, 1, 1, |r| {
            assert_eq!(r.depth, 2, "position {}", r.position);
            assert!(r.nodes > 0 && r.best.is_some(), "position {}", r.position);
            seen.push(r.position);
        })
        .unwrap();
        assert_eq!(seen, TTD_POSITIONS);
    }
}
