//! The exit fort: a proof that the attackers can never break the wall around a king on the edge.
//!
//! # The test
//! Let `W` be a set of defenders (the wall). Assume every piece of `W` stays on the board
//! forever; the king moves back and forth in his room and no other defender moves. Then:
//! - attackers can only ever stand on squares 4-connected to an attacker through squares
//!   outside `W` and off the corners (`reach`; an over-estimate, since it ignores that
//!   attackers block each other, lets them pass the king and the other defenders, which may be
//!   captured, and lets them cross the throne);
//! - there are never more attackers than the `n` on the board now: nothing adds an attacker,
//!   captures only take them away. A capture needs an attacker on each of its squares at once,
//!   so one that needs more than `n` squares filled can never happen;
//! - a piece of `W` can only be captured custodially if, on some axis, an attacker can land on
//!   one neighbour (a square in `reach`, off the throne) while the other neighbour is hostile:
//!   a corner, the throne (counted hostile even when the king is on it), or, with `n >= 2`,
//!   a square in `reach` holding a second attacker. With `n = 1` only a corner or the throne
//!   can be the partner;
//! - or in a shieldwall row: a run of two or more defenders on the edge, each with a landable
//!   square in front, whose two end squares can each hold an attacker or are corners, one of
//!   them landable, and with no more squares to fill (one per front, one per end that is not a
//!   corner) than `n`. The king is never in such a row, because his room is sealed from `reach`.
//!
//! Start with `W` = all defenders and drop every piece that fails this test; repeat until
//! nothing drops (a greatest fixed point; each round but the last drops a piece). If the king
//! is then still out of `reach`, `W` is a fort: in any sequence of attacker moves, the first
//! capture of a piece of `W` would happen while all of `W` stands and with at most `n`
//! attackers on the board, so it would have to be one of the captures the test ruled out.
//! The king, whose neighbours are all in his room, in `W` or off the board, never has an
//! attacker beside him and cannot be captured either.
//!
//! Every over-estimate above only ever makes the test say "breakable", and the count of
//! attackers only rules out captures that need more attackers than can ever exist, so it is
//! sound: it never calls a breakable fort a fort. It recognises forts of any shape, with any
//! number of sealed pockets: a square outside `reach` protects a wall piece whether it is the
//! king's room or not; and a wall that a lone attacker can walk all around, but which two
//! attackers could sandwich, holds when only one attacker is left.

use super::bitboard::Bitboard;
use super::captures::edge_lines;
use super::geometry::{Geometry, MAX_SIDE, MAX_SQUARES};
use super::position::Board;
use super::square::{Direction, Square};

/// Whether the defenders have an exit fort: the king on the edge, able to move, and enclosed by
/// a wall that no sequence of attacker moves can break. See the module documentation.
pub fn is_exit_fort<G: Geometry>(board: &Board<G>) -> bool {
    let king = board.king();
    if !king.is_edge() {
        return false;
    }
    let occupied = board.occupied();
    if (Bitboard::<G>::from_square(king).neighbours() & !occupied).is_empty() {
        return false;
    }
    let attackers = board.attackers().count();
    let mut wall = board.defenders();
    loop {
        let reach = board.attackers().flood(!wall & !Bitboard::<G>::CORNERS);
        if reach.contains(king) {
            return false;
        }
        let landable = reach & !Bitboard::<G>::RESTRICTED;
        // A lone attacker has no second attacker to close a sandwich with.
        let partner = if attackers >= 2 {
            landable | Bitboard::<G>::CORNERS | Bitboard::<G>::THRONE
        } else {
            Bitboard::<G>::CORNERS | Bitboard::<G>::THRONE
        };
        let breakable: Bitboard<G> = wall
            .filter(|&sq| {
                custodial_threat(sq, partner, landable)
                    || shieldwall_threat(board, sq, landable, attackers)
            })
            .collect();
        if breakable.is_empty() {
            return true;
        }
        wall ^= breakable;
    }
}

