//! Move generation and move counting, and playing a move.
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
//! Shortcuts, in the order they matter for speed:
//!
//! * no two own pieces in a row along `d`: the count is the number of pieces with an empty
//!   square in front;
//! * no three in a row (the usual case off the ranks): a closed form, `|G_1 ∪ T_1| + |T_2|`
//!   with `G_1` the heads with an empty square in front and `T_1`, `T_2` the pieces right
//!   behind heads with at least one / two empty squares in front; pair captures of a lone
//!   enemy piece are counted the same way;
//! * westward, the backward fill is one addition per word (the carry runs through each run);
//! * captures are searched only if some enemy piece stands on a rank the groups can reach
//!   (rank occupancy as 12-bit masks, one add and one multiply per word). Then the heads of
//!   two or more with an enemy within reach are found with bitboards (usually none) and each is
//!   measured square by square.
//!
//! The counter is generic over `simd::Set`, a `simd::Kernel` that `simd::run_best` runs on
//! 256-bit registers on x86-64 with AVX2, otherwise on the three-word [`Bb`] (with the
//! `popcnt` instruction when the CPU has it). Generation (`gen_dir`) walks each active head square by
//! square; it only runs at inner nodes. With its plain moves switched off it gives the captures
//! alone, for the tactical moves of a quiescence search.

use super::bitboard::{on_board, Bb, BOARD, RANK_1, RANK_12, STEPS};
use super::moves::EpaminondasMove;
use super::position::{piece_key, side_key, EpaminondasPosition, WHITE};
use super::simd::{run_best, Kernel, Set};
use crate::game::{PieceSets, Player};
use crate::movelist::MoveSink;

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

/// Ranks (bit `r` for rank `r + 1`) holding at least one piece of `b`.
#[inline(always)]
fn rank_bits(b: Bb) -> u32 {
    let mut out = 0;
    let mut i = 0;
    while i < 3 {
        // Adding 0x3FFF to a 14-bit field sets its bit 14 exactly when the field is not zero
        // (no carry leaves the 16-bit field); a multiplication then gathers the four bits
        // 14, 30, 46, 62 into bits 60..63 (the other products land on distinct lower bits).
        let nz = b.0[i].wrapping_add(0x3FFF_3FFF_3FFF_3FFF) & 0x4000_4000_4000_4000;
        let four = nz.wrapping_mul((1 << 46) | (1 << 31) | (1 << 16) | (1 << 1)) >> 60;
        out |= (four as u32) << (4 * i);
        i += 1;
    }
    out
}

/// What every direction's count needs: the pieces and the empty squares (as sets of type `S`,
/// and as plain bitboards for the square-by-square capture check) and which ranks hold pieces
/// of each side (a capture needs an enemy on a rank the groups can reach, so most positions
/// skip the capture search altogether).
#[derive(Clone, Copy)]
struct Ctx<S: Set> {
    o: S,
    x: S,
    e: S,
    bb: [Bb; 3],
    own_ranks: u32,
    enemy_ranks: u32,
}

impl<S: Set> Ctx<S> {
    #[inline(always)]
    fn new(o: Bb, x: Bb) -> Self {
        let e = !(o | x);
        Ctx {
            o: S::from_bb(o),
            x: S::from_bb(x),
            e: S::from_bb(e),
            bb: [o, x, e],
            own_ranks: rank_bits(o),
            enemy_ranks: rank_bits(x),
        }
    }

    /// Can a group of at most `longest` pieces along `d` reach an enemy at all, judging by
    /// ranks only? (A false "yes" only costs time.)
    #[inline(always)]
    fn enemy_in_reach(&self, d: i32, longest: i32) -> bool {
        let mut reach = 0;
        if d == 1 || d == -1 {
            reach = self.own_ranks;
        } else if d > 0 {
            for i in 1..=longest {
                reach |= self.own_ranks << i;
            }
        } else {
            for i in 1..=longest {
                reach |= self.own_ranks >> i;
            }
        }
        reach & self.enemy_ranks != 0
    }

    /// The number of legal moves, all directions.
    #[inline(always)]
    fn count(&self) -> u32 {
        count_dir::<S, 16>(self)
            + count_dir::<S, -16>(self)
            + count_dir::<S, 1>(self)
            + count_dir::<S, -1>(self)
            + count_dir::<S, 17>(self)
            + count_dir::<S, -17>(self)
            + count_dir::<S, 15>(self)
            + count_dir::<S, -15>(self)
    }
}

