//! `hnefi match`: the command line of the match runner and its progress display.

use super::CliError;
use super::common::{check_runner_limits, interrupt_flag, match_openings, parse_shard, read_text};
use super::output::{check_writable, unused_name, write_document};
use clap::{ArgAction, Args, Subcommand};
use hnefi::board::variant::NamedRules;
use hnefi::search::size::Size;
use hnefi::tournament::runner::{MatchSettings, check_engines, check_records, run};
use hnefi::tournament::spec::EngineSpec;
use hnefi::tournament::summary::{Sprt, Summary};
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

/// The header kind of a match shard's pairs file.
const PAIRS_KIND: &str = "match";

/// The settings a pairs file's header carries: the pairs the whole match schedules (so that
/// the watcher knows when all are in), then the match's settings.
fn pairs_settings<G: Size>(settings: &MatchSettings<G>) -> String {
    let pairs = settings.games / 2 * settings.engines.len() * (settings.engines.len() - 1) / 2;
    format!("pairs {pairs}; {}", settings.describe())
}

/// Opens this shard's pairs file in `dir`, starting it with its header, or checking that the
/// header it has is this shard's of this match (a rerun of a shard appends to its file).
fn open_pairs<G: Size>(
    dir: &std::path::Path,
    settings: &MatchSettings<G>,
) -> Result<hnefi::files::Appender, CliError> {
    let (i, n) = settings.shard;
    let path = dir.join(format!("shard-{i}-of-{n}.pairs"));
    std::fs::create_dir_all(dir).map_err(CliError::write(dir))?;
    let header = hnefi::cluster::shard::Header::new(PAIRS_KIND, &pairs_settings(settings), (i, n));
    let mut file = hnefi::files::Appender::open(&path).map_err(CliError::write(&path))?;
    if file.is_empty() {
        file.append(header.line().as_bytes())
            .map_err(CliError::write(&path))?;
    } else {
        let text = read_text(&path)?;
        if hnefi::cluster::shard::Header::of_text(&text, PAIRS_KIND, &path)? != header {
            return Err(CliError::Invalid {
                path,
                reason: format!(
                    "holds the pairs of another match or shard; give another --pairs \
                     directory\n  it holds: {}\n  this one: {}",
                    text.lines().next().unwrap_or_default(),
                    header.line().trim_end()
                ),
            });
        }
    }
    Ok(file)
}

/// Where an SPRT over the pairs files of `dir` stands: the pentanomial of every pair so far
/// (a pair played twice, by a rerun shard, counts once), the pairs the match schedules, and
/// the shards heard from.
fn read_pairs(
    dir: &std::path::Path,
) -> Result<(hnefi::tournament::stats::Pentanomial, u64, usize), CliError> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(CliError::read(dir))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|e| e == "pairs"))
        .collect();
    files.sort();
    let mut headers = Vec::new();
    let mut points: std::collections::BTreeMap<u64, usize> = std::collections::BTreeMap::new();
    for path in files {
        let text = read_text(&path)?;
        let header = hnefi::cluster::shard::Header::of_text(&text, PAIRS_KIND, &path)?;
        // Only whole lines: a shard may be writing its next one.
        let whole = &text[..text.rfind('\n').map_or(0, |n| n + 1)];
        for (number, line) in whole.lines().enumerate().skip(1) {
            let pair = line
                .split_once(' ')
                .and_then(|(p, h)| Some((p.parse::<u64>().ok()?, h.parse::<usize>().ok()?)))
                .filter(|&(_, h)| h <= 4)
                .ok_or_else(|| CliError::Sample {
                    path: path.clone(),
                    line: number + 1,
                    why: "not a pair: PAIR HALF_POINTS (0-4)".to_string(),
                })?;
            points.entry(pair.0).or_insert(pair.1);
        }
        headers.push((path, header));
    }
    hnefi::cluster::shard::check(&headers, false)?;
    let scheduled = headers
        .first()
        .and_then(|(_, h)| {
            h.settings
                .strip_prefix("pairs ")?
                .split(';')
                .next()?
                .parse()
                .ok()
        })
        .unwrap_or(u64::MAX);
    let mut penta = hnefi::tournament::stats::Pentanomial { counts: [0; 5] };
    for &half in points.values() {
        penta.counts[half] += 1;
    }
    Ok((penta, scheduled, headers.len()))
}

