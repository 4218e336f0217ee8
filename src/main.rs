//! The `hnefi` command: each subcommand is a thin call into the library.

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use std::process::ExitCode;

mod bot_cli;
mod cli;
mod match_cli;
mod tune_cli;

#[derive(Parser)]
#[command(name = "hnefi", version, about = "Hnefi, a Copenhagen Hnefatafl engine", long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Protocol of the engine loop (default: chosen by the first line; only uci so far).
    #[arg(long, value_enum)]
    protocol: Option<hnefi::protocol::Protocol>,
    /// Thinking time per move in milliseconds when an OpenTafl or hnefatafl text protocol host
    /// gives no clock (default: 3000 and 2000).
    #[arg(long)]
    movetime: Option<u64>,
    /// The most nodes any one search of the engine loop may visit, whatever the host asks.
    #[arg(long)]
    nodes: Option<u64>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the legal move tree (history ignored), in parallel.
    Perft(cli::PerftArgs),
    /// Search the bench positions to a fixed depth on one thread; ends with `N nodes M nps`.
    Bench(cli::BenchArgs),
    /// Analyse a position for people: a diagram, then the best lines as the search deepens.
    Analyse(cli::AnalyseArgs),
    /// Show the evaluation of a position term by term.
    Eval(cli::EvalArgs),
    /// Time to reach a depth from the start and five middlegames, for thread scaling.
    Timetodepth(cli::TtdArgs),
    /// Measure the UCI loop's answers during a search: isready->readyok and stop->bestmove.
    Latency(cli::LatencyArgs),
    /// Join hnefatafl-copenhagen's light TCP server as a player.
    Connect(cli::ConnectArgs),
    /// Print openings: the first plies of the real games, deduplicated, or with --balanced the
    /// later positions of those games that the engine scores about even.
    Openings(cli::OpeningsArgs),
    /// Self-play training data: games at a fixed node count from even starts, every position
    /// written with its score and the game's result (FEN;SCORE;RESULT;GAME).
    Datagen(cli::DatagenArgs),
    /// Training data from the real games: every position of every finished game with its result.
    GamesData(cli::GamesDataArgs),
    /// Engine-vs-engine matches over UCI, OpenTafl and the hnefatafl text protocol, with Elo,
    /// pentanomial counts and SPRT; `hnefi match merge` adds up shard summaries.
    Match(Box<match_cli::MatchArgs>),
    /// Forced wins from the real games: generate positions/tactics.epd, or report the solve rate.
    Tactics(cli::TacticsArgs),
    /// Fit the evaluation's weights to game results (Texel's method) and write them as Rust.
    Tune(tune_cli::TuneArgs),
    /// Play on hnefatafl.org's server (hnefatafl-server) as a bot: offer or join games, play
    /// them within the server's clock, come back after a dropped connection.
    Bot(bot_cli::BotArgs),
    /// Fuzz the protocol loops in process: random, mutated and hostile lines (huge, short and
    /// negative times among them); reports lines, time, panics and hangs per protocol.
    Fuzz(cli::FuzzArgs),
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let matches = Cli::command().get_matches();
    let mut cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    if let (Some(Command::Match(args)), Some(m)) =
        (&mut cli.command, matches.subcommand_matches("match"))
    {
        args.group_engines(m);
    }
    let result = match cli.command {
        Some(Command::Perft(args)) => cli::perft(args),
        Some(Command::Bench(args)) => cli::bench(args),
        Some(Command::Eval(args)) => cli::eval(args),
        Some(Command::Analyse(args)) => cli::analyse(args),
        Some(Command::Tactics(args)) => cli::tactics(args),
        Some(Command::Connect(args)) => cli::connect(args),
        Some(Command::Latency(args)) => cli::latency(args),
        Some(Command::Timetodepth(args)) => cli::timetodepth(args),
        Some(Command::Openings(args)) => cli::openings(args),
        Some(Command::Datagen(args)) => cli::datagen(args),
        Some(Command::GamesData(args)) => cli::games_data(args),
        Some(Command::Match(args)) => match_cli::run_match(*args),
        Some(Command::Tune(args)) => tune_cli::tune(args),
        Some(Command::Fuzz(args)) => cli::fuzz(args),
        Some(Command::Bot(args)) => bot_cli::bot(args),
        None => {
            hnefi::protocol::run_stdio(
                cli.protocol,
                hnefi::protocol::Settings {
                    move_time: cli.movetime.map(std::time::Duration::from_millis),
                    max_nodes: cli.nodes,
                },
            );
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hnefi: {e}");
            ExitCode::FAILURE
        }
    }
}
