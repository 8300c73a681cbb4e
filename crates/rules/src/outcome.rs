//! How a game ends: who won, or a draw, and why.

use std::fmt;

use crate::game::Player;

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// The side to move is in check and has no legal move.
    Checkmate,
    /// The side to move is not in check and has no legal move.
    Stalemate,
    /// A Queen reached the anthill (Ant Chess).
    Anthill,
    /// A Queen was captured (Jeu de Reines, 3-player Ant Chess).
    QueenCaptured,
    /// Only one Queen is left (3-player Ant Chess).
    LastQueen,
    /// No Queen is left (3-player Ant Chess).
    NoQueens,
    /// Far-row majority at the start of a turn (Epaminondas).
    Crossing,
    /// The player to move has no legal move and loses (Epaminondas).
    NoLegalMove,
    /// The same position for the third time.
    Repetition,
    /// Too many plies without progress (the fifty-move rule and its relatives).
    NoProgress,
    /// Only the Kings are left.
    BareKings,
    /// Every player passed in a row.
    Passes,
    Agreement,
    Resignation,
    Time,
}

impl Reason {
    pub fn as_str(self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::Anthill => "anthill",
            Reason::QueenCaptured => "queen captured",
            Reason::LastQueen => "last queen standing",
            Reason::NoQueens => "no queen left",
            Reason::Crossing => "crossing",
            Reason::NoLegalMove => "no legal move",
            Reason::Repetition => "threefold repetition",
            Reason::NoProgress => "no-progress rule",
            Reason::BareKings => "bare kings",
            Reason::Passes => "every player passed",
            Reason::Agreement => "agreement",
            Reason::Resignation => "resignation",
            Reason::Time => "time",
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The end of a game.
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

    /// "White wins by checkmate", "draw by stalemate", with the players' names.
    pub fn describe(self, players: &[&str]) -> String {
        match self {
            Outcome::Win { winner, reason } => {
                let name = players.get(winner as usize).copied().unwrap_or("?");
                format!("{name} wins by {reason}")
            }
            Outcome::Draw { reason } => format!("draw by {reason}"),
        }
    }
}
