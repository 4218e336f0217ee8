//! Rules compiled for one board size: the squares each kind of piece may not cross or stop on,
//! the squares hostile to each kind, the escape squares. Built once per game by the rulebook,
//! so that move generation and captures read masks instead of rule options.

use super::bitboard::Bitboard;
use super::geometry::{Geometry, Word};
use super::piece::Piece;
use super::rules::{Escape, Rules, Special, SquareSet};
use super::square::{Direction, Square};

#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
/// The rules compiled for boards of `G`: the squares each kind of piece may stop on, cross
/// and find hostile, as bitboards.
pub struct Terrain<G: Geometry> {
    /// Per kind of piece (`Piece` order): squares it may not stop on.
    no_stop: [Bitboard<G>; 3],
    /// Per kind of piece: squares it may not cross, and so not reach either.
    no_pass: [Bitboard<G>; 3],
    /// The corners, the throne, the attackers' and the defenders' forts.
    specials: [Bitboard<G>; 4],
    /// Per kind of piece: which of `specials` it may enter only from a square of the same kind.
    no_reentry: [[bool; 4]; 3],
    /// Whether any piece has re-entry limits or a speed limit: moves then need more than masks.
    restricted_moves: [bool; 3],
    speed: [u8; 3],
    /// Per kind of piece: squares hostile to it whatever stands there, only when empty, and
    /// only when occupied.
    hostile_always: [Bitboard<G>; 3],
    hostile_empty: [Bitboard<G>; 3],
    hostile_occupied: [Bitboard<G>; 3],
    /// The squares the king escapes to.
    pub escape: Bitboard<G>,
    /// The throne.
    pub throne: Bitboard<G>,
    /// The throne and its neighbours.
    pub throne_area: Bitboard<G>,
    /// The corners.
    pub corners: Bitboard<G>,
    /// Moves are the classic boards': men stop neither on the corners nor on the throne, the
    /// king anywhere, nobody is limited otherwise. Move generation then takes a path with
    /// the masks as constants, as fast as before the rules had terrain.
    pub classic_moves: bool,
    /// Men are captured against the corners, and against the throne as Copenhagen has it
    /// (hostile to the attackers always, to the defenders when empty).
    pub classic_captures: bool,
    /// Classic moves, and the king escapes to the four corners: the evaluation then takes a
    /// path with the corners as constants (11x11's speed was measured with it).
    pub classic_escape: bool,
}

fn squares<G: Geometry>(set: SquareSet) -> Bitboard<G> {
    Bitboard(G::Word::from_limbs(set.0)) & Bitboard::ALL
}

impl<G: Geometry> Terrain<G> {
    /// `rules` compiled for this size; `rules.width` is `G::SIDE`.
    pub fn new(rules: &Rules) -> Self {
        debug_assert_eq!(rules.width, G::SIDE, "rules for another board size");
        let kinds: [&Special; 4] = [
            &rules.corners,
            &rules.throne,
            &rules.attacker_forts,
            &rules.defender_forts,
        ];
        let specials = kinds.map(|k| squares::<G>(k.squares));
        let per_piece = |f: &dyn Fn(&Special, Piece) -> bool| {
            Piece::ALL.map(|piece| {
                kinds
                    .iter()
                    .zip(specials)
                    .filter(|(k, _)| f(k, piece))
                    .fold(Bitboard::EMPTY, |acc, (_, sq)| acc | sq)
            })
        };
        let no_stop = per_piece(&|k, p| !k.stop.contains(p));
        let no_pass = per_piece(&|k, p| !k.pass.contains(p));
        let no_reentry = Piece::ALL.map(|p| {
            let mut limits = [false; 4];
            for (i, k) in kinds.iter().enumerate() {
                limits[i] = !k.reenter.contains(p) && specials[i].any();
            }
            limits
        });
        let speed = rules.speed;
        let restricted_moves =
            Piece::ALL.map(|p| no_reentry[p as usize].iter().any(|&l| l) || speed[p as usize] > 0);
        // OpenTafl's hostility names sides: the king is hostile-tested as a defender there, and
        // a rules string's lists are read that way before they reach here.
        let empty = per_piece(&|k, p| k.hostile_empty.contains(p));
        let occupied = per_piece(&|k, p| k.hostile.contains(p));
        let hostile_always = Piece::ALL.map(|p| empty[p as usize] & occupied[p as usize]);
        let hostile_empty = Piece::ALL.map(|p| empty[p as usize] & !occupied[p as usize]);
        let hostile_occupied = Piece::ALL.map(|p| occupied[p as usize] & !empty[p as usize]);
        let throne = specials[1];
        let (a, d, k) = (
            Piece::Attacker as usize,
            Piece::Defender as usize,
            Piece::King as usize,
        );
        let restricted = Bitboard::RESTRICTED;
        let classic_moves = no_stop[a] == restricted
            && no_stop[d] == restricted
            && (no_pass[a] | no_pass[d]) & !Bitboard::CORNERS == Bitboard::EMPTY
            && no_stop[k].is_empty()
            && no_pass[k].is_empty()
            && !restricted_moves.iter().any(|&r| r);
        // A man on the throne would make "the king is not on it" differ from "it is empty".
        let classic_captures = classic_moves
            && hostile_always[a] == Bitboard::CORNERS | Bitboard::THRONE
            && hostile_empty[a].is_empty()
            && hostile_occupied[a].is_empty()
            && hostile_always[d] == Bitboard::CORNERS
            && hostile_empty[d] == Bitboard::THRONE
            && hostile_occupied[d].is_empty();
        let escape = match rules.escape {
            Escape::Corners => specials[0],
            Escape::Edge => Bitboard::EDGE,
        };
        let classic_escape = classic_moves && escape == Bitboard::CORNERS;
        Terrain {
            no_stop,
            no_pass,
            specials,
            no_reentry,
            restricted_moves,
            speed,
            hostile_always,
            hostile_empty,
            hostile_occupied,
            escape,
            throne,
            throne_area: throne | throne.neighbours(),
            corners: specials[0],
            classic_moves,
            classic_captures,
            classic_escape,
        }
    }

