//! `hnefi train`: fits the NNUE network ([`super::network`], run by [`crate::search::nnue`]) to the same samples as
//! `hnefi tune`. The network's output is the side to move's logit; the model of the attackers'
//! chance to win is `sigmoid(logit)` with the attackers to move and `sigmoid(-logit)` with the
//! defenders, and the loss is the squared error against each position's target (its result,
//! blended by lambda with the sigmoid of its search score, as in the tuner).
//!
//! A residual network (`TrainSettings::residual`) learns a correction to the hand
//! evaluation: each position's logit is the hand evaluation's, `scale x cp` for the side to
//! move, plus the network's output, and the gradient moves only the network. Its output layer
//! starts at zero, so that training starts exactly from the hand evaluation.
//!
//! Minibatch Adam. Each batch's gradient is summed over fixed chunks in a fixed order, and
//! the weights and the order of the positions follow from the seed, so that a run depends
//! only on its data and settings, not on the thread count. A position touches only the rows
//! of its pieces: forward and backward cost O(pieces x hidden units).

use super::network::{FloatNetwork, params};
use super::sample::{SCORE_CAP, Sample};
use crate::board::Side;
use crate::board::geometry::MAX_SQUARES;
use crate::board::{Board, MoveList, Rulebook};
use crate::search::eval::evaluate as hand_evaluate;
use crate::search::nnue::{Accumulator, QuantisedNetwork, active_features};
use crate::search::ordering::Tactics;
use crate::search::size::Size;
use crate::splitmix::{SplitMix64, mix, spread};
use arrayvec::ArrayVec;
use rayon::prelude::*;

/// Positions per chunk of the parallel sums.
const CHUNK: usize = 256;

/// Settings of a training run.
#[derive(Clone, Debug)]
pub struct TrainSettings {
    pub epochs: usize,
    /// Positions per step of Adam.
    pub batch: usize,
    /// Adam's step size at the first step, in the network's units (feature weights are
    /// within ±1).
    pub learning_rate: f32,
    /// The step size at the last step: it falls from `learning_rate` along a half cosine,
    /// so that the last epochs settle instead of jumping about the minimum.
    pub learning_rate_end: f32,
    /// Weight of the game result in the target; the rest goes to the search score.
    pub lambda: f64,
    /// The logistic scale: cp = logit / scale.
    pub scale: f64,
    /// Seeds the weights and the order of the positions.
    pub seed: u64,
    /// Decoupled weight decay of the output layer's weights, per unit of the learning rate
    /// (each step multiplies them by `1 - learning_rate x weight_decay`): keeps a residual
    /// network's correction small.
    pub weight_decay: f32,
    /// Train a correction to the hand evaluation (the data must be
    /// [`TrainData::residual`]).
    pub residual: bool,
    /// The network's inputs: 3 x the squares of the board it is for
    /// ([`crate::search::nnue::inputs`]).
    pub inputs: usize,
}

/// Positions as the network sees them, packed: what a training run holds in memory for
/// each position is its bit set of the attackers' and defenders' inputs, the king's square
/// and the side to move, 33 bytes on 11x11 (plus 4 for its target, 4 for a residual
/// network's hand evaluation and 4 for its score with [`Saturated`] on), so that 10 million
/// positions take about 400 MB. The inputs
/// are unpacked again for each pass ([`TrainData::row`]), which costs far less than the
/// forward and backward passes over them.
pub struct TrainData {
    /// The squares of the board; 0 until the first position sets it.
    squares: usize,
    /// Position i's record is `boards[i * stride..(i + 1) * stride]`: the bits of inputs
    /// `0..2 x squares` (the attackers then the defenders, input f at bit `f % 8` of byte
    /// `f / 8`), then the king's square, then 1 if the defenders are to move.
    boards: Vec<u8>,
    stride: usize,
    /// P(the attackers win) the network should predict.
    target: Vec<f32>,
    /// The search score as the attackers' logit, kept only with [`Saturated`] on; NaN where
    /// there is none or it is a decided game's.
    score: Vec<f32>,
    saturated: Saturated,
    /// For residual training, the hand evaluation of each position as a logit for the side
    /// to move, which the network's output is added to; empty otherwise.
    hand: Vec<f32>,
    residual: bool,
}

/// A position's active inputs, in the order of [`crate::search::nnue::active_features`].
type Row = ArrayVec<u16, MAX_SQUARES>;

