//! Ant Chess, for two or three players: material, the anthill race (each Queen's distance to
//! the anthill, the pieces near it), the Queen's danger (enemies near her) and shelter (friends
//! beside her), the Warriors' march towards promotion, and mobility.

use std::sync::{LazyLock, OnceLock};

use myrmidon_rules::games::antchess::{
    AntChess2, AntChess3, AntChessKind, AntChessPosition, KINDS, RADIUS,
};
use myrmidon_rules::{CellSet, PieceSets, Player, Position};

use super::terms::{named_weights, with_defaults, Coefficients, Sink, Sum};
use super::weights::kind_name;
use super::{Evaluator, Tunable, Weight};
use crate::games::EngineGame;
use crate::players::{Levels, SearchPolicy, Strength, BEGINNER, STRENGTHS};

/// Cells on the board (a hexagon of side `RADIUS + 1`).
const CELLS: usize = 3 * (RADIUS as usize) * (RADIUS as usize + 1) + 1;
/// Distances from the anthill: 0 to `RADIUS`.
const DISTANCES: usize = RADIUS as usize + 1;

/// Axial coordinates `(q, r)` of every cell in reading order (row `a` first, `r` growing
/// downwards, `q` eastwards; the anthill is `(0, 0)`), as docs/rules/antchess.md numbers them.
fn axial() -> &'static [(i8, i8); CELLS] {
    static AXIAL: OnceLock<[(i8, i8); CELLS]> = OnceLock::new();
    AXIAL.get_or_init(|| {
        let radius = RADIUS as i32;
        let mut out = [(0, 0); CELLS];
        let mut cell = 0;
        for r in -radius..=radius {
            for q in (-radius).max(-r - radius)..=radius.min(-r + radius) {
                out[cell] = (q as i8, r as i8);
                cell += 1;
            }
        }
        debug_assert_eq!(cell, CELLS);
        out
    })
}

/// Hex distance between two cells.
#[inline]
fn distance(a: usize, b: usize) -> i32 {
    let t = axial();
    let (dq, dr) = ((t[a].0 - t[b].0) as i32, (t[a].1 - t[b].1) as i32);
    dq.abs().max(dr.abs()).max((dq + dr).abs())
}

/// The cell of home corner `k` (0 E, 1 NE, 2 NW, 3 W, 4 SW, 5 SE, as `setup` numbers them).
fn corner_cell(k: usize) -> usize {
    let r = RADIUS as i8;
    let want = match k % 6 {
        0 => (r, 0),
        1 => (r, -r),
        2 => (0, -r),
        3 => (-r, 0),
        4 => (-r, r),
        _ => (0, r),
    };
    axial().iter().position(|&c| c == want).unwrap_or(0)
}

/// The cells of a cell set as indices, lowest first.
#[inline]
fn cells(set: u128) -> impl Iterator<Item = usize> {
    set.cells().map(usize::from)
}

// The terms, in weights order; each counts for a player, less the opponents' (see
// `relative`).
/// `queen`, `warrior`, …, `worm` (the rules' order, [`KINDS`]: `kind as usize` is the
/// index): the piece values in centipawns (a Warrior was 100 in the
/// hand-set weights). The Queen's loss ends the game (or the player's part in it), which the
/// search scores; her value here only tells a player who lost her from one who did not.
const T_VALUE: usize = 0;
/// `queen.d0` to `queen.d6`: the Queen's bonus by her distance to the anthill.
const T_QUEEN_DISTANCE: usize = T_VALUE + KINDS.len();
/// `anthill.near`: each own piece other than the Queen within two cells of the anthill.
const T_ANTHILL_NEAR: usize = T_QUEEN_DISTANCE + DISTANCES;
/// `queen.danger`: each enemy piece within two cells of the own Queen (a penalty when
/// positive).
const T_QUEEN_DANGER: usize = T_ANTHILL_NEAR + 1;
/// `queen.shelter`: each own piece next to the own Queen.
const T_QUEEN_SHELTER: usize = T_QUEEN_DANGER + 1;
/// `warrior.advance`: each step a Warrior stands from its home corner.
const T_WARRIOR_ADVANCE: usize = T_QUEEN_SHELTER + 1;
/// `mobility`: sixteenths of a centipawn a legal move.
const T_MOBILITY: usize = T_WARRIOR_ADVANCE + 1;
/// `tempo`: the player to move's bonus.
const T_TEMPO: usize = T_MOBILITY + 1;
/// `leader`: three players: how much the leading opponent counts beyond the opponents' mean,
/// in hundredths of the gap between them (0: both opponents alike; 100: only the leader
/// counts). A player who falls behind both rivals loses to whichever of them wins, so the one
/// further ahead is the one to hold back. No effect with two players.
const T_LEADER: usize = T_TEMPO + 1;
const TERMS: usize = T_LEADER + 1;

