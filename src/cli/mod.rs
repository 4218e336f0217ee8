//! The command line: the subcommands and their dispatch (no subcommand: the engine loop). Each subcommand's file parses its
//! arguments, calls the library and prints; a new command is a variant of [`Command`], an arm
//! of [`run`] and a file.

#[macro_use]
mod output;

mod analyse;
mod bench;
mod bot;
mod cluster;
mod common;
mod connect;
mod convert;
mod datagen;
mod deep_moves;
mod engine;
mod error;
mod fuzz;
mod latency;
mod manual;
mod openings;
mod perft;
mod report;
mod serve;
mod spsa;
mod tactics;
mod tournament;
mod train;
mod train_policy;
mod tune;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use error::CliError;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "hnefi",
    version,
    // Each command's manual page carries the version too.
    propagate_version = true,
    about = "Hnefi, a Copenhagen Hnefatafl engine",
    long_about = None,
    subcommand_help_heading = "Commands (for players; from perft on, for engine developers)",
    after_help = "Without a command, hnefi is an engine on standard input and output. Its \
        first line picks the protocol: UCI, OpenTafl's engine protocol (also taken when a \
        program on pipes says nothing for 1.5 s) or the hnefatafl text protocol. At a \
        terminal, type `uci` or `help`; `quit` leaves."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Without a command: the engine loop.
    #[command(flatten)]
    engine: engine::EngineArgs,
}

/// The commands in the order `hnefi --help` lists them: players' first, from `serve` to
/// `connect`, then the tools for engine developers, from `perft` on (clap lists subcommands
/// in the order they are declared).
#[derive(Subcommand)]
enum Command {
    /// A board in the browser to play and analyse with the engine: a local web server that
    /// prints its address.
    Serve(serve::ServeArgs),
    /// Analyse a position for people: a diagram, then the best lines as the search deepens.
    Analyse(analyse::AnalyseArgs),
    /// Annotate a game for people: one HTML page with an evaluation graph, the moves judged,
    /// the engine's better moves and a board diagram for every position.
    Annotate(report::AnnotateArgs),
    /// Draw one position as an SVG diagram, for articles and forum posts: the last of
    /// --moves as an arrow, the rules' special squares marked.
    Board(report::BoardArgs),
    /// Show the evaluation of a position term by term.
    Eval(analyse::EvalArgs),
    /// Engine-vs-engine matches over UCI, OpenTafl and the hnefatafl text protocol, with Elo,
    /// pentanomial counts and SPRT; `hnefi match merge` adds up shard summaries.
    Match(Box<tournament::MatchArgs>),
    /// Play on hnefatafl.org's server (hnefatafl-server) as a bot: offer or join games, play
    /// them within the server's clock, come back after a dropped connection.
    Bot(bot::BotArgs),
    /// Join hnefatafl-copenhagen's light TCP server as a player.
    Connect(connect::ConnectArgs),
    /// For engine developers: count the leaves of the legal move tree (history ignored), in
    /// parallel.
    Perft(perft::PerftArgs),
    /// Search the bench positions to a fixed depth on one thread; ends with `N nodes M nps`.
    Bench(bench::BenchArgs),
    /// Time to reach a depth from the start and five middlegames, for thread scaling.
    Timetodepth(bench::TtdArgs),
    /// Measure the UCI loop's answers during a search: isready->readyok and stop->bestmove.
    Latency(latency::LatencyArgs),
    /// Self-play training data: games at a fixed node count from even starts, every position
    /// written with its score and the game's result (FEN;SCORE;RESULT;GAME;BESTMOVE).
    Datagen(datagen::DatagenArgs),
    /// Training data from the real games: every position of every finished game with its result.
    GamesData(datagen::GamesDataArgs),
    /// Convert training samples between text lines and the compact binary format, either way.
    Convert(convert::ConvertArgs),
    /// Fit the evaluation's weights to game results (Texel's method) and write them as Rust.
    Tune(tune::TuneArgs),
    /// Train the NNUE network on samples (as `tune` reads them) and write it quantised.
    Train(train::TrainArgs),
    /// Tune the search's parameters by SPSA: the engine against itself with opposite
    /// perturbations, game pairs through the match runner, the state saved every iteration.
    Spsa(spsa::SpsaArgs),
    /// Run on a Slurm cluster: `hnefi cluster generation` writes and submits a whole training
    /// generation (self-play array, training, SPRT match array, decision) as chained jobs.
    Cluster(cluster::ClusterArgs),
    /// Fuzz the protocol loops in process: random, mutated and hostile lines (huge, short and
    /// negative times among them); reports lines, time, panics and hangs per protocol.
    Fuzz(fuzz::FuzzArgs),
    /// Print openings: the first plies of the real games, deduplicated, or with --balanced the
    /// later positions of those games that the engine scores about even.
    Openings(openings::OpeningsArgs),
    /// Forced wins from the real games: the solve rate on the built-in positions/tactics.epd,
    /// or that file generated again.
    Tactics(tactics::TacticsArgs),
    /// How soon a fast search finds the moves deep searches chose (the samples' BESTMOVE),
    /// with the move policy and without it.
    DeepMoves(deep_moves::DeepMovesArgs),
    /// Print the completions of hnefi's commands and arguments for a shell.
    Completions(manual::CompletionsArgs),
    /// Print hnefi's manual page (roff), or a command's: `hnefi man > hnefi.1; man ./hnefi.1`.
    Man(manual::ManArgs),
}

