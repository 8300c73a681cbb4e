//! How an Ackenhead game ends, from the position alone (repetition is the record's business).

use super::movegen::Counter;
use super::position::*;
use crate::outcome::{Outcome, Reason};

/// The fifty-move rule: 100 plies without a capture or a pawn move.
pub const NO_PROGRESS_PLIES: u32 = 100;

impl AckenheadPosition {
    pub(super) fn position_outcome(&self) -> Option<Outcome> {
        let mut c = Counter(0);
        self.generate(&mut c);
        if c.0 == 0 {
            return Some(if self.in_check(self.side) {
                Outcome::Win {
                    winner: self.side ^ 1,
                    reason: Reason::Checkmate,
                }
            } else {
                Outcome::Draw {
                    reason: Reason::Stalemate,
                }
            });
        }
        if self.halfmove >= NO_PROGRESS_PLIES {
            return Some(Outcome::Draw {
                reason: Reason::NoProgress,
            });
        }
        let kings = self.kinds[KING as usize];
        if self.occupied() == kings && kings.count_ones() == 2 {
            return Some(Outcome::Draw {
                reason: Reason::BareKings,
            });
        }

        None
    }
}
