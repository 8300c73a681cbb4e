//! Best-reply search (Schadd and Winands, "Best Reply Search for Multiplayer Games", 2011), in
//! its BRS+ form (Esser, Gras, Helmbold, van den Herik and Winands, 2013).
//!
//! The root player's moves alternate with *one* reply: the best, for the opponents, among the
//! moves of every opponent. The search is then an alpha-beta of two sides, from the root
//! player's view, and looks twice as deep for the root player as paranoid search does with
//! three players. BRS+ keeps the lines legal: when one opponent replies, each other opponent
//! plays the move its move ordering puts first (the table's move, the best capture, a killer),
//! so that turns keep their order. Iterative deepening; principal variation search at both
//! layers (the first move or reply with the full window, the others with a null window first);
//! a transposition table (keys salted by the root player) for both layers, whose move at a
//! reply layer also says which opponent replies first; captures by victim, killers and
//! history; an extension when the root player is in danger; and a capture search in the game's
//! own turn order at the leaves.
//!
//! A win the search finds against single replies is checked against every combination of the
//! opponents' moves before it is believed (best-reply search alone would claim wins that two
//! opponents answering together can stop).
//!
//! `depth` counts layers: one for the root player's move, one for the reply.

use myrmidon_rules::{Player, Position, Record};

use super::alphabeta::history_hashes;
use super::multi::{deepen, max_depth, node_limit, Iteration, MAX_PLAYERS};
use super::ordering::{Lines, Orderer, MAX_PLY};
use super::{Options, Report, Searcher};
use crate::control::Control;
use crate::eval::Evaluator;
use crate::limits::Limits;
use crate::score::{INFINITY, MATE, MATE_BOUND};
use crate::tt::{Bound, Table};

const MAX_DEPTH: u32 = 64;
const UNLIMITED_DEPTH: u32 = 4;
/// Plies of the capture search in which a player in danger looks at every move.
const QS_EVASION_PLIES: usize = 3;
/// Plies of the capture search.
const QS_PLIES: usize = 8;
/// Keys of reply layers (the root player's nodes use the position's key and the root's salt).
const REPLY_SALT: u64 = 0x2545_f491_4f6c_dd1d;
const ROOT_SALTS: [u64; MAX_PLAYERS] = [
    0x5bd1_e995_1234_5678,
    0x9e37_79b9_7f4a_7c15,
    0xc2b2_ae3d_27d4_eb4f,
    0x1656_67b1_9e37_79f9,
];

/// The best-reply search.
pub struct BestReply<P: Position, E> {
    depth: Option<u32>,
    eval: E,
    options: Options,
    tt: Table,
    order: Orderer<P>,
    lines: Lines<P::Move>,
    bufs: Vec<Vec<(i32, P::Move)>>,
    path: Vec<u64>,
    /// Root moves left out of this iteration (the lines already found, with `MultiPV`).
    excluded: Vec<P::Move>,
    nodes: u64,
    node_limit: u64,
    aborted: bool,
    players: usize,
    root: Player,
    salt: u64,
}

/// The moves made at a reply layer before the root player moves again (at most one per
/// opponent), with what takes each back.
struct Made<P: Position> {
    moves: [P::Move; MAX_PLAYERS],
    undos: Vec<P::Undo>,
}

impl<P: Position> Made<P> {
    fn new() -> Self {
        Made {
            moves: [P::Move::default(); MAX_PLAYERS],
            undos: Vec::with_capacity(MAX_PLAYERS),
        }
    }

    fn len(&self) -> usize {
        self.undos.len()
    }

    fn push(&mut self, pos: &mut P, mv: P::Move) {
        self.moves[self.undos.len()] = mv;
        self.undos.push(pos.make_move(mv));
    }

    /// Takes back the moves down to `len`.
    fn back_to(&mut self, pos: &mut P, len: usize) {
        while self.undos.len() > len {
            let undo = self.undos.pop().expect("len checked");
            pos.unmake_move(self.moves[self.undos.len()], undo);
        }
    }
}

impl<P: Position, E: Evaluator<P>> BestReply<P, E> {
    pub fn new(depth: Option<u32>, options: &Options) -> Self {
        BestReply::with_eval(depth, E::default(), options)
    }