/// The command line as clap reads it. Negative numbers are read as values everywhere, so
/// that `--holdout -0.5` gets the range error that says what would do, rather than clap's
/// advice to write `-- -0`.
fn command() -> clap::Command {
    fn negatives_are_values(cmd: clap::Command) -> clap::Command {
        cmd.allow_negative_numbers(true)
            .mut_subcommands(negatives_are_values)
    }
    negatives_are_values(Cli::command())
}

/// Parses the command line and runs its command; errors go to stderr.
pub fn run() -> ExitCode {
    let matches = match command().try_get_matches() {
        Ok(matches) => matches,
        Err(e) => return refuse(e),
    };
    let mut cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => return refuse(e),
    };
    if let (Some(Command::Match(args)), Some(m)) =
        (&mut cli.command, matches.subcommand_matches("match"))
    {
        args.group_engines(m);
    }
    let result = match cli.command {
        Some(Command::Perft(args)) => perft::perft(args),
        Some(Command::Bench(args)) => bench::bench(args),
        Some(Command::Eval(args)) => analyse::eval(args),
        Some(Command::Analyse(args)) => analyse::analyse(args),
        Some(Command::Tactics(args)) => tactics::tactics(args),
        Some(Command::DeepMoves(args)) => deep_moves::deep_moves(args),
        Some(Command::Connect(args)) => connect::connect(args),
        Some(Command::Latency(args)) => latency::latency(args),
        Some(Command::Timetodepth(args)) => bench::timetodepth(args),
        Some(Command::Openings(args)) => openings::openings(args),
        Some(Command::Datagen(args)) => datagen::datagen(args),
        Some(Command::GamesData(args)) => datagen::games_data(args),
        Some(Command::Convert(args)) => convert::convert(args),
        Some(Command::Match(args)) => tournament::run_match(*args),
        Some(Command::Spsa(args)) => spsa::spsa(args),
        Some(Command::Tune(args)) => tune::tune(args),
        Some(Command::Train(args)) => train::train(args),
        Some(Command::Cluster(args)) => cluster::cluster(args),
        Some(Command::Fuzz(args)) => fuzz::fuzz(args),
        Some(Command::Annotate(args)) => report::annotate(args),
        Some(Command::Board(args)) => report::board(args),
        Some(Command::Bot(args)) => bot::bot(args),
        Some(Command::Serve(args)) => serve::serve(args),
        Some(Command::Completions(args)) => manual::completions(args),
        Some(Command::Man(args)) => manual::man(args),
        None => engine::engine(cli.engine),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // The reader of the output has gone (`hnefi eval | head -1`): nothing more to say.
        Err(CliError::Stdout(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hnefi: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}

/// Clap's refusal of a command line, in the style of every other error of hnefi: `hnefi: why`
/// (clap's own is `error: why`), its tip and usage after it. Help and the version, which clap
/// answers the same way, go to standard output as clap writes them.
fn refuse(e: clap::Error) -> ExitCode {
    let code = ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
    if !e.use_stderr() {
        // A closed standard output (`hnefi --help | head -1`) leaves nothing to say.
        let _ = e.print();
        return code;
    }
    note!("{}", hnefi_style(&e.render().to_string()));
    code
}

/// Clap's message with hnefi's prefix for its own, and a bad value said as hnefi's own range
/// checks say it: `--depth -1: must be at least 1`, not clap's wording of a parse error.
fn hnefi_style(clap_message: &str) -> String {
    let message = clap_message.trim_end();
    match message.strip_prefix("error: ") {
        Some(why) => format!(
            "hnefi: {}",
            bad_value(why).unwrap_or_else(|| why.to_string())
        ),
        None => message.to_string(),
    }
}

/// `invalid value 'V' for '--flag <F>': WHY` as `--flag V: must be ...`, where WHY is a
/// number's parse error (or already says what the value must be): one line, as the range
/// checks after parsing give.
fn bad_value(why: &str) -> Option<String> {
    let rest = why.strip_prefix("invalid value '")?;
    let (value, rest) = rest.split_once("' for '")?;
    let (arg, rest) = rest.split_once("': ")?;
    let reason = rest.lines().next().unwrap_or(rest);
    // A flag by its name; a positional argument by its value name.
    let arg = arg.split(' ').next().unwrap_or(arg);
    let reason = if reason.starts_with("must be") {
        reason.to_string()
    } else if let Some((_, range)) = reason.split_once(" is not in ") {
        let (low, high) = range.split_once("..=")?;
        format!("must be a whole number from {low} to {high}")
    } else if reason.contains("invalid digit")
        || reason.contains("empty string")
        || reason.contains("too large")
        || reason.contains("too small")
    {
        "must be a whole number".to_string()
    } else if reason.contains("invalid float literal") {
        "must be a number".to_string()
    } else {
        return None;
    };
    Some(format!("{arg} {value}: {reason}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Clap's refusals read as hnefi's own errors, `hnefi: why`, their advice kept.
    #[test]
    fn command_line_errors_are_in_hnefis_style() {
        let refused = command()
            .try_get_matches_from(["hnefi", "perft", "--bogus"])
            .expect_err("an unknown flag is refused");
        let text = hnefi_style(&refused.render().to_string());
        assert!(
            text.starts_with("hnefi: unexpected argument '--bogus' found"),
            "{text}"
        );
        assert!(text.contains("Usage: hnefi perft"), "{text}");
        assert!(!text.contains("error:"), "{text}");
    }

    /// Bad numbers read in one style, whatever clap's parser said of them.
    #[test]
    fn bad_numbers_say_what_they_must_be() {
        let refused = |args: &[&str]| {
            let e = command().try_get_matches_from(args).expect_err("refused");
            hnefi_style(&e.render().to_string())
        };
        for (args, want) in [
            (
                &["hnefi", "analyse", "--depth", "-1"][..],
                "hnefi: --depth -1: must be at least 1",
            ),
            (
                &["hnefi", "analyse", "--depth", "0"],
                "hnefi: --depth 0: must be at least 1",
            ),
            (
                &["hnefi", "analyse", "--movetime", "-5"],
                "hnefi: --movetime -5: must be at least 1",
            ),
            (
                &["hnefi", "analyse", "--movetime", "x"],
                "hnefi: --movetime x: must be a whole number, at least 1",
            ),
            (
                &["hnefi", "perft", "x"],
                "hnefi: <DEPTH> x: must be a whole number",
            ),
            (
                &["hnefi", "serve", "--port", "99999"],
                "hnefi: --port 99999: must be a whole number from 0 to 65535",
            ),
        ] {
            let text = refused(args);
            assert!(text.starts_with(want), "{args:?}: {text}");
        }
    }

    /// `hnefi CMD --help` explains every argument of every command.
    #[test]
    fn every_argument_has_help() {
        fn missing(cmd: &clap::Command, path: &str, out: &mut Vec<String>) {
            for arg in cmd.get_arguments() {
                if arg.get_help().is_none() {
                    out.push(format!("{path} {}", arg.get_id()));
                }
            }
            for sub in cmd.get_subcommands() {
                missing(sub, &format!("{path} {}", sub.get_name()), out);
            }
        }
        let mut out = Vec::new();
        missing(&command(), "hnefi", &mut out);
        assert!(out.is_empty(), "no help: {out:#?}");
    }
}
