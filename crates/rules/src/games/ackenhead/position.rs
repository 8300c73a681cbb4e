//! The Ackenhead position and its FEN (Fairy-Stockfish's form: letters `K L C V M P`, castling
//! field `-`, an en passant field of two squares).

use std::fmt;

use super::bitboard::{bit, Bb, Squares, TABLES};
use crate::error::PositionError;
use crate::zobrist;

pub const WHITE: u8 = 0;
pub const BLACK: u8 = 1;

/// Piece kinds, in the order of `KIND_LETTERS`.
pub const KING: u8 = 0;
pub const LEO: u8 = 1;
pub const PAO: u8 = 2;
pub const VAO: u8 = 3;
pub const MAO: u8 = 4;
pub const PAWN: u8 = 5;
pub const KIND_LETTERS: [char; 6] = ['K', 'L', 'C', 'V', 'M', 'P'];

/// A board square holds `EMPTY` or `colour * 6 + kind + 1`.
pub const EMPTY: u8 = 0;
/// "No square" in the en passant fields.
pub const NO_SQUARE: u8 = 64;

#[inline(always)]
pub const fn piece(colour: u8, kind: u8) -> u8 {
    colour * 6 + kind + 1
}

#[inline(always)]
pub const fn piece_colour(p: u8) -> u8 {
    (p - 1) / 6
}

#[inline(always)]
pub const fn piece_kind(p: u8) -> u8 {
    (p - 1) % 6
}

const KEYS: [u64; 12 * 64 + 1 + 64] = zobrist::keys(0xACE0_4EAD_0000_0001);
const SIDE_KEY: u64 = KEYS[12 * 64];

#[inline(always)]
pub(super) fn piece_key(p: u8, sq: u8) -> u64 {
    KEYS[(p as usize - 1) * 64 + sq as usize]
}

#[inline(always)]
pub(super) fn ep_key(sq: u8) -> u64 {
    KEYS[12 * 64 + 1 + sq as usize]
}

#[inline(always)]
pub(super) fn side_key() -> u64 {
    SIDE_KEY
}

/// An Ackenhead position. Copy-make: a move copies it (about 150 bytes).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct AckenheadPosition {
    /// Squares of each kind, both colours together.
    pub(super) kinds: [Bb; 6],
    /// Squares of each colour.
    pub(super) colours: [Bb; 2],
    pub(super) board: [u8; 64],
    pub(super) side: u8,
    /// After a double step: the square the pawn passed over and the square it stands on.
    pub(super) ep_passed: u8,
    pub(super) ep_pawn: u8,
    pub(super) halfmove: u32,
    pub(super) fullmove: u32,
    pub(super) hash: u64,
}

pub const START_FEN: &str = "cmvlkvmc/pppppppp/8/8/8/8/PPPPPPPP/CMVLKVMC w - - 0 1";

fn square_name(sq: u8) -> String {
    format!("{}{}", (b'a' + sq % 8) as char, sq / 8 + 1)
}

pub(super) fn parse_square(text: &str) -> Option<u8> {
    let b = text.as_bytes();
    if b.len() != 2 || !(b'a'..=b'h').contains(&b[0]) || !(b'1'..=b'8').contains(&b[1]) {
        return None;
    }
    Some((b[1] - b'1') * 8 + (b[0] - b'a'))
}

impl AckenheadPosition {
    fn empty() -> Self {
        AckenheadPosition {
            kinds: [0; 6],
            colours: [0; 2],
            board: [EMPTY; 64],
            side: WHITE,
            ep_passed: NO_SQUARE,
            ep_pawn: NO_SQUARE,
            halfmove: 0,
            fullmove: 1,
            hash: 0,
        }
    }

    #[inline(always)]
    pub(super) fn put(&mut self, p: u8, sq: u8) {
        let b = bit(sq);
        self.kinds[piece_kind(p) as usize] |= b;
        self.colours[piece_colour(p) as usize] |= b;
        self.board[sq as usize] = p;
        self.hash ^= piece_key(p, sq);
    }

    #[inline(always)]
    pub(super) fn remove(&mut self, sq: u8) -> u8 {
        let p = self.board[sq as usize];
        let b = bit(sq);
        self.kinds[piece_kind(p) as usize] &= !b;
        self.colours[piece_colour(p) as usize] &= !b;
        self.board[sq as usize] = EMPTY;
        self.hash ^= piece_key(p, sq);
        p
    }

    #[inline(always)]
    pub fn occupied(&self) -> Bb {
        self.colours[0] | self.colours[1]
    }

    #[inline(always)]
    pub fn pieces(&self, colour: u8, kind: u8) -> Bb {
        self.kinds[kind as usize] & self.colours[colour as usize]
    }

