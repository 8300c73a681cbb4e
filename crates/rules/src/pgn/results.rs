//! `Result` and `Termination`: a game's result as tags, and the points of a `Result` read back.

use super::*;

/// The `Result` string and the `Termination` reason id of a game's result for `players`
/// seats: `*` and no termination while it goes on; otherwise the points of each seat in turn
/// order joined by `-` (`1-0`, `0-1`, `1/2-1/2`; `1-0-0`, `1/2-0-1/2`, `1/3-1/3-1/3`), as
/// [`GameResult::points`] gives them, and the reason id of the outcome.
pub fn result_tags(result: Option<&GameResult>, players: usize) -> (String, Option<&'static str>) {
    match result {
        None => ("*".to_string(), None),
        Some(r) => (
            points_string(&r.points(players)),
            Some(r.outcome.reason().id),
        ),
    }
}

/// Points joined by `-`, each as an integer or a fraction (`1/2`, `1/3`).
pub fn points_string(points: &[f64]) -> String {
    let parts: Vec<String> = points.iter().map(|&p| fraction(p)).collect();
    parts.join("-")
}

fn fraction(p: f64) -> String {
    for d in 1..=12u32 {
        let n = (p * d as f64).round();
        if (n / d as f64 - p).abs() < 1e-9 {
            return if d == 1 {
                format!("{n}")
            } else {
                format!("{n}/{d}")
            };
        }
    }
    format!("{p}")
}

/// Reads a result string for `players` seats: `None` for `*`, else the points of each seat.
/// The error says what is wrong.
pub fn parse_result(text: &str, players: usize) -> Result<Option<Vec<f64>>, String> {
    if text == "*" {
        return Ok(None);
    }
    let example = match players {
        2 => "1-0, 0-1, 1/2-1/2 or *".to_string(),
        3 => "1-0-0, 0-1-0, 0-0-1, 1/2-1/2-0, 1/3-1/3-1/3 or *".to_string(),
        n => format!("the points of the {n} seats joined by - (or *)"),
    };
    let bad = |why: &str| {
        format!(
            "bad result {:?}: {why}; expected {example}",
            shortened(text)
        )
    };
    let parts: Vec<&str> = text.split('-').collect();
    if parts.len() != players {
        return Err(bad(&format!(
            "{} seats given, the game has {players}",
            parts.len()
        )));
    }
    let mut points = Vec::with_capacity(players);
    for part in parts {
        let number = |s: &str| -> Option<f64> {
            (!s.is_empty() && s.len() <= 9 && s.bytes().all(|b| b.is_ascii_digit()))
                .then(|| s.parse::<u32>().ok().map(f64::from))
                .flatten()
        };
        let value = match part.split_once('/') {
            None => number(part),
            Some((n, d)) => match (number(n), number(d)) {
                (Some(n), Some(d)) if d > 0.0 => Some(n / d),
                _ => None,
            },
        };
        match value {
            Some(v) if v <= 1.0 + 1e-9 => points.push(v),
            Some(_) => return Err(bad(&format!("{part} is more than 1 point"))),
            None => return Err(bad(&format!("{part:?} is not a number of points"))),
        }
    }
    let sum: f64 = points.iter().sum();
    if (sum - 1.0).abs() > 1e-9 {
        return Err(bad("the points do not add up to 1"));
    }
    Ok(Some(points))
}

pub(super) fn same_points(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-9)
}
