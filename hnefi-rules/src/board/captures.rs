//! Custodial and shieldwall captures, both read off the board as it stands right after the
//! move, so that every captured piece is removed at once.

use super::bitboard::Bitboard;
use super::geometry::Geometry;
use super::moves::Move;
use super::piece::{Piece, Side};
use super::position::Board;
use super::rulebook::Rulebook;
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
    /// The custodial captures `mover` can make on `board` under `rulebook`.
    pub fn of(board: &Board<G>, mover: Side, rulebook: &Rulebook<G>) -> Self {
        let rules = rulebook.rules();
        let king = Bitboard::<G>::from_square(board.king());
        let (men, victims, victim) = match mover {
            Side::Attackers => (board.attackers(), board.defenders(), Piece::Defender),
            Side::Defenders => (board.defenders(), board.attackers(), Piece::Attacker),
        };
        let own_king = mover == Side::Defenders;
        if rulebook.terrain().classic_captures && rules.king_hammer && rules.king_anvil {
            // Copenhagen's squares as constants: the hot path of every board of that kind.
            let (hammers, throne_hostile) = match mover {
                Side::Attackers => (men, board.king() != Square::throne()),
                Side::Defenders => (men | king, true),
            };
            let mut anvils = hammers | Bitboard::CORNERS;
            if throne_hostile {
                anvils |= Bitboard::THRONE;
            }
            return Custodial {
                hammers,
                victims,
                anvils,
            };
        }
        let hammers = if own_king && rules.king_hammer {
            men | king
        } else {
            men
        };
        let partners = if own_king && rules.king_anvil {
            men | king
        } else {
            men
        };
        Custodial {
            hammers,
            victims,
            anvils: partners | rulebook.terrain().hostile_to(victim, board.occupied()),
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

/// The enemy pieces that the piece of `mover` just moved by `mv` captures. The moved piece is
/// already on its square; nothing has been removed yet. The king is never in the result.
#[inline]
pub(crate) fn captured_by<G: Geometry>(
    board: &Board<G>,
    mv: Move<G>,
    mover: Side,
    rulebook: &Rulebook<G>,
) -> Bitboard<G> {
    let to = mv.to();
    let rules = rulebook.rules();
    if to == board.king() && !rules.king_hammer {
        return Bitboard::<G>::EMPTY;
    }
    let Custodial {
        hammers,
        victims,
        anvils,
    } = Custodial::of(board, mover, rulebook);
    let to_bb = Bitboard::<G>::from_square(to);
    let mut captured = Bitboard::<G>::EMPTY;
    for dir in Direction::ALL {
        let next = to_bb.shift(dir) & victims;
        if next.any() && (next.shift(dir) & anvils).any() {
            captured |= next;
        }
    }
    if rules.shieldwall && (to.is_edge() || rules.shieldwall_any_move) {
        // The rules' corners, which a variant may move or leave out.
        let brackets = if rules.shieldwall_corners {
            rulebook.terrain().corners
        } else {
            Bitboard::EMPTY
        };
        if to.is_edge() {
            captured |= shieldwall(board, to, mover, hammers, brackets);
        }
        if rules.shieldwall_any_move {
            captured |= every_shieldwall(board, mover, hammers, brackets);
        }
    }
    if rules.linnaean && mover == Side::Attackers {
        captured |= linnaean(board, mv);
    }
    captured
}

/// Every complete shieldwall on the board, wherever the move was (OpenTafl's `swf:n`): along
/// each edge, a row of two or more enemies (the king counts) each with a hammer in front,
/// closed at both ends by a hammer or one of `brackets`. The rows' pieces other than the king
/// are captured.
fn every_shieldwall<G: Geometry>(
    board: &Board<G>,
    mover: Side,
    hammers: Bitboard<G>,
    brackets: Bitboard<G>,
) -> Bitboard<G> {
    let enemies = board.pieces(mover.opponent());
    let closers = hammers | brackets;
    let last = G::SIDE - 1;
    let mut captured = Bitboard::<G>::EMPTY;
    // The edges, each walked from one end, and the way in from each.
    for inward in Direction::ALL {
        // The row since the last closer, if one opened it.
        let mut row: Option<Bitboard<G>> = None;
        for i in 0..G::SIDE {
            let index = match inward {
                Direction::North => i,
                Direction::South => last * G::SIDE + i,
                Direction::East => i * G::SIDE,
                Direction::West => i * G::SIDE + last,
            };
            let sq = Square::<G>::from_index(index);
            if closers.contains(sq) {
                if let Some(r) = row.filter(|r| r.count() >= 2) {
                    captured |= r.without(board.king());
                }
                row = Some(Bitboard::EMPTY);
            } else if enemies.contains(sq)
                && sq.step(inward).is_some_and(|front| hammers.contains(front))
            {
                row = row.map(|r| r.with(sq));
            } else {
                row = None;
            }
        }
    }
    captured
}

/// Tablut's Linnaean capture, as OpenTafl plays it: the attacker lands two squares straight
/// out from the throne, the king is on the throne, a defender stands between, and before the
/// move attackers held the throne's three other sides.
fn linnaean<G: Geometry>(board: &Board<G>, mv: Move<G>) -> Bitboard<G> {
    let throne = Square::<G>::throne();
    if board.king() != throne {
        return Bitboard::EMPTY;
    }
    for dir in Direction::ALL {
        let Some(between) = throne.step(dir) else {
            continue;
        };
        if between.step(dir) != Some(mv.to()) || !board.defenders().contains(between) {
            continue;
        }
        // The attackers around the throne before the move: the mover may have left one.
        let before = board.attackers().without(mv.to()).with(mv.from());
        let around = Bitboard::from_square(throne).neighbours().without(between);
        if (around & before).count() >= 3 {
            return Bitboard::from_square(between);
        }
    }
    Bitboard::EMPTY
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
/// ended by a hammer or one of `brackets` (the corners, where they close one). The row's
/// pieces other than the king are captured.
fn shieldwall<G: Geometry>(
    board: &Board<G>,
    to: Square<G>,
    mover: Side,
    hammers: Bitboard<G>,
    brackets: Bitboard<G>,
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
                break (hammers | brackets).contains(next);
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