/// The weights' names, in order.
fn term_names() -> Vec<String> {
    let mut names: Vec<String> = KINDS.iter().map(|&k| kind_name(k)).collect();
    names.extend((0..DISTANCES).map(|d| format!("queen.d{d}")));
    for name in [
        "anthill.near",
        "queen.danger",
        "queen.shelter",
        "warrior.advance",
        "mobility",
        "tempo",
        "leader",
    ] {
        names.push(name.to_string());
    }
    debug_assert_eq!(names.len(), TERMS);
    names
}

static NAMES: LazyLock<Vec<String>> = LazyLock::new(term_names);

/// The evaluation's weights, one a term. `N` is the number of players: the two games have
/// their own defaults, each tuned from its own self-play (`antchess.weights`,
/// `antchess3.weights`).
#[derive(Clone, Debug)]
pub struct AntChessEval<const N: usize> {
    w: [i32; TERMS],
}

/// The default weights of two and of three players (how they were tuned is in the files).
static DEFAULTS: LazyLock<[[i32; TERMS]; 2]> = LazyLock::new(|| {
    let empty = [0; TERMS];
    [
        with_defaults(
            AntChessEval::<2> { w: empty },
            include_str!("antchess.weights"),
            "antchess.weights",
        )
        .w,
        with_defaults(
            AntChessEval::<3> { w: empty },
            include_str!("antchess3.weights"),
            "antchess3.weights",
        )
        .w,
    ]
});

impl<const N: usize> Default for AntChessEval<N> {
    fn default() -> Self {
        AntChessEval {
            w: DEFAULTS[usize::from(N == 3)],
        }
    }
}

/// The piece values set by hand before any tuning, the baseline players' yardstick.
const HAND_SET_VALUES: [i32; 7] = [2000, 100, 400, 300, 250, 350, 200];

impl<const N: usize> AntChessEval<N> {
    /// `player`'s terms less the opponents': their mean, and the leader's lead over that mean
    /// in `leader` hundredths; then the move.
    fn relative(&self, sides: &[i32; 3], player: usize, to_move: usize) -> i32 {
        let score = if N == 3 {
            let (a, b) = (sides[(player + 1) % 3], sides[(player + 2) % 3]);
            // Twice the mean and twice the gap of the leader over it, to round once.
            let (mean2, gap2) = (a + b, (a - b).abs());
            sides[player] - (mean2 * 100 + gap2 * self.w[T_LEADER]) / 200
        } else {
            sides[player] - sides[1 - player]
        };
        let tempo = self.w[T_TEMPO];
        if to_move == player {
            score + tempo
        } else {
            score - tempo
        }
    }

    /// Every player's terms summed, material included, before the opponents' part is taken
    /// off.
    fn sides(&self, pos: &AntChessPosition<N>) -> [i32; 3] {
        let mut sides = [0; 3];
        for (p, s) in sides.iter_mut().enumerate().take(N) {
            let mut sum = Sum::new(&self.w);
            self.side(pos, p as Player, &mut sum);
            *s = sum.total;
        }
        sides
    }

