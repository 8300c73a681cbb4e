//! The native part of the Python package `myrmidon` (`myrmidon._myrmidon`): the rules of every
//! game of the registry, reached by game id as the command line reaches them, and the engine
//! ([`engine`]). Every error of
//! the rules library becomes a Python exception carrying the library's message; nothing here
//! panics on bad input.

mod engine;
mod interrupt;
mod learning;

use myrmidon_rules::registry::{self, with_record, RecordVisitor};
use myrmidon_rules::{DynRecord, Game as RulesGame, Outcome as RulesOutcome, Record, Settings};
use std::sync::atomic::{AtomicBool, Ordering};

use pyo3::create_exception;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

create_exception!(
    myrmidon,
    MyrmidonError,
    PyValueError,
    "A request the rules refuse: the base of every error of this package."
);
create_exception!(
    myrmidon,
    UnknownGameError,
    MyrmidonError,
    "A game id that is not in the registry (`myrmidon.games()` lists them)."
);
create_exception!(
    myrmidon,
    PositionError,
    MyrmidonError,
    "A position string that cannot be read, or that the rules do not allow."
);
create_exception!(
    myrmidon,
    MoveError,
    MyrmidonError,
    "Text that is not a legal move of the position."
);
create_exception!(
    myrmidon,
    RecordError,
    MyrmidonError,
    "A game record (docs/records.md) that cannot be read or replayed: the message names the line."
);
create_exception!(
    myrmidon,
    SettingError,
    MyrmidonError,
    "A setting the game does not have, or a value it does not take."
);

/// The deepest perft accepted, as on the command line.
const MAX_PERFT_DEPTH: u32 = 64;

/// The ids of the games, in the registry's order.
#[pyfunction]
fn games() -> Vec<&'static str> {
    registry::games().iter().map(|g| g.info().id).collect()
}

/// The settings a game takes: each setting's name and the values it accepts, the default first.
#[pyfunction]
fn settings(id: &str) -> PyResult<Vec<(&'static str, Vec<&'static str>)>> {
    let game = registry::find(id).map_err(|e| UnknownGameError::new_err(e.to_string()))?;
    Ok(game
        .info()
        .settings
        .iter()
        .map(|s| {
            let mut values = vec![s.default];
            values.extend(s.values.iter().filter(|v| **v != s.default));
            (s.name, values)
        })
        .collect())
}

/// How a game ended: the winner's seat (`None` for a draw) and the reason's id.
#[pyclass(module = "myrmidon", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
struct Outcome {
    /// The seat of the winner (0 for the first player), or `None` for a draw.
    #[pyo3(get)]
    winner: Option<u8>,
    /// Why the game ended (`checkmate`, `queen-captured`, `repetition`, …).
    #[pyo3(get)]
    reason: &'static str,
}

#[pymethods]
impl Outcome {
    /// True for a draw.
    #[getter]
    fn is_draw(&self) -> bool {
        self.winner.is_none()
    }

    fn __repr__(&self) -> String {
        match self.winner {
            Some(w) => format!("Outcome(winner={w}, reason={:?})", self.reason),
            None => format!("Outcome(winner=None, reason={:?})", self.reason),
        }
    }
}

impl From<RulesOutcome> for Outcome {
    fn from(o: RulesOutcome) -> Self {
        Outcome {
            winner: o.winner(),
            reason: o.reason().id,
        }
    }
}

/// A game in progress: a position, the moves that led to it from where it began, and its end.
#[pyclass(module = "myrmidon")]
struct Game {
    pub(crate) record: Box<dyn DynRecord>,
    learning: learning::LearningCache,
}

impl Game {
    pub(crate) fn from_record(record: Box<dyn DynRecord>) -> Self {
        Game {
            record,
            learning: Default::default(),
        }
    }
}

