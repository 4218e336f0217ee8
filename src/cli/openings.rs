//! `hnefi openings`: the openings of the real games, balanced positions later in them, or
//! random balanced openings from the start of any rules.

use super::CliError;
use super::common::at_least_one;
use super::common::{games_argument, games_text, progress_bar, thread_pool};
use super::output::{check_writable, write_document};
use clap::{ArgGroup, Args};
use hnefi::board::Move;
use hnefi::board::variant::NamedRules;
use hnefi::board::{Geometry, START_FEN};
use hnefi::search::size::{Size, SizedTask, run_sized};
use std::path::PathBuf;

#[derive(Args)]
#[command(group(ArgGroup::new("searched").args(["balanced", "random"])))]
pub struct OpeningsArgs {
    /// Game file in the copenhagen.csv format [default: the real games of
    /// data/copenhagen.csv, built in].
    pub games: Option<PathBuf>,
    /// Plies per opening (with --random: random plies from the start).
    #[arg(long, default_value_t = 4, conflicts_with = "balanced")]
    pub plies: usize,
    /// Instead: one position per won game, --min-plies to --max-plies in, kept where a search
    /// at --nodes scores it within --band cp of even.
    #[arg(long, conflicts_with = "random")]
    pub balanced: bool,
    /// Instead, for any rules: COUNT random openings of --plies plies from the rules' start,
    /// the nearest even by a search at --nodes among max(100, 2 x COUNT) drawn, as the match
    /// runner makes them (the games file is not read).
    #[arg(long, value_name = "COUNT")]
    pub random: Option<usize>,
    /// With --random: the seed of the moves drawn.
    #[arg(long, default_value_t = 1, requires = "random")]
    pub seed: u64,
    /// With --balanced: the fewest plies into a game.
    #[arg(long, default_value_t = 8, requires = "balanced")]
    pub min_plies: usize,
    /// With --balanced: the most plies into a game.
    #[arg(long, default_value_t = 16, requires = "balanced")]
    pub max_plies: usize,
    /// Nodes searched per position.
    #[arg(long, default_value_t = 20_000, requires = "searched", value_parser = at_least_one::<u64>)]
    pub nodes: u64,
    /// Largest score kept, in cp either way [default: 100 with --balanced; none with
    /// --random, which keeps the nearest even whatever their score].
    #[arg(long, requires = "searched")]
    pub band: Option<i32>,
    /// Worker threads (default: all cores).
    #[arg(long, requires = "searched")]
    pub threads: Option<usize>,
    /// Rules: a preset or an OpenTafl rules string. The real games are Copenhagen's, from
    /// its start; --random takes any rules, on any board.
    #[arg(long, default_value = "copenhagen")]
    pub rules: NamedRules,
    /// Where to write the openings, replacing the file only once they are all found (default:
    /// standard output).
    #[arg(long, short)]
    pub out: Option<PathBuf>,
}

fn format_opening<G: Geometry>(line: &[Move<G>]) -> String {
    let moves: Vec<String> = line
        .iter()
        .map(|m| format!("{}-{}", m.from(), m.to()))
        .collect();
    moves.join(" ")
}

pub fn openings(args: OpeningsArgs) -> Result<(), CliError> {
    if let Some(path) = &args.out {
        check_writable(path)?;
    }
    if let Some(count) = args.random {
        return run_sized(args.rules.rules.width, RandomOpenings(&args, count))?;
    }
    if args.rules.start != START_FEN {
        return Err(CliError::Rules {
            rules: args.rules.to_string(),
            why: "the real games start from Copenhagen's position; give --random COUNT for \
                  openings of other rules"
                .into(),
        });
    }
    let text = games_text(args.games.as_deref())?;
    if args.balanced {
        return balanced_openings(&args, &text);
    }
    let list = hnefi::tournament::openings::openings_from_games(&text, args.plies);
    let mut doc = format!(
        "# The first {} plies of the real games, deduplicated, in order of first appearance:\n\
         #   hnefi openings{} --plies {} -o positions/openings.txt\n",
        args.plies,
        games_argument(args.games.as_deref()),
        args.plies
    );
    for line in list {
        doc += &format_opening(&line);
        doc.push('\n');
    }
    write_document(args.out.as_deref(), doc.as_bytes())
}

/// `--band` of `--balanced`.
const BALANCED_BAND: i32 = 100;

/// Checks `--nodes` and `--band`.
fn check_search(args: &OpeningsArgs) -> Result<(), CliError> {
    if let Some(band) = args.band.filter(|&b| b < 0) {
        return Err(CliError::out_of_range("--band", band, "at least 0"));
    }
    Ok(())
}

