//! The set operations the move counter needs, for the portable bitboard ([`Bb`], three `u64`)
//! and, on x86-64 CPUs with AVX2, for the same 192 bits in one 256-bit register (`Avx`, the
//! fourth 64-bit lane always zero), and the run-time choice between them ([`run_best`]). The
//! counter is written once over [`Set`] as a [`Kernel`]; the register version spends one
//! instruction where the portable one spends three, and keeps every set in one register instead
//! of three, which is what the counter is mostly made of.
//!
//! # Safety
//!
//! This is the one module of the crate allowed `unsafe` (the crate denies it everywhere else).
//! Every `unsafe` here rests on one fact: **code that uses AVX2 or `popcnt` instructions only
//! runs on a CPU that has them.** It is kept by three rules, all local to this module:
//!
//! 1. [`run_best`] calls the `#[target_feature]` functions `run_avx2` (AVX2 and `popcnt`) and
//!    `run_popcnt` (`popcnt`) only after `is_x86_feature_detected!` has said, on this CPU and in
//!    this process, that it has those features. Calling a `#[target_feature]` function is
//!    `unsafe` for exactly that precondition, and it holds at both call sites.
//! 2. `Avx` is private to this module. Outside the tests, the only place it is named is
//!    `run_avx2`, which runs `Kernel::run::<Avx>`; in the tests, `compare_shifts`, compiled
//!    with the same features and called the same way. So every `Avx` value is made and used
//!    during a call of one of those, hence on a CPU with AVX2 (rule 1). The intrinsics in
//!    `Avx`'s methods (`_mm256_*`, `_mm_*`) have no precondition besides the CPU feature: they
//!    take and return register values and touch no memory, except the store of `to_bb` (tests
//!    only), which writes 32 bytes into a local `[u64; 4]` of exactly that size (`storeu`: no
//!    alignment needed). The methods are `#[inline(always)]` so that they are compiled inside
//!    `run_avx2` with its features; if the compiler ever declined, it would call the
//!    intrinsics as functions, which is slower but sound by the same argument.
//! 3. `Avx::NONE` is the only value not made by an intrinsic: a `transmute` of `[u64; 4]` into
//!    `__m256i`, two 32-byte plain-data types for which every bit pattern is valid.
//!
//! The tests compare the register shifts with the portable ones on every square, and the test
//! that calls the `#[target_feature]` comparison checks the CPU features first (rule 1).
#![allow(unsafe_code)]

use std::ops::{BitAnd, BitOr, BitOrAssign};

use super::bitboard::Bb;

/// A set of squares in the padded layout (see `bitboard`).
pub(crate) trait Set:
    Copy + BitAnd<Output = Self> + BitOr<Output = Self> + BitOrAssign
{
    const NONE: Self;
    fn from_bb(b: Bb) -> Self;
    /// `{s : s + d ∈ self}`; `d` is a constant at every call site.
    fn ahead(self, d: i32) -> Self;
    /// `self ∖ other`.
    fn minus(self, other: Self) -> Self;
    fn is_empty(self) -> bool;
    #[inline(always)]
    fn any(self) -> bool {
        !self.is_empty()
    }
    fn count(self) -> u32;
    /// `self ∩ ¬(self + g)` word by word: with `g` a set of lowest squares of runs of `self`
    /// along a rank, the runs that start in `g` (the carry of the addition runs through each).
    fn carry_runs(self, g: Self) -> Self;
}

impl Set for Bb {
    const NONE: Bb = Bb::EMPTY;

    #[inline(always)]
    fn from_bb(b: Bb) -> Bb {
        b
    }

    #[inline(always)]
    fn ahead(self, d: i32) -> Bb {
        Bb::ahead(self, d)
    }

    #[inline(always)]
    fn minus(self, o: Bb) -> Bb {
        Bb([
            self.0[0] & !o.0[0],
            self.0[1] & !o.0[1],
            self.0[2] & !o.0[2],
        ])
    }

    #[inline(always)]
    fn is_empty(self) -> bool {
        Bb::is_empty(self)
    }

    #[inline(always)]
    fn count(self) -> u32 {
        Bb::count(self)
    }

    #[inline(always)]
    fn carry_runs(self, g: Bb) -> Bb {
        let mut out = Bb::EMPTY;
        for i in 0..3 {
            out.0[i] = self.0[i] & !(self.0[i].wrapping_add(g.0[i]));
        }
        out
    }
}

/// A computation over sets of squares (the move counter), run by [`run_best`] with the fastest
/// set type the CPU allows. Implementations mark `run` `#[inline(always)]`, so that it is
/// compiled inside the feature-specific functions below with their instructions.
pub(crate) trait Kernel {
    fn run<S: Set>(&self) -> u64;
}

