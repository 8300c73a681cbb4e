//! Monte-Carlo tree search for any number of players: UCT (Kocsis and Szepesvári, 2006) in
//! which every node keeps each player's summed reward and the player to move picks the child
//! best for themselves (as max-n does), with the evaluation instead of random playouts:
//!
//! * a new leaf is valued by the capture search of max-n ([`super::MaxN`]) turned into each
//!   player's share of one point (a soft-max of the values: a win is 1, a draw 1/n each);
//! * progressive bias (Chaslot et al., 2008): when a node is expanded each child gets the
//!   static evaluation of its position as a prior, which counts as the child's value before
//!   it is visited and adds `BIAS · prior / (visits + 1)` after;
//! * a node is expanded on its second visit, and the tree is at most `Hash` MiB (then the
//!   leaves are only revisited).
//!
//! The move played is the most visited. With one thread and a node limit it is deterministic.
//! Nodes count every position the search looks at (tree steps, capture search, priors).

use myrmidon_rules::{Player, Position, Record};

use super::alphabeta::history_hashes;
use super::maxn::MaxN;
use super::multi::{mark_eliminated, node_limit, values_of, Values, MAX_PLAYERS};
use super::ordering::texts;
use super::{Options, Report, Searcher};
use crate::control::Control;
use crate::eval::Evaluator;
use crate::limits::Limits;
use crate::score::{Score, MATE_BOUND};

/// The exploration constant of UCT (rewards are points, 0 to 1).
const EXPLORATION: f32 = 0.5;
/// The weight of the prior (progressive bias).
const BIAS: f32 = 1.0;
/// Centipawns per unit of the soft-max that turns values into shares of a point.
const TEMPERATURE: f32 = 400.0;
/// Iterations a `go depth N` allows per unit of N (a depth means nothing here).
const ITERATIONS_PER_DEPTH: u64 = 2_000;
/// Iterations of a search that nothing else limits.
const UNLIMITED_ITERATIONS: u64 = 20_000;

#[derive(Clone, Copy)]
struct Node<M> {
    mv: M,
    first_child: u32,
    children: u32,
    visits: u32,
    expanded: bool,
    /// The player who made `mv`.
    mover: u8,
    /// The result is known here (the game is over, or a win is proven by the children, as in
    /// MCTS-Solver): `sum` holds it as shares, once, and is not added to.
    terminal: bool,
    /// The mover's prior share, from the static evaluation.
    prior: f32,
    sum: [f32; MAX_PLAYERS],
}

/// The Monte-Carlo tree search.
pub struct Mcts<P: Position, E> {
    leaf: MaxN<P, E>,
    options: Options,
    tree: Vec<Node<P::Move>>,
    capacity: usize,
    players: usize,
    root_player: usize,
    nodes: u64,
    path: Vec<u64>,
}

/// Each player's share of a point from their values.
fn shares(values: &Values, players: usize) -> [f32; MAX_PLAYERS] {
    let mut out = [0.0; MAX_PLAYERS];
    if players == 0 {
        return out;
    }
    let top = values[..players].iter().copied().max().unwrap_or(0);
    let mut total = 0.0;
    for p in 0..players {
        let x = ((values[p] - top) as f32 / TEMPERATURE).max(-60.0);
        out[p] = x.exp();
        total += out[p];
    }
    for x in out.iter_mut().take(players) {
        *x /= total;
    }
    out
}

/// The shares of a finished game: 1 to the winner, or 1/n each.
fn result_shares(winner: Option<Player>, players: usize) -> [f32; MAX_PLAYERS] {
    let mut out = [0.0; MAX_PLAYERS];
    match winner {
        Some(w) => out[w as usize % MAX_PLAYERS] = 1.0,
        None => {
            for x in out.iter_mut().take(players) {
                *x = 1.0 / players as f32;
            }
        }
    }
    out
}

impl<P: Position, E: Evaluator<P>> Mcts<P, E> {
    pub fn new(options: &Options) -> Self {
        Mcts::with_eval(E::default(), options)
    }

    pub fn with_eval(eval: E, options: &Options) -> Self {
        let capacity = (options.hash_mb.max(1) << 20) / std::mem::size_of::<Node<P::Move>>();
        Mcts {
            leaf: MaxN::with_eval(
                Some(1),
                eval,
                &Options {
                    hash_mb: 1,
                    ..options.clone()
                },
            ),
            options: options.clone(),
            tree: Vec::new(),
            capacity: capacity.max(1024),
            players: 2,
            root_player: 0,
            nodes: 0,
            path: Vec::new(),
        }
    }

    fn node(mv: P::Move) -> Node<P::Move> {
        Node {
            mv,
            first_child: 0,
            children: 0,
            visits: 0,
            expanded: false,
            mover: 0,
            terminal: false,
            prior: 0.0,
            sum: [0.0; MAX_PLAYERS],
        }
    }