    pub fn king_square(&self, colour: u8) -> u8 {
        self.pieces(colour, KING).trailing_zeros() as u8
    }

    pub fn side_to_move(&self) -> u8 {
        self.side
    }

    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    pub fn piece_on(&self, sq: u8) -> Option<(u8, u8)> {
        let p = *self.board.get(sq as usize)?;
        (p != EMPTY).then(|| (piece_colour(p), piece_kind(p)))
    }

    /// True if the en passant field is a double step of the side that just moved: the passed
    /// square on rank 3 (or 6) and the pawn diagonally beyond it. Only then can it be taken.
    #[inline(always)]
    pub(super) fn ep_is_double_step(&self) -> bool {
        let (passed_rank, pawn_rank) = if self.side == BLACK { (2, 3) } else { (5, 4) };
        self.ep_passed / 8 == passed_rank
            && self.ep_pawn / 8 == pawn_rank
            && (self.ep_passed % 8).abs_diff(self.ep_pawn % 8) == 1
    }

    /// The en passant squares (passed over, pawn), if the last move was a double step.
    pub fn en_passant(&self) -> Option<(u8, u8)> {
        (self.ep_passed != NO_SQUARE).then_some((self.ep_passed, self.ep_pawn))
    }

    /// Is `sq` attacked by `by`, given the occupancy `occ` and with only the pieces of `by` in
    /// `by_mask` counted (so a move can be tested before it is made)?
    #[inline(always)]
    pub(super) fn attacked_with(&self, sq: u8, by: u8, occ: Bb, by_mask: Bb) -> bool {
        let t = &*TABLES;
        let s = sq as usize;
        let theirs = self.colours[by as usize] & by_mask;
        if t.king[s] & self.kinds[KING as usize] & theirs != 0 {
            return true;
        }
        if t.pawn_attackers[by as usize][s] & self.kinds[PAWN as usize] & theirs != 0 {
            return true;
        }
        let maos = self.kinds[MAO as usize] & theirs;
        if maos != 0 {
            for i in 0..4 {
                let leg = t.mao_attack_leg[s][i];
                if leg < 64 && occ & bit(leg) == 0 && t.mao_attackers[s][i] & maos != 0 {
                    return true;
                }
            }
        }
        let leos = self.kinds[LEO as usize];
        let orth = (self.kinds[PAO as usize] | leos) & theirs;
        if orth != 0 && t.rook_hops(sq, occ) & orth != 0 {
            return true;
        }
        let diag = (self.kinds[VAO as usize] | leos) & theirs;
        diag != 0 && t.bishop_hops(sq, occ) & diag != 0
    }

    /// Is the king of `colour` attacked?
    pub fn in_check(&self, colour: u8) -> bool {
        let k = self.king_square(colour);
        k < 64 && self.attacked_with(k, colour ^ 1, self.occupied(), !0)
    }

