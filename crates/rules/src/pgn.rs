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

use std::fmt;

use crate::dynamic::{DynRecord, Step};
use crate::error::MoveError;
use crate::game::{FactValue, GameInfo, Player, Settings};
use crate::outcome::{GameResult, Outcome, Reason};
use crate::registry;

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

// ---------------------------------------------------------------------------------------------
// Results

/// The `Result` string and the `Termination` reason id of a game's result for `players`
/// seats: `*` and no termination while it goes on; otherwise the points of each seat in turn
/// order joined by `-` (`1-0`, `0-1`, `1/2-1/2`; `1-0-0`, `1/2-0-1/2`, `1/3-1/3-1/3`), as
/// [`GameResult::points`] gives them, and the reason id of the outcome.
pub fn result_tags(result: Option<&GameResult>, players: usize) -> (String, Option<&'static str>) {
    match result {
        None => ("*".to_string(), None),
        Some(r) => (
            points_string(&r.points(players)),
            Some(r.outcome.reason().id),
        ),
    }
}

/// Points joined by `-`, each as an integer or a fraction (`1/2`, `1/3`).
pub fn points_string(points: &[f64]) -> String {
    let parts: Vec<String> = points.iter().map(|&p| fraction(p)).collect();
    parts.join("-")
}

fn fraction(p: f64) -> String {
    for d in 1..=12u32 {
        let n = (p * d as f64).round();
        if (n / d as f64 - p).abs() < 1e-9 {
            return if d == 1 {
                format!("{n}")
            } else {
                format!("{n}/{d}")
            };
        }
    }
    format!("{p}")
}

/// Reads a result string for `players` seats: `None` for `*`, else the points of each seat.
/// The error says what is wrong.
pub fn parse_result(text: &str, players: usize) -> Result<Option<Vec<f64>>, String> {
    if text == "*" {
        return Ok(None);
    }
    let example = match players {
        2 => "1-0, 0-1, 1/2-1/2 or *".to_string(),
        3 => "1-0-0, 0-1-0, 0-0-1, 1/2-1/2-0, 1/3-1/3-1/3 or *".to_string(),
        n => format!("the points of the {n} seats joined by - (or *)"),
    };
    let bad = |why: &str| {
        format!(
            "bad result {:?}: {why}; expected {example}",
            shortened(text)
        )
    };
    let parts: Vec<&str> = text.split('-').collect();
    if parts.len() != players {
        return Err(bad(&format!(
            "{} seats given, the game has {players}",
            parts.len()
        )));
    }
    let mut points = Vec::with_capacity(players);
    for part in parts {
        let number = |s: &str| -> Option<f64> {
            (!s.is_empty() && s.len() <= 9 && s.bytes().all(|b| b.is_ascii_digit()))
                .then(|| s.parse::<u32>().ok().map(f64::from))
                .flatten()
        };
        let value = match part.split_once('/') {
            None => number(part),
            Some((n, d)) => match (number(n), number(d)) {
                (Some(n), Some(d)) if d > 0.0 => Some(n / d),
                _ => None,
            },
        };
        match value {
            Some(v) if v <= 1.0 + 1e-9 => points.push(v),
            Some(_) => return Err(bad(&format!("{part} is more than 1 point"))),
            None => return Err(bad(&format!("{part:?} is not a number of points"))),
        }
    }
    let sum: f64 = points.iter().sum();
    if (sum - 1.0).abs() > 1e-9 {
        return Err(bad("the points do not add up to 1"));
    }
    Ok(Some(points))
}

fn same_points(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-9)
}

// ---------------------------------------------------------------------------------------------
// Tokens

