//! Ratings: Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2022), one rating per
//! player, game id and speed. Pure arithmetic: the store keeps the numbers, and rates a game in
//! the transaction that ends it (docs/api.md, "Ratings").
//!
//! - Each rated game is one rating period for its players: every player is rated on all the
//!   game's results at once, against the opponents' ratings from before the game.
//! - Before a game, each player's deviation grows with the time since their last rated game:
//!   one rating period ([`PERIOD_MS`]) of inactivity adds σ² to φ², as Glicko-2 does for a
//!   period without games, up to the deviation of a new player.
//! - A game of three players is rated as the pairwise results its finishing order implies
//!   ([`places`], [`pairwise`]): the winner beat both others; of the two others, the one who
//!   stayed in longer beat the one who dropped out first, and two who finished together drew.
//! - A rating whose deviation is above [`PROVISIONAL_RD`] is provisional (shown with a `?`).
//! - The computer's levels are rated too, against the people who play them
//!   ([`level_prior`]): a level is rated like a player, the person's rating never moves.

use myrmidon_rules::GameResult;
use serde::{Deserialize, Serialize};

/// What a rated game did to its players' ratings: stored with the game when it is rated, and
/// shown in its state (`rating_change`, docs/api.md).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatingChange {
    /// The speed the game was rated at.
    pub speed: String,
    /// Each seat held by an account, in the order of the seats.
    pub seats: Vec<SeatChange>,
}

/// One player's rating before and after a rated game, rounded as shown.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatChange {
    /// The account's name; null once the account is deleted.
    pub name: Option<String>,
    pub before: f64,
    pub after: f64,
    pub change: f64,
    pub provisional: bool,
}

/// A new player's rating.
pub const START_RATING: f64 = 1500.0;
/// A new player's rating deviation (also the most a deviation grows to).
pub const START_RD: f64 = 350.0;
/// A new player's volatility.
pub const START_VOLATILITY: f64 = 0.06;
/// The system constant τ: how fast volatility may change (Glickman suggests 0.3 to 1.2).
pub const TAU: f64 = 0.5;
/// A rating with a deviation above this is provisional (as lichess).
pub const PROVISIONAL_RD: f64 = 110.0;
/// One rating period of inactivity: a day.
pub const PERIOD_MS: i64 = 24 * 3600 * 1000;

/// The prior gap between two neighbouring computer levels: the steps measured between them,
/// engine against engine, are +183 to +536 Elo, about +320 in the median
/// (docs/engine-measurements.md, "Levels per game").
pub const LEVEL_STEP: f64 = 300.0;

/// A computer level's rating before its first game against a person, of `levels` levels:
/// the middle level (the upper of two middles: level 5 of 8) at 1500, the others
/// [`LEVEL_STEP`] apart, with a new player's deviation and volatility (so the first games
/// against people soon move it where they say).
pub fn level_prior(level: u8, levels: u8) -> Rating {
    let middle = levels / 2 + 1;
    Rating {
        rating: START_RATING + LEVEL_STEP * (f64::from(level) - f64::from(middle)),
        ..Rating::default()
    }
}

/// Glicko-2's scale: μ = (r − 1500) / 173.7178.
const SCALE: f64 = 173.7178;
/// The convergence tolerance of the volatility iteration.
const EPSILON: f64 = 0.000_001;

/// A player's rating on the Glicko scale.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

impl Default for Rating {
    fn default() -> Self {
        Rating {
            rating: START_RATING,
            deviation: START_RD,
            volatility: START_VOLATILITY,
        }
    }
}

/// One result of a rating period: the opponent's rating before it and the score (1 a win, ½
/// a draw, 0 a loss).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Result1 {
    pub opponent: Rating,
    pub score: f64,
}

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

