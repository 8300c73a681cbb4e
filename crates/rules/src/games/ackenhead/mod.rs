//! Ackenhead chess: fairy chess with Xiangqi-style hoppers (Leo, Pao, Vao), the Mao and
//! Berolina pawns. Rules: `docs/rules/ackenhead.md`.

mod bitboard;
mod movegen;
mod moves;
mod outcome;
mod position;
#[cfg(test)]
mod tests;

pub use moves::AckenheadMove;
pub use position::{AckenheadPosition, START_FEN};

use crate::error::{MoveError, PositionError, SettingError};
use crate::game::{
    Cell, Game, GameInfo, MoveCells, PieceKind, PieceView, Player, Position, Settings,
};
use crate::geometry::Geometry;
use crate::movelist::MoveSink;
use crate::outcome::Outcome;
use bitboard::bit;
use movegen::{Collector, Counter};
use position::*;

pub static INFO: GameInfo = GameInfo {
    id: "ackenhead",
    name: "Ackenhead chess",
    players: &["White", "Black"],
    geometry: Geometry::Square { files: 8, ranks: 8 },
    pieces: &[
        PieceKind {
            letter: 'K',
            name: "King",
        },
        PieceKind {
            letter: 'L',
            name: "Leo",
        },
        PieceKind {
            letter: 'C',
            name: "Pao",
        },
        PieceKind {
            letter: 'V',
            name: "Vao",
        },
        PieceKind {
            letter: 'M',
            name: "Mao",
        },
        PieceKind {
            letter: 'P',
            name: "Berolina pawn",
        },
    ],
    notation: crate::game::PieceNotation::Case,
    settings: &[],
    reasons: outcome::REASONS,
    summary: "fairy chess with cannons (Leo, Pao, Vao), the Mao and Berolina pawns",
};

/// The game `ackenhead`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Ackenhead;

impl Game for Ackenhead {
    type Pos = AckenheadPosition;

    fn info(&self) -> &'static GameInfo {
        &INFO
    }

    fn start(&self, settings: &Settings) -> Result<AckenheadPosition, SettingError> {
        settings.validate(&INFO)?;
        Ok(AckenheadPosition::from_fen(START_FEN).expect("the start FEN is valid"))
    }

    fn parse_position(&self, text: &str) -> Result<AckenheadPosition, PositionError> {
        AckenheadPosition::from_fen(text)
    }
}

const KIND_NAMES: [&str; 6] = ["King", "Leo", "Pao", "Vao", "Mao", "pawn"];

impl Position for AckenheadPosition {
    type Move = AckenheadMove;
    type Undo = AckenheadPosition;
    type MoveList = Vec<AckenheadMove>;

    fn to_move(&self) -> Player {
        self.side
    }

    fn player_names(&self) -> &'static [&'static str] {
        INFO.players
    }

    fn generate<S: MoveSink<AckenheadMove>>(&self, out: &mut S) {
        self.generate_into(&mut Collector(out));
    }

    fn count_legal_moves(&self) -> u64 {
        let mut c = Counter(0);
        self.generate_into(&mut c);
        c.0
    }

    #[inline(always)]
    fn make_move(&mut self, mv: AckenheadMove) -> AckenheadPosition {
        let undo = self.clone();
        self.apply(mv);
        undo
    }

    #[inline(always)]
    fn unmake_move(&mut self, _mv: AckenheadMove, undo: AckenheadPosition) {
        *self = undo;
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        self.compute_hash()
    }

    fn draw_by_rule(&self) -> Option<Outcome> {
        AckenheadPosition::draw_by_rule(self)
    }

    fn outcome_without_moves(&self) -> Outcome {
        AckenheadPosition::outcome_without_moves(self)
    }

    fn is_irreversible(&self, mv: AckenheadMove) -> bool {
        self.board[mv.to() as usize] != EMPTY || self.piece_on(mv.from()).map(|p| p.1) == Some(PAWN)
    }

    fn move_text(&self, mv: AckenheadMove) -> String {
        mv.to_string()
    }

    fn parse_move(&self, text: &str) -> Result<AckenheadMove, MoveError> {
        let mv = AckenheadMove::parse_uci(text).ok_or_else(|| {
            MoveError::malformed(
                text,
                "a move in UCI form: from and to squares, then the promotion letter l, c, v or m \
                 (e2g4, f7e8l)",
            )
        })?;
        let mut legal = Vec::with_capacity(64);
        self.legal_moves(&mut legal);
        if legal.contains(&mv) {
            return Ok(mv);
        }
        if legal.is_empty() {
            return Err(MoveError::GameOver);
        }
        Err(MoveError::illegal(text, self.why_illegal(mv, &legal)))
    }

    fn move_cells(&self, mv: AckenheadMove) -> MoveCells {
        let captured = if self.board[mv.to() as usize] != EMPTY {
            Some(mv.to())
        } else if self.is_en_passant(mv) {
            Some(self.ep_pawn)
        } else {
            None
        };
        MoveCells {
            from: Some(mv.from() as Cell),
            to: Some(mv.to() as Cell),
            captures: captured.into_iter().map(|c| c as Cell).collect(),
        }
    }

    fn piece_at(&self, cell: Cell) -> Option<PieceView> {
        let (colour, kind) = self.piece_on(u8::try_from(cell).ok()?)?;
        Some(PieceView {
            owner: colour,
            kind: KIND_LETTERS[kind as usize],
        })
    }

    fn info_lines(&self) -> Vec<String> {
        let mut lines = vec![format!(
            "move {}, {} plies without capture or pawn move",
            self.fullmove, self.halfmove
        )];
        if self.in_check(self.side) {
            lines.push("check".to_string());
        }
        lines
    }
}

impl AckenheadPosition {
    /// Why a well-formed move is not among the legal ones.
    fn why_illegal(&self, mv: AckenheadMove, legal: &[AckenheadMove]) -> String {
        let sq = |s: u8| crate::geometry::square::name(8, s as Cell);
        let Some((colour, kind)) = self.piece_on(mv.from()) else {
            return format!("there is no piece on {}", sq(mv.from()));
        };
        if colour != self.side {
            return format!(
                "the piece on {} is not {}'s",
                sq(mv.from()),
                INFO.players[self.side as usize]
            );
        }
        let same_squares = legal
            .iter()
            .any(|m| m.from() == mv.from() && m.to() == mv.to());
        if same_squares {
            return if mv.promotion() == 0 {
                "a pawn reaching the last rank must promote: add l, c, v or m (e.g. e7e8l)"
            } else {
                "only a pawn reaching the last rank promotes"
            }
            .to_string();
        }
        if mv.promotion() != 0 && kind != PAWN {
            return "only a pawn reaching the last rank promotes".to_string();
        }
        let reachable = self.piece_targets(kind, mv.from()) & bit(mv.to()) != 0
            || (kind == PAWN && self.is_en_passant(mv));
        if reachable {
            format!(
                "it would leave {}'s King in check",
                INFO.players[self.side as usize]
            )
        } else {
            format!(
                "the {} on {} cannot move to {}",
                KIND_NAMES[kind as usize],
                sq(mv.from()),
                sq(mv.to())
            )
        }
    }
}
