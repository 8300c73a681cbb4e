//! Moves of Jeu de Reines and their text.

use crate::error::MoveError;

use super::position::{parse_square, square_name, ReinesKind, ReinesPosition, KIND_NAMES, QUEEN};

/// A move: a piece going from one square to another, maybe capturing, or a pass.
///
/// Packed in a `u32`: bits 0-5 the start square, 6-11 the end square, 12-13 the moving kind,
/// 14 set for a capture, 15-16 the captured kind (0 for a move that captures nothing); `PASS`
/// is the value `1 << 20`. That number is also the move's code (`Position::move_code`).
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

    /// The index of the moving piece's kind (`ReinesKind as usize`).
    #[inline(always)]
    pub fn kind(self) -> usize {
        ((self.0 >> 12) & 3) as usize
    }

    #[inline(always)]
    pub fn is_capture(self) -> bool {
        self.0 & Self::CAPTURE != 0
    }

    /// The index of the captured piece's kind (meaningful for captures only).
    #[inline(always)]
    pub fn captured(self) -> usize {
        ((self.0 >> 15) & 3) as usize
    }

    /// The kind of the moving piece (`None` for `pass`).
    pub fn piece_kind(self) -> Option<ReinesKind> {
        (!self.is_pass()).then(|| ReinesKind::ALL[self.kind()])
    }

    /// The kind of the captured piece, if the move captures.
    pub fn taken_kind(self) -> Option<ReinesKind> {
        self.is_capture().then(|| ReinesKind::ALL[self.captured()])
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

/// Reads a move text and checks that it is legal in `pos` (without generating every move).
pub(crate) fn parse(pos: &ReinesPosition, text: &str) -> Result<ReinesMove, MoveError> {
    const EXPECTED: &str = "<from>-<to>, <from>x<to> (like b4-b6, c3xd4) or pass";
    let t = text.trim();
    if pos.queen_missing() {
        return Err(MoveError::GameOver);
    }
    let people = |player: u8| pos.people(player).map_or("?", |p| p.name());
    if t.eq_ignore_ascii_case("pass") {
        let n = pos.count_moves_of(pos.side);
        return if n == 0 {
            Ok(ReinesMove::PASS)
        } else {
            Err(MoveError::illegal(
                t,
                format!(
                    "a player may pass only with no legal move, and the {} have {n}",
                    people(pos.side)
                ),
            ))
        };
    }
    if t.len() != 5 || !t.is_ascii() {
        return Err(MoveError::malformed(t, EXPECTED));
    }
    let from = parse_square(&t[0..2].to_ascii_lowercase());
    let to = parse_square(&t[3..5].to_ascii_lowercase());
    let sep = t.as_bytes()[2];
    let (Some(from), Some(to)) = (from, to) else {
        return Err(MoveError::malformed(t, EXPECTED));
    };
    if sep != b'-' && sep != b'x' && sep != b'X' {
        return Err(MoveError::malformed(t, EXPECTED));
    }
    let capture = sep != b'-';
    if let Some(mv) = pos.move_between(from, to) {
        return match (mv.is_capture(), capture) {
            (true, false) => Err(MoveError::illegal(
                t,
                format!(
                    "it captures the piece on {}: write {}",
                    square_name(to),
                    mv.text()
                ),
            )),
            (false, true) => Err(MoveError::illegal(
                t,
                format!(
                    "there is nothing to capture on {}: write {}",
                    square_name(to),
                    mv.text()
                ),
            )),
            _ => Ok(mv),
        };
    }
    let reason = match pos.piece(from) {
        None => format!("there is no piece on {}", square_name(from)),
        Some((owner, _)) if owner != pos.side => format!(
            "the piece on {} belongs to the {}, and the {} are to move",
            square_name(from),
            people(owner),
            people(pos.side)
        ),
        Some((_, kind)) if kind as usize == QUEEN => "the Queen never moves".to_string(),
        Some((_, kind)) => format!(
            "the {} on {} cannot go to {}",
            KIND_NAMES[kind as usize],
            square_name(from),
            square_name(to)
        ),
    };
    Err(MoveError::illegal(t, reason))
}
