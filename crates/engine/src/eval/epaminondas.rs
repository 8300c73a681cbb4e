//! Epaminondas: material (every stone is alike), advancement rank by rank (the far-row race),
//! phalanx structure (friends side by side along each kind of line), mobility and the move.

use std::sync::LazyLock;

use myrmidon_rules::games::epaminondas::{
    Bb, Epaminondas, EpaminondasKind, EpaminondasMove, EpaminondasPosition, WHITE,
};
use myrmidon_rules::{PieceSets, Player, Position};

use super::terms::{named_weights, with_defaults, Coefficients, Sink, Sum};
use super::{Evaluator, Tunable, Weight};
use crate::games::EngineGame;
use crate::players::{DeltaMargin, Levels, QuiescenceTable, SearchPolicy, BEGINNER, STRENGTHS};

/// Ranks on the board.
const RANKS: usize = 12;

// The terms, in weights order.
/// `stone`: the value of one stone.
const T_STONE: usize = 0;
/// `rank.1` (the home row) to `rank.12` (the far row): a stone's bonus by its rank counted
/// from its own home row: the race to the far row.
const T_RANK: usize = T_STONE + 1;
/// `pair.file`, `pair.diag`, `pair.rank`: each pair of friends next to each other along a
/// file, a diagonal and a rank: the phalanxes that move far and capture.
const T_PAIR_FILE: usize = T_RANK + RANKS;
const T_PAIR_DIAG: usize = T_PAIR_FILE + 1;
const T_PAIR_RANK: usize = T_PAIR_DIAG + 1;
/// `mobility`: sixteenths of a centipawn a move more than the opponent has.
const T_MOBILITY: usize = T_PAIR_RANK + 1;
/// `tempo`: the player to move's bonus (in a race, the move is worth a step).
const T_TEMPO: usize = T_MOBILITY + 1;
/// `pst.<square>`: a stone on a square seen from its own home row (ranks counted from it), the
/// board folded on its middle file (the rules are the same mirrored left-right), so that a
/// square and its mirror share a weight, named by the one on files a to g: `pst.a1` for a1
/// and n1 (rank 12 for Black). On top of `rank.<r>`, which it refines file by file.
const T_PST: usize = T_TEMPO + 1;
/// Files on the board, and files of the folded piece-square table.
const FILES: usize = 14;
const PST_FILES: usize = FILES / 2;
/// Squares of the piece-square table.
const PST_SQUARES: usize = PST_FILES * RANKS;
const TERMS: usize = T_PST + PST_SQUARES;

/// The piece-square table's index of the padded index `i` (`rank * 16 + file`) for `player`:
/// ranks counted from the player's home row, files folded on the middle of the board.
const fn pst_square(i: usize, player: usize) -> usize {
    let (rank, file) = (i >> 4, i & 15);
    let from_home = if player == WHITE as usize {
        rank
    } else {
        RANKS - 1 - rank
    };
    let folded = if file < PST_FILES {
        file
    } else {
        FILES - 1 - file
    };
    from_home * PST_FILES + folded
}

/// [`pst_square`] for both players and every padded index on the board (0 off it).
static PST_INDEX: [[u8; 16 * RANKS]; 2] = {
    let mut t = [[0u8; 16 * RANKS]; 2];
    let mut p = 0;
    while p < 2 {
        let mut i = 0;
        while i < 16 * RANKS {
            if i & 15 < FILES {
                t[p][i] = pst_square(i, p) as u8;
            }
            i += 1;
        }
        p += 1;
    }
    t
};

/// The weights' names, in order.
fn term_names() -> Vec<String> {
    let mut names = vec!["stone".to_string()];
    names.extend((1..=RANKS).map(|r| format!("rank.{r}")));
    for name in ["pair.file", "pair.diag", "pair.rank", "mobility", "tempo"] {
        names.push(name.to_string());
    }
    for rank in 1..=RANKS {
        for file in 0..PST_FILES as u8 {
            names.push(format!("pst.{}{rank}", (b'a' + file) as char));
        }
    }
    debug_assert_eq!(names.len(), TERMS);
    names
}

static NAMES: LazyLock<Vec<String>> = LazyLock::new(term_names);

/// The evaluation's weights, one a term.
#[derive(Clone, Debug)]
pub struct EpaminondasEval {
    w: [i32; TERMS],
}

