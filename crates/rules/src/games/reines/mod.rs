//! Jeu de Reines: two peoples, the Termides (upper case) and the Myrmides (lower case), each with
//! an immobile Queen; capturing the enemy Queen wins, and captured Workers come back through the
//! Ponte. See `docs/rules/reines.md`.
//!
//! Players are numbered in turn order, as in every game: player 0 holds the a1 corner and moves
//! first, player 1 holds h8. Which people that is depends on the `region` setting (the
//! Termides, or the Myrmides in `cultist`), so a position names its players:
//! [`Position::player_names`] gives the peoples in turn order, and `GameInfo::players` is the
//! order of the default region. Position strings name peoples, not players (`w` is always the
//! Termides).
//!
//! Files: `position.rs` (the state, read access for evaluations, the position string),
//! `moves.rs` (the move and its text), `movegen.rs` (generation, counting, playing a move),
//! `outcome.rs` (reasons, draws, facts and info lines), `tests.rs`.

mod movegen;
mod moves;
mod outcome;
mod position;

#[cfg(test)]
mod tests;

pub use moves::ReinesMove;
pub use outcome::{QUEEN_CAPTURED, QUIET_LIMIT};
pub use position::{People, Region, ReinesKind, ReinesPosition};

use crate::error::{MoveError, PositionError, SettingError};
use crate::game::{
    Cell, Fact, Game, GameInfo, GrammaticalNumber, InfoLine, MarkedCell, MoveCells, PieceKind,
    PieceView, Player, Position, SettingInfo, Settings, Tactics,
};
use crate::geometry::Geometry;
use crate::movelist::{MoveList, MoveSink};
use crate::outcome::Outcome;

use position::{KIND_LETTERS, QUEEN, SOLDIER, START_COUNT, TURN_ORDER, WORKER};

/// The most legal moves a position can have, the capacity of the stack move list.
///
/// A side has at most the pieces it starts with (the position string is refused otherwise, and
/// no move adds a piece but a Worker from the Ponte, which keeps Workers on the board and
/// pending at 3 or fewer): 1 Counsellor, 2 Soldiers, 3 Workers and a Queen, which never moves.
/// * the Counsellor moves along its rank and its file: at most 7 + 7 = 14 squares;
/// * a Soldier jumps to at most 8 squares: 16 for two;
/// * a Worker has at most 2 single steps, 2 double steps and 3 diagonal captures, 7 squares:
///   21 for three.
///
/// That is 14 + 16 + 21 = 51 moves; `pass` only comes when there is no other. 64 leaves room.
pub const MAX_MOVES: usize = 64;
const _: () = assert!(
    7 + 7 + START_COUNT[SOLDIER] as usize * 8 + START_COUNT[WORKER] as usize * 7 <= MAX_MOVES
);

/// The list of the legal moves of a position, on the stack (see [`MAX_MOVES`]).
pub type ReinesMoveList = MoveList<ReinesMove, MAX_MOVES>;

/// The registry entry of Jeu de Reines.
pub struct Reines;

const SETTINGS: &[SettingInfo] = &[SettingInfo {
    name: "region",
    values: &["neutral", "animist", "cultist"],
    default: "neutral",
    help: "where the game is played: neutral or animist, the Termides hold the a1 corner and \
           move first; cultist, the Myrmides do",
}];

static INFO: GameInfo = GameInfo {
    id: "reines",
    name: "Jeu de Reines",
    // The default region's turn order; a position names its own (`Position::player_names`).
    players: TURN_ORDER[0],
    // peoples: "the Termides win"
    players_number: GrammaticalNumber::Plural,
    geometry: Geometry::Square { files: 8, ranks: 8 },
    pieces: &[
        PieceKind {
            letter: 'Q',
            name: "Queen",
        },
        PieceKind {
            letter: 'C',
            name: "Counsellor",
        },
        PieceKind {
            letter: 'S',
            name: "Soldier",
        },
        PieceKind {
            letter: 'W',
            name: "Worker",
        },
    ],
    notation: crate::game::PieceNotation::Case,
    settings: SETTINGS,
    reasons: outcome::REASONS,
    summary: "Termides against Myrmides on 8x8: capture the immobile enemy Queen; captured \
              Workers come back through the Ponte",
    marked: &[
        MarkedCell {
            cell: position::PONTE_SQUARE[0] as Cell,
            name: "Ponte of the Termides",
        },
        MarkedCell {
            cell: position::PONTE_SQUARE[1] as Cell,
            name: "Ponte of the Myrmides",
        },
    ],
    // `w` the Termides, `b` the Myrmides, whoever holds a1.
    to_move_letters: &['w', 'b'],
    emblems: &['Q'],
    icon: PieceView {
        owner: 1,
        kind: 'W',
    },
    action_variants: 1,
    drawings: include_str!("pieces.json"),
};

