//! Move generation and the attack test.
//!
//! Legality: after a move the mover's Queen must not be attacked. The attack test works
//! outwards from the Queen's cell with bitboards (adjacent Queens, Warriors and Superants,
//! Grasshoppers two cells away, Beetles along the rays, Superants over an empty middle cell,
//! Ladybirds round an occupied neighbour, Worms whose trajectory holds the Queen). Every attack
//! on a cell `q` depends only on the cells within distance 2 of `q` and on the three lines
//! through `q`, and only on those whose attackers are present (a move never adds an enemy
//! piece; in check, capturing an attacker counts too). A move that touches none of these "sensitive" cells (and is not a Queen move)
//! cannot change whether the Queen is attacked: it is legal exactly when she is not attacked
//! now. Other moves are tested on the bitboards as they will be after the move, without
//! playing it.

use super::moves::{ladybird_bit, Move, CAPTURE_TO, PROMOTE};
use super::position::{AntPos, Kind};
use super::tables::{bit, tables, Tables, NONE};
use crate::movelist::MoveSink;

/// Where generated moves go: a vector, or a counter.
pub(super) trait Sink {
    /// True if the sink only counts (moves may then be added in bulk).
    const COUNT_ONLY: bool;
    fn push(&mut self, m: Move);
    fn add(&mut self, n: u64);
    fn len(&self) -> u64;
}

impl<S: MoveSink<Move>> Sink for S {
    const COUNT_ONLY: bool = false;
    #[inline(always)]
    fn push(&mut self, m: Move) {
        MoveSink::push(self, m)
    }
    #[inline(always)]
    fn add(&mut self, _: u64) {
        unreachable!("a list takes moves one by one")
    }
    #[inline(always)]
    fn len(&self) -> u64 {
        MoveSink::len(self) as u64
    }
}

pub(super) struct Counter(pub u64);

impl Sink for Counter {
    const COUNT_ONLY: bool = true;
    #[inline(always)]
    fn push(&mut self, _: Move) {
        self.0 += 1
    }
    #[inline(always)]
    fn add(&mut self, n: u64) {
        self.0 += n
    }
    #[inline(always)]
    fn len(&self) -> u64 {
        self.0
    }
}

/// Directions along which the cell index grows (E, SW, SE).
const POSITIVE: [bool; 6] = [true, false, false, false, true, true];

/// The cells a slider from `c` reaches in direction `d`, the first occupied one included.
#[inline(always)]
fn ray_targets(t: &Tables, c: usize, d: usize, all: u128) -> u128 {
    let ray = t.ray_mask[c][d];
    let blockers = ray & all;
    if blockers == 0 {
        return ray;
    }
    let b = if POSITIVE[d] {
        blockers.trailing_zeros() as usize
    } else {
        127 - blockers.leading_zeros() as usize
    };
    ray & !t.ray_mask[b][d]
}

/// The first occupied cell from `c` in direction `d`, or `None`.
#[inline(always)]
fn first_blocker(t: &Tables, c: usize, d: usize, all: u128) -> Option<usize> {
    let blockers = t.ray_mask[c][d] & all;
    if blockers == 0 {
        None
    } else if POSITIVE[d] {
        Some(blockers.trailing_zeros() as usize)
    } else {
        Some(127 - blockers.leading_zeros() as usize)
    }
}

