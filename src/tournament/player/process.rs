//! An engine's process: started in a process group of its own, lines written to it and read
//! from it on threads of their own, every wait with a deadline that also watches the match's
//! stop flag, and the whole group killed when it is done with. Nothing the engine does can
//! hang the runner or outlive it.

use super::listen::accept_engine;
use super::{Fault, Forfeit};
use crate::protocol::{Input, spawn_reader};
use crate::tournament::spec::EngineSpec;
use std::fmt::Display;
use std::io::{BufReader, Write};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::time::{Duration, Instant};

/// How long an engine has for its handshake and for answers that need no thought.
pub const STARTUP_TIME: Duration = Duration::from_secs(10);

pub struct Process {
    name: String,
    child: Child,
    /// Lines for the engine, written by a thread of their own: an engine that stops reading
    /// can block that thread, never the runner.
    input: Sender<String>,
    lines: Receiver<Input>,
    stop: Arc<AtomicBool>,
    /// A fault ended the last exchange: the engine's state is unknown.
    pub tainted: bool,
}

/// Starts the engine's command, with its standard input and output piped when `stdio`.
pub fn spawn(spec: &EngineSpec, stdio: bool) -> Result<Child, Fault> {
    let mut cmd = Command::new(&spec.cmd);
    let stderr = match &spec.stderr {
        Some(path) => std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map(Stdio::from)
            .map_err(|e| Fault::crash(format!("cannot open {}: {e}", path.display())))?,
        None => Stdio::null(),
    };
    cmd.args(&spec.args).stderr(stderr);
    if stdio {
        cmd.stdin(Stdio::piped()).stdout(Stdio::piped());
    } else {
        cmd.stdin(Stdio::null()).stdout(Stdio::null());
    }
    if let Some(dir) = &spec.dir {
        cmd.current_dir(dir);
    }
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt;
        // A group of its own, so that an engine started through a wrapper script goes with all
        // its processes (see `kill_tree`).
        cmd.process_group(0);
        // If the runner dies without cleaning up (even by SIGKILL), the kernel ends the engine.
        // SAFETY: prctl is async-signal-safe and touches no memory of the parent.
        unsafe {
            cmd.pre_exec(|| {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                Ok(())
            });
        }
    }
    cmd.spawn()
        .map_err(|e| Fault::crash(format!("cannot start '{}': {e}", spec.cmd)))
}

/// Kills the engine's process group (the engine and anything it started) and reaps it.
pub fn kill_tree(child: &mut Child) {
    #[cfg(target_os = "linux")]
    if let Ok(pid) = libc::pid_t::try_from(child.id()) {
        // SAFETY: a plain system call on the group `spawn` created for this engine.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// Writes lines to the engine until it stops taking them or the process is done with.
fn spawn_writer(mut sink: Box<dyn Write + Send>) -> Sender<String> {
    let (tx, rx) = channel::<String>();
    std::thread::spawn(move || {
        for line in rx {
            if writeln!(sink, "{line}").and_then(|_| sink.flush()).is_err() {
                break;
            }
        }
    });
    tx
}

impl Process {
    /// Starts the engine: on standard input and output, or as a light-server client that
    /// connects to `spec.listen`.
    pub fn start(spec: &EngineSpec, stop: Arc<AtomicBool>) -> Result<Process, Fault> {
        let (child, input, lines): (Child, Box<dyn Write + Send>, Receiver<Input>) = match spec
            .listen
        {
            None => {
                let mut child = spawn(spec, true)?;
                let (Some(input), Some(output)) = (child.stdin.take(), child.stdout.take()) else {
                    kill_tree(&mut child);
                    return Err(Fault::crash("no pipes to the engine"));
                };
                (child, Box::new(input), spawn_reader(BufReader::new(output)))
            }
            Some(addr) => {
                let (mut child, stream) = accept_engine(spec, addr, &stop)?;
                let reader = match stream.try_clone() {
                    Ok(r) => r,
                    Err(e) => {
                        kill_tree(&mut child);
                        return Err(Fault::crash(format!("connection: {e}")));
                    }
                };
                (
                    child,
                    Box::new(stream),
                    spawn_reader(BufReader::new(reader)),
                )
            }
        };
        Ok(Process {
            name: spec.name.clone(),
            child,
            input: spawn_writer(input),
            lines,
            stop,
            tainted: false,
        })
    }

    /// The engine's name in the match.
    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn send(&mut self, message: impl Display) -> Result<(), Fault> {
        let line = message.to_string();
        log::debug!("{} < {line}", self.name);
        self.input.send(line).map_err(|_| {
            self.tainted = true;
            Fault::crash("the engine stopped reading its input")
        })
    }

    /// Waits until `deadline` for a line that `want` accepts (others are skipped), watching
    /// the stop flag. `Err(None)` is a timeout, which taints the engine.
    pub fn wait_for<T>(
        &mut self,
        deadline: Instant,
        mut want: impl FnMut(&str) -> Option<T>,
    ) -> Result<(T, Instant), Option<Fault>> {
        loop {
            if self.stop.load(Ordering::Relaxed) {
                self.tainted = true;
                return Err(Some(Fault::Stopped));
            }
            let now = Instant::now();
            if now >= deadline {
                self.tainted = true;
                return Err(None);
            }
            let slice = (deadline - now).min(Duration::from_millis(50));
            match self.lines.recv_timeout(slice) {
                Ok(Input::Line(line)) => {
                    log::debug!("{} > {line}", self.name);
                    if let Some(t) = want(line.trim()) {
                        return Ok((t, Instant::now()));
                    }
                }
                Ok(Input::TooLong(n)) => log::debug!("{} > ({n} bytes)", self.name),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    self.tainted = true;
                    let status = match self.child.try_wait() {
                        Ok(Some(status)) => format!("exited ({status})"),
                        _ => "closed its output".to_string(),
                    };
                    return Err(Some(Fault::crash(format!("the engine {status}"))));
                }
            }
        }
    }

    /// `wait_for` where running out of time means the engine does not answer.
    pub fn expect<T>(
        &mut self,
        within: Duration,
        what: &str,
        want: impl FnMut(&str) -> Option<T>,
    ) -> Result<T, Fault> {
        match self.wait_for(Instant::now() + within, want) {
            Ok((t, _)) => Ok(t),
            Err(Some(fault)) => Err(fault),
            Err(None) => Err(Fault::Forfeit(
                Forfeit::NoAnswer,
                format!("no {what} within {} s", within.as_secs_f64()),
            )),
        }
    }

    /// Sends `goodbye`, if any, to an engine that is still running and behaved, gives it a
    /// moment to leave by itself, then kills what is left of it.
    pub fn shut_down(&mut self, goodbye: Option<String>) {
        if let Some(line) = goodbye
            && !self.tainted
            && matches!(self.child.try_wait(), Ok(None))
            && self.send(line).is_ok()
        {
            let until = Instant::now() + Duration::from_millis(200);
            while Instant::now() < until && matches!(self.child.try_wait(), Ok(None)) {
                std::thread::sleep(Duration::from_millis(5));
            }
        }
        kill_tree(&mut self.child);
    }
}
