//! What learning programs need: moves as integer actions ([`myrmidon_rules::actions`]),
//! positions as NumPy planes ([`myrmidon_rules::observation`]), and [`VecGames`], many games
//! stepped in one call.

use std::sync::OnceLock;

use myrmidon_rules::actions::ActionSpace;
use myrmidon_rules::observation::ObservationLayout;
use myrmidon_rules::registry;
use myrmidon_rules::rng::Rng;
use myrmidon_rules::{
    DynGame, DynRecord, FactValue, MoveDesc, Outcome as RulesOutcome, Player, Settings,
};
use numpy::ndarray::{Array1, Array2, Array3, Array4};
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArray3, PyArray4, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::{settings_of, MoveError, MyrmidonError, SettingError, UnknownGameError};

pub(crate) fn find_game(id: &str) -> PyResult<&'static dyn DynGame> {
    registry::find(id).map_err(|e| UnknownGameError::new_err(e.to_string()))
}

fn layout_of(game: &dyn DynGame, settings: &Settings) -> PyResult<ObservationLayout> {
    ObservationLayout::new(game, settings).map_err(|e| SettingError::new_err(e.to_string()))
}

/// What a game's record keeps for learning: its layout, made once.
#[derive(Default)]
pub(crate) struct LearningCache {
    layout: OnceLock<ObservationLayout>,
}

impl LearningCache {
    pub(crate) fn layout(&self, record: &dyn DynRecord) -> PyResult<&ObservationLayout> {
        if let Some(layout) = self.layout.get() {
            return Ok(layout);
        }
        let game = find_game(record.info().id)?;
        let layout = layout_of(game, &record.settings())?;
        Ok(self.layout.get_or_init(|| layout))
    }
}

/// The legal moves of a record with their actions (none once the game is over).
pub(crate) fn legal_with_actions(record: &dyn DynRecord) -> PyResult<(Vec<MoveDesc>, Vec<usize>)> {
    if record.outcome().is_some() {
        return Ok((Vec::new(), Vec::new()));
    }
    let moves = record.legal_moves();
    let actions = ActionSpace::of(record.info())
        .actions(&moves)
        .map_err(|e| MyrmidonError::new_err(e.to_string()))?;
    Ok((moves, actions))
}

/// The legal move that `action` names in the record's position.
pub(crate) fn move_of_action(record: &dyn DynRecord, action: i64) -> PyResult<String> {
    let size = ActionSpace::of(record.info()).size();
    if action < 0 || action as usize >= size {
        return Err(MoveError::new_err(format!(
            "action {action} is out of range: {} has actions 0 to {}",
            record.info().id,
            size - 1
        )));
    }
    if let Some(o) = record.outcome() {
        return Err(MoveError::new_err(format!(
            "the game is over ({}): no move can be played",
            o.reason().id
        )));
    }
    let (moves, actions) = legal_with_actions(record)?;
    actions
        .iter()
        .position(|&a| a == action as usize)
        .map(|i| moves[i].text.clone())
        .ok_or_else(|| {
            MoveError::new_err(format!(
                "action {action} is not a legal move of this position"
            ))
        })
}

/// The action of a legal move given as text.
pub(crate) fn action_of_move(record: &dyn DynRecord, text: &str) -> PyResult<usize> {
    let mut probe = record.clone_box();
    let played = probe
        .play(text)
        .map_err(|e| MoveError::new_err(e.to_string()))?;
    let (moves, actions) = legal_with_actions(record)?;
    moves
        .iter()
        .position(|m| m.text == played.text)
        .map(|i| actions[i])
        .ok_or_else(|| MoveError::new_err(format!("{text} is not a legal move of this position")))
}

/// The action mask of a record: 1 for the actions of its legal moves, as int8.
pub(crate) fn mask_of(record: &dyn DynRecord) -> PyResult<Vec<i8>> {
    let mut mask = vec![0i8; ActionSpace::of(record.info()).size()];
    for a in legal_with_actions(record)?.1 {
        mask[a] = 1;
    }
    Ok(mask)
}

