//! `hnefi serve`: the board in the browser. Prints the page's address on standard output and
//! serves until stopped.

use super::error::CliError;
use clap::Args;
use hnefi::serve::{Config, run};
use std::net::IpAddr;

#[derive(Args)]
pub struct ServeArgs {
    /// The port to listen on (0: any free port).
    #[arg(long, default_value_t = 8011)]
    pub port: u16,
    /// The address to listen on. Another than the loopback lets other machines use the
    /// engine: a warning says so.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: IpAddr,
    /// Open the page in the browser.
    #[arg(long)]
    pub open: bool,
    /// The most pages (each with its engine) at once.
    #[arg(long, default_value_t = 8)]
    pub sessions: usize,
}

pub fn serve(args: ServeArgs) -> Result<(), CliError> {
    if !(1..=256).contains(&args.sessions) {
        return Err(CliError::OutOfRange {
            flag: "--sessions",
            value: args.sessions.to_string(),
            expected: "1-256",
        });
    }
    if !args.host.is_loopback() {
        note!(
            "hnefi: warning: listening on {}: anyone who can reach this address can use the \
             board and the engine; the loopback address (the default) keeps it to this machine",
            args.host
        );
    }
    let config = Config {
        host: args.host,
        port: args.port,
        sessions: args.sessions,
    };
    let open = args.open;
    let mut printed = Ok(());
    let served = run(config, |url| {
        printed = outln!("{url}");
        if open {
            open_browser(url);
        }
    });
    printed?;
    Ok(served?)
}

/// Opens `url` in the desktop's browser; a failure is only a warning, the address is printed.
fn open_browser(url: &str) {
    let program = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    if let Err(e) = std::process::Command::new(program)
        .arg(url)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
    {
        note!("hnefi: cannot open the browser with {program}: {e}; open {url}");
    }
}
