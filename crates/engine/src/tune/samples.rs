//! Samples: the positions of finished games to tune on, each with its label (what the
//! position was worth to the player to move, from the game's result and, optionally, the
//! scores the engines wrote in their moves' comments).

use myrmidon_rules::movelist::MoveCounter;
use myrmidon_rules::record::Event;
use myrmidon_rules::{Position, Record};

use super::sigmoid;

/// A position and the points its player to move made in the end.
#[derive(Clone, Debug)]
pub struct Sample<P> {
    pub pos: P,
    /// 0 to 1.
    pub label: f64,
}

/// The quiet positions of a finished game with their labels (none if the game is not over).
/// Positions before ply `skip_plies` are left out (the opening, often random in self-play).
pub fn quiet_samples<P: Position>(record: &Record<P>, skip_plies: usize) -> Vec<Sample<P>> {
    labelled_samples(
        record,
        &[],
        &Sampling {
            skip_plies,
            ..Sampling::default()
        },
    )
}

/// The score a move's comment gives, from the view of the player who made it, in centipawns
/// (`+0.35/12 0.51s` → 35, `-1.20/3` → -120; a mate, `+M3/9` or `-M2`, as ±[`MATE_COMMENT`]);
/// `None` for a comment without a score (`book`, a time alone).
pub fn comment_score(comment: &str) -> Option<f64> {
    let word = comment.split_whitespace().next()?;
    let score = word.split('/').next()?;
    let (sign, rest) = match score.as_bytes().first()? {
        b'+' => (1.0, &score[1..]),
        b'-' => (-1.0, &score[1..]),
        _ => return None,
    };
    if let Some(moves) = rest.strip_prefix('M') {
        moves.parse::<u32>().ok()?;
        return Some(sign * MATE_COMMENT);
    }
    let pawns: f64 = rest.parse().ok()?;
    pawns.is_finite().then_some(sign * pawns * 100.0)
}

/// What a mate in a move's comment counts as, in centipawns.
pub const MATE_COMMENT: f64 = 10_000.0;

/// The quiet positions of a finished game with their labels, as `sampling` says: the points
/// the player to move made, blended with the score the engine that moved from there wrote in
/// its move's comment (`comments[i]` is the comment of the `i`-th move chosen by a player, as
/// [`myrmidon_rules::pgn::ReadGame::comments`] gives them). With a blend, positions whose move
/// has no score are left out. None if the game is not over.
pub fn labelled_samples<P: Position>(
    record: &Record<P>,
    comments: &[Option<String>],
    sampling: &Sampling,
) -> Vec<Sample<P>> {
    let Some(result) = record.result() else {
        return Vec::new();
    };
    let points = result.points(record.start().player_names().len());
    let blend = sampling.result_weight < 1.0;
    let mut moves = 0;
    let mut out = Vec::new();
    for (ply, (event, pos)) in record.events().iter().zip(record.positions()).enumerate() {
        if !matches!(event, Event::Move(_)) {
            continue;
        }
        let comment = comments.get(moves).and_then(|c| c.as_deref());
        moves += 1;
        if ply < sampling.skip_plies || !is_quiet(pos) {
            continue;
        }
        let result = points.get(pos.to_move() as usize).copied().unwrap_or(0.0);
        let label = if blend {
            let Some(score) = comment.and_then(comment_score) else {
                continue;
            };
            let w = sampling.result_weight.clamp(0.0, 1.0);
            w * result + (1.0 - w) * sigmoid(sampling.score_scale * score)
        } else {
            result
        };
        out.push(Sample {
            pos: pos.clone(),
            label,
        });
    }
    out
}

/// Which positions of each game to tune on, and how to label them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sampling {
    /// Leave out the positions before this ply (random openings).
    pub skip_plies: usize,
    /// At most this many quiet positions of each game, evenly spread over it, so that long
    /// games (hundreds of plies of shuffling before a draw) do not outweigh the others.
    pub per_game: Option<usize>,
    /// The weight of the game's result in a label, from 0 to 1; the rest is the score of the
    /// move's comment, `sigmoid(score_scale · score)`. 1 (the default): the result alone.
    pub result_weight: f64,
    /// The scale of the comments' scores in the labels: the default, ln 10 / 400, makes 400
    /// centipawns odds of ten to one.
    pub score_scale: f64,
}

/// The default [`Sampling::score_scale`].
pub const SCORE_SCALE: f64 = std::f64::consts::LN_10 / 400.0;

