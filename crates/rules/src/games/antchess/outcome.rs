//! How a game of Ant Chess ends.

use crate::outcome::{Outcome, Reason};

/// A Queen ended a move on the anthill, unattacked.
pub const ANTHILL: Reason = Reason::new("anthill", "by reaching the anthill");
/// Only one Queen is left (three players).
pub const LAST_QUEEN: Reason = Reason::new("last-queen", "by holding the last Queen");
/// No Queen is left (three players).
pub const NO_QUEENS: Reason = Reason::new("no-queens", "as no Queen is left");
/// A player's Queen was captured: they can no longer win (three players).
pub const QUEEN_LOST: Reason = Reason::new("queen-lost", "by losing the Queen");

/// The reasons a game of Ant Chess ends for by its rules.
pub const REASONS: &[Reason] = &[
    ANTHILL,
    LAST_QUEEN,
    NO_QUEENS,
    QUEEN_LOST,
    Reason::CHECKMATE,
    Reason::PASSES,
    Reason::NO_PROGRESS,
];

use super::position::AntPos;
use super::tables::{tables, NONE};

impl AntPos {
    /// The end of the game decided by the position alone that empties the move list (the
    /// leaves of perft): anthill, and in 3 players the last Queen standing or no Queen left.
    /// Checkmate (2 players) is found by the move generator.
    #[inline]
    pub(super) fn terminal(&self) -> Option<Outcome> {
        let n = self.players as usize;
        if n == 3 {
            let mut alive = 0;
            let mut last = 0;
            for (o, &q) in self.queens.iter().enumerate() {
                if q != NONE {
                    alive += 1;
                    last = o;
                }
            }
            match alive {
                0 => return Some(Outcome::Draw { reason: NO_QUEENS }),
                1 => {
                    return Some(Outcome::Win {
                        winner: last as u8,
                        reason: LAST_QUEEN,
                    })
                }
                _ => {}
            }
        }
        let prev = (self.to_move as usize + n - 1) % n;
        let centre = tables().centre;
        if self.queens[prev] == centre && !self.attacked_by_opponents(prev, centre as usize) {
            return Some(Outcome::Win {
                winner: prev as u8,
                reason: ANTHILL,
            });
        }
        None
    }

    /// The result of a position without legal moves: anthill, last Queen, no Queen, or
    /// (two players) checkmate.
    pub(super) fn outcome_without_moves(&self) -> Outcome {
        self.terminal().unwrap_or_else(|| Outcome::Win {
            winner: (self.to_move + 1) % self.players,
            reason: Reason::CHECKMATE,
        })
    }

    /// A full round of passes, or too many quiet plies.
    pub(super) fn draw_by_rule(&self) -> Option<Outcome> {
        if self.passes >= self.pass_draw() {
            return Some(Outcome::Draw {
                reason: Reason::PASSES,
            });
        }
        if self.quiet >= self.quiet_draw() {
            return Some(Outcome::Draw {
                reason: Reason::NO_PROGRESS,
            });
        }
        None
    }
}
