//! Ackenhead chess: a tapered linear evaluation with named terms.
//!
//! Every term is a count (White's less Black's) times a pair of weights, one for the middle
//! game and one for the endgame; the two sums are blended by the phase (the pieces other than
//! pawns and Kings left on the board, Leo 4, Pao 2, Vao and Mao 1, at most 24). The terms:
//!
//! - `material.<kind>`: the pieces;
//! - `pst.<kind>.<square>`: where each kind stands (files folded: a = h, b = g, …; squares
//!   named from the owner's side, `pst.pawn.d4` for a White pawn on d4 or e4, a Black one on
//!   d5 or e5);
//! - `mobility.<kind>`: quiet moves of each piece (the Mao's captures too);
//! - `threat.<attacker>.<victim>`: enemy pieces a piece can take now (attackers `pawn`, `mao`,
//!   `hopper` for the Leo, Pao and Vao, which take by jumping a screen);
//! - `kingzone.<kind>`: squares next to the enemy King (and its own) that a piece controls (a
//!   hopper controls what lies beyond its screen up to the next piece);
//! - `kingattackers`: the number of pieces aiming at the enemy King's zone, squared;
//! - `kingline.<n>`: enemy hoppers on a line with the King with `n` pieces between (one is
//!   check; none or two is one move from check);
//! - `shield.<n>`: own pawns one and two ranks in front of the King;
//! - `passed.<rank>`: pawns with no enemy pawn in the cone ahead that could stop them;
//! - `mopup.edge`, `mopup.kings`: for the side well ahead in material (by a minor piece or
//!   more), how far the enemy King is from the centre and how close the two Kings are (hoppers
//!   mate on the edge, using their own King or pieces as screens; without these terms a search
//!   that sees no mate shuffles until the no-progress rule draws);
//! - `tempo`: the side to move.
//!
//! The evaluation is linear in its weights: [`Evaluator::linear_terms`] gives the coefficients,
//! so that `myrmidon tune` fits them all at once by gradient descent.

use std::sync::LazyLock;

use myrmidon_rules::games::ackenhead::attacks;
use myrmidon_rules::games::ackenhead::{Ackenhead, AckenheadKind, AckenheadPosition, Bb};
use myrmidon_rules::{CellSet, PieceSets, Player, Position};

use super::terms::with_defaults;
use super::{Evaluator, Tunable, Weight};
use crate::games::EngineGame;
use crate::players::{Levels, SearchPolicy, Strength, BEGINNER, STRENGTHS};

const KINDS: usize = 6;
const KIND_NAMES: [&str; KINDS] = ["king", "leo", "pao", "vao", "mao", "pawn"];
const KING: usize = 0;
const LEO: usize = 1;
const PAO: usize = 2;
const VAO: usize = 3;
const MAO: usize = 4;
const PAWN: usize = 5;
const ATTACKERS: [&str; 3] = ["pawn", "mao", "hopper"];

/// The phase of the full set of pieces.
const PHASE_MAX: i32 = 24;
const PHASE_OF: [i32; KINDS] = [0, 4, 2, 1, 1, 0];

// Term offsets (each term is a pair of weights: middle game, endgame).
const T_MATERIAL: usize = 0;
const T_PST: usize = T_MATERIAL + KINDS;
const T_MOBILITY: usize = T_PST + KINDS * 32;
const T_THREAT: usize = T_MOBILITY + KINDS;
const T_KINGZONE: usize = T_THREAT + 3 * KINDS;
const T_KINGATTACKERS: usize = T_KINGZONE + KINDS;
const T_KINGLINE: usize = T_KINGATTACKERS + 1;
const T_SHIELD: usize = T_KINGLINE + 3;
const T_PASSED: usize = T_SHIELD + 2;
const T_MOPUP: usize = T_PASSED + 8;
const T_TEMPO: usize = T_MOPUP + 2;
const TERMS: usize = T_TEMPO + 1;

