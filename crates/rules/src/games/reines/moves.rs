//! Moves of Jeu de Reines and their text.

use super::position::square_name;

/// A move: a piece going from one square to another, maybe capturing, or a pass.
///
/// Packed in a `u32`: bits 0-5 the start square, 6-11 the end square, 12-13 the moving kind,
/// 14 set for a capture, 15-16 the captured kind; `PASS` is a value of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct ReinesMove(pub(crate) u32);

impl ReinesMove {
    pub const PASS: ReinesMove = ReinesMove(1 << 20);
    const CAPTURE: u32 = 1 << 14;

    #[inline(always)]
    pub(crate) fn quiet(from: u32, to: u32, kind: usize) -> Self {
        ReinesMove(from | (to << 6) | ((kind as u32) << 12))
    }

    #[inline(always)]
    pub(crate) fn capture(from: u32, to: u32, kind: usize, captured: usize) -> Self {
        ReinesMove(
            from | (to << 6) | ((kind as u32) << 12) | Self::CAPTURE | ((captured as u32) << 15),
        )
    }

    #[inline(always)]
    pub fn is_pass(self) -> bool {
        self.0 == Self::PASS.0
    }

    #[inline(always)]
    pub fn from(self) -> u32 {
        self.0 & 63
    }

    #[inline(always)]
    pub fn to(self) -> u32 {
        (self.0 >> 6) & 63
    }

    /// The kind of the moving piece (see `position::KIND_LETTERS`).
    #[inline(always)]
    pub fn kind(self) -> usize {
        ((self.0 >> 12) & 3) as usize
    }

    #[inline(always)]
    pub fn is_capture(self) -> bool {
        self.0 & Self::CAPTURE != 0
    }

    /// The kind of the captured piece (meaningful for captures only).
    #[inline(always)]
    pub fn captured(self) -> usize {
        ((self.0 >> 15) & 3) as usize
    }

    /// The canonical text: `b4-b6`, `c3xd4`, `pass`.
    pub fn text(self) -> String {
        if self.is_pass() {
            return "pass".to_string();
        }
        let sep = if self.is_capture() { 'x' } else { '-' };
        format!(
            "{}{sep}{}",
            square_name(self.from()),
            square_name(self.to())
        )
    }
}
