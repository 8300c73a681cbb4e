//! Ant Chess, for two or three players: material, the anthill race (each Queen's distance to
//! the anthill, the pieces near it), the Queen's danger (enemies near her) and shelter (friends
//! beside her), the Warriors' march towards promotion, and mobility.

use std::sync::OnceLock;

use myrmidon_rules::games::antchess::{AntChessKind, AntChessPosition, RADIUS};
use myrmidon_rules::{CellSet, PieceSets, Player, Position};

use super::weights::{kind_weights, material_of, set_kind_weight, set_term, term_weights, Term};
use super::{Evaluator, Tunable, Weight};
use crate::players::{Levels, Strength, BEGINNER, STRENGTHS};

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

/// Piece values in centipawns (a Warrior was 100 in the hand-set weights; the tuned defaults
/// have 48 with two players and 94 with three), by kind, then the positional terms. The
/// Queen's loss ends the game (or the player's part in it), which the search scores; her value
/// here only tells a player who lost her from one who did not.
///
/// `N` is the number of players: the two games have their own defaults, each tuned from its
/// own self-play (see docs/engine-measurements.md, "Tuning").
#[derive(Clone, Debug)]
pub struct AntChessEval<const N: usize> {
    pub values: [(AntChessKind, i32); 7],
    /// The Queen's bonus by her distance to the anthill, 0 to 6 (`queen.d0` … `queen.d6`).
    pub queen_distance: [i32; DISTANCES],
    /// Each own piece other than the Queen within two cells of the anthill.
    pub anthill_near: i32,
    /// Each enemy piece within two cells of the own Queen (a penalty when positive).
    pub queen_danger: i32,
    /// Each own piece next to the own Queen.
    pub queen_shelter: i32,
    /// Each step a Warrior stands from its home corner.
    pub warrior_advance: i32,
    /// Sixteenths of a centipawn a legal move.
    pub mobility: i32,
    /// The player to move's bonus.
    pub tempo: i32,
    /// Three players: how much the leading opponent counts beyond the opponents' mean, in
    /// hundredths of the gap between them (0: both opponents alike; 100: only the leader
    /// counts). A player who falls behind both rivals loses to whichever of them wins, so the
    /// one further ahead is the one to hold back. No effect with two players.
    pub leader: i32,
}

impl<const N: usize> AntChessEval<N> {
    /// The weights after the piece values and the Queen's distances, in [`Tunable`] order.
    const OTHERS: [Term<Self>; 7] = [
        ("anthill.near", |e| &mut e.anthill_near),
        ("queen.danger", |e| &mut e.queen_danger),
        ("queen.shelter", |e| &mut e.queen_shelter),
        ("warrior.advance", |e| &mut e.warrior_advance),
        ("mobility", |e| &mut e.mobility),
        ("tempo", |e| &mut e.tempo),
        ("leader", |e| &mut e.leader),
    ];

    /// `player`'s terms less the opponents': their mean, and the leader's lead over that mean
    /// in `leader` hundredths; then the move.
    fn relative(&self, sides: &[i32; 3], player: usize, to_move: usize) -> i32 {
        let score = if N == 3 {
            let (a, b) = (sides[(player + 1) % 3], sides[(player + 2) % 3]);
            // Twice the mean and twice the gap of the leader over it, to round once.
            let (mean2, gap2) = (a + b, (a - b).abs());
            sides[player] - (mean2 * 100 + gap2 * self.leader) / 200
        } else {
            sides[player] - sides[1 - player]
        };
        if to_move == player {
            score + self.tempo
        } else {
            score - self.tempo
        }
    }

