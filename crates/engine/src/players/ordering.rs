//! Move ordering and the principal variation, one for every search (PVS, best-reply, max-n,
//! and MCTS through the capture search of max-n at its leaves): the table's move first, then moves that win, captures and promotions by
//! the value they take, killers per ply, and the rest by a history per player. [`Orderer`] holds
//! the killers and the history; [`Lines`] the triangular table of principal variations;
//! [`texts`] writes a line as move texts.

use myrmidon_rules::Position;

use super::multi::MAX_PLAYERS;
use crate::eval::Evaluator;

/// The deepest ply the search tables hold (main search and quiescence together).
pub const MAX_PLY: usize = 96;
/// Entries of the history table per player.
const HISTORY_SIZE: usize = 1 << 14;
const HISTORY_MAX: i32 = 1 << 14;

// Move ordering classes.
const ORDER_HASH: i32 = 1 << 30;
const ORDER_WIN: i32 = ORDER_HASH - 1;
const ORDER_TACTICAL: i32 = 1 << 28;
const ORDER_KILLER: i32 = 1 << 27;
/// Captures that have failed often here (their capture history below [`BAD_CAPTURE`]): after
/// the killers, before the quiet moves.
const ORDER_BAD_CAPTURE: i32 = 1 << 26;
/// The capture history under which a capture is ordered with the bad ones.
const BAD_CAPTURE: i32 = -HISTORY_MAX / 8;

/// Whether an ordering score is a killer's (either of the two at its ply).
pub fn is_killer(score: i32) -> bool {
    (ORDER_KILLER - 1..=ORDER_KILLER).contains(&score)
}

/// One step of a selection sort: the best-scored move from `i` on swapped to `i` (the first of
/// equals; the moves after `i` are left in no particular order).
pub fn pick_next<M>(moves: &mut [M], scores: &mut [i32], i: usize) {
    let mut pick = i;
    for j in i + 1..moves.len() {
        if scores[j] > scores[pick] {
            pick = j;
        }
    }
    moves.swap(i, pick);
    scores.swap(i, pick);
}

/// Move ordering: the table's move, moves that win, captures by their victim, killers per ply
/// and history per player.
pub struct Orderer<P: Position> {
    killers: Vec<[Option<P::Move>; 2]>,
    history: Vec<i32>,
    /// The capture history (empty when not kept): per player and move, how often a capture
    /// cut off or failed to.
    captures: Vec<i32>,
}

impl<P: Position> Default for Orderer<P> {
    fn default() -> Self {
        Orderer {
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: vec![0; MAX_PLAYERS * HISTORY_SIZE],
            captures: Vec::new(),
        }
    }
}

impl<P: Position> Orderer<P> {
    /// An orderer that keeps a capture history (`captures`, [`SearchPolicy::capture_history`]):
    /// captures are ordered by their victims and their history, and those that have failed
    /// often after the killers.
    ///
    /// [`SearchPolicy::capture_history`]: super::SearchPolicy::capture_history
    pub fn new(captures: bool) -> Self {
        Orderer {
            captures: if captures {
                vec![0; MAX_PLAYERS * HISTORY_SIZE]
            } else {
                Vec::new()
            },
            ..Orderer::default()
        }
    }

    /// Ready for a new search: killers forgotten, histories halved.
    pub fn new_search(&mut self) {
        for k in &mut self.killers {
            *k = [None; 2];
        }
        for h in self.history.iter_mut().chain(&mut self.captures) {
            *h /= 2;
        }
    }

    /// Ready for a new game: killers and histories forgotten.
    pub fn clear(&mut self) {
        self.new_search();
        self.history.fill(0);
        self.captures.fill(0);
    }

