//! The players: [`Searcher`] is what every computer player implements; [`PlayerSpec`] names
//! one (`random`, `greedy`, `alphabeta:depth=3`, `search`, `level:3`), as `myrmidon match --engine builtin=…` and the
//! engine's `Player` option write it.

mod alphabeta;
mod brs;
mod greedy;
mod level;
mod maxn;
mod mcts;
pub mod multi;
pub(crate) mod ordering;
mod policy;
mod pvs;
mod random;

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use myrmidon_rules::{Position, Record};

pub use alphabeta::AlphaBeta;
pub use brs::BestReply;
pub use greedy::Greedy;
pub use level::{strength, Level, Levels, Strength, BEGINNER, MAX_LEVEL, MIN_LEVEL, STRENGTHS};
pub use maxn::MaxN;
pub use mcts::Mcts;
pub use multi::{Algorithm, UnknownAlgorithm};
pub use policy::{DeltaMargin, QuiescenceTable, SearchPolicy, DELTA_MARGIN};
pub use pvs::{Pvs, Stats, UNLIMITED_DEPTH};
pub use random::RandomPlayer;

use crate::control::Control;
use crate::limits::Limits;
use crate::score::Score;

/// A search's progress, as a UCI `info` line carries it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    pub depth: u32,
    pub seldepth: u32,
    /// 1 for the best line, 2 for the second best, … (`MultiPV`).
    pub multipv: u32,
    pub score: Score,
    pub nodes: u64,
    pub time: Duration,
    /// Permille of the transposition table in use, for searches that have one.
    pub hashfull: Option<u32>,
    /// The principal variation, in the game's move text.
    pub pv: Vec<String>,
}

/// Settings of a player that last over searches (`setoption`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// How many best lines to report (`MultiPV`).
    pub multipv: u32,
    /// Seeds the random choices (random player, ties of the greedy one).
    pub seed: u64,
    /// The size of the transposition table in MiB (`Hash`), for searches that have one.
    pub hash_mb: usize,
    /// How many threads search (`Threads`), for searches that can use several (Lazy SMP).
    pub threads: usize,
}

impl Options {
    /// `Hash` by default.
    pub const DEFAULT_HASH_MB: usize = 16;
    /// The largest `Hash` accepted.
    pub const MAX_HASH_MB: usize = crate::tt::MAX_MIB;
    /// The most `Threads` accepted.
    pub const MAX_THREADS: usize = 64;
}

impl Default for Options {
    fn default() -> Self {
        Options {
            multipv: 1,
            seed: 0x6d79_726d_6964_6f6e,
            hash_mb: Options::DEFAULT_HASH_MB,
            threads: 1,
        }
    }
}

/// A computer player of one game.
pub trait Searcher<P: Position>: Send {
    /// Chooses a move for the player to move in `record`'s current position, within `limits`,
    /// until `control` says stop; calls `report` as it goes. Returns a legal move, or `None`
    /// when there is none (the game is over by rule).
    fn search(
        &mut self,
        record: &Record<P>,
        limits: &Limits,
        control: &Control,
        report: &mut dyn FnMut(&Report),
    ) -> Option<P::Move>;

    /// Forgets what it learned in the last game (`ucinewgame`).
    fn new_game(&mut self) {}

    /// Takes new options.
    fn configure(&mut self, options: &Options);
}

/// The algorithm `search` and the levels play in a game: best-reply search with three players
/// or more (it won the matches of `docs/engine-measurements.md`, "Three players: the algorithms"), the
/// paranoid PVS with two (where every tree search is negamax, and PVS has the pruning).
pub fn default_algorithm(players: usize) -> Algorithm {
    if players >= 3 {
        Algorithm::BestReply
    } else {
        Algorithm::Paranoid
    }
}

/// The strong search by its algorithm, to a fixed depth or (with `None`) as the limits allow;
/// `policy` is the game's (only PVS, the paranoid search, prunes by it).
pub fn strong_searcher<P: Position, E: crate::eval::Evaluator<P>>(
    algorithm: Algorithm,
    depth: Option<u32>,
    policy: SearchPolicy,
    eval: E,
    options: &Options,
) -> Box<dyn Searcher<P>> {
    match algorithm {
        Algorithm::Paranoid => Box::new(Pvs::<P, E>::with_eval(depth, policy, eval, options)),
        Algorithm::MaxN => Box::new(MaxN::<P, E>::with_eval(depth, eval, options)),
        Algorithm::BestReply => Box::new(BestReply::<P, E>::with_eval(depth, eval, options)),
        Algorithm::Mcts => Box::new(Mcts::<P, E>::with_eval(eval, options)),
    }
}