    /// The value of `pos` for a finished game or a repetition, or `None` if play goes on.
    fn settled(&self, pos: &P) -> Option<[f32; MAX_PLAYERS]> {
        if let Some(o) = pos.draw_by_rule() {
            return Some(result_shares(o.winner(), self.players));
        }
        if self.path.contains(&pos.hash()) {
            return Some(result_shares(None, self.players));
        }
        None
    }

    /// Adds the children of `index` (whose position is `pos`), with their priors. False if the
    /// tree is full or the position has no move (then `index` is made terminal).
    fn expand(&mut self, index: usize, pos: &mut P) -> bool {
        let mut moves = P::MoveList::default();
        pos.generate(&mut moves);
        if moves.is_empty() {
            let shares = result_shares(pos.outcome_without_moves().winner(), self.players);
            let node = &mut self.tree[index];
            node.terminal = true;
            node.sum = shares;
            return false;
        }
        if self.tree.len() + moves.len() > self.capacity {
            return false;
        }
        let mover = pos.to_move() as usize;
        let first = self.tree.len() as u32;
        for &mv in moves.iter() {
            let mut child = Self::node(mv);
            child.mover = mover as u8;
            if pos.quick_tactics(mv).wins {
                child.terminal = true;
                child.sum = result_shares(Some(mover as Player), self.players);
                child.prior = 1.0;
            } else {
                let undo = pos.make_move(mv);
                self.nodes += 1;
                let mut v = values_of(self.leaf.eval(), pos, self.players);
                mark_eliminated(pos, self.players, 1, &mut v);
                child.prior = shares(&v, self.players)[mover];
                pos.unmake_move(mv, undo);
            }
            self.tree.push(child);
        }
        let node = &mut self.tree[index];
        node.first_child = first;
        node.children = moves.len() as u32;
        node.expanded = true;
        true
    }

    /// The child of `index` the player to move (`mover`) picks.
    fn select(&self, index: usize, mover: usize) -> usize {
        let node = &self.tree[index];
        let log = ((node.visits + 1) as f32).ln();
        let mut best = (f32::NEG_INFINITY, node.first_child as usize);
        for c in node.first_child as usize..(node.first_child + node.children) as usize {
            let child = &self.tree[c];
            let n = child.visits as f32;
            if child.terminal && child.sum[mover] >= 1.0 {
                // A proven win for the player to move: nothing else is worth a look.
                return c;
            }
            let q = if child.terminal {
                child.sum[mover]
            } else if child.visits > 0 {
                child.sum[mover] / n
            } else {
                child.prior
            };
            let score = q + EXPLORATION * (log / (n + 1.0)).sqrt() + BIAS * child.prior / (n + 1.0);
            if score > best.0 {
                best = (score, c);
            }
        }
        best.1
    }

    /// One iteration from the root: down the tree, a leaf valued, the value backed up.
    fn iterate(&mut self, root: &P, history: &[u64], stack: &mut Vec<usize>) {
        let mut pos = root.clone();
        self.path.clear();
        self.path.extend_from_slice(history);
        stack.clear();
        let mut index = 0;
        stack.push(0);
        let value = loop {
            let node = self.tree[index];
            if node.terminal {
                break node.sum;
            }
            if index != 0 {
                if let Some(v) = self.settled(&pos) {
                    break v;
                }
            }
            if !node.expanded {
                if node.visits == 0 && index != 0 {
                    let (v, n) = self.leaf.capture_values(&mut pos, stack.len());
                    self.nodes += n;
                    break shares(&v, self.players);
                }
                if !self.expand(index, &mut pos) {
                    let node = self.tree[index];
                    if node.terminal {
                        break node.sum;
                    }
                    // The tree is full: the leaf's mean again.
                    let n = node.visits.max(1) as f32;
                    let mut mean = node.sum;
                    for x in mean.iter_mut() {
                        *x /= n;
                    }
                    break mean;
                }
            }
            let mover = pos.to_move() as usize;
            let child = self.select(index, mover);
            self.path.push(pos.hash());
            pos.make_move(self.tree[child].mv);
            self.nodes += 1;
            index = child;
            stack.push(child);
        };
        for &i in stack.iter() {
            let node = &mut self.tree[i];
            node.visits += 1;
            if !node.terminal {
                for (s, v) in node.sum.iter_mut().zip(value) {
                    *s += v;
                }
            }
        }
        self.prove(stack);
    }

    /// The winner of a proven node, if any.
    fn proven(&self, index: usize) -> Option<usize> {
        let node = &self.tree[index];
        if !node.terminal {
            return None;
        }
        (0..self.players).find(|&p| node.sum[p] >= 1.0)
    }

    /// MCTS-Solver for any number of players, up the path just walked: a node is won by the
    /// player to move there if one child is won by them, and by a player `w` if every child
    /// is won by `w`.
    fn prove(&mut self, stack: &[usize]) {
        for pair in stack.windows(2).rev() {
            let (parent, child) = (pair[0], pair[1]);
            if self.tree[parent].terminal {
                continue;
            }
            let Some(w) = self.proven(child) else {
                return;
            };
            let node = self.tree[parent];
            let to_move = self.tree[child].mover as usize;
            let range = node.first_child as usize..(node.first_child + node.children) as usize;
            let won = w == to_move || range.clone().all(|c| self.proven(c) == Some(w));
            if !won {
                return;
            }
            let node = &mut self.tree[parent];
            node.terminal = true;
            node.sum = result_shares(Some(w as Player), self.players);
        }
    }

