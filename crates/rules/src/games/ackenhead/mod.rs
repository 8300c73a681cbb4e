//! Ackenhead chess: fairy chess with Xiangqi-style hoppers (Leo, Pao, Vao), the Mao and
//! Berolina pawns. Rules: `docs/rules/ackenhead.md`.
//!
//! Files: `position.rs` (the state, its FEN and read access for evaluations), `moves.rs` (the
//! move and its UCI text), `bitboard.rs` (tables), `attacks.rs` (attack sets for evaluations),
//! `movegen.rs` (legal moves, tactical moves, legality of one move, playing a move),
//! `outcome.rs` (reasons, draws by rule, facts).

pub mod attacks;
mod bitboard;
mod movegen;
mod moves;
mod outcome;
mod position;
#[cfg(test)]
mod tests;

pub use bitboard::Bb;
pub use moves::AckenheadMove;
pub use outcome::{BARE_KINGS, NO_PROGRESS_PLIES};
pub use position::{AckenheadKind, AckenheadPosition, START_FEN};

use crate::error::{MoveError, PositionError, SettingError};
use crate::game::{
    Cell, Fact, Game, GameInfo, GrammaticalNumber, InfoLine, MoveCells, PieceKind, PieceView,
    Player, Position, Settings, Tactics,
};
use crate::geometry::Geometry;
use crate::movelist::{MoveList, MoveSink};
use crate::outcome::Outcome;
use bitboard::bit;
use movegen::Pushing;
use position::*;

static INFO: GameInfo = GameInfo {
    id: "ackenhead",
    name: "Ackenhead chess",
    players: &["White", "Black"],
    players_number: GrammaticalNumber::Singular,
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
    marked: &[],
    to_move_letters: &['w', 'b'],
    emblems: &['K'],
    icon: PieceView {
        owner: 0,
        kind: 'M',
    },
    // A pawn on the last rank promotes to a Leo, a Mao, a Pao or a Vao.
    action_variants: 4,
    drawings: include_str!("pieces.json"),
};

/// The game `ackenhead`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Ackenhead;

impl Game for Ackenhead {
    type Pos = AckenheadPosition;

    fn info(&self) -> &'static GameInfo {
        &INFO
    }

    /// A position set up by hand has no double step behind it: no en passant squares.
    fn after_edit(&self, fields: &mut [String]) {
        if let Some(ep) = fields.get_mut(3) {
            *ep = "-".into();
        }
    }

    fn start(&self, settings: &Settings) -> Result<AckenheadPosition, SettingError> {
        settings.validate(&INFO)?;
        Ok(START_FEN.parse().expect("the start FEN is valid"))
    }

    fn parse_position(&self, text: &str) -> Result<AckenheadPosition, PositionError> {
        text.parse()
    }
}

const KIND_NAMES: [&str; 6] = ["King", "Leo", "Pao", "Vao", "Mao", "pawn"];

/// The most legal moves an Ackenhead position can have: 882, for any placement a FEN may give
/// (one King a side, any other pieces), so this bound is proved, not measured.
///
/// Count the (from, to) pairs of legal moves, then the promotions.
/// * From one square at most 27 targets: a Leo moves along 8 rays and on each its targets are
///   the empty squares before the first piece and at most one square beyond it, never that
///   piece (the screen), so no more than the ray's length; the rays of a square add up to at
///   most 27. Paos (14), Vaos (13), Kings (8), Maos (8) and pawns (2 steps, 2 double steps, 1
///   straight capture or en passant) have fewer. With `k` pieces of the side to move: at most
///   `27·k` pairs.
/// * Onto one square at most 24 movers: a Mao from one of the 8 squares a knight's move away,
///   or a piece along one of the 8 rays from the target (King steps, pawn steps, double steps
///   over an empty square, straight captures and en passant, hopper moves), which is the
///   nearest piece on that ray (every move along a ray but a hopper's capture needs the squares
///   between empty) or the second nearest (a hopper capturing over its screen). The targets
///   are the `64 − k` squares without a piece of the mover: at most `24·(64 − k)` pairs.
/// * So at most `max over k of min(27·k, 24·(64 − k))` = 810 pairs (k = 30).
/// * A pair of a pawn onto its last rank is four moves: onto each of the 8 squares of that rank
///   at most 3 pawns move (from the two squares diagonally behind and the one straight
///   behind), so at most 24 such pairs add 3·24 = 72 moves.
///
/// 810 + 72 = 882 ≤ 896.
pub const MAX_MOVES: usize = 896;

/// The list of the legal moves of a position, on the stack (see [`MAX_MOVES`]).
pub type AckenheadMoveList = MoveList<AckenheadMove, MAX_MOVES>;

impl Position for AckenheadPosition {
    type Move = AckenheadMove;
    /// Copy-make: the position before the move.
    type Undo = AckenheadPosition;
    type MoveList = AckenheadMoveList;

    fn to_move(&self) -> Player {
        self.side
    }

