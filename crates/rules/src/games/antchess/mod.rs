//! Ant Chess (Philippe Mermod and Bevin Martin) on a hexagon of side 7, for 2 players
//! (`antchess`: Black, Red) or 3 players (`antchess3`: Black, Red, Green). One implementation
//! serves both: the number of players is the type parameter of [`AntChessPosition`], so that
//! each game reads its own position strings with `FromStr`.
//!
//! Files: `position.rs` (the state and its position string), `moves.rs` (the 32-bit move and
//! its text), `movegen.rs` (legal, tactical and counted generation, the attack test, tactics,
//! playing a move), `outcome.rs` (reasons, draws, results, facts), `tables.rs` (precomputed
//! board tables), `setup.rs` (board radius and armies as data), `slow.rs` and `tests.rs` (tests
//! only).
//!
//! In `antchess3` a player who resigns or whose flag falls drops out
//! ([`crate::record::Record::drop_out`]): [`Position::remove_player`] takes their Queen off the
//! board and marks the player as having left ([`AntChessPosition::has_left`]). From then on
//! their seat's only move is `pass`, which the record plays for them, and their other pieces
//! stay as obstacles: they block and can be captured, but attack nothing (they have no move
//! that captures), so they never give check. The mark is part of the position's equality and
//! hash but not of its string, which has no field for it: a position printed after a dropout
//! reads back without it (a ruling, as Jeu de Reines' passes in a row).

mod movegen;
mod moves;
mod outcome;
mod position;
mod setup;
mod tables;

#[cfg(test)]
mod slow;
#[cfg(test)]
mod tests;

pub use moves::AntChessMove;
pub use outcome::{ANTHILL, LAST_QUEEN, NO_QUEENS, QUEEN_LOST};
pub use position::{AntChessKind, AntChessPosition, KINDS};
pub use setup::RADIUS;

use crate::error::{MoveError, PositionError, SettingError};
use crate::game::{
    Cell, Fact, Game, GameInfo, GrammaticalNumber, InfoLine, MarkedCell, MoveCells, PieceKind,
    PieceNotation, PieceView, Player, Position, Settings, Tactics,
};
use crate::movelist::{MoveList, MoveSink};
use crate::outcome::{Outcome, Reason};

use position::{GEOMETRY, OWNER_LETTERS};

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

/// The anthill: the centre of the hexagon (g7), cell 63 of 127 in reading order (a test
/// checks it against the move generator's tables).
const ANTHILL_CELLS: &[MarkedCell] = &[MarkedCell {
    cell: 63,
    name: "anthill",
}];

static INFO_2: GameInfo = GameInfo {
    id: "antchess",
    name: "Ant Chess",
    players: &["Black", "Red"],
    players_number: GrammaticalNumber::Singular,
    geometry: GEOMETRY,
    pieces: PIECES,
    notation: PieceNotation::OwnerPrefix(&OWNER_LETTERS),
    settings: &[],
    reasons: outcome::REASONS,
    summary: "Ant Chess for two on a hexagon of 127 cells: checkmate the enemy Queen or bring yours to the anthill",
    marked: ANTHILL_CELLS,
    to_move_letters: &['b', 'r'],
    emblems: &['Q'],
    icon: PieceView { owner: 1, kind: 'L' },
    // A Ladybird reaches a cell by up to two pivots, each in two senses.
    action_variants: 4,
    drawings: include_str!("pieces.json"),
};

static INFO_3: GameInfo = GameInfo {
    id: "antchess3",
    name: "Ant Chess (3 players)",
    players: &["Black", "Red", "Green"],
    players_number: GrammaticalNumber::Singular,
    geometry: GEOMETRY,
    pieces: PIECES,
    notation: PieceNotation::OwnerPrefix(&OWNER_LETTERS),
    settings: &[],
    reasons: outcome::REASONS,
    summary: "Ant Chess for three: reach the anthill first, or keep the last Queen standing",
    marked: ANTHILL_CELLS,
    to_move_letters: &['b', 'r', 'g'],
    emblems: &['Q'],
    icon: PieceView {
        owner: 2,
        kind: 'G',
    },
    // A Ladybird reaches a cell by up to two pivots, each in two senses.
    action_variants: 4,
    drawings: include_str!("pieces.json"),
};

