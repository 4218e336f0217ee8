//! `hnefi match`: the command line of the match runner and its progress display.

use super::CliError;
use super::common::{check_runner_limits, interrupt_flag, match_openings, parse_shard};
use super::output::{check_writable, unused_name, write_document};
use clap::{ArgAction, Args, Subcommand};
use hnefi::board::variant::NamedRules;
use hnefi::cluster::merge::merge_files;
use hnefi::cluster::pairs::{self, Look, open_pairs};
use hnefi::search::size::{Size, SizedTask, run_sized};
use hnefi::tournament::runner::{MatchSettings, check_engines, check_records, run};
use hnefi::tournament::setup::{Request, htp_rules_differ};
use hnefi::tournament::summary::{Sprt, SprtError, Summary, parse_sprt};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

#[derive(Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct MatchArgs {
    #[command(subcommand)]
    pub command: Option<MatchCommand>,
    /// An engine, as KEY=VALUE words: cmd=COMMAND (required), name=, args="...", dir=,
    /// proto=uci|otep|htp, tc=SECONDS+INC, st=SECONDS, nodes=N, depth=N, option.NAME=VALUE,
    /// listen=PORT (an htp engine that connects as to the light server), stderr=FILE (keep
    /// the engine's standard error). Two or more.
    #[arg(long = "engine", num_args = 1.., action = ArgAction::Append, value_name = "KEY=VALUE", required = true)]
    pub engine_words: Vec<String>,
    /// The words of each `--engine`, grouped (see [`MatchArgs::group_engines`]).
    #[arg(skip)]
    pub engines: Vec<Vec<String>>,
    /// KEY=VALUE words for every engine (an engine's own words win).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub each: Vec<String>,
    /// Games per encounter (pair of engines), played in pairs with the sides swapped.
    #[arg(long, default_value_t = 2)]
    pub games: usize,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Openings file: one opening per line, moves like d1-d3 from the rules' start, or a
    /// position (FEN and side to move) and moves from it (default: Copenhagen's start takes
    /// the built-in openings of the real games, positions/openings.txt; any other start
    /// random openings of 4 plies, the nearest even by a short search: 10 of 100, or one for
    /// each pair of games of a longer match, of twice as many).
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Seed for the order of the openings, and for random openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Rules the referee plays by: a preset (copenhagen, copenhagen-2017, hnefatafl-org,
    /// fetlar, brandubh, copenhagen-13, tablut, foteviken-tablut, sea-battle, tawlbwrdd,
    /// brandub, magpie) or an OpenTafl rules string, on any board.
    #[arg(long, default_value = "copenhagen")]
    pub rules: NamedRules,
    /// A game that reaches this many plies is a draw.
    #[arg(long, default_value_t = 500)]
    pub max_plies: usize,
    /// Only the games where the first engine attacks: one game an opening, not a pair with
    /// the sides swapped. For a yardstick of one side, such as attackers at a fraction of
    /// the defense's time; no pentanomial, so no SPRT.
    #[arg(long)]
    pub first_attacks_only: bool,
    /// Sequential test: elo0=E elo1=E [alpha=0.05] [beta=0.05]. The match stops when it decides.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub sprt: Vec<String>,
    /// Play only shard I of N (from 1) of the same schedule; merge the JSON summaries with
    /// `hnefi match merge`. `slurm`: I and N from the Slurm job array this runs in.
    #[arg(long, default_value = "1/1", value_name = "I/N|slurm")]
    pub shard: String,
    /// File the games are appended to, one per line in the community record format ("-" for
    /// none); a file that holds games under other rules is refused [default: match.csv, or
    /// match-2.csv, match-3.csv, ... the first that does not exist: a new file every match].
    #[arg(long)]
    pub records: Option<PathBuf>,
    /// Write the summary as JSON here (for `hnefi match merge`).
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// Append each finished pair of games to DIR/shard-I-of-N.pairs as it ends (after a header
    /// line), for `hnefi match watch DIR`: an SPRT over the shards of an array.
    #[arg(long, value_name = "DIR")]
    pub pairs: Option<PathBuf>,
    /// Milliseconds an engine may run over its clock or move time.
    #[arg(long, default_value_t = 100)]
    pub time_margin: u64,
    /// Seconds an engine without a time limit may take for one move before it is taken to hang.
    #[arg(long, default_value_t = 60.0)]
    pub move_timeout: f64,
    /// Print the standing every this many games (0: only at the end).
    #[arg(long, default_value_t = 10)]
    pub report_every: u64,
}