/// The backward fill for direction `D`: every own piece whose run along `D` ends at a head in
/// `g`. Westward (`D = -1`) the heads are the lowest bits of their runs, so one addition per
/// word carries each head through its run (a run ends on file 13 at most, and the carry stops
/// in the padding bit of its rank). Otherwise a Kogge–Stone fill with the run sets `r2`, `r4`,
/// `r8` as propagators, taking only the doubling steps the longest run needs.
#[inline(always)]
fn fill<S: Set, const D: i32>(g: S, o: S, r2: S, r3: S, r4: S, r8: S) -> S {
    if D == -1 {
        return o.carry_runs(g);
    }
    let mut g = g;
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
}

/// The number of legal moves along `D` (which is one of [`STEPS`]).
#[inline(always)]
fn count_dir<S: Set, const D: i32>(c: &Ctx<S>) -> u32 {
    let (o, x, e) = (c.o, c.x, c.e);
    let se = e.ahead(D); // squares followed by an empty square
    let g1 = o & se; // heads with at least one empty square in front
    let r2 = o & o.ahead(D); // tails of groups of two or more
    if r2.is_empty() {
        // Lone pieces only: one move each if the next square is empty, never a capture.
        return g1.count();
    }
    let r3 = o & r2.ahead(D);
    if r3.is_empty() {
        // Groups of one or two. A head with `n` empty squares in front moves 1 square if
        // `n >= 1`; the piece behind it leads a pair that moves 1 or 2 squares.
        let g2 = g1 & se.ahead(D);
        // The heads and the pieces right behind them are different squares: one count.
        let mut total = (g1 | (o & g1.ahead(D))).count() + (o & g2.ahead(D)).count();
        if c.enemy_in_reach(D, 2) {
            // A pair takes a lone enemy piece (a line of one) adjacent to its head or one
            // empty square further.
            let rb2 = r2.ahead(-D); // heads of pairs
            let single = x.minus(x.ahead(D));
            let s1 = single.ahead(D);
            total += (rb2 & s1).count() + (rb2 & se & s1.ahead(D)).count();
        }
        return total;
    }
    let mut r4 = S::NONE;
    let mut r8 = S::NONE;
    let r2b = r2 & r2.ahead(2 * D);
    if r2b.any() {
        r4 = r2b;
        r8 = r4 & r4.ahead(4 * D);
    }

    let mut total = 0;
    if g1.any() {
        total += fill::<S, D>(g1, o, r2, r3, r4, r8).count();
        let mut ej = se & se.ahead(D); // squares followed by j = 2 empty squares
        let mut g = o & ej;
        let mut rj = r2;
        while g.any() {
            let n = (fill::<S, D>(g, o, r2, r3, r4, r8) & rj).count();
            if n == 0 {
                break;
            }
            total += n;
            rj = o & rj.ahead(D);
            if rj.is_empty() {
                break;
            }
            ej = se & ej.ahead(D);
            g = o & ej;
        }
    }

    let longest = if r4.is_empty() {
        3
    } else if r8.is_empty() {
        7
    } else {
        14
    };
    if !c.enemy_in_reach(D, longest) {
        return total;
    }
    // Heads of two or more pieces whose first non-empty square ahead is an enemy within
    // `longest` steps; each is measured square by square.
    let [ob, xb, eb] = c.bb;
    let rb2 = r2b_heads(ob, D);
    let mut f = xb.ahead(D);
    let mut near = f;
    let mut i = 1;
    while i < longest {
        f = (eb & f).ahead(D);
        if f.is_empty() {
            break;
        }
        near |= f;
        i += 1;
    }
    for h in (near & rb2).squares() {
        total += captures_at(ob, xb, eb, h, D);
    }
    total
}

/// Own pieces with an own piece right behind them along `d` (heads of two or more, and more).
#[inline(always)]
fn r2b_heads(o: Bb, d: i32) -> Bb {
    o & o.ahead(-d)
}

