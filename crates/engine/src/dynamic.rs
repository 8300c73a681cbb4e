//! Players behind a pointer, over [`DynRecord`]s and move texts: what the protocol and the match
//! runner hold. [`new_searcher`] builds one for a game id and a [`PlayerSpec`].

use myrmidon_rules::dynamic::record_of;
use myrmidon_rules::{DynRecord, GameInfo, Position};

use crate::control::Control;
use crate::eval::Tunable;
use crate::games::{with_engine_game, EngineGame, EngineVisitor};
use crate::limits::Limits;
use crate::players::{
    default_algorithm, strong_searcher, Algorithm, AlphaBeta, Greedy, Level, Options, PlayerSpec,
    RandomPlayer, Report, Searcher,
};

/// Why a player could not be built or could not search.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// The engine does not play this game.
    #[error(transparent)]
    UnknownGame(myrmidon_rules::UnknownGame),
    /// The record handed to `search` is of another game than the player's.
    #[error("this player plays {expected}, not {got}")]
    WrongGame {
        expected: &'static str,
        got: &'static str,
    },
    /// A weights file that does not fit the game's evaluator, or a player that takes none.
    #[error("bad weights: {0}")]
    Weights(String),
}

/// A computer player of one game, behind a pointer.
pub trait DynSearcher: Send {
    fn info(&self) -> &'static GameInfo;

    /// The spec it was built from.
    fn spec(&self) -> &PlayerSpec;

    /// Chooses a move for the player to move in `record` (see [`Searcher::search`]) and returns
    /// its text, or `None` if the game is over (by rule, by a draw rule or repetition, or
    /// declared).
    fn search(
        &mut self,
        record: &dyn DynRecord,
        limits: &Limits,
        control: &Control,
        report: &mut dyn FnMut(&Report),
    ) -> Result<Option<String>, EngineError>;

    fn new_game(&mut self);

    fn configure(&mut self, options: &Options);
}

/// A player for the game with this id.
pub fn new_searcher(
    game: &str,
    spec: &PlayerSpec,
    options: &Options,
) -> Result<Box<dyn DynSearcher>, EngineError> {
    with_engine_game(
        game,
        Build {
            spec: spec.clone(),
            options: options.clone(),
        },
    )
    .map_err(EngineError::UnknownGame)
}

struct Build {
    spec: PlayerSpec,
    options: Options,
}

impl EngineVisitor for Build {
    type Output = Box<dyn DynSearcher>;

    fn visit<G: EngineGame>(self, game: &'static G) -> Box<dyn DynSearcher> {
        let inner: Box<dyn Searcher<G::Pos>> = match self.spec {
            PlayerSpec::Random => Box::new(RandomPlayer::new(&self.options)),
            PlayerSpec::Greedy => Box::new(Greedy::<G::Eval>::new(&self.options)),
            PlayerSpec::AlphaBeta { depth } => {
                Box::new(AlphaBeta::<G::Pos, G::Eval>::new(depth, &self.options))
            }
            PlayerSpec::Search { depth, algorithm } => {
                strong::<G>(game, depth, algorithm, G::Eval::default(), &self.options)
            }
            PlayerSpec::Level { level } => Box::new(Level::<G::Pos, G::Eval>::with_algorithm(
                level,
                default_algorithm(game.info().players.len()),
                G::LEVELS,
                G::POLICY,
                G::Eval::default(),
                &self.options,
            )),
        };
        Box::new(Typed::<G> {
            info: game.info(),
            spec: self.spec,
            inner,
        })
    }
}

/// The strong search by its algorithm (the game's default when none is given).
fn strong<G: EngineGame>(
    game: &G,
    depth: Option<u32>,
    algorithm: Option<Algorithm>,
    eval: G::Eval,
    options: &Options,
) -> Box<dyn Searcher<G::Pos>> {
    let algorithm = algorithm.unwrap_or(default_algorithm(game.info().players.len()));
    strong_searcher::<G::Pos, G::Eval>(algorithm, depth, G::POLICY, eval, options)
}

