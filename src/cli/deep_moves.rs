//! `hnefi deep-moves`: how soon a fast search finds the deep searches' moves of sample files,
//! with the move policy and without it.

use super::CliError;
use super::common::at_least_one;
use super::common::{RulesArg, thread_pool};
use clap::Args;
use hnefi::learn::data::read_samples;
use hnefi::learn::sample::Sample;
use hnefi::measure::deep_moves::{DeepMoveReport, nodes_to_deep_move};
use hnefi::search::Options;
use hnefi::search::params::SearchParams;
use hnefi::search::policy::Policy;
use hnefi::search::size::{Size, SizedTask, run_sized};
use std::path::PathBuf;

#[derive(Args)]
pub struct DeepMovesArgs {
    /// Sample files with best moves (as `hnefi datagen` writes them); each is reported alone,
    /// then all together.
    #[arg(required = true)]
    pub data: Vec<PathBuf>,
    /// Nodes each search may take: about what a 10 ms move searches.
    #[arg(long, default_value_t = 15_000, value_parser = at_least_one::<u64>)]
    pub nodes: u64,
    /// Positions taken from each file, evenly spread over it.
    #[arg(long, default_value_t = 300, value_parser = at_least_one::<usize>)]
    pub positions: usize,
    /// The policy to measure (a file of `hnefi train --policy`; default: the built-in one).
    #[arg(long, value_name = "FILE")]
    pub policy: Option<PathBuf>,
    /// PolicyOrder for the searches with the policy (the engine runs none by default).
    #[arg(long, default_value_t = 2000)]
    pub policy_order: i32,
    /// Positions searched at once (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    #[command(flatten)]
    pub rules: RulesArg,
}

pub fn deep_moves(args: DeepMovesArgs) -> Result<(), CliError> {
    let (rules, _) = args.rules.rules_and_start();
    run_sized(rules.width, args)?
}

fn line(name: &str, r: &DeepMoveReport) -> String {
    format!(
        "{name:<44} {:>5} {:>6.1} % {:>10.0} {:>8}",
        r.positions,
        100.0 * r.found as f64 / r.positions.max(1) as f64,
        r.mean_nodes,
        r.median_nodes
    )
}

impl SizedTask for DeepMovesArgs {
    type Output = Result<(), CliError>;
    fn run<G: Size>(self) -> Self::Output {
        deep_moves_on::<G>(self)
    }
}

fn deep_moves_on<G: Size>(args: DeepMovesArgs) -> Result<(), CliError> {
    let (rules, _) = args.rules.rules_and_start();
    let pool = thread_pool(args.threads)?;
    let mut with = Options::default();
    if let Some(path) = &args.policy {
        with.policy = Some(std::sync::Arc::new(Policy::load(path)?));
    }
    let t = SearchParams::tunable("PolicyOrder").expect("a tunable");
    with.params
        .set(t, args.policy_order)
        .map_err(|_| CliError::out_of_range("--policy-order", args.policy_order, "0 to 1000000"))?;
    let mut without = Options::default();
    without.params.policy_order = 0;
    if with.move_policy::<G>(&rules).is_none() {
        note!("note: no move policy runs on these rules: both rows search alike");
    }
    println!(
        "{:<44} {:>5} {:>8} {:>10} {:>8}",
        "file, search", "pos", "found", "mean nodes", "median"
    );
    let mut all: [Vec<Option<u64>>; 2] = [Vec::new(), Vec::new()];
    for path in &args.data {
        let samples: Vec<Sample<G>> = read_samples::<G>(path)?
            .into_iter()
            .filter(|s| s.best.is_some())
            .collect();
        let stride = (samples.len() / args.positions).max(1);
        let picked: Vec<Sample<G>> = samples
            .into_iter()
            .step_by(stride)
            .take(args.positions)
            .collect();
        for (k, (options, name)) in [(&with, "policy"), (&without, "no policy")]
            .into_iter()
            .enumerate()
        {
            let found = pool.install(|| nodes_to_deep_move(&picked, rules, options, args.nodes));
            let label = format!("{}, {name}", path.display());
            println!("{}", line(&label, &DeepMoveReport::of(&found, args.nodes)));
            all[k].extend(found);
        }
    }
    if args.data.len() > 1 {
        for (k, name) in ["all, policy", "all, no policy"].into_iter().enumerate() {
            println!("{}", line(name, &DeepMoveReport::of(&all[k], args.nodes)));
        }
    }
    Ok(())
}
