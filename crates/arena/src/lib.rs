//! The arena: the statistics of a match (Elo, SPRT) and the match runner that plays engines
//! against each other and referees every move with the rules library, in the conventions of
//! cutechess and fastchess.
//!
//! * [`spec`]: the `key=value` words of an `--engine`;
//! * [`uci`]: the UCI client of external engines; [`player`]: built-in and external players
//!   behind one interface, and the faults that lose games;
//! * [`clock`]: time controls and the clock of every seat; [`openings`]: openings files and
//!   balanced random openings;
//! * [`referee`]: one game; [`schedule`]: a match (rounds, seat orders, threads, SPRT stop);
//! * [`summary`]: the tally, the text and the JSON summary; [`stats`]: the formulas.

#![forbid(unsafe_code)]

pub mod clock;
pub mod openings;
pub mod player;
pub mod referee;
pub mod schedule;
pub mod spec;
pub mod stats;
pub mod summary;
pub mod uci;

pub use clock::{MoveLimit, TimeControl};
pub use openings::Opening;
pub use referee::{GameRules, Played, Token};
pub use schedule::{run_match, Finished, MatchConfig, Openings};
pub use spec::EngineSpec;
pub use summary::{Sprt, Tally, Verdict};
