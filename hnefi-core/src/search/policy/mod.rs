//! The move policy: which move a deep search would play here, learned from deep searches
//! (issue 73), so that a fast search orders and reduces its moves as the deep one chooses.
//!
//! It reads the NNUE network's accumulator, which the search keeps at every node anyway: with
//! `h = crelu(acc)` (the network's own hidden activations, `0..=QA`), the side to move's move
//! from `f` to `t` scores
//!
//! ```text
//! logit(f, t) = from[side][f] . h + from_bias[side][f] + to[side][t] . h + to_bias[side][t]
//! ```
//!
//! a row of weights a square for where the piece leaves and one for where it lands, plus the
//! weights of what lies around the two squares ([`patterns`]). Only the rows of the squares a
//! node's moves use are read. A policy belongs to the network whose
//! accumulator it reads: its file records that network's fingerprint
//! ([`QuantisedNetwork::features_fingerprint`]) and the search runs it only beside that one.
//!
//! Trained by `hnefi train --policy` (the tools' `learn::policy`); the recipe of the built-in
//! one is in `NET.md`.

mod file;
pub mod patterns;

pub use file::PolicyError;

use super::nnue::simd::{Kernels, Row, crelu_dot};
use super::nnue::{Accumulator, HIDDEN, QA, QuantisedNetwork};
use crate::board::{Bitboard, Board, Move, MoveList, Position};
use crate::board::{Geometry, Side};
use std::sync::OnceLock;

/// The quantised weights' 1.0: a weight `w` is stored as `round(w * QP)`.
pub const QP: i32 = 64;

/// What [`Policy::logits`] returns per nat of logit: its units are `1 / LOGIT_UNIT` nats.
pub const LOGIT_UNIT: i32 = QA;

/// The rows of one square: what [`Policy::logits`] reads for a piece leaving or reaching it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PolicyRow {
    /// On the grid `1 / (QA QP)`.
    pub bias: i32,
    /// On the grid `1 / QP`.
    pub weights: Row,
}

impl PolicyRow {
    /// A row of zeros.
    pub const ZERO: PolicyRow = PolicyRow {
        bias: 0,
        weights: [0; HIDDEN],
    };
}

/// Which of a side's two row sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// The square the piece leaves.
    From = 0,
    /// The square it lands on.
    To = 1,
}

/// A move policy for one board size, quantised as the search runs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Policy {
    side: u8,
    /// [`Policy::fingerprint`] of the network it reads.
    net: u64,
    /// Rows by `(side to move, End, square)`: see [`Policy::row_index`].
    rows: Box<[PolicyRow]>,
    /// The weights of [`patterns`]' entries, on the grid `1 / (QA QP)`.
    patterns: Box<[i32]>,
}

impl Policy {
    /// A policy of zeros for boards `side` squares wide, beside the network of fingerprint
    /// `net`: every move scores alike.
    pub fn zero(side: u8, net: u64) -> Policy {
        let squares = usize::from(side) * usize::from(side);
        Policy {
            side,
            net,
            rows: vec![PolicyRow::ZERO; 4 * squares].into_boxed_slice(),
            patterns: vec![0; patterns::PATTERNS].into_boxed_slice(),
        }
    }

    /// The weights of [`patterns`]' entries, on the grid `1 / (QA QP)`.
    pub fn patterns(&self) -> &[i32] {
        &self.patterns
    }

    /// The same, to set.
    pub fn patterns_mut(&mut self) -> &mut [i32] {
        &mut self.patterns
    }

    /// The side of the board it is for.
    pub fn board_side(&self) -> u8 {
        self.side
    }

    /// The fingerprint of the network whose accumulator it reads.
    pub fn net_fingerprint(&self) -> u64 {
        self.net
    }

    /// Whether it runs beside `net` on boards of `G`.
    pub fn fits<G: Geometry>(&self, net: &QuantisedNetwork) -> bool {
        self.side == G::SIDE && net.fits::<G>() && net.features_fingerprint() == self.net
    }

