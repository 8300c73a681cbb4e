//! Computer players for every game of the rules library: the search, one evaluator per game,
//! time management. No I/O: `myrmidon engine` (the UCI protocol) and `myrmidon match` drive it.
//!
//! * [`Searcher`] is the typed interface, generic over a game's [`Position`]: it gets the game
//!   so far (a [`Record`], for repetitions), the [`Limits`] of a `go` and a [`Control`] that
//!   another thread can stop, reports its progress as [`Report`]s and returns a legal move.
//! * [`EngineGame`] adds to each game of the rules library its evaluator, its search policy,
//!   its levels and its bench positions; [`with_engine_game`]
//!   reaches generic code from a game id, as the rules library's registry does.
//! * [`DynSearcher`] is the same behind a pointer, over [`DynRecord`]s and move texts, for the
//!   protocol and the match runner; [`new_searcher`] builds one from a [`PlayerSpec`]
//!   (`random`, `greedy`, `alphabeta:depth=3`, `search`, `search:depth=8`).
//! * [`Pvs`](players::Pvs) is the strong search, with its transposition table in [`tt`].
//! * [`solve`]: an exact solver of short forced wins, independent of the search, for
//!   tactics suites and tests.
//! * [`uci`]: the UCI protocol as text (commands, `go`, `info` lines, options), both ways.
//! * [`Tunable`]: every evaluator's named weights, which [`tune`] fits to finished games and a
//!   weights file sets.
//!
//! [`Position`]: myrmidon_rules::Position
//! [`Record`]: myrmidon_rules::Record
//! [`DynRecord`]: myrmidon_rules::DynRecord

pub mod control;
pub mod dynamic;
pub mod eval;
pub mod games;
pub mod limits;
mod memory;
pub mod players;
pub mod score;
pub mod solve;
pub mod tt;
pub mod tune;
pub mod uci;

pub use control::{set_clock, Control};
pub use dynamic::{new_searcher, new_searcher_with_weights, DynSearcher, EngineError};
pub use eval::{Evaluator, Tunable, Weight};
pub use games::{
    engine_game_ids, game_data_of, with_engine_game, EngineGame, EngineVisitor, GameData,
};
pub use limits::{Limits, TimePlan};
pub use players::{Options, PlayerSpec, Report, Searcher, SpecError};
pub use score::Score;