pub(crate) fn observation_array<'py>(
    py: Python<'py>,
    layout: &ObservationLayout,
    record: &dyn DynRecord,
    observer: Option<u8>,
) -> PyResult<Bound<'py, PyArray3<f32>>> {
    let players = record.info().players.len();
    let observer = match observer {
        Some(o) if o as usize >= players => {
            return Err(PyValueError::new_err(format!(
                "observer must be a seat from 0 to {}, not {o}",
                players - 1
            )))
        }
        Some(o) => o,
        None => record.to_move(),
    };
    let data = layout.observe(record, observer);
    let array = Array3::from_shape_vec(layout.shape(), data)
        .map_err(|e| MyrmidonError::new_err(e.to_string()))?;
    Ok(array.into_pyarray(py))
}

/// A fact of a position as Python values: (name, seat or None, value).
pub(crate) fn facts_of(
    py: Python<'_>,
    record: &dyn DynRecord,
) -> PyResult<Vec<(&'static str, Option<Player>, PyObject)>> {
    let cell_name = |c: u16| record.info().geometry.cell_name(c);
    record
        .facts()
        .into_iter()
        .map(|f| {
            let value = match f.value {
                FactValue::Flag(b) => b.into_pyobject(py)?.to_owned().into_any().unbind(),
                FactValue::Number(n) => n.into_pyobject(py)?.into_any().unbind(),
                FactValue::Numbers(ns) => ns.into_pyobject(py)?.into_any().unbind(),
                FactValue::Cell(c) => c.map(cell_name).into_pyobject(py)?.into_any().unbind(),
                FactValue::Cells(cs) => cs
                    .into_iter()
                    .map(cell_name)
                    .collect::<Vec<_>>()
                    .into_pyobject(py)?
                    .into_any()
                    .unbind(),
            };
            Ok((f.name, f.player, value))
        })
        .collect()
}

/// The number of actions of a game: every action id is below it.
#[pyfunction]
pub(crate) fn action_space(id: &str) -> PyResult<usize> {
    Ok(ActionSpace::of(find_game(id)?.info()).size())
}

/// The names of a game's observation planes, in order.
#[pyfunction]
#[pyo3(signature = (id, **settings))]
pub(crate) fn observation_planes(
    id: &str,
    settings: Option<&Bound<'_, PyDict>>,
) -> PyResult<Vec<String>> {
    let game = find_game(id)?;
    Ok(layout_of(game, &checked_settings(game, settings)?)?.plane_names())
}

/// The shape of a game's observations: (planes, height, width).
#[pyfunction]
#[pyo3(signature = (id, **settings))]
pub(crate) fn observation_shape(
    id: &str,
    settings: Option<&Bound<'_, PyDict>>,
) -> PyResult<(usize, usize, usize)> {
    let game = find_game(id)?;
    Ok(layout_of(game, &checked_settings(game, settings)?)?.shape())
}

fn checked_settings(
    game: &dyn DynGame,
    settings: Option<&Bound<'_, PyDict>>,
) -> PyResult<Settings> {
    let settings = settings_of(settings)?;
    settings
        .validate(game.info())
        .map_err(|e| SettingError::new_err(e.to_string()))?;
    Ok(settings)
}

/// One game of a [`VecGames`], with its legal moves kept between calls.
struct Slot {
    record: Box<dyn DynRecord>,
    moves: Vec<MoveDesc>,
    actions: Vec<usize>,
    plies: u32,
}

impl Slot {
    fn refresh(&mut self) -> PyResult<()> {
        let (moves, actions) = legal_with_actions(self.record.as_ref())?;
        self.moves = moves;
        self.actions = actions;
        Ok(())
    }
}

