//! What several commands share: the default games file, reading files, the evaluation,
//! openings, thread pools, progress bars, shards and Ctrl-C.

use super::CliError;
use clap::Args;
use hnefi::board::Geometry;
use hnefi::board::notation::{to_fen, to_opentafl};
use hnefi::board::variant::NamedRules;
use hnefi::board::{Board, Rulebook, START_FEN};
use hnefi::board::{Move, Position};
use hnefi::search::EvalKind;
use hnefi::search::nnue::QuantisedNetwork;
use hnefi::search::size::Size;
use hnefi::tournament::openings::{BUILT_IN, Opening, RandomOpenings, load_openings};
use indicatif::{ProgressBar, ProgressStyle};
use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

pub(super) fn read_text(path: &Path) -> Result<String, CliError> {
    std::fs::read_to_string(path).map_err(CliError::read(path))
}

/// The games of the file `path`, or without one the real games of data/copenhagen.csv, built
/// into the binary.
pub(super) fn games_text(path: Option<&Path>) -> Result<Cow<'static, str>, CliError> {
    match path {
        Some(path) => Ok(Cow::Owned(read_text(path)?)),
        None => Ok(Cow::Borrowed(hnefi::games::record::REAL_GAMES)),
    }
}

/// A games file as a command's argument, for the command lines that files name as their
/// source: nothing for the built-in games.
pub(super) fn games_argument(path: Option<&Path>) -> String {
    path.map_or(String::new(), |p| format!(" {}", p.display()))
}

/// The openings of `--openings`, checked under `rules` from their `start`, and their name for
/// reports. Without a file: the built-in ones from Copenhagen's start, random even ones of
/// `seed` from any other, one for each of the `pairs` pairs of an encounter.
pub(super) fn match_openings<G: Size>(
    path: Option<&Path>,
    rules: &NamedRules,
    start: &Board<G>,
    seed: u64,
    pairs: usize,
) -> Result<(Vec<Opening<G>>, String), CliError> {
    let (text, name) = match path {
        Some(path) => (read_text(path)?, path.display().to_string()),
        None if to_fen(start) == START_FEN => (BUILT_IN.to_string(), "built-in".to_string()),
        None => {
            let random = RandomOpenings::default().for_pairs(pairs);
            return Ok(random.make(start, rules.rules, seed));
        }
    };
    let openings = load_openings(&text, start, rules.rules).map_err(|e| CliError::Invalid {
        path: path.map_or_else(|| "built-in openings".into(), Path::to_path_buf),
        reason: e.to_string(),
    })?;
    Ok((openings, name))
}

/// Checks the match runner's `--concurrency` and `--move-timeout`, and returns the timeout.
pub(super) fn check_runner_limits(
    concurrency: usize,
    move_timeout: f64,
) -> Result<std::time::Duration, CliError> {
    if !(1..=1024).contains(&concurrency) {
        return Err(CliError::out_of_range(
            "--concurrency",
            concurrency,
            "1-1024",
        ));
    }
    if !(move_timeout > 0.0 && move_timeout < 1e6) {
        return Err(CliError::out_of_range(
            "--move-timeout",
            move_timeout,
            "a positive number of seconds below 10^6",
        ));
    }
    Ok(std::time::Duration::from_secs_f64(move_timeout))
}

/// Checks the `--lambda` and `--holdout` of `hnefi tune` and `hnefi train`.
pub(super) fn check_fit_settings(lambda: f64, holdout: f64) -> Result<(), CliError> {
    if !(0.0..=1.0).contains(&lambda) {
        return Err(CliError::out_of_range("--lambda", lambda, "within 0..=1"));
    }
    if !(0.0..1.0).contains(&holdout) {
        return Err(CliError::out_of_range("--holdout", holdout, "within 0..1"));
    }
    Ok(())
}

/// A pool of `--threads` workers (default: one per core).
pub(super) fn thread_pool(threads: Option<usize>) -> Result<rayon::ThreadPool, CliError> {
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(n) = threads {
        if n == 0 {
            return Err(CliError::out_of_range("--threads", n, "at least 1"));
        }
        pool = pool.num_threads(n);
    }
    Ok(pool.build()?)
}

/// A bar on a terminal, with the rate and the time left; nothing otherwise (callers that run
/// long log lines instead).
pub(super) fn progress_bar(len: u64, unit: &str) -> ProgressBar {
    let bar = ProgressBar::new(len);
    bar.set_style(
        ProgressStyle::with_template(&format!(
            "{{bar:30}} {{pos}}/{{len}} {unit} ({{rate}}) [{{elapsed_precise}} < \
             {{eta_precise}}] {{msg}}"
        ))
        .expect("a valid template")
        // A whole number: indicatif's own `per_sec` shows four decimals.
        .with_key(
            "rate",
            |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{:.0}/s", state.per_sec());
            },
        ),
    );
    bar
}