fn expected(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

impl Rating {
    /// Whether the rating is provisional (its deviation above [`PROVISIONAL_RD`]).
    pub fn provisional(&self) -> bool {
        self.deviation > PROVISIONAL_RD
    }

    /// The rating after `periods` rating periods without games (fractions allowed): the
    /// deviation grows, up to [`START_RD`].
    pub fn idle(&self, periods: f64) -> Rating {
        let phi = self.deviation / SCALE;
        let grown = (phi * phi + periods.max(0.0) * self.volatility * self.volatility).sqrt();
        Rating {
            deviation: (grown * SCALE).min(START_RD),
            ..*self
        }
    }

    /// The rating at `at_ms`, last rated at `last_ms`: widened by the days between
    /// ([`Rating::idle`], one period a [`PERIOD_MS`]).
    pub fn idle_since(&self, last_ms: i64, at_ms: i64) -> Rating {
        self.idle((at_ms - last_ms).max(0) as f64 / PERIOD_MS as f64)
    }

    /// The rating after one rating period with these results (Glickman's steps 2 to 8). A
    /// period without results only widens the deviation.
    pub fn update(&self, results: &[Result1], tau: f64) -> Rating {
        let mu = (self.rating - START_RATING) / SCALE;
        let phi = self.deviation / SCALE;
        let sigma = self.volatility;
        if results.is_empty() {
            return self.idle(1.0);
        }
        // Step 3: the estimated variance; step 4: the estimated improvement.
        let mut inv_v = 0.0;
        let mut sum = 0.0;
        for r in results {
            let mu_j = (r.opponent.rating - START_RATING) / SCALE;
            let phi_j = r.opponent.deviation / SCALE;
            let e = expected(mu, mu_j, phi_j);
            inv_v += g(phi_j) * g(phi_j) * e * (1.0 - e);
            sum += g(phi_j) * (r.score - e);
        }
        let v = 1.0 / inv_v;
        let delta = v * sum;
        // Step 5: the new volatility (the Illinois algorithm).
        let a = (sigma * sigma).ln();
        let f = |x: f64| {
            let ex = x.exp();
            let d = phi * phi + v + ex;
            ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau)
        };
        let mut big_a = a;
        let mut big_b = if delta * delta > phi * phi + v {
            (delta * delta - phi * phi - v).ln()
        } else {
            let mut k = 1.0;
            while f(a - k * tau) < 0.0 {
                k += 1.0;
            }
            a - k * tau
        };
        let mut f_a = f(big_a);
        let mut f_b = f(big_b);
        while (big_b - big_a).abs() > EPSILON {
            let c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
            let f_c = f(c);
            if f_c * f_b <= 0.0 {
                big_a = big_b;
                f_a = f_b;
            } else {
                f_a /= 2.0;
            }
            big_b = c;
            f_b = f_c;
        }
        let sigma2 = (big_a / 2.0).exp();
        // Steps 6 and 7: the new deviation and rating.
        let phi_star = (phi * phi + sigma2 * sigma2).sqrt();
        let phi2 = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu2 = mu + phi2 * phi2 * sum;
        Rating {
            rating: mu2 * SCALE + START_RATING,
            deviation: (phi2 * SCALE).min(START_RD),
            volatility: sigma2,
        }
    }
}

/// Each seat's place at the end of a game (0 first; equal places finished together): the
/// winner first; the seats still in at the end next (together: a draw among them); then those
/// who dropped out, the later before the earlier.
pub fn places(seats: usize, result: &GameResult) -> Vec<u8> {
    let out = &result.eliminations;
    let winner = result.outcome.winner();
    // How long each seat stayed: the winner longest, then those still in at the end, then
    // those who dropped out, the later before the earlier.
    let stayed: Vec<usize> = (0..seats)
        .map(|seat| {
            let seat = seat as u8;
            if winner == Some(seat) {
                return out.len() + 2;
            }
            match out.iter().position(|e| e.player == seat) {
                Some(i) => i,
                None => out.len() + 1,
            }
        })
        .collect();
    let mut levels = stayed.clone();
    levels.sort_unstable_by(|a, b| b.cmp(a));
    levels.dedup();
    stayed
        .iter()
        .map(|s| levels.iter().position(|l| l == s).unwrap_or(0) as u8)
        .collect()
}

/// The pairwise results that places imply: for each seat, each other seat with the score
/// against it (1 ahead, ½ level, 0 behind).
pub fn pairwise(places: &[u8]) -> Vec<Vec<(usize, f64)>> {
    places
        .iter()
        .enumerate()
        .map(|(i, &p)| {
            places
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(j, &q)| {
                    let score = match p.cmp(&q) {
                        std::cmp::Ordering::Less => 1.0,
                        std::cmp::Ordering::Equal => 0.5,
                        std::cmp::Ordering::Greater => 0.0,
                    };
                    (j, score)
                })
                .collect()
        })
        .collect()
}

/// Rates one game: each seat's rating before it (already widened for inactivity) and its
/// places; each seat's rating after it, every seat rated on all its pairwise results against
/// the others' ratings from before the game (one rating period).
pub fn rate_game(before: &[Rating], places: &[u8]) -> Vec<Rating> {
    pairwise(places)
        .iter()
        .zip(before)
        .map(|(results, rating)| {
            let results: Vec<Result1> = results
                .iter()
                .map(|&(j, score)| Result1 {
                    opponent: before[j],
                    score,
                })
                .collect();
            rating.update(&results, TAU)
        })
        .collect()
}

