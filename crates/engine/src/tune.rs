//! Texel-style tuning of an evaluator's [`Tunable`] weights from finished games. No I/O:
//! `myrmidon tune` reads the records and writes the weights.
//!
//! 1. **Samples**: the quiet positions of each game ([`quiet_samples`]): after the first plies,
//!    not over, the side to move not in check and without a tactical move (capture, promotion,
//!    immediate win), so that the static evaluation means something. Each is labelled with the
//!    game's result for the player to move: their points (1, ½, 0 between two; with three, the
//!    mover's share).
//! 2. **Scale**: `K` such that `sigmoid(K · eval)` best predicts the labels with the weights as
//!    they are ([`fit_scale`]).
//! 3. **Weights**: with `K` fixed, coordinate descent on the mean squared error (texel's local
//!    search): each weight in turn is tried at `+step` and `-step` and kept where the error
//!    falls; when a whole pass changes nothing the step is halved, down to 1.
//!
//! Everything is deterministic: the same samples and settings give the same weights.

use myrmidon_rules::movelist::MoveCounter;
use myrmidon_rules::record::Event;
use myrmidon_rules::{DynRecord, Position, Record};

use crate::eval::{Evaluator, Tunable, Weight, MAX_WEIGHT};
use crate::games::{with_engine_game, EngineGame, EngineVisitor};

/// A position and the points its player to move made in the end.
#[derive(Clone, Debug)]
pub struct Sample<P> {
    pub pos: P,
    /// 0 to 1.
    pub label: f64,
}

/// The quiet positions of a finished game with their labels (none if the game is not over).
/// Positions before ply `skip_plies` are left out (the opening, often random in self-play).
pub fn quiet_samples<P: Position>(record: &Record<P>, skip_plies: usize) -> Vec<Sample<P>> {
    labelled_samples(
        record,
        &[],
        &Sampling {
            skip_plies,
            ..Sampling::default()
        },
    )
}

/// The score a move's comment gives, from the view of the player who made it, in centipawns
/// (`+0.35/12 0.51s` → 35, `-1.20/3` → -120; a mate, `+M3/9` or `-M2`, as ±[`MATE_COMMENT`]);
/// `None` for a comment without a score (`book`, a time alone).
pub fn comment_score(comment: &str) -> Option<f64> {
    let word = comment.split_whitespace().next()?;
    let score = word.split('/').next()?;
    let (sign, rest) = match score.as_bytes().first()? {
        b'+' => (1.0, &score[1..]),
        b'-' => (-1.0, &score[1..]),
        _ => return None,
    };
    if let Some(moves) = rest.strip_prefix('M') {
        moves.parse::<u32>().ok()?;
        return Some(sign * MATE_COMMENT);
    }
    let pawns: f64 = rest.parse().ok()?;
    pawns.is_finite().then_some(sign * pawns * 100.0)
}

/// What a mate in a move's comment counts as, in centipawns.
pub const MATE_COMMENT: f64 = 10_000.0;

/// The quiet positions of a finished game with their labels, as `sampling` says: the points
/// the player to move made, blended with the score the engine that moved from there wrote in
/// its move's comment (`comments[i]` is the comment of the `i`-th move chosen by a player, as
/// [`myrmidon_rules::pgn::ReadGame::comments`] gives them). With a blend, positions whose move
/// has no score are left out. None if the game is not over.
pub fn labelled_samples<P: Position>(
    record: &Record<P>,
    comments: &[Option<String>],
    sampling: &Sampling,
) -> Vec<Sample<P>> {
    let Some(result) = record.result() else {
        return Vec::new();
    };
    let points = result.points(record.start().player_names().len());
    let blend = sampling.result_weight < 1.0;
    let mut moves = 0;
    let mut out = Vec::new();
    for (ply, (event, pos)) in record.events().iter().zip(record.positions()).enumerate() {
        if !matches!(event, Event::Move(_)) {
            continue;
        }
        let comment = comments.get(moves).and_then(|c| c.as_deref());
        moves += 1;
        if ply < sampling.skip_plies || !is_quiet(pos) {
            continue;
        }
        let result = points.get(pos.to_move() as usize).copied().unwrap_or(0.0);
        let label = if blend {
            let Some(score) = comment.and_then(comment_score) else {
                continue;
            };
            let w = sampling.result_weight.clamp(0.0, 1.0);
            w * result + (1.0 - w) * sigmoid(sampling.score_scale * score)
        } else {
            result
        };
        out.push(Sample {
            pos: pos.clone(),
            label,
        });
    }
    out
}