/// The material lead (in the default piece values) from which the side ahead is driving for
/// mate: the mop-up terms count for it.
const MOPUP_LEAD: i32 = 250;

/// The default piece values (the same in both phases); the other terms with a default are in
/// [`SET_TERMS`], the rest start at 0 for the tuner to fit (see `docs/tune.md`).
const DEFAULT_MATERIAL: [i32; KINDS] = [0, 700, 450, 300, 300, 100];

/// Groups of terms that cost work to count: a group whose weights are all 0 is not counted
/// by the evaluation (the tuner, which needs every coefficient, counts them all).
const G_PST: usize = 0;
const G_ATTACKS: usize = 1;
const G_KINGLINE: usize = 2;
const G_SHIELD: usize = 3;
const G_PASSED: usize = 4;
const GROUPS: usize = 5;

/// The group of a term, if it has one (material, mop-up and tempo cost nothing).
fn group_of(term: usize) -> Option<usize> {
    match term {
        t if t < T_PST => None,
        t if t < T_MOBILITY => Some(G_PST),
        t if t < T_KINGLINE => Some(G_ATTACKS),
        t if t < T_SHIELD => Some(G_KINGLINE),
        t if t < T_PASSED => Some(G_SHIELD),
        t if t < T_TEMPO => Some(G_PASSED),
        _ => None,
    }
}

/// The terms beyond material that have a default (middle game, endgame); the others start at
/// 0. Set by hand and kept because a match says they gain (docs/engine-measurements.md, "Ackenhead"):
/// `myrmidon match ackenhead --engine builtin=search weights=<material only> --engine
/// builtin=search --movetime 20 --games 60 --openings <balanced>`.
const SET_TERMS: &[(&str, i32, i32)] = &[
    ("mobility.leo", 3, 4),
    ("mobility.pao", 3, 4),
    ("mobility.vao", 4, 4),
    ("mobility.mao", 6, 6),
    ("passed.4", 5, 15),
    ("passed.5", 10, 30),
    ("passed.6", 20, 60),
    ("passed.7", 40, 100),
    ("mopup.edge", 10, 25),
    ("mopup.kings", 5, 12),
    ("tempo", 10, 5),
];

/// The evaluation's weights, a (middle game, endgame) pair per term.
#[derive(Clone, Debug)]
pub struct AckenheadEval {
    terms: Vec<[i32; 2]>,
    /// Per group: some weight of it is not 0.
    used: [bool; GROUPS],
}

/// The default weights: tuned from self-play games (the file says how), on top of the hand
/// set ([`AckenheadEval::baseline`]).
const TUNED: &str = include_str!("ackenhead.weights");

/// The default evaluation, read once.
static DEFAULT: LazyLock<AckenheadEval> =
    LazyLock::new(|| with_defaults(AckenheadEval::hand_set(), TUNED, "ackenhead.weights"));

impl Default for AckenheadEval {
    fn default() -> Self {
        DEFAULT.clone()
    }
}

impl AckenheadEval {
    /// The weights set by hand before the tuning: the piece values, and the terms of
    /// [`SET_TERMS`] (each kept because a match said it gains); the rest 0.
    fn hand_set() -> Self {
        let mut terms = vec![[0; 2]; TERMS];
        for (kind, &v) in DEFAULT_MATERIAL.iter().enumerate() {
            terms[T_MATERIAL + kind] = [v, v];
        }
        let mut eval = AckenheadEval {
            terms,
            used: [false; GROUPS],
        };
        eval.apply_set_terms();
        eval.find_used();
        eval
    }
}

fn square_name(index: usize) -> String {
    let rank = index / 4;
    let file = index % 4;
    format!("{}{}", (b'a' + file as u8) as char, rank + 1)
}

