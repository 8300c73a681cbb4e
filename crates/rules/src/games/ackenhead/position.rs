//! The Ackenhead position and its FEN (Fairy-Stockfish's form: letters `K L C V M P`, castling
//! field `-`, an en passant field of two squares).

use std::fmt;
use std::str::FromStr;

use super::bitboard::{bit, Bb, Squares, TABLES};
use crate::error::PositionError;
use crate::game::{PieceSets, Player};
use crate::geometry::{placement, square};
use crate::zobrist;

pub const WHITE: u8 = 0;
pub const BLACK: u8 = 1;

/// Piece kinds, in the order of `KIND_LETTERS` and of `INFO.pieces` (the values of
/// [`AckenheadKind`]).
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

/// The kinds of Ackenhead pieces, in the order of `GameInfo::pieces` (`AckenheadKind::Leo as
/// usize` is the Leo's index there, as in `Tactics::taken_kinds` and `Tactics::promotion`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum AckenheadKind {
    King = KING,
    Leo = LEO,
    Pao = PAO,
    Vao = VAO,
    Mao = MAO,
    Pawn = PAWN,
}

impl AckenheadKind {
    /// Every kind, in the order of `GameInfo::pieces`.
    pub const ALL: [AckenheadKind; 6] = [
        AckenheadKind::King,
        AckenheadKind::Leo,
        AckenheadKind::Pao,
        AckenheadKind::Vao,
        AckenheadKind::Mao,
        AckenheadKind::Pawn,
    ];

    /// The kind with this index of `GameInfo::pieces`, if there is one.
    pub fn from_index(index: usize) -> Option<AckenheadKind> {
        AckenheadKind::ALL.get(index).copied()
    }

    /// Its index in `GameInfo::pieces`.
    pub fn index(self) -> usize {
        self as usize
    }

    /// Its upper-case letter in position strings (`K L C V M P`).
    pub fn letter(self) -> char {
        KIND_LETTERS[self as usize]
    }
}

/// 768 piece-square keys, the side key, then the en passant keys: 64 by the square passed over
/// and 64 by the square of the pawn that passed it (both, because two pawns can pass the same
/// square, and the capture takes the one named).
/// The pieces of one side that can attack, by how they attack: for [`attacked_by`].
#[derive(Clone, Copy)]
pub(super) struct Attackers {
    pub kings: Bb,
    pub pawns: Bb,
    pub maos: Bb,
    /// Pieces hopping along rook lines (Paos and Leos).
    pub orth: Bb,
    /// Pieces hopping along bishop lines (Vaos and Leos).
    pub diag: Bb,
}

/// Is `sq` attacked by the pieces `a` of `by`, with the board occupied as `occ`? Hoppers attack
/// over exactly one screen; a Mao's leg must be empty; pawns attack straight forward.
#[inline(always)]
pub(super) fn attacked_by(sq: u8, by: u8, occ: Bb, a: Attackers) -> bool {
    let t = &*TABLES;
    let s = sq as usize;
    if t.king[s] & a.kings != 0 {
        return true;
    }
    if t.pawn_attackers[by as usize][s] & a.pawns != 0 {
        return true;
    }
    if a.maos != 0 {
        for i in 0..4 {
            let leg = t.mao_attack_leg[s][i];
            if leg < 64 && occ & bit(leg) == 0 && t.mao_attackers[s][i] & a.maos != 0 {
                return true;
            }
        }
    }
    if a.orth != 0 && t.rook_hops(sq, occ) & a.orth != 0 {
        return true;
    }
    a.diag != 0 && t.bishop_hops(sq, occ) & a.diag != 0
}

const KEYS: [u64; 12 * 64 + 1 + 128] = zobrist::keys(0xACE0_4EAD_0000_0001);
const SIDE_KEY: u64 = KEYS[12 * 64];

#[inline(always)]
pub(super) fn piece_key(p: u8, sq: u8) -> u64 {
    KEYS[(p as usize - 1) * 64 + sq as usize]
}

