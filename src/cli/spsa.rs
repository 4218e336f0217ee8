//! `hnefi spsa`: the command line of the SPSA tuner ([`hnefi::tournament::spsa`], which
//! begins or resumes the run and plays it), its progress lines and its answer.

use super::CliError;
use super::common::{check_runner_limits, interrupt_flag, match_openings};
use clap::Args;
use hnefi::board::Board;
use hnefi::board::variant::NamedRules;
use hnefi::tournament::runner::check_engines;
use hnefi::tournament::spec::EngineSpec;
use hnefi::tournament::spsa::{
    Changed, MAX_PAIRS_PER_ITERATION, MatchGames, Schedule, SpsaState, Tuner, check_engine,
    parse_params,
};
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::time::Duration;

#[derive(Args)]
pub struct SpsaArgs {
    /// The engine to tune, as KEY=VALUE words as for `hnefi match`: cmd=COMMAND and a limit
    /// (nodes=N, st=SECONDS, depth=N or tc=SECONDS+INC) at least, proto=uci. Both sides of
    /// every game are this engine, each told its values as option.NAME=VALUE.
    #[arg(long = "engine", num_args = 1.., required = true, value_name = "KEY=VALUE")]
    pub engine: Vec<String>,
    /// A parameter to tune (repeat for more; default: every one `hnefi` offers as a UCI
    /// option). START defaults to this build's value; C_END, the perturbation at the end of
    /// the run, to a tenth of START (a fortieth of the range for 0), at least 0.25; R_END, the
    /// end step in units of C_END², to 0.002. Values are rounded stochastically.
    #[arg(long = "param", value_name = "NAME[=START[,C_END[,R_END]]]")]
    pub params: Vec<String>,
    /// Iterations of the run. The schedule is fishtest's, counted in game pairs k:
    /// c_k = c/(k+1)^0.101, a_k = a/(A+k+1)^0.602, r_k = a_k/c_k², A a tenth of the run's
    /// pairs, c and a such that the last pair has C_END and R_END.
    #[arg(long)]
    pub iterations: u64,
    /// Game pairs per iteration, each from its own opening with the sides swapped.
    #[arg(long, default_value_t = 4)]
    pub pairs_per_iteration: u64,
    /// Openings file, one opening per line (default: the built-in openings,
    /// positions/openings.txt); each pair draws one at random. The games follow the
    /// copenhagen rules.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Seed of the perturbations and the openings drawn.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// A game that reaches this many plies is a draw.
    #[arg(long, default_value_t = 500)]
    pub max_plies: usize,
    /// Games played at once (an iteration's 2 x pairs at most).
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// The run's state (JSON), rewritten whole after every iteration.
    #[arg(long, default_value = "spsa.json")]
    pub state: PathBuf,
    /// Go on with the run saved in --state, given with the same settings, rather than start
    /// one.
    #[arg(long)]
    pub resume: bool,
    /// Milliseconds an engine may run over its clock or move time.
    #[arg(long, default_value_t = 100)]
    pub time_margin: u64,
    /// Seconds an engine without a time limit may take for one move before it is taken to hang.
    #[arg(long, default_value_t = 60.0)]
    pub move_timeout: f64,
}

