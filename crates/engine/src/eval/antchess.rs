//! Ant Chess, for two or three players: material.

use myrmidon_rules::games::antchess::{AntChessKind, AntChessPosition};
use myrmidon_rules::Player;

use super::weights::{kind_weights, material_of, set_kind_weight};
use super::{Evaluator, Tunable, Weight};

/// Piece values in centipawns (a Warrior is 100), by kind. The Queen's loss ends the game
/// (or the player's part in it), which the search scores; her value here only tells a player
/// who lost her from one who did not.
#[derive(Clone, Debug)]
pub struct AntChessEval {
    pub values: [(AntChessKind, i32); 7],
}

impl Tunable for AntChessEval {
    /// One weight a piece kind, named by the kind (`queen`).
    fn weights(&self) -> Vec<Weight> {
        kind_weights(&self.values)
    }

    fn set_weight(&mut self, index: usize, value: i32) {
        set_kind_weight(&mut self.values, index, value)
    }
}

impl Default for AntChessEval {
    fn default() -> Self {
        AntChessEval {
            values: [
                (AntChessKind::Queen, 2000),
                (AntChessKind::Warrior, 100),
                (AntChessKind::Superant, 400),
                (AntChessKind::Beetle, 300),
                (AntChessKind::Grasshopper, 250),
                (AntChessKind::Ladybird, 350),
                (AntChessKind::Worm, 200),
            ],
        }
    }
}

impl<const N: usize> Evaluator<AntChessPosition<N>> for AntChessEval {
    fn material(&self, pos: &AntChessPosition<N>, player: Player) -> i32 {
        material_of(&self.values, |kind| pos.count(player, kind))
    }

    fn piece_value(&self, kind: usize) -> i32 {
        self.values
            .iter()
            .find(|v| v.0 as usize == kind)
            .map_or(0, |v| v.1)
    }

    /// Only Queens count for the greedy player. Ant Chess is a race to the anthill: a piece
    /// taken at one ply, without looking at the replies, mostly clears the way (and the
    /// anthill's attackers) for every rival Queen, and the move spent on it is a move the
    /// taker's Queen did not make. Measured (`myrmidon match antchess3 --engine builtin=greedy
    /// --engine builtin=random --engine builtin=random --games 600 --seed 2`): counting every
    /// piece, greedy scored 0.309 points a game against 0.342 and 0.349 for the random
    /// players; counting Queens only (and not passing when it can move), 0.558 against 0.203
    /// and 0.239.
    fn greedy_value(&self, pos: &AntChessPosition<N>, player: Player) -> i32 {
        let queen = self.values[0].1;
        let players = N as Player;
        let mut others = 0;
        for p in (0..players).filter(|&p| p != player) {
            others += pos.count(p, AntChessKind::Queen) as i32 * queen;
        }
        pos.count(player, AntChessKind::Queen) as i32 * queen - others / (N as i32 - 1).max(1)
    }
}