/// Plays one movetext token on a game in progress: a move text (in any letter case when that
/// names one legal move, as [`DynRecord::play`] reads it), or `out:<seat>:<reason-id>` for a
/// player leaving a game of three or more (seats from 1; reasons of [`DROPOUT_REASONS`]),
/// after which the record plays that seat's passes itself.
pub fn play_token(record: &mut dyn DynRecord, token: &str) -> Result<(), TokenError> {
    let token = token.trim();
    let is_out = token
        .get(..4)
        .is_some_and(|p| p.eq_ignore_ascii_case("out:"));
    if !is_out {
        return record.play(token).map(|_| ()).map_err(TokenError::Move);
    }
    let fail = |message: String| TokenError::Out {
        token: token.to_string(),
        message,
    };
    let names = record.player_names();
    let players = names.len();
    let (seat, reason) = token[4..]
        .split_once(':')
        .ok_or_else(|| fail("expected out:<seat>:<reason>, like out:2:time".to_string()))?;
    if players < 3 {
        return Err(fail(format!(
            "{} is a game of two: a player leaving ends it, which the Result and Termination \
             tags say",
            record.info().id
        )));
    }
    let seat: usize = seat
        .parse()
        .ok()
        .filter(|s| (1..=players).contains(s))
        .ok_or_else(|| {
            fail(format!(
                "{:?} is not a seat: the seats are 1 to {players}",
                shortened(seat)
            ))
        })?;
    let reason_id = reason.to_ascii_lowercase();
    let reason = DROPOUT_REASONS
        .iter()
        .copied()
        .find(|r| r.id == reason_id)
        .ok_or_else(|| {
            fail(format!(
                "{:?} is not a reason to leave: expected {}",
                shortened(reason),
                ids(DROPOUT_REASONS)
            ))
        })?;
    let player = (seat - 1) as Player;
    let name = names[seat - 1];
    if let Some(result) = record.result() {
        return Err(fail(format!(
            "the game is over ({})",
            result.describe(names)
        )));
    }
    let left = record
        .steps()
        .iter()
        .any(|s| matches!(s, Step::Dropout { player: p, .. } if *p == player));
    if left {
        return Err(fail(format!("{name} (seat {seat}) has left already")));
    }
    if !record.drop_out(player, reason) {
        return Err(fail(format!("{name} (seat {seat}) cannot leave here")));
    }
    Ok(())
}

fn ids(reasons: &[Reason]) -> String {
    let ids: Vec<&str> = reasons.iter().map(|r| r.id).collect();
    ids.join(", ")
}

/// At most 40 characters of user text in a message.
fn shortened(text: &str) -> String {
    const MAX: usize = 40;
    match text.char_indices().nth(MAX) {
        Some((cut, _)) => format!("{}… ({} characters)", &text[..cut], text.chars().count()),
        None => text.to_string(),
    }
}

// ---------------------------------------------------------------------------------------------
// Writing

/// The tag that carries a setting: its name in upper camel case (`region` → `Region`,
/// `max-plies` → `MaxPlies`).
pub fn setting_tag(name: &str) -> String {
    name.split(['-', '_', ' '])
        .map(|w| {
            let mut c = w.chars();
            match c.next() {
                Some(f) => f.to_uppercase().chain(c).collect::<String>(),
                None => String::new(),
            }
        })
        .collect()
}

