//! `hnefi tactics`: the solve rate on positions/tactics.epd (built in) or another EPD, or that
//! file generated again from games.

use super::CliError;
use super::common::at_least_one;
use super::common::{games_argument, games_text, progress_bar, read_text};
use super::output::{check_writable, write_document};
use clap::Args;
use std::borrow::Cow;
use std::path::{Path, PathBuf};

/// Where the built-in tactics come from, for messages.
const BUILT_IN_NAME: &str = "positions/tactics.epd (built in)";

#[derive(Args)]
pub struct TacticsArgs {
    /// Instead of solving, scan a game file (copenhagen.csv format; without a value, the
    /// real games of data/copenhagen.csv, built in) and print the EPD of every forced win in
    /// 1 to 3 moves among the last 6 positions of each game.
    #[arg(long, value_name = "GAMES_CSV", num_args = 0..=1)]
    pub generate: Option<Option<PathBuf>>,
    /// The EPD to solve [default: positions/tactics.epd, built in].
    #[arg(long)]
    pub file: Option<PathBuf>,
    /// Where --generate writes the EPD, replacing the file only once it is complete (default:
    /// standard output).
    #[arg(long, short, requires = "generate")]
    pub out: Option<PathBuf>,
    /// Search depth for solving.
    #[arg(long, default_value_t = 6, value_parser = at_least_one::<u32>)]
    pub depth: u32,
}

pub fn tactics(args: TacticsArgs) -> Result<(), CliError> {
    use hnefi::measure::tactics::{BUILT_IN, parse_epd, solve_rate};
    if let Some(games) = &args.generate {
        return generate_epd(games.as_deref(), args.out.as_deref());
    }
    let (text, name) = match &args.file {
        Some(path) => (Cow::Owned(read_text(path)?), path.clone()),
        None => (Cow::Borrowed(BUILT_IN), PathBuf::from(BUILT_IN_NAME)),
    };
    let invalid = |reason: String| CliError::Invalid {
        path: name.clone(),
        reason,
    };
    let tactics = parse_epd(&text).map_err(|e| invalid(e.to_string()))?;
    if tactics.is_empty() {
        return Err(invalid(
            "no tactics in it (lines like `FEN bm MOVE...; dm N;`, or # comments)".into(),
        ));
    }
    let bar = progress_bar(tactics.len() as u64, "positions");
    let rows = solve_rate(&tactics, args.depth, || bar.inc(1));
    bar.finish_and_clear();
    for (n, solved, total) in rows {
        outln!(
            "win in {n}: {solved}/{total} solved at depth {} ({:.1}%)",
            args.depth,
            100.0 * solved as f64 / total.max(1) as f64
        )?;
    }
    Ok(())
}

/// `--generate`: the EPD of the forced wins in the games of `games` (none: the built-in ones).
fn generate_epd(games: Option<&Path>, out: Option<&Path>) -> Result<(), CliError> {
    let text = games_text(games)?;
    if let Some(out) = out {
        check_writable(out)?;
    }
    let found = hnefi::measure::tactics::generate(&text, 6, 3);
    let mut doc = format!(
        "# Forced wins in 1-3 moves (dm) from the last 6 positions of every game of\n\
         # copenhagen.csv, copenhagen rules, repetition ignored; bm lists every winning\n\
         # first move. Found and checked by the exhaustive solver (hnefi-core/src/search/solve.rs):\n\
         #   hnefi tactics --generate{} -o positions/tactics.epd\n",
        games_argument(games)
    );
    for t in &found {
        doc += &t.to_epd();
        doc.push('\n');
    }
    write_document(out, doc.as_bytes())?;
    note!("{} positions", found.len());
    Ok(())
}
