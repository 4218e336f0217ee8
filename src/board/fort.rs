//! The exit fort: a proof that the attackers can never break the wall around a king on the edge.
//!
//! # The test
//! Let `W` be a set of defenders (the wall). Assume every piece of `W` stays on the board
//! forever; the king moves back and forth in his room and no other defender moves. Then:
//! - attackers can only ever stand on squares 4-connected to an attacker through squares
//!   outside `W` and off the corners (`reach`; an over-estimate, since it ignores that
//!   attackers block each other, lets them pass the king and the other defenders, which may be
//!   captured, and lets them cross the throne);
//! - a piece of `W` can only be captured if, on some axis, both neighbours can be hostile (a
//!   square in `reach`, a corner, or the throne, counted hostile even when the king is on it)
//!   and one of them is a square an attacker can land on; or if it can be in a shieldwall row:
//!   a run of two or more defenders on the edge, each with a landable square in front, whose
//!   two end squares can each hold an attacker or are corners, one of them landable.
//!   The king is never in such a row, because his room is sealed from `reach`.
//!
//! Start with `W` = all defenders and drop every piece that fails this test; repeat until
//! nothing drops (a greatest fixed point; each round but the last drops a piece). If the king is then still out of
//! `reach`, `W` is a fort: in any sequence of attacker moves, the first capture of a piece of
//! `W` would happen while all of `W` stands, so it would have to be one of the captures the
//! test ruled out. The king, whose neighbours are all in his room, in `W` or off the board,
//! never has an attacker beside him and cannot be captured either.
//!
//! Every over-estimate above only ever makes the test say "breakable", so it is sound: it never
//! calls a breakable fort a fort. It recognises forts of any shape, with any number of sealed
//! pockets: a square outside `reach` protects a wall piece whether it is the king's room or not.

use super::bitboard::Bitboard;
use super::captures::edge_lines;
use super::position::Board;
use super::square::{Direction, Square};

/// Whether the defenders have an exit fort: the king on the edge, able to move, and enclosed by
/// a wall that no sequence of attacker moves can break. See the module documentation.
pub fn is_exit_fort(board: &Board) -> bool {
    let king = board.king();
    if !king.is_edge() {
        return false;
    }
    let occupied = board.occupied();
    if (Bitboard::from_square(king).neighbours() & !occupied).is_empty() {
        return false;
    }
    let mut wall = board.defenders();
    loop {
        let reach = board.attackers().flood(!wall & !Bitboard::CORNERS);
        if reach.contains(king) {
            return false;
        }
        let landable = reach & !Bitboard::RESTRICTED;
        let hostile = landable | Bitboard::CORNERS | Bitboard::THRONE;
        let breakable: Bitboard = wall
            .filter(|&sq| {
                custodial_threat(sq, hostile, landable) || shieldwall_threat(board, sq, landable)
            })
            .collect();
        if breakable.is_empty() {
            return true;
        }
        wall ^= breakable;
    }
}

fn custodial_threat(sq: Square, hostile: Bitboard, landable: Bitboard) -> bool {
    [
        (Direction::North, Direction::South),
        (Direction::East, Direction::West),
    ]
    .into_iter()
    .any(|(a, b)| match (sq.step(a), sq.step(b)) {
        (Some(x), Some(y)) => {
            hostile.contains(x)
                && hostile.contains(y)
                && (landable.contains(x) || landable.contains(y))
        }
        _ => false,
    })
}

/// Whether the edge defender on `sq` could ever be in a closed shieldwall row. The row is made
/// of defenders standing now (no defender but the king moves), each with a landable front.
fn shieldwall_threat(board: &Board, sq: Square, landable: Bitboard) -> bool {
    for (along, inward) in edge_lines(sq) {
        let member = |s: Square| {
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
        let mut run: arrayvec::ArrayVec<Square, 11> = arrayvec::ArrayVec::new();
        run.push(lo);
        while let Some(next) = run
            .last()
            .and_then(|s| s.step(along))
            .filter(|&s| member(s))
        {
            run.push(next);
        }
        let at = run.iter().position(|&s| s == sq).unwrap_or(0);
        let end_ok = |s: Option<Square>| s.is_some_and(|s| landable.contains(s) || s.is_corner());
        let lands = |s: Option<Square>| s.is_some_and(|s| landable.contains(s));
        for i in 0..=at {
            for j in at.max(i + 1)..run.len() {
                let (before, after) = (run[i].step(back), run[j].step(along));
                if end_ok(before) && end_ok(after) && (lands(before) || lands(after)) {
                    return true;
                }
            }
        }
    }
    false
}
