//! Every board diagram of the rule seeds, read from the seed files themselves, as a test.
//!
//! Seed 001 draws its diagrams in text: `A`/`D`/`K` are pieces, `a`/`d`/`k` pieces that the
//! shown move captures (or a captured king), `R` a restricted square, and arrows the path of
//! the moving piece, which lands on the square after the last arrow. The other seeds lost their
//! pictures; their captions are rebuilt by hand at the end of this file.

mod common;

use common::{setup, sq, squares};
use hnefi::board::fort::is_exit_fort;
use hnefi::board::{Bitboard, Board, Move, Reason, Rules, Side, Square};

struct Diagram {
    heading: String,
    /// (file, rank) -> character, rank 0 = rank 1.
    cells: [[char; 11]; 11],
}

impl Diagram {
    fn at(&self, s: Square) -> char {
        self.cells[s.rank() as usize][s.file() as usize]
    }

    fn find(&self, chars: &str) -> Bitboard {
        Square::all()
            .filter(|&s| chars.contains(self.at(s)))
            .collect()
    }

    /// The move the arrows draw, if any.
    fn arrow_move(&self) -> Option<Move> {
        let arrows = self.find("→←↑↓");
        let first = arrows.into_iter().next()?;
        let dir = match self.at(first) {
            '→' => hnefi::board::square::Direction::East,
            '←' => hnefi::board::square::Direction::West,
            '↑' => hnefi::board::square::Direction::North,
            _ => hnefi::board::square::Direction::South,
        };
        // Walk back from any arrow to the piece, then forward past the last arrow.
        let mut from = first;
        while arrows.contains(from) {
            from = from.step(dir.opposite()).expect("arrow path has a piece");
        }
        let mut to = from.step(dir).expect("path");
        while arrows.contains(to) {
            to = to.step(dir).expect("path");
        }
        Some(Move::new(from, to))
    }

    /// The board before the move, with the side of the moving piece (or `side`) to move.
    fn board(&self, side: Side) -> Board {
        // Diagrams of plain captures have no king: put him where he touches nothing.
        let occupied = self.find("AaDdKk←→↑↓");
        let king = self.find("Kk").first().unwrap_or_else(|| {
            Square::all()
                .find(|&s| {
                    !s.is_restricted()
                        && !s.is_edge()
                        && (Bitboard::from_square(s).neighbours().with(s) & occupied).is_empty()
                        && self
                            .arrow_move()
                            .is_none_or(|m| s.rank() != m.to().rank() && s.file() != m.to().file())
                })
                .expect("room for the king")
        });
        let mover_side = self
            .arrow_move()
            .map(|m| match self.at(m.from()) {
                'A' => Side::Attackers,
                _ => Side::Defenders,
            })
            .unwrap_or(side);
        Board::new(self.find("Aa"), self.find("Dd"), king, mover_side).expect("valid diagram")
    }
}

fn seed_diagrams() -> Vec<Diagram> {
    let path = common::shared_dir().join("rules/seeds/001_a8af47d60324eeee.txt");
    let text = std::fs::read_to_string(path).expect("seed 001");
    let mut out = Vec::new();
    let mut heading = String::new();
    let mut in_block = false;
    let mut block: Vec<Vec<[char; 11]>> = Vec::new();
    for line in text.lines() {
        if line.starts_with('#') {
            let h = line.trim_start_matches('#').trim();
            // "5. Restricted Squares" -> "Restricted Squares"
            let h = h
                .split_once(". ")
                .filter(|(n, _)| n.parse::<u32>().is_ok())
                .map_or(h, |x| x.1);
            heading = h.to_string();
        } else if line.trim() == "```plain" {
            in_block = true;
            block.clear();
        } else if in_block && line.trim() == "```" {
            in_block = false;
            let boards = block.first().map_or(0, Vec::len);
            for b in 0..boards {
                let mut cells = [['.'; 11]; 11];
                for (i, row) in block.iter().enumerate() {
                    cells[10 - i] = row[b];
                }
                out.push(Diagram {
                    heading: heading.clone(),
                    cells,
                });
            }
        } else if in_block {
            let t = line.trim_start();
            let digits = t.chars().take_while(char::is_ascii_digit).count();
            if digits == 0 || !t[digits..].starts_with('│') {
                continue;
            }
            let rows: Vec<[char; 11]> = t[digits..]
                .split('│')
                .map(|seg| seg.chars().collect::<Vec<_>>())
                .filter(|seg| seg.len() == 11)
                .map(|seg| seg.try_into().expect("11 cells"))
                .collect();
            block.push(rows);
        }
    }
    out
}

