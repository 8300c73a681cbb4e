//! The rules of the myrmidon games. No I/O, no async: positions, moves, legal move generation,
//! outcomes and perft, behind the [`Game`] and [`Position`] traits and the [`registry`]; and
//! game records ([`pgn`]: a PGN-like text of whole games, written and read back with every move
//! replayed, specified in `docs/records.md`).
//!
//! `unsafe` is denied everywhere but in the one SIMD module that counts Epaminondas moves with
//! AVX2 (`games::epaminondas::simd`), whose safety argument is written there.

pub mod actions;
pub mod counters;
pub mod dynamic;
pub mod edit;
pub mod error;
pub mod game;
pub mod games;
pub mod geometry;
pub mod movelist;
pub mod observation;
pub mod outcome;
pub mod pgn;
pub mod record;
pub mod registry;
pub mod rng;
#[cfg(any(test, feature = "testkit"))]
#[doc(hidden)]
pub mod testkit;
#[cfg(feature = "serde")]
pub mod view;
pub mod zobrist;

pub use counters::MAX_MOVE_NUMBER;
pub use dynamic::{DynGame, DynRecord, MoveDesc, PlayedMove, Step};
pub use error::{MoveError, PositionError, SettingError, UnknownGame};
pub use game::{
    divide, perft, perft_until, perft_visiting, Cell, CellSet, Fact, FactValue, Game, GameInfo,
    GrammaticalNumber, InfoArg, InfoLine, MarkedCell, MoveCells, PieceKind, PieceNotation,
    PieceSets, PieceView, Player, Position, SettingInfo, Settings, Tactics,
};
pub use geometry::Geometry;
pub use movelist::{MoveBuffer, MoveCounter, MoveList, MoveSink};
pub use outcome::{Elimination, GameResult, Outcome, Reason};
pub use record::Record;
pub use registry::{
    with_game, with_record, with_record_mut, GameVisitor, RecordVisitor, RecordVisitorMut,
};