    fn squares(&self) -> usize {
        usize::from(self.side) * usize::from(self.side)
    }

    fn row_index(&self, side: Side, end: End, square: usize) -> usize {
        (side.index() * 2 + end as usize) * self.squares() + square
    }

    /// The row of `square` for `side`'s moves, at `end`.
    pub fn row(&self, side: Side, end: End, square: usize) -> &PolicyRow {
        &self.rows[self.row_index(side, end, square)]
    }

    /// The same, to set.
    pub fn row_mut(&mut self, side: Side, end: End, square: usize) -> &mut PolicyRow {
        let i = self.row_index(side, end, square);
        &mut self.rows[i]
    }

    /// The logits of `moves`, moves of the side to move on `board`, whose accumulator is
    /// `acc`, into `out` (as long as `moves`), in `1 / LOGIT_UNIT` nats. Each square's row is
    /// read once however many moves use it.
    pub fn logits<G: Geometry>(
        &self,
        acc: &Accumulator,
        board: &Board<G>,
        moves: &[Move<G>],
        out: &mut [i32],
    ) {
        debug_assert_eq!(G::SIDE, self.side);
        let side = board.side_to_move();
        let k = Kernels::detected();
        let mut from = [0i32; crate::board::geometry::MAX_SQUARES];
        let mut to = [0i32; crate::board::geometry::MAX_SQUARES];
        let (mut froms, mut tos) = (Bitboard::<G>::EMPTY, Bitboard::<G>::EMPTY);
        for mv in moves {
            froms = froms.with(mv.from());
            tos = tos.with(mv.to());
        }
        let dot = |end: End, sq: usize| {
            let row = self.row(side, end, sq);
            crelu_dot(k, acc.values(), &row.weights) + row.bias
        };
        froms.for_each_square(|sq| from[sq.index()] = dot(End::From, sq.index()));
        tos.for_each_square(|sq| to[sq.index()] = dot(End::To, sq.index()));
        for (o, &mv) in out.iter_mut().zip(moves) {
            let around: i32 = patterns::move_patterns(board, mv)
                .iter()
                .map(|&e| self.patterns[usize::from(e)])
                .sum();
            // From the grid 1/(QA QP) to 1/QA.
            *o = (from[mv.from().index()] + to[mv.to().index()] + around) / QP;
        }
    }
}

impl Policy {
    /// Every legal move of `pos` with its logit (in `1 / LOGIT_UNIT` nats), likeliest first,
    /// read through `net`'s accumulator: for analysis and for the hosts, not the search,
    /// which scores the moves it generates itself.
    pub fn legal_logits<G: Geometry>(
        &self,
        net: &QuantisedNetwork,
        pos: &Position<G>,
    ) -> Vec<(Move<G>, i32)> {
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        let mut logits = vec![0; list.len()];
        let acc = Accumulator::refresh(net, pos.board());
        self.logits(&acc, pos.board(), &list, &mut logits);
        let mut out: Vec<(Move<G>, i32)> = list.into_iter().zip(logits).collect();
        out.sort_by_key(|&(_, l)| std::cmp::Reverse(l));
        out
    }
}

/// The policy built into the binary for 11x11, trained on the built-in 11x11 network's
/// accumulator; none yet for the other boards.
static EMBEDDED: &[(u8, &[u8])] = &[(11, include_bytes!("eleven.policy"))];