fn term_names() -> Vec<String> {
    let mut names = Vec::with_capacity(TERMS);
    for k in KIND_NAMES {
        names.push(format!("material.{k}"));
    }
    for k in KIND_NAMES {
        for s in 0..32 {
            names.push(format!("pst.{k}.{}", square_name(s)));
        }
    }
    for k in KIND_NAMES {
        names.push(format!("mobility.{k}"));
    }
    for a in ATTACKERS {
        for v in KIND_NAMES {
            names.push(format!("threat.{a}.{v}"));
        }
    }
    for k in KIND_NAMES {
        names.push(format!("kingzone.{k}"));
    }
    names.push("kingattackers".into());
    for n in 0..3 {
        names.push(format!("kingline.{n}"));
    }
    for n in 1..=2 {
        names.push(format!("shield.{n}"));
    }
    for r in 1..=8 {
        names.push(format!("passed.{r}"));
    }
    names.push("mopup.edge".into());
    names.push("mopup.kings".into());
    names.push("tempo".into());
    debug_assert_eq!(names.len(), TERMS);
    names
}

impl Tunable for AckenheadEval {
    /// The hand-set weights of before the tuning: the baseline players' yardstick (they read
    /// its piece values, 700, 450, 300, 300, 100), and where a tuning starts anew.
    fn baseline() -> Self {
        Self::hand_set()
    }

    /// Two weights a term, `<term>.mg` and `<term>.eg`.
    fn weights(&self) -> Vec<Weight> {
        term_names()
            .into_iter()
            .zip(&self.terms)
            .flat_map(|(name, w)| {
                [
                    Weight::new(format!("{name}.mg"), w[0]),
                    Weight::new(format!("{name}.eg"), w[1]),
                ]
            })
            .collect()
    }

    fn set_weight(&mut self, index: usize, value: i32) {
        if let Some(term) = self.terms.get_mut(index / 2) {
            term[index % 2] = value;
            self.find_used();
        }
    }
}

/// Where the terms of a position go: summed with the weights (the evaluation) or listed (the
/// tuner's coefficients).
trait Sink {
    /// `count` of term `term` for White (Black's counts are given negated).
    fn add(&mut self, term: usize, count: i32);

    /// True if the terms of this group are wanted.
    fn wants(&self, group: usize) -> bool;
}

struct Sum<'a> {
    terms: &'a [[i32; 2]],
    used: [bool; GROUPS],
    mg: i32,
    eg: i32,
}

impl Sink for Sum<'_> {
    #[inline(always)]
    fn add(&mut self, term: usize, count: i32) {
        let w = self.terms[term];
        self.mg += w[0] * count;
        self.eg += w[1] * count;
    }

    #[inline(always)]
    fn wants(&self, group: usize) -> bool {
        self.used[group]
    }
}

struct Counts(Vec<i32>);

impl Sink for Counts {
    fn add(&mut self, term: usize, count: i32) {
        self.0[term] += count;
    }

    fn wants(&self, _group: usize) -> bool {
        true
    }
}

/// The squares ahead of a pawn of `colour` on `sq` from which an enemy pawn could stop it: the
/// ranks in front, widening by a file each rank (a Berolina pawn moves diagonally).
fn passed_cone(colour: usize, sq: u8) -> Bb {
    let (file, rank) = ((sq % 8) as i32, (sq / 8) as i32);
    let mut cone = 0;
    for r in 0..8 {
        let ahead = if colour == 0 { r - rank } else { rank - r };
        if ahead <= 0 {
            continue;
        }
        for f in (file - ahead - 1).max(0)..=(file + ahead + 1).min(7) {
            cone |= 1u64 << (r * 8 + f);
        }
    }
    cone
}

/// [`passed_cone`] of every square, for each colour.
static CONES: LazyLock<[[Bb; 64]; 2]> = LazyLock::new(|| {
    let mut cones = [[0; 64]; 2];
    for (colour, row) in cones.iter_mut().enumerate() {
        for (sq, cone) in row.iter_mut().enumerate() {
            *cone = passed_cone(colour, sq as u8);
        }
    }
    cones
});

