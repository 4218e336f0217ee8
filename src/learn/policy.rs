//! Training the move policy ([`hnefi_core::search::policy`]) on the moves deep searches chose:
//! the samples' `BESTMOVE` field. The network's feature transformer stays as it is (the
//! policy reads its accumulator); the policy's rows and pattern weights are fitted by softmax
//! cross-entropy over each position's legal moves, with Adam, in float, then rounded to the
//! grid the search runs.
//!
//! A sample is kept in memory as its hidden activations (one byte a unit), its side to move,
//! its legal moves with their pattern entries and the index of the deep move among them:
//! about 2,500 bytes on 11x11.

use crate::board::{Board, MoveList, Rulebook};
use crate::board::{Geometry, Side};
use crate::learn::sample::Sample;
use crate::search::nnue::{Accumulator, HIDDEN, QA, QuantisedNetwork};
use crate::search::policy::patterns::{FEATS, PATTERNS, move_patterns};
use crate::search::policy::{End, LOGIT_UNIT, Policy, QP};
use crate::splitmix::SplitMix64;
use rayon::prelude::*;

/// Positions a step of Adam sums its gradient over in one piece, on one thread. Fixed, so
/// that a run's result does not depend on its threads.
const CHUNK: usize = 64;

/// One position with its deep move, as the trainer reads it.
#[derive(Clone, Debug)]
struct Position {
    /// `clamp(acc, 0, QA)` of the network, a byte a unit.
    hidden: [u8; HIDDEN],
    side: Side,
    /// The legal moves' squares, `(from, to)`.
    moves: Vec<(u8, u8)>,
    /// The deep move's place in `moves`.
    best: u16,
    /// Each move's pattern entries ([`move_patterns`]).
    patterns: Vec<[u16; FEATS]>,
}

/// The positions of a training or held-out set.
#[derive(Default)]
pub struct PolicyData {
    positions: Vec<Position>,
    /// Samples without a best move, or whose best move is not legal under the rules.
    pub skipped: usize,
}

impl PolicyData {
    /// An empty set.
    pub fn new() -> PolicyData {
        PolicyData::default()
    }

    /// Positions held.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// Adds the samples that carry a legal best move, read through `net`'s accumulator; the
    /// others are counted in [`PolicyData::skipped`]. Runs on the current rayon pool.
    pub fn extend<G: Geometry>(
        &mut self,
        samples: &[Sample<G>],
        rulebook: &Rulebook<G>,
        net: &QuantisedNetwork,
    ) {
        let read: Vec<Option<Position>> = samples
            .par_iter()
            .map(|s| position(&s.board, s.best?, rulebook, net))
            .collect();
        for p in read {
            match p {
                Some(p) => self.positions.push(p),
                None => self.skipped += 1,
            }
        }
    }
}

fn position<G: Geometry>(
    board: &Board<G>,
    best: crate::board::Move<G>,
    rulebook: &Rulebook<G>,
    net: &QuantisedNetwork,
) -> Option<Position> {
    let mut list = MoveList::new();
    board.generate_moves(rulebook, &mut list);
    let best = list.iter().position(|&m| m == best)? as u16;
    let acc = Accumulator::refresh(net, board);
    let mut hidden = [0u8; HIDDEN];
    for (h, &a) in hidden.iter_mut().zip(acc.values()) {
        *h = a.clamp(0, QA as i16) as u8;
    }
    Some(Position {
        hidden,
        side: board.side_to_move(),
        moves: list
            .iter()
            .map(|m| (m.from().index() as u8, m.to().index() as u8))
            .collect(),
        best,
        patterns: list.iter().map(|&m| move_patterns(board, m)).collect(),
    })
}

/// How a training run goes.
#[derive(Clone, Debug)]
pub struct PolicySettings {
    /// Passes over the training positions.
    pub epochs: usize,
    /// Positions per step of Adam.
    pub batch: usize,
    /// Adam's step size at the start ...
    pub learning_rate: f32,
    /// ... falling along a half cosine to this at the end.
    pub learning_rate_end: f32,
    /// Decoupled weight decay, per unit of step size.
    pub weight_decay: f32,
    /// The order of the positions.
    pub seed: u64,
}

