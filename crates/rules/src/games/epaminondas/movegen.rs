//! Move generation and move counting.
//!
//! Per direction `d` (a step in the padded layout), with `o` the mover's pieces, `x` the
//! enemy's and `e` the empty squares, and "`A` ahead" meaning the set `{s : s + d ∈ A}`:
//!
//! * a *head* is an own piece whose next square is not own; the *run* of a head is the own
//!   pieces behind it without a gap, `L` of them. Each piece of the run is a tail: the one `i`
//!   squares behind the head leads a group of `k = i + 1` pieces.
//! * a group of `k` with `n` empty squares in front of its head has `min(k, n)` plain moves,
//!   and one capture if the first piece after those `n` squares is an enemy whose line has
//!   fewer than `k` pieces and `n + 1 ≤ k`.
//!
//! Counting (no move list): the plain moves are `Σ_j |R_j ∩ P_j|` over `j ≥ 1`, where `R_j` is
//! the set of tails of groups of at least `j` pieces (own runs of length `j` starting there:
//! `R_1 = o`, `R_{j+1} = o ∩ (R_j ahead)`) and `P_j` the own pieces whose head has at least `j`
//! empty squares in front (the heads `o ∩ E_j`, `E_j` = squares followed by `j` empty squares,
//! filled backwards through their runs with a Kogge–Stone fill whose propagators are `R_2`,
//! `R_4`, `R_8`). A tail is in both exactly when it can move `j` squares. The loop stops at the
//! first `j` that adds nothing, and the fill takes only as many doubling steps as the longest
//! run needs, so a position with short runs costs a handful of shifts per direction.
//!
//! Captures need a head with at least two pieces behind it and an enemy within its reach; the
//! bitboards find those heads (usually none), and each one found is measured square by square.

use super::bitboard::{Bb, STEPS};
use super::moves::EpaminondasMove;
use super::position::EpaminondasPosition;

/// The length of the run of `bb` from `i` along `d`, at most `cap`.
#[inline(always)]
fn run(bb: Bb, mut i: i32, d: i32, cap: i32) -> i32 {
    let mut n = 0;
    while n < cap && bb.has(i) {
        n += 1;
        i += d;
    }
    n
}

/// The number of legal captures along `d` by the groups whose head is `h`.
#[inline(never)]
fn captures_at(o: Bb, x: Bb, e: Bb, h: i32, d: i32) -> u32 {
    let l = 1 + run(o, h - d, -d, 14);
    let gap = run(e, h + d, d, l);
    if gap >= l {
        return 0;
    }
    let target = h + (gap + 1) * d;
    if !x.has(target) {
        return 0;
    }
    let line = run(x, target, d, l);
    (l - gap.max(line)).max(0) as u32
}

/// The number of legal moves along `D` (which is one of [`STEPS`]).
#[inline(always)]
fn count_dir<const D: i32>(o: Bb, x: Bb, e: Bb) -> u32 {
    let se = e.ahead(D);
    let g1 = o & se;
    let r2 = o & o.ahead(D);
    if r2.is_empty() {
        // Lone pieces only: one move each if the next square is empty, never a capture.
        return g1.count();
    }
    let r3 = o & r2.ahead(D);
    let mut r4 = Bb::EMPTY;
    let mut r8 = Bb::EMPTY;
    if r3.any() {
        r4 = r2 & r2.ahead(2 * D);
        if r4.any() {
            r8 = r4 & r4.ahead(4 * D);
        }
    }
    let fill = |mut g: Bb| -> Bb {
        g |= o & g.ahead(D);
        if r3.any() {
            g |= r2 & g.ahead(2 * D);
            if r4.any() {
                g |= r4 & g.ahead(4 * D);
                if r8.any() {
                    g |= r8 & g.ahead(8 * D);
                }
            }
        }
        g
    };

    let mut total = 0;
    if g1.any() {
        total += fill(g1).count();
        let mut ej = se & se.ahead(D); // squares followed by j = 2 empty squares
        let mut g = o & ej;
        let mut rj = r2;
        while g.any() {
            let c = (fill(g) & rj).count();
            if c == 0 {
                break;
            }
            total += c;
            rj = o & rj.ahead(D);
            if rj.is_empty() {
                break;
            }
            ej = se & ej.ahead(D);
            g = o & ej;
        }
    }

    // Captures. Heads with at least two pieces: `r2` seen from the other side.
    let rb2 = r2.ahead(-D);
    let longest = if r3.is_empty() {
        2
    } else if r4.is_empty() {
        3
    } else if r8.is_empty() {
        7
    } else {
        14
    };
    // Squares whose first non-empty square ahead is an enemy within `longest` steps.
    let mut f = x.ahead(D);
    let mut near = f;
    let mut i = 1;
    while i < longest {
        f = (e & f).ahead(D);
        if f.is_empty() {
            break;
        }
        near |= f;
        i += 1;
    }
    let candidates = near & rb2;
    if candidates.any() {
        for h in candidates.squares() {
            total += captures_at(o, x, e, h, D);
        }
    }
    total
}

/// Appends the legal moves along `STEPS[DIR]`.
#[inline(always)]
fn gen_dir<const DIR: usize>(o: Bb, x: Bb, e: Bb, out: &mut Vec<EpaminondasMove>) {
    let d = STEPS[DIR];
    let heads = o & !o.ahead(d);
    let active = heads & (e.ahead(d) | x.ahead(d));
    for h in active.squares() {
        let l = 1 + run(o, h - d, -d, 14);
        let gap = run(e, h + d, d, l);
        for k in 1..=l {
            let tail = h - (k - 1) * d;
            for j in 1..=k.min(gap) {
                out.push(EpaminondasMove::new(tail, h + j * d, DIR, k, 0));
            }
        }
        if gap < l {
            let target = h + (gap + 1) * d;
            if x.has(target) {
                let line = run(x, target, d, l);
                for k in gap.max(line) + 1..=l {
                    out.push(EpaminondasMove::new(h - (k - 1) * d, target, DIR, k, line));
                }
            }
        }
    }
}

impl EpaminondasPosition {
    /// The number of legal moves, counted without generating them.
    #[inline]
    pub fn count_moves(&self) -> u64 {
        if self.crossing_win() {
            return 0;
        }
        let o = self.pieces[self.side as usize];
        let x = self.pieces[(self.side ^ 1) as usize];
        let e = !(o | x);
        let n = count_dir::<16>(o, x, e)
            + count_dir::<-16>(o, x, e)
            + count_dir::<1>(o, x, e)
            + count_dir::<-1>(o, x, e)
            + count_dir::<17>(o, x, e)
            + count_dir::<-17>(o, x, e)
            + count_dir::<15>(o, x, e)
            + count_dir::<-15>(o, x, e);
        n as u64
    }

    /// Appends the legal moves to `out`.
    pub fn generate(&self, out: &mut Vec<EpaminondasMove>) {
        if self.crossing_win() {
            return;
        }
        let o = self.pieces[self.side as usize];
        let x = self.pieces[(self.side ^ 1) as usize];
        let e = !(o | x);
        gen_dir::<0>(o, x, e, out);
        gen_dir::<1>(o, x, e, out);
        gen_dir::<2>(o, x, e, out);
        gen_dir::<3>(o, x, e, out);
        gen_dir::<4>(o, x, e, out);
        gen_dir::<5>(o, x, e, out);
        gen_dir::<6>(o, x, e, out);
        gen_dir::<7>(o, x, e, out);
    }
}
