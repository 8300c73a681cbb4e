//! How an Epaminondas game ends by the position alone: the crossing rule, checked at the start
//! of a turn, and the loss of a player who cannot move. Repetition is the record's business.

use crate::outcome::{Outcome, Reason};

use super::position::EpaminondasPosition;

impl EpaminondasPosition {
    /// The outcome decided by this position, or `None` if play goes on.
    pub fn decided(&self) -> Option<Outcome> {
        if self.crossing_win() {
            return Some(Outcome::Win {
                winner: self.side,
                reason: Reason::Crossing,
            });
        }
        if self.count_moves() == 0 {
            return Some(Outcome::Win {
                winner: self.side ^ 1,
                reason: Reason::NoLegalMove,
            });
        }
        None
    }
}
