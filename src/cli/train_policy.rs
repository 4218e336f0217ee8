//! `hnefi train --policy`: loads the samples' best moves (through [`hnefi::learn::data`]),
//! trains the move policy on the network's accumulator and writes it quantised, with its
//! agreement with the deep moves.

use super::CliError;
use super::common::{file_bar, progress_bar, thread_pool};
use super::output::check_writable;
use super::train::{TrainArgs, check_steps};
use hnefi::board::Rulebook;
use hnefi::learn::data::{Holdout, PolicyLoad, Source, policy_network, start_policy};
use hnefi::learn::policy::{self, Agreement, PolicySettings};
use hnefi::search::size::Size;
use std::path::Path;

fn describe(a: &Agreement) -> String {
    format!(
        "top-1 {:.1} %, top-3 {:.1} %, loss {:.3} over {} positions ({:.0} moves each)",
        100.0 * a.top1,
        100.0 * a.top3,
        a.loss,
        a.positions,
        a.moves
    )
}

pub(super) fn train_policy_on<G: Size>(args: TrainArgs) -> Result<(), CliError> {
    let lr_end = check_steps(&args)?;
    if !(0.0..1.0).contains(&args.holdout) {
        return Err(CliError::out_of_range(
            "--holdout",
            args.holdout,
            "at least 0 and below 1",
        ));
    }
    check_writable(&args.out)?;
    let pool = thread_pool(args.threads)?;
    let (rules, _) = args.rules.rules_and_start();
    let rulebook = Rulebook::<G>::new(rules);
    let net = policy_network::<G>(args.net.as_deref(), &rules)?;
    let start = start_policy::<G>(args.init.as_deref())?;
    let holdout = Holdout::new(args.holdout, args.seed, !args.validate.is_empty());
    let mut data = PolicyLoad::new(rulebook, &net, holdout);
    let mut load = |path: &Path, source: Source| -> Result<(), CliError> {
        let bar = file_bar(path);
        let added = pool.install(|| data.load(path, source, |b| bar.inc(b)))?;
        bar.finish_and_clear();
        note!(
            "{}: {} positions to train on, {} held out",
            path.display(),
            added.train,
            added.held_out
        );
        Ok(())
    };
    for path in &args.data {
        load(path, Source::Data)?;
    }
    for path in &args.validate {
        load(path, Source::Validation)?;
    }
    let (train, validation) = (&data.train, &data.validation);
    if train.is_empty() {
        return Err(CliError::NoTrainingData);
    }
    note!(
        "{} training positions, {} held out, {} skipped (no best move, or none legal here)",
        train.len(),
        validation.len(),
        train.skipped + validation.skipped
    );
    let settings = PolicySettings {
        epochs: args.epochs,
        batch: args.batch,
        learning_rate: args.lr,
        learning_rate_end: lr_end,
        weight_decay: args.weight_decay,
        seed: args.seed,
    };
    if !validation.is_empty() {
        let a = pool.install(|| policy::agreement(&start, validation));
        note!("at the start: held out {}", describe(&a));
    }
    let bar = progress_bar((settings.epochs * train.len()) as u64, "positions");
    let trained = pool.install(|| {
        policy::train(
            start,
            train,
            validation,
            &settings,
            |n| bar.inc(n as u64),
            |r| {
                let line = format!(
                    "epoch {:>3}  train loss {:.4}  held out {}",
                    r.epoch,
                    r.train,
                    describe(&r.validation)
                );
                if bar.is_hidden() {
                    note!("{line}");
                } else {
                    bar.println(line);
                }
            },
        )
    });
    bar.finish_and_clear();
    let quantised = trained.quantise(G::SIDE, net.features_fingerprint());
    quantised.save(&args.out)?;
    note!("wrote {}", args.out.display());
    if !validation.is_empty() {
        let a = pool.install(|| policy::agreement(&trained, validation));
        note!("kept: held out {}", describe(&a));
        for (name, own) in &data.per_file {
            let a = pool.install(|| policy::agreement(&trained, own));
            note!("  {name}: {}", describe(&a));
        }
        let q = policy::quantised_agreement(&quantised, &net, &data.check, &rulebook);
        note!("quantised, as the search runs it: {}", describe(&q));
    }
    Ok(())
}