/// A bar of the bytes of the file `path` read, as [`progress_bar`] draws one.
pub(super) fn file_bar(path: &Path) -> ProgressBar {
    progress_bar(std::fs::metadata(path).map_or(0, |m| m.len()), "bytes read")
}

/// A `--shard I/N`: part I (from 1) of N; `slurm` reads it from the job array's variables.
pub(super) fn parse_shard(text: &str) -> Result<(u32, u32), CliError> {
    Ok(hnefi::cluster::shard::parse(text, |name| {
        std::env::var(name).ok()
    })?)
}

/// Set by the first Ctrl-C (or SIGTERM, SIGHUP), which prints `notice`; the second one ends
/// the process at once.
pub(super) fn interrupt_flag(notice: &'static str) -> Arc<AtomicBool> {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let handler = ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
        note!("\n{notice}");
    });
    if let Err(e) = handler {
        log::warn!("cannot catch Ctrl-C: {e}");
    }
    stop
}

/// `--fen`: the position a command starts from, on any board.
#[derive(Args)]
pub(super) struct PositionArg {
    /// The position, on a board of any size: a FEN, whose side to move (`a` or `d`) ends it,
    /// or an OpenTafl position string (rank 1 first), which may be followed by the side to
    /// move (the attackers if none) [default: the start position of the rules].
    #[arg(long = "fen", value_name = "POSITION")]
    fen: Option<String>,
}

impl PositionArg {
    /// The position on the board of `G`, that of `rules`.
    pub fn board_on<G: Geometry>(&self, rules: &NamedRules) -> Result<Board<G>, CliError> {
        let Some(fen) = &self.fen else {
            return rules.start_board::<G>().map_err(|e| CliError::Rules {
                rules: rules.to_string(),
                why: format!("its start: {e}"),
            });
        };
        let board = Board::<G>::from_position(fen).map_err(|e| {
            // The rules' own start as the example, on their board.
            let (fen, opentafl) = rules.start_board::<G>().map_or_else(
                |_| {
                    (
                        START_FEN.to_string(),
                        format!("{} a", to_opentafl(&Board::start())),
                    )
                },
                |b| {
                    let side = to_fen(&b).chars().last().unwrap_or('a');
                    (to_fen(&b), format!("{} {side}", to_opentafl(&b)))
                },
            );
            CliError::Position(format!(
                "{e}; a position is a FEN ('{fen}') or an OpenTafl position string \
                 ('{opentafl}') of the {side}x{side} board of --rules {rules}",
                side = G::SIDE
            ))
        })?;
        Rulebook::<G>::new(rules.rules)
            .check_setup(&board)
            .map_err(|e| CliError::Position(format!("{e} under the rules {rules}")))?;
        Ok(board)
    }

    /// The rules a position command plays by: `--rules` if given, else those of the
    /// position's board size (Copenhagen on 11x11, see `Preset::default_for_width`).
    pub fn rules(&self, given: Option<&NamedRules>) -> Result<NamedRules, CliError> {
        if let Some(rules) = given {
            return Ok(rules.clone());
        }
        let side = match self.fen.as_deref() {
            Some(fen) => hnefi::board::side_of(fen)?,
            None => 11,
        };
        Ok(NamedRules::preset(hnefi::board::Preset::default_for_width(
            side,
        )?))
    }
}

/// The position options of the commands that show one position (`analyse`, `eval`, `board`):
/// `--fen`, `--moves` played from it and `--rules`, on a board of any size.
#[derive(Args)]
pub(super) struct GameArgs {
    #[command(flatten)]
    pub position: PositionArg,
    /// Moves played from it, as d1d3 or d1-d3.
    #[arg(long, num_args = 1.., value_delimiter = ' ')]
    pub moves: Vec<String>,
    /// Rules: a preset or an OpenTafl rules string, on any board [default: those of the
    /// position's board: copenhagen, brandubh, tablut or copenhagen-13].
    #[arg(long)]
    pub rules: Option<NamedRules>,
}

impl GameArgs {
    /// `--rules`, or those of the position's board size.
    pub fn rules(&self) -> Result<NamedRules, CliError> {
        self.position.rules(self.rules.as_ref())
    }

