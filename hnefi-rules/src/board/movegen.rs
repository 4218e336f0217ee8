//! Legal moves by the board alone: generated into a fixed list, or counted without generating.
//! Where each kind of piece may go comes from the rulebook's terrain (see
//! [`super::terrain::Terrain::targets`]).

use super::bitboard::Bitboard;
use super::geometry::Geometry;
use super::moves::{Move, MoveList};
use super::piece::{Piece, Side};
use super::position::Board;
use super::rulebook::Rulebook;
use super::square::{Direction, Square};
use std::ops::ControlFlow;

impl<G: Geometry> Board<G> {
    /// The kind of the side to move's men.
    #[inline(always)]
    fn men_kind(&self) -> Piece {
        match self.side_to_move() {
            Side::Attackers => Piece::Attacker,
            Side::Defenders => Piece::Defender,
        }
    }

    /// Appends every legal move of the side to move (history not considered).
    pub fn generate_moves(&self, rulebook: &Rulebook<G>, list: &mut MoveList<G>) {
        self.generate_moves_within(rulebook, Bitboard::ALL, Bitboard::ALL, list);
    }

    /// Appends the legal moves of [`Board::generate_moves`], in its order, whose men land on
    /// `men_to` and whose king lands on `king_to`: the search lists the moves it scores alike
    /// apart from those it has already tried.
    pub fn generate_moves_within(
        &self,
        rulebook: &Rulebook<G>,
        men_to: Bitboard<G>,
        king_to: Bitboard<G>,
        list: &mut MoveList<G>,
    ) {
        let king = (self.side_to_move() == Side::Defenders).then_some(self.king());
        let _ = self.each_piece_targets(rulebook, |from, targets| {
            let to = targets & if Some(from) == king { king_to } else { men_to };
            // The word's own bit loop: a 128-bit board's iterator costs twice as much a move,
            // and the search lists every node's moves.
            to.for_each_square(|to| list.push(Move::new(from, to)));
            ControlFlow::<()>::Continue(())
        });
    }

    /// Move `n` of [`Board::generate_moves`]'s order, found by counting each piece's targets
    /// rather than listing them (history not considered); `None` past the last.
    pub fn nth_move(&self, rulebook: &Rulebook<G>, mut n: usize) -> Option<Move<G>> {
        let found = self.each_piece_targets(rulebook, |from, targets| {
            let count = targets.count() as usize;
            if n < count {
                let to = targets.into_iter().nth(n).expect("n is under the count");
                return ControlFlow::Break(Move::new(from, to));
            }
            n -= count;
            ControlFlow::Continue(())
        });
        match found {
            ControlFlow::Break(mv) => Some(mv),
            ControlFlow::Continue(()) => None,
        }
    }

    /// `each` on every piece of the side to move with the squares it may stop on, the king
    /// first: the one place that says where pieces may go, for listing and for picking.
    #[inline(always)]
    fn each_piece_targets<B>(
        &self,
        rulebook: &Rulebook<G>,
        mut each: impl FnMut(Square<G>, Bitboard<G>) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        let terrain = rulebook.terrain();
        let occupied = self.occupied();
        let men = match self.side_to_move() {
            Side::Attackers => self.attackers(),
            Side::Defenders => {
                let king = self.king();
                each(king, terrain.targets(Piece::King, king, occupied))?;
                self.defenders()
            }
        };
        let kind = self.men_kind();
        if terrain.classic_moves {
            for from in men {
                each(
                    from,
                    Bitboard::rook_targets(from, occupied) & !Bitboard::RESTRICTED,
                )?;
            }
            return ControlFlow::Continue(());
        }
        if terrain.restricted_moves(kind) {
            for from in men {
                each(from, terrain.targets(kind, from, occupied))?;
            }
            return ControlFlow::Continue(());
        }
        // The masks of `Terrain::targets`, once for all the men.
        let blocked = occupied | terrain.no_pass(kind);
        let allowed = !(blocked | terrain.no_stop(kind));
        for from in men {
            each(from, Bitboard::rook_attacks(from, blocked) & allowed)?;
        }
        ControlFlow::Continue(())
    }

    /// Appends the legal moves that land on `targets` (the king's too), found backwards from
    /// each target: cheap when the targets are few, as in a quiescence search.
    pub fn generate_moves_to(
        &self,
        targets: Bitboard<G>,
        rulebook: &Rulebook<G>,
        list: &mut MoveList<G>,
    ) {
        let terrain = rulebook.terrain();
        let kind = self.men_kind();
        let king_moves = self.side_to_move() == Side::Defenders;
        if terrain.restricted_moves(kind) || (king_moves && terrain.restricted_moves(Piece::King)) {
            // Re-entry and speed limits depend on where a piece comes from: filter generation.
            let mut all = MoveList::new();
            self.generate_moves(rulebook, &mut all);
            list.extend(all.into_iter().filter(|m| targets.contains(m.to())));
            return;
        }
        let occupied = self.occupied();
        let targets = targets & !occupied;
        let king = self.king();
        let men = match self.side_to_move() {
            Side::Attackers => self.attackers(),
            Side::Defenders => self.defenders(),
        };
        let men_walls = terrain.no_pass(kind);
        let men_targets = targets & !terrain.no_stop(kind) & !men_walls;
        let king_targets = targets & !terrain.no_stop(Piece::King) & !terrain.no_pass(Piece::King);
        for to in targets {
            if men_targets.contains(to) {
                let seen = Bitboard::rook_attacks(to, occupied | men_walls);
                for from in seen & men {
                    list.push(Move::new(from, to));
                }
            }
            if king_moves
                && king_targets.contains(to)
                && Bitboard::rook_attacks(to, occupied | terrain.no_pass(Piece::King))
                    .contains(king)
            {
                list.push(Move::new(king, to));
            }
        }
    }

