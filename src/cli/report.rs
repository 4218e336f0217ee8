//! `hnefi annotate` and `hnefi board`: parse the command line, run the report library, show
//! progress on stderr and write the page or the drawing.

use super::common::GameArgs;
use super::error::CliError;
use super::output::{check_writable, unused_name, write_document};
use clap::{ArgGroup, Args};
use hnefi::board::RecordMove;
use hnefi::board::variant::NamedRules;
use hnefi::report::analysis::{AnalysisSettings, analyse};
use hnefi::report::diagram::{self, Marks};
use hnefi::report::game::Found;
use hnefi::report::{game, page};
use hnefi::search::Go;
use hnefi::search::size::{Size, SizedTask, run_sized};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Thinking time a position when neither --movetime nor --depth is given.
const DEFAULT_MOVETIME_MS: u64 = 200;

#[derive(Args)]
#[command(group(ArgGroup::new("which").required(true).multiple(true).args(["game", "game_line"])))]
pub struct AnnotateArgs {
    /// The game: a record line ("d1-d3 e5-e2 ...", with the rules as a fifth field for other
    /// rules than Copenhagen), a file of records (with --game), or an OpenTafl .otg file
    /// [default with --game: the real games of data/copenhagen.csv, built in].
    pub game: Option<String>,
    /// The line of the game in a file of records (as data/copenhagen.csv numbers them);
    /// without GAME, of the built-in data/copenhagen.csv.
    #[arg(long = "game", value_name = "LINE")]
    pub game_line: Option<usize>,
    /// Search time a position in milliseconds (default 200 when no depth is given).
    #[arg(long, conflicts_with = "depth")]
    pub movetime: Option<u64>,
    /// Search depth a position.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Transposition table in MB.
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
    /// Rules: a preset or an OpenTafl rules string, on any board [default: the rules the
    /// record names, else copenhagen].
    #[arg(long)]
    pub rules: Option<NamedRules>,
    /// Where to write the HTML report; `-` is standard output [default: standard output when
    /// it is a pipe or a file; at a terminal a new file named after the game (GAME.html,
    /// GAME-LINE.html with --game, copenhagen-LINE.html for a built-in game, or report.html
    /// for moves given as text), made unique with -2, -3, ... rather than replacing one].
    #[arg(long, short)]
    pub out: Option<PathBuf>,
}

/// The file the report is written to (none: standard output).
fn report_path(args: &AnnotateArgs) -> Option<PathBuf> {
    use std::io::IsTerminal;
    match &args.out {
        Some(path) if path.as_os_str() == "-" => None,
        Some(path) => Some(path.clone()),
        // 280 KB of HTML is no use in a terminal; in a pipe it is what was asked for.
        None if !std::io::stdout().is_terminal() => None,
        None => {
            let file = args
                .game
                .as_deref()
                .map_or(Path::new("copenhagen.csv"), Path::new);
            let stem = match file.file_stem() {
                Some(stem) if args.game.is_none() || file.is_file() => {
                    let stem = stem.to_string_lossy();
                    match args.game_line {
                        Some(line) => format!("{stem}-{line}"),
                        None => stem.into_owned(),
                    }
                }
                _ => "report".to_string(),
            };
            Some(unused_name(&stem, "html"))
        }
    }
}

pub fn annotate(args: AnnotateArgs) -> Result<(), CliError> {
    if !(1..=256).contains(&args.threads) {
        return Err(CliError::OutOfRange {
            flag: "--threads",
            value: args.threads.to_string(),
            expected: "1-256",
        });
    }
    if args.depth == Some(0) || args.movetime == Some(0) {
        return Err(CliError::Conflict(
            "--depth and --movetime must be at least 1",
        ));
    }
    let found = match (&args.game, args.game_line) {
        (Some(source), line) => game::find(source, line)?,
        (None, Some(line)) => game::built_in(line)?,
        // clap asks for one or the other.
        (None, None) => {
            return Err(CliError::Conflict(
                "annotate needs a GAME, or --game LINE for a built-in game",
            ));
        }
    };
    let rules = match &args.rules {
        Some(rules) => rules.clone(),
        None => found.rules()?.unwrap_or_default(),
    };
    let out = report_path(&args);
    // Checked before the analysis, so that a path that cannot be written fails at once rather
    // than after minutes of searching.
    if let Some(path) = &out {
        check_writable(path)?;
    }
    let annotate = Annotate {
        args: &args,
        found: &found,
        rules: &rules,
        out: out.as_deref(),
    };
    run_sized(rules.rules.width, annotate)?
}

