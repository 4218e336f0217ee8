//! The network in integers, as the engine runs it. The float network that training moves,
//! and its quantisation to this one, are the trainer's (`crate::learn::network`).

use super::simd::{self, Kernels};
use super::{Accumulator, HIDDEN, QA, QB};
use crate::board::{Board, Rulebook};
use crate::board::{Geometry, Side};
use crate::search::eval::{MAX_EVAL, PieceSquares, evaluate as hand_evaluate, evaluate_given};
use crate::search::score::Score;
use crate::search::size::Size;
use std::sync::OnceLock;

/// The network in integers: `i16` feature weights and accumulators on the grid `1/QA`, `i16`
/// output weights on `1/QB` cp, `i32` sums: the output is in cp.
#[derive(Clone)]
pub struct QuantisedNetwork {
    /// One row of hidden weights per input.
    pub feature_weights: Box<[[i16; HIDDEN]]>,
    /// The hidden units' biases.
    pub feature_bias: [i16; HIDDEN],
    /// Attackers to move, then defenders to move.
    pub output_weights: [[i16; HIDDEN]; 2],
    /// On the grid `1/(QA QB)` cp.
    pub output_bias: [i32; 2],
    /// The logistic scale of its training: P(win) = 1 / (1 + exp(-scale * cp)).
    pub scale: f32,
    /// Whether the output is a correction added to the hand evaluation.
    pub residual: bool,
    /// Of a residual network, the fingerprint of the hand evaluation it was trained on
    /// ([`crate::search::eval::fingerprint`]); 0 where unknown (net files of version 2).
    pub hand: u64,
    /// [`QuantisedNetwork::features_fingerprint`], worked out on first use.
    features: FingerprintCache,
}

/// A fingerprint worked out once; a clone starts empty, as the fields it was worked out from
/// are public and a clone is often changed.
#[derive(Default)]
struct FingerprintCache(OnceLock<u64>);

impl Clone for FingerprintCache {
    fn clone(&self) -> Self {
        FingerprintCache::default()
    }
}

// The scale is never NaN (the file and the trainer refuse it), so bitwise equality is equality.
impl PartialEq for QuantisedNetwork {
    fn eq(&self, other: &QuantisedNetwork) -> bool {
        self.feature_weights == other.feature_weights
            && self.feature_bias == other.feature_bias
            && self.output_weights == other.output_weights
            && self.output_bias == other.output_bias
            && self.scale.to_bits() == other.scale.to_bits()
            && self.residual == other.residual
            && self.hand == other.hand
    }
}

impl Eq for QuantisedNetwork {}

/// The shape and scale, not the 90,000 weights, for options printed in logs.
impl std::fmt::Debug for QuantisedNetwork {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "QuantisedNetwork {{ inputs: {}, hidden: {HIDDEN}, scale: {}, residual: {} }}",
            self.inputs(),
            self.scale,
            self.residual
        )
    }
}

// The output sum of HIDDEN terms of at most QA * 2^15 stays inside i32.
const _: () = assert!(HIDDEN as i64 * QA as i64 * (1 << 15) <= i32::MAX as i64);

impl QuantisedNetwork {
    /// A network of zeros with `inputs` inputs: the trainer's start.
    pub fn zero(scale: f32, inputs: usize) -> QuantisedNetwork {
        QuantisedNetwork {
            feature_weights: vec![[0; HIDDEN]; inputs].into_boxed_slice(),
            feature_bias: [0; HIDDEN],
            output_weights: [[0; HIDDEN]; 2],
            output_bias: [0; 2],
            scale,
            residual: false,
            hand: 0,
            features: FingerprintCache::default(),
        }
    }

    /// A fingerprint of the feature transformer (its weights and biases), which is all a move
    /// policy reads of the network ([`crate::search::policy`]). Worked out once, on first use:
    /// set the weights before asking.
    pub fn features_fingerprint(&self) -> u64 {
        *self.features.0.get_or_init(|| {
            use std::hash::Hasher;
            let mut h = fxhash::FxHasher64::default();
            for row in self.feature_weights.iter() {
                for w in row {
                    h.write_i16(*w);
                }
            }
            for b in &self.feature_bias {
                h.write_i16(*b);
            }
            h.write_usize(self.feature_weights.len());
            h.finish()
        })
    }

