//! Move generation (bitboards) into any [`MoveSink`], counting without generating, the move
//! between two squares (for reading move texts and codes without generating), and playing
//! moves with the Ponte step.
//!
//! `make_move` is copy-make: `Undo` is the whole position (under 100 bytes), and `unmake_move`
//! copies it back. That is cheaper than undoing the Ponte step by hand.

use crate::game::Player;
use crate::movelist::MoveSink;

use super::moves::ReinesMove;
use super::position::{
    passes_key, piece_key, ponte_key, side_key, unmoved_key, ReinesPosition, COUNSELLOR,
    PONTE_SQUARE, QUEEN, SOLDIER, WORKER,
};

const NOT_A: u64 = !0x0101_0101_0101_0101;
const NOT_H: u64 = !0x8080_8080_8080_8080;
const EVERY: u64 = !0;

/// A Worker's straight forward steps, by player (0 = the a1 player, 1 = the h8 player):
/// (square delta, mask of valid landing squares after the shift).
const FORWARD: [[(i32, u64); 2]; 2] = [[(8, EVERY), (1, NOT_A)], [(-8, EVERY), (-1, NOT_H)]];
/// A Worker's diagonal captures, by player: a1 player NE, NW, SE; h8 player SW, SE, NW.
const CAPTURES: [[(i32, u64); 3]; 2] = [
    [(9, NOT_A), (7, NOT_H), (-7, NOT_A)],
    [(-9, NOT_H), (-7, NOT_A), (7, NOT_H)],
];

#[inline(always)]
fn shift(bb: u64, d: i32) -> u64 {
    if d >= 0 {
        bb << d
    } else {
        bb >> -d
    }
}

/// Rays from each square, in the directions north, east, south, west (square excluded).
const fn make_rays() -> [[u64; 64]; 4] {
    let mut rays = [[0u64; 64]; 4];
    let deltas: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
    let mut d = 0;
    while d < 4 {
        let mut sq = 0;
        while sq < 64 {
            let (df, dr) = deltas[d];
            let mut f = (sq % 8) as i32 + df;
            let mut r = (sq / 8) as i32 + dr;
            let mut bb = 0u64;
            while f >= 0 && f < 8 && r >= 0 && r < 8 {
                bb |= 1 << (r * 8 + f);
                f += df;
                r += dr;
            }
            rays[d][sq] = bb;
            sq += 1;
        }
        d += 1;
    }
    rays
}

const fn make_knight() -> [u64; 64] {
    let mut t = [0u64; 64];
    let jumps: [(i32, i32); 8] = [
        (1, 2),
        (2, 1),
        (2, -1),
        (1, -2),
        (-1, -2),
        (-2, -1),
        (-2, 1),
        (-1, 2),
    ];
    let mut sq = 0;
    while sq < 64 {
        let mut j = 0;
        while j < 8 {
            let f = (sq % 8) as i32 + jumps[j].0;
            let r = (sq / 8) as i32 + jumps[j].1;
            if f >= 0 && f < 8 && r >= 0 && r < 8 {
                t[sq] |= 1 << (r * 8 + f);
            }
            j += 1;
        }
        sq += 1;
    }
    t
}

static RAYS: [[u64; 64]; 4] = make_rays();
static KNIGHT: [u64; 64] = make_knight();

/// Squares a Counsellor (rook) on `sq` attacks with the board occupancy `occ`.
#[inline(always)]
fn rook_attacks(sq: u32, occ: u64) -> u64 {
    let s = sq as usize;
    let mut a = 0;
    for ray in &RAYS[0..2] {
        let r = ray[s];
        let b = r & occ;
        a |= if b != 0 {
            r ^ ray[b.trailing_zeros() as usize]
        } else {
            r
        };
    }
    for ray in &RAYS[2..4] {
        let r = ray[s];
        let b = r & occ;
        a |= if b != 0 {
            r ^ ray[63 - b.leading_zeros() as usize]
        } else {
            r
        };
    }
    a
}

impl ReinesPosition {
    #[inline(always)]
    fn push_targets<S: MoveSink<ReinesMove>>(
        &self,
        from: u32,
        targets: u64,
        enemy: u64,
        kind: usize,
        out: &mut S,
    ) {
        let mut q = targets & !enemy;
        while q != 0 {
            out.push(ReinesMove::quiet(from, q.trailing_zeros(), kind));
            q &= q - 1;
        }
        let mut c = targets & enemy;
        while c != 0 {
            let to = c.trailing_zeros();
            out.push(ReinesMove::capture(from, to, kind, self.kind_at(to)));
            c &= c - 1;
        }
    }

