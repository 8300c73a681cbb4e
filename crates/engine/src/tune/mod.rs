//! Texel-style tuning of an evaluator's [`Tunable`] weights from finished games. No I/O:
//! `myrmidon tune` reads the records and writes the weights.
//!
//! 1. **Samples** (`samples.rs`): the quiet positions of each game ([`is_quiet`]): after the
//!    first plies ([`Sampling::skip_plies`]), not over, the side to move not in check and
//!    without a tactical move (capture, promotion, immediate win), so that the static
//!    evaluation means something; at most [`Sampling::per_game`] of each game, evenly spread.
//!    Each is labelled with the game's result for the player to move: their points (1, ½, 0
//!    between two; with three, the mover's share), or a blend of those points with the score
//!    the engine wrote in its move's comment ([`Sampling::result_weight`],
//!    [`labelled_samples`]). Every [`TuneSettings::holdout`]-th game is kept out of the fit to
//!    measure it.
//! 2. **Scale** (`fitting.rs`): `K` such that `sigmoid(K · eval)` best predicts the labels
//!    with the weights as they are ([`fit_scale`]), unless [`TuneSettings::k`] gives it.
//! 3. **Weights** (`fitting.rs`), with `K` fixed, on the mean squared error ([`tune`]): every
//!    evaluation is a sum of weight × count, whose counts it gives
//!    ([`crate::eval::Evaluator::linear_terms`]), computed once a position; gradient descent
//!    (Adam, full batch) fits all the weights at once, with an L2 pull of each back to where
//!    it started ([`TuneSettings::l2`]); the weights named by [`TuneSettings::fixed`] stay
//!    where they start.
//!
//! [`tune_records`] (this file) is the entry point: it takes the records of one game of the
//! registry and the starting weights, and does all three.
//!
//! Everything is deterministic: the same samples and settings give the same weights.

use myrmidon_rules::{DynRecord, Record};

use crate::eval::{Tunable, Weight};
use crate::games::{with_engine_game, EngineGame, EngineVisitor};
use samples::game_samples;

mod fitting;
mod samples;

pub use fitting::{fit_scale, mean_error, tune, K_MAX, K_MIN, MIN_GAIN, STEPS_PER_PASS};
pub use samples::{
    comment_score, is_quiet, labelled_samples, quiet_samples, spread, Sample, Sampling,
    MATE_COMMENT, SCORE_SCALE,
};

/// The prediction of an evaluation scaled by `K`: `sigmoid(K · eval)`, from 0 to 1.
#[inline]
fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The default [`TuneSettings::l2`].
pub const DEFAULT_L2: f64 = 1e-4;

/// How to tune.
#[derive(Clone, Debug, PartialEq)]
pub struct TuneSettings {
    /// The most passes of gradient descent, [`STEPS_PER_PASS`] steps each.
    pub iterations: u32,
    /// Four times the learning rate of gradient descent, in centipawns.
    pub step: i32,
    /// The scale; `None` fits it first ([`fit_scale`]).
    pub k: Option<f64>,
    /// The pull of every weight back to where it started, `l2 · Σ (K · (w − w₀))²` added to
    /// the error, so that terms the samples hardly see stay where they were and collinear
    /// terms (piece values and piece-square values) do not drift apart.
    pub l2: f64,
    /// Leave every `holdout`-th game (the last of each `holdout`) out of the fit and report
    /// the error on its positions before and after (0: none).
    pub holdout: usize,
    /// Weights whose names start with one of these stay where they started (`--fix`): piece
    /// values anchored while the terms collinear with them are fitted, or a group of terms
    /// kept out of the fit (at 0, the evaluation does not count it).
    pub fixed: Vec<String>,
}

impl TuneSettings {
    /// Whether the weight named `name` is held at its starting value.
    pub fn is_fixed(&self, name: &str) -> bool {
        self.fixed
            .iter()
            .any(|prefix| name.starts_with(prefix.as_str()))
    }

    /// For each of `weights`, whether the fit may move it (not [`TuneSettings::is_fixed`]).
    fn free(&self, weights: &[Weight]) -> Vec<bool> {
        weights.iter().map(|w| !self.is_fixed(&w.name)).collect()
    }
}

