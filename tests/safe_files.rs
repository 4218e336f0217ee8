//! Nothing is lost: every command that writes a file and fails leaves the file as it was, byte
//! for byte, and nothing beside it (no temporary file, no empty one). Write failures are real
//! ones: the process may not write past a few bytes (see `run_hnefi_with_file_limit`), as on a
//! full disk.

use crate::common;

use common::{run_hnefi_in, run_hnefi_with_file_limit};
use std::path::{Path, PathBuf};

const OLD: &str = "the earlier content, which must survive\n";

// Lines 62 and 1036 of copenhagen.csv (CC0).
const GAMES: &str = "\
d1-d3 g5-i5 f2-i2 f8-b8 k8-c8xb8 f4-i4 k7-i7 f5-f2 e1-e2,1,0,Black
h1-h3 f8-c8 b6-b9 d6-d3 a4-c4 e7-e10 d11-d10xe10 e6-e10 b9-e9xe10 f6-b6,2,0,White
";

/// A fresh directory holding `games.csv` and `keep` (with [`OLD`] in it).
fn workdir(name: &str, keep: &str) -> PathBuf {
    let dir = common::fresh_dir(&format!("safe-files-{name}"));
    std::fs::write(dir.join("games.csv"), GAMES).expect("the games file");
    std::fs::write(dir.join(keep), OLD).expect("the file to keep");
    dir
}

/// The names in `dir`, sorted.
fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("the directory")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    names
}

/// The command failed, `keep` holds [`OLD`] still, and the directory holds `files` only.
fn assert_kept(dir: &Path, keep: &str, (ok, stderr): (bool, String), files: &[&str]) {
    assert!(!ok, "the command must fail");
    assert_eq!(
        std::fs::read_to_string(dir.join(keep)).expect("the file is still there"),
        OLD,
        "{keep} changed; stderr:\n{stderr}"
    );
    assert_eq!(entries(dir), files, "{stderr}");
}

/// Runs `args` in `dir` unable to write past 100 bytes: `keep` must come out intact.
fn write_fails(dir: &Path, keep: &str, args: &[&str]) {
    let mut files = entries(dir);
    files.sort();
    let files: Vec<&str> = files.iter().map(String::as_str).collect();
    let run = run_hnefi_with_file_limit(dir, args, 100);
    assert!(run.1.contains("File too large"), "{args:?}: {}", run.1);
    assert_kept(dir, keep, run, &files);
}

#[test]
fn annotate_keeps_the_earlier_report() {
    // The case: an illegal move used to leave keep.html empty.
    let dir = workdir("annotate", "keep.html");
    let illegal = run_hnefi_in(&dir, &["annotate", "d1-d3 d3-d5", "-o", "keep.html"]);
    assert!(illegal.1.contains("no piece"), "{}", illegal.1);
    assert_kept(&dir, "keep.html", illegal, &["games.csv", "keep.html"]);
    let args = ["annotate", "d1-d3 e5-e2", "--depth", "1", "-o", "keep.html"];
    write_fails(&dir, "keep.html", &args);
    // And a new report is written whole, with nothing left beside it.
    let (ok, err) = run_hnefi_in(&dir, &args);
    assert!(ok, "{err}");
    let html = std::fs::read_to_string(dir.join("keep.html")).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>") && html.trim_end().ends_with("</html>"));
    assert_eq!(entries(&dir), ["games.csv", "keep.html"]);
}

#[test]
fn board_keeps_the_earlier_drawing() {
    let dir = workdir("board", "keep.svg");
    let illegal = run_hnefi_in(&dir, &["board", "--moves", "d1-d3 d3-d5", "-o", "keep.svg"]);
    assert_kept(&dir, "keep.svg", illegal, &["games.csv", "keep.svg"]);
    write_fails(&dir, "keep.svg", &["board", "-o", "keep.svg"]);
}

#[test]
fn openings_and_tactics_keep_their_earlier_files() {
    let dir = workdir("openings", "keep.txt");
    write_fails(
        &dir,
        "keep.txt",
        &["openings", "games.csv", "-o", "keep.txt"],
    );
    let missing = run_hnefi_in(&dir, &["openings", "missing.csv", "-o", "keep.txt"]);
    assert_kept(&dir, "keep.txt", missing, &["games.csv", "keep.txt"]);
    // No games: only the header, still longer than the limit (solving even one game's
    // positions takes a minute in a debug build).
    std::fs::write(dir.join("none.csv"), "").unwrap();
    let args = ["tactics", "--generate", "none.csv", "-o", "keep.txt"];
    write_fails(&dir, "keep.txt", &args);
}

#[test]
fn games_data_tune_and_train_keep_their_earlier_files() {
    let dir = workdir("learn", "keep.txt");
    write_fails(
        &dir,
        "keep.txt",
        &["games-data", "games.csv", "-o", "keep.txt"],
    );
    let (ok, err) = run_hnefi_in(&dir, &["games-data", "games.csv", "-o", "samples.txt"]);
    assert!(ok, "{err}");
    let tune = ["tune", "samples.txt", "--epochs", "2", "-o", "keep.txt"];
    write_fails(&dir, "keep.txt", &tune);
    let train = [
        "train",
        "samples.txt",
        "--epochs",
        "1",
        "--holdout",
        "0",
        "--threads",
        "1",
        "-o",
        "keep.txt",
    ];
    write_fails(&dir, "keep.txt", &train);
}

