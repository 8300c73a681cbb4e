//! A position and its moves as a board is drawn from them, serialisable (feature `serde`): the
//! server's game states and explorer (crates/server, docs/api.md) and the browser's module
//! (crates/wasm) send these same views.

use crate::dynamic::{DynRecord, MoveDesc, PlayedMove};
use crate::edit::{palette, Edit};
use crate::game::{Cell, GrammaticalNumber, PieceView, Player};
use crate::outcome::{Elimination, GameResult};
use crate::registry;

/// A legal move, with what a board needs to show it.
#[derive(serde::Serialize)]
pub struct LegalMove {
    pub text: String,
    pub from: Option<Cell>,
    pub to: Option<Cell>,
    pub captures: Vec<Cell>,
    /// The letter of the kind the piece becomes, if it promotes.
    pub promotion: Option<String>,
    /// How many of the mover's pieces it carries.
    pub pieces_moved: u8,
}

impl From<&MoveDesc> for LegalMove {
    fn from(m: &MoveDesc) -> LegalMove {
        LegalMove {
            text: m.text.clone(),
            from: m.cells.from,
            to: m.cells.to,
            captures: m.cells.captures.clone(),
            promotion: m.promotion.map(String::from),
            pieces_moved: m.pieces_moved,
        }
    }
}

/// A move played, with its cells.
#[derive(serde::Serialize)]
pub struct PlayedView {
    pub player: Player,
    pub text: String,
    pub from: Option<Cell>,
    pub to: Option<Cell>,
    pub captures: Vec<Cell>,
}

impl From<&PlayedMove> for PlayedView {
    fn from(m: &PlayedMove) -> PlayedView {
        PlayedView {
            player: m.player,
            text: m.text.clone(),
            from: m.cells.from,
            to: m.cells.to,
            captures: m.cells.captures.clone(),
        }
    }
}

/// How a game ended, for people and programs.
#[derive(serde::Serialize)]
pub struct OutcomeView {
    /// The winner's seat; none for a draw.
    pub winner: Option<Player>,
    pub reason: &'static str,
    /// "White wins by checkmate".
    pub text: String,
}

impl OutcomeView {
    pub fn of(result: &GameResult, players: &[&str], number: GrammaticalNumber) -> OutcomeView {
        OutcomeView {
            winner: result.outcome.winner(),
            reason: result.outcome.reason().id,
            text: result.describe(players, number),
        }
    }
}

/// A seat out of a game of three.
#[derive(serde::Serialize)]
pub struct EliminationView {
    pub seat: Player,
    pub reason: &'static str,
    pub text: String,
}

impl EliminationView {
    pub fn of(e: &Elimination, players: &[&str], number: GrammaticalNumber) -> EliminationView {
        EliminationView {
            seat: e.player,
            reason: e.reason.id,
            text: e.describe(players, number),
        }
    }
}

/// A position and its moves: what every board is drawn from (a game's state, the explorer).
#[derive(serde::Serialize)]
pub struct PositionView {
    pub game: &'static str,
    pub start: String,
    /// The move number of the start position's first turn.
    pub first_move_number: u64,
    pub position: String,
    pub players: &'static [&'static str],
    /// How English takes the players' names: "White wins", "the Termides win".
    pub players_number: GrammaticalNumber,
    /// The seat to move; none once the game is over.
    pub to_move: Option<Player>,
    /// The piece on each cell.
    pub board: Vec<Option<PieceView>>,
    /// The moves since the start (or the set-up).
    pub moves: Vec<String>,
    pub history: Vec<PlayedView>,
    pub legal: Vec<String>,
    pub legal_cells: Vec<LegalMove>,
    pub check: bool,
    /// The cells of the pieces in check.
    pub check_cells: Vec<Cell>,
    /// How many times the position has occurred, and how many times draw.
    pub repetitions: usize,
    pub repetitions_to_draw: usize,
    pub outcome: Option<OutcomeView>,
}