/// A player for the game with this id whose evaluator has the weights of this file (see
/// [`crate::eval::Tunable`]; names it leaves out keep their defaults). Only the players that
/// evaluate take weights: `greedy`, `alphabeta`, `search` and `level:N`.
pub fn new_searcher_with_weights(
    game: &str,
    spec: &PlayerSpec,
    options: &Options,
    weights: &str,
) -> Result<Box<dyn DynSearcher>, EngineError> {
    with_engine_game(
        game,
        BuildWeighted {
            spec: spec.clone(),
            options: options.clone(),
            weights,
        },
    )
    .map_err(EngineError::UnknownGame)?
}

struct BuildWeighted<'a> {
    spec: PlayerSpec,
    options: Options,
    weights: &'a str,
}

impl EngineVisitor for BuildWeighted<'_> {
    type Output = Result<Box<dyn DynSearcher>, EngineError>;

    fn visit<G: EngineGame>(self, game: &'static G) -> Self::Output {
        let eval = match self.spec {
            PlayerSpec::Greedy | PlayerSpec::AlphaBeta { .. } => {
                let mut eval = G::Eval::baseline();
                eval.load_weights(self.weights)
                    .map_err(EngineError::Weights)?;
                eval
            }
            _ => G::Eval::with_weights(self.weights).map_err(EngineError::Weights)?,
        };
        let inner: Box<dyn Searcher<G::Pos>> =
            match self.spec {
                PlayerSpec::Greedy => Box::new(Greedy::with_eval(eval, &self.options)),
                PlayerSpec::AlphaBeta { depth } => Box::new(
                    AlphaBeta::<G::Pos, G::Eval>::with_eval(depth, eval, &self.options),
                ),
                PlayerSpec::Search { depth, algorithm } => {
                    strong::<G>(game, depth, algorithm, eval, &self.options)
                }
                PlayerSpec::Level { level } => Box::new(Level::<G::Pos, G::Eval>::with_algorithm(
                    level,
                    default_algorithm(game.info().players.len()),
                    G::LEVELS,
                    G::POLICY,
                    eval,
                    &self.options,
                )),
                PlayerSpec::Random => {
                    return Err(EngineError::Weights(
                        "`random` takes no weights: it does not evaluate".to_string(),
                    ))
                }
            };
        Ok(Box::new(Typed::<G> {
            info: game.info(),
            spec: self.spec,
            inner,
        }))
    }
}

struct Typed<G: EngineGame> {
    info: &'static GameInfo,
    spec: PlayerSpec,
    inner: Box<dyn Searcher<G::Pos>>,
}

