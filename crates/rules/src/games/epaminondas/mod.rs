//! Epaminondas (Robert Abbott): phalanxes of pieces on a 14×12 board move in lines and capture
//! smaller enemy lines; a player wins by having more pieces on the far row at the start of
//! their turn. Rules: `docs/rules/epaminondas.md`.

pub mod bitboard;
pub mod movegen;
pub mod moves;
pub mod outcome;
pub mod position;
#[allow(unsafe_code)]
mod simd;

#[cfg(test)]
mod tests;

use crate::error::{MoveError, PositionError, SettingError};
use crate::game::{
    Cell, Game, GameInfo, MoveCells, PieceKind, PieceView, Player, Position, Settings,
};
use crate::geometry::Geometry;
use crate::movelist::MoveSink;
use crate::outcome::Outcome;

pub use moves::EpaminondasMove;
pub use position::{EpaminondasPosition, BLACK, START, WHITE};

/// The game, for the registry.
pub struct Epaminondas;

static INFO: GameInfo = GameInfo {
    id: "epaminondas",
    name: "Epaminondas",
    players: &["White", "Black"],
    geometry: Geometry::Square {
        files: 14,
        ranks: 12,
    },
    pieces: &[
        PieceKind {
            letter: 'W',
            name: "White piece",
        },
        PieceKind {
            letter: 'B',
            name: "Black piece",
        },
    ],
    notation: crate::game::PieceNotation::Letter,
    settings: &[],
    reasons: outcome::REASONS,
    summary: "Robert Abbott's game of phalanxes on a 14x12 board: move lines of pieces, capture \
              smaller lines, get more pieces onto the far row than the opponent",
};

impl Game for Epaminondas {
    type Pos = EpaminondasPosition;

    fn info(&self) -> &'static GameInfo {
        &INFO
    }

    fn start(&self, settings: &Settings) -> Result<EpaminondasPosition, SettingError> {
        settings.validate(&INFO)?;
        Ok(EpaminondasPosition::start())
    }

    fn parse_position(&self, text: &str) -> Result<EpaminondasPosition, PositionError> {
        EpaminondasPosition::parse(text)
    }
}

impl Position for EpaminondasPosition {
    type Move = EpaminondasMove;
    /// Copy-make: the position is 56 bytes, cheaper to copy back than to undo square by square.
    type Undo = EpaminondasPosition;
    type MoveList = Vec<EpaminondasMove>;

    fn to_move(&self) -> Player {
        self.side
    }

    fn player_names(&self) -> &'static [&'static str] {
        INFO.players
    }

    fn generate<S: MoveSink<EpaminondasMove>>(&self, out: &mut S) {
        self.generate_into(out)
    }

    fn count_legal_moves(&self) -> u64 {
        self.count_moves()
    }

    #[inline]
    fn make_move(&mut self, mv: EpaminondasMove) -> EpaminondasPosition {
        let undo = self.clone();
        self.play(mv);
        undo
    }

    #[inline]
    fn unmake_move(&mut self, _mv: EpaminondasMove, undo: EpaminondasPosition) {
        *self = undo;
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        self.compute_hash()
    }

    fn draw_by_rule(&self) -> Option<Outcome> {
        None
    }

    fn outcome_without_moves(&self) -> Outcome {
        EpaminondasPosition::outcome_without_moves(self)
    }

    fn is_irreversible(&self, mv: EpaminondasMove) -> bool {
        mv.is_capture()
    }

    fn move_text(&self, mv: EpaminondasMove) -> String {
        self.text_of(mv)
    }

    fn parse_move(&self, text: &str) -> Result<EpaminondasMove, MoveError> {
        self.read_move(text)
    }

    fn move_cells(&self, mv: EpaminondasMove) -> MoveCells {
        self.cells_of(mv)
    }

    fn piece_at(&self, cell: Cell) -> Option<PieceView> {
        self.colour_on_cell(cell).map(|owner| PieceView {
            owner,
            kind: if owner == WHITE { 'W' } else { 'B' },
        })
    }

    fn info_lines(&self) -> Vec<String> {
        vec![
            format!(
                "On the far row: White {} (rank 12), Black {} (rank 1)",
                self.far_row_count(WHITE),
                self.far_row_count(BLACK)
            ),
            format!(
                "Pieces: White {}, Black {}",
                self.pieces(WHITE).count(),
                self.pieces(BLACK).count()
            ),
        ]
    }
}
