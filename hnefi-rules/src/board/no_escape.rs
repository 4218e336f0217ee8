//! hnefatafl.org's "the king cannot escape" win for the attackers.
//!
//! The program behind hnefatafl.org (hnefatafl-copenhagen 6.4.1) ends a game for the attackers
//! when, after any move, a test of its own says the king can no longer reach a corner. The
//! test is a heuristic, not a proof, and a position it calls lost may still be open to a
//! person; Hnefi plays that server, so it reproduces the test as the program behaves, quirks
//! included, and only under the `hnefatafl-org` preset. `tests/server_rules.rs` checks it
//! against the program itself.
//!
//! It says "cannot escape" in either of two cases.
//!
//! **The king boxed on the edge.** The king stands on an edge, not next to a corner, and the
//! two squares on each side of him along the edge hold attackers (a corner counts as one,
//! and as one more attacker in the count below). Then, with `a` the attackers on the board
//! plus those corners and `d` the defenders besides the king:
//! - if `a > 5`, the two squares straight in from the king must hold attackers too;
//! - and then it is lost if `d < 2`, or if `a > 7` and, beside the king on either side, the
//!   two squares in from the edge hold attackers.
//!
//! **Every corner sealed and the edges shut.** Each corner is sealed when the two squares
//! along both of its edges hold attackers, or when the empty squares a fill from the corner
//! reaches hold no defender and touch none. The fill starts on the corner's two neighbours,
//! which it crosses when they are empty or hold an attacker (a defender there is passed
//! over, neither crossed nor counted), and from there runs through empty squares only. The
//! edge squares of a sealed corner's area (its neighbours, the empty edge squares it reaches,
//! the corner, or the four attackers of the first kind) are shut; so is every attacker on an
//! edge. Then it is lost if on each of the four edges the squares not shut form at most one
//! unbroken run of at most 2 squares, or of at most 3 when `d < 6`, or in any case when
//! `d < 4` and `a >= 13` (`a` without corners here).

use super::bitboard::Bitboard;
use super::geometry::Geometry;
use super::position::Board;
use super::square::{Direction, Square};

/// Whether hnefatafl.org's program would now declare that the king cannot escape.
pub fn king_cannot_escape<G: Geometry>(board: &Board<G>) -> bool {
    let defenders = board.defenders().count();
    let attackers = board.attackers().count();
    if king_boxed_on_edge(board, defenders, attackers) {
        return true;
    }
    let Some(shut) = sealed_corners(board) else {
        return false;
    };
    let shut = shut | board.attackers();
    (defenders < 4 && attackers >= 13)
        || (defenders < 6 && edges_open_at_most(shut, 3))
        || edges_open_at_most(shut, 2)
}

/// The first case of the module documentation.
fn king_boxed_on_edge<G: Geometry>(board: &Board<G>, defenders: u32, attackers: u32) -> bool {
    let king = board.king();
    let Some(inward) = inward_direction(king) else {
        return false;
    };
    let along = match inward {
        Direction::North | Direction::South => [Direction::East, Direction::West],
        Direction::East | Direction::West => [Direction::North, Direction::South],
    };
    let is_attacker = |sq: Option<Square<G>>| sq.is_some_and(|s| board.attackers().contains(s));
    let mut count = attackers;
    for dir in along {
        let next = king.step(dir);
        if next.is_some_and(Square::is_corner) {
            return false;
        }
        let beyond = next.and_then(|s| s.step(dir));
        if beyond.is_some_and(Square::is_corner) {
            count += 1;
        } else if !is_attacker(beyond) {
            return false;
        }
        if !is_attacker(next) {
            return false;
        }
    }
    let inward_pair = |from: Option<Square<G>>| {
        let one = from.and_then(|s| s.step(inward));
        is_attacker(one) && is_attacker(one.and_then(|s| s.step(inward)))
    };
    if count > 5 && !inward_pair(Some(king)) {
        return false;
    }
    defenders < 2 || (count > 7 && along.iter().any(|&dir| inward_pair(king.step(dir))))
}

/// The direction from an edge square into the board; `None` off the edge. A corner is on two
/// edges, but the king on a corner has escaped and the test is not asked.
fn inward_direction<G: Geometry>(sq: Square<G>) -> Option<Direction> {
    if sq.file() == 0 {
        Some(Direction::East)
    } else if sq.file() == G::SIDE - 1 {
        Some(Direction::West)
    } else if sq.rank() == 0 {
        Some(Direction::North)
    } else if sq.rank() == G::SIDE - 1 {
        Some(Direction::South)
    } else {
        None
    }
}

/// The shut edge squares of all four corners if every corner is sealed, else `None`.
fn sealed_corners<G: Geometry>(board: &Board<G>) -> Option<Bitboard<G>> {
    let mut shut = Bitboard::<G>::EMPTY;
    for corner in Square::<G>::corners() {
        shut |= sealed_corner(board, corner)?;
    }
    Some(shut)
}

