//! The transposition table: what the search learned about positions, by Zobrist hash, in a
//! table of fixed size (`Hash`, in MiB) shared without locks.
//!
//! An entry is two `AtomicU64`: the data (move code, score, depth, bound, age) and the key
//! xor the data. A reader accepts an entry only if the two words xor back to its own key, so an
//! entry torn by two threads writing at once (the threads of Lazy SMP), or one of another position in
//! the same slot, reads as a miss: a probe never returns another position's entry. Even so the
//! move of an entry is only a hint: the search checks it with `Position::move_from_code`.
//!
//! Entries are grouped in buckets of [`BUCKET`]; a new entry replaces the entry of the same
//! position, else the least valuable one of its bucket (shallowest, oldest search first).
//! Mate scores are stored relative to the node (`MATE - plies from the node`) and turned back
//! into scores relative to the root when read, so that an entry is right at any ply.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

use crate::memory;
use crate::score::MATE_BOUND;

/// The largest table, in MiB.
pub const MAX_MIB: usize = 65_536;

/// Entries per bucket: four entries of 16 bytes make a 64-byte cache line.
pub const BUCKET: usize = 4;

/// One bucket, aligned on a cache line so that a probe reads one line, not two (a large
/// allocation from the system allocator starts 16 bytes into a page).
#[derive(Default)]
#[repr(C, align(64))]
struct Bucket([Entry; BUCKET]);

/// What a stored score says about the position's true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is exact (a PV node).
    Exact,
    /// The true value is at least the score (a fail high, a cut node).
    Lower,
    /// The true value is at most the score (a fail low, an all node).
    Upper,
}

impl Bound {
    /// What the best score `best` of a node searched in the window (`alpha`, `beta`) says:
    /// a fail high is a lower bound, a fail low an upper bound, anything between exact.
    pub fn of(best: i32, alpha: i32, beta: i32) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }

    fn bits(self) -> u64 {
        match self {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        }
    }

    fn from_bits(bits: u64) -> Option<Bound> {
        match bits {
            1 => Some(Bound::Exact),
            2 => Some(Bound::Lower),
            3 => Some(Bound::Upper),
            _ => None,
        }
    }
}

/// One probe's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    /// The best move's code (`Position::move_code`), or `None`.
    pub code: Option<u32>,
    /// The score, relative to the root (mates adjusted for the probing ply).
    pub score: i32,
    /// The depth it was searched to.
    pub depth: u8,
    pub bound: Bound,
}

impl Hit {
    /// True if the score settles a node searched in the window (`alpha`, `beta`): exact, a
    /// lower bound at or above beta, or an upper bound at or below alpha.
    pub fn cuts(&self, alpha: i32, beta: i32) -> bool {
        match self.bound {
            Bound::Exact => true,
            Bound::Lower => self.score >= beta,
            Bound::Upper => self.score <= alpha,
        }
    }
}

#[derive(Default)]
struct Entry {
    /// The position's key xor `data`.
    check: AtomicU64,
    data: AtomicU64,
}

// The data word: bits 0–31 move code, 32–47 score (i16), 48–55 depth, 56–57 bound, 58 "has a
// move", 59–63 age.
const HAS_MOVE: u64 = 1 << 58;
const AGE_BITS: u32 = 5;
const AGE_MASK: u8 = (1 << AGE_BITS) - 1;

fn pack(code: Option<u32>, score: i32, depth: u8, bound: Bound, age: u8) -> u64 {
    let score = score.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
    code.unwrap_or(0) as u64
        | (score as u16 as u64) << 32
        | (depth as u64) << 48
        | bound.bits() << 56
        | if code.is_some() { HAS_MOVE } else { 0 }
        | ((age & AGE_MASK) as u64) << 59
}

fn depth_of(data: u64) -> u8 {
    (data >> 48) as u8
}

fn age_of(data: u64) -> u8 {
    (data >> 59) as u8 & AGE_MASK
}

fn bound_of(data: u64) -> Option<Bound> {
    Bound::from_bits((data >> 56) & 3)
}

/// A score relative to the root → relative to the node `ply` plies down (for storing).
pub fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// A stored score → relative to the root, read `ply` plies down.
pub fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// The table.
pub struct Table {
    entries: Vec<Bucket>,
    /// The number of buckets.
    buckets: usize,
    /// The current search's age (shared by the threads of one search).
    age: AtomicU8,
}

