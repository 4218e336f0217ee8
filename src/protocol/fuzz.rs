//! Protocol fuzzing in process (`hnefi fuzz`): random, mutated and hostile lines through a
//! protocol loop, counting panics and hangs.
//!
//! Lines are handed to the loop over a rendezvous channel, so that handing over line `i + 1`
//! waits until the loop has finished line `i` (or, for the loops that read on while they
//! search, until no more than a bounded few lines wait before it): a line whose handling
//! outlasts the deadline is a hang. A hung or dead loop is abandoned (it ends by itself once its line is done and it
//! finds its input closed) and a fresh one takes the following lines. Line `i` depends only on
//! the seed and `i`, so any failure can be replayed.

use crate::protocol::{Input, LoopSettings, Output, Protocol, run};
use crate::splitmix::{SplitMix64, spread};
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::sync_channel;
use std::sync::{Arc, Mutex, Once};
use std::time::{Duration, Instant};

/// What to fuzz, and how hard.
#[derive(Clone, Debug)]
pub struct Config {
    pub protocol: Protocol,
    pub lines: u64,
    pub seed: u64,
    /// A line not handled within this is a hang.
    pub deadline: Duration,
    /// The node cap of every search (`--nodes`), so that fuzzing tests robustness, not thought.
    pub max_nodes: u64,
}

/// What a fuzzing run found.
#[derive(Clone, Debug)]
pub struct Report {
    pub protocol: Protocol,
    /// Lines handed to a protocol loop.
    pub lines: u64,
    pub elapsed: Duration,
    /// Panics on any thread while the run went on.
    pub panics: u64,
    pub hangs: u64,
    /// Fresh loops started because one ended: after a panic, a hang or an accidental `quit`.
    pub restarts: u64,
    /// The last loop answered a probe after the last line and then ended when told to.
    pub alive: bool,
    /// The first failures, each with the line that caused it (or was being handled).
    pub failures: Vec<String>,
}

impl Report {
    pub fn clean(&self) -> bool {
        self.panics == 0 && self.hangs == 0 && self.alive
    }
}

/// How many failures a report keeps the details of.
const KEEP: usize = 10;

static PANICS: AtomicU64 = AtomicU64::new(0);
/// The line a fuzzing run is on, for panic messages (the last run to set it, if several run).
static CURRENT_LINE: AtomicU64 = AtomicU64::new(u64::MAX);
static PANIC_NOTES: Mutex<Vec<String>> = Mutex::new(Vec::new());
static HOOK: Once = Once::new();

/// Counts every panic of the process from now on, whatever thread it happens on (searches
/// run on threads of their own), and then lets the usual hook print it.
fn count_panics() {
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            PANICS.fetch_add(1, Ordering::SeqCst);
            let mut notes = PANIC_NOTES.lock().unwrap_or_else(|e| e.into_inner());
            if notes.len() < KEEP {
                notes.push(format!(
                    "panic while line {} was handled: {info}",
                    CURRENT_LINE.load(Ordering::Relaxed)
                ));
            }
            drop(notes);
            previous(info);
        }));
    });
}

/// Output that keeps only its last bytes, enough to find the answer to a probe.
#[derive(Clone, Default)]
struct Tail(Arc<Mutex<Vec<u8>>>);

const TAIL: usize = 1 << 16;

impl Write for Tail {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut tail = self.0.lock().unwrap_or_else(|e| e.into_inner());
        tail.extend_from_slice(buf);
        if tail.len() > 2 * TAIL {
            let cut = tail.len() - TAIL;
            tail.drain(..cut);
        }
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Tail {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap_or_else(|e| e.into_inner())).into_owned()
    }
    fn clear(&self) {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).clear();
    }
}

/// Line `i`'s random numbers come from `(seed, i)` alone.
struct Rng(SplitMix64);

