//! The special functions and constants the statistics need: the Elo curve, the normal law
//! (through `libm`'s `erfc`).

use std::f64::consts::LN_10;

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
    0.5 * libm::erfc(-x / std::f64::consts::SQRT_2)
}