    /// The same terrain with the classic fast paths off, for tests that compare the two.
    #[doc(hidden)]
    pub fn without_fast_paths(mut self) -> Self {
        self.classic_moves = false;
        self.classic_captures = false;
        self.classic_escape = false;
        self
    }

    /// Squares `piece` may never stop on.
    #[inline(always)]
    pub fn no_stop(&self, piece: Piece) -> Bitboard<G> {
        self.no_stop[piece as usize]
    }

    /// Squares `piece` may never cross.
    #[inline(always)]
    pub fn no_pass(&self, piece: Piece) -> Bitboard<G> {
        self.no_pass[piece as usize]
    }

    /// Whether `piece`'s moves are more than slides through masks (re-entry or speed limits).
    #[inline(always)]
    pub fn restricted_moves(&self, piece: Piece) -> bool {
        self.restricted_moves[piece as usize]
    }

    /// The squares `piece` on `from` may move to, with `occupied` the pieces on the board.
    #[inline(always)]
    pub fn targets(&self, piece: Piece, from: Square<G>, occupied: Bitboard<G>) -> Bitboard<G> {
        let i = piece as usize;
        let mut walls = self.no_pass[i];
        if self.restricted_moves[i] {
            walls |= self.reentry_walls(piece, from);
        }
        let mut targets = Bitboard::rook_attacks(from, occupied | walls) & !(occupied | walls);
        if self.restricted_moves[i] && self.speed[i] > 0 {
            targets &= within(from, self.speed[i]);
        }
        targets & !self.no_stop[i]
    }

    /// The special squares `piece` on `from` may not enter: those of a kind it may enter only
    /// from the same kind, unless it stands on one.
    fn reentry_walls(&self, piece: Piece, from: Square<G>) -> Bitboard<G> {
        let mut walls = Bitboard::EMPTY;
        for (kind, &limited) in self.no_reentry[piece as usize].iter().enumerate() {
            if limited && !self.specials[kind].contains(from) {
                walls |= self.specials[kind];
            }
        }
        walls
    }

    /// Squares hostile to a piece of kind `victim`, given the occupied squares.
    #[inline(always)]
    pub fn hostile_to(&self, victim: Piece, occupied: Bitboard<G>) -> Bitboard<G> {
        let i = victim as usize;
        self.hostile_always[i]
            | (self.hostile_empty[i] & !occupied)
            | (self.hostile_occupied[i] & occupied)
    }
}

/// The squares at most `n` steps from `from` along its rank and file.
fn within<G: Geometry>(from: Square<G>, n: u8) -> Bitboard<G> {
    let mut near = Bitboard::EMPTY;
    for dir in Direction::ALL {
        let mut cur = from;
        for _ in 0..n {
            match cur.step(dir) {
                Some(next) => {
                    near = near.with(next);
                    cur = next;
                }
                None => break,
            }
        }
    }
    near
}
