//! The real hnefatafl.org server in a test: run in a private network namespace (its port,
//! 49152, is fixed), on a fresh data folder, stopped by its pid; a proxy between it and a
//! bot that can cut the connection and slip in lines of its own; and a scripted player.

use hnefi::board::{Move, MoveList, Position};
use hnefi::bot::record::GameRecord;
use hnefi::protocol::htp::server_rules;
use hnefi::search::size::Size;
use std::io::{BufRead, BufReader, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub const PORT: u16 = 49152;
pub const VERSION_ID: &str = "32d9a140";
/// Set in the copy of the test that runs inside the namespace.
const INSIDE: &str = "HNEFI_TEST_IN_NAMESPACE";

/// Runs the test `name` (this very test function) again inside a new user and network
/// namespace with only the loopback up, where `scenario` then runs with a server. Outside,
/// it skips with a message when the server or namespaces are missing and the run is not CI.
pub fn in_private_network(name: &str, scenario: impl FnOnce(&Server)) {
    if std::env::var_os(INSIDE).is_some() {
        let server = Server::start();
        scenario(&server);
        return;
    }
    let Some(program) = super::require("hnefatafl-server", "HNEFATAFL_SERVER") else {
        return;
    };
    let probe = Command::new("unshare")
        .args(["-rn", "--", "sh", "-c", "ip link set lo up"])
        .stderr(Stdio::null())
        .status();
    if !probe.is_ok_and(|s| s.success()) {
        let why = "cannot make a private network namespace (`unshare -rn` and `ip` needed)";
        assert!(std::env::var_os("CI").is_none(), "{why}");
        eprintln!("SKIPPED: {why}");
        return;
    }
    let exe = std::env::current_exe().expect("the test binary");
    let out = Command::new("unshare")
        .args([
            "-rn",
            "--",
            "sh",
            "-c",
            "ip link set lo up && exec \"$0\" \"$@\"",
        ])
        .arg(&exe)
        .args(["--exact", name, "--nocapture", "--test-threads=1"])
        .env(INSIDE, "1")
        .env("HNEFATAFL_SERVER", &program)
        .output()
        .expect("run the test in a namespace");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success(),
        "{name} in its namespace failed:\n{text}"
    );
    eprintln!("{text}");
}

/// A running `hnefatafl-server` with a data folder of its own.
pub struct Server {
    child: Child,
    pub dir: PathBuf,
}