    /// Sends the moves of the side to move to `out`: every move, `pass` if it has none
    /// (`QUIET`), or the captures alone (not `QUIET`); nothing once a Queen is captured.
    #[inline(always)]
    fn generate_moves<const QUIET: bool, S: MoveSink<ReinesMove>>(&self, out: &mut S) {
        if self.queen_missing() {
            return;
        }
        if self.side == 0 {
            self.generate_for::<0, QUIET, S>(out)
        } else {
            self.generate_for::<1, QUIET, S>(out)
        }
    }

    /// [`Self::generate_moves`] for player `US` to move (a constant, so that the Workers'
    /// shifts are constants).
    #[inline(always)]
    fn generate_for<const US: usize, const QUIET: bool, S: MoveSink<ReinesMove>>(
        &self,
        out: &mut S,
    ) {
        let us = US;
        let own = self.colour[us];
        let enemy = self.colour[us ^ 1];
        let occ = own | enemy;
        // Squares a piece may go to: any not its own, or only enemy ones for captures.
        let allowed = if QUIET { !own } else { enemy };
        let start = out.len();

        let mut bb = own & self.kinds[COUNSELLOR];
        while bb != 0 {
            let from = bb.trailing_zeros();
            let t = rook_attacks(from, occ) & allowed;
            self.push_targets(from, t, enemy, COUNSELLOR, out);
            bb &= bb - 1;
        }
        let mut bb = own & self.kinds[SOLDIER];
        while bb != 0 {
            let from = bb.trailing_zeros();
            let t = KNIGHT[from as usize] & allowed;
            self.push_targets(from, t, enemy, SOLDIER, out);
            bb &= bb - 1;
        }

        let workers = own & self.kinds[WORKER];
        if QUIET {
            let fresh = workers & self.unmoved;
            for &(d, mask) in &FORWARD[us] {
                let mut one = shift(workers, d) & mask & !occ;
                let mut two = shift(shift(fresh, d) & mask & !occ, d) & mask & !occ;
                while one != 0 {
                    let to = one.trailing_zeros();
                    out.push(ReinesMove::quiet((to as i32 - d) as u32, to, WORKER));
                    one &= one - 1;
                }
                while two != 0 {
                    let to = two.trailing_zeros();
                    out.push(ReinesMove::quiet((to as i32 - 2 * d) as u32, to, WORKER));
                    two &= two - 1;
                }
            }
        }
        for &(d, mask) in &CAPTURES[us] {
            let mut t = shift(workers, d) & mask & enemy;
            while t != 0 {
                let to = t.trailing_zeros();
                out.push(ReinesMove::capture(
                    (to as i32 - d) as u32,
                    to,
                    WORKER,
                    self.kind_at(to),
                ));
                t &= t - 1;
            }
        }

        if QUIET && out.len() == start {
            out.push(ReinesMove::PASS);
        }
    }

    /// Sends the moves of the side to move, `pass` if it has none; nothing once a Queen is
    /// captured.
    #[inline]
    pub(crate) fn generate_into<S: MoveSink<ReinesMove>>(&self, out: &mut S) {
        self.generate_moves::<true, S>(out)
    }

    /// Sends the captures of the side to move (the tactical moves: only a capture can take a
    /// Queen, and there is no promotion).
    #[inline]
    pub(crate) fn generate_captures<S: MoveSink<ReinesMove>>(&self, out: &mut S) {
        self.generate_moves::<false, S>(out)
    }

    /// The mobility of `player` ([`crate::game::PieceSets::mobility`]): the moves other than
    /// `pass` it would have on this board if it were their turn, counted without generating
    /// them (0 for a number that is not a player).
    #[inline]
    pub(super) fn count_moves_of(&self, player: Player) -> u32 {
        match player {
            0 => self.count_for::<0>(),
            1 => self.count_for::<1>(),
            _ => 0,
        }
    }