/// Which positions of each game to tune on, and how to label them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sampling {
    /// Leave out the positions before this ply (random openings).
    pub skip_plies: usize,
    /// At most this many quiet positions of each game, evenly spread over it, so that long
    /// games (hundreds of plies of shuffling before a draw) do not outweigh the others.
    pub per_game: Option<usize>,
    /// The weight of the game's result in a label, from 0 to 1; the rest is the score of the
    /// move's comment, `sigmoid(score_scale · score)`. 1 (the default): the result alone.
    pub result_weight: f64,
    /// The scale of the comments' scores in the labels: the default, ln 10 / 400, makes 400
    /// centipawns odds of ten to one.
    pub score_scale: f64,
}

/// The default [`Sampling::score_scale`].
pub const SCORE_SCALE: f64 = std::f64::consts::LN_10 / 400.0;

impl Default for Sampling {
    fn default() -> Self {
        Sampling {
            skip_plies: 0,
            per_game: None,
            result_weight: 1.0,
            score_scale: SCORE_SCALE,
        }
    }
}

/// At most `n` of `items`, evenly spread (the first kept), in order.
pub fn spread<T>(items: Vec<T>, n: usize) -> Vec<T> {
    let len = items.len();
    if len <= n {
        return items;
    }
    let mut keep = (0..n).map(|i| i * len / n).peekable();
    items
        .into_iter()
        .enumerate()
        .filter_map(|(i, item)| {
            if keep.peek() == Some(&i) {
                keep.next();
                Some(item)
            } else {
                None
            }
        })
        .collect()
}

/// Not over, not in check, and no capture, promotion or immediate win to play.
pub fn is_quiet<P: Position>(pos: &P) -> bool {
    if pos.in_check() || pos.draw_by_rule().is_some() {
        return false;
    }
    let mut tactical = MoveCounter(0);
    pos.generate_tactical(&mut tactical);
    tactical.0 == 0 && pos.count_legal_moves() > 0
}

#[inline]
fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The mean squared error of `sigmoid(k · eval)` against the labels (0 without samples).
pub fn mean_error<P: Position, E: Evaluator<P>>(eval: &E, samples: &[Sample<P>], k: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let sum: f64 = samples
        .iter()
        .map(|s| {
            let e = eval.evaluate(&s.pos, s.pos.to_move()) as f64;
            let d = sigmoid(k * e) - s.label;
            d * d
        })
        .sum();
    sum / samples.len() as f64
}

/// The bounds of the scale search: an evaluation of one pawn (100) moves the prediction by
/// between almost nothing and almost everything.
pub const K_MIN: f64 = 1e-5;
pub const K_MAX: f64 = 0.2;

/// The scale `K` that minimises [`mean_error`] for these weights: a golden-section search over
/// `ln K` in [1e-5, 0.2].
pub fn fit_scale<P: Position, E: Evaluator<P>>(eval: &E, samples: &[Sample<P>]) -> f64 {
    let error = |lnk: f64| mean_error(eval, samples, lnk.exp());
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = (K_MIN.ln(), K_MAX.ln());
    let mut c = b - ratio * (b - a);
    let mut d = a + ratio * (b - a);
    let (mut ec, mut ed) = (error(c), error(d));
    for _ in 0..40 {
        if ec <= ed {
            b = d;
            d = c;
            ed = ec;
            c = b - ratio * (b - a);
            ec = error(c);
        } else {
            a = c;
            c = d;
            ec = ed;
            d = a + ratio * (b - a);
            ed = error(d);
        }
    }
    ((a + b) / 2.0).exp()
}

/// The default [`TuneSettings::l2`].
pub const DEFAULT_L2: f64 = 1e-4;