/// Runs `kernel` on 256-bit registers if the CPU has AVX2, else on three words with the
/// `popcnt` instruction if it has that, else portably. Every version gives the same number.
#[inline(always)]
pub(crate) fn run_best<K: Kernel>(kernel: &K) -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("popcnt")
        {
            // SAFETY: the CPU has both features `run_avx2` is compiled for (rule 1 above).
            return unsafe { run_avx2(kernel) };
        }
        if std::arch::is_x86_feature_detected!("popcnt") {
            // SAFETY: the CPU has the feature `run_popcnt` is compiled for (rule 1 above).
            return unsafe { run_popcnt(kernel) };
        }
    }
    kernel.run::<Bb>()
}

/// The kernel on 256-bit registers. Only [`run_best`] calls it, after detecting the features.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt")]
fn run_avx2<K: Kernel>(kernel: &K) -> u64 {
    kernel.run::<avx::Avx>()
}

/// The portable kernel compiled with the `popcnt` instruction, which the baseline x86-64 target
/// lacks (its software bit count costs about a dozen instructions per word).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn run_popcnt<K: Kernel>(kernel: &K) -> u64 {
    kernel.run::<Bb>()
}

#[cfg(target_arch = "x86_64")]
mod avx {
    use std::arch::x86_64::*;
    use std::ops::{BitAnd, BitOr, BitOrAssign};

    use super::{Bb, Set};

    /// 192 bits in a 256-bit AVX2 register; lane 3 is always zero.
    ///
    /// Private to `simd`: values exist only during a call of `run_avx2` (rule 2 of the
    /// module's safety argument), which is what makes every `unsafe` block below sound.
    #[derive(Clone, Copy)]
    pub(super) struct Avx(__m256i);

    /// Lane `i` of the result is lane `i + Q` of `x` (lane 3, which is zero, past the end).
    #[inline(always)]
    fn lanes_down(x: __m256i, q: u32) -> __m256i {
        // SAFETY: a CPU with AVX2 (rule 2 of the module's safety argument).
        unsafe {
            match q {
                0 => x,
                1 => _mm256_permute4x64_epi64::<0b11_11_10_01>(x),
                2 => _mm256_permute4x64_epi64::<0b11_11_11_10>(x),
                _ => _mm256_setzero_si256(),
            }
        }
    }

    /// Lane `i` of the result is lane `i - q` of `x` (zero before the start; lane 3 gets
    /// whatever and must be cleared by the caller).
    #[inline(always)]
    fn lanes_up(x: __m256i, q: u32) -> __m256i {
        // SAFETY: a CPU with AVX2 (rule 2 of the module's safety argument).
        unsafe {
            match q {
                0 => x,
                1 => _mm256_permute4x64_epi64::<0b10_01_00_11>(x),
                2 => _mm256_permute4x64_epi64::<0b01_00_11_11>(x),
                _ => _mm256_setzero_si256(),
            }
        }
    }

    impl Avx {
        /// The three words back (for tests).
        #[cfg(test)]
        #[inline(always)]
        pub(super) fn to_bb(self) -> Bb {
            // SAFETY: a CPU with AVX2 (rule 2 of the module's safety argument).
            unsafe {
                let mut w = [0u64; 4];
                _mm256_storeu_si256(w.as_mut_ptr() as *mut __m256i, self.0);
                assert_eq!(w[3], 0, "lane 3 must stay clear");
                Bb([w[0], w[1], w[2]])
            }
        }
    }

    impl BitAnd for Avx {
        type Output = Avx;
        #[inline(always)]
        fn bitand(self, o: Avx) -> Avx {
            // SAFETY: a CPU with AVX2 (rule 2 of the module's safety argument).
            Avx(unsafe { _mm256_and_si256(self.0, o.0) })
        }
    }

    impl BitOr for Avx {
        type Output = Avx;
        #[inline(always)]
        fn bitor(self, o: Avx) -> Avx {
            // SAFETY: a CPU with AVX2 (rule 2 of the module's safety argument).
            Avx(unsafe { _mm256_or_si256(self.0, o.0) })
        }
    }

    impl BitOrAssign for Avx {
        #[inline(always)]
        fn bitor_assign(&mut self, o: Avx) {
            *self = *self | o;
        }
    }

    impl Set for Avx {
        // SAFETY: plain data of the same size, every bit pattern valid (rule 3).
        const NONE: Avx = Avx(unsafe { std::mem::transmute::<[u64; 4], __m256i>([0; 4]) });

        #[inline(always)]
        fn from_bb(b: Bb) -> Avx {
            // SAFETY: a CPU with AVX2 (rule 2 of the module's safety argument).
            Avx(unsafe { _mm256_set_epi64x(0, b.0[2] as i64, b.0[1] as i64, b.0[0] as i64) })
        }