    /// Everything `player` has, material included.
    fn side(&self, pos: &AntChessPosition<N>, player: Player, sink: &mut impl Sink) {
        for (i, &kind) in KINDS.iter().enumerate() {
            sink.add(T_VALUE + i, pos.count(player, kind) as i32);
        }
        let p = player as usize;
        let own = pos.pieces_of(player);
        let enemies = pos.occupied() & !own;
        let centre = CELLS / 2;
        let queen = pos.queen(p);
        let near = cells(own)
            .filter(|&c| Some(c) != queen && distance(c, centre) <= 2)
            .count();
        sink.add(T_ANTHILL_NEAR, near as i32);
        if let Some(q) = queen {
            let d = distance(q, centre).min(RADIUS as i32) as usize;
            sink.add(T_QUEEN_DISTANCE + d, 1);
            let danger = cells(enemies).filter(|&c| distance(c, q) <= 2).count();
            sink.add(T_QUEEN_DANGER, -(danger as i32));
            let shelter = cells(own).filter(|&c| distance(c, q) == 1).count();
            sink.add(T_QUEEN_SHELTER, shelter as i32);
        }
        if sink.wants(T_WARRIOR_ADVANCE) {
            let home = corner_cell(AntChessPosition::<N>::homes()[p]);
            let steps: i32 = cells(pos.pieces(player, AntChessKind::Warrior))
                .map(|c| distance(c, home))
                .sum();
            sink.add(T_WARRIOR_ADVANCE, steps);
        }
        if sink.wants(T_MOBILITY) {
            sink.add_sixteenths(T_MOBILITY, pos.mobility(player) as i32);
        }
    }
}

impl<const N: usize> Tunable for AntChessEval<N> {
    /// The hand-set piece values of before the tuning (Queen 2000, Warrior 100, Superant 400,
    /// Beetle 300, Grasshopper 250, Ladybird 350, Worm 200) with the other weights the
    /// defaults: the baseline players' fixed yardstick.
    fn baseline() -> Self {
        let mut eval = Self::default();
        eval.w[T_VALUE..T_VALUE + KINDS.len()].copy_from_slice(&HAND_SET_VALUES);
        eval
    }

    /// One weight a piece kind, named by the kind (`queen`), then `queen.d0` to `queen.d6`,
    /// then the other terms.
    fn weights(&self) -> Vec<Weight> {
        named_weights(&NAMES, &self.w)
    }

    fn set_weight(&mut self, index: usize, value: i32) {
        if let Some(w) = self.w.get_mut(index) {
            *w = value;
        }
    }
}

impl<const N: usize> Evaluator<AntChessPosition<N>> for AntChessEval<N> {
    fn material(&self, pos: &AntChessPosition<N>, player: Player) -> i32 {
        KINDS
            .iter()
            .enumerate()
            .map(|(i, &kind)| pos.count(player, kind) as i32 * self.w[T_VALUE + i])
            .sum()
    }

    /// The player's terms less the opponents' (see `relative`), and the move.
    fn evaluate(&self, pos: &AntChessPosition<N>, player: Player) -> i32 {
        self.relative(&self.sides(pos), player as usize, pos.to_move() as usize)
    }

    /// Each player's terms computed once for all (as `evaluate` gives them, three times faster
    /// with three players).
    fn evaluate_all(&self, pos: &AntChessPosition<N>, out: &mut [i32]) {
        let sides = self.sides(pos);
        for (p, v) in out.iter_mut().enumerate().take(N) {
            *v = self.relative(&sides, p, pos.to_move() as usize);
        }
    }

