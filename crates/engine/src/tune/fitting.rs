//! Fitting: the scale `K` of the prediction `sigmoid(K · eval)`, then the weights that
//! minimise its mean squared error against the samples' labels by gradient descent on the
//! evaluation's coefficients ([`Evaluator::linear_terms`]).

use myrmidon_rules::Position;

use super::{sigmoid, Progress, Sample, TuneOutcome, TuneSettings, Validation};
use crate::eval::{Evaluator, MAX_WEIGHT};

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
    let features = linear_features(eval, samples);
    let passes = descend(eval, samples, &features, k, settings, progress);
    let error_after = mean_error(eval, samples, k);
    TuneOutcome {
        samples: samples.len(),
        k,
        k_at_bound: settings.k.is_none() && !(K_MIN * 1.01..=K_MAX / 1.01).contains(&k),
        error_before,
        error_after,
        validation: (!held_out.is_empty()).then(|| Validation {
            samples: held_out.len(),
            before: held_before,
            after: mean_error(eval, held_out, k),
        }),
        passes,
        before,
        after: eval.weights(),
    }
}

/// The coefficients of every sample's evaluation ([`Evaluator::linear_terms`]), flattened:
/// sample `i` has the pairs `pairs[offsets[i]..offsets[i + 1]]`.
struct Features {
    offsets: Vec<usize>,
    pairs: Vec<(u32, f32)>,
}

fn linear_features<P: Position, E: Evaluator<P>>(eval: &E, samples: &[Sample<P>]) -> Features {
    let mut out = Vec::new();
    let mut features = Features {
        offsets: vec![0],
        pairs: Vec::new(),
    };
    for s in samples {
        eval.linear_terms(&s.pos, s.pos.to_move(), &mut out);
        features.pairs.extend_from_slice(&out);
        features.offsets.push(features.pairs.len());
    }
    features
}

/// Gradient descent stops when a pass lowers the error by less than this.
pub const MIN_GAIN: f64 = 1e-9;

/// Adam steps of full-batch gradient descent a pass.
pub const STEPS_PER_PASS: u32 = 50;

/// Gradient descent (Adam, full batch) on the mean squared error of the evaluation, all
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{AckenheadEval, ReinesEval, Tunable};
    use crate::tune::is_quiet;
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
            "pst.",
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
        // The error falls from each pass to the next, until the one that gains nothing, where
        // gradient descent stops (Adam's steps may overshoot the minimum a little there).
        let falling = &errors[..errors.len() - 1];
        assert!(falling.windows(2).all(|w| w[1] <= w[0]), "{errors:?}");
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
}
