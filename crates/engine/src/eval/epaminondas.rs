//! Epaminondas: material (every stone is alike).

use myrmidon_rules::games::epaminondas::{EpaminondasKind, EpaminondasPosition};
use myrmidon_rules::{Player, Position};

use super::{Evaluator, Tunable, Weight};

#[derive(Clone, Debug)]
pub struct EpaminondasEval {
    /// The value of one stone.
    pub stone: i32,
}

impl Default for EpaminondasEval {
    fn default() -> Self {
        EpaminondasEval { stone: 100 }
    }
}

impl Tunable for EpaminondasEval {
    fn weights(&self) -> Vec<Weight> {
        vec![Weight::new("stone", self.stone)]
    }

    fn set_weight(&mut self, index: usize, value: i32) {
        if index == 0 {
            self.stone = value;
        }
    }
}

impl Evaluator<EpaminondasPosition> for EpaminondasEval {
    fn material(&self, pos: &EpaminondasPosition, player: Player) -> i32 {
        pos.count(player, EpaminondasKind::of(player)) as i32 * self.stone
    }

    /// The opponent has more pieces on their far row than the mover on theirs: unless the
    /// mover changes that now, the opponent wins by crossing at the start of their turn.
    fn in_danger(&self, pos: &EpaminondasPosition) -> bool {
        let me = pos.to_move();
        pos.far_row_count(me ^ 1) > pos.far_row_count(me)
    }

    /// A crossing won, or no move left.
    fn cheaply_over(&self, pos: &EpaminondasPosition) -> bool {
        !pos.has_legal_move()
    }
}