/// The tags the writer writes itself for a game: Seven Tag Roster, seats, the game's tags.
fn reserved_tags(info: &GameInfo, seats: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = [
        "Event",
        "Site",
        "Date",
        "Round",
        "Result",
        "Game",
        "SetUp",
        "FEN",
        "Termination",
        "TimeControl",
        "Time",
        "PlyCount",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    v.extend(seats.iter().map(|s| s.to_string()));
    v.extend(info.settings.iter().map(|s| setting_tag(s.name)));
    v
}

fn push_tag(out: &mut String, name: &str, value: &str) {
    out.push('[');
    out.push_str(name);
    out.push_str(" \"");
    for c in value.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out.push_str("\"]\n");
}

fn or_unknown<'a>(value: &'a str, unknown: &'a str) -> &'a str {
    if value.trim().is_empty() {
        unknown
    } else {
        value
    }
}

/// A comment as written and read: whitespace runs become one space, `}` (which would end it)
/// becomes `)`; `None` if nothing is left.
pub fn clean_comment(text: &str) -> Option<String> {
    let words: Vec<String> = text
        .split_whitespace()
        .map(|w| w.replace('}', ")"))
        .collect();
    (!words.is_empty()).then(|| words.join(" "))
}

/// The move number of the start position's first turn: its `move-number` fact when it has one
/// (as the position strings of chess-like games count), else 1. At most
/// [`MAX_MOVE_NUMBER`](crate::MAX_MOVE_NUMBER), as a position string holds it.
pub fn first_move_number(record: &dyn DynRecord) -> u64 {
    let start = registry::find(record.info().id)
        .ok()
        .and_then(|g| g.new_game_at(&record.start_string()).ok());
    start
        .and_then(|r| {
            r.facts().into_iter().find_map(|f| match f.value {
                FactValue::Number(n) if f.name == "move-number" && f.player.is_none() => {
                    u64::try_from(n).ok()
                }
                _ => None,
            })
        })
        .filter(|&n| (1..=MAX_TURN).contains(&n))
        .unwrap_or(1)
}

/// The last move number: past it the turns keep it, as the positions' counters do
/// ([`crate::counters`]).
const MAX_TURN: u64 = crate::MAX_MOVE_NUMBER as u64;

/// Counts the turns of the history: a new turn begins with each move of player 0 but the
/// first step; at [`MAX_TURN`] the count stays.
struct Numbering {
    turn: u64,
    first: bool,
    written_this_turn: bool,
}

impl Numbering {
    fn new(first: u64) -> Self {
        Numbering {
            turn: first,
            first: true,
            written_this_turn: false,
        }
    }

    /// Sees a move of the history; for a written move, returns the number to write before it
    /// (`7.` before player 0's move, `7...` before the first written move of a turn by another
    /// player), if any.
    fn see(&mut self, player: Player, written: bool) -> Option<String> {
        if player == 0 && !self.first {
            self.turn = (self.turn + 1).min(MAX_TURN);
            self.written_this_turn = false;
        }
        self.first = false;
        if !written {
            return None;
        }
        let label = if player == 0 {
            Some(format!("{}.", self.turn))
        } else if !self.written_this_turn {
            Some(format!("{}...", self.turn))
        } else {
            None
        };
        self.written_this_turn = true;
        label
    }

    /// The label of the next move, by `player`, without counting it.
    fn label(&self, player: Player) -> String {
        if player == 0 && !self.first {
            format!("{}.", (self.turn + 1).min(MAX_TURN))
        } else if player == 0 {
            format!("{}.", self.turn)
        } else {
            format!("{}...", self.turn)
        }
    }
}

/// Writes one game: tags, a blank line, the movetext wrapped at [`LINE_WIDTH`] columns ending
/// with the result, and a blank line, so that records written one after the other make a file.
///
/// `comments[i]` is the comment of the `i`-th written move (the moves of `record.history()`
/// that are not `automatic`, in order); missing entries are none. See `docs/records.md`.
pub fn write_game(record: &dyn DynRecord, header: &Header, comments: &[Option<String>]) -> String {
    let info = record.info();
    let names = record.player_names();
    let players = names.len();
    let steps = record.steps();
    let mut out = String::new();

    push_tag(&mut out, "Event", or_unknown(&header.event, "?"));
    push_tag(&mut out, "Site", or_unknown(&header.site, "?"));
    push_tag(&mut out, "Date", or_unknown(&header.date, "????.??.??"));
    push_tag(&mut out, "Round", or_unknown(&header.round, "?"));
    for (i, seat) in names.iter().enumerate() {
        let name = header.players.get(i).map(String::as_str).unwrap_or("");
        push_tag(&mut out, seat, or_unknown(name, "?"));
    }
    let result = record.result();
    let (result_text, termination) = result_tags(result.as_ref(), players);
    push_tag(&mut out, "Result", &result_text);
    push_tag(&mut out, "Game", info.id);
    let remembered = record.settings();
    let mut settings = Settings::new();
    for s in info.settings {
        let value = remembered.get(info, s.name).unwrap_or(s.default);
        settings = settings.with(s.name, value);
        push_tag(&mut out, &setting_tag(s.name), value);
    }
    let start = record.start_string();
    let standard = registry::find(info.id)
        .ok()
        .and_then(|g| g.new_game(&settings).ok())
        .map(|r| r.start_string());
    if standard.as_deref() != Some(start.as_str()) {
        push_tag(&mut out, "SetUp", "1");
        push_tag(&mut out, "FEN", &start);
    }
    if let Some(t) = termination {
        push_tag(&mut out, "Termination", t);
    }
    if let Some(tc) = &header.time_control {
        push_tag(&mut out, "TimeControl", tc);
    }
    if let Some(t) = &header.time {
        push_tag(&mut out, "Time", t);
    }
    let plies = steps
        .iter()
        .filter(|s| matches!(s, Step::Move(m) if !m.automatic))
        .count();
    push_tag(&mut out, "PlyCount", &plies.to_string());
    let mut written: Vec<String> = reserved_tags(info, names);
    for (name, value) in &header.extra {
        let name: String = name
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        if name.is_empty() || written.contains(&name) {
            continue;
        }
        push_tag(&mut out, &name, value);
        written.push(name);
    }
    out.push('\n');

    // The movetext, as units that are never split across lines: a number with its move, a
    // token, a comment (a comment longer than a line, word by word).
    let mut units: Vec<String> = Vec::new();
    let push_comment = |units: &mut Vec<String>, c: &str| {
        if let Some(c) = clean_comment(c) {
            if c.chars().count() + 2 <= LINE_WIDTH {
                units.push(format!("{{{c}}}"));
                return;
            }
            let words: Vec<&str> = c.split(' ').collect();
            let last = words.len() - 1;
            for (i, w) in words.iter().enumerate() {
                let mut u = String::new();
                if i == 0 {
                    u.push('{');
                }
                u.push_str(w);
                if i == last {
                    u.push('}');
                }
                units.push(u);
            }
        }
    };
    if let Some(c) = &header.comment {
        push_comment(&mut units, c);
    }
    let mut numbering = Numbering::new(first_move_number(record));
    let mut index = 0;
    for step in &steps {
        match step {
            Step::Move(m) => {
                let label = numbering.see(m.player, !m.automatic);
                if m.automatic {
                    continue;
                }
                units.push(match label {
                    Some(l) => format!("{l} {}", m.text),
                    None => m.text.clone(),
                });
                if let Some(Some(c)) = comments.get(index) {
                    push_comment(&mut units, c);
                }
                index += 1;
            }
            Step::Dropout { player, reason } => {
                units.push(format!("out:{}:{}", *player as usize + 1, reason.id));
            }
            Step::Declared(_) => {}
        }
    }
    units.push(result_text);

    let mut line = String::new();
    let mut width = 0;
    for u in units {
        let w = u.chars().count();
        if width > 0 && width + 1 + w > LINE_WIDTH {
            out.push_str(&line);
            out.push('\n');
            line.clear();
            width = 0;
        }
        if width > 0 {
            line.push(' ');
            width += 1;
        }
        line.push_str(&u);
        width += w;
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

// ---------------------------------------------------------------------------------------------
// Reading: lexing

#[derive(Debug)]
enum Tok {
    Tag(String, String),
    Word(String),
    Comment(String),
    Open,
    Close,
}

/// A game's tags and movetext, lexed but not yet understood.
#[derive(Default)]
struct RawGame {
    line: usize,
    tags: Vec<(String, String, usize)>,
    items: Vec<(Tok, usize)>,
    result: (String, usize),
}

/// A lexing error: where it is, and where to look for the next game.
struct LexError {
    error: RecordError,
    /// Go on at the next game after this byte offset (on the error's line), or exactly here
    /// when `exact`.
    resume: usize,
    exact: bool,
}

/// Reads records one game at a time: an iterator of games or errors. After a bad game it goes
/// on with the next one: at once when the bad game could be read to its result, else at the
/// next line that starts with `[` after a blank line.
pub struct GameReader<'a> {
    text: &'a str,
    pos: usize,
    line: usize,
}

impl<'a> GameReader<'a> {
    pub fn new(text: &'a str) -> Self {
        let pos = if text.starts_with('\u{feff}') { 3 } else { 0 };
        GameReader { text, pos, line: 1 }
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    fn at_line_start(&self) -> bool {
        self.pos == 0 || self.text.as_bytes()[self.pos - 1] == b'\n'
    }

    fn bump(&mut self) {
        if self.peek() == Some(b'\n') {
            self.line += 1;
        }
        self.pos += 1;
    }

    /// Skips whitespace and escape lines (`%` in the first column).
    fn skip_space(&mut self) {
        while let Some(b) = self.peek() {
            if b == b'%' && self.at_line_start() {
                while self.peek().is_some_and(|b| b != b'\n') {
                    self.bump();
                }
            } else if b.is_ascii_whitespace() {
                self.bump();
            } else {
                break;
            }
        }
    }

    fn lex_error(&self, line: usize, at: usize, message: impl Into<String>) -> LexError {
        LexError {
            error: RecordError::new(line, message),
            resume: at,
            exact: false,
        }
    }

    /// The next token (after `skip_space`), which must exist.
    fn token(&mut self) -> Result<(Tok, usize), LexError> {
        let line = self.line;
        let at = self.pos;
        let b = self.peek().unwrap_or(b' ');
        match b {
            b'[' => self.tag(line, at),
            b'{' => {
                self.bump();
                let from = self.pos;
                match self.text[from..].find('}') {
                    Some(k) => {
                        while self.pos < from + k {
                            self.bump();
                        }
                        self.bump();
                        let text = &self.text[from..from + k];
                        Ok((Tok::Comment(text.to_string()), line))
                    }
                    None => Err(self.lex_error(
                        line,
                        at,
                        "a comment opened with { is never closed with }",
                    )),
                }
            }
            b';' => {
                self.bump();
                let from = self.pos;
                while self.peek().is_some_and(|b| b != b'\n') {
                    self.bump();
                }
                Ok((Tok::Comment(self.text[from..self.pos].to_string()), line))
            }
            b'(' => {
                self.bump();
                Ok((Tok::Open, line))
            }
            b')' => {
                self.bump();
                Ok((Tok::Close, line))
            }
            b'}' | b']' => {
                self.bump();
                Err(self.lex_error(
                    line,
                    at,
                    format!("unexpected {}: nothing opened it", b as char),
                ))
            }
            _ => {
                while self
                    .peek()
                    .is_some_and(|b| !b.is_ascii_whitespace() && !b"[]{}();".contains(&b))
                {
                    self.bump();
                }
                // Stops at ASCII bytes only, so the slice is on character boundaries.
                Ok((Tok::Word(self.text[at..self.pos].to_string()), line))
            }
        }
    }

    /// A tag pair `[Name "value"]` on one line.
    fn tag(&mut self, line: usize, at: usize) -> Result<(Tok, usize), LexError> {
        const FORM: &str = "a tag is [Name \"value\"] on one line";
        self.bump();
        self.skip_blanks();
        let from = self.pos;
        while self
            .peek()
            .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_')
        {
            self.bump();
        }
        let name = self.text[from..self.pos].to_string();
        if name.is_empty() {
            return Err(self.lex_error(line, at, format!("a tag without a name: {FORM}")));
        }
        self.skip_blanks();
        if self.peek() != Some(b'"') {
            return Err(self.lex_error(
                line,
                at,
                format!("tag {name}: the value must be in double quotes: {FORM}"),
            ));
        }
        self.bump();
        let mut value = String::new();
        loop {
            let rest = &self.text[self.pos..];
            let Some(c) = rest.chars().next() else {
                return Err(self.lex_error(
                    line,
                    at,
                    format!("tag {name}: the value is not closed with \" before the end"),
                ));
            };
            match c {
                '\n' | '\r' => {
                    return Err(self.lex_error(
                        line,
                        at,
                        format!("tag {name}: the value is not closed with \" on its line"),
                    ))
                }
                '"' => {
                    self.bump();
                    break;
                }
                '\\' if matches!(rest.as_bytes().get(1), Some(b'"' | b'\\')) => {
                    value.push(rest.as_bytes()[1] as char);
                    self.pos += 2;
                }
                c => {
                    // As the writer writes them.
                    value.push(if c.is_control() { ' ' } else { c });
                    self.pos += c.len_utf8();
                }
            }
        }
        self.skip_blanks();
        if self.peek() != Some(b']') {
            return Err(self.lex_error(
                line,
                at,
                format!("tag {name}: expected ] after the value: {FORM}"),
            ));
        }
        self.bump();
        Ok((Tok::Tag(name, value), line))
    }

    /// Spaces and tabs, not line ends.
    fn skip_blanks(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.bump();
        }
    }

    /// Moves to a byte offset (on a character boundary), keeping the line count.
    fn seek(&mut self, to: usize) {
        let bytes = self.text.as_bytes();
        let to = to.min(bytes.len());
        if to >= self.pos {
            self.line += bytes[self.pos..to].iter().filter(|&&b| b == b'\n').count();
        } else {
            self.line -= bytes[to..self.pos].iter().filter(|&&b| b == b'\n').count();
        }
        self.pos = to;
    }

    /// After a lexing error at `from`: on to the next line that starts with `[` after a blank
    /// line, from the line after the one of `from`.
    fn resync(&mut self, from: usize) {
        self.seek(from);
        let mut prev_blank = false;
        loop {
            // To the end of this line, then past it.
            let end = self.text[self.pos..]
                .find('\n')
                .map_or(self.text.len(), |k| self.pos + k);
            self.seek(end);
            if self.peek().is_none() {
                return;
            }
            self.bump();
            let rest = &self.text[self.pos..];
            let l = rest.split('\n').next().unwrap_or("");
            if l.starts_with('[') && prev_blank {
                return;
            }
            prev_blank = l.trim().is_empty();
        }
    }

    /// Lexes one game up to its result; `None` at the end of the text.
    fn raw_game(&mut self) -> Option<Result<RawGame, LexError>> {
        let mut raw = RawGame::default();
        let mut depth = 0usize;
        let mut variation_line = 0;
        let mut last_line = self.line;
        loop {
            self.skip_space();
            if self.peek().is_none() {
                if raw.tags.is_empty() && raw.items.is_empty() && depth == 0 {
                    return None;
                }
                let message = if depth > 0 {
                    format!("the variation opened with ( on line {variation_line} is never closed")
                } else {
                    "the text ends before the game's result (1-0, 0-1, 1/2-1/2, …, or *)"
                        .to_string()
                };
                let line = if depth > 0 { variation_line } else { last_line };
                return Some(Err(LexError {
                    error: RecordError::new(line, message),
                    resume: self.pos,
                    exact: true,
                }));
            }
            let at = self.pos;
            let at_line = self.line;
            if raw.line == 0 {
                raw.line = at_line;
            }
            if self.peek() == Some(b'[') && !raw.items.is_empty() && depth == 0 {
                // A new game's tags: the moves before it had no result.
                return Some(Err(LexError {
                    error: RecordError::new(
                        raw.items[0].1,
                        format!(
                            "the moves from here end without a result (1-0, 0-1, 1/2-1/2, …, \
                             or *) before the tag on line {at_line}"
                        ),
                    ),
                    resume: at,
                    exact: true,
                }));
            }
            let (tok, line) = match self.token() {
                Ok(t) => t,
                Err(e) => return Some(Err(e)),
            };
            last_line = line;
            match tok {
                Tok::Tag(..) if depth > 0 => {
                    return Some(Err(self.lex_error(line, at, "a tag inside a variation")))
                }
                Tok::Tag(name, value) => raw.tags.push((name, value, line)),
                Tok::Open => {
                    if depth == 0 {
                        variation_line = line;
                    }
                    depth += 1;
                }
                Tok::Close if depth == 0 => {
                    return Some(Err(self.lex_error(
                        line,
                        at,
                        "unexpected ): no variation is open",
                    )))
                }
                Tok::Close => depth -= 1,
                _ if depth > 0 => {}
                Tok::Word(w) if is_result_marker(&w) => {
                    raw.result = (w, line);
                    return Some(Ok(raw));
                }
                tok => raw.items.push((tok, line)),
            }
        }
    }
}

/// `*`, or words of digits and `/` joined by `-`: a game termination marker (never a move
/// text, which starts with a letter).
fn is_result_marker(w: &str) -> bool {
    w == "*"
        || (w.contains('-')
            && w.split('-')
                .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit() || b == b'/')))
}

