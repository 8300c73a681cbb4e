//! A trivial game for the command line's own tests (the registry is not touched): players in
//! turn put a stone on an empty cell or pass; three stones of one player side by side in a drawn
//! row win; a full round of passes is a draw (which, as the contract says, does not empty the
//! legal moves). Played on a 3×3 square board by two players (with a `region` setting choosing
//! who starts) and on a radius-2 hexagon by three.
//!
//! Position string: the rows top to bottom separated by `/`, each cell `.` or the owner's number
//! from 1; then the player to move (from 1); then the passes in a row. Move text: a cell name or
//! `pass`.

use std::fmt;

use myrmidon_rules::{
    Cell, Game, GameInfo, Geometry, GrammaticalNumber, MoveCells, MoveError, MoveSink, Outcome,
    PieceKind, PieceNotation, PieceView, Player, Position, PositionError, Reason, SettingError,
    SettingInfo, Settings,
};

pub struct TestGame {
    variant: u8,
}

pub static SQUARE: TestGame = TestGame { variant: 0 };
pub static HEX: TestGame = TestGame { variant: 1 };
pub static HEX_SAME_INITIALS: TestGame = TestGame { variant: 2 };

const STONES: &[PieceKind] = &[PieceKind {
    letter: 'S',
    name: "stone",
}];

/// Three stones in a row.
const LINE: Reason = Reason::new("line", "by three in a row");

static INFOS: [GameInfo; 3] = [
    GameInfo {
        id: "tictac",
        name: "Square test game",
        players: &["Cross", "Nought"],
        players_number: GrammaticalNumber::Singular,
        geometry: Geometry::Square { files: 3, ranks: 3 },
        pieces: STONES,
        notation: PieceNotation::Case,
        settings: &[SettingInfo {
            name: "region",
            values: &["north", "south"],
            default: "north",
            help: "north: Cross starts; south: Nought starts",
        }],
        reasons: &[LINE, Reason::PASSES],
        summary: "three in a row on 3x3 squares",
        marked: &[],
        // Its strings are not run-length placements: not editable (crate::edit).
        to_move_letters: &[],
        emblems: &['S'],
        icon: PieceView {
            owner: 0,
            kind: 'S',
        },
        action_variants: 1,
        drawings: "",
    },
    GameInfo {
        id: "hextac",
        name: "Hex test game",
        players: &["Amber", "Blue", "Coral"],
        players_number: GrammaticalNumber::Singular,
        geometry: Geometry::Hex { radius: 2 },
        pieces: STONES,
        notation: PieceNotation::OwnerPrefix(&['a', 'b', 'c']),
        settings: &[],
        reasons: &[LINE, Reason::PASSES],
        summary: "three in a row on a small hexagon, three players",
        marked: &[],
        to_move_letters: &[],
        emblems: &['S'],
        icon: PieceView {
            owner: 0,
            kind: 'S',
        },
        action_variants: 1,
        drawings: "",
    },
    GameInfo {
        id: "hextac-r",
        name: "Hex test game, players sharing an initial",
        players: &["Red", "Rose", "Ruby"],
        players_number: GrammaticalNumber::Singular,
        geometry: Geometry::Hex { radius: 2 },
        pieces: STONES,
        notation: PieceNotation::OwnerPrefix(&['1', '2', '3']),
        settings: &[],
        reasons: &[LINE, Reason::PASSES],
        summary: "the same with confusing names",
        marked: &[],
        to_move_letters: &[],
        emblems: &['S'],
        icon: PieceView {
            owner: 0,
            kind: 'S',
        },
        action_variants: 1,
        drawings: "",
    },
];

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum TacMove {
    Place(Cell),
    #[default]
    Pass,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TacPos {
    variant: u8,
    /// 0 empty, else owner + 1.
    cells: Vec<u8>,
    to_move: Player,
    passes: u8,
}

impl TacPos {
    fn info(&self) -> &'static GameInfo {
        &INFOS[self.variant as usize]
    }

    fn players(&self) -> u8 {
        self.info().players.len() as u8
    }

    fn winner(&self) -> Option<Player> {
        for (_, row) in self.info().geometry.rows() {
            for w in row.windows(3) {
                let v = self.cells[w[0] as usize];
                if v != 0 && w.iter().all(|&c| self.cells[c as usize] == v) {
                    return Some(v - 1);
                }
            }
        }
        None
    }
}

