//! The move, its text (`<tail>-<to>`, `<tail>x<to>`), and reading a text back with an error
//! that says what is wrong.

use crate::error::MoveError;
use crate::game::{Cell, MoveCells};

use crate::geometry::square;

use super::bitboard::{from_cell, on_board, to_cell, FILES, RANKS, STEPS};
use super::position::{EpaminondasPosition, WHITE};

/// A move: the group whose tail is on `from` moves along `STEPS[dir]` until its head lands
/// on `to`.
///
/// `size` is the number of pieces in the group and `captured` the length of the enemy line it
/// removes (0 for a plain move). Both follow from `from`, `to` and the position; they are kept
/// so that playing the move needs no scan. Squares are padded indices (see `bitboard`). All of
/// it is packed in 32 bits (one store when a move is generated): bits 0–7 `from`, 8–15 `to`,
/// 16–18 `dir`, 19–22 `size`, 23–26 `captured`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct EpaminondasMove(u32);

impl EpaminondasMove {
    #[inline(always)]
    pub(crate) fn new(from: i32, to: i32, dir: usize, size: i32, captured: i32) -> Self {
        EpaminondasMove(
            from as u32
                | (to as u32) << 8
                | (dir as u32) << 16
                | (size as u32) << 19
                | (captured as u32) << 23,
        )
    }

    /// The 27 bits of the move, for transposition tables (see `Position::move_code`).
    #[inline(always)]
    pub(crate) fn bits(self) -> u32 {
        self.0
    }

    /// The move with these bits, if they are within the 27 a move uses (not checked for
    /// legality: see `Position::move_from_code`).
    #[inline(always)]
    pub(crate) fn from_bits(bits: u32) -> Option<Self> {
        (bits >> 27 == 0).then_some(EpaminondasMove(bits))
    }

    #[inline(always)]
    pub(crate) fn tail_sq(self) -> i32 {
        (self.0 & 0xFF) as i32
    }

    #[inline(always)]
    pub(crate) fn land_sq(self) -> i32 {
        (self.0 >> 8 & 0xFF) as i32
    }

    #[inline(always)]
    pub(crate) fn dir_ix(self) -> usize {
        (self.0 >> 16 & 7) as usize
    }

    #[inline(always)]
    pub(crate) fn group(self) -> i32 {
        (self.0 >> 19 & 15) as i32
    }

    #[inline(always)]
    pub(crate) fn line(self) -> i32 {
        (self.0 >> 23 & 15) as i32
    }

    /// The cell (`rank * 14 + file`) of the tail.
    pub fn tail_cell(self) -> Cell {
        to_cell(self.tail_sq())
    }

    /// The cell where the head lands.
    pub fn landing_cell(self) -> Cell {
        to_cell(self.land_sq())
    }

    /// The number of pieces that move.
    pub fn size(self) -> u32 {
        self.group() as u32
    }

    /// The number of enemy pieces taken (0 for a plain move).
    pub fn captured(self) -> u32 {
        self.line() as u32
    }

    pub fn is_capture(self) -> bool {
        self.line() > 0
    }

    /// How many squares the group moves.
    #[inline(always)]
    pub fn distance(self) -> i32 {
        // Squares from the tail to the landing square, without a division: the larger of the
        // file and rank differences.
        let (from, to) = (self.tail_sq(), self.land_sq());
        let span = ((to & 15) - (from & 15))
            .abs()
            .max(((to >> 4) - (from >> 4)).abs());
        span - (self.group() - 1)
    }
}

/// The name of a padded index on the board: `a1` … `n12`.
pub(crate) fn square_name(i: i32) -> String {
    square::name(FILES as u8, to_cell(i))
}

/// Reads `a1` … `n12` into a padded index.
fn parse_square(text: &str) -> Option<i32> {
    square::parse(FILES as u8, RANKS as u8, text).map(from_cell)
}

/// Why no legal move goes from one square to another (see `move_between`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// The tail square holds no piece of the player to move.
    Tail,
    SameSquare,
    NotInLine,
    /// The landing square is inside the group, whose head is on `head`.
    Inside {
        size: i32,
        head: i32,
    },
    TooFar {
        size: i32,
        head: i32,
        distance: i32,
        step: i32,
    },
    /// The head would pass over the piece on `sq`.
    Blocked {
        size: i32,
        head: i32,
        sq: i32,
    },
    /// The landing square holds a piece of the player to move.
    Own,
    /// The enemy line is not smaller than the group.
    LineTooLong {
        size: i32,
        head: i32,
        line: i32,
    },
}

const EXPECTED: &str = "`<tail>-<to>` or `<tail>x<to>` with squares a1 to n12, e.g. `c1-c4`";

impl EpaminondasPosition {
    /// The canonical text of a move of this position.
    pub fn text_of(&self, mv: EpaminondasMove) -> String {
        let sep = if mv.line() > 0 { 'x' } else { '-' };
        format!(
            "{}{}{}",
            square_name(mv.tail_sq()),
            sep,
            square_name(mv.land_sq())
        )
    }

    /// The cells a move touches: tail, landing square and the enemy line it takes.
    pub fn cells_of(&self, mv: EpaminondasMove) -> MoveCells {
        let step = STEPS[mv.dir_ix()];
        let captures = (0..mv.line())
            .map(|n| to_cell(mv.land_sq() + n * step))
            .collect();
        MoveCells {
            from: Some(to_cell(mv.tail_sq())),
            to: Some(to_cell(mv.land_sq())),
            captures,
        }
    }

