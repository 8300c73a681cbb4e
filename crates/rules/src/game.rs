//! The `Game` and `Position` traits every game implements.
//!
//! Two layers:
//!
//! * [`Game`] / [`Position`]: generic, monomorphised, for speed. A search or a perft works on a
//!   concrete `Position` type with `make_move` / `unmake_move` and never allocates per node.
//! * [`crate::dynamic`]: an object-safe layer over any `Game`, for the command line, the server
//!   and the UI, which speak in strings and loop over the [`crate::registry`].

use std::fmt;
use std::hash::Hash;

use crate::error::{MoveError, PositionError, SettingError};
use crate::geometry::Geometry;
use crate::outcome::Outcome;

/// A player, numbered from 0 in turn order (`GameInfo::players[i]` is its name).
pub type Player = u8;

/// A cell of a game's board, as an index into its [`Geometry`] (see `Geometry::cell_name`).
pub type Cell = u16;

/// A piece as seen from outside: its owner and its kind letter (the upper-case letter of
/// [`PieceKind::letter`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PieceView {
    pub owner: Player,
    pub kind: char,
}

/// The cells a move touches, for highlighting on a board: where the moving piece starts and ends,
/// and every cell whose piece it captures. A `pass` has none.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveCells {
    pub from: Option<Cell>,
    pub to: Option<Cell>,
    pub captures: Vec<Cell>,
}

/// A kind of piece of a game, for legends and help texts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceKind {
    /// The upper-case letter that names it in position strings and `PieceView::kind`.
    pub letter: char,
    pub name: &'static str,
}

/// How a game writes its pieces in its own position strings, so that boards drawn as text (and
/// later in the browser) read the same way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PieceNotation {
    /// The first player's kind letters in upper case, the second's in lower case (`K`, `k`).
    Case,
    /// The owner's letter then the kind letter (`bQ`); one owner letter per player.
    OwnerPrefix(&'static [char]),
    /// The kind letter alone: the kinds already tell the owners apart (`W`, `B`).
    Letter,
}

/// A setting of a game chosen when it is created (Jeu de Reines' region, for example).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SettingInfo {
    pub name: &'static str,
    pub values: &'static [&'static str],
    pub default: &'static str,
    pub help: &'static str,
}

/// What the registry says about a game.
#[derive(Clone, Copy, Debug)]
pub struct GameInfo {
    /// The id used on the command line, in URLs and in files (`ackenhead`).
    pub id: &'static str,
    pub name: &'static str,
    /// The players' names in turn order (`["White", "Black"]`).
    pub players: &'static [&'static str],
    pub geometry: Geometry,
    pub pieces: &'static [PieceKind],
    /// How pieces are written (and drawn).
    pub notation: PieceNotation,
    pub settings: &'static [SettingInfo],
    /// One line saying what the game is.
    pub summary: &'static str,
}

/// Chosen values of a game's settings, by name. Missing names take their defaults.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Settings(pub Vec<(String, String)>);

impl Settings {
    pub fn new() -> Self {
        Settings(Vec::new())
    }

    pub fn with(mut self, name: &str, value: &str) -> Self {
        self.0.push((name.to_string(), value.to_string()));
        self
    }

    /// Checks every chosen setting against `info` and returns the value of `name`
    /// (its default if it was not chosen).
    pub fn get<'a>(&'a self, info: &GameInfo, name: &str) -> Result<&'a str, SettingError> {
        self.validate(info)?;
        let spec = info
            .settings
            .iter()
            .find(|s| s.name == name)
            .ok_or_else(|| SettingError::Unknown {
                game: info.id,
                name: name.to_string(),
            })?;
        Ok(self
            .0
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
            .unwrap_or(spec.default))
    }

    /// Every chosen setting must exist for the game and take one of its values.
    pub fn validate(&self, info: &GameInfo) -> Result<(), SettingError> {
        for (name, value) in &self.0 {
            let spec = info
                .settings
                .iter()
                .find(|s| s.name == name)
                .ok_or_else(|| SettingError::Unknown {
                    game: info.id,
                    name: name.clone(),
                })?;
            if !spec.values.contains(&value.as_str()) {
                return Err(SettingError::BadValue {
                    name: spec.name,
                    value: value.clone(),
                    expected: spec.values,
                });
            }
        }
        Ok(())
    }
}

