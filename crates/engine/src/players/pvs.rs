//! The strong search: iterative deepening principal variation search with aspiration windows,
//! a transposition table, quiescence, check extensions, null-move pruning and late-move
//! reductions. Generic over the rules library's `Position` (monomorphised per game); no
//! allocation per node (the moves live in each game's stack `MoveList`, the tables are made once).
//!
//! With `Threads` above 1, Lazy SMP (`smp`): helper threads search the same root at the same
//! time. With one thread nothing of this runs and a fixed-depth search is deterministic.
//!
//! Two players: negamax, every score from the view of the player to move. Three or more:
//! *paranoid*, as the alpha-beta baseline: every other player plays against the root player.
//! Both are the same code: a node's score is from the view of its *side* (the root player, or
//! the coalition of the others), and a child's score is negated only when the side changes.
//! The table's keys are salted with the root player, since a score depends on who the root
//! player is (the coalition with three players; the [`CONTEMPT`] for draws).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use myrmidon_rules::{Outcome, Player, Position, Record};

mod smp;

use super::alphabeta::history_hashes;
use super::multi::{max_depth, node_limit};
use super::ordering::{is_killer, pick_next, texts, Lines, Orderer, MAX_PLY};
use super::{Options, Report, Searcher};
use super::{QuiescenceTable, SearchPolicy};
use crate::control::Control;
use crate::eval::Evaluator;
use crate::limits::Limits;
use crate::score::{Score, INFINITY, MATE, MATE_BOUND};
use crate::tt::{Bound, Table};

/// The deepest iteration.
const MAX_DEPTH: u32 = 64;
/// The depth of a search that nothing else limits (no depth, time, nodes or `infinite`).
pub const UNLIMITED_DEPTH: u32 = 6;
/// Quiescence plies in which a player in check (or whose Queen is attacked) looks at every
/// move rather than standing pat.
const QS_EVASION_PLIES: usize = 4;
/// Reverse futility pruning: at most this depth, by this margin a ply.
const RFP_DEPTH: i32 = 6;
const RFP_MARGIN: i32 = 90;
/// Late-move pruning: at most this depth, the quiet moves after `LMP_BASE + depth²`.
const LMP_DEPTH: i32 = 4;
const LMP_BASE: usize = 4;
/// Futility pruning of quiet moves: at most this depth, when the evaluation plus
/// `FUTILITY_BASE + FUTILITY_MARGIN · depth` is still not above alpha.
const FUTILITY_DEPTH: i32 = 4;
const FUTILITY_BASE: i32 = 100;
const FUTILITY_MARGIN: i32 = 100;
/// Above this static evaluation, for either side, the game is won or lost on material:
/// reverse futility and null-move pruning, which return bounds they have not proved, are left
/// out there so that the search finds the mate (they hid Ackenhead's mates in three with a
/// quiet first move: at depth 12 and more the search saw +32 pawns and played another move).
const DECISIVE: i32 = 1500;
/// A win found at some depth ends the deepening only this many plies deeper than its length:
/// a shorter one may hide behind the reductions of shallower searches.
const WIN_MARGIN: i32 = 4;

/// Whether an iteration's value ends the deepening: a loss seen within the horizon, or a win
/// seen with `WIN_MARGIN` plies to spare.
fn proven(value: i32, depth: u32) -> bool {
    let plies = MATE - value.abs();
    let margin = if value > 0 { WIN_MARGIN } else { 0 };
    value.abs() >= MATE_BOUND && plies + margin <= depth as i32
}

/// Keeps the moves (and their scores) for which `keep` holds at the front of `moves`, in their
/// order; returns how many.
fn retain<M: Copy>(moves: &mut [M], scores: &mut [i32], mut keep: impl FnMut(M) -> bool) -> usize {
    let mut kept = 0;
    for j in 0..moves.len() {
        if keep(moves[j]) {
            moves[kept] = moves[j];
            scores[kept] = scores[j];
            kept += 1;
        }
    }
    kept
}

/// The first aspiration window's half width.
const ASPIRATION: i32 = 30;

/// What a draw (by rule, repetition or agreement of the outcome) is worth to the root player:
/// a little less than nothing, so that the search plays on rather than repeat when it sees no
/// gain (with a material count, most positions look equal, and both sides would shuffle).
const CONTEMPT: i32 = 20;

