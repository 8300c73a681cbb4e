//! Every game the program knows. Everything outside the rules library loops over this list;
//! adding a game means adding its folder under `games/` and one line here.

use crate::dynamic::DynGame;
use crate::error::UnknownGame;
use crate::games;

static GAMES: &[&dyn DynGame] = &[
    &games::ackenhead::Ackenhead,
    &games::antchess::AntChess2,
    &games::antchess::AntChess3,
    &games::epaminondas::Epaminondas,
    &games::reines::Reines,
];

/// The games, in the order they are listed to users.
pub fn games() -> &'static [&'static dyn DynGame] {
    GAMES
}

/// The game with this id.
pub fn find(id: &str) -> Result<&'static dyn DynGame, UnknownGame> {
    GAMES
        .iter()
        .copied()
        .find(|g| g.info().id == id)
        .ok_or_else(|| UnknownGame {
            id: id.to_string(),
            known: GAMES.iter().map(|g| g.info().id).collect(),
        })
}
