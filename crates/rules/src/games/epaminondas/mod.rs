//! Epaminondas (Robert Abbott): phalanxes of pieces on a 14×12 board move in lines and capture
//! smaller enemy lines; a player wins by having more pieces on the far row at the start of
//! their turn. Rules: `docs/rules/epaminondas.md`.
//!
//! Files: the common ones (see [`crate::games`]), and `bitboard.rs` (the board as three 64-bit
//! words, each rank padded to 16 bits) and `simd.rs` (move counting with AVX2).

mod bitboard;
mod movegen;
mod moves;
mod outcome;
mod position;
mod simd;

#[cfg(test)]
mod tests;

use crate::error::{MoveError, PositionError, SettingError};
use crate::game::{
    Cell, Fact, Game, GameInfo, GrammaticalNumber, InfoLine, MoveCells, PieceKind, PieceView,
    Player, Position, Settings, Tactics,
};
use crate::movelist::{MoveList, MoveSink};
use crate::outcome::Outcome;

pub use bitboard::Bb;
pub use moves::EpaminondasMove;
pub use outcome::{CROSSING, NO_MOVE};
pub use position::{EpaminondasKind, EpaminondasPosition, BLACK, MAX_PIECES, START, WHITE};

/// The most legal moves any position can have, and the capacity of the move list: 700.
///
/// A move is a tail `t` (a piece of the player to move), a direction `d` and a distance `j`:
/// the group is the run of `k` own pieces from `t` along `d`, and its head ends `j` squares
/// further on, `1 <= j <= k` (a capture lands on the first enemy piece, within the same `k`
/// squares). Different `(t, d, j)` are different moves. Let `R` be the number of squares from
/// `t` (itself included) to the edge of the board along `d`: the group and the squares its head
/// moves to are all among them, so `k + j <= R`, and `(t, d)` has at most
/// `min(k, R - k) <= R / 2` moves (rounded down). For the two opposite directions of one line
/// through `t`, `R_d + R_-d = l + 1` where `l` is the length of the line: 14 along a rank, 12
/// along a file, at most 12 along a diagonal; and `a/2 + b/2 <= (a + b)/2` rounded down. So a
/// piece has at most `7` moves along its rank, `6` along its file and `6` along each diagonal:
/// 25 in all. No move adds pieces and a position has at most 28 a side (`MAX_PIECES`, checked
/// when a position string is read): at most `28 * 25 = 700` moves. The most found by a search
/// (blocks of pieces, then random swaps) is 554, for 28 pieces in a block in the middle of the
/// board (see the tests): the bound is not far off. 700 moves of 4 bytes are 2.8 kB of stack.
pub const MAX_MOVES: usize = 700;

/// The list of the legal moves of a position, on the stack (see [`MAX_MOVES`]).
pub type EpaminondasMoveList = MoveList<EpaminondasMove, MAX_MOVES>;

/// The game, for the registry.
pub struct Epaminondas;

static INFO: GameInfo = GameInfo {
    id: "epaminondas",
    name: "Epaminondas",
    players: &["White", "Black"],
    players_number: GrammaticalNumber::Singular,
    geometry: position::GEOMETRY,
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
    marked: &[],
    to_move_letters: &['w', 'b'],
    emblems: &['W', 'B'],
    icon: PieceView {
        owner: 0,
        kind: 'W',
    },
    action_variants: 1,
    drawings: include_str!("pieces.json"),
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
        text.parse()
    }
}

impl Position for EpaminondasPosition {
    type Move = EpaminondasMove;
    /// Copy-make: the position is 56 bytes, cheaper to copy back than to undo square by square.
    type Undo = EpaminondasPosition;
    type MoveList = EpaminondasMoveList;

    fn to_move(&self) -> Player {
        self.side
    }

    fn player_names(&self) -> &'static [&'static str] {
        INFO.players
    }

    fn generate<S: MoveSink<EpaminondasMove>>(&self, out: &mut S) {
        self.generate_into(out)
    }

    /// Every capture, and the plain moves that leave the opponent without a move (see
    /// [`EpaminondasPosition::generate_tactical_into`]). Reaching the far row is not tactical:
    /// it never wins on the spot, and `Tactics` has no field for it;
    /// [`EpaminondasPosition::far_row_gain`] tells a search about it.
    fn generate_tactical<S: MoveSink<EpaminondasMove>>(&self, out: &mut S) {
        self.generate_tactical_into(out)
    }

    fn count_legal_moves(&self) -> u64 {
        self.count_moves()
    }

    /// `captures`: the length of the enemy line taken; `taken_kinds`: the opponent's kind if
    /// it takes any; `promotion`: never; `wins`: the opponent has no move after it (see
    /// [`EpaminondasPosition::wins`]).
    fn tactics(&self, mv: EpaminondasMove) -> Tactics {
        Tactics {
            wins: self.wins(mv),
            ..self.quick_tactics(mv)
        }
    }

    /// [`Position::tactics`] without `wins`, which plays the move on the bitboards and looks
    /// for an answer: a search asks this of every move it orders, and sees a win one ply later.
    fn quick_tactics(&self, mv: EpaminondasMove) -> Tactics {
        let captures = mv.captured() as u8;
        Tactics {
            captures,
            taken_kinds: if captures > 0 {
                1 << EpaminondasKind::of(self.side ^ 1).index()
            } else {
                0
            },
            promotion: None,
            wins: false,
        }
    }

    /// The move's own 27 bits (tail, landing square, direction, group size, line taken):
    /// distinct moves have distinct codes.
    fn move_code(&self, mv: EpaminondasMove) -> u32 {
        mv.bits()
    }

    /// Decodes the tail and the landing square and checks them as a move text would be
    /// checked (square by square along one line, no generation); the code must then be
    /// exactly that move's.
    fn move_from_code(&self, code: u32) -> Option<EpaminondasMove> {
        let mv = EpaminondasMove::from_bits(code)?;
        let (from, to) = (mv.tail_sq(), mv.land_sq());
        if !bitboard::on_board(from) || !bitboard::on_board(to) || self.crossing_win() {
            return None;
        }
        let legal = self.move_between(from, to).ok()?;
        (legal == mv).then_some(legal)
    }

    /// The turn passes without a move. There is no pass in Epaminondas, but having the move is
    /// almost always worth something (zugzwang is rare), which is what null-move pruning
    /// assumes; the null move may hand the opponent a crossing win, which is the threat it is
    /// meant to show. `None` when the game is over: the player to move has already won by the
    /// crossing rule, or has no legal move.
    fn make_null_move(&mut self) -> Option<EpaminondasPosition> {
        if !self.has_legal_move() {
            return None;
        }
        let undo = self.clone();
        self.side ^= 1;
        self.hash ^= position::side_key();
        Some(undo)
    }

    fn unmake_null_move(&mut self, undo: EpaminondasPosition) {
        *self = undo;
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
        EpaminondasPosition::draw_by_rule(self)
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

    fn pieces_moved(&self, mv: EpaminondasMove) -> u8 {
        mv.size() as u8
    }

    fn piece_at(&self, cell: Cell) -> Option<PieceView> {
        self.colour_on_cell(cell).map(|owner| PieceView {
            owner,
            kind: INFO.pieces[EpaminondasKind::of(owner).index()].letter,
        })
    }

    fn facts(&self) -> Vec<Fact> {
        self.fact_list()
    }

    fn info_messages(&self) -> Vec<InfoLine> {
        outcome::info_messages(&self.fact_list())
    }
}