/// A position of one game: its state, its legal moves and how to play them.
///
/// Contract:
/// * `legal_moves` is empty exactly when the game is over *by rule* (checkmate, stalemate,
///   anthill, crossing, captured queen, …): these are the leaves of perft. Draw rules that perft
///   ignores (repetition, move counters, mutual passes, bare kings) do not empty it; they are
///   reported by [`Position::outcome`] and by [`crate::record::Record`] (repetition).
/// * `make_move` followed by `unmake_move` restores the position exactly, hash included.
/// * `hash` is maintained incrementally and equals `hash_from_scratch`; two positions with the
///   same hash are the same for the repetition rule of the game.
pub trait Position: Clone + Eq + fmt::Debug + fmt::Display + Send + Sync + 'static {
    /// A move. Small and `Copy`: searches keep millions of them.
    type Move: Copy + Eq + Hash + fmt::Debug + Send + Sync + 'static;
    /// What `unmake_move` needs to take a move back (the old position, for copy-make games).
    type Undo: Send;

    /// The player to move.
    fn to_move(&self) -> Player;

    /// Appends the legal moves to `out` (which the caller clears).
    fn legal_moves(&self, out: &mut Vec<Self::Move>);

    /// The number of legal moves; games override it to count without generating.
    fn count_legal_moves(&self) -> u64 {
        let mut v = Vec::with_capacity(256);
        self.legal_moves(&mut v);
        v.len() as u64
    }

    /// Plays a legal move. Playing a move that `legal_moves` did not produce is a logic error
    /// (it may leave a nonsensical position, but must not cause undefined behaviour).
    fn make_move(&mut self, mv: Self::Move) -> Self::Undo;

    /// Takes back the move `mv` that produced `undo`.
    fn unmake_move(&mut self, mv: Self::Move, undo: Self::Undo);

    /// The Zobrist hash (incremental).
    fn hash(&self) -> u64;

    /// The hash recomputed from the whole position (for tests).
    fn hash_from_scratch(&self) -> u64;

    /// The outcome decided by this position alone (no history), or `None` if play goes on.
    fn outcome(&self) -> Option<Outcome>;

    /// True if positions before this move can never repeat after it (capture, pawn move, …).
    /// The repetition rule only looks back to the last irreversible move.
    fn is_irreversible(&self, mv: Self::Move) -> bool;

    /// The canonical text of a legal move of this position.
    fn move_text(&self, mv: Self::Move) -> String;

    /// Reads a move text and checks that it is legal here. The error says what is wrong.
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError>;

    /// The cells a legal move touches (for highlighting).
    fn move_cells(&self, mv: Self::Move) -> MoveCells;

    /// The piece on a cell of the game's geometry.
    fn piece_at(&self, cell: Cell) -> Option<PieceView>;

    /// Extra lines a board display shows beside the board (pending Ponte Workers, far-row
    /// counts, move counters, …).
    fn info_lines(&self) -> Vec<String> {
        Vec::new()
    }
}

/// A game: its registry entry, its start position and its position-string parser.
pub trait Game: Send + Sync + 'static {
    type Pos: Position;

    fn info(&self) -> &'static GameInfo;

    /// The start position for these settings.
    fn start(&self, settings: &Settings) -> Result<Self::Pos, SettingError>;

    /// Reads a position string; the error names the field and what was expected.
    fn parse_position(&self, text: &str) -> Result<Self::Pos, PositionError>;
}

/// Perft with make/unmake and bulk counting at the last ply.
pub fn perft<P: Position>(pos: &mut P, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves(),
        _ => {
            let mut moves = Vec::with_capacity(128);
            pos.legal_moves(&mut moves);
            let mut nodes = 0;
            for &mv in &moves {
                let undo = pos.make_move(mv);
                nodes += perft(pos, depth - 1);
                pos.unmake_move(mv, undo);
            }
            nodes
        }
    }
}

/// Perft split by first move: each legal move's text and its subtree's leaf count.
pub fn divide<P: Position>(pos: &mut P, depth: u32) -> Vec<(String, u64)> {
    let mut moves = Vec::with_capacity(128);
    pos.legal_moves(&mut moves);
    let mut out = Vec::with_capacity(moves.len());
    for &mv in &moves {
        let text = pos.move_text(mv);
        let undo = pos.make_move(mv);
        let n = perft(pos, depth.saturating_sub(1));
        pos.unmake_move(mv, undo);
        out.push((text, n));
    }
    out
}
