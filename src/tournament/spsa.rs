//! SPSA tuning of the search's parameters: Spall's simultaneous perturbation stochastic
//! approximation with fishtest's schedule, played as game pairs through the match runner.
//!
//! Every iteration perturbs all the parameters at once by `±c_k` (one random sign each), plays
//! pairs between the engine with `θ + c_k·Δ` and the engine with `θ - c_k·Δ`, and moves `θ` by
//! `r_k·c_k·(wins - losses)·Δ`. As on fishtest, `k` counts game pairs rather than iterations,
//! so that `c_end` and `r_end` mean the same whatever the number of pairs per iteration:
//! `c_k = c / (k + 1)^γ`, `a_k = a / (A + k + 1)^α`, `r_k = a_k / c_k²`, with `c` and `a` chosen
//! so that the last pair of the run has `c_k = c_end` and `r_k = r_end`, and `A` a tenth of the
//! run's pairs.
//!
//! The games are a closure ([`Tuner::iterate`]), so that the algorithm can be tested on a fake
//! match; [`MatchGames`] plays them for real with [`runner::run`](super::runner::run).
//! Everything random comes from the seed and the iteration's number alone, so a run resumed
//! from its state file draws what the uninterrupted run would have drawn.

use super::openings::Opening;
use super::runner::{Finished, MatchError, MatchSettings, run};
use super::spec::EngineSpec;
use super::summary::Summary;
use crate::board::Board;
use crate::board::variant::NamedRules;
use crate::search::params::{OutOfRange, SearchParams, TUNABLES, Tunable};
use crate::search::size::Standard;
use crate::splitmix::{SplitMix64, mix, spread};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Spall's exponents for the step size and the perturbation (the slowest decay that his
/// convergence proof allows, as fishtest uses them).
pub const ALPHA: f64 = 0.602;
pub const GAMMA: f64 = 0.101;
/// `A`, which keeps the first steps from being the largest, as a share of the run's pairs.
pub const A_SHARE: f64 = 0.1;
/// fishtest's usual `r_end`.
pub const DEFAULT_R_END: f64 = 0.002;
/// The state file's layout; a file of another version is refused rather than misread.
const STATE_VERSION: u32 = 2;
/// The most game pairs an iteration may have: the runner lays an iteration's games out in
/// memory before it plays them.
pub const MAX_PAIRS_PER_ITERATION: u64 = 1 << 20;

/// Why a tuning run cannot start or go on.
#[derive(Debug, thiserror::Error)]
pub enum SpsaError {
    #[error("parameter '{0}' is unknown (known: {known})", known = known_names())]
    UnknownParam(String),
    #[error("parameter '{text}': '{field}' is not a number")]
    NotANumber { text: String, field: String },
    #[error("parameter '{0}': too many fields (NAME=START,C_END,R_END)")]
    TooManyFields(String),
    #[error("parameter {0} is given twice")]
    Twice(&'static str),
    #[error("parameter '{text}': start {source}")]
    Start { text: String, source: OutOfRange },
    #[error("parameter '{text}': {what} must be a positive number")]
    NotPositive { text: String, what: &'static str },
    #[error("a run needs at least one iteration of at least one pair, and fewer than 2^52 pairs")]
    NoGames,
    #[error("cannot read {}: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot write {}: {source}", path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: not an SPSA state file: {why}", path.display())]
    Corrupt { path: PathBuf, why: String },
    #[error(
        "{}: the state of another run ({what}: {was} there, {now} now); resume it with the \
         same settings",
        path.display()
    )]
    OtherRun {
        path: PathBuf,
        what: String,
        was: String,
        now: String,
    },
    #[error(
        "{} exists: add --resume to go on with its run, or give another --state",
        .0.display()
    )]
    StateExists(PathBuf),
    #[error("hnefi spsa sets the parameters as UCI options: the engine must be proto=uci")]
    NotUci,
}

fn known_names() -> String {
    TUNABLES.map(|t| t.name).join(", ")
}

/// One parameter under tuning: its range, its starting value and its schedule's ends.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Param {
    pub name: String,
    pub min: i32,
    pub max: i32,
    pub start: i32,
    /// The perturbation at the end of the run.
    pub c_end: f64,
    /// The step, in units of `c_end²`, at the end of the run.
    pub r_end: f64,
}

impl Param {
    /// `tunable` from `start` with the default ends.
    pub fn new(tunable: &Tunable, start: i32) -> Param {
        Param {
            name: tunable.name.to_string(),
            min: tunable.min,
            max: tunable.max,
            start,
            c_end: default_c_end(tunable.min, tunable.max, start),
            r_end: DEFAULT_R_END,
        }
    }