/// Many games of one game id stepped together: one call plays one action in each and returns
/// every next observation and action mask as one array. A game that ends is started again at
/// once; the step that ended it reports its rewards and whether it ended by the rules
/// (`terminated`) or by the ply limit (`truncated`).
#[pyclass(module = "myrmidon")]
pub struct VecGames {
    game: &'static dyn DynGame,
    settings: Settings,
    layout: ObservationLayout,
    space: ActionSpace,
    max_plies: Option<u32>,
    slots: Vec<Slot>,
    rng: Rng,
}

impl VecGames {
    fn fresh(&self) -> PyResult<Slot> {
        let record = self
            .game
            .new_game(&self.settings)
            .map_err(|e| SettingError::new_err(e.to_string()))?;
        let mut slot = Slot {
            record,
            moves: Vec::new(),
            actions: Vec::new(),
            plies: 0,
        };
        slot.refresh()?;
        Ok(slot)
    }

    fn observations_array<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray4<f32>>> {
        let (p, h, w) = self.layout.shape();
        let len = self.layout.len();
        let mut data = vec![0.0f32; len * self.slots.len()];
        for (slot, out) in self.slots.iter().zip(data.chunks_mut(len)) {
            self.layout
                .fill(slot.record.as_ref(), slot.record.to_move(), out);
        }
        let array = Array4::from_shape_vec((self.slots.len(), p, h, w), data)
            .map_err(|e| MyrmidonError::new_err(e.to_string()))?;
        Ok(array.into_pyarray(py))
    }

    fn masks_array<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<i8>>> {
        let size = self.space.size();
        let mut mask = Array2::<i8>::zeros((self.slots.len(), size));
        for (i, slot) in self.slots.iter().enumerate() {
            for &a in &slot.actions {
                mask[(i, a)] = 1;
            }
        }
        Ok(mask.into_pyarray(py))
    }
}

/// Observations and action masks of every game.
type Batch<'py> = (Bound<'py, PyArray4<f32>>, Bound<'py, PyArray2<i8>>);

type StepResult<'py> = (
    Bound<'py, PyArray4<f32>>,
    Bound<'py, PyArray2<i8>>,
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<bool>>,
);

/// +1 to the winner and −1 to every other seat; 0 to all in a draw.
fn rewards_of(outcome: &RulesOutcome, players: usize) -> Vec<f32> {
    match outcome.winner() {
        Some(w) => (0..players)
            .map(|p| if p == w as usize { 1.0 } else { -1.0 })
            .collect(),
        None => vec![0.0; players],
    }
}

#[pymethods]
impl VecGames {
    /// `n` games of `id` from the start position with the given settings; `max_plies` ends a
    /// game that lasts longer (truncated); `seed` seeds `random_actions`.
    #[new]
    #[pyo3(signature = (id, n, max_plies = None, seed = 0, **settings))]
    fn new(
        id: &str,
        n: usize,
        max_plies: Option<u32>,
        seed: u64,
        settings: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        if n == 0 {
            return Err(PyValueError::new_err("n must be at least 1"));
        }
        if max_plies == Some(0) {
            return Err(PyValueError::new_err("max_plies must be at least 1"));
        }
        let game = find_game(id)?;
        let settings = checked_settings(game, settings)?;
        let layout = layout_of(game, &settings)?;
        let mut games = VecGames {
            game,
            settings,
            layout,
            space: ActionSpace::of(game.info()),
            max_plies,
            slots: Vec::with_capacity(n),
            rng: Rng::new(seed),
        };
        for _ in 0..n {
            let slot = games.fresh()?;
            games.slots.push(slot);
        }
        Ok(games)
    }

    /// How many games.
    fn __len__(&self) -> usize {
        self.slots.len()
    }