impl Server {
    fn start() -> Server {
        let program = std::env::var_os("HNEFATAFL_SERVER").expect("the server's path");
        let stamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let dir = std::env::temp_dir().join(format!("hnefi-server-{}-{stamp}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("home")).expect("home");
        std::fs::create_dir_all(dir.join("data")).expect("data");
        let log = std::fs::File::create(dir.join("server.log")).expect("log");
        let child = Command::new(program)
            .env("HOME", dir.join("home"))
            .env("XDG_DATA_HOME", dir.join("data"))
            .stdout(log.try_clone().expect("log"))
            .stderr(log)
            .spawn()
            .expect("start hnefatafl-server");
        let server = Server { child, dir };
        let deadline = Instant::now() + Duration::from_secs(20);
        while TcpStream::connect(("127.0.0.1", PORT)).is_err() {
            assert!(Instant::now() < deadline, "the server does not listen");
            std::thread::sleep(Duration::from_millis(50));
        }
        server
    }

    /// The finished games, one RON line each, once there are `count` of them (the server
    /// writes a game a moment after announcing its end).
    pub fn archive(&self, count: usize) -> Vec<String> {
        let path = self
            .dir
            .join("data/hnefatafl-copenhagen/archived-games.ron");
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            let lines: Vec<String> = text.lines().map(String::from).collect();
            if lines.len() >= count || Instant::now() > deadline {
                return lines;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    pub fn log_path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        // SIGTERM lets it save and exit; it is killed if it lingers.
        let pid = self.child.id() as libc::pid_t;
        unsafe {
            libc::kill(pid, libc::SIGTERM);
        }
        let deadline = Instant::now() + Duration::from_secs(10);
        while self.child.try_wait().ok().flatten().is_none() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// `hnefi bot` as a child process, its log in a file; killed if still running when dropped.
pub struct Bot {
    child: Child,
    pub log: PathBuf,
}

impl Bot {
    pub fn start(log: &Path, args: &[&str]) -> Bot {
        Bot::start_with_env(log, args, &[])
    }

    /// [`Bot::start`] with the variables `env` set too (`RUST_LOG` among them overrides
    /// `hnefi=debug`).
    pub fn start_with_env(log: &Path, args: &[&str], env: &[(&str, &str)]) -> Bot {
        let file = std::fs::File::create(log).expect("bot log");
        let child = Command::new(env!("CARGO_BIN_EXE_hnefi"))
            .arg("bot")
            .args(args)
            .env("RUST_LOG", "hnefi=debug")
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(file)
            .spawn()
            .expect("start hnefi bot");
        Bot {
            child,
            log: log.to_path_buf(),
        }
    }

    /// Waits for the bot to leave by itself; returns its log.
    pub fn finish(self, within: Duration) -> String {
        let (success, log) = self.end(within);
        assert!(success, "the bot failed:\n{log}");
        log
    }

    /// Waits for the bot to leave by itself: whether it succeeded, and its log.
    pub fn end(mut self, within: Duration) -> (bool, String) {
        let deadline = Instant::now() + within;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return (status.success(), self.text());
            }
            assert!(
                Instant::now() < deadline,
                "the bot did not finish in {within:?}:\n{}",
                self.text()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    pub fn text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Waits until the bot's log holds `text`; returns the log.
    pub fn wait_for(&self, text: &str, within: Duration) -> String {
        let deadline = Instant::now() + within;
        loop {
            let log = self.text();
            if log.contains(text) {
                return log;
            }
            assert!(
                Instant::now() < deadline,
                "no '{text}' in the bot's log within {within:?}:\n{log}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Bot {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A proxy from `port` to the server that records the bot's lines and can cut the
/// connection or send the bot lines of its own.
pub struct Proxy {
    shared: Arc<Mutex<ProxyState>>,
}

#[derive(Default)]
struct ProxyState {
    from_bot: Vec<String>,
    /// Both sockets of the current connection (bot side first).
    current: Option<(TcpStream, TcpStream)>,
    connections: usize,
}

impl Proxy {
    pub fn start(port: u16) -> Proxy {
        let listener = TcpListener::bind(("127.0.0.1", port)).expect("proxy port");
        let shared = Arc::new(Mutex::new(ProxyState::default()));
        let state = shared.clone();
        std::thread::spawn(move || {
            for bot in listener.incoming().flatten() {
                let Ok(server) = TcpStream::connect(("127.0.0.1", PORT)) else {
                    continue;
                };
                {
                    let mut s = state.lock().unwrap();
                    s.connections += 1;
                    s.current = Some((bot.try_clone().unwrap(), server.try_clone().unwrap()));
                }
                let (bot_in, server_out) = (bot.try_clone().unwrap(), server.try_clone().unwrap());
                let record = state.clone();
                std::thread::spawn(move || {
                    pump(bot_in, server_out, |line| {
                        record.lock().unwrap().from_bot.push(line.to_string())
                    })
                });
                let forward = state.clone();
                std::thread::spawn(move || {
                    // Lines to the bot go through the lock, so that injected lines never
                    // split a line of the server's.
                    let mut reader = BufReader::new(server);
                    let mut line = Vec::new();
                    while reader.read_until(b'\n', &mut line).is_ok_and(|n| n > 0) {
                        let s = forward.lock().unwrap();
                        let mut to_bot = &bot;
                        if to_bot.write_all(&line).is_err() {
                            break;
                        }
                        drop(s);
                        line.clear();
                    }
                    let _ = bot.shutdown(Shutdown::Both);
                });
            }
        });
        Proxy { shared }
    }

    /// Ends the current connection, as a network failure would.
    pub fn cut(&self) {
        if let Some((bot, server)) = self.shared.lock().unwrap().current.take() {
            let _ = bot.shutdown(Shutdown::Both);
            let _ = server.shutdown(Shutdown::Both);
        }
    }

    /// Sends the bot bytes of our own, as if from the server.
    pub fn inject(&self, bytes: &[u8]) {
        let state = self.shared.lock().unwrap();
        if let Some((bot, _)) = &state.current {
            let mut bot = bot;
            bot.write_all(bytes).expect("inject");
        }
    }

    pub fn bot_lines(&self) -> Vec<String> {
        self.shared.lock().unwrap().from_bot.clone()
    }

    pub fn connections(&self) -> usize {
        self.shared.lock().unwrap().connections
    }
}

fn pump(from: TcpStream, mut to: TcpStream, mut seen: impl FnMut(&str)) {
    let mut reader = BufReader::new(from);
    let mut line = String::new();
    while reader.read_line(&mut line).is_ok_and(|n| n > 0) {
        seen(line.trim_end());
        if to.write_all(line.as_bytes()).is_err() {
            break;
        }
        line.clear();
    }
    let _ = to.shutdown(Shutdown::Both);
}

/// A scripted player: a plain TCP client of the server.
pub struct Player {
    reader: BufReader<TcpStream>,
    writer: TcpStream,
    pub name: String,
    /// Every line received, for messages on failure.
    pub seen: Vec<String>,
}

impl Player {
    /// Connects and creates the account `name`.
    pub fn new(name: &str) -> Player {
        let stream = TcpStream::connect(("127.0.0.1", PORT)).expect("connect");
        stream
            .set_read_timeout(Some(Duration::from_secs(1)))
            .expect("timeout");
        let mut player = Player {
            reader: BufReader::new(stream.try_clone().expect("clone")),
            writer: stream,
            name: name.to_string(),
            seen: Vec::new(),
        };
        player.send(&format!("{VERSION_ID} create_account {name}"));
        player.expect("login", Duration::from_secs(10), |l| l == "= login");
        player
    }

    pub fn send(&mut self, line: &str) {
        writeln!(self.writer, "{line}").expect("send");
    }

    /// Reads until a line satisfies `wanted` and returns it; fails after `within`.
    pub fn expect(
        &mut self,
        what: &str,
        within: Duration,
        wanted: impl Fn(&str) -> bool,
    ) -> String {
        let deadline = Instant::now() + within;
        let mut line = String::new();
        loop {
            assert!(
                Instant::now() < deadline,
                "{}: no {what} within {within:?}; last lines: {:#?}",
                self.name,
                &self.seen[self.seen.len().saturating_sub(15)..]
            );
            line.clear();
            match self.reader.read_line(&mut line) {
                Ok(0) => panic!("{}: the server closed the connection", self.name),
                Ok(_) => {
                    let text = line.trim_end().to_string();
                    self.seen.push(text.clone());
                    if wanted(&text) {
                        return text;
                    }
                }
                Err(e)
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) => {}
                Err(e) => panic!("{}: {e}", self.name),
            }
        }
    }

    /// The record of game `id`, asked for.
    pub fn record(&mut self, id: u64) -> GameRecord {
        self.send(&format!("resume_game_json {id}"));
        let line = self.expect("record", Duration::from_secs(10), |l| {
            l.starts_with("= resume_game_json ")
        });
        serde_json::from_str(&line["= resume_game_json ".len()..]).expect("a record")
    }

    /// A move for the side to move of `record`, a game on `G`'s board, that the server
    /// accepts, chosen by `pick` among those that do not end the game but by the move limit
    /// (all of them if every move does).
    pub fn choose<G: Size>(record: &GameRecord, pick: impl FnOnce(usize) -> usize) -> Move<G> {
        let pos: Position<G> = record
            .position(server_rules::<G>())
            .expect("a playable record")
            .position;
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        let allowed: Vec<_> = list
            .iter()
            .copied()
            .filter(|&m| !pos.recreates_board_before_captures(m))
            .collect();
        let quiet: Vec<_> = allowed
            .iter()
            .copied()
            .filter(|&m| {
                let mut after = pos.clone();
                after.play(m);
                after
                    .outcome()
                    .is_none_or(|o| o.reason == hnefi::board::Reason::MoveLimit)
            })
            .collect();
        let from = if quiet.is_empty() { &allowed } else { &quiet };
        from[pick(from.len()) % from.len()]
    }
}
