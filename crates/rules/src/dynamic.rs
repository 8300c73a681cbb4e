//! The object-safe face of every game, for the command line, the server and the UI: positions
//! and moves as strings, legal moves with the cells they touch, the history with each move's
//! cells, results. Implemented once for every [`Game`]. Generic services (a search, perft, a
//! benchmark) reach the typed game behind a [`DynRecord`] through
//! [`crate::registry::with_record`].

use crate::edit::Edit;
use std::any::Any;

use crate::error::{MoveError, PositionError, SettingError};
use crate::game::{
    Cell, Fact, Game, GameInfo, InfoLine, MoveCells, PieceView, Player, Position, Settings,
};
use crate::outcome::{Elimination, GameResult, Outcome, Reason};
use crate::record::{Event, Record};

/// A move as the outside world sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MoveDesc {
    /// Canonical move text.
    pub text: String,
    pub cells: MoveCells,
    /// The letter of the kind the moving piece becomes, if the move promotes it.
    #[cfg_attr(feature = "serde", serde(default))]
    pub promotion: Option<char>,
    /// How many of the mover's pieces it carries ([`Position::pieces_moved`]).
    #[cfg_attr(feature = "serde", serde(default))]
    pub pieces_moved: u8,
}

/// A move of the history: who played it, and whether the record played it for a player who
/// left the game (their seat only passes).
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PlayedMove {
    pub player: Player,
    pub text: String,
    pub cells: MoveCells,
    pub automatic: bool,
}

/// One step of a game in progress, as [`DynRecord::steps`] lists them: everything a game
/// record must replay, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Step {
    /// A move on the board, chosen by its player or, `automatic`, played by the record for a
    /// player who left (their seat only passes).
    Move(PlayedMove),
    /// A player left a game of three or more (resignation, time, …) and the others play on
    /// ([`DynRecord::drop_out`]).
    Dropout { player: Player, reason: Reason },
    /// The game was ended off the board ([`DynRecord::declare`], or a resignation or a fallen
    /// flag between two).
    Declared(Outcome),
}

/// Any game, behind a pointer.
pub trait DynGame: Send + Sync {
    fn info(&self) -> &'static GameInfo;

    /// A new game from the start position.
    fn new_game(&self, settings: &Settings) -> Result<Box<dyn DynRecord>, SettingError>;

    /// A new game from a position string.
    fn new_game_at(&self, text: &str) -> Result<Box<dyn DynRecord>, PositionError>;

    /// A new game from a position string of a game played with `settings`
    /// ([`Game::parse_position_with`]): for a game record's `FEN` and setting tags.
    fn new_game_from(
        &self,
        settings: &Settings,
        text: &str,
    ) -> Result<Box<dyn DynRecord>, PositionError>;

    /// The position string `text` set up anew by hand ([`crate::edit`]).
    fn edit_position(&self, text: &str, edit: &Edit) -> Result<String, PositionError>;
}

