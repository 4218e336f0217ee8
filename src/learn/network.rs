//! The NNUE network in float, as training moves it ([`crate::learn::train`]), and its
//! quantisation to the integers the engine runs ([`QuantisedNetwork`]): the engine knows
//! nothing of floats, so that what it runs is only ever what a net file holds.

use crate::board::Board;
use crate::board::geometry::MAX_SQUARES;
use crate::board::{Geometry, Side};
use crate::search::nnue::{FEATURE_CLIP, HIDDEN, QA, QB, QuantisedNetwork, active_features};
use crate::splitmix::SplitMix64;
use arrayvec::ArrayVec;

// Where each group of weights lies in `FloatNetwork::params`: the feature weights first,
// `inputs * HIDDEN` of them, then these, counted from their end.
pub(crate) const FEATURE_WEIGHTS: usize = 0;
const FEATURE_BIAS: usize = 0;
const OUTPUT_WEIGHTS: usize = FEATURE_BIAS + HIDDEN;
const OUTPUT_BIAS: usize = OUTPUT_WEIGHTS + 2 * HIDDEN;
const TAIL: usize = OUTPUT_BIAS + 2;

/// Every weight of a network with `inputs` inputs.
pub const fn params(inputs: usize) -> usize {
    inputs * HIDDEN + TAIL
}

/// The largest output weight, in cp, that the quantised `i16` weights hold.
const OUTPUT_CLIP_CP: f32 = i16::MAX as f32 / QB as f32;

/// The network in `f32`, its weights in one flat vector so that training can treat them, their
/// gradient and the optimiser's moments alike: input `f`'s hidden weights at
/// `f * HIDDEN..(f + 1) * HIDDEN`, then the hidden biases, the output weights with the
/// attackers to move then with the defenders to move, and the two output biases.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNetwork {
    pub params: Vec<f32>,
    /// Inputs: 3 x the squares of the board the network is for.
    pub inputs: usize,
    /// The logistic scale: cp = raw output / scale.
    pub scale: f32,
    /// A correction to the hand evaluation: the search's evaluation is the hand
    /// evaluation's plus the network's output (see [`QuantisedNetwork::evaluate_position`]).
    pub residual: bool,
}

/// What a forward pass leaves for the backward pass.
pub struct Forward {
    /// Hidden pre-activations.
    pub acc: [f32; HIDDEN],
    /// The side to move's logit.
    pub raw: f32,
}

/// The active inputs of a board, as the trainer stores them.
pub fn board_features<G: Geometry>(board: &Board<G>) -> ArrayVec<u16, MAX_SQUARES> {
    let mut out = ArrayVec::new();
    active_features(board, |f| out.push(f as u16));
    out
}

impl FloatNetwork {
    #[inline(always)]
    fn feature_bias(&self) -> usize {
        self.inputs * HIDDEN + FEATURE_BIAS
    }

    #[inline(always)]
    fn output_weights(&self) -> usize {
        self.inputs * HIDDEN + OUTPUT_WEIGHTS
    }

    #[inline(always)]
    fn output_bias(&self) -> usize {
        self.inputs * HIDDEN + OUTPUT_BIAS
    }

    /// Random weights from `seed`: small feature weights, hidden biases in the middle of the
    /// clipped ReLU's slope so that no unit starts dead, small output weights.
    pub fn random(seed: u64, scale: f32, inputs: usize) -> FloatNetwork {
        let mut rng = SplitMix64::new(seed);
        let mut uniform =
            |r: f32| ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * r;
        let mut net = FloatNetwork {
            params: vec![0.0; params(inputs)],
            inputs,
            scale,
            residual: false,
        };
        let (fb, ow, ob) = (net.feature_bias(), net.output_weights(), net.output_bias());
        for w in &mut net.params[FEATURE_WEIGHTS..fb] {
            *w = uniform(0.1);
        }
        for b in &mut net.params[fb..ow] {
            *b = 0.5;
        }
        for w in &mut net.params[ow..ob] {
            *w = uniform(1.0 / (HIDDEN as f32).sqrt());
        }
        net
    }

    /// A residual network to start training from: random feature weights as in
    /// [`FloatNetwork::random`], the output layer zero, so that it starts exactly at the hand
    /// evaluation.
    pub fn residual(seed: u64, scale: f32, inputs: usize) -> FloatNetwork {
        let mut net = FloatNetwork::random(seed, scale, inputs);
        let ow = net.output_weights();
        net.params[ow..].fill(0.0);
        net.residual = true;
        net
    }

