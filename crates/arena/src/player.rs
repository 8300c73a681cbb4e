//! The players of a match behind one interface: the engine crate's players in-process, and
//! external UCI engines through [`crate::uci`]. What goes wrong with a player is a [`Fault`],
//! which loses it the game.

use std::fmt;
use std::path::Path;
use std::time::Duration;

use myrmidon_engine::{
    new_searcher, new_searcher_with_weights, Control, DynSearcher, Limits, Options, PlayerSpec,
    Score,
};
use myrmidon_rules::{DynRecord, Reason};

use crate::spec::{EngineKind, EngineSpec};
use crate::uci::{SearchInfo, UciEngine, HANDSHAKE_TIMEOUT};
use myrmidon_engine::uci::{Command, Go};

/// Why a player lost a game off the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The program could not start, exited, closed its pipes or stopped answering `isready`.
    Crash(String),
    /// No move within its time (plus the margin).
    Timeout(String),
    /// A move that is not legal here, or text that is not a move.
    Illegal(String),
}

impl Fault {
    /// The reason the game's record gives.
    pub fn reason(&self) -> Reason {
        match self {
            Fault::Crash(_) => Reason::CRASH,
            Fault::Timeout(_) => Reason::TIME,
            Fault::Illegal(_) => Reason::ILLEGAL_MOVE,
        }
    }

    pub fn detail(&self) -> &str {
        match self {
            Fault::Crash(m) | Fault::Timeout(m) | Fault::Illegal(m) => m,
        }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self {
            Fault::Crash(_) => "crashed",
            Fault::Timeout(_) => "lost on time",
            Fault::Illegal(_) => "played an illegal move",
        };
        write!(f, "{what}: {}", self.detail())
    }
}

/// A move a player chose, with what its search said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    pub text: String,
    pub score: Option<Score>,
    pub depth: Option<u32>,
}

/// The game as a player is asked about it: the record (for in-process players) and the same
/// as a UCI `position` command (for external ones).
pub struct GameView<'a> {
    pub record: &'a dyn DynRecord,
    /// `None` when the game started from the game's standard start (`position startpos`),
    /// else its start position string (`position fen …`).
    pub fen: Option<&'a str>,
    /// Every move since the start and every `out:<seat>:<reason>` token, in order.
    pub tokens: &'a [String],
}

impl GameView<'_> {
    /// `position startpos|fen <string> [moves <tokens>]`.
    pub fn position_command(&self) -> Command {
        Command::Position {
            fen: self.fen.map(str::to_string),
            moves: self.tokens.to_vec(),
        }
    }
}

/// A player of a match: one per engine and worker thread, kept from game to game.
pub trait Player: Send {
    /// Gets ready for a new game; `seed` seeds the random choices of in-process players.
    /// (Re)starts an external engine that is not running.
    fn new_game(&mut self, seed: u64) -> Result<(), Fault>;

    /// Chooses a move for the player to move; may take `allowed` at most.
    fn think(
        &mut self,
        game: &GameView<'_>,
        limits: &Limits,
        allowed: Duration,
    ) -> Result<Answer, Fault>;

    /// Ends the program after a fault; the next game starts it again.
    fn kill(&mut self);
}

/// A player of the engine crate, in-process.
pub struct Builtin {
    searcher: Box<dyn DynSearcher>,
}

impl Builtin {
    pub fn new(game: &str, spec: &PlayerSpec) -> Result<Builtin, String> {
        let searcher = new_searcher(game, spec, &Options::default()).map_err(|e| e.to_string())?;
        Ok(Builtin { searcher })
    }

    /// The player with the evaluation weights of this file (`weights=`).
    pub fn with_weights(game: &str, spec: &PlayerSpec, file: &Path) -> Result<Builtin, String> {
        let text = std::fs::read_to_string(file)
            .map_err(|e| format!("cannot read weights= {}: {e}", file.display()))?;
        let searcher = new_searcher_with_weights(game, spec, &Options::default(), &text)
            .map_err(|e| format!("weights= {}: {e}", file.display()))?;
        Ok(Builtin { searcher })
    }
}

impl Player for Builtin {
    fn new_game(&mut self, seed: u64) -> Result<(), Fault> {
        self.searcher.configure(&Options {
            seed,
            ..Options::default()
        });
        self.searcher.new_game();
        Ok(())
    }