/// The policy in float: rows of `HIDDEN` weights and a bias, by (side, end, square), then
/// the pattern weights, as [`Policy`] holds them.
#[derive(Clone)]
pub struct FloatPolicy {
    squares: usize,
    /// `HIDDEN + 1` values a row (the weights, then the bias), then `PATTERNS` values.
    params: Vec<f32>,
}

const ROW: usize = HIDDEN + 1;

impl FloatPolicy {
    /// Zeros for boards of `squares` squares: every move alike.
    pub fn zero(squares: usize) -> FloatPolicy {
        FloatPolicy {
            squares,
            params: vec![0.0; 4 * squares * ROW + PATTERNS],
        }
    }

    /// Where the pattern weights start in `params`.
    fn patterns_start(&self) -> usize {
        4 * self.squares * ROW
    }

    fn row(&self, side: Side, end: End, square: usize) -> usize {
        ((side.index() * 2 + end as usize) * self.squares + square) * ROW
    }

    /// The logits of a position's moves, in nats.
    fn logits(&self, p: &Position, hidden: &[f32; HIDDEN], out: &mut Vec<f32>) {
        out.clear();
        let mut from = vec![f32::NAN; self.squares];
        let mut to = vec![f32::NAN; self.squares];
        let dot = |end: End, sq: usize, cache: &mut Vec<f32>| {
            if cache[sq].is_nan() {
                let r = self.row(p.side, end, sq);
                let w = &self.params[r..r + ROW];
                cache[sq] = w[..HIDDEN]
                    .iter()
                    .zip(hidden)
                    .map(|(a, b)| a * b)
                    .sum::<f32>()
                    + w[HIDDEN];
            }
            cache[sq]
        };
        let patterns = &self.params[self.patterns_start()..];
        for (&(f, t), entries) in p.moves.iter().zip(&p.patterns) {
            let around: f32 = entries.iter().map(|&e| patterns[usize::from(e)]).sum();
            out.push(
                dot(End::From, f as usize, &mut from) + dot(End::To, t as usize, &mut to) + around,
            );
        }
    }

    /// Adds the gradient of `p`'s cross-entropy to `grad`; returns its loss.
    fn gradient(&self, p: &Position, grad: &mut [f32]) -> f32 {
        let hidden = activations(p);
        let mut logits = Vec::with_capacity(p.moves.len());
        self.logits(p, &hidden, &mut logits);
        let max = logits.iter().copied().fold(f32::MIN, f32::max);
        let sum: f32 = logits.iter().map(|l| (l - max).exp()).sum();
        let loss = -(logits[p.best as usize] - max - sum.ln());
        // d loss / d logit = softmax - one-hot, summed by square.
        let mut by_from = vec![0.0f32; self.squares];
        let mut by_to = vec![0.0f32; self.squares];
        for (i, (&(f, t), l)) in p.moves.iter().zip(&logits).enumerate() {
            let g = (l - max).exp() / sum - f32::from(u8::from(i == p.best as usize));
            by_from[f as usize] += g;
            by_to[t as usize] += g;
            for &e in &p.patterns[i] {
                grad[self.patterns_start() + usize::from(e)] += g;
            }
        }
        for (end, by) in [(End::From, &by_from), (End::To, &by_to)] {
            for (sq, &g) in by.iter().enumerate().filter(|(_, g)| **g != 0.0) {
                let r = self.row(p.side, end, sq);
                let row = &mut grad[r..r + ROW];
                for (w, h) in row[..HIDDEN].iter_mut().zip(&hidden) {
                    *w += g * h;
                }
                row[HIDDEN] += g;
            }
        }
        loss
    }

    /// Rounded to the grid the search runs, beside the network of fingerprint `net`.
    pub fn quantise(&self, side: u8, net: u64) -> Policy {
        let mut policy = Policy::zero(side, net);
        for s in [Side::Attackers, Side::Defenders] {
            for end in [End::From, End::To] {
                for sq in 0..self.squares {
                    let r = self.row(s, end, sq);
                    let row = policy.row_mut(s, end, sq);
                    for (q, &w) in row.weights.iter_mut().zip(&self.params[r..r + HIDDEN]) {
                        *q = (w * QP as f32)
                            .round()
                            .clamp(i16::MIN as f32, i16::MAX as f32)
                            as i16;
                    }
                    row.bias = (f64::from(self.params[r + HIDDEN]) * f64::from(QA * QP))
                        .round()
                        .clamp(i32::MIN as f64, i32::MAX as f64)
                        as i32;
                }
            }
        }
        let grid = f64::from(QA * QP);
        for (q, &w) in policy
            .patterns_mut()
            .iter_mut()
            .zip(&self.params[self.patterns_start()..])
        {
            *q = (f64::from(w) * grid)
                .round()
                .clamp(i32::MIN as f64, i32::MAX as f64) as i32;
        }
        policy.clip();
        policy
    }