    /// Whether the side to move has a move: [`Board::count_moves`] above 0. Nearly always a
    /// man beside a square he may stop on says so, without the count's four slides.
    #[inline]
    pub fn has_moves(&self, rulebook: &Rulebook<G>) -> bool {
        if rulebook.terrain().classic_moves {
            let empty = !self.occupied();
            let (men, king) = match self.side_to_move() {
                Side::Attackers => (self.attackers(), Bitboard::EMPTY),
                Side::Defenders => (self.defenders(), Bitboard::from_square(self.king())),
            };
            // The king stops anywhere; a man anywhere but on the restricted squares.
            if ((men.neighbours() & empty & !Bitboard::RESTRICTED) | (king.neighbours() & empty))
                .any()
            {
                return true;
            }
        }
        self.count_moves(rulebook) > 0
    }

    /// The number of legal moves of the side to move, counted set-wise: all men slide at once
    /// in each direction, and their rays never overlap (see [`Bitboard::slide`]).
    #[inline]
    pub fn count_moves(&self, rulebook: &Rulebook<G>) -> u32 {
        let terrain = rulebook.terrain();
        if terrain.classic_moves {
            let occupied = self.occupied();
            let empty = !occupied;
            let landable = empty & !Bitboard::RESTRICTED;
            let (men, king_moves) = match self.side_to_move() {
                Side::Attackers => (self.attackers(), 0),
                Side::Defenders => (
                    self.defenders(),
                    Bitboard::rook_targets(self.king(), occupied).count(),
                ),
            };
            let mut count = king_moves;
            for dir in Direction::ALL {
                count += (men.slide(dir, empty) & landable).count();
            }
            return count;
        }
        let kind = self.men_kind();
        let king_moves = self.side_to_move() == Side::Defenders;
        if terrain.restricted_moves(kind) {
            let mut list = MoveList::new();
            self.generate_moves(rulebook, &mut list);
            return list.len() as u32;
        }
        let occupied = self.occupied();
        let passable = !occupied & !terrain.no_pass(kind);
        let landable = passable & !terrain.no_stop(kind);
        let (men, king_count) = match king_moves {
            false => (self.attackers(), 0),
            true => (
                self.defenders(),
                terrain.targets(Piece::King, self.king(), occupied).count(),
            ),
        };
        let mut count = king_count;
        for dir in Direction::ALL {
            count += (men.slide(dir, passable) & landable).count();
        }
        count
    }
}

#[cfg(test)]
mod tests {
    use crate::board::geometry::Eleven;
    use crate::board::notation::parse_fen;
    use crate::board::rules::{Preset, Rules};
    use crate::board::{Geometry, Rulebook};

    /// `has_moves` says what the count says: on random games of every preset, either side to
    /// move, and on boards where the only squares beside a side's men are restricted.
    #[test]
    fn has_moves_agrees_with_the_count() {
        fn check<G: Geometry>(preset: Preset) {
            crate::board::walk::random_boards::<G>(preset, 29, 20, 150, |board, rulebook| {
                for b in [
                    *board,
                    board.with_side_to_move(board.side_to_move().opponent()),
                ] {
                    assert_eq!(
                        b.has_moves(rulebook),
                        b.count_moves(rulebook) > 0,
                        "{preset}"
                    );
                }
            });
        }
        for preset in Preset::ALL {
            crate::with_size!(Rules::preset(preset).width, check(preset)).unwrap();
        }
        let rulebook = Rulebook::<Eleven>::default();
        for (fen, moves) in [
            // The lone king boxed in on the edge.
            ("11/11/11/11/11/11/11/11/11/4a6/3aka5 d", false),
            // An attacker beside the corner, boxed in otherwise.
            ("11/11/11/11/11/5k5/11/11/11/1d9/1ad8 a", false),
            // An attacker below the empty throne, boxed in otherwise: only through the throne.
            ("11/11/11/11/11/11/4dad4/5d5/11/11/1k9 a", true),
        ] {
            let board = parse_fen(fen).unwrap();
            assert_eq!(board.count_moves(&rulebook) > 0, moves, "{fen}");
            assert_eq!(board.has_moves(&rulebook), moves, "{fen}");
        }
    }
}