impl<G: EngineGame> DynSearcher for Typed<G> {
    fn info(&self) -> &'static GameInfo {
        self.info
    }

    fn spec(&self) -> &PlayerSpec {
        &self.spec
    }

    fn search(
        &mut self,
        record: &dyn DynRecord,
        limits: &Limits,
        control: &Control,
        report: &mut dyn FnMut(&Report),
    ) -> Result<Option<String>, EngineError> {
        let typed = record_of::<G::Pos>(record)
            .filter(|_| record.info().id == self.info.id)
            .ok_or(EngineError::WrongGame {
                expected: self.info.id,
                got: record.info().id,
            })?;
        if typed.outcome().is_some() {
            return Ok(None);
        }
        let pos = typed.position();
        let mv = self.inner.search(typed, limits, control, report);
        Ok(mv.map(|m| pos.move_text(m)))
    }

    fn new_game(&mut self) {
        self.inner.new_game()
    }

    fn configure(&mut self, options: &Options) {
        self.inner.configure(options)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Tunable;
    use crate::score::Score;
    use myrmidon_rules::registry;

    /// One search without limits.
    fn search_once(
        player: &mut dyn DynSearcher,
        record: &dyn DynRecord,
    ) -> Result<Option<String>, EngineError> {
        player.search(
            record,
            &Limits::default(),
            &Control::unlimited(),
            &mut |_| {},
        )
    }

    #[test]
    fn players_of_every_game_play_legal_moves() {
        for game in registry::games() {
            let id = game.info().id;
            for spec in [
                "random",
                "greedy",
                "alphabeta:depth=2",
                "search:depth=3",
                "level:1",
                "level:4",
            ] {
                let spec: PlayerSpec = spec.parse().unwrap();
                let mut player = new_searcher(id, &spec, &Options::default()).unwrap();
                let mut record = game.new_game(&Default::default()).unwrap();
                for _ in 0..6 {
                    let mv = search_once(&mut *player, &*record)
                        .unwrap()
                        .expect("the start of a game has moves");
                    record
                        .play(&mv)
                        .unwrap_or_else(|e| panic!("{id} {spec}: {mv}: {e}"));
                }
            }
        }
    }

    #[test]
    fn a_record_of_another_game_is_refused() {
        let mut player = new_searcher("reines", &PlayerSpec::Random, &Options::default()).unwrap();
        let record = registry::find("ackenhead")
            .unwrap()
            .new_game(&Default::default())
            .unwrap();
        let err = search_once(&mut *player, &*record).unwrap_err();
        assert!(err.to_string().contains("reines"));
        // A game declared over gets no move, though its position has moves.
        let mut over = registry::find("reines")
            .unwrap()
            .new_game(&Default::default())
            .unwrap();
        over.declare(myrmidon_rules::Outcome::Draw {
            reason: myrmidon_rules::Reason::AGREEMENT,
        });
        let none = search_once(&mut *player, &*over).unwrap();
        assert_eq!(none, None);
        assert!(new_searcher("chess", &PlayerSpec::Random, &Options::default()).is_err());
    }

    #[test]
    fn players_take_weights_files() {
        use crate::eval::{Evaluator, ReinesEval};
        use myrmidon_rules::games::reines::ReinesPosition;
        use myrmidon_rules::rng::Rng;
        // A game of random moves until the material is uneven.
        let game = registry::find("reines").unwrap();
        let mut record = game.new_game(&Default::default()).unwrap();
        let mut rng = Rng::new(3);
        loop {
            let typed = record_of::<ReinesPosition>(&*record).unwrap();
            let pos = typed.position();
            if ReinesEval::default().baseline_value(pos, pos.to_move()) != 0
                && typed.outcome().is_none()
            {
                break;
            }
            let moves = record.legal_moves();
            assert!(!moves.is_empty(), "the game ended with even material");
            record.play(&moves[rng.below(moves.len())].text).unwrap();
        }
        let spec: PlayerSpec = "alphabeta:depth=1".parse().unwrap();
        let score = |player: &mut dyn DynSearcher| {
            let mut last = None;
            let mv = player
                .search(
                    &*record,
                    &Limits::default(),
                    &Control::unlimited(),
                    &mut |r| last = Some(r.score),
                )
                .unwrap();
            assert!(mv.is_some());
            last.expect("a report")
        };
        let mut plain = new_searcher("reines", &spec, &Options::default()).unwrap();
        let doubled = "counsellor 600\nsoldier 400\nworker 200\n";
        let mut heavy =
            new_searcher_with_weights("reines", &spec, &Options::default(), doubled).unwrap();
        let (Score::Cp(a), Score::Cp(b)) = (score(&mut *plain), score(&mut *heavy)) else {
            panic!("no mate at depth 1 here");
        };
        assert_eq!(b, 2 * a, "doubled weights double the score");
        assert_ne!(a, 0);
        // The same file as the baseline's weights plays as the default baseline player.
        let same = ReinesEval::baseline().weights_text();
        let mut again =
            new_searcher_with_weights("reines", &spec, &Options::default(), &same).unwrap();
        assert_eq!(score(&mut *again), Score::Cp(a));

        let err = |spec: &str, game: &str, text: &str| {
            new_searcher_with_weights(game, &spec.parse().unwrap(), &Options::default(), text)
                .err()
                .expect("an error")
                .to_string()
        };
        assert!(err("greedy", "reines", "queen 1").contains("unknown weight `queen`"));
        assert!(err("random", "reines", "").contains("`random` takes no weights"));
        assert!(err("greedy", "chess", "").contains("chess"));
        assert!(new_searcher_with_weights(
            "epaminondas",
            &PlayerSpec::Greedy,
            &Options::default(),
            "stone 50"
        )
        .is_ok());
    }
}
