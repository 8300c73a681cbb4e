//! How a game of Ant Chess ends, and what a display shows beside the board.

use crate::game::{Cell, Fact, FactValue, InfoArg, InfoLine, Player};
use crate::outcome::{Outcome, Reason};

use super::position::AntChessPosition;
use super::tables::{tables, NONE};

/// A Queen ended a move on the anthill, unattacked.
pub const ANTHILL: Reason = Reason::new("anthill", "by reaching the anthill");
/// Only one Queen is left (three players).
pub const LAST_QUEEN: Reason = Reason::new("last-queen", "by holding the last Queen");
/// No Queen is left (three players).
pub const NO_QUEENS: Reason = Reason::new("no-queens", "as no Queen is left");
/// A player's Queen was captured, or taken off when they left: they can no longer win (three
/// players).
pub const QUEEN_LOST: Reason = Reason::new("queen-lost", "by losing the Queen");

/// The reasons a game of Ant Chess ends for by its rules.
pub const REASONS: &[Reason] = &[
    ANTHILL,
    LAST_QUEEN,
    NO_QUEENS,
    QUEEN_LOST,
    Reason::CHECKMATE,
    Reason::PASSES,
    Reason::NO_PROGRESS,
];

impl<const N: usize> AntChessPosition<N> {
    /// The end of the game decided by the position alone that empties the move list (the
    /// leaves of perft): anthill, and in 3 players the last Queen standing or no Queen left.
    /// Checkmate (2 players) is found by the move generator.
    #[inline]
    pub(super) fn terminal(&self) -> Option<Outcome> {
        if N == 3 {
            let mut alive = 0;
            let mut last = 0;
            for (o, &q) in self.queens.iter().enumerate() {
                if q != NONE {
                    alive += 1;
                    last = o;
                }
            }
            match alive {
                0 => return Some(Outcome::Draw { reason: NO_QUEENS }),
                1 => {
                    return Some(Outcome::Win {
                        winner: last as u8,
                        reason: LAST_QUEEN,
                    })
                }
                _ => {}
            }
        }
        let prev = (self.to_move as usize + N - 1) % N;
        let centre = tables().centre;
        if self.queens[prev] == centre && !self.attacked_by_opponents(prev, centre as usize) {
            return Some(Outcome::Win {
                winner: prev as u8,
                reason: ANTHILL,
            });
        }
        None
    }

    /// The result of a position without legal moves: anthill, last Queen, no Queen, or
    /// (two players) checkmate.
    pub(super) fn outcome_without_moves(&self) -> Outcome {
        self.terminal().unwrap_or_else(|| Outcome::Win {
            winner: ((self.to_move as usize + 1) % N) as Player,
            reason: Reason::CHECKMATE,
        })
    }

    /// A full round of passes, or too many quiet plies (one test on the usual path).
    #[inline]
    pub(super) fn draw_by_rule(&self) -> Option<Outcome> {
        let passes = self.passes >= self.pass_draw();
        if passes | (self.quiet >= self.quiet_draw()) {
            let reason = if passes {
                Reason::PASSES
            } else {
                Reason::NO_PROGRESS
            };
            return Some(Outcome::Draw { reason });
        }
        None
    }

    /// `move-number`; `queen` for each player (her cell, or none once captured); `passes` in a
    /// row; `quiet-plies`; `check` (the Queen of the player to move is attacked).
    pub(super) fn facts(&self) -> Vec<Fact> {
        let number = |name, n: u32| Fact {
            name,
            player: None,
            value: FactValue::Number(n as i64),
        };
        let mut facts = vec![number("move-number", self.move_number)];
        for p in 0..N {
            facts.push(Fact {
                name: "queen",
                player: Some(p as Player),
                value: FactValue::Cell(self.queen(p).map(|c| c as Cell)),
            });
        }
        facts.push(number("passes", self.passes));
        facts.push(number("quiet-plies", self.quiet));
        facts.push(Fact {
            name: "check",
            player: Some(self.to_move),
            value: FactValue::Flag(self.in_check()),
        });
        facts
    }

    /// The facts as messages (`antchess-info-move`, `-queens` with an `-queen` or
    /// `-queen-captured` per player, `-passes`, `-quiet`, `-check`), which a display writes
    /// in its language: "Move 12", "Queens: Black g1, Red captured (anthill g7)", "Passes in
    /// a row: 0 (draw at 2)", "Quiet plies: 3 (draw at 100)", "Check!" in English.
    pub(super) fn info_messages(&self) -> Vec<InfoLine> {
        let mut lines = Vec::new();
        let mut queens = Vec::new();
        let mut counters = Vec::new();
        let mut check = false;
        let count = |key, n, limit: u32| {
            InfoLine::new(
                key,
                vec![
                    ("count", InfoArg::Number(n)),
                    ("limit", InfoArg::Number(limit as i64)),
                ],
            )
        };
        for fact in self.facts() {
            match (fact.name, fact.value) {
                ("move-number", FactValue::Number(n)) => lines.push(InfoLine::new(
                    "antchess-info-move",
                    vec![("number", InfoArg::Number(n))],
                )),
                ("queen", FactValue::Cell(at)) => {
                    let who = ("player", InfoArg::Player(fact.player.unwrap_or(0)));
                    queens.push(match at {
                        Some(cell) => InfoLine::new(
                            "antchess-info-queen",
                            vec![who, ("cell", InfoArg::Cell(cell))],
                        ),
                        None => InfoLine::new("antchess-info-queen-captured", vec![who]),
                    });
                }
                ("passes", FactValue::Number(n)) => {
                    counters.push(count("antchess-info-passes", n, self.pass_draw()))
                }
                ("quiet-plies", FactValue::Number(n)) => {
                    counters.push(count("antchess-info-quiet", n, self.quiet_draw()))
                }
                ("check", FactValue::Flag(c)) => check = c,
                _ => {}
            }
        }
        lines.push(InfoLine::new(
            "antchess-info-queens",
            vec![
                ("queens", InfoArg::Lines(queens)),
                ("anthill", InfoArg::Cell(tables().centre as Cell)),
            ],
        ));
        lines.extend(counters);
        if check {
            lines.push(InfoLine::new("antchess-info-check", Vec::new()));
        }
        lines
    }
}
