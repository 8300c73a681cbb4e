//! An exact solver of short forced wins, independent of the search: no evaluation, no pruning
//! but the cut-offs of proven results. It proves that the player to move wins by force within
//! `n` of its own moves, and whether the winning first move is the only one.
//!
//! Two players. The player to move (the *attacker*) wins within `n` moves if it has a move
//! after which, whatever the opponent replies, the game is over with the attacker the winner or
//! the attacker again wins within `n - 1` moves. The game's own rules decide: a position
//! without legal moves is over ([`Position::outcome_without_moves`] says who won), a draw by
//! rule ([`Position::draw_by_rule`]) is not a win, and a move marked [`Tactics::wins`] wins on
//! the spot. "Within `n` moves" counts the attacker's moves until the game is over, so a game
//! that ends at the start of the attacker's turn (an unanswered crossing in Epaminondas) is won
//! in the number of moves played before it, like a checkmate given on the last of them.
//!
//! Repetition is ignored: from a position without history, no position can occur three times
//! in the lines of a short win.
//!
//! The search is depth-first AND/OR (alpha-beta on win / not win): an attacker's node is proven
//! by one winning move, a defender's node refuted by one reply that escapes. Iterative
//! deepening over `n` and a table of proven results (a win within `k`, no win within `k`) keep
//! it small; the move that proved or refuted a node is tried first when it is met again.
//!
//! [`Tactics::wins`]: myrmidon_rules::Tactics::wins

use std::collections::HashMap;

use myrmidon_rules::{Player, Position};

/// The solver ran out of its node budget before it could prove anything.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the solver's node budget ran out")]
pub struct OutOfNodes;

/// A proven forced win of the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Win<M> {
    /// The fewest moves of the attacker that win by force.
    pub moves: u32,
    /// A first move that wins within `moves`.
    pub first: M,
}

/// A forced win whose first move is the only one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UniqueWin<M> {
    pub win: Win<M>,
    /// Every other first move fails to force a win within this many moves (at least
    /// `win.moves`).
    pub unique_within: u32,
}

/// What the table knows of a position: the fewest moves it is proven won within, the most it
/// is proven not won within (both plus one, 0 for nothing), and the move that proved it.
#[derive(Clone, Copy, Default)]
struct Entry {
    win: u8,
    fail: u8,
    code: Option<u32>,
}

/// The solver, for positions of one game with two players.
pub struct Solver<P: Position> {
    node_limit: u64,
    nodes: u64,
    attacker: Player,
    /// Proven results of positions with the attacker to move (`n` = the attacker's moves
    /// left) and with the defender to move (`n` = the attacker's moves left after this
    /// reply's answer… see `defend`).
    attack_table: HashMap<u64, Entry>,
    defend_table: HashMap<u64, Entry>,
    /// A reply that refuted a node, by moves left.
    killers: Vec<Option<P::Move>>,
}

impl<P: Position> Solver<P> {
    /// A solver that gives up after visiting `node_limit` nodes (over all its calls, until
    /// [`Solver::reset`]).
    pub fn new(node_limit: u64) -> Self {
        Solver {
            node_limit,
            nodes: 0,
            attacker: 0,
            attack_table: HashMap::new(),
            defend_table: HashMap::new(),
            killers: Vec::new(),
        }
    }

    /// The nodes visited since the last reset.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Forgets the tables and the nodes counted, with a new budget.
    pub fn reset(&mut self, node_limit: u64) {
        self.node_limit = node_limit;
        self.nodes = 0;
        self.attack_table.clear();
        self.defend_table.clear();
        self.killers.clear();
    }

    /// Readies the solver for positions with `attacker` to move (the tables hold one
    /// attacker's results).
    fn start(&mut self, pos: &P) {
        assert_eq!(
            pos.player_names().len(),
            2,
            "the solver proves wins of two-player games"
        );
        if pos.to_move() != self.attacker {
            self.attack_table.clear();
            self.defend_table.clear();
            self.attacker = pos.to_move();
        }
    }

