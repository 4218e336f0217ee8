//! The UCI-style protocol through the real binary.

use crate::common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        Engine::from_child(common::spawn_hnefi(&[]))
    }

    /// The binary with its address space limited to `kib` KiB (a shell's `ulimit -v`), so
    /// that a large table fails to allocate on any machine, however much memory it has.
    #[cfg(unix)]
    fn start_with_address_space(kib: u64) -> Engine {
        use std::process::{Command, Stdio};
        let child = Command::new("sh")
            .arg("-c")
            .arg(format!("ulimit -v {kib} && exec \"$0\""))
            .arg(env!("CARGO_BIN_EXE_hnefi"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start hnefi under sh");
        Engine::from_child(child)
    }

    fn from_child(mut child: Child) -> Engine {
        let stdout: ChildStdout = child.stdout.take().expect("stdout");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                match line {
                    Ok(l) => {
                        if tx.send(l).is_err() {
                            break;
                        }
                    }
                    Err(_) => break,
                }
            }
        });
        Engine {
            stdin: child.stdin.take(),
            child,
            lines: rx,
        }
    }

    fn send(&mut self, text: &str) {
        let stdin = self.stdin.as_mut().expect("open stdin");
        stdin.write_all(text.as_bytes()).expect("write");
        stdin.write_all(b"\n").expect("write");
        stdin.flush().expect("flush");
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("open stdin");
        stdin.write_all(bytes).expect("write");
        stdin.flush().expect("flush");
    }

    /// Lines until one starts with `prefix` (returned last). Generous timeouts: a loaded
    /// machine is slow, but a hang must still fail.
    fn until(&mut self, prefix: &str) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(60))
                .unwrap_or_else(|_| panic!("no '{prefix}' after {seen:?}"));
            let done = line.starts_with(prefix);
            seen.push(line);
            if done {
                return seen;
            }
        }
    }

    fn ready(&mut self) {
        self.send("isready");
        self.until("readyok");
    }

    fn close(mut self) -> bool {
        drop(self.stdin.take());
        for _ in 0..600 {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status.success();
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let _ = self.child.kill();
        false
    }
}

#[test]
fn handshake_options_and_a_search() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until("uciok");
    assert!(lines[0].starts_with("id name Hnefi"));
    for opt in [
        "Hash",
        "Threads",
        "MultiPV",
        "Rules",
        "Move Overhead",
        "Ponder",
        "Clear Hash",
        "RfpMargin",
        "LmrDivisor",
        "RepetitionScore",
        "LoneKingRoom",
    ] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("option name {opt} type"))),
            "{opt}"
        );
    }
    e.ready();
    e.send("setoption name Hash value 8");
    e.send("setoption name Threads value 2");
    e.send("setoption name Rules value fetlar");
    e.send("setoption name RfpMargin value 120");
    e.send("setoption name lmrbase value -20");
    e.send("ucinewgame");
    e.send("position startpos moves d1d3 f4f3");
    e.send("go depth 4");
    let lines = e.until("bestmove");
    let info = lines
        .iter()
        .find(|l| l.starts_with("info depth 4"))
        .expect("depth 4 info");
    for field in [
        "seldepth",
        "multipv 1",
        "score cp",
        "nodes",
        "nps",
        "hashfull",
        "time",
        "pv",
    ] {
        assert!(info.contains(field), "{field} in {info}");
    }
    let best = lines.last().unwrap();
    assert!(best.len() > "bestmove ".len() && !best.contains("(none)"));
    e.send("quit");
    assert!(e.close());
}

