//! Epaminondas: material (every stone is alike).

use myrmidon_rules::games::epaminondas::{EpaminondasKind, EpaminondasPosition};
use myrmidon_rules::Player;

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
}