impl Rng {
    fn for_line(seed: u64, i: u64) -> Rng {
        let mut r = SplitMix64::new(seed ^ spread(i));
        r.next_u64();
        Rng(r)
    }
    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

const UCI: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "position startpos",
    "position startpos moves d1d3 f4f3 h1h3",
    "position startpos moves d1d3 f4f3 h1h3 e4e3 g1g3",
    "position fen 3aaaaa3/5a5/11/a4d4a/a3ddd3a/aa1ddkdd1aa/a3ddd3a/a4d4a/11/5a5/3aaaaa3 a",
    "position fen 11/11/11/11/11/11/11/11/11/5a5/1k3a5 d moves b1a1",
    "position fen 11/11/11/11/8add/8dk1/9dd/11/11/11/11 d moves j6k6",
    "position fen 3aaaaa3/5a5/5d5/a3ddd3a/a3ddd3a/aa1ddkdd1aa/a3ddd3a/a4d4a/11/5a5/3aaaaa3 d",
    "go depth 1",
    "go depth 3",
    "go nodes 200",
    "go movetime 1",
    "go wtime 10 btime 10 winc 0 binc 0",
    "go infinite",
    "go ponder wtime 100 btime 100",
    "go searchmoves d1d3 h1h3 depth 2",
    "go perft 1",
    "go perft 2",
    "stop",
    "ponderhit",
    "setoption name Hash value 1",
    "setoption name Hash value 2",
    "setoption name Threads value 1",
    "setoption name Threads value 2",
    "setoption name MultiPV value 2",
    "setoption name Rules value fetlar",
    "setoption name Rules value copenhagen",
    "setoption name Move Overhead value 0",
    "setoption name Ponder value true",
    "setoption name Clear Hash",
    "setoption name UCI_Variant value brandubh",
    "setoption name Rules value tablut",
    "setoption name Rules value copenhagen-13",
    "setoption name Rules value dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
    "position fen 3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 d moves d3a3",
    "position fen 3aaa3/4a4/4d4/a3d3a/aaddkddaa/a3d3a/4d4/4a4/3aaa3 a moves d1d3",
    "position fen 3aaaaaaa3/6a6/13/a5d5a/a5d5a/a4ddd4a/aa1dddkddd1aa/a4ddd4a/a5d5a/a5d5a/13/6a6/3aaaaaaa3 a moves m4l4",
    "d",
    "eval",
];

const OTEP: &[&str] = &[
    "rules dim:11 name:Copenhagen atkf:y tfr:w sw:s efe:y start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/",
    "rules dim:11 name:Fetlar atkf:y tfr:d sw:n efe:n start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/",
    "rules dim:11 name:Copenhagen atkf:y start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t3TTT3t/5T5/5t5/3ttttt3/",
    "position /3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/",
    "position /11/11/11/11/9TT/9KT/9Tt/11/11/11/11/",
    "side attackers",
    "side defenders",
    "clock 5 5 0 0 0 ",
    "clock 300000 300000 0 0 0 ",
    "clock 1800* 2000 0 0 0 ",
    "play attackers",
    "play defenders",
    "opponent-move d1-d3 /3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/",
    "opponent-move e5-e2 /3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/",
    "move /3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/",
    "analyze 1 1",
    "analyze 3 2",
    "error 3",
    "finish 2",
    "hello",
];

const HTP: &[&str] = &[
    "time_settings fischer 0 0",
    "time_settings fischer 1 1",
    "time_settings un-timed",
    "protocol_version",
    "name",
    "version",
    "known_command play",
    "board_size 11",
    "first_move",
    "play attacker d1 d3",
    "play defender f4 f3",
    "play attacker e1 e3 # comment",
    "play defender e5 e2",
    "play attacker resigns",
    "generate_move",
    "generate_move",
    // As many takebacks as moves: the host cannot start a new game, and a game that has ended
    // would leave generate_move nothing to do.
    "play_undo",
    "play_undo",
    "play_undo",
    "play_undo",
    "play_undo",
    "play_undo",
    "play_undo",
    "play_undo",
    "final_status",
    "show_board",
    "list_commands",
];

/// Numbers a host could send, and some it should not: small, huge (past 64 bits too),
/// negative, and not numbers at all.
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "2",
    "7",
    "30",
    "999",
    "60000",
    "86400000",
    "1000000000",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999999999999",
    "-0",
    "-1",
    "-5",
    "-60000",
    "-9223372036854775808",
    "-18446744073709551615",
    "+3",
    "1.5",
    "1e9",
    "0x10",
    "ten",
    "",
];

/// A number for a hostile line: from [`NUMBERS`], or random, small or of any size.
fn number(rng: &mut Rng) -> String {
    match rng.below(4) {
        0 => rng.below(100).to_string(),
        1 => rng.next().to_string(),
        _ => rng.pick(NUMBERS).to_string(),
    }
}