#[test]
fn bad_input_is_reported_and_changes_nothing() {
    let mut e = Engine::start();
    e.send("uci");
    e.until("uciok");
    e.send("position startpos moves d1d3");
    e.send("d");
    let before = e.until("Status");
    let bad = [
        "frobnicate",
        "position fen 3aaaaa3/5a5 a",
        // Set up to its last legal move, d1d3: the same game.
        "position startpos moves d1d3 d3d1 e4e3",
        "position startpos moves d1d3 e5",
        "position",
        "setoption name Hash value lots",
        "setoption name Hash value 0",
        "setoption name Rules value chess",
        "setoption name Nonsense value 1",
        "setoption name RfpMargin value 1",
        "setoption name LmrBase value -9999",
        "setoption name QsearchMaxPly value deep",
        "setoption",
        "go depth",
        "go nodes x",
        "go sideways",
        "positio",
        "position startpos moves d1d3 m13m12",
        // Commands for other boards, refused before the game on this one is given up.
        "position fen 3aaa3/4a4/4d4/a3d3a/aaddkddaa/a3d3a/4d4/4a4/3aaa3 a moves e1e9",
        "position fen 3a3/3a3/3d3/aadkdaa/3d3/3a3/3a2 d",
        "position fen 13/13/13/13/13/13/13/13/13/13/13/13/13 a",
        "setoption name Rules value dim:8 start:/8/",
        "setoption name Rules value dim:7 start:/7/",
        "setoption name Rules value dim:7 start:/t2t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/",
        "setoption name Rules value dim:9 kj:y start:/9/9/9/9/9/9/9/9/4K4/",
        "setoption name UCI_Variant value dim:9",
        "setoption name UCI_Variant value tablut-13",
    ];
    for line in bad {
        e.send(line);
        let got = e.until("info string error");
        assert!(got.last().unwrap().len() > 20, "{line}: {got:?}");
    }
    // Huge line, binary junk, empty lines, a truncated line.
    e.send(&"x".repeat(2 << 20));
    e.until("info string error");
    e.send_bytes(b"\xff\xfe\x00\x01junk\n\n\n   \n");
    e.until("info string error");
    e.ready();
    e.send("d");
    let after = e.until("Status");
    assert_eq!(before, after, "position unchanged");
    e.send("go depth 2");
    e.until("bestmove");
    e.send("quit");
    assert!(e.close());
}

#[test]
fn infinite_search_waits_for_stop_and_isready_is_answered_meanwhile() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go infinite");
    e.until("info depth 1");
    std::thread::sleep(Duration::from_millis(300));
    e.send("isready");
    let lines = e.until("readyok");
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:?}"
    );
    e.send("stop");
    let lines = e.until("bestmove");
    assert!(!lines.last().unwrap().contains("(none)"));
    e.send("quit");
    assert!(e.close());
}

#[test]
fn end_of_input_mid_search_exits_cleanly() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go infinite");
    e.until("info depth 1");
    assert!(e.close());
}

#[test]
fn game_over_gives_bestmove_none_and_perft_divides() {
    let mut e = Engine::start();
    // Defenders to move with the king already on a corner: the game is over.
    e.send("position fen k10/11/11/11/11/11/11/11/11/5a5/11 a");
    e.send("go depth 3");
    assert_eq!(e.until("bestmove").last().unwrap(), "bestmove (none)");
    e.send("position startpos");
    e.send("go perft 2");
    let lines = e.until("Nodes searched");
    assert_eq!(lines.last().unwrap(), "Nodes searched: 6788");
    assert_eq!(lines.iter().filter(|l| l.contains(": ")).count(), 117);
    // The hand evaluation's terms, then what the network (the default) makes of them.
    e.send("eval");
    let lines = e.until("info string side to move (attackers), with the network");
    assert!(lines.iter().any(|l| l.starts_with("info string total ")));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string network correction"))
    );
    e.send("setoption name Eval value hand");
    e.send("eval");
    e.send("isready");
    let lines = e.until("readyok");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string side to move (attackers): "))
    );
    assert!(!lines.iter().any(|l| l.contains("network")), "{lines:?}");
    e.send("quit");
    assert!(e.close());
}

#[test]
fn multipv_lines_come_best_first() {
    let mut e = Engine::start();
    e.send("setoption name MultiPV value 3");
    e.send("position startpos moves d1d3 f4f3");
    e.send("go depth 4");
    let lines = e.until("bestmove");
    let last: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth 4 "))
        .collect();
    assert_eq!(last.len(), 3, "{lines:?}");
    let scores: Vec<i32> = last
        .iter()
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            let i = w.iter().position(|&x| x == "cp").expect("a cp score");
            w[i + 1].parse().expect("a number")
        })
        .collect();
    for (i, l) in last.iter().enumerate() {
        assert!(l.contains(&format!("multipv {}", i + 1)), "{l}");
    }
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    let best = lines.last().unwrap();
    let first_pv = last[0]
        .split(" pv ")
        .nth(1)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap();
    assert_eq!(best, &format!("bestmove {first_pv}"));
    e.send("quit");
    assert!(e.close());
}

