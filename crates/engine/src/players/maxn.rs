//! Max-n (Luckhardt and Irani, 1986): every player, at their turn, picks the move that is best
//! for themselves, each node's value being a vector of every player's value. Shallow pruning
//! (Korf, 1991): the values of a leaf sum to 0 or less and none is below a loss, so once the
//! player to move has secured enough, the player above cannot get more than they already have
//! and the node is left. Iterative deepening with the table's move first, captures by victim,
//! killers and history; a capture search (every player may stand pat) at the leaves.
//!
//! With two players max-n is negamax without the window; the paranoid search ([`super::Pvs`])
//! is then better and is what `search` plays.

use myrmidon_rules::{Player, Position, Record};

use super::alphabeta::history_hashes;
use super::multi::{
    deepen, mark_eliminated, max_depth, node_limit, outcome_values, result_values, values_of,
    Iteration, Values,
};
use super::ordering::{Lines, Orderer, MAX_PLY};
use super::{Options, Report, Searcher};
use crate::control::Control;
use crate::eval::Evaluator;
use crate::limits::Limits;
use crate::score::MATE;
use crate::tt::{Bound, Table};

/// The deepest iteration.
const MAX_DEPTH: u32 = 64;
/// The depth of a search that nothing else limits.
const UNLIMITED_DEPTH: u32 = 4;
/// Plies of the capture search at the leaves.
const QS_PLIES: usize = 3;
/// Plies of that search in which a player in danger looks at every move.
const QS_EVASION_PLIES: usize = 1;
/// Static values are kept within this, below every loss, so that shallow pruning's bound
/// holds.
const EVAL_LIMIT: i32 = 10_000;

/// The max-n search.
pub struct MaxN<P: Position, E> {
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
    /// The lowest value a player can have (a loss), for shallow pruning.
    floor: i32,
}

impl<P: Position, E: Evaluator<P>> MaxN<P, E> {
    pub fn new(depth: Option<u32>, options: &Options) -> Self {
        MaxN::with_eval(depth, E::default(), options)
    }

