//! The `hnefi` command: each subcommand is a thin call into the library.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

mod cli;

#[derive(Parser)]
#[command(name = "hnefi", version, about = "Hnefi, a Copenhagen Hnefatafl engine", long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the legal move tree (history ignored), in parallel.
    Perft(cli::PerftArgs),
    /// Search the bench positions to a fixed depth on one thread; ends with `N nodes M nps`.
    Bench(cli::BenchArgs),
    /// Show the evaluation of a position term by term.
    Eval(cli::EvalArgs),
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::Perft(args)) => cli::perft(args),
        Some(Command::Bench(args)) => cli::bench(args),
        Some(Command::Eval(args)) => cli::eval(args),
        None => Err("the engine loop is not built yet; try `hnefi --help`".to_string()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hnefi: {e}");
            ExitCode::FAILURE
        }
    }
}
