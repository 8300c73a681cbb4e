//! The counters of position strings — the move number, and the plies since an event (the
//! half-move clock, the quiet plies) — as every game reads them: plain decimal digits (no sign,
//! no spaces), at most [`MAX_MOVE_NUMBER`]. A counter that would pass it stays there (the
//! positions count with `saturating_add`), and the records number their moves the same way
//! (`pgn`), so a position string and its record never disagree.

use crate::error::PositionError;

/// The largest move number (and counter) a position string holds: 4294967295. A game that goes
/// on past it stays at it, in its position strings and in its records alike.
pub const MAX_MOVE_NUMBER: u32 = u32::MAX;

/// A counter of a position string (`field` names it in the error): plain digits, at most
/// [`MAX_MOVE_NUMBER`].
pub fn parse_counter(text: &str, field: &'static str) -> Result<u32, PositionError> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(PositionError::new(
            field,
            format!("expected a whole number (plain digits), found {text:?}"),
        ));
    }
    text.parse::<u32>().map_err(|_| {
        PositionError::new(
            field,
            format!("{text} is too large (at most {MAX_MOVE_NUMBER})"),
        )
    })
}

/// The move number of a position string: a counter from 1.
pub fn parse_move_number(text: &str) -> Result<u32, PositionError> {
    let n = parse_counter(text, "move number")?;
    if n == 0 {
        return Err(PositionError::new(
            "move number",
            "must be at least 1 (moves are numbered from 1), found 0",
        ));
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_are_plain_digits_up_to_the_limit() {
        assert_eq!(parse_move_number("1"), Ok(1));
        assert_eq!(parse_move_number("4294967295"), Ok(MAX_MOVE_NUMBER));
        assert_eq!(parse_counter("0", "quiet plies"), Ok(0));
        for (text, words) in [
            ("4294967296", "4294967296 is too large (at most 4294967295)"),
            ("99999999999999999999", "too large"),
            ("0", "at least 1"),
            ("+5", "plain digits"),
            ("-1", "plain digits"),
            (" 5", "plain digits"),
            ("", "plain digits"),
            ("٥", "plain digits"),
        ] {
            let e = parse_move_number(text).unwrap_err();
            assert_eq!(e.field, "move number");
            assert!(e.message.contains(words), "{text:?}: {e}");
        }
    }
}
