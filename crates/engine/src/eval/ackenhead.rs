//! Ackenhead chess: material.

use myrmidon_rules::games::ackenhead::{AckenheadKind, AckenheadPosition};
use myrmidon_rules::Player;

use super::weights::{kind_weights, material_of, set_kind_weight};
use super::{Evaluator, Tunable, Weight};

/// Piece values in centipawns, by kind (the King is never captured: checkmate ends the game).
#[derive(Clone, Debug)]
pub struct AckenheadEval {
    pub values: [(AckenheadKind, i32); 5],
}

impl Tunable for AckenheadEval {
    /// One weight a piece kind, named by the kind (`leo`).
    fn weights(&self) -> Vec<Weight> {
        kind_weights(&self.values)
    }

    fn set_weight(&mut self, index: usize, value: i32) {
        set_kind_weight(&mut self.values, index, value)
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
        material_of(&self.values, |kind| pos.count(player, kind))
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