/// A hopper on `sq` along rook or bishop lines: its quiet moves, its captures (of either
/// colour: the first piece beyond the screen) and the squares it controls beyond its screens.
#[inline(always)]
fn hopper(sq: u8, occ: Bb, rook_line: bool) -> (Bb, Bb, Bb) {
    let slide = |occ| {
        if rook_line {
            attacks::rook_slides(sq, occ)
        } else {
            attacks::bishop_slides(sq, occ)
        }
    };
    let near = slide(occ);
    let beyond = occ ^ (near & occ);
    let far = slide(beyond);
    (near & !occ, far & beyond, far & !near)
}

/// How far a square is from the four centre squares, in King steps along files plus ranks
/// (0 in the centre, 6 in a corner).
#[inline(always)]
fn centre_distance(sq: u8) -> i32 {
    let (file, rank) = ((sq % 8) as i32, (sq / 8) as i32);
    (2 * file - 7).abs() / 2 + (2 * rank - 7).abs() / 2
}

/// Files plus ranks between two squares.
#[inline(always)]
fn king_distance(a: u8, b: u8) -> i32 {
    ((a % 8) as i32 - (b % 8) as i32).abs() + ((a / 8) as i32 - (b / 8) as i32).abs()
}

/// The pawn's square seen from its owner's side: rank counted from the owner's first rank,
/// files folded.
#[inline(always)]
fn pst_index(colour: usize, sq: u8) -> usize {
    let file = (sq % 8) as usize;
    let rank = (sq / 8) as usize;
    let rank = if colour == 0 { rank } else { 7 - rank };
    rank * 4 + file.min(7 - file)
}

/// The squares of a bitboard, lowest first.
#[inline(always)]
fn squares(bb: Bb) -> impl Iterator<Item = u8> {
    bb.cells().map(|c| c as u8)
}

impl AckenheadEval {
    /// The defaults of the terms beyond material ([`SET_TERMS`]).
    fn apply_set_terms(&mut self) {
        let names = term_names();
        for &(name, mg, eg) in SET_TERMS {
            let t = names
                .iter()
                .position(|n| n == name)
                .expect("SET_TERMS names a term");
            self.terms[t] = [mg, eg];
        }
    }

    /// Which groups of terms have a weight other than 0.
    fn find_used(&mut self) {
        self.used = [false; GROUPS];
        for (t, w) in self.terms.iter().enumerate() {
            if let Some(g) = group_of(t) {
                self.used[g] |= w[0] != 0 || w[1] != 0;
            }
        }
    }

    fn kind_index(kind: AckenheadKind) -> usize {
        kind.index()
    }

