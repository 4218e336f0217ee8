//! One engine of a match as a child process, driven through its protocol. The runner owns the
//! game; a player only translates it into lines for the engine and its answer back into a
//! move. Every wait has a deadline and watches the stop flag, and dropping a player kills its
//! process, so nothing the engine does can hang the runner or outlive it.

use super::spec::{EngineSpec, Proto, TimeControl};
use crate::board::notation::{parse_record_move, record_move, to_opentafl};
use crate::board::{Bitboard, Move, Outcome, Position, Rules, Side};
use crate::protocol::{Input, spawn_reader};
use std::io::{BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How an engine lost a game without the rules deciding it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Forfeit {
    /// A move that is not legal, or text that is not a move.
    IllegalMove,
    /// The process exited or closed its output.
    Crash,
    /// No answer by the deadline and a grace period after it: the engine is taken to hang.
    NoAnswer,
    /// The answer came after the engine's time ran out.
    TimeLoss,
    /// An answer the protocol does not allow, such as refusing a legal move.
    ProtocolError,
    /// The engine gave up (the hnefatafl text protocol's `resigns`).
    Resigned,
}

impl Forfeit {
    pub fn label(self) -> &'static str {
        match self {
            Forfeit::IllegalMove => "illegal move",
            Forfeit::Crash => "crash",
            Forfeit::NoAnswer => "no answer",
            Forfeit::TimeLoss => "time loss",
            Forfeit::ProtocolError => "protocol error",
            Forfeit::Resigned => "resignation",
        }
    }
}

/// Why a player could not go on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    Forfeit(Forfeit, String),
    /// The match is stopping (Ctrl-C or a decided SPRT); the game does not count.
    Stopped,
}

impl Fault {
    fn crash(what: impl Into<String>) -> Fault {
        Fault::Forfeit(Forfeit::Crash, what.into())
    }
    fn protocol(what: impl Into<String>) -> Fault {
        Fault::Forfeit(Forfeit::ProtocolError, what.into())
    }
}

/// How long an engine has for its handshake and for answers that need no thought.
pub const STARTUP_TIME: Duration = Duration::from_secs(10);

/// Clocks of both sides at the moment a move is asked for.
#[derive(Clone, Copy, Debug)]
pub struct Clocks {
    /// Time left, attackers first, when a clock runs.
    pub left: [Option<Duration>; 2],
    pub inc: [Duration; 2],
}

impl Clocks {
    /// Both sides' time and increment when `side` plays on a clock; an opponent without one
    /// is shown the same clock, as the protocols have no words for "no clock".
    fn both(&self, side: Side) -> Option<([Duration; 2], [Duration; 2])> {
        let own = self.left[side.index()]?;
        let inc = self.inc[side.index()];
        Some((
            self.left.map(|l| l.unwrap_or(own)),
            [0, 1].map(|i| {
                if self.left[i].is_some() {
                    self.inc[i]
                } else {
                    inc
                }
            }),
        ))
    }
}

/// The answer to a move request: what the engine said and when it arrived.
pub struct Answer {
    pub text: String,
    pub at: Instant,
}

/// Serialises accepting connections on a listening address, so that each engine process
/// gets the connection it made, not that of an engine another worker just started.
type Listeners = Mutex<Vec<(std::net::SocketAddr, TcpListener)>>;
static LISTENERS: Listeners = Mutex::new(Vec::new());

pub struct Player {
    spec: Arc<EngineSpec>,
    child: Child,
    /// Lines for the engine, written by a thread of their own: an engine that stops reading
    /// can block that thread, never the runner.
    input: Sender<String>,
    lines: Receiver<Input>,
    stop: Arc<AtomicBool>,
    /// A fault ended the last exchange: the engine's state is unknown.
    tainted: bool,
}

fn role(side: Side) -> &'static str {
    match side {
        Side::Attackers => "attacker",
        Side::Defenders => "defender",
    }
}