/// hnefatafl.org's exit fort: the test of the program behind that server (hnefatafl-copenhagen
/// 6.4.1), reproduced as the program behaves, for the `hnefatafl-org` preset. It is not a
/// proof: it reads the king's surroundings in one pass and can call a wall a fort that the
/// attackers could break, or that the king could leave by a corner beside him.
///
/// The king stands on the edge with an empty square (a corner or the throne too) beside him.
/// A depth-first fill starts on his four neighbours (pushed north, west, south, east, so the
/// east one is looked at first) and runs through empty squares, each pushing its unvisited
/// neighbours in the same order. An attacker met ends it: no fort. A defender or the king met
/// is tested on one axis only, across the step that reached it: reached going north or south,
/// it must have a defender, the king or the board's edge to its east or west; reached going
/// east or west, to its north or south. With two or more attackers on the board, a piece that
/// fails its test ends it too. Otherwise the fill runs out: a fort. A square is visited once,
/// so which axis a piece is tested on depends on the order of the fill; the king's own
/// neighbours are not marked visited, and may be met a second time from an empty square.
pub fn is_site_exit_fort<G: Geometry>(board: &Board<G>) -> bool {
    const ORDER: [Direction; 4] = [
        Direction::North,
        Direction::West,
        Direction::South,
        Direction::East,
    ];
    let king = board.king();
    let occupied = board.occupied();
    if !king.is_edge() || (Bitboard::<G>::from_square(king).neighbours() & !occupied).is_empty() {
        return false;
    }
    let attackers = board.attackers();
    let many = attackers.count() > 1;
    let friends = board.defenders().with(king);
    // (square, reached going north or south): each square is pushed once from an empty
    // square, and the king's neighbours once more at the start.
    let mut stack = [(0u8, false); MAX_SQUARES + 4];
    let mut len = 0;
    let mut visited = Bitboard::<G>::EMPTY;
    for dir in ORDER {
        if let Some(next) = king.step(dir) {
            stack[len] = (
                next.to_u8(),
                matches!(dir, Direction::North | Direction::South),
            );
            len += 1;
        }
    }
    while len > 0 {
        len -= 1;
        let (index, vertical) = stack[len];
        let sq = Square::<G>::from_index(index);
        if !occupied.contains(sq) {
            for dir in ORDER {
                if let Some(next) = sq.step(dir).filter(|&n| !visited.contains(n)) {
                    visited = visited.with(next);
                    stack[len] = (
                        next.to_u8(),
                        matches!(dir, Direction::North | Direction::South),
                    );
                    len += 1;
                }
            }
        } else if attackers.contains(sq) {
            return false;
        } else {
            let across = if vertical {
                [Direction::East, Direction::West]
            } else {
                [Direction::North, Direction::South]
            };
            let held = across
                .iter()
                .any(|&d| sq.step(d).is_none_or(|n| friends.contains(n)));
            if !held && many {
                return false;
            }
        }
    }
    true
}

/// Whether an attacker could land beside `sq` with a `partner` square on the far side.
fn custodial_threat<G: Geometry>(
    sq: Square<G>,
    partner: Bitboard<G>,
    landable: Bitboard<G>,
) -> bool {
    [
        (Direction::North, Direction::South),
        (Direction::East, Direction::West),
    ]
    .into_iter()
    .any(|(a, b)| match (sq.step(a), sq.step(b)) {
        (Some(x), Some(y)) => {
            (landable.contains(x) && partner.contains(y))
                || (landable.contains(y) && partner.contains(x))
        }
        _ => false,
    })
}

