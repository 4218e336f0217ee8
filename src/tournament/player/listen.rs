//! The runner as hnefatafl-copenhagen's light server: it listens on a port, starts a client
//! engine, and takes the connection that engine makes.

use super::process::{STARTUP_TIME, kill_tree, spawn};
use super::{Fault, Forfeit};
use crate::tournament::spec::EngineSpec;
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::process::Child;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Serialises accepting connections on a listening address, so that each engine process
/// gets the connection it made, not that of an engine another worker just started.
type Listeners = Mutex<Vec<(SocketAddr, TcpListener)>>;
static LISTENERS: Listeners = Mutex::new(Vec::new());

/// Starts a light-server client and takes its connection on `addr`.
pub fn accept_engine(
    spec: &EngineSpec,
    addr: SocketAddr,
    stop: &AtomicBool,
) -> Result<(Child, TcpStream), Fault> {
    let mut listeners = LISTENERS.lock().unwrap_or_else(|e| e.into_inner());
    let at = match listeners.iter().position(|(a, _)| *a == addr) {
        Some(at) => at,
        None => {
            let listener = TcpListener::bind(addr)
                .map_err(|e| Fault::crash(format!("cannot listen on {addr}: {e}")))?;
            listener
                .set_nonblocking(true)
                .map_err(|e| Fault::crash(format!("listener: {e}")))?;
            listeners.push((addr, listener));
            listeners.len() - 1
        }
    };
    let listener = &listeners[at].1;
    // A connection left over from an engine that was given up on is not this engine's.
    while listener.accept().is_ok() {}
    let mut child = spawn(spec, false)?;
    let deadline = Instant::now() + STARTUP_TIME;
    loop {
        match listener.accept() {
            Ok((stream, _)) => {
                let _ = stream.set_nonblocking(false);
                let _ = stream.set_nodelay(true);
                return Ok((child, stream));
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
            Err(e) => {
                kill_tree(&mut child);
                return Err(Fault::crash(format!("accept on {addr}: {e}")));
            }
        }
        let failed = if stop.load(Ordering::Relaxed) {
            Some(Fault::Stopped)
        } else if let Ok(Some(status)) = child.try_wait() {
            Some(Fault::crash(format!(
                "the engine exited ({status}) before connecting"
            )))
        } else if Instant::now() >= deadline {
            Some(Fault::Forfeit(
                Forfeit::NoAnswer,
                format!(
                    "the engine did not connect to {addr} within {} s",
                    STARTUP_TIME.as_secs()
                ),
            ))
        } else {
            None
        };
        if let Some(fault) = failed {
            kill_tree(&mut child);
            return Err(fault);
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}