impl fmt::Display for TacPos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rows: Vec<String> = self
            .info()
            .geometry
            .rows()
            .iter()
            .map(|(_, row)| {
                row.iter()
                    .map(|&c| match self.cells[c as usize] {
                        0 => '.',
                        v => (b'0' + v) as char,
                    })
                    .collect()
            })
            .collect();
        write!(f, "{} {} {}", rows.join("/"), self.to_move + 1, self.passes)
    }
}

impl Position for TacPos {
    type Move = TacMove;
    type Undo = TacPos;
    type MoveList = Vec<TacMove>;

    fn to_move(&self) -> Player {
        self.to_move
    }

    fn player_names(&self) -> &'static [&'static str] {
        self.info().players
    }

    fn generate<S: MoveSink<TacMove>>(&self, out: &mut S) {
        if self.winner().is_some() {
            return;
        }
        for (i, &v) in self.cells.iter().enumerate() {
            if v == 0 {
                out.push(TacMove::Place(i as Cell));
            }
        }
        out.push(TacMove::Pass);
    }

    fn make_move(&mut self, mv: TacMove) -> TacPos {
        let before = self.clone();
        match mv {
            TacMove::Place(c) => {
                self.cells[c as usize] = self.to_move + 1;
                self.passes = 0;
            }
            TacMove::Pass => self.passes = self.passes.saturating_add(1),
        }
        self.to_move = (self.to_move + 1) % self.players();
        before
    }

    fn unmake_move(&mut self, _mv: TacMove, undo: TacPos) {
        *self = undo;
    }

    fn hash(&self) -> u64 {
        self.hash_from_scratch()
    }

    fn hash_from_scratch(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for &b in self.cells.iter().chain([self.to_move].iter()) {
            h = (h ^ b as u64).wrapping_mul(0x100_0000_01b3);
        }
        h
    }

    fn draw_by_rule(&self) -> Option<Outcome> {
        (self.passes >= self.players()).then_some(Outcome::Draw {
            reason: Reason::PASSES,
        })
    }

    fn outcome_without_moves(&self) -> Outcome {
        Outcome::Win {
            winner: self.winner().unwrap_or(0),
            reason: LINE,
        }
    }

    fn is_irreversible(&self, mv: TacMove) -> bool {
        matches!(mv, TacMove::Place(_))
    }

    fn move_text(&self, mv: TacMove) -> String {
        match mv {
            TacMove::Place(c) => self.info().geometry.cell_name(c),
            TacMove::Pass => "pass".to_string(),
        }
    }

    fn parse_move(&self, text: &str) -> Result<TacMove, MoveError> {
        let mv = if text == "pass" {
            TacMove::Pass
        } else {
            let cell = self
                .info()
                .geometry
                .parse_cell(text)
                .ok_or_else(|| MoveError::malformed(text, "a cell name or pass"))?;
            if self.cells[cell as usize] != 0 {
                return Err(MoveError::illegal(text, "the cell is taken"));
            }
            TacMove::Place(cell)
        };
        if self.winner().is_some() {
            return Err(MoveError::GameOver);
        }
        Ok(mv)
    }

    fn move_cells(&self, mv: TacMove) -> MoveCells {
        match mv {
            TacMove::Place(c) => MoveCells {
                from: None,
                to: Some(c),
                captures: Vec::new(),
            },
            TacMove::Pass => MoveCells::default(),
        }
    }

    fn piece_at(&self, cell: Cell) -> Option<PieceView> {
        match self.cells.get(cell as usize) {
            Some(&v) if v > 0 => Some(PieceView {
                owner: v - 1,
                kind: 'S',
            }),
            _ => None,
        }
    }
}