    /// The float network a quantised one came from, as near as its grid tells: training
    /// can go on from a net file (a new generation from the last one's weights), and
    /// quantising the result again gives back the same integers.
    pub fn from_quantised(net: &QuantisedNetwork) -> FloatNetwork {
        let inputs = net.inputs();
        let mut float = FloatNetwork {
            params: vec![0.0; params(inputs)],
            inputs,
            scale: net.scale,
            residual: net.residual,
        };
        let (fb, ow, ob) = (
            float.feature_bias(),
            float.output_weights(),
            float.output_bias(),
        );
        let params = &mut float.params;
        let qa = QA as f32;
        for (f, row) in net.feature_weights.iter().enumerate() {
            let start = FEATURE_WEIGHTS + f * HIDDEN;
            for (w, &q) in params[start..start + HIDDEN].iter_mut().zip(row) {
                *w = f32::from(q) / qa;
            }
        }
        for (w, &q) in params[fb..ow].iter_mut().zip(&net.feature_bias) {
            *w = f32::from(q) / qa;
        }
        // The output layer is in cp on the file's grid; the float one in logits.
        let scale = f64::from(net.scale);
        for (side, weights) in net.output_weights.iter().enumerate() {
            let start = ow + side * HIDDEN;
            for (w, &q) in params[start..start + HIDDEN].iter_mut().zip(weights) {
                *w = (f64::from(q) / f64::from(QB) * scale) as f32;
            }
            params[ob + side] =
                (f64::from(net.output_bias[side]) / f64::from(QA * QB) * scale) as f32;
        }
        float
    }

    fn row(&self, feature: u16) -> &[f32] {
        let start = FEATURE_WEIGHTS + feature as usize * HIDDEN;
        &self.params[start..start + HIDDEN]
    }

    /// The pre-activations and the side to move's logit.
    pub fn forward(&self, features: &[u16], side: Side) -> Forward {
        let mut acc = [0.0; HIDDEN];
        acc.copy_from_slice(&self.params[self.feature_bias()..self.output_weights()]);
        for &f in features {
            for (a, w) in acc.iter_mut().zip(self.row(f)) {
                *a += w;
            }
        }
        let out = self.output_weights() + side.index() * HIDDEN;
        let raw = acc
            .iter()
            .zip(&self.params[out..out + HIDDEN])
            .map(|(a, w)| a.clamp(0.0, 1.0) * w)
            .sum::<f32>()
            + self.params[self.output_bias() + side.index()];
        Forward { acc, raw }
    }

    /// Adds to `grad` the gradient of a loss whose derivative by the logit is `d_raw`. Only
    /// the rows of the active inputs are touched.
    pub fn backward(
        &self,
        features: &[u16],
        side: Side,
        forward: &Forward,
        d_raw: f32,
        grad: &mut [f32],
    ) {
        let out = self.output_weights() + side.index() * HIDDEN;
        let mut d_acc = [0.0f32; HIDDEN];
        for h in 0..HIDDEN {
            let a = forward.acc[h];
            grad[out + h] += d_raw * a.clamp(0.0, 1.0);
            // The clipped ReLU passes the gradient only on its slope.
            d_acc[h] = if a > 0.0 && a < 1.0 {
                d_raw * self.params[out + h]
            } else {
                0.0
            };
        }
        grad[self.output_bias() + side.index()] += d_raw;
        for (g, d) in grad[self.feature_bias()..self.output_weights()]
            .iter_mut()
            .zip(&d_acc)
        {
            *g += d;
        }
        for &f in features {
            let start = FEATURE_WEIGHTS + f as usize * HIDDEN;
            for (g, d) in grad[start..start + HIDDEN].iter_mut().zip(&d_acc) {
                *g += d;
            }
        }
    }

    /// Multiplies the output layer's weights (not its biases) by `factor`.
    pub fn scale_output_weights(&mut self, factor: f32) {
        let (ow, ob) = (self.output_weights(), self.output_bias());
        for w in &mut self.params[ow..ob] {
            *w *= factor;
        }
    }

    /// Keeps the weights within what the quantised network holds.
    pub fn clip(&mut self) {
        let (ow, ob) = (self.output_weights(), self.output_bias());
        for w in &mut self.params[FEATURE_WEIGHTS..ow] {
            *w = w.clamp(-FEATURE_CLIP, FEATURE_CLIP);
        }
        let output_clip = OUTPUT_CLIP_CP * self.scale;
        for w in &mut self.params[ow..ob] {
            *w = w.clamp(-output_clip, output_clip);
        }
    }

    /// The network's output in cp for the side to move (of a residual network: the
    /// correction alone, without the hand evaluation).
    pub fn evaluate<G: Geometry>(&self, board: &Board<G>) -> f64 {
        let raw = self
            .forward(&board_features(board), board.side_to_move())
            .raw;
        f64::from(raw) / f64::from(self.scale)
    }

