//! Ackenhead moves and their UCI text (`e2g4`, `a1a7`, `f7e8l`).

use std::fmt;

use super::position::{parse_square, KIND_LETTERS};

/// A move: from square, to square and promotion kind (0 = none, else `LEO..=MAO`), packed in 16
/// bits.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct AckenheadMove(u16);

impl AckenheadMove {
    #[inline(always)]
    pub const fn new(from: u8, to: u8, promotion: u8) -> Self {
        AckenheadMove(from as u16 | (to as u16) << 6 | (promotion as u16) << 12)
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
        let sq = |s: u8| format!("{}{}", (b'a' + s % 8) as char, s / 8 + 1);
        write!(f, "{}{}", sq(self.from()), sq(self.to()))?;
        if self.promotion() != 0 {
            let c = KIND_LETTERS[self.promotion() as usize].to_ascii_lowercase();
            write!(f, "{c}")?;
        }
        Ok(())
    }
}