    /// True if the player to move wins by force within `n` of its own moves.
    pub fn wins_within(&mut self, pos: &P, n: u32) -> Result<bool, OutOfNodes> {
        self.start(pos);
        let mut pos = pos.clone();
        self.attack(&mut pos, n.min(200))
    }

    /// True if `mv`, a legal move of the player to move, wins by force within `n` of its
    /// moves (`mv` the first).
    pub fn move_wins_within(&mut self, pos: &P, mv: P::Move, n: u32) -> Result<bool, OutOfNodes> {
        self.start(pos);
        if n == 0 {
            return Ok(false);
        }
        if pos.tactics(mv).wins {
            return Ok(true);
        }
        let mut pos = pos.clone();
        let undo = pos.make_move(mv);
        let won = self.defend(&mut pos, n.min(200) - 1);
        pos.unmake_move(mv, undo);
        won
    }

    /// The fewest moves, up to `max`, in which the player to move wins by force, with a first
    /// move that does; `None` if there is no forced win within `max` moves (or the game is
    /// over).
    pub fn solve(&mut self, pos: &P, max: u32) -> Result<Option<Win<P::Move>>, OutOfNodes> {
        self.start(pos);
        let moves = pos.moves();
        if moves.is_empty() || pos.draw_by_rule().is_some() {
            return Ok(None);
        }
        for n in 1..=max.min(200) {
            if !self.wins_within(pos, n)? {
                continue;
            }
            // The table's move first: it is the one that proved the win.
            let hint = self
                .attack_table
                .get(&pos.hash())
                .and_then(|e| e.code)
                .and_then(|c| pos.move_from_code(c));
            for mv in hint.into_iter().chain(moves.iter().copied()) {
                if self.move_wins_within(pos, mv, n)? {
                    return Ok(Some(Win {
                        moves: n,
                        first: mv,
                    }));
                }
            }
            unreachable!("a position proven won has a winning move");
        }
        Ok(None)
    }

    /// The forced win within `max` moves, if there is one and its first move is the only one
    /// that wins within `unique_within` moves (raised to the win's length if less): every
    /// other first move is proven not to win that fast.
    pub fn solve_unique(
        &mut self,
        pos: &P,
        max: u32,
        unique_within: u32,
    ) -> Result<Option<UniqueWin<P::Move>>, OutOfNodes> {
        let Some(win) = self.solve(pos, max)? else {
            return Ok(None);
        };
        let bound = unique_within.max(win.moves);
        Ok(self
            .only_winner(pos, win.first, bound)?
            .then_some(UniqueWin {
                win,
                unique_within: bound,
            }))
    }

