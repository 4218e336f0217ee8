//! Every board diagram of rule seed 001 as a test, from its transcription in
//! `tests/data/seed_001_diagrams.txt` (that file's header gives the line format). The other
//! seeds lost their pictures; their captions are rebuilt by hand at the end of this file.

use crate::common;

use common::{setup, sq, squares};
use hnefi_rules::board::fort::is_exit_fort;
use hnefi_rules::board::notation::{parse_fen, parse_move};
use hnefi_rules::board::{Bitboard, Board, Eleven, Move, Reason, Rulebook, Rules, Side};

/// One diagram of seed 001.
struct Diagram {
    /// `seed 001 diagram N (caption)`.
    source: String,
    /// What the diagram shows: `capture`, `no-capture`, `shieldwall`, `restricted`,
    /// `exit-fort`, `king-captured` or `king-not-captured`.
    kind: String,
    /// The board before the move.
    board: Board<Eleven>,
    mv: Option<Move<Eleven>>,
    /// The pieces the diagram marks as taken by the move.
    captured: Bitboard<Eleven>,
    /// The squares the diagram draws as restricted.
    restricted: Bitboard<Eleven>,
}

fn square_list(text: &str, line: usize) -> Bitboard<Eleven> {
    if text == "-" {
        return Bitboard::EMPTY;
    }
    text.split_whitespace()
        .map(|s| {
            hnefi_rules::board::Square::parse(s).unwrap_or_else(|e| panic!("line {line}: {s}: {e}"))
        })
        .collect()
}

fn seed_diagrams() -> Vec<Diagram> {
    let path = common::repo_file("hnefi-rules/tests/data/seed_001_diagrams.txt");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty())
        .map(|(i, l)| {
            let line = i + 1;
            let f: Vec<&str> = l.split(" ; ").map(str::trim).collect();
            assert_eq!(f.len(), 6, "line {line}: expected 6 fields");
            Diagram {
                source: f[0].to_string(),
                kind: f[1].to_string(),
                board: parse_fen(f[2]).unwrap_or_else(|e| panic!("line {line}: {e}")),
                mv: (f[3] != "-")
                    .then(|| parse_move(f[3]).unwrap_or_else(|e| panic!("line {line}: {e}"))),
                captured: square_list(f[4], line),
                restricted: square_list(f[5], line),
            }
        })
        .collect()
}

#[test]
fn seed_001_has_all_its_diagrams() {
    let diagrams = seed_diagrams();
    for (n, d) in diagrams.iter().enumerate() {
        let number = format!("seed 001 diagram {} (", n + 1);
        assert!(
            d.source.starts_with(&number),
            "{} is not {number}",
            d.source
        );
    }
    let count = |kind: &str| diagrams.iter().filter(|d| d.kind == kind).count();
    assert_eq!(count("capture"), 4);
    assert_eq!(count("no-capture"), 2);
    assert_eq!(count("shieldwall"), 2);
    assert_eq!(count("restricted"), 1);
    assert_eq!(count("exit-fort"), 2);
    assert_eq!(count("king-captured"), 3);
    assert_eq!(count("king-not-captured"), 2);
    assert_eq!(diagrams.len(), 16);
}

#[test]
fn seed_001_restricted_squares_are_the_marked_ones() {
    for d in seed_diagrams() {
        let marked = d.restricted;
        assert_eq!(
            marked & !Bitboard::RESTRICTED,
            Bitboard::EMPTY,
            "{}",
            d.source
        );
        // A restricted square left undrawn must be hidden by the piece on it.
        assert_eq!(
            Bitboard::RESTRICTED & !marked & !d.board.occupied(),
            Bitboard::EMPTY,
            "{}",
            d.source
        );
        if d.kind == "restricted" {
            assert_eq!(marked, Bitboard::RESTRICTED);
        }
    }
}