/// What a movetext word plays: `None` for a move number (`12.`, `12...`), a numeric
/// annotation glyph (`$1`) or a suffix annotation alone; else the move or `out:` token, move
/// number prefix (`1.e4`) and suffix annotations (`!`, `?`) taken off.
fn movetext_token(w: &str) -> Option<&str> {
    let digits = w.bytes().take_while(u8::is_ascii_digit).count();
    let mut rest = w;
    if digits > 0 {
        let after = &w[digits..];
        let dots = after.bytes().take_while(|&b| b == b'.').count();
        if dots > 0 || after.is_empty() {
            rest = &after[dots..];
        }
    }
    let rest = rest.trim_start_matches('.');
    if rest.len() > 1 && rest.starts_with('$') && rest[1..].bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let rest = rest.trim_end_matches(['!', '?']);
    (!rest.is_empty()).then_some(rest)
}

impl Iterator for GameReader<'_> {
    type Item = Result<ReadGame, RecordError>;

    fn next(&mut self) -> Option<Self::Item> {
        match self.raw_game()? {
            Ok(raw) => Some(interpret(raw)),
            Err(e) => {
                if e.exact {
                    self.seek(e.resume);
                } else {
                    self.resync(e.resume);
                }
                Some(Err(e.error))
            }
        }
    }
}

