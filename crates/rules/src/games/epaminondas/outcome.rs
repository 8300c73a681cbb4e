//! How an Epaminondas game ends by the position alone: the crossing rule, checked at the start
//! of a turn, and the loss of a player who cannot move. Repetition is the record's business.

use crate::outcome::{Outcome, Reason};

use super::position::EpaminondasPosition;

/// More pieces on the far row than the opponent has on theirs, at the start of a turn.
pub const CROSSING: Reason = Reason::new("crossing", "by crossing");
/// The player to move has no legal move and loses.
pub const NO_MOVE: Reason = Reason::new("no-move", "by leaving the opponent no move");

/// The reasons an Epaminondas game ends for by its rules.
pub const REASONS: &[Reason] = &[CROSSING, NO_MOVE];

impl EpaminondasPosition {
    /// The result when the player to move has no legal move: the crossing rule decided, or
    /// they cannot move.
    pub fn outcome_without_moves(&self) -> Outcome {
        if self.crossing_win() {
            Outcome::Win {
                winner: self.side,
                reason: CROSSING,
            }
        } else {
            Outcome::Win {
                winner: self.side ^ 1,
                reason: NO_MOVE,
            }
        }
    }
}
