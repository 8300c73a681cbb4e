//! Game records: a PGN-like text for every game of the registry, several games to a file.
//! Strings in and out, no I/O. The format is specified in `docs/records.md`.
//!
//! * [`write_game`] writes one game from a [`DynRecord`], the caller's [`Header`] (event,
//!   site, date, round, the players' names, time control, extra tags) and an optional comment
//!   per move; it computes the game's own tags (`Game`, its settings, `SetUp`/`FEN`, `Result`,
//!   `Termination`, `PlyCount`) from the record.
//! * [`read_games`] and [`GameReader`] read records back: every move is replayed with the
//!   rules, the result checked or applied, and a bad record refused with its line
//!   ([`RecordError`]).
//! * [`result_tags`] gives the `Result` and `Termination` of a game's result, and
//!   [`play_token`] plays one movetext token (a move text, or `out:<seat>:<reason>` for a
//!   player leaving a game of three) on a game in progress, for the match runner, the server
//!   and the engine's `position … moves …`.
//!
//! The moves are each game's own move texts; a player leaving a game of three is the token
//! `out:<seat>:<reason-id>` (seats from 1) and the passes the record plays for them are not
//! written. Between two players a resignation or a fallen flag is carried by `Result` and
//! `Termination`.
//!
//! The files: `write.rs` writes a game; `read.rs` cuts a text into games, tags and tokens and
//! `replay.rs` checks the tags and replays the moves; `results.rs` reads and writes `Result`;
//! `tokens.rs` plays one movetext token.

use std::fmt;

use crate::dynamic::{DynRecord, Step};
use crate::error::{shortened, MoveError};
use crate::game::{FactValue, GameInfo, Player, Settings};
use crate::outcome::{GameResult, Outcome, Reason};
use crate::registry;

mod date;
mod read;
mod replay;
mod results;
#[cfg(test)]
mod tests;
mod tokens;
mod write;

pub use date::utc_date_time;
pub use read::{read_games, GameReader};
pub use results::{parse_result, points_string, result_tags};
pub use tokens::play_token;
pub use write::{clean_comment, first_move_number, setting_tag, write_game};
use write::{or_unknown, reserved_tags};

/// Movetext lines are at most this many characters (a single longer word stands alone).
pub const LINE_WIDTH: usize = 79;

/// The reasons a game can be ended for off the board (`declare`, or a leaving between two):
/// what `Termination` may say when the moves leave the game unfinished.
pub const DECLARED_REASONS: &[Reason] = &[
    Reason::AGREEMENT,
    Reason::RESIGNATION,
    Reason::TIME,
    Reason::ADJUDICATION,
    Reason::ILLEGAL_MOVE,
    Reason::CRASH,
];

/// The reasons a player can leave a game of three for, in an `out:` token.
pub const DROPOUT_REASONS: &[Reason] = &[
    Reason::RESIGNATION,
    Reason::TIME,
    Reason::ILLEGAL_MOVE,
    Reason::CRASH,
    Reason::ADJUDICATION,
];

/// The tags a caller gives a record; [`write_game`] computes the others.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// `Event`; `?` when unknown (also written for an empty string).
    pub event: String,
    /// `Site`; `?` when unknown.
    pub site: String,
    /// `Date`, `YYYY.MM.DD` with `??` for unknown parts; `????.??.??` when unknown.
    pub date: String,
    /// `Round`; `?` when unknown.
    pub round: String,
    /// The players' names in turn order (seat 1 first), each written in a tag named by the
    /// seat (`White`, `Black`; `Black`, `Red`, `Green`); a missing name is written `?`.
    pub players: Vec<String>,
    /// `TimeControl`, written when given (`40/60+0.6`, `inf`, as cutechess writes it).
    pub time_control: Option<String>,
    /// `Time`, the time the game started (`HH:MM:SS`), written when given.
    pub time: Option<String>,
    /// More tags, written last in this order. A name the writer writes itself (the tags above,
    /// the seats, `Result`, `Game`, the settings, `SetUp`, `FEN`, `Termination`, `PlyCount`)
    /// or given twice is skipped; characters other than letters, digits and `_` in a name
    /// become `_`.
    pub extra: Vec<(String, String)>,
    /// A comment written before the first move (PGN's game comment).
    pub comment: Option<String>,
}

impl Default for Header {
    fn default() -> Self {
        Header {
            event: "?".to_string(),
            site: "?".to_string(),
            date: "????.??.??".to_string(),
            round: "?".to_string(),
            players: Vec::new(),
            time_control: None,
            time: None,
            extra: Vec::new(),
            comment: None,
        }
    }
}

/// A bad record: the line (from 1) and what is wrong. Shown as `line N: …`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct RecordError {
    pub line: usize,
    pub message: String,
}

impl RecordError {
    fn new(line: usize, message: impl Into<String>) -> Self {
        RecordError {
            line,
            message: message.into(),
        }
    }
}

/// A movetext token that cannot be played ([`play_token`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TokenError {
    /// A move text that is not a legal move here, or comes after the end of the game.
    #[error(transparent)]
    Move(MoveError),
    /// An `out:` token that is malformed or cannot apply.
    #[error("bad token {:?}: {message}", shortened(.token))]
    Out { token: String, message: String },
}

/// One game read from a record.
pub struct ReadGame {
    /// Every tag as written, in order (unknown tags included).
    pub tags: Vec<(String, String)>,
    /// The game replayed, with its result applied.
    pub record: Box<dyn DynRecord>,
    /// The comment of each move written in the movetext, in order: one entry per move of
    /// `record.history()` that is not `automatic`.
    pub comments: Vec<Option<String>>,
    /// The comment before the first move, if any.
    pub comment: Option<String>,
    /// The line the game starts on.
    pub line: usize,
}

impl fmt::Debug for ReadGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ReadGame")
            .field("tags", &self.tags)
            .field("game", &self.record.info().id)
            .field("start", &self.record.start_string())
            .field("moves", &self.record.history().len())
            .field("result", &self.record.result())
            .field("comments", &self.comments)
            .field("comment", &self.comment)
            .field("line", &self.line)
            .finish()
    }
}

impl ReadGame {
    /// The value of a tag.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The caller's part of the tags, as [`write_game`] takes it: writing the game again with
    /// it and `comments` gives the record back (for a record this module wrote, the same
    /// text).
    pub fn header(&self) -> Header {
        let names = self.record.player_names();
        let info = self.record.info();
        // A blank value is unknown, as the writer writes it.
        let get = |name: &str, default: &str| {
            or_unknown(self.tag(name).unwrap_or(default), default).to_string()
        };
        let reserved = reserved_tags(info, names);
        Header {
            event: get("Event", "?"),
            site: get("Site", "?"),
            date: get("Date", "????.??.??"),
            round: get("Round", "?"),
            players: names.iter().map(|n| get(n, "?")).collect(),
            time_control: self.tag("TimeControl").map(str::to_string),
            time: self.tag("Time").map(str::to_string),
            extra: self
                .tags
                .iter()
                .filter(|(n, _)| !reserved.contains(n))
                .cloned()
                .collect(),
            comment: self.comment.clone(),
        }
    }
}