    /// Exact but for the mobility's sixteenths, rounded toward zero on each side, and with
    /// three players the division of the opponents' part by 200 (within two centipawns, three
    /// with three players). With three players `leader` multiplies the gap between the two
    /// opponents, itself a sum of the other weights: its coefficient is that gap as the
    /// weights make it now (the fit holds the gap where it is when it moves `leader`).
    fn linear_terms(&self, pos: &AntChessPosition<N>, player: Player, out: &mut Vec<(u32, f32)>) {
        let p = player as usize;
        let mut counts = Coefficients::new(TERMS);
        self.side(pos, player, &mut counts);
        if N == 3 {
            let sides = self.sides(pos);
            let (a, b) = ((p + 1) % 3, (p + 2) % 3);
            counts.sign = -0.5;
            self.side(pos, a as Player, &mut counts);
            self.side(pos, b as Player, &mut counts);
            let gap2 = (sides[a] - sides[b]).abs();
            counts.add_value(T_LEADER, -(gap2 as f32) / 200.0);
        } else {
            counts.sign = -1.0;
            self.side(pos, (1 - p) as Player, &mut counts);
        }
        counts.sign = 1.0;
        let to_move = pos.to_move() as usize == p;
        counts.add(T_TEMPO, if to_move { 1 } else { -1 });
        counts.write(out);
    }

    fn piece_value(&self, kind: usize) -> i32 {
        if kind < KINDS.len() {
            self.w[T_VALUE + kind]
        } else {
            0
        }
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
        let queen = self.w[T_VALUE];
        let players = N as Player;
        let mut others = 0;
        for p in (0..players).filter(|&p| p != player) {
            others += pos.count(p, AntChessKind::Queen) as i32 * queen;
        }
        pos.count(player, AntChessKind::Queen) as i32 * queen - others / (N as i32 - 1).max(1)
    }
}

/// Levels 1–7 of two-player Ant Chess: above the beginner, the generic level 2's search with a
/// falling share of careless moves, then the generic levels 2 and 5 and rungs between the
/// generic levels 3 and 4 and between 6 and 7 (a doubled node budget gains much here: the
/// generic level 5 beat level 3 by 39-1-0, and level 8 the generic level 6 by 39-0-1).
/// Three-player Ant Chess keeps the generic table.
const LEVELS_2: Levels = [
    BEGINNER,
    STRENGTHS[1].careless(500),
    STRENGTHS[1].careless(150),
    STRENGTHS[1],
    Strength::searching(9_000, 4, 90),
    STRENGTHS[4],
    Strength::searching(45_000, 2, 15),
];

/// No forward pruning (quiet moves toward the anthill win in two), quiescence unbounded.
impl EngineGame for AntChess2 {
    type Eval = AntChessEval<2>;
    const POLICY: SearchPolicy = SearchPolicy::DEFAULT;
    /// Calibrated by matches, 40 games a pair (docs/engine-measurements.md, "Levels per game").
    const LEVELS: &'static Levels = &LEVELS_2;
    const BENCH_POSITIONS: &'static str = include_str!("antchess.bench");
}

/// As with two players; the generic table of levels.
impl EngineGame for AntChess3 {
    type Eval = AntChessEval<3>;
    const POLICY: SearchPolicy = SearchPolicy::DEFAULT;
    const LEVELS: &'static Levels = &STRENGTHS;
    const BENCH_POSITIONS: &'static str = include_str!("antchess3.bench");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::terms::check_linear_terms;

    #[test]
    fn the_geometry_matches_the_rules() {
        // g7 is the anthill, in the middle of the reading order; g1 and g13 are 6 away.
        let centre = CELLS / 2;
        assert_eq!(axial()[centre], (0, 0));
        let g1 = 7 + 8 + 9 + 10 + 11 + 12;
        assert_eq!(distance(g1, centre), 6);
        assert_eq!(distance(g1, g1 + 12), 12);
        assert_eq!(corner_cell(3), g1);
        assert_eq!(corner_cell(0), g1 + 12);
        // a7 (NE corner) and m7 (SE corner).
        assert_eq!(corner_cell(1), 6);
        assert_eq!(corner_cell(5), CELLS - 1);
        // Six neighbours of the anthill.
        assert_eq!((0..CELLS).filter(|&c| distance(c, centre) == 1).count(), 6);
    }