fn spawn(spec: &EngineSpec, stdio: bool) -> Result<Child, String> {
    let mut cmd = Command::new(&spec.cmd);
    let stderr = match &spec.stderr {
        Some(path) => std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map(Stdio::from)
            .map_err(|e| format!("cannot open {}: {e}", path.display()))?,
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
        .map_err(|e| format!("cannot start '{}': {e}", spec.cmd))
}

impl Player {
    /// Starts the engine and completes its handshake. A `Fault::Forfeit` here means the engine
    /// is broken (the runner checks this once before the match, and counts it as a loss
    /// during it).
    pub fn start(
        spec: Arc<EngineSpec>,
        rules: Rules,
        stop: Arc<AtomicBool>,
    ) -> Result<Player, Fault> {
        let (child, input, lines): (Child, Box<dyn Write + Send>, Receiver<Input>) =
            match spec.listen {
                None => {
                    let mut child = spawn(&spec, true).map_err(Fault::crash)?;
                    let input = Box::new(child.stdin.take().expect("piped stdin"));
                    let output = child.stdout.take().expect("piped stdout");
                    (child, input, spawn_reader(BufReader::new(output)))
                }
                Some(addr) => {
                    let (child, stream) = accept_engine(&spec, addr, &stop)?;
                    let reader = stream
                        .try_clone()
                        .map_err(|e| Fault::crash(format!("connection: {e}")))?;
                    (
                        child,
                        Box::new(stream),
                        spawn_reader(BufReader::new(reader)),
                    )
                }
            };
        let mut player = Player {
            spec,
            child,
            input: spawn_writer(input),
            lines,
            stop,
            tainted: false,
        };
        player.handshake(rules)?;
        Ok(player)
    }

    pub fn name(&self) -> &str {
        &self.spec.name
    }

    /// Whether the process can play another game: UCI engines that behaved are kept.
    pub fn reusable(&self) -> bool {
        self.spec.proto == Proto::Uci && !self.tainted
    }

    fn send(&mut self, line: &str) -> Result<(), Fault> {
        log::debug!("{} < {line}", self.spec.name);
        self.input.send(line.to_string()).map_err(|_| {
            self.tainted = true;
            Fault::crash("the engine stopped reading its input")
        })
    }

    /// Waits until `deadline` for a line that `want` accepts (others are skipped), watching
    /// the stop flag. `Err(None)` is a timeout.
    fn wait_for<T>(
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
                return Err(None);
            }
            let slice = (deadline - now).min(Duration::from_millis(50));
            match self.lines.recv_timeout(slice) {
                Ok(Input::Line(line)) => {
                    log::debug!("{} > {line}", self.spec.name);
                    if let Some(t) = want(line.trim()) {
                        return Ok((t, Instant::now()));
                    }
                }
                Ok(Input::TooLong(n)) => log::debug!("{} > ({n} bytes)", self.spec.name),
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
    fn expect<T>(
        &mut self,
        within: Duration,
        what: &str,
        want: impl FnMut(&str) -> Option<T>,
    ) -> Result<T, Fault> {
        match self.wait_for(Instant::now() + within, want) {
            Ok((t, _)) => Ok(t),
            Err(Some(fault)) => Err(fault),
            Err(None) => {
                self.tainted = true;
                Err(Fault::Forfeit(
                    Forfeit::NoAnswer,
                    format!("no {what} within {} s", within.as_secs_f64()),
                ))
            }
        }
    }

    /// A hnefatafl text protocol reply: `= ...` or `? ...` (the reference engine prints
    /// other lines between them).
    fn htp_reply(&mut self, within: Duration, what: &str) -> Result<String, Fault> {
        let reply = self.expect(within, what, |l| {
            (l.starts_with('=') || l.starts_with('?')).then(|| l.to_string())
        })?;
        match reply.strip_prefix('=') {
            Some(ok) => Ok(ok.trim().to_string()),
            None => Err(Fault::protocol(format!("{what}: '{reply}'"))),
        }
    }

    fn handshake(&mut self, rules: Rules) -> Result<(), Fault> {
        match (self.spec.proto, self.spec.listen) {
            (Proto::Uci, _) => {
                self.send("uci")?;
                let mut names = Vec::new();
                self.expect(STARTUP_TIME, "uciok", |l| {
                    if let Some(rest) = l.strip_prefix("option name ") {
                        let name = rest.split(" type ").next().unwrap_or(rest);
                        names.push(name.trim().to_string());
                    }
                    (l == "uciok").then_some(())
                })?;
                let mut options = self.spec.options.clone();
                if names.iter().any(|n| n == "Rules") && !options.iter().any(|(n, _)| n == "Rules")
                {
                    options.push(("Rules".into(), rules.preset.name().into()));
                }
                for (name, value) in options {
                    self.send(&format!("setoption name {name} value {value}"))?;
                }
                self.ready()
            }
            (Proto::Otep, _) => {
                self.expect(STARTUP_TIME, "hello", |l| (l == "hello").then_some(()))?;
                let start = Position::start(rules);
                let text = crate::protocol::otep::rules_string(&rules, start.board());
                self.send(&format!("rules {text}"))
            }
            (Proto::Htp, None) => {
                self.send("name")?;
                self.htp_reply(STARTUP_TIME, "reply to 'name'")?;
                Ok(())
            }
            // A light-server client says nothing until asked for a move.
            (Proto::Htp, Some(_)) => Ok(()),
        }
    }

    fn ready(&mut self) -> Result<(), Fault> {
        self.send("isready")?;
        self.expect(STARTUP_TIME, "readyok", |l| (l == "readyok").then_some(()))
    }

    /// Prepares a game whose opening is the moves that led to `start`.
    pub fn new_game(&mut self, start: &Position, tc: &TimeControl) -> Result<(), Fault> {
        match (self.spec.proto, self.spec.listen) {
            (Proto::Uci, _) => {
                self.send("ucinewgame")?;
                self.ready()
            }
            (Proto::Otep, _) => {
                if start.plies() > 0 {
                    self.send(&format!("position {}", to_opentafl(start.board())))?;
                }
                Ok(())
            }
            (Proto::Htp, listen) => {
                if listen.is_none() {
                    let setting = match tc.clock {
                        // The protocol's clock is whole minutes and seconds.
                        Some((base, inc))
                            if base.as_secs() % 60 == 0
                                && base.subsec_nanos() == 0
                                && inc.subsec_nanos() == 0 =>
                        {
                            format!(
                                "time_settings fischer {} {}",
                                base.as_secs() / 60,
                                inc.as_secs()
                            )
                        }
                        _ => "time_settings un-timed".to_string(),
                    };
                    self.send(&setting)?;
                    // Some engines do not know the command; that is theirs to ignore.
                    let _ = self.htp_reply(STARTUP_TIME, "reply to time_settings");
                }
                let mut replay = Position::start(*start.rules());
                for mv in start.moves().collect::<Vec<_>>() {
                    let captured = replay.play(mv);
                    self.tell(mv, captured, &replay)?;
                }
                Ok(())
            }
        }
    }

    /// The opponent played `mv`, taking `captured`; `after` is the game after it.
    pub fn tell(&mut self, mv: Move, captured: Bitboard, after: &Position) -> Result<(), Fault> {
        let mover = after.side_to_move().opponent();
        match (self.spec.proto, self.spec.listen) {
            // The whole game goes with each request.
            (Proto::Uci, _) => Ok(()),
            (Proto::Otep, _) => self.send(&format!(
                "opponent-move {} {}",
                record_move(mv, captured),
                to_opentafl(after.board())
            )),
            (Proto::Htp, None) => {
                self.send(&format!("play {} {} {}", role(mover), mv.from(), mv.to()))?;
                self.htp_reply(STARTUP_TIME, &format!("acceptance of {mv:?}"))
                    .map_err(|f| {
                        self.tainted = true;
                        match f {
                            Fault::Forfeit(Forfeit::ProtocolError, e) => {
                                Fault::protocol(format!("refused the legal move: {e}"))
                            }
                            other => other,
                        }
                    })?;
                Ok(())
            }
            (Proto::Htp, Some(_)) => {
                self.send(&format!("play {} {} {}", role(mover), mv.from(), mv.to()))
            }
        }
    }

    /// Asks for a move in `pos` and waits for it until `deadline`. The move text is returned
    /// unchecked: the referee judges it.
    pub fn ask(
        &mut self,
        pos: &Position,
        tc: &TimeControl,
        clocks: Clocks,
        deadline: Instant,
    ) -> Result<Option<Answer>, Fault> {
        let side = pos.side_to_move();
        let ms = |d: Duration| d.as_millis();
        let answer = match (self.spec.proto, self.spec.listen) {
            (Proto::Uci, _) => {
                let moves: Vec<String> = pos.moves().map(|m| m.to_string()).collect();
                let mut line = "position startpos".to_string();
                if !moves.is_empty() {
                    line += " moves ";
                    line += &moves.join(" ");
                }
                self.send(&line)?;
                let mut go = "go".to_string();
                if let Some(([a, d], [ai, di])) = clocks.both(side) {
                    go += &format!(
                        " wtime {} btime {} winc {} binc {}",
                        ms(a),
                        ms(d),
                        ms(ai),
                        ms(di)
                    );
                }
                if let Some(t) = tc.movetime {
                    go += &format!(" movetime {}", ms(t));
                }
                if let Some(n) = tc.nodes {
                    go += &format!(" nodes {n}");
                }
                if let Some(d) = tc.depth {
                    go += &format!(" depth {d}");
                }
                self.send(&go)?;
                self.wait_for(deadline, |l| {
                    let mut w = l.split_whitespace();
                    (w.next() == Some("bestmove")).then(|| w.next().unwrap_or("").to_string())
                })
            }
            (Proto::Otep, _) => {
                if let Some(([a, d], _)) = clocks.both(side) {
                    self.send(&format!("clock {} {} 0 0 0 ", ms(a), ms(d)))?;
                }
                self.send(&format!(
                    "play {}",
                    match side {
                        Side::Attackers => "attackers",
                        Side::Defenders => "defenders",
                    }
                ))?;
                self.wait_for(deadline, |l| {
                    let mut w = l.split_whitespace();
                    (w.next() == Some("move")).then(|| {
                        // OpenTafl may prefix the piece letter: `Td1-d3` (but `k8-f8` is a
                        // square on file k).
                        let m = w.next().unwrap_or("");
                        let mut c = m.chars();
                        match (c.next(), c.next()) {
                            (Some(p), Some(f)) if p.is_alphabetic() && f.is_alphabetic() => {
                                m[p.len_utf8()..].to_string()
                            }
                            _ => m.to_string(),
                        }
                    })
                })
            }
            (Proto::Htp, listen) => {
                self.send(&format!("generate_move {}", role(side)))?;
                let server = listen.is_some();
                self.wait_for(deadline, |l| {
                    // `= play attacker d1 d3, score: ...` on stdin; a bare `play ...` as a
                    // light-server client.
                    let body = if server {
                        l
                    } else if let Some(err) = l.strip_prefix('?') {
                        return Some(format!("?{err}"));
                    } else {
                        l.strip_prefix('=')?.trim_start()
                    };
                    let body = body.split(',').next().unwrap_or("");
                    let w: Vec<&str> = body.split_whitespace().collect();
                    match w.as_slice() {
                        // The reference engine resigns with `play ROLE resigns _`.
                        ["play", _, "resigns", ..] => Some("resigns".into()),
                        ["play", _, from, to] => Some(format!("{from}-{to}")),
                        _ if server => None,
                        _ => Some(body.to_string()),
                    }
                })
            }
        };
        match answer {
            Ok((text, at)) => Ok(Some(Answer { text, at })),
            Err(Some(fault)) => Err(fault),
            Err(None) => {
                self.tainted = true;
                Ok(None)
            }
        }
    }

    /// Reads a move the engine sent, or says why it is not one.
    pub fn read_move(text: &str) -> Result<Move, String> {
        if text.is_empty() {
            return Err("an empty move".into());
        }
        parse_record_move(text)
            .map(|r| r.mv)
            .map_err(|e| e.to_string())
    }

    /// The engine's own move was accepted; `after` is the game after it.
    pub fn accepted(&mut self, after: &Position) -> Result<(), Fault> {
        match self.spec.proto {
            Proto::Otep => self.send(&format!("move {}", to_opentafl(after.board()))),
            _ => Ok(()),
        }
    }

    /// The game is over; tell the engine so if its protocol has words for it.
    pub fn finish(&mut self, outcome: Option<Outcome>) {
        let _ = match self.spec.proto {
            Proto::Uci => Ok(()),
            Proto::Otep => {
                let code = match outcome.map(|o| o.winner) {
                    None => 0,
                    Some(None) => 1,
                    Some(Some(Side::Attackers)) => 2,
                    Some(Some(Side::Defenders)) => 3,
                };
                self.send(&format!("finish {code}"))
                    .and_then(|_| self.send("goodbye"))
            }
            Proto::Htp => self.send("quit"),
        };
    }

    /// Gives the engine a moment to leave by itself, then kills what is left of it.
    fn shut_down(&mut self) {
        if self.spec.proto == Proto::Uci
            && !self.tainted
            && matches!(self.child.try_wait(), Ok(None))
        {
            let _ = self.send("quit");
            let until = Instant::now() + Duration::from_millis(200);
            while Instant::now() < until && matches!(self.child.try_wait(), Ok(None)) {
                std::thread::sleep(Duration::from_millis(5));
            }
        }
        kill_tree(&mut self.child);
    }
}

impl Drop for Player {
    fn drop(&mut self) {
        self.shut_down();
    }
}

/// Kills the engine's process group (the engine and anything it started) and reaps it.
fn kill_tree(child: &mut Child) {
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

/// Writes lines to the engine until it stops taking them or the player is gone.
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

/// Starts a light-server client and takes its connection on `addr`.
fn accept_engine(
    spec: &EngineSpec,
    addr: std::net::SocketAddr,
    stop: &AtomicBool,
) -> Result<(Child, TcpStream), Fault> {
    let mut listeners = LISTENERS.lock().unwrap_or_else(|e| e.into_inner());
    if !listeners.iter().any(|(a, _)| *a == addr) {
        let listener = TcpListener::bind(addr)
            .map_err(|e| Fault::crash(format!("cannot listen on {addr}: {e}")))?;
        listener
            .set_nonblocking(true)
            .map_err(|e| Fault::crash(format!("listener: {e}")))?;
        listeners.push((addr, listener));
    }
    let listener = &listeners.iter().find(|(a, _)| *a == addr).expect("bound").1;
    // A connection left over from an engine that was given up on is not this engine's.
    while listener.accept().is_ok() {}
    let mut child = spawn(spec, false).map_err(Fault::crash)?;
    let deadline = Instant::now() + STARTUP_TIME;
    loop {
        match listener.accept() {
            Ok((stream, _)) => {
                let _ = stream.set_nonblocking(false);
                let _ = stream.set_nodelay(true);
                return Ok((child, stream));
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
            Err(e) => return Err(Fault::crash(format!("accept on {addr}: {e}"))),
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