impl Default for Sampling {
    fn default() -> Self {
        Sampling {
            skip_plies: 0,
            per_game: None,
            result_weight: 1.0,
            score_scale: SCORE_SCALE,
        }
    }
}

/// At most `n` of `items`, evenly spread (the first kept), in order.
pub fn spread<T>(items: Vec<T>, n: usize) -> Vec<T> {
    let len = items.len();
    if len <= n {
        return items;
    }
    let mut keep = (0..n).map(|i| i * len / n).peekable();
    items
        .into_iter()
        .enumerate()
        .filter_map(|(i, item)| {
            if keep.peek() == Some(&i) {
                keep.next();
                Some(item)
            } else {
                None
            }
        })
        .collect()
}

/// Not over, not in check, and no capture, promotion or immediate win to play.
pub fn is_quiet<P: Position>(pos: &P) -> bool {
    if pos.in_check() || pos.draw_by_rule().is_some() {
        return false;
    }
    let mut tactical = MoveCounter(0);
    pos.generate_tactical(&mut tactical);
    tactical.0 == 0 && pos.count_legal_moves() > 0
}

/// The samples of one finished game as `sampling` says ([`labelled_samples`]), at most
/// [`Sampling::per_game`] of them ([`spread`]).
pub(super) fn game_samples<P: Position>(
    record: &Record<P>,
    comments: &[Option<String>],
    sampling: &Sampling,
) -> Vec<Sample<P>> {
    let quiet = labelled_samples(record, comments, sampling);
    match sampling.per_game {
        Some(n) => spread(quiet, n),
        None => quiet,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tune::tests::finished_reines_game;
    use myrmidon_rules::games::reines::ReinesPosition;

    #[test]
    fn spread_keeps_evenly_spaced_items() {
        assert_eq!(spread((0..10).collect(), 5), vec![0, 2, 4, 6, 8]);
        assert_eq!(spread((0..10).collect(), 3), vec![0, 3, 6]);
        assert_eq!(spread((0..3).collect(), 5), vec![0, 1, 2]);
        assert_eq!(spread((0..3).collect::<Vec<i32>>(), 0), Vec::<i32>::new());
    }

    #[test]
    fn comments_give_scores_from_the_movers_view() {
        assert_eq!(comment_score("+0.35/12 0.51s"), Some(35.0));
        assert_eq!(comment_score("-1.20/3 0.01s"), Some(-120.0));
        assert_eq!(comment_score("+M3/9 0.20s"), Some(MATE_COMMENT));
        assert_eq!(comment_score("-M2 0.00s"), Some(-MATE_COMMENT));
        for none in [
            "book",
            "1.23s",
            "",
            "+x/3",
            "-M/2",
            "+inf/2",
            "illegal move",
        ] {
            assert_eq!(comment_score(none), None, "{none}");
        }
    }

    #[test]
    fn labels_blend_the_result_with_the_comments_scores() {
        let record = finished_reines_game(11);
        let typed = myrmidon_rules::dynamic::record_of::<ReinesPosition>(&*record).unwrap();
        let points = typed.result().unwrap().points(2);
        // Every even move scored +4.00 by its mover, the odd ones without a score.
        let moves = typed.events().len();
        let comments: Vec<Option<String>> = (0..moves)
            .map(|i| (i % 2 == 0).then(|| "+4.00/7 0.10s".to_string()))
            .collect();
        let sampling = Sampling {
            result_weight: 0.25,
            ..Sampling::default()
        };
        let blended = labelled_samples(typed, &comments, &sampling);
        let plain = quiet_samples(typed, 0);
        assert!(!blended.is_empty() && blended.len() < plain.len());
        let score = sigmoid(SCORE_SCALE * 400.0);
        assert!((score - 10.0 / 11.0).abs() < 1e-9);
        for s in &blended {
            let result = points[s.pos.to_move() as usize];
            assert!((s.label - (0.25 * result + 0.75 * score)).abs() < 1e-9);
        }
        // The positions kept are those whose move has a score: the even plies.
        let even: Vec<String> = typed
            .positions()
            .iter()
            .step_by(2)
            .take(moves.div_ceil(2))
            .filter(|p| is_quiet(*p))
            .map(|p| p.to_string())
            .collect();
        let kept: Vec<String> = blended.iter().map(|s| s.pos.to_string()).collect();
        assert_eq!(kept, even);
        // The result alone (the default) keeps every quiet position.
        let alone = labelled_samples(typed, &comments, &Sampling::default());
        assert_eq!(alone.len(), plain.len());
    }
}