/// The shut squares of one corner if it is sealed.
fn sealed_corner<G: Geometry>(board: &Board<G>, corner: Square<G>) -> Option<Bitboard<G>> {
    let attackers = board.attackers();
    let defenders = board.pieces(crate::board::Side::Defenders);
    let (first, second) = corner_lines(corner);
    let wall = first | second;
    if (wall & attackers) == wall {
        return Some(wall.with(corner));
    }
    let seen = first.with(corner);
    let crossed = first & !defenders;
    let frontier = crossed.neighbours() & !seen;
    if (frontier & defenders).any() {
        return None;
    }
    let through = !board.occupied() & !seen;
    let seed = frontier & through;
    // The fill fails on touching a defender: it has then reached a square beside one.
    let beside_defenders = (defenders & !seen).neighbours();
    if seed.flood_reaches(through, beside_defenders) {
        return None;
    }
    let area = seed.flood(through);
    Some((area & Bitboard::<G>::EDGE) | crossed.with(corner))
}

/// A corner's two neighbours, and the two squares one further along the same edges.
fn corner_lines<G: Geometry>(corner: Square<G>) -> (Bitboard<G>, Bitboard<G>) {
    let (mut first, mut second) = (Bitboard::<G>::EMPTY, Bitboard::<G>::EMPTY);
    for dir in Direction::ALL {
        if let Some(one) = corner.step(dir) {
            first = first.with(one);
            if let Some(two) = one.step(dir) {
                second = second.with(two);
            }
        }
    }
    (first, second)
}

/// Whether on every edge the squares outside `shut` form at most one unbroken run of at most
/// `n` squares.
fn edges_open_at_most<G: Geometry>(shut: Bitboard<G>, n: u32) -> bool {
    let edges: [fn(u8) -> Square<G>; 4] = [
        |i| Square::from_index(i),
        |i| Square::from_index((G::SIDE - 1) * G::SIDE + i),
        |i| Square::from_index(i * G::SIDE),
        |i| Square::from_index(i * G::SIDE + G::SIDE - 1),
    ];
    edges.iter().all(|square| {
        let open: u32 = (0..G::SIDE)
            .filter(|&i| !shut.contains(square(i)))
            .fold(0, |bits, i| bits | 1 << i);
        let run = open >> open.trailing_zeros().min(31);
        open == 0 || (run & (run + 1) == 0 && open.count_ones() <= n)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::notation::parse_fen;
    use crate::board::{Board, Eleven};

    fn board(fen: &str) -> Board<Eleven> {
        parse_fen(fen).unwrap()
    }

    #[test]
    fn the_start_is_open() {
        assert!(!king_cannot_escape(&Board::start()));
    }

    #[test]
    fn a_king_boxed_on_the_edge_with_one_defender_left() {
        // The king on a6 between a4 a5 and a7 a8; five attackers in all, so nothing more is
        // asked of the squares in front of him.
        let boxed = board("11/11/11/a10/a10/k10/a10/a1d8/11/11/11 d");
        assert!(king_cannot_escape(&boxed));
        // A second defender keeps the game going.
        let two = board("11/11/11/a10/a10/k10/a10/a1d8/4d6/11/11 d");
        assert!(!king_cannot_escape(&two));
        // A gap in the box.
        let gap = board("11/11/11/a10/a10/k10/11/a1d8/11/11/11 d");
        assert!(!king_cannot_escape(&gap));
        // Beside a corner the test is never asked.
        let near = board("11/k10/a10/a10/11/11/11/3d7/11/11/11 d");
        assert!(!king_cannot_escape(&near));
    }

    #[test]
    fn a_corner_counts_as_an_attacker_in_the_box() {
        // The king on a3: a1 is the corner, a2 an attacker, a4 a5 attackers.
        let boxed = board("11/11/11/11/11/11/a10/a10/k10/a10/4d6 d");
        assert!(king_cannot_escape(&boxed));
    }

    #[test]
    fn many_attackers_need_the_squares_in_front() {
        // Six attackers besides the box's: more than five, so b6 and c6 must hold attackers.
        let open = board("11/11/11/a10/a10/k10/a10/a10/11/11/2aaaa5 d");
        assert!(!king_cannot_escape(&open));
        let closed = board("11/11/11/a10/a10/kaa8/a10/a10/11/11/4aa5 d");
        assert!(king_cannot_escape(&closed));
    }

    #[test]
    fn sealed_corners_and_shut_edges() {
        // Every corner walled by two attackers along each of its edges; on each edge three
        // open squares in one run. With five defenders that is lost, with six it is not.
        let ranks = |middle: &str| {
            format!("1aa3aaaa1/a9a/a9a/{middle}/3ddd5/4dk5/a9a/a9a/a9a/a9a/1aa3aaaa1 a")
        };
        assert!(king_cannot_escape(&board(&ranks("5d5"))));
        assert!(!king_cannot_escape(&board(&ranks("4dd5"))));
        // A gap in the wall of a1 lets the fill from the corner reach the defenders.
        let open = "1aa3aaaa1/a9a/a9a/5d5/3ddd5/4dk5/a9a/a9a/a9a/11/1aa3aaaa1 a";
        assert!(!king_cannot_escape(&board(open)));
    }
}
