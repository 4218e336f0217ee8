//! `hnefi train`: parses the command line, loads the samples (through
//! [`hnefi::learn::data`]), trains the NNUE network, writes it quantised and reports how far
//! quantising moved it.

use super::CliError;
use super::common::{RulesArg, check_fit_settings, file_bar, progress_bar, thread_pool};
use super::output::check_writable;
use super::train_policy::train_policy_on;
use clap::Args;
use hnefi::board::Rulebook;
use hnefi::learn::data::{Holdout, Loaded, NetData, Source, network_from_file};
use hnefi::learn::train::{self, Saturated, TrainSettings};
use hnefi::search::nnue::{HIDDEN, inputs};
use hnefi::search::size::{Size, SizedTask, run_sized};
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(Args)]
pub struct TrainArgs {
    /// Sample files (FEN;SCORE;RESULT;GAME[;BESTMOVE] lines, as `hnefi datagen` and `hnefi games-data`
    /// write them).
    #[arg(required = true)]
    pub data: Vec<PathBuf>,
    /// Where to write the quantised network (the net file format of hnefi-core/src/search/nnue/file.rs).
    #[arg(long, short)]
    pub out: PathBuf,
    /// Passes over the training positions (each in steps of --batch positions).
    #[arg(long, default_value_t = 10)]
    pub epochs: usize,
    /// Positions per step of Adam.
    #[arg(long, default_value_t = 4096)]
    pub batch: usize,
    /// Adam's step size at the start (feature weights lie within ±1).
    #[arg(long, default_value_t = 0.001)]
    pub lr: f32,
    /// The step size at the end: it falls from --lr along a half cosine over the run, so
    /// that the last epochs settle (default: --lr, a constant step).
    #[arg(long)]
    pub lr_end: Option<f32>,
    /// Weight of the game result in the target (the rest: the search score, where known).
    #[arg(long, default_value_t = 0.5)]
    pub lambda: f64,
    /// Share of the games held out to measure the fit.
    #[arg(long, default_value_t = 0.1)]
    pub holdout: f64,
    /// Measure the fit on these files instead, and train on all of DATA: games held out by
    /// number still share openings and whole stretches of play with the training games of
    /// the same self-play run, which another run does not.
    #[arg(long, num_args = 1.., conflicts_with = "holdout")]
    pub validate: Vec<PathBuf>,
    /// Seed of the weights, the order of the positions and the held-out split.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Train a correction to the hand evaluation: the search evaluates the hand evaluation
    /// plus the network (the file records it). The output layer starts at zero, so training
    /// starts from the hand evaluation, whose held-out loss is shown first.
    #[arg(long)]
    pub residual: bool,
    /// Go on from this net file's weights instead of a fresh start: the next generation from
    /// the last one. It must be of the same kind (--residual or not); a lower --lr keeps
    /// more of what it knew.
    #[arg(long, value_name = "NET")]
    pub init: Option<PathBuf>,
    /// Decoupled weight decay of the output weights, per unit of --lr: pulls the network's
    /// output towards zero (for a residual network, towards the hand evaluation).
    #[arg(long, default_value_t = 0.0)]
    pub weight_decay: f32,
    /// Train and validate only on quiet positions (no capture for the side to move, no open
    /// line from the king to a corner): the search score of the others counts what the next
    /// moves win, which the search finds itself.
    #[arg(long)]
    pub quiet_only: bool,
    /// Weight of a second loss on positions whose search score is beyond --saturated-cp
    /// either way, where the squared error in P(win) has no slope left: the squared error of
    /// asinh(logit / 2). 0: none.
    #[arg(long, default_value_t = 0.0)]
    pub saturated_weight: f32,
    /// The search score, in cp either way, from which --saturated-weight counts.
    #[arg(long, default_value_t = 1500)]
    pub saturated_cp: u32,
    /// Worker threads (default: all cores). The result does not depend on them.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Train the move policy instead of the network: from the samples' BESTMOVE fields (the
    /// moves of deep searches, `hnefi datagen`), the policy that the search orders and reduces
    /// its moves by. It reads the accumulator of --net, and --out is a policy file. --lambda,
    /// --residual, --quiet-only and the --saturated options do not apply.
    #[arg(long, conflicts_with_all = ["residual", "quiet_only", "saturated_weight"])]
    pub policy: bool,
    /// With --policy: the network whose accumulator the policy reads (a net file; default:
    /// the one built in for the board). --init then names a policy file to go on from.
    #[arg(long, value_name = "NET", requires = "policy")]
    pub net: Option<PathBuf>,
    /// The rules the samples were played under: the network is for their board, and a
    /// correction (--residual) corrects their board's hand evaluation.
    #[command(flatten)]
    pub rules: RulesArg,
}

pub fn train(args: TrainArgs) -> Result<(), CliError> {
    let (rules, _) = args.rules.rules_and_start();
    if args.policy {
        return run_sized(rules.width, TrainPolicy(args))?;
    }
    run_sized(rules.width, args)?
}

/// The settings every training run checks alike: epochs, batch, step sizes and decay. Returns
/// the step size at the end.
pub(super) fn check_steps(args: &TrainArgs) -> Result<f32, CliError> {
    if args.epochs == 0 {
        return Err(CliError::out_of_range(
            "--epochs",
            args.epochs,
            "at least 1",
        ));
    }
    if args.batch == 0 {
        return Err(CliError::out_of_range("--batch", args.batch, "at least 1"));
    }
    if !(args.lr > 0.0 && args.lr.is_finite()) {
        return Err(CliError::out_of_range("--lr", args.lr, "a positive number"));
    }
    let lr_end = args.lr_end.unwrap_or(args.lr);
    if !(lr_end > 0.0 && lr_end <= args.lr) {
        return Err(CliError::out_of_range(
            "--lr-end",
            lr_end,
            "a positive number no larger than --lr",
        ));
    }
    if !(args.weight_decay >= 0.0 && args.weight_decay.is_finite()) {
        return Err(CliError::out_of_range(
            "--weight-decay",
            args.weight_decay,
            "a number at least 0",
        ));
    }
    Ok(lr_end)
}