/// The default weights (how they were tuned is in the file).
static DEFAULT: LazyLock<EpaminondasEval> = LazyLock::new(|| {
    with_defaults(
        EpaminondasEval { w: [0; TERMS] },
        include_str!("epaminondas.weights"),
        "epaminondas.weights",
    )
});

impl Default for EpaminondasEval {
    fn default() -> Self {
        DEFAULT.clone()
    }
}

impl EpaminondasEval {
    /// The terms of the position for `player`: their stones' less the opponent's.
    fn terms_of(&self, pos: &EpaminondasPosition, player: Player, sink: &mut impl Sink) {
        let them = player ^ 1;
        let (own, other) = (pos.pieces_of(player), pos.pieces_of(them));
        sink.add(T_STONE, own.count() as i32 - other.count() as i32);
        Self::structure(own, player, 1, sink);
        Self::structure(other, them, -1, sink);
        if sink.wants(T_MOBILITY) {
            let m = pos.mobility(player) as i32 - pos.mobility(them) as i32;
            sink.add_sixteenths(T_MOBILITY, m);
        }
        sink.add(T_TEMPO, if pos.to_move() == player { 1 } else { -1 });
    }

    /// The ranks and the pairs of the stones `own` of `player`, counted `sign` times.
    #[inline(always)]
    fn structure(own: Bb, player: Player, sign: i32, sink: &mut impl Sink) {
        for r in 0..RANKS {
            // Rank r is the 16-bit field r of the padded layout.
            let field = (own.0[r / 4] >> (16 * (r % 4))) & 0xFFFF;
            let n = field.count_ones() as i32;
            let from_home = if player == WHITE { r } else { RANKS - 1 - r };
            sink.add(T_RANK + from_home, sign * n);
        }
        // Padding bits are empty, so shifted sets never pair across the board's sides.
        let file = (own & own.ahead(16)).count() as i32;
        let diag = (own & own.ahead(17)).count() as i32 + (own & own.ahead(15)).count() as i32;
        let rank = (own & own.ahead(1)).count() as i32;
        sink.add(T_PAIR_FILE, sign * file);
        sink.add(T_PAIR_DIAG, sign * diag);
        sink.add(T_PAIR_RANK, sign * rank);
        let table = &PST_INDEX[(player & 1) as usize];
        own.for_each(|i| sink.add(T_PST + table[i as usize] as usize, sign));
    }
}

impl Tunable for EpaminondasEval {
    /// `stone`, `rank.1` to `rank.12`, `pair.file`, `pair.diag`, `pair.rank`, `mobility`,
    /// `tempo`, `pst.a1` to `pst.g12` (rank by rank).
    fn weights(&self) -> Vec<Weight> {
        named_weights(&NAMES, &self.w)
    }

    fn set_weight(&mut self, index: usize, value: i32) {
        if let Some(w) = self.w.get_mut(index) {
            *w = value;
        }
    }
}

impl Evaluator<EpaminondasPosition> for EpaminondasEval {
    fn material(&self, pos: &EpaminondasPosition, player: Player) -> i32 {
        pos.count(player, EpaminondasKind::of(player)) as i32 * self.w[T_STONE]
    }

    fn evaluate(&self, pos: &EpaminondasPosition, player: Player) -> i32 {
        let mut sum = Sum::new(&self.w);
        self.terms_of(pos, player, &mut sum);
        sum.total
    }

    /// Exact but for the mobility's sixteenths, rounded toward zero (within a centipawn).
    fn linear_terms(&self, pos: &EpaminondasPosition, player: Player, out: &mut Vec<(u32, f32)>) {
        let mut counts = Coefficients::new(TERMS);
        self.terms_of(pos, player, &mut counts);
        counts.write(out);
    }

    /// A capture that puts a stone on the far row is worth the race, not its victims.
    fn delta_exempt(&self, pos: &EpaminondasPosition, mv: EpaminondasMove) -> bool {
        pos.far_row_gain(mv) > 0
    }