    pub fn with_eval(depth: Option<u32>, eval: E, options: &Options) -> Self {
        BestReply {
            depth,
            eval,
            options: options.clone(),
            tt: Table::new(options.hash_mb),
            order: Orderer::default(),
            lines: Lines::default(),
            bufs: (0..=MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
            path: Vec::with_capacity(1024),
            excluded: Vec::new(),
            nodes: 0,
            node_limit: u64::MAX,
            aborted: false,
            players: 2,
            root: 0,
            salt: 0,
        }
    }

    fn enter(&mut self, ply: usize, control: &Control) -> bool {
        self.nodes += 1;
        self.lines.enter(ply);
        if self.nodes >= self.node_limit
            || (self.nodes & 1023 == 0 && control.should_stop(self.nodes))
        {
            self.aborted = true;
        }
        !self.aborted
    }

    /// The root player's value of a finished game (or `None` if it goes on): wins and losses
    /// `ply` plies from the root, draws 0. Checks the draw rules, the repetitions of the path
    /// and the root player's elimination; not the moves (see `no_moves`).
    fn settled(&self, pos: &P, ply: usize) -> Option<i32> {
        if let Some(o) = pos.draw_by_rule() {
            return Some(self.outcome(o.winner(), ply));
        }
        if self.path.contains(&pos.hash()) {
            return Some(0);
        }
        if pos.eliminated(self.root).is_some() {
            return Some(-(MATE - ply as i32));
        }
        None
    }

    fn outcome(&self, winner: Option<Player>, ply: usize) -> i32 {
        match winner {
            Some(w) if w == self.root => MATE - ply as i32,
            Some(_) => -(MATE - ply as i32),
            None => 0,
        }
    }

    fn sorted(&mut self, pos: &P, ply: usize, tt_move: Option<P::Move>) -> P::MoveList {
        let mut moves = P::MoveList::default();
        pos.generate(&mut moves);
        let slot = ply.min(MAX_PLY);
        let mut buf = std::mem::take(&mut self.bufs[slot]);
        self.order
            .sort(&self.eval, pos, &mut moves, tt_move, ply, &mut buf);
        self.bufs[slot] = buf;
        moves
    }

    /// A node where the root player moves.
    fn max_node(
        &mut self,
        pos: &mut P,
        mut depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        control: &Control,
    ) -> i32 {
        let danger = self.eval.in_danger(pos);
        if danger && ply < MAX_PLY / 2 {
            depth += 1;
        }
        if depth <= 0 {
            return self.quiescence(pos, ply, 0, alpha, beta, control);
        }
        if !self.enter(ply, control) {
            return 0;
        }
        if ply > 0 {
            if let Some(v) = self.settled(pos, ply) {
                return v;
            }
        }
        if ply >= MAX_PLY - 8 {
            return self.eval.evaluate(pos, self.root);
        }
        let key = pos.hash() ^ self.salt;
        let mut tt_move = None;
        if let Some(hit) = self.tt.probe(key, ply) {
            if ply > 0 && hit.depth as i32 >= depth && hit.cuts(alpha, beta) {
                return hit.score;
            }
            tt_move = hit.code.and_then(|c| pos.move_from_code(c));
        }
        let moves = self.sorted(pos, ply, tt_move);
        if moves.is_empty() {
            return self.outcome(pos.outcome_without_moves().winner(), ply);
        }
        let alpha_orig = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        self.path.push(pos.hash());
        let mut searched = 0;
        for (i, &mv) in moves.iter().enumerate() {
            if ply == 0 && self.excluded.contains(&mv) {
                continue;
            }
            let v = if pos.quick_tactics(mv).wins {
                self.lines.enter(ply + 1);
                MATE - (ply as i32 + 1)
            } else {
                let undo = pos.make_move(mv);
                // Principal variation search: the first move with the full window, the others
                // with a null window first, again in full only if they beat alpha.
                let mut full = true;
                let mut v = alpha;
                if searched > 0 {
                    v = self.reply_layer(pos, depth - 1, ply + 1, alpha, alpha + 1, control);
                    full = v > alpha && v < beta;
                }
                if full && !self.aborted {
                    v = self.reply_layer(pos, depth - 1, ply + 1, alpha, beta, control);
                }
                pos.unmake_move(mv, undo);
                v
            };
            searched += 1;
            if self.aborted {
                break;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    best_move = Some(mv);
                    self.lines.update(ply, mv);
                    if v >= beta {
                        self.order.reward(pos, mv, depth, ply, &moves[..i]);
                        break;
                    }
                }
            }
        }
        self.path.pop();
        if self.aborted {
            return best.max(-INFINITY + 1);
        }
        let bound = Bound::of(best, alpha_orig, beta);
        if ply > 0 || self.excluded.is_empty() {
            let code = best_move.map(|m| pos.move_code(m));
            self.tt
                .store(key, ply, code, best, depth.clamp(0, 255) as u8, bound);
        }
        best
    }