impl TrainData {
    pub fn new() -> TrainData {
        TrainData {
            squares: 0,
            boards: Vec::new(),
            stride: 0,
            target: Vec::new(),
            score: Vec::new(),
            saturated: Saturated::OFF,
            hand: Vec::new(),
            residual: false,
        }
    }

    /// The same data with the loss of [`Saturated`] added: before any position, which keeps
    /// its score only while the loss is on.
    pub fn with_saturated(self, saturated: Saturated) -> TrainData {
        assert!(
            self.is_empty(),
            "the saturated loss is set before the positions"
        );
        TrainData { saturated, ..self }
    }

    /// Data for a residual network: each position keeps its hand evaluation.
    pub fn residual() -> TrainData {
        TrainData {
            residual: true,
            ..TrainData::new()
        }
    }

    pub fn is_residual(&self) -> bool {
        self.residual
    }

    pub fn len(&self) -> usize {
        self.target.len()
    }

    pub fn is_empty(&self) -> bool {
        self.target.is_empty()
    }

    /// The bytes held per position.
    pub fn bytes_per_position(&self) -> usize {
        self.stride
            + std::mem::size_of::<f32>()
                * (1 + usize::from(self.residual) + usize::from(self.saturated.is_on()))
    }

    /// Adds a sample, its target blended by `lambda` with the search score on `scale`.
    pub fn push<G: Size>(
        &mut self,
        sample: &Sample<G>,
        rulebook: &Rulebook<G>,
        lambda: f64,
        scale: f64,
    ) {
        self.extend(std::slice::from_ref(sample), rulebook, lambda, scale);
    }

    /// Adds samples in their order, as [`TrainData::push`] does one (the hand evaluations of
    /// a residual network computed in parallel).
    pub fn extend<G: Size>(
        &mut self,
        samples: &[Sample<G>],
        rulebook: &Rulebook<G>,
        lambda: f64,
        scale: f64,
    ) {
        if self.squares == 0 {
            self.squares = G::SQUARES;
            self.stride = (2 * G::SQUARES).div_ceil(8) + 2;
        }
        assert_eq!(self.squares, G::SQUARES, "one board size per data set");
        if self.residual {
            // The search's own evaluation, for the side to move, as a logit.
            let hand: Vec<f32> = samples
                .par_iter()
                .map(|s| (scale * f64::from(hand_evaluate(&s.board, rulebook).0)) as f32)
                .collect();
            self.hand.extend(hand);
        }
        let pieces = 2 * G::SQUARES;
        for sample in samples {
            let start = self.boards.len();
            self.boards.resize(start + self.stride, 0);
            let record = &mut self.boards[start..];
            active_features(&sample.board, |f| {
                if f < pieces {
                    record[f / 8] |= 1 << (f % 8);
                } else {
                    record[self.stride - 2] = (f - pieces) as u8;
                }
            });
            record[self.stride - 1] = u8::from(sample.board.side_to_move() == Side::Defenders);
            let result = sample.result.attackers_score();
            let target = match sample.score {
                Some(s) => lambda * result + (1.0 - lambda) * sigmoid(scale * f64::from(s)),
                None => result,
            };
            self.target.push(target as f32);
            if self.saturated.is_on() {
                let score = match sample.score {
                    Some(s) if s.abs() < SCORE_CAP => (scale * f64::from(s)) as f32,
                    _ => f32::NAN,
                };
                self.score.push(score);
            }
        }
    }

    /// Position i's active inputs and side to move.
    #[inline]
    fn row(&self, i: usize) -> (Row, Side) {
        let record = &self.boards[i * self.stride..(i + 1) * self.stride];
        let mut row = Row::new();
        for (byte, &bits) in record[..self.stride - 2].iter().enumerate() {
            let mut bits = bits;
            while bits != 0 {
                row.push((byte * 8 + bits.trailing_zeros() as usize) as u16);
                bits &= bits - 1;
            }
        }
        row.push((2 * self.squares + usize::from(record[self.stride - 2])) as u16);
        let side = if record[self.stride - 1] == 0 {
            Side::Attackers
        } else {
            Side::Defenders
        };
        (row, side)
    }

