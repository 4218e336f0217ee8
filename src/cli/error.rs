//! Why a command failed, worded so that the user knows what to change.

use hnefi::learn::datagen::DatagenError;
use hnefi::protocol::connect::ConnectError;
use hnefi::search::OptionsError;
use hnefi::tournament::runner::MatchError;
use hnefi::tournament::spec::SpecError;
use hnefi::tournament::summary::SummaryError;
use std::io;
use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum CliError {
    #[error(transparent)]
    Serve(#[from] hnefi::serve::ServeError),
    #[error(
        "--host {host}: cannot find its address ({why}); give an IP address (127.0.0.1, \
         0.0.0.0) or a name this machine resolves (localhost)"
    )]
    Host { host: String, why: String },
    #[error(transparent)]
    Password(#[from] super::bot::PasswordError),
    #[error(transparent)]
    Game(#[from] hnefi::report::game::GameError),
    #[error(transparent)]
    Analysis(#[from] hnefi::report::analysis::AnalysisError),
    #[error("cannot read {}: {source}", path.display())]
    Read { path: PathBuf, source: io::Error },
    #[error("cannot write {}: {source}", path.display())]
    Write { path: PathBuf, source: io::Error },
    #[error("cannot write standard output: {0}")]
    Stdout(io::Error),
    /// An argument outside the values that make sense.
    #[error("{flag} {value}: must be {expected}")]
    OutOfRange {
        flag: &'static str,
        value: String,
        expected: &'static str,
    },
    /// Arguments that do not go together, and how to set them.
    #[error("{0}")]
    Conflict(&'static str),
    #[error("--moves {index} ({text}): {error}")]
    MoveText {
        index: usize,
        text: String,
        error: String,
    },
    #[error("--moves {index} ({text}): {error}")]
    IllegalMove {
        index: usize,
        text: String,
        error: String,
    },
    /// The start position of the rules given (`--rules`) is not a board of their size.
    #[error("--rules: start position: {0}")]
    RulesStart(String),
    #[error("--fen: {0}")]
    Position(String),
    #[error("--rules {rules}: {why}")]
    Rules { rules: String, why: String },
    /// A file that was read but whose content is wrong.
    #[error("{}: {reason}", path.display())]
    Invalid { path: PathBuf, reason: String },
    #[error(transparent)]
    Shard(#[from] hnefi::cluster::shard::ShardError),
    #[error(transparent)]
    Pairs(#[from] hnefi::cluster::pairs::PairsError),
    #[error(transparent)]
    Merge(#[from] hnefi::cluster::merge::MergeError),
    #[error(transparent)]
    Cluster(#[from] hnefi::cluster::generation::ClusterError),
    #[error("--fen: {0}")]
    Perft(#[from] hnefi::perft::PerftError),
    /// The table of `hnefi perft --hash`.
    #[error("--hash: {0}")]
    PerftHash(hnefi::perft::PerftError),
    #[error(transparent)]
    Options(#[from] OptionsError),
    #[error(transparent)]
    Size(#[from] hnefi::board::SizeError),
    #[error("cannot start threads: {0}")]
    Threads(#[from] rayon::ThreadPoolBuildError),
    #[error(transparent)]
    Datagen(#[from] DatagenError),
    #[error(transparent)]
    Data(#[from] hnefi::learn::data::DataError),
    #[error(transparent)]
    Convert(hnefi::learn::convert::ConvertError),
    #[error(
        "interrupted after {played} of {todo} games; run the same command with --skip-existing \
         to play the rest"
    )]
    Interrupted { played: u64, todo: u64 },
    /// `hnefi openings` found none to keep: why, and what to change.
    #[error("no openings kept: {0}")]
    NoOpenings(String),
    #[error("no training positions in the data files (all empty, or all held out)")]
    NoTrainingData,
    #[error(
        "the quantised network is further from the float one than its worst-case bound on \
         {0} positions: a bug in the quantisation or the bound"
    )]
    QuantisationBound(usize),
    #[error(
        "bench: {incremental} nodes with incremental accumulators but {refresh} with refreshed \
         ones: the two must search alike (a bug in the accumulator's updates)"
    )]
    BenchMismatch { incremental: u64, refresh: u64 },
    #[error(transparent)]
    Nnue(#[from] hnefi::search::nnue::NnueError),
    #[error(transparent)]
    Policy(#[from] hnefi::search::policy::PolicyError),
    #[error("no '{0}' from the engine within 30 s")]
    NoAnswer(&'static str),
    #[error("--memory-mb {mb}: cannot limit the address space: {source}")]
    MemoryLimit { mb: u64, source: io::Error },
    #[error("the fuzz found panics or hangs (above)")]
    FuzzFailed,
    #[error(transparent)]
    Sprt(#[from] hnefi::tournament::summary::SprtError),
    #[error(transparent)]
    Spec(#[from] SpecError),
    #[error(transparent)]
    Setup(#[from] hnefi::tournament::setup::SetupError),
    #[error(transparent)]
    Match(#[from] MatchError),
    #[error(transparent)]
    Summary(#[from] SummaryError),
    #[error(transparent)]
    Spsa(#[from] hnefi::tournament::spsa::SpsaError),
    #[error(transparent)]
    Connect(#[from] ConnectError),
    #[error(transparent)]
    Bot(#[from] hnefi::bot::BotError),
}

impl CliError {
    /// The process's exit status: 2 for a command line that asks for what cannot be (a value
    /// out of range, flags that clash, a bad position or move), as clap's own refusals; 1 for
    /// a failure while working.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::OutOfRange { .. }
            | CliError::Conflict(_)
            | CliError::MoveText { .. }
            | CliError::IllegalMove { .. }
            | CliError::RulesStart(_)
            | CliError::Position(_)
            | CliError::Rules { .. }
            | CliError::Size(_)
            | CliError::Perft(_) => 2,
            _ => 1,
        }
    }

    /// `flag` set to `value`, where it must be `expected`.
    pub fn out_of_range(flag: &'static str, value: impl ToString, expected: &'static str) -> Self {
        CliError::OutOfRange {
            flag,
            value: value.to_string(),
            expected,
        }
    }

    pub fn read(path: impl Into<PathBuf>) -> impl FnOnce(io::Error) -> CliError {
        let path = path.into();
        move |source| CliError::Read { path, source }
    }

    pub fn write(path: impl Into<PathBuf>) -> impl FnOnce(io::Error) -> CliError {
        let path = path.into();
        move |source| CliError::Write { path, source }
    }
}
