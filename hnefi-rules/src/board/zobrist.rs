//! Zobrist keys: one pseudo-random 64-bit key per piece kind and square, and one for the side
//! to move.
//!
//! The keys of a board size are the outputs of splitmix64 seeded with [`SEED`], in order: the
//! attacker's squares, the defender's, the king's (square a1 first, as [`Square::index`]
//! counts), then the side-to-move key. They decide which positions share a table slot and so the search's
//! node counts: a different generator or seed changes `bench`.

use super::geometry::{Geometry, MAX_SQUARES};
use super::piece::Piece;
use super::square::Square;
use crate::splitmix::SplitMix64;

/// A position's hash.
pub type Key = u64;

/// Fixed so that keys, and with them search results and `bench`, are the same on every run.
pub const SEED: u64 = 0x4E45_4649_2D5A_4F42;

/// The Zobrist keys of a board size: one a piece and square, and one for the side to move.
pub struct Keys {
    piece: [[Key; MAX_SQUARES]; 3],
    /// Present when the defenders are to move.
    pub defenders_to_move: Key,
}

impl Keys {
    #[inline(always)]
    /// The key of `piece` on `sq`.
    pub fn piece<G: Geometry>(&self, piece: Piece, sq: Square<G>) -> Key {
        self.piece[piece.index()][sq.index()]
    }

    /// The keys of a board of `squares` squares. Each size draws its own from the same seed,
    /// in the same order, so that 11x11's keys stay the ones games and books were hashed with.
    pub const fn generate(squares: usize) -> Keys {
        let mut rng = SplitMix64::new(SEED);
        let mut piece = [[0; MAX_SQUARES]; 3];
        let mut p = 0;
        while p < 3 {
            let mut sq = 0;
            while sq < squares {
                piece[p][sq] = rng.next_u64();
                sq += 1;
            }
            p += 1;
        }
        Keys {
            piece,
            defenders_to_move: rng.next_u64(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;
    use crate::board::geometry::Eleven;
    use std::collections::HashSet;

    #[test]
    fn keys_are_distinct() {
        let mut seen = HashSet::new();
        for p in Piece::ALL {
            for sq in Square::<Eleven>::all() {
                assert!(seen.insert(Eleven::keys().piece(p, sq)));
            }
        }
        assert!(seen.insert(Eleven::keys().defenders_to_move));
    }

    /// The keys are part of what `bench` measures: a change here must be deliberate. The
    /// values were worked out apart from this code, from splitmix64's definition.
    #[test]
    fn keys_are_pinned() {
        let a1 = Square::<Eleven>::from_index(0);
        let f6 = Square::<Eleven>::from_coords(5, 5).expect("on the board");
        assert_eq!(
            Eleven::keys().piece(Piece::Attacker, a1),
            0xD2F7_A706_454A_04F3
        );
        assert_eq!(
            Eleven::keys().piece(Piece::Defender, f6),
            0x02EB_F48C_9A34_DC8A
        );
        assert_eq!(Eleven::keys().piece(Piece::King, f6), 0xD1D8_9FC7_F908_7FD3);
        assert_eq!(Eleven::keys().defenders_to_move, 0x5FAE_8C0F_B8D0_BC02);
    }
}