    /// Inputs: 3 x the squares of the board the network is for.
    pub fn inputs(&self) -> usize {
        self.feature_weights.len()
    }

    /// The side of the board the network is for, if its inputs fit one.
    pub fn board_side(&self) -> Option<u8> {
        super::board_side(self.inputs())
    }

    /// Whether the network is for boards of `G`.
    pub fn fits<G: Geometry>(&self) -> bool {
        self.inputs() == super::inputs::<G>()
    }

    /// The largest magnitude an accumulator of the network can take on any board of its size:
    /// the hidden bias plus, on every square, the largest of its three pieces' weights (a
    /// square holds one piece at most). A move's update passes through a board with the piece
    /// on both squares, still one piece a square, so no step of it goes further.
    pub fn reach(&self) -> i32 {
        let squares = self.inputs() / 3;
        let mut reach = self.feature_bias.map(|b| i32::from(b.unsigned_abs()));
        // Square by square, whole rows at a time, so that the loop vectorises: reading a net
        // file stays a small part of a short search.
        for sq in 0..squares {
            let rows = [sq, squares + sq, 2 * squares + sq].map(|f| &self.feature_weights[f]);
            for (((r, a), d), k) in reach.iter_mut().zip(rows[0]).zip(rows[1]).zip(rows[2]) {
                *r += i32::from(a.unsigned_abs().max(d.unsigned_abs()).max(k.unsigned_abs()));
            }
        }
        reach.into_iter().max().unwrap_or(0)
    }

    /// Whether the network is a correction to the hand evaluation.
    pub fn is_residual(&self) -> bool {
        self.residual
    }

    /// The logistic scale the network was trained with: P(win) = sigmoid(scale * cp).
    pub fn scale(&self) -> f32 {
        self.scale
    }

    /// The evaluation in cp for `side` to move, from the accumulator of the board.
    #[inline]
    pub fn evaluate(&self, acc: &Accumulator, side: Side) -> i32 {
        self.evaluate_with(Kernels::detected(), acc, side)
    }

    #[inline(always)]
    /// The output for `side` to move on `acc`, with kernels `k`.
    pub fn evaluate_with(&self, k: Kernels, acc: &Accumulator, side: Side) -> i32 {
        let sum = simd::crelu_dot(k, acc.values(), &self.output_weights[side.index()]);
        let unit = i64::from(QA * QB);
        let total = i64::from(sum) + i64::from(self.output_bias[side.index()]);
        // To the nearest cp.
        (total + unit / 2).div_euclid(unit) as i32
    }

    /// The evaluation of a board from scratch, in cp for the side to move: the network's
    /// output alone (of a residual network, the correction).
    pub fn evaluate_board<G: Geometry>(&self, board: &Board<G>) -> i32 {
        self.evaluate(&Accumulator::refresh(self, board), board.side_to_move())
    }

    /// What the search takes as the evaluation of `board`, whose accumulator is `acc`: the
    /// network's output, plus the hand evaluation for a residual network, within
    /// `±MAX_EVAL`.
    #[inline]
    pub fn evaluate_position<G: Size>(
        &self,
        acc: &Accumulator,
        board: &Board<G>,
        rulebook: &Rulebook<G>,
    ) -> Score {
        self.with_hand(acc, board, || hand_evaluate(board, rulebook))
    }

    /// [`QuantisedNetwork::evaluate_position`] with the pieces' square weights of the hand
    /// evaluation summed already (the search's, kept from node to node).
    #[inline]
    pub fn evaluate_position_given<G: Size>(
        &self,
        acc: &Accumulator,
        board: &Board<G>,
        rulebook: &Rulebook<G>,
        squares: PieceSquares,
    ) -> Score {
        self.with_hand(acc, board, || evaluate_given(board, rulebook, squares))
    }

