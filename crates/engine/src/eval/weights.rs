//! Named integer weights of an evaluator, and their file format.
//!
//! A weights file has one weight a line, `<name> <value>`, the value an integer; blank lines and
//! everything after a `#` are ignored. A file may name only some of the evaluator's weights
//! (the others keep their defaults), but never an unknown name or one name twice. The tuner
//! writes every weight, in the evaluator's order.

use std::fmt::Write as _;

/// The largest magnitude a weight may have: evaluations must stay well below the mate scores
/// (see [`crate::score::MATE_BOUND`]).
pub const MAX_WEIGHT: i32 = 5_000;

/// One named weight of an evaluator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weight {
    /// Lower case, no spaces (`leo`, `stone`, later `mobility.pao`).
    pub name: String,
    pub value: i32,
}

impl Weight {
    pub fn new(name: impl Into<String>, value: i32) -> Self {
        Weight {
            name: name.into(),
            value,
        }
    }
}

/// An evaluator whose terms are named integer weights, which the tuner adjusts and a weights
/// file sets. Every game's evaluator implements it; each new term of an evaluation adds its
/// weights here.
pub trait Tunable: Sized + Default {
    /// Every weight, in a fixed order (the index `set_weight` takes).
    fn weights(&self) -> Vec<Weight>;

    /// Sets the weight at `index` of [`Tunable::weights`]; an index out of range is ignored.
    fn set_weight(&mut self, index: usize, value: i32);

    /// The evaluator the baseline players (greedy, alpha-beta) count material with: the
    /// hand-set piece values, so that these yardsticks stay fixed when the defaults are tuned
    /// (a weights file still sets them). By default the defaults.
    fn baseline() -> Self {
        Self::default()
    }

    /// The default evaluator with the weights of this file (see the module's documentation).
    fn with_weights(text: &str) -> Result<Self, String> {
        let mut eval = Self::default();
        eval.load_weights(text)?;
        Ok(eval)
    }

    /// Sets the weights this file names; on an error nothing is changed.
    fn load_weights(&mut self, text: &str) -> Result<(), String> {
        let names: Vec<String> = self.weights().into_iter().map(|w| w.name).collect();
        let parsed = parse_weights(text)?;
        let mut updates = Vec::with_capacity(parsed.len());
        for (line, weight) in parsed {
            let index = names
                .iter()
                .position(|n| *n == weight.name)
                .ok_or_else(|| {
                    let known = if names.len() <= 12 {
                        names.join(", ")
                    } else {
                        format!(
                            "{}, … ({} in all; `myrmidon tune` lists them)",
                            names[..8].join(", "),
                            names.len()
                        )
                    };
                    format!(
                        "line {line}: unknown weight `{}`: expected one of {known}",
                        weight.name
                    )
                })?;
            updates.push((index, weight.value));
        }
        for (index, value) in updates {
            self.set_weight(index, value);
        }
        Ok(())
    }

    /// The weights in the file format, every one of them.
    fn weights_text(&self) -> String {
        write_weights(&self.weights())
    }
}

/// The weights of a file with the line each is on (from 1): syntax only, the names are not
/// checked against an evaluator. Errors name the line and what is wrong.
pub fn parse_weights(text: &str) -> Result<Vec<(usize, Weight)>, String> {
    let mut out: Vec<(usize, Weight)> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let content = raw.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        let mut words = content.split_whitespace();
        let (Some(name), Some(value), None) = (words.next(), words.next(), words.next()) else {
            return Err(format!(
                "line {line}: expected `<name> <value>`, found `{content}`"
            ));
        };
        let value: i32 = value
            .parse()
            .ok()
            .filter(|v: &i32| v.abs() <= MAX_WEIGHT)
            .ok_or_else(|| {
                format!(
                    "line {line}: bad value `{value}` for `{name}`: expected an integer from \
                     -{MAX_WEIGHT} to {MAX_WEIGHT}"
                )
            })?;
        if let Some((first, _)) = out.iter().find(|(_, w)| w.name == name) {
            return Err(format!(
                "line {line}: `{name}` is given twice (first on line {first})"
            ));
        }
        out.push((line, Weight::new(name, value)));
    }
    Ok(out)
}

/// Weights in the file format, one `<name> <value>` a line.
pub fn write_weights(weights: &[Weight]) -> String {
    let mut out = String::new();
    for w in weights {
        let _ = writeln!(out, "{} {}", w.name, w.value);
    }
    out
}

