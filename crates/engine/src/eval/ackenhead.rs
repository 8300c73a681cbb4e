//! Ackenhead chess: material.

use myrmidon_rules::games::ackenhead::{AckenheadKind, AckenheadPosition};
use myrmidon_rules::Player;

use super::weights::kind_name;
use super::{Evaluator, Tunable, Weight};

/// Piece values in centipawns, by kind (the King is never captured: checkmate ends the game).
#[derive(Clone, Debug)]
pub struct AckenheadEval {
    pub values: [(AckenheadKind, i32); 5],
}

impl Tunable for AckenheadEval {
    /// One weight a piece kind, named by the kind (`leo`).
    fn weights(&self) -> Vec<Weight> {
        self.values
            .iter()
            .map(|&(kind, value)| Weight::new(kind_name(kind), value))
            .collect()
    }

    fn set_weight(&mut self, index: usize, value: i32) {
        if let Some((_, v)) = self.values.get_mut(index) {
            *v = value;
        }
    }
}

impl Default for AckenheadEval {
    fn default() -> Self {
        AckenheadEval {
            values: [
                (AckenheadKind::Leo, 700),
                (AckenheadKind::Pao, 450),
                (AckenheadKind::Vao, 300),
                (AckenheadKind::Mao, 300),
                (AckenheadKind::Pawn, 100),
            ],
        }
    }
}

impl Evaluator<AckenheadPosition> for AckenheadEval {
    fn material(&self, pos: &AckenheadPosition, player: Player) -> i32 {
        self.values
            .iter()
            .map(|&(kind, value)| pos.count(player, kind) as i32 * value)
            .sum()
    }

    /// The King (never taken) counts as the most valuable.
    fn piece_value(&self, kind: usize) -> i32 {
        let Some(&kind) = AckenheadKind::ALL.get(kind) else {
            return 0;
        };
        self.values
            .iter()
            .find(|v| v.0 == kind)
            .map_or(10_000, |v| v.1)
    }
}