    /// `NAME[=START[,C_END[,R_END]]]`, where an empty field takes its default (START: the
    /// value this build searches with).
    pub fn parse(text: &str) -> Result<Param, SpsaError> {
        let (name, rest) = text.split_once('=').unwrap_or((text, ""));
        let tunable = SearchParams::tunable(name.trim())
            .ok_or_else(|| SpsaError::UnknownParam(name.to_string()))?;
        let fields: Vec<&str> = if rest.is_empty() {
            Vec::new()
        } else {
            rest.split(',').map(str::trim).collect()
        };
        if fields.len() > 3 {
            return Err(SpsaError::TooManyFields(text.to_string()));
        }
        let field = |i: usize| fields.get(i).copied().filter(|f| !f.is_empty());
        let not_a_number = |f: &str| SpsaError::NotANumber {
            text: text.to_string(),
            field: f.to_string(),
        };
        let start = match field(0) {
            Some(f) => {
                let v: i32 = f.parse().map_err(|_| not_a_number(f))?;
                // Checked on a copy: only the range matters here.
                SearchParams::default()
                    .set(tunable, v)
                    .map_err(|source| SpsaError::Start {
                        text: text.to_string(),
                        source,
                    })?;
                v
            }
            None => SearchParams::default().get(tunable),
        };
        let mut param = Param::new(tunable, start);
        for (i, what) in [(1, "C_END"), (2, "R_END")] {
            if let Some(f) = field(i) {
                let v: f64 = f.parse().map_err(|_| not_a_number(f))?;
                if !(v.is_finite() && v > 0.0) {
                    return Err(SpsaError::NotPositive {
                        text: text.to_string(),
                        what,
                    });
                }
                if i == 1 {
                    param.c_end = v;
                } else {
                    param.r_end = v;
                }
            }
        }
        Ok(param)
    }
}

/// A tenth of the start (or a fortieth of the range for a start of 0), but at least a
/// quarter. The start rather than the range sets the scale because a range may be far wider
/// than the values that make sense (HistoryMax's). Perturbations much larger than this decide
/// every game of an iteration alike (a depth of 1 loses everything, 16 games to 0), which
/// tells SPSA little; smaller ones than a whole step still count because [`Schedule::step`]
/// rounds stochastically.
pub fn default_c_end(min: i32, max: i32, start: i32) -> f64 {
    let c = if start == 0 {
        (f64::from(max) - f64::from(min)) / 40.0
    } else {
        f64::from(start).abs() / 10.0
    };
    c.max(0.25)
}

/// The parameters of `texts` (each as [`Param::parse`] reads it), or every tunable from its
/// current value when there are none.
pub fn parse_params(texts: &[String]) -> Result<Vec<Param>, SpsaError> {
    if texts.is_empty() {
        let current = SearchParams::default();
        return Ok(TUNABLES
            .iter()
            .map(|t| Param::new(t, current.get(t)))
            .collect());
    }
    let mut params: Vec<Param> = Vec::new();
    for text in texts {
        let p = Param::parse(text)?;
        if params.iter().any(|q| q.name == p.name) {
            let name = SearchParams::tunable(&p.name).map_or("?", |t| t.name);
            return Err(SpsaError::Twice(name));
        }
        params.push(p);
    }
    Ok(params)
}

/// What defines a run: two runs with the same schedule and the same game results go through
/// the same values.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Schedule {
    pub params: Vec<Param>,
    pub iterations: u64,
    pub pairs_per_iteration: u64,
    pub seed: u64,
}

/// One iteration's draw: the perturbation and the two engines' values, rounded and clamped.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// From 0.
    pub iteration: u64,
    /// Δ: +1 or -1 per parameter.
    pub flips: Vec<i32>,
    /// `c_k` and `r_k` per parameter.
    pub c: Vec<f64>,
    pub r: Vec<f64>,
    /// The values of the engine θ+ (first in every pair's count) and of θ-.
    pub plus: Vec<i32>,
    pub minus: Vec<i32>,
    pub pairs: u64,
    /// One opening per pair, as indices into the openings (none when there are none: the
    /// pairs then start from the initial position).
    pub openings: Vec<usize>,
}

/// Games of θ+ against θ-, counted from θ+'s side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Score {
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
}

impl Score {
    /// Wins minus losses: what the update multiplies.
    pub fn result(&self) -> f64 {
        self.wins as f64 - self.losses as f64
    }

    pub fn games(&self) -> u64 {
        self.wins + self.losses + self.draws
    }

    fn add(&mut self, other: Score) {
        self.wins += other.wins;
        self.losses += other.losses;
        self.draws += other.draws;
    }
}

impl Schedule {
    pub fn new(
        params: Vec<Param>,
        iterations: u64,
        pairs_per_iteration: u64,
        seed: u64,
    ) -> Result<Schedule, SpsaError> {
        let pairs = iterations.checked_mul(pairs_per_iteration);
        // The schedule counts pairs as f64; past 2^52 consecutive counts would merge.
        if params.is_empty() || !matches!(pairs, Some(1..=0xF_FFFF_FFFF_FFFF)) {
            return Err(SpsaError::NoGames);
        }
        Ok(Schedule {
            params,
            iterations,
            pairs_per_iteration,
            seed,
        })
    }

    fn pairs(&self) -> f64 {
        (self.iterations * self.pairs_per_iteration) as f64
    }

    /// `c_k` and `r_k` of `param` for the pairs of `iteration` (`k`: the pairs before them,
    /// as fishtest fixes a batch's values when it hands the batch out).
    pub fn gains(&self, param: &Param, iteration: u64) -> (f64, f64) {
        let n = self.pairs();
        let big_a = A_SHARE * n;
        let k = (iteration * self.pairs_per_iteration) as f64;
        let c = param.c_end * n.powf(GAMMA);
        let a = param.r_end * param.c_end * param.c_end * (big_a + n).powf(ALPHA);
        let c_k = c / (k + 1.0).powf(GAMMA);
        let a_k = a / (big_a + k + 1.0).powf(ALPHA);
        (c_k, a_k / (c_k * c_k))
    }

