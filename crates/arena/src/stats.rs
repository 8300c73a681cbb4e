//! The statistics of a match: pure functions and small types, no I/O.
//!
//! Two-player matches are counted from the first engine's view, either game by game
//! ([`Trinomial`]: wins, draws, losses) or pair by pair ([`Pentanomial`]: the two games of a pair
//! are played on the same opening with the colours swapped, and the pair is scored 0, ½, 1, 1½
//! or 2 points). From either come an [`EloEstimate`] (Elo difference, its 95 % margin,
//! normalised Elo, likelihood of superiority) and the log-likelihood ratio of a sequential
//! probability ratio test ([`Sprt`]). Three-player games are summarised by [`Score`], the mean
//! points per game of one engine with a 95 % interval.
//!
//! Where the formulas come from (facts and formulas; the code here is our own):
//! - fastchess (github.com/Disservin/fastchess), `app/src/matchmaking/elo/elo_wdl.cpp`,
//!   `elo_pentanomial.cpp` and `elo.hpp` for the score, its variance, the Elo margin, nElo and
//!   LOS; `app/src/matchmaking/sprt/sprt.cpp` for the SPRT bounds, the regularisation of empty
//!   classes and both log-likelihood ratios, which follow Michel Van den Bergh's notes
//!   "Comparing the approximations for the generalized log likelihood ratio of a multinomial
//!   distribution" (logistic Elo) and "Comments on normalized Elo" (normalised Elo); its manual
//!   (`man.md`) documents `model=normalized` as the default.
//! - cutechess (github.com/cutechess/cutechess), `projects/lib/src/elo.cpp` and
//!   `tournament.cpp` for the line `Elo difference: x +/- y, LOS: z %, DrawRatio: w %`, its
//!   LOS from wins and losses only, and `projects/cli/src/enginematch.cpp` for the `Score of`
//!   line.
//!
//! Where cutechess and fastchess differ we follow fastchess: the margin uses the exact 97.5 %
//! normal quantile (cutechess approximates erf⁻¹ and prints margins about 0.14 % narrower,
//! e.g. 30.41 instead of 30.46 for +76 =123 −89). The SPRT is fastchess's (cutechess has only
//! a BayesElo model, not offered here). And where fastchess stops its root finders early, we
//! solve the maximum-likelihood problems to machine precision: its logistic LLR is off by up
//! to about 1e-4 relative, its normalised LLR by about 1e-9 on ordinary samples.
//!
//! Edge cases never panic and never give NaN: a sample with no games has no estimate (`None`);
//! a score of exactly 0 or 1 gives an Elo of −∞ or +∞; a margin whose 95 % score interval
//! reaches 0 or 1 is +∞ (fastchess and cutechess print `nan` there); see each item.

use std::f64::consts::{LN_10, PI};
use std::fmt;
use std::str::FromStr;

/// The 97.5 % quantile of the standard normal law: a two-sided 95 % interval is the mean
/// ± `Z95` standard errors (the value of fastchess's `CI95ZSCORE`, Φ⁻¹(0.975)).
pub const Z95: f64 = 1.959_963_984_540_054;

/// 800 / ln 10: the slope of the logistic Elo curve at a score of ½ is ln 10 / 1600 per Elo,
/// so a score deviation divided by a standard deviation becomes normalised Elo by this factor
/// (fastchess `scoreToNeloDiff`, `neloToScore*`).
const NELO_SCALE: f64 = 800.0 / LN_10;

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
fn erfc(x: f64) -> f64 {
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

/// A whole error or a bad setting, with a sentence that says what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StatsError(pub String);

impl fmt::Display for StatsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for StatsError {}

/// The result of one game for the first engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Wdl {
    Win,
    Draw,
    Loss,
}

impl Wdl {
    /// 1 for a win, ½ for a draw, 0 for a loss.
    pub fn points(self) -> f64 {
        f64::from(self.half_points()) / 2.0
    }

    /// 2 for a win, 1 for a draw, 0 for a loss.
    pub fn half_points(self) -> u8 {
        match self {
            Wdl::Win => 2,
            Wdl::Draw => 1,
            Wdl::Loss => 0,
        }
    }

    /// The result worth `points` (exactly 1, ½ or 0, as `GameResult::points` gives them in a
    /// two-player game); anything else is `None`.
    pub fn from_points(points: f64) -> Option<Wdl> {
        if points == 1.0 {
            Some(Wdl::Win)
        } else if points == 0.5 {
            Some(Wdl::Draw)
        } else if points == 0.0 {
            Some(Wdl::Loss)
        } else {
            None
        }
    }

    /// The same game seen from the other engine.
    pub fn reversed(self) -> Wdl {
        match self {
            Wdl::Win => Wdl::Loss,
            Wdl::Draw => Wdl::Draw,
            Wdl::Loss => Wdl::Win,
        }
    }
}

/// Games counted one by one from the first engine's view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Trinomial {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

/// The scores of the three classes on the 0–1 scale, in the order loss, draw, win.
const TRINOMIAL_SCORES: [f64; 3] = [0.0, 0.5, 1.0];

impl Trinomial {
    pub fn new(wins: u64, draws: u64, losses: u64) -> Trinomial {
        Trinomial {
            wins,
            draws,
            losses,
        }
    }

    /// Counts one more game.
    pub fn add(&mut self, result: Wdl) {
        match result {
            Wdl::Win => self.wins += 1,
            Wdl::Draw => self.draws += 1,
            Wdl::Loss => self.losses += 1,
        }
    }

