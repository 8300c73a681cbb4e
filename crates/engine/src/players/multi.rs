//! What the searches for three or more players share: which algorithm ([`Algorithm`]), each
//! player's value of a position ([`Values`]) and the driver of iterative deepening ([`deepen`]);
//! move ordering and the principal variation are `super::ordering`'s, as for every search.
//!
//! With two players, max-n and best-reply search are the same as negamax; they are built for
//! three (and run with two, for the tests that compare them).

use std::fmt;
use std::str::FromStr;

use myrmidon_rules::{Outcome, Player, Position};

use super::ordering::texts;
use super::Report;
use crate::control::Control;
use crate::eval::Evaluator;
use crate::limits::Limits;
use crate::score::{Score, MATE};

/// The most players a search for several players handles.
pub const MAX_PLAYERS: usize = 4;

/// Each player's value of a position (centipawn-like, mates near [`MATE`]); entries past the
/// number of players are 0. Leaves sum to 0 or less: a player's evaluation is their terms less
/// the others' on average, and a win is `MATE − ply` for the winner and its share less for
/// each loser.
pub type Values = [i32; MAX_PLAYERS];

/// The search algorithm of the strong player (`search:algorithm=…`, UCI `Algorithm`). With two
/// players, every tree search is negamax and they play alike but for `mcts`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// Alpha-beta in which every other player plays against the root player (the coalition).
    Paranoid,
    /// Every player maximises their own value (Luckhardt and Irani), with shallow pruning.
    MaxN,
    /// Best-reply search (Schadd and Winands, 2011) with BRS+'s default moves (Esser et al.,
    /// 2013): after each move of the root player only the single best reply among all the
    /// opponents is searched, the other opponents playing the move their ordering puts first.
    BestReply,
    /// Monte-Carlo tree search: UCT over the evaluation (a capture search at each new leaf), with
    /// progressive bias from each move's evaluation.
    Mcts,
}

impl Algorithm {
    pub const ALL: [Algorithm; 4] = [
        Algorithm::Paranoid,
        Algorithm::MaxN,
        Algorithm::BestReply,
        Algorithm::Mcts,
    ];

