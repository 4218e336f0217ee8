//! OpenTafl's engine protocol through the real binary.

use crate::common;

use hnefi::board::Board;
use hnefi::board::notation::parse_record_move;
use hnefi::search::size::Standard;
use std::io::{BufRead, BufReader, Write};
use std::sync::mpsc::channel;
use std::time::Duration;

const COPENHAGEN: &str = "rules dim:11 name:Copenhagen atkf:y tfr:w sw:s efe:y start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/";

#[test]
fn a_game_turn_by_turn() {
    let mut child = common::spawn_hnefi(&[]);
    let mut stdin = child.stdin.take().expect("stdin");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let next = |prefix: &str| loop {
        let line = rx
            .recv_timeout(Duration::from_secs(60))
            .unwrap_or_else(|_| panic!("no '{prefix}'"));
        if line.starts_with(prefix) {
            return line;
        }
    };
    // The host says nothing until it hears hello.
    assert_eq!(next("hello"), "hello");
    let mut send = |text: &str| {
        stdin
            .write_all(format!("{text}\n").as_bytes())
            .expect("write");
        stdin.flush().expect("flush");
    };
    send(COPENHAGEN);
    send("side attackers");
    send("clock 2000 2000 0 0 0 ");
    send("play attackers");
    let reply = next("move ");
    let mv = parse_record_move(&reply["move ".len()..])
        .expect("a move")
        .mv;
    let mut board = Board::start();
    board.check_move(mv).expect("legal");
    board.play(mv, &hnefi::board::Rulebook::default());
    // The host confirms with the position, then the opponent answers.
    send(&format!(
        "move {}",
        hnefi::board::notation::to_opentafl(&board)
    ));
    let reply_mv = {
        let mut list = hnefi::board::MoveList::new();
        board.generate_moves(&hnefi::board::Rulebook::default(), &mut list);
        list[0]
    };
    board.play(reply_mv, &hnefi::board::Rulebook::default());
    send(&format!(
        "opponent-move {}-{} {}",
        reply_mv.from(),
        reply_mv.to(),
        hnefi::board::notation::to_opentafl(&board)
    ));
    send("clock 1800* 2000 0 0 0 ");
    send("play attackers");
    let reply = next("move ");
    let mv = parse_record_move(&reply["move ".len()..])
        .expect("a move")
        .mv;
    assert!(board.check_move(mv).is_ok(), "{reply} on {board:?}");
    // Rules Hnefi cannot play are refused with the reason, which the host shows.
    send("rules dim:9 name:Tablut start:/9/9/9/9/9/9/9/9/9/");
    let refusal = next("error");
    assert!(
        refusal.starts_with("error 0 Hnefi cannot play these rules: start: "),
        "{refusal}"
    );
    send("finish 2");
    send("goodbye");
    let status = child.wait().expect("exit");
    assert!(status.success());
}

/// The rules and the 11x11 start of a rules string.
fn read_rules(text: &str) -> Result<(hnefi::board::Rules, Board<Standard>), String> {
    use hnefi::protocol::otep::rules::{parse_rules, start};
    let variant = parse_rules(text).map_err(|e| e.to_string())?;
    let board = start::<hnefi::search::size::Standard>(&variant).map_err(|e| e.to_string())?;
    Ok((variant.rules, board))
}

#[test]
fn rules_strings() {
    let (rules, board) = read_rules(&COPENHAGEN["rules ".len()..]).expect("copenhagen");
    assert_eq!(board, Board::start());
    assert!(rules.shieldwall && rules.exit_fort && rules.encirclement);
    for bad in [
        "dim:11 start:/11/",
        "dim:11 atkf:n",
        "dim:11",
        "dim:11 start:/junk/",
        "nonsense",
    ] {
        assert!(read_rules(bad).is_err(), "{bad}");
    }
}