    /// The opponents' layer: the best reply (lowest for the root player) over every opponent's
    /// moves, the other opponents playing their first-ordered move.
    fn reply_layer(
        &mut self,
        pos: &mut P,
        depth: i32,
        ply: usize,
        alpha: i32,
        mut beta: i32,
        control: &Control,
    ) -> i32 {
        if depth <= 0 {
            return self.quiescence(pos, ply, 0, alpha, beta, control);
        }
        if !self.enter(ply, control) {
            return 0;
        }
        if let Some(v) = self.settled(pos, ply) {
            return v;
        }
        if ply >= MAX_PLY - 8 {
            return self.eval.evaluate(pos, self.root);
        }
        let key = pos.hash() ^ self.salt ^ REPLY_SALT;
        let mut tt_code = None;
        if let Some(hit) = self.tt.probe(key, ply) {
            if hit.depth as i32 >= depth && hit.cuts(alpha, beta) {
                return hit.score;
            }
            tt_code = hit.code;
        }
        let opponents = self.players - 1;
        // The replier whose move was best here before goes first: the first opponent if the
        // table's move is one of its moves, else the others before it.
        let mut repliers = [0usize; MAX_PLAYERS];
        for (i, r) in repliers.iter_mut().enumerate().take(opponents) {
            *r = i;
        }
        if let Some(code) = tt_code {
            if opponents > 1 && pos.move_from_code(code).is_none() {
                repliers[..opponents].rotate_left(1);
            }
        }
        let (alpha_orig, beta_orig) = (alpha, beta);
        let mut best = INFINITY;
        let mut best_code = None;
        let mut searched = 0;
        let mut made = Made::<P>::new();
        self.path.push(pos.hash());
        'opponents: for &replier in &repliers[..opponents] {
            // The opponents before the replier play their default moves.
            made.back_to(pos, 0);
            let mut ended = None;
            for _ in 0..replier {
                match self.default_move(pos, ply + made.len(), made.len() > 0) {
                    Ok(mv) => made.push(pos, mv),
                    Err(v) => {
                        ended = Some(v);
                        break;
                    }
                }
            }
            let here = ply + made.len();
            if ended.is_none() && pos.to_move() == self.root {
                continue;
            }
            // (The layer's own position was checked on entry.)
            if ended.is_none() && made.len() > 0 {
                ended = self.settled(pos, here);
            }
            let moves = if ended.is_none() {
                let tt_move = tt_code.and_then(|c| pos.move_from_code(c));
                self.sorted(pos, here, tt_move)
            } else {
                P::MoveList::default()
            };
            if ended.is_none() && moves.is_empty() {
                ended = Some(self.outcome(pos.outcome_without_moves().winner(), here));
            }
            if let Some(v) = ended {
                // The game ended before or at the replier's turn: that is its value.
                if v < best {
                    best = v;
                    best_code = None;
                    beta = beta.min(v);
                    if best <= alpha {
                        break 'opponents;
                    }
                }
                continue;
            }
            let before = made.len();
            for (i, &mv) in moves.iter().enumerate() {
                let v = if pos.quick_tactics(mv).wins {
                    self.outcome(Some(pos.to_move()), here + 1)
                } else {
                    made.push(pos, mv);
                    // The opponents after the replier play their default moves.
                    let mut v = None;
                    while pos.to_move() != self.root {
                        match self.default_move(pos, ply + made.len(), true) {
                            Ok(d) => made.push(pos, d),
                            Err(end) => {
                                v = Some(end);
                                break;
                            }
                        }
                    }
                    let child = ply + made.len();
                    let v = match v {
                        Some(v) => v,
                        None => {
                            self.lines.enter(child);
                            // Principal variation search, as in `max_node`.
                            let mut full = true;
                            let mut v = beta;
                            if searched > 0 {
                                v = self.max_node(pos, depth - 1, child, beta - 1, beta, control);
                                full = v < beta && v > alpha;
                            }
                            if full && !self.aborted {
                                self.lines.enter(child);
                                v = self.max_node(pos, depth - 1, child, alpha, beta, control);
                            }
                            v
                        }
                    };
                    searched += 1;
                    if v < best && !self.aborted {
                        self.lines
                            .update_with(ply, &made.moves[..made.len()], child);
                    }
                    made.back_to(pos, before);
                    v
                };
                if self.aborted {
                    break 'opponents;
                }
                if v < best {
                    best = v;
                    best_code = Some(pos.move_code(mv));
                    if v < beta {
                        beta = v;
                    }
                    if best <= alpha {
                        self.order.reward(pos, mv, depth, here, &moves[..i]);
                        break 'opponents;
                    }
                }
            }
        }
        made.back_to(pos, 0);
        self.path.pop();
        if self.aborted {
            return 0;
        }
        if best >= MATE_BOUND && best > alpha {
            // A win claimed against single replies may need both opponents to answer at once:
            // proved (or refuted) against every combination of their moves.
            best = self.exact_replies(pos, depth, ply, alpha, beta, true, control);
            if self.aborted {
                return 0;
            }
        }
        // From the root player's view: at or below alpha an upper bound, at or above beta a
        // lower one.
        let bound = Bound::of(best, alpha_orig, beta_orig);
        self.tt
            .store(key, ply, best_code, best, depth.clamp(0, 255) as u8, bound);
        best
    }

    /// The opponents' turns in full, every move of each (paranoid), down to the root player's
    /// next turn at `depth - 1`; from the root player's view.
    #[allow(clippy::too_many_arguments)]
    fn exact_replies(
        &mut self,
        pos: &mut P,
        depth: i32,
        ply: usize,
        alpha: i32,
        mut beta: i32,
        first: bool,
        control: &Control,
    ) -> i32 {
        if pos.to_move() == self.root {
            return self.max_node(pos, depth - 1, ply, alpha, beta, control);
        }
        if !self.enter(ply, control) {
            return 0;
        }
        if !first {
            if let Some(v) = self.settled(pos, ply) {
                return v;
            }
        }
        let moves = self.sorted(pos, ply, None);
        if moves.is_empty() {
            return self.outcome(pos.outcome_without_moves().winner(), ply);
        }
        let mut best = INFINITY;
        self.path.push(pos.hash());
        for &mv in moves.iter() {
            let v = if pos.quick_tactics(mv).wins {
                self.outcome(Some(pos.to_move()), ply + 1)
            } else {
                let undo = pos.make_move(mv);
                let v = self.exact_replies(pos, depth, ply + 1, alpha, beta, false, control);
                pos.unmake_move(mv, undo);
                v
            };
            if self.aborted {
                break;
            }
            if v < best {
                best = v;
                beta = beta.min(v);
                if best <= alpha {
                    break;
                }
            }
        }
        self.path.pop();
        if self.aborted {
            return 0;
        }
        best
    }

    /// The move of an opponent who does not reply: the one its ordering puts first. `Err`
    /// with the root player's value when the game ends instead (no move, a draw rule, or that
    /// move wins). `fresh`: `pos` is not the layer's own position (checked on entry, and on
    /// the path, where it would count as a repetition).
    fn default_move(&mut self, pos: &P, ply: usize, fresh: bool) -> Result<P::Move, i32> {
        if fresh {
            if let Some(v) = self.settled(pos, ply) {
                return Err(v);
            }
        }
        let tt_move = None;
        match self.order.first(&self.eval, pos, tt_move, ply) {
            None => Err(self.outcome(pos.outcome_without_moves().winner(), ply)),
            Some(mv) if pos.quick_tactics(mv).wins => {
                Err(self.outcome(Some(pos.to_move()), ply + 1))
            }
            Some(mv) => Ok(mv),
        }
    }

    /// A capture search in the game's turn order: the root player maximises, the others
    /// minimise, and everyone may stand pat (or must answer when in danger).
    fn quiescence(
        &mut self,
        pos: &mut P,
        ply: usize,
        qply: usize,
        mut alpha: i32,
        mut beta: i32,
        control: &Control,
    ) -> i32 {
        if !self.enter(ply, control) {
            return 0;
        }
        if let Some(o) = pos.draw_by_rule() {
            return self.outcome(o.winner(), ply);
        }
        if pos.eliminated(self.root).is_some() {
            return -(MATE - ply as i32);
        }
        let maximising = pos.to_move() == self.root;
        if ply >= MAX_PLY - 1 || qply >= QS_PLIES {
            return self.eval.evaluate(pos, self.root);
        }
        let evading = qply < QS_EVASION_PLIES && self.eval.in_danger(pos);
        let mut moves = P::MoveList::default();
        let mut best;
        if evading {
            pos.generate(&mut moves);
            if moves.is_empty() {
                return self.outcome(pos.outcome_without_moves().winner(), ply);
            }
            best = if maximising { -INFINITY } else { INFINITY };
        } else {
            let stand = self.eval.evaluate(pos, self.root);
            if maximising {
                if stand >= beta {
                    return stand;
                }
                alpha = alpha.max(stand);
            } else {
                if stand <= alpha {
                    return stand;
                }
                beta = beta.min(stand);
            }
            best = stand;
            if qply == 0 {
                pos.generate_tactical(&mut moves);
            } else {
                pos.generate_captures(&mut moves);
            }
        }
        let slot = ply.min(MAX_PLY);
        let mut buf = std::mem::take(&mut self.bufs[slot]);
        self.order
            .sort(&self.eval, pos, &mut moves, None, MAX_PLY, &mut buf);
        self.bufs[slot] = buf;
        for &mv in moves.iter() {
            let v = if pos.quick_tactics(mv).wins {
                self.lines.enter(ply + 1);
                self.outcome(Some(pos.to_move()), ply + 1)
            } else {
                let undo = pos.make_move(mv);
                let v = self.quiescence(pos, ply + 1, qply + 1, alpha, beta, control);
                pos.unmake_move(mv, undo);
                v
            };
            if self.aborted {
                break;
            }
            if maximising {
                if v > best {
                    best = v;
                    if v > alpha {
                        alpha = v;
                        self.lines.update(ply, mv);
                        if v >= beta {
                            break;
                        }
                    }
                }
            } else if v < best {
                best = v;
                if v < beta {
                    beta = v;
                    self.lines.update(ply, mv);
                    if v <= alpha {
                        break;
                    }
                }
            }
        }
        if self.aborted {
            return 0;
        }
        best
    }
}

