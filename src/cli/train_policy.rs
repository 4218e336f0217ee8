//! `hnefi train --policy`: loads the samples' best moves, trains the move policy on the
//! network's accumulator and writes it quantised, with its agreement with the deep moves.

use super::CliError;
use super::common::{for_each_block, progress_bar, thread_pool};
use super::output::check_writable;
use super::train::{TrainArgs, check_steps};
use hnefi::board::generic::Rulebook;
use hnefi::learn::policy::{self, Agreement, FloatPolicy, PolicyData, PolicySettings};
use hnefi::learn::sample::Sample;
use hnefi::learn::tune::held_out;
use hnefi::search::nnue::{QuantisedNetwork, embedded_for};
use hnefi::search::policy::Policy;
use hnefi::search::size::Size;
use std::path::Path;

/// Held-out samples kept whole, to check the quantised policy as the search runs it.
const QUANTISED_CHECK: usize = 20_000;

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
    let loaded;
    let net: &QuantisedNetwork = match &args.net {
        Some(path) => {
            loaded = QuantisedNetwork::load(path)?;
            loaded.check_board(G::SIDE)?;
            &loaded
        }
        None => embedded_for::<G>(&rules).ok_or_else(|| CliError::Invalid {
            path: "--net".into(),
            reason: format!(
                "no network is built in for {}x{} under these rules: give one with --net",
                G::SIDE,
                G::SIDE
            ),
        })?,
    };
    let start = match &args.init {
        Some(path) => {
            let p = Policy::load(path)?;
            if p.board_side() != G::SIDE {
                return Err(CliError::Invalid {
                    path: path.clone(),
                    reason: format!("a policy for {0}x{0} boards", p.board_side()),
                });
            }
            FloatPolicy::from_quantised(&p)
        }
        None => FloatPolicy::zero(usize::from(G::SIDE).pow(2)),
    };
    let holdout = if args.validate.is_empty() {
        args.holdout
    } else {
        0.0
    };
    let (mut train, mut validation) = (PolicyData::new(), PolicyData::new());
    let mut per_file: Vec<(String, PolicyData)> = Vec::new();
    let mut check: Vec<Sample<G>> = Vec::new();
    let mut load = |path: &Path, all_held_out: bool| -> Result<(), CliError> {
        let bar = progress_bar(std::fs::metadata(path).map_or(0, |m| m.len()), "bytes read");
        let mut own = PolicyData::new();
        let (before_train, before_held) = (train.len(), validation.len());
        pool.install(|| {
            for_each_block::<G>(path, |block, bytes| {
                bar.inc(bytes);
                let (held, trained): (Vec<Sample<G>>, Vec<Sample<G>>) = block
                    .into_iter()
                    .partition(|s| all_held_out || held_out(s.game, args.seed, holdout));
                validation.extend(&held, &rulebook, net);
                if all_held_out {
                    own.extend(&held, &rulebook, net);
                }
                train.extend(&trained, &rulebook, net);
                let room = QUANTISED_CHECK.saturating_sub(check.len());
                check.extend(held.into_iter().filter(|s| s.best.is_some()).take(room));
                Ok(())
            })
        })?;
        bar.finish_and_clear();
        note!(
            "{}: {} positions to train on, {} held out",
            path.display(),
            train.len() - before_train,
            validation.len() - before_held
        );
        if all_held_out {
            per_file.push((path.display().to_string(), own));
        }
        Ok(())
    };
    for path in &args.data {
        load(path, false)?;
    }
    for path in &args.validate {
        load(path, true)?;
    }
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
        let a = pool.install(|| policy::agreement(&start, &validation));
        note!("at the start: held out {}", describe(&a));
    }
    let bar = progress_bar((settings.epochs * train.len()) as u64, "positions");
    let trained = pool.install(|| {
        policy::train(
            start,
            &train,
            &validation,
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
        let a = pool.install(|| policy::agreement(&trained, &validation));
        note!("kept: held out {}", describe(&a));
        for (name, data) in &per_file {
            let a = pool.install(|| policy::agreement(&trained, data));
            note!("  {name}: {}", describe(&a));
        }
        let q = policy::quantised_agreement(&quantised, net, &check, &rulebook);
        note!("quantised, as the search runs it: {}", describe(&q));
    }
    Ok(())
}
