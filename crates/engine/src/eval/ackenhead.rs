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
//! - `tempo`: the side to move.
//!
//! The evaluation is linear in its weights: [`Evaluator::linear_terms`] gives the coefficients,
//! so that `myrmidon tune` fits them all at once by gradient descent.

use std::sync::LazyLock;

use myrmidon_rules::games::ackenhead::attacks;
use myrmidon_rules::games::ackenhead::{AckenheadKind, AckenheadPosition, Bb};
use myrmidon_rules::{Player, Position};

use super::{Evaluator, Tunable, Weight};

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
const T_TEMPO: usize = T_PASSED + 8;
const TERMS: usize = T_TEMPO + 1;

/// The default weights: the piece values (the same in both phases); every other term starts at
/// nothing, for the tuner to fit (see `docs/tune.md`).
const DEFAULT_MATERIAL: [i32; KINDS] = [0, 700, 450, 300, 300, 100];

/// The evaluation's weights, a (middle game, endgame) pair per term.
#[derive(Clone, Debug)]
pub struct AckenheadEval {
    pub terms: Vec<[i32; 2]>,
}

impl Default for AckenheadEval {
    fn default() -> Self {
        let mut terms = vec![[0; 2]; TERMS];
        for (kind, &v) in DEFAULT_MATERIAL.iter().enumerate() {
            terms[T_MATERIAL + kind] = [v, v];
        }
        let mut eval = AckenheadEval { terms };
        eval.apply_tuned();
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
    names.push("tempo".into());
    debug_assert_eq!(names.len(), TERMS);
    names
}

impl Tunable for AckenheadEval {
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
        }
    }
}

/// Where the terms of a position go: summed with the weights (the evaluation) or listed (the
/// tuner's coefficients).
trait Sink {
    /// `count` of term `term` for White (Black's counts are given negated).
    fn add(&mut self, term: usize, count: i32);
}

struct Sum<'a> {
    terms: &'a [[i32; 2]],
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
}

struct Counts(Vec<i32>);

impl Sink for Counts {
    fn add(&mut self, term: usize, count: i32) {
        self.0[term] += count;
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

/// The pawn's square seen from its owner's side: rank counted from the owner's first rank,
/// files folded.
#[inline(always)]
fn pst_index(colour: usize, sq: u8) -> usize {
    let file = (sq % 8) as usize;
    let rank = (sq / 8) as usize;
    let rank = if colour == 0 { rank } else { 7 - rank };
    rank * 4 + file.min(7 - file)
}

#[inline(always)]
fn squares(mut bb: Bb) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if bb == 0 {
            None
        } else {
            let sq = bb.trailing_zeros() as u8;
            bb &= bb - 1;
            Some(sq)
        }
    })
}

/// The squares between two squares on one line (none when they are not on a line).
#[inline(always)]
fn between(a: u8, b: u8, rook_line: bool) -> Bb {
    let (from_a, from_b) = if rook_line {
        (
            attacks::rook_slides(a, 1u64 << b),
            attacks::rook_slides(b, 1u64 << a),
        )
    } else {
        (
            attacks::bishop_slides(a, 1u64 << b),
            attacks::bishop_slides(b, 1u64 << a),
        )
    };
    if from_a & (1u64 << b) == 0 {
        return 0;
    }
    from_a & from_b
}

impl AckenheadEval {
    /// The defaults of the tuned terms (none yet: the tuner's output goes here).
    fn apply_tuned(&mut self) {}

    fn kind_index(kind: AckenheadKind) -> usize {
        kind.index()
    }

    /// Every term of the position, White's counts less Black's, into `sink`; returns the phase.
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
        let zones = [
            if kings[0] < 64 {
                attacks::king(kings[0]) | (1u64 << kings[0])
            } else {
                0
            },
            if kings[1] < 64 {
                attacks::king(kings[1]) | (1u64 << kings[1])
            } else {
                0
            },
        ];

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
                for sq in squares(bb) {
                    sink.add(T_PST + k * 32 + pst_index(c, sq), sign);
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
                    if k != PAWN {
                        sink.add(T_MOBILITY + k, sign * moves.count_ones() as i32);
                    }
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
                    if k == PAWN {
                        // Passed: no enemy pawn in the cone ahead.
                        if CONES[c][sq as usize] & bbs[c ^ 1][PAWN] == 0 {
                            let rank = if c == 0 { sq / 8 } else { 7 - sq / 8 };
                            sink.add(T_PASSED + rank as usize, sign);
                        }
                    }
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
            // The enemy King against this side's hoppers on its lines.
            let king = kings[c ^ 1];
            if king < 64 {
                let rook_hoppers = bbs[c][PAO] | bbs[c][LEO];
                let bishop_hoppers = bbs[c][VAO] | bbs[c][LEO];
                for (hoppers, rook_line) in [(rook_hoppers, true), (bishop_hoppers, false)] {
                    let lines = if rook_line {
                        attacks::rook_slides(king, 0)
                    } else {
                        attacks::bishop_slides(king, 0)
                    };
                    for sq in squares(hoppers & lines) {
                        {
                            let line = between(sq, king, rook_line);
                            let n = (line & occ).count_ones() as usize;
                            if n <= 2 {
                                sink.add(T_KINGLINE + n, sign);
                            }
                        }
                    }
                }
            }
            // Own pawns in front of the King.
            let king = kings[c];
            if king < 64 {
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
        sink.add(T_TEMPO, if pos.to_move() == 0 { 1 } else { -1 });
        phase.min(PHASE_MAX)
    }

    /// The evaluation for White.
    fn white_score(&self, pos: &AckenheadPosition) -> i32 {
        let mut sum = Sum {
            terms: &self.terms,
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

    fn linear_terms(
        &self,
        pos: &AckenheadPosition,
        player: Player,
        out: &mut Vec<(u32, f32)>,
    ) -> bool {
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
        true
    }

    /// Measured: `myrmidon match ackenhead` against Fairy-Stockfish (see docs/engine.md).
    fn forward_pruning(&self) -> bool {
        true
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

#[cfg(test)]
mod tests {
    use super::*;
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
        let mut eval = AckenheadEval::default();
        for i in 0..2 * TERMS {
            eval.set_weight(i, (i as i32 * 53) % 161 - 80);
        }
        let weights: Vec<i32> = eval.weights().iter().map(|w| w.value).collect();
        let mut out = Vec::new();
        for fen in [
            "cmvlkvmc/pppppppp/8/8/8/8/PPPPPPPP/CMVLKVMC w - - 0 1",
            "c1vlk1mc/pp1p1ppp/2m1p3/2p1v3/4P3/2M2M2/PPPP1PPP/C1VLKV1C b - - 0 1",
            "4k3/8/3c4/8/8/3P4/8/3CK3 w - - 0 1",
        ] {
            let p = pos(fen);
            for player in 0..2 {
                assert!(eval.linear_terms(&p, player, &mut out));
                let linear: f32 = out
                    .iter()
                    .map(|&(i, c)| weights[i as usize] as f32 * c)
                    .sum();
                let exact = eval.evaluate(&p, player) as f32;
                assert!((linear - exact).abs() <= 1.0, "{fen}: {linear} vs {exact}");
            }
        }
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