/// Is cell `q` attacked by player `o` (home corner `home`), given every player's pieces
/// `occ` and the kind bitboards `kinds` (which may hold stale bits for cells no player
/// occupies: only `kinds & occ[o]` is read)?
#[inline]
pub(super) fn attacked_by(
    t: &Tables,
    occ: &[u128; 3],
    kinds: &[u128; 7],
    o: usize,
    home: usize,
    q: usize,
) -> bool {
    let own = occ[o];
    if own == 0 {
        return false;
    }
    let all = occ[0] | occ[1] | occ[2];
    let near = t.neigh_mask[q];
    let of = |k: Kind| kinds[k as usize] & own;
    if (of(Kind::Queen) | of(Kind::Superant)) & near != 0 {
        return true;
    }
    if of(Kind::Warrior) & t.warrior_from[home][q] != 0 {
        return true;
    }
    if of(Kind::Grasshopper) & t.dist2_mask[q] != 0 {
        return true;
    }
    let superants = of(Kind::Superant);
    if superants & t.dist2_mask[q] != 0 {
        for d in 0..6 {
            let m = t.neigh[q][d];
            if m != NONE && all & bit(m as usize) == 0 {
                let f = t.neigh[m as usize][d];
                if f != NONE && superants & bit(f as usize) != 0 {
                    return true;
                }
            }
        }
    }
    let beetles = of(Kind::Beetle);
    if beetles != 0 {
        for d in 0..6 {
            if beetles & t.ray_mask[q][d] != 0 {
                if let Some(b) = first_blocker(t, q, d, all) {
                    if beetles & bit(b) != 0 {
                        return true;
                    }
                }
            }
        }
    }
    let ladybirds = of(Kind::Ladybird);
    if ladybirds & t.ball2_mask[q] != 0 {
        // A Ladybird on the ring of an occupied neighbour `p` of `q` reaches `q` if the cells
        // between, walking round `p`, are on the board and not hers.
        for d in 0..6 {
            let p = t.neigh[q][d];
            if p == NONE || all & bit(p as usize) == 0 {
                continue;
            }
            for arc in &t.arc[p as usize][(d + 3) % 6] {
                for &c in arc {
                    if c == NONE {
                        break;
                    }
                    let b = bit(c as usize);
                    if own & b != 0 {
                        if ladybirds & b != 0 {
                            return true;
                        }
                        break;
                    }
                }
            }
        }
    }
    let worms = of(Kind::Worm);
    if worms & t.worm_attack_from[q] != 0 {
        let qb = bit(q);
        for w in t.worm_through(q) {
            if worms & bit(w.worm as usize) != 0
                && all & bit(w.dest as usize) == 0
                && w.traj & all & !own == qb
            {
                return true;
            }
        }
    }
    false
}

/// How the moves being generated are checked.
#[derive(Clone, Copy)]
struct Ctx {
    me: usize,
    own: u128,
    all: u128,
    enemy: u128,
    /// False when queen safety is ignored (no Queen, or no legal move in 3 players).
    legal: bool,
    queen: usize,
    /// Cells a move must touch to change whether the Queen is attacked.
    sensitive: u128,
    in_check: bool,
}

impl AntPos {
    /// Is `q` attacked by any opponent of `me`?
    #[inline]
    pub(super) fn attacked_by_opponents(&self, me: usize, q: usize) -> bool {
        attacked_with(self, &self.occ, me, q)
    }

    /// Would the mover's Queen (on `queen` after the move) be safe after moving a piece from
    /// `from` to `to` and capturing `caps`?
    #[inline]
    fn safe_after(&self, ctx: &Ctx, queen: usize, from: u128, to: u128, caps: u128) -> bool {
        let mut occ = self.occ;
        for (o, bits) in occ.iter_mut().enumerate() {
            if o == ctx.me {
                *bits = (*bits & !from) | to;
            } else {
                *bits &= !caps;
            }
        }
        !attacked_with(self, &occ, ctx.me, queen)
    }

    #[inline(always)]
    fn accept(&self, ctx: &Ctx, from: u128, to: u128, caps: u128) -> bool {
        if !ctx.legal {
            return true;
        }
        if (from | to | caps) & ctx.sensitive == 0 {
            return !ctx.in_check;
        }
        self.safe_after(ctx, ctx.queen, from, to, caps)
    }