    /// Everything `player` has, material included, before the opponents' part is taken off.
    fn side(&self, pos: &AntChessPosition<N>, player: Player) -> i32 {
        let mut score = self.material(pos, player);
        let p = player as usize;
        let own = pos.pieces_of(player);
        let enemies = pos.occupied() & !own;
        let centre = CELLS / 2;
        let queen = pos.queen(p);
        for c in cells(own) {
            if Some(c) != queen && distance(c, centre) <= 2 {
                score += self.anthill_near;
            }
        }
        if let Some(q) = queen {
            score += self.queen_distance[distance(q, centre).min(RADIUS as i32) as usize];
            for c in cells(enemies) {
                if distance(c, q) <= 2 {
                    score -= self.queen_danger;
                }
            }
            for c in cells(own) {
                if distance(c, q) == 1 {
                    score += self.queen_shelter;
                }
            }
        }
        if self.warrior_advance != 0 {
            let home = corner_cell(AntChessPosition::<N>::homes()[p]);
            for c in cells(pos.pieces(player, AntChessKind::Warrior)) {
                score += self.warrior_advance * distance(c, home);
            }
        }
        if self.mobility != 0 {
            score += pos.mobility(player) as i32 * self.mobility / 16;
        }
        score
    }
}

impl<const N: usize> Tunable for AntChessEval<N> {
    /// The hand-set piece values of before the tuning (Queen 2000, Warrior 100, Superant 400,
    /// Beetle 300, Grasshopper 250, Ladybird 350, Worm 200): the baseline players' fixed
    /// yardstick.
    fn baseline() -> Self {
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
            ..Self::default()
        }
    }

    /// One weight a piece kind, named by the kind (`queen`), then `queen.d0` to `queen.d6`,
    /// then the other terms.
    fn weights(&self) -> Vec<Weight> {
        let mut out = kind_weights(&self.values);
        for (d, &v) in self.queen_distance.iter().enumerate() {
            out.push(Weight::new(format!("queen.d{d}"), v));
        }
        out.extend(term_weights(self, &Self::OTHERS));
        out
    }

    fn set_weight(&mut self, index: usize, value: i32) {
        let kinds = self.values.len();
        if index < kinds {
            set_kind_weight(&mut self.values, index, value)
        } else if index < kinds + DISTANCES {
            self.queen_distance[index - kinds] = value;
        } else {
            set_term(self, &Self::OTHERS, index - kinds - DISTANCES, value)
        }
    }
}

