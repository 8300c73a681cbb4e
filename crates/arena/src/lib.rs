//! The match runner: engines against engines, refereed by the rules library, in the
//! conventions of cutechess and fastchess.
//!
//! * [`stats`]: the statistics a match reports: Elo difference and its error margin from wins,
//!   draws and losses (as cutechess prints it) or from game pairs (fastchess's pentanomial
//!   model), normalised Elo, likelihood of superiority, the sequential probability ratio test
//!   that stops a match early, and the mean score of three-player games;
//! * [`spec`]: the `key=value` words of an `--engine`;
//! * [`uci`]: the UCI client of external engines; [`player`]: built-in and external players
//!   behind one interface, and the faults that lose games;
//! * [`clock`]: time controls and the clock of every seat; [`openings`]: openings files and
//!   balanced random openings;
//! * [`referee`]: one game; [`schedule`]: a match (rounds, seat orders, threads, SPRT stop);
//! * [`summary`]: the tally, the text and the JSON summary; [`records`]: the game records.

pub mod clock;
pub mod openings;
pub mod player;
pub mod records;
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
pub use stats::Sprt;
pub use summary::{Tally, Verdict};