/// A game in progress, behind a pointer.
pub trait DynRecord: Send + Sync {
    fn info(&self) -> &'static GameInfo;
    /// The current position string.
    fn position_string(&self) -> String;
    /// The position string the game started from.
    fn start_string(&self) -> String;
    fn to_move(&self) -> Player;
    /// The players' names in turn order.
    fn player_names(&self) -> &'static [&'static str];
    /// The legal moves (empty when the game is over by rule).
    fn legal_moves(&self) -> Vec<MoveDesc>;
    /// Reads a move, checks it is legal and plays it. A text that differs from a legal move's
    /// only in letter case is that move, when only one move matches.
    fn play(&mut self, text: &str) -> Result<MoveDesc, MoveError>;
    /// Takes back the last step: a move, a declared result or a player's leaving (even before
    /// the first move). False if there is none.
    fn undo(&mut self) -> bool;
    /// True if `undo` has something to take back.
    fn can_undo(&self) -> bool;
    /// The moves played since the start, each with its cells.
    fn history(&self) -> Vec<PlayedMove>;
    /// Every step since the start, in order: the moves of [`DynRecord::history`] with the
    /// players' leaving and a declared end between them (for game records).
    fn steps(&self) -> Vec<Step>;
    /// The settings the game was started with, as far as its start position remembers them
    /// ([`Position::settings`]); a setting not listed takes its default.
    fn settings(&self) -> Settings;
    /// The outcome, repetition included.
    fn outcome(&self) -> Option<Outcome>;
    /// The outcome with the players who dropped out before it.
    fn result(&self) -> Option<GameResult>;
    /// Players out of the game so far, in order.
    fn eliminations(&self) -> Vec<Elimination>;
    /// The players still in the game (all must agree to a draw).
    fn players_in(&self) -> Vec<Player>;
    /// Ends the game off the board with this outcome (a draw agreed).
    fn declare(&mut self, outcome: Outcome);
    /// `player` resigns (`Reason::RESIGNATION`) or loses on time (`Reason::TIME`): with two
    /// players the other wins; with three the player drops out and the others play on.
    fn drop_out(&mut self, player: Player, reason: Reason) -> bool;
    fn piece_at(&self, cell: Cell) -> Option<PieceView>;
    /// The state shown beside the board, as data.
    fn facts(&self) -> Vec<Fact>;
    /// The same as messages for a display in any language.
    fn info_messages(&self) -> Vec<InfoLine>;
    fn in_check(&self) -> bool;
    /// How many times the current position has occurred (the repetition rule's count: a draw
    /// at [`crate::record::REPETITION_COUNT`]).
    fn repetitions(&self) -> usize;
    /// The cells of the player to move's pieces in check ([`Position::check_cells`]).
    fn check_cells(&self) -> Vec<Cell>;
    fn hash(&self) -> u64;
    fn clone_box(&self) -> Box<dyn DynRecord>;
    /// The typed record inside, for [`crate::registry::with_record`].
    fn as_any(&self) -> &dyn Any;
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

/// The typed record behind a dynamic one, if its positions are `P`.
pub fn record_of<P: Position>(record: &dyn DynRecord) -> Option<&Record<P>> {
    record
        .as_any()
        .downcast_ref::<Wrapped<P>>()
        .map(|w| &w.record)
}

pub fn record_of_mut<P: Position>(record: &mut dyn DynRecord) -> Option<&mut Record<P>> {
    record
        .as_any_mut()
        .downcast_mut::<Wrapped<P>>()
        .map(|w| &mut w.record)
}

impl<G: Game> DynGame for G {
    fn info(&self) -> &'static GameInfo {
        Game::info(self)
    }

    fn new_game(&self, settings: &Settings) -> Result<Box<dyn DynRecord>, SettingError> {
        let start = self.start(settings)?;
        Ok(Box::new(Wrapped {
            info: Game::info(self),
            record: Record::new(start),
        }))
    }

    fn new_game_at(&self, text: &str) -> Result<Box<dyn DynRecord>, PositionError> {
        let start = self.parse_position(text)?;
        Ok(Box::new(Wrapped {
            info: Game::info(self),
            record: Record::new(start),
        }))
    }

    fn new_game_from(
        &self,
        settings: &Settings,
        text: &str,
    ) -> Result<Box<dyn DynRecord>, PositionError> {
        let start = self.parse_position_with(settings, text)?;
        Ok(Box::new(Wrapped {
            info: Game::info(self),
            record: Record::new(start),
        }))
    }

    fn edit_position(&self, text: &str, edit: &Edit) -> Result<String, PositionError> {
        let pos = self.parse_position(text)?;
        Ok(crate::edit::edit(self, &pos, edit)?.to_string())
    }
}

#[derive(Clone)]
struct Wrapped<P: Position> {
    info: &'static GameInfo,
    record: Record<P>,
}

fn played<P: Position>(pos: &P, mv: P::Move, automatic: bool) -> PlayedMove {
    PlayedMove {
        player: pos.to_move(),
        text: pos.move_text(mv),
        cells: pos.move_cells(mv),
        automatic,
    }
}

fn describe<P: Position>(info: &GameInfo, pos: &P, mv: P::Move) -> MoveDesc {
    MoveDesc {
        text: pos.move_text(mv),
        cells: pos.move_cells(mv),
        promotion: pos
            .quick_tactics(mv)
            .promotion
            .and_then(|kind| info.pieces.get(kind as usize))
            .map(|kind| kind.letter),
        pieces_moved: pos.pieces_moved(mv),
    }
}

