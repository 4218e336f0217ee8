//! `hnefi` without a subcommand: the engine loop on stdin and stdout.

use super::CliError;
use super::common::at_least_one;
use clap::{Args, ValueEnum};
use hnefi::protocol::{LoopSettings, Protocol, run_stdio};
use hnefi::search::Level;
use std::time::Duration;

#[derive(Args)]
pub struct EngineArgs {
    /// Protocol of the engine loop (default: chosen by the first line).
    #[arg(long, value_enum)]
    protocol: Option<ProtocolArg>,
    /// Thinking time per move in milliseconds when the host gives no clock (default: 3000
    /// under OpenTafl's engine protocol, 2000 under the hnefatafl text protocol).
    #[arg(long, value_parser = at_least_one::<u64>)]
    movetime: Option<u64>,
    /// The most nodes any one search of the engine loop may visit, whatever the host asks.
    #[arg(long, value_parser = at_least_one::<u64>)]
    nodes: Option<u64>,
    /// Playing strength, from 0 (a beginner can win) to 20 (full strength); a UCI host may
    /// change it with `setoption name Skill Level`.
    #[arg(long, default_value_t = Level::MAX)]
    level: Level,
}

/// The protocols as the command line names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum ProtocolArg {
    /// The UCI-style dialect of TaflZero.
    Uci,
    /// OpenTafl's engine protocol.
    Otep,
    /// The hnefatafl text protocol of hnefatafl-copenhagen.
    Htp,
}

impl From<ProtocolArg> for Protocol {
    fn from(arg: ProtocolArg) -> Protocol {
        match arg {
            ProtocolArg::Uci => Protocol::Uci,
            ProtocolArg::Otep => Protocol::Otep,
            ProtocolArg::Htp => Protocol::Htp,
        }
    }
}

pub fn engine(args: EngineArgs) -> Result<(), CliError> {
    run_stdio(
        args.protocol.map(Protocol::from),
        LoopSettings {
            move_time: args.movetime.map(Duration::from_millis),
            max_nodes: args.nodes,
            level: args.level,
        },
    );
    Ok(())
}
