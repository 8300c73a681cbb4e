//! One folder per game, each with the same parts: `position` (state and its string), `moves`
//! (move and its text), `movegen`, `outcome`, `tests`.

pub mod ackenhead;
pub mod antchess;
pub mod epaminondas;
pub mod reines;
