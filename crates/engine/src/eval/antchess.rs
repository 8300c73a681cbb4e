//! Ant Chess, for two or three players: material.

use myrmidon_rules::games::antchess::{AntChessKind, AntChessPosition};
use myrmidon_rules::Player;

use super::Evaluator;

/// Piece values in centipawns (a Warrior is 100), by kind. The Queen's loss ends the game
/// (or the player's part in it), which the search scores; her value here only tells a player
/// who lost her from one who did not.
#[derive(Clone, Debug)]
pub struct AntChessEval {
    pub values: [(AntChessKind, i32); 7],
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
        self.values
            .iter()
            .map(|&(kind, value)| pos.count(player, kind) as i32 * value)
            .sum()
    }
}
