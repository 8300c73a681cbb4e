//! A position as a stack of planes over the board, for learning programs (the Python package's
//! observations): one plane per owner and kind of piece, the board's cells, the player to move,
//! then the position's facts ([`crate::Fact`]: counters, flags, cells with a role), each in a
//! fixed place, so that every position of a game gives an array of the same shape.
//!
//! The planes are `grid_size()` of the game's [`Geometry`], each cell at its
//! [`Geometry::grid_position`]. Players are counted from the *observer*: 0 is the observer,
//! 1 the player after them in turn order, and so on, so that one network can play every seat.
//! In order:
//!
//! 1. `piece/<p>/<K>` for each player `p` and each kind letter `K` of [`GameInfo::pieces`]:
//!    1 where `p` has a piece of kind `K`.
//! 2. `cell`: 1 on every cell of the board (the hexagon does not fill its rectangle).
//! 3. `to-move/<p>`: all 1 when it is `p`'s turn.
//! 4. the facts, in the order the game lists them at its start, `<name>` or, for a fact about
//!    one player, `<name>/<p>` for every player `p`: a flag fills its plane with 0 or 1, a
//!    number with its value, a list of numbers takes two planes filled with its length
//!    (`<name>/<p>#len`) and its sum (`#sum`) (Jeu de Reines' Workers waiting to come back:
//!    how many, and how many of them have a counter at 1), and a cell or a list of cells sets
//!    1 on them.
//!
//! Values are raw (a move counter is its count): scaling is the learner's choice.

use crate::dynamic::{DynGame, DynRecord};
use crate::game::{Cell, FactValue, GameInfo, Player, Settings};
use crate::geometry::Geometry;

/// Where each fact goes, as the start position of a game lists them.
#[derive(Clone, Debug, PartialEq, Eq)]
struct FactSlot {
    name: &'static str,
    /// The player, counted from the observer, for a fact about one player.
    player: Option<usize>,
    /// For a list of numbers: its length (`Some(false)`) or its sum (`Some(true)`).
    sum: Option<bool>,
    plane: usize,
}

/// The planes of one game (with its settings).
#[derive(Clone, Debug)]
pub struct ObservationLayout {
    geometry: Geometry,
    players: usize,
    kinds: Vec<char>,
    facts: Vec<FactSlot>,
    planes: usize,
    /// The grid offset of every cell (`row * width + column`).
    offsets: Vec<usize>,
}

impl ObservationLayout {
    /// The layout of `game` played with `settings`, from the facts of its start position.
    pub fn new(game: &dyn DynGame, settings: &Settings) -> Result<Self, crate::SettingError> {
        let start = game.new_game(settings)?;
        Ok(Self::from_record(start.as_ref()))
    }

    /// The layout read from one position of a game: its facts set the places of the last planes.
    pub fn from_record(record: &dyn DynRecord) -> Self {
        let info: &GameInfo = record.info();
        let players = info.players.len();
        let kinds: Vec<char> = info.pieces.iter().map(|k| k.letter).collect();
        let mut planes = players * kinds.len() + 1 + players;
        let mut facts = Vec::new();
        for fact in record.facts() {
            let whose: Vec<Option<usize>> = match fact.player {
                Some(_) => (0..players).map(Some).collect(),
                None => vec![None],
            };
            for player in whose {
                let parts: &[Option<bool>] = match fact.value {
                    FactValue::Numbers(_) => &[Some(false), Some(true)],
                    _ => &[None],
                };
                for &sum in parts {
                    if facts.iter().any(|s: &FactSlot| {
                        s.name == fact.name && s.player == player && s.sum == sum
                    }) {
                        continue;
                    }
                    facts.push(FactSlot {
                        name: fact.name,
                        player,
                        sum,
                        plane: planes,
                    });
                    planes += 1;
                }
            }
        }
        let geometry = info.geometry;
        let (_, width) = geometry.grid_size();
        let offsets = (0..geometry.cell_count() as Cell)
            .map(|c| {
                let (r, col) = geometry.grid_position(c).unwrap_or((0, 0));
                r * width + col
            })
            .collect();
        ObservationLayout {
            geometry,
            players,
            kinds,
            facts,
            planes,
            offsets,
        }
    }

    /// (planes, height, width).
    pub fn shape(&self) -> (usize, usize, usize) {
        let (h, w) = self.geometry.grid_size();
        (self.planes, h, w)
    }

