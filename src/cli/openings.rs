//! `hnefi openings`: the openings of the real games, balanced positions later in them, or
//! random balanced openings from the start of any rules.

use super::CliError;
use super::common::{GAMES_CSV, progress_bar, read_text, sized, thread_pool};
use super::output::{check_writable, write_document};
use clap::{ArgGroup, Args};
use hnefi::board::generic::Move;
use hnefi::board::{Geometry, START_FEN};
use hnefi::search::size::Size;
use hnefi::variant::NamedRules;
use std::path::PathBuf;

#[derive(Args)]
#[command(group(ArgGroup::new("searched").args(["balanced", "random"])))]
pub struct OpeningsArgs {
    /// Game file in the copenhagen.csv format.
    #[arg(default_value = GAMES_CSV)]
    pub games: PathBuf,
    /// Plies per opening (with --random: random plies from the start).
    #[arg(long, default_value_t = 4, conflicts_with = "balanced")]
    pub plies: usize,
    /// Instead: one position per won game, --min-plies to --max-plies in, kept where a search
    /// at --nodes scores it within --band cp of even.
    #[arg(long, conflicts_with = "random")]
    pub balanced: bool,
    /// Instead, for any rules: COUNT random openings of --plies plies from the rules' start,
    /// kept where a search at --nodes scores them within --band cp of even (the games file is
    /// not read).
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
    #[arg(long, default_value_t = 20_000, requires = "searched")]
    pub nodes: u64,
    /// Largest score kept, in cp either way.
    #[arg(long, default_value_t = 100, requires = "searched")]
    pub band: i32,
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
        return sized!(args.rules.rules.side, random_openings(&args, count));
    }
    if args.rules.start != START_FEN {
        return Err(CliError::Rules {
            rules: args.rules.to_string(),
            why: "the real games start from Copenhagen's position; give --random COUNT for \
                  openings of other rules"
                .into(),
        });
    }
    let text = read_text(&args.games)?;
    if args.balanced {
        return balanced_openings(&args, &text);
    }
    let list = hnefi::tournament::openings::openings_from_games(&text, args.plies);
    let mut doc = format!(
        "# The first {} plies of the real games, deduplicated, in order of first appearance:\n\
         #   hnefi openings {} --plies {} -o positions/openings.txt\n",
        args.plies,
        args.games.display(),
        args.plies
    );
    for line in list {
        doc += &format_opening(&line);
        doc.push('\n');
    }
    write_document(args.out.as_deref(), doc.as_bytes())
}

fn balanced_openings(args: &OpeningsArgs, text: &str) -> Result<(), CliError> {
    use hnefi::tournament::openings::{balanced_openings, later_openings_from_games};
    if args.min_plies > args.max_plies {
        return Err(CliError::Conflict(
            "--min-plies must not exceed --max-plies",
        ));
    }
    if args.nodes == 0 {
        return Err(CliError::out_of_range("--nodes", args.nodes, "at least 1"));
    }
    if args.band < 0 {
        return Err(CliError::out_of_range("--band", args.band, "at least 0"));
    }
    let rules = args.rules.rules;
    let candidates = later_openings_from_games(text, args.min_plies, args.max_plies, rules);
    let bar = progress_bar(candidates.len() as u64, "positions");
    let pool = thread_pool(args.threads)?;
    let start = hnefi::board::Board::start();
    let kept = pool.install(|| {
        balanced_openings(&start, &candidates, rules, args.nodes, args.band, || {
            bar.inc(1)
        })
    });
    bar.finish_and_clear();
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
        "# (one thread, empty table) scores it within {} cp of even: {} of {} positions.\n",
        args.band,
        kept.len(),
        candidates.len()
    );
    doc += &format!(
        "#   hnefi openings --balanced {} --min-plies {} --max-plies {} --nodes {} --band {}{rules} \\\n",
        args.games.display(),
        args.min_plies,
        args.max_plies,
        args.nodes,
        args.band,
    );
    doc += "#     -o positions/openings-balanced.txt\n";
    for (line, _) in &kept {
        doc += &format_opening(line);
        doc.push('\n');
    }
    write_document(args.out.as_deref(), doc.as_bytes())?;
    note!(
        "openings: kept {} of {} positions within {} cp at {} nodes",
        kept.len(),
        candidates.len(),
        args.band,
        args.nodes
    );
    Ok(())
}

/// `--random COUNT`: random openings from the start of `--rules`, on their board `G`, kept
/// where a short search finds them even.
fn random_openings<G: Size>(args: &OpeningsArgs, count: usize) -> Result<(), CliError> {
    use hnefi::tournament::openings::{balanced_openings, random_openings};
    if args.nodes == 0 {
        return Err(CliError::out_of_range("--nodes", args.nodes, "at least 1"));
    }
    if args.band < 0 {
        return Err(CliError::out_of_range("--band", args.band, "at least 0"));
    }
    if args.plies == 0 {
        return Err(CliError::out_of_range("--plies", args.plies, "at least 1"));
    }
    let rules = &args.rules;
    let start = rules.start_board::<G>().map_err(|e| CliError::Rules {
        rules: rules.to_string(),
        why: format!("its start: {e}"),
    })?;
    let candidates = random_openings(&start, rules.rules, args.plies, count, args.seed);
    let bar = progress_bar(candidates.len() as u64, "positions");
    let pool = thread_pool(args.threads)?;
    let kept = pool.install(|| {
        balanced_openings(
            &start,
            &candidates,
            rules.rules,
            args.nodes,
            args.band,
            || bar.inc(1),
        )
    });
    bar.finish_and_clear();
    let mut doc = format!(
        "# Random openings of {} plies from the start of {rules} ({}), kept where Hnefi's \
         search at {} nodes\n",
        args.plies,
        G::NAME,
        args.nodes
    );
    doc += &format!(
        "# (one thread, empty table) scores them within {} cp of even: {} of {} drawn.\n",
        args.band,
        kept.len(),
        candidates.len()
    );
    doc += &format!(
        "#   hnefi openings --random {count} --rules '{rules}' --plies {} --seed {} --nodes {} \
         --band {}\n",
        args.plies, args.seed, args.nodes, args.band
    );
    for (line, _) in &kept {
        doc += &format_opening(line);
        doc.push('\n');
    }
    write_document(args.out.as_deref(), doc.as_bytes())?;
    note!(
        "openings: kept {} of {} random openings within {} cp at {} nodes",
        kept.len(),
        candidates.len(),
        args.band,
        args.nodes
    );
    Ok(())
}