/// Whether the edge defender on `sq` could ever be in a closed shieldwall row. The row is made
/// of defenders standing now (no defender but the king moves), each with a landable front,
/// and needs no more attackers than the `attackers` there are.
fn shieldwall_threat<G: Geometry>(
    board: &Board<G>,
    sq: Square<G>,
    landable: Bitboard<G>,
    attackers: u32,
) -> bool {
    for (along, inward) in edge_lines(sq) {
        let member = |s: Square<G>| {
            board.defenders().contains(s) && s.step(inward).is_some_and(|f| landable.contains(f))
        };
        if !member(sq) {
            continue;
        }
        // The maximal run of possible members through `sq`, as squares ordered along the edge.
        let back = along.opposite();
        let mut lo = sq;
        while let Some(prev) = lo.step(back).filter(|&s| member(s)) {
            lo = prev;
        }
        let mut run: arrayvec::ArrayVec<Square<G>, { MAX_SIDE as usize }> =
            arrayvec::ArrayVec::new();
        run.push(lo);
        while let Some(next) = run
            .last()
            .and_then(|s| s.step(along))
            .filter(|&s| member(s))
        {
            run.push(next);
        }
        let at = run.iter().position(|&s| s == sq).unwrap_or(0);
        let end_ok =
            |s: Option<Square<G>>| s.is_some_and(|s| landable.contains(s) || s.is_corner());
        let lands = |s: Option<Square<G>>| s.is_some_and(|s| landable.contains(s));
        for i in 0..=at {
            for j in at.max(i + 1)..run.len() {
                let (before, after) = (run[i].step(back), run[j].step(along));
                let closers = [before, after]
                    .iter()
                    .filter(|s| !s.is_some_and(|s| s.is_corner()))
                    .count();
                let needed = (j - i + 1 + closers) as u32;
                if end_ok(before)
                    && end_ok(after)
                    && (lands(before) || lands(after))
                    && needed <= attackers
                {
                    return true;
                }
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::piece::Side;
    use crate::board::{Bitboard, Board, Eleven, Square};

    #[test]
    fn a_shieldwall_needs_an_attacker_on_every_square_it_fills() {
        let sq = |s: &str| Square::<Eleven>::parse(s).unwrap();
        let row = Bitboard::from_square(sq("b1")).with(sq("c1"));
        let board = Board::new(Bitboard::EMPTY, row, sq("k6"), Side::Attackers).unwrap();
        let landable = !row & !Bitboard::RESTRICTED;
        // b1 c1 closed by the corner a1 and an attacker on d1, with b2 and c2 in front: three.
        assert!(!shieldwall_threat(&board, sq("b1"), landable, 2));
        assert!(shieldwall_threat(&board, sq("b1"), landable, 3));
        assert!(shieldwall_threat(&board, sq("c1"), landable, 3));
    }

    /// From a game that hnefatafl.org's program ended and Hnefi did not (tests/server_rules.rs,
    /// game 26 of the built-in net g8): the king on b1 beside the corner, with defenders on
    /// a2, b2 and c1. The program's one-pass test calls it a fort; the proof does not, since
    /// an attacker landing on a3 takes a2 against the corner.
    const SITE_FORT: &str = "3aaaa4/6d4/2a8/2a2a1a3/a3d5a/aa8a/6d4/a6a2a/a6a3/dda3d2a1/1kda7";

    #[test]
    fn the_sites_test_calls_forts_that_the_proof_does_not() {
        use crate::board::notation::parse_fen;
        let fort = parse_fen(&format!("{SITE_FORT} a")).unwrap();
        assert!(is_site_exit_fort(&fort));
        assert!(!is_exit_fort(&fort));
        // Without the defender on a2 the fill runs from the corner to the attacker on a3.
        let open =
            parse_fen("3aaaa4/6d4/2a8/2a2a1a3/a3d5a/aa8a/6d4/a6a2a/a6a3/1da3d2a1/1kda7 a").unwrap();
        assert!(!is_site_exit_fort(&open));
        // The king on f1 with g1 free behind e1, f2, g2 and h1 is in a fort; with no empty
        // square beside him he is not.
        let walled = parse_fen("5a5/5a5/11/11/11/11/11/11/11/5dd4/4dk1d3 a").unwrap();
        assert!(is_site_exit_fort(&walled));
        let boxed = parse_fen("5a5/5a5/11/11/11/11/11/11/11/4ddd4/4dkd4 a").unwrap();
        assert!(!is_site_exit_fort(&boxed));
    }

    #[test]
    fn the_hnefatafl_org_preset_judges_the_sites_fort_after_either_sides_move() {
        use crate::board::notation::parse_fen;
        use crate::board::{Outcome, Position, Preset, Reason, Rules};
        let site = Rules::preset(Preset::HnefataflOrg);
        let won = Some(Outcome::win(Side::Defenders, Reason::ExitFort));
        // The defenders' move made it, or the attackers' move left it.
        for side in ["a", "d"] {
            let board = parse_fen(&format!("{SITE_FORT} {side}")).unwrap();
            assert_eq!(Position::new(board, site).outcome(), won, "{side} to move");
            let copenhagen = Position::new(board, Rules::preset(Preset::Copenhagen));
            assert_eq!(copenhagen.outcome(), None, "{side} to move");
        }
    }

    #[test]
    fn a_lone_attacker_sandwiches_only_against_a_corner_or_the_throne() {
        let sq = |s: &str| Square::<Eleven>::parse(s).unwrap();
        let landable = Bitboard::ALL & !Bitboard::RESTRICTED;
        let lone = Bitboard::CORNERS | Bitboard::THRONE;
        assert!(!custodial_threat(sq("d4"), lone, landable));
        assert!(custodial_threat(sq("d4"), lone | landable, landable));
        assert!(custodial_threat(sq("j1"), lone, landable));
        assert!(custodial_threat(sq("f5"), lone, landable));
    }
}
