//! The game records a match writes (`--records`): the record format of
//! [`myrmidon_rules::pgn`] (`docs/records.md`), with the match's tags and a cutechess-style
//! comment on every move (`{+0.35/12 0.51s}`, `{book}` for the opening's moves).

use std::time::{Duration, SystemTime};

use myrmidon_rules::pgn::{utc_date_time, write_game, Header};

use crate::schedule::{seat_orders, Finished, MatchConfig};

/// The record of a finished game of `config`, which ended at `ended`: `Event`
/// (`myrmidon match <game>`), `Date` and `Time` (UTC, when the game started), `Round`
/// (`<round>.<game in the round>`, from 1), the seats' names, `TimeControl`, `GameDuration`
/// and, for a game lost by a fault, a comment before the moves that says what happened.
pub fn game_record(config: &MatchConfig, finished: &Finished, ended: SystemTime) -> String {
    let played = &finished.played;
    let started = ended.checked_sub(played.duration).unwrap_or(ended);
    let (date, time) = utc_date_time(started);
    let per_round = seat_orders(config.seats()).len();
    let names: Vec<String> = finished
        .seats
        .iter()
        .map(|&e| config.engines[e].name.clone())
        .collect();
    let seats = played.record.player_names();
    let faults: Vec<String> = played
        .faults
        .iter()
        .enumerate()
        .filter_map(|(seat, f)| {
            f.as_ref()
                .map(|f| format!("{} ({}) {f}", seats[seat], names[seat]))
        })
        .collect();
    let header = Header {
        event: format!("myrmidon match {}", config.game.info().id),
        site: "?".to_string(),
        date,
        round: format!("{}.{}", finished.round + 1, finished.index % per_round + 1),
        players: names,
        time_control: Some(config.rules.limit.tag()),
        time: Some(time),
        extra: vec![("GameDuration".to_string(), hms(played.duration))],
        comment: (!faults.is_empty()).then(|| faults.join("; ")),
    };
    let comments: Vec<Option<String>> = played
        .tokens
        .iter()
        .filter(|t| !t.text.starts_with("out:"))
        .map(|t| t.comment.clone())
        .collect();
    write_game(&*played.record, &header, &comments)
}

/// `HH:MM:SS` of a duration.
fn hms(d: Duration) -> String {
    let s = d.as_secs();
    format!("{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hours_minutes_seconds() {
        assert_eq!(hms(Duration::from_secs(3 * 3600 + 62)), "03:01:02");
    }
}