#[test]
fn searchmoves_restricts_the_root() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go depth 3 searchmoves a4a2 k8k9");
    let best = e.until("bestmove").pop().unwrap();
    assert!(best == "bestmove a4a2" || best == "bestmove k8k9", "{best}");
    // With another word after the moves, and with no legal move listed (all moves count).
    e.send("go searchmoves h1h3 depth 2");
    assert_eq!(e.until("bestmove").pop().unwrap(), "bestmove h1h3");
    e.send("go depth 2 searchmoves a1a2");
    assert!(e.until("bestmove").pop().unwrap().starts_with("bestmove "));
    e.send("quit");
    assert!(e.close());
}

#[cfg(unix)]
#[test]
fn a_hash_that_cannot_be_allocated_is_an_error_and_the_engine_goes_on() {
    // 1.5 GiB of address space: room for the default table and the search (with the
    // allocator's per-thread arenas), not for 64 GiB, nor for 2 GiB.
    let mut e = Engine::start_with_address_space(1536 << 10);
    e.send("uci");
    e.until("uciok");
    e.ready();
    for size in ["65536", "2048"] {
        e.send(&format!("setoption name Hash value {size}"));
        let got = e.until("info string error");
        let err = got.last().unwrap();
        assert!(
            err.contains(&format!("{size} MB")) && err.contains("smaller Hash"),
            "{err}"
        );
        e.ready();
    }
    e.send("position startpos moves d1d3");
    e.send("go depth 3");
    assert!(!e.until("bestmove").last().unwrap().contains("(none)"));
    // A size that fits is still taken: no error comes before the readyok.
    e.send("setoption name Hash value 8");
    e.send("isready");
    let lines = e.until("readyok");
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
    e.send("go depth 2");
    e.until("bestmove");
    e.send("quit");
    assert!(e.close());
}

/// As fastchess's `--compliance` drives an engine: every `go`, whatever its words, ends with
/// exactly one `bestmove`, `isready` is always answered, and a `position` with an illegal move
/// is set up to the move before it, and says so.
#[test]
fn every_go_gets_one_bestmove_and_a_bad_position_stops_at_its_last_legal_move() {
    let mut e = Engine::start();
    e.send("uci");
    e.until("uciok");
    e.ready();
    e.send("ucinewgame");
    e.send("position startpos moves d1d3");
    e.send("d");
    let after_d1d3 = e.until("Status");
    e.send("position startpos moves d1d3 a1a5");
    let said = e.until("info string error");
    assert!(
        said.last().unwrap().contains("move 2 (a1a5) is illegal")
            && said
                .last()
                .unwrap()
                .contains("set up to the move before it (1 moves played)"),
        "{said:?}"
    );
    e.send("d");
    assert_eq!(e.until("Status"), after_d1d3, "the position after d1d3");
    for go in [
        "go mate 3",
        "go depth -1",
        "go movetime -5",
        "go sideways",
        "go depth",
        "go nodes 500 fast",
        "go depth 2",
        "go nodes 1000",
        "go movetime 50",
        "go wtime 1000 btime 1000 winc 10 binc 10",
        "go wtime 1000 btime 1000 movestogo 5",
        "go depth 3 searchmoves e7e9",
    ] {
        e.send(go);
        // isready is answered at once, during the search or after it.
        e.send("isready");
        let mut lines = e.until("bestmove");
        if !lines.iter().any(|l| l == "readyok") {
            lines.extend(e.until("readyok"));
        }
        let best: Vec<&String> = lines.iter().filter(|l| l.starts_with("bestmove")).collect();
        assert!(
            best.len() == 1 && !best[0].contains("(none)"),
            "{go}: {lines:?}"
        );
        // And no second bestmove comes.
        e.send("isready");
        let rest = e.until("readyok");
        assert!(
            rest.iter().all(|l| !l.starts_with("bestmove")),
            "{go}: {rest:?}"
        );
    }
    // An infinite search and a ponder search end at stop and ponderhit with one bestmove.
    e.send("go infinite");
    e.ready();
    e.send("stop");
    e.until("bestmove");
    e.send("go ponder wtime 100 btime 100");
    e.send("ponderhit");
    e.until("bestmove");
    e.ready();
    e.send("quit");
    assert!(e.close());
}