    /// The game of `--fen` and `--moves` under `rules`, on the board of `G`.
    pub fn game<G: Geometry>(&self, rules: &NamedRules) -> Result<Position<G>, CliError> {
        let mut pos = Position::new(self.position.board_on::<G>(rules)?, rules.rules);
        for (i, text) in self.moves.iter().filter(|m| !m.is_empty()).enumerate() {
            let mv = Move::<G>::parse(text).map_err(|source| CliError::MoveText {
                index: i + 1,
                text: text.clone(),
                error: source.to_string(),
            })?;
            pos.try_play(mv).map_err(|source| CliError::IllegalMove {
                index: i + 1,
                text: text.clone(),
                error: source.to_string(),
            })?;
        }
        Ok(pos)
    }
}

/// `--rules`: a preset by name, or an OpenTafl rules string, for any board.
#[derive(Args)]
pub(super) struct RulesArg {
    /// The rules: a preset (copenhagen, copenhagen-2017, hnefatafl-org, fetlar, brandubh,
    /// copenhagen-13, tablut, foteviken-tablut, sea-battle, tawlbwrdd, brandub, magpie) or an
    /// OpenTafl rules string ('dim:9 name:Tablut esc:e ... start:/.../').
    #[arg(long = "rules", value_name = "RULES", default_value = "copenhagen")]
    rules: NamedRules,
}

impl RulesArg {
    /// The rules' name as given: a preset's, or the OpenTafl string.
    pub fn name(&self) -> &str {
        &self.rules.name
    }

    /// The rules and their start position (a FEN, or an OpenTafl string and the side to move).
    pub fn rules_and_start(&self) -> (hnefi::board::Rules, String) {
        (self.rules.rules, self.rules.start.clone())
    }

    /// The rules and their start board, on boards of `G` (the rules' size).
    pub fn start_board<G: hnefi::board::Geometry>(
        &self,
    ) -> Result<(hnefi::board::Rules, Board<G>), CliError> {
        let board = self
            .rules
            .start_board::<G>()
            .map_err(|e| CliError::RulesStart(e.to_string()))?;
        Ok((self.rules.rules, board))
    }
}

/// The evaluation a command searches with.
#[derive(Args)]
pub(super) struct EvalChoice {
    /// `nnue`: the network (a correction to the hand evaluation); `hand`: the hand evaluation
    /// alone.
    #[arg(long, default_value = "nnue")]
    pub eval: EvalName,
    /// The network for `--eval nnue` (a net file of `hnefi train`); without it, the one built
    /// into the binary.
    #[arg(long, value_name = "NET")]
    pub eval_file: Option<PathBuf>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(super) enum EvalName {
    Hand,
    Nnue,
}

impl EvalChoice {
    /// The search's evaluation and network (`None`: the built-in one), the file read and
    /// checked.
    pub fn load(&self) -> Result<(EvalKind, Option<Arc<QuantisedNetwork>>), CliError> {
        match (self.eval, &self.eval_file) {
            (EvalName::Hand, None) => Ok((EvalKind::Hand, None)),
            (EvalName::Hand, Some(_)) => Err(CliError::out_of_range(
                "--eval-file",
                "with --eval hand",
                "given with --eval nnue only",
            )),
            (EvalName::Nnue, None) => Ok((EvalKind::Nnue, None)),
            (EvalName::Nnue, Some(path)) => Ok((EvalKind::Nnue, Some(Arc::new(load_net(path)?)))),
        }
    }

    /// The evaluation for people: `hand`, `nnue FILE` or `nnue (built in)`.
    pub fn describe(&self) -> String {
        match (self.eval, &self.eval_file) {
            (EvalName::Hand, _) => "hand".to_string(),
            (EvalName::Nnue, Some(path)) => format!("nnue {}", path.display()),
            (EvalName::Nnue, None) => "nnue (built in)".to_string(),
        }
    }
}

/// A net file of `hnefi train`, its path in the error.
pub(super) fn load_net(path: &Path) -> Result<QuantisedNetwork, CliError> {
    use hnefi::search::nnue::NnueError;
    QuantisedNetwork::load(path).map_err(|e| match e {
        NnueError::Read { .. } => CliError::Nnue(e),
        _ => CliError::Invalid {
            path: path.to_path_buf(),
            reason: e.to_string(),
        },
    })
}

/// A whole number of at least 1, as clap parses a depth, a time or a node count: zero, a
/// negative number and words are all refused with what the value must be.
pub(super) fn at_least_one<T: TryFrom<u64>>(text: &str) -> Result<T, String> {
    let text = text.trim();
    match text.parse::<i128>() {
        Ok(n) if n < 1 => Err("must be at least 1".into()),
        Ok(n) => u64::try_from(n)
            .ok()
            .and_then(|n| T::try_from(n).ok())
            .ok_or_else(|| "must be a smaller whole number".into()),
        Err(_) => Err("must be a whole number, at least 1".into()),
    }
}
