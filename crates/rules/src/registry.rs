//! Every game the program knows. Everything outside the rules library loops over this list;
//! adding a game means adding its folder under `games/` and one line in `registry!` below.
//!
//! Two ways in:
//! * [`games`] and [`find`] give each game behind a pointer ([`DynGame`]: strings in and out),
//!   for code that only shows and relays positions and moves;
//! * [`with_game`], [`with_record`] and [`with_record_mut`] call a generic function written
//!   once as `fn visit<G: Game>` with the concrete game, so that a search, a perft or a
//!   benchmark runs monomorphised at full speed from a game id or a game in progress.

use crate::dynamic::{record_of, record_of_mut, DynGame, DynRecord};
use crate::error::UnknownGame;
use crate::game::{Game, PieceSets};
use crate::games;
use crate::record::Record;

/// Generic code run on one game, reached from its id by [`with_game`].
pub trait GameVisitor {
    type Output;
    fn visit<G: Game>(self, game: &G) -> Self::Output;
}

/// Generic code run on a game in progress, reached by [`with_record`].
pub trait RecordVisitor {
    type Output;
    fn visit<G: Game>(self, game: &G, record: &Record<G::Pos>) -> Self::Output;
}

/// Generic code that changes a game in progress, reached by [`with_record_mut`].
pub trait RecordVisitorMut {
    type Output;
    fn visit<G: Game>(self, game: &G, record: &mut Record<G::Pos>) -> Self::Output;
}

macro_rules! registry {
    ($($game:path),* $(,)?) => {
        static GAMES: &[&dyn DynGame] = &[$(&$game),*];

        /// Every game's position offers what evaluations read: checked when this compiles.
        #[allow(dead_code)]
        fn every_position_has_piece_sets() {
            fn shape<G: Game>()
            where
                G::Pos: PieceSets,
            {
            }
            $(shape::<$game>();)*
        }

        /// Calls `visitor.visit` with the game whose id this is.
        pub fn with_game<V: GameVisitor>(id: &str, visitor: V) -> Result<V::Output, UnknownGame> {
            $(
                if Game::info(&$game).id == id {
                    return Ok(visitor.visit(&$game));
                }
            )*
            Err(unknown(id))
        }

        /// Calls `visitor.visit` with the game and the typed record behind `record`. A record
        /// of a game outside the registry (a test's own game) is an unknown game.
        pub fn with_record<V: RecordVisitor>(
            record: &dyn DynRecord,
            visitor: V,
        ) -> Result<V::Output, UnknownGame> {
            let id = record.info().id;
            $(
                if Game::info(&$game).id == id {
                    if let Some(typed) = record_of::<<$game as Game>::Pos>(record) {
                        return Ok(visitor.visit(&$game, typed));
                    }
                }
            )*
            Err(unknown(id))
        }

        /// Calls `visitor.visit` with the game and the typed record behind `record`, mutably.
        pub fn with_record_mut<V: RecordVisitorMut>(
            record: &mut dyn DynRecord,
            visitor: V,
        ) -> Result<V::Output, UnknownGame> {
            let id = record.info().id;
            $(
                if Game::info(&$game).id == id {
                    if let Some(typed) = record_of_mut::<<$game as Game>::Pos>(&mut *record) {
                        return Ok(visitor.visit(&$game, typed));
                    }
                }
            )*
            Err(unknown(id))
        }
    };
}

registry! {
    games::ackenhead::Ackenhead,
    games::antchess::AntChess2,
    games::antchess::AntChess3,
    games::epaminondas::Epaminondas,
    games::reines::Reines,
}

fn unknown(id: &str) -> UnknownGame {
    UnknownGame {
        id: id.to_string(),
        known: GAMES.iter().map(|g| g.info().id).collect(),
    }
}

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
        .ok_or_else(|| unknown(id))
}
