//! Moves of Ant Chess and their text: `g3-g4`, `g8-f7xf7,h6`, `j1-j10xj6`, `d9-c9xc9=S`,
//! `pass`.

use std::fmt;

use crate::error::MoveError;

use super::position::{AntChessKind, AntChessPosition};
use super::tables::{bit, tables, NONE};

/// A move in 32 bits: `from` (bits 0–7), `to` (8–15), flags (16–23) and a capture payload
/// (24–31). It is its own move code ([`crate::game::Position::move_code`]).
///
/// Each legal `(from, to, captured cells, promotion)` has exactly one encoding, whatever the
/// position, so that equal moves compare equal and distinct moves of a position have distinct
/// codes. The captured cells are stored by how many there are:
/// * none: no capture flag;
/// * the piece on `to` alone: [`CAPTURE_TO`] (every capturing piece but the Worm);
/// * one cell that is not `to` (a Worm's trajectory, a Ladybird's sweep): [`CAPTURE_CELL`], the
///   cell in the payload;
/// * two cells or more (a Ladybird's sweep): [`CAPTURE_ARC`], the payload holds the direction
///   `d` (0–5) from `from` to the pivot `p` in bits 0–2 and, in bits 3–7, which of the five
///   other cells of `p`'s ring are taken (bit `j` for the cell `j + 1` places counter-clockwise
///   from `from`). The set lies on one ring, and the rings of two different neighbours of
///   `from` share at most one cell besides `from` (adjacent pivots share one more common
///   neighbour, pivots two apart share the neighbour between them, opposite pivots nothing),
///   so `d` is unique.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct AntChessMove(pub(super) u32);

/// The move is a pass (`from` and `to` are `NONE`).
pub const PASS: u8 = 1;
/// A Warrior promotes to a Superant.
pub const PROMOTE: u8 = 2;
/// The move captures the piece on `to`, and nothing else.
pub const CAPTURE_TO: u8 = 4;
/// The move captures the one piece on the payload cell, which is not `to`.
pub const CAPTURE_CELL: u8 = 8;
/// A Ladybird captures two pieces or more (payload: pivot direction and ring cells).
pub const CAPTURE_ARC: u8 = 16;
const ANY_CAPTURE: u8 = CAPTURE_TO | CAPTURE_CELL | CAPTURE_ARC;

impl AntChessMove {
    pub const PASS: AntChessMove = AntChessMove::pack(NONE, NONE, PASS, 0);

    #[inline(always)]
    const fn pack(from: u8, to: u8, flags: u8, payload: u8) -> AntChessMove {
        AntChessMove(from as u32 | (to as u32) << 8 | (flags as u32) << 16 | (payload as u32) << 24)
    }

    /// A move capturing nothing or the piece on `to` (flags `CAPTURE_TO`, `PROMOTE`).
    #[inline(always)]
    pub(super) const fn simple(from: u8, to: u8, flags: u8) -> AntChessMove {
        AntChessMove::pack(from, to, flags, 0)
    }

    /// A move capturing the one piece on `cell`, not `to`.
    #[inline(always)]
    pub(super) const fn capturing_cell(from: u8, to: u8, cell: u8) -> AntChessMove {
        AntChessMove::pack(from, to, CAPTURE_CELL, cell)
    }

    /// A Ladybird move round the neighbour of `from` in direction `d`, capturing the ring cells
    /// of `mask` (at least two).
    #[inline(always)]
    pub(super) const fn capturing_arc(from: u8, to: u8, d: u8, mask: u8) -> AntChessMove {
        AntChessMove::pack(from, to, CAPTURE_ARC, d | mask << 3)
    }

    #[inline(always)]
    pub(super) const fn start_byte(self) -> u8 {
        self.0 as u8
    }

    #[inline(always)]
    pub(super) const fn end_byte(self) -> u8 {
        (self.0 >> 8) as u8
    }

    #[inline(always)]
    pub(super) const fn flags(self) -> u8 {
        (self.0 >> 16) as u8
    }

    #[inline(always)]
    const fn payload(self) -> u8 {
        (self.0 >> 24) as u8
    }

    /// The move's code: the 32 bits of the move.
    #[inline(always)]
    pub const fn code(self) -> u32 {
        self.0
    }

    pub const fn is_pass(self) -> bool {
        self.flags() & PASS != 0
    }

    pub const fn is_promotion(self) -> bool {
        self.flags() & PROMOTE != 0
    }

    /// True if the move captures at least one piece.
    #[inline(always)]
    pub const fn is_capture(self) -> bool {
        self.flags() & ANY_CAPTURE != 0
    }

    /// The cell the piece starts from (`None` for a pass).
    pub fn from(self) -> Option<usize> {
        (!self.is_pass()).then_some(self.start_byte() as usize)
    }

    /// The cell the piece ends on (`None` for a pass).
    pub fn to(self) -> Option<usize> {
        (!self.is_pass()).then_some(self.end_byte() as usize)
    }

    /// The captured cells as a bitboard.
    #[inline(always)]
    pub fn capture_bits(self) -> u128 {
        let flags = self.flags();
        if flags & ANY_CAPTURE == 0 {
            0
        } else if flags & CAPTURE_TO != 0 {
            bit(self.end_byte() as usize & 127)
        } else if flags & CAPTURE_CELL != 0 {
            bit(self.payload() as usize & 127)
        } else {
            arc_cells(self.start_byte(), self.payload())
        }
    }

    /// The captured cells in reading order.
    pub fn captures(self) -> Vec<usize> {
        let mut b = self.capture_bits();
        let mut out = Vec::new();
        while b != 0 {
            out.push(b.trailing_zeros() as usize);
            b &= b - 1;
        }
        out
    }
}

