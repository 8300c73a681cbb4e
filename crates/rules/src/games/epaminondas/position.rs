//! The state of an Epaminondas game and its position string.

use std::fmt;
use std::str::FromStr;

use crate::error::PositionError;
use crate::game::{Cell, PieceSets, Player};
use crate::geometry::{placement, Geometry};
use crate::zobrist;

use super::bitboard::{from_cell, Bb, BITS, FILES, RANKS, RANK_1, RANK_12};

/// The board, as the registry describes it.
pub(crate) const GEOMETRY: Geometry = Geometry::Square {
    files: FILES as u8,
    ranks: RANKS as u8,
};

/// White (moves first, far row rank 12).
pub const WHITE: Player = 0;
/// Black (far row rank 1).
pub const BLACK: Player = 1;

/// At most this many pieces a side.
pub const MAX_PIECES: u32 = 28;

/// The start position string.
pub const START: &str =
    "BBBBBBBBBBBBBB/BBBBBBBBBBBBBB/14/14/14/14/14/14/14/14/WWWWWWWWWWWWWW/WWWWWWWWWWWWWW w";

/// The kinds of piece, in the order of `GameInfo::pieces`: each player has one kind, named
/// after its colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EpaminondasKind {
    White = 0,
    Black = 1,
}

impl EpaminondasKind {
    /// Every kind, in the order of `GameInfo::pieces`.
    pub const ALL: [EpaminondasKind; 2] = [EpaminondasKind::White, EpaminondasKind::Black];

    /// The kind of `player`'s pieces (0 White, 1 Black; any other number reads as its lowest
    /// bit).
    #[inline(always)]
    pub const fn of(player: Player) -> Self {
        if player & 1 == WHITE {
            EpaminondasKind::White
        } else {
            EpaminondasKind::Black
        }
    }

    /// Its index in `GameInfo::pieces`.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// Zobrist keys: one per colour and padded index, then the side-to-move key.
static KEYS: [u64; 2 * BITS as usize + 1] = zobrist::keys(0x45_7061_6D69_6E6F);

#[inline(always)]
pub(crate) fn piece_key(colour: Player, i: i32) -> u64 {
    KEYS[colour as usize * BITS as usize + i as usize]
}

#[inline(always)]
pub(crate) fn side_key() -> u64 {
    KEYS[2 * BITS as usize]
}

/// An Epaminondas position: the pieces of each colour and the player to move.
///
/// The hash covers exactly what the repetition rule compares: the placement and the player to
/// move.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct EpaminondasPosition {
    /// `pieces[WHITE]`, `pieces[BLACK]`.
    pub(crate) pieces: [Bb; 2],
    pub(crate) side: Player,
    pub(crate) hash: u64,
}

impl EpaminondasPosition {
    /// The start position.
    pub fn start() -> Self {
        START.parse().expect("the start string is valid")
    }

    /// Builds a position from its pieces (padded bitboards) and the player to move.
    pub(crate) fn from_parts(white: Bb, black: Bb, side: Player) -> Self {
        let mut p = EpaminondasPosition {
            pieces: [white, black],
            side,
            hash: 0,
        };
        p.hash = p.compute_hash();
        p
    }

    pub(crate) fn compute_hash(&self) -> u64 {
        let mut h = if self.side == BLACK { side_key() } else { 0 };
        for colour in [WHITE, BLACK] {
            for i in self.pieces[colour as usize].squares() {
                h ^= piece_key(colour, i);
            }
        }
        h
    }

    /// The empty squares.
    #[inline(always)]
    pub fn empty(&self) -> Bb {
        !(self.pieces[0] | self.pieces[1])
    }

    /// How many pieces `colour` has on its far row (rank 12 for White, rank 1 for Black).
    #[inline(always)]
    pub fn far_row_count(&self, colour: Player) -> u32 {
        if colour == WHITE {
            (self.pieces[0] & RANK_12).count()
        } else {
            (self.pieces[1] & RANK_1).count()
        }
    }

    /// True if the player to move has more pieces on their far row than the opponent on
    /// theirs: the player to move has won by the crossing rule.
    #[inline(always)]
    pub fn crossing_win(&self) -> bool {
        self.far_row_count(self.side) > self.far_row_count(self.side ^ 1)
    }

