//! How a game ends: who won, or a draw, and why; and in games of three, who dropped out on the
//! way.
//!
//! A [`Reason`] is data: each game defines the reasons of its own rules (checkmate, anthill,
//! crossing, …) next to its rules and lists them in its `GameInfo::reasons`; the reasons that
//! come from outside the board (agreement, resignation, time, repetition) are here. Adding a game
//! never touches this file.

use std::fmt;

use crate::game::{GrammaticalNumber, Player};

/// Why a game ended, or why a player dropped out of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Reason {
    /// A stable identifier, in lower case with hyphens (`checkmate`, `queen-captured`), for
    /// files, the wire and the database.
    pub id: &'static str,
    /// How the result reads after "wins", "draw" or "is out": `by checkmate`, `on time`,
    /// `by capturing the Queen`.
    pub text: &'static str,
}

impl Reason {
    pub const fn new(id: &'static str, text: &'static str) -> Self {
        Reason { id, text }
    }

    /// Draw by agreement; in three-player games, every player still in the game agrees.
    pub const AGREEMENT: Reason = Reason::new("agreement", "by agreement");
    /// A player gave up.
    pub const RESIGNATION: Reason = Reason::new("resignation", "by resignation");
    /// A player's clock ran out.
    pub const TIME: Reason = Reason::new("time", "on time");
    /// A player left the game (no connection and no move for a while) and another claimed
    /// the game, or a draw, against them.
    pub const ABANDONMENT: Reason = Reason::new("abandonment", "by abandonment");
    /// The same position for the third time (the game record applies it).
    pub const REPETITION: Reason = Reason::new("repetition", "by threefold repetition");

    /// Rules many games share; a game that uses one lists it in its `GameInfo::reasons`.
    pub const CHECKMATE: Reason = Reason::new("checkmate", "by checkmate");
    pub const STALEMATE: Reason = Reason::new("stalemate", "by stalemate");
    /// Too many plies without progress (the fifty-move rule and its relatives).
    pub const NO_PROGRESS: Reason = Reason::new("no-progress", "by the no-progress rule");
    /// Every player passed in a row.
    pub const PASSES: Reason = Reason::new("passes", "by every player passing");

    /// Ends decided by a referee (a match runner, a server) rather than by the board.
    /// The referee ended the game (a ply limit reached, a result both engines agree on).
    pub const ADJUDICATION: Reason = Reason::new("adjudication", "by adjudication");
    /// A player sent a move that is not legal, or text that is not a move: they forfeit.
    pub const ILLEGAL_MOVE: Reason = Reason::new("illegal-move", "by forfeit (illegal move)");
    /// A player's program stopped or stopped answering: they forfeit.
    pub const CRASH: Reason = Reason::new("crash", "by forfeit (engine crash)");

    /// The reasons that do not belong to one game's rules.
    pub const COMMON: &'static [Reason] = &[
        Reason::AGREEMENT,
        Reason::RESIGNATION,
        Reason::TIME,
        Reason::ABANDONMENT,
        Reason::REPETITION,
        Reason::CHECKMATE,
        Reason::STALEMATE,
        Reason::NO_PROGRESS,
        Reason::PASSES,
        Reason::ADJUDICATION,
        Reason::ILLEGAL_MOVE,
        Reason::CRASH,
    ];

    /// The reason with this id, among the common ones and those of every game of the registry.
    pub fn find(id: &str) -> Option<Reason> {
        Reason::COMMON
            .iter()
            .chain(
                crate::registry::games()
                    .iter()
                    .flat_map(|g| g.info().reasons.iter()),
            )
            .copied()
            .find(|r| r.id == id)
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id)
    }
}

/// The end of a game as one position decides it, or as it is declared.
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(from = "serde_impls::OutcomeWire", into = "serde_impls::OutcomeWire")
)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win { winner: Player, reason: Reason },
    Draw { reason: Reason },
}

impl Outcome {
    pub fn reason(self) -> Reason {
        match self {
            Outcome::Win { reason, .. } | Outcome::Draw { reason } => reason,
        }
    }

    pub fn winner(self) -> Option<Player> {
        match self {
            Outcome::Win { winner, .. } => Some(winner),
            Outcome::Draw { .. } => None,
        }
    }

    /// "White wins by checkmate", "the Termides win by capturing the Queen", "draw by
    /// stalemate", with the players' names, taken as `number` says (`GameInfo::players_number`).
    pub fn describe(self, players: &[&str], number: GrammaticalNumber) -> String {
        match self {
            Outcome::Win { winner, reason } => {
                let verb = verb(number, "wins", "win");
                format!("{} {verb} {}", name(players, winner, number), reason.text)
            }
            Outcome::Draw { reason } => format!("draw {}", reason.text),
        }
    }
}

/// A player's name as the subject of a sentence: "White", "the Termides".
fn name(players: &[&str], player: Player, number: GrammaticalNumber) -> String {
    let name = players.get(player as usize).copied().unwrap_or("?");
    match number {
        GrammaticalNumber::Singular => name.to_string(),
        GrammaticalNumber::Plural => format!("the {name}"),
    }
}

fn verb(number: GrammaticalNumber, singular: &'static str, plural: &'static str) -> &'static str {
    match number {
        GrammaticalNumber::Singular => singular,
        GrammaticalNumber::Plural => plural,
    }
}

