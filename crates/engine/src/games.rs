//! The games the engine plays: each game of the rules library with what the engine adds to it
//! ([`EngineGame`]: its evaluator, its search policy, its levels, its bench positions). Generic
//! code (`fn visit<G: EngineGame>`) is reached from a game id by [`with_engine_game`]; adding a
//! game adds its evaluator file, which implements [`EngineGame`] for it at its end, and one
//! line to `engine_games!` below (a test checks that every game of the rules library is here).

use myrmidon_rules::games::{ackenhead, antchess, epaminondas, reines};
use myrmidon_rules::{Game, UnknownGame};

use crate::eval::Evaluator;
use crate::players::{Levels, SearchPolicy};

/// A game of the rules library with what the engine adds to it. Each evaluator's file
/// implements it for its game (`eval/<game>.rs`).
pub trait EngineGame: Game {
    /// What a position is worth.
    type Eval: Evaluator<Self::Pos>;
    /// How the strong search prunes in this game and where its quiescence stops
    /// ([`SearchPolicy::DEFAULT`] where the game sets nothing of its own).
    const POLICY: SearchPolicy;
    /// The parameters of levels 1–7 in this game (`level:N`, UCI `Skill Level`), calibrated by
    /// matches so that each level is about as far above the one below as the next is above
    /// it ([`STRENGTHS`](crate::players::STRENGTHS), the generic table, where the game has not
    /// calibrated its own).
    const LEVELS: &'static Levels;
    /// Middlegame positions of this game for `myrmidon bench`'s time to depth, from real
    /// games: the text of the game's `<game>.bench` file beside its weights (`#` comments, one
    /// `depth <N>` line, then one position string a line); empty for none.
    const BENCH_POSITIONS: &'static str;
}

/// Generic code run on one game, reached from its id by [`with_engine_game`].
pub trait EngineVisitor {
    type Output;
    fn visit<G: EngineGame>(self, game: &'static G) -> Self::Output;
}

macro_rules! engine_games {
    ($($game:path),* $(,)?) => {
        /// Calls `visitor.visit` with the game whose id this is.
        pub fn with_engine_game<V: EngineVisitor>(
            id: &str,
            visitor: V,
        ) -> Result<V::Output, UnknownGame> {
            $(
                if Game::info(&$game).id == id {
                    return Ok(visitor.visit(&$game));
                }
            )*
            Err(UnknownGame {
                id: id.to_string(),
                known: engine_game_ids(),
            })
        }

        /// The ids of the games the engine plays.
        pub fn engine_game_ids() -> Vec<&'static str> {
            vec![$(Game::info(&$game).id),*]
        }
    };
}

engine_games! {
    ackenhead::Ackenhead,
    antchess::AntChess2,
    antchess::AntChess3,
    epaminondas::Epaminondas,
    reines::Reines,
}

/// What the engine holds as data for one game, apart from any position: its table of levels
/// and its bench positions ([`EngineGame::LEVELS`], [`EngineGame::BENCH_POSITIONS`]), for code
/// that knows the game by its id.
#[derive(Clone, Copy, Debug)]
pub struct GameData {
    /// Levels 1–7.
    pub levels: &'static Levels,
    /// The middlegame positions of `myrmidon bench`.
    pub bench_positions: &'static str,
}

/// What the engine holds as data for the game with this id.
pub fn game_data_of(id: &str) -> Result<GameData, UnknownGame> {
    struct Data;
    impl EngineVisitor for Data {
        type Output = GameData;
        fn visit<G: EngineGame>(self, _game: &'static G) -> GameData {
            GameData {
                levels: G::LEVELS,
                bench_positions: G::BENCH_POSITIONS,
            }
        }
    }
    with_engine_game(id, Data)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_of_the_rules_library_has_an_engine() {
        let rules: Vec<&str> = myrmidon_rules::registry::games()
            .iter()
            .map(|g| g.info().id)
            .collect();
        assert_eq!(engine_game_ids(), rules);
        assert!(with_engine_game("chess", Count).is_err());
    }

    /// Every game's delta margin resolves against its evaluator (a margin that names a weight
    /// names one the evaluator has), and delta pruning is on exactly where forward pruning is.
    #[test]
    fn every_policy_fits_its_evaluator() {
        struct Margin;
        impl EngineVisitor for Margin {
            type Output = (bool, Option<i32>);
            fn visit<G: EngineGame>(self, _game: &'static G) -> Self::Output {
                let margin = G::POLICY.delta_margin.resolve(&G::Eval::default());
                (G::POLICY.forward_pruning, margin)
            }
        }
        for id in engine_game_ids() {
            let (pruning, margin) = with_engine_game(id, Margin).unwrap();
            assert_eq!(pruning, margin.is_some_and(|m| m > 0), "{id}: {margin:?}");
        }
    }

    /// Epaminondas' margin is two stones, with the weights a file sets.
    #[test]
    fn a_margin_in_weights_follows_the_weights() {
        use crate::eval::{EpaminondasEval, Tunable};
        use myrmidon_rules::games::epaminondas::Epaminondas;
        let margin = Epaminondas::POLICY.delta_margin;
        let stone = |e: &EpaminondasEval| {
            e.weights()
                .into_iter()
                .find(|w| w.name == "stone")
                .unwrap()
                .value
        };
        let default = EpaminondasEval::default();
        assert_eq!(margin.resolve(&default), Some(2 * stone(&default)));
        let heavy = EpaminondasEval::with_weights("stone 300").unwrap();
        assert_eq!(margin.resolve(&heavy), Some(600));
    }

    struct Count;
    impl EngineVisitor for Count {
        type Output = usize;
        fn visit<G: EngineGame>(self, game: &'static G) -> usize {
            game.info().players.len()
        }
    }
}
