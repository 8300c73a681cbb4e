//! The sequential probability ratio test and its maximum-likelihood solvers.

use std::str::FromStr;

use super::*;

/// How the SPRT's Elo bounds are read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SprtModel {
    /// Normalised Elo (nElo), fastchess's default (`model=normalized`, and what fishtest
    /// uses): the bounds are in units of the score's standard deviation, so they mean the same
    /// at any draw rate.
    #[default]
    Normalized,
    /// Logistic Elo (`model=logistic`): the bounds are ordinary Elo differences, converted to
    /// expected scores by [`elo_to_score`].
    Logistic,
}

impl SprtModel {
    /// `normalized` or `logistic`, as fastchess spells them.
    pub fn name(self) -> &'static str {
        match self {
            SprtModel::Normalized => "normalized",
            SprtModel::Logistic => "logistic",
        }
    }
}

impl FromStr for SprtModel {
    type Err = StatsError;

    fn from_str(s: &str) -> Result<SprtModel, StatsError> {
        match s {
            "normalized" => Ok(SprtModel::Normalized),
            "logistic" => Ok(SprtModel::Logistic),
            _ => Err(StatsError(format!(
                "sprt: unknown model '{s}' (expected normalized or logistic)"
            ))),
        }
    }
}

/// What the SPRT says after the games so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SprtStatus {
    /// Neither bound reached: play on.
    Continue,
    /// LLR ≤ lower bound: the difference is at most elo0 (the change fails).
    AcceptH0,
    /// LLR ≥ upper bound: the difference is at least elo1 (the change passes).
    AcceptH1,
}

impl SprtStatus {
    /// `"H0"`, `"H1"` or `None`, for the summary's `"sprt"` field.
    pub fn hypothesis(self) -> Option<&'static str> {
        match self {
            SprtStatus::Continue => None,
            SprtStatus::AcceptH0 => Some("H0"),
            SprtStatus::AcceptH1 => Some("H1"),
        }
    }
}

/// The counts an SPRT is run on: games one by one, or game pairs. Made from `&Trinomial` or
/// `&Pentanomial` by `into()`, so [`Sprt::llr`] takes either.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtSample<'a> {
    Trinomial(&'a Trinomial),
    Pentanomial(&'a Pentanomial),
}

impl<'a> From<&'a Trinomial> for SprtSample<'a> {
    fn from(t: &'a Trinomial) -> SprtSample<'a> {
        SprtSample::Trinomial(t)
    }
}

impl<'a> From<&'a Pentanomial> for SprtSample<'a> {
    fn from(p: &'a Pentanomial) -> SprtSample<'a> {
        SprtSample::Pentanomial(p)
    }
}

/// A sequential probability ratio test of H0: "the Elo difference is elo0" against H1: "it is
/// elo1", with false-positive rate `alpha` and false-negative rate `beta` (Wald's test, in the
/// generalised form fastchess uses).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    elo0: f64,
    elo1: f64,
    alpha: f64,
    beta: f64,
    model: SprtModel,
}

/// The widest Elo bound accepted: beyond it the scores of the hypotheses are too close to 0 or
/// 1 for the maximum-likelihood solvers to be meaningful, and no real test needs it.
pub(super) const MAX_SPRT_ELO: f64 = 1000.0;