    pub(super) fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for sq in Squares(self.occupied()) {
            h ^= piece_key(self.board[sq as usize], sq);
        }
        if self.side == BLACK {
            h ^= SIDE_KEY;
        }
        if self.ep_passed != NO_SQUARE {
            h ^= ep_key(self.ep_passed);
        }
        h
    }

    /// Reads a FEN. Four fields (no move counters) or six.
    pub fn from_fen(text: &str) -> Result<Self, PositionError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() != 6 && fields.len() != 4 {
            return Err(PositionError::new(
                "fields",
                format!(
                    "expected 6 fields (placement, side to move, castling, en passant, \
                     half-move clock, move number) or the first 4, found {}",
                    fields.len()
                ),
            ));
        }
        let mut pos = Self::empty();
        let ranks: Vec<&str> = fields[0].split('/').collect();
        if ranks.len() != 8 {
            return Err(PositionError::new(
                "placement",
                format!("expected 8 ranks separated by '/', found {}", ranks.len()),
            ));
        }
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = 7 - i as u8;
            let mut file = 0u8;
            for c in rank_text.chars() {
                if let Some(d) = c.to_digit(10) {
                    if d == 0 || d > 8 {
                        return Err(PositionError::new(
                            "placement",
                            format!("rank {}: bad run of empty squares '{c}'", rank + 1),
                        ));
                    }
                    file += d as u8;
                } else {
                    let upper = c.to_ascii_uppercase();
                    let kind = KIND_LETTERS
                        .iter()
                        .position(|&l| l == upper)
                        .ok_or_else(|| {
                            PositionError::new(
                                "placement",
                                format!(
                                    "rank {}: unknown piece letter '{c}' (expected one of \
                                 K L C V M P, upper case for White)",
                                    rank + 1
                                ),
                            )
                        })? as u8;
                    if file >= 8 {
                        return Err(PositionError::new(
                            "placement",
                            format!("rank {} has more than 8 squares", rank + 1),
                        ));
                    }
                    let colour = if c.is_ascii_uppercase() { WHITE } else { BLACK };
                    pos.put(piece(colour, kind), rank * 8 + file);
                    file += 1;
                }
                if file > 8 {
                    return Err(PositionError::new(
                        "placement",
                        format!("rank {} has more than 8 squares", rank + 1),
                    ));
                }
            }
            if file != 8 {
                return Err(PositionError::new(
                    "placement",
                    format!("rank {} has {file} squares, expected 8", rank + 1),
                ));
            }
        }
        for (colour, name) in [(WHITE, "White"), (BLACK, "Black")] {
            let kings = pos.pieces(colour, KING).count_ones();
            if kings != 1 {
                return Err(PositionError::new(
                    "placement",
                    format!("{name} has {kings} kings, expected exactly 1"),
                ));
            }
        }
        if pos.pieces(WHITE, PAWN) & super::bitboard::RANK_8 != 0
            || pos.pieces(BLACK, PAWN) & super::bitboard::RANK_1 != 0
        {
            return Err(PositionError::new(
                "placement",
                "a pawn stands on its promotion rank",
            ));
        }
        pos.side = match fields[1] {
            "w" => WHITE,
            "b" => BLACK,
            other => {
                return Err(PositionError::new(
                    "side to move",
                    format!("expected 'w' or 'b', found '{other}'"),
                ))
            }
        };
        if pos.side == BLACK {
            pos.hash ^= SIDE_KEY;
        }
        if fields[2] != "-" {
            return Err(PositionError::new(
                "castling",
                format!(
                    "expected '-' (Ackenhead has no castling), found '{}'",
                    fields[2]
                ),
            ));
        }
        let ep = fields[3];
        if ep != "-" {
            let (a, b) = if ep.len() == 4 && ep.is_ascii() {
                (parse_square(&ep[..2]), parse_square(&ep[2..]))
            } else {
                (None, None)
            };
            let (Some(a), Some(b)) = (a, b) else {
                return Err(PositionError::new(
                    "en passant",
                    format!(
                        "expected '-' or two squares (the square passed over and the pawn's \
                         square, e.g. b3c4), found '{ep}'"
                    ),
                ));
            };
            if a == b {
                return Err(PositionError::new(
                    "en passant",
                    format!("'{ep}' names the same square twice"),
                ));
            }
            // In board order the passed square comes first after White's double step (rank 3
            // before rank 4) and second after Black's; either order is read. Squares that are
            // not such a pair are kept as written but never allow a capture.
            let (a, b) = (a.min(b), a.max(b));
            let (passed, pawn) = if pos.side == BLACK { (a, b) } else { (b, a) };
            pos.ep_passed = passed;
            pos.ep_pawn = pawn;
            pos.hash ^= ep_key(passed);
        }
        if fields.len() == 6 {
            pos.halfmove = fields[4].parse().map_err(|_| {
                PositionError::new(
                    "half-move clock",
                    format!("expected a number, found '{}'", fields[4]),
                )
            })?;
            pos.fullmove = fields[5].parse().map_err(|_| {
                PositionError::new(
                    "move number",
                    format!("expected a number, found '{}'", fields[5]),
                )
            })?;
            if pos.fullmove == 0 {
                return Err(PositionError::new("move number", "must be at least 1"));
            }
        }
        if pos.in_check(pos.side ^ 1) {
            return Err(PositionError::new(
                "placement",
                "the side not to move is in check",
            ));
        }
        Ok(pos)
    }
}

impl fmt::Display for AckenheadPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..8u8).rev() {
            let mut empty = 0;
            for file in 0..8u8 {
                let p = self.board[(rank * 8 + file) as usize];
                if p == EMPTY {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    write!(f, "{empty}")?;
                    empty = 0;
                }
                let letter = KIND_LETTERS[piece_kind(p) as usize];
                let c = if piece_colour(p) == WHITE {
                    letter
                } else {
                    letter.to_ascii_lowercase()
                };
                write!(f, "{c}")?;
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
            if rank > 0 {
                f.write_str("/")?;
            }
        }
        let side = if self.side == WHITE { 'w' } else { 'b' };
        write!(f, " {side} - ")?;
        if self.ep_passed == NO_SQUARE {
            f.write_str("-")?;
        } else {
            let (a, b) = if self.ep_passed < self.ep_pawn {
                (self.ep_passed, self.ep_pawn)
            } else {
                (self.ep_pawn, self.ep_passed)
            };
            write!(f, "{}{}", square_name(a), square_name(b))?;
        }
        write!(f, " {} {}", self.halfmove, self.fullmove)
    }
}
