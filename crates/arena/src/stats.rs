//! Interim statistics for the match runner until the `stats` branch lands (its module replaces
//! this one): logistic Elo and its 95 % margin from a score (cutechess's formulas), and the
//! pentanomial SPRT log-likelihood ratio (the normal approximation of the generalized SPRT).

/// Logistic Elo of a score fraction.
pub fn elo(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// Elo and its 95 % margin from wins, losses and draws.
pub fn elo_margin(wins: u64, losses: u64, draws: u64) -> Option<(f64, f64)> {
    let n = (wins + losses + draws) as f64;
    if n == 0.0 {
        return None;
    }
    let (w, l, d) = (wins as f64 / n, losses as f64 / n, draws as f64 / n);
    let s = w + d / 2.0;
    let var = w * (1.0 - s).powi(2) + l * s.powi(2) + d * (0.5 - s).powi(2);
    let dev = (var / n).sqrt();
    let lo = s - 1.959_964 * dev;
    let hi = s + 1.959_964 * dev;
    Some((elo(s), (elo(hi) - elo(lo)) / 2.0))
}

/// The log-likelihood ratio of H1 (`elo1`) against H0 (`elo0`) from pentanomial pair counts
/// (pair scores 0, 0.5, 1, 1.5, 2).
pub fn llr(penta: [u64; 5], elo0: f64, elo1: f64) -> f64 {
    let n: u64 = penta.iter().sum();
    if n == 0 {
        return 0.0;
    }
    let n = n as f64;
    let xs = [0.0, 0.25, 0.5, 0.75, 1.0];
    // A pair count of zero would make some results impossible: each count gets a little.
    let p: Vec<f64> = penta
        .iter()
        .map(|&c| (c as f64 + 1e-3) / (n + 5e-3))
        .collect();
    let mean: f64 = p.iter().zip(xs).map(|(p, x)| p * x).sum();
    let var: f64 = p.iter().zip(xs).map(|(p, x)| p * (x - mean).powi(2)).sum();
    if var <= 0.0 {
        return 0.0;
    }
    let s = |e: f64| 1.0 / (1.0 + 10f64.powf(-e / 400.0));
    let (s0, s1) = (s(elo0), s(elo1));
    n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
}

/// The SPRT's bounds (lower, upper).
pub fn bounds(alpha: f64, beta: f64) -> (f64, f64) {
    ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln())
}