    /// The draw of `iteration` from `theta`, with pairs' openings among `openings`.
    pub fn step(&self, iteration: u64, theta: &[f64], openings: usize) -> Step {
        let mut rng = SplitMix64::new(mix(self.seed ^ spread(iteration.wrapping_add(1))));
        let flips: Vec<i32> = self
            .params
            .iter()
            .map(|_| if rng.next_u64() >> 63 == 0 { 1 } else { -1 })
            .collect();
        let (c, r): (Vec<f64>, Vec<f64>) =
            self.params.iter().map(|p| self.gains(p, iteration)).unzip();
        let mut side = |sign: f64| -> Vec<i32> {
            self.params
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    let value = theta[i] + sign * c[i] * f64::from(flips[i]);
                    round_stochastically(value, rng.next_f64(), p)
                })
                .collect()
        };
        let plus = side(1.0);
        let minus = side(-1.0);
        let openings = if openings == 0 {
            Vec::new()
        } else {
            (0..self.pairs_per_iteration)
                .map(|_| rng.below(openings))
                .collect()
        };
        Step {
            iteration,
            flips,
            c,
            r,
            plus,
            minus,
            pairs: self.pairs_per_iteration,
            openings,
        }
    }

    /// Moves `theta` by the step's gradient estimate, within each parameter's range.
    pub fn update(&self, theta: &mut [f64], step: &Step, score: Score) {
        for (i, p) in self.params.iter().enumerate() {
            let moved =
                theta[i] + step.r[i] * step.c[i] * score.result() * f64::from(step.flips[i]);
            theta[i] = moved.clamp(f64::from(p.min), f64::from(p.max));
        }
    }

    /// The first setting in which `self` (now) differs from `was`, as (what, was, now).
    fn difference(&self, was: &Schedule) -> Option<(String, String, String)> {
        let field = |what: &str, a: &dyn ToString, b: &dyn ToString| {
            Some((what.to_string(), a.to_string(), b.to_string()))
        };
        if self.iterations != was.iterations {
            return field("iterations", &was.iterations, &self.iterations);
        }
        if self.pairs_per_iteration != was.pairs_per_iteration {
            return field(
                "pairs per iteration",
                &was.pairs_per_iteration,
                &self.pairs_per_iteration,
            );
        }
        if self.seed != was.seed {
            return field("seed", &was.seed, &self.seed);
        }
        let names = |s: &Schedule| s.params.iter().map(|p| p.name.clone()).collect::<Vec<_>>();
        if names(self) != names(was) {
            return field("parameters", &names(was).join(" "), &names(self).join(" "));
        }
        let describe = |p: &Param| {
            format!(
                "start {} in {}..{}, c_end {}, r_end {}",
                p.start, p.min, p.max, p.c_end, p.r_end
            )
        };
        self.params
            .iter()
            .zip(&was.params)
            .find(|(a, b)| a != b)
            .and_then(|(now, then)| field(&now.name, &describe(then), &describe(now)))
    }
}

/// `value` rounded to the nearest whole number within `param`'s range.
fn round_into(value: f64, param: &Param) -> i32 {
    // `as` saturates, and the clamp brings the result into range.
    (value.round() as i32).clamp(param.min, param.max)
}

/// `value` rounded up with the probability of its fraction (`uniform` in `0..1`), else down,
/// within `param`'s range: on average the engine plays `value` itself, so a perturbation
/// smaller than one step still moves the games.
fn round_stochastically(value: f64, uniform: f64, param: &Param) -> i32 {
    let floor = value.floor();
    let up = uniform < value - floor;
    ((floor + f64::from(u8::from(up))) as i32).clamp(param.min, param.max)
}

/// Where a run stands: written after every iteration, read back by a resumed run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpsaState {
    pub version: u32,
    pub schedule: Schedule,
    /// The engine and the openings, as the run described them (for the record).
    pub engine: String,
    pub openings: String,
    /// Iterations done.
    pub iteration: u64,
    pub theta: Vec<f64>,
    /// All the games so far, from θ+'s side.
    pub score: Score,
}

impl SpsaState {
    pub fn new(schedule: Schedule, engine: String, openings: String) -> SpsaState {
        SpsaState {
            version: STATE_VERSION,
            theta: schedule.params.iter().map(|p| f64::from(p.start)).collect(),
            schedule,
            engine,
            openings,
            iteration: 0,
            score: Score::default(),
        }
    }

    pub fn done(&self) -> bool {
        self.iteration >= self.schedule.iterations
    }

    /// The next iteration's draw.
    pub fn next_step(&self, openings: usize) -> Step {
        self.schedule.step(self.iteration, &self.theta, openings)
    }

    /// Counts the iteration `step` and its games.
    pub fn apply(&mut self, step: &Step, score: Score) {
        self.schedule.update(&mut self.theta, step, score);
        self.score.add(score);
        self.iteration = step.iteration + 1;
    }

    /// θ rounded as the engine would be given it, by name.
    pub fn values(&self) -> Vec<(&str, i32)> {
        self.schedule
            .params
            .iter()
            .zip(&self.theta)
            .map(|(p, &t)| (p.name.as_str(), round_into(t, p)))
            .collect()
    }