    /// Every term of the position, White's counts less Black's, into `sink` (the groups it
    /// wants); returns the phase.
    fn terms_of<S: Sink>(&self, pos: &AckenheadPosition, sink: &mut S) -> i32 {
        let occ = pos.occupied();
        let mut bbs = [[0u64; KINDS]; 2];
        for (c, side) in bbs.iter_mut().enumerate() {
            for kind in AckenheadKind::ALL {
                side[Self::kind_index(kind)] = pos.pieces(c as Player, kind);
            }
        }
        let colours = [pos.pieces_of(0), pos.pieces_of(1)];
        let mut phase = 0;
        for side in &bbs {
            for k in 0..KINDS {
                phase += PHASE_OF[k] * side[k].count_ones() as i32;
            }
        }
        let kings = [
            pos.king_square(0).unwrap_or(64),
            pos.king_square(1).unwrap_or(64),
        ];
        let zone = |king: u8| {
            if king < 64 {
                attacks::king(king) | (1u64 << king)
            } else {
                0
            }
        };
        let zones = [zone(kings[0]), zone(kings[1])];
        let pst = sink.wants(G_PST);
        let attacking = sink.wants(G_ATTACKS);
        let passed = sink.wants(G_PASSED);

        for c in 0..2 {
            let sign = if c == 0 { 1 } else { -1 };
            let own = colours[c];
            let enemy = colours[c ^ 1];
            let enemy_zone = zones[c ^ 1];
            let mut zone_attackers = 0;
            let mut threats = [[0i32; KINDS]; 3];
            for k in 0..KINDS {
                let bb = bbs[c][k];
                if bb == 0 {
                    continue;
                }
                sink.add(T_MATERIAL + k, sign * bb.count_ones() as i32);
                if pst {
                    for sq in squares(bb) {
                        sink.add(T_PST + k * 32 + pst_index(c, sq), sign);
                    }
                }
                if k == PAWN && passed {
                    for sq in squares(bb) {
                        // Passed: no enemy pawn in the cone ahead.
                        if CONES[c][sq as usize] & bbs[c ^ 1][PAWN] == 0 {
                            let rank = if c == 0 { sq / 8 } else { 7 - sq / 8 };
                            sink.add(T_PASSED + rank as usize, sign);
                        }
                    }
                }
                if !attacking {
                    continue;
                }
                let mut mobility = 0;
                for sq in squares(bb) {
                    let (moves, takes, zone, class) = match k {
                        KING => (attacks::king(sq) & !occ, 0, 0, usize::MAX),
                        LEO => {
                            let (rm, rt, rz) = hopper(sq, occ, true);
                            let (bm, bt, bz) = hopper(sq, occ, false);
                            (rm | bm, rt | bt, rz | bz, 2)
                        }
                        PAO => {
                            let (m, t, z) = hopper(sq, occ, true);
                            (m, t, z, 2)
                        }
                        VAO => {
                            let (m, t, z) = hopper(sq, occ, false);
                            (m, t, z, 2)
                        }
                        MAO => {
                            let reach = attacks::mao(sq, occ);
                            (reach & !own, reach, reach, 1)
                        }
                        _ => {
                            let hit = attacks::pawn_captures(c as u8, sq);
                            (0, hit, hit, 0)
                        }
                    };
                    mobility += moves.count_ones() as i32;
                    if class < 3 {
                        let takes = takes & enemy;
                        if takes != 0 {
                            for (v, t) in threats[class].iter_mut().enumerate() {
                                *t += (takes & bbs[c ^ 1][v]).count_ones() as i32;
                            }
                        }
                        let hits = (zone & enemy_zone).count_ones() as i32;
                        if hits > 0 {
                            sink.add(T_KINGZONE + k, sign * hits);
                            zone_attackers += 1;
                        }
                    }
                }
                if k != PAWN && mobility != 0 {
                    sink.add(T_MOBILITY + k, sign * mobility);
                }
            }
            for (class, row) in threats.iter().enumerate() {
                for (v, &n) in row.iter().enumerate() {
                    if n != 0 {
                        sink.add(T_THREAT + class * KINDS + v, sign * n);
                    }
                }
            }
            if zone_attackers > 0 {
                sink.add(T_KINGATTACKERS, sign * zone_attackers * zone_attackers);
            }
            // The enemy King against this side's hoppers on its lines, with 0, 1 or 2 pieces
            // between: x-rays from the King, each removing the nearest pieces on every line.
            let king = kings[c ^ 1];
            if king < 64 && sink.wants(G_KINGLINE) {
                let rook_hoppers = bbs[c][PAO] | bbs[c][LEO];
                let bishop_hoppers = bbs[c][VAO] | bbs[c][LEO];
                for (hoppers, rook_line) in [(rook_hoppers, true), (bishop_hoppers, false)] {
                    if hoppers == 0 {
                        continue;
                    }
                    let slide = |occ| {
                        if rook_line {
                            attacks::rook_slides(king, occ)
                        } else {
                            attacks::bishop_slides(king, occ)
                        }
                    };
                    let mut blockers = occ;
                    let mut seen = 0;
                    for n in 0..3 {
                        let reach = slide(blockers);
                        let found = (reach & !seen & hoppers).count_ones() as i32;
                        if found > 0 {
                            sink.add(T_KINGLINE + n, sign * found);
                        }
                        seen |= reach;
                        blockers &= !reach;
                    }
                }
            }
            // Own pawns in front of the King.
            let king = kings[c];
            if king < 64 && sink.wants(G_SHIELD) {
                let (file, rank) = ((king % 8) as i32, (king / 8) as i32);
                let dir = if c == 0 { 1 } else { -1 };
                for (n, step) in [(0usize, 1), (1, 2)] {
                    let r = rank + dir * step;
                    if !(0..8).contains(&r) {
                        continue;
                    }
                    let mut count = 0;
                    for f in (file - 1).max(0)..=(file + 1).min(7) {
                        if bbs[c][PAWN] & (1u64 << (r * 8 + f)) != 0 {
                            count += 1;
                        }
                    }
                    if count > 0 {
                        sink.add(T_SHIELD + n, sign * count);
                    }
                }
            }
        }
        // Mop-up: the side ahead drives the enemy King to the edge and brings its own near.
        if kings[0] < 64 && kings[1] < 64 {
            let lead = (0..KINDS)
                .map(|k| {
                    DEFAULT_MATERIAL[k]
                        * (bbs[0][k].count_ones() as i32 - bbs[1][k].count_ones() as i32)
                })
                .sum::<i32>();
            if lead.abs() >= MOPUP_LEAD {
                let (ahead, sign) = if lead > 0 { (0, 1) } else { (1, -1) };
                let loser = kings[ahead ^ 1];
                let winner = kings[ahead];
                sink.add(T_MOPUP, sign * centre_distance(loser));
                sink.add(T_MOPUP + 1, sign * (14 - king_distance(winner, loser)));
            }
        }
        sink.add(T_TEMPO, if pos.to_move() == 0 { 1 } else { -1 });
        phase.min(PHASE_MAX)
    }