/// The cells of a `CAPTURE_ARC` payload for a Ladybird on `from`.
#[inline]
fn arc_cells(from: u8, payload: u8) -> u128 {
    let t = tables();
    let d = (payload & 7) as usize;
    let Some(neigh) = t.neigh.get(from as usize) else {
        return 0;
    };
    let p = match neigh.get(d) {
        Some(&p) if p != NONE => p as usize,
        _ => return 0,
    };
    let back = (d + 3) % 6;
    let mut mask = payload >> 3;
    let mut out = 0;
    while mask != 0 {
        let j = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        let c = t.neigh[p][(back + j + 1) % 6];
        if c != NONE {
            out |= bit(c as usize);
        }
    }
    out
}

impl fmt::Debug for AntChessMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.start_byte() as usize >= super::tables::CELLS && !self.is_pass() {
            return write!(f, "AntChessMove({:#010x})", self.0);
        }
        write!(f, "AntChessMove({})", move_text(*self))
    }
}

const EXPECTED: &str =
    "`pass` or <from>-<to>, then optionally x<captured cells separated by commas> and =S (e.g. g3-g4, g8-f7xf7,h6, d9-c9xc9=S)";

/// The canonical text of a move.
pub fn move_text(mv: AntChessMove) -> String {
    if mv.is_pass() {
        return "pass".to_string();
    }
    let g = tables().grid;
    let mut s = format!(
        "{}-{}",
        g.name(mv.start_byte() as u16),
        g.name(mv.end_byte() as u16)
    );
    let caps = mv.captures();
    if !caps.is_empty() {
        s.push('x');
        let names: Vec<String> = caps.iter().map(|&c| g.name(c as u16)).collect();
        s.push_str(&names.join(","));
    }
    if mv.is_promotion() {
        s.push_str("=S");
    }
    s
}

/// Reads a move text and checks that it is legal in `pos`.
pub fn parse_move<const N: usize>(
    pos: &AntChessPosition<N>,
    text: &str,
) -> Result<AntChessMove, MoveError> {
    let g = tables().grid;
    let text = text.trim();
    let mut legal = Vec::new();
    pos.legal_moves_into(&mut legal);
    if legal.is_empty() {
        return Err(MoveError::GameOver);
    }
    if text == "pass" {
        return if legal.contains(&AntChessMove::PASS) {
            Ok(AntChessMove::PASS)
        } else {
            Err(MoveError::illegal(
                text,
                "you may not pass while your Queen is attacked",
            ))
        };
    }
    let (body, promo) = match text.strip_suffix("=S") {
        Some(b) => (b, true),
        None => (text, false),
    };
    let (path, caps) = match body.split_once('x') {
        Some((p, c)) => (p, Some(c)),
        None => (body, None),
    };
    let Some((from_s, to_s)) = path.split_once('-') else {
        return Err(MoveError::malformed(text, EXPECTED));
    };
    let cell = |s: &str| g.parse(s).map(|c| c as usize);
    let (Some(from), Some(to)) = (cell(from_s), cell(to_s)) else {
        return Err(MoveError::malformed(text, EXPECTED));
    };
    let cap_set: Option<u128> = match caps {
        None => None,
        Some(list) => {
            let mut set = 0u128;
            for name in list.split(',') {
                match cell(name) {
                    Some(c) => set |= bit(c),
                    None => return Err(MoveError::malformed(text, EXPECTED)),
                }
            }
            Some(set)
        }
    };
    match pos.piece(from) {
        None => return Err(MoveError::illegal(text, format!("{from_s} is empty"))),
        Some((o, _)) if o != pos.to_move as usize => {
            return Err(MoveError::illegal(
                text,
                format!("the piece on {from_s} is not yours"),
            ))
        }
        _ => {}
    }
    let candidates: Vec<AntChessMove> = legal
        .iter()
        .copied()
        .filter(|m| !m.is_pass() && m.start_byte() as usize == from && m.end_byte() as usize == to)
        .collect();
    if candidates.is_empty() {
        return Err(MoveError::illegal(
            text,
            format!("the piece on {from_s} has no legal move to {to_s}"),
        ));
    }
    let texts = |v: &[AntChessMove]| {
        v.iter()
            .map(|&m| move_text(m))
            .collect::<Vec<_>>()
            .join(" ")
    };
    // Without a capture list the text names the move that captures nothing if there is one
    // (that is its canonical text), otherwise the only capturing move, if it is unique.
    let quiet: Vec<AntChessMove> = candidates
        .iter()
        .copied()
        .filter(|m| !m.is_capture())
        .collect();
    let matching: Vec<AntChessMove> = match cap_set {
        None if !quiet.is_empty() => quiet,
        None => candidates.clone(),
        Some(set) => candidates
            .iter()
            .copied()
            .filter(|m| m.capture_bits() == set)
            .collect(),
    };
    let found = match matching.len() {
        0 => {
            return Err(MoveError::illegal(
                text,
                format!(
                    "no legal move from {from_s} to {to_s} captures exactly those cells; the legal ones are: {}",
                    texts(&candidates)
                ),
            ))
        }
        1 => matching[0],
        _ => {
            return Err(MoveError::illegal(
                text,
                format!(
                    "ambiguous: give the captured cells, one of: {}",
                    texts(&matching)
                ),
            ))
        }
    };
    if promo && !found.is_promotion() {
        let kind = pos.piece(from).map(|(_, k)| k);
        let why = if kind == Some(AntChessKind::Warrior) {
            format!("a Warrior promotes only on its far edges, not on {to_s}")
        } else {
            "only a Warrior promotes".to_string()
        };
        return Err(MoveError::illegal(text, why));
    }
    Ok(found)
}