/// How to tune.
#[derive(Clone, Debug, PartialEq)]
pub struct TuneSettings {
    /// The most passes over the weights (a pass tries every weight once).
    pub iterations: u32,
    /// The first step of the local search; halved when a pass gains nothing, down to 1.
    pub step: i32,
    /// The scale; `None` fits it first ([`fit_scale`]).
    pub k: Option<f64>,
    /// Gradient descent (linear evaluations): the pull of every weight back to where it
    /// started, `l2 · Σ (K · (w − w₀))²` added to the error, so that terms the samples hardly
    /// see stay where they were and collinear terms (piece values and piece-square values)
    /// do not drift apart.
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
    /// before and after (each with its own fitted `K`).
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

/// Tunes `eval`'s weights on `samples` (see the module's documentation) and returns what it
/// did; `eval` ends with the tuned weights. Weights stay within ±[`MAX_WEIGHT`].
pub fn tune<P: Position, E: Evaluator<P>>(
    eval: &mut E,
    samples: &[Sample<P>],
    held_out: &[Sample<P>],
    settings: &TuneSettings,
    progress: &mut dyn FnMut(&Progress),
) -> TuneOutcome {
    let before = eval.weights();
    let k = settings.k.unwrap_or_else(|| fit_scale(eval, samples));
    let error_before = mean_error(eval, samples, k);
    let held_before = mean_error(eval, held_out, k);
    let validation = |eval: &E| {
        (!held_out.is_empty()).then(|| Validation {
            samples: held_out.len(),
            before: held_before,
            after: mean_error(eval, held_out, k),
        })
    };
    if let Some(features) = linear_features(eval, samples) {
        let passes = descend(eval, samples, &features, k, settings, progress);
        return TuneOutcome {
            samples: samples.len(),
            k,
            k_at_bound: settings.k.is_none() && !(K_MIN * 1.01..=K_MAX / 1.01).contains(&k),
            error_before,
            error_after: mean_error(eval, samples, k),
            validation: validation(eval),
            passes,
            before,
            after: eval.weights(),
        };
    }
    let mut best = error_before;
    let mut step = settings.step.max(1);
    let mut passes = 0;
    while passes < settings.iterations && !samples.is_empty() {
        passes += 1;
        let mut improved = false;
        let free = settings.free(&eval.weights());
        for i in (0..free.len()).filter(|&i| free[i]) {
            let value = eval.weights()[i].value;
            for candidate in [value + step, value - step] {
                if candidate.abs() > MAX_WEIGHT {
                    continue;
                }
                eval.set_weight(i, candidate);
                let e = mean_error(eval, samples, k);
                if e < best {
                    best = e;
                    improved = true;
                    break;
                }
                eval.set_weight(i, value);
            }
        }
        progress(&Progress {
            pass: passes,
            step,
            error: best,
        });
        if !improved {
            if step == 1 {
                break;
            }
            step /= 2;
        }
    }
    TuneOutcome {
        samples: samples.len(),
        k,
        k_at_bound: settings.k.is_none() && !(K_MIN * 1.01..=K_MAX / 1.01).contains(&k),
        error_before,
        error_after: best,
        validation: validation(eval),
        passes,
        before,
        after: eval.weights(),
    }
}

/// The coefficients of every sample's evaluation ([`Evaluator::linear_terms`]), flattened:
/// sample `i` has the pairs `pairs[offsets[i]..offsets[i + 1]]`. `None` if the evaluation is
/// not linear.
struct Features {
    offsets: Vec<usize>,
    pairs: Vec<(u32, f32)>,
}

fn linear_features<P: Position, E: Evaluator<P>>(
    eval: &E,
    samples: &[Sample<P>],
) -> Option<Features> {
    let mut out = Vec::new();
    let mut features = Features {
        offsets: vec![0],
        pairs: Vec::new(),
    };
    for s in samples {
        if !eval.linear_terms(&s.pos, s.pos.to_move(), &mut out) {
            return None;
        }
        features.pairs.extend_from_slice(&out);
        features.offsets.push(features.pairs.len());
    }
    Some(features)
}

/// Gradient descent stops when a pass lowers the error by less than this.
pub const MIN_GAIN: f64 = 1e-9;

/// Adam steps of full-batch gradient descent a pass, for a linear evaluation.
pub const STEPS_PER_PASS: u32 = 50;

/// Gradient descent (Adam, full batch) on the mean squared error of a linear evaluation, all
/// weights at once, with an L2 pull of every weight back to where it started
/// ([`TuneSettings::l2`]). A pass is [`STEPS_PER_PASS`] steps; the learning rate is
/// `settings.step / 4` centipawns. Stops after `settings.iterations` passes or when a pass
/// gains less than [`MIN_GAIN`]. Returns the passes made.
fn descend<P: Position, E: Evaluator<P>>(
    eval: &mut E,
    samples: &[Sample<P>],
    features: &Features,
    k: f64,
    settings: &TuneSettings,
    progress: &mut dyn FnMut(&Progress),
) -> u32 {
    let start: Vec<f64> = eval.weights().iter().map(|w| w.value as f64).collect();
    let free = settings.free(&eval.weights());
    let n = start.len();
    let mut w = start.clone();
    let (mut m, mut v) = (vec![0.0; n], vec![0.0; n]);
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8);
    let rate = settings.step.max(1) as f64 / 4.0;
    let pull = 2.0 * settings.l2 * k * k;
    let count = samples.len().max(1) as f64;
    let mut grad = vec![0.0; n];
    let mut last_error = f64::INFINITY;
    let mut t = 0i32;
    let mut passes = 0;
    while passes < settings.iterations && !samples.is_empty() {
        passes += 1;
        let mut error = 0.0;
        for _ in 0..STEPS_PER_PASS {
            t += 1;
            grad.iter_mut().for_each(|g| *g = 0.0);
            error = 0.0;
            for (i, s) in samples.iter().enumerate() {
                let pairs = &features.pairs[features.offsets[i]..features.offsets[i + 1]];
                let e: f64 = pairs.iter().map(|&(j, c)| w[j as usize] * c as f64).sum();
                let p = sigmoid(k * e);
                let d = p - s.label;
                error += d * d;
                let g = 2.0 * d * p * (1.0 - p) * k / count;
                for &(j, c) in pairs {
                    grad[j as usize] += g * c as f64;
                }
            }
            error /= count;
            for j in (0..n).filter(|&j| free[j]) {
                let g = grad[j] + pull * (w[j] - start[j]);
                m[j] = b1 * m[j] + (1.0 - b1) * g;
                v[j] = b2 * v[j] + (1.0 - b2) * g * g;
                let mh = m[j] / (1.0 - b1.powi(t));
                let vh = v[j] / (1.0 - b2.powi(t));
                w[j] = (w[j] - rate * mh / (vh.sqrt() + eps))
                    .clamp(-(MAX_WEIGHT as f64), MAX_WEIGHT as f64);
            }
        }
        progress(&Progress {
            pass: passes,
            step: settings.step,
            error,
        });
        if last_error - error < MIN_GAIN {
            break;
        }
        last_error = error;
    }
    for (j, &value) in w.iter().enumerate() {
        eval.set_weight(j, value.round() as i32);
    }
    passes
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
            let quiet = labelled_samples(typed, comments, &self.sampling);
            let quiet = match self.sampling.per_game {
                Some(n) => spread(quiet, n),
                None => quiet,
            };
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
    use crate::eval::{AckenheadEval, ReinesEval};
    use myrmidon_rules::games::ackenhead::{Ackenhead, AckenheadPosition};
    use myrmidon_rules::games::reines::{Reines, ReinesPosition};
    use myrmidon_rules::rng::Rng;
    use myrmidon_rules::{Game, Settings};

