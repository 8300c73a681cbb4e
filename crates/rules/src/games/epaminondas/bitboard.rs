//! A 192-bit bitboard for the 14×12 board: three `u64` words, 16 bits per rank.
//!
//! Bit `16 * rank + file` (both from 0) is square `file, rank`; files 14 and 15 of every rank are
//! padding and stay zero in every set that describes pieces or empty squares. The padding is
//! what makes shifts cheap: a step east from file 13, or west from file 0, lands on a padding
//! bit, so a shifted set only needs to be intersected with a board set (pieces, empty squares)
//! to drop whatever walked off the side of the board. Steps off the top or the bottom fall out
//! of the 192 bits.
//!
//! Why this layout: the board has 168 squares, so a single integer cannot hold it. A `u128`
//! plus a `u64` would have split the ranks across two types of different width; three equal
//! words with a 16-bit rank stride keep every shift the same short sequence of word shifts
//! (double shifts on x86-64), need no masking for the side edges, and a rank is an aligned
//! 16-bit field, which makes the far-row counts one mask each and rank occupancy one add per
//! word. A padded mailbox was not considered for counting: the counter works on whole sets.
//!
//! Measured (instructions executed by perft(4) from the start, valgrind, whole program):
//! this layout with the portable counter and the `popcnt` instruction, 3.14 G; the same with
//! four words so that the compiler could vectorise it, no better (3.16 G: it did not); the
//! same 192 bits in one AVX2 register (`simd::Avx`, picked at run time), 2.09 G, about
//! 0.25 s of CPU time for perft(4) on these machines, side by side with 0.45 s for the
//! portable counter with `popcnt`.

use crate::game::{Cell, CellSet};

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// Files on the board.
pub const FILES: i32 = 14;
/// Ranks on the board.
pub const RANKS: i32 = 12;
/// Bits per rank.
pub const STRIDE: i32 = 16;
/// Bits in the padded layout.
pub const BITS: i32 = STRIDE * RANKS;

/// The eight steps in the padded layout, in the order the move encoding numbers them:
/// north, south, east, west, north-east, south-west, north-west, south-east.
pub const STEPS: [i32; 8] = [16, -16, 1, -1, 17, -17, 15, -15];

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bb(pub [u64; 3]);

/// Every square of the board (no padding).
pub const BOARD: Bb = Bb([0x3FFF_3FFF_3FFF_3FFF; 3]);
/// Rank 1 (Black's far row).
pub const RANK_1: Bb = Bb([0x3FFF, 0, 0]);
/// Rank 12 (White's far row).
pub const RANK_12: Bb = Bb([0, 0, 0x3FFF << 48]);

/// The padded index of a square.
#[inline(always)]
pub const fn index(file: i32, rank: i32) -> i32 {
    rank * STRIDE + file
}

/// True if a padded index is a square of the board.
#[inline(always)]
pub const fn on_board(i: i32) -> bool {
    i >= 0 && i < BITS && (i & 15) < FILES
}

/// The padded index of a `Cell` (`rank * 14 + file`).
#[inline(always)]
pub const fn from_cell(cell: u16) -> i32 {
    let c = cell as i32;
    index(c % FILES, c / FILES)
}

/// The `Cell` (`rank * 14 + file`) of a padded index on the board.
#[inline(always)]
pub const fn to_cell(i: i32) -> u16 {
    ((i >> 4) * FILES + (i & 15)) as u16
}

impl Bb {
    pub const EMPTY: Bb = Bb([0; 3]);

    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        (self.0[0] | self.0[1] | self.0[2]) == 0
    }

    #[inline(always)]
    pub const fn any(self) -> bool {
        !self.is_empty()
    }

    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0[0].count_ones() + self.0[1].count_ones() + self.0[2].count_ones()
    }

    /// The bit at a padded index (false off the 192 bits).
    #[inline(always)]
    pub const fn has(self, i: i32) -> bool {
        if i < 0 || i >= BITS {
            return false;
        }
        (self.0[(i >> 6) as usize] >> (i & 63)) & 1 != 0
    }

    /// True if the set holds the cell (`rank * 14 + file`); false for a cell off the board.
    #[inline(always)]
    pub const fn has_cell(self, cell: Cell) -> bool {
        (cell as i32) < FILES * RANKS && self.has(from_cell(cell))
    }

    /// Adds a padded index. Precondition: `0 <= i < BITS` (it panics otherwise).
    #[inline(always)]
    pub(crate) fn set(&mut self, i: i32) {
        self.0[(i >> 6) as usize] |= 1 << (i & 63);
    }

    /// Adds or removes a padded index. Precondition: `0 <= i < BITS` (it panics otherwise).
    #[inline(always)]
    pub(crate) fn flip(&mut self, i: i32) {
        self.0[(i >> 6) as usize] ^= 1 << (i & 63);
    }

    /// The cells (`rank * 14 + file`, as the game's `Geometry` numbers them) of the set's
    /// squares, lowest first.
    pub fn cells(self) -> impl Iterator<Item = Cell> {
        (self & BOARD).squares().map(to_cell)
    }

    /// The set seen one step of `d` further on: bit `s` of the result is bit `s + d` of
    /// `self`. `d` is a constant at every call site, so this folds into a few word shifts.
    #[inline(always)]
    pub const fn ahead(self, d: i32) -> Bb {
        if d == 1 || d == -1 || d == 2 || d == -2 || d == 4 || d == -4 || d == 8 || d == -8 {
            // Along a rank: a rank never straddles two words, and a bit crossing from one word
            // to the next would only move between a padding bit and a square of another rank,
            // which callers mask off anyway (as they do for the wrap inside a word); shifting
            // each word on its own is enough.
            let w = self.0;
            return if d > 0 {
                Bb([w[0] >> d, w[1] >> d, w[2] >> d])
            } else {
                Bb([w[0] << -d, w[1] << -d, w[2] << -d])
            };
        }
        if d >= 0 {
            self.shr(d as u32)
        } else {
            self.shl(d.unsigned_abs())
        }
    }

    /// Moves every bit to a lower index by `n`.
    #[inline(always)]
    pub const fn shr(self, n: u32) -> Bb {
        let w = self.0;
        let q = (n / 64) as usize;
        let r = n % 64;
        let mut out = [0u64; 3];
        let mut i = 0;
        while i + q < 3 {
            let lo = w[i + q] >> r;
            let hi = if r != 0 && i + q + 1 < 3 {
                w[i + q + 1] << (64 - r)
            } else {
                0
            };
            out[i] = lo | hi;
            i += 1;
        }
        Bb(out)
    }

    /// Moves every bit to a higher index by `n`.
    #[inline(always)]
    pub const fn shl(self, n: u32) -> Bb {
        let w = self.0;
        let q = (n / 64) as usize;
        let r = n % 64;
        let mut out = [0u64; 3];
        let mut i = q;
        while i < 3 {
            let hi = w[i - q] << r;
            let lo = if r != 0 && i > q {
                w[i - q - 1] >> (64 - r)
            } else {
                0
            };
            out[i] = hi | lo;
            i += 1;
        }
        Bb(out)
    }

    /// Calls `f` with the padded index of every set bit, lowest first (tighter than
    /// [`Bb::squares`] in hot loops).
    #[inline(always)]
    pub fn for_each(self, mut f: impl FnMut(i32)) {
        for k in 0..3 {
            let mut w = self.0[k];
            while w != 0 {
                f(k as i32 * 64 + w.trailing_zeros() as i32);
                w &= w - 1;
            }
        }
    }

    /// Iterates over the padded indices of the set bits, lowest first.
    #[inline(always)]
    pub fn squares(self) -> Squares {
        Squares {
            words: self.0,
            word: 0,
        }
    }
}