    /// Emits the moves of a non-Queen piece on `from` to each cell of `targets` (capturing what
    /// stands there), promoting on `promo`.
    #[inline(always)]
    fn emit_targets<S: Sink>(
        &self,
        ctx: &Ctx,
        sink: &mut S,
        from: usize,
        mut targets: u128,
        promo: u128,
    ) {
        let fb = bit(from);
        if S::COUNT_ONLY {
            if !ctx.legal {
                sink.add(targets.count_ones() as u64);
                return;
            }
            if fb & ctx.sensitive == 0 {
                let quiet = targets & !ctx.sensitive;
                if !ctx.in_check {
                    sink.add(quiet.count_ones() as u64);
                }
                targets &= ctx.sensitive;
            }
        }
        while targets != 0 {
            let to = targets.trailing_zeros() as usize;
            let tb = bit(to);
            targets &= targets - 1;
            let cap = tb & ctx.enemy;
            if self.accept(ctx, fb, tb, cap) {
                let mut flags = 0;
                if cap != 0 {
                    flags |= CAPTURE_TO;
                }
                if promo & tb != 0 {
                    flags |= PROMOTE;
                }
                sink.push(Move::simple(from as u8, to as u8, flags));
            }
        }
    }

    fn generate_pieces<S: Sink>(&self, t: &Tables, ctx: &Ctx, sink: &mut S) {
        let me = ctx.me;
        let own = ctx.own;
        let all = ctx.all;
        let home = self.homes()[me];
        let of = |k: Kind| self.kinds[k as usize] & own;

        // Queen.
        let mut qs = of(Kind::Queen);
        while qs != 0 {
            let from = qs.trailing_zeros() as usize;
            qs &= qs - 1;
            let mut targets = t.neigh_mask[from] & !own;
            let fb = bit(from);
            while targets != 0 {
                let to = targets.trailing_zeros() as usize;
                targets &= targets - 1;
                let tb = bit(to);
                let cap = tb & ctx.enemy;
                if !ctx.legal || self.safe_after(ctx, to, fb, tb, cap) {
                    let flags = if cap != 0 { CAPTURE_TO } else { 0 };
                    sink.push(Move::simple(from as u8, to as u8, flags));
                }
            }
        }

        // Warriors.
        let promo = t.promotion[home];
        let mut ws = of(Kind::Warrior);
        while ws != 0 {
            let from = ws.trailing_zeros() as usize;
            ws &= ws - 1;
            self.emit_targets(ctx, sink, from, t.warrior_to[home][from] & !own, promo);
        }

        // Superants.
        let mut ss = of(Kind::Superant);
        while ss != 0 {
            let from = ss.trailing_zeros() as usize;
            ss &= ss - 1;
            let mut targets = 0u128;
            for d in 0..6 {
                let m = t.neigh[from][d];
                if m == NONE {
                    continue;
                }
                let mb = bit(m as usize);
                targets |= mb;
                if all & mb == 0 {
                    let f = t.neigh[m as usize][d];
                    if f != NONE {
                        targets |= bit(f as usize);
                    }
                }
            }
            self.emit_targets(ctx, sink, from, targets & !own, 0);
        }

        // Beetles.
        let mut bs = of(Kind::Beetle);
        while bs != 0 {
            let from = bs.trailing_zeros() as usize;
            bs &= bs - 1;
            let mut targets = 0u128;
            for d in 0..6 {
                targets |= ray_targets(t, from, d, all);
            }
            self.emit_targets(ctx, sink, from, targets & !own, 0);
        }

        // Grasshoppers.
        let mut gs = of(Kind::Grasshopper);
        while gs != 0 {
            let from = gs.trailing_zeros() as usize;
            gs &= gs - 1;
            self.emit_targets(ctx, sink, from, t.dist2_mask[from] & !own, 0);
        }

        // Ladybirds.
        let mut ls = of(Kind::Ladybird);
        while ls != 0 {
            let from = ls.trailing_zeros() as usize;
            ls &= ls - 1;
            self.ladybird_moves(t, ctx, sink, from);
        }

        // Worms.
        let mut wms = of(Kind::Worm);
        while wms != 0 {
            let from = wms.trailing_zeros() as usize;
            wms &= wms - 1;
            let fb = bit(from);
            for wm in t.worm_moves(from) {
                let db = bit(wm.dest as usize);
                if all & db != 0 {
                    continue;
                }
                let e = wm.traj & ctx.enemy;
                if e & e.wrapping_sub(1) != 0 {
                    continue;
                }
                if self.accept(ctx, fb, db, e) {
                    let mut m = Move::simple(from as u8, wm.dest, 0);
                    if e != 0 {
                        m.worm = e.trailing_zeros() as u8;
                    }
                    sink.push(m);
                }
            }
        }
    }