#[test]
fn datagen_leaves_no_empty_file_and_refuses_to_add_to_a_full_one() {
    let dir = workdir("datagen", "keep.txt");
    let args = |out| {
        [
            "datagen",
            "-o",
            out,
            "--book",
            "games.csv",
            "--book-plies",
            "4",
            "--games",
            "1",
            "--nodes",
            "100",
            "--max-plies",
            "60",
            "--threads",
            "1",
        ]
    };
    let failed = run_hnefi_with_file_limit(&dir, &args("new.txt"), 100);
    assert!(failed.1.contains("File too large"), "{}", failed.1);
    assert_kept(&dir, "keep.txt", failed, &["games.csv", "keep.txt"]);
    let refused = run_hnefi_in(&dir, &args("keep.txt"));
    assert!(refused.1.contains("--skip-existing"), "{}", refused.1);
    assert_kept(&dir, "keep.txt", refused, &["games.csv", "keep.txt"]);
}

#[test]
fn a_match_keeps_its_earlier_records_and_summary() {
    let dir = workdir("match", "records.csv");
    std::fs::write(dir.join("summary.json"), OLD).unwrap();
    let engine = format!("cmd={}", env!("CARGO_BIN_EXE_hnefi"));
    let args = [
        "match",
        "--engine",
        &engine,
        "nodes=100",
        "--engine",
        &engine,
        "nodes=200",
        "--games",
        "2",
        "--concurrency",
        "2",
        "--records",
        "records.csv",
        "--json",
        "summary.json",
    ];
    // The match may write 20 bytes past the earlier records, less than any record line (a
    // game's moves and result) or the summary: the lines are cut back whole, the summary is
    // never put in place. At 100 nodes a game may end within a dozen plies.
    let run = run_hnefi_with_file_limit(&dir, &args, OLD.len() as u64 + 20);
    assert!(run.1.contains("File too large"), "{}", run.1);
    let files = ["games.csv", "records.csv", "summary.json"];
    assert_eq!(
        std::fs::read_to_string(dir.join("summary.json")).unwrap(),
        OLD
    );
    assert_kept(&dir, "records.csv", run, &files);
    // Written for real, the records are added after the earlier ones.
    let (ok, err) = run_hnefi_in(&dir, &args);
    assert!(ok, "{err}");
    let records = std::fs::read_to_string(dir.join("records.csv")).unwrap();
    assert!(
        records.starts_with(OLD) && records.lines().count() == 3,
        "{records}"
    );
    assert_eq!(entries(&dir), files);
}

#[test]
fn spsa_keeps_its_earlier_state() {
    let dir = workdir("spsa", "games.csv");
    let engine = format!("cmd={}", env!("CARGO_BIN_EXE_hnefi"));
    let openings = common::repo_file("positions/openings-balanced.txt");
    let openings = openings.display().to_string();
    let args = |iterations, resume: bool| {
        let mut args = vec![
            "spsa",
            "--engine",
            &engine,
            "nodes=100",
            "--param",
            "LmrBase",
            "--pairs-per-iteration",
            "1",
            "--concurrency",
            "2",
            "--max-plies",
            "100",
            "--openings",
            &openings,
            "--state",
            "spsa.json",
            "--iterations",
            iterations,
        ];
        if resume {
            args.push("--resume");
        }
        args.iter().map(|s| s.to_string()).collect::<Vec<_>>()
    };
    let first = args("2", false);
    let first: Vec<&str> = first.iter().map(String::as_str).collect();
    // Stopped by the limit at its first save: no state file at all, and nothing beside.
    let run = run_hnefi_with_file_limit(&dir, &first, 100);
    assert!(!run.0 && run.1.contains("File too large"), "{}", run.1);
    assert_eq!(entries(&dir), ["games.csv"]);
    let (ok, err) = run_hnefi_in(&dir, &first);
    assert!(ok, "{err}");
    // Made a run stopped after its first iteration, that a resumed run goes on with.
    let path = dir.join("spsa.json");
    let mut stopped = hnefi::tournament::spsa::SpsaState::load(&path).expect("the state");
    stopped.iteration = 1;
    stopped.save(&path).expect("the state saved");
    let state = std::fs::read(&path).expect("the state");
    let more = args("2", true);
    let more: Vec<&str> = more.iter().map(String::as_str).collect();
    let run = run_hnefi_with_file_limit(&dir, &more, 100);
    assert!(!run.0 && run.1.contains("File too large"), "{}", run.1);
    assert_eq!(std::fs::read(dir.join("spsa.json")).unwrap(), state);
    assert_eq!(entries(&dir), ["games.csv", "spsa.json"]);
}