/// The speed of a clock, as lichess names them, by the estimated game time: the initial time
/// plus 40 increments (under 3 minutes bullet, under 8 blitz, under 25 rapid, else classical).
pub fn speed(initial_ms: u64, increment_ms: u64) -> &'static str {
    let estimated_s = (initial_ms + 40 * increment_ms) / 1000;
    match estimated_s {
        0..180 => "bullet",
        180..480 => "blitz",
        480..1500 => "rapid",
        _ => "classical",
    }
}

/// The speeds, fastest first.
pub const SPEEDS: [&str; 4] = ["bullet", "blitz", "rapid", "classical"];

#[cfg(test)]
mod tests {
    use super::*;
    use myrmidon_rules::{Elimination, Outcome, Reason};

    fn r(rating: f64, deviation: f64) -> Rating {
        Rating {
            rating,
            deviation,
            volatility: START_VOLATILITY,
        }
    }

    #[test]
    fn glickmans_worked_example() {
        let player = r(1500.0, 200.0);
        let results = [
            Result1 {
                opponent: r(1400.0, 30.0),
                score: 1.0,
            },
            Result1 {
                opponent: r(1550.0, 100.0),
                score: 0.0,
            },
            Result1 {
                opponent: r(1700.0, 300.0),
                score: 0.0,
            },
        ];
        let after = player.update(&results, 0.5);
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
    }

    #[test]
    fn a_period_without_games_widens_the_deviation_only() {
        let player = r(1500.0, 200.0);
        let after = player.update(&[], TAU);
        assert_eq!(after.rating, 1500.0);
        // φ* = sqrt(φ² + σ²): 200/173.7178 = 1.1513; sqrt(1.3255 + 0.0036) = 1.1529.
        assert!((after.deviation - 200.28).abs() < 0.01, "{after:?}");
        // Idle periods add up, and never past a new player's deviation.
        let later = r(1500.0, 50.0).idle(100.0);
        // φ = 0.28782; sqrt(0.082842 + 100 × 0.0036) = 0.66546 → 115.60.
        assert!((later.deviation - 115.60).abs() < 0.01, "{later:?}");
        assert_eq!(r(1500.0, 340.0).idle(10_000.0).deviation, START_RD);
    }

    #[test]
    fn provisional_above_the_threshold() {
        assert!(Rating::default().provisional());
        assert!(r(1500.0, 110.5).provisional());
        assert!(!r(1500.0, 110.0).provisional());
    }

    #[test]
    fn two_players_win_and_draw() {
        let after = rate_game(&[Rating::default(), Rating::default()], &[0, 1]);
        // Equal new players: the winner gains what the loser loses. By hand: g(φ) = 0.66907,
        // 1/v = 0.11191, φ' = 1 / sqrt(0.24613 + 0.11191) = 1.67121, μ' = φ'² × g × ½ =
        // 0.93434 → 1662.31.
        assert!((after[0].rating - 1662.31).abs() < 0.01, "{after:?}");
        assert!((after[1].rating - 1337.69).abs() < 0.01, "{after:?}");
        assert!(after[0].deviation < START_RD);
        let drawn = rate_game(&[Rating::default(), Rating::default()], &[0, 0]);
        assert!((drawn[0].rating - 1500.0).abs() < 1e-9);
        assert!(drawn[0].deviation < START_RD);
    }

    fn result(outcome: Outcome, out: &[u8]) -> GameResult {
        GameResult {
            outcome,
            eliminations: out
                .iter()
                .map(|&player| Elimination {
                    player,
                    reason: Reason::RESIGNATION,
                    ply: 0,
                })
                .collect(),
        }
    }

    #[test]
    fn finishing_orders_of_three_players() {
        let win = |winner| Outcome::Win {
            winner,
            reason: Reason::RESIGNATION,
        };
        // Seat 1 won after seat 2 then seat 0 dropped out: 1 first, 0 second, 2 third.
        assert_eq!(places(3, &result(win(1), &[2, 0])), vec![1, 0, 2]);
        // Seat 0 won with both others still in: they finish together.
        assert_eq!(places(3, &result(win(0), &[])), vec![0, 1, 1]);
        // A draw between seats 0 and 2 after seat 1 dropped out.
        let draw = Outcome::Draw {
            reason: Reason::RESIGNATION,
        };
        assert_eq!(places(3, &result(draw, &[1])), vec![0, 1, 0]);
        // Two players: the winner and the loser.
        assert_eq!(places(2, &result(win(1), &[0])), vec![1, 0]);
        assert_eq!(places(2, &result(draw, &[])), vec![0, 0]);
    }

