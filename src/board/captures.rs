//! Custodial and shieldwall captures, both read off the board as it stands right after the
//! move, so that every captured piece is removed at once.

use super::bitboard::Bitboard;
use super::geometry::Geometry;
use super::piece::Side;
use super::position::Board;
use super::rules::Rules;
use super::square::{Direction, Square};

/// The custodial geometry of one side's captures: the pieces that close them, the pieces
/// that can be taken, and the squares that close a capture on the far side of a victim.
#[derive(Clone, Copy, Debug)]
pub struct Custodial<G: Geometry> {
    /// The mover's pieces that close a capture (the king too where he is armed).
    pub hammers: Bitboard<G>,
    /// Enemy pieces that can be taken custodially (never the king).
    pub victims: Bitboard<G>,
    /// Squares hostile to the victims: the hammers, the corners, and the throne where the
    /// rules make it hostile.
    pub anvils: Bitboard<G>,
}

impl<G: Geometry> Custodial<G> {
    #[inline]
    pub fn of(board: &Board<G>, mover: Side, rules: &Rules) -> Self {
        let king = board.king();
        let king_bb = if rules.king_armed {
            Bitboard::<G>::from_square(king)
        } else {
            Bitboard::<G>::EMPTY
        };
        let (hammers, victims, throne_hostile) = match mover {
            Side::Attackers => (
                board.attackers(),
                board.defenders(),
                // The throne is hostile to defenders only while it is empty.
                !king.is_throne(),
            ),
            Side::Defenders => (board.defenders() | king_bb, board.attackers(), true),
        };
        let mut anvils = hammers | Bitboard::<G>::CORNERS;
        if throne_hostile {
            anvils |= Bitboard::<G>::THRONE;
        }
        Custodial {
            hammers,
            victims,
            anvils,
        }
    }

    /// Per direction, the empty squares where a piece landing captures the victim one step
    /// further that way (shieldwalls not counted). Indexed by [`Direction::index`].
    #[inline]
    pub fn landings(&self, empty: Bitboard<G>) -> [Bitboard<G>; 4] {
        Direction::ALL.map(|dir| {
            let back = dir.opposite();
            (self.victims & self.anvils.shift(back)).shift(back) & empty
        })
    }
}

/// The enemy pieces that the piece of `mover` just landed on `to` captures. The moved piece is
/// already on `to`; nothing has been removed yet. The king is never in the result.
#[inline]
pub(crate) fn captured_by<G: Geometry>(
    board: &Board<G>,
    to: Square<G>,
    mover: Side,
    rules: &Rules,
) -> Bitboard<G> {
    if to == board.king() && !rules.king_armed {
        return Bitboard::<G>::EMPTY;
    }
    let Custodial {
        hammers,
        victims,
        anvils,
    } = Custodial::of(board, mover, rules);
    let to_bb = Bitboard::<G>::from_square(to);
    let mut captured = Bitboard::<G>::EMPTY;
    for dir in Direction::ALL {
        let next = to_bb.shift(dir) & victims;
        if next.any() && (next.shift(dir) & anvils).any() {
            captured |= next;
        }
    }
    if rules.shieldwall && to.is_edge() {
        captured |= shieldwall(board, to, mover, hammers);
    }
    captured
}

/// The edge lines through `sq`: the direction along the edge and the direction inward.
/// A corner lies on two edges; other edge squares on one.
pub(crate) fn edge_lines<G: Geometry>(
    sq: Square<G>,
) -> impl Iterator<Item = (Direction, Direction)> {
    use Direction::*;
    let (f, r) = (sq.file(), sq.rank());
    let last = G::SIDE - 1;
    let horizontal = if r == 0 {
        Some(North)
    } else if r == last {
        Some(South)
    } else {
        None
    };
    let vertical = if f == 0 {
        Some(East)
    } else if f == last {
        Some(West)
    } else {
        None
    };
    let h = horizontal.into_iter().flat_map(|i| [(East, i), (West, i)]);
    let v = vertical.into_iter().flat_map(|i| [(North, i), (South, i)]);
    h.chain(v)
}

/// A shieldwall closed by the piece on the edge square `to`: walking away from `to` along the
/// edge, a row of two or more enemies (the king counts) each with a hammer in front of it,
/// ended by a hammer or a corner. The row's pieces other than the king are captured.
fn shieldwall<G: Geometry>(
    board: &Board<G>,
    to: Square<G>,
    mover: Side,
    hammers: Bitboard<G>,
) -> Bitboard<G> {
    let enemies = board.pieces(mover.opponent());
    let mut captured = Bitboard::<G>::EMPTY;
    for (along, inward) in edge_lines(to) {
        let mut row = Bitboard::<G>::EMPTY;
        let mut cur = to;
        let closed = loop {
            let Some(next) = cur.step(along) else {
                break false;
            };
            if !enemies.contains(next) {
                break hammers.contains(next) || next.is_corner();
            }
            let guarded = next
                .step(inward)
                .is_some_and(|front| hammers.contains(front));
            if !guarded {
                break false;
            }
            row = row.with(next);
            cur = next;
        };
        if closed && row.count() >= 2 {
            captured |= row.without(board.king());
        }
    }
    captured
}
