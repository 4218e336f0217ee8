//! `hnefi openings`: the openings of the real games, or balanced positions later in them.

use super::CliError;
use super::common::{GAMES_CSV, progress_bar, read_text, thread_pool};
use super::output::{check_writable, write_document};
use clap::Args;
use hnefi::board::{Preset, Rules};
use std::path::PathBuf;

#[derive(Args)]
pub struct OpeningsArgs {
    /// Game file in the copenhagen.csv format.
    #[arg(default_value = GAMES_CSV)]
    pub games: PathBuf,
    /// Plies per opening.
    #[arg(long, default_value_t = 4, conflicts_with = "balanced")]
    pub plies: usize,
    /// Instead: one position per won game, --min-plies to --max-plies in, kept where a search
    /// at --nodes scores it within --band cp of even.
    #[arg(long)]
    pub balanced: bool,
    /// With --balanced: the fewest plies into a game.
    #[arg(long, default_value_t = 8, requires = "balanced")]
    pub min_plies: usize,
    /// With --balanced: the most plies into a game.
    #[arg(long, default_value_t = 16, requires = "balanced")]
    pub max_plies: usize,
    /// Nodes searched per position.
    #[arg(long, default_value_t = 20_000, requires = "balanced")]
    pub nodes: u64,
    /// Largest score kept, in cp either way.
    #[arg(long, default_value_t = 100, requires = "balanced")]
    pub band: i32,
    /// Worker threads (default: all cores).
    #[arg(long, requires = "balanced")]
    pub threads: Option<usize>,
    /// Rules preset: copenhagen, copenhagen-2017, hnefatafl-org or fetlar.
    #[arg(long, default_value = "copenhagen")]
    pub rules: Preset,
    /// Where to write the openings, replacing the file only once they are all found (default:
    /// standard output).
    #[arg(long, short)]
    pub out: Option<PathBuf>,
}

fn format_opening(line: &[hnefi::board::Move]) -> String {
    let moves: Vec<String> = line
        .iter()
        .map(|m| format!("{}-{}", m.from(), m.to()))
        .collect();
    moves.join(" ")
}

pub fn openings(args: OpeningsArgs) -> Result<(), CliError> {
    let text = read_text(&args.games)?;
    if let Some(path) = &args.out {
        check_writable(path)?;
    }
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
    let rules = Rules::preset(args.rules);
    let candidates = later_openings_from_games(text, args.min_plies, args.max_plies, rules);
    let bar = progress_bar(candidates.len() as u64, "positions");
    let pool = thread_pool(args.threads)?;
    let kept = pool
        .install(|| balanced_openings(&candidates, rules, args.nodes, args.band, || bar.inc(1)));
    bar.finish_and_clear();
    let rules = if args.rules == Preset::Copenhagen {
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
