//! Move generation and counting, the attack test, and playing a move.
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
//!
//! A player who has left the game (`antchess3`) needs no test of its own here: their pieces
//! are in the occupancy bitboards (they block lines, pivots and middle cells, and are enemies
//! to capture, on a Worm's trajectory too) but in none of the kind bitboards, which every
//! attack test, every "sensitive" cell and every generated move reads through. So they attack
//! nothing, and their seat generates only `pass` (they have no Queen, so the pass is legal).

use super::moves::{AntChessMove, CAPTURE_TO, PROMOTE};
use super::position::{code_kind, code_owner, side_key, AntChessKind as Kind, AntChessPosition};
use super::tables::{bit, tables, Tables, CELLS, NONE};
use super::AntChessMoveList;
use crate::game::{Player, Tactics};
use crate::movelist::{MoveCounter, MoveSink};

/// A [`MoveSink`] the generator can also hand a number of moves at once when it only counts.
pub(super) trait Bulk: MoveSink<AntChessMove> {
    /// True if the sink only counts (moves may then be added in bulk).
    const COUNT_ONLY: bool;
    fn push_many(&mut self, n: u32);
}

impl Bulk for MoveCounter {
    const COUNT_ONLY: bool = true;
    #[inline(always)]
    fn push_many(&mut self, n: u32) {
        self.0 += n as usize;
    }
}

/// Any [`MoveSink`], taking moves one by one.
pub(super) struct Each<'a, S>(pub &'a mut S);

impl<S: MoveSink<AntChessMove>> MoveSink<AntChessMove> for Each<'_, S> {
    #[inline(always)]
    fn push(&mut self, mv: AntChessMove) {
        self.0.push(mv)
    }
    #[inline(always)]
    fn len(&self) -> usize {
        self.0.len()
    }
}

impl<S: MoveSink<AntChessMove>> Bulk for Each<'_, S> {
    const COUNT_ONLY: bool = false;
    #[inline(always)]
    fn push_many(&mut self, _: u32) {
        unreachable!("a list takes moves one by one")
    }
}

/// Looks for one move among those generated.
struct Find {
    target: AntChessMove,
    found: bool,
    seen: usize,
}

impl MoveSink<AntChessMove> for Find {
    #[inline(always)]
    fn push(&mut self, mv: AntChessMove) {
        self.found |= mv == self.target;
        self.seen += 1;
    }
    #[inline(always)]
    fn len(&self) -> usize {
        self.seen
    }
}

impl Bulk for Find {
    const COUNT_ONLY: bool = false;
    #[inline(always)]
    fn push_many(&mut self, _: u32) {
        unreachable!("a search takes moves one by one")
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
/// occupies: only `kinds & occ[o]` is read; they hold none of the pieces of a player who has
/// left, who so attacks nothing)?
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
    /// The mover's pieces whose moves are generated (all of them but for a code check).
    select: u128,
    all: u128,
    enemy: u128,
    /// False when queen safety is ignored (no Queen, or no legal move in 3 players).
    legal: bool,
    queen: usize,
    /// Cells a move must touch to change whether the Queen is attacked.
    sensitive: u128,
    in_check: bool,
}

impl<const N: usize> AntChessPosition<N> {
    /// Is `q` attacked by any opponent of `me`?
    #[inline]
    pub(super) fn attacked_by_opponents(&self, me: usize, q: usize) -> bool {
        attacked_with(self, &self.occ, me, q)
    }

    /// Would `me`'s Queen (on `queen` after the move) be safe after moving a piece from
    /// `from` to `to` and capturing `caps`?
    #[inline]
    fn safe_after(&self, me: usize, queen: usize, from: u128, to: u128, caps: u128) -> bool {
        let mut occ = self.occ;
        for (o, bits) in occ.iter_mut().enumerate() {
            if o == me {
                *bits = (*bits & !from) | to;
            } else {
                *bits &= !caps;
            }
        }
        !attacked_with(self, &occ, me, queen)
    }

    #[inline(always)]
    fn accept(&self, ctx: &Ctx, from: u128, to: u128, caps: u128) -> bool {
        if !ctx.legal {
            return true;
        }
        if (from | to | caps) & ctx.sensitive == 0 {
            return !ctx.in_check;
        }
        self.safe_after(ctx.me, ctx.queen, from, to, caps)
    }

