//! `hnefi analyse` and `hnefi eval`: a position shown to people, its best lines or its
//! evaluation term by term.

use super::CliError;
use super::common::at_least_one;
use super::common::{EvalChoice, GameArgs};
use clap::Args;
use hnefi::board::Side;
use hnefi::board::variant::NamedRules;
use hnefi::report::graph::percent;
use hnefi::report::scale::attackers_win;
use hnefi::search::Score;
use hnefi::search::size::{Size, SizedTask, run_sized};
use std::time::Duration;

#[derive(Args)]
pub struct AnalyseArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Search depth.
    #[arg(long, conflicts_with = "movetime", value_parser = at_least_one::<u32>)]
    pub depth: Option<u32>,
    /// Search time in milliseconds (default 5000 when no depth is given).
    #[arg(long, value_parser = at_least_one::<u64>)]
    pub movetime: Option<u64>,
    /// Lines to show.
    #[arg(long, default_value_t = 1)]
    pub multipv: usize,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    #[command(flatten)]
    pub eval: EvalChoice,
}

pub fn analyse(args: AnalyseArgs) -> Result<(), CliError> {
    let rules = args.game.rules()?;
    run_sized(rules.rules.width, Analyse(&args, &rules))?
}

/// [`analyse_on`] the rules' board.
struct Analyse<'a>(&'a AnalyseArgs, &'a NamedRules);

impl SizedTask for Analyse<'_> {
    type Output = Result<(), CliError>;
    fn run<G: Size>(self) -> Self::Output {
        analyse_on::<G>(self.0, self.1)
    }
}

fn analyse_on<G: Size>(args: &AnalyseArgs, rules: &NamedRules) -> Result<(), CliError> {
    use hnefi::board::notation::record_move;
    use hnefi::search::{Go, Info, Options, Searcher};
    let pos = args.game.game::<G>(rules)?;
    if !(1..=hnefi::search::MAX_MULTIPV).contains(&args.multipv) {
        return Err(CliError::out_of_range("--multipv", args.multipv, "1-256"));
    }
    if !(1..=256).contains(&args.threads) {
        return Err(CliError::out_of_range("--threads", args.threads, "1-256"));
    }
    // The network is read before anything is shown: a bad file is the whole answer.
    let (eval, net) = args.eval.load()?;
    out!("{}", pos.board())?;
    outln!(
        "{} to move; {}",
        pos.side_to_move(),
        hnefi::board::notation::to_fen(pos.board())
    )?;
    if let Some(o) = pos.outcome() {
        outln!("game over: {o}")?;
        return Ok(());
    }
    let limits = Go::<G> {
        depth: args.depth,
        movetime: match (args.depth, args.movetime) {
            (None, None) => Some(Duration::from_millis(5000)),
            (_, t) => t.map(Duration::from_millis),
        },
        ..Go::default()
    };
    let mut engine = Searcher::<G>::new(Options {
        multipv: args.multipv,
        threads: args.threads,
        hash_mb: 64,
        eval,
        net,
        ..Options::default()
    });
    let root = pos.clone();
    // A failed write (the reader has gone) ends the search: nobody reads its lines.
    let failed = std::sync::Arc::new(std::sync::Mutex::new(None));
    let (stopper, failure) = (engine.stopper(), failed.clone());
    let to_move = pos.side_to_move();
    let report = move |info: &Info<G>| {
        // Replay the line to write each move with its captures.
        let mut p = root.clone();
        let mut text = Vec::new();
        for &mv in &info.pv {
            if p.board().check_move_under(mv, p.rulebook()).is_err() {
                break;
            }
            let captured = p.play(mv);
            text.push(record_move(mv, captured));
        }
        let written = outln!(
            "depth {:>2}/{:<2} line {} {:>36}  {:>9} nodes {:>6.2} s  {}",
            info.depth,
            info.seldepth,
            info.multipv,
            for_people(info.score, to_move),
            info.nodes,
            info.time.as_secs_f64(),
            text.join(" ")
        );
        if let Err(e) = written {
            stopper.store(true, std::sync::atomic::Ordering::Relaxed);
            failure
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .get_or_insert(e);
        }
    };
    let result = engine.search_with(&pos, limits, Box::new(report));
    if let Some(e) = failed.lock().unwrap_or_else(|e| e.into_inner()).take() {
        return Err(e);
    }
    match result.best {
        Some(mv) => outln!("best move {}-{}", mv.from(), mv.to())?,
        None => outln!("no move")?,
    }
    Ok(())
}

/// A score of the side to move for people: from the attackers' view with its unit, and the
/// attackers' chance of winning as `hnefi annotate`'s reports give it.
fn for_people(score: Score, to_move: Side) -> String {
    let attackers = score.for_attackers(to_move);
    format!(
        "{} for the attackers ({} to win)",
        attackers.centipawns(),
        percent(attackers_win(attackers))
    )
}

#[derive(Args)]
pub struct EvalArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// With `nnue`, the network's correction and the evaluation the search takes follow
    /// the hand evaluation's terms.
    #[command(flatten)]
    pub eval: EvalChoice,
}

pub fn eval(args: EvalArgs) -> Result<(), CliError> {
    let rules = args.game.rules()?;
    run_sized(rules.rules.width, Eval(&args, &rules))?
}

/// [`eval_on`] the rules' board.
struct Eval<'a>(&'a EvalArgs, &'a NamedRules);

impl SizedTask for Eval<'_> {
    type Output = Result<(), CliError>;
    fn run<G: Size>(self) -> Self::Output {
        eval_on::<G>(self.0, self.1)
    }
}

fn eval_on<G: Size>(args: &EvalArgs, rules: &NamedRules) -> Result<(), CliError> {
    use hnefi::search::nnue::describe;
    let pos = args.game.game::<G>(rules)?;
    let (eval, net) = args.eval.load()?;
    out!(
        "{}",
        hnefi::search::eval::breakdown(pos.board(), pos.rulebook())
    )?;
    if let Some(net) = eval.network::<G>(net.as_deref(), &rules.rules) {
        out!("{}", describe(net, pos.board(), pos.rulebook()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_for_people_say_whose_view_and_the_chance() {
        assert_eq!(
            for_people(Score(466), Side::Defenders),
            "-466 cp for the attackers (25% to win)"
        );
        assert_eq!(
            for_people(Score(0), Side::Attackers),
            "+0 cp for the attackers (50% to win)"
        );
        assert_eq!(
            for_people(Score::win_in(3), Side::Defenders),
            "loss in 3 for the attackers (0% to win)"
        );
    }
}
