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

/// A game as a request names it (the analysis socket, the browser's module): the game's id,
/// then a position string or settings (not both: a position fixes the settings). The errors
/// are sentences for whoever sent the request.
pub fn new_record(
    id: &str,
    position: Option<&str>,
    settings: &[(String, String)],
) -> Result<Box<dyn DynRecord>, String> {
    let game = find(id).map_err(|e| e.to_string())?;
    match position {
        Some(text) => {
            if !settings.is_empty() {
                return Err(
                    "settings: the position fixes them: give a position or settings".into(),
                );
            }
            game.new_game_at(text).map_err(|e| e.to_string())
        }
        None => {
            let mut chosen = crate::game::Settings::new();
            for (name, value) in settings {
                chosen = chosen.with(name, value);
            }
            chosen.validate(game.info()).map_err(|e| e.to_string())?;
            game.new_game(&chosen).map_err(|e| e.to_string())
        }
    }
}

/// Plays `moves` (move texts) one after the other, each checked by the rules; the first that
/// cannot be played (or comes once the game is over) is the error, `moves: move <n> "<text>":
/// <why>`, and the record keeps the moves before it.
pub fn play_moves(record: &mut dyn DynRecord, moves: &[String]) -> Result<(), String> {
    for (i, text) in moves.iter().enumerate() {
        play_move(record, text).map_err(|e| format!("moves: move {} {text:?}: {e}", i + 1))?;
    }
    Ok(())
}

/// Plays one move text; refused once the game is over, with the outcome in the error.
pub fn play_move(record: &mut dyn DynRecord, text: &str) -> Result<(), String> {
    if let Some(result) = record.result() {
        return Err(format!(
            "the game is over ({}): no move can be played",
            result.describe(record.player_names(), record.info().players_number)
        ));
    }
    record.play(text).map(|_| ()).map_err(|e| e.to_string())
}
