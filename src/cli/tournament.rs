//! `hnefi match`: the command line of the match runner and its progress display.

use super::CliError;
use super::common::{
    check_runner_limits, interrupt_flag, match_openings, parse_shard, read_text, sized,
};
use super::output::{check_writable, unused_name, write_document};
use clap::{ArgAction, Args, Subcommand};
use hnefi::search::size::Size;
use hnefi::tournament::runner::{Settings, check_engines, check_records, run};
use hnefi::tournament::spec::EngineSpec;
use hnefi::tournament::summary::{Sprt, Summary};
use hnefi::variant::NamedRules;
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
    /// Sequential test: elo0=E elo1=E [alpha=0.05] [beta=0.05]. The match stops when it decides.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub sprt: Vec<String>,
    /// Play only shard I of N (from 1) of the same schedule; merge the JSON summaries with
    /// `hnefi match merge`.
    #[arg(long, default_value = "1/1", value_name = "I/N")]
    pub shard: String,
    /// File the games are appended to, one per line in the community record format ("-" for
    /// none); a file that holds games under other rules is refused [default: match.csv, or
    /// match-2.csv, match-3.csv, ... the first that does not exist: a new file every match].
    #[arg(long)]
    pub records: Option<PathBuf>,
    /// Write the summary as JSON here (for `hnefi match merge`).
    #[arg(long)]
    pub json: Option<PathBuf>,
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
}

/// What is wrong with the words of `--sprt`.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SprtError {
    #[error("--sprt: '{0}' is not key=value")]
    NotKeyValue(String),
    #[error("--sprt: {key}: '{value}' is not a number")]
    NotANumber { key: String, value: String },
    #[error("--sprt: unknown key '{0}' (elo0, elo1, alpha, beta)")]
    UnknownKey(String),
    #[error("--sprt needs elo0= and elo1=")]
    MissingBounds,
    #[error("--sprt: elo0 must be below elo1")]
    BoundsOrder,
    #[error("--sprt: {0} must be between 0 and 0.5")]
    Probability(&'static str),
    #[error("--sprt needs exactly two engines")]
    Engines,
}

fn parse_sprt(words: &[String]) -> Result<Option<Sprt>, SprtError> {
    if words.is_empty() {
        return Ok(None);
    }
    let mut sprt = Sprt {
        elo0: f64::NAN,
        elo1: f64::NAN,
        alpha: 0.05,
        beta: 0.05,
    };
    for word in words {
        let (key, value) = word
            .split_once('=')
            .ok_or_else(|| SprtError::NotKeyValue(word.clone()))?;
        let v: f64 = value.parse().map_err(|_| SprtError::NotANumber {
            key: key.to_string(),
            value: value.to_string(),
        })?;
        match key {
            "elo0" => sprt.elo0 = v,
            "elo1" => sprt.elo1 = v,
            "alpha" => sprt.alpha = v,
            "beta" => sprt.beta = v,
            _ => return Err(SprtError::UnknownKey(key.to_string())),
        }
    }
    if sprt.elo0.is_nan() || sprt.elo1.is_nan() {
        return Err(SprtError::MissingBounds);
    }
    if sprt.elo0 >= sprt.elo1 {
        return Err(SprtError::BoundsOrder);
    }
    for (name, p) in [("alpha", sprt.alpha), ("beta", sprt.beta)] {
        if !(p > 0.0 && p < 0.5) {
            return Err(SprtError::Probability(name));
        }
    }
    Ok(Some(sprt))
}

fn settings<G: Size>(args: &MatchArgs) -> Result<Settings<G>, CliError> {
    if args.engines.len() < 2 {
        return Err(CliError::Conflict("a match needs two or more --engine"));
    }
    let mut engines: Vec<EngineSpec> = args
        .engines
        .iter()
        .map(|words| EngineSpec::parse(&args.each, words))
        .collect::<Result<_, _>>()?;
    // Names tell engines apart in the report, so they must differ.
    for i in 1..engines.len() {
        let base = engines[i].name.clone();
        let mut k = 2;
        while engines[..i].iter().any(|e| e.name == engines[i].name) {
            engines[i].name = format!("{base}-{k}");
            k += 1;
        }
    }
    let sprt = parse_sprt(&args.sprt)?;
    if sprt.is_some() && engines.len() != 2 {
        return Err(SprtError::Engines.into());
    }
    if args.games == 0 {
        return Err(CliError::out_of_range("--games", 0, "at least 1"));
    }
    let games = args.games.div_ceil(2) * 2;
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
    let server = hnefi::protocol::htp::server_rules(G::SIDE);
    if rules.rules != server
        && engines
            .iter()
            .any(|e| e.proto == hnefi::protocol::Protocol::Htp)
    {
        note!(
            "hnefi match: warning: hnefatafl text protocol engines play the {} rules on this \
             board; with --rules {rules} they may refuse legal moves (consider --rules {})",
            server.preset,
            server.preset
        );
    }
    let pairs = args.games.div_ceil(2);
    let (openings, openings_name) =
        match_openings(args.openings.as_deref(), &rules, &start, args.seed, pairs)?;
    if openings.len() < pairs {
        note!(
            "hnefi match: note: {} openings for {pairs} pairs of games an encounter: openings \
             repeat, and engines limited by nodes on one thread replay the same games",
            openings.len()
        );
    }
    Ok(Settings {
        engines: engines.into_iter().map(Arc::new).collect(),
        games,
        concurrency: args.concurrency,
        openings,
        openings_name,
        seed: args.seed,
        rules,
        start,
        max_plies: args.max_plies,
        sprt,
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
    if let Some(MatchCommand::Merge { files, json, sprt }) = args.command {
        let sprt = parse_sprt(&sprt)?;
        let parts = files
            .iter()
            .map(|f| {
                let text = read_text(f)?;
                Summary::from_json(&text).map_err(|e| CliError::Invalid {
                    path: f.clone(),
                    reason: e.to_string(),
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let mut merged = Summary::merge(parts)?;
        if sprt.is_some() {
            if merged.engines.len() != 2 {
                return Err(SprtError::Engines.into());
            }
            merged.sprt = sprt;
        }
        write_json(&merged, &json)?;
        return out!("{}", merged.report());
    }
    sized!(args.rules.rules.width, play_match(args))
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
    if let Some(e) = closed {
        return Err(e);
    }
    out!("{}", summary.results())?;
    if let Some(path) = &settings.records {
        outln!("Games written to {}", path.display())?;
    }
    if stop.load(Ordering::Relaxed) && interrupted(&summary) {
        // The engines are already shut down; 130 is what shells report for Ctrl-C.
        std::process::exit(130);
    }
    Ok(())
}

/// Whether the stop came from outside rather than from a decided SPRT.
fn interrupted(summary: &Summary) -> bool {
    let Some(sprt) = summary.sprt else {
        return true;
    };
    summary
        .encounters
        .iter()
        .all(|e| sprt.decision(&e.penta()).is_none())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split(' ').map(String::from).collect()
    }

    #[test]
    fn sprt_words() {
        let s = parse_sprt(&words("elo0=0 elo1=5")).unwrap().unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (0.0, 5.0, 0.05, 0.05));
        assert!(parse_sprt(&words("elo0=5 elo1=0")).is_err());
        assert!(parse_sprt(&words("elo1=5")).is_err());
        assert!(parse_sprt(&words("elo0=0 elo1=5 alpha=0.7")).is_err());
        assert!(parse_sprt(&words("elo0=0 elo1=5 gamma=1")).is_err());
    }
}