impl PositionView {
    pub fn of(record: &dyn DynRecord) -> PositionView {
        let info = record.info();
        let players = record.player_names();
        let result = record.result();
        let over = result.is_some();
        let legal = if over {
            Vec::new()
        } else {
            record.legal_moves()
        };
        let history = record.history();
        PositionView {
            game: info.id,
            start: record.start_string(),
            first_move_number: crate::pgn::first_move_number(record),
            position: record.position_string(),
            players,
            players_number: info.players_number,
            to_move: (!over).then(|| record.to_move()),
            board: board_of(record),
            moves: history.iter().map(|m| m.text.clone()).collect(),
            history: history.iter().map(PlayedView::from).collect(),
            legal: legal.iter().map(|m| m.text.clone()).collect(),
            legal_cells: legal.iter().map(LegalMove::from).collect(),
            check: !over && record.in_check(),
            check_cells: if over {
                Vec::new()
            } else {
                record.check_cells()
            },
            repetitions: record.repetitions(),
            repetitions_to_draw: crate::record::REPETITION_COUNT,
            outcome: result
                .as_ref()
                .map(|r| OutcomeView::of(r, players, info.players_number)),
        }
    }
}

/// The pieces of a position, one entry per cell.
pub fn board_of(record: &dyn DynRecord) -> Vec<Option<PieceView>> {
    (0..record.info().geometry.cell_count())
        .map(|c| record.piece_at(c as Cell))
        .collect()
}

/// For each seat, the kinds of its pieces on the board at the start and not now (a rough view
/// of the material: a promoted pawn shows as lost, a Worker back through the Ponte as not).
pub fn captured(record: &dyn DynRecord) -> Vec<Vec<String>> {
    let info = record.info();
    let players = record.player_names().len();
    let mut out = vec![Vec::new(); players];
    let Ok(start) = registry::find(info.id)
        .map_err(|e| e.to_string())
        .and_then(|g| {
            g.new_game_at(&record.start_string())
                .map_err(|e| e.to_string())
        })
    else {
        return out;
    };
    let count = |r: &dyn DynRecord, owner: u8, kind: char| {
        (0..info.geometry.cell_count())
            .filter(|&c| r.piece_at(c as Cell) == Some(PieceView { owner, kind }))
            .count()
    };
    for (owner, lost) in out.iter_mut().enumerate() {
        for kind in info.pieces {
            let gone = count(&*start, owner as u8, kind.letter).saturating_sub(count(
                record,
                owner as u8,
                kind.letter,
            ));
            lost.extend(std::iter::repeat_n(kind.letter.to_string(), gone));
        }
    }
    out
}

/// A fact shown beside the board, as a message the page writes in its language:
/// `{"key": "<game>-info-<name>", "args": {…}}` (docs/api.md).
#[derive(serde::Serialize)]
pub struct InfoMessage {
    pub key: &'static str,
    pub args: std::collections::BTreeMap<&'static str, InfoValue>,
}

/// An argument of an [`InfoMessage`]: a number; a word (cells and lists of numbers written
/// out); a player, named by the page (`{"player": 1}`); or messages written one after another.
#[derive(serde::Serialize)]
#[serde(untagged)]
pub enum InfoValue {
    Number(i64),
    Text(String),
    Player { player: Player },
    Messages(Vec<InfoMessage>),
}

/// The position's facts (`info` of a game state), as messages.
pub fn info_messages(record: &dyn DynRecord) -> Vec<InfoMessage> {
    let geometry = record.info().geometry;
    record
        .info_messages()
        .iter()
        .map(|line| info_message(line, geometry))
        .collect()
}

fn info_message(line: &crate::InfoLine, geometry: crate::Geometry) -> InfoMessage {
    use crate::InfoArg;
    let join = |parts: Vec<String>| InfoValue::Text(parts.join(" "));
    let args = line
        .args
        .iter()
        .map(|(name, arg)| {
            let value = match arg {
                InfoArg::Number(n) => InfoValue::Number(*n),
                InfoArg::Numbers(v) => join(v.iter().map(i64::to_string).collect()),
                InfoArg::Player(p) => InfoValue::Player { player: *p },
                InfoArg::Cell(c) => InfoValue::Text(geometry.cell_name(*c)),
                InfoArg::Cells(v) => join(v.iter().map(|&c| geometry.cell_name(c)).collect()),
                InfoArg::Word(w) => InfoValue::Text(w.to_string()),
                InfoArg::Lines(lines) => {
                    InfoValue::Messages(lines.iter().map(|l| info_message(l, geometry)).collect())
                }
            };
            (*name, value)
        })
        .collect();
    InfoMessage {
        key: line.key,
        args,
    }
}

