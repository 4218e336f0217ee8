//! The transposition table: buckets of four entries in one cache line, shared by all search
//! threads without locks. Each entry stores its key XORed with its data, so a torn write from
//! two threads reads back as a miss instead of a wrong hit.

use super::huge::ZeroedBlock;
use super::score::Score;
use crate::board::Geometry;
use crate::board::Move;
use crate::board::zobrist::Key;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
/// What a stored score says of the true one.
pub enum Bound {
    /// The score is exact.
    Exact,
    /// The score is at least this (a fail high).
    Lower,
    /// The score is at most this (a fail low).
    Upper,
}

/// What the table knows of a position.
#[derive(Clone, Copy, Debug)]
pub struct Entry<G: Geometry> {
    /// The best move found, if any.
    pub mv: Option<Move<G>>,
    /// The score, relative to the node.
    pub score: Score,
    /// The static evaluation.
    pub eval: Score,
    /// The depth searched.
    pub depth: i32,
    /// What the score says of the true one.
    pub bound: Bound,
}

struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

const SLOTS: usize = 4;

#[repr(align(64))]
struct Bucket {
    slots: [Slot; SLOTS],
}

/// Why a table could not be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    #[error("a hash table of {mb} MB is more than this machine can address; choose a smaller Hash")]
    /// More than the machine can address.
    TooLarge {
        /// The size asked for, in MiB.
        mb: usize,
    },
    #[error(
        "cannot allocate a hash table of {mb} MB: not enough free memory; choose a smaller Hash"
    )]
    /// More than the free memory.
    OutOfMemory {
        /// The size asked for, in MiB.
        mb: usize,
    },
}

/// The transposition table, shared by the search threads without locks.
pub struct TranspositionTable {
    buckets: ZeroedBlock<Bucket>,
    generation: AtomicU8,
}