/// `bench` and `perft` in the loop, as Stockfish has them: the bench's node count is the one
/// `hnefi bench` prints at the same depth.
#[test]
fn bench_and_perft_run_inside_the_loop() {
    let mut e = Engine::start();
    e.send("bench 3");
    let mut said = String::new();
    while !said.ends_with(" nps") {
        said = e.until("").pop().unwrap();
    }
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hnefi"))
        .args(["bench", "3"])
        .output()
        .expect("hnefi bench 3");
    let native = String::from_utf8_lossy(&out.stdout);
    let nodes = |line: &str| {
        line.split_whitespace()
            .next()
            .unwrap_or_default()
            .to_string()
    };
    assert_eq!(
        nodes(&said),
        nodes(native.lines().last().unwrap()),
        "{said} / {native}"
    );
    e.send("position startpos");
    e.send("perft 2");
    assert_eq!(
        e.until("Nodes searched").last().unwrap(),
        "Nodes searched: 6788"
    );
    e.send("bench 3 4");
    assert!(
        e.until("info string error")
            .last()
            .unwrap()
            .contains("bench: unexpected word '4'")
    );
    e.ready();
    e.send("quit");
    assert!(e.close());
}

#[test]
fn huge_and_negative_numbers_in_go() {
    let mut e = Engine::start();
    e.send("position startpos");
    // A clock of 584 million years: it saturates, and the move is still quick under a node
    // limit (without one it would take the capped five minutes).
    e.send("go wtime 18446744073709551615 btime 18446744073709551615 winc 18446744073709551615 binc 99999999999999999999999 movestogo 18446744073709551615 nodes 2000");
    assert!(!e.until("bestmove").last().unwrap().contains("(none)"));
    // A clock that ran past zero on the host means no time left: a move at once.
    e.send("go wtime -1500 btime 1000");
    assert!(!e.until("bestmove").last().unwrap().contains("(none)"));
    for bad in [
        "go winc -5 wtime 1000",
        "go movetime -1",
        "go nodes -100",
        "go depth -3",
        "go movestogo -2 wtime 100",
        "go wtime 1e9",
        "setoption name Hash value -16",
    ] {
        e.send(bad);
        let got = e.until("info string error");
        let err = got.last().unwrap();
        assert!(
            err.contains("negative") || err.contains("not a whole number"),
            "{bad}: {err}"
        );
    }
    e.ready();
    e.send("quit");
    assert!(e.close());
}

/// A composed study with 15 defenders, three more than the start.
const STUDY_15: &str = "3aaaaa3/5a5/5d5/a3ddd3a/a3ddd3a/aa1ddkdd1aa/a3ddd3a/a4d4a/11/5a5/3aaaaa3 d";

#[test]
fn a_study_with_fifteen_defenders_is_set_up_and_searched() {
    let mut e = Engine::start();
    e.send(&format!("position fen {STUDY_15}"));
    e.send("d");
    let lines = e.until("Status");
    assert!(lines.contains(&format!("Fen: {STUDY_15}")), "{lines:?}");
    e.send("go depth 3");
    let best = e.until("bestmove").pop().unwrap();
    let mv = hnefi::board::notation::parse_move(&best["bestmove ".len()..]).expect("a move");
    let board = hnefi::board::notation::parse_fen(STUDY_15).unwrap();
    assert!(board.check_move(mv).is_ok(), "{best}");
    // Positions the rules cannot play are still refused, each with its reason.
    for (fen, why) in [
        ("k10/11/11/11/11/11/11/11/11/11/10k a", "two or more kings"),
        ("11/11/11/11/11/11/11/11/11/11/11 a", "no king"),
        (
            "11/11/11/11/11/5d5/11/11/11/11/k10 a",
            "f6 is a restricted square",
        ),
        (
            "10a/11/11/11/11/11/11/11/11/11/k10 a",
            "k11 is a restricted square",
        ),
    ] {
        e.send(&format!("position fen {fen}"));
        let err = e.until("info string error").pop().unwrap();
        assert!(err.contains(why), "{fen}: {err}");
    }
    e.send("quit");
    assert!(e.close());
}