    #[inline]
    fn ladybird_moves<S: Sink>(&self, t: &Tables, ctx: &Ctx, sink: &mut S, from: usize) {
        let fb = bit(from);
        // (destination, captured set) pairs already produced, to merge identical moves
        // reached round different pivots or in different senses.
        let mut seen = [(0u8, 0u32); 64];
        let mut n_seen = 0;
        for d in 0..6 {
            let p = t.neigh[from][d];
            if p == NONE || ctx.all & bit(p as usize) == 0 {
                continue;
            }
            for arc in &t.arc[p as usize][(d + 3) % 6] {
                let mut caps = 0u128;
                let mut rel = 0u32;
                for &c in arc {
                    if c == NONE {
                        break;
                    }
                    let cb = bit(c as usize);
                    if ctx.own & cb != 0 {
                        break;
                    }
                    if ctx.enemy & cb != 0 {
                        caps |= cb;
                        rel |= ladybird_bit(from, c as usize);
                    }
                    if seen[..n_seen].contains(&(c, rel)) {
                        continue;
                    }
                    seen[n_seen] = (c, rel);
                    n_seen += 1;
                    if self.accept(ctx, fb, cb, caps) {
                        sink.push(Move {
                            from: from as u8,
                            to: c,
                            flags: 0,
                            worm: NONE,
                            ladybird: rel,
                        });
                    }
                }
            }
        }
    }

    /// Generates the moves of the player to move (the game must not be over).
    pub(super) fn generate<S: Sink>(&self, sink: &mut S) {
        let t = tables();
        let me = self.to_move as usize;
        let own = self.occ[me];
        let all = self.occ[0] | self.occ[1] | self.occ[2];
        let mut ctx = Ctx {
            me,
            own,
            all,
            enemy: all & !own,
            legal: false,
            queen: 0,
            sensitive: 0,
            in_check: false,
        };
        let q = self.queens[me];
        if q == NONE {
            self.generate_pieces(t, &ctx, sink);
            sink.push(Move::PASS);
            return;
        }
        let q = q as usize;
        ctx.legal = true;
        ctx.queen = q;
        ctx.in_check = self.attacked_by_opponents(me, q);
        // The cells whose contents an attack on the Queen can depend on. A move only removes
        // enemy pieces, so attackers absent now stay absent: Ladybird arcs matter only with
        // an enemy Ladybird within two cells, Superant middle cells only with an enemy
        // Superant two cells away, lines only with an enemy Beetle or Worm on them.
        let enemy = ctx.enemy;
        let kind = |k: Kind| self.kinds[k as usize] & enemy;
        let mut sensitive = 0;
        // In check, capturing an attacker matters too: every attacker that is not on a line
        // is within two cells.
        if ctx.in_check || kind(Kind::Ladybird) & t.ball2_mask[q] != 0 {
            sensitive |= t.ball2_mask[q];
        }
        if kind(Kind::Superant) & t.dist2_mask[q] != 0 {
            sensitive |= t.neigh_mask[q];
        }
        let lines_from = kind(Kind::Beetle) | kind(Kind::Worm);
        for a in 0..3 {
            if t.line_mask[q][a] & lines_from != 0 {
                sensitive |= t.line_mask[q][a];
            }
        }
        ctx.sensitive = sensitive;
        let before = sink.len();
        self.generate_pieces(t, &ctx, sink);
        if !ctx.in_check {
            sink.push(Move::PASS);
        }
        if self.players == 3 && sink.len() == before {
            // No legal move: any move of one's pieces, or a pass.
            ctx.legal = false;
            self.generate_pieces(t, &ctx, sink);
            sink.push(Move::PASS);
        }
    }
}

/// Is `q` attacked by an opponent of `me` with the pieces `occ` (kinds from `pos`)?
#[inline]
fn attacked_with(pos: &AntPos, occ: &[u128; 3], me: usize, q: usize) -> bool {
    let t = tables();
    let homes = pos.homes();
    (0..pos.players as usize).any(|o| o != me && attacked_by(t, occ, &pos.kinds, o, homes[o], q))
}