impl Default for TuneSettings {
    fn default() -> Self {
        TuneSettings {
            iterations: 100,
            step: 16,
            k: None,
            l2: DEFAULT_L2,
            holdout: 0,
            fixed: Vec::new(),
        }
    }
}

/// Where the tuning is, after each pass.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    pub pass: u32,
    pub step: i32,
    pub error: f64,
}

/// What tuning did: the scale, the error before and after, the weights before and after.
#[derive(Clone, Debug, PartialEq)]
pub struct TuneOutcome {
    pub samples: usize,
    pub k: f64,
    /// The fitted scale is at an end of its range ([`K_MIN`], [`K_MAX`]): the evaluation
    /// hardly predicts the results (or predicts them perfectly), and the weights mean little.
    pub k_at_bound: bool,
    pub error_before: f64,
    pub error_after: f64,
    /// The held-out positions ([`TuneSettings::holdout`]): how many, and the error on them
    /// before and after (with the scale `k` fitted on the samples).
    pub validation: Option<Validation>,
    pub passes: u32,
    pub before: Vec<Weight>,
    pub after: Vec<Weight>,
}

/// The error on positions left out of the fit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Validation {
    pub samples: usize,
    pub before: f64,
    pub after: f64,
}

/// Why records could not be tuned on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TuneError {
    #[error(transparent)]
    UnknownGame(myrmidon_rules::UnknownGame),
    /// Record `index` (from 0) is of another game.
    #[error("game {} of the records is a game of {got}, not {expected}", .index + 1)]
    WrongGame {
        index: usize,
        expected: &'static str,
        got: &'static str,
    },
    /// The starting weights file is bad.
    #[error("bad weights: {0}")]
    Weights(String),
    /// No quiet position in finished games.
    #[error(
        "no quiet position to tune on: the records need finished games that last longer than \
         the plies skipped (and, when the labels take in the moves' scores, comments with scores)"
    )]
    NoSamples,
    /// A prefix of [`TuneSettings::fixed`] names no weight of the evaluator.
    #[error(
        "--fix {0}: no weight's name starts with `{0}` (the weights are listed by `myrmidon \
         tune` on any records of the game)"
    )]
    UnknownFixed(String),
}

/// Tunes the evaluator of game `game` on these records, starting from its default weights or
/// from the weights file `start`: the dynamic face of [`quiet_samples`] and [`tune`].
pub fn tune_records(
    game: &str,
    records: &[(&dyn DynRecord, &[Option<String>])],
    start: Option<&str>,
    sampling: Sampling,
    settings: &TuneSettings,
    progress: &mut dyn FnMut(&Progress),
) -> Result<TuneOutcome, TuneError> {
    with_engine_game(
        game,
        TuneVisitor {
            records,
            start,
            sampling,
            settings,
            progress,
        },
    )
    .map_err(TuneError::UnknownGame)?
}

struct TuneVisitor<'a> {
    records: &'a [(&'a dyn DynRecord, &'a [Option<String>])],
    start: Option<&'a str>,
    sampling: Sampling,
    settings: &'a TuneSettings,
    progress: &'a mut dyn FnMut(&Progress),
}

impl EngineVisitor for TuneVisitor<'_> {
    type Output = Result<TuneOutcome, TuneError>;

    fn visit<G: EngineGame>(self, game: &'static G) -> Self::Output {
        let id = game.info().id;
        let mut samples = Vec::new();
        let mut held_out = Vec::new();
        for (index, &(record, comments)) in self.records.iter().enumerate() {
            let typed = record_for::<G>(record, id).ok_or(TuneError::WrongGame {
                index,
                expected: id,
                got: record.info().id,
            })?;
            let quiet = game_samples(typed, comments, &self.sampling);
            let holdout = self.settings.holdout;
            if holdout > 0 && index % holdout == holdout - 1 {
                held_out.extend(quiet);
            } else {
                samples.extend(quiet);
            }
        }
        if samples.is_empty() {
            return Err(TuneError::NoSamples);
        }
        let mut eval = match self.start {
            Some(text) => G::Eval::with_weights(text).map_err(TuneError::Weights)?,
            None => G::Eval::default(),
        };
        let names = eval.weights();
        if let Some(prefix) = self
            .settings
            .fixed
            .iter()
            .find(|p| !names.iter().any(|w| w.name.starts_with(p.as_str())))
        {
            return Err(TuneError::UnknownFixed(prefix.clone()));
        }
        Ok(tune(
            &mut eval,
            &samples,
            &held_out,
            self.settings,
            self.progress,
        ))
    }
}