fn balanced_openings(args: &OpeningsArgs, text: &str) -> Result<(), CliError> {
    use hnefi::tournament::openings::{balanced_openings, later_openings_from_games};
    if args.min_plies > args.max_plies {
        return Err(CliError::Conflict(
            "--min-plies must not exceed --max-plies",
        ));
    }
    check_search(args)?;
    let band = args.band.unwrap_or(BALANCED_BAND);
    let rules = args.rules.rules;
    let candidates = later_openings_from_games(text, args.min_plies, args.max_plies, rules);
    let bar = progress_bar(candidates.len() as u64, "positions");
    let pool = thread_pool(args.threads)?;
    let start = hnefi::board::Board::start();
    let kept = pool
        .install(|| balanced_openings(&start, &candidates, rules, args.nodes, band, || bar.inc(1)));
    bar.finish_and_clear();
    if kept.is_empty() {
        return Err(CliError::NoOpenings(format!(
            "none of the {} positions {}-{} plies into the games scored within {band} cp at {}              nodes: give a wider --band",
            candidates.len(),
            args.min_plies,
            args.max_plies,
            args.nodes
        )));
    }
    let rules = if args.rules.is_default() {
        String::new()
    } else {
        format!(" --rules {}", args.rules)
    };
    let mut doc = format!(
        "# Balanced openings: from each real game won by either side, the position {}-{} plies \
         in (the ply\n",
        args.min_plies, args.max_plies
    );
    doc += &format!(
        "# chosen from the game's line number), deduplicated, kept where Hnefi's search at {} \
         nodes\n",
        args.nodes
    );
    doc += &format!(
        "# (one thread, empty table) scores it within {band} cp of even: {} of {} positions.\n",
        kept.len(),
        candidates.len()
    );
    doc += &format!(
        "#   hnefi openings --balanced{} --min-plies {} --max-plies {} --nodes {} --band {band}{rules} \\\n",
        games_argument(args.games.as_deref()),
        args.min_plies,
        args.max_plies,
        args.nodes,
    );
    doc += "#     -o positions/openings-balanced.txt\n";
    for (line, _) in &kept {
        doc += &format_opening(line);
        doc.push('\n');
    }
    write_document(args.out.as_deref(), doc.as_bytes())?;
    note!(
        "openings: kept {} of {} positions within {band} cp at {} nodes",
        kept.len(),
        candidates.len(),
        args.nodes
    );
    Ok(())
}

/// `--random COUNT`: random openings from the start of `--rules`, on their board `G`, the
/// nearest even by a short search, as the match runner makes them.
/// [`random_openings`] on the rules' board.
struct RandomOpenings<'a>(&'a OpeningsArgs, usize);

impl SizedTask for RandomOpenings<'_> {
    type Output = Result<(), CliError>;
    fn run<G: Size>(self) -> Self::Output {
        random_openings::<G>(self.0, self.1)
    }
}

fn random_openings<G: Size>(args: &OpeningsArgs, count: usize) -> Result<(), CliError> {
    use hnefi::tournament::openings::RandomOpenings;
    check_search(args)?;
    if args.plies == 0 {
        return Err(CliError::out_of_range("--plies", args.plies, "at least 1"));
    }
    if count == 0 {
        return Err(CliError::out_of_range("--random", count, "at least 1"));
    }
    let rules = &args.rules;
    let start = rules.start_board::<G>().map_err(|e| CliError::Rules {
        rules: rules.to_string(),
        why: format!("its start: {e}"),
    })?;
    let plan = RandomOpenings {
        plies: args.plies,
        nodes: args.nodes,
        ..RandomOpenings::default().for_pairs(count)
    };
    let bar = progress_bar(plan.candidates as u64, "positions");
    let pool = thread_pool(args.threads)?;
    let (judged, drawn) =
        pool.install(|| plan.judge(&start, rules.rules, args.seed, || bar.inc(1)));
    bar.finish_and_clear();
    let band = args.band.unwrap_or(i32::MAX);
    let nearest = judged.first().map(|(_, s)| s.0.abs());
    let kept: Vec<_> = judged
        .into_iter()
        .filter(|(_, s)| s.0.abs() <= band)
        .take(count)
        .collect();
    let Some(((_, worst), nearest)) = kept.last().zip(nearest) else {
        return Err(CliError::NoOpenings(match nearest {
            Some(nearest) => format!(
                "none of the {drawn} openings drawn scored within {band} cp at {} nodes (the \
                 nearest even: {nearest} cp): give a wider --band, or none",
                args.nodes
            ),
            None => format!(
                "all {drawn} openings of {} plies drawn are decided at {} nodes: give fewer \
                 --plies",
                args.plies, args.nodes
            ),
        }));
    };
    let band_words = args.band.map_or(String::new(), |b| format!(" --band {b}"));
    let mut doc = format!(
        "# Random openings of {} plies from the start of {rules} ({}): the {} nearest even of {} \
         drawn\n",
        args.plies,
        G::NAME,
        kept.len(),
        drawn,
    );
    doc += &format!(
        "# by Hnefi's search at {} nodes (one thread, empty table), from {nearest} to {} cp \
         either way.\n",
        args.nodes,
        worst.0.abs()
    );
    doc += &format!(
        "#   hnefi openings --random {count} --rules '{rules}' --plies {} --seed {} --nodes \
         {}{band_words}\n",
        args.plies, args.seed, args.nodes
    );
    for (line, _) in &kept {
        doc += &format_opening(line);
        doc.push('\n');
    }
    write_document(args.out.as_deref(), doc.as_bytes())?;
    note!(
        "openings: kept the {} nearest even of {drawn} random openings, {nearest} to {} cp at \
         {} nodes",
        kept.len(),
        worst.0.abs(),
        args.nodes
    );
    Ok(())
}