impl Table {
    /// A table of about `mib` MiB (1 to [`MAX_MIB`]; less if that much memory cannot be had).
    pub fn new(mib: usize) -> Table {
        let bytes = mib.clamp(1, MAX_MIB) << 20;
        let mut buckets = (bytes / std::mem::size_of::<Bucket>()).max(1);
        let mut entries = Vec::new();
        while entries.try_reserve_exact(buckets).is_err() && buckets > 1 {
            buckets /= 2;
        }
        // Before the pages are first touched, which is when the kernel chooses their size.
        memory::advise_huge_pages(&mut entries);
        entries.resize_with(buckets, Bucket::default);
        Table {
            entries,
            buckets,
            age: AtomicU8::new(0),
        }
    }

    /// Its size in MiB, as asked for.
    pub fn size_mib(&self) -> usize {
        (self.entries.len() * std::mem::size_of::<Bucket>()) >> 20
    }

    /// Forgets everything (`ucinewgame`).
    pub fn clear(&self) {
        for e in self.entries.iter().flat_map(|b| &b.0) {
            e.check.store(0, Ordering::Relaxed);
            e.data.store(0, Ordering::Relaxed);
        }
        self.age.store(0, Ordering::Relaxed);
    }

    fn age(&self) -> u8 {
        self.age.load(Ordering::Relaxed)
    }

    /// A new search starts: entries of earlier searches become the first to be replaced.
    pub fn new_search(&self) {
        self.age
            .store((self.age() + 1) & AGE_MASK, Ordering::Relaxed);
    }

    fn bucket(&self, key: u64) -> &[Entry] {
        let index = ((key as u128 * self.buckets as u128) >> 64) as usize;
        &self.entries[index].0
    }