    /// How many numbers one observation holds.
    pub fn len(&self) -> usize {
        let (p, h, w) = self.shape();
        p * h * w
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The name of every plane, in order (see the module's documentation).
    pub fn plane_names(&self) -> Vec<String> {
        let mut names = Vec::with_capacity(self.planes);
        for p in 0..self.players {
            for k in &self.kinds {
                names.push(format!("piece/{p}/{k}"));
            }
        }
        names.push("cell".to_string());
        names.extend((0..self.players).map(|p| format!("to-move/{p}")));
        for slot in &self.facts {
            let mut name = slot.name.to_string();
            if let Some(p) = slot.player {
                name += &format!("/{p}");
            }
            match slot.sum {
                Some(false) => name += "#len",
                Some(true) => name += "#sum",
                None => {}
            }
            names.push(name);
        }
        names
    }

    /// Writes the position of `record` as seen by `observer` into `out` (`len()` numbers,
    /// planes first, then rows, then columns), which must be all zeros.
    pub fn fill(&self, record: &dyn DynRecord, observer: Player, out: &mut [f32]) {
        let (_, h, w) = self.shape();
        let area = h * w;
        let n = self.players.max(1);
        let relative = |p: Player| (p as usize + n - observer as usize % n) % n;
        let kinds = self.kinds.len();
        for (cell, &offset) in self.offsets.iter().enumerate() {
            if let Some(piece) = record.piece_at(cell as Cell) {
                if let Some(k) = self.kinds.iter().position(|&k| k == piece.kind) {
                    let plane = relative(piece.owner) * kinds + k;
                    if let Some(v) = out.get_mut(plane * area + offset) {
                        *v = 1.0;
                    }
                }
            }
        }
        let cell_plane = self.players * kinds;
        let fill_plane = |out: &mut [f32], plane: usize, value: f32| {
            if let Some(slice) = out.get_mut(plane * area..(plane + 1) * area) {
                slice.fill(value);
            }
        };
        for &offset in &self.offsets {
            if let Some(v) = out.get_mut(cell_plane * area + offset) {
                *v = 1.0;
            }
        }
        fill_plane(out, cell_plane + 1 + relative(record.to_move()), 1.0);
        for fact in record.facts() {
            let player = fact.player.map(relative);
            let slot = |sum: Option<bool>| {
                self.facts
                    .iter()
                    .find(|s| s.name == fact.name && s.player == player && s.sum == sum)
                    .map(|s| s.plane)
            };
            let mark = |out: &mut [f32], plane: usize, cell: Cell| {
                if let Some(&offset) = self.offsets.get(cell as usize) {
                    if let Some(v) = out.get_mut(plane * area + offset) {
                        *v = 1.0;
                    }
                }
            };
            match &fact.value {
                FactValue::Flag(b) => {
                    if let Some(plane) = slot(None) {
                        fill_plane(out, plane, if *b { 1.0 } else { 0.0 });
                    }
                }
                FactValue::Number(x) => {
                    if let Some(plane) = slot(None) {
                        fill_plane(out, plane, *x as f32);
                    }
                }
                FactValue::Numbers(xs) => {
                    if let Some(plane) = slot(Some(false)) {
                        fill_plane(out, plane, xs.len() as f32);
                    }
                    if let Some(plane) = slot(Some(true)) {
                        fill_plane(out, plane, xs.iter().sum::<i64>() as f32);
                    }
                }
                FactValue::Cell(cell) => {
                    if let (Some(plane), Some(cell)) = (slot(None), cell) {
                        mark(out, plane, *cell);
                    }
                }
                FactValue::Cells(cells) => {
                    if let Some(plane) = slot(None) {
                        for &cell in cells {
                            mark(out, plane, cell);
                        }
                    }
                }
            }
        }
    }

    /// The observation as a new vector.
    pub fn observe(&self, record: &dyn DynRecord, observer: Player) -> Vec<f32> {
        let mut out = vec![0.0; self.len()];
        self.fill(record, observer, &mut out);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry;
    use crate::rng::Rng;

    /// Along random games of every game, every position's facts have their planes (the
    /// layout read at the start holds for the whole game), and the piece planes give back
    /// the board from every seat.
    #[test]
    fn every_position_fits_the_layout_and_the_pieces_read_back() {
        for game in registry::games() {
            let info = game.info();
            let layout = ObservationLayout::new(*game, &Settings::default()).unwrap();
            let (planes, h, w) = layout.shape();
            assert_eq!(layout.plane_names().len(), planes, "{}", info.id);
            let mut rng = Rng::new(11);
            let mut record = game.new_game(&Settings::default()).unwrap();
            for ply in 0..300 {
                for fact in record.facts() {
                    let player = fact.player.map(|p| p as usize);
                    let n = info.players.len();
                    let player = player.map(|p| (p + n - 1) % n);
                    assert!(
                        layout
                            .facts
                            .iter()
                            .any(|s| s.name == fact.name && s.player == player),
                        "{} ply {ply}: fact {} has no plane",
                        info.id,
                        fact.name
                    );
                }
                let n = info.players.len();
                for observer in 0..n as Player {
                    let obs = layout.observe(record.as_ref(), observer);
                    for cell in 0..info.geometry.cell_count() as Cell {
                        let (r, c) = info.geometry.grid_position(cell).unwrap();
                        let at = |plane: usize| obs[plane * h * w + r * w + c];
                        let seen: Vec<(usize, usize)> = (0..n * info.pieces.len())
                            .filter(|&p| at(p) == 1.0)
                            .map(|p| (p / info.pieces.len(), p % info.pieces.len()))
                            .collect();
                        let expected: Vec<(usize, usize)> = record
                            .piece_at(cell)
                            .map(|piece| {
                                let rel = (piece.owner as usize + n - observer as usize) % n;
                                let k = info.pieces.iter().position(|k| k.letter == piece.kind);
                                vec![(rel, k.unwrap())]
                            })
                            .unwrap_or_default();
                        assert_eq!(seen, expected, "{} cell {cell}", info.id);
                        assert_eq!(at(n * info.pieces.len()), 1.0);
                    }
                    let to_move = n * info.pieces.len() + 1;
                    let rel = (record.to_move() as usize + n - observer as usize) % n;
                    for p in 0..n {
                        let expected = if p == rel { 1.0 } else { 0.0 };
                        assert_eq!(obs[(to_move + p) * h * w], expected);
                    }
                }
                let moves = record.legal_moves();
                if moves.is_empty() || record.outcome().is_some() {
                    break;
                }
                record.play(&moves[rng.below(moves.len())].text).unwrap();
            }
        }
    }

    #[test]
    fn plane_names_of_ant_chess_for_three() {
        let game = registry::find("antchess3").unwrap();
        let layout = ObservationLayout::new(game, &Settings::default()).unwrap();
        let names = layout.plane_names();
        assert_eq!(names[0], "piece/0/Q");
        assert!(names.contains(&"cell".to_string()));
        assert!(names.contains(&"to-move/2".to_string()));
        assert_eq!(layout.shape().1, 13);
    }

    #[test]
    fn facts_land_on_their_planes() {
        let game = registry::find("reines").unwrap();
        let layout = ObservationLayout::new(game, &Settings::default()).unwrap();
        let names = layout.plane_names();
        let (_, h, w) = layout.shape();
        let plane = |name: &str| names.iter().position(|n| n == name).unwrap();
        let mut record = game.new_game(&Settings::default()).unwrap();
        let first = record.legal_moves()[0].text.clone();
        record.play(&first).unwrap();
        // Seen from the player to move (seat 1) and from seat 0: "0" is always the observer.
        for observer in [0, 1] {
            let obs = layout.observe(record.as_ref(), observer);
            let ponte = plane("ponte-square/0");
            let marked: Vec<usize> = (0..h * w)
                .filter(|&i| obs[ponte * h * w + i] == 1.0)
                .collect();
            let own_ponte = record
                .facts()
                .into_iter()
                .find(|f| f.name == "ponte-square" && f.player == Some(observer))
                .unwrap();
            let FactValue::Cell(Some(cell)) = own_ponte.value else {
                panic!()
            };
            let (r, c) = game.info().geometry.grid_position(cell).unwrap();
            assert_eq!(marked, [r * w + c]);
            let moved = plane("move-number");
            assert!(obs[moved * h * w..(moved + 1) * h * w]
                .iter()
                .all(|&v| v == 1.0));
            assert_eq!(obs[plane("pending-workers/0#len") * h * w], 0.0);
        }
    }
}