    /// The float policy of a quantised one, to go on training from.
    pub fn from_quantised(policy: &Policy) -> FloatPolicy {
        let squares = usize::from(policy.board_side()).pow(2);
        let mut f = FloatPolicy::zero(squares);
        for s in [Side::Attackers, Side::Defenders] {
            for end in [End::From, End::To] {
                for sq in 0..squares {
                    let r = f.row(s, end, sq);
                    let row = policy.row(s, end, sq);
                    for (p, &q) in f.params[r..r + HIDDEN].iter_mut().zip(&row.weights) {
                        *p = f32::from(q) / QP as f32;
                    }
                    f.params[r + HIDDEN] = row.bias as f32 / (QA * QP) as f32;
                }
            }
        }
        let start = f.patterns_start();
        for (p, &q) in f.params[start..].iter_mut().zip(policy.patterns()) {
            *p = q as f32 / (QA * QP) as f32;
        }
        f
    }
}

fn activations(p: &Position) -> [f32; HIDDEN] {
    let mut h = [0.0; HIDDEN];
    for (f, &b) in h.iter_mut().zip(&p.hidden) {
        *f = f32::from(b) / QA as f32;
    }
    h
}

/// The moves ranked above move `i` by `logits`, a tie counted against it: a policy that
/// cannot tell the moves apart does not pick the right one.
fn rank<T: PartialOrd>(logits: &[T], i: usize) -> usize {
    logits
        .iter()
        .enumerate()
        .filter(|&(j, l)| j != i && *l >= logits[i])
        .count()
}

/// How well a policy picks the deep move.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Agreement {
    /// Positions measured.
    pub positions: usize,
    /// Share whose deep move the policy ranks first ...
    pub top1: f64,
    /// ... among its first three ...
    pub top3: f64,
    /// Mean cross-entropy, nats.
    pub loss: f64,
    /// Mean number of legal moves: a uniform guess is right once in this many.
    pub moves: f64,
}

/// The agreement of `policy` on `data`.
pub fn agreement(policy: &FloatPolicy, data: &PolicyData) -> Agreement {
    let (n, top1, top3, loss, moves) = data
        .positions
        .par_iter()
        .map(|p| {
            let mut logits = Vec::new();
            policy.logits(p, &activations(p), &mut logits);
            let above = rank(&logits, p.best as usize);
            let max = logits.iter().copied().fold(f32::MIN, f32::max);
            let sum: f32 = logits.iter().map(|l| (l - max).exp()).sum();
            let loss = f64::from(max + sum.ln() - logits[p.best as usize]);
            (
                1usize,
                usize::from(above == 0),
                usize::from(above < 3),
                loss,
                p.moves.len(),
            )
        })
        .reduce(
            || (0, 0, 0, 0.0, 0),
            |a, b| (a.0 + b.0, a.1 + b.1, a.2 + b.2, a.3 + b.3, a.4 + b.4),
        );
    let of = |x: f64| if n == 0 { 0.0 } else { x / n as f64 };
    Agreement {
        positions: n,
        top1: of(top1 as f64),
        top3: of(top3 as f64),
        loss: of(loss),
        moves: of(moves as f64),
    }
}