/// Salts of the table keys by root player: scores depend on who the root player is (the
/// paranoid coalition with three players, the contempt for draws).
const ROOT_SALTS: [u64; 4] = [
    0,
    0x9e37_79b9_7f4a_7c15,
    0xc2b2_ae3d_27d4_eb4f,
    0x1656_67b1_9e37_79f9,
];

/// A node of the main search as its parent asks for it: its depth and ply, its window (from the
/// view of its side), whether it is on the principal variation and whether it may try a null
/// move.
#[derive(Clone, Copy)]
struct Frame {
    depth: i32,
    ply: usize,
    alpha: i32,
    beta: i32,
    pv: bool,
    null: bool,
}

impl Frame {
    /// A child of a node of the main search (which may try a null move), `alpha..beta` being
    /// the window of the parent's side.
    fn child(depth: i32, ply: usize, alpha: i32, beta: i32, pv: bool) -> Frame {
        Frame {
            depth,
            ply,
            alpha,
            beta,
            pv,
            null: true,
        }
    }
}

pub struct Pvs<P: Position, E> {
    depth: Option<u32>,
    /// The game's pruning and quiescence, as given.
    policy: SearchPolicy,
    /// The policy's delta margin with this evaluator's weights.
    delta_margin: Option<i32>,
    eval: E,
    options: Options,
    tt: Arc<Table>,
    /// 0 for the main thread, 1… for the helpers of Lazy SMP.
    id: usize,
    /// The helpers (of the main thread), made when `Threads` asks for them.
    helpers: Vec<Pvs<P, E>>,
    /// Nodes searched by the helpers in this search (they add theirs now and then).
    helper_nodes: Arc<AtomicU64>,
    /// Hashes of the positions before the current node since the last irreversible move, in
    /// the game then along the search path, for the repetition draw.
    path: Vec<u64>,
    lines: Lines<P::Move>,
    order: Orderer<P>,
    /// Move ordering scores, one buffer per ply (taken out and put back by each node).
    scores: Vec<Vec<i32>>,
    lmr: [[u8; 64]; 64],
    nodes: u64,
    /// The most nodes this search may visit.
    node_limit: u64,
    seldepth: usize,
    aborted: bool,
    root: Player,
    players: usize,
    salt: u64,
    /// Root moves left out of this search (the lines already found, with `MultiPV`).
    excluded: Vec<P::Move>,
    /// Counters of this search, for diagnosis.
    pub stats: Stats,
}

impl Default for Stats {
    fn default() -> Self {
        Stats {
            main_nodes: 0,
            quiescence_nodes: 0,
            evasion_nodes: 0,
            cutoffs: 0,
            first_move_cutoffs: 0,
            hash_moves: 0,
            hash_move_cutoffs: 0,
            table_cuts: 0,
            null_tries: 0,
            null_cuts: 0,
            reductions: 0,
            re_searches: 0,
            qply: [0; 48],
            q_generated: 0,
            q_searched: 0,
            q_standpat_cuts: 0,
        }
    }
}

/// What a search did, counted as it goes (reset by each search; the main thread's only).
#[derive(Clone, Copy, Debug)]
pub struct Stats {
    /// Nodes of the main search (depth above 0).
    pub main_nodes: u64,
    /// Nodes of the quiescence search.
    pub quiescence_nodes: u64,
    /// Quiescence nodes that looked at every move (the player to move in danger).
    pub evasion_nodes: u64,
    /// Main-search nodes that failed high, and those that did with their first move.
    pub cutoffs: u64,
    pub first_move_cutoffs: u64,
    /// Main-search nodes with a hash move, and those where it cut.
    pub hash_moves: u64,
    pub hash_move_cutoffs: u64,
    /// Returns on a table entry's bound.
    pub table_cuts: u64,
    /// Null-move searches, and those that failed high (verified).
    pub null_tries: u64,
    pub null_cuts: u64,
    /// Reduced searches, and those searched again at full depth.
    pub reductions: u64,
    pub re_searches: u64,
    /// Quiescence nodes by their ply below the main search's leaf (the last counts deeper ones).
    pub qply: [u64; 48],
    /// Moves generated and searched in quiescence, and its stand-pat cutoffs.
    pub q_generated: u64,
    pub q_searched: u64,
    pub q_standpat_cuts: u64,
}