/// Iterator over the set bits of a [`Bb`].
pub struct Squares {
    words: [u64; 3],
    word: usize,
}

impl Iterator for Squares {
    type Item = i32;

    #[inline(always)]
    fn next(&mut self) -> Option<i32> {
        while self.word < 3 {
            let w = self.words[self.word];
            if w != 0 {
                self.words[self.word] = w & (w - 1);
                return Some(self.word as i32 * 64 + w.trailing_zeros() as i32);
            }
            self.word += 1;
        }
        None
    }
}

macro_rules! binop {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for Bb {
            type Output = Bb;
            #[inline(always)]
            fn $f(self, o: Bb) -> Bb {
                Bb([self.0[0] $op o.0[0], self.0[1] $op o.0[1], self.0[2] $op o.0[2]])
            }
        }
        impl $tra for Bb {
            #[inline(always)]
            fn $fa(&mut self, o: Bb) {
                *self = *self $op o;
            }
        }
    };
}

binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
binop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
binop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bb {
    type Output = Bb;
    /// The complement within the board (padding stays zero).
    #[inline(always)]
    fn not(self) -> Bb {
        Bb([
            !self.0[0] & BOARD.0[0],
            !self.0[1] & BOARD.0[1],
            !self.0[2] & BOARD.0[2],
        ])
    }
}

/// The set type of [`crate::game::PieceSets`]: padded indices inside, the game's cells outside.
impl CellSet for Bb {
    const EMPTY: Bb = Bb::EMPTY;

    #[inline(always)]
    fn count(self) -> u32 {
        Bb::count(self)
    }

    #[inline(always)]
    fn is_empty(self) -> bool {
        Bb::is_empty(self)
    }

    #[inline(always)]
    fn contains(self, cell: Cell) -> bool {
        self.has_cell(cell)
    }

    #[inline(always)]
    fn cells(self) -> impl Iterator<Item = Cell> {
        Bb::cells(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bit(i: i32) -> Bb {
        let mut b = Bb::EMPTY;
        b.set(i);
        b
    }

    #[test]
    fn shifts_move_single_bits() {
        for i in 0..BITS {
            for d in [
                1, 2, 4, 8, 15, 16, 17, 30, 32, 34, 60, 64, 68, 120, 128, 136,
            ] {
                let b = bit(i);
                if d <= 8 && ((i - d) >> 6 != i >> 6 || (i + d) >> 6 != i >> 6) {
                    // Shifts along a rank are word-wise: bits crossing words are dropped.
                    continue;
                }
                let back = b.ahead(d); // bit i - d
                if i - d >= 0 {
                    assert_eq!(back, bit(i - d), "{i} {d}");
                } else {
                    assert!(back.is_empty());
                }
                let fwd = b.ahead(-d); // bit i + d
                if i + d < BITS {
                    assert_eq!(fwd, bit(i + d), "{i} -{d}");
                } else {
                    assert!(fwd.is_empty());
                }
            }
        }
    }

    #[test]
    fn masks_and_cells() {
        assert_eq!(BOARD.count(), 168);
        assert_eq!(RANK_1.count(), 14);
        assert_eq!(RANK_12.count(), 14);
        for s in RANK_12.squares() {
            assert_eq!(s >> 4, 11);
        }
        for cell in 0..168u16 {
            let i = from_cell(cell);
            assert!(on_board(i));
            assert!(BOARD.has(i));
            assert_eq!(to_cell(i), cell);
        }
        assert_eq!((!Bb::EMPTY), BOARD);
    }
}