    pub fn with_eval(depth: Option<u32>, eval: E, options: &Options) -> Self {
        MaxN {
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
            floor: -MATE,
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

    fn leaf(&self, pos: &P, ply: usize) -> Values {
        let mut v = values_of(&self.eval, pos, self.players);
        for x in v.iter_mut() {
            *x = (*x).clamp(-EVAL_LIMIT, EVAL_LIMIT);
        }
        mark_eliminated(pos, self.players, ply, &mut v);
        v
    }

    /// The values if the player to move wins with this move, `ply` plies from the root.
    fn win(&self, pos: &P, ply: usize) -> Values {
        result_values(Some(pos.to_move()), self.players, ply + 1)
    }

    /// Shallow pruning: with `best` secured by the player to move `i`, the parent's player `j`
    /// gets at most `−best[i] − (n − 2) · floor` here; if that is no more than they have
    /// (`parent`), this node cannot change their choice.
    fn cut(&self, best: &Values, i: usize, parent: Option<(usize, i32)>) -> bool {
        match parent {
            Some((j, have)) if j != i => {
                let most = -(best[i] as i64) - (self.players as i64 - 2) * self.floor as i64;
                most <= have as i64
            }
            _ => false,
        }
    }

    fn node(
        &mut self,
        pos: &mut P,
        depth: i32,
        ply: usize,
        parent: Option<(usize, i32)>,
        control: &Control,
    ) -> Values {
        if depth <= 0 {
            return self.quiescence(pos, ply, 0, control);
        }
        if !self.enter(ply, control) {
            return [0; 4];
        }
        if ply > 0 {
            if let Some(o) = pos.draw_by_rule() {
                return outcome_values(o, self.players, ply);
            }
            if self.path.contains(&pos.hash()) {
                return [0; 4];
            }
            if pos.eliminated(self.root).is_some() {
                return self.leaf(pos, ply);
            }
        }
        if ply >= MAX_PLY - 1 {
            return self.leaf(pos, ply);
        }
        let mut moves = P::MoveList::default();
        pos.generate(&mut moves);
        if moves.is_empty() {
            return outcome_values(pos.outcome_without_moves(), self.players, ply);
        }
        let key = pos.hash();
        let tt_move = self
            .tt
            .probe(key, ply)
            .and_then(|h| h.code)
            .and_then(|c| pos.move_from_code(c));
        let mut buf = std::mem::take(&mut self.bufs[ply]);
        self.order
            .sort(&self.eval, pos, &mut moves, tt_move, ply, &mut buf);
        self.bufs[ply] = buf;
        let me = pos.to_move() as usize;
        let mut best: Option<Values> = None;
        let mut best_move = None;
        self.path.push(key);
        for &mv in moves.iter() {
            if ply == 0 && self.excluded.contains(&mv) {
                continue;
            }
            let v = if pos.quick_tactics(mv).wins {
                self.lines.enter(ply + 1);
                self.win(pos, ply)
            } else {
                let undo = pos.make_move(mv);
                let have = best.map(|b| (me, b[me]));
                let v = self.node(pos, depth - 1, ply + 1, have, control);
                pos.unmake_move(mv, undo);
                v
            };
            if self.aborted {
                break;
            }
            if best.is_none_or(|b| v[me] > b[me]) {
                best = Some(v);
                best_move = Some(mv);
                self.lines.update(ply, mv);
                if self.cut(&v, me, parent) {
                    break;
                }
            }
        }
        self.path.pop();
        if self.aborted {
            return best.unwrap_or([0; 4]);
        }
        if let Some(mv) = best_move {
            let tried = moves.iter().position(|&m| m == mv).unwrap_or(0);
            self.order.reward(pos, mv, depth, ply, &moves[..tried]);
            self.tt.store(
                key,
                ply,
                Some(pos.move_code(mv)),
                0,
                depth.clamp(0, 255) as u8,
                Bound::Exact,
            );
        }
        best.unwrap_or([0; 4])
    }

    fn quiescence(&mut self, pos: &mut P, ply: usize, qply: usize, control: &Control) -> Values {
        if !self.enter(ply, control) {
            return [0; 4];
        }
        if let Some(o) = pos.draw_by_rule() {
            return outcome_values(o, self.players, ply);
        }
        if ply >= MAX_PLY - 1 || pos.eliminated(self.root).is_some() {
            return self.leaf(pos, ply);
        }
        let me = pos.to_move() as usize;
        let evading = qply < QS_EVASION_PLIES && self.eval.in_danger(pos);
        let mut moves = P::MoveList::default();
        let mut best = None;
        if evading {
            pos.generate(&mut moves);
            if moves.is_empty() {
                return outcome_values(pos.outcome_without_moves(), self.players, ply);
            }
        } else {
            let stand = self.leaf(pos, ply);
            if qply >= QS_PLIES {
                return stand;
            }
            best = Some(stand);
            if qply == 0 {
                pos.generate_tactical(&mut moves);
            } else {
                pos.generate_captures(&mut moves);
            }
        }
        let mut buf = std::mem::take(&mut self.bufs[ply]);
        self.order
            .sort(&self.eval, pos, &mut moves, None, MAX_PLY, &mut buf);
        self.bufs[ply] = buf;
        for &mv in moves.iter() {
            let v = if pos.quick_tactics(mv).wins {
                self.lines.enter(ply + 1);
                self.win(pos, ply)
            } else {
                let undo = pos.make_move(mv);
                let v = self.quiescence(pos, ply + 1, qply + 1, control);
                pos.unmake_move(mv, undo);
                v
            };
            if self.aborted {
                break;
            }
            if best.is_none_or(|b: Values| v[me] > b[me]) {
                best = Some(v);
                self.lines.update(ply, mv);
            }
        }
        best.unwrap_or([0; 4])
    }
}

impl<P: Position, E: Evaluator<P>> MaxN<P, E> {
    /// Ready to search positions of `root`'s game for `root`'s player to move.
    pub(super) fn prepare(&mut self, root: &P) {
        self.root = root.to_move();
        self.players = root.player_names().len().min(super::multi::MAX_PLAYERS);
        self.floor = -MATE / (self.players as i32 - 1).max(1);
        self.nodes = 0;
        self.aborted = false;
    }

    /// Every player's value of `pos` by the capture search alone (`ply` plies from the root),
    /// and the nodes it took. For the leaves of Monte-Carlo tree search.
    pub(super) fn capture_values(&mut self, pos: &mut P, ply: usize) -> (Values, u64) {
        let before = self.nodes;
        self.aborted = false;
        self.node_limit = u64::MAX;
        let v = self.quiescence(pos, ply.min(MAX_PLY / 2), 0, &Control::unlimited());
        (v, self.nodes - before)
    }

    /// The evaluator.
    pub(super) fn eval(&self) -> &E {
        &self.eval
    }
}

impl<P: Position, E: Evaluator<P>> Searcher<P> for MaxN<P, E> {
    fn search(
        &mut self,
        record: &Record<P>,
        limits: &Limits,
        control: &Control,
        report: &mut dyn FnMut(&Report),
    ) -> Option<P::Move> {
        let root = record.position().clone();
        let first = *root.moves().first()?;
        self.prepare(&root);
        self.order.new_search();
        self.tt.new_search();
        self.node_limit = node_limit(control, limits);
        let max_depth = max_depth(control, limits, self.depth, MAX_DEPTH, UNLIMITED_DEPTH);
        let history = history_hashes(record);
        let lines = self.options.multipv.max(1) as usize;
        let nodes = std::cell::Cell::new(0u64);
        let full = std::cell::Cell::new(0u32);
        let root_player = self.root as usize;
        let best = {
            let this = &mut *self;
            let nodes_ref = &nodes;
            let full_ref = &full;
            deepen(
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
                    let v = this.node(&mut pos, depth as i32, 0, None, control);
                    nodes_ref.set(this.nodes);
                    full_ref.set(this.tt.hashfull());
                    // A cut iteration's line is kept only if a root move was searched in full
                    // (the first, the last iteration's best, is searched first).
                    let line = this.lines.root().to_vec();
                    Iteration {
                        value: v[root_player],
                        line,
                        aborted: this.aborted,
                    }
                },
            )
        };
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