#[test]
fn malformed_lines_are_reported_and_the_game_goes_on() {
    let mut child = common::spawn_hnefi(&["--protocol", "otep"]);
    let mut stdin = child.stdin.take().expect("stdin");
    let huge = "y".repeat(2 << 20);
    let script = format!(
        "{COPENHAGEN}\nfrobnicate\nposition /junk/\nopponent-move\nplay sideways\n{huge}\n\
         \u{1}\u{2}\n\nclock 100 100 0 0 0 \nplay attackers\ngoodbye\n"
    );
    stdin.write_all(script.as_bytes()).expect("write");
    drop(stdin);
    let out = child.wait_with_output().expect("run");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "hello");
    let errors = lines
        .iter()
        .filter(|l| l.starts_with("status error") || l.starts_with("error"))
        .count();
    assert!(errors >= 6, "{lines:?}");
    // The Copenhagen game survived: the reply is a legal first move.
    let reply = lines
        .iter()
        .find(|l| l.starts_with("move "))
        .expect("a move");
    let mv = parse_record_move(&reply["move ".len()..])
        .expect("a move")
        .mv;
    assert!(Board::start().check_move(mv).is_ok(), "{reply}");
}

/// Berserk, as OpenTafl's host sends it for its variant 5 (on 7x7 here).
const BERSERK: &str = "rules dim:7 ber:y start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";

#[test]
fn under_rules_it_cannot_play_a_move_asked_ends_the_game_with_a_critical_error() {
    let mut child = common::spawn_hnefi(&["--protocol", "otep"]);
    let mut stdin = child.stdin.take().expect("stdin");
    // Refused rules at the start, rules of a board it does not play, rules it plays, then, in
    // the middle of that game, rules it cannot play again. Each refusal is an error with its
    // reason, non-critical: OpenTafl's host sends rules before its game begins, and fails on a
    // critical error then. Each move asked under refused rules is the critical error, on
    // which the host ends the game; an analysis asked, a non-critical one.
    let script = format!(
        "{BERSERK}\nclock 100 100 0 0 0 \nplay attackers\nrules dim:10 start:/3t3/\n\
         play attackers\n{COPENHAGEN}\nclock 100 100 0 0 0 \nplay attackers\n{BERSERK}\n\
         play defenders\nanalyze 1 1\ngoodbye\n"
    );
    stdin.write_all(script.as_bytes()).expect("write");
    drop(stdin);
    let out = child.wait_with_output().expect("run");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    let errors: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| l.starts_with("error"))
        .collect();
    let berserk = "'ber:y' is not supported: Hnefi plays no special pieces, jumps or berserk moves";
    let no_move = "error -1 Hnefi cannot play these rules, so it has no move: ";
    assert_eq!(
        errors,
        [
            format!("error 0 Hnefi cannot play these rules: {berserk}"),
            format!("{no_move}{berserk}"),
            "error 0 Hnefi cannot play these rules: board size '10' (Hnefi plays 7, 9, 11 and 13)"
                .to_string(),
            format!("{no_move}board size '10' (Hnefi plays 7, 9, 11 and 13)"),
            format!("error 0 Hnefi cannot play these rules: {berserk}"),
            format!("{no_move}{berserk}"),
            format!("error 0 Hnefi cannot analyse under these rules: {berserk}"),
        ],
        "{lines:?}"
    );
    // Only the Copenhagen game is answered, with a legal move of its own; nothing is analysed.
    let moves: Vec<&&str> = lines.iter().filter(|l| l.starts_with("move ")).collect();
    assert_eq!(moves.len(), 1, "{lines:?}");
    let mv = parse_record_move(&moves[0]["move ".len()..])
        .expect("a move")
        .mv;
    assert!(Board::start().check_move(mv).is_ok(), "{moves:?}");
    assert!(
        !lines.iter().any(|l| l.starts_with("analysis")),
        "{lines:?}"
    );
}

/// The 15-defender study of tests/uci.rs as an OpenTafl position (rank 1 first).
const STUDY_15: &str = "/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t3TTT3t/5T5/5t5/3ttttt3/";

#[test]
fn a_study_with_fifteen_defenders_as_start_and_as_position() {
    let study = hnefi::board::notation::parse_opentafl(STUDY_15, hnefi::board::Side::Defenders)
        .expect("a playable study");
    assert_eq!(study.defenders().count(), 15);
    let (_, start) = read_rules(&format!(
        "dim:11 name:Copenhagen atkf:y tfr:w sw:s efe:y start:{STUDY_15}"
    ))
    .expect("rules with the study as start");
    assert_eq!(start.defenders().count(), 15);
    // Through the binary: as the rules' start, then as a position sent after normal rules.
    for setup in [
        format!("rules dim:11 name:Copenhagen atkf:y tfr:w sw:s efe:y start:{STUDY_15}"),
        format!("{COPENHAGEN}\nposition {STUDY_15}"),
    ] {
        let mut child = common::spawn_hnefi(&["--protocol", "otep", "--nodes", "2000"]);
        let mut stdin = child.stdin.take().expect("stdin");
        let script = format!("{setup}\nplay defenders\ngoodbye\n");
        stdin.write_all(script.as_bytes()).expect("write");
        drop(stdin);
        let out = child.wait_with_output().expect("run");
        assert!(out.status.success());
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(!text.contains("error"), "{text}");
        let reply = text
            .lines()
            .find(|l| l.starts_with("move "))
            .unwrap_or_else(|| panic!("a move in {text}"));
        let mv = parse_record_move(&reply["move ".len()..])
            .expect("a move")
            .mv;
        assert!(study.check_move(mv).is_ok(), "{reply}");
    }
}