impl Game for TestGame {
    type Pos = TacPos;

    fn info(&self) -> &'static GameInfo {
        &INFOS[self.variant as usize]
    }

    fn start(&self, settings: &Settings) -> Result<TacPos, SettingError> {
        let info = Game::info(self);
        let to_move = if info.settings.is_empty() {
            settings.validate(info)?;
            0
        } else {
            match settings.get(info, "region")? {
                "south" => 1,
                _ => 0,
            }
        };
        Ok(TacPos {
            variant: self.variant,
            cells: vec![0; info.geometry.cell_count()],
            to_move,
            passes: 0,
        })
    }

    fn parse_position(&self, text: &str) -> Result<TacPos, PositionError> {
        let info = Game::info(self);
        let players = info.players.len() as u8;
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() != 3 {
            return Err(PositionError::new(
                "position",
                format!(
                    "expected 3 fields separated by spaces, found {}",
                    fields.len()
                ),
            ));
        }
        let rows = info.geometry.rows();
        let texts: Vec<&str> = fields[0].split('/').collect();
        if texts.len() != rows.len() {
            return Err(PositionError::new(
                "placement",
                format!("expected {} rows, found {}", rows.len(), texts.len()),
            ));
        }
        let mut cells = vec![0; info.geometry.cell_count()];
        for ((_, row), t) in rows.iter().zip(&texts) {
            if t.chars().count() != row.len() {
                return Err(PositionError::new(
                    "placement",
                    format!("row {t:?} should have {} cells", row.len()),
                ));
            }
            for (&cell, ch) in row.iter().zip(t.chars()) {
                cells[cell as usize] = match ch {
                    '.' => 0,
                    '1'..='9' if (ch as u8 - b'0') <= players => ch as u8 - b'0',
                    _ => {
                        return Err(PositionError::new(
                            "placement",
                            format!("{ch:?} is not '.' or a player from 1 to {players}"),
                        ))
                    }
                };
            }
        }
        let to_move = match fields[1].parse::<u8>() {
            Ok(p) if (1..=players).contains(&p) => p - 1,
            _ => {
                return Err(PositionError::new(
                    "side to move",
                    format!(
                        "expected a player from 1 to {players}, found {:?}",
                        fields[1]
                    ),
                ))
            }
        };
        let passes = fields[2].parse::<u8>().map_err(|_| {
            PositionError::new(
                "passes",
                format!("expected a small number, found {:?}", fields[2]),
            )
        })?;
        Ok(TacPos {
            variant: self.variant,
            cells,
            to_move,
            passes,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use myrmidon_rules::testkit;

    #[test]
    fn the_test_game_keeps_the_contract() {
        // Slow generator: every cell name whose cell is empty, and pass, unless someone won.
        let slow = |pos: &TacPos| -> Vec<String> {
            if pos.outcome().is_some_and(|o| o.winner().is_some()) {
                return Vec::new();
            }
            let g = pos.info().geometry;
            let mut v: Vec<String> = (0..g.cell_count() as Cell)
                .filter(|&c| pos.piece_at(c).is_none())
                .map(|c| g.cell_name(c))
                .collect();
            v.push("pass".to_string());
            v
        };
        for game in [&SQUARE, &HEX] {
            let start = game.start(&Settings::new()).unwrap();
            assert!(testkit::check_random_games(game, &start, 20, 20, 7, &slow) > 100);
        }
    }

    #[test]
    fn bad_position_strings_are_errors() {
        for bad in [
            "",
            "... 1 0",
            ".../.../... 3 0",
            ".../.../..x 1 0",
            ".../.../... 1 z",
        ] {
            assert!(SQUARE.parse_position(bad).is_err(), "{bad}");
        }
    }
}