/// A piece the explorer may put on the board, with its kind's name.
#[derive(serde::Serialize)]
pub struct PaletteView {
    pub owner: Player,
    pub kind: char,
    pub name: &'static str,
}

/// The explorer's answer (the server's `POST /api/explore`, the browser module's `explore`): a
/// position set up by hand and its moves, and the pieces that may be put on its board.
#[derive(serde::Serialize)]
pub struct ExploreView {
    #[serde(flatten)]
    pub position: PositionView,
    pub palette: Vec<PaletteView>,
}

/// What the explorer is asked: a game's position (or the start of its settings), set up by
/// hand (`clear`, then `put` by cell name, then `to_move`), then a line of moves played from it.
#[derive(Debug, Default)]
pub struct ExploreQuery<'a> {
    pub game: &'a str,
    pub position: Option<&'a str>,
    pub settings: &'a [(String, String)],
    pub clear: bool,
    pub put: &'a [(String, Option<PieceView>)],
    pub to_move: Option<Player>,
    pub moves: &'a [String],
}

/// Why the explorer refuses a query, naming the field at fault.
#[derive(Debug, thiserror::Error)]
pub enum ExploreError {
    #[error("game: {0}")]
    UnknownGame(crate::error::UnknownGame),
    #[error("settings: the position fixes them: give a position or settings")]
    SettingsAndPosition,
    #[error("settings: {0}")]
    Settings(crate::error::SettingError),
    #[error("position: {0}")]
    Position(crate::error::PositionError),
    #[error("put: {cell:?} is not a cell of {game}")]
    NotACell { cell: String, game: &'static str },
    #[error("put: {0}")]
    Put(crate::error::PositionError),
    #[error("moves: move {n} {text:?}: {detail}")]
    LineMove {
        n: usize,
        text: String,
        detail: crate::error::MoveError,
    },
}

/// The explorer: the position `query` sets up, with its line played, and its palette.
pub fn explore(query: &ExploreQuery) -> Result<ExploreView, ExploreError> {
    let game = registry::find(query.game).map_err(ExploreError::UnknownGame)?;
    let info = game.info();
    let record = match query.position {
        Some(text) => {
            if !query.settings.is_empty() {
                return Err(ExploreError::SettingsAndPosition);
            }
            game.new_game_at(text).map_err(ExploreError::Position)?
        }
        None => {
            let mut settings = crate::game::Settings::new();
            for (name, value) in query.settings {
                settings = settings.with(name, value);
            }
            game.new_game(&settings).map_err(ExploreError::Settings)?
        }
    };
    let mut edit = Edit {
        clear: query.clear,
        put: Vec::with_capacity(query.put.len()),
        to_move: query.to_move,
    };
    for (cell, piece) in query.put {
        let at = info
            .geometry
            .parse_cell(cell)
            .ok_or_else(|| ExploreError::NotACell {
                cell: cell.clone(),
                game: info.name,
            })?;
        edit.put.push((at, *piece));
    }
    let mut record = if edit == Edit::default() {
        record
    } else {
        let text = game
            .edit_position(&record.position_string(), &edit)
            .map_err(ExploreError::Put)?;
        game.new_game_at(&text).map_err(ExploreError::Position)?
    };
    // The line: every move through the rules, refused whole at the first bad one.
    for (i, text) in query.moves.iter().enumerate() {
        record.play(text).map_err(|detail| ExploreError::LineMove {
            n: i + 1,
            text: text.clone(),
            detail,
        })?;
    }
    let palette = palette(info, record.player_names())
        .into_iter()
        .map(|p| PaletteView {
            owner: p.owner,
            kind: p.kind,
            name: info
                .pieces
                .iter()
                .find(|k| k.letter == p.kind)
                .map_or("", |k| k.name),
        })
        .collect();
    Ok(ExploreView {
        position: PositionView::of(&*record),
        palette,
    })
}
