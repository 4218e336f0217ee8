//! A table of subtree counts for perft (`hnefi perft --hash MB`): a position that two move
//! orders reach at the same depth is counted once. Shared by the counting threads without
//! locks: each slot keeps its count and the count XORed with the position's key and depth, so
//! a slot torn by two threads' writes reads back as a miss, never as a wrong count.

use super::PerftError;
use crate::board::zobrist::Key;
use std::sync::atomic::{AtomicU64, Ordering};

#[derive(Default)]
struct Slot {
    check: AtomicU64,
    count: AtomicU64,
}

/// Subtree counts by position and depth, for [`super::Progress::hash`].
pub struct PerftHash {
    slots: Vec<Slot>,
}

impl PerftHash {
    /// A table of `mb` MiB (at least one slot), or [`PerftError::Hash`] when the memory cannot
    /// be had.
    pub fn new(mb: usize) -> Result<PerftHash, PerftError> {
        let count =
            mb.checked_mul(1 << 20).ok_or(PerftError::Hash { mb })? / std::mem::size_of::<Slot>();
        let mut slots = Vec::new();
        slots
            .try_reserve_exact(count.max(1))
            .map_err(|_| PerftError::Hash { mb })?;
        slots.resize_with(count.max(1), Slot::default);
        Ok(PerftHash { slots })
    }

    /// The key of a position `depth` plies above the leaves: the board's Zobrist key (its
    /// pieces and the side to move) with the depth mixed in.
    #[inline]
    fn key(board: Key, depth: u32) -> u64 {
        board ^ u64::from(depth).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    #[inline]
    fn slot(&self, key: u64) -> &Slot {
        &self.slots[((u128::from(key) * self.slots.len() as u128) >> 64) as usize]
    }

    /// The leaves `depth` plies below the board of key `board`, if stored.
    #[inline]
    pub(super) fn probe(&self, board: Key, depth: u32) -> Option<u64> {
        let key = Self::key(board, depth);
        let slot = self.slot(key);
        let count = slot.count.load(Ordering::Relaxed);
        (slot.check.load(Ordering::Relaxed) ^ count == key).then_some(count)
    }

    /// Stores `count`, the leaves `depth` plies below the board of key `board`, in place of
    /// whatever its slot held.
    #[inline]
    pub(super) fn store(&self, board: Key, depth: u32, count: u64) {
        let key = Self::key(board, depth);
        let slot = self.slot(key);
        slot.count.store(count, Ordering::Relaxed);
        slot.check.store(key ^ count, Ordering::Relaxed);
    }
}

impl std::fmt::Debug for PerftHash {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PerftHash({} slots)", self.slots.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Eleven, Geometry, Preset, Rules, Seven, Thirteen};
    use crate::perft::{Progress, divide, perft, total};

    /// perft with a table of `mb` MiB against perft without.
    fn hashed_is_exact<G: Geometry>(preset: Preset, depth: u32, mb: usize) {
        let rules = Rules::preset(preset);
        let board = Board::<G>::from_position(preset.start_fen()).unwrap();
        let progress = Progress {
            hash: Some(PerftHash::new(mb).unwrap()),
            ..Progress::default()
        };
        let hashed = total(depth, &divide(&board, depth, &rules, &progress).unwrap());
        assert_eq!(
            hashed,
            perft(&board, depth, &rules),
            "{preset} at depth {depth}"
        );
        // A second count reads its subtrees back from the table.
        let again = total(depth, &divide(&board, depth, &rules, &progress).unwrap());
        assert_eq!(again, hashed, "{preset} again");
    }

    #[test]
    fn counts_with_a_table_are_the_counts_without() {
        hashed_is_exact::<Eleven>(Preset::Copenhagen, 4, 16);
        hashed_is_exact::<Seven>(Preset::Brandubh, 5, 4);
        hashed_is_exact::<Thirteen>(Preset::Copenhagen13, 3, 4);
        // Under a rulebook that is not the classic one: the fused leaf does not apply.
        hashed_is_exact::<crate::board::Nine>(Preset::Tablut, 4, 4);
        // A table far too small for the tree: slots replaced all the time, still exact.
        let tiny = PerftHash {
            slots: (0..7).map(|_| Slot::default()).collect(),
        };
        let rules = Rules::default();
        let board = Board::<Eleven>::start();
        let progress = Progress {
            hash: Some(tiny),
            ..Progress::default()
        };
        assert_eq!(
            total(4, &divide(&board, 4, &rules, &progress).unwrap()),
            perft(&board, 4, &rules)
        );
    }

    #[test]
    fn a_slot_answers_only_for_its_own_position_and_depth() {
        let hash = PerftHash::new(1).unwrap();
        hash.store(42, 3, 1000);
        assert_eq!(hash.probe(42, 3), Some(1000));
        assert_eq!(hash.probe(42, 4), None);
        assert_eq!(hash.probe(43, 3), None);
        assert!(matches!(
            PerftHash::new(usize::MAX / 2),
            Err(PerftError::Hash { .. })
        ));
    }
}