impl<P: Position, E: Evaluator<P>> Searcher<P> for BestReply<P, E> {
    fn search(
        &mut self,
        record: &Record<P>,
        limits: &Limits,
        control: &Control,
        report: &mut dyn FnMut(&Report),
    ) -> Option<P::Move> {
        let root = record.position().clone();
        let first = *root.moves().first()?;
        self.root = root.to_move();
        self.players = root.player_names().len().min(MAX_PLAYERS);
        self.salt = ROOT_SALTS[self.root as usize % MAX_PLAYERS];
        self.nodes = 0;
        self.aborted = false;
        self.order.new_search();
        self.tt.new_search();
        self.node_limit = node_limit(control, limits);
        let max_depth = max_depth(control, limits, self.depth, MAX_DEPTH, UNLIMITED_DEPTH);
        let history = history_hashes(record);
        let lines = self.options.multipv.max(1) as usize;
        let nodes = std::cell::Cell::new(0u64);
        let full = std::cell::Cell::new(0u32);
        let this = &mut *self;
        let nodes_ref = &nodes;
        let full_ref = &full;
        let best = deepen(
            &root,
            first,
            max_depth,
            lines,
            control,
            report,
            &|| nodes_ref.get(),
            &|| Some(full_ref.get()),
            |depth, excluded| {
                this.excluded.clear();
                this.excluded.extend_from_slice(excluded);
                this.path.clone_from(&history);
                let mut pos = root.clone();
                let v = this.max_node(&mut pos, depth as i32, 0, -INFINITY, INFINITY, control);
                nodes_ref.set(this.nodes);
                full_ref.set(this.tt.hashfull());
                Iteration {
                    value: v,
                    line: this.lines.root().to_vec(),
                    aborted: this.aborted,
                }
            },
        );
        Some(best)
    }

    fn new_game(&mut self) {
        self.tt.clear();
        self.order.clear();
    }

    fn configure(&mut self, options: &Options) {
        if options.hash_mb != self.options.hash_mb {
            self.tt = Table::new(options.hash_mb);
        }
        self.options = options.clone();
    }
}