    /// The quantised network: every weight rounded to its grid, clipped to what it holds.
    /// The output layer turns to cp here: its weights are small in logits (a few hundredths),
    /// where the grid of `1/QB` would leave them a handful of steps, and a few cp or more.
    pub fn quantise(&self) -> QuantisedNetwork {
        let cp = 1.0 / f64::from(self.scale);
        let q16 = |w: f32, unit: i32| {
            (w * unit as f32)
                .round()
                .clamp(i16::MIN as f32, i16::MAX as f32) as i16
        };
        let feature = |w: f32| q16(w.clamp(-FEATURE_CLIP, FEATURE_CLIP), QA);
        let mut net = QuantisedNetwork::zero(self.scale, self.inputs);
        net.residual = self.residual;
        // A correction is trained on this build's hand evaluation, and belongs to it.
        if self.residual {
            net.hand = net
                .board_side()
                .and_then(crate::search::eval::fingerprint_of)
                .unwrap_or(0);
        }
        let (fb, ow, ob) = (
            self.feature_bias(),
            self.output_weights(),
            self.output_bias(),
        );
        for (f, row) in net.feature_weights.iter_mut().enumerate() {
            for (q, &w) in row.iter_mut().zip(self.row(f as u16)) {
                *q = feature(w);
            }
        }
        for (q, &w) in net.feature_bias.iter_mut().zip(&self.params[fb..ow]) {
            *q = feature(w);
        }
        for (side, weights) in net.output_weights.iter_mut().enumerate() {
            let start = ow + side * HIDDEN;
            for (q, &w) in weights.iter_mut().zip(&self.params[start..start + HIDDEN]) {
                *q = q16((f64::from(w) * cp) as f32, QB);
            }
            net.output_bias[side] = (f64::from(self.params[ob + side]) * cp * f64::from(QA * QB))
                .round()
                .clamp(i32::MIN as f64, i32::MAX as f64) as i32;
        }
        net
    }

    /// The most, in cp, that the quantised network's output can differ from this one's on a
    /// board with `active` pieces, from rounding alone (weights within the clips):
    /// - each pre-activation sums `active + 1` weights rounded to `1/QA`, so it is off by
    ///   `e = (active + 1) / (2 QA)` at most, and so is its clipped ReLU (1-Lipschitz);
    /// - each output term `a v` (`v` in cp) becomes `a' v'` with `|a'| <= 1` and
    ///   `|v' - v| <= 1 / (2 QB)`, off by `1 / (2 QB) + |v| e` at most;
    /// - the output bias is off by `1 / (2 QA QB)`, and the rounding to whole cp by half a
    ///   cp, float sums by far less: one cp covers both.
    ///
    /// A worst case, where every rounding goes the same way; the typical error is far below.
    pub fn quantisation_bound(&self, active: usize) -> f64 {
        let e = (active as f64 + 1.0) / (2.0 * f64::from(QA));
        let per_side = |side: usize| {
            let start = self.output_weights() + side * HIDDEN;
            self.params[start..start + HIDDEN]
                .iter()
                .map(|&v| 0.5 / f64::from(QB) + f64::from(v.abs()) / f64::from(self.scale) * e)
                .sum::<f64>()
                + 0.5 / f64::from(QA * QB)
        };
        per_side(0).max(per_side(1)) + 1.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Rulebook;
    use crate::search::eval::weights::SCALE;
    use crate::search::eval::{MAX_EVAL, evaluate as hand_evaluate};
    use crate::search::nnue::Accumulator;
    use crate::search::nnue::testing::random_plies;
    use crate::search::score::Score;

    /// A random network with weights spread as a trained one's might be: larger feature
    /// weights than at the start, so that many units sit on either clip.
    fn spread_network(seed: u64) -> FloatNetwork {
        let mut net = FloatNetwork::random(seed, SCALE as f32, 363);
        let mut rng = SplitMix64::new(seed ^ 0x55);
        for w in &mut net.params[FEATURE_WEIGHTS..OUTPUT_WEIGHTS] {
            *w += ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 - 0.5) * 0.6;
        }
        net.clip();
        net
    }

    #[test]
    fn the_quantised_network_stays_within_its_bound() {
        for seed in [1, 2] {
            let float = spread_network(seed);
            let quantised = float.quantise();
            let (mut worst, mut total, mut n) = (0.0f64, 0.0, 0);
            for ply in random_plies(seed, 6, 200) {
                let board = ply.after;
                let q = f64::from(quantised.evaluate_board(&board));
                let f = float.evaluate(&board);
                let active = board.occupied().count() as usize;
                let bound = float.quantisation_bound(active);
                let err = (q - f).abs();
                assert!(err <= bound, "{board:?}: {q} vs {f}, bound {bound}");
                worst = worst.max(err);
                total += err;
                n += 1;
            }
            let mean = total / n as f64;
            // The bound is a worst case, every rounding the same way; they mostly cancel.
            let bound = float.quantisation_bound(37);
            assert!(bound > 20.0 * worst, "{bound}");
            assert!(mean < 2.0 && worst < 10.0, "mean {mean} worst {worst}");
        }
    }

