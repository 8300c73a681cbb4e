//! Moves of Ant Chess and their text: `g3-g4`, `g8-f7xf7,h6`, `j1-j10xj6`, `d9-c9xc9=S`,
//! `pass`.

use crate::error::MoveError;

use super::position::{AntPos, Kind};
use super::tables::{bit, tables, NONE};

/// A move, in 8 bytes.
///
/// Captured cells are stored by kind of move, so that each legal `(from, to, captured set)`
/// has exactly one encoding in a given position:
/// * `CAPTURE_TO`: the piece on `to` (every piece but the Ladybird and the Worm);
/// * `ladybird`: a set of cells within distance 2 of `from`, bit `(dq+2)·5 + (dr+2)`;
/// * `worm`: one cell (or `NONE`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Move {
    pub(super) from: u8,
    pub(super) to: u8,
    pub(super) flags: u8,
    pub(super) worm: u8,
    pub(super) ladybird: u32,
}

pub const PASS: u8 = 1;
pub const PROMOTE: u8 = 2;
pub const CAPTURE_TO: u8 = 4;

impl Move {
    pub const PASS: Move = Move {
        from: NONE,
        to: NONE,
        flags: PASS,
        worm: NONE,
        ladybird: 0,
    };

    #[inline(always)]
    pub(super) const fn simple(from: u8, to: u8, flags: u8) -> Move {
        Move {
            from,
            to,
            flags,
            worm: NONE,
            ladybird: 0,
        }
    }

    pub fn is_pass(self) -> bool {
        self.flags & PASS != 0
    }

    pub fn is_promotion(self) -> bool {
        self.flags & PROMOTE != 0
    }

    pub fn from(self) -> Option<usize> {
        (!self.is_pass()).then_some(self.from as usize)
    }

    pub fn to(self) -> Option<usize> {
        (!self.is_pass()).then_some(self.to as usize)
    }

    /// The captured cells as a bitboard.
    #[inline(always)]
    pub fn capture_bits(self) -> u128 {
        if self.flags & CAPTURE_TO != 0 {
            bit(self.to as usize)
        } else if self.worm != NONE {
            bit(self.worm as usize)
        } else if self.ladybird != 0 {
            ladybird_cells(self.from as usize, self.ladybird)
        } else {
            0
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

/// The bit of cell `c` in a Ladybird capture set relative to `from` (within distance 2).
#[inline(always)]
pub(super) fn ladybird_bit(from: usize, c: usize) -> u32 {
    let t = tables();
    let (q0, r0) = t.coords[from];
    let (q1, r1) = t.coords[c];
    let i = (q1 - q0 + 2) as u32 * 5 + (r1 - r0 + 2) as u32;
    1 << i
}

#[inline(always)]
fn ladybird_cells(from: usize, mut set: u32) -> u128 {
    let t = tables();
    let mut out = 0;
    while set != 0 {
        let i = set.trailing_zeros() as i32;
        set &= set - 1;
        let c = t.offset(from, i / 5 - 2, i % 5 - 2);
        if c != NONE {
            out |= bit(c as usize);
        }
    }
    out
}

const EXPECTED: &str =
    "`pass` or <from>-<to>, then optionally x<captured cells separated by commas> and =S (e.g. g3-g4, g8-f7xf7,h6, d9-c9xc9=S)";

pub fn move_text(mv: Move) -> String {
    if mv.is_pass() {
        return "pass".to_string();
    }
    let g = tables().grid;
    let mut s = format!("{}-{}", g.name(mv.from as u16), g.name(mv.to as u16));
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

pub fn parse_move(pos: &AntPos, text: &str) -> Result<Move, MoveError> {
    let g = tables().grid;
    let text = text.trim();
    let mut legal = Vec::new();
    pos.legal_moves_into(&mut legal);
    if legal.is_empty() {
        return Err(MoveError::GameOver);
    }
    if text == "pass" {
        return if legal.contains(&Move::PASS) {
            Ok(Move::PASS)
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
    let candidates: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|m| !m.is_pass() && m.from as usize == from && m.to as usize == to)
        .collect();
    if candidates.is_empty() {
        return Err(MoveError::illegal(
            text,
            format!("the piece on {from_s} has no legal move to {to_s}"),
        ));
    }
    let texts = |v: &[Move]| {
        v.iter()
            .map(|&m| move_text(m))
            .collect::<Vec<_>>()
            .join(" ")
    };
    // Without a capture list the text names the move that captures nothing if there is one
    // (that is its canonical text), otherwise the only capturing move, if it is unique.
    let quiet: Vec<Move> = candidates
        .iter()
        .copied()
        .filter(|m| m.capture_bits() == 0)
        .collect();
    let matching: Vec<Move> = match cap_set {
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
        let why = if kind == Some(Kind::Warrior) {
            format!("a Warrior promotes only on its far edges, not on {to_s}")
        } else {
            "only a Warrior promotes".to_string()
        };
        return Err(MoveError::illegal(text, why));
    }
    Ok(found)
}