impl Game for Reines {
    type Pos = ReinesPosition;

    fn info(&self) -> &'static GameInfo {
        &INFO
    }

    /// An unmoved Worker stays unmoved only while a Worker of the people who enter the board
    /// on its square is still there (the a1 people enter on ranks 1 to 4).
    fn after_edit(&self, fields: &mut [String]) {
        let (Some(placement), Some(unmoved)) = (fields.first(), fields.get(2)) else {
            return;
        };
        let Ok(board) = crate::geometry::placement::parse(INFO.geometry, placement, "", |rest| {
            let c = rest.chars().next()?;
            c.is_ascii_alphabetic().then_some((c, 1))
        }) else {
            return;
        };
        // The a1 people's case, from the Queens (one of them is on a1 or h8).
        let a1_upper = match (board[0], board[63]) {
            (Some(c), _) => c.is_ascii_uppercase(),
            (None, Some(c)) => c.is_ascii_lowercase(),
            (None, None) => return,
        };
        let kept: String = unmoved
            .as_bytes()
            .chunks(2)
            .filter_map(|pair| std::str::from_utf8(pair).ok())
            .filter(|name| {
                let Some(sq) = position::parse_square(name) else {
                    return true; // left for the parser to refuse
                };
                let a1_side = sq / 8 < 4;
                board[sq as usize].is_some_and(|c| {
                    c.eq_ignore_ascii_case(&'W') && c.is_ascii_uppercase() == (a1_upper == a1_side)
                })
            })
            .collect();
        if unmoved != "-" {
            fields[2] = if kept.is_empty() { "-".into() } else { kept };
        }
    }

    fn start(&self, settings: &Settings) -> Result<ReinesPosition, SettingError> {
        let region = match settings.get(&INFO, "region")? {
            "animist" => Region::Animist,
            "cultist" => Region::Cultist,
            _ => Region::Neutral,
        };
        Ok(ReinesPosition::start(region))
    }

    fn parse_position(&self, text: &str) -> Result<ReinesPosition, PositionError> {
        text.parse()
    }

    /// Reads the string, then takes the region from `settings` when they name one: it must
    /// seat the people the string has in a1 (the Myrmides in `cultist`, the Termides
    /// otherwise).
    fn parse_position_with(
        &self,
        settings: &Settings,
        text: &str,
    ) -> Result<ReinesPosition, PositionError> {
        settings
            .validate(&INFO)
            .map_err(|e| PositionError::new("settings", e.to_string()))?;
        let mut pos: ReinesPosition = text.parse()?;
        let Some((_, value)) = settings.0.iter().rev().find(|(n, _)| n == "region") else {
            return Ok(pos);
        };
        let region = match value.as_str() {
            "animist" => Region::Animist,
            "cultist" => Region::Cultist,
            _ => Region::Neutral,
        };
        let a1 = pos.people(0).unwrap_or(People::Termides);
        let seated = if region == Region::Cultist {
            People::Myrmides
        } else {
            People::Termides
        };
        if a1 != seated {
            return Err(PositionError::new(
                "placement",
                format!(
                    "the {} hold a1 here, but in the region {value} the {} do",
                    a1.name(),
                    seated.name()
                ),
            ));
        }
        pos.region = region;
        Ok(pos)
    }
}

impl Position for ReinesPosition {
    type Move = ReinesMove;
    type Undo = ReinesPosition;
    type MoveList = ReinesMoveList;

    #[inline]
    fn to_move(&self) -> Player {
        self.side
    }