/// A line that sets short, huge or negative times or limits, or asks for a search with them.
fn hostile(protocol: Protocol, rng: &mut Rng) -> String {
    let kind = rng.below(9);
    let hash = rng.below(6);
    let mut n = || number(rng);
    match protocol {
        Protocol::Uci => match kind {
            0 => format!("go wtime {} btime {} winc {} binc {}", n(), n(), n(), n()),
            1 => format!("go wtime {} btime {} movestogo {}", n(), n(), n()),
            2 => format!("go atime {} dtime {} ainc {} dinc {}", n(), n(), n(), n()),
            3 => format!("go movetime {}", n()),
            4 => format!("go nodes {} depth {}", n(), n()),
            5 => format!("go perft {}", n()),
            6 => format!("setoption name Move Overhead value {}", n()),
            7 => format!("setoption name MultiPV value {}", n()),
            // Hash sizes that are refused or tiny: a valid large one would fill memory.
            _ => format!(
                "setoption name Hash value {}",
                ["0", "-1", "1", "3", "65537", "18446744073709551616"][hash]
            ),
        },
        Protocol::Htp => match kind % 3 {
            0 => format!("time_settings fischer {} {}", n(), n()),
            1 => "generate_move".to_string(),
            _ => format!("time_settings fischer {} {}\ngenerate_move", n(), n()),
        },
        Protocol::Otep => match kind % 4 {
            0 => format!("clock {} {} {} {} {} ", n(), n(), n(), n(), n()),
            1 => format!("clock {}* {} 0 0 0", n(), n()),
            2 => format!("analyze {} {}", n(), n()),
            _ => "play defenders".to_string(),
        },
    }
}

/// The largest table a fuzz line may ask for. Mutations of valid and hostile lines ask for
/// gigabytes now and then (`Hash value 6537`), which the table would take and fill: a fuzz
/// must not eat the machine's memory. Failing allocations have tests of their own.
const MAX_HASH_MB: u64 = 64;

/// Line `i` of a run: a valid command, a hostile one, a mutation of either, or random bytes.
/// A hostile line may hold a newline; it is then two lines for the loop, handed over at once.
pub fn line(protocol: Protocol, seed: u64, i: u64) -> String {
    let text = any_line(protocol, seed, i);
    if protocol == Protocol::Uci
        && text
            .split('\n')
            .any(|l| crate::protocol::uci::hash_request(l).is_some_and(|mb| mb > MAX_HASH_MB))
    {
        // Above the option's range: refused before any allocation.
        return "setoption name Hash value 65537".to_string();
    }
    text
}

fn any_line(protocol: Protocol, seed: u64, i: u64) -> String {
    let corpus = match protocol {
        Protocol::Uci => UCI,
        Protocol::Otep => OTEP,
        Protocol::Htp => HTP,
    };
    let mut rng = Rng::for_line(seed, i);
    let base = |rng: &mut Rng| {
        if rng.below(3) == 0 {
            hostile(protocol, rng)
        } else {
            rng.pick(corpus).to_string()
        }
    };
    match rng.below(20) {
        0..=6 => rng.pick(corpus).to_string(),
        7..=9 => hostile(protocol, &mut rng),
        10..=15 => {
            let mut bytes = base(&mut rng).into_bytes();
            for _ in 0..1 + rng.below(3) {
                let at = rng.below(bytes.len() + 1);
                let byte = rng.next() as u8;
                match rng.below(6) {
                    0 if at < bytes.len() => bytes[at] = byte,
                    1 if at < bytes.len() => {
                        bytes.remove(at);
                    }
                    2 => bytes.insert(at, byte),
                    3 => bytes.insert(at, b"0123456789- "[rng.below(12)]),
                    4 => {
                        // A word of another valid line spliced in.
                        let other = rng.pick(corpus);
                        let words: Vec<&str> = other.split(' ').collect();
                        let word = words[rng.below(words.len())];
                        bytes.splice(at..at, format!(" {word}").into_bytes());
                    }
                    _ => bytes.truncate(at),
                }
            }
            String::from_utf8_lossy(&bytes).into_owned()
        }
        _ => {
            let n = rng.below(60);
            let printable = rng.below(2) == 0;
            let bytes: Vec<u8> = (0..n)
                .map(|_| {
                    let b = rng.next() as u8;
                    if printable { b % 95 + 32 } else { b }
                })
                .collect();
            String::from_utf8_lossy(&bytes).into_owned()
        }
    }
}

/// A protocol loop being fed, on threads of its own.
struct Instance {
    loop_thread: std::thread::JoinHandle<()>,
    feeder: std::thread::JoinHandle<()>,
    out: Tail,
    /// The last line taken by the loop (u64::MAX before the first) and when, in ns from `t0`.
    taken: Arc<AtomicU64>,
    taken_at: Arc<AtomicU64>,
    /// The feeder gave every line to the loop, or found it gone.
    fed: Arc<AtomicBool>,
    loop_gone: Arc<AtomicBool>,
    cancel: Arc<AtomicBool>,
    /// Final lines after the fuzz, sent by the harness itself.
    tail_tx: Arc<Mutex<Option<std::sync::mpsc::SyncSender<Input>>>>,
}