impl MatchArgs {
    /// Groups the engine words by `--engine` occurrence, which clap's derive cannot do.
    pub fn group_engines(&mut self, matches: &clap::ArgMatches) {
        if let Some(groups) = matches.get_occurrences::<String>("engine_words") {
            self.engines = groups.map(|g| g.cloned().collect()).collect();
        }
    }
}

#[derive(Subcommand)]
pub enum MatchCommand {
    /// Add up the JSON summaries of a match's shards into one report.
    Merge {
        /// Summaries written with --json.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Write the merged summary as JSON here.
        #[arg(long)]
        json: Option<PathBuf>,
        /// Sequential test of the merged games: elo0=E elo1=E [alpha=0.05] [beta=0.05]. Shards
        /// are played to their end, so this reports where the whole match stands.
        #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
        sprt: Vec<String>,
    },
    /// A sequential test over the shards of a match played with --pairs DIR: the pairs of all
    /// shards so far, checked every few seconds until the test decides (then `scancel JOB`,
    /// given --job) or every pair is played. Prints the decision.
    Watch {
        /// The directory the shards write their pairs to.
        dir: PathBuf,
        /// elo0=E elo1=E [alpha=0.05] [beta=0.05].
        #[arg(long, num_args = 1.., value_name = "KEY=VALUE", required = true)]
        sprt: Vec<String>,
        /// The Slurm job of the shards, cancelled once the test decides; if it leaves the queue
        /// first (its tasks ended, failed or were cancelled), the watch ends with an error.
        #[arg(long)]
        job: Option<String>,
        /// Seconds between looks.
        #[arg(long, default_value_t = 10.0)]
        interval: f64,
        /// Look once, print where the test stands, and end.
        #[arg(long)]
        once: bool,
    },
}

/// `hnefi match watch`: looks at the pairs until the test decides, printing where it stands.
fn watch(
    dir: &std::path::Path,
    sprt: &Sprt,
    job: Option<&str>,
    interval: f64,
    once: bool,
) -> Result<(), CliError> {
    if !(interval > 0.0 && interval.is_finite()) {
        return Err(CliError::out_of_range("--interval", interval, "above 0"));
    }
    let last = pairs::watch(dir, sprt, job, interval, once, |stand| {
        note!("match watch: {stand}")
    })?;
    match last {
        Look::Decided {
            h1,
            stand,
            cancelled,
        } => {
            let verdict = if h1 { "H1 accepted" } else { "H0 accepted" };
            outln!("{verdict}: {stand}")?;
            if let Some(job) = cancelled {
                outln!("Cancelled job {job}")?;
            }
            Ok(())
        }
        Look::Undecided { pairs, stand } => outln!("No decision after all {pairs} pairs: {stand}"),
        Look::Going { stand } => outln!("Going on: {stand}"),
    }
}

fn settings<G: Size>(args: &MatchArgs) -> Result<MatchSettings<G>, CliError> {
    let format = Request {
        engines: &args.engines,
        each: &args.each,
        games: args.games,
        first_attacks_only: args.first_attacks_only,
        sprt: &args.sprt,
        pairs_file: args.pairs.is_some(),
    }
    .settle()?;
    let games = format.games;
    if games != args.games {
        note!(
            "hnefi match: --games {} plays {games} games an encounter: games come in pairs \
             from one opening, the sides swapped",
            args.games
        );
    }
    let move_timeout = check_runner_limits(args.concurrency, args.move_timeout)?;
    let rules = args.rules.clone();
    let start = rules.start_board::<G>().map_err(|e| CliError::Rules {
        rules: rules.to_string(),
        why: format!("its start: {e}"),
    })?;
    if let Some(server) = htp_rules_differ::<G>(&format.engines, &rules.rules) {
        note!(
            "hnefi match: warning: hnefatafl text protocol engines play the {} rules on this \
             board; with --rules {rules} they may refuse legal moves (consider --rules {})",
            server.preset,
            server.preset
        );
    }
    let pairs = format.openings;
    let (openings, openings_name) =
        match_openings(args.openings.as_deref(), &rules, &start, args.seed, pairs)?;
    if openings.len() < pairs {
        note!(
            "hnefi match: note: {} openings for {pairs} pairs of games an encounter: openings \
             repeat, and engines limited by nodes on one thread replay the same games",
            openings.len()
        );
    }
    Ok(MatchSettings {
        engines: format.engines.into_iter().map(Arc::new).collect(),
        games,
        concurrency: args.concurrency,
        openings,
        openings_name,
        seed: args.seed,
        rules,
        start,
        max_plies: args.max_plies,
        first_attacks_only: args.first_attacks_only,
        sprt: format.sprt,
        shard: parse_shard(&args.shard)?,
        time_margin: Duration::from_millis(args.time_margin),
        move_timeout,
        records: match &args.records {
            Some(path) if path.as_os_str() == "-" => None,
            Some(path) => Some(path.clone()),
            None => Some(unused_name("match", "csv")),
        },
    })
}

