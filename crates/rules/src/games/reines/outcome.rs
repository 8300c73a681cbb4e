//! How a game of Jeu de Reines ends, and what a board display shows beside the board.

use crate::outcome::{Outcome, Reason};

use super::position::{square_name, ReinesPosition, PEOPLE, QUEEN};

/// Plies without a capture or a Worker move after which the game is drawn.
pub const QUIET_LIMIT: u32 = 100;

/// A Queen was captured: her owner loses.
pub const QUEEN_CAPTURED: Reason = Reason::new("queen-captured", "by capturing the Queen");

/// The reasons a game of Jeu de Reines ends for by its rules.
pub const REASONS: &[Reason] = &[QUEEN_CAPTURED, Reason::PASSES, Reason::NO_PROGRESS];

/// The result of a position without moves: a Queen is captured (parsing rejects a board with
/// none, and a player who cannot move passes).
pub(crate) fn outcome_without_moves(pos: &ReinesPosition) -> Outcome {
    // The side whose Queen is still on the board wins.
    let winner = if pos.colour[0] & pos.kinds[QUEEN] != 0 {
        0
    } else {
        1
    };
    Outcome::Win {
        winner,
        reason: QUEEN_CAPTURED,
    }
}

/// Two passes in a row or 100 quiet plies (draws). Repetition is the `Record`'s business.
pub(crate) fn draw_by_rule(pos: &ReinesPosition) -> Option<Outcome> {
    if pos.passes >= 2 {
        return Some(Outcome::Draw {
            reason: Reason::PASSES,
        });
    }
    if pos.quiet >= QUIET_LIMIT {
        return Some(Outcome::Draw {
            reason: Reason::NO_PROGRESS,
        });
    }
    None
}

pub(crate) fn info_lines(pos: &ReinesPosition) -> Vec<String> {
    let first = pos.first_player() as usize;
    let mut lines = vec![format!(
        "Region: {} (the {} hold a1 and move first)",
        pos.region().name(),
        PEOPLE[first]
    )];
    for player in 0..2u8 {
        let people = PEOPLE[player as usize];
        let pending = pos.pending(player);
        let sq = square_name(pos.ponte_square(player));
        let free = pos.piece(pos.ponte_square(player)).is_none();
        if pending.is_empty() {
            lines.push(format!("Ponte, {people} ({sq}): no Worker pending"));
            continue;
        }
        let counters: Vec<String> = pending.iter().map(|c| c.to_string()).collect();
        // Every pending counter is 0 or 1, so all reach 0 at the owner's next start of turn:
        // one Worker comes back then if the Ponte square is free, the others on later turns.
        let when = if pos.side == player {
            "at the start of their next turn"
        } else {
            "right after this move, at the start of their turn"
        };
        let (first, rest) = if pending.len() == 1 {
            ("it", "")
        } else {
            ("the first", ", the others one a turn after")
        };
        let condition = if free {
            String::new()
        } else {
            format!(" if {sq} is free then (occupied now)")
        };
        lines.push(format!(
            "Ponte, {people} ({sq}): {} Worker{} pending (counters {}); {first} comes back \
             {when}{condition}{rest}",
            pending.len(),
            if pending.len() == 1 { "" } else { "s" },
            counters.join(" "),
        ));
    }
    let unmoved: Vec<String> = (0..2u8)
        .map(|player| {
            let mut bb = pos.unmoved_workers() & pos.colour[player as usize];
            let mut squares = Vec::new();
            while bb != 0 {
                squares.push(square_name(bb.trailing_zeros()));
                bb &= bb - 1;
            }
            let list = if squares.is_empty() {
                "none".to_string()
            } else {
                squares.join(" ")
            };
            format!("{} {list}", PEOPLE[player as usize])
        })
        .collect();
    lines.push(format!(
        "Unmoved Workers (may step two): {}",
        unmoved.join("; ")
    ));
    lines.push(format!(
        "Quiet plies: {} of {QUIET_LIMIT}; move {}",
        pos.quiet_plies(),
        pos.move_number()
    ));
    if pos.passes_in_a_row() == 1 {
        lines.push("The last move was a pass: another pass draws.".to_string());
    }
    lines
}
