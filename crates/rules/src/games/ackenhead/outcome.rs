//! How an Ackenhead game ends, from the position alone (repetition is the record's business).

use super::position::*;
use crate::outcome::{Outcome, Reason};

/// The fifty-move rule: 100 plies without a capture or a pawn move.
pub const NO_PROGRESS_PLIES: u32 = 100;

/// Only the two Kings are left.
pub const BARE_KINGS: Reason = Reason::new("bare-kings", "by bare Kings");

/// The reasons an Ackenhead game ends for by its rules.
pub const REASONS: &[Reason] = &[
    Reason::CHECKMATE,
    Reason::STALEMATE,
    Reason::NO_PROGRESS,
    BARE_KINGS,
];

impl AckenheadPosition {
    pub(super) fn draw_by_rule(&self) -> Option<Outcome> {
        if self.halfmove >= NO_PROGRESS_PLIES {
            return Some(Outcome::Draw {
                reason: Reason::NO_PROGRESS,
            });
        }
        let kings = self.kinds[KING as usize];
        if self.occupied() == kings && kings.count_ones() == 2 {
            return Some(Outcome::Draw { reason: BARE_KINGS });
        }
        None
    }

    pub(super) fn outcome_without_moves(&self) -> Outcome {
        if self.in_check(self.side) {
            Outcome::Win {
                winner: self.side ^ 1,
                reason: Reason::CHECKMATE,
            }
        } else {
            Outcome::Draw {
                reason: Reason::STALEMATE,
            }
        }
    }
}