/// Appends the legal moves along `STEPS[DIR]`: all of them, or with `QUIET` false the captures
/// alone.
#[inline(always)]
fn gen_dir<const DIR: usize, const QUIET: bool, S: MoveSink<EpaminondasMove>>(
    o: Bb,
    x: Bb,
    e: Bb,
    out: &mut S,
) {
    let d = STEPS[DIR];
    let se = e.ahead(d);
    let r2 = o & o.ahead(d);
    if r2.is_empty() {
        // Lone pieces: one square each, no capture.
        if QUIET {
            (o & se).for_each(|t| {
                out.push(EpaminondasMove::new(t, t + d, DIR, 1, 0));
            });
        }
        return;
    }
    if (o & r2.ahead(d)).is_empty() {
        // Groups of one or two, read off the sets of the counter's closed form.
        if QUIET {
            let g1 = o & se;
            g1.for_each(|t| {
                out.push(EpaminondasMove::new(t, t + d, DIR, 1, 0));
            });
            (o & g1.ahead(d)).for_each(|t| {
                out.push(EpaminondasMove::new(t, t + 2 * d, DIR, 2, 0));
            });
            (o & (g1 & se.ahead(d)).ahead(d)).for_each(|t| {
                out.push(EpaminondasMove::new(t, t + 3 * d, DIR, 2, 0));
            });
        }
        // A pair takes a lone enemy piece next to its head or one empty square further.
        let rb2 = o & o.ahead(-d);
        let s1 = (x & !x.ahead(d)).ahead(d);
        (rb2 & s1).for_each(|h| {
            out.push(EpaminondasMove::new(h - d, h + d, DIR, 2, 1));
        });
        (rb2 & se & s1.ahead(d)).for_each(|h| {
            out.push(EpaminondasMove::new(h - d, h + 2 * d, DIR, 2, 1));
        });
        return;
    }
    if QUIET {
        // Longer runs. `gs[j]`: heads with at least `j` empty squares in front; `rb`: heads with
        // at least `k` pieces behind them (themselves included). A head in both leads, from
        // `k - 1` squares behind it, a group of `k` that moves `j <= k` squares.
        let mut gs = [Bb::EMPTY; 15];
        let mut jmax = 0;
        let mut ej = se;
        while jmax < 14 {
            let g = o & ej;
            if g.is_empty() {
                break;
            }
            jmax += 1;
            gs[jmax] = g;
            ej = se & ej.ahead(d);
        }
        let mut rb = o;
        let mut k = 1;
        while k <= 14 && rb.any() {
            let mut j = 1;
            while j <= k.min(jmax) {
                let heads = rb & gs[j];
                if heads.is_empty() {
                    break;
                }
                let back = (k as i32 - 1) * d;
                heads.for_each(|h| {
                    out.push(EpaminondasMove::new(
                        h - back,
                        h + j as i32 * d,
                        DIR,
                        k as i32,
                        0,
                    ));
                });
                j += 1;
            }
            rb = o & rb.ahead(-d);
            k += 1;
        }
    }
    // Captures: heads of two or more whose first non-empty square ahead is an enemy.
    let mut f = x.ahead(d);
    let mut near = f;
    for _ in 1..14 {
        f = (e & f).ahead(d);
        if f.is_empty() {
            break;
        }
        near |= f;
    }
    for h in (near & o & o.ahead(-d)).squares() {
        let l = 1 + run(o, h - d, -d, 14);
        let gap = run(e, h + d, d, l);
        if gap < l {
            let target = h + (gap + 1) * d;
            let line = run(x, target, d, l);
            for k in gap.max(line) + 1..=l {
                out.push(EpaminondasMove::new(h - (k - 1) * d, target, DIR, k, line));
            }
        }
    }
}

/// Appends the legal moves of the player whose pieces are `o` against `x` along all eight
/// directions: all of them, or with `QUIET` false the captures alone.
#[inline(always)]
fn gen_all<const QUIET: bool, S: MoveSink<EpaminondasMove>>(o: Bb, x: Bb, out: &mut S) {
    let e = !(o | x);
    gen_dir::<0, QUIET, S>(o, x, e, out);
    gen_dir::<1, QUIET, S>(o, x, e, out);
    gen_dir::<2, QUIET, S>(o, x, e, out);
    gen_dir::<3, QUIET, S>(o, x, e, out);
    gen_dir::<4, QUIET, S>(o, x, e, out);
    gen_dir::<5, QUIET, S>(o, x, e, out);
    gen_dir::<6, QUIET, S>(o, x, e, out);
    gen_dir::<7, QUIET, S>(o, x, e, out);
}

/// The squares next to a piece of `b` (in any of the eight directions).
#[inline(always)]
fn neighbours(b: Bb) -> Bb {
    let n = b.ahead(16) | b.ahead(-16) | b.ahead(1) | b.ahead(-1);
    (n | b.ahead(17) | b.ahead(-17) | b.ahead(15) | b.ahead(-15)) & BOARD
}

/// True if `player` has a legal move with the pieces `pieces` (`[White, Black]`), the crossing
/// rule aside. A piece with an empty square next to it is a group of one that can step there,
/// so the counter only runs when every piece is walled in (captures are then the only hope).
#[inline]
fn has_move(pieces: &[Bb; 2], player: Player) -> bool {
    let o = pieces[(player & 1) as usize];
    (neighbours(!(pieces[0] | pieces[1])) & o).any() || count_for(pieces, player, false) > 0
}

