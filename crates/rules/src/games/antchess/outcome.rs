//! How a game of Ant Chess ends.

use crate::outcome::{Outcome, Reason};

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
                0 => {
                    return Some(Outcome::Draw {
                        reason: Reason::NoQueens,
                    })
                }
                1 => {
                    return Some(Outcome::Win {
                        winner: last as u8,
                        reason: Reason::LastQueen,
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
                reason: Reason::Anthill,
            });
        }
        None
    }

    pub(super) fn outcome_by_rule(&self) -> Option<Outcome> {
        if let Some(o) = self.terminal() {
            return Some(o);
        }
        let n = self.players as usize;
        if n == 2 && self.count_moves() == 0 {
            return Some(Outcome::Win {
                winner: 1 - self.to_move,
                reason: Reason::Checkmate,
            });
        }
        if self.passes >= self.pass_draw() {
            return Some(Outcome::Draw {
                reason: Reason::Passes,
            });
        }
        if self.quiet >= self.quiet_draw() {
            return Some(Outcome::Draw {
                reason: Reason::NoProgress,
            });
        }
        None
    }
}