    /// The evaluation for White.
    fn white_score(&self, pos: &AckenheadPosition) -> i32 {
        let mut sum = Sum {
            terms: &self.terms,
            used: self.used,
            mg: 0,
            eg: 0,
        };
        let phase = self.terms_of(pos, &mut sum);
        (sum.mg * phase + sum.eg * (PHASE_MAX - phase)) / PHASE_MAX
    }
}

impl Evaluator<AckenheadPosition> for AckenheadEval {
    fn material(&self, pos: &AckenheadPosition, player: Player) -> i32 {
        AckenheadKind::ALL
            .iter()
            .map(|&k| {
                let w = self.terms[T_MATERIAL + Self::kind_index(k)];
                (w[0] + w[1]) / 2 * pos.count(player, k) as i32
            })
            .sum()
    }

    fn evaluate(&self, pos: &AckenheadPosition, player: Player) -> i32 {
        let white = self.white_score(pos);
        if player == 0 {
            white
        } else {
            -white
        }
    }

    /// Exact but for the blend by the phase, rounded toward zero (within a centipawn).
    fn linear_terms(&self, pos: &AckenheadPosition, player: Player, out: &mut Vec<(u32, f32)>) {
        let mut counts = Counts(vec![0; TERMS]);
        let phase = self.terms_of(pos, &mut counts);
        let sign = if player == 0 { 1.0 } else { -1.0 };
        let mg = phase as f32 / PHASE_MAX as f32;
        out.clear();
        for (t, &n) in counts.0.iter().enumerate() {
            if n != 0 {
                out.push((2 * t as u32, sign * n as f32 * mg));
                out.push((2 * t as u32 + 1, sign * n as f32 * (1.0 - mg)));
            }
        }
    }

    /// The King (never taken) counts as the most valuable.
    fn piece_value(&self, kind: usize) -> i32 {
        match kind {
            KING => 10_000,
            k if k < KINDS => {
                let w = self.terms[T_MATERIAL + k];
                (w[0] + w[1]) / 2
            }
            _ => 0,
        }
    }
}

/// Levels 1–7 of Ackenhead chess: above the beginner, the generic level 2's search with a
/// falling share of careless moves (a piece left hanging), a rung between the generic levels 2
/// and 3, then the generic levels 4 and 6. (Even one careless move in twenty costs much: the
/// generic level 2 itself, with none, beat the level with 300 in 1000 by 39-0-1.)
const LEVELS: Levels = [
    BEGINNER,
    STRENGTHS[1].careless(600),
    STRENGTHS[1].careless(300),
    STRENGTHS[1].careless(50),
    Strength::searching(4_500, 5, 180),
    STRENGTHS[3],
    STRENGTHS[5],
];