#[test]
fn seed_001_move_diagrams_capture_exactly_the_marked_pieces() {
    let rules = Rules::default();
    let mut checked = 0;
    for d in seed_diagrams() {
        let Some(mv) = d.mv else { continue };
        let mut board = d.board;
        board
            .check_move(mv)
            .unwrap_or_else(|e| panic!("{}: {mv:?}: {e}", d.source));
        let captured = board.play(mv, &Rulebook::new(rules));
        assert_eq!(captured, d.captured, "{}: {mv:?}", d.source);
        assert_eq!(board.key(), board.compute_key());
        if d.kind == "no-capture" {
            assert!(captured.is_empty());
        }
        checked += 1;
    }
    assert_eq!(checked, 8);
}

/// Every way an attacker next to the king can arrive: step it back one square along its line
/// and move it in again. Returns whether each such move captures the king.
fn closing_moves_capture(d: &Diagram, rules: &Rules) -> Vec<bool> {
    let base = d.board.with_side_to_move(Side::Attackers);
    let king = base.king();
    let mut results = Vec::new();
    for dir in hnefi_rules::board::square::Direction::ALL {
        let Some(n) = king.step(dir) else { continue };
        if !base.attackers().contains(n) {
            continue;
        }
        let Some(back) = n
            .step(dir)
            .filter(|b| base.piece_at(*b).is_none() && !b.is_restricted())
        else {
            continue;
        };
        let mut b = Board::new(
            base.attackers().without(n).with(back),
            base.defenders(),
            king,
            Side::Attackers,
        )
        .expect("valid");
        let mv = Move::new(back, n);
        b.check_move(mv).expect("legal");
        b.play(mv, &Rulebook::new(*rules));
        let win = hnefi_rules::board::Rulebook::new(*rules).mover_win(&b, mv);
        results.push(win.map(|o| o.reason) == Some(Reason::KingCaptured));
    }
    results
}

#[test]
fn seed_001_king_diagrams() {
    let rules = Rules::default();
    for d in seed_diagrams() {
        match d.kind.as_str() {
            "king-captured" => {
                let r = closing_moves_capture(&d, &rules);
                assert!(
                    !r.is_empty() && r.iter().all(|&c| c),
                    "{}: {:?}",
                    d.source,
                    d.board
                );
            }
            "king-not-captured" => {
                let r = closing_moves_capture(&d, &rules);
                assert!(!r.is_empty() && r.iter().all(|&c| !c), "{}", d.source);
            }
            _ => {}
        }
    }
}

#[test]
fn seed_001_exit_forts_hold_even_when_surrounded() {
    let mut n = 0;
    for d in seed_diagrams().iter().filter(|d| d.kind == "exit-fort") {
        let board = d.board;
        assert!(is_exit_fort(&board), "{board:?}");
        // Fill every square that is outside the fort and touches it with attackers: still a fort.
        let room =
            Bitboard::from_square(board.king()).flood(!board.defenders() & !Bitboard::CORNERS);
        let around = (board.defenders().neighbours() | room.neighbours())
            & !board.occupied()
            & !room
            & !Bitboard::RESTRICTED;
        let besieged =
            Board::new(around, board.defenders(), board.king(), Side::Attackers).expect("valid");
        assert!(is_exit_fort(&besieged), "{besieged:?}");
        n += 1;
    }
    assert_eq!(n, 2);
}

// Seeds 000, 002 and 003: captions whose pictures are lost, rebuilt from their words.

/// Seed 003 figure 2: "The three white pieces at the bottom right can be captured at once"
/// (three separate custodial captures by one move) and seed 002 "sandwich more than one
/// opponent at once by moving into an empty square".
#[test]
fn seed_003_three_separate_captures_at_once() {
    let rules = Rules::default();
    let mut b = setup("a: g3 k3 i1 i11; d: h3 j3 i2; k: f6", Side::Attackers);
    let mv = Move::new(sq("i11"), sq("i3"));
    b.check_move(mv).unwrap();
    assert_eq!(b.play(mv, &Rulebook::new(rules)), squares("h3 j3 i2"));
}