impl<P: Position> DynRecord for Wrapped<P> {
    fn info(&self) -> &'static GameInfo {
        self.info
    }

    fn position_string(&self) -> String {
        self.record.position().to_string()
    }

    fn start_string(&self) -> String {
        self.record.start().to_string()
    }

    fn to_move(&self) -> Player {
        self.record.position().to_move()
    }

    fn player_names(&self) -> &'static [&'static str] {
        self.record.position().player_names()
    }

    fn legal_moves(&self) -> Vec<MoveDesc> {
        let pos = self.record.position();
        pos.moves()
            .iter()
            .map(|&m| describe(self.info, pos, m))
            .collect()
    }

    fn play(&mut self, text: &str) -> Result<MoveDesc, MoveError> {
        if self.record.outcome().is_some() {
            return Err(MoveError::GameOver);
        }
        let pos = self.record.position().clone();
        let text = text.trim();
        let mv = match pos.parse_move(text) {
            Ok(mv) => mv,
            Err(e @ (MoveError::Malformed { .. } | MoveError::Illegal { .. })) => {
                let mut same = pos
                    .moves()
                    .iter()
                    .copied()
                    .filter(|&m| pos.move_text(m).eq_ignore_ascii_case(text))
                    .collect::<Vec<_>>();
                match same.pop() {
                    Some(mv) if same.is_empty() => mv,
                    _ => return Err(e),
                }
            }
            Err(e) => return Err(e),
        };
        self.record.play(mv)?;
        Ok(describe(self.info, &pos, mv))
    }

    fn undo(&mut self) -> bool {
        self.record.undo()
    }

    fn can_undo(&self) -> bool {
        !self.record.events().is_empty()
    }

    fn history(&self) -> Vec<PlayedMove> {
        self.record
            .events()
            .iter()
            .zip(self.record.positions())
            .filter_map(|(e, p)| match *e {
                Event::Move(m) => Some(played(p, m, false)),
                Event::AutoPass(m) => Some(played(p, m, true)),
                _ => None,
            })
            .collect()
    }

    fn steps(&self) -> Vec<Step> {
        self.record
            .events()
            .iter()
            .zip(self.record.positions())
            .map(|(e, p)| match *e {
                Event::Move(m) => Step::Move(played(p, m, false)),
                Event::AutoPass(m) => Step::Move(played(p, m, true)),
                Event::Dropout(player, reason) => Step::Dropout { player, reason },
                Event::Declared(outcome) => Step::Declared(outcome),
            })
            .collect()
    }

    fn settings(&self) -> Settings {
        self.record.start().settings()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.record.outcome()
    }

    fn result(&self) -> Option<GameResult> {
        self.record.result()
    }

    fn eliminations(&self) -> Vec<Elimination> {
        self.record.eliminations().to_vec()
    }

    fn players_in(&self) -> Vec<Player> {
        self.record.players_in()
    }

    fn declare(&mut self, outcome: Outcome) {
        self.record.declare(outcome)
    }

    fn drop_out(&mut self, player: Player, reason: Reason) -> bool {
        self.record.drop_out(player, reason)
    }

    fn facts(&self) -> Vec<Fact> {
        self.record.position().facts()
    }

    fn in_check(&self) -> bool {
        self.record.position().in_check()
    }
    fn repetitions(&self) -> usize {
        self.record.repetitions()
    }

    fn check_cells(&self) -> Vec<Cell> {
        self.record.position().check_cells()
    }

    fn piece_at(&self, cell: Cell) -> Option<PieceView> {
        if (cell as usize) < self.info.geometry.cell_count() {
            self.record.position().piece_at(cell)
        } else {
            None
        }
    }

    fn info_messages(&self) -> Vec<InfoLine> {
        self.record.position().info_messages()
    }

    fn hash(&self) -> u64 {
        self.record.position().hash()
    }

    fn clone_box(&self) -> Box<dyn DynRecord> {
        Box::new(self.clone())
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}