    /// The name in specs and in the UCI option.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Paranoid => "paranoid",
            Algorithm::MaxN => "maxn",
            Algorithm::BestReply => "brs",
            Algorithm::Mcts => "mcts",
        }
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An algorithm name that is none of [`Algorithm::ALL`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown algorithm `{0}`: expected paranoid, maxn, brs or mcts")]
pub struct UnknownAlgorithm(pub String);

impl FromStr for Algorithm {
    type Err = UnknownAlgorithm;

    fn from_str(text: &str) -> Result<Self, UnknownAlgorithm> {
        let text = text.trim();
        Algorithm::ALL
            .into_iter()
            .find(|a| a.name().eq_ignore_ascii_case(text))
            .ok_or_else(|| UnknownAlgorithm(text.to_string()))
    }
}

/// Every player's evaluation of `pos`.
pub fn values_of<P: Position, E: Evaluator<P>>(eval: &E, pos: &P, players: usize) -> Values {
    let mut out = [0; MAX_PLAYERS];
    eval.evaluate_all(pos, &mut out[..players.min(MAX_PLAYERS)]);
    out
}

/// The values of a finished game `ply` plies from the root: the winner `MATE − ply`, each
/// other player minus that shared among them; a draw 0 for all.
pub fn outcome_values(outcome: Outcome, players: usize, ply: usize) -> Values {
    result_values(outcome.winner(), players, ply)
}

/// The values of a win of `winner` (or a draw, with `None`) `ply` plies from the root.
pub fn result_values(winner: Option<Player>, players: usize, ply: usize) -> Values {
    let mut out = [0; MAX_PLAYERS];
    if let Some(w) = winner {
        let win = MATE - ply as i32;
        let loss = -win / (players as i32 - 1).max(1);
        for (p, v) in out.iter_mut().enumerate().take(players) {
            *v = if p == w as usize { win } else { loss };
        }
    }
    out
}

/// Lowers the values of the players who can no longer win (a Queen lost in `antchess3`) to a
/// loss `ply` plies from the root: they play on, but nothing they do counts for them.
pub fn mark_eliminated<P: Position>(pos: &P, players: usize, ply: usize, values: &mut Values) {
    if players < 3 {
        return;
    }
    let loss = -(MATE - ply as i32) / (players as i32 - 1);
    for (p, v) in values.iter_mut().enumerate().take(players) {
        if pos.eliminated(p as Player).is_some() {
            *v = (*v).min(loss);
        }
    }
}

/// The node budget of a search: the control's and the `go`'s, whichever is lower.
pub fn node_limit(control: &Control, limits: &Limits) -> u64 {
    control
        .node_limit()
        .into_iter()
        .chain(limits.nodes)
        .min()
        .unwrap_or(u64::MAX)
}

/// The deepest iteration of a search: the `go`'s depth, else the player's, else `deepest` when
/// something else limits the search (time, nodes, `infinite`), else `unlimited`.
pub fn max_depth(
    control: &Control,
    limits: &Limits,
    own: Option<u32>,
    deepest: u32,
    unlimited: u32,
) -> u32 {
    limits
        .depth
        .or(own)
        .unwrap_or(
            if limits.infinite || limits.nodes.is_some() || control.remaining().is_some() {
                deepest
            } else {
                unlimited
            },
        )
        .clamp(1, deepest)
}

/// What one iteration of a depth-first search gives the driver.
pub struct Iteration<M> {
    /// The root player's value.
    pub value: i32,
    /// The principal variation (its first move is the move to play).
    pub line: Vec<M>,
    /// True if the search was cut short (its move is still usable when `line` is not empty:
    /// a root move that was searched in full and beat the ones before).
    pub aborted: bool,
}

/// Iterative deepening with `lines` best lines (`MultiPV`): at each depth from 1 to
/// `max_depth`, `iterate(depth, excluded)` searches the root without the first moves of the
/// lines already found at that depth; the lines are reported best first. The move of the last
/// completed depth's best line (or of a cut first line that found one).
#[allow(clippy::too_many_arguments)]
pub fn deepen<P: Position>(
    root: &P,
    first: P::Move,
    max_depth: u32,
    lines: usize,
    control: &Control,
    report: &mut dyn FnMut(&Report),
    nodes: &dyn Fn() -> u64,
    hashfull: &dyn Fn() -> Option<u32>,
    mut iterate: impl FnMut(u32, &[P::Move]) -> Iteration<P::Move>,
) -> P::Move {
    let players = root.player_names().len();
    let lines = lines.clamp(1, root.moves().len().max(1));
    let mut best = first;
    let mut excluded: Vec<P::Move> = Vec::with_capacity(lines);
    let mut found: Vec<(i32, Vec<P::Move>)> = Vec::with_capacity(lines);
    'deepening: for depth in 1..=max_depth {
        excluded.clear();
        found.clear();
        for line in 0..lines {
            let it = iterate(depth, &excluded);
            if it.aborted {
                if line == 0 {
                    if let Some(&mv) = it.line.first() {
                        best = mv;
                    }
                }
                break 'deepening;
            }
            let Some(&mv) = it.line.first() else {
                break;
            };
            excluded.push(mv);
            found.push((it.value, it.line));
        }
        // Best first; the first line keeps its place among equals.
        found.sort_by_key(|(v, _)| std::cmp::Reverse(*v));
        let Some((value, line)) = found.first() else {
            break;
        };
        let value = *value;
        best = line[0];
        for (i, (v, pv)) in found.iter().enumerate() {
            report(&Report {
                depth,
                seldepth: depth,
                multipv: i as u32 + 1,
                score: Score::from_value(*v, players),
                nodes: nodes(),
                time: control.elapsed(),
                hashfull: hashfull(),
                pv: texts(root, pv),
            });
        }
        // A result within the horizon (in plies: deeper cannot change it).
        if value.abs() >= crate::score::MATE_BOUND && MATE - value.abs() <= depth as i32 {
            break;
        }
        if control.past_soft() || control.should_stop(nodes()) {
            break;
        }
    }
    best
}