#[test]
fn a_deep_perft_runs_in_the_background_and_stops() {
    let mut e = Engine::start();
    e.send("position startpos");
    // Days of counting: the loop must still answer, and stop it.
    e.send("go perft 8");
    e.send("isready");
    let lines = e.until("readyok");
    assert!(!lines.iter().any(|l| l.starts_with("Nodes")), "{lines:?}");
    e.send("stop");
    e.until("info string perft stopped");
    e.send("go perft 2");
    assert_eq!(
        e.until("Nodes searched").pop().unwrap(),
        "Nodes searched: 6788"
    );
    // A new command ends a perft too, and quit ends the engine during one.
    e.send("go perft 8");
    e.send("go depth 1");
    e.until("info string perft stopped");
    e.until("bestmove");
    e.send("go perft 8");
    e.send("quit");
    assert!(e.close());
}

/// The last score and the best move of a `go depth 4` from the start, with `options` set in
/// their order first.
fn searched_with(options: &[(&str, &str)]) -> (String, String) {
    let mut e = Engine::start();
    e.send("uci");
    e.until("uciok");
    for (name, value) in options {
        e.send(&format!("setoption name {name} value {value}"));
    }
    e.send("position startpos moves d1d3");
    e.send("go depth 4");
    let lines = e.until("bestmove");
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
    let score = lines
        .iter()
        .rev()
        .find_map(|l| l.split(" score ").nth(1))
        .and_then(|rest| rest.split(" nodes").next())
        .expect("a score")
        .to_string();
    e.send("quit");
    assert!(e.close());
    (score, lines.last().unwrap().clone())
}

#[test]
fn eval_and_eval_file_work_in_either_order() {
    use hnefi::learn::network::FloatNetwork;
    use hnefi::search::eval::weights::SCALE;
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("uci-nnue-order");
    std::fs::create_dir_all(&dir).expect("a test directory");
    let net = dir.join("random.nnue");
    FloatNetwork::random(9, SCALE as f32, 363)
        .quantise()
        .save(&net)
        .expect("the net written");
    let file = net.to_str().unwrap();
    let file_first = searched_with(&[("EvalFile", file), ("Eval", "nnue")]);
    // A host may well send Eval first (the match runner sends options in the order given):
    // the network must play all the same.
    let eval_first = searched_with(&[("Eval", "nnue"), ("EvalFile", file)]);
    assert_eq!(eval_first, file_first);
    let hand = searched_with(&[("Eval", "hand")]);
    assert_ne!(hand.0, file_first.0, "the network's scores are its own");
    // The network is the default: a file alone plays it, and Eval hand switches it off.
    assert_eq!(searched_with(&[("EvalFile", file)]), file_first);
    assert_eq!(
        searched_with(&[("Eval", "nnue"), ("EvalFile", file), ("Eval", "hand")]),
        hand
    );
    // Without a file, or with the file unset again, the network built into the binary.
    let built_in = searched_with(&[]);
    assert_eq!(searched_with(&[("Eval", "nnue")]), built_in);
    assert_ne!(built_in, hand);
    assert_ne!(built_in, file_first);
    assert_eq!(
        searched_with(&[
            ("Eval", "nnue"),
            ("EvalFile", file),
            ("EvalFile", "<empty>")
        ]),
        built_in
    );
}