/// How a stretch of lines through one loop ended.
enum Stretch {
    Done,
    /// The loop ended before its lines did (a panic, or a `quit` among them).
    Gone,
    Hung(u64),
}

fn nanos_since(t0: Instant) -> u64 {
    t0.elapsed().as_nanos().min(u64::MAX as u128) as u64
}

impl Instance {
    fn start(config: &Config, from: u64, t0: Instant) -> Instance {
        let (tx, rx) = sync_channel::<Input>(0);
        let out = Tail::default();
        let output = Output::new(Box::new(out.clone()));
        let settings = LoopSettings {
            move_time: Some(Duration::from_millis(5)),
            max_nodes: Some(config.max_nodes),
            ..LoopSettings::default()
        };
        let protocol = config.protocol;
        let loop_thread = std::thread::spawn(move || run(Some(protocol), rx, output, settings));
        let taken = Arc::new(AtomicU64::new(u64::MAX));
        let taken_at = Arc::new(AtomicU64::new(nanos_since(t0)));
        let fed = Arc::new(AtomicBool::new(false));
        let loop_gone = Arc::new(AtomicBool::new(false));
        let cancel = Arc::new(AtomicBool::new(false));
        let tail_tx = Arc::new(Mutex::new(None));
        let feeder = {
            let (taken, taken_at, fed, loop_gone, cancel, tail_tx) = (
                taken.clone(),
                taken_at.clone(),
                fed.clone(),
                loop_gone.clone(),
                cancel.clone(),
                tail_tx.clone(),
            );
            let (lines, seed) = (config.lines, config.seed);
            std::thread::spawn(move || {
                for i in from..lines {
                    if cancel.load(Ordering::Relaxed) {
                        return;
                    }
                    let text = line(protocol, seed, i);
                    for part in text.split('\n') {
                        if tx.send(Input::Line(part.to_string())).is_err() {
                            loop_gone.store(true, Ordering::SeqCst);
                            fed.store(true, Ordering::SeqCst);
                            return;
                        }
                    }
                    taken_at.store(nanos_since(t0), Ordering::SeqCst);
                    taken.store(i, Ordering::SeqCst);
                    CURRENT_LINE.store(i, Ordering::Relaxed);
                }
                *tail_tx.lock().unwrap_or_else(|e| e.into_inner()) = Some(tx);
                fed.store(true, Ordering::SeqCst);
            })
        };
        Instance {
            loop_thread,
            feeder,
            out,
            taken,
            taken_at,
            fed,
            loop_gone,
            cancel,
            tail_tx,
        }
    }