impl SizedTask for TrainArgs {
    type Output = Result<(), CliError>;
    fn run<G: Size>(self) -> Self::Output {
        train_on::<G>(self)
    }
}

/// `hnefi train --policy` on the rules' board.
struct TrainPolicy(TrainArgs);

impl SizedTask for TrainPolicy {
    type Output = Result<(), CliError>;
    fn run<G: Size>(self) -> Self::Output {
        train_policy_on::<G>(self.0)
    }
}

fn train_on<G: Size>(args: TrainArgs) -> Result<(), CliError> {
    let scale = G::hand().weights.scale;
    check_fit_settings(args.lambda, args.holdout)?;
    let lr_end = check_steps(&args)?;
    if !(args.saturated_weight >= 0.0 && args.saturated_weight.is_finite()) {
        return Err(CliError::out_of_range(
            "--saturated-weight",
            args.saturated_weight,
            "a number at least 0",
        ));
    }
    // Before the training, so that a path that cannot be written fails at once.
    check_writable(&args.out)?;
    let pool = thread_pool(args.threads)?;
    let start = match &args.init {
        Some(path) => Some(network_from_file::<G>(path, args.residual)?),
        None => None,
    };
    let settings = TrainSettings {
        epochs: args.epochs,
        batch: args.batch,
        learning_rate: args.lr,
        learning_rate_end: lr_end,
        lambda: args.lambda,
        scale,
        seed: args.seed,
        weight_decay: args.weight_decay,
        residual: args.residual,
        inputs: inputs::<G>(),
    };
    let saturated = Saturated::beyond(args.saturated_weight, args.saturated_cp, scale);
    let (rules, _) = args.rules.rules_and_start();
    let holdout = Holdout::new(args.holdout, args.seed, !args.validate.is_empty());
    let mut data = NetData::new(
        &settings,
        saturated,
        Rulebook::<G>::new(rules),
        holdout,
        args.quiet_only,
    );
    let mut load = |path: &Path, source: Source| -> Result<String, CliError> {
        let bar = file_bar(path);
        let Loaded { read, kept } = pool.install(|| data.load(path, source, |b| bar.inc(b)))?;
        bar.finish_and_clear();
        Ok(if args.quiet_only {
            format!("{read} positions ({kept} quiet)")
        } else {
            format!("{read} positions")
        })
    };
    for path in &args.data {
        let kept = load(path, Source::Data)?;
        note!("{}: {kept}", path.display());
    }
    for path in &args.validate {
        let kept = load(path, Source::Validation)?;
        note!("{}: {kept} to validate on", path.display());
    }
    let (train_data, validation) = (&data.train, &data.validation);
    if train_data.is_empty() {
        return Err(CliError::NoTrainingData);
    }
    note!(
        "{} training positions, {} held out ({} MB in memory); {HIDDEN} hidden units, batch {}, \
         {} epochs",
        train_data.len(),
        validation.len(),
        ((train_data.len() + validation.len()) * train_data.bytes_per_position()) >> 20,
        settings.batch,
        settings.epochs
    );
    let (checked, name) = data.measured();
    if settings.residual {
        let hand = train::initial_network(&settings);
        let loss = pool.install(|| checked.loss(&hand));
        note!("residual: the hand evaluation's {name} loss {loss:.6}");
    }
    let start = start.unwrap_or_else(|| train::initial_network(&settings));
    if let Some(path) = &args.init {
        let loss = pool.install(|| checked.loss(&start));
        note!("{}: {name} loss {loss:.6} at the start", path.display());
    }
    let bar = progress_bar((settings.epochs * train_data.len()) as u64, "positions");
    let mut epoch_start = Instant::now();
    let trained = pool.install(|| {
        train::train_from(
            start,
            train_data,
            validation,
            &settings,
            |n| bar.inc(n as u64),
            |r| {
                let rate = train_data.len() as f64 / epoch_start.elapsed().as_secs_f64();
                let line = format!(
                    "epoch {:>4}  train {:.6}  held out {:.6}  {rate:.0} positions/s",
                    r.epoch, r.train, r.validation
                );
                // A hidden bar (stderr not a terminal) swallows its printlns.
                if bar.is_hidden() {
                    note!("{line}");
                } else {
                    bar.println(line);
                }
                epoch_start = Instant::now();
            },
        )
    });
    bar.finish_and_clear();
    if !validation.is_empty() {
        note!(
            "kept the net of epoch {} (held out {:.6}), the lowest held-out loss",
            trained.epoch,
            trained.validation
        );
    }
    let net = trained.net;
    let quantised = net.quantise();
    quantised.save(&args.out)?;
    note!("wrote {}", args.out.display());
    let report = pool.install(|| train::quantisation_error(&net, &quantised, checked));
    note!(
        "quantised vs float over {} {name} positions: max {:.1} cp, mean {:.2} cp \
         (worst-case bound {:.0} cp)",
        report.positions,
        report.max,
        report.mean,
        report.bound
    );
    if report.beyond_bound > 0 {
        return Err(CliError::QuantisationBound(report.beyond_bound));
    }
    Ok(())
}
