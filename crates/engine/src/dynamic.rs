//! Players behind a pointer, over [`DynRecord`]s and move texts: what the protocol and the match
//! runner hold. [`new_searcher`] builds one for a game id and a [`PlayerSpec`].

use std::fmt;

use myrmidon_rules::dynamic::record_of;
use myrmidon_rules::{DynRecord, GameInfo, Position};

use crate::control::Control;
use crate::games::{with_engine_game, EngineGame, EngineVisitor};
use crate::limits::Limits;
use crate::players::{AlphaBeta, Greedy, Options, PlayerSpec, Pvs, RandomPlayer, Report, Searcher};

/// Why a player could not be built or could not search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// The engine does not play this game.
    UnknownGame(myrmidon_rules::UnknownGame),
    /// The record handed to `search` is of another game than the player's.
    WrongGame {
        expected: &'static str,
        got: &'static str,
    },
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::UnknownGame(e) => e.fmt(f),
            EngineError::WrongGame { expected, got } => {
                write!(f, "this player plays {expected}, not {got}")
            }
        }
    }
}

impl std::error::Error for EngineError {}

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
            PlayerSpec::Search { depth } => {
                Box::new(Pvs::<G::Pos, G::Eval>::new(depth, &self.options))
            }
        };
        Box::new(Typed::<G> {
            info: game.info(),
            spec: self.spec,
            inner,
        })
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
            for spec in ["random", "greedy", "alphabeta:depth=2", "search:depth=3"] {
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
}