    /// The squared error of position i, given the network's output `raw`, and its
    /// derivative by `raw`.
    #[inline]
    fn error(&self, raw: f32, side: Side, i: usize) -> (f64, f32) {
        let sign = match side {
            Side::Attackers => 1.0,
            Side::Defenders => -1.0,
        };
        let logit = match self.hand.get(i) {
            Some(&hand) => hand + raw,
            None => raw,
        };
        let p = sigmoid(f64::from(sign * logit));
        let err = p - f64::from(self.target[i]);
        let (mut loss, mut d_raw) = (err * err, (2.0 * err * p * (1.0 - p)) as f32 * sign);
        if self.saturated.is_on() && self.score[i].abs() >= self.saturated.from {
            let target = self.score[i];
            let w = self.saturated.weight;
            let y = sign * logit;
            let e = Saturated::squash(y) - Saturated::squash(target);
            loss += f64::from(w * e * e);
            d_raw += w * 2.0 * e * Saturated::slope(y) * sign;
        }
        (loss, d_raw)
    }

    /// Mean squared error of the network's prediction against the targets.
    pub fn loss(&self, net: &FloatNetwork) -> f64 {
        if self.is_empty() {
            return 0.0;
        }
        let sums: Vec<f64> = (0..self.len().div_ceil(CHUNK))
            .into_par_iter()
            .map(|c| {
                (c * CHUNK..((c + 1) * CHUNK).min(self.len()))
                    .map(|i| {
                        let (row, side) = self.row(i);
                        self.error(net.forward(&row, side).raw, side, i).0
                    })
                    .sum::<f64>()
            })
            .collect();
        sums.iter().sum::<f64>() / self.len() as f64
    }

    /// The loss summed over `batch`; `grad` becomes the gradient of its mean.
    fn gradient(&self, net: &FloatNetwork, batch: &[u32], grad: &mut [f32]) -> f64 {
        let inv = 1.0 / batch.len() as f32;
        let parts: Vec<(f64, Vec<f32>)> = batch
            .par_chunks(CHUNK)
            .map(|chunk| {
                let mut g = vec![0.0; params(net.inputs)];
                let mut loss = 0.0;
                for &i in chunk {
                    let i = i as usize;
                    let (row, side) = self.row(i);
                    let forward = net.forward(&row, side);
                    let (l, d_raw) = self.error(forward.raw, side, i);
                    loss += l;
                    net.backward(&row, side, &forward, d_raw * inv, &mut g);
                }
                (loss, g)
            })
            .collect();
        grad.fill(0.0);
        let mut loss = 0.0;
        for (l, g) in parts {
            loss += l;
            for (a, b) in grad.iter_mut().zip(&g) {
                *a += b;
            }
        }
        loss
    }
}

impl Default for TrainData {
    fn default() -> TrainData {
        TrainData::new()
    }
}

/// Whether nothing is about to happen: the side to move can capture nothing and the king
/// sees no corner. The search score of a position that is not quiet counts what its next
/// moves win, which a static evaluation cannot see and should not be taught to guess.
pub fn is_quiet<G: Size>(board: &Board<G>, rulebook: &Rulebook<G>) -> bool {
    let tactics = Tactics::new(board, rulebook);
    if tactics.open_lines.any() {
        return false;
    }
    let mut captures = MoveList::new();
    board.generate_moves_to(tactics.any_capture, rulebook, &mut captures);
    captures.is_empty()
}

pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// A second loss for positions whose search score lies where the logistic is flat: beyond
/// about 1,500 cp a position's squared error in P(win) and its gradient all but vanish, so
/// that the network learned nothing of what the search finds between one won-looking position
/// and another (a shut ring at +6,000 cp that the search sees captured at +7,000, or broken by
/// an edge fort at +2,000). There the squared error of `asinh(logit / 2)`, which grows like the
/// logarithm and keeps its slope, is added with weight `weight`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Saturated {
    pub weight: f32,
    /// The search score's logit (attackers' view) from which the loss counts, either way.
    pub from: f32,
}

impl Saturated {
    pub const OFF: Saturated = Saturated {
        weight: 0.0,
        from: f32::INFINITY,
    };

    /// The loss of weight `weight` on the positions whose search score is beyond `cp` either
    /// way, a logit on the logistic `scale`; off for a weight of 0.
    pub fn beyond(weight: f32, cp: u32, scale: f64) -> Saturated {
        if weight > 0.0 {
            Saturated {
                weight,
                from: (scale * f64::from(cp)) as f32,
            }
        } else {
            Saturated::OFF
        }
    }

    fn is_on(&self) -> bool {
        self.weight > 0.0
    }

    #[inline]
    fn squash(logit: f32) -> f32 {
        (logit / 2.0).asinh()
    }