    #[test]
    fn the_start_is_even_but_for_the_move_and_a_queen_nearer_the_anthill_is_better() {
        let eval = AntChessEval::<2>::default();
        let pos = AntChessPosition::<2>::start();
        assert_eq!(eval.evaluate(&pos, 0), eval.w[T_TEMPO]);
        assert_eq!(eval.evaluate(&pos, 1), -eval.w[T_TEMPO]);
        let eval3 = AntChessEval::<3>::default();
        let pos3 = AntChessPosition::<3>::start();
        assert_eq!(eval3.evaluate(&pos3, 0), eval3.w[T_TEMPO]);
        assert_eq!(eval3.evaluate(&pos3, 2), -eval3.w[T_TEMPO]);
        // Black's Queen three steps from the anthill, Red's at home.
        let near: AntChessPosition<2> = "7/8/9/10/11/12/3bQ8rQ/12/11/10/9/8/7 r 0 0 1"
            .parse()
            .unwrap();
        assert!(
            eval.evaluate(&near, 0) > eval.w[T_TEMPO],
            "{}",
            near.to_move()
        );
    }

    #[test]
    fn every_players_evaluation_at_once_is_each_one() {
        let mut eval = AntChessEval::<3>::default();
        eval.w[T_LEADER] = 37;
        let mut rng = myrmidon_rules::rng::Rng::new(9);
        let mut pos = AntChessPosition::<3>::start();
        for _ in 0..200 {
            let mut all = [0; 3];
            eval.evaluate_all(&pos, &mut all);
            for (p, &v) in all.iter().enumerate() {
                assert_eq!(v, eval.evaluate(&pos, p as Player), "{pos}");
            }
            let moves = pos.moves();
            if moves.is_empty() {
                break;
            }
            pos.make_move(moves[rng.below(moves.len())]);
        }
    }

    #[test]
    fn the_weights_are_named_and_set_in_order() {
        let mut eval = AntChessEval::<2>::default();
        let names: Vec<String> = eval.weights().into_iter().map(|w| w.name).collect();
        assert_eq!(names.len(), TERMS);
        assert_eq!(names[7], "queen.d0");
        assert_eq!(names.last().map(String::as_str), Some("leader"));
        for i in 0..names.len() {
            eval.set_weight(i, 1000 + i as i32);
        }
        assert_eq!(eval.w[T_VALUE], 1000);
        assert_eq!(eval.w[T_QUEEN_DISTANCE + 6], 1013);
        assert_eq!(eval.w[T_LEADER], 1000 + names.len() as i32 - 1);
    }

    #[test]
    fn the_leader_term_weighs_the_stronger_opponent() {
        // Black and Red have lost pieces (Black more); Green has all of hers.
        let pos: AntChessPosition<3> = AntChessPosition::<3>::start();
        let mut eval = AntChessEval::<3>::default();
        let mut sides = [0, -300, 500];
        eval.w[T_LEADER] = 0;
        let even = eval.relative(&sides, 0, 1);
        assert_eq!(even, -100 - eval.w[T_TEMPO]);
        eval.w[T_LEADER] = 100;
        // Only the leader counts: 0 - 500.
        assert_eq!(eval.relative(&sides, 0, 1), -500 - eval.w[T_TEMPO]);
        eval.w[T_LEADER] = 50;
        assert_eq!(eval.relative(&sides, 0, 0), -300 + eval.w[T_TEMPO]);
        // The opponents' order does not matter.
        sides.swap(1, 2);
        assert_eq!(eval.relative(&sides, 0, 0), -300 + eval.w[T_TEMPO]);
        // With two players the term does nothing.
        let mut two = AntChessEval::<2>::default();
        let p2 = AntChessPosition::<2>::start();
        let before = two.evaluate(&p2, 0);
        two.w[T_LEADER] = 100;
        assert_eq!(two.evaluate(&p2, 0), before);
        assert_eq!(eval.evaluate(&pos, 0), eval.w[T_TEMPO]);
    }

    #[test]
    fn linear_terms_reproduce_the_evaluation() {
        // Two roundings with two players (the mobility's sixteenths of each side); with three,
        // the opponents' mean and the leader's share of their gap rounded too.
        check_linear_terms::<_, AntChessEval<2>>(&AntChessPosition::<2>::start(), 2.01);
        check_linear_terms::<_, AntChessEval<3>>(&AntChessPosition::<3>::start(), 3.01);
    }
}
