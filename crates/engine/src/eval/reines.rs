//! Jeu de Reines: material.

use myrmidon_rules::games::reines::{ReinesKind, ReinesPosition};
use myrmidon_rules::Player;

use super::weights::{kind_weights, material_of, set_kind_weight};
use super::{Evaluator, Tunable, Weight};

/// Piece values in centipawns (a Worker is 100). Capturing a Queen ends the game, which the
/// search scores.
#[derive(Clone, Debug)]
pub struct ReinesEval {
    pub values: [(ReinesKind, i32); 3],
}

impl Tunable for ReinesEval {
    /// One weight a piece kind, named by the kind (`counsellor`).
    fn weights(&self) -> Vec<Weight> {
        kind_weights(&self.values)
    }

    fn set_weight(&mut self, index: usize, value: i32) {
        set_kind_weight(&mut self.values, index, value)
    }
}

impl Default for ReinesEval {
    fn default() -> Self {
        ReinesEval {
            values: [
                (ReinesKind::Counsellor, 300),
                (ReinesKind::Soldier, 200),
                (ReinesKind::Worker, 100),
            ],
        }
    }
}

impl Evaluator<ReinesPosition> for ReinesEval {
    fn material(&self, pos: &ReinesPosition, player: Player) -> i32 {
        material_of(&self.values, |kind| pos.count(player, kind))
    }

    /// The Queen (whose capture wins) counts as the most valuable.
    fn piece_value(&self, kind: usize) -> i32 {
        let Some(&kind) = ReinesKind::ALL.get(kind) else {
            return 0;
        };
        self.values
            .iter()
            .find(|v| v.0 == kind)
            .map_or(10_000, |v| v.1)
    }
}
