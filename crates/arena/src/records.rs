//! The game records a match writes (`--records`): the record format of
//! [`myrmidon_rules::pgn`] (`docs/records.md`), with the match's tags and a cutechess-style
//! comment on every move (`{+0.35/12 0.51s}`, `{book}` for the opening's moves).

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use myrmidon_rules::pgn::{write_game, Header};

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

/// The UTC date (`YYYY.MM.DD`) and time (`HH:MM:SS`) of a moment.
pub fn utc_date_time(at: SystemTime) -> (String, String) {
    let secs = at
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    let t = secs % 86_400;
    (
        format!("{y:04}.{m:02}.{d:02}"),
        format!("{:02}:{:02}:{:02}", t / 3600, t / 60 % 60, t % 60),
    )
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (Howard Hinnant's
/// `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_times() {
        assert_eq!(
            utc_date_time(UNIX_EPOCH),
            ("1970.01.01".to_string(), "00:00:00".to_string())
        );
        // 2000-02-29 12:34:56 UTC, a leap day.
        let at = UNIX_EPOCH + Duration::from_secs(951_827_696);
        assert_eq!(
            utc_date_time(at),
            ("2000.02.29".to_string(), "12:34:56".to_string())
        );
        // 2026-12-31 23:59:59 UTC.
        let at = UNIX_EPOCH + Duration::from_secs(1_798_761_599);
        assert_eq!(
            utc_date_time(at),
            ("2026.12.31".to_string(), "23:59:59".to_string())
        );
        assert_eq!(hms(Duration::from_secs(3 * 3600 + 62)), "03:01:02");
    }
}