    /// The colour on a padded index, if any.
    pub(crate) fn colour_at(&self, i: i32) -> Option<Player> {
        if self.pieces[0].has(i) {
            Some(WHITE)
        } else if self.pieces[1].has(i) {
            Some(BLACK)
        } else {
            None
        }
    }

    /// The colour on a cell (`rank * 14 + file`), if any.
    pub fn colour_on_cell(&self, cell: u16) -> Option<Player> {
        if cell as i32 >= FILES * RANKS {
            return None;
        }
        self.colour_at(from_cell(cell))
    }
}

/// The pieces as padded bitboards ([`Bb`]: [`crate::game::CellSet::cells`] gives the game's
/// cells); a player other than 0 and 1 reads as its lowest bit.
impl PieceSets for EpaminondasPosition {
    type Set = Bb;
    type Kind = EpaminondasKind;

    /// All of that player's pieces if `kind` is the player's own kind, none otherwise (the
    /// kinds are the colours).
    #[inline(always)]
    fn pieces(&self, player: Player, kind: EpaminondasKind) -> Bb {
        if kind == EpaminondasKind::of(player) {
            self.pieces_of(player)
        } else {
            Bb::EMPTY
        }
    }

    #[inline(always)]
    fn pieces_of(&self, player: Player) -> Bb {
        self.pieces[(player & 1) as usize]
    }

    #[inline(always)]
    fn occupied(&self) -> Bb {
        self.pieces[0] | self.pieces[1]
    }

    /// The number of moves `player` would have if it were their turn (the crossing rule
    /// aside), counted without generating them: as cheap as counting the legal moves.
    #[inline]
    fn mobility(&self, player: Player) -> u32 {
        self.count_moves_of(player)
    }
}

impl FromStr for EpaminondasPosition {
    type Err = PositionError;

    /// Reads a position string: `<ranks 12 to 1> <w|b>`.
    fn from_str(text: &str) -> Result<Self, PositionError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(PositionError::new(
                "position",
                "empty string: expected `<ranks 12 to 1, /-separated> <w|b>`",
            ));
        }
        let fields: Vec<&str> = text.split(' ').collect();
        if fields.len() != 2 || fields.iter().any(|f| f.is_empty()) {
            let found = text.split_whitespace().count();
            let message = if found == 2 {
                "expected two fields separated by exactly one space, `<ranks> <to-move>`"
                    .to_string()
            } else {
                format!(
                    "expected two fields separated by one space, `<ranks> <to-move>`, found \
                     {found} field(s)"
                )
            };
            return Err(PositionError::new("position", message));
        }
        let (white, black) = parse_placement(fields[0])?;
        let side = match fields[1] {
            "w" => WHITE,
            "b" => BLACK,
            other => {
                return Err(PositionError::new(
                    "side to move",
                    format!("expected `w` or `b`, found {other:?}"),
                ))
            }
        };
        Ok(Self::from_parts(white, black, side))
    }
}

/// Reads the placement with the shared run-length reader (`W` and `B`), then checks the
/// number of pieces a side.
fn parse_placement(text: &str) -> Result<(Bb, Bb), PositionError> {
    let board = placement::parse(GEOMETRY, text, "W or B", |rest| {
        match rest.as_bytes().first() {
            Some(b'W') => Some((WHITE, 1)),
            Some(b'B') => Some((BLACK, 1)),
            _ => None,
        }
    })?;
    let mut pieces = [Bb::EMPTY; 2];
    for (cell, colour) in board.into_iter().enumerate() {
        if let Some(colour) = colour {
            pieces[colour as usize].set(from_cell(cell as Cell));
        }
    }
    for (colour, name) in [(0, "White"), (1, "Black")] {
        let n = pieces[colour].count();
        if n > MAX_PIECES {
            return Err(PositionError::new(
                placement::FIELD,
                format!("{name} has {n} pieces, at most {MAX_PIECES} are allowed"),
            ));
        }
    }
    debug_assert!((pieces[0] & pieces[1]).is_empty());
    Ok((pieces[0], pieces[1]))
}

impl fmt::Display for EpaminondasPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = placement::write(GEOMETRY, |cell, out| match self.colour_on_cell(cell) {
            Some(c) => {
                out.push(if c == WHITE { 'W' } else { 'B' });
                true
            }
            None => false,
        });
        s.push(' ');
        s.push(if self.side == WHITE { 'w' } else { 'b' });
        f.write_str(&s)
    }
}