/// The built-in policy for boards of `G`, if there is one and it reads `net`.
pub fn embedded_for<G: Geometry>(net: &QuantisedNetwork) -> Option<&'static Policy> {
    static READ: OnceLock<Vec<Policy>> = OnceLock::new();
    let all = READ.get_or_init(|| {
        EMBEDDED
            .iter()
            .map(|(side, bytes)| {
                Policy::from_bytes_for(bytes, *side)
                    .unwrap_or_else(|e| panic!("built-in {side}x{side} policy: {e}"))
            })
            .collect()
    });
    all.iter().find(|p| p.fits::<G>(net))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Eleven;
    use crate::board::rules::Rules;
    use crate::board::{Board, Rulebook};
    use crate::search::nnue::embedded;

    /// A policy whose every row is random, for the tests.
    pub(crate) fn random_policy(seed: u64, side: u8, net: u64) -> Policy {
        let mut rng = crate::splitmix::SplitMix64::new(seed);
        let mut p = Policy::zero(side, net);
        for row in p.rows.iter_mut() {
            row.bias = rng.below(20_001) as i32 - 10_000;
            for w in &mut row.weights {
                *w = (rng.below(257) as i32 - 128) as i16;
            }
        }
        for w in p.patterns.iter_mut() {
            *w = rng.below(20_001) as i32 - 10_000;
        }
        p
    }

    #[test]
    fn a_moves_logit_is_its_two_rows_on_the_hidden_activations() {
        let net = embedded::<Eleven>().unwrap();
        let p = random_policy(3, 11, net.features_fingerprint());
        let board = Board::start();
        let acc = Accumulator::refresh(net, &board);
        let mut list = MoveList::new();
        board.generate_moves(&Rulebook::<Eleven>::new(Rules::default()), &mut list);
        let mut out = vec![0; list.len()];
        p.logits(&acc, &board, &list, &mut out);
        for (mv, &got) in list.iter().zip(&out) {
            let mut want = 0i64;
            for (end, sq) in [(End::From, mv.from()), (End::To, mv.to())] {
                let row = p.row(Side::Attackers, end, sq.index());
                want += i64::from(row.bias);
                for (a, w) in acc.values().iter().zip(&row.weights) {
                    want += i64::from((*a).clamp(0, QA as i16)) * i64::from(*w);
                }
            }
            for e in patterns::move_patterns(&board, *mv) {
                want += i64::from(p.patterns[usize::from(e)]);
            }
            assert_eq!(i64::from(got), want / i64::from(QP), "{mv}");
        }
        // The defenders' rows are others.
        let mut theirs = vec![0; list.len()];
        let defenders = board.with_side_to_move(Side::Defenders);
        p.logits(&acc, &defenders, &list, &mut theirs);
        assert_ne!(out, theirs);
    }

    #[test]
    fn it_scores_exactly_the_legal_moves() {
        let net = embedded::<Eleven>().unwrap();
        let policy = embedded_for::<Eleven>(net).unwrap();
        let mut rng = crate::splitmix::SplitMix64::new(11);
        let mut list = MoveList::new();
        let mut checked = 0;
        for _ in 0..6 {
            let mut pos = Position::<Eleven>::start(Rules::default()).unwrap();
            while pos.outcome().is_none() && pos.plies() < 120 {
                let scored = policy.legal_logits(net, &pos);
                pos.legal_moves(&mut list);
                let mut want: Vec<_> = list.to_vec();
                let mut got: Vec<_> = scored.iter().map(|&(m, _)| m).collect();
                want.sort_by_key(|m| m.raw());
                got.sort_by_key(|m| m.raw());
                assert_eq!(got, want, "{:?}", pos.board());
                assert!(
                    scored.windows(2).all(|w| w[0].1 >= w[1].1),
                    "likeliest first"
                );
                checked += 1;
                pos.play(list[rng.below(list.len())]);
            }
        }
        assert!(checked > 300);
    }

    #[test]
    fn the_built_in_policy_reads_the_built_in_network() {
        let net = embedded::<Eleven>().unwrap();
        let policy = embedded_for::<Eleven>(net).expect("an 11x11 policy for the built-in net");
        assert!(
            policy.fits::<Eleven>(net),
            "the 11x11 network was trained again: train the policy again (NET.md)"
        );
        let mut other = net.clone();
        other.feature_bias[0] += 1;
        assert!(!policy.fits::<Eleven>(&other));
        assert!(embedded_for::<Eleven>(&other).is_none());
    }
}
