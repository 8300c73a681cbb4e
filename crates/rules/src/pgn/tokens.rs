//! Movetext tokens played on a game in progress: a move text, or `out:<seat>:<reason>`.

use super::*;

/// Plays one movetext token on a game in progress: a move text (in any letter case when that
/// names one legal move, as [`DynRecord::play`] reads it), or `out:<seat>:<reason-id>` for a
/// player leaving a game of three or more (seats from 1; reasons of [`DROPOUT_REASONS`]),
/// after which the record plays that seat's passes itself.
pub fn play_token(record: &mut dyn DynRecord, token: &str) -> Result<(), TokenError> {
    let token = token.trim();
    let is_out = token
        .get(..4)
        .is_some_and(|p| p.eq_ignore_ascii_case("out:"));
    if !is_out {
        return record.play(token).map(|_| ()).map_err(TokenError::Move);
    }
    let fail = |message: String| TokenError::Out {
        token: token.to_string(),
        message,
    };
    let names = record.player_names();
    let players = names.len();
    let (seat, reason) = token[4..]
        .split_once(':')
        .ok_or_else(|| fail("expected out:<seat>:<reason>, like out:2:time".to_string()))?;
    if players < 3 {
        return Err(fail(format!(
            "{} is a game of two: a player leaving ends it, which the Result and Termination \
             tags say",
            record.info().id
        )));
    }
    let seat: usize = seat
        .parse()
        .ok()
        .filter(|s| (1..=players).contains(s))
        .ok_or_else(|| {
            fail(format!(
                "{:?} is not a seat: the seats are 1 to {players}",
                shortened(seat)
            ))
        })?;
    let reason_id = reason.to_ascii_lowercase();
    let reason = DROPOUT_REASONS
        .iter()
        .copied()
        .find(|r| r.id == reason_id)
        .ok_or_else(|| {
            fail(format!(
                "{:?} is not a reason to leave: expected {}",
                shortened(reason),
                ids(DROPOUT_REASONS)
            ))
        })?;
    let player = (seat - 1) as Player;
    let name = names[seat - 1];
    if let Some(result) = record.result() {
        return Err(fail(format!(
            "the game is over ({})",
            result.describe(names, record.info().players_number)
        )));
    }
    let left = record
        .steps()
        .iter()
        .any(|s| matches!(s, Step::Dropout { player: p, .. } if *p == player));
    if left {
        return Err(fail(format!("{name} (seat {seat}) has left already")));
    }
    if !record.drop_out(player, reason) {
        return Err(fail(format!("{name} (seat {seat}) cannot leave here")));
    }
    Ok(())
}

pub(super) fn ids(reasons: &[Reason]) -> String {
    let ids: Vec<&str> = reasons.iter().map(|r| r.id).collect();
    ids.join(", ")
}