    /// The network's score of `board`, with the hand evaluation `hand` added where it is a
    /// residual on it.
    #[inline(always)]
    fn with_hand<G: Size>(
        &self,
        acc: &Accumulator,
        board: &Board<G>,
        hand: impl FnOnce() -> Score,
    ) -> Score {
        let mut cp = self.evaluate(acc, board.side_to_move());
        if self.residual {
            cp += hand().0;
        }
        Score(cp.clamp(-MAX_EVAL, MAX_EVAL))
    }
}

#[cfg(test)]
impl QuantisedNetwork {
    /// A random network for the engine's tests, without the trainer: feature weights spread as
    /// a trained net's might be, one in eight on a clip, so that many units sit on either end
    /// of the clipped ReLU; hidden biases in the middle of its slope; output weights of a few
    /// cp.
    pub fn random(seed: u64, inputs: usize) -> QuantisedNetwork {
        use crate::search::eval::weights::SCALE;
        use crate::splitmix::SplitMix64;
        let mut rng = SplitMix64::new(seed);
        let mut uniform = |r: i32| rng.below(2 * r as usize + 1) as i32 - r;
        let mut net = QuantisedNetwork::zero(SCALE as f32, inputs);
        for w in net.feature_weights.iter_mut().flatten() {
            *w = match uniform(8) {
                8 => QA,
                -8 => -QA,
                _ => uniform(QA / 4),
            } as i16;
        }
        net.feature_bias.fill((QA / 2) as i16);
        for w in net.output_weights.iter_mut().flatten() {
            *w = uniform(4 * QB) as i16;
        }
        for b in &mut net.output_bias {
            *b = uniform(10 * QA * QB);
        }
        net
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::splitmix::SplitMix64;

    /// AVX2 and the portable kernels keep the same accumulators and evaluate alike, move by
    /// move, on random games of every board size, with weights spread to the clips.
    #[test]
    fn every_kernel_evaluates_alike_on_every_board() {
        use crate::board::MoveList;
        use crate::board::rules::{Preset, Rules};
        use crate::search::nnue::inputs;
        use crate::search::nnue::simd::Kernels;
        fn check<G: Size>(preset: Preset, seed: u64) {
            let net = QuantisedNetwork::random(seed, inputs::<G>());
            let mut rng = SplitMix64::new(seed ^ 0x55);
            let rulebook = Rulebook::<G>::new(Rules::preset(preset));
            let kernels = Kernels::available();
            let mut list = MoveList::new();
            let mut evaluations = 0;
            for _ in 0..8 {
                let mut board = Board::<G>::from_fen(preset.start_fen()).unwrap();
                let mut accs: Vec<Accumulator> = kernels
                    .iter()
                    .map(|&k| Accumulator::refresh_with(k, &net, &board))
                    .collect();
                for _ in 0..150 {
                    let side = board.side_to_move();
                    let fresh = Accumulator::refresh_with(Kernels::Portable, &net, &board);
                    let want = net.evaluate_with(Kernels::Portable, &fresh, side);
                    for (&k, acc) in kernels.iter().zip(&accs) {
                        assert_eq!(*acc, fresh, "{preset} {k:?}");
                        assert_eq!(net.evaluate_with(k, acc, side), want, "{preset} {k:?}");
                        evaluations += 1;
                    }
                    list.clear();
                    board.generate_moves(&rulebook, &mut list);
                    if list.is_empty() {
                        break;
                    }
                    let mv = list[rng.below(list.len())];
                    let piece = board.piece_at(mv.from()).expect("a move moves a piece");
                    let captured = board.play(mv, &rulebook);
                    for (&k, acc) in kernels.iter().zip(&mut accs) {
                        let parent = acc.clone();
                        acc.set_child_with(k, &parent, &net, piece, mv.from(), mv.to(), captured);
                    }
                    if rulebook.mover_win(&board, mv).is_some() {
                        break;
                    }
                }
            }
            assert!(evaluations > 100, "{preset}: {evaluations}");
        }
        for side in crate::board::SIDES {
            let preset = Preset::default_for_width(side).unwrap();
            crate::with_size!(side, check(preset, u64::from(side))).unwrap();
        }
    }
}