    /// [`Self::count_moves_of`] for player `US`.
    #[inline(always)]
    fn count_for<const US: usize>(&self) -> u32 {
        let us = US;
        let own = self.colour[us];
        let enemy = self.colour[us ^ 1];
        let occ = own | enemy;
        let mut n = 0u32;
        let mut bb = own & self.kinds[COUNSELLOR];
        while bb != 0 {
            n += (rook_attacks(bb.trailing_zeros(), occ) & !own).count_ones();
            bb &= bb - 1;
        }
        let mut bb = own & self.kinds[SOLDIER];
        while bb != 0 {
            n += (KNIGHT[bb.trailing_zeros() as usize] & !own).count_ones();
            bb &= bb - 1;
        }
        let workers = own & self.kinds[WORKER];
        let fresh = workers & self.unmoved;
        for &(d, mask) in &FORWARD[us] {
            let one = shift(workers, d) & mask & !occ;
            let two = shift(shift(fresh, d) & mask & !occ, d) & mask & !occ;
            n += one.count_ones() + two.count_ones();
        }
        for &(d, mask) in &CAPTURES[us] {
            n += (shift(workers, d) & mask & enemy).count_ones();
        }
        n
    }

    /// The pieces of `by` that could capture a piece of the other side on `sq` if it were
    /// `by`'s turn: its Counsellors on the square's rank or file with nothing between, its
    /// Soldiers a knight's jump away, its Workers one step diagonally behind it in a direction
    /// they capture. Empty for a square off the board or a number that is not a player.
    pub fn attackers(&self, sq: u32, by: u8) -> u64 {
        if sq > 63 || by > 1 {
            return 0;
        }
        let by = by as usize;
        let own = self.colour[by];
        let occ = self.colour[0] | self.colour[1];
        let target = 1u64 << sq;
        let mut found = rook_attacks(sq, occ) & own & self.kinds[COUNSELLOR];
        found |= KNIGHT[sq as usize] & own & self.kinds[SOLDIER];
        let workers = own & self.kinds[WORKER];
        for &(d, mask) in &CAPTURES[by] {
            // A Worker on `sq - d` lands on `sq` when `sq` is a valid landing square.
            if target & mask != 0 {
                found |= shift(target, -d) & workers;
            }
        }
        found
    }

    /// Every square on which `by` could capture a piece of the other side if it were `by`'s
    /// turn: the squares `sq` with [`attackers`](Self::attackers)`(sq, by)` not empty, all at
    /// once. Empty for a number that is not a player.
    pub fn attacked_squares(&self, by: u8) -> u64 {
        if by > 1 {
            return 0;
        }
        let by = by as usize;
        let own = self.colour[by];
        let occ = self.colour[0] | self.colour[1];
        let mut found = 0;
        let mut counsellors = own & self.kinds[COUNSELLOR];
        while counsellors != 0 {
            found |= rook_attacks(counsellors.trailing_zeros(), occ);
            counsellors &= counsellors - 1;
        }
        let mut soldiers = own & self.kinds[SOLDIER];
        while soldiers != 0 {
            found |= KNIGHT[soldiers.trailing_zeros() as usize];
            soldiers &= soldiers - 1;
        }
        let workers = own & self.kinds[WORKER];
        for &(d, mask) in &CAPTURES[by] {
            found |= shift(workers, d) & mask;
        }
        found
    }

    /// The square of `player`'s Queen, if she is on the board.
    pub fn queen_square(&self, player: u8) -> Option<u32> {
        let queen = self.colour.get(player as usize)? & self.kinds[QUEEN];
        (queen != 0).then(|| queen.trailing_zeros())
    }

    /// True if the opponent of `player` could capture `player`'s Queen on their next move:
    /// for the player to move, the one threat that must be answered at once.
    pub fn queen_attacked(&self, player: u8) -> bool {
        self.queen_square(player)
            .is_some_and(|q| self.attackers(q, player ^ 1) != 0)
    }

    /// The number of legal moves (`pass` counted when it is the only one).
    #[inline]
    pub(crate) fn count_legal(&self) -> u64 {
        if self.queen_missing() {
            return 0;
        }
        self.count_moves_of(self.side).max(1) as u64
    }

    /// The squares the piece on `sq` could move to if it were its owner's turn (a Queen's:
    /// none); empty for an empty square.
    pub fn reach(&self, sq: u32) -> u64 {
        if sq > 63 {
            return 0;
        }
        let fb = 1u64 << sq;
        let Some(us) = (0..2).find(|&p| self.colour[p] & fb != 0) else {
            return 0;
        };
        let own = self.colour[us];
        let enemy = self.colour[us ^ 1];
        let occ = own | enemy;
        match self.kind_at(sq) {
            COUNSELLOR => rook_attacks(sq, occ) & !own,
            SOLDIER => KNIGHT[sq as usize] & !own,
            WORKER => {
                let mut t = 0;
                for &(d, mask) in &FORWARD[us] {
                    let one = shift(fb, d) & mask & !occ;
                    t |= one;
                    if self.unmoved & fb != 0 {
                        t |= shift(one, d) & mask & !occ;
                    }
                }
                for &(d, mask) in &CAPTURES[us] {
                    t |= shift(fb, d) & mask & enemy;
                }
                t
            }
            _ => 0,
        }
    }

