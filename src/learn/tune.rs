//! `hnefi tune`: Texel's method. The evaluation is a weighted sum of features, so the chance
//! that the attackers win is modelled as `sigmoid(K * eval)`, and the weights are fitted to
//! minimise the squared error against each position's target: its game result, blended with
//! the sigmoid of its search score where it has one. K is fitted first, with the starting
//! weights, and then held: it fixes the evaluation's unit, so that the search's margins keep
//! their meaning.
//!
//! The fit is full-batch Adam. Gradients are summed over fixed chunks in a fixed order, so
//! the result depends only on the data, the seed and the settings, not on the thread count.

use super::sample::Sample;
use crate::board::Rules;
use crate::search::eval::features::{FEATURES, HAND_SET, Sink, extract, phase};
use crate::search::eval::weights::WeightsFile;
use crate::search::params::PHASE_PIECES;
use crate::search::size::Size;
use crate::splitmix::{mix, spread};
use rayon::prelude::*;
use std::fmt::Write as _;
use std::path::Path;

/// Positions per chunk of the parallel sums.
const CHUNK: usize = 8192;

/// Settings of a fit.
#[derive(Clone, Debug)]
pub struct TuneSettings {
    /// Weight of the game result in the target; the rest goes to the search score.
    pub lambda: f64,
    pub epochs: usize,
    /// Adam's step size, in cp.
    pub learning_rate: f64,
    /// L2 penalty per weight, pulling each toward its starting value.
    pub l2: f64,
    /// Share of the games held out for validation.
    pub holdout: f64,
    pub seed: u64,
    /// Start from zero instead of the current weights.
    pub from_zero: bool,
    /// The logistic scale K; fitted to the starting weights when `None`.
    pub scale: Option<f64>,
}

impl Default for TuneSettings {
    fn default() -> TuneSettings {
        TuneSettings {
            lambda: 0.5,
            epochs: 1000,
            learning_rate: 1.0,
            l2: 1e-7,
            holdout: 0.1,
            seed: 1,
            from_zero: false,
            scale: None,
        }
    }
}

/// Positions as sparse feature counts, in flat arrays.
#[derive(Default)]
pub struct Dataset {
    /// Position i's features are `features[offsets[i]..offsets[i + 1]]`.
    offsets: Vec<u32>,
    features: Vec<(u16, i16)>,
    /// Share of the opening weights, 0 to 1.
    phase: Vec<f32>,
    result: Vec<f32>,
    /// Search score in cp (attackers' view), NaN where there is none.
    score: Vec<f32>,
}

struct Collect<'a>(&'a mut Vec<(u16, i16)>);

impl<G: crate::board::Geometry> Sink<G> for Collect<'_> {
    fn add(&mut self, feature: usize, count: i32) {
        if count != 0 {
            self.0.push((feature as u16, count as i16));
        }
    }
}

impl Dataset {
    pub fn new() -> Dataset {
        Dataset {
            offsets: vec![0],
            ..Dataset::default()
        }
    }

    pub fn len(&self) -> usize {
        self.result.len()
    }

    pub fn is_empty(&self) -> bool {
        self.result.is_empty()
    }

    pub fn push<G: Size>(&mut self, sample: &Sample<G>, rules: &Rules) {
        extract(
            &sample.board,
            &crate::board::Rulebook::<G>::new(*rules),
            &G::hand().features,
            &mut Collect(&mut self.features),
        );
        // Merge repeated features (a corner pattern seen at two corners) for a shorter loop.
        let start = *self.offsets.last().expect("offsets start with 0") as usize;
        let run = &mut self.features[start..];
        run.sort_unstable_by_key(|&(f, _)| f);
        let mut kept = start;
        for i in start..self.features.len() {
            let (f, n) = self.features[i];
            if kept > start && self.features[kept - 1].0 == f {
                self.features[kept - 1].1 += n;
            } else {
                self.features[kept] = (f, n);
                kept += 1;
            }
        }
        self.features.truncate(kept);
        self.offsets.push(kept as u32);
        self.phase
            .push(phase(&sample.board) as f32 / PHASE_PIECES as f32);
        self.result.push(sample.result.attackers_score() as f32);
        self.score.push(sample.score.map_or(f32::NAN, |s| s as f32));
    }

