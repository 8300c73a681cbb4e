//! The match runner: engines against engines, refereed by the rules library.
//!
//! For now it holds the statistics a match reports ([`stats`]): Elo difference and its error
//! margin from wins, draws and losses (as cutechess prints it) or from game pairs (fastchess's
//! pentanomial model), normalised Elo, likelihood of superiority, the sequential probability
//! ratio test that stops a match early, and the mean score of three-player games.
#![forbid(unsafe_code)]

pub mod stats;