impl Sprt {
    /// A test, checked as fastchess checks it (`SPRT::isValid`): elo0 < elo1, alpha and beta
    /// strictly between 0 and 1, alpha + beta < 1; and both bounds finite within ±1000.
    pub fn new(
        elo0: f64,
        elo1: f64,
        alpha: f64,
        beta: f64,
        model: SprtModel,
    ) -> Result<Sprt, StatsError> {
        let err = |m: String| Err(StatsError(format!("sprt: {m}")));
        for (name, v) in [("elo0", elo0), ("elo1", elo1)] {
            if !v.is_finite() || v.abs() > MAX_SPRT_ELO {
                return err(format!("{name} must lie between -1000 and 1000 (got {v})"));
            }
        }
        if elo0 >= elo1 {
            return err(format!(
                "elo0 must be less than elo1 (got elo0={elo0} elo1={elo1})"
            ));
        }
        for (name, v) in [("alpha", alpha), ("beta", beta)] {
            if !(v > 0.0 && v < 1.0) {
                return err(format!(
                    "{name} must lie strictly between 0 and 1 (got {v})"
                ));
            }
        }
        if alpha + beta >= 1.0 {
            return err(format!(
                "alpha + beta must be less than 1 (got {})",
                alpha + beta
            ));
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
            model,
        })
    }

    /// A test from `key=value` words, as on the command line:
    /// `elo0=0 elo1=5 alpha=0.05 beta=0.05 model=normalized`. `elo0` and `elo1` are required;
    /// `alpha` and `beta` default to 0.05 and `model` to `normalized` (fastchess's default).
    /// An unknown, repeated or malformed word is an error that names it.
    pub fn from_words<'a>(words: impl IntoIterator<Item = &'a str>) -> Result<Sprt, StatsError> {
        let mut values: [Option<f64>; 4] = [None; 4];
        let mut model: Option<SprtModel> = None;
        const KEYS: [&str; 4] = ["elo0", "elo1", "alpha", "beta"];
        for word in words {
            let Some((key, value)) = word.split_once('=') else {
                return Err(StatsError(format!(
                    "sprt: '{word}' is not a key=value word (expected elo0=, elo1=, alpha=, beta=, model=)"
                )));
            };
            if key == "model" {
                if model.is_some() {
                    return Err(StatsError("sprt: 'model' given twice".to_string()));
                }
                model = Some(value.parse()?);
                continue;
            }
            let Some(i) = KEYS.iter().position(|&k| k == key) else {
                return Err(StatsError(format!(
                    "sprt: unknown key '{key}' (expected elo0, elo1, alpha, beta or model)"
                )));
            };
            if values[i].is_some() {
                return Err(StatsError(format!("sprt: '{key}' given twice")));
            }
            let v: f64 = value.trim().parse().map_err(|_| {
                StatsError(format!("sprt: '{value}' is not a number (in '{word}')"))
            })?;
            values[i] = Some(v);
        }
        let Some(elo0) = values[0] else {
            return Err(StatsError("sprt: elo0 is missing".to_string()));
        };
        let Some(elo1) = values[1] else {
            return Err(StatsError("sprt: elo1 is missing".to_string()));
        };
        Sprt::new(
            elo0,
            elo1,
            values[2].unwrap_or(0.05),
            values[3].unwrap_or(0.05),
            model.unwrap_or_default(),
        )
    }

    pub fn elo0(&self) -> f64 {
        self.elo0
    }

    pub fn elo1(&self) -> f64 {
        self.elo1
    }

    pub fn alpha(&self) -> f64 {
        self.alpha
    }

    pub fn beta(&self) -> f64 {
        self.beta
    }

    pub fn model(&self) -> SprtModel {
        self.model
    }

    /// Wald's lower bound, ln(β / (1 − α)) (fastchess and cutechess alike): at or below it, H0
    /// is accepted.
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// Wald's upper bound, ln((1 − β) / α): at or above it, H1 is accepted.
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// What an LLR means: H1 at or above the upper bound, H0 at or below the lower bound,
    /// else continue (fastchess `SPRT::getResult`). A NaN continues.
    pub fn status(&self, llr: f64) -> SprtStatus {
        if llr >= self.upper_bound() {
            SprtStatus::AcceptH1
        } else if llr <= self.lower_bound() {
            SprtStatus::AcceptH0
        } else {
            SprtStatus::Continue
        }
    }

    /// The generalised log-likelihood ratio of H1 against H0 for the counts so far, as
    /// fastchess computes it (`SPRT::getLLR`):
    /// - each empty class counts as 1e-3 observations (fastchess `regularize`), so the
    ///   frequencies p̂ᵢ are all positive; N is the regularised total;
    /// - under each hypothesis, the distribution p over the same classes that is most likely
    ///   given p̂ while meeting the hypothesis: logistic, mean score = [`elo_to_score`] of the
    ///   bound; normalised, (mean − ½)/σ = t with t = elo·ln 10/800 for games and
    ///   √2·elo·ln 10/800 for pairs (σ of a pair's score);
    /// - LLR = N · Σ p̂ᵢ · ln(p1ᵢ / p0ᵢ).
    ///
    /// The maximum-likelihood distributions are solved to machine precision (fastchess stops
    /// at a tolerance); see `mle_mean` and `mle_normalized` in the source. With no games at all the LLR
    /// is 0 (fastchess: about −3e-7, from the regularisation alone). Pentanomial counts keep
    /// WL and DD in one class, as fastchess does. Never NaN.
    pub fn llr<'a>(&self, sample: impl Into<SprtSample<'a>>) -> f64 {
        let (scores, counts, t_factor): (&[f64], Vec<u64>, f64) = match sample.into() {
            SprtSample::Trinomial(t) => (&TRINOMIAL_SCORES, vec![t.losses, t.draws, t.wins], 1.0),
            // A pair's score is the mean of two games: its deviation is that of a game over
            // √2, so the same nElo is √2 times as many pair deviations (fastchess
            // `neloToScorePenta`).
            SprtSample::Pentanomial(p) => {
                (&PENTANOMIAL_SCORES, p.0.to_vec(), std::f64::consts::SQRT_2)
            }
        };
        if counts.iter().all(|&c| c == 0) {
            return 0.0;
        }
        let regularised: Vec<f64> = counts
            .iter()
            .map(|&c| if c == 0 { 1e-3 } else { c as f64 })
            .collect();
        let total: f64 = regularised.iter().sum();
        let phat: Vec<f64> = regularised.iter().map(|&c| c / total).collect();
        let (p0, p1) = match self.model {
            SprtModel::Logistic => (
                mle_mean(scores, &phat, elo_to_score(self.elo0)),
                mle_mean(scores, &phat, elo_to_score(self.elo1)),
            ),
            SprtModel::Normalized => (
                mle_normalized(scores, &phat, 0.5, t_factor * self.elo0 / NELO_SCALE),
                mle_normalized(scores, &phat, 0.5, t_factor * self.elo1 / NELO_SCALE),
            ),
        };
        let llr = total
            * phat
                .iter()
                .zip(p0.iter().zip(&p1))
                .map(|(&ph, (&a, &b))| ph * (b.ln() - a.ln()))
                .sum::<f64>();
        // Cannot happen with the bounds `new` accepts (the tests sweep extreme samples); kept so
        // that a match never stops on a NaN.
        if llr.is_finite() {
            llr
        } else {
            0.0
        }
    }

    /// The line cutechess prints under the results (`Tournament::results`):
    /// `SPRT: llr 2.52 (85.6%), lbound -2.94, ubound 2.94 - H1 was accepted`, the numbers to
    /// three significant digits (C's `%.3g`), the percentage llr / upper bound to one decimal,
    /// and the verdict only once there is one.
    pub fn cutechess_line(&self, llr: f64) -> String {
        let upper = self.upper_bound();
        let mut line = format!(
            "SPRT: llr {} ({:.1}%), lbound {}, ubound {}",
            format_g3(llr),
            llr / upper * 100.0,
            format_g3(self.lower_bound()),
            format_g3(upper)
        );
        match self.status(llr) {
            SprtStatus::Continue => {}
            SprtStatus::AcceptH0 => line.push_str(" - H0 was accepted"),
            SprtStatus::AcceptH1 => line.push_str(" - H1 was accepted"),
        }
        line
    }
}