impl<const N: usize> Default for AntChessEval<N> {
    /// Each tuned from its own self-play (docs/engine-measurements.md, "Tuning"; half result and half
    /// search score as labels). Two players: 386 games of the search at 5 000 nodes a move;
    /// 162-33-5 against the hand-set weights (Queen 2000, Warrior 100, Superant 400, Beetle
    /// 300, Grasshopper 250, Ladybird 350, Worm 200, the Queen's distance 300 150 90 50 25 10
    /// 0, near 10, danger 15, shelter 5, advance 3, mobility 8, tempo 10) at 5 000 nodes.
    /// Three players: 239 games of best-reply search at 3 000 nodes a move; one player with
    /// them scored 0.439 points a game against two with the hand-set weights (0.333 is even)
    /// over 120 games in the six seat orders.
    fn default() -> Self {
        if N == 3 {
            return AntChessEval {
                values: [
                    (AntChessKind::Queen, 1208),
                    (AntChessKind::Warrior, 94),
                    (AntChessKind::Superant, 136),
                    (AntChessKind::Beetle, 330),
                    (AntChessKind::Grasshopper, 210),
                    (AntChessKind::Ladybird, 134),
                    (AntChessKind::Worm, 200),
                ],
                queen_distance: [300, 114, -30, -48, -76, -51, -36],
                anthill_near: 34,
                queen_danger: 53,
                queen_shelter: 47,
                warrior_advance: -3,
                mobility: 16,
                tempo: -84,
                leader: 40,
            };
        }
        AntChessEval {
            values: [
                (AntChessKind::Queen, 2000),
                (AntChessKind::Warrior, 48),
                (AntChessKind::Superant, 456),
                (AntChessKind::Beetle, 237),
                (AntChessKind::Grasshopper, 283),
                (AntChessKind::Ladybird, 221),
                (AntChessKind::Worm, 241),
            ],
            queen_distance: [300, 226, 159, 89, 50, -30, -4],
            anthill_near: 22,
            queen_danger: 31,
            queen_shelter: 28,
            warrior_advance: 4,
            mobility: 69,
            tempo: 10,
            leader: 0,
        }
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

impl<const N: usize> Evaluator<AntChessPosition<N>> for AntChessEval<N> {
    /// Calibrated by matches, 40 games a pair (docs/engine-measurements.md, "Levels per game"); with three
    /// players the generic table.
    fn levels(&self) -> &'static Levels {
        if N == 2 {
            &LEVELS_2
        } else {
            &STRENGTHS
        }
    }

    fn material(&self, pos: &AntChessPosition<N>, player: Player) -> i32 {
        material_of(&self.values, |kind| pos.count(player, kind))
    }

    /// The player's terms less the opponents' (see `relative`), and the move.
    fn evaluate(&self, pos: &AntChessPosition<N>, player: Player) -> i32 {
        let mut sides = [0; 3];
        for (p, s) in sides.iter_mut().enumerate().take(N) {
            *s = self.side(pos, p as Player);
        }
        self.relative(&sides, player as usize, pos.to_move() as usize)
    }

    /// Each player's terms computed once for all (as `evaluate` gives them, three times faster
    /// with three players).
    fn evaluate_all(&self, pos: &AntChessPosition<N>, out: &mut [i32]) {
        let mut sides = [0; 3];
        for (p, s) in sides.iter_mut().enumerate().take(N) {
            *s = self.side(pos, p as Player);
        }
        for (p, v) in out.iter_mut().enumerate().take(N) {
            *v = self.relative(&sides, p, pos.to_move() as usize);
        }
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

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(eval.evaluate(&pos, 0), eval.tempo);
        assert_eq!(eval.evaluate(&pos, 1), -eval.tempo);
        let eval3 = AntChessEval::<3>::default();
        let pos3 = AntChessPosition::<3>::start();
        assert_eq!(eval3.evaluate(&pos3, 0), eval3.tempo);
        assert_eq!(eval3.evaluate(&pos3, 2), -eval3.tempo);
        // Black's Queen three steps from the anthill, Red's at home.
        let near: AntChessPosition<2> = "7/8/9/10/11/12/3bQ8rQ/12/11/10/9/8/7 r 0 0 1"
            .parse()
            .unwrap();
        assert!(eval.evaluate(&near, 0) > eval.tempo, "{}", near.to_move());
    }

    #[test]
    fn every_players_evaluation_at_once_is_each_one() {
        let eval = AntChessEval::<3> {
            leader: 37,
            ..Default::default()
        };
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
        assert_eq!(names.len(), 7 + DISTANCES + AntChessEval::<2>::OTHERS.len());
        assert_eq!(names[7], "queen.d0");
        assert_eq!(names.last().map(String::as_str), Some("leader"));
        for i in 0..names.len() {
            eval.set_weight(i, 1000 + i as i32);
        }
        assert_eq!(eval.values[0].1, 1000);
        assert_eq!(eval.queen_distance[6], 1013);
        assert_eq!(eval.leader, 1000 + names.len() as i32 - 1);
    }

    #[test]
    fn the_leader_term_weighs_the_stronger_opponent() {
        // Black and Red have lost pieces (Black more); Green has all of hers.
        let pos: AntChessPosition<3> = AntChessPosition::<3>::start();
        let mut eval = AntChessEval::<3>::default();
        let mut sides = [0, -300, 500];
        eval.leader = 0;
        let even = eval.relative(&sides, 0, 1);
        assert_eq!(even, -100 - eval.tempo);
        eval.leader = 100;
        // Only the leader counts: 0 - 500.
        assert_eq!(eval.relative(&sides, 0, 1), -500 - eval.tempo);
        eval.leader = 50;
        assert_eq!(eval.relative(&sides, 0, 0), -300 + eval.tempo);
        // The opponents' order does not matter.
        sides.swap(1, 2);
        assert_eq!(eval.relative(&sides, 0, 0), -300 + eval.tempo);
        // With two players the term does nothing.
        let mut two = AntChessEval::<2>::default();
        let p2 = AntChessPosition::<2>::start();
        let before = two.evaluate(&p2, 0);
        two.leader = 100;
        assert_eq!(two.evaluate(&p2, 0), before);
        assert_eq!(eval.evaluate(&pos, 0), eval.tempo);
    }
}