    /// The game id.
    #[getter]
    fn id(&self) -> &'static str {
        self.game.info().id
    }

    /// The number of actions of the game.
    #[getter]
    fn action_space(&self) -> usize {
        self.space.size()
    }

    /// Every game's seat to move, as an int64 array.
    #[getter]
    fn to_move<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        Array1::from_iter(self.slots.iter().map(|s| s.record.to_move() as i64)).into_pyarray(py)
    }

    /// Every game's observation from its player to move: float32 (n, planes, height, width).
    fn observations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray4<f32>>> {
        self.observations_array(py)
    }

    /// Every game's action mask: int8 (n, actions), 1 for a legal action.
    fn action_masks<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<i8>>> {
        self.masks_array(py)
    }

    /// One legal action of every game, drawn uniformly (with the generator seeded by `seed`).
    fn random_actions<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let rng = &mut self.rng;
        Array1::from_iter(
            self.slots
                .iter()
                .map(|s| s.actions[rng.below(s.actions.len())] as i64),
        )
        .into_pyarray(py)
    }

    /// Starts every game again; returns (observations, action masks).
    fn reset<'py>(&mut self, py: Python<'py>) -> PyResult<Batch<'py>> {
        for i in 0..self.slots.len() {
            self.slots[i] = self.fresh()?;
        }
        Ok((self.observations_array(py)?, self.masks_array(py)?))
    }

    /// Plays `actions[i]` in game `i`, for every game. Returns (observations, action masks,
    /// rewards float32 (n, players), terminated, truncated); a game that ended is started
    /// again and its observation is the new game's. Raises `MoveError`, playing nothing, if an
    /// action is not legal in its game.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: PyReadonlyArray1<'py, i64>,
    ) -> PyResult<StepResult<'py>> {
        let actions = actions.as_array();
        if actions.len() != self.slots.len() {
            return Err(PyValueError::new_err(format!(
                "give one action a game: {} actions for {} games",
                actions.len(),
                self.slots.len()
            )));
        }
        let mut picks = Vec::with_capacity(self.slots.len());
        for (i, (slot, &a)) in self.slots.iter().zip(actions.iter()).enumerate() {
            let pick = (a >= 0)
                .then(|| slot.actions.iter().position(|&x| x == a as usize))
                .flatten()
                .ok_or_else(|| {
                    MoveError::new_err(format!(
                        "game {i}: action {a} is not a legal move of its position"
                    ))
                })?;
            picks.push(pick);
        }
        let players = self.game.info().players.len();
        let n = self.slots.len();
        let mut rewards = Array2::<f32>::zeros((n, players));
        let mut terminated = vec![false; n];
        let mut truncated = vec![false; n];
        for (i, pick) in picks.into_iter().enumerate() {
            let slot = &mut self.slots[i];
            let text = slot.moves[pick].text.clone();
            slot.record
                .play(&text)
                .map_err(|e| MyrmidonError::new_err(e.to_string()))?;
            slot.plies += 1;
            if let Some(outcome) = slot.record.outcome() {
                for (p, r) in rewards_of(&outcome, players).into_iter().enumerate() {
                    rewards[(i, p)] = r;
                }
                terminated[i] = true;
            } else if self.max_plies.is_some_and(|m| slot.plies >= m) {
                truncated[i] = true;
            }
            if terminated[i] || truncated[i] {
                self.slots[i] = self.fresh()?;
            } else {
                slot.refresh()?;
            }
        }
        Ok((
            self.observations_array(py)?,
            self.masks_array(py)?,
            rewards.into_pyarray(py),
            Array1::from(terminated).into_pyarray(py),
            Array1::from(truncated).into_pyarray(py),
        ))
    }

    /// A copy of game `i` as a `Game` (its moves since it last started).
    fn game(&self, i: usize) -> PyResult<crate::Game> {
        let slot = self.slots.get(i).ok_or_else(|| {
            PyValueError::new_err(format!(
                "game {i} is out of range: there are {}",
                self.slots.len()
            ))
        })?;
        Ok(crate::Game::from_record(slot.record.clone_box()))
    }
}
