//! The games the engine plays: each game of the rules library with its evaluator. Generic code
//! (`fn visit<G: EngineGame>`) is reached from a game id by [`with_engine_game`]; adding a game
//! adds its evaluator file and one line to `engine_games!` below (a test checks that every
//! game of the rules library is here).

use myrmidon_rules::games::{ackenhead, antchess, epaminondas, reines};
use myrmidon_rules::{Game, UnknownGame};

use crate::eval::{AckenheadEval, AntChessEval, EpaminondasEval, Evaluator, ReinesEval};
use crate::players::Levels;

/// A game of the rules library with what the engine adds to it.
pub trait EngineGame: Game {
    type Eval: Evaluator<Self::Pos>;
}

/// Generic code run on one game, reached from its id by [`with_engine_game`].
pub trait EngineVisitor {
    type Output;
    fn visit<G: EngineGame>(self, game: &'static G) -> Self::Output;
}

macro_rules! engine_games {
    ($($game:path => $eval:ty),* $(,)?) => {
        $(impl EngineGame for $game { type Eval = $eval; })*

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
    ackenhead::Ackenhead => AckenheadEval,
    antchess::AntChess2 => AntChessEval<2>,
    antchess::AntChess3 => AntChessEval<3>,
    epaminondas::Epaminondas => EpaminondasEval,
    reines::Reines => ReinesEval,
}

/// What a game's evaluator holds as data, apart from any position: its table of levels and
/// its bench positions. One visitor asks the game's default evaluator for both.
#[derive(Clone, Copy, Debug)]
pub struct EvalData {
    /// Levels 1–7 ([`Evaluator::levels`]).
    pub levels: &'static Levels,
    /// The middlegame positions of `myrmidon bench` ([`Evaluator::bench_positions`]).
    pub bench_positions: &'static str,
}

/// What the evaluator of the game with this id holds as data.
pub fn eval_data_of(id: &str) -> Result<EvalData, UnknownGame> {
    struct Data;
    impl EngineVisitor for Data {
        type Output = EvalData;
        fn visit<G: EngineGame>(self, _game: &'static G) -> EvalData {
            let eval = G::Eval::default();
            EvalData {
                levels: eval.levels(),
                bench_positions: eval.bench_positions(),
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

    struct Count;
    impl EngineVisitor for Count {
        type Output = usize;
        fn visit<G: EngineGame>(self, game: &'static G) -> usize {
            game.info().players.len()
        }
    }
}
