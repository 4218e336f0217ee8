//! Legal moves by the board alone: generated into a fixed list, or counted without generating.

use super::bitboard::Bitboard;
use super::geometry::Geometry;
use super::moves::{Move, MoveList};
use super::piece::Side;
use super::position::Board;
use super::square::Direction;

impl<G: Geometry> Board<G> {
    /// Appends every legal move of the side to move (history not considered).
    pub fn generate_moves(&self, list: &mut MoveList<G>) {
        let occupied = self.occupied();
        let soldiers = match self.side_to_move() {
            Side::Attackers => self.attackers(),
            Side::Defenders => {
                let king = self.king();
                for to in Bitboard::<G>::rook_targets(king, occupied) {
                    list.push(Move::new(king, to));
                }
                self.defenders()
            }
        };
        for from in soldiers {
            for to in Bitboard::<G>::rook_targets(from, occupied) & !Bitboard::<G>::RESTRICTED {
                list.push(Move::new(from, to));
            }
        }
    }

    /// Appends the legal moves that land on `targets` (the king's too), found backwards from
    /// each target: cheap when the targets are few, as in a quiescence search.
    pub fn generate_moves_to(&self, targets: Bitboard<G>, list: &mut MoveList<G>) {
        let occupied = self.occupied();
        let targets = targets & !occupied;
        let king = self.king();
        let soldiers = match self.side_to_move() {
            Side::Attackers => self.attackers(),
            Side::Defenders => self.defenders(),
        };
        let king_moves = self.side_to_move() == Side::Defenders;
        for to in targets {
            let seen = Bitboard::<G>::rook_attacks(to, occupied);
            if !to.is_restricted() {
                for from in seen & soldiers {
                    list.push(Move::new(from, to));
                }
            }
            if king_moves && seen.contains(king) {
                list.push(Move::new(king, to));
            }
        }
    }

    /// The number of legal moves of the side to move, counted set-wise: all soldiers slide at
    /// once in each direction, and their rays never overlap (see [`Bitboard::<G>::slide`]).
    #[inline]
    pub fn count_moves(&self) -> u32 {
        let occupied = self.occupied();
        let empty = !occupied;
        let landable = empty & !Bitboard::<G>::RESTRICTED;
        let (soldiers, king_moves) = match self.side_to_move() {
            Side::Attackers => (self.attackers(), 0),
            Side::Defenders => (
                self.defenders(),
                Bitboard::<G>::rook_targets(self.king(), occupied).count(),
            ),
        };
        let mut count = king_moves;
        for dir in Direction::ALL {
            count += (soldiers.slide(dir, empty) & landable).count();
        }
        count
    }
}