pub(crate) fn settings_of(kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Settings> {
    let mut settings = Settings::new();
    if let Some(kwargs) = kwargs {
        for (name, value) in kwargs.iter() {
            let name: String = name.extract()?;
            let value: String = value.extract().map_err(|_| {
                PyTypeError::new_err(format!("setting {name}: give its value as a string"))
            })?;
            settings = settings.with(&name, &value);
        }
    }
    Ok(settings)
}

#[pymethods]
impl Game {
    /// A new game of `id`: its start position with the given settings (`region="cultist"`
    /// for Jeu de Reines), or the position of a position string.
    #[new]
    #[pyo3(signature = (id, position = None, **settings))]
    fn new(
        id: &str,
        position: Option<&str>,
        settings: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        let game = registry::find(id).map_err(|e| UnknownGameError::new_err(e.to_string()))?;
        let settings = settings_of(settings)?;
        let record =
            match position {
                Some(_) if !settings.0.is_empty() => return Err(SettingError::new_err(
                    "settings cannot be given with a position: the position string already fixes \
                     every setting",
                )),
                Some(text) => game
                    .new_game_at(text)
                    .map_err(|e| PositionError::new_err(e.to_string()))?,
                None => {
                    settings
                        .validate(game.info())
                        .map_err(|e| SettingError::new_err(e.to_string()))?;
                    game.new_game(&settings)
                        .map_err(|e| SettingError::new_err(e.to_string()))?
                }
            };
        Ok(Game::from_record(record))
    }

    /// The game's id.
    #[getter]
    fn id(&self) -> &'static str {
        self.record.info().id
    }

    /// The position string of the current position.
    #[getter]
    fn position(&self) -> String {
        self.record.position_string()
    }

    /// The position string of the position the game began at.
    #[getter]
    fn start_position(&self) -> String {
        self.record.start_string()
    }

    /// The seat of the player to move (0 for the first player).
    #[getter]
    fn to_move(&self) -> u8 {
        self.record.to_move()
    }

    /// The players' names in turn order.
    #[getter]
    fn players(&self) -> Vec<&'static str> {
        self.record.player_names().to_vec()
    }

    /// The game's settings, as (name, value) pairs.
    #[getter]
    fn settings(&self) -> Vec<(String, String)> {
        self.record.settings().0
    }

    /// The moves played since the start position, as move text.
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.record.history().into_iter().map(|m| m.text).collect()
    }

    /// The legal moves of the current position, as move text (empty once the game is over).
    fn legal_moves(&self) -> Vec<String> {
        if self.record.outcome().is_some() {
            return Vec::new();
        }
        self.record
            .legal_moves()
            .into_iter()
            .map(|m| m.text)
            .collect()
    }

    /// Plays a move given as text; raises `MoveError` if it is not legal here.
    fn play(&mut self, text: &str) -> PyResult<()> {
        if let Some(o) = self.record.outcome() {
            return Err(MoveError::new_err(format!(
                "the game is over ({}): no move can be played",
                o.reason().id
            )));
        }
        self.record
            .play(text)
            .map(|_| ())
            .map_err(|e| MoveError::new_err(e.to_string()))
    }

    /// The action ids of the legal moves, in the order of `legal_moves()` (docs/python.md,
    /// "Actions"). Empty once the game is over.
    fn legal_actions(&self) -> PyResult<Vec<usize>> {
        Ok(learning::legal_with_actions(self.record.as_ref())?.1)
    }

    /// An int8 array over every action of the game: 1 for the legal ones.
    fn action_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, numpy::PyArray1<i8>>> {
        use numpy::IntoPyArray;
        Ok(learning::mask_of(self.record.as_ref())?.into_pyarray(py))
    }

    /// The move text of a legal action; raises `MoveError` for any other number.
    fn move_of(&self, action: i64) -> PyResult<String> {
        learning::move_of_action(self.record.as_ref(), action)
    }

    /// The action of a legal move given as text; raises `MoveError` if it is not legal.
    fn action_of(&self, text: &str) -> PyResult<usize> {
        learning::action_of_move(self.record.as_ref(), text)
    }

    /// Plays the move of a legal action and returns its text.
    fn play_action(&mut self, action: i64) -> PyResult<String> {
        let text = learning::move_of_action(self.record.as_ref(), action)?;
        self.play(&text)?;
        Ok(text)
    }

    /// The position as float32 planes (planes, height, width) seen by seat `observer` (the
    /// player to move by default): docs/python.md, "Observations".
    #[pyo3(signature = (observer = None))]
    fn observation<'py>(
        &self,
        py: Python<'py>,
        observer: Option<u8>,
    ) -> PyResult<Bound<'py, numpy::PyArray3<f32>>> {
        let layout = self.learning.layout(self.record.as_ref())?;
        learning::observation_array(py, layout, self.record.as_ref(), observer)
    }

    /// What the rules keep besides the board, as (name, seat or None, value) triples: move
    /// counters, flags, cells by name.
    fn facts(&self, py: Python<'_>) -> PyResult<Vec<(&'static str, Option<u8>, PyObject)>> {
        learning::facts_of(py, self.record.as_ref())
    }

    /// The game as a record (docs/records.md): its tags, its settings and start position,
    /// every move and the result. `players` names the seats in turn order.
    #[pyo3(signature = (event = None, site = None, date = None, players = None))]
    fn record(
        &self,
        event: Option<String>,
        site: Option<String>,
        date: Option<String>,
        players: Option<Vec<String>>,
    ) -> String {
        let mut header = myrmidon_rules::pgn::Header::default();
        if let Some(event) = event {
            header.event = event;
        }
        if let Some(site) = site {
            header.site = site;
        }
        if let Some(date) = date {
            header.date = date;
        }
        header.players = players.unwrap_or_default();
        myrmidon_rules::pgn::write_game(self.record.as_ref(), &header, &[])
    }

    /// Takes back the last move; false if there is none.
    fn undo(&mut self) -> bool {
        self.record.undo()
    }

    /// How the game ended, or `None` while it goes on.
    fn outcome(&self) -> Option<Outcome> {
        self.record.outcome().map(Outcome::from)
    }

    /// True once the game is over.
    #[getter]
    fn is_over(&self) -> bool {
        self.record.outcome().is_some()
    }

    /// The number of leaves of the legal-move tree `depth` plies deep from the current
    /// position. Other Python threads run meanwhile.
    fn perft(&self, py: Python<'_>, depth: u32) -> PyResult<u64> {
        perft_of(py, self.record.as_ref(), depth)
    }

    /// An independent copy of the game.
    fn copy(&self) -> Game {
        Game::from_record(self.record.clone_box())
    }

    fn __copy__(&self) -> Game {
        self.copy()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Game {
        self.copy()
    }

    fn __repr__(&self) -> String {
        format!("Game({:?}, position={:?})", self.id(), self.position())
    }
}

