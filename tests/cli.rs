//! The `hnefi` binary's command line, run for real.

use std::process::Command;

fn hnefi(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_hnefi"))
        .args(args)
        .output()
        .expect("run hnefi");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn perft_counts_and_divides() {
    let (ok, out, _) = hnefi(&["perft", "3"]);
    assert!(ok);
    assert!(out.contains("Nodes searched: 806344"), "{out}");
    let (ok, out, _) = hnefi(&["perft", "2", "--divide", "--threads", "1"]);
    assert!(ok);
    let lines: Vec<&str> = out
        .lines()
        .filter(|l| l.contains(": ") && !l.starts_with("Nodes") && !l.starts_with("Time"))
        .collect();
    assert_eq!(lines.len(), 116);
    let sum: u64 = lines
        .iter()
        .map(|l| l.rsplit(' ').next().unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 6788);
    assert!(out.contains("d1d3: "));
}

#[test]
fn perft_from_a_fen() {
    let fen = "5aa4/4a2a3/11/8a1a/3a3a1a1/8k1a/1a6aa1/4a2a2a/5a2a2/2a4a3/11 a";
    let (ok, out, _) = hnefi(&["perft", "2", "--fen", fen]);
    assert!(ok);
    assert!(out.contains("Nodes searched: 1977"), "{out}");
}

#[test]
fn perft_rejects_bad_input_with_a_reason() {
    let (ok, out, err) = hnefi(&["perft", "3", "--fen", "3aaaaa3/5a5 a"]);
    assert!(!ok);
    assert!(out.is_empty());
    assert!(err.contains("expected 11 ranks"), "{err}");
    let (ok, _, err) = hnefi(&["perft", "x"]);
    assert!(!ok && err.contains("invalid value"), "{err}");
    let (ok, _, err) = hnefi(&["perft", "2", "--threads", "0"]);
    assert!(!ok && err.contains("at least 1"), "{err}");
    let (ok, _, err) = hnefi(&["perft", "2", "--rules", "chess"]);
    assert!(!ok && err.contains("copenhagen-2017"), "{err}");
}

#[test]
fn analyse_shows_a_diagram_and_lines_in_record_notation() {
    let (ok, out, _) = hnefi(&["analyse", "--depth", "4", "--moves", "d1d3 f4f3"]);
    assert!(ok);
    assert!(out.contains("   a b c d e f g h i j k"), "{out}");
    assert!(out.contains("depth  4/"), "{out}");
    assert!(out.contains("best move "));
    // The attackers take f3 for nothing: the line is written with its capture.
    let fen = "11/11/11/11/5d5/4dkd4/5d5/a10/5d5/5a5/11 a";
    let (ok, out, _) = hnefi(&["analyse", "--depth", "4", "--fen", fen]);
    assert!(ok && out.contains("a4-f4xf3"), "{out}");
    let (ok, _, err) = hnefi(&["analyse", "--moves", "d1d3 d1d4"]);
    assert!(!ok && err.contains("--moves 2"), "{err}");
    let (ok, out, _) = hnefi(&["analyse", "--fen", "k10/11/11/11/11/11/11/11/11/5a5/11 a"]);
    assert!(ok && out.contains("game over"), "{out}");
}

#[test]
fn eval_shows_the_terms_and_the_network() {
    let (ok, out, err) = hnefi(&["eval"]);
    assert!(ok, "{err}");
    assert!(out.contains("\ntotal "), "{out}");
    assert!(
        out.contains("network correction to the hand evaluation: "),
        "{out}"
    );
    assert!(out.ends_with("\n") && out.contains("side to move (attackers), with the network: "));
    let (ok, hand, _) = hnefi(&["eval", "--eval", "hand"]);
    assert!(ok && !hand.contains("network"), "{hand}");
    assert!(out.starts_with(&hand), "{hand}\n{out}");
    let (ok, _, err) = hnefi(&["eval", "--eval-file", "/nonexistent.nnue"]);
    assert!(!ok && err.contains("/nonexistent.nnue"), "{err}");
}

#[test]
fn bench_ends_with_nodes_and_nps() {
    let (ok, out, _) = hnefi(&["bench", "3"]);
    assert!(ok);
    let last = out.lines().last().unwrap_or_default().to_string();
    let words: Vec<&str> = last.split(' ').collect();
    assert_eq!(words.len(), 4, "{last}");
    assert!(words[0].parse::<u64>().is_ok() && words[1] == "nodes" && words[3] == "nps");
}

#[test]
fn bench_with_a_network_shows_incremental_and_refreshed_speeds() {
    use hnefi::search::nnue::FloatNetwork;
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-bench-nnue");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("random.nnue");
    FloatNetwork::random(2, hnefi::search::eval::weights::SCALE as f32)
        .quantise()
        .save(&path)
        .unwrap();
    let file = path.to_str().unwrap();
    let (ok, out, err) = hnefi(&["bench", "3", "--eval", "nnue", "--eval-file", file]);
    assert!(ok, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    // "<what>: N nodes M nps", the same N in all three, the last line as without a network.
    let counts: Vec<(&str, u64)> = lines
        .iter()
        .map(|line| {
            let (what, rest) = line.rsplit_once(": ").unwrap_or(("", line));
            let words: Vec<&str> = rest.split(' ').collect();
            assert_eq!(words.len(), 4, "{line}");
            assert!(words[1] == "nodes" && words[3] == "nps", "{line}");
            assert!(words[2].parse::<u64>().is_ok(), "{line}");
            (what, words[0].parse().unwrap())
        })
        .collect();
    assert_eq!(counts[0].0, "nnue refresh");
    assert_eq!(counts[1].0, "nnue incremental");
    assert_eq!(counts[2].0, "");
    assert!(counts.iter().all(|c| c.1 == counts[0].1), "{out}");
    // The network searches otherwise than the hand evaluation, which prints one line.
    let (ok, hand, _) = hnefi(&["bench", "3", "--eval", "hand"]);
    assert!(ok);
    assert_eq!(hand.lines().count(), 1, "{hand}");
    assert_ne!(hand.split(' ').next(), lines[2].split(' ').next());
    // By default, the network built into the binary.
    let (ok, built_in, err) = hnefi(&["bench", "3"]);
    assert!(ok, "{err}");
    assert_eq!(built_in.lines().count(), 3, "{built_in}");
    assert_ne!(built_in.lines().last(), lines.last().copied());
    let (ok, _, err) = hnefi(&["bench", "3", "--eval", "hand", "--eval-file", file]);
    assert!(!ok && err.contains("--eval-file"), "{err}");
}

#[test]
fn latency_reports_both_measures() {
    let (ok, out, err) = hnefi(&["latency", "--rounds", "2"]);
    assert!(ok, "{err}");
    assert!(out.contains("isready -> readyok: median"), "{out}");
    assert!(out.contains("stop -> bestmove: median"), "{out}");
}
