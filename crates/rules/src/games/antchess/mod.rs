//! Ant Chess (Philippe Mermod and Bevin Martin) on a hexagon of side 7, for 2 players
//! (`antchess`: Black, Red) or 3 players (`antchess3`: Black, Red, Green). One implementation
//! serves both; the number of players is part of the position.

mod movegen;
mod moves;
mod outcome;
mod position;
pub mod setup;
mod tables;

#[cfg(test)]
mod slow;
#[cfg(test)]
mod tests;

pub use moves::Move;
pub use position::{AntPos, Kind};

use crate::error::{MoveError, PositionError, SettingError};
use crate::game::{
    Cell, Game, GameInfo, MoveCells, PieceKind, PieceNotation, PieceView, Player, Position,
    Settings,
};
use crate::geometry::Geometry;
use crate::outcome::Outcome;

use movegen::Counter;
use position::{code_kind, code_owner, side_key, OWNER_LETTERS};
use tables::{tables, NONE};

const PIECES: &[PieceKind] = &[
    PieceKind {
        letter: 'Q',
        name: "Queen",
    },
    PieceKind {
        letter: 'A',
        name: "Warrior",
    },
    PieceKind {
        letter: 'S',
        name: "Superant",
    },
    PieceKind {
        letter: 'B',
        name: "Beetle",
    },
    PieceKind {
        letter: 'G',
        name: "Grasshopper",
    },
    PieceKind {
        letter: 'L',
        name: "Ladybird",
    },
    PieceKind {
        letter: 'W',
        name: "Worm",
    },
];

static INFO_2: GameInfo = GameInfo {
    id: "antchess",
    name: "Ant Chess",
    players: &["Black", "Red"],
    geometry: Geometry::Hex { radius: setup::RADIUS },
    pieces: PIECES,
    notation: PieceNotation::OwnerPrefix(&OWNER_LETTERS),
    settings: &[],
    reasons: outcome::REASONS,
    summary: "Ant Chess for two on a hexagon of 127 cells: checkmate the enemy Queen or bring yours to the anthill",
};

static INFO_3: GameInfo = GameInfo {
    id: "antchess3",
    name: "Ant Chess (3 players)",
    players: &["Black", "Red", "Green"],
    geometry: Geometry::Hex {
        radius: setup::RADIUS,
    },
    pieces: PIECES,
    notation: PieceNotation::OwnerPrefix(&OWNER_LETTERS),
    settings: &[],
    reasons: outcome::REASONS,
    summary: "Ant Chess for three: reach the anthill first, or keep the last Queen standing",
};

/// Two-player Ant Chess (`antchess`).
#[derive(Clone, Copy, Debug, Default)]
pub struct AntChess2;

/// Three-player Ant Chess (`antchess3`).
#[derive(Clone, Copy, Debug, Default)]
pub struct AntChess3;

impl Game for AntChess2 {
    type Pos = AntPos;

    fn info(&self) -> &'static GameInfo {
        &INFO_2
    }

    fn start(&self, settings: &Settings) -> Result<AntPos, SettingError> {
        settings.validate(&INFO_2)?;
        Ok(AntPos::start(2))
    }

    fn parse_position(&self, text: &str) -> Result<AntPos, PositionError> {
        AntPos::parse(2, text)
    }
}

impl Game for AntChess3 {
    type Pos = AntPos;

    fn info(&self) -> &'static GameInfo {
        &INFO_3
    }

    fn start(&self, settings: &Settings) -> Result<AntPos, SettingError> {
        settings.validate(&INFO_3)?;
        Ok(AntPos::start(3))
    }

    fn parse_position(&self, text: &str) -> Result<AntPos, PositionError> {
        AntPos::parse(3, text)
    }
}

impl AntPos {
    /// Appends the legal moves (nothing if the game is over by rule).
    pub(crate) fn legal_moves_into<S: crate::movelist::MoveSink<Move>>(&self, out: &mut S) {
        if self.terminal().is_none() {
            self.generate(out);
        }
    }

    pub(crate) fn count_moves(&self) -> u64 {
        if self.terminal().is_some() {
            return 0;
        }
        let mut c = Counter(0);
        self.generate(&mut c);
        c.0
    }

