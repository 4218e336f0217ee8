//! The hnefatafl text protocol through the real binary.

use crate::common;

use std::io::Write;

fn session(input: &str) -> Vec<String> {
    let mut child = common::spawn_hnefi(&[]);
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write");
    let out = child.wait_with_output().expect("run");
    assert!(out.status.success());
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn scripted_session_checks_every_reply() {
    let lines = session(
        "protocol_version\nname\nversion\nknown_command generate_move\nknown_command dance\n\
         board_size 11\nfirst_move\ntime_settings un-timed\n\
         play attacker d1 d3\nplay defender f4 f3 # a comment\n\
         play attacker e1 e3\nplay attacker a1 a2\nplay defender f3 g3\n\
         play_undo\nplay defender e4 e3\nfinal_status\ngenerate_move\nboard_size 9\n\
         time_settings fischer 5 3\nfoo\nquit\n",
    );
    let expected_prefix = [
        "= 1-beta",
        "= hnefi",
        "= ",
        "= true",
        "= false",
        "= ",
        "= attacker",
        "= ",
        "= ",
        "= ",
        "= ",
        "? it is the defenders' turn",
    ];
    for (i, e) in expected_prefix.iter().enumerate() {
        assert!(lines[i].starts_with(e), "reply {i}: {:?} vs {e}", lines[i]);
    }
    // f3-g3 is legal and captures nothing; undo takes it back; e4-e3 is not a defender move.
    assert_eq!(lines[12], "= ");
    assert_eq!(lines[13], "= ");
    assert!(lines[14].starts_with("? "), "{}", lines[14]);
    assert_eq!(lines[15], "= ongoing");
    assert!(lines[16].starts_with("= play defender "), "{}", lines[16]);
    assert!(
        lines[17].starts_with("? board size 9 not supported"),
        "{}",
        lines[17]
    );
    assert_eq!(lines[18], "= ");
    assert!(lines[19].starts_with("? unknown command"));
    assert_eq!(lines.last().map(String::as_str), Some("= "));
}

#[test]
fn captures_are_listed() {
    // The start of line 2 of copenhagen.csv: d1-d3 e5-e2 g1-g3 f4-c4 g3-e3xe2.
    let lines = session(
        "play attacker d1 d3\nplay defender e5 e2\nplay attacker g1 g3\n\
         play defender f4 c4\nplay attacker g3 e3\nquit\n",
    );
    assert_eq!(lines[4], "= e2 ");
}

#[test]
fn malformed_lines_get_errors_and_change_nothing() {
    let huge = "x".repeat(2 << 20);
    let input = format!(
        "play attacker d1 d3\nshow_board\nfrobnicate\nplay attacker\nplay defender z9 z1\n\
         play defender f4 f4\nplay defender f4\nplay defender d3 d5\nplay wizard f4 f3\n\
         board_size\ntime_settings fischer x 3\nknown_command\n{huge}\n\u{fffd}\u{1}junk\n\n   \n\
         show_board\nquit\n"
    );
    let lines = session(&input);
    // Every line but `known_command` (answered `= false`) and the blank ones is an error.
    let errors = lines.iter().filter(|l| l.starts_with("? ")).count();
    assert_eq!(errors, 11, "{lines:?}");
    // The two boards shown are the same: nothing changed in between.
    let first = lines
        .iter()
        .position(|l| l.starts_with(" 11 ") || l.starts_with("11 "));
    let last = lines
        .iter()
        .rposition(|l| l.starts_with(" 11 ") || l.starts_with("11 "));
    let (first, last) = (first.expect("a board"), last.expect("a board"));
    assert_ne!(first, last);
    assert_eq!(lines[first..first + 12], lines[last..last + 12]);
}

/// A game Hnefi (defenders) played against hnefatafl-copenhagen's AI through `hnefi match`.
/// Its last move, the king's `e3-k3xk2`, is legal by the rules (a capture recreates no board)
/// but the AI refused it ("you already reached that position"): it compares the board before
/// captures are taken off.
const REFUSED_CAPTURE_GAME: &str = "h11-h8 d6-d3 k7-i7 e7-b7 d11-d6 e5-b5xb6 k8-k9 f7-c7 a8-a9 \
     c7-c6xd6 e11-c11 e6-e9 e1-e6 d3-d6xe6 a4-e4 d6-d4xe4 k5-j5 f6-e6 f2-e2 e6-e3 a5-a4 e9-c9 \
     f10-f9 e3-a3 e2-a2 a3-k3 a2-k2 k3-a3 k2-a2 a3-e3 a2-k2 e3-k3xk2";

/// Whatever Hnefi prefers there, it must not offer the move that program would refuse.
#[test]
fn hnefi_avoids_captures_the_reference_server_refuses() {
    let moves: Vec<&str> = REFUSED_CAPTURE_GAME.split_whitespace().collect();
    let (last, before) = moves.split_last().unwrap();
    let mut input = String::from("time_settings un-timed\n");
    for (i, m) in before.iter().enumerate() {
        let (from, to) = m.split('x').next().unwrap().split_once('-').unwrap();
        let role = if i % 2 == 0 { "attacker" } else { "defender" };
        input += &format!("play {role} {from} {to}\n");
    }
    input += "generate_move defender\nquit\n";
    let lines = session(&input);
    assert!(
        lines[..=before.len()].iter().all(|l| l.starts_with('=')),
        "{lines:?}"
    );
    let answer = &lines[before.len() + 1];
    assert!(answer.starts_with("= play defender "), "{answer}");
    assert_ne!(
        answer,
        &format!(
            "= play defender {}",
            last.replace('-', " ").replace("xk2", "")
        )
    );
}

/// The engine's first move under the text protocol, started with `args`.
fn first_move(args: &[&str]) -> String {
    let mut child = common::spawn_hnefi(args);
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"protocol_version\ngenerate_move\nquit\n")
        .expect("write");
    let out = child.wait_with_output().expect("run");
    assert!(out.status.success());
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find(|l| l.starts_with("= play "))
        .expect("a move")
        .to_string()
}

#[test]
fn the_level_reaches_the_text_protocol() {
    // A beginner, unseeded, draws its own move each game. (Full strength is not compared:
    // under a node limit this protocol's search is not exactly repeatable either.)
    let beginner = ["--nodes", "3000", "--level", "0"];
    let moves: std::collections::HashSet<String> = (0..6).map(|_| first_move(&beginner)).collect();
    assert!(moves.len() > 1, "level 0 played only {moves:?}");

    let dir = common::fresh_dir("htp-level");
    for bad in ["21", "beginner"] {
        let (ok, stderr) = common::run_hnefi_in(&dir, &["--protocol", "htp", "--level", bad]);
        assert!(!ok && stderr.contains("level"), "{bad}: {stderr}");
    }
}
