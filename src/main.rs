//! The `hnefi` command: logging to stderr, then the command line (src/cli/), each subcommand a
//! thin call into the library.

use std::process::ExitCode;

mod cli;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    cli::run()
}