    /// The peoples in turn order: Termides then Myrmides, or the reverse in `cultist`.
    fn player_names(&self) -> &'static [&'static str] {
        TURN_ORDER[self.a1_people as usize]
    }

    #[inline]
    fn generate<S: MoveSink<ReinesMove>>(&self, out: &mut S) {
        self.generate_into(out)
    }

    /// The captures: the only tactical moves (a Queen is taken only by a capture, and there is
    /// no promotion).
    #[inline]
    fn generate_tactical<S: MoveSink<ReinesMove>>(&self, out: &mut S) {
        self.generate_captures(out)
    }

    #[inline]
    fn count_legal_moves(&self) -> u64 {
        self.count_legal()
    }

    /// Read from the move alone: it carries the kind it takes. Taking the Queen wins.
    #[inline]
    fn tactics(&self, mv: ReinesMove) -> Tactics {
        if mv.is_capture() {
            let taken = mv.captured();
            Tactics {
                captures: 1,
                taken_kinds: 1 << taken,
                promotion: None,
                wins: taken == QUEEN,
            }
        } else {
            Tactics::default()
        }
    }

    /// The move's own 21-bit packing (see [`ReinesMove`]).
    #[inline]
    fn move_code(&self, mv: ReinesMove) -> u32 {
        mv.0
    }

    /// Decodes the squares, finds the legal move between them (without generating the others)
    /// and keeps it only if its code is the one given.
    fn move_from_code(&self, code: u32) -> Option<ReinesMove> {
        if code == ReinesMove::PASS.0 {
            return self.pass_move();
        }
        let mv = self.move_between(code & 63, (code >> 6) & 63)?;
        (mv.0 == code).then_some(mv)
    }

    /// Jeu de Reines has no check.
    fn in_check(&self) -> bool {
        false
    }

    /// The side to move hands the turn over as if it passed, though the rules let a side pass
    /// only without a legal move. That is the point of it: a side that must move may be in
    /// zugzwang (a Worker forced forward, a Soldier forced off a guard), and the null move
    /// tells a search what having the move is worth. The opponent's start-of-turn Ponte step
    /// happens as after any move, so the result is a position of the game; the quiet plies
    /// grow by one and the move number as after a move, and the passes in a row drop to 0 (a
    /// null move is not a pass: it must not make the next real pass a draw). `None` once the
    /// game is over (a Queen captured, or drawn by the passes or the quiet plies).
    fn make_null_move(&mut self) -> Option<ReinesPosition> {
        if self.queen_missing() || self.draw_by_rule().is_some() {
            return None;
        }
        let undo = self.clone();
        self.apply(ReinesMove::PASS, true);
        Some(undo)
    }

    fn unmake_null_move(&mut self, undo: ReinesPosition) {
        *self = undo;
    }

    #[inline]
    fn make_move(&mut self, mv: ReinesMove) -> ReinesPosition {
        let undo = self.clone();
        self.apply(mv, false);
        undo
    }

    #[inline]
    fn unmake_move(&mut self, _mv: ReinesMove, undo: ReinesPosition) {
        *self = undo;
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        self.compute_hash()
    }

    #[inline]
    fn draw_by_rule(&self) -> Option<Outcome> {
        outcome::draw_by_rule(self)
    }

    fn outcome_without_moves(&self) -> Outcome {
        outcome::outcome_without_moves(self)
    }

    /// Only a capture of a Counsellor, Soldier or Queen can never be undone: material of those
    /// kinds never comes back. Captured Workers return by the Ponte and Workers' diagonal
    /// captures do not always advance them, so a position before a Worker move or a Worker
    /// capture can in principle occur again.
    fn is_irreversible(&self, mv: ReinesMove) -> bool {
        mv.is_capture() && mv.captured() != WORKER
    }

    /// `pass` when the side to move has no other move (and the game is not over).
    fn pass_move(&self) -> Option<ReinesMove> {
        (!self.queen_missing() && self.count_moves_of(self.side) == 0).then_some(ReinesMove::PASS)
    }

    fn move_text(&self, mv: ReinesMove) -> String {
        mv.text()
    }

    fn parse_move(&self, text: &str) -> Result<ReinesMove, MoveError> {
        moves::parse(self, text)
    }

    fn move_cells(&self, mv: ReinesMove) -> MoveCells {
        if mv.is_pass() {
            return MoveCells::default();
        }
        MoveCells {
            from: Some(mv.from() as Cell),
            to: Some(mv.to() as Cell),
            captures: if mv.is_capture() {
                vec![mv.to() as Cell]
            } else {
                Vec::new()
            },
        }
    }

    fn piece_at(&self, cell: Cell) -> Option<PieceView> {
        self.piece(cell as u32).map(|(owner, kind)| PieceView {
            owner,
            kind: KIND_LETTERS[kind as usize],
        })
    }

    fn facts(&self) -> Vec<Fact> {
        outcome::facts(self)
    }

    fn info_messages(&self) -> Vec<InfoLine> {
        outcome::info_messages(&self.facts(), SETTINGS[0].values, self.side)
    }

    /// The region, unless the position was read from a string with the Termides in a1, which
    /// cannot tell `neutral` from `animist` (then the setting is unknown: its default).
    fn settings(&self) -> Settings {
        match self.region {
            Region::NeutralOrAnimist => Settings::new(),
            region => Settings::new().with("region", region.name()),
        }
    }
}
