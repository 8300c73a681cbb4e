//! The object-safe face of every game, for the command line, the server and the UI: positions
//! and moves as strings, legal moves with the cells they touch, perft. Implemented once for
//! every [`Game`].

use std::time::Instant;

use crate::error::{MoveError, PositionError, SettingError};
use crate::game::{
    divide, perft, Cell, Game, GameInfo, MoveCells, PieceView, Player, Position, Settings,
};
use crate::outcome::Outcome;
use crate::record::Record;

/// A legal move as the outside world sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveDesc {
    /// Canonical move text.
    pub text: String,
    pub cells: MoveCells,
}

/// Nodes and time of a measured run.
#[derive(Clone, Copy, Debug)]
pub struct Measured {
    pub nodes: u64,
    pub seconds: f64,
}

impl Measured {
    pub fn nodes_per_second(self) -> f64 {
        if self.seconds > 0.0 {
            self.nodes as f64 / self.seconds
        } else {
            0.0
        }
    }
}

/// Any game, behind a pointer.
pub trait DynGame: Send + Sync {
    fn info(&self) -> &'static GameInfo;

    /// A new game from the start position.
    fn new_game(&self, settings: &Settings) -> Result<Box<dyn DynRecord>, SettingError>;

    /// A new game from a position string.
    fn new_game_at(&self, text: &str) -> Result<Box<dyn DynRecord>, PositionError>;
}

/// A game in progress, behind a pointer.
pub trait DynRecord: Send + Sync {
    fn info(&self) -> &'static GameInfo;
    /// The current position string.
    fn position_string(&self) -> String;
    /// The position string the game started from.
    fn start_string(&self) -> String;
    fn to_move(&self) -> Player;
    /// The legal moves (empty when the game is over by rule).
    fn legal_moves(&self) -> Vec<MoveDesc>;
    /// Reads a move, checks it is legal and plays it.
    fn play(&mut self, text: &str) -> Result<MoveDesc, MoveError>;
    /// Takes back the last move; false if none was played.
    fn undo(&mut self) -> bool;
    /// The texts of the moves played since the start.
    fn history(&self) -> Vec<String>;
    /// The outcome, repetition included.
    fn outcome(&self) -> Option<Outcome>;
    /// Ends the game off the board (agreement, resignation, time).
    fn declare(&mut self, outcome: Outcome);
    fn piece_at(&self, cell: Cell) -> Option<PieceView>;
    /// Extra lines to show beside the board.
    fn info_lines(&self) -> Vec<String>;
    fn hash(&self) -> u64;
    fn perft(&self, depth: u32) -> u64;
    fn divide(&self, depth: u32) -> Vec<(String, u64)>;
    /// Generates the legal moves of the current position `iterations` times.
    fn bench_movegen(&self, iterations: u64) -> Measured;
    fn clone_box(&self) -> Box<dyn DynRecord>;
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
}

#[derive(Clone)]
struct Wrapped<P: Position> {
    info: &'static GameInfo,
    record: Record<P>,
}

fn describe<P: Position>(pos: &P, mv: P::Move) -> MoveDesc {
    MoveDesc {
        text: pos.move_text(mv),
        cells: pos.move_cells(mv),
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

    fn legal_moves(&self) -> Vec<MoveDesc> {
        let pos = self.record.position();
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        moves.into_iter().map(|m| describe(pos, m)).collect()
    }

    fn play(&mut self, text: &str) -> Result<MoveDesc, MoveError> {
        if self.record.outcome().is_some() {
            return Err(MoveError::GameOver);
        }
        let before = self.record.position().clone();
        let mv = self.record.play_text(text.trim())?;
        Ok(describe(&before, mv))
    }

    fn undo(&mut self) -> bool {
        self.record.undo()
    }

    fn history(&self) -> Vec<String> {
        self.record
            .positions()
            .iter()
            .zip(self.record.moves())
            .map(|(p, &m)| p.move_text(m))
            .collect()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.record.outcome()
    }

    fn declare(&mut self, outcome: Outcome) {
        self.record.declare(outcome)
    }

    fn piece_at(&self, cell: Cell) -> Option<PieceView> {
        if (cell as usize) < self.info.geometry.cell_count() {
            self.record.position().piece_at(cell)
        } else {
            None
        }
    }

    fn info_lines(&self) -> Vec<String> {
        self.record.position().info_lines()
    }

    fn hash(&self) -> u64 {
        self.record.position().hash()
    }

    fn perft(&self, depth: u32) -> u64 {
        let mut pos = self.record.position().clone();
        perft(&mut pos, depth)
    }

    fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        let mut pos = self.record.position().clone();
        divide(&mut pos, depth)
    }

    fn bench_movegen(&self, iterations: u64) -> Measured {
        let pos = self.record.position();
        let mut moves = Vec::with_capacity(512);
        let mut nodes = 0u64;
        let t = Instant::now();
        for _ in 0..iterations {
            moves.clear();
            std::hint::black_box(pos).legal_moves(&mut moves);
            nodes += std::hint::black_box(moves.len()) as u64;
        }
        Measured {
            nodes,
            seconds: t.elapsed().as_secs_f64(),
        }
    }

    fn clone_box(&self) -> Box<dyn DynRecord> {
        Box::new(self.clone())
    }
}