/// Can a plain move fill every square of `libs` (the empty squares next to enemy pieces)? It
/// fills the squares just beyond its head, at most 7 in a row along one line (a group of `k`
/// moves at most `min(k, R - k)` squares, where `R <= 14` is the room along the line: see
/// `MAX_MOVES`). So `libs` must be empty, or lie within 7 squares along one line from its
/// lowest square.
#[inline]
fn quiet_win_possible(libs: Bb) -> bool {
    if libs.count() > 7 {
        return false;
    }
    let Some(first) = libs.squares().next() else {
        return true;
    };
    // The four lines through `first`, towards higher indices: east, north, north-east,
    // north-west.
    [1, 16, 17, 15].iter().any(|&step| {
        let mut segment = Bb::EMPTY;
        let mut sq = first;
        for _ in 0..7 {
            if !on_board(sq) {
                break;
            }
            segment.set(sq);
            sq += step;
        }
        (libs & !segment).is_empty()
    })
}

/// Keeps the plain moves that win on the spot (see [`EpaminondasPosition::wins`]).
struct QuietWins<'a, S> {
    pos: &'a EpaminondasPosition,
    out: &'a mut S,
}

impl<S: MoveSink<EpaminondasMove>> MoveSink<EpaminondasMove> for QuietWins<'_, S> {
    #[inline]
    fn push(&mut self, mv: EpaminondasMove) {
        if !mv.is_capture() && self.pos.wins(mv) {
            self.out.push(mv);
        }
    }
    fn len(&self) -> usize {
        self.out.len()
    }
}

/// The move count of `player` with the pieces `pieces` (`[White, Black]`); with `rule`, none if
/// `player` has more pieces on their far row than the other player on theirs: the player to
/// move has already won by the crossing rule (checked inside the kernel so that its bit counts
/// are compiled with the same instructions as the rest). A reference and two bytes, so that
/// calling the kernel costs next to nothing.
struct Count<'a> {
    pieces: &'a [Bb; 2],
    player: Player,
    rule: bool,
}

impl Kernel for Count<'_> {
    #[inline(always)]
    fn run<S: Set>(&self) -> u64 {
        let p = (self.player & 1) as usize;
        let (o, x) = (self.pieces[p], self.pieces[p ^ 1]);
        if self.rule && far_count(o, self.player) > far_count(x, self.player ^ 1) {
            return 0;
        }
        Ctx::<S>::new(o, x).count() as u64
    }
}

/// How many of the pieces `b` stand on `player`'s far row (a one-word count: rank 1 is in the
/// first word, rank 12 in the last).
#[inline(always)]
fn far_count(b: Bb, player: Player) -> u32 {
    if player & 1 == WHITE {
        (b & RANK_12).count()
    } else {
        (b & RANK_1).count()
    }
}

/// The number of moves of `player` with the pieces `pieces` (`[White, Black]`), with the
/// fastest counter the CPU allows; with `rule`, 0 if `player` has the far-row majority.
#[inline(always)]
fn count_for(pieces: &[Bb; 2], player: Player, rule: bool) -> u64 {
    run_best(&Count {
        pieces,
        player,
        rule,
    })
}

impl EpaminondasPosition {
    /// The number of legal moves, counted without generating them.
    #[inline]
    pub fn count_moves(&self) -> u64 {
        count_for(&self.pieces, self.side, true)
    }

    /// The mobility of `player` ([`crate::game::PieceSets::mobility`]): the moves it would
    /// have if it were their turn, the crossing rule aside.
    #[inline]
    pub(super) fn count_moves_of(&self, player: Player) -> u32 {
        // At most MAX_MOVES (700) moves: the count fits.
        count_for(&self.pieces, player, false) as u32
    }

    /// [`Self::count_moves`] with the portable counter, whatever the CPU (for tests).
    #[cfg(test)]
    pub(crate) fn count_portable(&self) -> u64 {
        Count {
            pieces: &self.pieces,
            player: self.side,
            rule: true,
        }
        .run::<Bb>()
    }

    /// Appends the legal moves to `out`.
    pub fn generate_into<S: MoveSink<EpaminondasMove>>(&self, out: &mut S) {
        if self.crossing_win() {
            return;
        }
        let p = self.side as usize;
        gen_all::<true, S>(self.pieces[p], self.pieces[p ^ 1], out);
    }