    /// The child of `index` (where `mover` is to move) to play: a proven win, else the most
    /// visited. `None` if not expanded.
    fn best_child(&self, index: usize, mover: usize) -> Option<usize> {
        let node = &self.tree[index];
        if !node.expanded || node.children == 0 {
            return None;
        }
        let range = node.first_child as usize..(node.first_child + node.children) as usize;
        let mut best: Option<usize> = None;
        for c in range {
            let better = match best {
                None => true,
                Some(b) => {
                    let (x, y) = (&self.tree[c], &self.tree[b]);
                    // A proven win first, then the visits.
                    let xw = x.terminal && x.sum[mover] >= 1.0;
                    let yw = y.terminal && y.sum[mover] >= 1.0;
                    (xw && !yw) || (xw == yw && x.visits > y.visits)
                }
            };
            if better {
                best = Some(c);
            }
        }
        best
    }

    fn report_now(&self, root: &P, control: &Control, report: &mut dyn FnMut(&Report)) {
        let mut line = Vec::new();
        let mut index = 0;
        let mut pos = root.clone();
        while let Some(c) = self.best_child(index, pos.to_move() as usize) {
            line.push(self.tree[c].mv);
            pos.make_move(self.tree[c].mv);
            index = c;
            if line.len() >= 32 {
                break;
            }
        }
        let Some(first) = self.best_child(0, self.root_player) else {
            return;
        };
        let child = &self.tree[first];
        let me = self.root_player;
        let q = if child.terminal {
            child.sum[me]
        } else {
            child.sum[me] / child.visits.max(1) as f32
        };
        let q = q.clamp(0.001, 0.999) as f64;
        // Back to centipawns: the share's odds against an even share.
        let even = 1.0 / self.players as f64;
        let cp = (TEMPERATURE as f64 * ((q / (1.0 - q)) / (even / (1.0 - even))).ln()) as i32;
        report(&Report {
            depth: line.len().max(1) as u32,
            seldepth: line.len().max(1) as u32,
            multipv: 1,
            score: Score::Cp(cp.clamp(-MATE_BOUND + 1, MATE_BOUND - 1)),
            nodes: self.nodes,
            time: control.elapsed(),
            hashfull: Some((self.tree.len() as u64 * 1000 / self.capacity as u64) as u32),
            pv: texts(root, &line),
        });
    }
}

impl<P: Position, E: Evaluator<P>> Searcher<P> for Mcts<P, E> {
    fn search(
        &mut self,
        record: &Record<P>,
        limits: &Limits,
        control: &Control,
        report: &mut dyn FnMut(&Report),
    ) -> Option<P::Move> {
        let root = record.position().clone();
        let moves = root.moves();
        let first = *moves.first()?;
        self.players = root.player_names().len().min(MAX_PLAYERS);
        self.root_player = root.to_move() as usize;
        self.leaf.prepare(&root);
        self.nodes = 0;
        self.tree.clear();
        self.tree.push(Self::node(first));
        let history = history_hashes(record);
        let node_limit = node_limit(control, limits);
        let iterations = match limits.depth {
            Some(d) => d as u64 * ITERATIONS_PER_DEPTH,
            None if limits.infinite
                || limits.nodes.is_some()
                || control.remaining().is_some()
                || control.node_limit().is_some() =>
            {
                u64::MAX
            }
            None => UNLIMITED_ITERATIONS,
        };
        let mut stack = Vec::with_capacity(64);
        let mut next_report = 1024u64;
        let mut done = 0u64;
        while done < iterations {
            if self.nodes >= node_limit || control.should_stop(self.nodes) || control.past_soft() {
                break;
            }
            self.iterate(&root, &history, &mut stack);
            done += 1;
            if done == next_report {
                self.report_now(&root, control, report);
                next_report *= 4;
            }
            // The root's result is proven: nothing to add.
            if self.tree[0].terminal {
                break;
            }
            // A proven win at the root: nothing to add.
            if let Some(c) = self.best_child(0, self.root_player) {
                let child = &self.tree[c];
                if child.terminal && child.sum[self.root_player] >= 1.0 {
                    break;
                }
            }
        }
        self.report_now(&root, control, report);
        Some(
            self.best_child(0, self.root_player)
                .map_or(first, |c| self.tree[c].mv),
        )
    }

    fn new_game(&mut self) {
        self.tree.clear();
        self.leaf.new_game();
    }

    fn configure(&mut self, options: &Options) {
        self.options = options.clone();
        self.capacity =
            ((options.hash_mb.max(1) << 20) / std::mem::size_of::<Node<P::Move>>()).max(1024);
    }
}
