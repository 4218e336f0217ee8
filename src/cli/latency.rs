//! `hnefi latency`: how fast the UCI loop answers while it searches.

use super::CliError;
use clap::Args;
use std::io::Write;
use std::time::{Duration, Instant};

#[derive(Args)]
pub struct LatencyArgs {
    /// Searches to interrupt.
    #[arg(long, default_value_t = 20)]
    pub rounds: usize,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
}

/// Lines written by the loop, stamped with the time they were written.
struct Stamped(std::sync::mpsc::Sender<(Instant, String)>, Vec<u8>);

impl Write for Stamped {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.1.extend_from_slice(buf);
        while let Some(i) = self.1.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.1.drain(..=i).collect();
            let _ = self.0.send((
                Instant::now(),
                String::from_utf8_lossy(&line).trim().to_string(),
            ));
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

pub fn latency(args: LatencyArgs) -> Result<(), CliError> {
    use hnefi::protocol::{Input, Output, Protocol, run};
    use std::sync::mpsc::channel;
    if args.rounds == 0 {
        return Err(CliError::out_of_range("--rounds", 0, "at least 1"));
    }
    if args.threads == 0 {
        return Err(CliError::out_of_range("--threads", 0, "at least 1"));
    }
    let (to_engine, input) = channel();
    let (stamp_tx, from_engine) = channel();
    let out = Output::new(Box::new(Stamped(stamp_tx, Vec::new())));
    let engine =
        std::thread::spawn(move || run(Some(Protocol::Uci), input, out, Default::default()));
    let send = |line: &str| {
        let t = Instant::now();
        let _ = to_engine.send(Input::Line(line.to_string()));
        t
    };
    let wait = |prefix: &'static str| -> Result<Instant, CliError> {
        loop {
            let (t, line) = from_engine
                .recv_timeout(Duration::from_secs(30))
                .map_err(|_| CliError::NoAnswer(prefix))?;
            if line.starts_with(prefix) {
                return Ok(t);
            }
        }
    };
    send(&format!("setoption name Threads value {}", args.threads));
    let (mut ready, mut stop) = (Vec::new(), Vec::new());
    for _ in 0..args.rounds {
        send("position startpos");
        send("go infinite");
        std::thread::sleep(Duration::from_millis(200));
        let t0 = send("isready");
        ready.push(wait("readyok")? - t0);
        let t0 = send("stop");
        stop.push(wait("bestmove")? - t0);
    }
    send("quit");
    let _ = engine.join();
    let summary = |name: &str, v: &mut Vec<Duration>| {
        v.sort();
        outln!(
            "{name}: median {:.3} ms, max {:.3} ms over {} searches on {} thread(s)",
            v[v.len() / 2].as_secs_f64() * 1e3,
            v[v.len() - 1].as_secs_f64() * 1e3,
            v.len(),
            args.threads
        )
    };
    summary("isready -> readyok", &mut ready)?;
    summary("stop -> bestmove", &mut stop)?;
    Ok(())
}