    fn player_names(&self) -> &'static [&'static str] {
        INFO.players
    }

    fn generate<S: MoveSink<AckenheadMove>>(&self, out: &mut S) {
        self.generate_into(&mut Pushing(out));
    }

    /// As the default, inlined so that the list is filled where the caller keeps it rather
    /// than copied there (it is 1.8 kB).
    #[inline(always)]
    fn moves(&self) -> AckenheadMoveList {
        let mut list = AckenheadMoveList::new();
        self.generate(&mut list);
        list
    }

    /// Captures (en passant and hopper captures included), promotions, and quiet moves that
    /// checkmate; a specialised generator, not a filter of `generate`.
    fn generate_tactical<S: MoveSink<AckenheadMove>>(&self, out: &mut S) {
        self.generate_tactical_into(out);
    }

    /// Captures (en passant and hopper captures included) and promotions, without the search
    /// for quiet checkmates.
    fn generate_captures<S: MoveSink<AckenheadMove>>(&self, out: &mut S) {
        self.generate_captures_into(out);
    }

    fn count_legal_moves(&self) -> u64 {
        self.count_moves()
    }

    /// Exact, without allocation. `captures`, `taken_kinds` and `promotion` are read off the
    /// board. `wins` (the move checkmates) is tested without playing the move whether it gives
    /// check; only a move that gives check is then played on a copy of the position, and the
    /// opponent's moves searched for a first legal one.
    fn tactics(&self, mv: AckenheadMove) -> Tactics {
        Tactics {
            wins: self.gives_mate(mv),
            ..self.quick_tactics(mv)
        }
    }

    /// Read off the board; `wins` is always false (the checkmate test is left out).
    #[inline]
    fn quick_tactics(&self, mv: AckenheadMove) -> Tactics {
        let target = self.board[mv.to() as usize];
        let taken = if target != EMPTY {
            Some(piece_kind(target))
        } else if self.is_en_passant(mv) {
            Some(PAWN)
        } else {
            None
        };
        Tactics {
            captures: taken.is_some() as u8,
            taken_kinds: taken.map_or(0, |k| 1 << k),
            promotion: (mv.promotion() != 0).then_some(mv.promotion()),
            wins: false,
        }
    }

    /// Exact, without playing the move (see `gives_check` in movegen.rs).
    #[inline]
    fn gives_check(&self, mv: AckenheadMove) -> bool {
        AckenheadPosition::gives_check(self, mv)
    }

    /// The move's 16 bits (`from | to << 6 | promotion << 12`): distinct moves, distinct
    /// codes.
    #[inline]
    fn move_code(&self, mv: AckenheadMove) -> u32 {
        mv.bits() as u32
    }

    /// Decodes the 16 bits and checks that the move is legal here (see `is_legal`): the piece
    /// of the side to move on `from`, `to` among its targets, the promotion exactly when a
    /// pawn reaches the last rank, the King safe afterwards. No generation.
    fn move_from_code(&self, code: u32) -> Option<AckenheadMove> {
        let bits = u16::try_from(code).ok()?;
        let mv = AckenheadMove::from_bits(bits);
        self.is_legal(mv).then_some(mv)
    }

    fn in_check(&self) -> bool {
        self.in_check_of(self.side)
    }

    fn check_cells(&self) -> Vec<Cell> {
        if self.in_check() {
            vec![Cell::from(self.king_sq(self.side))]
        } else {
            Vec::new()
        }
    }

    /// A null move is meaningful in Ackenhead as in chess: it hands the turn to the other side,
    /// clears the en passant field (the double step can no longer be taken) and updates the
    /// hash; the move counters stay. `None` when the side to move is in check (the King would
    /// stay attacked) or the game is over (a draw by rule, or no legal move). Taken back by
    /// `unmake_null_move`, which restores the position exactly.
    fn make_null_move(&mut self) -> Option<AckenheadPosition> {
        if self.in_check_of(self.side) || self.draw_by_rule().is_some() || !self.has_legal_move() {
            return None;
        }
        let undo = self.clone();
        self.apply_null();
        Some(undo)
    }

    fn unmake_null_move(&mut self, undo: AckenheadPosition) {
        *self = undo;
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
        let moving = self.board[mv.from() as usize];
        self.board[mv.to() as usize] != EMPTY || (moving != EMPTY && piece_kind(moving) == PAWN)
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
        if self.is_legal(mv) {
            return Ok(mv);
        }
        if !self.has_legal_move() {
            return Err(MoveError::GameOver);
        }
        Err(MoveError::illegal(text, self.why_illegal(mv)))
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
        let (owner, kind) = self.piece(u8::try_from(cell).ok()?)?;
        Some(PieceView {
            owner,
            kind: kind.letter(),
        })
    }

    fn facts(&self) -> Vec<Fact> {
        AckenheadPosition::facts(self)
    }

    fn info_messages(&self) -> Vec<InfoLine> {
        outcome::info_messages(&AckenheadPosition::facts(self))
    }
}

impl AckenheadPosition {
    /// Why a well-formed move is not legal.
    fn why_illegal(&self, mv: AckenheadMove) -> String {
        let sq = |s: u8| crate::geometry::square::name(8, s as Cell);
        let Some((colour, kind)) = self.piece(mv.from()) else {
            return format!("there is no piece on {}", sq(mv.from()));
        };
        if colour != self.side {
            return format!(
                "the piece on {} is not {}'s",
                sq(mv.from()),
                INFO.players[self.side as usize]
            );
        }
        let same_squares =
            (0..=MAO).any(|p| self.is_legal(AckenheadMove::new(mv.from(), mv.to(), p)));
        if same_squares {
            return if mv.promotion() == 0 {
                "a pawn reaching the last rank must promote: add l, c, v or m (e.g. e7e8l)"
            } else {
                "only a pawn reaching the last rank promotes"
            }
            .to_string();
        }
        let kind = kind as u8;
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
