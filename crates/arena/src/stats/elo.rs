//! The Elo difference a sample gives, with its margin, normalised Elo and LOS.

use super::*;

/// What a sample says about the strength difference, from the first engine's view.
///
/// A *sample* is one game (from a [`Trinomial`]) or one game pair (from a [`Pentanomial`]),
/// scored on the 0–1 scale (a pair's points are halved).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// The number of samples: games or pairs.
    pub samples: u64,
    /// Mean points per game, 0 to 1: Σ pᵢ·aᵢ over the classes (fastchess `calcScore`).
    pub score: f64,
    /// The variance of one sample's score: Σ pᵢ·(aᵢ − score)² over the classes, pᵢ the observed
    /// frequencies (fastchess `calcVariance`, cutechess `Elo::Elo`).
    pub variance: f64,
    /// `variance / samples`, the variance of the mean score: fastchess's `variance_per_game_`
    /// (trinomial) or `variance_per_pair_` (pentanomial).
    pub variance_of_mean: f64,
    /// √`variance_of_mean`.
    pub standard_error: f64,
    /// [`score_to_elo`] of the score: ±∞ at a score of 1 or 0.
    pub elo: f64,
    /// The Elo of the low end of the 95 % score interval, score − [`Z95`]·standard error
    /// (−∞ when that reaches 0).
    pub elo_low: f64,
    /// The Elo of the high end, score + [`Z95`]·standard error (+∞ when that reaches 1).
    pub elo_high: f64,
    /// `(elo_high − elo_low) / 2`, the `+/-` that cutechess and fastchess print; +∞ when
    /// either end is infinite (they print nan there). 0 when every sample scored ½.
    pub margin: f64,
    /// Normalised Elo: (score − ½) / σ · 800/ln 10, σ the standard deviation of one game's
    /// score, estimated as √variance from games and √(2·variance) from pairs (fastchess
    /// `scoreToNeloDiff`). With a variance of 0 it is ±∞, or 0 at a score of ½.
    pub nelo: f64,
    /// Half the width of the nElo interval: [`Z95`]·standard error / σ · 800/ln 10; +∞ with a
    /// variance of 0.
    pub nelo_margin: f64,
    /// Likelihood of superiority, fastchess's: Φ((score − ½) / standard error), the chance
    /// that the first engine is the stronger one under a flat prior. With a standard error of
    /// 0 it is 1, 0 or ½ as the score is above, below or at ½ (fastchess: nan at ½).
    pub los: f64,
}

impl EloEstimate {
    /// The estimate from the counts of classes worth `scores` (0–1 scale) each; `games_per_sample`
    /// is 1 for games and 2 for pairs (it scales nElo to a per-game deviation).
    pub(super) fn from_classes(
        scores: &[f64],
        counts: &[u64],
        games_per_sample: f64,
    ) -> Option<EloEstimate> {
        let samples: u64 = counts.iter().sum();
        if samples == 0 {
            return None;
        }
        let n = samples as f64;
        let freq = |c: u64| c as f64 / n;
        let score: f64 = scores.iter().zip(counts).map(|(&a, &c)| freq(c) * a).sum();
        let variance: f64 = scores
            .iter()
            .zip(counts)
            .map(|(&a, &c)| freq(c) * (a - score) * (a - score))
            .sum();
        let variance_of_mean = variance / n;
        let standard_error = variance_of_mean.sqrt();

        // The margin maps the normal 95 % interval of the score through the Elo curve and
        // halves its width (cutechess `Elo::errorMargin`, fastchess `EloBase::error_`).
        let elo = score_to_elo(score);
        let elo_low = score_to_elo(score - Z95 * standard_error);
        let elo_high = score_to_elo(score + Z95 * standard_error);
        let margin = if elo_low.is_finite() && elo_high.is_finite() {
            (elo_high - elo_low) / 2.0
        } else {
            f64::INFINITY
        };

        let sigma = (games_per_sample * variance).sqrt();
        let (nelo, nelo_margin) = if sigma > 0.0 {
            // fastchess maps both ends of the score interval through scoreToNeloDiff and
            // halves the width; the map is linear, so that is Z95·se/σ·800/ln 10.
            (
                (score - 0.5) / sigma * NELO_SCALE,
                Z95 * standard_error / sigma * NELO_SCALE,
            )
        } else {
            (signed_infinity(score - 0.5), f64::INFINITY)
        };

        // fastchess: (1 − erf(−(score − ½) / √(2·variance_of_mean))) / 2, which is Φ((score − ½)
        // / se); computed through erfc so the far tails do not round to 0 or 1 early.
        let los = if standard_error > 0.0 {
            normal_cdf((score - 0.5) / standard_error)
        } else if score > 0.5 {
            1.0
        } else if score < 0.5 {
            0.0
        } else {
            0.5
        };

        Some(EloEstimate {
            samples,
            score,
            variance,
            variance_of_mean,
            standard_error,
            elo,
            elo_low,
            elo_high,
            margin,
            nelo,
            nelo_margin,
            los,
        })
    }
}

/// +∞ for x > 0, −∞ for x < 0, 0 for 0.
pub(super) fn signed_infinity(x: f64) -> f64 {
    if x > 0.0 {
        f64::INFINITY
    } else if x < 0.0 {
        f64::NEG_INFINITY
    } else {
        0.0
    }
}