/// The key of an en passant field: the square passed over and the pawn's square.
#[inline(always)]
pub(super) fn ep_key(passed: u8, pawn: u8) -> u64 {
    KEYS[12 * 64 + 1 + passed as usize] ^ KEYS[12 * 64 + 1 + 64 + (pawn & 63) as usize]
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

/// The name of a square (`e4`), from the board geometry.
pub(super) fn square_name(sq: u8) -> String {
    square::name(8, sq as crate::game::Cell)
}

/// Reads a square name (`e4`); `None` if it is not a square of the board.
pub(super) fn parse_square(text: &str) -> Option<u8> {
    square::parse(8, 8, text).map(|c| c as u8)
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

    // -----------------------------------------------------------------------------------------
    // Read access, for evaluations and displays (and [`PieceSets`], below). Squares are
    // numbered as the game's cells (`rank * 8 + file`, a1 = 0); a bitboard has bit `s` set for
    // square `s`.

    /// The square of `player`'s King (`None` for a player other than 0 and 1).
    pub fn king_square(&self, player: Player) -> Option<u8> {
        let kings = self.pieces(player, AckenheadKind::King);
        (kings != 0).then(|| kings.trailing_zeros() as u8)
    }

    /// Plies since the last capture or pawn move.
    pub fn quiet_plies(&self) -> u32 {
        self.halfmove
    }

    /// The move number (1 at the start, increased after each move of Black).
    pub fn move_number(&self) -> u32 {
        self.fullmove
    }

    /// The owner and kind of the piece on a square (`None` for an empty square or a number off
    /// the board).
    pub fn piece(&self, sq: u8) -> Option<(Player, AckenheadKind)> {
        let p = *self.board.get(sq as usize)?;
        (p != EMPTY).then(|| (piece_colour(p), AckenheadKind::ALL[piece_kind(p) as usize]))
    }

    /// The en passant field (square passed over, pawn's square), if the last move was a
    /// double step (or the position string named one).
    pub fn en_passant(&self) -> Option<(u8, u8)> {
        (self.ep_passed != NO_SQUARE).then_some((self.ep_passed, self.ep_pawn))
    }

    /// Is `player`'s King attacked (by the other player's pieces)? False for a player other
    /// than 0 and 1.
    pub fn king_attacked(&self, player: Player) -> bool {
        player < 2 && self.in_check_of(player)
    }

    // -----------------------------------------------------------------------------------------

    /// The square of the King of `colour` (0 or 1); 64 if it has none (never in a position
    /// read from a string).
    #[inline(always)]
    pub(super) fn king_sq(&self, colour: u8) -> u8 {
        (self.kinds[KING as usize] & self.colours[colour as usize]).trailing_zeros() as u8
    }

    /// Squares of `colour`'s pieces of `kind` (both as indices; `colour` is 0 or 1).
    #[inline(always)]
    pub(super) fn bb(&self, colour: u8, kind: u8) -> Bb {
        self.kinds[kind as usize] & self.colours[colour as usize]
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

    /// Is `sq` attacked by `by`, given the occupancy `occ` and with only the pieces of `by` in
    /// `by_mask` counted (so a move can be tested before it is made)?
    #[inline(always)]
    pub(super) fn attacked_with(&self, sq: u8, by: u8, occ: Bb, by_mask: Bb) -> bool {
        let theirs = self.colours[by as usize] & by_mask;
        let leos = self.kinds[LEO as usize];
        attacked_by(
            sq,
            by,
            occ,
            Attackers {
                kings: self.kinds[KING as usize] & theirs,
                pawns: self.kinds[PAWN as usize] & theirs,
                maos: self.kinds[MAO as usize] & theirs,
                orth: (self.kinds[PAO as usize] | leos) & theirs,
                diag: (self.kinds[VAO as usize] | leos) & theirs,
            },
        )
    }

    /// Is the king of `colour` (0 or 1) attacked?
    #[inline(always)]
    pub(super) fn in_check_of(&self, colour: u8) -> bool {
        let k = self.king_sq(colour);
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
            h ^= ep_key(self.ep_passed, self.ep_pawn);
        }
        h
    }
}

/// The pieces as bitboards (`u64`, bit `rank * 8 + file`); a player other than 0 and 1 has
/// none.
impl PieceSets for AckenheadPosition {
    type Set = Bb;
    type Kind = AckenheadKind;

    #[inline(always)]
    fn pieces(&self, player: Player, kind: AckenheadKind) -> Bb {
        self.pieces_of(player) & self.kinds[kind as usize]
    }

    #[inline(always)]
    fn pieces_of(&self, player: Player) -> Bb {
        self.colours.get(player as usize).copied().unwrap_or(0)
    }

    #[inline(always)]
    fn occupied(&self) -> Bb {
        self.colours[0] | self.colours[1]
    }

    /// The legal moves of `player`, or those it would have if it were to move (then without
    /// en passant, which belongs to the side to move; counted on a copy of the position with
    /// the turn handed over, so that if the side to move is in check the count includes taking
    /// its King). 0 for a player other than 0 and 1.
    #[inline]
    fn mobility(&self, player: Player) -> u32 {
        self.count_moves_of(player)
    }
}

/// Reads a FEN: six fields, or the first four (no move counters). The error names the field at
/// fault.
impl FromStr for AckenheadPosition {
    type Err = PositionError;

    fn from_str(text: &str) -> Result<Self, PositionError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() != 6 && fields.len() != 4 {
            return Err(PositionError::new(
                "fields",
                format!(
                    "expected 6 fields (placement, side to move, castling, en passant, \
                     halfmove clock, move number) or the first 4, found {}",
                    fields.len()
                ),
            ));
        }
        let mut pos = AckenheadPosition::empty();
        let board = placement::parse(
            super::INFO.geometry,
            fields[0],
            "K L C V M P for White, k l c v m p for Black",
            |rest| {
                let c = rest.chars().next()?;
                let kind = KIND_LETTERS
                    .iter()
                    .position(|&l| l == c.to_ascii_uppercase())?;
                let colour = if c.is_ascii_uppercase() { WHITE } else { BLACK };
                Some((piece(colour, kind as u8), 1))
            },
        )?;
        for (sq, p) in board.into_iter().enumerate() {
            if let Some(p) = p {
                pos.put(p, sq as u8);
            }
        }
        for (colour, name) in [(WHITE, "White"), (BLACK, "Black")] {
            let kings = pos.bb(colour, KING).count_ones();
            if kings != 1 {
                return Err(PositionError::new(
                    "placement",
                    format!("{name} has {kings} kings, expected exactly 1"),
                ));
            }
        }
        if pos.bb(WHITE, PAWN) & super::bitboard::RANK_8 != 0
            || pos.bb(BLACK, PAWN) & super::bitboard::RANK_1 != 0
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
            pos.hash ^= ep_key(passed, pawn);
        }
        if fields.len() == 6 {
            pos.halfmove = crate::counters::parse_counter(fields[4], "halfmove clock")?;
            pos.fullmove = crate::counters::parse_move_number(fields[5])?;
        }
        if pos.in_check_of(pos.side ^ 1) {
            return Err(PositionError::new(
                "position",
                "the side not to move is in check",
            ));
        }
        Ok(pos)
    }
}

impl fmt::Display for AckenheadPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let placement = placement::write(super::INFO.geometry, |cell, out| {
            let p = self.board[cell as usize];
            if p == EMPTY {
                return false;
            }
            let letter = KIND_LETTERS[piece_kind(p) as usize];
            out.push(if piece_colour(p) == WHITE {
                letter
            } else {
                letter.to_ascii_lowercase()
            });
            true
        });
        f.write_str(&placement)?;
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