    /// True if no legal move but `first` wins within `n` moves.
    pub fn only_winner(&mut self, pos: &P, first: P::Move, n: u32) -> Result<bool, OutOfNodes> {
        for mv in pos.moves().iter().copied().filter(|&m| m != first) {
            if self.move_wins_within(pos, mv, n)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    fn tick(&mut self) -> Result<(), OutOfNodes> {
        self.nodes += 1;
        if self.nodes > self.node_limit {
            Err(OutOfNodes)
        } else {
            Ok(())
        }
    }

    /// The result of a position whose player to move has no legal move: won by the attacker?
    fn over_won(&self, pos: &P) -> bool {
        pos.outcome_without_moves().winner() == Some(self.attacker)
    }

    /// The attacker is to move with `n` moves left: true if it wins by force.
    fn attack(&mut self, pos: &mut P, n: u32) -> Result<bool, OutOfNodes> {
        self.tick()?;
        let moves = pos.moves();
        if moves.is_empty() {
            return Ok(self.over_won(pos));
        }
        if pos.draw_by_rule().is_some() || n == 0 {
            return Ok(false);
        }
        let key = pos.hash();
        let entry = self.attack_table.get(&key).copied().unwrap_or_default();
        if entry.win != 0 && entry.win as u32 <= n + 1 {
            return Ok(true);
        }
        if entry.fail as u32 > n {
            return Ok(false);
        }
        for &mv in moves.iter() {
            if pos.tactics(mv).wins {
                self.record(true, key, 1, true, Some(pos.move_code(mv)));
                return Ok(true);
            }
        }
        // The move that proved this position before, then the tactical moves, then the rest.
        let hint = entry.code.and_then(|c| pos.move_from_code(c));
        let mut order: Vec<(u8, P::Move)> = moves
            .iter()
            .map(|&m| {
                let rank = if Some(m) == hint {
                    0
                } else if pos.tactics(m).is_tactical() {
                    1
                } else {
                    2
                };
                (rank, m)
            })
            .collect();
        order.sort_by_key(|&(rank, _)| rank);
        for (_, mv) in order {
            let undo = pos.make_move(mv);
            let won = self.defend(pos, n - 1);
            pos.unmake_move(mv, undo);
            if won? {
                let code = pos.move_code(mv);
                self.record(true, key, n, true, Some(code));
                return Ok(true);
            }
        }
        self.record(true, key, n, false, None);
        Ok(false)
    }

    /// The attacker has moved and has `n` moves left; the defender is to move: true if every
    /// reply loses (the game over with the attacker the winner, or a win within `n` left).
    fn defend(&mut self, pos: &mut P, n: u32) -> Result<bool, OutOfNodes> {
        self.tick()?;
        let moves = pos.moves();
        if moves.is_empty() {
            return Ok(self.over_won(pos));
        }
        if pos.draw_by_rule().is_some() {
            return Ok(false);
        }
        let key = pos.hash();
        let entry = self.defend_table.get(&key).copied().unwrap_or_default();
        if entry.win != 0 && entry.win as u32 <= n + 1 {
            return Ok(true);
        }
        if entry.fail as u32 > n {
            return Ok(false);
        }
        if moves.iter().any(|&m| pos.tactics(m).wins) {
            self.record(false, key, n, false, None);
            return Ok(false);
        }
        // The reply that refuted this position before, the last refutation at this depth,
        // then the tactical replies, then the rest.
        let hint = entry.code.and_then(|c| pos.move_from_code(c));
        let killer = self.killers.get(n as usize).copied().flatten();
        let mut order: Vec<(u8, P::Move)> = moves
            .iter()
            .map(|&m| {
                let rank = if Some(m) == hint {
                    0
                } else if Some(m) == killer {
                    1
                } else if pos.tactics(m).is_tactical() {
                    2
                } else {
                    3
                };
                (rank, m)
            })
            .collect();
        order.sort_by_key(|&(rank, _)| rank);
        for (_, reply) in order {
            let undo = pos.make_move(reply);
            let lost = self.attack(pos, n);
            pos.unmake_move(reply, undo);
            if !lost? {
                let code = pos.move_code(reply);
                self.record(false, key, n, false, Some(code));
                if self.killers.len() <= n as usize {
                    self.killers.resize(n as usize + 1, None);
                }
                self.killers[n as usize] = Some(reply);
                return Ok(false);
            }
        }
        self.record(false, key, n, true, None);
        Ok(true)
    }

    /// Notes a proven result: won within `n` moves left, or not won within `n`.
    fn record(&mut self, attack: bool, key: u64, n: u32, won: bool, code: Option<u32>) {
        let table = if attack {
            &mut self.attack_table
        } else {
            &mut self.defend_table
        };
        let e = table.entry(key).or_default();
        let k = (n + 1).min(255) as u8;
        if won {
            if e.win == 0 || k < e.win {
                e.win = k;
            }
        } else {
            e.fail = e.fail.max(k);
        }
        if code.is_some() {
            e.code = code;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use myrmidon_rules::games::ackenhead::Ackenhead;
    use myrmidon_rules::Game;

    #[test]
    fn the_start_has_no_short_win_and_budgets_run_out() {
        let pos = Ackenhead.start(&Default::default()).unwrap();
        let mut solver = Solver::new(10_000_000);
        assert_eq!(solver.solve(&pos, 2).unwrap(), None);
        assert!(!solver.wins_within(&pos, 2).unwrap());
        assert!(solver.nodes() > 20);
        let mut tiny = Solver::new(10);
        assert_eq!(tiny.solve(&pos, 2), Err(OutOfNodes));
        tiny.reset(10_000_000);
        assert_eq!(tiny.solve(&pos, 1), Ok(None));
    }
}