    /// θ as `hnefi match` engine words: `option.NAME=VALUE ...`.
    pub fn option_words(&self) -> String {
        self.values()
            .iter()
            .map(|(name, v)| format!("option.{name}={v}"))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// θ as UCI commands, one per line.
    pub fn setoption_lines(&self) -> Vec<String> {
        self.values()
            .iter()
            .map(|(name, v)| format!("setoption name {name} value {v}"))
            .collect()
    }

    /// Writes the state so that the file holds either the old state or the new one whole,
    /// whenever the process is stopped.
    pub fn save(&self, path: &Path) -> Result<(), SpsaError> {
        let text = serde_json::to_string_pretty(self).expect("a state is always serialisable");
        crate::files::replace(path, (text + "\n").as_bytes()).map_err(|source| SpsaError::Write {
            path: path.to_path_buf(),
            source,
        })
    }

    pub fn load(path: &Path) -> Result<SpsaState, SpsaError> {
        let text = std::fs::read_to_string(path).map_err(|source| SpsaError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        let corrupt = |why: String| SpsaError::Corrupt {
            path: path.to_path_buf(),
            why,
        };
        let state: SpsaState = serde_json::from_str(&text).map_err(|e| corrupt(e.to_string()))?;
        if state.version != STATE_VERSION {
            return Err(corrupt(format!(
                "version {}, this build reads {STATE_VERSION}",
                state.version
            )));
        }
        let s = &state.schedule;
        if Schedule::new(
            s.params.clone(),
            s.iterations,
            s.pairs_per_iteration,
            s.seed,
        )
        .is_err()
            || state.theta.len() != s.params.len()
            || state.iteration > s.iterations
        {
            return Err(corrupt("its counts do not fit together".into()));
        }
        let sound = |(p, t): (&Param, &f64)| {
            let positive = |v: f64| v.is_finite() && v > 0.0;
            (f64::from(p.min)..=f64::from(p.max)).contains(t)
                && (p.min..=p.max).contains(&p.start)
                && positive(p.c_end)
                && positive(p.r_end)
        };
        if !s.params.iter().zip(&state.theta).all(sound) {
            return Err(corrupt("a value is outside its range".into()));
        }
        Ok(state)
    }

    /// Whether this state, read from `path`, is of a run with `schedule`.
    pub fn check_schedule(&self, schedule: &Schedule, path: &Path) -> Result<(), SpsaError> {
        match schedule.difference(&self.schedule) {
            None => Ok(()),
            Some((what, was, now)) => Err(SpsaError::OtherRun {
                path: path.to_path_buf(),
                what,
                was,
                now,
            }),
        }
    }
}

/// The engine a run tunes: both sides of its games, told the values as UCI options, which
/// only a UCI engine takes.
pub fn check_engine(engine: &EngineSpec) -> Result<(), SpsaError> {
    if engine.proto != crate::protocol::Protocol::Uci {
        return Err(SpsaError::NotUci);
    }
    Ok(())
}

/// A setting that a resumed run has other than its state file recorded: said, not refused,
/// since the values depend on the schedule alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Changed {
    /// What changed: `engine` or `openings`.
    pub what: &'static str,
    /// As the state file recorded it.
    pub was: String,
    /// As given now.
    pub now: String,
}

/// A run under way: its state, saved after every iteration when it has a file.
pub struct Tuner {
    pub state: SpsaState,
    /// How many openings the pairs draw from.
    pub openings: usize,
    pub path: Option<PathBuf>,
    /// Whether the run goes on from its file, which then holds its state already.
    pub resumed: bool,
}

/// Where a run stands after an iteration, as [`Tuner::run`] reports it.
#[derive(Debug)]
pub struct Progress<'a> {
    /// The iteration just played.
    pub step: &'a Step,
    /// Its games, from θ+'s side.
    pub score: Score,
    /// The state after it.
    pub state: &'a SpsaState,
    /// Seconds per iteration so far in this process, and the seconds the rest would take at
    /// that pace.
    pub per_iteration: f64,
    pub left: f64,
}

impl Tuner {
    /// The run `hnefi spsa` plays, saved at `path`, whose pairs draw from `openings`
    /// openings. With `resume`, the run saved there, which must have `schedule`; an engine or
    /// openings other than those it began with (`engine`, `openings_name`) are returned, to
    /// be said. Without, a new run, and nothing may be at `path`: a run there would be lost.
    pub fn begin(
        path: &Path,
        resume: bool,
        schedule: Schedule,
        engine: String,
        openings_name: String,
        openings: usize,
    ) -> Result<(Tuner, Vec<Changed>), SpsaError> {
        let mut changed = Vec::new();
        let state = if resume {
            let state = SpsaState::load(path)?;
            state.check_schedule(&schedule, path)?;
            for (what, was, now) in [
                ("engine", &state.engine, engine),
                ("openings", &state.openings, openings_name),
            ] {
                if *was != now {
                    changed.push(Changed {
                        what,
                        was: was.clone(),
                        now,
                    });
                }
            }
            state
        } else {
            if path.exists() {
                return Err(SpsaError::StateExists(path.to_path_buf()));
            }
            SpsaState::new(schedule, engine, openings_name)
        };
        let tuner = Tuner {
            state,
            openings,
            path: Some(path.to_path_buf()),
            resumed: resume,
        };
        Ok((tuner, changed))
    }