fn perft_of(py: Python<'_>, record: &dyn DynRecord, depth: u32) -> PyResult<u64> {
    if depth > MAX_PERFT_DEPTH {
        return Err(PyValueError::new_err(format!(
            "depth must be a whole number from 0 to {MAX_PERFT_DEPTH}, not {depth}"
        )));
    }
    struct Perft<'a>(u32, &'a AtomicBool);
    impl RecordVisitor for Perft<'_> {
        type Output = Option<u64>;
        fn visit<G: RulesGame>(self, _: &G, record: &Record<G::Pos>) -> Option<u64> {
            myrmidon_rules::perft_until(&mut record.position().clone(), self.0, self.1)
        }
    }
    let stop = AtomicBool::new(false);
    let counted = interrupt::interruptible(
        py,
        || stop.store(true, Ordering::Relaxed),
        || with_record(record, Perft(depth, &stop)),
    )?;
    match counted.map_err(|e| UnknownGameError::new_err(e.to_string()))? {
        Some(nodes) => Ok(nodes),
        // Only a raised signal stops it, and that returned above.
        None => Err(MyrmidonError::new_err("perft was stopped")),
    }
}

/// A record's tags, as written: (name, value) in order.
type Tags = Vec<(String, String)>;

/// The games of a record file's text (docs/records.md), each replayed: a list of (tags, Game)
/// with every tag as written. Raises `RecordError` naming the line of the first fault.
#[pyfunction]
fn read_records(text: &str) -> PyResult<Vec<(Tags, Game)>> {
    let games =
        myrmidon_rules::pgn::read_games(text).map_err(|e| RecordError::new_err(e.to_string()))?;
    Ok(games
        .into_iter()
        .map(|g| (g.tags, Game::from_record(g.record)))
        .collect())
}

/// Perft of a game's start position (with default settings) or of a position string.
#[pyfunction]
#[pyo3(signature = (id, depth, position = None))]
fn perft(py: Python<'_>, id: &str, depth: u32, position: Option<&str>) -> PyResult<u64> {
    let game = Game::new(id, position, None)?;
    perft_of(py, game.record.as_ref(), depth)
}

#[pymodule]
fn _myrmidon(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(games, m)?)?;
    m.add_function(wrap_pyfunction!(perft, m)?)?;
    m.add_function(wrap_pyfunction!(settings, m)?)?;
    m.add_function(wrap_pyfunction!(read_records, m)?)?;
    m.add_function(wrap_pyfunction!(learning::action_space, m)?)?;
    m.add_function(wrap_pyfunction!(learning::observation_planes, m)?)?;
    m.add_function(wrap_pyfunction!(learning::observation_shape, m)?)?;
    m.add_class::<Game>()?;
    m.add_class::<learning::VecGames>()?;
    m.add_class::<Outcome>()?;
    m.add_class::<engine::Engine>()?;
    m.add_class::<engine::Line>()?;
    let py = m.py();
    m.add("MyrmidonError", py.get_type::<MyrmidonError>())?;
    m.add("UnknownGameError", py.get_type::<UnknownGameError>())?;
    m.add("PositionError", py.get_type::<PositionError>())?;
    m.add("MoveError", py.get_type::<MoveError>())?;
    m.add("SettingError", py.get_type::<SettingError>())?;
    m.add("RecordError", py.get_type::<RecordError>())?;
    Ok(())
}