#[test]
fn the_level_reaches_the_opentafl_protocol() {
    // However long the host lets it think, level 0 searches three plies: the depth of its
    // status lines says so (full strength would go on to the node limit, many plies deeper).
    let mut child =
        common::spawn_hnefi(&["--level", "0", "--movetime", "600000", "--nodes", "2000000"]);
    let mut stdin = child.stdin.take().expect("stdin");
    let stdout = BufReader::new(child.stdout.take().expect("stdout"));
    stdin
        .write_all(format!("{COPENHAGEN}\nside attackers\nplay attackers\n").as_bytes())
        .expect("write");
    stdin.flush().expect("flush");
    let mut depths = Vec::new();
    for line in stdout.lines().map_while(Result::ok) {
        if line.starts_with("move ") {
            break;
        }
        if let Some(depth) = line.strip_prefix("status depth ") {
            depths.extend(
                depth
                    .split_whitespace()
                    .next()
                    .and_then(|d| d.parse::<u32>().ok()),
            );
        }
    }
    assert_eq!(depths.iter().max(), Some(&3), "{depths:?}");
    stdin.write_all(b"goodbye\n").expect("write");
    drop(stdin);
    assert!(child.wait().expect("exit").success());
}

/// Tawlbwrdd (weak king, edge escape) as OpenTafl's network host sent it, and the position
/// of a game on that host in which Hnefi, as the defenders, took c9-d9 for a win in three:
/// the king sees two open lines from d9, but a9-c9 captures him there between c9 and e9.
const TAWLBWRDD: &str = "rules dim:11 name:Tawlbwrdd esc:e atkf:y ks:w nj:n cj:n cor: cen: start:/4ttt4/4t1t4/5t5/5T5/tt2TTT2tt/t1tTTKTTt1t/tt2TTT2tt/5T5/5t5/4t1t4/4ttt4/";
const WEAK_KING_TRAP: &str =
    "/6t4/5tt4/5t5/2t1t6/1t3TT2tt/1T5Tt1t/2t2TT2tt/1T2t6/t1K1t1tt3/2t8/4T1t4/";

#[test]
fn a_weak_king_is_not_sent_where_he_is_captured() {
    let mut child = common::spawn_hnefi(&["--protocol", "otep", "--nodes", "20000"]);
    let mut stdin = child.stdin.take().expect("stdin");
    let stdout = BufReader::new(child.stdout.take().expect("stdout"));
    // Input stays open until the move: at its end the engine would answer at once.
    let script = format!(
        "{TAWLBWRDD}\nposition {WEAK_KING_TRAP}\nclock 20000 17000 2 3 3 \nplay defenders\n"
    );
    stdin.write_all(script.as_bytes()).expect("write");
    stdin.flush().expect("flush");
    let mut lines = Vec::new();
    for line in stdout.lines().map_while(Result::ok) {
        let done = line.starts_with("move ");
        lines.push(line);
        if done {
            break;
        }
    }
    stdin.write_all(b"goodbye\n").expect("write");
    drop(stdin);
    assert!(child.wait().expect("exit").success());
    // No depth claims the false win in three (a real win, if one is found, is longer).
    let quick_wins = lines
        .iter()
        .filter_map(|l| {
            l.split(" win in ")
                .nth(1)?
                .split(' ')
                .next()?
                .parse::<u32>()
                .ok()
        })
        .filter(|&plies| plies <= 3)
        .count();
    assert_eq!(quick_wins, 0, "{lines:?}");
    assert_ne!(
        lines.last().map(String::as_str),
        Some("move c9-d9"),
        "{lines:?}"
    );
}