    /// Watches the feeding until every line is given, the loop is gone or a line hangs.
    fn watch(&self, config: &Config, t0: Instant, progress: &mut dyn FnMut(u64)) -> Stretch {
        let deadline = config.deadline.as_nanos().min(u64::MAX as u128) as u64;
        loop {
            if self.fed.load(Ordering::SeqCst) {
                return if self.loop_gone.load(Ordering::SeqCst) {
                    Stretch::Gone
                } else {
                    Stretch::Done
                };
            }
            let since = self.taken_at.load(Ordering::SeqCst);
            let taken = self.taken.load(Ordering::SeqCst);
            if nanos_since(t0).saturating_sub(since) > deadline && !self.fed.load(Ordering::SeqCst)
            {
                self.cancel.store(true, Ordering::SeqCst);
                return Stretch::Hung(taken);
            }
            if taken != u64::MAX {
                progress(taken + 1);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// The probe that shows a loop still answers, what it answers, and how it is told to end.
fn probe(protocol: Protocol) -> (&'static str, &'static str, &'static str) {
    match protocol {
        Protocol::Uci => ("isready", "readyok", "quit"),
        Protocol::Htp => ("name", "= hnefi", "quit"),
        Protocol::Otep => ("probe", "unknown command 'probe'", "goodbye"),
    }
}

fn note(report: &mut Report, text: String) {
    if report.failures.len() < KEEP {
        report.failures.push(text);
    }
}

/// Runs `config.lines` lines through fresh protocol loops; `progress` hears how many lines
/// were handled so far, now and then.
pub fn fuzz(config: &Config, progress: &mut dyn FnMut(u64)) -> Report {
    count_panics();
    let panics_before = PANICS.load(Ordering::SeqCst);
    let notes_before = PANIC_NOTES.lock().unwrap_or_else(|e| e.into_inner()).len();
    let t0 = Instant::now();
    let mut report = Report {
        protocol: config.protocol,
        lines: 0,
        elapsed: Duration::ZERO,
        panics: 0,
        hangs: 0,
        restarts: 0,
        alive: false,
        failures: Vec::new(),
    };
    let mut from = 0;
    let instance = loop {
        let instance = Instance::start(config, from, t0);
        match instance.watch(config, t0, progress) {
            Stretch::Done => break instance,
            Stretch::Gone => {
                // The line after the last one taken was not delivered: it goes to the next
                // loop. Each restart moves on by at least one line.
                let last = instance.taken.load(Ordering::SeqCst);
                from = if last == u64::MAX { from + 1 } else { last + 1 };
                report.restarts += 1;
                log::info!("fuzz: the loop ended after line {last}; starting another");
            }
            Stretch::Hung(last) => {
                report.hangs += 1;
                let what = if last == u64::MAX {
                    "the loop took no line at all".to_string()
                } else {
                    let text = line(config.protocol, config.seed, last);
                    format!("line {last} ({text:?}) still running")
                };
                note(
                    &mut report,
                    format!("hang: {what} after {:?}", config.deadline),
                );
                // The hung loop and its feeder are left to end on their own.
                from = if last == u64::MAX { from + 1 } else { last + 1 };
                report.restarts += 1;
            }
        }
        if from >= config.lines {
            break Instance::start(config, config.lines, t0);
        }
    };
    report.lines = config.lines;
    // The feeder is done; end the fuzz with the probe, then the protocol's own way to end.
    let _ = instance.feeder.join();
    let tx = instance
        .tail_tx
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .take();
    let (ask, answer, end) = probe(config.protocol);
    if let Some(tx) = tx {
        let wait = Instant::now();
        let out = instance.out.clone();
        let sent = std::thread::spawn(move || {
            // The output is cleared after the last fuzz line is taken and before the probe is
            // sent, so that an answer found afterwards is the probe's.
            let mut ok = tx.send(Input::Line("stop".into())).is_ok();
            out.clear();
            for l in [ask, "", end] {
                ok = ok && tx.send(Input::Line(l.to_string())).is_ok();
            }
            drop(tx);
            ok
        });
        while !(sent.is_finished() && instance.loop_thread.is_finished())
            && wait.elapsed() < config.deadline
        {
            std::thread::sleep(Duration::from_millis(10));
        }
        let answered = instance.out.text().contains(answer);
        let ended = instance.loop_thread.is_finished();
        report.alive = answered && ended && sent.join().unwrap_or(false);
        if !report.alive {
            report.hangs += u64::from(!ended);
            note(
                &mut report,
                format!(
                    "after the last line: probe {ask:?} {} and the loop {}",
                    if answered { "answered" } else { "not answered" },
                    if ended { "ended" } else { "did not end" }
                ),
            );
        } else {
            let _ = instance.loop_thread.join();
        }
    }
    instance.out.clear();
    report.elapsed = t0.elapsed();
    report.panics = PANICS.load(Ordering::SeqCst) - panics_before;
    let notes = PANIC_NOTES.lock().unwrap_or_else(|e| e.into_inner());
    for n in notes.iter().skip(notes_before) {
        note(&mut report, n.clone());
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_depend_only_on_seed_and_index() {
        for p in [Protocol::Uci, Protocol::Otep, Protocol::Htp] {
            for i in 0..200 {
                assert_eq!(line(p, 7, i), line(p, 7, i));
            }
            let distinct: std::collections::HashSet<String> =
                (0..200).map(|i| line(p, 7, i)).collect();
            assert!(distinct.len() > 100, "{p:?}");
        }
        // Hostile numbers do come: negative and past 64 bits.
        let many: String = (0..2000).map(|i| line(Protocol::Htp, 1, i)).collect();
        assert!(many.contains("fischer -") && many.contains("18446744073709551616"));
        // But never a table that would fill the memory.
        for i in 0..200_000 {
            let l = line(Protocol::Uci, 1, i);
            assert!(
                crate::protocol::uci::hash_request(&l)
                    .is_none_or(|mb| mb <= MAX_HASH_MB || mb > 65536),
                "{l}"
            );
        }
        assert_eq!(
            crate::protocol::uci::hash_request("setoption name HASH value 6537"),
            Some(6537)
        );
        assert_eq!(
            crate::protocol::uci::hash_request("setoption name Hash"),
            None
        );
    }
}