    /// The derivative of [`Saturated::squash`].
    #[inline]
    fn slope(logit: f32) -> f32 {
        0.5 / (1.0 + (logit / 2.0) * (logit / 2.0)).sqrt()
    }
}

/// What a run reports after each epoch.
pub struct EpochReport {
    pub epoch: usize,
    /// Mean loss over the epoch's batches, as the weights moved.
    pub train: f64,
    pub validation: f64,
}

/// Adam's moments.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    step: i32,
}

impl Adam {
    const B1: f32 = 0.9;
    const B2: f32 = 0.999;
    const EPS: f32 = 1e-8;

    fn step(&mut self, params: &mut [f32], grad: &[f32], lr: f32) {
        self.step += 1;
        let c1 = 1.0 - Self::B1.powi(self.step);
        let c2 = 1.0 - Self::B2.powi(self.step);
        for (((w, g), m), v) in params
            .iter_mut()
            .zip(grad)
            .zip(&mut self.m)
            .zip(&mut self.v)
        {
            *m = Self::B1 * *m + (1.0 - Self::B1) * g;
            *v = Self::B2 * *v + (1.0 - Self::B2) * g * g;
            *w -= lr * (*m / c1) / ((*v / c2).sqrt() + Self::EPS);
        }
    }
}

/// The network a run keeps.
pub struct Trained {
    pub net: FloatNetwork,
    /// The epoch it is from: the one with the lowest held-out loss (the last without
    /// held-out positions), since a net on few games overfits them after a few epochs.
    pub epoch: usize,
    pub validation: f64,
}

/// The network training starts from: random, or for a residual network with its output
/// layer zero.
pub fn initial_network(settings: &TrainSettings) -> FloatNetwork {
    if settings.residual {
        FloatNetwork::residual(settings.seed, settings.scale as f32, settings.inputs)
    } else {
        FloatNetwork::random(settings.seed, settings.scale as f32, settings.inputs)
    }
}

/// The step size at `step` of `steps` (from 0): a half cosine from the first to the last.
pub fn learning_rate(settings: &TrainSettings, step: usize, steps: usize) -> f32 {
    let progress = if steps > 1 {
        step as f64 / (steps - 1) as f64
    } else {
        0.0
    };
    let (start, end) = (
        f64::from(settings.learning_rate),
        f64::from(settings.learning_rate_end),
    );
    (end + (start - end) * 0.5 * (1.0 + (std::f64::consts::PI * progress).cos())) as f32
}

/// Trains a network from [`initial_network`] on `train`, calling `batch_done` with the
/// positions of each batch and `epoch_done` after each epoch.
pub fn train(
    train: &TrainData,
    validation: &TrainData,
    settings: &TrainSettings,
    batch_done: impl FnMut(usize),
    epoch_done: impl FnMut(&EpochReport),
) -> Trained {
    let start = initial_network(settings);
    train_from(start, train, validation, settings, batch_done, epoch_done)
}

/// Trains on from the network `start`: a generation from the weights of the one before
/// (read from its net file by [`FloatNetwork::from_quantised`]). Adam's moments start at
/// zero, so the first steps are as large as `settings.learning_rate`: a lower one keeps
/// what the start knew.
pub fn train_from(
    start: FloatNetwork,
    train: &TrainData,
    validation: &TrainData,
    settings: &TrainSettings,
    mut batch_done: impl FnMut(usize),
    mut epoch_done: impl FnMut(&EpochReport),
) -> Trained {
    assert!(
        train.residual == settings.residual
            && start.residual == settings.residual
            && (validation.is_empty() || validation.residual == settings.residual),
        "residual training needs a residual start and residual data, and only they"
    );
    let mut net = start;
    let mut adam = Adam {
        m: vec![0.0; params(net.inputs)],
        v: vec![0.0; params(net.inputs)],
        step: 0,
    };
    let mut grad = vec![0.0; params(net.inputs)];
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    let mut best: Option<Trained> = None;
    let batch_size = settings.batch.max(1);
    let steps = settings.epochs * train.len().div_ceil(batch_size);
    let mut step = 0;
    for epoch in 1..=settings.epochs {
        let mut rng = SplitMix64::new(mix(settings.seed ^ spread(epoch as u64)));
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        let mut loss = 0.0;
        for batch in order.chunks(batch_size) {
            loss += train.gradient(&net, batch, &mut grad);
            let lr = learning_rate(settings, step, steps);
            step += 1;
            adam.step(&mut net.params, &grad, lr);
            if settings.weight_decay > 0.0 {
                net.scale_output_weights(1.0 - lr * settings.weight_decay);
            }
            net.clip();
            batch_done(batch.len());
        }
        let report = EpochReport {
            epoch,
            train: loss / train.len().max(1) as f64,
            validation: validation.loss(&net),
        };
        epoch_done(&report);
        if validation.is_empty()
            || best
                .as_ref()
                .is_none_or(|b| report.validation < b.validation)
        {
            best = Some(Trained {
                net: net.clone(),
                epoch,
                validation: report.validation,
            });
        }
    }
    best.unwrap_or_else(|| Trained {
        validation: validation.loss(&net),
        net,
        epoch: 0,
    })
}