/// The agreement of the quantised `policy`, as the search computes its logits, on the
/// boards of `samples` that carry a legal best move: it should match the float one's.
pub fn quantised_agreement<G: Geometry>(
    policy: &Policy,
    net: &QuantisedNetwork,
    samples: &[Sample<G>],
    rulebook: &Rulebook<G>,
) -> Agreement {
    let mut a = Agreement::default();
    let mut list = MoveList::new();
    let mut logits = Vec::new();
    for s in samples {
        let Some(best) = s.best else { continue };
        list.clear();
        s.board.generate_moves(rulebook, &mut list);
        let Some(i) = list.iter().position(|&m| m == best) else {
            continue;
        };
        logits.clear();
        logits.resize(list.len(), 0);
        let acc = Accumulator::refresh(net, &s.board);
        policy.logits(&acc, &s.board, &list, &mut logits);
        let above = rank(&logits, i);
        a.positions += 1;
        a.top1 += f64::from(u8::from(above == 0));
        a.top3 += f64::from(u8::from(above < 3));
        a.moves += list.len() as f64;
        let max = *logits.iter().max().expect("a legal move") as f64 / f64::from(LOGIT_UNIT);
        let sum: f64 = logits
            .iter()
            .map(|&l| (l as f64 / f64::from(LOGIT_UNIT) - max).exp())
            .sum();
        a.loss += max + sum.ln() - logits[i] as f64 / f64::from(LOGIT_UNIT);
    }
    if a.positions > 0 {
        let n = a.positions as f64;
        a.top1 /= n;
        a.top3 /= n;
        a.loss /= n;
        a.moves /= n;
    }
    a
}

/// What an epoch did.
#[derive(Clone, Copy, Debug)]
pub struct EpochReport {
    /// From 1.
    pub epoch: usize,
    /// Mean training loss over the epoch, nats.
    pub train: f64,
    /// The held-out agreement after it (all zeros without held-out positions).
    pub validation: Agreement,
}