    fn history_index(pos: &P, mv: P::Move) -> usize {
        let code = pos.move_code(mv) as u64;
        let slot = (code.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - 14)) as usize;
        (pos.to_move() as usize % MAX_PLAYERS) * HISTORY_SIZE + slot
    }

    /// The ordering score of `mv` (higher first).
    pub fn score<E: Evaluator<P>>(
        &self,
        eval: &E,
        pos: &P,
        mv: P::Move,
        tt_move: Option<P::Move>,
        ply: usize,
    ) -> i32 {
        if Some(mv) == tt_move {
            return ORDER_HASH;
        }
        let t = pos.quick_tactics(mv);
        if t.wins {
            return ORDER_WIN;
        }
        if t.is_tactical() {
            let mut victim = 0;
            let mut kinds = t.taken_kinds;
            while kinds != 0 {
                victim = victim.max(eval.piece_value(kinds.trailing_zeros() as usize));
                kinds &= kinds - 1;
            }
            let promotion = t.promotion.map_or(0, |k| eval.piece_value(k as usize));
            let value = (victim.clamp(0, 20_000) + promotion.clamp(0, 20_000)) * 64;
            if self.captures.is_empty() {
                return ORDER_TACTICAL + value + t.captures as i32;
            }
            let history = self.captures[Self::history_index(pos, mv)];
            let class = if history < BAD_CAPTURE {
                ORDER_BAD_CAPTURE
            } else {
                ORDER_TACTICAL
            };
            return class + value + history;
        }
        if let Some(k) = self.killers.get(ply) {
            if k[0] == Some(mv) {
                return ORDER_KILLER;
            }
            if k[1] == Some(mv) {
                return ORDER_KILLER - 1;
            }
        }
        self.history[Self::history_index(pos, mv)]
    }

    /// Sorts the moves of `pos` best first (`buf`: a buffer to reuse, no allocation per node).
    pub fn sort<E: Evaluator<P>>(
        &self,
        eval: &E,
        pos: &P,
        moves: &mut P::MoveList,
        tt_move: Option<P::Move>,
        ply: usize,
        buf: &mut Vec<(i32, P::Move)>,
    ) {
        buf.clear();
        buf.extend(
            moves
                .iter()
                .map(|&m| (self.score(eval, pos, m, tt_move, ply), m)),
        );
        // Stable: equal scores keep the generator's order (deterministic).
        buf.sort_by_key(|&(s, _)| std::cmp::Reverse(s));
        for (i, &(_, m)) in buf.iter().enumerate() {
            moves[i] = m;
        }
    }

    /// The move the ordering puts first (BRS+'s default move), or `None` without moves.
    pub fn first<E: Evaluator<P>>(
        &self,
        eval: &E,
        pos: &P,
        tt_move: Option<P::Move>,
        ply: usize,
    ) -> Option<P::Move> {
        let mut moves = P::MoveList::default();
        pos.generate(&mut moves);
        let mut best: Option<(i32, P::Move)> = None;
        for &m in moves.iter() {
            let s = self.score(eval, pos, m, tt_move, ply);
            if best.is_none_or(|(b, _)| s > b) {
                best = Some((s, m));
            }
        }
        best.map(|(_, m)| m)
    }

    /// A move that was best (or cut off), if quiet: [`Orderer::reward_quiet`], with the quiet
    /// moves of `tried` other than `mv`.
    pub fn reward(&mut self, pos: &P, mv: P::Move, depth: i32, ply: usize, tried: &[P::Move]) {
        if pos.quick_tactics(mv).is_tactical() {
            return;
        }
        let quiet = |q: &&P::Move| **q != mv && !pos.quick_tactics(**q).is_tactical();
        self.reward_quiet(pos, mv, depth, ply, tried.iter().filter(quiet));
    }

    /// A quiet move that was best (or cut off): a killer at this ply, a history bonus, and a
    /// malus for the quiet moves tried before it (`tried`: quiet, and not `mv`).
    pub fn reward_quiet<'a>(
        &mut self,
        pos: &P,
        mv: P::Move,
        depth: i32,
        ply: usize,
        tried: impl IntoIterator<Item = &'a P::Move>,
    ) where
        P::Move: 'a,
    {
        if let Some(k) = self.killers.get_mut(ply) {
            if k[0] != Some(mv) {
                k[1] = k[0];
                k[0] = Some(mv);
            }
        }
        let bonus = (depth * depth).min(400);
        self.update_history(pos, mv, bonus);
        for &q in tried {
            self.update_history(pos, q, -bonus);
        }
    }

    /// A move that cut off, with the captures tried before it (`tried`, not `mv`): a bonus in
    /// the capture history for `mv` if it is a capture, a malus for those tried. Nothing when
    /// no capture history is kept.
    pub fn reward_captures<'a>(
        &mut self,
        pos: &P,
        mv: P::Move,
        capture: bool,
        depth: i32,
        tried: impl IntoIterator<Item = &'a P::Move>,
    ) where
        P::Move: 'a,
    {
        if self.captures.is_empty() {
            return;
        }
        let bonus = (depth * depth).min(400);
        if capture {
            gravity(&mut self.captures[Self::history_index(pos, mv)], bonus);
        }
        for &q in tried {
            gravity(&mut self.captures[Self::history_index(pos, q)], -bonus);
        }
    }

    fn update_history(&mut self, pos: &P, mv: P::Move, bonus: i32) {
        gravity(&mut self.history[Self::history_index(pos, mv)], bonus);
    }
}