/// Reads every game of a record file; the first bad game's error, with its line.
pub fn read_games(text: &str) -> Result<Vec<ReadGame>, RecordError> {
    GameReader::new(text).collect()
}

// ---------------------------------------------------------------------------------------------
// Reading: replaying

/// A `Termination` value: a reason id, or one of PGN's standard values that means one.
fn termination_reason(value: &str) -> Option<Reason> {
    match value {
        "time forfeit" => Some(Reason::TIME),
        "rules infraction" => Some(Reason::ILLEGAL_MOVE),
        "abandoned" => Some(Reason::CRASH),
        other => Reason::find(other),
    }
}

fn interpret(raw: RawGame) -> Result<ReadGame, RecordError> {
    let RawGame {
        line: first_line,
        tags,
        items,
        result: (marker, marker_line),
    } = raw;
    for (i, (name, _, line)) in tags.iter().enumerate() {
        if tags[..i].iter().any(|(n, _, _)| n == name) {
            return Err(RecordError::new(*line, format!("tag {name} given twice")));
        }
    }
    let tag = |name: &str| {
        tags.iter()
            .find(|(n, _, _)| n == name)
            .map(|(_, v, l)| (v.as_str(), *l))
    };

    // The game and its start.
    let known = || {
        let ids: Vec<&str> = registry::games().iter().map(|g| g.info().id).collect();
        ids.join(", ")
    };
    let game = match tag("Game") {
        Some((id, line)) => {
            registry::find(id).map_err(|e| RecordError::new(line, e.to_string()))?
        }
        None => tag("Variant")
            .and_then(|(v, _)| registry::find(&v.to_ascii_lowercase()).ok())
            .ok_or_else(|| {
                RecordError::new(
                    first_line,
                    format!(
                        "no Game tag: say which game this is, like [Game \"ackenhead\"] (the \
                         games are {})",
                        known()
                    ),
                )
            })?,
    };
    let info = game.info();
    let mut settings = Settings::new();
    for s in info.settings {
        if let Some((value, line)) = tag(&setting_tag(s.name)) {
            let one = Settings::new().with(s.name, value);
            one.validate(info)
                .map_err(|e| RecordError::new(line, e.to_string()))?;
            settings = settings.with(s.name, value);
        }
    }
    let mut record = match tag("FEN") {
        Some((fen, line)) => game
            .new_game_from(&settings, fen)
            .map_err(|e| RecordError::new(line, format!("FEN: {e}")))?,
        None => {
            if let Some(("1", line)) = tag("SetUp") {
                return Err(RecordError::new(
                    line,
                    "SetUp is 1 but there is no FEN tag with the start position",
                ));
            }
            game.new_game(&settings)
                .map_err(|e| RecordError::new(first_line, e.to_string()))?
        }
    };
    let names = record.player_names();
    let players = names.len();

    // The result, as the movetext ends and as the tag says.
    let marker_points =
        parse_result(&marker, players).map_err(|m| RecordError::new(marker_line, m))?;
    let (result_text, result_points, result_line) = match tag("Result") {
        Some((value, line)) => {
            let points = parse_result(value, players).map_err(|m| RecordError::new(line, m))?;
            let same = match (&points, &marker_points) {
                (Some(a), Some(b)) => same_points(a, b),
                (None, None) => true,
                _ => false,
            };
            if !same {
                return Err(RecordError::new(
                    marker_line,
                    format!(
                        "the moves end with the result {} but the Result tag says {}",
                        shortened(&marker),
                        shortened(value)
                    ),
                ));
            }
            (value.to_string(), points, line)
        }
        None => (marker.clone(), marker_points, marker_line),
    };

    // The moves.
    let first_number = first_move_number(&*record);
    let mut comments: Vec<Option<String>> = Vec::new();
    let mut comment: Option<String> = None;
    for (tok, line) in items {
        match tok {
            Tok::Comment(c) => {
                let Some(c) = clean_comment(&c) else { continue };
                let slot = match comments.last_mut() {
                    Some(slot) => slot,
                    None => &mut comment,
                };
                *slot = Some(match slot.take() {
                    Some(before) => format!("{before} {c}"),
                    None => c,
                });
            }
            Tok::Word(w) => {
                let Some(token) = movetext_token(&w) else {
                    continue;
                };
                let player = record.to_move();
                if let Err(e) = play_token(&mut *record, token) {
                    let message = match e {
                        TokenError::Move(e) => match record.result() {
                            Some(r) => format!(
                                "{:?} comes after the end of the game ({})",
                                shortened(token),
                                r.describe(names)
                            ),
                            None => {
                                let name = names.get(player as usize).copied().unwrap_or("?");
                                // Count the moves played so far, to name this one.
                                let mut numbering = Numbering::new(first_number);
                                for m in record.history() {
                                    numbering.see(m.player, !m.automatic);
                                }
                                format!(
                                    "move {} of {name}, {:?}: {e}; {name} has {} legal moves",
                                    numbering.label(player),
                                    shortened(token),
                                    record.legal_moves().len()
                                )
                            }
                        },
                        e => e.to_string(),
                    };
                    return Err(RecordError::new(line, message));
                }
                if !token
                    .get(..4)
                    .is_some_and(|p| p.eq_ignore_ascii_case("out:"))
                {
                    comments.push(None);
                }
            }
            // The lexer keeps only words and comments in the movetext.
            Tok::Tag(..) | Tok::Open | Tok::Close => {}
        }
    }
    if let Some((value, line)) = tag("PlyCount") {
        if value.parse::<usize>().ok() != Some(comments.len()) {
            return Err(RecordError::new(
                line,
                format!(
                    "PlyCount is {:?} but the movetext has {} moves",
                    shortened(value),
                    comments.len()
                ),
            ));
        }
    }

    // The end: over by the moves, or ended off the board as the tags say.
    let termination = tag("Termination");
    match (record.result(), result_points) {
        (Some(result), points) => {
            let actual = points_string(&result.points(players));
            let matches = points.is_some_and(|p| same_points(&p, &result.points(players)));
            if !matches {
                return Err(RecordError::new(
                    result_line,
                    format!(
                        "the moves end the game, {} ({actual}), but the result given is {}",
                        result.describe(names),
                        shortened(&result_text)
                    ),
                ));
            }
            if let Some((value, line)) = termination {
                let reason = result.outcome.reason();
                if value != "normal" && termination_reason(value) != Some(reason) {
                    return Err(RecordError::new(
                        line,
                        format!(
                            "Termination is {:?} but the moves end the game {}",
                            shortened(value),
                            reason.text
                        ),
                    ));
                }
            }
        }
        (None, None) => {
            if let Some((value, line)) = termination {
                if value != "unterminated" {
                    return Err(RecordError::new(
                        line,
                        format!(
                            "Termination is {:?} but the game is unfinished (result *)",
                            shortened(value)
                        ),
                    ));
                }
            }
        }
        (None, Some(points)) => {
            let winner = (0..players).find(|&p| (points[p] - 1.0).abs() < 1e-9);
            let reason = match termination {
                None if winner.is_some() => Reason::RESIGNATION,
                None => Reason::AGREEMENT,
                Some((value, line)) => termination_reason(value)
                    .filter(|r| DECLARED_REASONS.contains(r))
                    .ok_or_else(|| {
                        RecordError::new(
                            line,
                            format!(
                                "Termination is {:?} but the moves leave the game unfinished: a \
                                 game ended off the board ends by {}",
                                shortened(value),
                                ids(DECLARED_REASONS)
                            ),
                        )
                    })?,
            };
            let fits = match reason {
                r if r == Reason::AGREEMENT => winner.is_none(),
                r if r == Reason::TIME || r == Reason::ADJUDICATION => true,
                _ => winner.is_some(),
            };
            let line = termination.map_or(result_line, |(_, l)| l);
            if !fits {
                return Err(RecordError::new(
                    line,
                    format!(
                        "the result {} cannot end a game by {}, which {}",
                        shortened(&result_text),
                        reason.id,
                        if winner.is_some() {
                            "makes a draw"
                        } else {
                            "gives one player the win"
                        }
                    ),
                ));
            }
            let outcome = match winner {
                Some(w) => {
                    let w = w as Player;
                    if !record.players_in().contains(&w) {
                        return Err(RecordError::new(
                            result_line,
                            format!(
                                "the result {} makes {} the winner, who is out of the game",
                                shortened(&result_text),
                                names[w as usize]
                            ),
                        ));
                    }
                    Outcome::Win { winner: w, reason }
                }
                None => Outcome::Draw { reason },
            };
            record.declare(outcome);
            let got = record
                .result()
                .map(|r| r.points(players))
                .unwrap_or_default();
            if !same_points(&got, &points) {
                let still: Vec<&str> = record
                    .players_in()
                    .iter()
                    .map(|&p| names[p as usize])
                    .collect();
                return Err(RecordError::new(
                    result_line,
                    format!(
                        "the result {} cannot be: after the moves {} are in the game, and \
                         this ends it {}",
                        shortened(&result_text),
                        still.join(", "),
                        points_string(&got)
                    ),
                ));
            }
        }
    }

    Ok(ReadGame {
        tags: tags.into_iter().map(|(n, v, _)| (n, v)).collect(),
        record,
        comments,
        comment,
        line: first_line,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_read_and_write() {
        assert_eq!(points_string(&[1.0, 0.0]), "1-0");
        assert_eq!(points_string(&[0.5, 0.5]), "1/2-1/2");
        assert_eq!(points_string(&[0.5, 0.0, 0.5]), "1/2-0-1/2");
        assert_eq!(
            points_string(&[1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0]),
            "1/3-1/3-1/3"
        );
        assert_eq!(parse_result("*", 3), Ok(None));
        assert_eq!(parse_result("0-1", 2), Ok(Some(vec![0.0, 1.0])));
        assert_eq!(parse_result("1/2-0-1/2", 3), Ok(Some(vec![0.5, 0.0, 0.5])));
        for bad in [
            "1-0",
            "2-0-0",
            "1/2-1/2-1/2",
            "a-b-c",
            "1/0-0-1",
            "--",
            "1-0-",
        ] {
            assert!(parse_result(bad, 3).is_err(), "{bad}");
        }
        assert!(parse_result("1-1", 2).unwrap_err().contains("add up to 1"));
    }

    #[test]
    fn movetext_words() {
        assert_eq!(movetext_token("12."), None);
        assert_eq!(movetext_token("12..."), None);
        assert_eq!(movetext_token("12"), None);
        assert_eq!(movetext_token("$14"), None);
        assert_eq!(movetext_token("!?"), None);
        assert_eq!(movetext_token("1.e2e4"), Some("e2e4"));
        assert_eq!(movetext_token("3...d7-d5!?"), Some("d7-d5"));
        assert_eq!(movetext_token("out:2:time"), Some("out:2:time"));
        assert!(is_result_marker("1/2-1/2"));
        assert!(is_result_marker("1-0-0"));
        assert!(is_result_marker("*"));
        assert!(!is_result_marker("e2-e4"));
        assert!(!is_result_marker("1."));
        assert_eq!(setting_tag("region"), "Region");
        assert_eq!(setting_tag("max-plies"), "MaxPlies");
    }
}
