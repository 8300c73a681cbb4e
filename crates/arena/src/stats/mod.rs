//! The statistics of a match: pure functions and small types, no I/O.
//!
//! Two-player matches are counted from the first engine's view, either game by game
//! ([`Trinomial`]: wins, draws, losses) or pair by pair ([`Pentanomial`]: the two games of a pair
//! are played on the same opening with the colours swapped, and the pair is scored 0, ½, 1, 1½
//! or 2 points). From either come an [`EloEstimate`] (Elo difference, its 95 % margin,
//! normalised Elo, likelihood of superiority) and the log-likelihood ratio of a sequential
//! probability ratio test ([`Sprt`]). Three-player games are summarised by [`Score`], the mean
//! points per game of one engine with a 95 % interval.
//!
//! Where the formulas come from (facts and formulas; the code here is our own):
//! - fastchess (github.com/Disservin/fastchess), `app/src/matchmaking/elo/elo_wdl.cpp`,
//!   `elo_pentanomial.cpp` and `elo.hpp` for the score, its variance, the Elo margin, nElo and
//!   LOS; `app/src/matchmaking/sprt/sprt.cpp` for the SPRT bounds, the regularisation of empty
//!   classes and both log-likelihood ratios, which follow Michel Van den Bergh's notes
//!   "Comparing the approximations for the generalized log likelihood ratio of a multinomial
//!   distribution" (logistic Elo) and "Comments on normalized Elo" (normalised Elo); its manual
//!   (`man.md`) documents `model=normalized` as the default.
//! - cutechess (github.com/cutechess/cutechess), `projects/lib/src/elo.cpp` and
//!   `tournament.cpp` for the line `Elo difference: x +/- y, LOS: z %, DrawRatio: w %`, its
//!   LOS from wins and losses only, and `projects/cli/src/enginematch.cpp` for the `Score of`
//!   line.
//!
//! Where cutechess and fastchess differ we follow fastchess: the margin uses the exact 97.5 %
//! normal quantile (cutechess approximates erf⁻¹ and prints margins about 0.14 % narrower,
//! e.g. 30.41 instead of 30.46 for +76 =123 −89). The SPRT is fastchess's (cutechess has only
//! a BayesElo model, not offered here). And where fastchess stops its root finders early, we
//! solve the maximum-likelihood problems to machine precision: its logistic LLR is off by up
//! to about 1e-4 relative, its normalised LLR by about 1e-9 on ordinary samples.
//!
//! Edge cases never panic and never give NaN: a sample with no games has no estimate (`None`);
//! a score of exactly 0 or 1 gives an Elo of −∞ or +∞; a margin whose 95 % score interval
//! reaches 0 or 1 is +∞ (fastchess and cutechess print `nan` there); see each item.

mod elo;
mod samples;
mod score;
mod special;
mod sprt;
#[cfg(test)]
mod tests;

pub use elo::*;
pub use samples::*;
pub use score::*;
pub use special::*;
pub use sprt::*;

/// A whole error or a bad setting, with a sentence that says what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct StatsError(pub String);