/// A history entry moved by `bonus`, the more slowly the nearer it is to its bound.
fn gravity(h: &mut i32, bonus: i32) {
    *h += bonus - *h * bonus.abs() / HISTORY_MAX;
}

/// Triangular principal variations, one row a ply.
pub struct Lines<M: Copy + Default> {
    pv: Vec<[M; MAX_PLY]>,
    len: [usize; MAX_PLY + 1],
}

impl<M: Copy + Default> Default for Lines<M> {
    fn default() -> Self {
        Lines {
            pv: vec![[M::default(); MAX_PLY]; MAX_PLY + 1],
            len: [0; MAX_PLY + 1],
        }
    }
}

impl<M: Copy + Default> Lines<M> {
    /// A node at `ply` starts with an empty line.
    pub fn enter(&mut self, ply: usize) {
        if ply <= MAX_PLY {
            self.len[ply] = ply;
        }
    }

    /// `mv` is best at `ply`: its line is `mv` then the child's line.
    pub fn update(&mut self, ply: usize, mv: M) {
        if ply >= MAX_PLY {
            return;
        }
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let child_len = self.len[ply + 1].clamp(ply + 1, MAX_PLY);
        head[ply][ply] = mv;
        head[ply][ply + 1..child_len].copy_from_slice(&tail[0][ply + 1..child_len]);
        self.len[ply] = child_len;
    }

    /// `mv` then a given continuation (the default moves of BRS+) is best at `ply`.
    pub fn update_with(&mut self, ply: usize, moves: &[M], child_ply: usize) {
        if ply + moves.len() >= MAX_PLY || child_ply > MAX_PLY {
            return;
        }
        let child_len = self.len[child_ply].clamp(child_ply, MAX_PLY);
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let row = &mut head[ply];
        let mut at = ply;
        for &m in moves {
            row[at] = m;
            at += 1;
        }
        let rest = &tail[child_ply - ply - 1][child_ply..child_len];
        let n = rest.len().min(MAX_PLY - at);
        row[at..at + n].copy_from_slice(&rest[..n]);
        self.len[ply] = at + n;
    }

    /// The root's line.
    pub fn root(&self) -> &[M] {
        &self.pv[0][..self.len[0]]
    }
}

/// The move texts of a line from `root` (stopping at a move that is not legal there).
pub fn texts<P: Position>(root: &P, line: &[P::Move]) -> Vec<String> {
    let mut pos = root.clone();
    let mut out = Vec::with_capacity(line.len());
    for &mv in line {
        if !pos.moves().contains(&mv) {
            break;
        }
        out.push(pos.move_text(mv));
        pos.make_move(mv);
    }
    out
}
