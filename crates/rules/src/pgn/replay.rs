//! A game read: its tags checked and its moves replayed with the rules.

use super::read::{movetext_token, RawGame, Tok};
use super::results::same_points;
use super::tokens::ids;
use super::write::Numbering;
use super::*;

/// A `Termination` value: a reason id, or one of PGN's standard values that means one.
fn termination_reason(value: &str) -> Option<Reason> {
    match value {
        "time forfeit" => Some(Reason::TIME),
        "rules infraction" => Some(Reason::ILLEGAL_MOVE),
        "abandoned" => Some(Reason::CRASH),
        other => Reason::find(other),
    }
}

pub(super) fn interpret(raw: RawGame) -> Result<ReadGame, RecordError> {
    let RawGame {
        line: first_line,
        tags,
        items,
        result: (marker, marker_line),
    } = raw;
    for (i, (name, _, line)) in tags.iter().enumerate() {
        if tags[..i].iter().any(|(n, _, _)| n == name) {
            return Err(RecordError::new(*line, format!("tag {name} given twice")));
        }
    }
    let tag = |name: &str| {
        tags.iter()
            .find(|(n, _, _)| n == name)
            .map(|(_, v, l)| (v.as_str(), *l))
    };

    // The game and its start.
    let known = || {
        let ids: Vec<&str> = registry::games().iter().map(|g| g.info().id).collect();
        ids.join(", ")
    };
    let game = match tag("Game") {
        Some((id, line)) => {
            registry::find(id).map_err(|e| RecordError::new(line, e.to_string()))?
        }
        None => tag("Variant")
            .and_then(|(v, _)| registry::find(&v.to_ascii_lowercase()).ok())
            .ok_or_else(|| {
                RecordError::new(
                    first_line,
                    format!(
                        "no Game tag: say which game this is, like [Game \"ackenhead\"] (the \
                         games are {})",
                        known()
                    ),
                )
            })?,
    };
    let info = game.info();
    let mut settings = Settings::new();
    for s in info.settings {
        if let Some((value, line)) = tag(&setting_tag(s.name)) {
            let one = Settings::new().with(s.name, value);
            one.validate(info)
                .map_err(|e| RecordError::new(line, e.to_string()))?;
            settings = settings.with(s.name, value);
        }
    }
    let mut record = match tag("FEN") {
        Some((fen, line)) => game
            .new_game_from(&settings, fen)
            .map_err(|e| RecordError::new(line, format!("FEN: {e}")))?,
        None => {
            if let Some(("1", line)) = tag("SetUp") {
                return Err(RecordError::new(
                    line,
                    "SetUp is 1 but there is no FEN tag with the start position",
                ));
            }
            game.new_game(&settings)
                .map_err(|e| RecordError::new(first_line, e.to_string()))?
        }
    };
    let names = record.player_names();
    let players = names.len();

    // The result, as the movetext ends and as the tag says.
    let marker_points =
        parse_result(&marker, players).map_err(|m| RecordError::new(marker_line, m))?;
    let (result_text, result_points, result_line) = match tag("Result") {
        Some((value, line)) => {
            let points = parse_result(value, players).map_err(|m| RecordError::new(line, m))?;
            let same = match (&points, &marker_points) {
                (Some(a), Some(b)) => same_points(a, b),
                (None, None) => true,
                _ => false,
            };
            if !same {
                return Err(RecordError::new(
                    marker_line,
                    format!(
                        "the moves end with the result {} but the Result tag says {}",
                        shortened(&marker),
                        shortened(value)
                    ),
                ));
            }
            (value.to_string(), points, line)
        }
        None => (marker.clone(), marker_points, marker_line),
    };

    // The moves.
    let first_number = first_move_number(&*record);
    let mut comments: Vec<Option<String>> = Vec::new();
    let mut comment: Option<String> = None;
    for (tok, line) in items {
        match tok {
            Tok::Comment(c) => {
                let Some(c) = clean_comment(&c) else { continue };
                let slot = match comments.last_mut() {
                    Some(slot) => slot,
                    None => &mut comment,
                };
                *slot = Some(match slot.take() {
                    Some(before) => format!("{before} {c}"),
                    None => c,
                });
            }
            Tok::Word(w) => {
                let Some(token) = movetext_token(&w) else {
                    continue;
                };
                let player = record.to_move();
                if let Err(e) = play_token(&mut *record, token) {
                    let message = match e {
                        TokenError::Move(e) => match record.result() {
                            Some(r) => format!(
                                "{:?} comes after the end of the game ({})",
                                shortened(token),
                                r.describe(names, record.info().players_number)
                            ),
                            None => {
                                let name = names.get(player as usize).copied().unwrap_or("?");
                                // Count the moves played so far, to name this one.
                                let mut numbering = Numbering::new(first_number);
                                for m in record.history() {
                                    numbering.see(m.player, !m.automatic);
                                }
                                format!(
                                    "move {} of {name}, {:?}: {e}; {name} has {} legal moves",
                                    numbering.label(player),
                                    shortened(token),
                                    record.legal_moves().len()
                                )
                            }
                        },
                        e => e.to_string(),
                    };
                    return Err(RecordError::new(line, message));
                }
                if !token
                    .get(..4)
                    .is_some_and(|p| p.eq_ignore_ascii_case("out:"))
                {
                    comments.push(None);
                }
            }
            // The lexer keeps only words and comments in the movetext.
            Tok::Tag(..) | Tok::Open | Tok::Close => {}
        }
    }
    if let Some((value, line)) = tag("PlyCount") {
        if value.parse::<usize>().ok() != Some(comments.len()) {
            return Err(RecordError::new(
                line,
                format!(
                    "PlyCount is {:?} but the movetext has {} moves",
                    shortened(value),
                    comments.len()
                ),
            ));
        }
    }

    // The end: over by the moves, or ended off the board as the tags say.
    let termination = tag("Termination");
    match (record.result(), result_points) {
        (Some(result), points) => {
            let actual = points_string(&result.points(players));
            let matches = points.is_some_and(|p| same_points(&p, &result.points(players)));
            if !matches {
                return Err(RecordError::new(
                    result_line,
                    format!(
                        "the moves end the game, {} ({actual}), but the result given is {}",
                        result.describe(names, record.info().players_number),
                        shortened(&result_text)
                    ),
                ));
            }
            if let Some((value, line)) = termination {
                let reason = result.outcome.reason();
                if value != "normal" && termination_reason(value) != Some(reason) {
                    return Err(RecordError::new(
                        line,
                        format!(
                            "Termination is {:?} but the moves end the game {}",
                            shortened(value),
                            reason.text
                        ),
                    ));
                }
            }
        }
        (None, None) => {
            if let Some((value, line)) = termination {
                if value != "unterminated" {
                    return Err(RecordError::new(
                        line,
                        format!(
                            "Termination is {:?} but the game is unfinished (result *)",
                            shortened(value)
                        ),
                    ));
                }
            }
        }
        (None, Some(points)) => {
            let winner = (0..players).find(|&p| (points[p] - 1.0).abs() < 1e-9);
            let reason = match termination {
                None if winner.is_some() => Reason::RESIGNATION,
                None => Reason::AGREEMENT,
                Some((value, line)) => termination_reason(value)
                    .filter(|r| DECLARED_REASONS.contains(r))
                    .ok_or_else(|| {
                        RecordError::new(
                            line,
                            format!(
                                "Termination is {:?} but the moves leave the game unfinished: a \
                                 game ended off the board ends by {}",
                                shortened(value),
                                ids(DECLARED_REASONS)
                            ),
                        )
                    })?,
            };
            let fits = match reason {
                r if r == Reason::AGREEMENT => winner.is_none(),
                r if r == Reason::TIME || r == Reason::ADJUDICATION => true,
                _ => winner.is_some(),
            };
            let line = termination.map_or(result_line, |(_, l)| l);
            if !fits {
                return Err(RecordError::new(
                    line,
                    format!(
                        "the result {} cannot end a game by {}, which {}",
                        shortened(&result_text),
                        reason.id,
                        if winner.is_some() {
                            "makes a draw"
                        } else {
                            "gives one player the win"
                        }
                    ),
                ));
            }
            let outcome = match winner {
                Some(w) => {
                    let w = w as Player;
                    if !record.players_in().contains(&w) {
                        return Err(RecordError::new(
                            result_line,
                            format!(
                                "the result {} makes {} the winner, who is out of the game",
                                shortened(&result_text),
                                names[w as usize]
                            ),
                        ));
                    }
                    Outcome::Win { winner: w, reason }
                }
                None => Outcome::Draw { reason },
            };
            record.declare(outcome);
            let got = record
                .result()
                .map(|r| r.points(players))
                .unwrap_or_default();
            if !same_points(&got, &points) {
                let still: Vec<&str> = record
                    .players_in()
                    .iter()
                    .map(|&p| names[p as usize])
                    .collect();
                return Err(RecordError::new(
                    result_line,
                    format!(
                        "the result {} cannot be: after the moves {} are in the game, and \
                         this ends it {}",
                        shortened(&result_text),
                        still.join(", "),
                        points_string(&got)
                    ),
                ));
            }
        }
    }

    Ok(ReadGame {
        tags: tags.into_iter().map(|(n, v, _)| (n, v)).collect(),
        record,
        comments,
        comment,
        line: first_line,
    })
}