    /// The landing square and the direction: every group that lands there along that line
    /// takes the same enemy stones; they differ only in how many of their own stones move up.
    fn capture_key(&self, _pos: &EpaminondasPosition, mv: EpaminondasMove) -> Option<u32> {
        if !mv.is_capture() {
            return None;
        }
        let (tail, land) = (mv.tail_cell() as i32, mv.landing_cell() as i32);
        let (dr, df) = (
            (land / 14 - tail / 14).signum(),
            (land % 14 - tail % 14).signum(),
        );
        Some((land as u32) << 4 | ((dr + 1) * 3 + df + 1) as u32)
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

    /// A move that puts the mover ahead in the crossing race (more stones on the far row than
    /// the opponent has on theirs): pruned as a quiet move, it hid the crossings that decide
    /// the game.
    fn threatens(&self, pos: &EpaminondasPosition, mv: EpaminondasMove) -> bool {
        if pos.far_row_gain(mv) <= 0 {
            return false;
        }
        let mut next = pos.clone();
        next.make_move(mv);
        self.in_danger(&next)
    }

    /// Behind in the crossing race, only a capture (which may take stones off the opponent's far
    /// row) or a move adding to the mover's own far row can stop the opponent's crossing win.
    fn may_answer_danger(&self, pos: &EpaminondasPosition, mv: EpaminondasMove) -> bool {
        mv.is_capture() || pos.far_row_gain(mv) > 0
    }

    /// A crossing won, or no move left.
    fn cheaply_over(&self, pos: &EpaminondasPosition) -> bool {
        !pos.has_legal_move()
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

impl EngineGame for Epaminondas {
    type Eval = EpaminondasEval;
    /// Forward pruning: a far-row majority that wins is searched as a check (`in_danger`), so
    /// what is pruned near the leaves is quiet. Delta pruning with a margin of two stones:
    /// captures chain here, and most of them cannot lift a score far below alpha. Quiescence
    /// eight plies deep, four captures a side: captures chain without end here (a group that
    /// captures can capture again, and so can the opponent's), and unbounded, one ply of the
    /// main search cost up to 700 000 nodes of quiescence 35 plies deep. It stores its results
    /// in the table: captures taken in another order reach the same positions (most capture
    /// sequences here).
    const POLICY: SearchPolicy = SearchPolicy {
        forward_pruning: true,
        delta_margin: DeltaMargin::Weights {
            name: "stone",
            times: 2,
        },
        quiescence_plies: 8,
        quiescence_table: QuiescenceTable::ReadWrite,
        capture_history: false,
    };
    /// Calibrated by matches, 40 games a pair (docs/engine-measurements.md, "Levels per game").
    const LEVELS: &'static Levels = &LEVELS;
    const BENCH_POSITIONS: &'static str = include_str!("epaminondas.bench");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::terms::check_linear_terms;

    fn eval_of(text: &str) -> i32 {
        let pos: EpaminondasPosition = text.parse().unwrap();
        EpaminondasEval::default().evaluate(&pos, pos.to_move())
    }

    #[test]
    fn the_start_is_even_but_for_the_move() {
        let eval = EpaminondasEval::default();
        let pos = EpaminondasPosition::start();
        assert_eq!(eval.evaluate(&pos, 0), eval.w[T_TEMPO]);
        assert_eq!(eval.evaluate(&pos, 1), -eval.w[T_TEMPO]);
    }

    #[test]
    fn advanced_stones_and_phalanxes_count() {
        // One White stone, one Black: White's near the far row scores more than at home.
        let near = eval_of("B13/14/14/14/14/14/14/14/14/14/14/W13 w");
        let far = eval_of("B13/14/W13/14/14/14/14/14/14/14/14/14 w");
        assert!(far > near, "{far} {near}");
        // Two White stones in a file (a pair) beat the same two stones apart (the squares'
        // own values, which differ, left out).
        let mut no_table = EpaminondasEval::default();
        for i in T_PST..TERMS {
            no_table.set_weight(i, 0);
        }
        let eval_without_table = |text: &str| {
            let pos: EpaminondasPosition = text.parse().unwrap();
            no_table.evaluate(&pos, pos.to_move())
        };
        let pair = eval_without_table("B13/14/14/14/14/14/14/14/14/14/W13/W13 w");
        let apart = eval_without_table("B13/14/14/14/14/14/14/14/14/14/W13/2W11 w");
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
        assert_eq!(names.len(), TERMS);
        assert_eq!(names[12], "rank.12");
        assert_eq!(names[T_TEMPO], "tempo");
        assert_eq!(names.last().map(String::as_str), Some("pst.g12"));
        for i in 0..names.len() {
            eval.set_weight(i, 1000 + i as i32);
        }
        assert_eq!(eval.w[T_STONE], 1000);
        assert_eq!(eval.w[T_RANK + 11], 1012);
        assert_eq!(eval.w[T_TEMPO], 1000 + T_TEMPO as i32);
        assert_eq!(eval.w[TERMS - 1], 1000 + names.len() as i32 - 1);
    }

    #[test]
    fn groups_taking_the_same_line_share_a_capture_key() {
        // White a1, a2, a3 under a Black stone on a4: the groups a2-a3 and a1-a3 both take a4
        // (a single stone cannot); Black's h12 keeps the game going.
        let pos: EpaminondasPosition = "7B6/14/14/14/14/14/14/14/B13/W13/W13/W13 w"
            .parse()
            .unwrap();
        let eval = EpaminondasEval::default();
        let mut moves = Vec::new();
        pos.generate_tactical_into(&mut moves);
        let captures: Vec<_> = moves.iter().filter(|m| m.is_capture()).collect();
        assert_eq!(captures.len(), 2, "{captures:?}");
        assert_ne!(captures[0].size(), captures[1].size());
        let keys: Vec<_> = captures
            .iter()
            .map(|&&m| eval.capture_key(&pos, m))
            .collect();
        assert!(keys[0].is_some());
        assert_eq!(keys[0], keys[1]);
        // A plain move is no capture.
        let mut all = Vec::new();
        pos.generate_into(&mut all);
        let plain = all.iter().find(|m| !m.is_capture()).unwrap();
        assert_eq!(eval.capture_key(&pos, *plain), None);
    }

    #[test]
    fn the_piece_square_table_folds_the_board_left_right_and_by_owner() {
        let mut seen = [false; PST_SQUARES];
        for rank in 0..RANKS {
            for file in 0..FILES {
                let i = rank * 16 + file;
                let k = pst_square(i, 0);
                assert!(k < PST_SQUARES);
                seen[k] = true;
                // The file mirrored shares the weight; Black sees the ranks turned round.
                assert_eq!(pst_square(rank * 16 + FILES - 1 - file, 0), k, "{i}");
                assert_eq!(pst_square((RANKS - 1 - rank) * 16 + file, 1), k, "{i}");
                assert_eq!(PST_INDEX[0][i] as usize, k);
            }
        }
        assert!(seen.iter().all(|&s| s), "every weight has a square");
        let names = term_names();
        assert_eq!(names[T_PST], "pst.a1");
        assert_eq!(names[T_PST + pst_square(16 + 13, 0)], "pst.a2");
        assert_eq!(names[T_PST + pst_square(11 * 16 + 6, 0)], "pst.g12");
        assert_eq!(names[T_PST + pst_square(11 * 16 + 6, 1)], "pst.g1");
        assert_eq!(names[TERMS - 1], "pst.g12");
    }

    #[test]
    fn a_position_and_its_colour_mirrored_twin_score_alike() {
        // Every weight set apart, so that no term can hide behind another.
        let mut eval = EpaminondasEval::default();
        for i in 0..TERMS {
            eval.set_weight(i, 3 + 7 * i as i32);
        }
        let pos: EpaminondasPosition = "B2BB9/1B7B4/14/3B10/14/5W8/14/14/2W11/14/W5WW6/WW12 w"
            .parse()
            .unwrap();
        // Black's stones where White's were, ranks turned round, and the other to move.
        let twin: EpaminondasPosition = "BB12/B5BB6/14/2B11/14/14/5B8/14/3W10/14/1W7W4/W2WW9 b"
            .parse()
            .unwrap();
        assert_eq!(eval.evaluate(&pos, 0), eval.evaluate(&twin, 1));
        assert_eq!(eval.evaluate(&pos, 1), eval.evaluate(&twin, 0));
        // And mirrored left-right too.
        let flipped: EpaminondasPosition = "9BB2B/4B7B1/14/10B3/14/8W5/14/14/11W2/14/6WW5W/12WW w"
            .parse()
            .unwrap();
        assert_eq!(eval.evaluate(&pos, 0), eval.evaluate(&flipped, 0));
    }

    #[test]
    fn linear_terms_reproduce_the_evaluation() {
        // One rounding: the mobility's sixteenths.
        check_linear_terms::<_, EpaminondasEval>(&EpaminondasPosition::start(), 1.01);
    }

    #[test]
    fn a_move_ahead_in_the_crossing_race_is_a_threat() {
        let eval = EpaminondasEval::default();
        let pos: EpaminondasPosition = "14/W13/14/14/14/14/14/13B/14/W13/14/14 w".parse().unwrap();
        let threat = |mv: &str| eval.threatens(&pos, pos.parse_move(mv).unwrap());
        // To the far row with the opponent's empty: a crossing next turn unless answered.
        assert!(threat("a11-a12"));
        assert!(!threat("a3-a4"));
    }
}