/// The report of the game `found` under `rules`, on their board `G`.
/// [`annotate_on`] the rules' board.
struct Annotate<'a> {
    args: &'a AnnotateArgs,
    found: &'a Found,
    rules: &'a NamedRules,
    out: Option<&'a Path>,
}

impl SizedTask for Annotate<'_> {
    type Output = Result<(), CliError>;
    fn run<G: Size>(self) -> Self::Output {
        annotate_on::<G>(self.args, self.found, self.rules, self.out)
    }
}

fn annotate_on<G: Size>(
    args: &AnnotateArgs,
    found: &Found,
    rules: &NamedRules,
    out: Option<&Path>,
) -> Result<(), CliError> {
    let game = found.game::<G>(rules)?;
    let limits = Go {
        depth: args.depth,
        movetime: match args.depth {
            Some(_) => None,
            None => Some(Duration::from_millis(
                args.movetime.unwrap_or(DEFAULT_MOVETIME_MS),
            )),
        },
        ..Go::default()
    };
    let settings = AnalysisSettings {
        limits,
        threads: args.threads,
        hash_mb: args.hash,
        rules: rules.rules,
        rules_name: rules.to_string(),
    };
    let bar = ProgressBar::new(game.moves.len() as u64 + 1).with_style(
        ProgressStyle::with_template("analysing {bar:40} {pos}/{len} positions, {eta} left")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let started = Instant::now();
    let analysis = analyse(&game, &settings, &mut |done, total| {
        bar.set_length(total as u64);
        bar.set_position(done as u64)
    })?;
    bar.finish_and_clear();
    let elapsed = started.elapsed();
    let mut html = page::render(&game, &analysis);
    // Whatever is printed after the page starts on a line of its own.
    html.push('\n');
    write_document(out, html.as_bytes())?;
    note!(
        "analysed {} positions in {:.1} s ({:.0} ms each){}",
        analysis.points.len(),
        elapsed.as_secs_f64(),
        elapsed.as_secs_f64() * 1000.0 / analysis.points.len() as f64,
        out.map_or(String::new(), |p| format!("; wrote {}", p.display()))
    );
    Ok(())
}

#[derive(Args)]
pub struct BoardArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Where to write the SVG (default: standard output).
    #[arg(long, short)]
    pub out: Option<PathBuf>,
}

pub fn board(args: BoardArgs) -> Result<(), CliError> {
    let rules = args.game.rules()?;
    run_sized(rules.rules.width, BoardOn(&args, &rules))?
}

/// [`board_on`] the rules' board.
struct BoardOn<'a>(&'a BoardArgs, &'a NamedRules);

impl SizedTask for BoardOn<'_> {
    type Output = Result<(), CliError>;
    fn run<G: Size>(self) -> Self::Output {
        board_on::<G>(self.0, self.1)
    }
}

fn board_on<G: Size>(args: &BoardArgs, rules: &NamedRules) -> Result<(), CliError> {
    let mut pos = args.game.game::<G>(rules)?;
    let mut marks = Marks::default();
    // The last move is drawn with what it took.
    if let Some(mv) = pos.undo() {
        let captures = pos.play(mv);
        marks.last = Some(RecordMove { mv, captures });
    }
    let special = diagram::special_squares::<G>(&rules.rules);
    let svg = diagram::render(pos.board(), &marks, special).into_string();
    write_document(args.out.as_deref(), svg.as_bytes())
}