    /// The same games seen from the second engine (wins and losses swapped).
    pub fn reversed(&self) -> Trinomial {
        Trinomial::new(self.losses, self.draws, self.wins)
    }

    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Wins + draws/2.
    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }

    /// Points per game, 0 to 1; `None` with no games.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.points() / n as f64)
    }

    /// Draws per game, 0 to 1 (cutechess `Elo::drawRatio`); `None` with no games.
    pub fn draw_ratio(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.draws as f64 / n as f64)
    }

    /// Cutechess's likelihood of superiority, from the decisive games only:
    /// Φ((W − L) / √(W + L)) = ½ + ½ erf((W − L) / √(2 (W + L))) (cutechess `Elo::LOS`, which
    /// prints it times 100). With no decisive game it is ½ (cutechess: nan). The
    /// [`EloEstimate::los`] of fastchess counts the draws too.
    pub fn los(&self) -> f64 {
        let decisive = (self.wins + self.losses) as f64;
        if decisive == 0.0 {
            return 0.5;
        }
        normal_cdf((self.wins as f64 - self.losses as f64) / decisive.sqrt())
    }

    /// Elo difference, margin, nElo and LOS from the games one by one (fastchess `EloWDL`,
    /// cutechess `Elo`); `None` with no games.
    pub fn elo(&self) -> Option<EloEstimate> {
        EloEstimate::from_classes(
            &TRINOMIAL_SCORES,
            &[self.losses, self.draws, self.wins],
            1.0,
        )
    }

    /// The line cutechess prints after a two-player match (`Tournament::results`), e.g.
    /// `Elo difference: -15.7 +/- 30.5, LOS: 15.6 %, DrawRatio: 42.7 %`: the Elo estimate of
    /// [`Trinomial::elo`], cutechess's [`Trinomial::los`] and the draw ratio, each to one
    /// decimal; an infinite Elo or margin prints as `inf` / `-inf`. `None` with no games.
    pub fn elo_line(&self) -> Option<String> {
        let elo = self.elo()?;
        let draws = self.draw_ratio()?;
        Some(format!(
            "Elo difference: {:.1} +/- {:.1}, LOS: {:.1} %, DrawRatio: {:.1} %",
            elo.elo,
            elo.margin,
            self.los() * 100.0,
            draws * 100.0
        ))
    }
}

/// The line cutechess prints after every game of a two-player match
/// (`EngineMatch::onGameFinished`): `Score of A vs B: W - L - D  [score] N`, wins, losses and
/// draws of `first`, its points per game to three decimals, and the number of games; two
/// spaces before the bracket, as cutechess has it. With no games the score reads `[-]`.
pub fn score_line(first: &str, second: &str, games: &Trinomial) -> String {
    let score = match games.score() {
        Some(s) => format!("{s:.3}"),
        None => "-".to_string(),
    };
    format!(
        "Score of {first} vs {second}: {} - {} - {}  [{score}] {}",
        games.wins,
        games.losses,
        games.draws,
        games.games()
    )
}

/// Game pairs counted from the first engine's view: `counts[k]` is the number of pairs in
/// which it scored `k/2` points, i.e. `[LL, LD+DL, WL+LW+DD, WD+DW, WW]` (fastchess keeps WL and
/// DD apart for its report, but every statistic uses their sum).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pentanomial(pub [u64; 5]);

/// A pair's points on the 0–1 scale (its points / 2), class by class.
const PENTANOMIAL_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

impl Pentanomial {
    pub fn new(counts: [u64; 5]) -> Pentanomial {
        Pentanomial(counts)
    }

    /// Counts one more pair, from the first engine's results in its two games.
    pub fn add_pair(&mut self, first_game: Wdl, second_game: Wdl) {
        let k = usize::from(first_game.half_points() + second_game.half_points());
        self.0[k] += 1;
    }

    /// The same pairs seen from the second engine.
    pub fn reversed(&self) -> Pentanomial {
        let mut counts = self.0;
        counts.reverse();
        Pentanomial(counts)
    }

    pub fn counts(&self) -> [u64; 5] {
        self.0
    }

    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    pub fn games(&self) -> u64 {
        2 * self.pairs()
    }

    /// The first engine's points over all the pairs' games.
    pub fn points(&self) -> f64 {
        self.0
            .iter()
            .enumerate()
            .map(|(k, &c)| c as f64 * k as f64 / 2.0)
            .sum()
    }