#[test]
fn eval_nnue_takes_a_net_file_and_refuses_a_bad_one() {
    use hnefi::learn::network::FloatNetwork;
    use hnefi::search::eval::weights::SCALE;
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("uci-nnue");
    std::fs::create_dir_all(&dir).expect("a test directory");
    let net = dir.join("random.nnue");
    FloatNetwork::random(2, SCALE as f32, 363)
        .quantise()
        .save(&net)
        .expect("the net written");
    let junk = dir.join("junk.nnue");
    std::fs::write(&junk, b"not a net").expect("the junk written");
    let mut e = Engine::start();
    e.send("uci");
    let offered = e.until("uciok");
    assert!(
        offered
            .iter()
            .any(|l| l.contains("option name Eval type combo"))
    );
    // No file: the network built into the binary plays, with no complaint.
    e.send("setoption name Eval value nnue");
    e.send("position startpos");
    e.send("go depth 1");
    let lines = e.until("bestmove");
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
    // A bad file is refused with its reason.
    e.send(&format!("setoption name EvalFile value {}", junk.display()));
    let err = e.until("info string error");
    assert!(
        err.last().unwrap().contains("not a Hnefi net file"),
        "{err:?}"
    );
    e.send(&format!("setoption name EvalFile value {}", net.display()));
    e.send("setoption name Eval value nnue");
    e.send("isready");
    let lines = e.until("readyok");
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
    e.send("position startpos moves d1d3");
    e.send("go depth 3");
    assert!(!e.until("bestmove").last().unwrap().contains("(none)"));
    e.send("quit");
    assert!(e.close());
}

#[test]
fn skill_level_is_offered_bounded_and_taken_from_the_command_line() {
    let offered = |e: &mut Engine| -> String {
        e.send("uci");
        let lines = e.until("uciok");
        lines
            .into_iter()
            .find(|l| l.starts_with("option name Skill Level type spin"))
            .expect("a Skill Level option")
    };
    let mut e = Engine::start();
    assert_eq!(
        offered(&mut e),
        "option name Skill Level type spin default 20 min 0 max 20"
    );
    for bad in ["21", "-1", "strong", ""] {
        e.send(&format!("setoption name Skill Level value {bad}"));
        let got = e.until("info string error");
        assert!(
            got.last().unwrap().contains("Skill Level"),
            "{bad}: {got:?}"
        );
    }
    e.send("setoption name Skill Level value 0");
    e.send("position startpos moves d1d3");
    e.send("go depth 20");
    let lines = e.until("bestmove");
    // The level decides how deep: three plies, however deep the host asks.
    let deepest = lines
        .iter()
        .filter_map(|l| l.strip_prefix("info depth "))
        .filter_map(|l| l.split_whitespace().next()?.parse::<u32>().ok())
        .max();
    assert_eq!(deepest, Some(3), "{lines:?}");
    assert!(
        lines.iter().all(|l| !l.contains("multipv 2")),
        "one line asked for"
    );
    e.send("quit");
    assert!(e.close());

    let mut e = Engine::from_child(common::spawn_hnefi(&["--level", "7"]));
    assert!(offered(&mut e).contains("default 7 "));
    e.send("quit");
    assert!(e.close());

    let dir = common::fresh_dir("uci-level");
    for bad in ["21", "x"] {
        let (ok, stderr) = common::run_hnefi_in(&dir, &["--level", bad]);
        assert!(!ok && stderr.contains("level"), "{bad}: {stderr}");
    }
}

/// [`legal_moves`] on one board size.
type LegalMoves = fn(&str, hnefi::board::Rules, &[&str]) -> Vec<String>;

/// The moves of `fen` under `rules`, on boards of `G`, after `moves`.
fn legal_moves<G: hnefi::board::Geometry>(
    fen: &str,
    rules: hnefi::board::Rules,
    moves: &[&str],
) -> Vec<String> {
    use hnefi::board::{Board, Move, MoveList, Position};
    let mut pos = Position::new(Board::<G>::from_fen(fen).unwrap(), rules);
    for m in moves {
        pos.try_play(Move::parse(m).unwrap()).unwrap();
    }
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    list.into_iter().map(|m| m.to_string()).collect()
}

/// The lines of `d`, from the diagram's top rank to `Status:`.
fn shown(e: &mut Engine) -> Vec<String> {
    e.send("d");
    e.until("Status")
}

