//! `hnefi tune`: parses the command line, loads the samples, runs the fit, prints the report.

use super::CliError;
use super::common::{RulesArg, check_fit_settings};
use super::output::{check_writable, write_document};
use clap::Args;
use hnefi::learn::data::read_samples;
use hnefi::learn::tune::{self, Dataset, TuneSettings};
use hnefi::search::eval::features::FEATURES;
use hnefi::search::size::{Size, SizedTask, run_sized};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::PathBuf;

#[derive(Args)]
pub struct TuneArgs {
    /// Sample files (FEN;SCORE;RESULT;GAME[;BESTMOVE] lines, as `hnefi datagen` writes them).
    #[arg(required = true)]
    pub data: Vec<PathBuf>,
    /// Where to write the fitted weights, a weights file with its recipe (the engine's are
    /// hnefi-core/src/search/eval/eleven.weights for 11x11 and seven.weights for 7x7, built in at compile
    /// time; hnefi-core/src/search/size.rs says which each board plays). Nothing is written without it.
    /// Run from the repository's root, so that the recipe names repository paths.
    #[arg(long, short)]
    pub out: Option<PathBuf>,
    /// Passes over the training positions, one step of Adam each.
    #[arg(long, default_value_t = 1000)]
    pub epochs: usize,
    /// Adam's step size, in cp.
    #[arg(long, default_value_t = 1.0)]
    pub lr: f64,
    /// Weight of the game result in the target (the rest: the search score, where known).
    #[arg(long, default_value_t = 0.5)]
    pub lambda: f64,
    /// L2 penalty per weight toward its starting value.
    #[arg(long, default_value_t = 1e-7)]
    pub l2: f64,
    /// Share of the games held out to measure the fit.
    #[arg(long, default_value_t = 0.1)]
    pub holdout: f64,
    /// Seed of the held-out split.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Start from zero weights instead of the engine's current ones.
    #[arg(long)]
    pub from_zero: bool,
    /// The logistic scale K. Default: the current weights' K, so that the evaluation keeps its
    /// unit from one fit to the next; fitted to the results with the starting weights when
    /// the current weights have none, or with --fit-scale.
    #[arg(long, conflicts_with = "fit_scale")]
    pub scale: Option<f64>,
    /// Fit K to the results with the starting weights.
    #[arg(long)]
    pub fit_scale: bool,
    /// Print the losses every N epochs.
    #[arg(long, default_value_t = 50)]
    pub report_every: usize,
    /// The rules the samples were played under: their board's hand evaluation is fitted.
    #[command(flatten)]
    pub rules: RulesArg,
}

pub fn tune(args: TuneArgs) -> Result<(), CliError> {
    let (rules, _) = args.rules.rules_and_start();
    run_sized(rules.width, args)?
}

impl SizedTask for TuneArgs {
    type Output = Result<(), CliError>;
    fn run<G: Size>(self) -> Self::Output {
        tune_on::<G>(self)
    }
}

fn tune_on<G: Size>(args: TuneArgs) -> Result<(), CliError> {
    let hand = &G::hand().weights;
    check_fit_settings(args.lambda, args.holdout)?;
    if args.epochs == 0 && args.out.is_some() && args.from_zero {
        return Err(CliError::Conflict(
            "--from-zero with --epochs 0 would write all-zero weights",
        ));
    }
    let settings = TuneSettings {
        lambda: args.lambda,
        epochs: args.epochs,
        learning_rate: args.lr,
        l2: args.l2,
        holdout: args.holdout,
        seed: args.seed,
        from_zero: args.from_zero,
        scale: match (args.scale, args.fit_scale) {
            (Some(k), _) => Some(k),
            (None, false) if hand.scale > 0.0 => Some(hand.scale),
            _ => None,
        },
    };
    // Before the fit, so that a path that cannot be written fails at once.
    if let Some(out) = &args.out {
        check_writable(out)?;
    }
    let (rules, _) = args.rules.rules_and_start();
    let mut train = Dataset::new();
    let mut validation = Dataset::new();
    let args_given: Vec<String> = std::env::args().skip(1).collect();
    let current = std::env::current_dir().unwrap_or_default();
    let mut recipe = format!("{}\n", tune::recipe_command(&args_given, &current));
    for path in &args.data {
        let samples = read_samples::<G>(path)?;
        for s in &samples {
            if tune::held_out(s.game, settings.seed, settings.holdout) {
                validation.push(s, &rules);
            } else {
                train.push(s, &rules);
            }
        }
        note!("{}: {} positions", path.display(), samples.len());
        let shown = path.strip_prefix(&current).unwrap_or(path);
        recipe.push_str(&format!(
            "{}: {} positions\n",
            shown.display(),
            samples.len()
        ));
    }
    if train.is_empty() {
        return Err(CliError::NoTrainingData);
    }
    note!(
        "{} training positions, {} held out, {} features",
        train.len(),
        validation.len(),
        FEATURES
    );
    let start = if settings.from_zero {
        tune::zero_weights::<G>()
    } else {
        tune::current_weights::<G>()
    };
    let bar = ProgressBar::new(settings.epochs as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} epochs, ETA {eta} {msg}")
            .expect("valid template"),
    );
    let fit = tune::fit(
        &train,
        &validation,
        start,
        &settings,
        args.report_every.max(1),
        |p| {
            bar.set_position(p.epoch as u64);
            let line = format!(
                "epoch {:>5}  train {:.6}  held out {:.6}",
                p.epoch, p.train, p.validation
            );
            // A hidden bar (stderr not a terminal) swallows its printlns.
            if bar.is_hidden() {
                note!("{line}");
            } else {
                bar.println(line);
            }
        },
    );
    bar.finish_and_clear();
    note!(
        "K {:.6e}; loss train {:.6} -> {:.6}, held out {:.6} -> {:.6}",
        fit.scale,
        fit.start_train,
        fit.train,
        fit.start_validation,
        fit.validation
    );
    if let Some(out) = &args.out {
        write_document(Some(out), &tune::weights_file(&fit, &recipe))?;
        note!("wrote {}", out.display());
    }
    Ok(())
}