impl<P: Position, E: Evaluator<P>> Pvs<P, E> {
    /// A search to `depth` plies at most (or as deep as the limits allow, with `None`), by the
    /// game's `policy` (`EngineGame::POLICY`).
    pub fn new(depth: Option<u32>, policy: SearchPolicy, options: &Options) -> Self {
        Pvs::with_eval(depth, policy, E::default(), options)
    }

    /// The same with this evaluator (tuned weights, for example).
    pub fn with_eval(depth: Option<u32>, policy: SearchPolicy, eval: E, options: &Options) -> Self {
        let tt = Arc::new(Table::new(options.hash_mb));
        Pvs::build(
            depth,
            policy,
            eval,
            options,
            tt,
            0,
            Arc::new(AtomicU64::new(0)),
        )
    }

    fn build(
        depth: Option<u32>,
        policy: SearchPolicy,
        eval: E,
        options: &Options,
        tt: Arc<Table>,
        id: usize,
        helper_nodes: Arc<AtomicU64>,
    ) -> Self {
        let mut lmr = [[0u8; 64]; 64];
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (0.5 + (d as f64).ln() * (m as f64).ln() / 2.25) as u8;
            }
        }
        Pvs {
            depth,
            policy,
            delta_margin: policy.delta_margin.resolve(&eval),
            eval,
            options: options.clone(),
            tt,
            id,
            helpers: Vec::new(),
            helper_nodes,
            path: Vec::with_capacity(1024),
            lines: Lines::default(),
            order: Orderer::new(policy.capture_history),
            scores: (0..=MAX_PLY).map(|_| Vec::with_capacity(256)).collect(),
            lmr,
            nodes: 0,
            node_limit: u64::MAX,
            seldepth: 0,
            aborted: false,
            root: 0,
            players: 2,
            salt: 0,
            excluded: Vec::new(),
            stats: Stats::default(),
        }
    }

    fn key(&self, pos: &P) -> u64 {
        pos.hash() ^ self.salt
    }

    /// +1 if the player to move is on the root player's side, else -1.
    fn sign(&self, pos: &P) -> i32 {
        if pos.to_move() == self.root {
            1
        } else {
            -1
        }
    }

    /// The score of a finished game `ply` plies from the root, for the root player.
    fn outcome_value(&self, outcome: Outcome, ply: usize) -> i32 {
        match outcome.winner() {
            Some(w) if w == self.root => MATE - ply as i32,
            Some(_) => -(MATE - ply as i32),
            None => -CONTEMPT,
        }
    }

    fn static_eval(&self, pos: &P) -> i32 {
        self.sign(pos) * self.eval.evaluate(pos, self.root)
    }

    /// The most a capture can gain: the value of each kind taken, and the dearest of them for
    /// every further piece taken (Epaminondas takes a whole line of one kind).
    fn capture_gain(&self, t: myrmidon_rules::Tactics) -> i32 {
        let (mut gain, mut dearest) = (0, 0);
        let mut kinds = t.taken_kinds;
        while kinds != 0 {
            let v = self.eval.piece_value(kinds.trailing_zeros() as usize);
            gain += v;
            dearest = dearest.max(v);
            kinds &= kinds - 1;
        }
        let extra = (t.captures as i32 - t.taken_kinds.count_ones() as i32).max(0);
        gain + extra * dearest
    }

    fn enter(&mut self, ply: usize, control: &Control) -> bool {
        self.nodes += 1;
        self.lines.enter(ply);
        self.seldepth = self.seldepth.max(ply);
        // The node budget exactly (deterministic), the clock and `stop` now and then.
        if self.nodes >= self.node_limit || (self.nodes & 1023 == 0 && self.check_in(control)) {
            self.aborted = true;
        }
        !self.aborted
    }

    /// Every 1024 nodes: a helper adds them to the helpers' count; true if the search must stop.
    #[cold]
    fn check_in(&self, control: &Control) -> bool {
        if self.id > 0 {
            self.helper_nodes.fetch_add(1024, Ordering::Relaxed);
        }
        control.should_stop(self.nodes)
    }

    /// A child's score from the view of the parent's side: `search` of the child in the window
    /// `alpha..beta` of the parent's side, negated across a change of side (negamax), the same
    /// within one (paranoid coalition).
    fn across(
        &mut self,
        pos: &mut P,
        parent_side: bool,
        alpha: i32,
        beta: i32,
        search: impl FnOnce(&mut Self, &mut P, i32, i32) -> i32,
    ) -> i32 {
        if (pos.to_move() == self.root) == parent_side {
            search(self, pos, alpha, beta)
        } else {
            -search(self, pos, -beta, -alpha)
        }
    }

    /// A child of the main search (`frame` in its parent's window), its score from the view of
    /// the parent's side.
    fn child(&mut self, pos: &mut P, parent_side: bool, frame: Frame, control: &Control) -> i32 {
        self.across(
            pos,
            parent_side,
            frame.alpha,
            frame.beta,
            |s, pos, alpha, beta| {
                s.node(
                    pos,
                    Frame {
                        alpha,
                        beta,
                        ..frame
                    },
                    control,
                )
            },
        )
    }

    fn node(&mut self, pos: &mut P, frame: Frame, control: &Control) -> i32 {
        let Frame {
            mut depth,
            ply,
            mut alpha,
            mut beta,
            pv: pv_node,
            null: allow_null,
        } = frame;
        let in_check = self.eval.in_danger(pos);
        if in_check && ply < MAX_PLY / 2 {
            depth += 1;
        }
        if depth <= 0 {
            return self.quiescence(pos, ply, 0, alpha, beta, control);
        }
        if !self.enter(ply, control) {
            return 0;
        }
        self.stats.main_nodes += 1;
        let sign = self.sign(pos);
        if ply > 0 {
            if let Some(o) = pos.draw_by_rule() {
                return sign * self.outcome_value(o, ply);
            }
            if self.path.contains(&pos.hash()) {
                return -sign * CONTEMPT;
            }
            if pos.eliminated(self.root).is_some() {
                return -sign * (MATE - ply as i32);
            }
            // No line from here can beat a win at this ply or lose faster than now.
            alpha = alpha.max(-(MATE - ply as i32));
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        if ply >= MAX_PLY - 1 {
            return self.static_eval(pos);
        }
        if ply > 0 && self.eval.wins_at_once(pos) {
            return MATE - (ply as i32 + 1);
        }

        let key = self.key(pos);
        let mut tt_move = None;
        if let Some(hit) = self.tt.probe(key, ply) {
            if !pv_node && ply > 0 && hit.depth as i32 >= depth && hit.cuts(alpha, beta) {
                self.stats.table_cuts += 1;
                return hit.score;
            }
            tt_move = hit.code.and_then(|c| pos.move_from_code(c));
        }
        if tt_move.is_some() {
            self.stats.hash_moves += 1;
        }

        // The static evaluation, for the pruning below (not in danger, where it means little).
        let eval_here = if in_check {
            -INFINITY
        } else {
            self.static_eval(pos)
        };

        // Reverse futility: far enough above beta near the leaves, a move will not fall below.
        let pruning = self.policy.forward_pruning;
        let decisive = eval_here.abs() >= DECISIVE;
        if pruning
            && !pv_node
            && !in_check
            && !decisive
            && depth <= RFP_DEPTH
            && beta.abs() < MATE_BOUND
            && eval_here - RFP_MARGIN * depth >= beta
        {
            return eval_here;
        }

        // Null move: if passing still fails high, a real move would too (two players only,
        // where the game allows it; verified by a reduced search without null moves, since
        // zugzwang is real in Jeu de Reines).
        if !pv_node
            && allow_null
            && !in_check
            && !decisive
            && self.players == 2
            && depth >= 3
            && beta.abs() < MATE_BOUND
            && eval_here >= beta
        {
            let hash = pos.hash();
            if let Some(undo) = pos.make_null_move() {
                self.stats.null_tries += 1;
                let r = 3 + depth / 6;
                self.path.push(hash);
                let frame = Frame {
                    depth: depth - 1 - r,
                    ply: ply + 1,
                    alpha: -beta,
                    beta: -beta + 1,
                    pv: false,
                    null: false,
                };
                let value = -self.node(pos, frame, control);
                self.path.pop();
                pos.unmake_null_move(undo);
                if self.aborted {
                    return 0;
                }
                if value >= beta {
                    let value = if value >= MATE_BOUND { beta } else { value };
                    if depth - 1 - r <= 0 {
                        return value;
                    }
                    let frame = Frame {
                        depth: depth - 1 - r,
                        ply,
                        alpha: beta - 1,
                        beta,
                        pv: false,
                        null: false,
                    };
                    let verified = self.node(pos, frame, control);
                    if self.aborted {
                        return 0;
                    }
                    if verified >= beta {
                        self.stats.null_cuts += 1;
                        return value;
                    }
                }
            }
        }

        let mut moves = P::MoveList::default();
        pos.generate(&mut moves);
        if moves.is_empty() {
            return sign * self.outcome_value(pos.outcome_without_moves(), ply);
        }
        let mut scores = std::mem::take(&mut self.scores[ply]);
        scores.clear();
        for &mv in moves.iter() {
            scores.push(self.order.score(&self.eval, pos, mv, tt_move, ply));
        }

        let side = pos.to_move() == self.root;
        let alpha_orig = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        let mut quiets = [P::Move::default(); 32];
        let mut quiet_count = 0;
        let mut captures = [P::Move::default(); 16];
        let mut capture_count = 0;
        let excluding = ply == 0 && !self.excluded.is_empty();
        // The moves searched so far (every move before this one, but those left out).
        let mut searched = 0;
        // The moves still to pick from are `moves[..end]`: once the quiet moves are pruned,
        // those that would be pruned are dropped at once rather than picked one by one (with
        // hundreds of moves, as in Epaminondas, picking them cost more than the search).
        let mut end = moves.len();
        let mut pruning_quiets = false;
        self.path.push(pos.hash());
        let mut i = 0;
        while i < end {
            pick_next(&mut moves[..end], &mut scores[..end], i);
            let (at, mv) = (i, moves[i]);
            i += 1;
            if excluding && self.excluded.contains(&mv) {
                continue;
            }
            // In danger, once one move is searched, a move that certainly loses at once
            // cannot do better.
            if in_check && best > -INFINITY && !self.eval.may_answer_danger(pos, mv) {
                continue;
            }
            searched += 1;
            let nth = searched - 1;
            let t = pos.quick_tactics(mv);
            if t.wins {
                // Ends the game with a win for the mover: nothing is better.
                best = MATE - (ply as i32 + 1);
                best_move = Some(mv);
                self.lines.enter(ply + 1);
                self.lines.update(ply, mv);
                break;
            }
            let quiet = !t.is_tactical();
            let killer = is_killer(scores[at]);
            // Late-move and futility pruning: near the leaves, once a move is searched, the
            // quiet moves ordered last, or any quiet move when the evaluation is far below
            // alpha, are not looked at.
            if pruning
                && !pv_node
                && !in_check
                && quiet
                && nth > 0
                && best > -MATE_BOUND
                && (depth <= LMP_DEPTH && nth >= LMP_BASE + (depth * depth) as usize
                    || depth <= FUTILITY_DEPTH
                        && eval_here + FUTILITY_BASE + FUTILITY_MARGIN * depth <= alpha)
                && !self.eval.threatens(pos, mv)
            {
                if !pruning_quiets {
                    // Every later move is quiet too (tactical moves are ordered first), and
                    // the conditions above only grow truer as the search goes on: the later
                    // moves that do not threaten are pruned the same way. They count as
                    // looked at, as they would have been one by one.
                    pruning_quiets = true;
                    let before = end;
                    end = i + retain(&mut moves[i..end], &mut scores[i..end], |m| {
                        pos.quick_tactics(m).is_tactical() || self.eval.threatens(pos, m)
                    });
                    searched += before - end;
                }
                continue;
            }
            let undo = pos.make_move(mv);
            self.tt.prefetch(self.key(pos));
            let value = if nth == 0 {
                let frame = Frame::child(depth - 1, ply + 1, alpha, beta, pv_node);
                self.child(pos, side, frame, control)
            } else {
                let mut r = 0;
                if depth >= 3
                    && nth >= 3
                    && quiet
                    && !in_check
                    && !killer
                    && !self.eval.in_danger(pos)
                {
                    r = self.lmr[(depth as usize).min(63)][nth.min(63)] as i32;
                    if pv_node {
                        r -= 1;
                    }
                    r = r.clamp(0, depth - 2);
                    if r > 0 {
                        self.stats.reductions += 1;
                    }
                }
                let frame = Frame::child(depth - 1 - r, ply + 1, alpha, alpha + 1, false);
                let mut v = self.child(pos, side, frame, control);
                if v > alpha && r > 0 && !self.aborted {
                    self.stats.re_searches += 1;
                    let frame = Frame::child(depth - 1, ply + 1, alpha, alpha + 1, false);
                    v = self.child(pos, side, frame, control);
                }
                if v > alpha && v < beta && pv_node && !self.aborted {
                    let frame = Frame::child(depth - 1, ply + 1, alpha, beta, true);
                    v = self.child(pos, side, frame, control);
                }
                v
            };
            pos.unmake_move(mv, undo);
            if self.aborted {
                break;
            }
            if value > best {
                best = value;
                if value > alpha {
                    best_move = Some(mv);
                    alpha = value;
                    self.lines.update(ply, mv);
                    if value >= beta {
                        self.stats.cutoffs += 1;
                        if nth == 0 {
                            self.stats.first_move_cutoffs += 1;
                        }
                        if Some(mv) == tt_move {
                            self.stats.hash_move_cutoffs += 1;
                        }
                        if quiet {
                            let tried = &quiets[..quiet_count];
                            self.order.reward_quiet(pos, mv, depth, ply, tried);
                        }
                        let tried = &captures[..capture_count];
                        self.order.reward_captures(pos, mv, !quiet, depth, tried);
                        break;
                    }
                }
            }
            if quiet && quiet_count < quiets.len() {
                quiets[quiet_count] = mv;
                quiet_count += 1;
            } else if !quiet && capture_count < captures.len() {
                captures[capture_count] = mv;
                capture_count += 1;
            }
        }
        self.path.pop();
        self.scores[ply] = scores;
        if self.aborted {
            return 0;
        }
        let bound = match Bound::of(best, alpha_orig, beta) {
            // A score above alpha with no move to show for it is no exact value.
            Bound::Exact if best_move.is_none() => Bound::Upper,
            bound => bound,
        };
        if best == -INFINITY {
            // Every root move was left out (cannot happen: lines < root moves).
            return best;
        }
        if !excluding {
            let code = best_move.map(|m| pos.move_code(m));
            self.tt
                .store(key, ply, code, best, depth.clamp(0, 255) as u8, bound);
        }
        best
    }

    fn quiescence(
        &mut self,
        pos: &mut P,
        ply: usize,
        qply: usize,
        mut alpha: i32,
        beta: i32,
        control: &Control,
    ) -> i32 {
        if !self.enter(ply, control) {
            return 0;
        }
        self.stats.quiescence_nodes += 1;
        self.stats.qply[qply.min(47)] += 1;
        let sign = self.sign(pos);
        if let Some(o) = pos.draw_by_rule() {
            return sign * self.outcome_value(o, ply);
        }
        if pos.eliminated(self.root).is_some() {
            return -sign * (MATE - ply as i32);
        }
        if ply >= MAX_PLY - 1 {
            return self.static_eval(pos);
        }
        if self.eval.cheaply_over(pos) {
            return sign * self.outcome_value(pos.outcome_without_moves(), ply);
        }
        let key = self.key(pos);
        let alpha_orig = alpha;
        let mut best_move = None;
        let table = self.policy.quiescence_table;
        let hit = match table {
            QuiescenceTable::Skip => None,
            QuiescenceTable::Read | QuiescenceTable::ReadWrite => self.tt.probe(key, ply),
        };
        if let Some(hit) = hit {
            if hit.cuts(alpha, beta) {
                self.stats.table_cuts += 1;
                return hit.score;
            }
        }
        let evading = qply < QS_EVASION_PLIES && self.eval.in_danger(pos);
        if evading {
            self.stats.evasion_nodes += 1;
        }
        let delta_margin = self.delta_margin;
        let mut moves = P::MoveList::default();
        let mut best;
        if evading {
            pos.generate(&mut moves);
            if moves.is_empty() {
                return sign * self.outcome_value(pos.outcome_without_moves(), ply);
            }
            best = -INFINITY;
        } else {
            let stand = self.static_eval(pos);
            if stand >= beta {
                self.stats.q_standpat_cuts += 1;
                return stand;
            }
            if qply >= self.policy.quiescence_plies {
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
            // Quiet wins (Ackenhead's quiet checkmates) at the first ply of quiescence only:
            // deeper, captures and promotions.
            if qply == 0 {
                pos.generate_tactical(&mut moves);
            } else {
                pos.generate_captures(&mut moves);
            }
        }
        let mut scores = std::mem::take(&mut self.scores[ply]);
        scores.clear();
        self.stats.q_generated += moves.len() as u64;
        for &mv in moves.iter() {
            scores.push(self.order.score(&self.eval, pos, mv, None, MAX_PLY));
        }
        let side = pos.to_move() == self.root;
        let mut keys = [0u32; 64];
        let mut n_keys = 0;
        for i in 0..moves.len() {
            pick_next(&mut moves, &mut scores, i);
            let mv = moves[i];
            if evading && best > -INFINITY && !self.eval.may_answer_danger(pos, mv) {
                continue;
            }
            if qply > 0 && !evading {
                if let Some(k) = self.eval.capture_key(pos, mv) {
                    if keys[..n_keys].contains(&k) {
                        continue;
                    }
                    if n_keys < keys.len() {
                        keys[n_keys] = k;
                        n_keys += 1;
                    }
                }
            }
            let t = pos.quick_tactics(mv);
            // Delta pruning: a capture that cannot lift the score to alpha even with a margin
            // (not a quiet move: `generate_tactical` gives those only when they win).
            if let Some(margin) = delta_margin.filter(|_| {
                !evading && !t.wins && t.captures > 0 && t.promotion.is_none() && best > -MATE_BOUND
            }) {
                if best + self.capture_gain(t) + margin <= alpha && !self.eval.delta_exempt(pos, mv)
                {
                    continue;
                }
            }
            self.stats.q_searched += 1;
            let value = if t.wins {
                self.lines.enter(ply + 1);
                MATE - (ply as i32 + 1)
            } else {
                let undo = pos.make_move(mv);
                self.tt.prefetch(self.key(pos));
                let v = self.across(pos, side, alpha, beta, |s, pos, alpha, beta| {
                    s.quiescence(pos, ply + 1, qply + 1, alpha, beta, control)
                });
                pos.unmake_move(mv, undo);
                v
            };
            if self.aborted {
                break;
            }
            if value > best {
                best = value;
                if value > alpha {
                    alpha = value;
                    best_move = Some(mv);
                    self.lines.update(ply, mv);
                    if value >= beta {
                        break;
                    }
                }
            }
        }
        self.scores[ply] = scores;
        if self.aborted {
            return 0;
        }
        // Kept at depth 0, below every entry of the main search, where the game asks for it:
        // captures taken in another order reach the same positions (in Epaminondas, most
        // capture sequences). Elsewhere the table is only read here, as before.
        if table == QuiescenceTable::ReadWrite {
            let bound = Bound::of(best, alpha_orig, beta);
            let code = best_move.map(|m| pos.move_code(m));
            self.tt.store(key, ply, code, best, 0, bound);
        }
        best
    }
}

impl<P: Position, E: Evaluator<P>> Searcher<P> for Pvs<P, E> {
    fn search(
        &mut self,
        record: &Record<P>,
        limits: &Limits,
        control: &Control,
        report: &mut dyn FnMut(&Report),
    ) -> Option<P::Move> {
        let root = record.position().clone();
        let moves = root.moves();
        moves.first()?;
        self.prepare(&root);
        self.node_limit = node_limit(control, limits);
        self.tt.new_search();
        let max_depth = max_depth(control, limits, self.depth, MAX_DEPTH, UNLIMITED_DEPTH);
        let threads = self.options.threads.clamp(1, Options::MAX_THREADS);
        let best = self.with_helpers(record, &root, threads, |main| {
            main.deepen(record, &root, &moves, max_depth, control, report)
        });
        Some(best)
    }

    fn new_game(&mut self) {
        self.tt.clear();
        self.order.clear();
        self.path.clear();
        for h in &mut self.helpers {
            h.order.clear();
            h.path.clear();
        }
    }

    fn configure(&mut self, options: &Options) {
        if options.hash_mb != self.options.hash_mb {
            // The helpers share the old table: they are made again with the new one.
            self.helpers.clear();
            self.tt = Arc::new(Table::new(options.hash_mb));
        }
        self.options = options.clone();
    }
}

impl<P: Position, E: Evaluator<P>> Pvs<P, E> {
    /// Ready for a search of `root`.
    fn prepare(&mut self, root: &P) {
        self.root = root.to_move();
        self.players = root.player_names().len();
        self.salt = ROOT_SALTS[self.root as usize % ROOT_SALTS.len()];
        self.nodes = 0;
        self.stats = Stats::default();
        self.aborted = false;
        self.order.new_search();
    }

    /// One root search to `depth` plies, in an aspiration window around `previous` if given
    /// (widened until the score falls inside); `improved` gets each root move that beats the
    /// window's floor. The score (meaningless if aborted).
    fn root_search(
        &mut self,
        pos: &mut P,
        depth: u32,
        previous: Option<i32>,
        control: &Control,
        mut improved: impl FnMut(P::Move),
    ) -> i32 {
        let mut delta = ASPIRATION;
        let (mut alpha, mut beta) = match previous {
            Some(p) if depth >= 4 && p.abs() < MATE_BOUND => (p - delta, p + delta),
            _ => (-INFINITY, INFINITY),
        };
        loop {
            let frame = Frame {
                depth: depth as i32,
                ply: 0,
                alpha,
                beta,
                pv: true,
                null: false,
            };
            let v = self.node(pos, frame, control);
            if let Some(&mv) = self.lines.root().first() {
                // A move that beat the window's floor (searched in full even if the
                // iteration was cut short).
                improved(mv);
            }
            if self.aborted {
                return v;
            }
            if v <= alpha && alpha > -INFINITY {
                alpha = (v - delta).max(-INFINITY);
            } else if v >= beta && beta < INFINITY {
                beta = (v + delta).min(INFINITY);
            } else {
                return v;
            }
            delta *= 2;
            if delta > 1_000 {
                (alpha, beta) = (-INFINITY, INFINITY);
            }
        }
    }

    /// The main thread's iterative deepening of `root` (whose moves are `root_moves`, at least
    /// one), with `MultiPV` lines and reports; the move.
    fn deepen(
        &mut self,
        record: &Record<P>,
        root: &P,
        root_moves: &[P::Move],
        max_depth: u32,
        control: &Control,
        report: &mut dyn FnMut(&Report),
    ) -> P::Move {
        let lines = (self.options.multipv as usize).clamp(1, root_moves.len());
        let mut best = root_moves[0];
        let mut pos = root.clone();
        let mut previous: i32 = 0;
        // This depth's lines: score, principal variation.
        let mut found: Vec<(i32, Vec<P::Move>)> = Vec::with_capacity(lines);
        'deepening: for depth in 1..=max_depth {
            found.clear();
            self.excluded.clear();
            self.seldepth = 0;
            for line in 0..lines {
                self.path = history_hashes(record);
                let window = (line == 0).then_some(previous);
                let value = self.root_search(&mut pos, depth, window, control, |mv| {
                    if line == 0 {
                        best = mv;
                    }
                });
                if self.aborted {
                    break 'deepening;
                }
                if self.lines.root().is_empty() {
                    break;
                }
                let pv = self.lines.root().to_vec();
                self.excluded.push(pv[0]);
                found.push((value, pv));
            }
            self.excluded.clear();
            // Best first; the first line keeps its place among equals (it is the move played).
            found.sort_by_key(|(v, _)| std::cmp::Reverse(*v));
            let Some((value, line)) = found.first() else {
                break;
            };
            let value = *value;
            best = line[0];
            previous = value;
            for (i, (v, pv)) in found.iter().enumerate() {
                report(&Report {
                    depth,
                    seldepth: (self.seldepth as u32).max(depth),
                    multipv: i as u32 + 1,
                    score: Score::from_value(*v, self.players),
                    nodes: self.nodes + self.helper_nodes.load(Ordering::Relaxed),
                    time: control.elapsed(),
                    hashfull: Some(self.tt.hashfull()),
                    pv: texts(root, pv),
                });
            }
            // A forced result within the horizon: deeper searches cannot change it.
            if proven(value, depth) {
                break;
            }
            if control.past_soft() || control.should_stop(self.nodes) {
                break;
            }
        }
        self.excluded.clear();
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reductions_grow_with_depth_and_move_number() {
        let s = Pvs::<myrmidon_rules::games::reines::ReinesPosition, crate::eval::ReinesEval>::new(
            None,
            SearchPolicy::DEFAULT,
            &Options::default(),
        );
        assert_eq!(s.lmr[1][1], 0);
        assert!(s.lmr[3][3] >= 1);
        assert!(s.lmr[20][40] > s.lmr[3][3]);
    }
}