#[test]
fn seed_001_has_all_its_diagrams() {
    let headings: Vec<String> = seed_diagrams().into_iter().map(|d| d.heading).collect();
    let count = |h: &str| headings.iter().filter(|x| *x == h).count();
    assert_eq!(count("Captures"), 4);
    assert_eq!(count("Doesn't Capture"), 2);
    assert_eq!(count("Shield Wall"), 2);
    assert_eq!(count("Restricted Squares"), 1);
    assert_eq!(count("Exit Forts"), 2);
    assert_eq!(count("The King is Captured"), 3);
    assert_eq!(count("The King is Not Captured"), 2);
}

#[test]
fn seed_001_restricted_squares_are_the_marked_ones() {
    for d in seed_diagrams() {
        let marked = d.find("R");
        assert_eq!(
            marked & !Bitboard::RESTRICTED,
            Bitboard::EMPTY,
            "{}",
            d.heading
        );
        if d.heading == "Restricted Squares" {
            assert_eq!(marked, Bitboard::RESTRICTED);
        }
    }
}

#[test]
fn seed_001_move_diagrams_capture_exactly_the_marked_pieces() {
    let rules = Rules::default();
    let mut checked = 0;
    for d in seed_diagrams() {
        let Some(mv) = d.arrow_move() else { continue };
        let mut board = d.board(Side::Attackers);
        board
            .check_move(mv)
            .unwrap_or_else(|e| panic!("{}: {mv:?}: {e}", d.heading));
        let captured = board.play(mv, &rules);
        assert_eq!(captured, d.find("ad"), "{}: {mv:?}", d.heading);
        assert_eq!(board.key(), board.compute_key());
        if d.heading == "Doesn't Capture" {
            assert!(captured.is_empty());
        }
        checked += 1;
    }
    assert_eq!(checked, 8);
}

/// Every way an attacker next to the king can arrive: step it back one square along its line
/// and move it in again. Returns whether each such move captures the king.
fn closing_moves_capture(d: &Diagram, rules: &Rules) -> Vec<bool> {
    let base = d.board(Side::Attackers);
    let king = base.king();
    let mut results = Vec::new();
    for dir in hnefi::board::square::Direction::ALL {
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
        b.play(mv, rules);
        results.push(b.mover_win(mv, rules).map(|o| o.reason) == Some(Reason::KingCaptured));
    }
    results
}

#[test]
fn seed_001_king_diagrams() {
    let rules = Rules::default();
    for d in seed_diagrams() {
        match d.heading.as_str() {
            "The King is Captured" => {
                assert!(d.find("k").any());
                let r = closing_moves_capture(&d, &rules);
                assert!(
                    !r.is_empty() && r.iter().all(|&c| c),
                    "{:?}",
                    d.board(Side::Attackers)
                );
            }
            "The King is Not Captured" => {
                assert!(d.find("K").any());
                let r = closing_moves_capture(&d, &rules);
                assert!(!r.is_empty() && r.iter().all(|&c| !c));
            }
            _ => {}
        }
    }
}

#[test]
fn seed_001_exit_forts_hold_even_when_surrounded() {
    let mut n = 0;
    for d in seed_diagrams().iter().filter(|d| d.heading == "Exit Forts") {
        let board = d.board(Side::Attackers);
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
    assert_eq!(b.play(mv, &rules), squares("h3 j3 i2"));
}
