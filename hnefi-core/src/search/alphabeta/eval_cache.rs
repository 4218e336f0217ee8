//! Static evals by key, one table per search thread. In a ring where both sides shuffle, the
//! search meets the same boards again and again below the table's depth, where it keeps no
//! eval: at a 10 ms search in the stuck positions of issue 46 about a fifth of the evals are
//! found here, and the hand evaluation is half of the search's work.

use crate::board::zobrist::Key;
use crate::search::score::Score;

/// Evals by the low bits of the key. Each slot holds the key's upper half and the eval's bits,
/// so a slot answers only for its own key (48 of the key's bits checked).
pub(super) struct EvalCache {
    slots: Vec<u64>,
}

impl EvalCache {
    /// Slots, a power of two: 512 KiB, which holds a 10 ms search's evals with few overwritten
    /// and stays in a core's second-level cache.
    const SLOTS: usize = 1 << 16;

    pub(super) fn new() -> EvalCache {
        EvalCache {
            slots: vec![0; Self::SLOTS],
        }
    }

    #[inline]
    fn slot(key: Key) -> usize {
        key as usize & (Self::SLOTS - 1)
    }

    /// The eval stored for `key`, if any.
    #[inline]
    pub(super) fn get(&self, key: Key) -> Option<Score> {
        let entry = self.slots[Self::slot(key)];
        // An empty slot is 0; an eval of 0 under a key whose upper half is 0 is then a miss,
        // never a false hit.
        (entry != 0 && entry >> 32 == key >> 32).then_some(Score(entry as u32 as i32))
    }

    /// Stores `eval` for `key`, over whatever the slot held.
    #[inline]
    pub(super) fn put(&mut self, key: Key, eval: Score) {
        self.slots[Self::slot(key)] = (key & !0xffff_ffff) | u64::from(eval.0 as u32);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_its_own_key_only() {
        let mut cache = EvalCache::new();
        let key: Key = 0x1234_5678_9abc_def0;
        assert_eq!(cache.get(key), None);
        cache.put(key, Score(-1234));
        assert_eq!(cache.get(key), Some(Score(-1234)));
        // Same slot, another upper half: a miss, and storing it replaces the first.
        let other = key ^ (1 << 40);
        assert_eq!(cache.get(other), None);
        cache.put(other, Score(7));
        assert_eq!(cache.get(other), Some(Score(7)));
        assert_eq!(cache.get(key), None);
    }

    #[test]
    fn keeps_the_evals_at_both_ends() {
        let mut cache = EvalCache::new();
        for (i, s) in [i32::MIN, -20_000, -1, 0, 1, 20_000, i32::MAX]
            .into_iter()
            .enumerate()
        {
            let key = (0xdead_beef_u64 << 32) | i as u64;
            cache.put(key, Score(s));
            assert_eq!(cache.get(key), Some(Score(s)));
        }
    }
}