/// A built-in player, by name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerSpec {
    /// A legal move chosen uniformly at random.
    Random,
    /// One ply: a move that wins at once, else one that gains the most material, else random.
    Greedy,
    /// Alpha-beta (paranoid with three players) to a fixed depth, counting material.
    AlphaBeta { depth: u32 },
    /// The strong search (PVS with a transposition table, quiescence, pruning), to a fixed
    /// depth or (with `None`) as deep as the limits of each move allow; by an algorithm
    /// (`None`: the game's default, [`default_algorithm`]: best-reply search with three
    /// players, paranoid PVS with two).
    Search {
        depth: Option<u32>,
        algorithm: Option<Algorithm>,
    },
    /// The search at a level from 1 (a beginner beats it) to 8 (the search itself, full
    /// strength), as UCI's `Skill Level`.
    Level { level: u8 },
}

impl PlayerSpec {
    /// The depth of `alphabeta` when none is given.
    pub const DEFAULT_DEPTH: u32 = 3;
    /// The deepest `alphabeta` allowed.
    pub const MAX_DEPTH: u32 = 32;

    /// The spec's canonical text, which `from_str` reads back.
    pub fn name(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Random => f.write_str("random"),
            PlayerSpec::Greedy => f.write_str("greedy"),
            PlayerSpec::AlphaBeta { depth } => write!(f, "alphabeta:depth={depth}"),
            PlayerSpec::Search { depth, algorithm } => {
                f.write_str("search")?;
                let mut sep = ':';
                if let Some(a) = algorithm {
                    write!(f, "{sep}algorithm={a}")?;
                    sep = ',';
                }
                if let Some(d) = depth {
                    write!(f, "{sep}depth={d}")?;
                }
                Ok(())
            }
            PlayerSpec::Level { level } => write!(f, "level:{level}"),
        }
    }
}

/// A spec that could not be read (of a player here, of an engine in `myrmidon match`), with a
/// sentence that says what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SpecError(pub String);

impl FromStr for PlayerSpec {
    type Err = SpecError;

    /// `random`, `greedy`, `alphabeta`, `alphabeta:depth=N`, `search`, `search:depth=N`
    /// (1 ≤ N ≤ 32), `search:algorithm=A` and `search:algorithm=A,depth=N` (A one of
    /// paranoid, maxn, brs, mcts), `level:L` (1 ≤ L ≤ 8).
    fn from_str(text: &str) -> Result<Self, SpecError> {
        let text = text.trim();
        let (name, params) = match text.split_once(':') {
            Some((n, p)) => (n, Some(p)),
            None => (text, None),
        };
        let known = "expected random, greedy, alphabeta, alphabeta:depth=<1-32>, search, \
                     search:depth=<1-32>, search:algorithm=<paranoid|maxn|brs|mcts> (and \
                     ,depth=<1-32>) or level:<1-8>";
        if name == "level" {
            return parse_level(text, params);
        }
        let spec = match name {
            "random" => PlayerSpec::Random,
            "greedy" => PlayerSpec::Greedy,
            "alphabeta" => PlayerSpec::AlphaBeta {
                depth: PlayerSpec::DEFAULT_DEPTH,
            },
            "search" => PlayerSpec::Search {
                depth: None,
                algorithm: None,
            },
            "" => return Err(SpecError(format!("empty player name: {known}"))),
            other => return Err(SpecError(format!("unknown player `{other}`: {known}"))),
        };
        let Some(params) = params else {
            return Ok(spec);
        };
        let mut depth = match spec {
            PlayerSpec::AlphaBeta { depth } => Some(depth),
            PlayerSpec::Search { .. } => None,
            _ => return Err(SpecError(format!("`{name}` takes no parameters"))),
        };
        let mut algorithm = None;
        for param in params.split(',') {
            match param.split_once('=') {
                Some(("algorithm", value)) if matches!(spec, PlayerSpec::Search { .. }) => {
                    algorithm = Some(
                        value
                            .parse::<Algorithm>()
                            .map_err(|e| SpecError(format!("bad algorithm in `{text}`: {e}")))?,
                    );
                }
                Some(("depth", value)) => {
                    depth = Some(
                        value
                            .parse()
                            .ok()
                            .filter(|d| (1..=PlayerSpec::MAX_DEPTH).contains(d))
                            .ok_or_else(|| {
                                SpecError(format!(
                                "bad depth `{value}` in `{text}`: expected a number from 1 to {}",
                                PlayerSpec::MAX_DEPTH
                            ))
                            })?,
                    );
                }
                _ => {
                    return Err(SpecError(format!(
                        "unknown parameter `{param}` in `{text}`: {known}"
                    )))
                }
            }
        }
        Ok(match spec {
            PlayerSpec::Search { .. } => PlayerSpec::Search { depth, algorithm },
            _ => PlayerSpec::AlphaBeta {
                depth: depth.unwrap_or(PlayerSpec::DEFAULT_DEPTH),
            },
        })
    }
}