    /// Appends the tactical moves to `out`: every capture, and the plain moves that win on the
    /// spot (see [`Self::wins`]): exactly the legal moves whose `tactics` are tactical.
    ///
    /// The captures come from the generator with its plain moves switched off. A plain move
    /// leaves the enemy pieces where they are, and the enemy keeps a move as long as one of
    /// them has an empty square next to it; so a plain move can only win if it fills every
    /// such square (see `quiet_win_possible`). Only then (almost never) are the plain moves
    /// generated and each one checked.
    pub fn generate_tactical_into<S: MoveSink<EpaminondasMove>>(&self, out: &mut S) {
        if self.crossing_win() {
            return;
        }
        let p = self.side as usize;
        let (o, x) = (self.pieces[p], self.pieces[p ^ 1]);
        gen_all::<false, S>(o, x, out);
        if quiet_win_possible(neighbours(x) & !(o | x)) {
            let mut wins = QuietWins { pos: self, out };
            gen_all::<true, _>(o, x, &mut wins);
        }
    }

    /// True if a legal move `mv` wins on the spot: after it the opponent has no legal move
    /// (no piece left, or every piece walled in with no capture) and has not won by the
    /// crossing rule (which is checked first at the start of their turn). Reaching the far row
    /// never wins on the spot: the opponent gets a turn to answer.
    pub fn wins(&self, mv: EpaminondasMove) -> bool {
        if !mv.is_capture() {
            // The enemy pieces stay; each empty square next to one is a move for them unless
            // this move fills it, and it fills `distance` squares.
            let (o, x) = (self.pieces_of(self.side), self.pieces_of(self.side ^ 1));
            if (neighbours(x) & !(o | x)).count() > mv.distance() as u32 {
                return false;
            }
        }
        let (o, x) = self.after(mv);
        let them = self.side ^ 1;
        if x.is_empty() {
            return true;
        }
        if far_count(x, them) > far_count(o, self.side) {
            return false;
        }
        let mut pieces = [o, x];
        if self.side != WHITE {
            pieces.swap(0, 1);
        }
        !has_move(&pieces, them)
    }

    /// Whether the player to move has a legal move (the crossing rule included), without
    /// counting them all when a piece can simply step to an empty square.
    pub fn has_legal_move(&self) -> bool {
        !self.crossing_win() && has_move(&self.pieces, self.side)
    }

    /// How many pieces a legal move `mv` adds to the mover's far row (negative if it takes
    /// some away): the crossing threat a search may want to look at beyond the tactical moves.
    pub fn far_row_gain(&self, mv: EpaminondasMove) -> i32 {
        let (own, _) = self.after(mv);
        far_count(own, self.side) as i32 - far_count(self.pieces_of(self.side), self.side) as i32
    }

    /// The pieces of the player to move and of the other player after a legal move `mv`
    /// (what `play` does, without the hash and the turn).
    #[inline]
    pub(crate) fn after(&self, mv: EpaminondasMove) -> (Bb, Bb) {
        let me = self.side as usize;
        let step = STEPS[mv.dir_ix()];
        let mut own = self.pieces[me];
        let mut opp = self.pieces[me ^ 1];
        let mut a = mv.tail_sq();
        let mut b = a + mv.group() * step;
        for _ in 0..mv.distance() {
            own.flip(a);
            own.flip(b);
            a += step;
            b += step;
        }
        let mut c = mv.land_sq();
        for _ in 0..mv.line() {
            opp.flip(c);
            c += step;
        }
        (own, opp)
    }

    /// Plays a move (copy-make: the caller keeps the old position to take it back).
    #[inline]
    pub fn play(&mut self, mv: EpaminondasMove) {
        let me = self.side;
        let step = STEPS[mv.dir_ix()];
        let from = mv.tail_sq();
        let to = mv.land_sq();
        let size = mv.group();
        let distance = mv.distance();
        let mut own_change = Bb::EMPTY;
        let mut h = self.hash ^ side_key();
        // The first `distance` squares of the group empty; as many squares beyond the head fill.
        let mut a = from;
        let mut b = from + size * step;
        for _ in 0..distance {
            own_change.set(a);
            own_change.set(b);
            h ^= piece_key(me, a) ^ piece_key(me, b);
            a += step;
            b += step;
        }
        self.pieces[me as usize] ^= own_change;
        if mv.line() > 0 {
            let them = me ^ 1;
            let mut gone = Bb::EMPTY;
            let mut c = to;
            for _ in 0..mv.line() {
                gone.set(c);
                h ^= piece_key(them, c);
                c += step;
            }
            self.pieces[them as usize] ^= gone;
        }
        self.side ^= 1;
        self.hash = h;
    }
}