/// The most legal moves a position can have, for the stack move list.
///
/// Count the moves by the cell `t` where they end; `u` is the number of cells the mover does
/// not hold (the only possible ends). Besides the pass:
/// * Line moves (Queen, Warrior, Superant, Beetle): such a piece reaches `t` only as the first
///   piece on one of the 6 rays from `t` (a step, a Superant's two cells over an empty one, a
///   Beetle's slide), so at most 6 end on `t`; and one piece has at most 36 (a Beetle in the
///   centre). With `x` such pieces: at most `min(6u, 36x)`.
/// * Grasshopper moves: from the 12 cells at distance 2 of `t`; 12 per Grasshopper. With `y`
///   Grasshoppers: at most `min(12u, 12y)`.
/// * Ladybird moves: each ends round a pivot `p` next to `t`, in one of two senses; walking back
///   round `p` from `t` against that sense, the first cell holding one of the mover's pieces is
///   the only Ladybird that can arrive (any other is stopped by it). So at most 6 × 2 = 12 end
///   on `t`; and one Ladybird has at most 6 pivots × 2 senses × 5 steps = 60. With `z`
///   Ladybirds: at most `min(12u, 60z)`.
/// * Worm moves: `w` Worms on the 36 edge cells, each with at most 13 moves (from a corner), to
///   distinct empty edge cells: at most `min(13w, w·(36 − w)) ≤ 299`.
///
/// As `x + y + z + u ≤ 127`, the first three sum to at most the largest value of
/// `6·min(u, 6x) + 12·min(u, y) + 12·min(u, 5z)` over such whole numbers, 1668 (at `u = 90`,
/// `x = 15`, `y = 4`, `z = 18`; a test enumerates them). In all at most 1 + 1668 + 299 = 1968
/// legal moves; the capacity rounds that up.
pub const MAX_MOVES: usize = 2048;

/// The game's stack move list (4 bytes a move, 8 KiB).
pub type AntChessMoveList = MoveList<AntChessMove, MAX_MOVES>;

/// Two-player Ant Chess (`antchess`).
#[derive(Clone, Copy, Debug, Default)]
pub struct AntChess2;

/// Three-player Ant Chess (`antchess3`).
#[derive(Clone, Copy, Debug, Default)]
pub struct AntChess3;

impl Game for AntChess2 {
    type Pos = AntChessPosition<2>;

    fn info(&self) -> &'static GameInfo {
        &INFO_2
    }

    fn start(&self, settings: &Settings) -> Result<Self::Pos, SettingError> {
        settings.validate(&INFO_2)?;
        Ok(AntChessPosition::start())
    }

    fn parse_position(&self, text: &str) -> Result<Self::Pos, PositionError> {
        text.parse()
    }
}

impl Game for AntChess3 {
    type Pos = AntChessPosition<3>;

    fn info(&self) -> &'static GameInfo {
        &INFO_3
    }

    fn start(&self, settings: &Settings) -> Result<Self::Pos, SettingError> {
        settings.validate(&INFO_3)?;
        Ok(AntChessPosition::start())
    }

    fn parse_position(&self, text: &str) -> Result<Self::Pos, PositionError> {
        text.parse()
    }
}

impl<const N: usize> AntChessPosition<N> {
    fn info() -> &'static GameInfo {
        if N == 2 {
            &INFO_2
        } else {
            &INFO_3
        }
    }
}

impl<const N: usize> Position for AntChessPosition<N> {
    type Move = AntChessMove;
    /// Copy-make: the whole position (about 400 bytes) is the undo record.
    type Undo = AntChessPosition<N>;
    type MoveList = AntChessMoveList;

    fn to_move(&self) -> Player {
        self.to_move
    }

