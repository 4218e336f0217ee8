//! `hnefi fuzz`: hostile lines through the protocol loops, in process.

use super::CliError;
use super::common::at_least_one;
use clap::Args;
use std::time::{Duration, Instant};

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FuzzProtocol {
    Uci,
    Otep,
    Htp,
    All,
}

#[derive(Args)]
pub struct FuzzArgs {
    /// The protocol whose loop is fuzzed, or all three one after another.
    #[arg(long, value_enum, default_value_t = FuzzProtocol::All)]
    pub protocol: FuzzProtocol,
    /// Lines per protocol.
    #[arg(long, default_value_t = 1_000_000)]
    pub lines: u64,
    /// Line i of a run depends only on the seed and i: a failure replays with the same seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// A line not handled within this many ms is a hang.
    #[arg(long, default_value_t = 10_000)]
    pub deadline_ms: u64,
    /// Nodes per search at most, so that searches end at once.
    #[arg(long, default_value_t = 500, value_parser = at_least_one::<u64>)]
    pub nodes: u64,
    /// Address space of the fuzzing process in MB (0: no limit), so that a runaway allocation
    /// fails inside the fuzz instead of taking a shared machine's memory.
    #[arg(long, default_value_t = 8192)]
    pub memory_mb: u64,
}

/// Go the address space of this process to `mb` MB.
#[cfg(target_os = "linux")]
fn limit_memory(mb: u64) -> Result<(), CliError> {
    let bytes = mb.saturating_mul(1 << 20) as libc::rlim_t;
    let limit = libc::rlimit {
        rlim_cur: bytes,
        rlim_max: bytes,
    };
    // SAFETY: setrlimit reads the struct it is given and changes only this process's limit.
    if unsafe { libc::setrlimit(libc::RLIMIT_AS, &limit) } == 0 {
        Ok(())
    } else {
        Err(CliError::MemoryLimit {
            mb,
            source: std::io::Error::last_os_error(),
        })
    }
}

#[cfg(not(target_os = "linux"))]
fn limit_memory(_mb: u64) -> Result<(), CliError> {
    log::warn!("--memory-mb is only applied on Linux");
    Ok(())
}

pub fn fuzz(args: FuzzArgs) -> Result<(), CliError> {
    use hnefi::protocol::Protocol;
    use hnefi::protocol::fuzz::{Config, fuzz};
    if args.deadline_ms == 0 {
        return Err(CliError::out_of_range("--deadline-ms", 0, "at least 1"));
    }
    if args.memory_mb > 0 {
        limit_memory(args.memory_mb)?;
    }
    // Hostile lines make the loops warn by the thousand; only errors are worth reading here.
    if std::env::var_os("RUST_LOG").is_none() {
        log::set_max_level(log::LevelFilter::Error);
    }
    let protocols = match args.protocol {
        FuzzProtocol::Uci => vec![Protocol::Uci],
        FuzzProtocol::Otep => vec![Protocol::Otep],
        FuzzProtocol::Htp => vec![Protocol::Htp],
        FuzzProtocol::All => vec![Protocol::Uci, Protocol::Otep, Protocol::Htp],
    };
    let mut clean = true;
    for protocol in protocols {
        let name = format!("{protocol:?}").to_lowercase();
        let config = Config {
            protocol,
            lines: args.lines,
            seed: args.seed,
            deadline: Duration::from_millis(args.deadline_ms),
            max_nodes: args.nodes,
        };
        let start = Instant::now();
        let mut last = Instant::now();
        let report = fuzz(&config, &mut |done| {
            if last.elapsed() >= Duration::from_secs(10) {
                last = Instant::now();
                note!(
                    "fuzz {name}: {done} of {} lines, {:.0} s",
                    args.lines,
                    start.elapsed().as_secs_f64()
                );
            }
        });
        let secs = report.elapsed.as_secs_f64();
        outln!(
            "{name}: {} lines in {secs:.1} s ({:.0} lines/s), seed {}: {} panics, {} hangs, \
             {} restarts, {}",
            report.lines,
            report.lines as f64 / secs.max(1e-9),
            args.seed,
            report.panics,
            report.hangs,
            report.restarts,
            if report.alive {
                "answered the probe and ended"
            } else {
                "DID NOT answer the probe or end"
            }
        )?;
        for f in &report.failures {
            outln!("  {f}")?;
        }
        clean &= report.clean();
    }
    if clean {
        Ok(())
    } else {
        Err(CliError::FuzzFailed)
    }
}
