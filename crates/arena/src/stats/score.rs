//! The points per game of one engine in three-player matches.

use super::*;

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