    #[test]
    fn a_net_file_read_back_into_floats_quantises_to_the_same_integers() {
        for residual in [false, true] {
            let mut float = spread_network(4);
            float.residual = residual;
            let quantised = float.quantise();
            let back = FloatNetwork::from_quantised(&quantised);
            assert_eq!(back.residual, residual);
            assert_eq!(back.scale.to_bits(), quantised.scale.to_bits());
            assert!(back.quantise() == quantised);
            // And it plays as the file does, within the file's own rounding.
            for ply in random_plies(4, 2, 100) {
                let b = ply.after;
                let (q, f) = (quantised.evaluate_board(&b), back.evaluate(&b));
                assert!((f64::from(q) - f).abs() <= 1.0, "{b:?}: {q} vs {f}");
            }
        }
    }

    #[test]
    fn a_residual_network_adds_its_output_to_the_hand_evaluation() {
        let rules = Rulebook::default();
        let start = FloatNetwork::residual(3, SCALE as f32, 363);
        assert!(start.residual);
        let zero = start.quantise();
        assert!(zero.is_residual());
        let mut trained = spread_network(3);
        trained.residual = true;
        let trained = trained.quantise();
        let plain = spread_network(3).quantise();
        for ply in random_plies(3, 4, 150) {
            let b = ply.after;
            let hand = hand_evaluate(&b, &rules);
            // Output weights and biases zero: exactly the hand evaluation.
            let acc = Accumulator::refresh(&zero, &b);
            assert_eq!(zero.evaluate(&acc, b.side_to_move()), 0);
            assert_eq!(zero.evaluate_position(&acc, &b, &rules), hand, "{b:?}");
            let acc = Accumulator::refresh(&trained, &b);
            let net = trained.evaluate(&acc, b.side_to_move());
            assert_eq!(
                trained.evaluate_position(&acc, &b, &rules),
                Score((hand.0 + net).clamp(-MAX_EVAL, MAX_EVAL))
            );
            // A plain network is the network alone.
            let acc = Accumulator::refresh(&plain, &b);
            assert_eq!(
                plain.evaluate_position(&acc, &b, &rules),
                Score(plain.evaluate(&acc, b.side_to_move()))
            );
        }
    }

    #[test]
    fn the_gradient_matches_finite_differences() {
        let net = spread_network(5);
        let board = random_plies(5, 1, 40).pop().unwrap().after;
        let features = board_features(&board);
        let side = board.side_to_move();
        let fwd = net.forward(&features, side);
        let mut grad = vec![0.0; params(363)];
        net.backward(&features, side, &fwd, 1.0, &mut grad);
        let f0 = features[0] as usize;
        let probes = [
            FEATURE_WEIGHTS + f0 * HIDDEN + 3,
            FEATURE_WEIGHTS + f0 * HIDDEN + 17,
            FEATURE_BIAS + 9,
            OUTPUT_WEIGHTS + side.index() * HIDDEN + 5,
            OUTPUT_BIAS + side.index(),
        ];
        for &p in &probes {
            let h = 1e-2;
            let at = |delta: f32| {
                let mut n = net.clone();
                n.params[p] += delta;
                f64::from(n.forward(&features, side).raw)
            };
            let numeric = (at(h) - at(-h)) / (2.0 * f64::from(h));
            assert!(
                (numeric - f64::from(grad[p])).abs() < 1e-2,
                "param {p}: {numeric} vs {}",
                grad[p]
            );
        }
        // Inputs that are not on the board get nothing.
        let absent = (0..363u16).find(|f| !features.contains(f)).unwrap() as usize;
        let row = FEATURE_WEIGHTS + absent * HIDDEN;
        assert!(grad[row..row + HIDDEN].iter().all(|&g| g == 0.0));
    }

    #[test]
    fn a_quantised_correction_names_the_hand_evaluation_it_was_trained_on() {
        let trained = FloatNetwork::residual(3, SCALE as f32, 363).quantise();
        assert_eq!(
            trained.hand,
            crate::search::eval::fingerprint::<crate::search::size::Standard>()
        );
        assert!(trained.fits_hand_evaluation());
        let plain = FloatNetwork::random(3, SCALE as f32, 363).quantise();
        assert_eq!(plain.hand, 0);
        assert!(plain.fits_hand_evaluation(), "a plain network stands alone");
    }
}