impl EngineGame for Ackenhead {
    type Eval = AckenheadEval;
    /// Forward pruning, measured: `myrmidon match ackenhead` against Fairy-Stockfish (see
    /// docs/engine-measurements.md).
    const POLICY: SearchPolicy = SearchPolicy::PRUNING;
    /// Calibrated by matches, 40 games a pair (docs/engine-measurements.md, "Levels per game").
    const LEVELS: &'static Levels = &LEVELS;
    const BENCH_POSITIONS: &'static str = include_str!("ackenhead.bench");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::terms::check_linear_terms;
    use myrmidon_rules::games::ackenhead::Ackenhead;
    use myrmidon_rules::Game;

    fn pos(fen: &str) -> AckenheadPosition {
        Ackenhead.parse_position(fen).unwrap()
    }

    #[test]
    fn names_are_unique_and_cover_every_weight() {
        let eval = AckenheadEval::default();
        let weights = eval.weights();
        assert_eq!(weights.len(), 2 * TERMS);
        let mut names: Vec<_> = weights.iter().map(|w| w.name.clone()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), 2 * TERMS);
        assert!(names.contains(&"pst.pawn.d4.mg".to_string()));
        assert!(names.contains(&"threat.hopper.leo.eg".to_string()));
    }

    #[test]
    fn mirrored_positions_score_the_same_for_their_side() {
        let mut eval = AckenheadEval::default();
        // Give every weight a distinct value so that no term hides.
        for i in 0..2 * TERMS {
            eval.set_weight(i, (i as i32 * 37) % 201 - 100);
        }
        let a = pos("c1vlk1mc/pp1p1ppp/2m1p3/2p1v3/4P3/2M2M2/PPPP1PPP/C1VLKV1C w - - 0 1");
        // The same position with colours swapped and the board turned over, Black to move.
        let b = pos("c1vlkv1c/pppp1ppp/2m2m2/4p3/2P1V3/2M1P3/PP1P1PPP/C1VLK1MC b - - 0 1");
        assert_eq!(eval.evaluate(&a, 0), eval.evaluate(&b, 1));
    }

    #[test]
    fn linear_terms_reproduce_the_evaluation() {
        let start = pos("cmvlkvmc/pppppppp/8/8/8/8/PPPPPPPP/CMVLKVMC w - - 0 1");
        check_linear_terms::<_, AckenheadEval>(&start, 1.01);
    }

    #[test]
    fn groups_left_at_zero_change_nothing() {
        // With only some groups weighted, the evaluation (which skips the others) still equals
        // the sum over every coefficient (which counts them all).
        let fens = [
            "c1vlk1mc/pp1p1ppp/2m1p3/2p1v3/4P3/2M2M2/PPPP1PPP/C1VLKV1C b - - 0 1",
            "4k3/8/3c4/8/8/3P4/8/3CK3 w - - 0 1",
            "1mv2vm1/1C1k2p1/8/8/8/8/1c2K3/1MV2VM1 w - - 0 11",
        ];
        for keep in 0..GROUPS {
            let mut eval = AckenheadEval::default();
            for i in 0..2 * TERMS {
                let value = if group_of(i / 2).is_none_or(|g| g == keep) {
                    (i as i32 * 29) % 97 - 40
                } else {
                    0
                };
                eval.set_weight(i, value);
            }
            let used: Vec<bool> = eval.used.to_vec();
            assert!(used[keep], "group {keep}");
            assert_eq!(used.iter().filter(|&&u| u).count(), 1, "group {keep}");
            let weights: Vec<i32> = eval.weights().iter().map(|w| w.value).collect();
            let mut out = Vec::new();
            for fen in fens {
                let p = pos(fen);
                eval.linear_terms(&p, 0, &mut out);
                let linear: f32 = out
                    .iter()
                    .map(|&(i, c)| weights[i as usize] as f32 * c)
                    .sum();
                let exact = eval.evaluate(&p, 0) as f32;
                assert!((linear - exact).abs() <= 1.0, "{fen}: {linear} vs {exact}");
            }
        }
    }

    #[test]
    fn hoppers_on_the_kings_lines_count_the_pieces_between() {
        let mut eval = AckenheadEval::default();
        for i in 0..2 * TERMS {
            eval.set_weight(i, 0);
        }
        let mut counts = Counts(vec![0; TERMS]);
        // White's Pao on d1 checks the Black King on d8 over d3 (one piece between); the Vao
        // on a5 has an open diagonal to it (none between).
        let p = pos("3k4/8/8/V7/8/3P4/8/3CK3 b - - 0 1");
        eval.terms_of(&p, &mut counts);
        assert_eq!(counts.0[T_KINGLINE + 1], 1);
        assert_eq!(counts.0[T_KINGLINE], 1);
        let p = pos("3k4/3p4/8/8/8/3P4/8/3CK3 w - - 0 1");
        let mut counts = Counts(vec![0; TERMS]);
        eval.terms_of(&p, &mut counts);
        assert_eq!(counts.0[T_KINGLINE + 2], 1);
        assert_eq!(counts.0[T_KINGLINE + 1], 0);
    }

    #[test]
    fn a_passed_pawn_needs_an_empty_cone() {
        // d5 with a Black pawn on f7: two files off, two ranks ahead, inside the cone.
        let cone = passed_cone(0, 35);
        assert_ne!(cone & (1u64 << 53), 0);
        // A pawn behind is outside.
        assert_eq!(cone & (1u64 << 27), 0);
    }

    #[test]
    fn mop_up_drives_the_lone_king_to_the_edge() {
        assert_eq!(centre_distance(27), 0); // d4
        assert_eq!(centre_distance(0), 6); // a1
        assert_eq!(centre_distance(63), 6); // h8
        assert_eq!(king_distance(0, 63), 14);
        // The hand set: the tuned King-square values would blur the comparison.
        let mut eval = AckenheadEval::baseline();
        let names: Vec<String> = eval.weights().into_iter().map(|w| w.name).collect();
        for (name, value) in [("mopup.edge.eg", 20), ("mopup.kings.eg", 10)] {
            let i = names.iter().position(|n| n == name).unwrap();
            eval.set_weight(i, value);
        }
        // White (a Leo ahead) is better off with the Black King in the corner than in the
        // centre, and with its own King nearer.
        let centre = eval.evaluate(&pos("8/8/8/3k4/8/8/3L4/3K4 w - - 0 1"), 0);
        let corner = eval.evaluate(&pos("7k/8/8/8/8/8/3L4/3K4 w - - 0 1"), 0);
        let near = eval.evaluate(&pos("7k/8/5K2/8/8/8/3L4/8 w - - 0 1"), 0);
        assert!(corner > centre, "{corner} vs {centre}");
        assert!(near > corner, "{near} vs {corner}");
        // Level material: no mop-up.
        let level = pos("7k/8/5K2/8/8/8/3L4/3l4 w - - 0 1");
        let mut counts = Counts(vec![0; TERMS]);
        eval.terms_of(&level, &mut counts);
        assert_eq!(counts.0[T_MOPUP], 0);
        assert_eq!(counts.0[T_MOPUP + 1], 0);
    }

    #[test]
    fn the_start_is_level_but_for_the_tempo() {
        let eval = AckenheadEval::default();
        let p = pos("cmvlkvmc/pppppppp/8/8/8/8/PPPPPPPP/CMVLKVMC w - - 0 1");
        let tempo = eval.terms[T_TEMPO];
        let phase = 24;
        assert_eq!(
            eval.evaluate(&p, 0),
            (tempo[0] * phase + tempo[1] * (24 - phase)) / 24
        );
    }
}