/// `hnefi match watch`.
fn watch(
    dir: &std::path::Path,
    sprt: &Sprt,
    job: Option<&str>,
    interval: f64,
    once: bool,
) -> Result<(), CliError> {
    use hnefi::tournament::stats::{sprt_bounds, sprt_llr};
    if !(interval > 0.0 && interval.is_finite()) {
        return Err(CliError::out_of_range("--interval", interval, "above 0"));
    }
    let (lower, upper) = sprt_bounds(sprt.alpha, sprt.beta);
    loop {
        // Asked before the pairs are read, so that a job gone by now has written all it will.
        let gone = match job {
            Some(job) => !in_queue(job)?,
            None => false,
        };
        // No directory yet: the array has not started.
        let (penta, scheduled, shards) = if dir.is_dir() {
            read_pairs(dir)?
        } else {
            (Default::default(), u64::MAX, 0)
        };
        let pairs: u64 = penta.counts.iter().sum();
        let llr = sprt_llr(&penta, sprt.elo0, sprt.elo1);
        let stand = format!(
            "{pairs} pairs from {shards} shards, Ptnml(0-2) {:?}, LLR {llr:.2} ({lower:.2}, \
             {upper:.2}) [{:.2}, {:.2}]",
            penta.counts, sprt.elo0, sprt.elo1
        );
        let decision = sprt.decision(&penta);
        if let Some(h1) = decision {
            // A job that has left the queue has nothing to cancel, and scancel would fail.
            let running = job.filter(|_| !gone);
            if let Some(job) = running {
                cancel(job)?;
            }
            let verdict = if h1 { "H1 accepted" } else { "H0 accepted" };
            outln!("{verdict}: {stand}")?;
            if let Some(job) = running {
                outln!("Cancelled job {job}")?;
            }
            return Ok(());
        }
        if pairs >= scheduled {
            return outln!("No decision after all {pairs} pairs: {stand}");
        }
        if let (true, Some(job)) = (gone, job) {
            return Err(CliError::JobEnded {
                job: job.to_string(),
                stand,
            });
        }
        if once {
            return outln!("Going on: {stand}");
        }
        note!("match watch: {stand}");
        std::thread::sleep(Duration::from_secs_f64(interval));
    }
}

/// Whether Slurm still holds `job` pending or running: once it does not, no more pairs come.
fn in_queue(job: &str) -> Result<bool, CliError> {
    let failed = |why: String| CliError::Queue {
        job: job.to_string(),
        why,
    };
    let out = std::process::Command::new("squeue")
        .args(["--noheader", "--format=%i", "--jobs", job])
        .output()
        .map_err(|e| failed(e.to_string()))?;
    if out.status.success() {
        return Ok(!out.stdout.iter().all(u8::is_ascii_whitespace));
    }
    let why = String::from_utf8_lossy(&out.stderr).trim().to_string();
    // A job ended long ago has left the controller's memory too.
    if why.contains("Invalid job id") {
        return Ok(false);
    }
    Err(failed(why))
}

/// Stops the rest of a decided match's array.
fn cancel(job: &str) -> Result<(), CliError> {
    let status = std::process::Command::new("scancel")
        .arg(job)
        .status()
        .map_err(|e| CliError::Cancel {
            job: job.to_string(),
            why: e.to_string(),
        })?;
    if !status.success() {
        return Err(CliError::Cancel {
            job: job.to_string(),
            why: status.to_string(),
        });
    }
    Ok(())
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

pub(super) fn parse_sprt(words: &[String]) -> Result<Option<Sprt>, SprtError> {
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

fn settings<G: Size>(args: &MatchArgs) -> Result<MatchSettings<G>, CliError> {
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
    let server = hnefi::protocol::htp::server_rules::<G>();
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
    Ok(MatchSettings {
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
        // The shards' settings and numbers are their header: one run's, each once, all there.
        let headers: Vec<_> = files
            .iter()
            .zip(&parts)
            .flat_map(|(file, part)| {
                part.shards.iter().map(|&shard| {
                    let header = hnefi::cluster::shard::Header::new("match", &part.settings, shard);
                    (file.clone(), header)
                })
            })
            .collect();
        hnefi::cluster::shard::check(&headers, true)?;
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
    hnefi::with_size!(args.rules.rules.width, play_match(args))?
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
