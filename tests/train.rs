//! `hnefi train` through the binary: a small planted data set in, a net file out.

use crate::common;

use hnefi::board::{Bitboard, Board, Side};
use hnefi::learn::sample::{GameResult, Sample};
use hnefi::search::nnue::{NnueError, QuantisedNetwork};
use std::path::{Path, PathBuf};

/// The start's soldiers with the king on every free square, either side to move, and the
/// planted truth: the defenders win when the king stands on an edge. Every position its own
/// game, so that the held-out split takes a share of them.
fn planted_samples() -> String {
    let start = Board::start();
    let mut out = String::new();
    let mut game = 0;
    for sq in Bitboard::ALL & !start.attackers() & !start.defenders() {
        for side in [Side::Attackers, Side::Defenders] {
            let result = if sq.is_edge() {
                GameResult::DefendersWon
            } else {
                GameResult::AttackersWon
            };
            let sample = Sample {
                board: Board::new(start.attackers(), start.defenders(), sq, side).unwrap(),
                score: None,
                result,
                game,
                best: None,
            };
            out.push_str(&format!("{sample}\n"));
            game += 1;
        }
    }
    out
}

fn workdir(name: &str) -> PathBuf {
    let dir = common::fresh_dir(&format!("train-{name}"));
    std::fs::write(dir.join("planted.txt"), planted_samples()).expect("the data file");
    dir
}

fn hnefi(dir: &Path, args: &[&str]) -> (bool, String) {
    common::run_hnefi_in(dir, args)
}

/// The training losses of the epoch lines, in order.
fn train_losses(stderr: &str) -> Vec<f64> {
    stderr
        .lines()
        .filter(|l| l.starts_with("epoch"))
        .map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let at = words
                .iter()
                .position(|&w| w == "train")
                .expect("a train loss");
            words[at + 1].parse().expect("a number")
        })
        .collect()
}

#[test]
fn train_learns_the_planted_rule_and_writes_a_net() {
    let dir = workdir("learns");
    let args = [
        "train",
        "planted.txt",
        "--epochs",
        "40",
        "--batch",
        "16",
        "--holdout",
        "0.2",
        "--threads",
        "2",
        "-o",
        "net.nnue",
    ];
    let (ok, err) = hnefi(&dir, &args);
    assert!(ok, "{err}");
    let losses = train_losses(&err);
    assert_eq!(losses.len(), 40, "{err}");
    assert!(
        losses[39] < losses[0] / 3.0,
        "the loss must fall: {losses:?}"
    );
    assert!(err.contains("held out"), "{err}");
    assert!(err.contains("quantised vs float over"), "{err}");
    assert!(err.contains("kept the net of epoch"), "{err}");
    let net = QuantisedNetwork::load(&dir.join("net.nnue")).expect("a valid net file");
    // The quantised net has learnt the rule: a king on the edge is bad for the attackers.
    // (A king's square held out is never seen in training: not every square can be right.)
    let start = Board::start();
    let free = Bitboard::ALL & !start.attackers() & !start.defenders();
    let right = free
        .filter(|&sq| {
            let board =
                Board::new(start.attackers(), start.defenders(), sq, Side::Attackers).unwrap();
            (net.evaluate_board(&board) < 0) == sq.is_edge()
        })
        .count();
    assert!(
        right * 4 >= free.count() as usize * 3,
        "{right} of {}",
        free.count()
    );
    // The same data and settings give the same file, whatever the threads.
    std::fs::rename(dir.join("net.nnue"), dir.join("first.nnue")).unwrap();
    let mut one_thread = args;
    one_thread[9] = "1";
    let (ok, err) = hnefi(&dir, &one_thread);
    assert!(ok, "{err}");
    assert_eq!(
        std::fs::read(dir.join("first.nnue")).unwrap(),
        std::fs::read(dir.join("net.nnue")).unwrap()
    );
}