    fn row(&self, i: usize) -> &[(u16, i16)] {
        &self.features[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }

    /// The evaluation of position i under `w` (opening weights then ending weights).
    #[inline]
    fn eval(&self, w: &[f64], i: usize) -> f64 {
        let (mut o, mut e) = (0.0, 0.0);
        for &(f, n) in self.row(i) {
            o += w[2 * f as usize] * n as f64;
            e += w[2 * f as usize + 1] * n as f64;
        }
        let p = self.phase[i] as f64;
        o * p + e * (1.0 - p)
    }

    fn target(&self, i: usize, k: f64, lambda: f64) -> f64 {
        let r = self.result[i] as f64;
        let s = self.score[i];
        if s.is_nan() {
            r
        } else {
            lambda * r + (1.0 - lambda) * sigmoid(k * s as f64)
        }
    }

    /// Mean squared error of the prediction against the target.
    pub fn loss(&self, w: &[f64], k: f64, lambda: f64) -> f64 {
        if self.is_empty() {
            return 0.0;
        }
        let sums: Vec<f64> = (0..self.len())
            .collect::<Vec<_>>()
            .par_chunks(CHUNK)
            .map(|chunk| {
                chunk
                    .iter()
                    .map(|&i| (sigmoid(k * self.eval(w, i)) - self.target(i, k, lambda)).powi(2))
                    .sum::<f64>()
            })
            .collect();
        sums.iter().sum::<f64>() / self.len() as f64
    }

    /// The loss and its gradient with respect to every weight.
    fn gradient(&self, w: &[f64], k: f64, lambda: f64) -> (f64, Vec<f64>) {
        let n = self.len();
        let parts: Vec<(f64, Vec<f64>)> = (0..n.div_ceil(CHUNK))
            .into_par_iter()
            .map(|c| {
                let mut g = vec![0.0; 2 * FEATURES];
                let mut loss = 0.0;
                for i in c * CHUNK..((c + 1) * CHUNK).min(n) {
                    let p = sigmoid(k * self.eval(w, i));
                    let err = p - self.target(i, k, lambda);
                    loss += err * err;
                    let d = 2.0 * err * p * (1.0 - p) * k;
                    let ph = self.phase[i] as f64;
                    for &(f, cnt) in self.row(i) {
                        g[2 * f as usize] += d * ph * cnt as f64;
                        g[2 * f as usize + 1] += d * (1.0 - ph) * cnt as f64;
                    }
                }
                (loss, g)
            })
            .collect();
        let mut grad = vec![0.0; 2 * FEATURES];
        let mut loss = 0.0;
        for (l, g) in parts {
            loss += l;
            for (a, b) in grad.iter_mut().zip(g) {
                *a += b;
            }
        }
        let inv = 1.0 / n.max(1) as f64;
        grad.iter_mut().for_each(|g| *g *= inv);
        (loss * inv, grad)
    }
}

pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Whether a game goes to the held-out set: a hash of the game number and the seed, so that
/// the split is the same on every run and never cuts a game in two.
pub fn held_out(game: u64, seed: u64, holdout: f64) -> bool {
    let x = mix(game ^ spread(seed));
    (x as f64 / u64::MAX as f64) < holdout
}

/// The weights the evaluation of boards of `G` uses now, as floats: opening then ending for
/// each feature.
pub fn current_weights<G: Size>() -> Vec<f64> {
    G::hand()
        .weights
        .weights
        .iter()
        .flat_map(|&[o, e]| [o as f64, e as f64])
        .collect()
}

/// Zero weights to fit from, but for the hand-set ones, which keep their current values.
pub fn zero_weights<G: Size>() -> Vec<f64> {
    let mut w = current_weights::<G>();
    for (j, x) in w.iter_mut().enumerate() {
        if !hand_set(j / 2) {
            *x = 0.0;
        }
    }
    w
}

/// Whether the fit leaves `feature`'s weights as they are ([`HAND_SET`]).
fn hand_set(feature: usize) -> bool {
    HAND_SET
        .iter()
        .any(|g| (g.start..g.start + g.len).contains(&feature))
}

/// The K that best fits the results with weights `w`: a golden-section search over log K.
pub fn fit_scale(data: &Dataset, w: &[f64], lambda: f64) -> f64 {
    let f = |log_k: f64| data.loss(w, log_k.exp(), lambda);
    let (mut a, mut b) = ((1e-5f64).ln(), (1e-1f64).ln());
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let c = b - phi * (b - a);
        let d = a + phi * (b - a);
        if f(c) < f(d) {
            b = d;
        } else {
            a = c;
        }
    }
    ((a + b) / 2.0).exp()
}

