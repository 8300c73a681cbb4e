//! Epaminondas: material (every stone is alike), advancement rank by rank (the far-row race),
//! phalanx structure (friends side by side along each kind of line), mobility and the move.

use myrmidon_rules::games::epaminondas::{
    Bb, EpaminondasKind, EpaminondasMove, EpaminondasPosition, WHITE,
};
use myrmidon_rules::{PieceSets, Player, Position};

use super::weights::{set_term, term_weights, Term};
use super::{Evaluator, Tunable, Weight};
use crate::players::{Levels, BEGINNER, STRENGTHS};

/// Ranks on the board.
const RANKS: usize = 12;
/// The plies of captures quiescence searches (see `quiescence_plies`).
const QUIESCENCE_PLIES: usize = 8;

#[derive(Clone, Debug)]
pub struct EpaminondasEval {
    /// The value of one stone.
    pub stone: i32,
    /// A stone's bonus by its rank counted from its own home row (`rank.1`, the home row, to
    /// `rank.12`, the far row): the race to the far row.
    pub rank: [i32; RANKS],
    /// Each pair of friends next to each other along a file (`pair.file`), a diagonal
    /// (`pair.diag`) and a rank (`pair.rank`): the phalanxes that move far and capture.
    pub pair_file: i32,
    pub pair_diag: i32,
    pub pair_rank: i32,
    /// Sixteenths of a centipawn a move more than the opponent has (`mobility`).
    pub mobility: i32,
    /// The player to move's bonus (`tempo`): in a race, the move is worth a step.
    pub tempo: i32,
}

impl Default for EpaminondasEval {
    /// Tuned from self-play (docs/engine-measurements.md, "Tuning"): 1 600 games of the search
    /// against itself at 25 ms a move, half result and half search score, not rescaled (a stone
    /// came out at 94). They beat the weights before (670 games at 10 000 nodes, which had beaten
    /// the hand-set ones by 246-152-2) by 211-103 at 50 ms a move.
    fn default() -> Self {
        EpaminondasEval {
            stone: 94,
            rank: [-2, -24, 4, 17, 3, 29, 8, 22, 40, 62, 81, 721],
            pair_file: 7,
            pair_diag: 11,
            pair_rank: 21,
            mobility: 34,
            tempo: 1,
        }
    }
}

/// The weights other than the ranks', in [`Tunable`] order after `stone` and the ranks.
const OTHERS: [Term<EpaminondasEval>; 5] = [
    ("pair.file", |e| &mut e.pair_file),
    ("pair.diag", |e| &mut e.pair_diag),
    ("pair.rank", |e| &mut e.pair_rank),
    ("mobility", |e| &mut e.mobility),
    ("tempo", |e| &mut e.tempo),
];

impl EpaminondasEval {
    /// Everything but material and mobility for the stones `own` of `player`.
    fn structure(&self, own: Bb, player: Player) -> i32 {
        let mut score = 0;
        for r in 0..RANKS {
            // Rank r is the 16-bit field r of the padded layout.
            let field = (own.0[r / 4] >> (16 * (r % 4))) & 0xFFFF;
            let n = field.count_ones() as i32;
            let from_home = if player == WHITE { r } else { RANKS - 1 - r };
            score += n * self.rank[from_home];
        }
        // Padding bits are empty, so shifted sets never pair across the board's sides.
        let file = (own & own.ahead(16)).count() as i32;
        let diag = (own & own.ahead(17)).count() as i32 + (own & own.ahead(15)).count() as i32;
        let rank = (own & own.ahead(1)).count() as i32;
        score + file * self.pair_file + diag * self.pair_diag + rank * self.pair_rank
    }
}

impl Tunable for EpaminondasEval {
    /// `stone`, `rank.1` to `rank.12`, then the others.
    fn weights(&self) -> Vec<Weight> {
        let mut out = vec![Weight::new("stone", self.stone)];
        for (i, &v) in self.rank.iter().enumerate() {
            out.push(Weight::new(format!("rank.{}", i + 1), v));
        }
        out.extend(term_weights(self, &OTHERS));
        out
    }

    fn set_weight(&mut self, index: usize, value: i32) {
        match index {
            0 => self.stone = value,
            i if i <= RANKS => self.rank[i - 1] = value,
            i => set_term(self, &OTHERS, i - 1 - RANKS, value),
        }
    }
}

/// Levels 1–7 of Epaminondas: above the beginner, the generic level 2's search with a falling
/// share of careless moves (a careless move costs more here than in the other games: 450 in
/// 1000 beat 750 by 40-0), then the generic levels 3 and 6 (more nodes gain less here).
const LEVELS: Levels = [
    BEGINNER,
    STRENGTHS[1].careless(700),
    STRENGTHS[1].careless(500),
    STRENGTHS[1].careless(300),
    STRENGTHS[1].careless(100),
    STRENGTHS[2],
    STRENGTHS[5],
];