    /// Quiet positions of random Jeu de Reines games, with some material gone.
    fn random_quiet_positions(games: u64) -> Vec<ReinesPosition> {
        let mut out = Vec::new();
        for seed in 0..games {
            let mut rng = Rng::new(seed + 1);
            let mut pos = Reines.start(&Settings::default()).unwrap();
            for _ in 0..120 {
                let moves = pos.moves();
                if moves.is_empty() {
                    break;
                }
                let mv = moves.iter().copied().nth(rng.below(moves.len())).unwrap();
                pos.make_move(mv);
                if is_quiet(&pos) && pos.outcome().is_none() {
                    out.push(pos.clone());
                }
            }
        }
        out
    }

    /// The baseline's evaluation (hand-set piece values, the other terms the defaults) with
    /// other piece values; the tests start from the baseline's.
    fn truth() -> ReinesEval {
        let mut eval = ReinesEval::baseline();
        eval.load_weights("counsellor 500\nsoldier 150\nworker 100\n")
            .unwrap();
        eval
    }

    #[test]
    fn the_tuner_recovers_known_piece_values() {
        let truth = truth();
        let k_true = 0.01;
        let positions = random_quiet_positions(40);
        let samples: Vec<Sample<ReinesPosition>> = positions
            .into_iter()
            .map(|pos| {
                let e = truth.evaluate(&pos, pos.to_move()) as f64;
                Sample {
                    label: sigmoid(k_true * e),
                    pos,
                }
            })
            .collect();
        let unbalanced = samples
            .iter()
            .filter(|s| (s.label - 0.5).abs() > 0.01)
            .count();
        assert!(
            unbalanced > 200,
            "only {unbalanced} positions with a material difference"
        );

        let mut eval = ReinesEval::baseline();
        let mut errors = Vec::new();
        // The piece values alone are fitted: the other terms, the same in the truth, stay.
        let others = [
            "worker.",
            "queen.",
            "counsellor.",
            "ponte.",
            "mobility",
            "tempo",
            "soldier.",
            "threat.",
        ];
        let settings = TuneSettings {
            fixed: others.iter().map(|p| p.to_string()).collect(),
            ..TuneSettings::default()
        };
        let outcome = tune(&mut eval, &samples, &[], &settings, &mut |p| {
            errors.push(p.error)
        });
        assert!(
            outcome.error_after < outcome.error_before / 10.0,
            "{outcome:?}"
        );
        // The error never rises from one pass to the next.
        assert!(errors.windows(2).all(|w| w[1] <= w[0]), "{errors:?}");
        // The ratios of the values come near the truth's: counsellor 5 workers, soldier 1.5.
        let w: Vec<f64> = outcome.after.iter().map(|w| w.value as f64).collect();
        let (c, s, wk) = (w[0] / w[2], w[1] / w[2], 1.0);
        assert!(
            (c - 5.0).abs() < 0.5,
            "counsellor/worker {c}: {:?}",
            outcome.after
        );
        assert!(
            (s - 1.5).abs() < 0.3,
            "soldier/worker {s}: {:?}",
            outcome.after
        );
        assert_eq!(wk, 1.0);
        // The same input gives the same weights.
        let mut again = ReinesEval::baseline();
        let second = tune(&mut again, &samples, &[], &settings, &mut |_| {});
        assert_eq!(second, outcome);
        assert_eq!(again.weights(), outcome.after);
    }