/// `level:L`, 1 ≤ L ≤ 8 (`params` is what follows the colon).
fn parse_level(text: &str, params: Option<&str>) -> Result<PlayerSpec, SpecError> {
    let range = format!("a level from {MIN_LEVEL} (weakest) to {MAX_LEVEL} (full strength)");
    let Some(value) = params.map(str::trim) else {
        return Err(SpecError(format!(
            "`level` needs its number: level:<N>, {range}"
        )));
    };
    match value.parse::<u8>() {
        Ok(level) if (MIN_LEVEL..=MAX_LEVEL).contains(&level) => Ok(PlayerSpec::Level { level }),
        _ => Err(SpecError(format!(
            "bad level `{value}` in `{text}`: expected {range}"
        ))),
    }
}

/// True if `mv`, played in `pos`, wins the game at once for the mover: by rule (`tactics`), or
/// by the outcome of the position after it (Ant Chess' checkmates, which `tactics` leaves out).
/// `pos` is made and unmade in place.
pub(crate) fn wins_at_once<P: Position>(pos: &mut P, mv: P::Move) -> bool {
    if pos.tactics(mv).wins {
        return true;
    }
    let me = pos.to_move();
    let undo = pos.make_move(mv);
    let won = pos.outcome().and_then(|o| o.winner()) == Some(me);
    pos.unmake_move(mv, undo);
    won
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_read_and_write() {
        for text in [
            "random",
            "greedy",
            "alphabeta:depth=3",
            "alphabeta:depth=7",
            "search",
            "search:depth=1",
            "search:depth=32",
            "search:algorithm=maxn",
            "search:algorithm=brs,depth=4",
            "search:algorithm=mcts",
            "search:algorithm=paranoid,depth=2",
            "level:1",
            "level:8",
        ] {
            let spec: PlayerSpec = text.parse().unwrap();
            assert_eq!(spec.to_string(), text);
        }
        assert_eq!(
            "alphabeta".parse::<PlayerSpec>().unwrap(),
            PlayerSpec::AlphaBeta { depth: 3 }
        );
        assert_eq!(
            "search:depth=9".parse::<PlayerSpec>().unwrap(),
            PlayerSpec::Search {
                depth: Some(9),
                algorithm: None
            }
        );
        assert_eq!(
            " search ".parse::<PlayerSpec>().unwrap(),
            PlayerSpec::Search {
                depth: None,
                algorithm: None
            }
        );
        assert_eq!(
            "search:depth=3,algorithm=BRS"
                .parse::<PlayerSpec>()
                .unwrap(),
            PlayerSpec::Search {
                depth: Some(3),
                algorithm: Some(Algorithm::BestReply)
            }
        );
        for bad in [
            "",
            "minimax",
            "random:depth=2",
            "alphabeta:depth=0",
            "alphabeta:depth=x",
            "alphabeta:width=3",
            "search:depth=0",
            "search:depth=33",
            "search:",
            "search:hash=16",
            "search:algorithm=minimax",
            "search:algorithm=",
            "alphabeta:algorithm=maxn",
            "level",
            "level:",
            "level:0",
            "level:9",
            "level:x",
            "level:-1",
            "level:depth=3",
        ] {
            let err = bad.parse::<PlayerSpec>().unwrap_err();
            assert!(!err.0.is_empty(), "{bad}");
        }
    }
}