impl FromStr for Sprt {
    type Err = StatsError;

    /// [`Sprt::from_words`] on the whitespace-separated words of `s`.
    fn from_str(s: &str) -> Result<Sprt, StatsError> {
        Sprt::from_words(s.split_whitespace())
    }
}

/// C's `%.3g`: three significant digits, fixed notation for exponents −4 to 2, else
/// `d.dde±XX`, trailing zeros removed.
pub(super) fn format_g3(x: f64) -> String {
    if x.is_nan() {
        return "nan".to_string();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf" } else { "-inf" }.to_string();
    }
    if x == 0.0 {
        return "0".to_string();
    }
    fn strip(s: &str) -> String {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s.to_string()
        }
    }
    // The exponent after rounding to three digits decides the notation, as in C.
    let e = format!("{x:.2e}");
    let (mantissa, exponent) = e.split_once('e').unwrap_or((&e, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    if !(-4..3).contains(&exponent) {
        let sign = if exponent < 0 { '-' } else { '+' };
        format!("{}e{sign}{:02}", strip(mantissa), exponent.abs())
    } else {
        let decimals = (2 - exponent) as usize;
        strip(&format!("{x:.decimals$}"))
    }
}

/// The root of a function that decreases from +∞ to −∞ on the open interval (lo, hi), by
/// bisection down to adjacent floating-point numbers (at most a few hundred steps; never
/// evaluates the ends).
pub(super) fn root_decreasing(f: impl Fn(f64) -> f64, mut lo: f64, mut hi: f64) -> f64 {
    for _ in 0..400 {
        let mid = lo + (hi - lo) / 2.0;
        if mid <= lo || mid >= hi {
            break;
        }
        let v = f(mid);
        if v > 0.0 {
            lo = mid;
        } else if v < 0.0 {
            hi = mid;
        } else {
            return mid;
        }
    }
    lo + (hi - lo) / 2.0
}

/// The distribution over classes worth `scores` (from 0 up to 1) that is most likely given the
/// observed frequencies `phat` (all positive) and has mean score `s` (0 < s < 1):
/// pᵢ = p̂ᵢ / (1 + θ(aᵢ − s)) with θ the root of Σ p̂ᵢ (aᵢ − s) / (1 + θ(aᵢ − s)) = 0 in
/// (−1/(a_max − s), −1/(a_min − s)) (Van den Bergh, "Comparing the approximations …",
/// Proposition 1.1, equations 1.2 and 1.3; fastchess `getLLR_logistic`). At the root the pᵢ
/// sum to 1.
pub(super) fn mle_mean(scores: &[f64], phat: &[f64], s: f64) -> Vec<f64> {
    let a_min = scores.iter().copied().fold(f64::INFINITY, f64::min);
    let a_max = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let f = |theta: f64| -> f64 {
        scores
            .iter()
            .zip(phat)
            .map(|(&a, &p)| p * (a - s) / (1.0 + theta * (a - s)))
            .sum()
    };
    let theta = root_decreasing(f, -1.0 / (a_max - s), -1.0 / (a_min - s));
    scores
        .iter()
        .zip(phat)
        .map(|(&a, &p)| p / (1.0 + theta * (a - s)))
        .collect()
}

/// The distribution over classes worth `scores` that is most likely given the observed
/// frequencies `phat` (all positive) and has (μ − `mu_ref`)/σ = `t`: Van den Bergh's fixed
/// point ("Comments on normalized Elo", section 4.1; fastchess `getLLR_normalized`). From the
/// uniform distribution, repeat: with μ and σ of the current p, φᵢ = aᵢ − mu_ref −
/// ½·t·σ·(1 + ((aᵢ − μ)/σ)²); θ the root of Σ p̂ᵢ φᵢ / (1 + θφᵢ) = 0 in (−1/max φ, −1/min φ)
/// (equation 4.9); pᵢ = p̂ᵢ / (1 + θφᵢ). fastchess stops after 10 rounds or a change below
/// 1e-4; we go on to a change below 1e-13 or 200 rounds. If φ does not change sign (only for
/// extreme t on a degenerate sample) there is no root and the last p is kept.
pub(super) fn mle_normalized(scores: &[f64], phat: &[f64], mu_ref: f64, t: f64) -> Vec<f64> {
    let n = scores.len();
    let mut p = vec![1.0 / n as f64; n];
    for _ in 0..200 {
        let mu: f64 = scores.iter().zip(&p).map(|(&a, &q)| a * q).sum();
        let var: f64 = scores
            .iter()
            .zip(&p)
            .map(|(&a, &q)| q * (a - mu) * (a - mu))
            .sum();
        let sigma = var.sqrt();
        if sigma.is_nan() || sigma <= 0.0 {
            break;
        }
        let phi: Vec<f64> = scores
            .iter()
            .map(|&a| {
                let z = (a - mu) / sigma;
                a - mu_ref - 0.5 * t * sigma * (1.0 + z * z)
            })
            .collect();
        let u = phi.iter().copied().fold(f64::INFINITY, f64::min);
        let v = phi.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if !(u < 0.0 && v > 0.0) {
            break;
        }
        let f = |theta: f64| -> f64 {
            phat.iter()
                .zip(&phi)
                .map(|(&q, &x)| q * x / (1.0 + theta * x))
                .sum()
        };
        let theta = root_decreasing(f, -1.0 / v, -1.0 / u);
        let mut change: f64 = 0.0;
        for i in 0..n {
            let next = phat[i] / (1.0 + theta * phi[i]);
            change = change.max((next - p[i]).abs());
            p[i] = next;
        }
        if change < 1e-13 {
            break;
        }
    }
    p
}