/// What a fit reports as it goes.
pub struct Progress {
    pub epoch: usize,
    pub train: f64,
    pub validation: f64,
}

/// The result of a fit.
pub struct Fit {
    pub weights: Vec<f64>,
    pub scale: f64,
    pub start_train: f64,
    pub start_validation: f64,
    pub train: f64,
    pub validation: f64,
}

/// Fits the weights to `train` from `start`, reporting the losses every `every` epochs.
pub fn fit(
    train: &Dataset,
    validation: &Dataset,
    start: Vec<f64>,
    settings: &TuneSettings,
    every: usize,
    mut report: impl FnMut(&Progress),
) -> Fit {
    let lambda = settings.lambda;
    // K is fitted to the results alone: the target's score part depends on K too, and a fit
    // to both would shrink K toward nothing, where prediction and score part agree.
    let scale = settings
        .scale
        .unwrap_or_else(|| fit_scale(train, &start, 1.0));
    let start_train = train.loss(&start, scale, lambda);
    let start_validation = validation.loss(&start, scale, lambda);
    let anchor = start.clone();
    let mut w = start;
    let (b1, b2, eps): (f64, f64, f64) = (0.9, 0.999, 1e-12);
    let mut m = vec![0.0; w.len()];
    let mut v = vec![0.0; w.len()];
    let mut train_loss = start_train;
    for epoch in 1..=settings.epochs {
        let (loss, mut g) = train.gradient(&w, scale, lambda);
        train_loss = loss;
        for (j, gj) in g.iter_mut().enumerate() {
            *gj += 2.0 * settings.l2 * (w[j] - anchor[j]);
        }
        let c1 = 1.0 - b1.powi(epoch as i32);
        let c2 = 1.0 - b2.powi(epoch as i32);
        for j in 0..w.len() {
            if hand_set(j / 2) {
                continue;
            }
            m[j] = b1 * m[j] + (1.0 - b1) * g[j];
            v[j] = b2 * v[j] + (1.0 - b2) * g[j] * g[j];
            w[j] -= settings.learning_rate * (m[j] / c1) / ((v[j] / c2).sqrt() + eps);
        }
        if epoch % every == 0 || epoch == settings.epochs {
            report(&Progress {
                epoch,
                train: loss,
                validation: validation.loss(&w, scale, lambda),
            });
        }
    }
    let validation_loss = validation.loss(&w, scale, lambda);
    Fit {
        weights: w,
        scale,
        start_train,
        start_validation,
        train: train_loss,
        validation: validation_loss,
    }
}

/// The weights file of a fit (`search::eval::weights`), rounded to whole cp, with its recipe
/// and losses.
pub fn weights_file(fit: &Fit, recipe: &str) -> Vec<u8> {
    let mut text = String::from("Generated by `hnefi tune`: do not edit by hand. Recipe:\n");
    for line in recipe.lines() {
        let _ = writeln!(text, "  {line}");
    }
    let _ = writeln!(
        text,
        "Loss (mean squared error): train {:.6} -> {:.6}, held out {:.6} -> {:.6}.",
        fit.start_train, fit.train, fit.start_validation, fit.validation
    );
    let mut weights = [[0i16; 2]; FEATURES];
    for (w, pair) in weights.iter_mut().zip(fit.weights.chunks(2)) {
        let r = |x: f64| x.round().clamp(i16::MIN as f64, i16::MAX as f64) as i16;
        *w = [r(pair[0]), r(pair[1])];
    }
    WeightsFile {
        scale: fit.scale,
        weights,
    }
    .write(&text)
}