/// How far the quantised network's output is from the float one's, in cp.
#[derive(Clone, Debug, PartialEq)]
pub struct QuantisationReport {
    pub positions: usize,
    pub max: f64,
    pub mean: f64,
    /// The largest worst-case bound over the positions
    /// ([`FloatNetwork::quantisation_bound`]).
    pub bound: f64,
    /// Positions where the difference exceeded its bound: none unless something is wrong.
    pub beyond_bound: usize,
}

/// Compares the two networks' outputs on every position of `data`.
pub fn quantisation_error(
    float: &FloatNetwork,
    quantised: &QuantisedNetwork,
    data: &TrainData,
) -> QuantisationReport {
    let per: Vec<(f64, f64)> = (0..data.len())
        .into_par_iter()
        .map(|i| {
            let (row, side) = data.row(i);
            let f = f64::from(float.forward(&row, side).raw) / f64::from(float.scale);
            let q = quantised.evaluate(&Accumulator::from_features(quantised, &row), side);
            (
                (f - f64::from(q)).abs(),
                float.quantisation_bound(row.len()),
            )
        })
        .collect();
    QuantisationReport {
        positions: per.len(),
        max: per.iter().map(|p| p.0).fold(0.0, f64::max),
        mean: per.iter().map(|p| p.0).sum::<f64>() / per.len().max(1) as f64,
        bound: per.iter().map(|p| p.1).fold(0.0, f64::max),
        beyond_bound: per.iter().filter(|(e, b)| e > b).count(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::rules::{Preset, Rules};
    use crate::board::{Bitboard, Board, Rulebook};
    use crate::learn::network::board_features;
    use crate::learn::sample::GameResult;
    use crate::search::eval::weights::SCALE;
    use crate::search::size::Standard;
    use crate::search::size::{Size, SizedTask, run_sized};

    /// The planted truth: the defenders win when the king stands on an edge, the attackers
    /// otherwise. The start's soldiers, the king on every free square, either side to move.
    fn king_on_edge_data() -> Vec<Sample<Standard>> {
        let start = Board::start();
        let mut out = Vec::new();
        for sq in Bitboard::ALL & !start.attackers() & !start.defenders() {
            for side in [Side::Attackers, Side::Defenders] {
                let board = Board::new(start.attackers(), start.defenders(), sq, side).unwrap();
                let result = if sq.is_edge() {
                    GameResult::DefendersWon
                } else {
                    GameResult::AttackersWon
                };
                out.push(Sample {
                    board,
                    score: None,
                    result,
                    best: None,
                    game: out.len() as u64,
                });
            }
        }
        out
    }

    fn settings() -> TrainSettings {
        TrainSettings {
            epochs: 30,
            batch: 16,
            learning_rate: 0.001,
            learning_rate_end: 0.001,
            lambda: 1.0,
            scale: SCALE,
            seed: 4,
            weight_decay: 0.0,
            residual: false,
            inputs: 363,
        }
    }

    /// `samples` in `d`, targets from their results alone.
    fn filled(mut d: TrainData, samples: &[Sample<Standard>]) -> TrainData {
        for s in samples {
            d.push(s, &Rulebook::default(), 1.0, SCALE);
        }
        d
    }

    fn data(samples: &[Sample<Standard>]) -> TrainData {
        filled(TrainData::new(), samples)
    }

    #[test]
    fn training_learns_a_planted_rule() {
        let samples = king_on_edge_data();
        let train_data = data(&samples);
        let settings = settings();
        let before = train_data.loss(&FloatNetwork::random(settings.seed, SCALE as f32, 363));
        let mut batches = 0;
        let mut reports = Vec::new();
        let trained = train(
            &train_data,
            &TrainData::new(),
            &settings,
            |_| batches += 1,
            |r| reports.push(r.train),
        );
        assert_eq!(trained.epoch, settings.epochs);
        let net = trained.net;
        let after = train_data.loss(&net);
        assert_eq!(reports.len(), settings.epochs);
        assert_eq!(
            batches,
            settings.epochs * samples.len().div_ceil(settings.batch)
        );
        assert!(after < before / 4.0, "loss {before} -> {after}");
        for s in &samples {
            let cp = net.evaluate(&s.board);
            let for_attackers = match s.board.side_to_move() {
                Side::Attackers => cp,
                Side::Defenders => -cp,
            };
            assert_eq!(
                for_attackers > 0.0,
                s.result == GameResult::AttackersWon,
                "{:?}: {for_attackers}",
                s.board
            );
        }
        // The quantised network agrees within its bound, and closely.
        let report = quantisation_error(&net, &net.quantise(), &train_data);
        assert_eq!(report.positions, samples.len());
        assert_eq!(report.beyond_bound, 0);
        assert!(report.mean < 3.0 && report.max < 10.0, "{report:?}");
    }

    #[test]
    fn training_goes_on_from_a_net_file() {
        let samples = king_on_edge_data();
        let train_data = data(&samples);
        let short = TrainSettings {
            epochs: 5,
            ..settings()
        };
        let first = train(&train_data, &TrainData::new(), &short, |_| {}, |_| {}).net;
        // Read back from its file, the net fits the data as it did, far from a fresh start.
        let start = FloatNetwork::from_quantised(&first.quantise());
        let (fresh, was, at_start) = (
            train_data.loss(&initial_network(&short)),
            train_data.loss(&first),
            train_data.loss(&start),
        );
        assert!((at_start - was).abs() < was / 100.0, "{was} -> {at_start}");
        assert!(at_start < fresh, "{fresh} vs {at_start}");
        let more = train_from(
            start,
            &train_data,
            &TrainData::new(),
            &short,
            |_| {},
            |_| {},
        );
        let after = train_data.loss(&more.net);
        assert!(after < at_start, "{at_start} -> {after}");
        // A plain start does not go on as a correction to the hand evaluation.
        let residual = TrainSettings {
            residual: true,
            ..short
        };
        let mismatched = std::panic::catch_unwind(|| {
            train_from(
                first.clone(),
                &residual_data(&samples),
                &TrainData::new(),
                &residual,
                |_| {},
                |_| {},
            )
        });
        assert!(mismatched.is_err());
    }

    fn residual_data(samples: &[Sample<Standard>]) -> TrainData {
        filled(TrainData::residual(), samples)
    }

    #[test]
    fn residual_training_starts_at_the_hand_evaluation_and_lowers_the_loss() {
        let samples = king_on_edge_data();
        let train_data = residual_data(&samples);
        // The hand evaluation's own loss, computed directly.
        let rules = Rulebook::default();
        let hand_loss = samples
            .iter()
            .map(|s| {
                let cp = f64::from(hand_evaluate(&s.board, &rules).0);
                let for_attackers = match s.board.side_to_move() {
                    Side::Attackers => cp,
                    Side::Defenders => -cp,
                };
                let err = sigmoid(SCALE * for_attackers) - s.result.attackers_score();
                err * err
            })
            .sum::<f64>()
            / samples.len() as f64;
        let settings = TrainSettings {
            residual: true,
            ..settings()
        };
        let start = initial_network(&settings);
        let before = train_data.loss(&start);
        assert!((before - hand_loss).abs() < 1e-6, "{before} vs {hand_loss}");
        // And so does its quantised form: the search sees the hand evaluation.
        let q = start.quantise();
        assert!(q.is_residual());
        for s in &samples {
            let acc = Accumulator::refresh(&q, &s.board);
            assert_eq!(
                q.evaluate_position(&acc, &s.board, &rules),
                hand_evaluate(&s.board, &rules)
            );
        }
        let mut first = None;
        let trained = train(
            &train_data,
            &train_data,
            &settings,
            |_| {},
            |r| {
                first.get_or_insert(r.validation);
            },
        );
        let after = train_data.loss(&trained.net);
        assert!(trained.net.residual);
        assert!(first.unwrap() < before, "{before} -> {first:?}");
        assert!(after < before / 4.0, "loss {before} -> {after}");
        // A plain network does not fit residual data.
        let plain = std::panic::catch_unwind(|| {
            train(
                &train_data,
                &TrainData::new(),
                &self::settings(),
                |_| {},
                |_| {},
            )
        });
        assert!(plain.is_err());
    }

    #[test]
    fn weight_decay_keeps_the_correction_smaller() {
        let samples = king_on_edge_data();
        let train_data = residual_data(&samples);
        let run = |weight_decay| {
            let settings = TrainSettings {
                residual: true,
                weight_decay,
                epochs: 5,
                ..settings()
            };
            let net = train(&train_data, &TrainData::new(), &settings, |_| {}, |_| {}).net;
            samples
                .iter()
                .map(|s| net.evaluate(&s.board).abs())
                .sum::<f64>()
        };
        let (free, decayed) = (run(0.0), run(100.0));
        assert!(decayed < free, "{decayed} vs {free}");
    }

    #[test]
    fn a_position_with_a_capture_or_an_open_corner_is_not_quiet() {
        let rules = Rulebook::default();
        let squares = |names: &[&str]| -> Bitboard<Standard> {
            names
                .iter()
                .map(|n| crate::board::Square::parse(n).unwrap())
                .collect()
        };
        let board = |attackers: &[&str], king: &str, side| {
            let king = crate::board::Square::parse(king).unwrap();
            Board::new(squares(attackers), squares(&["d4"]), king, side).unwrap()
        };
        assert!(is_quiet(&Board::start(), &rules));
        // e8-e4 takes d4 against c4.
        assert!(!is_quiet(
            &board(&["c4", "e8"], "f6", Side::Attackers),
            &rules
        ));
        // From g9 no attacker reaches e4, and the king on f6 sees no corner.
        assert!(is_quiet(
            &board(&["c4", "g9"], "f6", Side::Attackers),
            &rules
        ));
        // The king on f1 sees a1 and k1.
        assert!(!is_quiet(
            &board(&["c4", "g9"], "f1", Side::Defenders),
            &rules
        ));
        assert!(!is_quiet(
            &board(&["c4", "g9"], "f1", Side::Attackers),
            &rules
        ));
    }

    #[test]
    fn the_saturated_loss_counts_from_a_score_as_a_logit() {
        assert_eq!(Saturated::beyond(0.0, 1500, 0.01), Saturated::OFF);
        assert!(!Saturated::beyond(0.0, 1500, 0.01).is_on());
        let on = Saturated::beyond(0.5, 1500, 0.01);
        assert!(on.is_on());
        assert_eq!(on.weight, 0.5);
        assert!((on.from - 15.0).abs() < 1e-5, "{}", on.from);
    }

    #[test]
    fn the_step_size_falls_from_the_first_to_the_last_along_a_half_cosine() {
        let settings = TrainSettings {
            learning_rate: 0.001,
            learning_rate_end: 0.0001,
            ..settings()
        };
        let at = |step| learning_rate(&settings, step, 101);
        assert!((at(0) - 0.001).abs() < 1e-9);
        assert!((at(50) - 0.00055).abs() < 1e-9);
        assert!((at(100) - 0.0001).abs() < 1e-9);
        assert!((1..=100).all(|s| at(s) < at(s - 1)));
        // A single step, and a constant step size, stay at the first.
        assert_eq!(learning_rate(&settings, 0, 1), 0.001);
        assert!((0..10).all(|s| learning_rate(&self::settings(), s, 10) == 0.001));
    }

    #[test]
    fn a_run_is_the_same_on_any_number_of_threads() {
        let samples = king_on_edge_data();
        let train_data = data(&samples);
        let settings = TrainSettings {
            epochs: 2,
            // More than one chunk a batch, so that the parallel sums really split.
            batch: 2 * CHUNK,
            ..settings()
        };
        let run = |threads: usize| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| train(&train_data, &TrainData::new(), &settings, |_| {}, |_| {}).net)
        };
        let one = run(1);
        assert_eq!(one, run(3));
        assert_ne!(one, FloatNetwork::random(settings.seed, SCALE as f32, 363));
        let other_seed = TrainSettings {
            seed: 5,
            ..settings
        };
        assert_ne!(
            one,
            train(&train_data, &TrainData::new(), &other_seed, |_| {}, |_| {}).net
        );
    }

    #[test]
    fn packed_rows_give_back_each_boards_inputs_on_every_size() {
        fn check<G: Size>(preset: Preset) {
            let samples = crate::learn::packed::tests::random_samples::<G>(preset, 9);
            let rulebook = crate::board::Rulebook::<G>::new(Rules::preset(preset));
            let mut d = TrainData::residual();
            d.extend(&samples, &rulebook, 1.0, SCALE);
            assert_eq!(d.len(), samples.len());
            for (i, s) in samples.iter().enumerate() {
                let (row, side) = d.row(i);
                assert_eq!(row, board_features(&s.board), "{preset}");
                assert_eq!(side, s.board.side_to_move());
                let hand = SCALE * f64::from(hand_evaluate(&s.board, &rulebook).0);
                assert_eq!(d.hand[i], hand as f32);
            }
        }
        struct Check(Preset);
        impl SizedTask for Check {
            type Output = ();
            fn run<G: Size>(self) {
                check::<G>(self.0)
            }
        }
        for side in crate::board::SIDES {
            let preset = Preset::default_for_width(side).unwrap();
            run_sized(side, Check(preset)).unwrap();
        }
        // 31 bytes of pieces, the king and the side to move, the target and the hand
        // evaluation; the score only with the saturated loss on.
        let mut d = TrainData::residual();
        d.push(&king_on_edge_data()[0], &Rulebook::default(), 1.0, SCALE);
        assert_eq!(d.bytes_per_position(), 33 + 4 + 4);
        let mut d = TrainData::residual().with_saturated(Saturated {
            weight: 0.1,
            from: 3.0,
        });
        d.push(&king_on_edge_data()[0], &Rulebook::default(), 1.0, SCALE);
        assert_eq!(d.bytes_per_position(), 33 + 4 + 4 + 4);
    }

    #[test]
    fn targets_blend_the_result_and_the_score() {
        let board = Board::start();
        let sample = |score| Sample {
            board,
            score,
            result: GameResult::AttackersWon,
            best: None,
            game: 0,
        };
        let mut d = TrainData::new();
        d.push(&sample(None), &Rulebook::default(), 0.5, SCALE);
        d.push(&sample(Some(0)), &Rulebook::default(), 0.5, SCALE);
        d.push(&sample(Some(0)), &Rulebook::default(), 1.0, SCALE);
        assert_eq!(d.target, [1.0, 0.75, 1.0]);
        assert_eq!(d.row(0).0.len(), board.occupied().count() as usize);
    }

    #[test]
    fn the_saturated_loss_counts_only_beyond_its_score_and_keeps_its_slope_there() {
        let board = Board::start();
        let sample = |score| Sample {
            board,
            score: Some(score),
            result: GameResult::AttackersWon,
            best: None,
            game: 0,
        };
        let saturated = Saturated {
            weight: 0.1,
            from: (SCALE * 1500.0) as f32,
        };
        let with = |score| {
            let mut d = TrainData::new().with_saturated(saturated);
            d.push(&sample(score), &Rulebook::default(), 0.0, SCALE);
            d
        };
        let without = |score| {
            let mut d = TrainData::new();
            d.push(&sample(score), &Rulebook::default(), 0.0, SCALE);
            d
        };
        // Below the threshold, and for a decided game's capped score, nothing changes.
        for score in [1000, -1400, SCORE_CAP, -SCORE_CAP] {
            for raw in [-3.0, 0.0, 20.0] {
                assert_eq!(
                    with(score).error(raw, Side::Attackers, 0),
                    without(score).error(raw, Side::Attackers, 0)
                );
            }
        }
        // Beyond it, at a logit far into the flat of the logistic, the loss still has a slope
        // toward the score, from either side's view, and it is the derivative of the loss.
        for (score, side) in [
            (6000, Side::Attackers),
            (-6000, Side::Defenders),
            (-7000, Side::Attackers),
        ] {
            let d = with(score);
            let sign = if side == Side::Attackers { 1.0 } else { -1.0 };
            let raw = sign * (SCALE * f64::from(score)) as f32 + 3.0;
            let (loss, slope) = d.error(raw, side, 0);
            let (plain, plain_slope) = without(score).error(raw, side, 0);
            assert!(
                loss > plain && slope.abs() > 100.0 * plain_slope.abs(),
                "{score}"
            );
            let h = 1e-2;
            let numeric =
                (d.error(raw + h, side, 0).0 - d.error(raw - h, side, 0).0) / (2.0 * f64::from(h));
            assert!(
                (numeric - f64::from(slope)).abs() < 1e-3 * numeric.abs().max(1e-3),
                "{score}: {numeric} {slope}"
            );
            assert!(
                slope > 0.0,
                "{score}: above the score, the loss falls toward it"
            );
        }
    }
}
