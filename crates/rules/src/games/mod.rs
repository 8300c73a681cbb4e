//! One folder per game, each with the same files in the same roles (`<Game>` is the game's name
//! in types: `Reines`, `ReinesPosition`, …):
//!
//! * `mod.rs`: the registry entry (`INFO`, private: others read it through `Game::info`),
//!   `MAX_MOVES` with the argument that no position has more legal moves, the stack move list
//!   `<Game>MoveList`, the impls of [`crate::Game`] and [`crate::Position`] (which call into the
//!   files below), and `pub use` of what the game offers to the rest of the program.
//! * `position.rs`: `<Game>Position`, its kinds of piece `<Game>Kind` (in the order of
//!   `GameInfo::pieces`), its position string (`FromStr`, `Display`), and its impl of
//!   [`crate::PieceSets`], what evaluations read (the game's bitboard is its `Set`).
//! * `moves.rs`: `<Game>Move` and its text, written and read back.
//! * `movegen.rs`: legal and tactical move generation, counting moves without generating them
//!   (`count_moves_of(player)`, which is [`crate::PieceSets::mobility`]), and playing a move.
//! * `outcome.rs`: the game's reasons for an end, draws by rule, the result of a position
//!   without moves, the facts a display shows.
//! * `tests.rs`: perft tables, scenarios, the `testkit` checks, bad input (data in `testdata/`).
//!
//! Other files are a game's own: Ackenhead's `bitboard.rs` and `attacks.rs`, Ant Chess's
//! `tables.rs`, `setup.rs` and `slow.rs` (an independent model for the tests), Epaminondas's
//! `bitboard.rs` and `simd.rs`.
//!
//! Every file is a private module and `mod.rs` re-exports what others use (the game, its
//! position, move and kind types, its bitboard type where it has a name, `MAX_MOVES`, the move
//! list, its `Reason`s), with one exception: Ackenhead's `attacks`, a public module of attack
//! sets for its evaluation. The registry checks at compile time that every game's position
//! implements `PieceSets`.

pub mod ackenhead;
pub mod antchess;
pub mod epaminondas;
pub mod reines;
