//! How an Ackenhead game ends, from the position alone (repetition is the record's business),
//! and the state shown beside the board.

use super::moves::AckenheadMove;
use super::position::*;
use crate::game::{Fact, FactValue, InfoArg, InfoLine, PieceSets};
use crate::outcome::{Outcome, Reason};

/// The fifty-move rule: 100 plies without a capture or a pawn move.
pub const NO_PROGRESS_PLIES: u32 = 100;

/// Only the two Kings are left: "draw by bare Kings".
pub const BARE_KINGS: Reason = Reason::new("bare-kings", "by bare Kings");

/// The reasons an Ackenhead game ends for by its rules: "White wins by checkmate", "draw by
/// stalemate", "draw by the no-progress rule", "draw by bare Kings".
pub const REASONS: &[Reason] = &[
    Reason::CHECKMATE,
    Reason::STALEMATE,
    Reason::NO_PROGRESS,
    BARE_KINGS,
];

impl AckenheadPosition {
    /// The draws by rule, from the counters and the material alone (never counting moves):
    /// 100 plies without capture or pawn move, bare Kings.
    pub(super) fn draw_by_rule(&self) -> Option<Outcome> {
        if self.halfmove >= NO_PROGRESS_PLIES {
            return Some(Outcome::Draw {
                reason: Reason::NO_PROGRESS,
            });
        }
        let kings = self.kinds[KING as usize];
        if self.occupied() == kings && kings.count_ones() == 2 {
            return Some(Outcome::Draw { reason: BARE_KINGS });
        }
        None
    }

    /// Without a legal move: checkmate if in check, else stalemate.
    pub(super) fn outcome_without_moves(&self) -> Outcome {
        if self.in_check_of(self.side) {
            Outcome::Win {
                winner: self.side ^ 1,
                reason: Reason::CHECKMATE,
            }
        } else {
            Outcome::Draw {
                reason: Reason::STALEMATE,
            }
        }
    }

    /// `move-number`, `quiet-plies` (plies without capture or pawn move), `check` (the side to
    /// move is in check) and `en-passant` (the square passed over by the last double step, if
    /// an en passant capture onto it is legal now).
    pub(super) fn facts(&self) -> Vec<Fact> {
        let en_passant = (self.ep_passed != NO_SQUARE
            && self.is_legal_en_passant_target(self.ep_passed))
        .then_some(self.ep_passed as crate::game::Cell);
        vec![
            Fact {
                name: "move-number",
                player: None,
                value: FactValue::Number(self.fullmove as i64),
            },
            Fact {
                name: "quiet-plies",
                player: None,
                value: FactValue::Number(self.halfmove as i64),
            },
            Fact {
                name: "check",
                player: None,
                value: FactValue::Flag(self.in_check_of(self.side)),
            },
            Fact {
                name: "en-passant",
                player: None,
                value: FactValue::Cell(en_passant),
            },
        ]
    }

    /// True if the pawn of the side to move straight behind `to` can legally take en passant
    /// onto it.
    fn is_legal_en_passant_target(&self, to: u8) -> bool {
        let from = if self.side == WHITE {
            to.checked_sub(8)
        } else {
            Some(to + 8).filter(|&s| s < 64)
        };
        from.is_some_and(|from| {
            let mv = AckenheadMove::new(from, to, 0);
            self.is_en_passant(mv) && self.is_legal(mv)
        })
    }
}

/// The facts as messages (`ackenhead-info-move`, `-check`, `-en-passant`), which a display
/// writes in its language: "move 12, 3 plies without capture or pawn move", "check", "en
/// passant possible on c6" in English.
pub(super) fn info_messages(facts: &[Fact]) -> Vec<InfoLine> {
    let mut lines = Vec::new();
    let mut quiet = 0;
    for f in facts {
        if let ("quiet-plies", FactValue::Number(n)) = (f.name, &f.value) {
            quiet = *n;
        }
    }
    for f in facts {
        match (f.name, &f.value) {
            ("move-number", FactValue::Number(n)) => lines.push(InfoLine::new(
                "ackenhead-info-move",
                vec![
                    ("number", InfoArg::Number(*n)),
                    ("quiet", InfoArg::Number(quiet)),
                ],
            )),
            ("check", FactValue::Flag(true)) => {
                lines.push(InfoLine::new("ackenhead-info-check", Vec::new()))
            }
            ("en-passant", FactValue::Cell(Some(cell))) => lines.push(InfoLine::new(
                "ackenhead-info-en-passant",
                vec![("cell", InfoArg::Cell(*cell))],
            )),
            _ => {}
        }
    }
    lines
}
