//! `hnefi connect`: a player on hnefatafl-copenhagen's light TCP server.

use super::CliError;
use clap::Args;
use std::time::Duration;

#[derive(Args)]
pub struct ConnectArgs {
    /// The server's address, such as 127.0.0.1:49152.
    pub address: String,
    /// Thinking time per move in milliseconds.
    #[arg(long, default_value_t = 2000)]
    pub movetime: u64,
}

pub fn connect(args: ConnectArgs) -> Result<(), CliError> {
    let moves =
        hnefi::protocol::connect::connect(&args.address, Duration::from_millis(args.movetime))?;
    note!("connection closed after {moves} moves by Hnefi");
    Ok(())
}
