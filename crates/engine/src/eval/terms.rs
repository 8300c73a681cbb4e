//! What the evaluators of Ant Chess, Epaminondas and Jeu de Reines share: a flat table of
//! named terms, each one weight times a count the position gives, counted once by a function
//! that writes to a [`Sink`]. Summed with the weights ([`Sum`]) the counts are the evaluation;
//! collected ([`Coefficients`]) they are the tuner's coefficients
//! ([`crate::eval::Evaluator::linear_terms`]), so that the two cannot drift apart. (Ackenhead's
//! evaluation has the same shape with a pair of weights a term, blended by the phase: its own
//! sinks, in `ackenhead.rs`.)

use super::{parse_weights, Tunable, Weight};

/// Where the terms of a position go: summed with the weights (the evaluation) or collected
/// (the tuner's coefficients).
pub(crate) trait Sink {
    /// `count` of term `term`.
    fn add(&mut self, term: usize, count: i32);

    /// `count` sixteenths of term `term` (a weight in sixteenths of a centipawn: mobility).
    /// The evaluation rounds this product toward zero by itself, before it is added: the one
    /// place where it is not exactly the sum of weight × count (it is within a centipawn).
    fn add_sixteenths(&mut self, term: usize, count: i32);

    /// True if term `term` is to be counted: the evaluation skips a costly term whose weight
    /// is 0; the tuner, which needs every coefficient, counts them all.
    fn wants(&self, term: usize) -> bool;
}

/// The evaluation: every term's count times its weight, added up.
pub(crate) struct Sum<'a> {
    weights: &'a [i32],
    pub total: i32,
}

impl<'a> Sum<'a> {
    pub fn new(weights: &'a [i32]) -> Self {
        Sum { weights, total: 0 }
    }
}

impl Sink for Sum<'_> {
    #[inline(always)]
    fn add(&mut self, term: usize, count: i32) {
        self.total += self.weights[term] * count;
    }

    #[inline(always)]
    fn add_sixteenths(&mut self, term: usize, count: i32) {
        self.total += count * self.weights[term] / 16;
    }

    #[inline(always)]
    fn wants(&self, term: usize) -> bool {
        self.weights[term] != 0
    }
}

/// The tuner's coefficients: every term's count, times `sign` (an evaluation that takes one
/// side's terms less another's counts the other's with `sign` -1).
pub(crate) struct Coefficients {
    pub sign: f32,
    counts: Vec<f32>,
}

impl Coefficients {
    pub fn new(terms: usize) -> Self {
        Coefficients {
            sign: 1.0,
            counts: vec![0.0; terms],
        }
    }

    /// Adds `value` (not times `sign`) to the coefficient of `term`.
    pub fn add_value(&mut self, term: usize, value: f32) {
        self.counts[term] += value;
    }

    /// The coefficients other than 0 as `(weight index, coefficient)` pairs, into `out`
    /// (cleared first).
    pub fn write(&self, out: &mut Vec<(u32, f32)>) {
        out.clear();
        for (term, &c) in self.counts.iter().enumerate() {
            if c != 0.0 {
                out.push((term as u32, c));
            }
        }
    }
}

impl Sink for Coefficients {
    fn add(&mut self, term: usize, count: i32) {
        self.counts[term] += self.sign * count as f32;
    }

    fn add_sixteenths(&mut self, term: usize, count: i32) {
        self.counts[term] += self.sign * count as f32 / 16.0;
    }

    fn wants(&self, _term: usize) -> bool {
        true
    }
}

/// The weights of a flat table: each term's name with its value.
pub(crate) fn named_weights(names: &[String], values: &[i32]) -> Vec<Weight> {
    names
        .iter()
        .zip(values)
        .map(|(name, &value)| Weight::new(name.clone(), value))
        .collect()
}

/// An evaluator's default weights: `eval` with every weight set from its default-weights file
/// `file` (its text `text`), which must name each weight once. Panics otherwise: a test of
/// every evaluator reads its file.
pub(crate) fn with_defaults<E: Tunable>(mut eval: E, text: &str, file: &str) -> E {
    eval.load_weights(text)
        .unwrap_or_else(|err| panic!("{file}: {err}"));
    let named = parse_weights(text).map_or(0, |w| w.len());
    let weights = eval.weights().len();
    assert_eq!(
        named, weights,
        "{file} names {named} weights of the evaluation's {weights}"
    );
    eval
}

/// Checks that an evaluator's [`crate::eval::Evaluator::linear_terms`] give its evaluation:
/// with its default weights and with distinct made-up ones (of both signs, none 0), the sum of
/// coefficient × weight is within `tolerance` of `evaluate` for every player, in the
/// positions of random games from `start`.
#[cfg(test)]
pub(crate) fn check_linear_terms<P, E>(start: &P, tolerance: f64)
where
    P: myrmidon_rules::Position,
    E: super::Evaluator<P>,
{
    let mut made_up = E::default();
    for i in 0..made_up.weights().len() {
        let v = (i as i32 * 53) % 161 - 80;
        made_up.set_weight(i, if v == 0 { 81 } else { v });
    }
    let players = start.player_names().len() as myrmidon_rules::Player;
    let mut out = Vec::new();
    let mut checked = 0;
    for eval in [E::default(), made_up] {
        let weights: Vec<f64> = eval.weights().iter().map(|w| w.value as f64).collect();
        for seed in 1..=12 {
            let mut rng = myrmidon_rules::rng::Rng::new(seed);
            let mut pos = start.clone();
            for _ in 0..120 {
                for player in 0..players {
                    eval.linear_terms(&pos, player, &mut out);
                    let linear: f64 = out
                        .iter()
                        .map(|&(i, c)| weights[i as usize] * c as f64)
                        .sum();
                    let exact = eval.evaluate(&pos, player) as f64;
                    assert!(
                        (linear - exact).abs() < tolerance,
                        "player {player} in {pos}: {linear} vs {exact}"
                    );
                    checked += 1;
                }
                let moves = pos.moves();
                if moves.is_empty() || pos.outcome().is_some() {
                    break;
                }
                pos.make_move(moves[rng.below(moves.len())]);
            }
        }
    }
    assert!(checked > 1000, "only {checked} evaluations checked");
}