    pub fn next_step(&self) -> Step {
        self.state.next_step(self.openings)
    }

    /// Plays iterations with `play` (as [`Tuner::iterate`] does one) until the run is done or
    /// `play` answers `None`, calling `report` after each. A new run's state is saved first,
    /// so that a file that cannot be written is found out now, not after the first iteration.
    pub fn run<E: From<SpsaError>>(
        &mut self,
        mut play: impl FnMut(&Step) -> Result<Option<Score>, E>,
        mut report: impl FnMut(&Progress),
    ) -> Result<(), E> {
        if let (false, Some(path)) = (self.resumed, &self.path) {
            self.state.save(path)?;
        }
        let (started, first) = (Instant::now(), self.state.iteration);
        while !self.state.done() {
            let Some((step, score)) = self.iterate(&mut play)? else {
                break;
            };
            let state = &self.state;
            let per_iteration = started.elapsed().as_secs_f64() / (state.iteration - first) as f64;
            report(&Progress {
                step: &step,
                score,
                state,
                per_iteration,
                left: per_iteration * (state.schedule.iterations - state.iteration) as f64,
            });
        }
        Ok(())
    }

    /// Plays the next iteration with `play`, which answers θ+'s score or `None` when it was
    /// stopped; the state then stays as it was. Returns the iteration's step and score.
    pub fn iterate<E: From<SpsaError>>(
        &mut self,
        play: impl FnOnce(&Step) -> Result<Option<Score>, E>,
    ) -> Result<Option<(Step, Score)>, E> {
        let step = self.next_step();
        let Some(score) = play(&step)? else {
            return Ok(None);
        };
        self.state.apply(&step, score);
        if let Some(path) = &self.path {
            self.state.save(path)?;
        }
        Ok(Some((step, score)))
    }
}

/// The games of a run for real: both sides are one engine, told the values as UCI options.
pub struct MatchGames {
    pub engine: EngineSpec,
    /// The parameters' names, in the schedule's order.
    pub names: Vec<String>,
    pub openings: Vec<Opening<Standard>>,
    pub openings_name: String,
    pub rules: NamedRules,
    pub max_plies: usize,
    pub concurrency: usize,
    pub time_margin: Duration,
    pub move_timeout: Duration,
}

impl MatchGames {
    /// The engine with `values`, overriding any `option.` of the same names it was given.
    fn engine_with(&self, name: &str, values: &[i32]) -> EngineSpec {
        let mut spec = self.engine.clone();
        spec.name = name.to_string();
        spec.options
            .retain(|(n, _)| !self.names.iter().any(|m| m.eq_ignore_ascii_case(n)));
        spec.options.extend(
            self.names
                .iter()
                .zip(values)
                .map(|(n, v)| (n.clone(), v.to_string())),
        );
        spec
    }

    /// The step's games as a match of θ+ against θ-: a pair from each of its openings.
    pub fn settings(&self, step: &Step) -> MatchSettings<Standard> {
        MatchSettings {
            engines: vec![
                Arc::new(self.engine_with("theta+", &step.plus)),
                Arc::new(self.engine_with("theta-", &step.minus)),
            ],
            games: 2 * step.pairs as usize,
            concurrency: self.concurrency,
            openings: step
                .openings
                .iter()
                .map(|&o| self.openings[o].clone())
                .collect(),
            openings_name: self.openings_name.clone(),
            // Only orders the step's pairs among themselves.
            seed: step.iteration,
            rules: self.rules.clone(),
            start: Board::start(),
            max_plies: self.max_plies,
            first_attacks_only: false,
            sprt: None,
            shard: (1, 1),
            time_margin: self.time_margin,
            move_timeout: self.move_timeout,
            records: None,
        }
    }

