//! Zobrist keys: one random 64-bit key per piece kind and square, and one for the side to move.

use super::piece::Piece;
use super::square::{NUM_SQUARES, Square};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use std::sync::LazyLock;

/// A position's hash.
pub type Key = u64;

/// Fixed so that keys, and with them search results and `bench`, are the same on every run.
const SEED: u64 = 0x4E45_4649_2D5A_4F42;

pub struct Keys {
    piece: [[Key; NUM_SQUARES]; 3],
    /// Present when the defenders are to move.
    pub defenders_to_move: Key,
}

impl Keys {
    #[inline(always)]
    pub fn piece(&self, piece: Piece, sq: Square) -> Key {
        self.piece[piece.index()][sq.index()]
    }
}

pub static KEYS: LazyLock<Keys> = LazyLock::new(|| {
    let mut rng = StdRng::seed_from_u64(SEED);
    let mut piece = [[0; NUM_SQUARES]; 3];
    for row in piece.iter_mut() {
        for key in row.iter_mut() {
            *key = rng.random();
        }
    }
    Keys {
        piece,
        defenders_to_move: rng.random(),
    }
});

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn keys_are_distinct() {
        let mut seen = HashSet::new();
        for p in Piece::ALL {
            for sq in Square::all() {
                assert!(seen.insert(KEYS.piece(p, sq)));
            }
        }
        assert!(seen.insert(KEYS.defenders_to_move));
    }
}