#[test]
fn every_preset_is_set_up_shown_and_counted_on_its_board() {
    let mut e = Engine::start();
    let starts = common::preset_starts();
    assert_eq!(starts.len(), hnefi::board::Preset::ALL.len());
    // In the file's order: 11x11, 7x7, 13x13, 9x9, 11x11 and 7x7 again.
    for (i, (fen, preset, counts)) in starts.iter().enumerate() {
        let option = if i % 2 == 0 { "Rules" } else { "UCI_Variant" };
        e.send(&format!("setoption name {option} value {preset}"));
        e.send("position startpos");
        let lines = shown(&mut e);
        let side = fen.split('/').count();
        assert!(
            lines[0].starts_with(&format!("{side:>2} ")),
            "{preset}: {lines:?}"
        );
        assert!(
            lines.contains(&format!("Fen: {fen}")),
            "{preset}: {lines:?}"
        );
        assert!(
            lines.contains(&format!("Rules: {preset}")),
            "{preset}: {lines:?}"
        );
        e.send("go perft 2");
        let lines = e.until("Nodes searched");
        assert_eq!(
            lines.last().unwrap(),
            &format!("Nodes searched: {}", counts[1]),
            "{preset}"
        );
        let roots = lines.iter().filter(|l| l.contains(": ")).count() as u64 - 1;
        assert_eq!(roots, counts[0], "{preset}");
        // The same position from its FEN.
        e.send(&format!("position fen {fen}"));
        assert!(shown(&mut e).contains(&format!("Fen: {fen}")), "{preset}");
    }
    e.send("setoption name Rules value brandubh");
    e.send("position startpos");
    e.send("go perft 3");
    assert_eq!(
        e.until("Nodes searched").pop().unwrap(),
        format!("Nodes searched: {}", starts[4].2[2])
    );
    e.send("quit");
    assert!(e.close());
}

/// OpenTafl's Tablut and Brandub as OpenTafl writes them.
const TABLUT: &str = "dim:9 name:Tablut esc:e atkf:y ks:c nj:n cor: cenp:tcnkTCNK cens: cenh: \
                      cenhe:tcnkTCNK linc:y start:/3ttt3/4t4/4T4/t3T3t/ttTTKTTtt/t3T3t/4T4/4t4/3ttt3/";
const BRANDUB: &str = "dim:7 name:Brandub surf:n atkf:y ks:w cenh: cenhe: \
                       start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";

/// As `hnefi match` hosts an engine on each board: the rules (a preset or a rules string),
/// a new game, the game so far from the start or from a FEN, and a search at its limits.
#[test]
fn rules_strings_and_presets_of_every_board_are_played_as_a_match_host_plays_them() {
    use hnefi::board::opentafl::parse_rules_string;
    use hnefi::board::{Nine, Preset, Rules, Seven, Thirteen};
    let mut e = Engine::start();
    e.send("uci");
    e.until("uciok");
    let cases: [(&str, Rules, &str, LegalMoves); 3] = [
        (
            TABLUT,
            parse_rules_string(TABLUT).unwrap().rules,
            Preset::Tablut.start_fen(),
            legal_moves::<Nine>,
        ),
        (
            BRANDUB,
            parse_rules_string(BRANDUB).unwrap().rules,
            Preset::Brandub.start_fen(),
            legal_moves::<Seven>,
        ),
        (
            "copenhagen-13",
            Rules::preset(Preset::Copenhagen13),
            Preset::Copenhagen13.start_fen(),
            legal_moves::<Thirteen>,
        ),
    ];
    for (value, rules, fen, legal) in cases {
        e.send(&format!("setoption name Rules value {value}"));
        e.send("isready");
        let lines = e.until("readyok");
        assert!(
            !lines.iter().any(|l| l.contains("error")),
            "{value}: {lines:?}"
        );
        e.send("ucinewgame");
        e.ready();
        // Two plies of the engine's own choosing, then its moves on the game so far.
        let first = legal(fen, rules, &[])[0].clone();
        let second = legal(fen, rules, &[&first])[0].clone();
        e.send(&format!("position startpos moves {first} {second}"));
        e.send("go nodes 3000");
        let best = e.until("bestmove").pop().unwrap();
        let best = best.strip_prefix("bestmove ").unwrap();
        assert!(
            legal(fen, rules, &[&first, &second])
                .iter()
                .any(|m| m == best),
            "{value}: {best}"
        );
        e.send(&format!("position fen {fen} moves {first}"));
        e.send("go depth 3");
        let best = e.until("bestmove").pop().unwrap();
        let best = best.strip_prefix("bestmove ").unwrap();
        assert!(
            legal(fen, rules, &[&first]).iter().any(|m| m == best),
            "{value}: {best}"
        );
        // Only the moves it is given.
        let some = legal(fen, rules, &[&first]);
        let (a, b) = (&some[some.len() - 1], &some[some.len() / 2]);
        e.send(&format!("go depth 2 searchmoves {a} {b}"));
        let best = e.until("bestmove").pop().unwrap();
        assert!(
            best == format!("bestmove {a}") || best == format!("bestmove {b}"),
            "{best}"
        );
        // The rules as the host gave them.
        assert!(
            shown(&mut e).contains(&format!("Rules: {value}")),
            "{value}"
        );
    }
    e.send("quit");
    assert!(e.close());
}