    /// Plays the step's pairs; `None` when `stop` cut them short. `each` sees every game as
    /// it ends.
    pub fn play(
        &self,
        step: &Step,
        stop: &Arc<AtomicBool>,
        each: impl FnMut(&Summary, &Finished),
    ) -> Result<Option<Score>, MatchError> {
        let settings = self.settings(step);
        let summary = run(&settings, stop.clone(), each)?;
        let encounter = &summary.encounters[0];
        if encounter.games() < settings.games as u64 {
            return Ok(None);
        }
        let t = encounter.trinomial();
        Ok(Some(Score {
            wins: t.wins,
            losses: t.losses,
            draws: t.draws,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param(name: &str) -> Param {
        Param::parse(name).expect("a tunable")
    }

    fn schedule(params: &[&str], iterations: u64, pairs: u64) -> Schedule {
        Schedule::new(
            params.iter().map(|p| param(p)).collect(),
            iterations,
            pairs,
            7,
        )
        .unwrap()
    }

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("hnefi-spsa-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn params_parse_with_defaults_and_say_what_is_wrong() {
        // Without a start, the build's own value.
        let built = SearchParams::default();
        let p = param("lmrbase");
        assert_eq!(
            (p.name.as_str(), p.start, p.min, p.max),
            ("LmrBase", built.lmr_base, -200, 300)
        );
        assert_eq!(p.r_end, DEFAULT_R_END);
        assert!((p.c_end - f64::from(built.lmr_base) / 10.0).abs() < 1e-9);
        let p = param("LmrBase=-20,4.5,0.01");
        assert_eq!((p.start, p.c_end, p.r_end), (-20, 4.5, 0.01));
        let p = param("LmrBase=,3");
        assert_eq!((p.start, p.c_end), (built.lmr_base, 3.0));
        // A range far wider than the values in use does not make the perturbation huge.
        assert!((param("HistoryMax=16384").c_end - 1638.4).abs() < 1e-9);
        assert!((param("RfpMaxDepth=4").c_end - 0.4).abs() < 1e-9);
        assert_eq!(param("LmrBase=0").c_end, 12.5);
        assert_eq!(param("QsearchMaxPly=1").c_end, 0.25);
        let err = |t: &str| Param::parse(t).unwrap_err().to_string();
        assert!(err("Colour").contains("unknown (known: AspirationWindow, "));
        assert!(err("LmrBase=x").contains("'x' is not a number"));
        assert!(err("LmrBase=400").contains("400 is outside -200..300"));
        assert!(err("LmrBase=1,0").contains("C_END must be a positive number"));
        assert!(err("LmrBase=1,2,-1").contains("R_END must be a positive"));
        assert!(err("LmrBase=1,2,3,4").contains("too many fields"));
        let twice = parse_params(&["LmrBase".into(), "lmrbase=3".into()]).unwrap_err();
        assert_eq!(twice.to_string(), "parameter LmrBase is given twice");
        let all = parse_params(&[]).unwrap();
        assert_eq!(all.len(), TUNABLES.len());
        assert!(Schedule::new(all.clone(), 0, 4, 1).is_err());
        assert!(Schedule::new(all, 4, 0, 1).is_err());
        assert!(Schedule::new(vec![], 4, 4, 1).is_err());
    }

    #[test]
    fn gains_fall_to_their_ends() {
        for pairs in [1, 8] {
            let s = schedule(&["LmrBase=50,10,0.002", "RfpMargin"], 200, pairs);
            for p in &s.params {
                let gains: Vec<(f64, f64)> = (0..200).map(|i| s.gains(p, i)).collect();
                for w in gains.windows(2) {
                    let a = |(c, r): (f64, f64)| r * c * c;
                    assert!(w[1].0 < w[0].0, "c_k falls");
                    assert!(a(w[1]) < a(w[0]), "a_k falls");
                }
                let (c_last, r_last) = gains[199];
                if pairs == 1 {
                    // The last pair has exactly the ends.
                    assert!((c_last - p.c_end).abs() < 1e-9);
                    assert!((r_last - p.r_end).abs() < 1e-12);
                } else {
                    assert!(c_last > p.c_end && c_last < p.c_end * 1.01);
                }
                assert!(gains[0].0 > 1.5 * p.c_end, "perturbations start wider");
            }
        }
    }

    #[test]
    fn steps_are_rounded_clamped_and_reproducible() {
        let s = schedule(&["RfpMaxDepth=0", "LmrBase=300", "LmrDivisor=225"], 50, 3);
        let theta = [0.4, 299.6, 225.0];
        let mut signs = [0, 0];
        for i in 0..50 {
            let step = s.step(i, &theta, 10);
            assert_eq!(step, s.step(i, &theta, 10), "the same draw every time");
            for (j, p) in s.params.iter().enumerate() {
                let f = step.flips[j];
                assert!(f == 1 || f == -1);
                signs[usize::from(f == 1)] += 1;
                let either = |sign: f64, got: i32| {
                    let v = theta[j] + sign * step.c[j] * f64::from(f);
                    let clamp = |x: f64| (x as i32).clamp(p.min, p.max);
                    got == clamp(v.floor()) || got == clamp(v.ceil())
                };
                assert!(either(1.0, step.plus[j]) && either(-1.0, step.minus[j]));
                assert!((p.min..=p.max).contains(&step.plus[j]));
                assert!((p.min..=p.max).contains(&step.minus[j]));
            }
            assert_eq!(step.openings.len(), 3);
            assert!(step.openings.iter().all(|&o| o < 10));
            assert!(s.step(i, &theta, 0).openings.is_empty());
        }
        assert!(signs[0] > 30 && signs[1] > 30, "both signs: {signs:?}");
        // Another seed, other draws.
        let mut other = s.clone();
        other.seed = 8;
        assert!((0..50).any(|i| other.step(i, &theta, 10).flips != s.step(i, &theta, 10).flips));
    }

    #[test]
    fn stochastic_rounding_averages_to_the_value() {
        let p = param("RfpMaxDepth");
        let mut rng = SplitMix64::new(3);
        for value in [2.0, 2.25, 2.5, 3.9, -0.5, 12.7] {
            let n = 20_000;
            let sum: i64 = (0..n)
                .map(|_| i64::from(round_stochastically(value, rng.next_f64(), &p)))
                .sum();
            let want = value.clamp(f64::from(p.min), f64::from(p.max));
            let mean = sum as f64 / f64::from(n);
            // Clamping at the ends pulls the mean toward them; within the range it is unbiased.
            assert!((mean - want).abs() < 0.02, "{value}: mean {mean}");
        }
    }

    #[test]
    fn updates_follow_the_flips_within_the_range() {
        let s = schedule(&["LmrBase=0", "RfpMargin=100"], 10, 2);
        let mut theta = vec![0.0, 100.0];
        let step = s.step(3, &theta, 0);
        let score = Score {
            wins: 3,
            losses: 1,
            draws: 0,
        };
        s.update(&mut theta, &step, score);
        for j in 0..2 {
            let start = [0.0, 100.0][j];
            let moved = step.r[j] * step.c[j] * 2.0 * f64::from(step.flips[j]);
            assert!((theta[j] - (start + moved)).abs() < 1e-12);
        }
        // A huge result stops at the bounds.
        let mut theta = vec![0.0, 100.0];
        let lopsided = Score {
            wins: 1_000_000,
            losses: 0,
            draws: 0,
        };
        s.update(&mut theta, &step, lopsided);
        for (j, p) in s.params.iter().enumerate() {
            let bound = if step.flips[j] > 0 { p.max } else { p.min };
            assert_eq!(theta[j], f64::from(bound));
        }
    }

    #[test]
    fn states_round_trip_through_their_files() {
        let dir = scratch("state");
        let path = dir.join("spsa.json");
        let s = schedule(&["LmrBase", "AspirationWindow=41,3.5,0.004"], 20, 2);
        let mut state = SpsaState::new(s.clone(), "hnefi (uci, nodes=200)".into(), "x".into());
        state.theta = vec![0.1 + 0.2, 41.000000000000014];
        state.iteration = 5;
        state.score = Score {
            wins: 4,
            losses: 3,
            draws: 13,
        };
        state.save(&path).unwrap();
        assert!(
            std::fs::read_dir(&dir).unwrap().all(|e| !e
                .unwrap()
                .file_name()
                .to_string_lossy()
                .ends_with(".tmp")),
            "no temporary file left"
        );
        let back = SpsaState::load(&path).unwrap();
        assert_eq!(back, state, "exact, floats too");
        back.check_schedule(&s, &path).unwrap();
        let mut other = s.clone();
        other.params[1].c_end = 3.0;
        let err = back.check_schedule(&other, &path).unwrap_err().to_string();
        assert!(err.contains("another run (AspirationWindow: "), "{err}");
        other.iterations = 30;
        let err = back.check_schedule(&other, &path).unwrap_err().to_string();
        assert!(err.contains("(iterations: 20 there, 30 now)"), "{err}");
        // Missing, garbled or inconsistent files are refused with their name.
        let err = SpsaState::load(&dir.join("none.json")).unwrap_err();
        assert!(err.to_string().starts_with("cannot read "), "{err}");
        std::fs::write(&path, "{\"version\": 1").unwrap();
        let err = SpsaState::load(&path).unwrap_err().to_string();
        assert!(err.contains("not an SPSA state file"), "{err}");
        let mut bad = state.clone();
        bad.theta.pop();
        bad.save(&path).unwrap();
        assert!(SpsaState::load(&path).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn output_words_are_rounded_values() {
        let s = schedule(&["LmrBase", "RfpMargin"], 10, 1);
        let mut state = SpsaState::new(s, String::new(), String::new());
        state.theta = vec![52.5, 88.4];
        assert_eq!(
            state.option_words(),
            "option.LmrBase=53 option.RfpMargin=88"
        );
        assert_eq!(
            state.setoption_lines(),
            [
                "setoption name LmrBase value 53",
                "setoption name RfpMargin value 88"
            ]
        );
    }

    /// A fake match: each parameter has a planted optimum, and the side closer to it wins
    /// more often (logistic in the difference of a quadratic strength), a fifth drawn.
    fn fake_games(
        optimum: &'static [f64],
        width: &'static [f64],
    ) -> impl FnMut(&Step) -> Result<Option<Score>, SpsaError> {
        let strength = move |v: &[i32]| -> f64 {
            v.iter()
                .zip(optimum.iter().zip(width))
                .map(|(&x, (o, w))| -((f64::from(x) - o) / w).powi(2))
                .sum()
        };
        move |step: &Step| {
            let mut rng = SplitMix64::new(mix(step.iteration ^ 0xABCD));
            let p = 1.0 / (1.0 + (strength(&step.minus) - strength(&step.plus)).exp());
            let mut score = Score::default();
            for _ in 0..2 * step.openings.len() {
                let u = rng.next_f64();
                if u < 0.2 {
                    score.draws += 1;
                } else if u < 0.2 + 0.8 * p {
                    score.wins += 1;
                } else {
                    score.losses += 1;
                }
            }
            Ok(Some(score))
        }
    }

    #[test]
    fn moves_toward_a_planted_optimum() {
        let optimum = &[100.0, 120.0];
        for seed in 1..=4 {
            let s = Schedule::new(
                vec![
                    param("LmrBase=-100,10,0.05"),
                    param("AspirationWindow=300,10,0.05"),
                ],
                300,
                4,
                seed,
            )
            .unwrap();
            let mut tuner = Tuner {
                state: SpsaState::new(s, String::new(), String::new()),
                openings: 5,
                path: None,
                resumed: false,
            };
            let mut games = fake_games(optimum, &[100.0, 100.0]);
            while !tuner.state.done() {
                tuner.iterate(&mut games).unwrap();
            }
            let theta = &tuner.state.theta;
            for (j, start) in [-100.0, 300.0].into_iter().enumerate() {
                let (before, after) = ((start - optimum[j]).abs(), (theta[j] - optimum[j]).abs());
                assert!(
                    after < before / 5.0,
                    "seed {seed}, {j}: {start} -> {}",
                    theta[j]
                );
            }
            assert_eq!(tuner.state.score.games(), 300 * 4 * 2);
        }
    }

    #[test]
    fn a_resumed_run_goes_through_the_same_values() {
        let dir = scratch("resume");
        let path = dir.join("spsa.json");
        let s = Schedule::new(
            vec![param("LmrBase=-100,10,0.01"), param("RfpMargin=300")],
            12,
            3,
            5,
        )
        .unwrap();
        let new_tuner = |path: Option<PathBuf>| Tuner {
            state: SpsaState::new(s.clone(), String::new(), String::new()),
            openings: 4,
            path,
            resumed: false,
        };
        let trace = |tuner: &mut Tuner, until: u64, thetas: &mut Vec<Vec<f64>>| {
            let mut games = fake_games(&[100.0, 90.0], &[50.0, 50.0]);
            while tuner.state.iteration < until {
                tuner.iterate(&mut games).unwrap();
                thetas.push(tuner.state.theta.clone());
            }
        };
        let mut whole = Vec::new();
        trace(&mut new_tuner(None), 12, &mut whole);
        let mut parts = Vec::new();
        trace(&mut new_tuner(Some(path.clone())), 5, &mut parts);
        // A stop during the sixth iteration leaves the state of the fifth.
        let mut tuner = new_tuner(Some(path.clone()));
        tuner.state = SpsaState::load(&path).unwrap();
        assert_eq!(tuner.iterate(|_| Ok::<_, SpsaError>(None)).unwrap(), None);
        assert_eq!(SpsaState::load(&path).unwrap().iteration, 5);
        trace(&mut tuner, 12, &mut parts);
        assert_eq!(parts, whole);
        assert_ne!(whole[0], whole[11]);
        assert_eq!(SpsaState::load(&path).unwrap().theta, whole[11]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A new run never takes the place of one in its file; a resumed run must be the same run,
    /// and says what else changed.
    #[test]
    fn runs_begin_anew_or_resume_their_own_file() {
        let dir = scratch("begin");
        let path = dir.join("spsa.json");
        let s = schedule(&["LmrBase"], 3, 2);
        let begin = |resume, s: &Schedule, engine: &str| {
            Tuner::begin(
                &path,
                resume,
                s.clone(),
                engine.into(),
                "built-in".into(),
                5,
            )
        };
        let (mut tuner, changed) = begin(false, &s, "e").unwrap();
        assert!(changed.is_empty());
        assert!(!path.exists(), "nothing written before the run");
        // The first save comes before any game, even one cut short.
        tuner
            .run(|_| Ok::<_, SpsaError>(None), |_| panic!("no iteration"))
            .unwrap();
        assert_eq!(SpsaState::load(&path).unwrap(), tuner.state);
        let again = begin(false, &s, "e").err().unwrap().to_string();
        assert_eq!(
            again,
            format!(
                "{} exists: add --resume to go on with its run, or give another --state",
                path.display()
            )
        );
        let (resumed, changed) = begin(true, &s, "f").unwrap();
        assert!(resumed.resumed);
        assert_eq!((resumed.openings, resumed.state.iteration), (5, 0));
        assert_eq!(
            changed,
            [Changed {
                what: "engine",
                was: "e".into(),
                now: "f".into()
            }]
        );
        let other = begin(true, &schedule(&["LmrBase"], 4, 2), "e")
            .err()
            .unwrap();
        assert!(matches!(other, SpsaError::OtherRun { .. }), "{other}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A run goes to its end, reporting each iteration; a resumed run does not write its file
    /// before it has played.
    #[test]
    fn a_run_reports_every_iteration_to_its_end() {
        let dir = scratch("run");
        let path = dir.join("spsa.json");
        let mut tuner = Tuner {
            state: SpsaState::new(schedule(&["LmrBase"], 6, 2), String::new(), String::new()),
            openings: 3,
            path: Some(path.clone()),
            resumed: true,
        };
        tuner.run(|_| Ok::<_, SpsaError>(None), |_| {}).unwrap();
        assert!(!path.exists());
        let mut seen = Vec::new();
        tuner
            .run(fake_games(&[100.0], &[50.0]), |p| {
                assert_eq!(p.state.iteration, p.step.iteration + 1);
                assert!(p.per_iteration >= 0.0 && p.left >= 0.0);
                seen.push((p.step.iteration, p.score.games()));
            })
            .unwrap();
        assert_eq!(seen, (0..6).map(|i| (i, 4)).collect::<Vec<_>>());
        assert!(tuner.state.done());
        assert_eq!(SpsaState::load(&path).unwrap().iteration, 6);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn only_a_uci_engine_can_be_tuned() {
        let words = |t: &str| t.split(' ').map(String::from).collect::<Vec<_>>();
        let uci = EngineSpec::parse(&[], &words("cmd=x nodes=1")).unwrap();
        assert!(check_engine(&uci).is_ok());
        let otep = EngineSpec::parse(&[], &words("cmd=x tc=10+0.1 proto=otep")).unwrap();
        assert_eq!(
            check_engine(&otep).unwrap_err().to_string(),
            "hnefi spsa sets the parameters as UCI options: the engine must be proto=uci"
        );
    }
}