    /// Quiet Ackenhead positions of random games.
    fn ackenhead_positions(games: u64) -> Vec<AckenheadPosition> {
        let mut out = Vec::new();
        let mut rng = Rng::new(3);
        for _ in 0..games {
            let mut pos = Ackenhead.start(&Settings::default()).unwrap();
            for _ in 0..60 {
                let moves = pos.moves();
                if moves.is_empty() || pos.draw_by_rule().is_some() {
                    break;
                }
                pos.make_move(moves[rng.below(moves.len())]);
                if is_quiet(&pos) {
                    out.push(pos.clone());
                }
            }
        }
        out
    }

    #[test]
    fn gradient_descent_fits_a_linear_evaluation_and_the_pull_holds_it() {
        // The truth: the default weights with mobility and tempo set.
        let mut truth = AckenheadEval::baseline();
        let names: Vec<String> = truth.weights().iter().map(|w| w.name.clone()).collect();
        let index = |name: &str| names.iter().position(|n| n == name).unwrap();
        for (name, value) in [
            ("mobility.pao.mg", 12),
            ("mobility.vao.eg", 9),
            ("mobility.mao.mg", 15),
            ("tempo.mg", 20),
        ] {
            truth.set_weight(index(name), value);
        }
        let k = 0.003;
        let samples: Vec<Sample<AckenheadPosition>> = ackenhead_positions(60)
            .into_iter()
            .map(|pos| Sample {
                label: sigmoid(k * truth.evaluate(&pos, pos.to_move()) as f64),
                pos,
            })
            .collect();
        let (fit, held) = samples.split_at(samples.len() * 4 / 5);
        let settings = TuneSettings {
            k: Some(k),
            iterations: 40,
            l2: 0.0,
            ..TuneSettings::default()
        };
        let mut eval = AckenheadEval::baseline();
        let outcome = tune(&mut eval, fit, held, &settings, &mut |_| {});
        let v = outcome.validation.unwrap();
        assert_eq!(v.samples, held.len());
        assert!(v.after < v.before / 4.0, "{v:?}");
        let pao = eval.weights()[index("mobility.pao.mg")].value;
        assert!((pao - 12).abs() <= 4, "mobility.pao.mg {pao}");
        // A strong pull keeps every weight where it started.
        let mut held_back = AckenheadEval::baseline();
        let strong = TuneSettings {
            l2: 1e6,
            ..settings.clone()
        };
        let outcome = tune(&mut held_back, fit, held, &strong, &mut |_| {});
        for (a, b) in outcome.before.iter().zip(&outcome.after) {
            assert!(
                (a.value - b.value).abs() <= 1,
                "{} {} -> {}",
                a.name,
                a.value,
                b.value
            );
        }
        // A fixed prefix holds its weights while the others are fitted.
        let mut anchored = AckenheadEval::baseline();
        let fixing = TuneSettings {
            fixed: vec!["mobility.pao".to_string(), "material".to_string()],
            ..settings
        };
        let outcome = tune(&mut anchored, fit, held, &fixing, &mut |_| {});
        for (a, b) in outcome.before.iter().zip(&outcome.after) {
            if a.name.starts_with("mobility.pao") || a.name.starts_with("material") {
                assert_eq!(a.value, b.value, "{} moved", a.name);
            }
        }
        // The free weights still fit what the held ones do not explain.
        let v = outcome.validation.unwrap();
        assert!(v.after < v.before / 2.0, "{v:?}");
    }