    fn player_names(&self) -> &'static [&'static str] {
        Self::info().players
    }

    #[inline]
    fn generate<S: MoveSink<AntChessMove>>(&self, out: &mut S) {
        self.legal_moves_into(out)
    }

    fn generate_tactical<S: MoveSink<AntChessMove>>(&self, out: &mut S) {
        if self.terminal().is_none() {
            self.generate_tactical_for(out);
        }
    }

    #[inline]
    fn count_legal_moves(&self) -> u64 {
        self.count_moves()
    }

    fn tactics(&self, mv: AntChessMove) -> Tactics {
        self.tactics_of(mv)
    }

    /// The move's own 32 bits (see [`AntChessMove`]): exact.
    fn move_code(&self, mv: AntChessMove) -> u32 {
        mv.code()
    }

    /// Decodes the move and checks it against the moves of the piece it names.
    fn move_from_code(&self, code: u32) -> Option<AntChessMove> {
        let mv = AntChessMove(code);
        (self.terminal().is_none() && self.is_legal(mv)).then_some(mv)
    }

    /// True if the player to move has a Queen and she is attacked.
    fn in_check(&self) -> bool {
        AntChessPosition::in_check(self)
    }

    fn check_cells(&self) -> Vec<Cell> {
        match self.queen(self.to_move() as usize) {
            Some(q) if AntChessPosition::in_check(self) => vec![q as Cell],
            _ => Vec::new(),
        }
    }

    /// No null move: in Ant Chess `pass` is itself a legal move (whenever the Queen is not in
    /// check), so a search plays it as a move like any other; a null move would only repeat
    /// it. Always `None`.
    fn make_null_move(&mut self) -> Option<AntChessPosition<N>> {
        None
    }

    fn make_move(&mut self, mv: AntChessMove) -> AntChessPosition<N> {
        let undo = self.clone();
        self.apply(mv);
        undo
    }

    fn unmake_move(&mut self, _mv: AntChessMove, undo: AntChessPosition<N>) {
        *self = undo;
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        AntChessPosition::hash_from_scratch(self)
    }

    fn draw_by_rule(&self) -> Option<Outcome> {
        AntChessPosition::draw_by_rule(self)
    }

    fn outcome_without_moves(&self) -> Outcome {
        AntChessPosition::outcome_without_moves(self)
    }

    fn is_irreversible(&self, mv: AntChessMove) -> bool {
        !mv.is_pass()
            && (mv.is_capture()
                || self.piece(mv.start_byte() as usize).map(|p| p.1) == Some(AntChessKind::Warrior))
    }

    /// Three players: a player whose Queen is off the board can no longer win.
    fn eliminated(&self, player: Player) -> Option<Reason> {
        (N == 3 && (player as usize) < N && self.queens[player as usize] == tables::NONE)
            .then_some(QUEEN_LOST)
    }

    /// Three players: takes the player's Queen off the board (if she is still on it), as if
    /// captured, and marks the player as having left: their seat only passes and their other
    /// pieces stay as obstacles that attack nothing. Two players: `false` (the other player
    /// wins).
    fn remove_player(&mut self, player: Player) -> bool {
        if N != 3 || player as usize >= N {
            return false;
        }
        if let Some(q) = self.queen(player as usize) {
            self.remove(q);
        }
        self.set_left(player as usize);
        true
    }

    fn pass_move(&self) -> Option<AntChessMove> {
        (self.terminal().is_none() && self.pass_is_legal()).then_some(AntChessMove::PASS)
    }

    fn move_text(&self, mv: AntChessMove) -> String {
        moves::move_text(mv)
    }

    fn parse_move(&self, text: &str) -> Result<AntChessMove, MoveError> {
        moves::parse_move(self, text)
    }

    fn move_cells(&self, mv: AntChessMove) -> MoveCells {
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

    fn facts(&self) -> Vec<Fact> {
        AntChessPosition::facts(self)
    }

    fn info_messages(&self) -> Vec<InfoLine> {
        AntChessPosition::info_messages(self)
    }
}
