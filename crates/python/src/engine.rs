//! The engine from Python: [`Engine`] (a computer player of one game, at a level, keeping its
//! transposition table from search to search) and its lines. Searches run without Python's
//! global lock, so threads search in parallel, and Ctrl-C stops them.

use std::sync::Mutex;
use std::time::Duration;

use myrmidon_engine::{new_searcher, Control, DynSearcher, Limits, Options, PlayerSpec, Score};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::{interrupt, Game, MyrmidonError, UnknownGameError};

/// One line of an analysis: its score for the player to move, the depth it was searched to,
/// and the moves.
#[pyclass(module = "myrmidon", frozen, get_all)]
#[derive(Clone)]
pub struct Line {
    /// The score in centipawns for the player to move, or `None` for a forced win or loss.
    pub score: Option<i32>,
    /// A forced win in this many of the mover's own moves (negative: a forced loss), or `None`.
    pub mate: Option<i32>,
    pub depth: u32,
    pub seldepth: u32,
    /// Nodes searched in all when the line was found.
    pub nodes: u64,
    /// The principal variation, in move text.
    pub pv: Vec<String>,
}

#[pymethods]
impl Line {
    fn __repr__(&self) -> String {
        let score = match (self.score, self.mate) {
            (_, Some(m)) => format!("mate={m}"),
            (Some(cp), None) => format!("score={cp}"),
            (None, None) => "score=None".to_string(),
        };
        format!(
            "Line({score}, depth={}, pv={:?})",
            self.depth,
            self.pv.join(" ")
        )
    }
}

/// A computer player of one game.
#[pyclass(module = "myrmidon")]
pub struct Engine {
    id: &'static str,
    level: u8,
    hash_mb: usize,
    threads: usize,
    /// Behind a lock: a search runs without Python's lock, and Python objects must be `Sync`.
    searcher: Mutex<Box<dyn DynSearcher>>,
}

fn limits_of(movetime: Option<u64>, depth: Option<u32>, nodes: Option<u64>) -> Limits {
    Limits {
        movetime: movetime.map(Duration::from_millis),
        depth,
        nodes,
        ..Limits::default()
    }
}

impl Engine {
    fn run(
        &self,
        py: Python<'_>,
        game: &Game,
        limits: Limits,
        multipv: u32,
    ) -> PyResult<(Option<String>, Vec<Line>)> {
        if game.record.info().id != self.id {
            return Err(MyrmidonError::new_err(format!(
                "this engine plays {}, not {}",
                self.id,
                game.record.info().id
            )));
        }
        let record = game.record.as_ref();
        let searcher = &self.searcher;
        let control = Control::new(&limits, record.to_move());
        let result = interrupt::interruptible(
            py,
            || control.stop(),
            || {
                let mut searcher = searcher.lock().unwrap_or_else(|e| e.into_inner());
                searcher.configure(&Options {
                    multipv,
                    hash_mb: self.hash_mb,
                    threads: self.threads,
                    ..Options::default()
                });
                let mut lines: Vec<Line> = Vec::new();
                let best = searcher.search(record, &limits, &control, &mut |r| {
                    if r.multipv == 1 {
                        lines.clear();
                    }
                    let (score, mate) = match r.score {
                        Score::Cp(cp) => (Some(cp), None),
                        Score::Mate(m) => (None, Some(m)),
                    };
                    lines.push(Line {
                        score,
                        mate,
                        depth: r.depth,
                        seldepth: r.seldepth,
                        nodes: r.nodes,
                        pv: r.pv.clone(),
                    });
                });
                best.map(|b| (b, lines))
            },
        )?;
        result.map_err(|e| MyrmidonError::new_err(e.to_string()))
    }
}

#[pymethods]
impl Engine {
    /// A player of the game `id` at `level` (1, a beginner beats it, to 8, full strength),
    /// with a transposition table of `hash_mb` MiB and `threads` search threads.
    #[new]
    #[pyo3(signature = (id, level = 8, hash_mb = 16, threads = 1))]
    fn new(id: &str, level: u8, hash_mb: usize, threads: usize) -> PyResult<Self> {
        if !(1..=8).contains(&level) {
            return Err(PyValueError::new_err(format!(
                "level must be from 1 to 8, not {level}"
            )));
        }
        if !(1..=Options::MAX_HASH_MB).contains(&hash_mb) {
            return Err(PyValueError::new_err(format!(
                "hash_mb must be from 1 to {}, not {hash_mb}",
                Options::MAX_HASH_MB
            )));
        }
        if !(1..=Options::MAX_THREADS).contains(&threads) {
            return Err(PyValueError::new_err(format!(
                "threads must be from 1 to {}, not {threads}",
                Options::MAX_THREADS
            )));
        }
        let game = myrmidon_rules::registry::find(id)
            .map_err(|e| UnknownGameError::new_err(e.to_string()))?;
        let options = Options {
            hash_mb,
            threads,
            ..Options::default()
        };
        let searcher = new_searcher(game.info().id, &PlayerSpec::Level { level }, &options)
            .map_err(|e| UnknownGameError::new_err(e.to_string()))?;
        Ok(Engine {
            id: game.info().id,
            level,
            hash_mb,
            threads,
            searcher: Mutex::new(searcher),
        })
    }

    /// The game this engine plays.
    #[getter]
    fn id(&self) -> &'static str {
        self.id
    }

    #[getter]
    fn level(&self) -> u8 {
        self.level
    }

    /// The best lines of the game's current position (`multipv` of them, best first), as
    /// deep as the limits allow: `movetime` milliseconds, `depth` plies, `nodes` nodes (the
    /// first reached stops it; with none, 6 plies). Empty once the game is over.
    #[pyo3(signature = (game, movetime = None, depth = None, nodes = None, multipv = 1))]
    fn analyse(
        &self,
        py: Python<'_>,
        game: &Game,
        movetime: Option<u64>,
        depth: Option<u32>,
        nodes: Option<u64>,
        multipv: u32,
    ) -> PyResult<Vec<Line>> {
        if multipv == 0 {
            return Err(PyValueError::new_err("multipv must be at least 1"));
        }
        let (_, lines) = self.run(py, game, limits_of(movetime, depth, nodes), multipv)?;
        Ok(lines)
    }

    /// The move the engine plays in the game's current position, or `None` once the game is
    /// over. Limits as for `analyse`.
    #[pyo3(signature = (game, movetime = None, depth = None, nodes = None))]
    fn best_move(
        &self,
        py: Python<'_>,
        game: &Game,
        movetime: Option<u64>,
        depth: Option<u32>,
        nodes: Option<u64>,
    ) -> PyResult<Option<String>> {
        let (best, _) = self.run(py, game, limits_of(movetime, depth, nodes), 1)?;
        Ok(best)
    }

    /// Forgets what earlier searches learnt (a new game).
    fn new_game(&self) {
        self.searcher
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .new_game();
    }

    fn __repr__(&self) -> String {
        format!("Engine({:?}, level={})", self.id, self.level)
    }
}