#[test]
fn validation_files_replace_the_held_out_games() {
    let dir = workdir("validate");
    let args = [
        "train",
        "planted.txt",
        "--validate",
        "planted.txt",
        "--epochs",
        "2",
        "-o",
        "v.nnue",
    ];
    let (ok, err) = hnefi(&dir, &args);
    assert!(ok, "{err}");
    assert!(err.contains("170 positions to validate on"), "{err}");
    assert!(
        err.contains("170 training positions, 170 held out"),
        "{err}"
    );
    let (ok, err) = hnefi(&dir, &[&args[..], &["--holdout", "0.2"]].concat());
    assert!(!ok && err.contains("--holdout"), "{err}");
}

#[test]
fn quiet_only_keeps_the_quiet_positions_of_both_sets() {
    let dir = workdir("quiet");
    let args = [
        "train",
        "planted.txt",
        "--validate",
        "planted.txt",
        "--quiet-only",
        "--epochs",
        "1",
        "-o",
        "q.nnue",
    ];
    let (ok, err) = hnefi(&dir, &args);
    assert!(ok, "{err}");
    let quiet: usize = err
        .split_once("planted.txt: 170 positions (")
        .and_then(|(_, rest)| rest.split_once(" quiet)"))
        .and_then(|(n, _)| n.parse().ok())
        .unwrap_or_else(|| panic!("no count of quiet positions in {err}"));
    // Some kings see a corner, some soldiers can capture: not all 170 are quiet, nor none.
    assert!(0 < quiet && quiet < 170, "{err}");
    assert!(
        err.contains(&format!("{quiet} training positions, {quiet} held out")),
        "{err}"
    );
}

#[test]
fn bad_settings_and_files_are_refused_with_a_reason() {
    let dir = workdir("bad");
    let (ok, err) = hnefi(
        &dir,
        &["train", "planted.txt", "--batch", "0", "-o", "x.nnue"],
    );
    assert!(!ok && err.contains("--batch"), "{err}");
    let (ok, err) = hnefi(
        &dir,
        &[
            "train",
            "planted.txt",
            "--lr",
            "0.001",
            "--lr-end",
            "0.01",
            "-o",
            "x.nnue",
        ],
    );
    assert!(!ok && err.contains("--lr-end"), "{err}");
    let (ok, err) = hnefi(&dir, &["train", "missing.txt", "-o", "x.nnue"]);
    assert!(!ok && err.contains("cannot read"), "{err}");
    std::fs::write(dir.join("bad.txt"), "11/11 a;1;a;1\n").unwrap();
    let (ok, err) = hnefi(&dir, &["train", "bad.txt", "-o", "x.nnue"]);
    assert!(!ok && err.contains("bad.txt:1"), "{err}");
    // A net of another board to go on from: the loader's refusal, with the board it needs.
    let brandubh = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/hnefi-core/src/search/nnue/brandubh.nnue"
    );
    let (ok, err) = hnefi(
        &dir,
        &["train", "planted.txt", "--init", brandubh, "-o", "x.nnue"],
    );
    assert!(
        !ok && err.contains("another board") && err.contains("11x11"),
        "{err}"
    );
    std::fs::write(dir.join("junk.nnue"), b"HNEFINNU\x01\0\0\0").unwrap();
    assert!(matches!(
        QuantisedNetwork::load(&dir.join("junk.nnue")),
        Err(NnueError::Truncated { found: 12, .. })
    ));
}