    /// Emits the moves of a non-Queen piece on `from` to each cell of `targets` (capturing what
    /// stands there), promoting on `promo`.
    #[inline(always)]
    fn emit_targets<S: Bulk>(
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
                sink.push_many(targets.count_ones());
                return;
            }
            if fb & ctx.sensitive == 0 {
                let quiet = targets & !ctx.sensitive;
                if !ctx.in_check {
                    sink.push_many(quiet.count_ones());
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
                sink.push(AntChessMove::simple(from as u8, to as u8, flags));
            }
        }
    }

    /// The moves of the selected pieces; with `TACT`, only those that capture, promote or
    /// bring the Queen to the anthill.
    fn generate_pieces<S: Bulk, const TACT: bool>(&self, t: &Tables, ctx: &Ctx, sink: &mut S) {
        let me = ctx.me;
        let own = ctx.own;
        let all = ctx.all;
        let home = Self::homes()[me];
        let of = |k: Kind| self.kinds[k as usize] & own & ctx.select;
        // Where a plain piece's move is tactical: a capture.
        let tact = if TACT { ctx.enemy } else { !0 };

        // Queen.
        let mut qs = of(Kind::Queen);
        while qs != 0 {
            let from = qs.trailing_zeros() as usize;
            qs &= qs - 1;
            let mut targets = t.neigh_mask[from] & !own;
            if TACT {
                targets &= ctx.enemy | bit(t.centre as usize);
            }
            let fb = bit(from);
            while targets != 0 {
                let to = targets.trailing_zeros() as usize;
                targets &= targets - 1;
                let tb = bit(to);
                let cap = tb & ctx.enemy;
                if !ctx.legal || self.safe_after(me, to, fb, tb, cap) {
                    let flags = if cap != 0 { CAPTURE_TO } else { 0 };
                    sink.push(AntChessMove::simple(from as u8, to as u8, flags));
                }
            }
        }

        // Warriors.
        let promo = t.promotion[home];
        let mut ws = of(Kind::Warrior);
        while ws != 0 {
            let from = ws.trailing_zeros() as usize;
            ws &= ws - 1;
            let mut targets = t.warrior_to[home][from] & !own;
            if TACT {
                targets &= ctx.enemy | promo;
            }
            self.emit_targets(ctx, sink, from, targets, promo);
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
            self.emit_targets(ctx, sink, from, targets & !own & tact, 0);
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
            self.emit_targets(ctx, sink, from, targets & !own & tact, 0);
        }

        // Grasshoppers.
        let mut gs = of(Kind::Grasshopper);
        while gs != 0 {
            let from = gs.trailing_zeros() as usize;
            gs &= gs - 1;
            self.emit_targets(ctx, sink, from, t.dist2_mask[from] & !own & tact, 0);
        }

        // Ladybirds.
        let mut ls = of(Kind::Ladybird);
        while ls != 0 {
            let from = ls.trailing_zeros() as usize;
            ls &= ls - 1;
            self.ladybird_moves::<S, TACT>(t, ctx, sink, from);
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
                if e & e.wrapping_sub(1) != 0 || (TACT && e == 0) {
                    continue;
                }
                if self.accept(ctx, fb, db, e) {
                    sink.push(if e != 0 {
                        AntChessMove::capturing_cell(from as u8, wm.dest, e.trailing_zeros() as u8)
                    } else {
                        AntChessMove::simple(from as u8, wm.dest, 0)
                    });
                }
            }
        }
    }

    #[inline]
    fn ladybird_moves<S: Bulk, const TACT: bool>(
        &self,
        t: &Tables,
        ctx: &Ctx,
        sink: &mut S,
        from: usize,
    ) {
        let fb = bit(from);
        // Moves already produced, to merge identical moves reached round different pivots or
        // in different senses: a move's encoding is the same whatever the arc (at most 60).
        let mut seen = [AntChessMove::PASS; 64];
        let mut n_seen = 0;
        for d in 0..6 {
            let p = t.neigh[from][d];
            if p == NONE || ctx.all & bit(p as usize) == 0 {
                continue;
            }
            for (s, arc) in t.arc[p as usize][(d + 3) % 6].iter().enumerate() {
                let mut caps = 0u128;
                let mut taken = 0u32;
                let mut first = NONE;
                let mut mask = 0u8;
                for (n, &c) in arc.iter().enumerate() {
                    if c == NONE {
                        break;
                    }
                    let cb = bit(c as usize);
                    if ctx.own & cb != 0 {
                        break;
                    }
                    if ctx.enemy & cb != 0 {
                        caps |= cb;
                        taken += 1;
                        if taken == 1 {
                            first = c;
                        }
                        // Ring place counter-clockwise from `from`: n + 1, or 5 − n clockwise.
                        mask |= 1 << if s == 0 { n } else { 4 - n };
                    }
                    let mv = match taken {
                        0 if TACT => continue,
                        0 => AntChessMove::simple(from as u8, c, 0),
                        1 if first == c => AntChessMove::simple(from as u8, c, CAPTURE_TO),
                        1 => AntChessMove::capturing_cell(from as u8, c, first),
                        _ => AntChessMove::capturing_arc(from as u8, c, d as u8, mask),
                    };
                    if seen[..n_seen].contains(&mv) {
                        continue;
                    }
                    seen[n_seen] = mv;
                    n_seen += 1;
                    if self.accept(ctx, fb, cb, caps) {
                        sink.push(mv);
                    }
                }
            }
        }
    }

    /// How `me`'s moves are checked, generating those of the pieces on `select`.
    #[inline]
    fn context(&self, t: &Tables, me: usize, select: u128) -> Ctx {
        let own = self.occ[me];
        let all = self.occ[0] | self.occ[1] | self.occ[2];
        let mut ctx = Ctx {
            me,
            own,
            select,
            all,
            enemy: all & !own,
            legal: false,
            queen: 0,
            sensitive: 0,
            in_check: false,
        };
        let q = self.queens[me];
        if q == NONE {
            return ctx;
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
        ctx
    }

    /// Generates the moves `me` would have if it were `me`'s turn (the game must not be over):
    /// the legal moves and the pass, or in 3 players without a legal move, every move of
    /// `me`'s pieces and the pass.
    pub(super) fn generate_for<S: Bulk>(&self, me: usize, sink: &mut S) {
        let t = tables();
        let mut ctx = self.context(t, me, !0);
        if !ctx.legal {
            self.generate_pieces::<S, false>(t, &ctx, sink);
            sink.push(AntChessMove::PASS);
            return;
        }
        let before = sink.len();
        self.generate_pieces::<S, false>(t, &ctx, sink);
        if !ctx.in_check {
            sink.push(AntChessMove::PASS);
        }
        if N == 3 && sink.len() == before {
            // No legal move: any move of one's pieces, or a pass.
            ctx.legal = false;
            self.generate_pieces::<S, false>(t, &ctx, sink);
            sink.push(AntChessMove::PASS);
        }
    }

    /// Sends the legal moves that capture, promote or win at once (the game must not be over).
    pub(super) fn generate_tactical_for<S: MoveSink<AntChessMove>>(&self, out: &mut S) {
        let t = tables();
        let me = self.to_move as usize;
        let ctx = self.context(t, me, !0);
        if ctx.legal && (ctx.queen == t.centre as usize || (N == 3 && ctx.in_check)) {
            // The Queen on the anthill (any move may win), or a player of three in check who
            // may have no legal move (then every move is allowed): filter the full list.
            let mut all = AntChessMoveList::new();
            self.generate_for(me, &mut Each(&mut all));
            for &mv in all.iter() {
                if self.tactics_of(mv).is_tactical() {
                    out.push(mv);
                }
            }
            return;
        }
        self.generate_pieces::<_, true>(t, &ctx, &mut Each(out));
    }

    /// The number of moves `me` would have if it were `me`'s turn, counted without generating
    /// them where possible (0 if the game is over).
    pub(super) fn count_for(&self, me: usize) -> u64 {
        let mut c = MoveCounter(0);
        self.generate_for(me, &mut c);
        c.0 as u64
    }

    /// True if the pass is legal here (the game must not be over): without a Queen, or with
    /// her unattacked, or in 3 players without any legal move.
    pub(super) fn pass_is_legal(&self) -> bool {
        let t = tables();
        let me = self.to_move as usize;
        let ctx = self.context(t, me, !0);
        if !ctx.legal || !ctx.in_check {
            return true;
        }
        if N == 2 {
            return false;
        }
        let mut c = MoveCounter(0);
        self.generate_pieces::<_, false>(t, &ctx, &mut c);
        c.0 == 0
    }

    /// True if `mv` is a legal move here (the game must not be over), generating at most the
    /// moves of the piece it moves.
    pub(super) fn is_legal(&self, mv: AntChessMove) -> bool {
        if mv.is_pass() {
            return mv == AntChessMove::PASS && self.pass_is_legal();
        }
        let t = tables();
        let me = self.to_move as usize;
        let from = mv.start_byte() as usize;
        if from >= CELLS || self.occ[me] & bit(from) == 0 {
            return false;
        }
        let ctx = self.context(t, me, bit(from));
        let mut find = Find {
            target: mv,
            found: false,
            seen: 0,
        };
        if N == 3 && ctx.legal && ctx.in_check {
            // Maybe no legal move at all, and then every move is allowed.
            self.generate_for(me, &mut find);
        } else {
            self.generate_pieces::<_, false>(t, &ctx, &mut find);
        }
        find.found
    }

    /// What a legal move does, without playing it.
    pub(super) fn tactics_of(&self, mv: AntChessMove) -> Tactics {
        let me = self.to_move as usize;
        let caps = mv.capture_bits();
        let mut taken_kinds = 0u16;
        let mut rest = caps;
        while rest != 0 {
            let c = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if let Some((_, k)) = self.piece(c) {
                taken_kinds |= 1 << k as u16;
            }
        }
        let promotion = mv.is_promotion().then_some(Kind::Superant as u8);
        let q = self.queens[me];
        let wins = q != NONE && {
            let (fb, tb, queen) = if mv.is_pass() {
                (0, 0, q as usize)
            } else {
                let (from, to) = (mv.start_byte() as usize, mv.end_byte() as usize);
                (
                    bit(from),
                    bit(to),
                    if from == q as usize { to } else { q as usize },
                )
            };
            let last_queen = N == 3 && caps & self.kinds[Kind::Queen as usize] != 0 && {
                let others = (0..N)
                    .filter(|&o| o != me && self.queens[o] != NONE)
                    .filter(|&o| caps & bit(self.queens[o] as usize) == 0)
                    .count();
                others == 0
            };
            last_queen
                || (queen == tables().centre as usize && self.safe_after(me, queen, fb, tb, caps))
        };
        Tactics {
            captures: caps.count_ones() as u8,
            taken_kinds,
            promotion,
            wins,
        }
    }

    /// Appends the legal moves (nothing if the game is over by rule).
    pub(super) fn legal_moves_into<S: MoveSink<AntChessMove>>(&self, out: &mut S) {
        if self.terminal().is_none() {
            self.generate_for(self.to_move as usize, &mut Each(out));
        }
    }

    #[inline]
    pub(super) fn count_moves(&self) -> u64 {
        if self.terminal().is_some() {
            return 0;
        }
        self.count_for(self.to_move as usize)
    }

    #[inline]
    pub(super) fn apply(&mut self, mv: AntChessMove) {
        let me = self.to_move as usize;
        if mv.is_pass() {
            self.set_passes(self.passes.saturating_add(1));
            self.quiet = self.quiet.saturating_add(1);
        } else {
            let caps = mv.capture_bits();
            let mut rest = caps;
            while rest != 0 {
                let c = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                self.remove(c);
            }
            let from = mv.start_byte() as usize;
            let code = self.board[from];
            let kind = code_kind(code);
            self.remove(from);
            let new_kind = if mv.is_promotion() {
                Kind::Superant
            } else {
                kind
            };
            self.put(code_owner(code), new_kind, mv.end_byte() as usize);
            if caps != 0 || kind == Kind::Warrior {
                self.quiet = 0;
            } else {
                self.quiet = self.quiet.saturating_add(1);
            }
            if self.passes != 0 {
                self.set_passes(0);
            }
        }
        let next = (me + 1) % N;
        self.hash ^= side_key(me) ^ side_key(next);
        self.to_move = next as u8;
        if next == 0 {
            self.move_number = self.move_number.saturating_add(1);
        }
    }

    /// The mobility of `player` ([`crate::game::PieceSets::mobility`]): [`Self::count_for`]
    /// for a player of the game, 0 for another number.
    #[inline]
    pub(super) fn count_moves_of(&self, player: Player) -> u32 {
        if player as usize >= N {
            return 0;
        }
        self.count_for(player as usize) as u32
    }
}

/// Is `q` attacked by an opponent of `me` with the pieces `occ` (kinds from `pos`)?
#[inline]
fn attacked_with<const N: usize>(
    pos: &AntChessPosition<N>,
    occ: &[u128; 3],
    me: usize,
    q: usize,
) -> bool {
    let t = tables();
    let homes = AntChessPosition::<N>::homes();
    (0..N).any(|o| o != me && attacked_by(t, occ, &pos.kinds, o, homes[o], q))
}
