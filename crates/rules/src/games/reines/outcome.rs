//! How a game of Jeu de Reines ends, and what a board display shows beside the board: the
//! facts (as data) and the English lines made from them.

use crate::game::{Fact, FactValue, InfoArg, InfoLine, PieceSets, Player};
use crate::outcome::{Outcome, Reason};

use super::position::{ReinesPosition, QUEEN, WORKER};

/// Plies without a capture or a Worker move after which the game is drawn.
pub const QUIET_LIMIT: u32 = 100;

/// A Queen was captured: her owner loses.
pub const QUEEN_CAPTURED: Reason = Reason::new("queen-captured", "by capturing the Queen");

/// The reasons a game of Jeu de Reines ends for by its rules.
pub const REASONS: &[Reason] = &[QUEEN_CAPTURED, Reason::PASSES, Reason::NO_PROGRESS];

/// The result of a position without moves: a Queen is captured (parsing rejects a board with
/// none, and a player who cannot move passes). The player whose Queen is still on the board
/// wins.
pub(crate) fn outcome_without_moves(pos: &ReinesPosition) -> Outcome {
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

/// Two passes in a row or 100 quiet plies (draws), from the counters alone. Repetition is the
/// `Record`'s business.
#[inline]
pub(crate) fn draw_by_rule(pos: &ReinesPosition) -> Option<Outcome> {
    if pos.passes >= 2 {
        Some(Outcome::Draw {
            reason: Reason::PASSES,
        })
    } else if pos.quiet >= QUIET_LIMIT {
        Some(Outcome::Draw {
            reason: Reason::NO_PROGRESS,
        })
    } else {
        None
    }
}

/// The facts of a position, in this order:
/// * `region`: the values of the `region` setting the game may have started with, as indices
///   into the setting's values (`[0]` neutral, `[1]` animist, `[2]` cultist, `[0, 1]` for a
///   game read from a string with the Termides in a1, which cannot tell those two apart);
/// * per player, in turn order: `ponte-square` (the cell), `pending-workers` (the counters of
///   the Workers waiting to come back, ascending, each 0 or 1), `ponte-blocked` (a piece stands
///   on the Ponte square now), `unmoved-workers` (the cells of the Workers that may still step
///   two);
/// * `quiet-plies` (towards the draw at 100), `move-number`, `passes` (passes in a row just
///   played: one more pass after one draws).
pub(crate) fn facts(pos: &ReinesPosition) -> Vec<Fact> {
    let mut out = vec![Fact {
        name: "region",
        player: None,
        value: FactValue::Numbers(
            pos.region()
                .setting_indices()
                .iter()
                .map(|&i| i as i64)
                .collect(),
        ),
    }];
    for player in 0..2u8 {
        let sq = pos.ponte_square(player).unwrap_or(0);
        let fact = |name, value| Fact {
            name,
            player: Some(player),
            value,
        };
        out.push(fact("ponte-square", FactValue::Cell(Some(sq as u16))));
        out.push(fact(
            "pending-workers",
            FactValue::Numbers(pos.pending(player).iter().map(|&c| c as i64).collect()),
        ));
        out.push(fact(
            "ponte-blocked",
            FactValue::Flag(pos.occupied() & (1 << sq) != 0),
        ));
        let mut bb = pos.unmoved & pos.colour[player as usize] & pos.kinds[WORKER];
        let mut cells = Vec::new();
        while bb != 0 {
            cells.push(bb.trailing_zeros() as u16);
            bb &= bb - 1;
        }
        out.push(fact("unmoved-workers", FactValue::Cells(cells)));
    }
    for (name, n) in [
        ("quiet-plies", pos.quiet as i64),
        ("move-number", pos.fullmove as i64),
        ("passes", pos.passes as i64),
    ] {
        out.push(Fact {
            name,
            player: None,
            value: FactValue::Number(n),
        });
    }
    out
}

/// The value of the fact with this name (and player).
fn find<'a>(facts: &'a [Fact], name: &str, player: Option<Player>) -> Option<&'a FactValue> {
    facts
        .iter()
        .find(|f| f.name == name && f.player == player)
        .map(|f| &f.value)
}