#[test]
fn a_residual_net_starts_from_the_hand_evaluation_and_says_so_in_its_file() {
    let dir = workdir("residual");
    let args = [
        "train",
        "planted.txt",
        "--residual",
        "--validate",
        "planted.txt",
        "--lambda",
        "1",
        "--epochs",
        "10",
        "--batch",
        "16",
        "--threads",
        "2",
        "-o",
        "r.nnue",
    ];
    let (ok, err) = hnefi(&dir, &args);
    assert!(ok, "{err}");
    let hand: f64 = err
        .lines()
        .find_map(|l| l.strip_prefix("residual: the hand evaluation's held-out loss "))
        .expect("the hand evaluation's loss")
        .trim()
        .parse()
        .unwrap();
    let losses = train_losses(&err);
    assert!(*losses.last().unwrap() < hand / 2.0, "{hand} -> {losses:?}");
    let net = QuantisedNetwork::load(&dir.join("r.nnue")).expect("a valid net file");
    assert!(net.is_residual());
    // The next generation goes on from it: its start is where this one ended.
    let (ok, err) = hnefi(
        &dir,
        &[
            "train",
            "planted.txt",
            "--residual",
            "--init",
            "r.nnue",
            "--validate",
            "planted.txt",
            "--lambda",
            "1",
            "--epochs",
            "1",
            "-o",
            "r2.nnue",
        ],
    );
    assert!(ok, "{err}");
    let start: f64 = err
        .lines()
        .find_map(|l| l.strip_prefix("r.nnue: held-out loss "))
        .and_then(|rest| rest.split_whitespace().next())
        .expect("the start's loss")
        .parse()
        .unwrap();
    assert!(start < hand / 2.0, "{hand} -> {start}");
    // A start of the other kind is refused.
    let (ok, err) = hnefi(
        &dir,
        &["train", "planted.txt", "--init", "r.nnue", "-o", "x.nnue"],
    );
    assert!(
        !ok && err.contains("r.nnue") && err.contains("--residual"),
        "{err}"
    );
    let (ok, err) = hnefi(
        &dir,
        &[
            "train",
            "planted.txt",
            "--init",
            "missing.nnue",
            "-o",
            "x.nnue",
        ],
    );
    assert!(!ok && err.contains("missing.nnue"), "{err}");
    let (ok, err) = hnefi(
        &dir,
        &["train", "planted.txt", "--weight-decay=-1", "-o", "x.nnue"],
    );
    assert!(!ok && err.contains("--weight-decay"), "{err}");
    for bad in ["--saturated-weight=-0.5", "--saturated-weight=inf"] {
        let (ok, err) = hnefi(&dir, &["train", "planted.txt", bad, "-o", "x.nnue"]);
        assert!(!ok && err.contains("--saturated-weight"), "{bad}: {err}");
    }
}

#[test]
fn a_run_is_the_same_twice_and_from_text_or_binary() {
    let dir = workdir("determinism");
    let (ok, err) = hnefi(&dir, &["games-data", "-o", "games.txt"]);
    assert!(ok, "{err}");
    // The first 20,000 positions of the real games: some 400 games, a tenth held out.
    let text = std::fs::read_to_string(dir.join("games.txt")).unwrap();
    let head: String = text
        .lines()
        .take(20_000)
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(dir.join("head.txt"), head).unwrap();
    let (ok, err) = hnefi(&dir, &["convert", "head.txt", "-o", "head.bin"]);
    assert!(ok, "{err}");
    let run = |data: &str, out: &str| {
        let (ok, err) = hnefi(
            &dir,
            &[
                "train",
                data,
                "-o",
                out,
                "--epochs",
                "2",
                "--threads",
                "2",
                "--seed",
                "3",
            ],
        );
        assert!(ok, "{err}");
        err
    };
    let err = run("head.txt", "a.nnue");
    // Each epoch reports its loss on the held-out games.
    let held_out: Vec<&str> = err
        .lines()
        .filter(|l| l.starts_with("epoch") && l.contains("held out"))
        .collect();
    assert_eq!(held_out.len(), 2, "{err}");
    run("head.txt", "b.nnue");
    run("head.bin", "c.nnue");
    let net = |name: &str| std::fs::read(dir.join(name)).unwrap();
    assert!(net("a.nnue") == net("b.nnue"), "two runs differ");
    assert!(net("a.nnue") == net("c.nnue"), "text and binary differ");
}