fn write_json(summary: &Summary, path: &Option<PathBuf>) -> Result<(), CliError> {
    if let Some(path) = path {
        write_document(Some(path), (summary.to_json() + "\n").as_bytes())?;
    }
    Ok(())
}

pub fn run_match(args: MatchArgs) -> Result<(), CliError> {
    if let Some(MatchCommand::Watch {
        dir,
        sprt,
        job,
        interval,
        once,
    }) = &args.command
    {
        let sprt = parse_sprt(sprt)?.ok_or(SprtError::MissingBounds)?;
        return watch(dir, &sprt, job.as_deref(), *interval, *once);
    }
    if let Some(MatchCommand::Merge { files, json, sprt }) = args.command {
        let merged = merge_files(&files, parse_sprt(&sprt)?)?;
        write_json(&merged, &json)?;
        return out!("{}", merged.report());
    }
    run_sized(args.rules.rules.width, args)?
}

impl SizedTask for MatchArgs {
    type Output = Result<(), CliError>;
    fn run<G: Size>(self) -> Self::Output {
        play_match::<G>(self)
    }
}

/// The match of `args` on boards of `G`, the rules' size.
fn play_match<G: Size>(args: MatchArgs) -> Result<(), CliError> {
    let settings = settings::<G>(&args)?;
    if let Some(path) = &args.json {
        // Find out now, not after hours of games, that the summary cannot be written.
        check_writable(path)?;
    }
    if let Some(path) = &settings.records {
        match check_records(&settings)? {
            0 => note!("hnefi match: games are written to {}", path.display()),
            n => note!(
                "hnefi match: games are added to the {n} games of the same rules in {}",
                path.display()
            ),
        }
    }
    let mut pairs = match &args.pairs {
        Some(dir) => Some(open_pairs(dir, &settings)?),
        None => None,
    };
    let mut pairs_error = None;
    let stop = interrupt_flag("hnefi match: stopping; engines are being shut down");
    check_engines(&settings, &stop)?;
    let total = hnefi::tournament::runner::schedule(&settings).len() as u64;
    outln!("{}", settings.describe())?;
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:30} {pos}/{len} games [{elapsed_precise} < {eta_precise}] {msg}",
        )
        .expect("a valid template"),
    );
    let every = args.report_every;
    // A closed standard output stops the match as Ctrl-C does.
    let mut closed = None;
    let summary = run(&settings, stop.clone(), |summary, done| {
        bar.inc(1);
        if let (Some(file), Some(points)) = (pairs.as_mut(), done.pair_points)
            && let Err(e) = file.append(format!("{} {points}\n", done.game.pair).as_bytes())
        {
            // The watcher would wait for pairs that never come: stop rather than play blind.
            stop.store(true, Ordering::Relaxed);
            pairs_error.get_or_insert(e);
        }
        let brief = summary.encounters[done.game.encounter].brief(summary.sprt.as_ref());
        bar.set_message(brief.clone());
        let played = summary.games();
        if every > 0 && played % every == 0 && closed.is_none() {
            let written = bar.suspend(|| {
                summary.encounters.iter().try_for_each(|e| {
                    outln!(
                        "After {played} of {total} games: {} vs {}: {}",
                        e.first,
                        e.second,
                        e.brief(summary.sprt.as_ref())
                    )
                })
            });
            if let Err(e) = written {
                stop.store(true, Ordering::Relaxed);
                closed = Some(e);
            }
        }
    })?;
    bar.finish_and_clear();
    write_json(&summary, &args.json)?;
    if let (Some(e), Some(dir)) = (pairs_error, &args.pairs) {
        return Err(CliError::write(dir)(e));
    }
    if let Some(e) = closed {
        return Err(e);
    }
    out!("{}", summary.results())?;
    if let Some(path) = &settings.records {
        outln!("Games written to {}", path.display())?;
    }
    if stop.load(Ordering::Relaxed) && !summary.sprt_decided() {
        // The engines are already shut down; 130 is what shells report for Ctrl-C.
        std::process::exit(130);
    }
    Ok(())
}