    /// Brings the bucket of this key into the cache ahead of a probe or a store: called as soon
    /// as a child's key is known, its memory is fetched while the child gets ready.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        memory::prefetch(self.bucket(key).as_ptr());
    }

    /// The entry of the position with this key, read `ply` plies from the root.
    pub fn probe(&self, key: u64, ply: usize) -> Option<Hit> {
        for e in self.bucket(key) {
            let data = e.data.load(Ordering::Relaxed);
            let check = e.check.load(Ordering::Relaxed);
            if check ^ data != key {
                continue;
            }
            let bound = bound_of(data)?;
            return Some(Hit {
                code: (data & HAS_MOVE != 0).then_some(data as u32),
                score: score_from_tt((data >> 32) as u16 as i16 as i32, ply),
                depth: depth_of(data),
                bound,
            });
        }
        None
    }

    /// Stores what a search `ply` plies from the root found. An entry of the same position
    /// keeps its move if the new one has none.
    pub fn store(
        &self,
        key: u64,
        ply: usize,
        code: Option<u32>,
        score: i32,
        depth: u8,
        bound: Bound,
    ) {
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut worst = i32::MAX;
        for (i, e) in bucket.iter().enumerate() {
            let data = e.data.load(Ordering::Relaxed);
            let check = e.check.load(Ordering::Relaxed);
            if check ^ data == key && bound_of(data).is_some() {
                let code = code.or((data & HAS_MOVE != 0).then_some(data as u32));
                // A shallower result of the same search does not replace a deeper exact one.
                if bound != Bound::Exact
                    && age_of(data) == self.age()
                    && depth_of(data) > depth.saturating_add(2)
                {
                    if code.is_some() && data & HAS_MOVE == 0 {
                        let kept = pack(
                            code,
                            (data >> 32) as u16 as i16 as i32,
                            depth_of(data),
                            bound_of(data).unwrap_or(Bound::Upper),
                            age_of(data),
                        );
                        e.data.store(kept, Ordering::Relaxed);
                        e.check.store(key ^ kept, Ordering::Relaxed);
                    }
                    return;
                }
                let new = pack(code, score_to_tt(score, ply), depth, bound, self.age());
                e.data.store(new, Ordering::Relaxed);
                e.check.store(key ^ new, Ordering::Relaxed);
                return;
            }
            // Empty entries first, then old ones, then shallow ones.
            let value = if bound_of(data).is_none() {
                i32::MIN
            } else {
                let age_gap = (self.age().wrapping_sub(age_of(data)) & AGE_MASK) as i32;
                depth_of(data) as i32 - 8 * age_gap
            };
            if value < worst {
                worst = value;
                victim = i;
            }
        }
        let new = pack(code, score_to_tt(score, ply), depth, bound, self.age());
        bucket[victim].data.store(new, Ordering::Relaxed);
        bucket[victim].check.store(key ^ new, Ordering::Relaxed);
    }

    /// Permille of the first thousand entries (or all, if fewer) used by the current search.
    pub fn hashfull(&self) -> u32 {
        let n = (self.entries.len() * BUCKET).min(1000);
        let used = self
            .entries
            .iter()
            .flat_map(|b| &b.0)
            .take(n)
            .filter(|e| {
                let data = e.data.load(Ordering::Relaxed);
                bound_of(data).is_some() && age_of(data) == self.age()
            })
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::MATE;

    #[test]
    fn store_and_probe_round_trip() {
        let tt = Table::new(1);
        assert_eq!(std::mem::size_of::<Entry>(), 16);
        // A bucket is one cache line, and every bucket starts a line.
        assert_eq!(std::mem::size_of::<Bucket>(), 64);
        assert_eq!(tt.entries.as_ptr() as usize % 64, 0);
        assert_eq!(tt.size_mib(), 1);
        let key = 0x1234_5678_9abc_def0;
        assert_eq!(tt.probe(key, 0), None);
        tt.store(key, 3, Some(0xdead_beef), -517, 7, Bound::Lower);
        let hit = tt.probe(key, 3).unwrap();
        assert_eq!(
            hit,
            Hit {
                code: Some(0xdead_beef),
                score: -517,
                depth: 7,
                bound: Bound::Lower
            }
        );
        // Without a move, the old move is kept.
        tt.store(key, 0, None, 12, 9, Bound::Exact);
        let hit = tt.probe(key, 0).unwrap();
        assert_eq!(hit.code, Some(0xdead_beef));
        assert_eq!((hit.score, hit.depth, hit.bound), (12, 9, Bound::Exact));
        // A move code of 0 is a move.
        tt.store(key ^ 1, 0, Some(0), 0, 1, Bound::Upper);
        assert_eq!(tt.probe(key ^ 1, 0).unwrap().code, Some(0));
        // Key 0 with an empty table is a miss.
        assert_eq!(Table::new(1).probe(0, 0), None);
    }

    #[test]
    fn mate_scores_are_adjusted_by_ply() {
        let tt = Table::new(1);
        // Found at ply 5: mate 3 plies from there, MATE - 8 from the root.
        tt.store(42, 5, None, MATE - 8, 4, Bound::Exact);
        // Seen again at ply 1: still 3 plies from the node, MATE - 4 from the root.
        assert_eq!(tt.probe(42, 1).unwrap().score, MATE - 4);
        tt.store(43, 6, None, -(MATE - 10), 4, Bound::Upper);
        assert_eq!(tt.probe(43, 2).unwrap().score, -(MATE - 6));
        // Ordinary scores are untouched.
        tt.store(44, 6, None, 250, 4, Bound::Exact);
        assert_eq!(tt.probe(44, 0).unwrap().score, 250);
    }

    #[test]
    fn a_colliding_key_never_reads_another_entry() {
        let tt = Table::new(1);
        let buckets = tt.buckets as u64;
        // Keys that fall in the same bucket (same high bits) but differ.
        let key = 0x4000_0000_0000_0001u64;
        let same_bucket = key + 1;
        assert_eq!(
            (key as u128 * buckets as u128) >> 64,
            (same_bucket as u128 * buckets as u128) >> 64
        );
        tt.store(key, 0, Some(7), 100, 5, Bound::Exact);
        assert_eq!(tt.probe(same_bucket, 0), None);
        tt.store(same_bucket, 0, Some(8), -100, 5, Bound::Exact);
        assert_eq!(tt.probe(key, 0).unwrap().code, Some(7));
        assert_eq!(tt.probe(same_bucket, 0).unwrap().code, Some(8));
        // A torn entry (data of one position, check of another) is a miss for both.
        let e = &tt.bucket(key)[0];
        let foreign = pack(Some(9), 1, 1, Bound::Exact, tt.age());
        e.data.store(foreign, Ordering::Relaxed);
        assert_eq!(tt.probe(key, 0), None);
        // A full bucket evicts one entry, and the others still read right.
        for k in 0..(BUCKET as u64 + 2) {
            tt.store(key + 10 + k, 0, Some(k as u32), k as i32, 1, Bound::Exact);
        }
        for k in 0..(BUCKET as u64 + 2) {
            if let Some(hit) = tt.probe(key + 10 + k, 0) {
                assert_eq!(hit.code, Some(k as u32));
                assert_eq!(hit.score, k as i32);
            }
        }
    }

    #[test]
    fn hashfull_counts_the_current_search() {
        let tt = Table::new(1);
        assert_eq!(tt.hashfull(), 0);
        let mut key = 1u64;
        for _ in 0..200_000 {
            key = key
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            tt.store(key, 0, None, 0, 1, Bound::Exact);
        }
        let full = tt.hashfull();
        assert!(full > 500, "{full}");
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
        tt.clear();
        assert_eq!(tt.probe(key, 0), None);
    }
}