    fn think(
        &mut self,
        game: &GameView<'_>,
        limits: &Limits,
        _allowed: Duration,
    ) -> Result<Answer, Fault> {
        let control = Control::new(limits, game.record.to_move());
        let mut info = SearchInfo::default();
        let mv = self
            .searcher
            .search(game.record, limits, &control, &mut |r| {
                if r.multipv <= 1 {
                    info.score = Some(r.score);
                    info.depth = Some(r.depth);
                }
            })
            .map_err(|e| Fault::Crash(e.to_string()))?;
        let text = mv.ok_or_else(|| {
            Fault::Illegal("no move in a position where the game goes on".to_string())
        })?;
        Ok(Answer {
            text,
            score: info.score,
            depth: info.depth,
        })
    }

    fn kill(&mut self) {}
}

/// An external UCI engine, started when first needed and again after a fault.
pub struct External {
    spec: EngineSpec,
    argv: Vec<String>,
    game: &'static str,
    players: usize,
    handshake: Duration,
    engine: Option<UciEngine>,
}

impl External {
    pub fn new(spec: &EngineSpec, game: &'static str, players: usize) -> External {
        let argv = match &spec.kind {
            EngineKind::External(argv) => argv.clone(),
            EngineKind::Builtin(_) => panic!("External::new takes an external engine's spec"),
        };
        External {
            spec: spec.clone(),
            argv,
            game,
            players,
            handshake: HANDSHAKE_TIMEOUT,
            engine: None,
        }
    }

    /// Starts the program if it is not running: the `uci` handshake and the options.
    pub fn ensure_started(&mut self) -> Result<&mut UciEngine, Fault> {
        if self.engine.is_none() {
            self.engine = Some(UciEngine::start(
                &self.spec,
                &self.argv,
                self.game,
                self.handshake,
            )?);
        }
        Ok(self.engine.as_mut().expect("started"))
    }
}

impl Player for External {
    fn new_game(&mut self, _seed: u64) -> Result<(), Fault> {
        let handshake = self.handshake;
        self.ensure_started()?.new_game(handshake)
    }

    fn think(
        &mut self,
        game: &GameView<'_>,
        limits: &Limits,
        allowed: Duration,
    ) -> Result<Answer, Fault> {
        let go = Command::Go(Go::from_limits(limits, self.players));
        let position = game.position_command();
        let engine = self.ensure_started()?;
        let mut info = SearchInfo::default();
        let text = engine.go(&position, &go, allowed, &mut info)?;
        Ok(Answer {
            text,
            score: info.score,
            depth: info.depth,
        })
    }

    fn kill(&mut self) {
        self.engine = None;
    }
}

impl Drop for External {
    fn drop(&mut self) {
        if let Some(engine) = self.engine.take() {
            engine.quit();
        }
    }
}

/// The player of a spec, for a game of `players` seats.
pub fn new_player(
    spec: &EngineSpec,
    game: &'static str,
    players: usize,
) -> Result<Box<dyn Player>, String> {
    Ok(match &spec.kind {
        EngineKind::Builtin(p) => match &spec.weights {
            Some(file) => Box::new(Builtin::with_weights(game, p, file)?),
            None => Box::new(Builtin::new(game, p)?),
        },
        EngineKind::External(_) => Box::new(External::new(spec, game, players)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use myrmidon_rules::registry;

    #[test]
    fn position_commands() {
        let record = registry::games()[0].new_game(&Default::default()).unwrap();
        let tokens = vec!["a".to_string(), "out:2:time".to_string()];
        let view = GameView {
            record: &*record,
            fen: None,
            tokens: &tokens,
        };
        assert_eq!(
            view.position_command().to_string(),
            "position startpos moves a out:2:time"
        );
        let view = GameView {
            record: &*record,
            fen: Some("x y z"),
            tokens: &[],
        };
        assert_eq!(view.position_command().to_string(), "position fen x y z");
    }

    #[test]
    fn faults_carry_their_reasons() {
        assert_eq!(Fault::Crash("x".into()).reason(), Reason::CRASH);
        assert_eq!(Fault::Timeout("x".into()).reason(), Reason::TIME);
        assert_eq!(Fault::Illegal("x".into()).reason(), Reason::ILLEGAL_MOVE);
        assert_eq!(
            Fault::Illegal("zz".into()).to_string(),
            "played an illegal move: zz"
        );
    }
}