#[test]
fn options_and_the_hosts_rules_survive_every_change_of_board() {
    let mut e = Engine::start();
    for (name, value) in [
        ("Hash", "8"),
        ("MultiPV", "2"),
        ("Eval", "hand"),
        ("RfpMargin", "120"),
        ("Ponder", "true"),
    ] {
        e.send(&format!("setoption name {name} value {value}"));
    }
    let options_hold = |e: &mut Engine| {
        e.send("uci");
        let lines = e.until("uciok");
        for option in [
            "Hash type spin default 8 ",
            "Eval type combo default hand ",
            "RfpMargin type spin default 120 ",
        ] {
            assert!(
                lines
                    .iter()
                    .any(|l| l.starts_with(&format!("option name {option}"))),
                "{option}: {lines:?}"
            );
        }
        e.send("go depth 3");
        let lines = e.until("bestmove");
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info depth 3 ") && l.contains(" multipv 2 "))
        );
        assert!(lines.last().unwrap().contains(" ponder "), "{lines:?}");
        e.send("eval");
        e.send("isready");
        let lines = e.until("readyok");
        assert!(lines.iter().any(|l| l.starts_with("info string total ")));
        assert!(!lines.iter().any(|l| l.contains("network")), "{lines:?}");
    };
    let rules = |e: &mut Engine| {
        shown(e)
            .into_iter()
            .find_map(|l| l.strip_prefix("Rules: ").map(String::from))
            .unwrap()
    };
    let brandubh = "3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 d";
    let tablut = "3aaa3/4a4/4d4/a3d3a/aaddkddaa/a3d3a/4d4/4a4/3aaa3 a";
    let copenhagen = "3aaaaa3/5a5/11/a4d4a/a3ddd3a/aa1ddkdd1aa/a3ddd3a/a4d4a/11/5a5/3aaaaa3 a";
    e.send(&format!("position fen {brandubh}"));
    assert_eq!(rules(&mut e), "brandubh");
    options_hold(&mut e);
    e.send("setoption name Rules value copenhagen-13");
    e.send("position startpos moves d1d3");
    assert_eq!(rules(&mut e), "copenhagen-13");
    options_hold(&mut e);
    e.send("setoption name UCI_Variant value foteviken-tablut");
    e.send(&format!("position fen {copenhagen}"));
    assert_eq!(rules(&mut e), "copenhagen");
    // Back on 9x9, the host's rules for it.
    e.send(&format!("position fen {tablut}"));
    assert_eq!(rules(&mut e), "foteviken-tablut");
    options_hold(&mut e);
    e.send(&format!("position fen {brandubh}"));
    e.send(&format!("position fen {copenhagen}"));
    assert_eq!(rules(&mut e), "copenhagen");
    options_hold(&mut e);
    e.send("quit");
    assert!(e.close());
}
