//! The alpha-beta baseline: minimax with alpha-beta pruning to a fixed depth, counting material,
//! with iterative deepening so that a clock or `stop` can end it early. With three players it is
//! *paranoid*: every other player is assumed to play against the player to move at the root.
//! No transposition table, no quiescence: the strong search of the next issue has them.

use myrmidon_rules::record::Event;
use myrmidon_rules::{Player, Position, Record};

use super::ordering::texts;
use super::{Options, Report, Searcher};
use crate::control::Control;
use crate::eval::Evaluator;
use crate::limits::Limits;
use crate::score::{Score, INFINITY, MATE};
use myrmidon_rules::Outcome;

/// The deepest ply the search tables hold.
const MAX_PLY: usize = 64;

pub struct AlphaBeta<P: Position, E> {
    depth: u32,
    eval: E,
    options: Options,
    /// Hashes of the positions before the current node since the last irreversible move, in
    /// the game then along the search path, for the repetition draw.
    path: Vec<u64>,
    pv: Vec<[P::Move; MAX_PLY]>,
    pv_len: [usize; MAX_PLY + 1],
    nodes: u64,
    seldepth: usize,
    aborted: bool,
    root_player: Player,
}

impl<P: Position, E: Evaluator<P>> AlphaBeta<P, E> {
    pub fn new(depth: u32, options: &Options) -> Self {
        AlphaBeta {
            depth: depth.max(1),
            eval: E::baseline(),
            options: options.clone(),
            path: Vec::new(),
            pv: vec![[P::Move::default(); MAX_PLY]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            nodes: 0,
            seldepth: 0,
            aborted: false,
            root_player: 0,
        }
    }

    /// The same player with this evaluator (tuned weights) instead of the default one.
    pub fn with_eval(depth: u32, eval: E, options: &Options) -> Self {
        AlphaBeta {
            eval,
            ..Self::new(depth, options)
        }
    }

    /// The score of a finished game `ply` plies from the root, for the root player.
    fn outcome_value(&self, outcome: Outcome, ply: usize) -> i32 {
        match outcome.winner() {
            Some(w) if w == self.root_player => MATE - ply as i32,
            Some(_) => -(MATE - ply as i32),
            None => 0,
        }
    }

    fn node(
        &mut self,
        pos: &mut P,
        depth: u32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        control: &Control,
    ) -> i32 {
        self.nodes += 1;
        self.pv_len[ply] = ply;
        self.seldepth = self.seldepth.max(ply);
        if self.nodes & 1023 == 0 && control.should_stop(self.nodes) {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        if let Some(o) = pos.draw_by_rule() {
            return self.outcome_value(o, ply);
        }
        if self.path.contains(&pos.hash()) {
            return 0;
        }
        if pos.eliminated(self.root_player).is_some() {
            return -(MATE - ply as i32);
        }
        let mut moves = pos.moves();
        if moves.is_empty() {
            return self.outcome_value(pos.outcome_without_moves(), ply);
        }
        if depth == 0 || ply >= MAX_PLY {
            return self.eval.baseline_value(pos, self.root_player);
        }
        order(pos, &mut moves);
        let maximizing = pos.to_move() == self.root_player;
        let mut best = if maximizing { -INFINITY } else { INFINITY };
        self.path.push(pos.hash());
        for &mv in moves.iter() {
            let undo = pos.make_move(mv);
            let value = self.node(pos, depth - 1, ply + 1, alpha, beta, control);
            pos.unmake_move(mv, undo);
            if self.aborted {
                break;
            }
            let better = if maximizing {
                value > best
            } else {
                value < best
            };
            if better {
                best = value;
                self.update_pv(ply, mv);
            }
            if maximizing {
                alpha = alpha.max(value);
            } else {
                beta = beta.min(value);
            }
            if alpha >= beta {
                break;
            }
        }
        self.path.pop();
        best
    }

    fn update_pv(&mut self, ply: usize, mv: P::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        head[ply][ply] = mv;
        head[ply][ply + 1..child_len].copy_from_slice(&tail[0][ply + 1..child_len]);
        self.pv_len[ply] = child_len;
    }
}

/// Captures and other tactical moves first, the most pieces taken first.
fn order<P: Position>(pos: &P, moves: &mut [P::Move]) {
    moves.sort_by_cached_key(|&mv| {
        let t = pos.tactics(mv);
        (!t.wins, !t.is_tactical(), std::cmp::Reverse(t.captures))
    });
}

/// The hashes of the game's positions before the current one, back to the last irreversible
/// step: the positions a search line could repeat.
pub(super) fn history_hashes<P: Position>(record: &Record<P>) -> Vec<u64> {
    let positions = record.positions();
    let mut start = 0;
    for (i, event) in record.events().iter().enumerate() {
        match *event {
            Event::Move(mv) | Event::AutoPass(mv) if positions[i].is_irreversible(mv) => {
                start = i + 1
            }
            Event::Dropout(..) => start = i + 1,
            _ => {}
        }
    }
    positions[start..positions.len() - 1]
        .iter()
        .map(|p| p.hash())
        .collect()
}

impl<P: Position, E: Evaluator<P>> Searcher<P> for AlphaBeta<P, E> {
    fn search(
        &mut self,
        record: &Record<P>,
        limits: &Limits,
        control: &Control,
        report: &mut dyn FnMut(&Report),
    ) -> Option<P::Move> {
        let root = record.position().clone();
        let players = root.player_names().len();
        self.root_player = root.to_move();
        self.nodes = 0;
        self.aborted = false;
        let mut root_moves: Vec<(P::Move, i32)> = root.moves().iter().map(|&m| (m, 0)).collect();
        if root_moves.is_empty() {
            return None;
        }
        {
            let mut list: Vec<P::Move> = root_moves.iter().map(|&(m, _)| m).collect();
            order(&root, &mut list);
            root_moves = list.into_iter().map(|m| (m, 0)).collect();
        }
        let max_depth = limits
            .depth
            .unwrap_or(if limits.infinite {
                crate::players::PlayerSpec::MAX_DEPTH
            } else {
                self.depth
            })
            .clamp(1, MAX_PLY as u32 - 1);
        let multipv = (self.options.multipv as usize).clamp(1, root_moves.len());
        let mut best = root_moves[0].0;
        let mut pos = root.clone();
        for depth in 1..=max_depth {
            self.path = history_hashes(record);
            self.path.push(root.hash());
            self.seldepth = 0;
            let mut lines: Vec<(P::Move, i32, Vec<P::Move>)> = Vec::new();
            let mut alpha = -INFINITY;
            for &(mv, _) in &root_moves {
                let undo = pos.make_move(mv);
                // With several lines wanted, every root move gets an exact score.
                let floor = if multipv > 1 { -INFINITY } else { alpha };
                let value = self.node(&mut pos, depth - 1, 1, floor, INFINITY, control);
                pos.unmake_move(mv, undo);
                if self.aborted {
                    break;
                }
                let mut line = vec![mv];
                line.extend_from_slice(&self.pv[1][1..self.pv_len[1].max(1)]);
                lines.push((mv, value, line));
                alpha = alpha.max(value);
            }
            if self.aborted {
                // A move searched in full at this depth that beats the last depth's choice.
                if let Some((mv, v, _)) = lines.iter().max_by_key(|l| l.1) {
                    if lines.first().is_some_and(|first| first.0 == best) && *v > lines[0].1 {
                        best = *mv;
                    }
                }
                break;
            }
            // Best first (stable: earlier moves win ties), for the next depth's order too.
            lines.sort_by_key(|l| std::cmp::Reverse(l.1));
            best = lines[0].0;
            for (i, (_, value, line)) in lines.iter().take(multipv).enumerate() {
                report(&Report {
                    depth,
                    seldepth: (self.seldepth as u32).max(depth),
                    multipv: i as u32 + 1,
                    score: Score::from_value(*value, players),
                    nodes: self.nodes,
                    time: control.elapsed(),
                    hashfull: None,
                    pv: texts(&root, line),
                });
            }
            root_moves = lines.iter().map(|l| (l.0, l.1)).collect();
            // A forced win or loss found: deeper searches cannot change the choice.
            if lines[0].1.abs() >= crate::score::MATE_BOUND {
                break;
            }
            if control.should_stop(self.nodes) {
                break;
            }
        }
        Some(best)
    }

    fn new_game(&mut self) {
        self.path.clear();
    }

    fn configure(&mut self, options: &Options) {
        self.options = options.clone();
    }
}