/// The typed record if it is one of game `id` (two games may share a position type).
fn record_for<'r, G: EngineGame>(
    record: &'r dyn DynRecord,
    id: &str,
) -> Option<&'r Record<G::Pos>> {
    myrmidon_rules::dynamic::record_of::<G::Pos>(record).filter(|_| record.info().id == id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use myrmidon_rules::games::reines::ReinesPosition;
    use myrmidon_rules::rng::Rng;
    use myrmidon_rules::{Position, Settings};

    fn skip(skip_plies: usize) -> Sampling {
        Sampling {
            skip_plies,
            ..Sampling::default()
        }
    }

    /// A finished game of Jeu de Reines: random moves from the start until the end.
    pub(super) fn finished_reines_game(seed: u64) -> Box<dyn DynRecord> {
        let game = myrmidon_rules::registry::find("reines").unwrap();
        let mut record = game.new_game(&Settings::default()).unwrap();
        let mut rng = Rng::new(seed);
        while record.result().is_none() {
            let moves = record.legal_moves();
            let mv = &moves[rng.below(moves.len())];
            record.play(&mv.text).unwrap();
        }
        record
    }

    #[test]
    fn records_give_quiet_labelled_samples() {
        let record = finished_reines_game(7);
        let typed = myrmidon_rules::dynamic::record_of::<ReinesPosition>(&*record).unwrap();
        let points = typed.result().unwrap().points(2);
        let all = quiet_samples(typed, 0);
        let late = quiet_samples(typed, 10);
        assert!(!all.is_empty() && late.len() < all.len());
        for s in &all {
            assert!(is_quiet(&s.pos));
            assert_eq!(s.label, points[s.pos.to_move() as usize]);
        }
        // An unfinished game gives none.
        let game = myrmidon_rules::registry::find("reines").unwrap();
        let fresh = game.new_game(&Settings::default()).unwrap();
        let fresh = myrmidon_rules::dynamic::record_of::<ReinesPosition>(&*fresh).unwrap();
        assert!(quiet_samples(fresh, 0).is_empty());

        // Through the dynamic face: the game must match, the start weights must fit.
        let records: Vec<(&dyn DynRecord, &[Option<String>])> = vec![(&*record, &[])];
        let settings = TuneSettings {
            iterations: 2,
            ..TuneSettings::default()
        };
        let ok = tune_records(
            "reines",
            &records,
            Some("worker 90\n"),
            skip(10),
            &settings,
            &mut |_| {},
        );
        let ok = ok.unwrap();
        assert_eq!(ok.samples, late.len());
        assert_eq!(ok.before[2], Weight::new("worker", 90));
        let err = tune_records("ackenhead", &records, None, skip(0), &settings, &mut |_| {});
        assert_eq!(
            err.unwrap_err().to_string(),
            "game 1 of the records is a game of reines, not ackenhead"
        );
        let err = tune_records(
            "reines",
            &records,
            Some("pawn 1"),
            skip(0),
            &settings,
            &mut |_| {},
        );
        assert!(err
            .unwrap_err()
            .to_string()
            .contains("unknown weight `pawn`"));
        let err = tune_records(
            "reines",
            &records,
            None,
            skip(100_000),
            &settings,
            &mut |_| {},
        );
        assert_eq!(err.unwrap_err(), TuneError::NoSamples);
        // At most two positions of the game, the first and one in the middle.
        let two = Sampling {
            skip_plies: 10,
            per_game: Some(2),
            ..Sampling::default()
        };
        let ok = tune_records("reines", &records, None, two, &settings, &mut |_| {}).unwrap();
        assert_eq!(ok.samples, 2.min(late.len()));
        assert!(tune_records("chess", &records, None, skip(0), &settings, &mut |_| {}).is_err());
    }
}