    #[inline]
    fn apply(&mut self, mv: Move) {
        let me = self.to_move as usize;
        if mv.is_pass() {
            self.passes = self.passes.saturating_add(1);
            self.quiet = self.quiet.saturating_add(1);
        } else {
            let mut caps = mv.capture_bits();
            while caps != 0 {
                let c = caps.trailing_zeros() as usize;
                caps &= caps - 1;
                self.remove(c);
            }
            let from = mv.from as usize;
            let code = self.board[from];
            let kind = code_kind(code);
            self.remove(from);
            let new_kind = if mv.is_promotion() {
                Kind::Superant
            } else {
                kind
            };
            self.put(code_owner(code), new_kind, mv.to as usize);
            if mv.capture_bits() != 0 || kind == Kind::Warrior {
                self.quiet = 0;
            } else {
                self.quiet = self.quiet.saturating_add(1);
            }
            self.passes = 0;
        }
        let next = (me + 1) % self.players as usize;
        self.hash ^= side_key(me) ^ side_key(next);
        self.to_move = next as u8;
        if next == 0 {
            self.move_number = self.move_number.saturating_add(1);
        }
    }
}

impl Position for AntPos {
    type Move = Move;
    /// Copy-make: the whole position (about 400 bytes) is the undo record.
    type Undo = AntPos;
    type MoveList = Vec<Move>;

    fn to_move(&self) -> Player {
        self.to_move
    }

    fn player_names(&self) -> &'static [&'static str] {
        if self.players == 2 {
            INFO_2.players
        } else {
            INFO_3.players
        }
    }

    fn generate<S: crate::movelist::MoveSink<Move>>(&self, out: &mut S) {
        self.legal_moves_into(out)
    }

    fn count_legal_moves(&self) -> u64 {
        self.count_moves()
    }

    fn make_move(&mut self, mv: Move) -> AntPos {
        let undo = self.clone();
        self.apply(mv);
        undo
    }

    fn unmake_move(&mut self, _mv: Move, undo: AntPos) {
        *self = undo;
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        AntPos::hash_from_scratch(self)
    }

    fn draw_by_rule(&self) -> Option<Outcome> {
        AntPos::draw_by_rule(self)
    }

    fn outcome_without_moves(&self) -> Outcome {
        AntPos::outcome_without_moves(self)
    }

    fn is_irreversible(&self, mv: Move) -> bool {
        !mv.is_pass()
            && (mv.capture_bits() != 0
                || self.piece(mv.from as usize).map(|p| p.1) == Some(Kind::Warrior))
    }

    fn move_text(&self, mv: Move) -> String {
        moves::move_text(mv)
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        moves::parse_move(self, text)
    }

    fn move_cells(&self, mv: Move) -> MoveCells {
        MoveCells {
            from: mv.from().map(|c| c as Cell),
            to: mv.to().map(|c| c as Cell),
            captures: mv.captures().into_iter().map(|c| c as Cell).collect(),
        }
    }

    fn piece_at(&self, cell: Cell) -> Option<PieceView> {
        self.piece(cell as usize).map(|(o, k)| PieceView {
            owner: o as Player,
            kind: k.letter(),
        })
    }

    fn info_lines(&self) -> Vec<String> {
        let t = tables();
        let info = if self.players == 2 { &INFO_2 } else { &INFO_3 };
        let mut lines = vec![format!(
            "Move {}, {} ({}) to play",
            self.move_number,
            info.players[self.to_move as usize],
            OWNER_LETTERS[self.to_move as usize]
        )];
        let queens: Vec<String> = (0..self.players as usize)
            .map(|o| {
                let q = self.queens[o];
                let at = if q == NONE {
                    "captured".to_string()
                } else {
                    t.grid.name(q as u16)
                };
                format!("{} {}", info.players[o], at)
            })
            .collect();
        lines.push(format!("Queens: {} (anthill g7)", queens.join(", ")));
        lines.push(format!(
            "Passes in a row: {} (draw at {})",
            self.passes,
            self.pass_draw()
        ));
        lines.push(format!(
            "Quiet plies: {} (draw at {})",
            self.quiet,
            self.quiet_draw()
        ));
        if self.in_check() {
            lines.push("Check!".to_string());
        }
        lines
    }
}