        #[inline(always)]
        fn ahead(self, d: i32) -> Avx {
            // SAFETY: a CPU with AVX2 (rule 2 of the module's safety argument).
            unsafe {
                let x = self.0;
                if d == 1 || d == 2 || d == 4 || d == 8 {
                    // Along a rank: lane by lane (see `Bb::ahead`).
                    return Avx(_mm256_srl_epi64(x, _mm_cvtsi32_si128(d)));
                }
                if d == -1 || d == -2 || d == -4 || d == -8 {
                    return Avx(_mm256_sll_epi64(x, _mm_cvtsi32_si128(-d)));
                }
                if d == 16 || d == 15 || d == 17 {
                    // One rank down the register: a 2-byte shift across both 128-bit halves
                    // (the upper half moved down, then a byte alignment), then the file step
                    // lane by lane as along a rank.
                    let upper = _mm256_permute2x128_si256::<0x81>(x, x);
                    let v = _mm256_alignr_epi8::<2>(upper, x);
                    return Avx(match d {
                        16 => v,
                        17 => _mm256_srli_epi64::<1>(v),
                        _ => _mm256_slli_epi64::<1>(v),
                    });
                }
                if d == -16 || d == -15 || d == -17 {
                    // One rank up; lane 3 receives the top rank and is cleared.
                    let lower = _mm256_permute2x128_si256::<0x08>(x, x);
                    let v = _mm256_alignr_epi8::<14>(x, lower);
                    let v = _mm256_blend_epi32::<0b1100_0000>(v, _mm256_setzero_si256());
                    return Avx(match d {
                        -16 => v,
                        -15 => _mm256_srli_epi64::<1>(v),
                        _ => _mm256_slli_epi64::<1>(v),
                    });
                }
                if d > 0 {
                    let n = d as u32;
                    let (q, r) = (n / 64, n % 64);
                    let lo = _mm256_srl_epi64(lanes_down(x, q), _mm_cvtsi32_si128(r as i32));
                    if r == 0 {
                        return Avx(lo);
                    }
                    let hi =
                        _mm256_sll_epi64(lanes_down(x, q + 1), _mm_cvtsi32_si128(64 - r as i32));
                    Avx(_mm256_or_si256(lo, hi))
                } else {
                    let n = (-d) as u32;
                    let (q, r) = (n / 64, n % 64);
                    let hi = _mm256_sll_epi64(lanes_up(x, q), _mm_cvtsi32_si128(r as i32));
                    let out = if r == 0 {
                        hi
                    } else {
                        let lo =
                            _mm256_srl_epi64(lanes_up(x, q + 1), _mm_cvtsi32_si128(64 - r as i32));
                        _mm256_or_si256(hi, lo)
                    };
                    Avx(_mm256_and_si256(out, _mm256_set_epi64x(0, -1, -1, -1)))
                }
            }
        }

        #[inline(always)]
        fn minus(self, o: Avx) -> Avx {
            // SAFETY: a CPU with AVX2 (rule 2 of the module's safety argument).
            Avx(unsafe { _mm256_andnot_si256(o.0, self.0) })
        }

        #[inline(always)]
        fn is_empty(self) -> bool {
            // SAFETY: a CPU with AVX2 (rule 2 of the module's safety argument).
            unsafe { _mm256_testz_si256(self.0, self.0) != 0 }
        }

        #[inline(always)]
        fn count(self) -> u32 {
            // SAFETY: a CPU with AVX2 (rule 2 of the module's safety argument).
            unsafe {
                let lo = _mm256_castsi256_si128(self.0);
                let hi = _mm256_extracti128_si256::<1>(self.0);
                let a = _mm_cvtsi128_si64(lo) as u64;
                let b = _mm_extract_epi64::<1>(lo) as u64;
                let c = _mm_cvtsi128_si64(hi) as u64;
                a.count_ones() + b.count_ones() + c.count_ones()
            }
        }

        #[inline(always)]
        fn carry_runs(self, g: Avx) -> Avx {
            // SAFETY: a CPU with AVX2 (rule 2 of the module's safety argument).
            Avx(unsafe { _mm256_andnot_si256(_mm256_add_epi64(self.0, g.0), self.0) })
        }
    }
}

#[cfg(all(test, target_arch = "x86_64"))]
mod tests {
    use super::super::bitboard::{Bb, BITS, BOARD, STEPS};
    use super::avx::Avx;
    use super::Set;

    /// Every shift the counter uses, on every single bit: the register version agrees with the
    /// portable one on the board squares.
    #[target_feature(enable = "avx2,popcnt")]
    fn compare_shifts() {
        // Sources on the board only: what lands on a padding bit, or comes from one, is never
        // used unmasked (see `Bb::ahead`), and the two versions may differ there.
        for i in (0..BITS).filter(|&i| BOARD.has(i)) {
            let mut b = Bb::EMPTY;
            b.set(i);
            let v = Avx::from_bb(b);
            assert_eq!(v.count(), 1);
            assert_eq!(v.to_bb(), b);
            for &s in &STEPS {
                for d in [s, 2 * s, 4 * s, 8 * s] {
                    let fast = v.ahead(d).to_bb() & BOARD;
                    let slow = b.ahead(d) & BOARD;
                    assert_eq!(fast, slow, "bit {i} shift {d}");
                }
            }
            assert!(v.minus(v).is_empty());
            assert!((v & Avx::from_bb(b)).any());
        }
    }

    #[test]
    fn register_shifts_match_the_portable_ones() {
        if std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("popcnt")
        {
            // SAFETY: the CPU has the features `compare_shifts` is compiled for (rule 1).
            unsafe { compare_shifts() }
        }
    }
}
