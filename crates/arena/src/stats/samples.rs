//! The samples of a match: a game's result, games counted one by one (trinomial) and game
//! pairs (pentanomial), and cutechess's score line.

use super::*;

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
pub(super) const TRINOMIAL_SCORES: [f64; 3] = [0.0, 0.5, 1.0];

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
pub(super) const PENTANOMIAL_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

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
