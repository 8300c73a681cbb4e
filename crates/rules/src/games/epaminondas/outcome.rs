//! How an Epaminondas game ends by the position alone: the crossing rule, checked at the start
//! of a turn, and the loss of a player who cannot move. Repetition is the record's business;
//! there is no other draw rule. Also the state a display shows beside the board.

use crate::game::{Fact, FactValue, InfoArg, InfoLine, PieceSets, Player};
use crate::outcome::{Outcome, Reason};

use super::position::{EpaminondasPosition, BLACK, WHITE};

/// More pieces on the far row than the opponent has on theirs, at the start of a turn.
pub const CROSSING: Reason = Reason::new("crossing", "by crossing");
/// The player to move has no legal move and loses.
pub const NO_MOVE: Reason = Reason::new("no-move", "by leaving the opponent no move");

/// The reasons an Epaminondas game ends for by its rules.
pub const REASONS: &[Reason] = &[CROSSING, NO_MOVE];

/// The name of the fact: how many pieces a player has on their far row.
pub const FAR_ROW: &str = "far-row";
/// The name of the fact: how many pieces a player has on the board.
pub const PIECES: &str = "pieces";

impl EpaminondasPosition {
    /// Always `None`: the rules know no draw but repetition (the record's) and agreement.
    #[inline(always)]
    pub fn draw_by_rule(&self) -> Option<Outcome> {
        None
    }

    /// The result when the player to move has no legal move: the crossing rule decided, or
    /// they cannot move.
    pub fn outcome_without_moves(&self) -> Outcome {
        if self.crossing_win() {
            Outcome::Win {
                winner: self.side,
                reason: CROSSING,
            }
        } else {
            Outcome::Win {
                winner: self.side ^ 1,
                reason: NO_MOVE,
            }
        }
    }

    /// For each player, `far-row` (pieces on their far row) and `pieces` (pieces on the board).
    pub(crate) fn fact_list(&self) -> Vec<Fact> {
        let mut facts = Vec::with_capacity(4);
        for player in [WHITE, BLACK] {
            facts.push(Fact {
                name: FAR_ROW,
                player: Some(player),
                value: FactValue::Number(self.far_row_count(player) as i64),
            });
        }
        for player in [WHITE, BLACK] {
            facts.push(Fact {
                name: PIECES,
                player: Some(player),
                value: FactValue::Number(self.pieces_of(player).count() as i64),
            });
        }
        facts
    }
}

/// The value of the fact `name` about `player`.
fn number(facts: &[Fact], name: &str, player: Player) -> i64 {
    facts
        .iter()
        .find(|f| f.name == name && f.player == Some(player))
        .and_then(|f| match f.value {
            FactValue::Number(n) => Some(n),
            _ => None,
        })
        .unwrap_or(0)
}

/// The facts as messages (`epaminondas-info-far-row`, `-pieces`; `player0`, `count0`, … for
/// each player, `rank0`, `rank1` the far rows), which a display writes in its language: "On
/// the far row: White 1 (rank 12), Black 0 (rank 1)", "Pieces: White 28, Black 27" in English.
pub(crate) fn info_messages(facts: &[Fact]) -> Vec<InfoLine> {
    let per_player = |key, name| {
        InfoLine::new(
            key,
            vec![
                ("player0", InfoArg::Player(WHITE)),
                ("count0", InfoArg::Number(number(facts, name, WHITE))),
                ("player1", InfoArg::Player(BLACK)),
                ("count1", InfoArg::Number(number(facts, name, BLACK))),
                ("rank0", InfoArg::Number(12)),
                ("rank1", InfoArg::Number(1)),
            ],
        )
    };
    vec![
        per_player("epaminondas-info-far-row", FAR_ROW),
        per_player("epaminondas-info-pieces", PIECES),
    ]
}
