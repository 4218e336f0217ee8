//! The `hnefi` binary's command line, run for real.

use crate::common;

use common::{Terminal, hnefi_at_terminal};
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
    assert!(!ok && err.contains("x: must be a whole number"), "{err}");
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

/// Scores say whose view they are, with a unit, and the attackers' chance as the reports
/// give it, whoever is to move.
#[test]
fn analyse_scores_are_the_attackers_with_their_chance() {
    for moves in ["d1d3", "d1d3 f4f3"] {
        let (ok, out, err) = hnefi(&["analyse", "--depth", "2", "--moves", moves]);
        assert!(ok, "{err}");
        let line = out.lines().find(|l| l.starts_with("depth  2/")).unwrap();
        assert!(
            line.contains(" cp for the attackers (") && line.contains("% to win)"),
            "{line}"
        );
    }
}

/// A scratch file `name` holding `text`, its path as text.
fn scratch(name: &str, text: &str) -> String {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-scratch");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn nonsense_is_refused_with_a_reason() {
    let refused = |args: &[&str], why: &str| {
        let (ok, out, err) = hnefi(args);
        assert!(!ok && out.is_empty(), "{args:?}: {out}");
        assert!(err.contains(why), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    };
    let garbage = scratch("garbage.epd", "this is not EPD\n");
    refused(
        &["tactics", "--file", &garbage],
        "garbage.epd: line 1: no ' bm MOVE...;'",
    );
    let empty = scratch("empty.epd", "# nothing but a comment\n");
    refused(&["tactics", "--file", &empty], "no tactics in it");
    refused(
        &["tactics", "--depth", "0"],
        "--depth 0: must be at least 1",
    );
    refused(
        &["analyse", "--depth", "0"],
        "--depth 0: must be at least 1",
    );
    refused(
        &["analyse", "--movetime", "0"],
        "--movetime 0: must be at least 1",
    );
    refused(&["--nodes", "0"], "--nodes 0: must be at least 1");
    refused(&["--movetime", "0"], "--movetime 0: must be at least 1");
    // A bad position's example is the start of the rules given, on their board.
    refused(
        &["board", "--rules", "brandubh", "--fen", "3a3/3a3"],
        "a position is a FEN ('3a3/3a3/3d3/aadkdaa/3d3/3a3/3a3 d')",
    );
    // Negative numbers and words say the same, not how the parser failed.
    refused(
        &["analyse", "--depth", "-1"],
        "--depth -1: must be at least 1",
    );
    refused(
        &["analyse", "--movetime", "-5"],
        "--movetime -5: must be at least 1",
    );
    refused(
        &["--nodes", "many"],
        "--nodes many: must be a whole number, at least 1",
    );
    // By convention the position itself is the one leaf at depth 0.
    let (ok, out, _) = hnefi(&["perft", "0"]);
    assert!(ok && out.contains("Nodes searched: 1\n"), "{out}");
}

#[test]
fn input_a_tafl_player_would_type_is_taken() {
    let page = |game: &str| {
        let (ok, out, err) = hnefi(&["annotate", game, "--depth", "1"]);
        assert!(ok, "{game}: {err}");
        assert!(out.starts_with("<!DOCTYPE html>"), "{game}");
    };
    page("1. d1-d3 e5-e2 2. g1-g3");
    page(&scratch("moves.txt", "1. d1-d3 e5-e2\n2. g1-g3 f4-c4\n"));
    // A file that is no game: one error that says what a game is, not a warning a line.
    let notes = scratch(
        "notes.md",
        &"# Notes\n\nSome prose, line after line.\n".repeat(140),
    );
    let (ok, _, err) = hnefi(&["annotate", &notes, "--depth", "1"]);
    assert!(!ok && err.contains("notes.md is not a game"), "{err}");
    assert!(
        err.contains("1. d1-d3 e5-e2") && err.contains(".otg"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    // OpenTafl's position strings, with or without the side to move.
    let start = "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/";
    for fen in [start.to_string(), format!("{start} a")] {
        let (ok, out, err) = hnefi(&["perft", "2", "--fen", &fen]);
        assert!(ok && out.contains("Nodes searched: 6788"), "{err}");
    }
    let (ok, out, _) = hnefi(&["board", "--fen", &format!("{start} d")]);
    assert!(ok && out.starts_with("<svg"), "{out}");
    let (ok, _, err) = hnefi(&["perft", "1", "--fen", "not a position"]);
    assert!(
        !ok && err.contains("a position is a FEN") && err.contains("OpenTafl"),
        "{err}"
    );
}

#[test]
fn messages_say_it_once_and_clearly() {
    let me = env!("CARGO_BIN_EXE_hnefi");
    let engine = format!("cmd={me}");
    let (ok, _, err) = hnefi(&["match", "--engine", &engine, "--engine", &engine]);
    assert!(!ok, "{err}");
    assert!(
        err.starts_with("hnefi: engine 'hnefi': a UCI engine needs a limit"),
        "{err}"
    );
    let (ok, _, err) = hnefi(&["tune", "--holdout", "-0.5", "x.txt"]);
    assert!(
        !ok && err.contains("--holdout -0.5: must be within 0..1"),
        "{err}"
    );
    let (ok, help, _) = hnefi(&["analyse", "--help"]);
    assert!(ok);
    let fen = help.lines().find(|l| l.contains("--fen")).unwrap();
    assert_eq!(fen.matches("default").count(), 1, "{fen}");
    for flag in ["--threads", "--rules"] {
        let line = help.lines().find(|l| l.contains(flag)).unwrap();
        assert!(
            line.contains(flag) && line.len() > flag.len() + 40,
            "{line}"
        );
    }
    let (ok, help, _) = hnefi(&["--help"]);
    assert!(ok && help.contains("3000 under OpenTafl's engine protocol, 2000 under"));
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
fn bench_searches_the_boards_it_has_positions_for() {
    let nodes = |args: &[&str]| {
        let (ok, out, err) = hnefi(args);
        assert!(ok, "{err}");
        let last = out.lines().last().unwrap_or_default().to_string();
        last.split(' ')
            .next()
            .unwrap_or_default()
            .parse::<u64>()
            .unwrap()
    };
    let thirteen = nodes(&["bench", "2", "--rules", "copenhagen-13"]);
    assert!(thirteen > 0);
    assert_eq!(
        thirteen,
        nodes(&["bench", "2", "--rules", "copenhagen-13"]),
        "a fixed count"
    );
    assert_ne!(
        thirteen,
        nodes(&["bench", "2"]),
        "other positions than 11x11's"
    );
    let (ok, _, err) = hnefi(&["bench", "2", "--rules", "brandubh"]);
    assert!(!ok);
    assert!(
        err.contains("--rules brandubh: must be rules of 11x11 or 13x13"),
        "{err}"
    );
}

#[test]
fn bench_with_a_network_shows_incremental_and_refreshed_speeds() {
    use hnefi::learn::network::FloatNetwork;
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-bench-nnue");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("random.nnue");
    FloatNetwork::random(2, hnefi::search::eval::weights::SCALE as f32, 363)
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

#[test]
fn completions_for_each_shell() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let (ok, out, err) = hnefi(&["completions", shell]);
        assert!(ok, "{shell}: {err}");
        // Fish names a flag without its dashes.
        for word in ["annotate", "completions", "fen", "movetime"] {
            assert!(out.contains(word), "{shell}: no {word}");
        }
    }
    let (ok, _, err) = hnefi(&["completions", "tcsh"]);
    assert!(!ok && err.contains("possible values: bash"), "{err}");
    // Where bash is at hand, what it is given must read as a script.
    let (_, script, _) = hnefi(&["completions", "bash"]);
    let path = scratch("hnefi.bash", &script);
    if let Ok(check) = Command::new("bash").args(["-n", &path]).output() {
        assert!(
            check.status.success(),
            "{}",
            String::from_utf8_lossy(&check.stderr)
        );
    }
}

#[test]
fn manual_pages_of_hnefi_and_of_each_command() {
    let (ok, page, err) = hnefi(&["man"]);
    assert!(ok, "{err}");
    assert!(page.contains(".TH hnefi 1 "), "{page}");
    assert!(
        page.contains("Without a command, hnefi is an engine"),
        "{page}"
    );
    let (_, help, _) = hnefi(&["--help"]);
    // Every command listed, and each one's own page there.
    let commands: Vec<&str> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert!(commands.len() > 20, "{commands:?}");
    for command in commands {
        assert!(page.contains(&format!("hnefi\\-{}(1)", command.replace('-', "\\-"))));
        let (ok, own, err) = hnefi(&["man", command]);
        assert!(ok, "{command}: {err}");
        assert!(own.contains(&format!(".TH hnefi-{command} 1 ")), "{own}");
    }
    let (ok, _, err) = hnefi(&["man", "nope"]);
    assert!(!ok && err.contains("man nope: must be a command"), "{err}");
}

#[test]
fn help_lists_the_players_commands_first() {
    let (ok, help, _) = hnefi(&["--help"]);
    assert!(ok);
    let players = [
        "serve", "analyse", "annotate", "board", "eval", "match", "bot",
    ];
    let developers = [
        "perft",
        "bench",
        "timetodepth",
        "latency",
        "datagen",
        "tune",
        "train",
        "spsa",
        "fuzz",
    ];
    let line_of = |name: &str| {
        help.lines()
            .position(|l| l.split_whitespace().next() == Some(name) && l.starts_with("  "))
            .unwrap_or_else(|| panic!("{name} is not listed:\n{help}"))
    };
    let players: Vec<usize> = players.iter().map(|n| line_of(n)).collect();
    let developers: Vec<usize> = developers.iter().map(|n| line_of(n)).collect();
    assert!(players.is_sorted() && developers.is_sorted(), "{help}");
    assert!(players.last() < developers.first(), "{help}");
    assert!(help.contains("for engine developers"), "{help}");
}

#[test]
fn eval_takes_the_position_options_of_analyse() {
    // A 7x7 position, its rules found from its size as analyse finds them.
    let brandubh = "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ a";
    let (ok, out, err) = hnefi(&["eval", "--fen", brandubh]);
    assert!(ok, "{err}");
    assert!(out.contains("\ntotal "), "{out}");
    let (ok, named, err) = hnefi(&["eval", "--fen", brandubh, "--rules", "brandubh"]);
    assert!(ok && named == out, "{err}");
    // Moves played from it: the evaluation of the position they lead to.
    let (ok, moved, err) = hnefi(&["eval", "--rules", "brandubh", "--moves", "c4-c6"]);
    assert!(ok, "{err}");
    assert!(moved.contains("side to move (attackers)"), "{moved}");
    let (ok, _, err) = hnefi(&["eval", "--moves", "d1-d3", "e5-e2", "zz"]);
    assert!(!ok && err.contains("--moves 3 (zz)"), "{err}");
    let (ok, help, _) = hnefi(&["eval", "--help"]);
    assert!(
        ok && help.contains("--rules") && help.contains("--moves"),
        "{help}"
    );
}

#[test]
fn the_data_commands_work_from_any_folder() {
    // An empty folder, as after `cargo install`: their data is built into the binary.
    let dir = common::fresh_dir("any-folder");
    let (ok, out, err) = common::output_of_hnefi_in(&dir, &["tactics", "--depth", "1"]);
    assert!(ok, "{err}");
    assert!(
        out.starts_with("win in 1: ") && out.contains("/383 solved"),
        "{out}"
    );
    let (ok, out, err) = common::output_of_hnefi_in(&dir, &["openings"]);
    assert!(ok, "{err}");
    assert!(out.lines().any(|l| l == "d1-d3 e5-e2 g1-g3 f4-c4"), "{out}");
    let (ok, _, err) = common::output_of_hnefi_in(&dir, &["games-data", "-o", "games.txt"]);
    assert!(ok && err.contains("1752 lines"), "{err}");
    let (ok, out, err) = common::output_of_hnefi_in(
        &dir,
        &[
            "datagen",
            "-o",
            "self.txt",
            "--games",
            "1",
            "--nodes",
            "100",
            "--threads",
            "1",
        ],
    );
    assert!(ok && out.is_empty(), "{err}");
    let openings = err
        .split(" openings of 8 plies")
        .next()
        .and_then(|head| head.rsplit(' ').next())
        .and_then(|n| n.parse::<usize>().ok());
    assert!(openings.is_some_and(|n| n > 100), "{err}");
    assert!(
        std::fs::read_dir(&dir).unwrap().count() == 2,
        "nothing else written"
    );
}

#[test]
fn random_openings_with_the_defaults_are_kept() {
    for rules in ["copenhagen", "tablut", "brandubh"] {
        let (ok, out, err) = hnefi(&["openings", "--random", "10", "--rules", rules]);
        assert!(ok, "{rules}: {err}");
        let lines: Vec<&str> = out.lines().filter(|l| !l.starts_with('#')).collect();
        assert_eq!(lines.len(), 10, "{rules}: {out}");
        assert!(
            err.contains("kept the 10 nearest even of 100"),
            "{rules}: {err}"
        );
    }
    // None kept: the reason, and a failure.
    let (ok, out, err) = hnefi(&[
        "openings", "--random", "3", "--rules", "brandubh", "--nodes", "300", "--band", "0",
    ]);
    assert!(!ok && out.is_empty(), "{out}");
    assert!(
        err.starts_with(
            "hnefi: no openings kept: none of the 100 openings drawn scored within 0 cp"
        ) && err.contains("--band"),
        "{err}"
    );
}

#[test]
fn tactics_shows_its_progress_at_a_terminal_only() {
    let dir = common::fresh_dir("tactics-progress");
    let three: Vec<&str> = hnefi::measure::tactics::BUILT_IN
        .lines()
        .filter(|l| !l.starts_with('#'))
        .take(3)
        .collect();
    std::fs::write(dir.join("three.epd"), three.join("\n")).unwrap();
    let args = ["tactics", "--file", "three.epd", "--depth", "1"];
    let (ok, shown, out) = hnefi_at_terminal(&dir, &args, Terminal::Stderr);
    assert!(ok, "{shown}");
    assert!(shown.contains("/3 positions"), "{shown:?}");
    assert!(out.starts_with("win in "), "{out}");
    let (ok, out, err) = common::output_of_hnefi_in(&dir, &args);
    assert!(ok && out.starts_with("win in "), "{err}");
    assert!(err.is_empty(), "no bar into a pipe: {err:?}");
}

/// Runs the real `hnefi` with `args` in `dir`: its exit status, standard output and error.
fn hnefi_in(dir: &common::Outside, args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_hnefi"))
        .current_dir(&dir.0)
        .args(args)
        .output()
        .expect("run hnefi");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// From a folder of their own, a player annotates a real game by its number alone, and a
/// file that is not there is named as missing, with what to give instead.
#[test]
fn annotate_takes_the_built_in_games_and_names_a_missing_file() {
    let dir = common::Outside::new("annotate");
    let (status, out, err) = hnefi_in(&dir, &["annotate", "data/copenhagen.csv", "--game", "541"]);
    assert_eq!((status, out.as_str()), (Some(1), ""), "{err}");
    assert_eq!(
        err.trim_end(),
        "hnefi: no such file: data/copenhagen.csv; for game 541 of the real games built into \
         hnefi (data/copenhagen.csv), leave the file out: hnefi annotate --game 541"
    );
    let (status, _, err) = hnefi_in(&dir, &["annotate", "games/final.otg"]);
    assert_eq!(status, Some(1));
    assert!(
        err.starts_with("hnefi: no such file: games/final.otg; give a file of records"),
        "{err}"
    );
    // Moves are still a game, not a file.
    let (status, out, err) = hnefi_in(&dir, &["annotate", "d1-d3", "--depth", "1"]);
    assert!(
        status == Some(0) && out.starts_with("<!DOCTYPE html>"),
        "{err}"
    );

    // `--game N` alone: game N of the real games built in, the page written where asked.
    let (status, _, err) = hnefi_in(
        &dir,
        &[
            "annotate", "--game", "541", "--depth", "1", "-o", "541.html",
        ],
    );
    assert_eq!(status, Some(0), "{err}");
    assert!(err.trim_end().ends_with("; wrote 541.html"), "{err}");
    let page = std::fs::read_to_string(dir.0.join("541.html")).expect("541.html");
    assert!(
        page.contains("copenhagen.csv (built in), line 541"),
        "the report names its game"
    );
    assert!(page.contains("a4"), "game 541 ends with the king on a4");
    // At a terminal, the page's file is named after the built-in file and the line.
    let (ok, _, err) = hnefi_at_terminal(
        &dir.0,
        &["annotate", "--game", "3", "--depth", "1"],
        Terminal::Stdout,
    );
    assert!(ok && err.contains("wrote copenhagen-3.html"), "{err}");
    assert!(dir.0.join("copenhagen-3.html").is_file());
    let (status, _, err) = hnefi_in(&dir, &["annotate", "--game", "99999"]);
    assert_eq!(status, Some(1));
    assert_eq!(
        err.trim_end(),
        "hnefi: data/copenhagen.csv (built in) has no readable game on line 99999"
    );
    // Neither a game nor --game: the command line says what is missing.
    let (status, _, err) = hnefi_in(&dir, &["annotate"]);
    assert_eq!(status, Some(2));
    assert!(
        err.starts_with(
            "hnefi: the following required arguments were not provided:\n  \
                         <GAME|--game <LINE>>"
        ),
        "{err}"
    );
}

/// `eval` gives every figure in centipawns, as `analyse` does: the table, the side to move's
/// score and the network's.
#[test]
fn eval_speaks_one_unit() {
    let dir = common::Outside::new("eval");
    let (status, out, err) = hnefi_in(&dir, &["eval", "--moves", "d1-d3"]);
    assert_eq!(status, Some(0), "{err}");
    assert!(
        out.starts_with("term               attackers' view (cp)\n"),
        "{out}"
    );
    let pawns = out
        .as_bytes()
        .windows(3)
        .any(|w| w[0].is_ascii_digit() && w[1] == b'.' && w[2].is_ascii_digit());
    assert!(!pawns, "a figure in pawns:\n{out}");
    for start in [
        "side to move (defenders): ",
        "network correction to the hand evaluation: ",
        "side to move (defenders), with the network: ",
    ] {
        let line = out
            .lines()
            .find(|l| l.starts_with(start))
            .unwrap_or_else(|| panic!("no {start:?} in\n{out}"));
        let figure = line[start.len()..].split_whitespace().collect::<Vec<_>>();
        assert!(
            figure[0].parse::<i32>().is_ok() && figure[1] == "cp",
            "{line}"
        );
    }
}

/// Every refusal, clap's of a command line and hnefi's of a command, reads `hnefi: why`;
/// clap's keep their advice, and their status 2.
#[test]
fn every_error_is_in_one_style() {
    let dir = common::Outside::new("errors");
    for (args, status, start) in [
        (
            &["--bogus"][..],
            2,
            "hnefi: unexpected argument '--bogus' found",
        ),
        (
            &["perft", "x"],
            2,
            "hnefi: <DEPTH> x: must be a whole number",
        ),
        (
            &["serve", "--port", "99999"],
            2,
            "hnefi: --port 99999: must be a whole number from 0 to 65535",
        ),
        (
            &["perft", "2", "--threads", "0"],
            2,
            "hnefi: --threads 0: must be",
        ),
        (
            &["board", "--fen", "11/11 a"],
            2,
            "hnefi: a board of side 2: ",
        ),
    ] {
        let (code, out, err) = hnefi_in(&dir, args);
        assert_eq!((code, out.as_str()), (Some(status), ""), "{args:?}: {err}");
        assert!(err.starts_with(start), "{args:?}: {err}");
        assert!(
            !err.lines().any(|l| l.starts_with("error")),
            "{args:?}: {err}"
        );
    }
    let (_, _, err) = hnefi_in(&dir, &["perft", "--bogus"]);
    assert!(
        err.contains("Usage: hnefi perft") && err.contains("try '--help'"),
        "{err}"
    );
    // Help is no error: on standard output, status 0.
    let (code, out, err) = hnefi_in(&dir, &["perft", "--help"]);
    assert_eq!((code, err.as_str()), (Some(0), ""));
    assert!(out.starts_with("For engine developers"), "{out}");
}

/// One exit status for a bad command line, whoever refuses it (clap or hnefi's own checks), one
/// limit per option, and a network file checked before anything is shown.
#[test]
fn bad_arguments_exit_with_2_and_nothing_on_stdout() {
    let dir = common::Outside::new("exit-codes");
    for (args, said) in [
        (
            &["analyse", "--threads", "0", "--depth", "1"][..],
            "--threads 0: must be 1-256",
        ),
        (
            &["analyse", "--depth", "0"][..],
            "--depth 0: must be at least 1",
        ),
        (
            &["analyse", "--multipv", "257", "--depth", "1"][..],
            "--multipv 257: must be 1-256",
        ),
        (
            &["analyse", "--moves", "a1a5", "--depth", "1"][..],
            "--moves 1 (a1a5)",
        ),
    ] {
        let (status, out, err) = hnefi_in(&dir, args);
        assert_eq!((status, out.as_str()), (Some(2), ""), "{args:?}: {err}");
        assert!(
            err.starts_with(&format!("hnefi: {said}")),
            "{args:?}: {err}"
        );
    }
    // UCI's MultiPV takes what --multipv takes.
    let (status, out, err) = hnefi_in(&dir, &["analyse", "--multipv", "100", "--depth", "1"]);
    assert_eq!(status, Some(0), "{err}");
    assert!(out.contains("to move"), "{out}");
    // A missing network is the whole answer: no diagram before it.
    let (status, out, err) = hnefi_in(
        &dir,
        &["analyse", "--eval-file", "nosuch.net", "--depth", "3"],
    );
    assert_eq!((status, out.as_str()), (Some(1), ""), "{err}");
    assert!(err.contains("nosuch.net"), "{err}");
}

/// A quiet stretch of a real game gets no marks: moves 35-40 of game 541, where the score only
/// swings with the side to move (every attackers' move lands near 78 %, every defenders' near
/// 92 %), were 12 inaccuracies at this depth when each move was judged by the position before
/// it, each side leaving the same better move open move after move.
#[test]
fn annotate_leaves_a_quiet_stretch_of_a_real_game_unmarked() {
    let dir = common::Outside::new("annotate-quiet");
    let (status, _, err) = hnefi_in(
        &dir,
        &[
            "annotate", "--game", "541", "--depth", "6", "-o", "541.html",
        ],
    );
    assert_eq!(status, Some(0), "{err}");
    let page = std::fs::read_to_string(dir.0.join("541.html")).expect("541.html");
    let judged: Vec<&str> = page
        .split("<strong>")
        .skip(1)
        .filter_map(|part| {
            let (label, rest) = part.split_once("</strong>")?;
            rest.trim_start()
                .starts_with("<span class=\"badge")
                .then_some(label)
        })
        .collect();
    let number = |label: &str| -> usize {
        label
            .split('.')
            .next()
            .unwrap_or_default()
            .parse()
            .unwrap_or(0)
    };
    let quiet: Vec<&&str> = judged
        .iter()
        .filter(|l| (35..=40).contains(&number(l)))
        .collect();
    assert!(quiet.is_empty(), "marked in moves 35-40: {quiet:?}");
    // The real mistakes stay marked: 5. j6-j3 and 21. h10-g10 lost ground at every depth.
    for kept in ["5. j6-j3", "21. h10-g10"] {
        assert!(judged.contains(&kept), "{kept} unmarked: {judged:?}");
    }
}
