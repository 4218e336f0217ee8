//! 100,000 random and mutated lines through each protocol loop, in process: no panic, no hang,
//! and the loop still answers afterwards. Then `hnefi::protocol::fuzz` (what `hnefi fuzz` runs) with
//! searches among the lines: `go` (UCI), `generate_move` (text protocol) and `analyze` and
//! `play` (OpenTafl), under short, huge and negative times and limits, mixed with valid,
//! mutated and random lines; every search is capped at a few hundred nodes so that it ends
//! at once, and the deadline for a line is a minute, only to catch a real hang.

use hnefi::protocol::fuzz::{Config, fuzz as fuzz_lines};
use hnefi::protocol::{Input, LoopSettings, Output, Protocol, run};
use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::Duration;

#[derive(Clone, Default)]
struct Sink(Arc<Mutex<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

const CORPUS: &[&str] = &[
    "uci",
    "isready",
    "ucinewgame",
    "position startpos",
    "position startpos moves d1d3 f4f3 h1h3",
    "position fen 3aaaaa3/5a5/11/a4d4a/a3ddd3a/aa1ddkdd1aa/a3ddd3a/a4d4a/11/5a5/3aaaaa3 a",
    "position fen 11/11/11/11/11/11/11/11/11/5a5/1k3a5 d moves b1a1",
    "go depth 1",
    "go nodes 200",
    "go movetime 1",
    "go wtime 10 btime 10 winc 0 binc 0",
    "go perft 1",
    "stop",
    "ponderhit",
    "setoption name Hash value 1",
    "setoption name Threads value 1",
    "setoption name MultiPV value 2",
    "setoption name Rules value fetlar",
    "setoption name Move Overhead value 0",
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

const OTEP_CORPUS: &[&str] = &[
    "clock 5 5 0 0 0 ",
    "rules dim:11 name:Copenhagen atkf:y tfr:w sw:s efe:y start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/",
    "position /3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/",
    "side attackers",
    "opponent-move d1-d3 /3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/",
    "move /3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/",
    "error 3",
    "finish 2",
    "hello",
];

const HTP_CORPUS: &[&str] = &[
    "time_settings fischer 0 0",
    "protocol_version",
    "name",
    "known_command play",
    "board_size 11",
    "play attacker d1 d3",
    "play defender f4 f3",
    "play attacker e1 e3 # comment",
    "play_undo",
    "final_status",
    "show_board",
    "list_commands",
];

#[test]
fn hundred_thousand_lines_never_break_the_uci_loop() {
    fuzz(Protocol::Uci, CORPUS, "isready", "readyok");
}

#[test]
fn hundred_thousand_lines_never_break_the_opentafl_loop() {
    fuzz(
        Protocol::Otep,
        OTEP_CORPUS,
        "probe",
        "unknown command 'probe'",
    );
}

#[test]
fn hundred_thousand_lines_never_break_the_text_protocol_loop() {
    fuzz(Protocol::Htp, HTP_CORPUS, "name", "= hnefi");
}

/// Fuzzes `protocol` with the library's lines, searches and hostile times included.
fn fuzz_with_searches(protocol: Protocol, lines: u64) {
    let report = fuzz_lines(
        &Config {
            protocol,
            lines,
            seed: 0x5EED,
            deadline: Duration::from_secs(60),
            max_nodes: 200,
        },
        &mut |_| {},
    );
    assert!(report.clean(), "{report:#?}");
    assert_eq!(report.lines, lines);
    assert_eq!(report.restarts, 0, "{report:#?}");
}

#[test]
fn uci_go_under_short_huge_and_negative_clocks() {
    fuzz_with_searches(Protocol::Uci, 10_000);
}

#[test]
fn opentafl_play_and_analyze_under_short_huge_and_negative_clocks() {
    fuzz_with_searches(Protocol::Otep, 8_000);
}

#[test]
fn text_protocol_generate_move_under_short_huge_and_negative_clocks() {
    fuzz_with_searches(Protocol::Htp, 20_000);
}

#[test]
fn the_lines_hold_the_hostile_times_they_promise() {
    let text = |p: Protocol| -> String {
        (0..5_000)
            .map(|i| hnefi::protocol::fuzz::line(p, 0x5EED, i) + "\n")
            .collect()
    };
    let uci = text(Protocol::Uci);
    for needle in [
        "go wtime",
        "go movetime",
        "go perft",
        " 18446744073709551615 ",
        "btime -",
        "Hash value 65537",
    ] {
        assert!(uci.contains(needle), "{needle}");
    }
    let htp = text(Protocol::Htp);
    for needle in ["time_settings fischer 1 ", "fischer -", "generate_move"] {
        assert!(htp.contains(needle), "{needle}");
    }
    let otep = text(Protocol::Otep);
    for needle in ["clock -", "analyze ", "play defenders"] {
        assert!(otep.contains(needle), "{needle}");
    }
}

/// Sends the corpus's first line, then 100,000 lines, then `probe`, and expects `answer`
/// among the output after it, then the protocol's own way to end.
fn fuzz(protocol: Protocol, corpus: &[&str], probe: &str, answer: &str) {
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let (tx, rx) = std::sync::mpsc::channel();
    let sink = Sink::default();
    let out = Output::new(Box::new(sink.clone()));
    let engine = std::thread::spawn(move || run(Some(protocol), rx, out, LoopSettings::default()));
    tx.send(Input::Line(corpus[0].to_string()))
        .expect("loop alive");
    for _ in 0..100_000 {
        let r = next();
        let line = match r % 4 {
            // A valid command.
            0 => corpus[(r >> 8) as usize % corpus.len()].to_string(),
            // A mutated one: a byte changed, dropped or inserted, or the line cut short.
            1 | 2 => {
                let mut bytes = corpus[(r >> 8) as usize % corpus.len()].as_bytes().to_vec();
                let at = (r >> 20) as usize % (bytes.len() + 1);
                match (r >> 40) % 4 {
                    0 if at < bytes.len() => bytes[at] = (r >> 48) as u8,
                    1 if at < bytes.len() => {
                        bytes.remove(at);
                    }
                    2 => bytes.insert(at, (r >> 48) as u8),
                    _ => bytes.truncate(at),
                }
                String::from_utf8_lossy(&bytes).into_owned()
            }
            // Random bytes.
            _ => {
                let n = (r >> 8) as usize % 40;
                (0..n)
                    .map(|i| ((r >> (i % 56)) as u8 % 95 + 32) as char)
                    .collect()
            }
        };
        // "go infinite" and "go ponder" variants could run until stopped; the next go or
        // position stops them, and so does the final quit.
        tx.send(Input::Line(line)).expect("loop alive");
    }
    let before = sink.0.lock().unwrap().len();
    tx.send(Input::Line("stop".into())).expect("loop alive");
    tx.send(Input::Line(probe.into())).expect("loop alive");
    for _ in 0..600 {
        let text = String::from_utf8_lossy(&sink.0.lock().unwrap()[before..]).into_owned();
        if text.contains(answer) {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let end = match protocol {
        Protocol::Otep => "goodbye",
        _ => "quit",
    };
    tx.send(Input::Line(end.into())).expect("loop alive");
    drop(tx);
    // The loop must end by itself after quit: poll rather than join forever.
    for _ in 0..1200 {
        if engine.is_finished() {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(engine.is_finished(), "the loop hung");
    engine.join().expect("no panic");
    let text = String::from_utf8_lossy(&sink.0.lock().unwrap()[before..]).into_owned();
    assert!(text.contains(answer), "no '{answer}' after the fuzz");
}