impl Evaluator<EpaminondasPosition> for EpaminondasEval {
    /// Calibrated by matches, 40 games a pair (docs/engine-measurements.md, "Levels per game").
    fn levels(&self) -> &'static Levels {
        &LEVELS
    }

    fn material(&self, pos: &EpaminondasPosition, player: Player) -> i32 {
        pos.count(player, EpaminondasKind::of(player)) as i32 * self.stone
    }

    fn evaluate(&self, pos: &EpaminondasPosition, player: Player) -> i32 {
        let them = player ^ 1;
        let (own, other) = (pos.pieces_of(player), pos.pieces_of(them));
        let mut score = (own.count() as i32 - other.count() as i32) * self.stone
            + self.structure(own, player)
            - self.structure(other, them);
        if self.mobility != 0 {
            let m = pos.mobility(player) as i32 - pos.mobility(them) as i32;
            score += m * self.mobility / 16;
        }
        if pos.to_move() == player {
            score + self.tempo
        } else {
            score - self.tempo
        }
    }

    /// Reverse futility, late-move and futility pruning: a far-row majority that wins is
    /// searched as a check (`in_danger`), so what is pruned near the leaves is quiet.
    fn forward_pruning(&self) -> bool {
        true
    }

    /// Delta pruning in quiescence with a margin of two stones: captures chain here, and most
    /// of them cannot lift a score far below alpha.
    fn delta_margin(&self) -> Option<i32> {
        Some(2 * self.stone)
    }

    /// A capture that puts a stone on the far row is worth the race, not its victims.
    fn delta_exempt(&self, pos: &EpaminondasPosition, mv: EpaminondasMove) -> bool {
        pos.far_row_gain(mv) > 0
    }

    /// Captures chain without end here (a group that captures can capture again, and so can
    /// the opponent's): unbounded, one ply of the main search cost up to 700 000 nodes of
    /// quiescence 35 plies deep. Eight plies are four captures a side.
    fn quiescence_plies(&self) -> usize {
        QUIESCENCE_PLIES
    }

    /// Captures taken in another order reach the same positions: most capture sequences here.
    fn quiescence_stores(&self) -> bool {
        true
    }

    /// Material only: the one-ply greedy baseline stays a material counter.
    fn greedy_value(&self, pos: &EpaminondasPosition, player: Player) -> i32 {
        self.material(pos, player) - self.material(pos, player ^ 1)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn eval_of(text: &str) -> i32 {
        let pos: EpaminondasPosition = text.parse().unwrap();
        EpaminondasEval::default().evaluate(&pos, pos.to_move())
    }

    #[test]
    fn the_start_is_even_but_for_the_move() {
        let eval = EpaminondasEval::default();
        let pos = EpaminondasPosition::start();
        assert_eq!(eval.evaluate(&pos, 0), eval.tempo);
        assert_eq!(eval.evaluate(&pos, 1), -eval.tempo);
    }

    #[test]
    fn advanced_stones_and_phalanxes_count() {
        // One White stone, one Black: White's near the far row scores more than at home.
        let near = eval_of("B13/14/14/14/14/14/14/14/14/14/14/W13 w");
        let far = eval_of("B13/14/W13/14/14/14/14/14/14/14/14/14 w");
        assert!(far > near, "{far} {near}");
        // Two White stones in a file (a pair) beat the same two stones apart.
        let pair = eval_of("B13/14/14/14/14/14/14/14/14/14/W13/W13 w");
        let apart = eval_of("B13/14/14/14/14/14/14/14/14/14/W13/2W11 w");
        assert!(pair > apart, "{pair} {apart}");
        // Mirror images score alike for their owners.
        let white = eval_of("B13/14/14/14/14/14/14/14/14/W13/W13/14 w");
        let black = eval_of("14/B13/B13/14/14/14/14/14/14/14/14/W13 b");
        assert_eq!(white, black);
    }

    #[test]
    fn the_weights_are_named_and_set_in_order() {
        let mut eval = EpaminondasEval::default();
        let names: Vec<String> = eval.weights().into_iter().map(|w| w.name).collect();
        assert_eq!(names.len(), 1 + RANKS + OTHERS.len());
        assert_eq!(names[12], "rank.12");
        assert_eq!(names.last().map(String::as_str), Some("tempo"));
        for i in 0..names.len() {
            eval.set_weight(i, 1000 + i as i32);
        }
        assert_eq!(eval.stone, 1000);
        assert_eq!(eval.rank[11], 1012);
        assert_eq!(eval.tempo, 1000 + names.len() as i32 - 1);
    }
}