/// A player who left a game of three or more before its end: a Queen captured, a resignation, a
/// fallen flag. The others play on.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Elimination {
    pub player: Player,
    pub reason: Reason,
    /// How many moves had been played when it happened.
    pub ply: usize,
}

impl Elimination {
    /// "Red is out by resignation" ("the Termides are out …" where `number` is plural).
    pub fn describe(self, players: &[&str], number: GrammaticalNumber) -> String {
        let verb = verb(number, "is", "are");
        let who = name(players, self.player, number);
        format!("{who} {verb} out {}", self.reason.text)
    }
}

/// The end of a whole game: the outcome, and the players who dropped out before it, in order.
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameResult {
    pub outcome: Outcome,
    pub eliminations: Vec<Elimination>,
}

impl GameResult {
    /// The outcome's sentence, then each elimination's: "Green wins by holding the last Queen
    /// (Red is out by resignation; Black is out by losing the Queen)".
    pub fn describe(&self, players: &[&str], number: GrammaticalNumber) -> String {
        let main = self.outcome.describe(players, number);
        if self.eliminations.is_empty() {
            return main;
        }
        let out: Vec<String> = self
            .eliminations
            .iter()
            .map(|e| e.describe(players, number))
            .collect();
        format!("{main} ({})", out.join("; "))
    }

    /// Points per player: 1 to the winner; on a draw, each player still in the game shares
    /// the point (those eliminated get 0).
    pub fn points(&self, players: usize) -> Vec<f64> {
        let mut points = vec![0.0; players];
        match self.outcome {
            Outcome::Win { winner, .. } => {
                if let Some(p) = points.get_mut(winner as usize) {
                    *p = 1.0;
                }
            }
            Outcome::Draw { .. } => {
                let alive: Vec<usize> = (0..players)
                    .filter(|&p| !self.eliminations.iter().any(|e| e.player as usize == p))
                    .collect();
                let share = if alive.is_empty() {
                    1.0 / players as f64
                } else {
                    1.0 / alive.len() as f64
                };
                for (p, pts) in points.iter_mut().enumerate() {
                    if alive.is_empty() || alive.contains(&p) {
                        *pts = share;
                    }
                }
            }
        }
        points
    }
}

#[cfg(feature = "serde")]
mod serde_impls {
    //! Reasons travel as their ids; outcomes as `{"winner": 0, "reason": "checkmate"}` (winner
    //! `null` for a draw); eliminations and results as plain structs of those.
    use super::*;
    use serde::{de, Deserialize, Deserializer, Serialize, Serializer};

    impl Serialize for Reason {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.serialize_str(self.id)
        }
    }

    impl<'de> Deserialize<'de> for Reason {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            let id = String::deserialize(d)?;
            Reason::find(&id).ok_or_else(|| de::Error::custom(format!("unknown reason {id:?}")))
        }
    }

    #[derive(Serialize, Deserialize)]
    pub(super) struct OutcomeWire {
        winner: Option<Player>,
        reason: Reason,
    }

    impl From<Outcome> for OutcomeWire {
        fn from(o: Outcome) -> Self {
            OutcomeWire {
                winner: o.winner(),
                reason: o.reason(),
            }
        }
    }

    impl From<OutcomeWire> for Outcome {
        fn from(w: OutcomeWire) -> Self {
            match w.winner {
                Some(winner) => Outcome::Win {
                    winner,
                    reason: w.reason,
                },
                None => Outcome::Draw { reason: w.reason },
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_read_as_sentences() {
        let players = ["Black", "Red", "Green"];
        let r = GameResult {
            outcome: Outcome::Win {
                winner: 2,
                reason: Reason::new("last-queen", "by holding the last Queen"),
            },
            eliminations: vec![Elimination {
                player: 1,
                reason: Reason::RESIGNATION,
                ply: 7,
            }],
        };
        assert_eq!(
            r.describe(&players, GrammaticalNumber::Singular),
            "Green wins by holding the last Queen (Red is out by resignation)"
        );
        // Peoples: plural verbs after an article.
        assert_eq!(
            r.describe(
                &["Termides", "Myrmides", "Atlantes"],
                GrammaticalNumber::Plural
            ),
            "the Atlantes win by holding the last Queen (the Myrmides are out by resignation)"
        );
        assert_eq!(r.points(3), vec![0.0, 0.0, 1.0]);
        let d = GameResult {
            outcome: Outcome::Draw {
                reason: Reason::AGREEMENT,
            },
            eliminations: r.eliminations.clone(),
        };
        assert_eq!(d.points(3), vec![0.5, 0.0, 0.5]);
        assert_eq!(
            Outcome::Win {
                winner: 0,
                reason: Reason::TIME
            }
            .describe(&players, GrammaticalNumber::Singular),
            "Black wins on time"
        );
    }

    #[test]
    fn every_reason_id_is_unique_and_found() {
        let mut all: Vec<Reason> = Reason::COMMON.to_vec();
        for g in crate::registry::games() {
            for &r in g.info().reasons {
                if !all.contains(&r) {
                    all.push(r);
                }
            }
        }
        for r in &all {
            assert_eq!(Reason::find(r.id), Some(*r), "{r:?}");
            assert_eq!(
                all.iter().filter(|o| o.id == r.id).count(),
                1,
                "two reasons share the id {}",
                r.id
            );
            assert!(r
                .id
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b == b'-' || b.is_ascii_digit()));
        }
        assert_eq!(Reason::find("no-such-reason"), None);
    }
}