    /// Reads a move text and checks it against the rules; the error says which rule it breaks.
    pub fn read_move(&self, text: &str) -> Result<EpaminondasMove, MoveError> {
        let t = text.trim();
        let (a, b, capture) = if let Some((a, b)) = t.split_once('-') {
            (a, b, false)
        } else if let Some((a, b)) = t.split_once('x') {
            (a, b, true)
        } else {
            return Err(MoveError::malformed(text, EXPECTED));
        };
        let (Some(from), Some(to)) = (parse_square(a), parse_square(b)) else {
            return Err(MoveError::malformed(text, EXPECTED));
        };
        if !self.has_legal_move() {
            return Err(MoveError::GameOver);
        }
        let reason = match self.move_between(from, to) {
            Ok(mv) if mv.is_capture() == capture => return Ok(mv),
            Ok(mv) if mv.is_capture() => format!(
                "{} holds an enemy piece: the capture is written {}x{}",
                square_name(to),
                square_name(from),
                square_name(to)
            ),
            Ok(_) => format!(
                "there is no enemy piece on {} to capture: the move is written {}-{}",
                square_name(to),
                square_name(from),
                square_name(to)
            ),
            Err(refusal) => self.explain(refusal, from, to),
        };
        Err(MoveError::illegal(t, reason))
    }

    /// The legal move whose tail is on `from` and whose head lands on `to` (padded indices on
    /// the board), or the rule that forbids it. The crossing rule is the caller's.
    pub(crate) fn move_between(&self, from: i32, to: i32) -> Result<EpaminondasMove, Refusal> {
        let own = self.pieces[self.side as usize];
        let opp = self.pieces[(self.side ^ 1) as usize];
        if !own.has(from) {
            return Err(Refusal::Tail);
        }
        // The direction: same rank, file or diagonal.
        let (df, dr) = ((to & 15) - (from & 15), (to >> 4) - (from >> 4));
        if df == 0 && dr == 0 {
            return Err(Refusal::SameSquare);
        }
        if !(df == 0 || dr == 0 || df.abs() == dr.abs()) {
            return Err(Refusal::NotInLine);
        }
        let dir = STEPS
            .iter()
            .position(|&s| s == df.signum() + 16 * dr.signum())
            .unwrap_or(0);
        let step = STEPS[dir];
        let span = df.abs().max(dr.abs()); // squares from the tail to the landing square

        // The group: the tail and the own pieces that follow it without a gap.
        let mut size = 1;
        while on_board(from + size * step) && own.has(from + size * step) {
            size += 1;
        }
        let head = from + (size - 1) * step;
        let distance = span - (size - 1);
        if distance <= 0 {
            return Err(Refusal::Inside { size, head });
        }
        if distance > size {
            return Err(Refusal::TooFar {
                size,
                head,
                distance,
                step,
            });
        }
        // The squares the head passes over must be empty.
        for n in 1..distance {
            let sq = head + n * step;
            if (own | opp).has(sq) {
                return Err(Refusal::Blocked { size, head, sq });
            }
        }
        if own.has(to) {
            return Err(Refusal::Own);
        }
        if opp.has(to) {
            let mut line = 1;
            while on_board(to + line * step) && opp.has(to + line * step) {
                line += 1;
            }
            if line >= size {
                return Err(Refusal::LineTooLong { size, head, line });
            }
            return Ok(EpaminondasMove::new(from, to, dir, size, line));
        }
        Ok(EpaminondasMove::new(from, to, dir, size, 0))
    }

    /// The English reason of a refusal of the move from `from` to `to`.
    fn explain(&self, refusal: Refusal, from: i32, to: i32) -> String {
        let player = if self.side == WHITE { "White" } else { "Black" };
        let group = |size: i32, head: i32| {
            if size == 1 {
                format!("the lone piece on {}", square_name(from))
            } else {
                format!(
                    "the group {}–{} ({size} pieces)",
                    square_name(from),
                    square_name(head)
                )
            }
        };
        match refusal {
            Refusal::Tail => {
                let opp = self.pieces[(self.side ^ 1) as usize];
                let what = if opp.has(from) {
                    format!("{} holds an enemy piece", square_name(from))
                } else {
                    format!("{} is empty", square_name(from))
                };
                format!("the tail must be a {player} piece, and {what}")
            }
            Refusal::SameSquare => format!(
                "the tail and the landing square are both {}",
                square_name(from)
            ),
            Refusal::NotInLine => format!(
                "{} and {} are not on one rank, file or diagonal",
                square_name(from),
                square_name(to)
            ),
            Refusal::Inside { size, head } => format!(
                "{} is inside {}: its head is on {}",
                square_name(to),
                group(size, head),
                square_name(head)
            ),
            Refusal::TooFar {
                size,
                head,
                distance,
                step,
            } => format!(
                "{} moves at most {size} square{} (its head could reach {} at most), not \
                 {distance}",
                group(size, head),
                if size == 1 { "" } else { "s" },
                square_name(head + size * step)
            ),
            Refusal::Blocked { size, head, sq } => format!(
                "{} cannot pass over the piece on {}",
                group(size, head),
                square_name(sq)
            ),
            Refusal::Own => format!("{} is occupied by another {player} piece", square_name(to)),
            Refusal::LineTooLong { size, head, line } => format!(
                "{} cannot capture the enemy line from {} ({line} piece{}): a capture needs \
                 more pieces than the line has",
                group(size, head),
                square_name(to),
                if line == 1 { "" } else { "s" }
            ),
        }
    }
}