/// Trains `policy` on `train`, reporting each epoch with the agreement on `validation`;
/// returns the policy of the epoch with the lowest held-out loss (the last, without
/// held-out positions). Runs on the current rayon pool; the result does not depend on its
/// threads.
pub fn train(
    mut policy: FloatPolicy,
    train: &PolicyData,
    validation: &PolicyData,
    settings: &PolicySettings,
    mut progress: impl FnMut(usize),
    mut report: impl FnMut(&EpochReport),
) -> FloatPolicy {
    let n = policy.params.len();
    let (mut m, mut v) = (vec![0.0f32; n], vec![0.0f32; n]);
    let (beta1, beta2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let mut step = 0i32;
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut rng = SplitMix64::new(settings.seed);
    let steps = (settings.epochs * train.len().div_ceil(settings.batch.max(1))).max(1);
    let mut best: Option<(f64, FloatPolicy)> = None;
    for epoch in 1..=settings.epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        let mut total = 0.0f64;
        for batch in order.chunks(settings.batch.max(1)) {
            let parts: Vec<(Vec<f32>, f64)> = batch
                .par_chunks(CHUNK)
                .map(|chunk| {
                    let mut grad = vec![0.0f32; n];
                    let loss: f64 = chunk
                        .iter()
                        .map(|&i| f64::from(policy.gradient(&train.positions[i], &mut grad)))
                        .sum();
                    (grad, loss)
                })
                .collect();
            let mut grad = vec![0.0f32; n];
            for (g, loss) in parts {
                total += loss;
                for (a, b) in grad.iter_mut().zip(g) {
                    *a += b;
                }
            }
            let scale = 1.0 / batch.len() as f32;
            let progress_share = step as f32 / steps as f32;
            let lr = settings.learning_rate_end
                + (settings.learning_rate - settings.learning_rate_end)
                    * 0.5
                    * (1.0 + (std::f32::consts::PI * progress_share).cos());
            step += 1;
            let (c1, c2) = (1.0 - beta1.powi(step), 1.0 - beta2.powi(step));
            policy
                .params
                .par_iter_mut()
                .zip(m.par_iter_mut().zip(v.par_iter_mut()))
                .zip(grad.par_iter())
                .with_min_len(4096)
                .for_each(|((p, (m, v)), &g)| {
                    if g == 0.0 && *m == 0.0 {
                        return;
                    }
                    let g = g * scale;
                    *m = beta1 * *m + (1.0 - beta1) * g;
                    *v = beta2 * *v + (1.0 - beta2) * g * g;
                    *p -= lr * ((*m / c1) / ((*v / c2).sqrt() + eps) + settings.weight_decay * *p);
                });
            progress(batch.len());
        }
        let validation_agreement = agreement(&policy, validation);
        report(&EpochReport {
            epoch,
            train: total / train.len().max(1) as f64,
            validation: validation_agreement,
        });
        let loss = if validation.is_empty() {
            -(epoch as f64)
        } else {
            validation_agreement.loss
        };
        if best.as_ref().is_none_or(|(b, _)| loss < *b) {
            best = Some((loss, policy.clone()));
        }
    }
    best.map_or(policy, |(_, p)| p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Move;
    use crate::board::rules::Rules;
    use crate::learn::sample::GameResult;
    use crate::search::nnue::embedded;
    use crate::search::size::Standard;

    /// Positions of random games whose "deep move" is a fixed rule: the move that lands
    /// nearest the board's centre (ties: the first generated). A policy must learn it.
    fn planted(games: u64) -> Vec<Sample<Standard>> {
        let rulebook = Rulebook::<Standard>::new(Rules::default());
        let mut rng = SplitMix64::new(9);
        let mut out = Vec::new();
        let mut list = MoveList::new();
        for game in 0..games {
            let mut board = Board::<Standard>::start();
            for _ in 0..40 {
                list.clear();
                board.generate_moves(&rulebook, &mut list);
                if list.is_empty() {
                    break;
                }
                let centre = |m: &Move<Standard>| {
                    let (f, r) = (m.to().file() as i32, m.to().rank() as i32);
                    (f - 5).abs() + (r - 5).abs()
                };
                let best = *list.iter().min_by_key(|m| centre(m)).unwrap();
                out.push(Sample {
                    board,
                    score: Some(0),
                    result: GameResult::Draw,
                    game,
                    best: Some(best),
                });
                let mv = list[rng.below(list.len())];
                board.play(mv, &rulebook);
                if rulebook.mover_win(&board, mv).is_some() {
                    break;
                }
            }
        }
        out
    }

    #[test]
    fn training_learns_a_planted_choice_and_quantising_keeps_it() {
        let net = embedded::<Standard>().unwrap();
        let rulebook = Rulebook::<Standard>::new(Rules::default());
        let samples = planted(40);
        let (held, trained): (Vec<_>, Vec<_>) = samples.iter().cloned().partition(|s| s.game < 8);
        let (mut t, mut h) = (PolicyData::new(), PolicyData::new());
        t.extend(&trained, &rulebook, net);
        h.extend(&held, &rulebook, net);
        assert_eq!(t.skipped + h.skipped, 0);
        let before = agreement(&FloatPolicy::zero(121), &h);
        let settings = PolicySettings {
            epochs: 6,
            batch: 128,
            learning_rate: 0.01,
            learning_rate_end: 0.001,
            weight_decay: 0.0,
            seed: 1,
        };
        let mut epochs = 0;
        let policy = train(
            FloatPolicy::zero(121),
            &t,
            &h,
            &settings,
            |_| {},
            |_| epochs += 1,
        );
        assert_eq!(epochs, 6);
        let after = agreement(&policy, &h);
        assert!(
            after.top1 > 0.6 && after.top1 > 3.0 * before.top1,
            "{before:?} -> {after:?}"
        );
        let q = policy.quantise(11, net.features_fingerprint());
        let qa = quantised_agreement(&q, net, &held, &rulebook);
        assert_eq!(qa.positions, after.positions);
        assert!((qa.top1 - after.top1).abs() < 0.05, "{qa:?} vs {after:?}");
        // And back: the float policy of the rounded one ranks as the rounded one does.
        let back = FloatPolicy::from_quantised(&q);
        assert!((agreement(&back, &h).top1 - qa.top1).abs() < 0.05);
    }

    #[test]
    fn samples_without_a_legal_best_move_are_skipped() {
        let net = embedded::<Standard>().unwrap();
        let rulebook = Rulebook::<Standard>::new(Rules::default());
        let mut samples = planted(1);
        samples.truncate(3);
        samples[0].best = None;
        // A move of the side to move's piece onto a square it cannot reach.
        let b = samples[1].board;
        let from = b.pieces(b.side_to_move()).first().unwrap();
        let to = crate::board::Square::new(60).unwrap();
        samples[1].best = Some(Move::new(from, to));
        let mut d = PolicyData::new();
        d.extend(&samples, &rulebook, net);
        assert_eq!((d.len(), d.skipped), (1, 2));
    }
}