/// The command line of a fit, for its recipe. Recipes name repository paths, not one
/// machine's: a path under the current folder (the repository's root, where the engine's
/// fits are run) is written relative to it.
pub fn recipe_command(args: &[String], current: &Path) -> String {
    let words: Vec<String> = args
        .iter()
        .map(|a| match Path::new(a).strip_prefix(current) {
            Ok(rest) if Path::new(a).is_absolute() => rest.display().to_string(),
            _ => a.clone(),
        })
        .collect();
    format!("hnefi {}", words.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::notation::parse_fen;
    use crate::learn::sample::GameResult;
    use crate::search::eval::features::HANGING;
    use crate::search::size::Standard;

    fn sample(fen: &str, result: GameResult) -> Sample<Standard> {
        Sample {
            board: parse_fen(fen).unwrap(),
            score: None,
            result,
            best: None,
            game: 0,
        }
    }

    #[test]
    fn the_dataset_holds_what_the_evaluation_sees() {
        let rules = Rules::default();
        let mut d = Dataset::new();
        d.push(&sample(crate::board::START_FEN, GameResult::Draw), &rules);
        let w = current_weights::<Standard>();
        let eval = d.eval(&w, 0);
        let board = parse_fen(crate::board::START_FEN).unwrap();
        let expected =
            crate::search::eval::attackers_view(&board, &crate::board::Rulebook::new(rules)) as f64;
        assert!((eval - expected).abs() < 1.0, "{eval} vs {expected}");
    }

    #[test]
    fn a_fit_recovers_a_planted_signal() {
        // Positions that differ in one hanging defender; the planted truth: a hanging
        // defender with the attackers to move wins for the attackers 80 % of the time.
        let rules = Rules::default();
        let hanging = "11/11/11/11/11/4a6/5k5/11/4d6/4a6/11 a";
        let safe = "11/11/11/11/11/4a6/5k5/11/4d6/11/11 a";
        let mut train = Dataset::new();
        for i in 0..100 {
            let r = |yes: bool| {
                if yes {
                    GameResult::AttackersWon
                } else {
                    GameResult::DefendersWon
                }
            };
            train.push(&sample(hanging, r(i % 5 != 0)), &rules);
            train.push(&sample(safe, r(i % 5 == 0)), &rules);
        }
        let settings = TuneSettings {
            epochs: 1000,
            learning_rate: 0.1,
            from_zero: true,
            scale: Some(0.01),
            l2: 0.0,
            ..TuneSettings::default()
        };
        let fit = fit(
            &train,
            &Dataset::new(),
            vec![0.0; 2 * FEATURES],
            &settings,
            100,
            |_| {},
        );
        // ln(0.8 / 0.2) / 0.01 = 139 cp for the attackers in the one, -139 in the other.
        let a = train.eval(&fit.weights, 0);
        let b = train.eval(&fit.weights, 1);
        assert!(
            (a - 138.6).abs() < 5.0 && (b + 138.6).abs() < 5.0,
            "{a} {b}"
        );
        assert!(fit.train < fit.start_train);
        let hang = fit.weights[2 * (HANGING.start + 2)] + fit.weights[2 * (HANGING.start + 2) + 1];
        assert!(hang > 0.0, "{hang}");
    }

    #[test]
    fn the_fit_leaves_hand_set_weights_alone() {
        // Attackers on every square beside a corner seal the board: the squeeze counts.
        let rules = Rules::default();
        let sealed = "1a7a1/a9a/11/11/11/5k5/11/11/11/a9a/1a7a1 a";
        let mut train = Dataset::new();
        for _ in 0..20 {
            train.push(&sample(sealed, GameResult::DefendersWon), &rules);
        }
        let start = current_weights::<Standard>();
        let settings = TuneSettings {
            epochs: 50,
            scale: Some(0.01),
            ..TuneSettings::default()
        };
        let fit = fit(
            &train,
            &Dataset::new(),
            start.clone(),
            &settings,
            50,
            |_| {},
        );
        assert!(fit.train < fit.start_train);
        let zero = zero_weights::<Standard>();
        for g in HAND_SET {
            for j in 2 * g.start..2 * (g.start + g.len) {
                assert_eq!(fit.weights[j], start[j], "{} moved", g.name);
                assert_eq!(zero[j], start[j]);
            }
        }
        assert!(zero[..2 * HAND_SET[0].start].iter().all(|&w| w == 0.0));
    }

    #[test]
    fn a_fit_is_the_same_on_any_number_of_threads() {
        let rules = Rules::default();
        let mut train = Dataset::new();
        let fens = [
            crate::board::START_FEN,
            "11/11/11/11/11/4a6/5k5/11/4d6/4a6/11 a",
            "3a3a3/2aa4a2/1a5d1a1/a2d1ad1da1/2d1d4da/8da1/5k2a2/aa1d4aa1/1a2d2d1a1/2a3d1a2/3a3a3 a",
        ];
        // Enough positions for several chunks, so that the parallel sums really split.
        for i in 0..3 * CHUNK {
            let result = [
                GameResult::AttackersWon,
                GameResult::DefendersWon,
                GameResult::Draw,
            ];
            let mut s = sample(fens[i % 3], result[i % 3]);
            s.score = (i % 2 == 0).then_some((i % 400) as i32 - 200);
            train.push(&s, &rules);
        }
        let settings = TuneSettings {
            epochs: 5,
            scale: Some(0.003),
            ..TuneSettings::default()
        };
        let run = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| {
                fit(
                    &train,
                    &Dataset::new(),
                    current_weights::<Standard>(),
                    &settings,
                    5,
                    |_| {},
                )
                .weights
            })
        };
        let one = run(1);
        assert_eq!(one, run(2));
        assert_eq!(one, run(3));
        assert_ne!(one, current_weights::<Standard>());
    }

    #[test]
    fn the_weights_file_holds_the_rounded_fit_and_its_recipe() {
        let mut weights = current_weights::<Standard>();
        weights[0] = 12.4;
        weights[1] = -1e9;
        let fit = Fit {
            weights,
            scale: 2e-3,
            start_train: 0.5,
            start_validation: 0.25,
            train: 0.125,
            validation: 0.0625,
        };
        let bytes = weights_file(&fit, "hnefi tune a.txt\na.txt: 3 positions\n");
        let file = WeightsFile::read(&bytes).unwrap();
        assert_eq!(file.scale, 2e-3);
        assert_eq!(file.weights[0], [12, i16::MIN]);
        assert_eq!(file.weights[1..], Standard::hand().weights.weights[1..]);
        let recipe = WeightsFile::recipe(&bytes).unwrap();
        assert!(
            recipe.contains("\n  hnefi tune a.txt\n  a.txt: 3 positions\n"),
            "{recipe}"
        );
        assert!(recipe.contains("train 0.500000 -> 0.125000"), "{recipe}");
    }

    #[test]
    fn recipes_write_paths_under_the_current_folder_from_it() {
        let here = std::env::current_dir().unwrap();
        let inside = here.join("data").join("g.txt").display().to_string();
        let args = [
            "tune",
            &inside,
            "-o",
            "/elsewhere/w.weights",
            "--epochs",
            "5",
        ];
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        let expected = format!(
            "hnefi tune {} -o /elsewhere/w.weights --epochs 5",
            Path::new("data").join("g.txt").display()
        );
        assert_eq!(recipe_command(&args, &here), expected);
    }

    #[test]
    fn the_split_is_by_game_and_stable() {
        let out = (0..10_000).filter(|&g| held_out(g, 1, 0.1)).count();
        assert!((800..1200).contains(&out), "{out}");
        assert_eq!(held_out(42, 7, 0.3), held_out(42, 7, 0.3));
    }
}
