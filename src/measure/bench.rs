//! `hnefi bench`: a fixed search over fixed positions, one thread, for a node count that
//! changes only when the search does, and a speed figure.

use crate::board::notation::parse_fen;
use crate::board::{Board, Position, Rules};
use crate::search::nnue::QuantisedNetwork;
use crate::search::{Engine, EvalKind, Limits, Options, OptionsError};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The positions, built into the binary so that `bench` runs anywhere.
pub const POSITIONS: &str = include_str!("../../positions/bench.fen");
pub const DEFAULT_DEPTH: u32 = 7;

/// The positions of [`POSITIONS`] in order, each with its FEN.
pub fn positions() -> impl Iterator<Item = (&'static str, Board)> {
    POSITIONS
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let fen = l.split(';').next().unwrap_or_default().trim();
            (fen, parse_fen(fen).expect("bench positions are valid"))
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

/// Searches every position to `depth` on one thread with a cleared 16 MB table and the
/// evaluation of `eval` (and `net`, which the NNUE evaluations need), calling `each` with the
/// position's number, FEN and node count.
pub fn run(
    depth: u32,
    eval: EvalKind,
    net: Option<Arc<QuantisedNetwork>>,
    mut each: impl FnMut(usize, &str, u64),
) -> Result<BenchResult, OptionsError> {
    let mut engine = Engine::try_new(Options {
        hash_mb: 16,
        threads: 1,
        eval,
        net,
        ..Options::default()
    })?;
    let mut nodes = 0;
    let mut time = Duration::ZERO;
    let mut count = 0;
    for (fen, board) in positions() {
        let pos = Position::new(board, Rules::default());
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learn::network::FloatNetwork;
    use crate::search::eval::weights::SCALE;

    /// A residual network whose output layer is zero is the hand evaluation: the same
    /// search, node for node, with its accumulators kept move by move or refreshed.
    #[test]
    fn a_zero_residual_net_searches_as_the_hand_evaluation() {
        let net = Arc::new(FloatNetwork::residual(1, SCALE as f32, 363).quantise());
        let nodes = |eval, net| {
            let mut per = Vec::new();
            run(5, eval, net, |_, _, n| per.push(n)).unwrap();
            per
        };
        let hand = nodes(EvalKind::Hand, None);
        assert_eq!(nodes(EvalKind::Nnue, Some(net.clone())), hand);
        assert_eq!(nodes(EvalKind::NnueRefresh, Some(net)), hand);
    }
}