/// The weight name of a piece kind: its name in lower case (`Leo` -> `leo`).
pub(crate) fn kind_name(kind: impl std::fmt::Debug) -> String {
    format!("{kind:?}").to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{AckenheadEval, AntChessEval, EpaminondasEval, ReinesEval};

    fn round_trip<E: Tunable + std::fmt::Debug>() {
        let mut eval = E::default();
        let n = eval.weights().len();
        assert!(n > 0);
        for i in 0..n {
            eval.set_weight(i, (37 * (i as i32 + 1) - 5) % 4000);
        }
        let text = eval.weights_text();
        assert_eq!(text.lines().count(), n);
        let back = E::with_weights(&text).unwrap();
        assert_eq!(back.weights(), eval.weights());
        // Names are unique, so that a file can name each.
        let names: Vec<String> = eval.weights().into_iter().map(|w| w.name).collect();
        for (i, name) in names.iter().enumerate() {
            assert!(!names[..i].contains(name), "{name} twice");
            assert!(!name.contains(char::is_whitespace) && !name.contains('#'));
        }
        // A partial file changes only what it names.
        let first = &names[0];
        let partial = E::with_weights(&format!("# one weight\n\n{first} 123  # set\n")).unwrap();
        let w = partial.weights();
        assert_eq!(w[0].value, 123);
        assert_eq!(w[1..], E::default().weights()[1..]);
    }

    #[test]
    fn every_evaluator_round_trips_its_weights() {
        round_trip::<AckenheadEval>();
        round_trip::<AntChessEval<2>>();
        round_trip::<AntChessEval<3>>();
        round_trip::<EpaminondasEval>();
        round_trip::<ReinesEval>();
        assert_eq!(
            AckenheadEval::baseline().weights_text().lines().nth(2),
            Some("material.leo.mg 700")
        );
    }

    #[test]
    fn the_baseline_players_count_the_hand_set_piece_values() {
        fn values<E: Tunable>(eval: &E, n: usize) -> Vec<i32> {
            eval.weights()[..n].iter().map(|w| w.value).collect()
        }
        // Tuned defaults change the search's piece values, not the yardsticks'.
        assert_eq!(values(&ReinesEval::baseline(), 3), [300, 200, 100]);
        assert_ne!(values(&ReinesEval::default(), 3), [300, 200, 100]);
        let ant = [2000, 100, 400, 300, 250, 350, 200];
        assert_eq!(values(&AntChessEval::<2>::baseline(), 7), ant);
        assert_eq!(values(&AntChessEval::<3>::baseline(), 7), ant);
        // Ackenhead: two weights a kind (middle game, endgame), the King first.
        let hand = [0, 0, 700, 700, 450, 450, 300, 300, 300, 300, 100, 100];
        assert_eq!(values(&AckenheadEval::baseline(), 12), hand);
        assert_ne!(values(&AckenheadEval::default(), 12), hand);
        // The other weights are the defaults (the baselines read only the material).
        let (base, def) = (
            ReinesEval::baseline().weights(),
            ReinesEval::default().weights(),
        );
        assert_eq!(base[3..], def[3..]);
        assert_eq!(
            EpaminondasEval::baseline().weights(),
            EpaminondasEval::default().weights()
        );
    }

    #[test]
    fn bad_weight_files_say_which_line_and_why() {
        let cases = [
            (
                "counsellor 700\nsoldier\n",
                "line 2: expected `<name> <value>`",
            ),
            ("counsellor 700 3\n", "line 1: expected"),
            (
                "\ncounsellor seven\n",
                "line 2: bad value `seven` for `counsellor`",
            ),
            ("counsellor 99999\n", "bad value `99999`"),
            (
                "counsellor 1\n# c\ncounsellor 2\n",
                "line 3: `counsellor` is given twice (first on line 1)",
            ),
            (
                "queen 5\n",
                "line 1: unknown weight `queen`: expected one of counsellor, soldier",
            ),
        ];
        for (text, want) in cases {
            let err = ReinesEval::with_weights(text).unwrap_err();
            assert!(err.contains(want), "{text:?}: {err}");
        }
        // A failed load changes nothing.
        let mut eval = ReinesEval::default();
        assert!(eval.load_weights("counsellor 1\nqueen 2\n").is_err());
        assert_eq!(eval.weights(), ReinesEval::default().weights());
    }
}
