//! The special functions and constants the statistics need: the Elo curve, the normal law.

use std::f64::consts::{LN_10, PI};

/// The 97.5 % quantile of the standard normal law: a two-sided 95 % interval is the mean
/// ± `Z95` standard errors (the value of fastchess's `CI95ZSCORE`, Φ⁻¹(0.975)).
pub const Z95: f64 = 1.959_963_984_540_054;

/// 800 / ln 10: the slope of the logistic Elo curve at a score of ½ is ln 10 / 1600 per Elo,
/// so a score deviation divided by a standard deviation becomes normalised Elo by this factor
/// (fastchess `scoreToNeloDiff`, `neloToScore*`).
pub(super) const NELO_SCALE: f64 = 800.0 / LN_10;

/// The Elo difference that gives an expected score `score` (0 to 1) under the logistic model:
/// `-400 log10(1/score - 1)` (cutechess `Elo::diff`, fastchess `scoreToEloDiff`). A score of 0
/// or below gives −∞, 1 or above +∞; ½ gives +0 (never −0).
pub fn score_to_elo(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        // `+ 0.0` turns a −0 into +0 so that an even match prints as `0.0`, not `-0.0`.
        -400.0 * (1.0 / score - 1.0).log10() + 0.0
    }
}

/// The expected score of an Elo difference under the logistic model: `1 / (1 + 10^(-elo/400))`
/// (fastchess `SPRT::leloToScore`).
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The standard normal distribution function Φ(x) = erfc(−x/√2) / 2, accurate to about 1e-15
/// relative over the whole line (no cancellation in either tail).
pub fn normal_cdf(x: f64) -> f64 {
    if x.is_nan() {
        return 0.5;
    }
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// The complementary error function. For |x| < 2.5 the series
/// erf(x) = 2/√π · e^(−x²) · Σ 2ⁿ x^(2n+1) / (1·3·…·(2n+1)) (Abramowitz & Stegun 7.1.6; every
/// term positive, so no cancellation); beyond, the continued fraction
/// erfc(x) = e^(−x²)/√π · 1/(x + ½/(x + 1/(x + (3/2)/(x + …)))) (A&S 7.1.14), evaluated from
/// the tail; erfc(−x) = 2 − erfc(x).
pub(super) fn erfc(x: f64) -> f64 {
    if x < 0.0 {
        return 2.0 - erfc(-x);
    }
    if x < 2.5 {
        let x2 = x * x;
        let mut term = x;
        let mut sum = x;
        let mut n = 0.0;
        while term > sum * 1e-17 {
            n += 1.0;
            term *= 2.0 * x2 / (2.0 * n + 1.0);
            sum += term;
        }
        1.0 - 2.0 / PI.sqrt() * (-x2).exp() * sum
    } else {
        // 60 levels are far more than enough at x ≥ 2.5 (checked against the C library).
        let mut f = x;
        for k in (1..=60).rev() {
            f = x + f64::from(k) / 2.0 / f;
        }
        (-x * x).exp() / (PI.sqrt() * f)
    }
}