pub fn spsa(args: SpsaArgs) -> Result<(), CliError> {
    let engine = EngineSpec::parse(&[], &args.engine)?;
    check_engine(&engine)?;
    let move_timeout = check_runner_limits(args.concurrency, args.move_timeout)?;
    let schedule = Schedule::new(
        parse_params(&args.params)?,
        args.iterations,
        args.pairs_per_iteration,
        args.seed,
    )?;
    if args.pairs_per_iteration > MAX_PAIRS_PER_ITERATION {
        return Err(CliError::out_of_range(
            "--pairs-per-iteration",
            args.pairs_per_iteration,
            "at most 2^20",
        ));
    }
    let rules = NamedRules::default();
    let pairs = args.pairs_per_iteration as usize;
    let (openings, openings_name) = match_openings(
        args.openings.as_deref(),
        &rules,
        &Board::start(),
        args.seed,
        pairs,
    )?;
    let (mut tuner, changed) = Tuner::begin(
        &args.state,
        args.resume,
        schedule,
        engine.describe(),
        openings_name.clone(),
        openings.len(),
    )?;
    for Changed { what, was, now } in changed {
        note!("hnefi spsa: warning: the run began with {what} {was}, now {now}");
    }
    let games = MatchGames {
        names: tuner
            .state
            .schedule
            .params
            .iter()
            .map(|p| p.name.clone())
            .collect(),
        engine,
        openings,
        openings_name,
        rules,
        max_plies: args.max_plies,
        concurrency: args.concurrency,
        time_margin: Duration::from_millis(args.time_margin),
        move_timeout,
    };
    describe(&tuner.state, &games);
    let stop = interrupt_flag(
        "hnefi spsa: stopping; the state file keeps the last whole iteration (run again with \
         --resume to go on)",
    );
    check_engines(&games.settings(&tuner.next_step()), &stop)?;
    tuner.run(
        |step| games.play(step, &stop, |_, _| {}).map_err(CliError::from),
        |progress| {
            let (state, score) = (progress.state, progress.score);
            let total = state.score;
            let theta: Vec<String> = state
                .schedule
                .params
                .iter()
                .zip(&state.theta)
                .map(|(p, t)| format!("{} {t:.2}", p.name))
                .collect();
            note!(
                "iteration {}/{}: theta+ {}-{}-{} (W-L-D), total {}-{}-{}, {}/iteration, {} left; {}",
                progress.step.iteration + 1,
                state.schedule.iterations,
                score.wins,
                score.losses,
                score.draws,
                total.wins,
                total.losses,
                total.draws,
                clock(progress.per_iteration),
                clock(progress.left),
                theta.join(", ")
            );
        },
    )?;
    let state = &tuner.state;
    let interrupted = stop.load(Ordering::Relaxed) && !state.done();
    if interrupted {
        note!(
            "hnefi spsa: stopped after {} of {} iterations; {} holds them, --resume goes on",
            state.iteration,
            state.schedule.iterations,
            args.state.display()
        );
    }
    note!(
        "After {} iterations ({} games, theta+ {}-{}-{}):",
        state.iteration,
        state.score.games(),
        state.score.wins,
        state.score.losses,
        state.score.draws
    );
    for (p, t) in state.schedule.params.iter().zip(&state.theta) {
        note!("  {:<18} {:>7} -> {t:>10.2}", p.name, p.start);
    }
    outln!("{}", state.option_words())?;
    for line in state.setoption_lines() {
        outln!("{line}")?;
    }
    if interrupted {
        // 130 is what shells report for Ctrl-C.
        std::process::exit(130);
    }
    Ok(())
}

/// The run's settings, on stderr, before it starts.
fn describe(state: &SpsaState, games: &MatchGames) {
    let s = &state.schedule;
    note!(
        "SPSA: {}; {} iterations of {} pairs, openings {} ({}), seed {}, draw at {} plies",
        games.engine.describe(),
        s.iterations,
        s.pairs_per_iteration,
        games.openings_name,
        games.openings.len(),
        s.seed,
        games.max_plies
    );
    for p in &s.params {
        note!(
            "  {:<18} start {:>7} in {}..{}, c_end {}, r_end {}",
            p.name,
            p.start,
            p.min,
            p.max,
            p.c_end,
            p.r_end
        );
    }
    if state.iteration > 0 {
        note!(
            "Resuming after iteration {} of {}",
            state.iteration,
            s.iterations
        );
    }
}

/// `H:MM:SS` of `seconds`.
fn clock(seconds: f64) -> String {
    let s = seconds as u64;
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}
