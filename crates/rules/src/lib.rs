//! The rules of the myrmidon games. No I/O, no async: positions, moves, legal move generation,
//! outcomes and perft, behind the [`Game`] and [`Position`] traits and the [`registry`].

pub mod dynamic;
pub mod error;
pub mod game;
pub mod games;
pub mod geometry;
pub mod outcome;
pub mod record;
pub mod registry;
pub mod testkit;
pub mod zobrist;

pub use dynamic::{DynGame, DynRecord, MoveDesc};
pub use error::{MoveError, PositionError, SettingError, UnknownGame};
pub use game::{
    divide, perft, Cell, Game, GameInfo, MoveCells, PieceKind, PieceNotation, PieceView, Player,
    Position, SettingInfo, Settings,
};
pub use geometry::Geometry;
pub use outcome::{Outcome, Reason};
pub use record::Record;
