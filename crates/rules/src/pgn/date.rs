//! The UTC date and time of a moment, as the `Date` and `Time` tags write them.

use std::time::{SystemTime, UNIX_EPOCH};

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
    use std::time::Duration;

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
    }
}
