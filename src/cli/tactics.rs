//! `hnefi tactics`: the solve rate on positions/tactics.epd, or that file rebuilt from games.

use super::CliError;
use super::common::{GAMES_CSV, read_text};
use super::output::{check_writable, write_document};
use clap::Args;
use std::path::PathBuf;

#[derive(Args)]
pub struct TacticsArgs {
    /// Instead of solving, scan a game file (copenhagen.csv format; without a value, the
    /// real games in data/copenhagen.csv) and print the EPD of every forced win in 1 to 3
    /// moves among the last 6 positions of each game.
    #[arg(long, value_name = "GAMES_CSV", num_args = 0..=1, default_missing_value = GAMES_CSV)]
    pub generate: Option<PathBuf>,
    /// The EPD to solve.
    #[arg(long, default_value = "positions/tactics.epd")]
    pub file: PathBuf,
    /// Where --generate writes the EPD, replacing the file only once it is complete (default:
    /// standard output).
    #[arg(long, short, requires = "generate")]
    pub out: Option<PathBuf>,
    /// Search depth for solving.
    #[arg(long, default_value_t = 6)]
    pub depth: u32,
}

pub fn tactics(args: TacticsArgs) -> Result<(), CliError> {
    use hnefi::tactics::{generate, parse_epd, solve_rate};
    if let Some(path) = args.generate {
        let text = read_text(&path)?;
        if let Some(out) = &args.out {
            check_writable(out)?;
        }
        let found = generate(&text, 6, 3);
        let mut doc = format!(
            "# Forced wins in 1-3 moves (dm) from the last 6 positions of every game of\n\
             # copenhagen.csv, copenhagen rules, repetition ignored; bm lists every winning\n\
             # first move. Found and checked by the exhaustive solver (src/search/solve.rs):\n\
             #   hnefi tactics --generate {} -o positions/tactics.epd\n",
            path.display()
        );
        for t in &found {
            doc += &t.to_epd();
            doc.push('\n');
        }
        write_document(args.out.as_deref(), doc.as_bytes())?;
        note!("{} positions", found.len());
        return Ok(());
    }
    if args.depth == 0 {
        return Err(CliError::out_of_range("--depth", 0, "at least 1"));
    }
    let text = read_text(&args.file)?;
    let invalid = |reason: String| CliError::Invalid {
        path: args.file.clone(),
        reason,
    };
    let tactics = parse_epd(&text).map_err(|e| invalid(e.to_string()))?;
    if tactics.is_empty() {
        return Err(invalid(
            "no tactics in it (lines like `FEN bm MOVE...; dm N;`, or # comments)".into(),
        ));
    }
    for (n, solved, total) in solve_rate(&tactics, args.depth) {
        outln!(
            "win in {n}: {solved}/{total} solved at depth {} ({:.1}%)",
            args.depth,
            100.0 * solved as f64 / total.max(1) as f64
        )?;
    }
    Ok(())
}
