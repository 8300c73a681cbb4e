//! Ackenhead moves and their UCI text (`e2g4`, `a1a7`, `f7e8l`).

use std::fmt;

use super::position::{parse_square, square_name, KIND_LETTERS};

/// A move: from square, to square and promotion kind (0 = none, else the index of the Leo, Pao,
/// Vao or Mao in `GameInfo::pieces`: 1 to 4), packed in 16 bits: `from | to << 6 | promotion
/// << 12`. The packing is also the move's code for transposition tables
/// (`Position::move_code`).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct AckenheadMove(u16);

impl AckenheadMove {
    /// The move from `from` to `to` (squares numbered `rank * 8 + file`, below 64; higher bits
    /// are dropped), promoting to the kind `promotion` (0 = none, 1 to 4 = Leo, Pao, Vao, Mao;
    /// higher bits are dropped).
    #[inline(always)]
    pub const fn new(from: u8, to: u8, promotion: u8) -> Self {
        AckenheadMove(
            (from & 63) as u16 | ((to & 63) as u16) << 6 | ((promotion & 15) as u16) << 12,
        )
    }

    /// The 16 bits of the move.
    #[inline(always)]
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// The move with these 16 bits, unchecked: `Position::move_from_code` checks legality.
    #[inline(always)]
    pub(super) const fn from_bits(bits: u16) -> Self {
        AckenheadMove(bits)
    }

    #[inline(always)]
    pub const fn from(self) -> u8 {
        (self.0 & 63) as u8
    }

    #[inline(always)]
    pub const fn to(self) -> u8 {
        ((self.0 >> 6) & 63) as u8
    }

    /// The kind a pawn promotes to, or 0.
    #[inline(always)]
    pub const fn promotion(self) -> u8 {
        (self.0 >> 12) as u8
    }

    /// Reads UCI text without checking legality: `None` if it is not `<sq><sq>[lcvm]`.
    pub fn parse_uci(text: &str) -> Option<Self> {
        if !text.is_ascii() || !(4..=5).contains(&text.len()) {
            return None;
        }
        let from = parse_square(&text[..2])?;
        let to = parse_square(&text[2..4])?;
        let promotion = match text.as_bytes().get(4) {
            None => 0,
            Some(&c) => {
                let k = KIND_LETTERS
                    .iter()
                    .position(|&l| l.to_ascii_lowercase() == c as char)?;
                if !(1..=4).contains(&k) {
                    return None;
                }
                k as u8
            }
        };
        Some(AckenheadMove::new(from, to, promotion))
    }
}

impl fmt::Display for AckenheadMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", square_name(self.from()), square_name(self.to()))?;
        if self.promotion() != 0 {
            let c = KIND_LETTERS[self.promotion() as usize].to_ascii_lowercase();
            write!(f, "{c}")?;
        }
        Ok(())
    }
}
