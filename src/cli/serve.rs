//! `hnefi serve`: the board in the browser. Prints the page's address on standard output and
//! serves until stopped.

use super::error::CliError;
use clap::Args;
use hnefi::serve::{Config, run};
use std::net::{IpAddr, ToSocketAddrs};

#[derive(Args)]
pub struct ServeArgs {
    /// The port to listen on (0: any free port).
    #[arg(long, default_value_t = 8011)]
    pub port: u16,
    /// The address to listen on: an IP address or a host name (`localhost`). Another than the
    /// loopback lets other machines use the engine: a warning says so.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
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
    let (host, name) = resolve(&args.host)?;
    if !host.is_loopback() {
        let named = name.as_ref().map_or(String::new(), |n| format!("{n} ("));
        let close = if name.is_some() { ")" } else { "" };
        note!(
            "hnefi: warning: listening on {named}{host}{close}: anyone who can reach this address \
             can use the board and the engine; the loopback address (the default) keeps it to \
             this machine"
        );
    }
    let config = Config {
        host,
        name,
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

/// The address to listen on, and the name it was given by if it was not an address. A name
/// is listened on at its first IPv4 address if it has one: `localhost` as 127.0.0.1, which
/// every browser reaches by that name too.
fn resolve(host: &str) -> Result<(IpAddr, Option<String>), CliError> {
    if let Ok(ip) = host.parse::<IpAddr>() {
        return Ok((ip, None));
    }
    let unresolved = |why: String| CliError::Host {
        host: host.to_string(),
        why,
    };
    let addrs: Vec<IpAddr> = (host, 0)
        .to_socket_addrs()
        .map_err(|e| unresolved(e.to_string()))?
        .map(|a| a.ip())
        .collect();
    let ip = addrs
        .iter()
        .find(|ip| ip.is_ipv4())
        .or(addrs.first())
        .ok_or_else(|| unresolved("the name has no address".into()))?;
    Ok((*ip, Some(host.to_string())))
}

/// Opens `url` in the desktop's browser. A failure is only a note, as the address is printed:
/// the opener missing, or finding no browser (xdg-open says so by its exit status, which may
/// come late, or only once the browser it started has closed, so it is awaited on a thread of
/// its own).
fn open_browser(url: &str) {
    let program = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    let failed = move |why: String, url: &str| {
        note!("hnefi: no browser could be opened: {why}; open {url} in a browser");
    };
    let child = std::process::Command::new(program)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    let mut child = match child {
        Ok(child) => child,
        Err(e) => return failed(format!("cannot run {program} ({e})"), url),
    };
    let url = url.to_string();
    let waited = std::thread::Builder::new()
        .name("browser".into())
        .spawn(move || match child.wait() {
            // Windows' explorer answers 1 even when it opened the page.
            Ok(status) if !status.success() && !cfg!(windows) => {
                failed(format!("{program} failed ({status})"), &url);
            }
            Ok(_) => {}
            Err(e) => failed(format!("{program}: {e}"), &url),
        });
    if let Err(e) = waited {
        log::warn!("cannot wait for {program}: {e}");
    }
}