    #[test]
    fn the_scale_fits_the_labels() {
        let truth = truth();
        let samples: Vec<Sample<ReinesPosition>> = random_quiet_positions(20)
            .into_iter()
            .map(|pos| Sample {
                label: sigmoid(0.004 * truth.evaluate(&pos, pos.to_move()) as f64),
                pos,
            })
            .collect();
        let k = fit_scale(&truth, &samples);
        assert!((k - 0.004).abs() < 0.0001, "{k}");
        assert!(mean_error(&truth, &samples, k) < 1e-9);
        assert_eq!(mean_error(&truth, &[], k), 0.0);
    }

    fn skip(skip_plies: usize) -> Sampling {
        Sampling {
            skip_plies,
            ..Sampling::default()
        }
    }

    #[test]
    fn spread_keeps_evenly_spaced_items() {
        assert_eq!(spread((0..10).collect(), 5), vec![0, 2, 4, 6, 8]);
        assert_eq!(spread((0..10).collect(), 3), vec![0, 3, 6]);
        assert_eq!(spread((0..3).collect(), 5), vec![0, 1, 2]);
        assert_eq!(spread((0..3).collect::<Vec<i32>>(), 0), Vec::<i32>::new());
    }

    #[test]
    fn comments_give_scores_from_the_movers_view() {
        assert_eq!(comment_score("+0.35/12 0.51s"), Some(35.0));
        assert_eq!(comment_score("-1.20/3 0.01s"), Some(-120.0));
        assert_eq!(comment_score("+M3/9 0.20s"), Some(MATE_COMMENT));
        assert_eq!(comment_score("-M2 0.00s"), Some(-MATE_COMMENT));
        for none in [
            "book",
            "1.23s",
            "",
            "+x/3",
            "-M/2",
            "+inf/2",
            "illegal move",
        ] {
            assert_eq!(comment_score(none), None, "{none}");
        }
    }

    /// A finished game of Jeu de Reines: random moves from the start until the end.
    fn finished_reines_game(seed: u64) -> Box<dyn DynRecord> {
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
    fn labels_blend_the_result_with_the_comments_scores() {
        let record = finished_reines_game(11);
        let typed = myrmidon_rules::dynamic::record_of::<ReinesPosition>(&*record).unwrap();
        let points = typed.result().unwrap().points(2);
        // Every even move scored +4.00 by its mover, the odd ones without a score.
        let moves = typed.events().len();
        let comments: Vec<Option<String>> = (0..moves)
            .map(|i| (i % 2 == 0).then(|| "+4.00/7 0.10s".to_string()))
            .collect();
        let sampling = Sampling {
            result_weight: 0.25,
            ..Sampling::default()
        };
        let blended = labelled_samples(typed, &comments, &sampling);
        let plain = quiet_samples(typed, 0);
        assert!(!blended.is_empty() && blended.len() < plain.len());
        let score = sigmoid(SCORE_SCALE * 400.0);
        assert!((score - 10.0 / 11.0).abs() < 1e-9);
        for s in &blended {
            let result = points[s.pos.to_move() as usize];
            assert!((s.label - (0.25 * result + 0.75 * score)).abs() < 1e-9);
        }
        // The positions kept are those whose move has a score: the even plies.
        let even: Vec<String> = typed
            .positions()
            .iter()
            .step_by(2)
            .take(moves.div_ceil(2))
            .filter(|p| is_quiet(*p))
            .map(|p| p.to_string())
            .collect();
        let kept: Vec<String> = blended.iter().map(|s| s.pos.to_string()).collect();
        assert_eq!(kept, even);
        // The result alone (the default) keeps every quiet position.
        let alone = labelled_samples(typed, &comments, &Sampling::default());
        assert_eq!(alone.len(), plain.len());
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