fn number(facts: &[Fact], name: &str) -> i64 {
    match find(facts, name, None) {
        Some(FactValue::Number(n)) => *n,
        _ => 0,
    }
}

/// The lines of a display, made from [`facts`], as messages it writes in its language:
/// `reines-info-region` (`region`: a value of the setting, or `neutral-or-animist`),
/// `reines-info-ponte` per player (`count` Workers pending, `counters`, `when`: `next-turn` or
/// `after-this-move`, `square`: `free` or `occupied`) or `reines-info-ponte-empty`,
/// `reines-info-unmoved` (a `reines-info-unmoved-of` per player), `reines-info-quiet` and,
/// after a pass, `reines-info-pass`.
pub(crate) fn info_messages(
    facts: &[Fact],
    regions: &[&'static str],
    to_move: Player,
) -> Vec<InfoLine> {
    let region = match find(facts, "region", None) {
        Some(FactValue::Numbers(v)) if v.len() == 1 => {
            regions.get(v[0] as usize).copied().unwrap_or("?")
        }
        // A position read from a string with the Termides in a1.
        _ => "neutral-or-animist",
    };
    let mut lines = vec![InfoLine::new(
        "reines-info-region",
        vec![
            ("region", InfoArg::Word(region)),
            ("player", InfoArg::Player(0)),
        ],
    )];
    for player in 0..2u8 {
        let p = Some(player);
        let mut args = vec![("player", InfoArg::Player(player))];
        if let Some(FactValue::Cell(Some(c))) = find(facts, "ponte-square", p) {
            args.push(("cell", InfoArg::Cell(*c)));
        }
        let pending: &[i64] = match find(facts, "pending-workers", p) {
            Some(FactValue::Numbers(v)) => v,
            _ => &[],
        };
        if pending.is_empty() {
            lines.push(InfoLine::new("reines-info-ponte-empty", args));
            continue;
        }
        let blocked = matches!(find(facts, "ponte-blocked", p), Some(FactValue::Flag(true)));
        args.extend([
            ("count", InfoArg::Number(pending.len() as i64)),
            ("counters", InfoArg::Numbers(pending.to_vec())),
            (
                "when",
                InfoArg::Word(if to_move == player {
                    "next-turn"
                } else {
                    "after-this-move"
                }),
            ),
            (
                "square",
                InfoArg::Word(if blocked { "occupied" } else { "free" }),
            ),
        ]);
        lines.push(InfoLine::new("reines-info-ponte", args));
    }
    let unmoved = (0..2u8)
        .map(|player| {
            let cells = match find(facts, "unmoved-workers", Some(player)) {
                Some(FactValue::Cells(c)) => c.clone(),
                _ => Vec::new(),
            };
            InfoLine::new(
                "reines-info-unmoved-of",
                vec![
                    ("player", InfoArg::Player(player)),
                    ("count", InfoArg::Number(cells.len() as i64)),
                    ("cells", InfoArg::Cells(cells)),
                ],
            )
        })
        .collect();
    lines.push(InfoLine::new(
        "reines-info-unmoved",
        vec![("players", InfoArg::Lines(unmoved))],
    ));
    lines.push(InfoLine::new(
        "reines-info-quiet",
        vec![
            ("count", InfoArg::Number(number(facts, "quiet-plies"))),
            ("limit", InfoArg::Number(QUIET_LIMIT as i64)),
            ("number", InfoArg::Number(number(facts, "move-number"))),
        ],
    ));
    if number(facts, "passes") == 1 {
        lines.push(InfoLine::new("reines-info-pass", Vec::new()));
    }
    lines
}
