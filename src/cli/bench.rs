//! `hnefi bench` and `hnefi timetodepth`: the search over the bench positions, for its node
//! count and its speed on one or more threads.

use super::CliError;
use super::common::{EvalChoice, RulesArg};
use clap::Args;
use hnefi::board::Rules;
use hnefi::measure::bench::time_to_depth;
use hnefi::search::EvalKind;
use hnefi::search::size::{Size, SizedTask, Standard, run_sized};

#[derive(Args)]
pub struct BenchArgs {
    /// Search depth.
    #[arg(default_value_t = hnefi::measure::bench::DEFAULT_DEPTH)]
    pub depth: u32,
    /// With `nnue` the bench runs twice, the accumulators updated move by move and computed
    /// afresh at every node, and shows both speeds (the same nodes).
    #[command(flatten)]
    pub eval: EvalChoice,
    /// The positions are those of the rules' board: 11x11's (the `Bench:` count) or 13x13's
    /// (positions/bench-13.fen).
    #[command(flatten)]
    pub rules: RulesArg,
}

pub fn bench(args: BenchArgs) -> Result<(), CliError> {
    if !(1..=30).contains(&args.depth) {
        return Err(CliError::out_of_range("DEPTH", args.depth, "1-30"));
    }
    let (rules, _) = args.rules.rules_and_start();
    if hnefi::measure::bench::positions_text(rules.width).is_none() {
        return Err(CliError::out_of_range(
            "--rules",
            args.rules.name(),
            "rules of 11x11 or 13x13 (the boards with bench positions)",
        ));
    }
    run_sized(rules.width, Bench(&args, rules))?
}

/// [`bench_on`] the rules' board.
struct Bench<'a>(&'a BenchArgs, Rules);

impl SizedTask for Bench<'_> {
    type Output = Result<(), CliError>;
    fn run<G: Size>(self) -> Self::Output {
        bench_on::<G>(self.0, self.1)
    }
}

fn bench_on<G: Size>(args: &BenchArgs, rules: Rules) -> Result<(), CliError> {
    let (eval, net) = args.eval.load()?;
    let run = |eval: EvalKind, show: bool| {
        hnefi::measure::bench::run::<G>(rules, args.depth, eval, net.clone(), |i, fen, nodes| {
            if show {
                note!("position {i:>2}: {nodes:>10} nodes  {fen}");
            }
        })
    };
    match eval {
        EvalKind::Hand => {
            let result = run(EvalKind::Hand, true)?;
            outln!("{} nodes {} nps", result.nodes, result.nps())?;
        }
        EvalKind::Nnue | EvalKind::NnueRefresh => {
            let incremental = run(EvalKind::Nnue, true)?;
            let refresh = run(EvalKind::NnueRefresh, false)?;
            // The same search either way: only the accumulators' cost differs.
            if refresh.nodes != incremental.nodes {
                return Err(CliError::BenchMismatch {
                    incremental: incremental.nodes,
                    refresh: refresh.nodes,
                });
            }
            outln!(
                "nnue refresh: {} nodes {} nps",
                refresh.nodes,
                refresh.nps()
            )?;
            outln!(
                "nnue incremental: {} nodes {} nps",
                incremental.nodes,
                incremental.nps()
            )?;
            outln!("{} nodes {} nps", incremental.nodes, incremental.nps())?;
        }
    }
    Ok(())
}

#[derive(Args)]
pub struct TtdArgs {
    /// The depth to reach.
    #[arg(long, default_value_t = 9)]
    pub depth: u32,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Transposition table size in MB (the engine's default).
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
}

pub fn timetodepth(args: TtdArgs) -> Result<(), CliError> {
    let mut printed = Ok(());
    let total = time_to_depth::<Standard>(args.depth, args.threads, args.hash, |r| {
        if printed.is_ok() {
            printed = outln!(
                "position {:>2}: depth {} in {:>8.3} s, {} nodes, best {}",
                r.position,
                r.depth,
                r.time.as_secs_f64(),
                r.nodes,
                r.best.map_or("(none)".to_string(), |m| m.to_string())
            );
        }
    })?;
    printed?;
    outln!(
        "total {:.3} s to depth {} on {} thread(s)",
        total.as_secs_f64(),
        args.depth,
        args.threads
    )?;
    Ok(())
}