    /// The squares from which a Counsellor would attack `sq`: along its rank and file up to
    /// and including the first piece each way.
    pub fn lines_to(&self, sq: u32) -> u64 {
        if sq > 63 {
            return 0;
        }
        rook_attacks(sq, self.colour[0] | self.colour[1])
    }

    /// The squares a Soldier on `sq` jumps to on an empty board.
    pub fn soldier_jumps(sq: u32) -> u64 {
        KNIGHT.get(sq as usize).copied().unwrap_or(0)
    }

    /// The legal move of the side to move from `from` to `to`, if there is one (never `pass`).
    pub(crate) fn move_between(&self, from: u32, to: u32) -> Option<ReinesMove> {
        if self.queen_missing() || from > 63 || to > 63 {
            return None;
        }
        let us = self.side;
        let own = self.colour[us as usize];
        if own & (1u64 << from) == 0 {
            return None;
        }
        let enemy = self.colour[us as usize ^ 1];
        let kind = self.kind_at(from);
        let targets = self.reach(from);
        let tb = 1u64 << to;
        if targets & tb == 0 {
            None
        } else if enemy & tb != 0 {
            Some(ReinesMove::capture(from, to, kind, self.kind_at(to)))
        } else {
            Some(ReinesMove::quiet(from, to, kind))
        }
    }

    /// Plays a move, then the opponent's start-of-turn Ponte step. `null` hands the turn over
    /// without a move and without counting a pass (for null-move search).
    #[inline(always)]
    pub(crate) fn apply(&mut self, mv: ReinesMove, null: bool) {
        let us = self.side as usize;
        let them = us ^ 1;
        let mut h = self.hash;
        let mut worker_captured = false;
        let mut queen_captured = false;
        if mv.is_pass() {
            let passes = if null {
                0
            } else {
                self.passes.saturating_add(1)
            };
            h ^= passes_key(self.passes) ^ passes_key(passes);
            self.passes = passes;
            self.quiet = self.quiet.saturating_add(1);
        } else {
            if self.passes != 0 {
                h ^= passes_key(self.passes);
                self.passes = 0;
            }
            let from = mv.from();
            let to = mv.to();
            let kind = mv.kind();
            let fb = 1u64 << from;
            let tb = 1u64 << to;
            if mv.is_capture() {
                let ck = mv.captured();
                self.colour[them] ^= tb;
                self.kinds[ck] ^= tb;
                h ^= piece_key(them, ck, to);
                if ck == WORKER {
                    worker_captured = true;
                    if self.unmoved & tb != 0 {
                        self.unmoved ^= tb;
                        h ^= unmoved_key(to);
                    }
                } else if ck == QUEEN {
                    queen_captured = true;
                }
            }
            self.colour[us] ^= fb | tb;
            self.kinds[kind] ^= fb | tb;
            h ^= piece_key(us, kind, from) ^ piece_key(us, kind, to);
            if kind == WORKER && self.unmoved & fb != 0 {
                self.unmoved ^= fb;
                h ^= unmoved_key(from);
            }
            self.quiet = if kind == WORKER || mv.is_capture() {
                0
            } else {
                self.quiet.saturating_add(1)
            };
        }
        // The move number grows after the move of player 1 (the h8 player, second to move).
        if us == 1 {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side ^= 1;
        h ^= side_key();

        if !queen_captured {
            // The start of the opponent's turn: counters drop by one, then one Worker whose
            // counter is 0 comes back if the Ponte square is empty.
            let old = self.ponte[them];
            let mut new = [old[0] + old[1], worker_captured as u8];
            if new[0] > 0 {
                let sq = PONTE_SQUARE[them];
                let b = 1u64 << sq;
                if (self.colour[0] | self.colour[1]) & b == 0 {
                    new[0] -= 1;
                    self.colour[them] |= b;
                    self.kinds[WORKER] |= b;
                    self.unmoved |= b;
                    h ^= piece_key(them, WORKER, sq) ^ unmoved_key(sq);
                }
            }
            if new != old {
                h ^= ponte_key(them, old) ^ ponte_key(them, new);
                self.ponte[them] = new;
            }
        }
        self.hash = h;
    }
}