    /// Points per game, 0 to 1; `None` with no pairs.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.points() / n as f64)
    }

    /// The share of pairs that ended level, 1–1 (fastchess `drawRatioPenta`, which it prints as
    /// the draw ratio when it reports pentanomial statistics); `None` with no pairs.
    pub fn draw_ratio(&self) -> Option<f64> {
        let n = self.pairs();
        (n > 0).then(|| self.0[2] as f64 / n as f64)
    }

    /// Elo difference, margin, nElo and LOS from the pairs (fastchess `EloPentanomial`): the
    /// variance is that of a pair's score, so correlated games within a pair (the same opening)
    /// do not shrink the margin falsely. `None` with no pairs.
    pub fn elo(&self) -> Option<EloEstimate> {
        EloEstimate::from_classes(&PENTANOMIAL_SCORES, &self.0, 2.0)
    }
}

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
    fn from_classes(scores: &[f64], counts: &[u64], games_per_sample: f64) -> Option<EloEstimate> {
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
fn signed_infinity(x: f64) -> f64 {
    if x > 0.0 {
        f64::INFINITY
    } else if x < 0.0 {
        f64::NEG_INFINITY
    } else {
        0.0
    }
}

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
const MAX_SPRT_ELO: f64 = 1000.0;

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
fn format_g3(x: f64) -> String {
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
fn root_decreasing(f: impl Fn(f64) -> f64, mut lo: f64, mut hi: f64) -> f64 {
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
fn mle_mean(scores: &[f64], phat: &[f64], s: f64) -> Vec<f64> {
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
fn mle_normalized(scores: &[f64], phat: &[f64], mu_ref: f64, t: f64) -> Vec<f64> {
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

/// One engine's points per game, for three-player matches (where wins, draws and losses do
/// not make an Elo difference): a game is worth 0 to 1 point (`GameResult::points`: 1 to the
/// winner, a draw shared among the players still in). The mean comes with a 95 % interval
/// from the normal approximation, mean ± [`Z95`]·s/√n with s² = Σ(x − mean)²/n, the same
/// variance estimate as the Elo margins above; the interval is clipped to [0, 1].
///
/// Equal players in a three-player game would each score 1/3 per game on average.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Score {
    games: u64,
    total: f64,
    // Welford's running mean and sum of squared deviations.
    mean: f64,
    m2: f64,
}

impl Score {
    pub fn new() -> Score {
        Score::default()
    }

    /// The score of `points` given one game each.
    pub fn from_points(points: impl IntoIterator<Item = f64>) -> Result<Score, StatsError> {
        let mut s = Score::new();
        for p in points {
            s.add(p)?;
        }
        Ok(s)
    }

    /// Counts one game worth `points`; a value that is not a number from 0 to 1 is refused.
    pub fn add(&mut self, points: f64) -> Result<(), StatsError> {
        if !(0.0..=1.0).contains(&points) {
            return Err(StatsError(format!(
                "score: a game is worth 0 to 1 point, not {points}"
            )));
        }
        self.games += 1;
        self.total += points;
        let delta = points - self.mean;
        self.mean += delta / self.games as f64;
        self.m2 += delta * (points - self.mean);
        Ok(())
    }

    pub fn games(&self) -> u64 {
        self.games
    }

    /// The points over all games.
    pub fn total(&self) -> f64 {
        self.total
    }

    /// Points per game; `None` with no games.
    pub fn mean(&self) -> Option<f64> {
        (self.games > 0).then_some(self.mean)
    }

    /// The variance of one game's points, Σ(x − mean)²/n; `None` with no games.
    pub fn variance(&self) -> Option<f64> {
        (self.games > 0).then(|| (self.m2 / self.games as f64).max(0.0))
    }

    /// √(variance / n); `None` with no games.
    pub fn standard_error(&self) -> Option<f64> {
        Some((self.variance()? / self.games as f64).sqrt())
    }

    /// [`Z95`]·standard error, the `+/-` of the mean; `None` with no games.
    pub fn margin(&self) -> Option<f64> {
        Some(Z95 * self.standard_error()?)
    }

    /// mean ± margin, clipped to [0, 1]; `None` with no games.
    pub fn interval(&self) -> Option<(f64, f64)> {
        let mean = self.mean()?;
        let margin = self.margin()?;
        Some(((mean - margin).max(0.0), (mean + margin).min(1.0)))
    }
}

#[cfg(test)]
mod tests {
    //! Known values. Unless a test says otherwise, the expected numbers were produced by
    //! fastchess's own code (commit 74deac23 of github.com/Disservin/fastchess): its
    //! `elo_wdl.cpp`, `elo_pentanomial.cpp` and `sprt.cpp` compiled outside this repository
    //! with a small driver that builds `Stats` from the counts and prints `diff()`, `error()`,
    //! `nEloDiff()`, `nEloError()`, the protected `score_`/`variance_`/`variance_per_*_` (via a
    //! subclass), LOS by its own formula at full precision, and `getLLR`, all with `%.17g`.
    //! "fastchess, tight" means the same `sprt.cpp` with its solver tolerances tightened
    //! (ITP θ tolerance 1e-11 instead of 1e-3 / 1e-7, normalised fixed point to 1e-11 in up to
    //! 1000 rounds instead of 1e-4 in 10), which gives the exact maximum-likelihood LLR that
    //! our solvers compute. Cutechess numbers come the same way from its `elo.cpp` (commit
    //! 5e84232b of github.com/cutechess/cutechess).
    // The numbers are copied as printed (17 significant digits), not rounded to what an f64
    // holds.
    #![allow(clippy::excessive_precision)]
    use super::*;

    /// |actual − expected| ≤ rel·|expected| (or ≤ rel when expected is 0).
    fn close(actual: f64, expected: f64, rel: f64) -> bool {
        let scale = expected.abs().max(if expected == 0.0 { 1.0 } else { 0.0 });
        (actual - expected).abs() <= rel * scale
    }

    #[track_caller]
    fn assert_close(what: &str, actual: f64, expected: f64, rel: f64) {
        assert!(
            close(actual, expected, rel),
            "{what}: got {actual:.17}, expected {expected:.17} (relative tolerance {rel})"
        );
    }

    /// One row of known Elo statistics.
    struct Known {
        score: f64,
        variance: f64,
        elo: f64,
        margin: f64,
        nelo: f64,
        nelo_margin: f64,
        los: f64,
    }

    #[track_caller]
    fn check(e: &EloEstimate, k: &Known) {
        assert_close("score", e.score, k.score, 1e-12);
        assert_close("variance", e.variance, k.variance, 1e-12);
        assert_close("elo", e.elo, k.elo, 1e-9);
        assert_close("margin", e.margin, k.margin, 1e-9);
        assert_close("nelo", e.nelo, k.nelo, 1e-9);
        assert_close("nelo margin", e.nelo_margin, k.nelo_margin, 1e-9);
        // fastchess's 1 − erf(…) loses the far tail to cancellation: compare absolutely.
        assert!(
            (e.los - k.los).abs() < 1e-12,
            "los: got {}, expected {}",
            e.los,
            k.los
        );
    }

    #[test]
    fn erfc_and_normal_cdf_match_the_c_library() {
        // (x, erfc(x)) printed by glibc's std::erfc with %.17g.
        let known = [
            (-6.0, 2.0),
            (-3.5, 1.9999992569016276),
            (-1.0, 1.842700792949715),
            (-0.3, 1.3286267594591274),
            (0.0, 1.0),
            (0.001, 0.99887162120903072),
            (0.2, 0.77729741078952153),
            (0.5, 0.47950012218695348),
            (1.0, 0.15729920705028513),
            (1.5, 0.033894853524689274),
            (2.0, 0.0046777349810472654),
            (2.9, 4.1097878099458858e-05),
            (3.1, 1.1648657367199589e-05),
            (4.0, 1.541725790028002e-08),
            (5.5, 7.3578479179743983e-15),
            (10.0, 2.0884875837625449e-45),
        ];
        for (x, expected) in known {
            assert_close(&format!("erfc({x})"), erfc(x), expected, 1e-13);
        }
        assert_eq!(normal_cdf(0.0), 0.5);
        assert_close("Φ(1.96)", normal_cdf(Z95), 0.975, 1e-15);
        assert_close("Φ(−1.96)", normal_cdf(-Z95), 0.025, 1e-13);
        assert_eq!(normal_cdf(f64::INFINITY), 1.0);
        assert_eq!(normal_cdf(f64::NEG_INFINITY), 0.0);
    }

    #[test]
    fn score_and_elo_convert_both_ways() {
        assert_eq!(score_to_elo(0.5), 0.0);
        assert!(score_to_elo(0.5).is_sign_positive());
        assert_eq!(score_to_elo(1.0), f64::INFINITY);
        assert_eq!(score_to_elo(0.0), f64::NEG_INFINITY);
        assert_eq!(score_to_elo(1.2), f64::INFINITY);
        // 3/4 of the points is 400·log10(3) Elo.
        assert_close("elo(0.75)", score_to_elo(0.75), 400.0 * 3f64.log10(), 1e-15);
        for elo in [-800.0, -35.5, 0.0, 5.0, 120.0] {
            assert_close("round trip", score_to_elo(elo_to_score(elo)), elo, 1e-9);
        }
    }

    #[test]
    fn trinomial_elo_matches_fastchess() {
        // +76 =123 −89: fastchess's own test "EloWDL 1" (its Stats(76, 89, 123) is W, L, D).
        check(
            &Trinomial::new(76, 123, 89).elo().unwrap(),
            &Known {
                score: 0.47743055555555558,
                variance: 0.1427197868441358,
                elo: -15.693520705432237,
                margin: 30.45800071698045,
                nelo: -20.756449777395378,
                nelo_margin: 40.126025557578572,
                los: 0.15532643492749831,
            },
        );
        // +136 =111 −96: fastchess's "EloWDL 2".
        check(
            &Trinomial::new(136, 111, 96).elo().unwrap(),
            &Known {
                score: 0.55830903790087461,
                variance: 0.1656962660116108,
                elo: 40.702458186527075,
                margin: 30.42721794360099,
                nelo: 49.768415381022194,
                nelo_margin: 36.76845059495362,
                los: 0.99601023573349723,
            },
        );
        // +34 =0 −356: fastchess's "EloWDL 3"; LOS 0 there (1 − erf rounds), ours about 5e-184.
        check(
            &Trinomial::new(34, 0, 356).elo().unwrap(),
            &Known {
                score: 0.087179487179487175,
                variance: 0.079579224194608805,
                elo: -407.98843237224798,
                margin: 63.164514735819154,
                nelo: -508.43532503968595,
                nelo_margin: 34.481812485442134,
                los: 0.0,
            },
        );
        // +1200 =2100 −1100: our own input.
        let e = Trinomial::new(1200, 2100, 1100).elo().unwrap();
        check(
            &e,
            &Known {
                score: 0.51136363636363635,
                variance: 0.13055268595041322,
                elo: 7.8976232783028717,
                margin: 7.4235138143434138,
                nelo: 10.926944079266043,
                nelo_margin: 10.26587687205512,
                los: 0.98151861820266795,
            },
        );
        assert_eq!(e.samples, 4400);
        assert_close(
            "variance per game",
            e.variance_of_mean,
            2.9671064988730276e-05,
            1e-12,
        );
    }

    #[test]
    fn trinomial_margin_is_cutechess_up_to_its_quantile_approximation() {
        // cutechess's Elo::errorMargin for the same W/D/L; it approximates Φ⁻¹(0.975) by
        // 1.9572…, so its margins are ≈ 0.144 % narrower than ours (and fastchess's).
        for (w, d, l, cutechess) in [
            (76, 123, 89, 30.414232246430103),
            (136, 111, 96, 30.383486345623719),
            (34, 0, 356, 63.067975241055336),
            (1200, 2100, 1100, 7.4128975958050685),
        ] {
            let ours = Trinomial::new(w, d, l).elo().unwrap().margin;
            let ratio = ours / cutechess;
            assert!(
                (1.0012..1.0016).contains(&ratio),
                "+{w} ={d} -{l}: ratio {ratio}"
            );
        }
    }

    #[test]
    fn cutechess_los_and_lines() {
        // cutechess's Elo::LOS (in %), from wins and losses only.
        for (w, d, l, percent) in [
            (76, 123, 89, 15.575740177885484),
            (136, 111, 96, 99.568189161984023),
            (1200, 2100, 1100, 98.147189071794045),
            (7, 2, 1, 98.305257323765545),
        ] {
            assert_close(
                "cutechess LOS",
                Trinomial::new(w, d, l).los() * 100.0,
                percent,
                1e-12,
            );
        }
        assert_eq!(Trinomial::new(0, 5, 0).los(), 0.5);
        // cutechess prints "Elo difference: 7.9 +/- 7.4, LOS: 98.1 %, DrawRatio: 47.7 %".
        assert_eq!(
            Trinomial::new(1200, 2100, 1100).elo_line().unwrap(),
            "Elo difference: 7.9 +/- 7.4, LOS: 98.1 %, DrawRatio: 47.7 %"
        );
        // cutechess prints "-15.7 +/- 30.4": its margin 30.414 against our 30.458.
        assert_eq!(
            Trinomial::new(76, 123, 89).elo_line().unwrap(),
            "Elo difference: -15.7 +/- 30.5, LOS: 15.6 %, DrawRatio: 42.7 %"
        );
        // cutechess: "Elo difference: inf +/- -nan, LOS: 99.9 %, DrawRatio: 0.0 %".
        assert_eq!(
            Trinomial::new(10, 0, 0).elo_line().unwrap(),
            "Elo difference: inf +/- inf, LOS: 99.9 %, DrawRatio: 0.0 %"
        );
        // cutechess: "Elo difference: -0.0 +/- 0.0, LOS: -nan %, DrawRatio: 100.0 %".
        assert_eq!(
            Trinomial::new(0, 5, 0).elo_line().unwrap(),
            "Elo difference: 0.0 +/- 0.0, LOS: 50.0 %, DrawRatio: 100.0 %"
        );
        assert_eq!(Trinomial::default().elo_line(), None);
        // enginematch.cpp: "Score of %s vs %s: %d - %d - %d  [%.3f] %d" (W, L, D).
        assert_eq!(
            score_line("greedy", "random", &Trinomial::new(76, 123, 89)),
            "Score of greedy vs random: 76 - 89 - 123  [0.477] 288"
        );
        assert_eq!(
            score_line("a", "b", &Trinomial::default()),
            "Score of a vs b: 0 - 0 - 0  [-] 0"
        );
    }

    #[test]
    fn pentanomial_elo_and_variance_match_fastchess() {
        // fastchess's "EloPentanomial 1": Stats(LL 34, LD 54, WL 31, DD 32, WD 64, WW 75).
        let e = Pentanomial([34, 54, 63, 64, 75]).elo().unwrap();
        check(
            &e,
            &Known {
                score: 0.57931034482758625,
                variance: 0.11310642092746731,
                elo: 55.579780420445879,
                margin: 27.653429506393451,
                nelo: 57.935599938124312,
                nelo_margin: 28.275376243408669,
                los: 0.99997039300843127,
            },
        );
        assert_eq!(e.samples, 290);
        assert_close(
            "variance per pair",
            e.variance_of_mean,
            0.00039002214112919764,
            1e-12,
        );
        // "EloPentanomial 2": Stats(332, 433, 457, 41, 333, 334).
        let e = Pentanomial([332, 433, 498, 333, 334]).elo().unwrap();
        check(
            &e,
            &Known {
                score: 0.48756476683937827,
                variance: 0.11092049450991971,
                elo: -8.64266726796901,
                margin: 10.33419442439302,
                nelo: -9.1729142700471353,
                nelo_margin: 10.960458877511137,
                los: 0.050470066982530093,
            },
        );
        assert_close(
            "variance per pair",
            e.variance_of_mean,
            5.7471758813429903e-05,
            1e-12,
        );
        // "EloPentanomial 3": Stats(7895, 8757, 5485, 200, 568, 9999).
        check(
            &Pentanomial([7895, 8757, 5685, 568, 9999]).elo().unwrap(),
            &Known {
                score: 0.46975291757840998,
                variance: 0.15275374091964236,
                elo: -21.043520578172789,
                margin: 2.9452808685278171,
                nelo: -19.012834278883982,
                nelo_margin: 2.6545019165024684,
                los: 0.0,
            },
        );
        // Our own input, with a low variance (most pairs level).
        let e = Pentanomial([40, 420, 900, 470, 50]).elo().unwrap();
        check(
            &e,
            &Known {
                score: 0.50930851063829785,
                variance: 0.041469202693526483,
                elo: 6.4689631238249419,
                margin: 6.399352183205635,
                nelo: 11.229919863014217,
                nelo_margin: 11.105253249309314,
                los: 0.97625849769710227,
            },
        );
        assert_close(
            "variance per pair",
            e.variance_of_mean,
            2.205808653910983e-05,
            1e-12,
        );
    }

    #[test]
    fn pairs_are_counted_by_their_points() {
        let mut p = Pentanomial::default();
        p.add_pair(Wdl::Loss, Wdl::Loss);
        p.add_pair(Wdl::Loss, Wdl::Draw);
        p.add_pair(Wdl::Draw, Wdl::Loss);
        p.add_pair(Wdl::Win, Wdl::Loss);
        p.add_pair(Wdl::Draw, Wdl::Draw);
        p.add_pair(Wdl::Loss, Wdl::Win);
        p.add_pair(Wdl::Draw, Wdl::Win);
        p.add_pair(Wdl::Win, Wdl::Win);
        assert_eq!(p.counts(), [1, 2, 3, 1, 1]);
        assert_eq!(p.pairs(), 8);
        assert_eq!(p.games(), 16);
        assert_eq!(p.points(), 0.5 + 0.5 + 1.0 + 1.0 + 1.0 + 1.5 + 2.0);
        assert_eq!(p.score(), Some(7.5 / 16.0));
        assert_eq!(p.draw_ratio(), Some(3.0 / 8.0));
        assert_eq!(p.reversed().counts(), [1, 1, 3, 2, 1]);
        let mut t = Trinomial::default();
        for r in [Wdl::Win, Wdl::Draw, Wdl::Draw, Wdl::Loss, Wdl::Win] {
            t.add(r);
        }
        assert_eq!(t, Trinomial::new(2, 2, 1));
        assert_eq!(t.reversed(), Trinomial::new(1, 2, 2));
        assert_eq!(t.points(), 3.0);
        assert_eq!(Wdl::from_points(0.5), Some(Wdl::Draw));
        assert_eq!(Wdl::from_points(1.0 / 3.0), None);
        assert_eq!(Wdl::Win.reversed().points(), 0.0);
        // The pair estimate is the same pairs seen from the other side, mirrored.
        let a = Pentanomial([34, 54, 63, 64, 75]).elo().unwrap();
        let b = Pentanomial([34, 54, 63, 64, 75]).reversed().elo().unwrap();
        assert_close("mirrored elo", b.elo, -a.elo, 1e-12);
        assert_close("mirrored margin", b.margin, a.margin, 1e-12);
    }

    #[test]
    fn edge_cases_give_no_nan() {
        assert_eq!(Trinomial::default().elo(), None);
        assert_eq!(Trinomial::default().score(), None);
        assert_eq!(Pentanomial::default().elo(), None);
        assert_eq!(Pentanomial::default().draw_ratio(), None);

        let all_wins = Trinomial::new(10, 0, 0).elo().unwrap();
        assert_eq!(all_wins.elo, f64::INFINITY);
        assert_eq!(all_wins.margin, f64::INFINITY);
        assert_eq!(all_wins.nelo, f64::INFINITY);
        assert_eq!(all_wins.nelo_margin, f64::INFINITY);
        assert_eq!(all_wins.los, 1.0);

        let all_losses = Pentanomial([6, 0, 0, 0, 0]).elo().unwrap();
        assert_eq!(all_losses.elo, f64::NEG_INFINITY);
        assert_eq!(all_losses.margin, f64::INFINITY);
        assert_eq!(all_losses.los, 0.0);

        let all_draws = Trinomial::new(0, 5, 0).elo().unwrap();
        assert_eq!((all_draws.elo, all_draws.margin), (0.0, 0.0));
        assert_eq!(
            (all_draws.nelo, all_draws.nelo_margin),
            (0.0, f64::INFINITY)
        );
        assert_eq!(all_draws.los, 0.5);

        // +7 =2 −1: the score's interval reaches past 1 (fastchess and cutechess: nan); the
        // Elo itself and nElo are fastchess's (240.82…, 314.27… ± 215.34…).
        let few = Trinomial::new(7, 2, 1).elo().unwrap();
        assert_close("elo", few.elo, 240.82399653118495, 1e-9);
        assert_eq!(few.elo_high, f64::INFINITY);
        assert!(few.elo_low.is_finite() && few.elo_low < few.elo);
        assert_eq!(few.margin, f64::INFINITY);
        assert_close("nelo", few.nelo, 314.26731163524636, 1e-9);
        assert_close("nelo margin", few.nelo_margin, 215.33884995273505, 1e-9);
        assert_close("los", few.los, 0.99788438355012099, 1e-12);

        for t in [
            Trinomial::new(1, 0, 0),
            Trinomial::new(0, 1, 0),
            Trinomial::new(0, 0, 1),
            Trinomial::new(1, 0, 1),
            Trinomial::new(u64::from(u32::MAX), 1, 0),
        ] {
            let e = t.elo().unwrap();
            for v in [
                e.score,
                e.variance,
                e.elo,
                e.margin,
                e.nelo,
                e.nelo_margin,
                e.los,
            ] {
                assert!(!v.is_nan(), "{t:?}: {e:?}");
            }
        }
    }

    fn sprt(elo0: f64, elo1: f64, alpha: f64, beta: f64, model: SprtModel) -> Sprt {
        Sprt::new(elo0, elo1, alpha, beta, model).unwrap()
    }

    #[test]
    fn sprt_bounds() {
        // fastchess SPRT::getLowerBound/getUpperBound for alpha = beta = 0.05: ±ln 19.
        let s = sprt(0.0, 5.0, 0.05, 0.05, SprtModel::Normalized);
        assert_close("lower", s.lower_bound(), -2.9444389791664403, 1e-15);
        assert_close("upper", s.upper_bound(), 2.9444389791664403, 1e-15);
        // alpha 0.1, beta 0.05: ln(0.05/0.9) and ln(0.95/0.1).
        let s = sprt(-1.75, 0.25, 0.1, 0.05, SprtModel::Logistic);
        assert_close("lower", s.lower_bound(), -2.8903717578961645, 1e-15);
        assert_close("upper", s.upper_bound(), 2.2512917986064949, 1e-15);
        // cutechess's own test: alpha = beta = 0.01 gives ±4.6 (to 0.01).
        let s = sprt(0.0, 10.0, 0.01, 0.01, SprtModel::Logistic);
        assert!((s.lower_bound() + 4.6).abs() < 0.01 && (s.upper_bound() - 4.6).abs() < 0.01);
    }

    #[test]
    fn sprt_llr_matches_fastchess() {
        use SprtModel::{Logistic, Normalized};
        let t = Trinomial::new(1200, 2100, 1100);
        let p = Pentanomial([40, 420, 900, 470, 50]);
        // (test, sample, fastchess as released, fastchess tight): normalised LLRs agree with
        // fastchess as released to ~1e-9, logistic ones only to ~1e-4 (its θ tolerance 1e-3).
        let cases: [(Sprt, SprtSample, f64, f64); 8] = [
            (
                sprt(0.0, 5.0, 0.05, 0.05, Normalized),
                (&t).into(),
                1.5349406545436237,
                1.5349406482012959,
            ),
            (
                sprt(0.0, 5.0, 0.05, 0.05, Logistic),
                (&t).into(),
                1.8818278632922032,
                1.8818488988362685,
            ),
            (
                sprt(-1.75, 0.25, 0.1, 0.05, Normalized),
                (&t).into(),
                0.85085406819956844,
                0.85085406762183158,
            ),
            (
                sprt(-1.75, 0.25, 0.1, 0.05, Logistic),
                (&t).into(),
                1.2057198837661534,
                1.2057165966718348,
            ),
            (
                sprt(0.0, 5.0, 0.05, 0.05, Normalized),
                (&p).into(),
                1.3581478568125129,
                1.3581478568126959,
            ),
            (
                sprt(0.0, 5.0, 0.05, 0.05, Logistic),
                (&p).into(),
                1.860652686066973,
                1.8606530295067363,
            ),
            (
                sprt(-1.75, 0.25, 0.1, 0.05, Normalized),
                (&p).into(),
                0.74553465735287117,
                0.74553465627418058,
            ),
            (
                sprt(-1.75, 0.25, 0.1, 0.05, Logistic),
                (&p).into(),
                1.3518977417270657,
                1.3518970730717785,
            ),
        ];
        for (s, sample, released, tight) in cases {
            let llr = s.llr(sample);
            let what = format!("{s:?} on {sample:?}");
            assert_close(&what, llr, tight, 1e-9);
            let rel = match s.model() {
                Normalized => 1e-6,
                Logistic => 1e-4,
            };
            assert_close(&what, llr, released, rel);
            assert_eq!(s.status(llr), SprtStatus::Continue);
        }
    }

    #[test]
    fn sprt_llr_matches_fastchess_own_tests() {
        use SprtModel::{Logistic, Normalized};
        // fastchess's sprt_test.cpp: its Stats(w, l, d) and Stats(ll, ld, wl, dd, wd, ww), its
        // expected values to two decimals within 1 %.
        let trinomials: [(Sprt, Trinomial, f64); 5] = [
            (
                sprt(0.0, 2.0, 0.05, 0.05, Normalized),
                Trinomial::new(36433, 68692, 36027),
                0.92,
            ),
            (
                sprt(-1.75, 0.25, 0.05, 0.05, Normalized),
                Trinomial::new(10871, 20431, 10650),
                2.30,
            ),
            (
                sprt(0.0, 10.0, 0.05, 0.05, Normalized),
                Trinomial::new(4250, 0, 0),
                120.56,
            ),
            (
                sprt(0.5, 2.5, 0.05, 0.05, Logistic),
                Trinomial::new(21404, 40708, 21184),
                -1.57,
            ),
            (
                sprt(0.0, 2.0, 0.05, 0.05, Logistic),
                Trinomial::new(57433, 106593, 57030),
                -2.59,
            ),
        ];
        let pentanomials: [(Sprt, Pentanomial, f64); 5] = [
            (
                sprt(0.0, 2.0, 0.05, 0.05, Normalized),
                Pentanomial([365, 16618, 36229, 16974, 390]),
                2.25,
            ),
            (
                sprt(-1.75, 0.25, 0.05, 0.05, Normalized),
                Pentanomial([127, 4883, 10712, 5150, 104]),
                3.01,
            ),
            (
                sprt(0.0, 5.0, 0.05, 0.05, Normalized),
                Pentanomial([0, 0, 0, 0, 5550]),
                111.82,
            ),
            (
                sprt(0.5, 2.5, 0.05, 0.05, Logistic),
                Pentanomial([223, 9863, 21279, 10037, 246]),
                -3.07,
            ),
            (
                sprt(0.0, 2.0, 0.05, 0.05, Logistic),
                Pentanomial([871, 26175, 55983, 26678, 821]),
                -4.98,
            ),
        ];
        for (s, t, expected) in trinomials {
            assert_close(&format!("{s:?} on {t:?}"), s.llr(&t), expected, 0.01);
        }
        for (s, p, expected) in pentanomials {
            assert_close(&format!("{s:?} on {p:?}"), s.llr(&p), expected, 0.01);
        }
        // Full-precision values from fastchess for the extreme ones above (tight solvers; the
        // released ones differ by < 1e-12 for the normalised model, < 1e-7 for the logistic).
        let wins = Trinomial::new(4250, 0, 0);
        let ww = Pentanomial([0, 0, 0, 0, 5550]);
        assert_close(
            "4250 wins",
            sprt(0.0, 10.0, 0.05, 0.05, Normalized).llr(&wins),
            120.54826774120434,
            1e-9,
        );
        assert_close(
            "5550 WW",
            sprt(0.0, 5.0, 0.05, 0.05, Normalized).llr(&ww),
            111.79755508671272,
            1e-9,
        );
        assert_close(
            "4250 wins",
            sprt(0.0, 10.0, 0.05, 0.05, Logistic).llr(&wins),
            120.56467937017858,
            1e-9,
        );
        assert_close(
            "5550 WW",
            sprt(0.0, 5.0, 0.05, 0.05, Logistic).llr(&ww),
            79.296251147116607,
            1e-9,
        );
        let losses = Trinomial::new(0, 0, 3000);
        assert_close(
            "3000 losses",
            sprt(0.0, 5.0, 0.05, 0.05, Normalized).llr(&losses),
            -43.482599303004072,
            1e-9,
        );
        assert_close(
            "3000 losses",
            sprt(0.0, 5.0, 0.05, 0.05, Logistic).llr(&losses),
            -43.484118070568826,
            1e-9,
        );
    }

    /// The half-points of a pair, cycled: the pattern scores [1, 2, 5, 4, 1] pairs per 13.
    const PATTERN: [usize; 13] = [2, 3, 1, 2, 4, 3, 2, 3, 1, 3, 2, 0, 2];

    #[test]
    fn sprt_on_a_fixed_sequence_of_pairs_stops_where_fastchess_does() {
        // fastchess (as released), run on the cumulative counts after every pair of this
        // sequence under normalised elo0=0 elo1=5 alpha=beta=0.05: LLR at a few pairs, and the
        // first pair at which it leaves (-2.944, 2.944): pair 1048, for H1. Where the tight
        // build finished, its value too (at 13 pairs its ITP never reaches 1e-11). The
        // released values are within 1e-6 of ours but for pair 1 (1.2e-6: one pair, four
        // regularised classes, and 10 rounds of the fixed point were not enough).
        let s = sprt(0.0, 5.0, 0.05, 0.05, SprtModel::Normalized);
        let known: [(usize, f64, Option<f64>); 7] = [
            (1, -0.00021520198392630067, Some(-0.00021520172327170079)),
            (2, 0.019939822269703304, Some(0.019939822269503773)),
            (13, 0.035880970498760836, None),
            (100, 0.30839624119042192, Some(0.30839624119035292)),
            (500, 1.4191377044643174, Some(1.4191377044642199)),
            (1047, 2.9274423939654941, Some(2.9274423939652521)),
            (1048, 2.9461034620690927, Some(2.9461034620687663)),
        ];
        let mut p = Pentanomial::default();
        let mut stopped = None;
        for n in 1..=1100usize {
            p.0[PATTERN[(n - 1) % PATTERN.len()]] += 1;
            let llr = s.llr(&p);
            if let Some(&(_, released, tight)) = known.iter().find(|&&(k, _, _)| k == n) {
                assert_close(&format!("pair {n}, released"), llr, released, 2e-6);
                if let Some(tight) = tight {
                    assert_close(&format!("pair {n}, tight"), llr, tight, 1e-9);
                }
            }
            if stopped.is_none() && s.status(llr) != SprtStatus::Continue {
                stopped = Some((n, s.status(llr)));
            }
        }
        assert_eq!(stopped, Some((1048, SprtStatus::AcceptH1)));
        // 84 whole patterns and the first 8 pairs of the next.
        assert_eq!(p.counts(), [84, 169, 423, 339, 85]);
    }

    #[test]
    fn sprt_status_transitions() {
        let s = sprt(0.0, 5.0, 0.05, 0.05, SprtModel::Normalized);
        let (lo, hi) = (s.lower_bound(), s.upper_bound());
        assert_eq!(s.status(0.0), SprtStatus::Continue);
        assert_eq!(s.status(hi - 1e-9), SprtStatus::Continue);
        assert_eq!(s.status(hi), SprtStatus::AcceptH1);
        assert_eq!(s.status(lo + 1e-9), SprtStatus::Continue);
        assert_eq!(s.status(lo), SprtStatus::AcceptH0);
        assert_eq!(s.status(f64::NAN), SprtStatus::Continue);
        assert_eq!(SprtStatus::AcceptH1.hypothesis(), Some("H1"));
        assert_eq!(SprtStatus::AcceptH0.hypothesis(), Some("H0"));
        assert_eq!(SprtStatus::Continue.hypothesis(), None);
        // Blocks of 39 pairs scoring [2, 10, 18, 8, 1], played k times: the LLR is linear in k
        // (fastchess: -0.10110454238115113 per block), and H0 is first accepted at k = 30
        // (fastchess: -2.9320317290533828 at 29, -3.0331362714345342 at 30).
        let block = [2u64, 10, 18, 8, 1];
        let mut first_h0 = None;
        for k in 1..=40u64 {
            let llr = s.llr(&Pentanomial(block.map(|c| c * k)));
            assert_close(
                &format!("block {k}"),
                llr,
                -0.10110454238115113 * k as f64,
                1e-6,
            );
            if first_h0.is_none() && s.status(llr) == SprtStatus::AcceptH0 {
                first_h0 = Some(k);
            }
            assert_ne!(s.status(llr), SprtStatus::AcceptH1);
        }
        assert_eq!(first_h0, Some(30));
    }

    #[test]
    fn sprt_llr_is_finite_on_extreme_samples() {
        let samples_t = [
            Trinomial::new(0, 0, 0),
            Trinomial::new(3, 0, 0),
            Trinomial::new(0, 3000, 0),
            Trinomial::new(100, 0, 1),
            Trinomial::new(1_000_000, 0, 0),
            Trinomial::new(0, 0, 1_000_000),
            Trinomial::new(1, 1_000_000, 1),
        ];
        let samples_p = [
            Pentanomial([0; 5]),
            Pentanomial([7000, 0, 0, 0, 0]),
            Pentanomial([0, 0, 9000, 0, 0]),
            Pentanomial([1, 0, 0, 0, 1]),
            Pentanomial([0, 0, 0, 0, 1_000_000]),
        ];
        for model in [SprtModel::Normalized, SprtModel::Logistic] {
            for (e0, e1) in [
                (0.0, 5.0),
                (-1000.0, 1000.0),
                (999.0, 1000.0),
                (-1000.0, -999.0),
            ] {
                let s = sprt(e0, e1, 0.05, 0.05, model);
                let mut llrs: Vec<f64> = samples_t.iter().map(|t| s.llr(t)).collect();
                llrs.extend(samples_p.iter().map(|p| s.llr(p)));
                for llr in &llrs {
                    assert!(llr.is_finite(), "{s:?}: {llrs:?}");
                }
                assert_eq!(llrs[0], 0.0);
                assert_eq!(llrs[samples_t.len()], 0.0);
            }
        }
        // fastchess, tight, normalised elo0=0 elo1=5: all losses in pairs; as released it
        // stops its fixed point after 10 rounds at -143.968.
        assert_close(
            "7000 LL",
            sprt(0.0, 5.0, 0.05, 0.05, SprtModel::Normalized).llr(&Pentanomial([7000, 0, 0, 0, 0])),
            -143.90479933664002,
            1e-6,
        );
    }

    #[test]
    fn sprt_settings_are_checked_and_parsed() {
        let s: Sprt = "elo0=0 elo1=5 alpha=0.05 beta=0.1 model=logistic"
            .parse()
            .unwrap();
        assert_eq!(
            (s.elo0(), s.elo1(), s.alpha(), s.beta(), s.model()),
            (0.0, 5.0, 0.05, 0.1, SprtModel::Logistic)
        );
        let s = Sprt::from_words(["elo1=2.5", "elo0=-1"]).unwrap();
        assert_eq!(
            (s.elo0(), s.elo1(), s.alpha(), s.beta()),
            (-1.0, 2.5, 0.05, 0.05)
        );
        assert_eq!(s.model(), SprtModel::Normalized);
        for (words, message) in [
            ("elo0=5 elo1=0", "elo0 must be less than elo1"),
            (
                "elo0=0 elo1=5 alpha=0",
                "alpha must lie strictly between 0 and 1",
            ),
            (
                "elo0=0 elo1=5 beta=1",
                "beta must lie strictly between 0 and 1",
            ),
            (
                "elo0=0 elo1=5 alpha=0.6 beta=0.5",
                "alpha + beta must be less than 1",
            ),
            ("elo0=0 elo1=5 model=bayesian", "unknown model 'bayesian'"),
            ("elo0=0 elo1=5 gamma=1", "unknown key 'gamma'"),
            ("elo0=0 elo1=5 elo0=1", "'elo0' given twice"),
            ("elo0=0 elo1=five", "'five' is not a number"),
            ("elo0=0", "elo1 is missing"),
            ("elo1=5", "elo0 is missing"),
            ("elo0=0 elo1=5 fast", "'fast' is not a key=value word"),
            ("elo0=0 elo1=5000", "elo1 must lie between -1000 and 1000"),
            ("elo0=nan elo1=5", "elo0 must lie between -1000 and 1000"),
        ] {
            let err = words.parse::<Sprt>().unwrap_err().to_string();
            assert!(
                err.starts_with("sprt: ") && err.contains(message),
                "{words}: {err}"
            );
        }
    }

    #[test]
    fn cutechess_sprt_line() {
        let s = sprt(0.0, 5.0, 0.05, 0.05, SprtModel::Normalized);
        // tournament.cpp: "SPRT: llr %.3g (%.1f%), lbound %.3g, ubound %.3g" + verdict.
        assert_eq!(
            s.cutechess_line(1.5349406482012959),
            "SPRT: llr 1.53 (52.1%), lbound -2.94, ubound 2.94"
        );
        assert_eq!(
            s.cutechess_line(2.9461034620690927),
            "SPRT: llr 2.95 (100.1%), lbound -2.94, ubound 2.94 - H1 was accepted"
        );
        assert_eq!(
            s.cutechess_line(-120.4),
            "SPRT: llr -120 (-4089.1%), lbound -2.94, ubound 2.94 - H0 was accepted"
        );
        // cutechess's own test: alpha = beta = 0.01 bounds print as ±4.6.
        let s = sprt(0.0, 10.0, 0.01, 0.01, SprtModel::Normalized);
        assert_eq!(
            s.cutechess_line(0.0),
            "SPRT: llr 0 (0.0%), lbound -4.6, ubound 4.6"
        );
        for (x, g) in [
            (0.000123456, "0.000123"),
            (0.0000123456, "1.23e-05"),
            (999.4, "999"),
            (999.6, "1e+03"),
            (1234.0, "1.23e+03"),
            (-0.5, "-0.5"),
            (2.0, "2"),
        ] {
            assert_eq!(format_g3(x), g, "{x}");
        }
    }

    #[test]
    fn three_player_score() {
        // Points of one engine over 6 three-player games.
        let s = Score::from_points([1.0, 0.0, 0.5, 1.0 / 3.0, 0.0, 1.0]).unwrap();
        assert_eq!(s.games(), 6);
        assert_close("total", s.total(), 2.8333333333333333, 1e-15);
        let mean = 2.8333333333333333 / 6.0;
        assert_close("mean", s.mean().unwrap(), mean, 1e-15);
        // Population variance by hand: Σx² / n − mean².
        let sq = (1.0 + 0.0 + 0.25 + 1.0 / 9.0 + 0.0 + 1.0) / 6.0;
        let var = sq - mean * mean;
        assert_close("variance", s.variance().unwrap(), var, 1e-12);
        let margin = Z95 * (var / 6.0).sqrt();
        assert_close("margin", s.margin().unwrap(), margin, 1e-12);
        let (lo, hi) = s.interval().unwrap();
        assert_close("low", lo, mean - margin, 1e-12);
        assert_close("high", hi, (mean + margin).min(1.0), 1e-12);

        // A two-player W/D/L gives the same mean and standard error as the Elo estimate.
        let t = Trinomial::new(76, 123, 89);
        let points = std::iter::repeat_n(1.0, 76)
            .chain(std::iter::repeat_n(0.5, 123))
            .chain(std::iter::repeat_n(0.0, 89));
        let s = Score::from_points(points).unwrap();
        let e = t.elo().unwrap();
        assert_close("mean", s.mean().unwrap(), e.score, 1e-12);
        assert_close("se", s.standard_error().unwrap(), e.standard_error, 1e-9);

        // Always winning: interval clipped to [1, 1].
        let s = Score::from_points([1.0; 4]).unwrap();
        assert_eq!(s.interval(), Some((1.0, 1.0)));
        assert_eq!(Score::new().mean(), None);
        assert_eq!(Score::new().interval(), None);
        let mut s = Score::new();
        assert!(s.add(f64::NAN).is_err());
        assert!(s.add(1.5).is_err());
        assert!(s.add(-0.1).is_err());
        assert_eq!(s.games(), 0);
    }
}