// data layout: move 16 | score 16 | eval 16 | depth 8 | bound 2 | generation 6
fn pack<G: Geometry>(e: &Entry<G>, generation: u8) -> u64 {
    let mv = e.mv.map_or(0, |m| m.raw()) as u64;
    let bound = match e.bound {
        Bound::Exact => 1,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    mv | (e.score.0 as i16 as u16 as u64) << 16
        | (e.eval.0 as i16 as u16 as u64) << 32
        | (e.depth.clamp(-1, 254) as u8 as u64) << 48
        | bound << 56
        | ((generation & 63) as u64) << 58
}

fn unpack<G: Geometry>(d: u64) -> Option<Entry<G>> {
    let bound = match (d >> 56) & 3 {
        1 => Bound::Exact,
        2 => Bound::Lower,
        3 => Bound::Upper,
        _ => return None,
    };
    Some(Entry {
        mv: Move::from_raw(d as u16),
        score: Score((d >> 16) as u16 as i16 as i32),
        eval: Score((d >> 32) as u16 as i16 as i32),
        depth: (d >> 48) as u8 as i32,
        bound,
    })
}

fn depth_of(d: u64) -> i32 {
    (d >> 48) as u8 as i32
}

fn generation_of(d: u64) -> u8 {
    (d >> 58) as u8
}

impl TranspositionTable {
    /// A table of about `mb` megabytes (at least one). For sizes that come from a user, use
    /// [`TranspositionTable::try_new`]: this one aborts the process when the memory is not
    /// there, as every infallible allocation does.
    pub fn new(mb: usize) -> TranspositionTable {
        match TranspositionTable::try_new(mb) {
            Ok(tt) => tt,
            Err(e) => panic!("{e}"),
        }
    }

    /// A table of about `mb` megabytes (at least one), or an error when the memory cannot be
    /// had, without aborting.
    pub fn try_new(mb: usize) -> Result<TranspositionTable, TableError> {
        let bytes = mb
            .max(1)
            .checked_mul(1 << 20)
            .ok_or(TableError::TooLarge { mb })?;
        let count = bytes / std::mem::size_of::<Bucket>();
        // SAFETY: a bucket of zeros is a bucket of empty slots.
        let buckets = unsafe { ZeroedBlock::new(count) }.ok_or(TableError::OutOfMemory { mb })?;
        Ok(TranspositionTable {
            buckets,
            generation: AtomicU8::new(0),
        })
    }

    /// Its size in MiB.
    pub fn size_mb(&self) -> usize {
        (self.buckets.len() * std::mem::size_of::<Bucket>()) >> 20
    }

    /// Forgets every entry.
    pub fn clear(&self) {
        for b in self.buckets.iter() {
            for s in &b.slots {
                s.check.store(0, Ordering::Relaxed);
                s.data.store(0, Ordering::Relaxed);
            }
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Called once per search, so that older entries give way first.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    fn bucket(&self, key: Key) -> &Bucket {
        let i = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        &self.buckets[i]
    }

    /// Asks the processor to load `key`'s bucket, ahead of a probe.
    pub fn prefetch(&self, key: Key) {
        #[cfg(target_arch = "x86_64")]
        {
            let p = self.bucket(key) as *const Bucket as *const i8;
            // SAFETY: prefetching is a hint; the address is inside the table.
            unsafe { std::arch::x86_64::_mm_prefetch(p, std::arch::x86_64::_MM_HINT_T0) };
        }
        // Elsewhere (WebAssembly has no prefetch) the probe loads it when it comes.
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// What the table holds for `key`, if anything.
    pub fn probe<G: Geometry>(&self, key: Key) -> Option<Entry<G>> {
        for s in &self.bucket(key).slots {
            let data = s.data.load(Ordering::Relaxed);
            if s.check.load(Ordering::Relaxed) ^ data == key {
                return unpack(data);
            }
        }
        None
    }

    /// Stores `entry` for `key`, replacing the least useful slot.
    pub fn store<G: Geometry>(&self, key: Key, mut entry: Entry<G>) {
        let generation = self.generation.load(Ordering::Relaxed) & 63;
        let bucket = self.bucket(key);
        // The slot with this key, else the one least worth keeping: shallow and old.
        let mut target = &bucket.slots[0];
        let mut worst = i32::MAX;
        for s in &bucket.slots {
            let data = s.data.load(Ordering::Relaxed);
            if s.check.load(Ordering::Relaxed) ^ data == key {
                // Keep the old move when the new entry has none.
                if entry.mv.is_none() {
                    entry.mv = unpack(data).and_then(|e| e.mv);
                }
                target = s;
                break;
            }
            let age = (generation.wrapping_sub(generation_of(data)) & 63) as i32;
            let worth = if data == 0 {
                -1000
            } else {
                depth_of(data) - 4 * age
            };
            if worth < worst {
                worst = worth;
                target = s;
            }
        }
        let data = pack(&entry, generation);
        target.check.store(key ^ data, Ordering::Relaxed);
        target.data.store(data, Ordering::Relaxed);
    }

    /// Permille of a sample of slots used in this search.
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Ordering::Relaxed) & 63;
        let sample = self.buckets.len().min(250);
        let mut used = 0;
        for b in &self.buckets[..sample] {
            for s in &b.slots {
                let d = s.data.load(Ordering::Relaxed);
                if d != 0 && generation_of(d) == generation {
                    used += 1;
                }
            }
        }
        (used * 1000 / (sample * SLOTS).max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::notation::parse_move;

    #[test]
    fn store_and_probe() {
        let tt = TranspositionTable::new(1);
        assert_eq!(std::mem::size_of::<Bucket>(), 64);
        let e = Entry {
            mv: Some(parse_move("d1d3").unwrap()),
            score: Score(-1234),
            eval: Score(56),
            depth: 7,
            bound: Bound::Lower,
        };
        tt.store(42, e);
        let got = tt.probe(42).unwrap();
        assert_eq!(got.mv, e.mv);
        assert_eq!(
            (got.score, got.eval, got.depth, got.bound),
            (e.score, e.eval, 7, Bound::Lower)
        );
        assert!(tt.probe::<crate::board::Eleven>(43).is_none());
        tt.clear();
        assert!(tt.probe::<crate::board::Eleven>(42).is_none());
        assert_eq!(tt.size_mb(), 1);
    }

    #[test]
    fn a_table_too_big_for_memory_is_an_error_not_an_abort() {
        // About half the address space: no machine can give it.
        let mb = (usize::MAX / 2) >> 20;
        assert_eq!(
            TranspositionTable::try_new(mb).err(),
            Some(TableError::OutOfMemory { mb })
        );
        // More megabytes than bytes can be counted.
        assert_eq!(
            TranspositionTable::try_new(usize::MAX).err(),
            Some(TableError::TooLarge { mb: usize::MAX })
        );
        let e = TableError::OutOfMemory { mb: 65536 }.to_string();
        assert!(e.contains("65536 MB") && e.contains("smaller Hash"), "{e}");
        assert_eq!(TranspositionTable::try_new(2).unwrap().size_mb(), 2);
    }
}