    #[test]
    fn pairwise_results_of_a_finishing_order() {
        assert_eq!(
            pairwise(&[1, 0, 2]),
            vec![
                vec![(1, 0.0), (2, 1.0)],
                vec![(0, 1.0), (2, 1.0)],
                vec![(0, 0.0), (1, 0.0)],
            ]
        );
        assert_eq!(pairwise(&[0, 1, 1])[1], vec![(0, 0.0), (2, 0.5)]);
    }

    #[test]
    fn three_players_rated_in_one_period() {
        // Three new players; seat 1 wins, seat 0 second, seat 2 last. Worked by hand with
        // Glickman's formulas: each has two results against 1500/350 opponents: φ = 2.01476,
        // g(φ) = 0.66907, E = ½, so 1/v = 2 × 0.66907² × ¼ = 0.22383.
        let after = rate_game(&[Rating::default(); 3], &[1, 0, 2]);
        // The middle seat beat one and lost to one: its rating stays, its deviation shrinks.
        assert!((after[0].rating - 1500.0).abs() < 1e-6, "{after:?}");
        // The winner and the last are mirror images around 1500.
        assert!((after[1].rating + after[2].rating - 3000.0).abs() < 1e-6);
        // Every deviation is the same (the same opponents, the same variance): with σ' ≈ σ,
        // φ* = sqrt(φ² + σ²) = 2.01566 and φ' = 1 / sqrt(1/φ*² + 1/v) = 1 / sqrt(0.24613 +
        // 0.22383) = 1.45871 → 253.40.
        for a in &after {
            assert!((a.deviation - 253.40).abs() < 0.05, "{after:?}");
            assert!(a.provisional());
        }
        // The winner's gain: μ' = φ'² × Σ g (s − E) = 1.45871² × 0.66907 × (½ + ½) = 1.42366
        // → 1500 + 247.32.
        assert!((after[1].rating - 1747.32).abs() < 0.05, "{after:?}");
        // A win over both is worth more than a win over one.
        let two = rate_game(&[Rating::default(); 2], &[0, 1]);
        assert!(after[1].rating > two[0].rating);
    }

    #[test]
    fn three_players_the_two_behind_the_winner_drawn() {
        // Seat 0 took the last Queen from both others at once: they finish together, a draw
        // between them (places 0, 1, 1). Three new players, so g, E, 1/v and φ' are those of
        // the case above. The winner beat both: 1747.32, as above.
        let after = rate_game(&[Rating::default(); 3], &[0, 1, 1]);
        assert!((after[0].rating - 1747.32).abs() < 0.05, "{after:?}");
        // Each of the others lost to the winner and drew with the other: Σ g (s − E) =
        // 0.66907 × ((0 − ½) + (½ − ½)) = −0.33454, μ' = 1.45871² × −0.33454 = −0.71185 →
        // 1500 − 123.66 = 1376.34: half the loss of the last player of the case above.
        for a in &after[1..] {
            assert!((a.rating - 1376.34).abs() < 0.05, "{after:?}");
            assert!((a.deviation - 253.40).abs() < 0.05, "{after:?}");
        }
        let last = rate_game(&[Rating::default(); 3], &[1, 0, 2])[2];
        assert!(((1500.0 - after[1].rating) * 2.0 - (1500.0 - last.rating)).abs() < 0.05);
        // Three who share a drawn game: every result a draw, nobody moves.
        for a in rate_game(&[Rating::default(); 3], &[0, 0, 0]) {
            assert!((a.rating - 1500.0).abs() < 1e-9, "{a:?}");
            assert!((a.deviation - 253.40).abs() < 0.05, "{a:?}");
        }
    }

    #[test]
    fn the_levels_prior_is_centred_on_the_middle_level() {
        // Eight levels: level 5 at 1500, each 300 from the next.
        assert_eq!(level_prior(5, 8).rating, 1500.0);
        assert_eq!(level_prior(4, 8).rating, 1200.0);
        assert_eq!(level_prior(1, 8).rating, 300.0);
        assert_eq!(level_prior(8, 8).rating, 2400.0);
        assert_eq!(level_prior(3, 5).rating, 1500.0);
        assert_eq!(level_prior(1, 8).deviation, START_RD);
    }

    #[test]
    fn speeds_by_the_estimated_time() {
        assert_eq!(speed(60_000, 0), "bullet");
        // 120 s + 40 × 1 s = 160 s.
        assert_eq!(speed(120_000, 1000), "bullet");
        assert_eq!(speed(180_000, 0), "blitz");
        // 300 s + 40 × 3 s = 420 s.
        assert_eq!(speed(300_000, 3000), "blitz");
        assert_eq!(speed(600_000, 0), "rapid");
        assert_eq!(speed(1_500_000, 0), "classical");
        // 900 s + 400 s = 1300 s.
        assert_eq!(speed(900_000, 10_000), "rapid");
    }
}
