//! Scores: centipawn-like units from one player's point of view, with mates as scores near
//! [`MATE`] so that a shorter win is worth more.

use std::fmt;

/// The score of a win on the spot; a win `n` plies away scores `MATE - n`.
pub const MATE: i32 = 30_000;
/// Scores at least this far from zero are wins or losses found by the search.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// Larger than any score: the search window's initial bounds.
pub const INFINITY: i32 = MATE + 1;

/// A score as the UCI protocol reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns (a Pawn of Ackenhead, a Warrior of Ant Chess, one stone of Epaminondas…).
    Cp(i32),
    /// A forced win in this many of the mover's own moves (negative: a forced loss).
    Mate(i32),
}

impl Score {
    /// The protocol score of a search score `value` (from the mover's view) in a game of
    /// `players` players: plies to the win become the mover's own moves.
    pub fn from_value(value: i32, players: usize) -> Score {
        let players = players.max(1) as i32;
        if value >= MATE_BOUND {
            let plies = MATE - value;
            Score::Mate(plies / players + 1)
        } else if value <= -MATE_BOUND {
            // Lost when another player moves: after this many of the mover's own moves.
            let plies = MATE + value;
            Score::Mate(-((plies + players - 1) / players).max(1))
        } else {
            Score::Cp(value)
        }
    }
}

impl fmt::Display for Score {
    /// As in a UCI `info` line: `cp 35`, `mate 3`, `mate -2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Score::Cp(v) => write!(f, "cp {v}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mates_count_the_movers_own_moves() {
        // Winning move now (1 ply): mate 1. Two players, win on the mover's 2nd move (3 plies).
        assert_eq!(Score::from_value(MATE - 1, 2), Score::Mate(1));
        assert_eq!(Score::from_value(MATE - 3, 2), Score::Mate(2));
        // Lost after the opponent's next move (2 plies).
        assert_eq!(Score::from_value(-(MATE - 2), 2), Score::Mate(-1));
        assert_eq!(Score::from_value(-(MATE - 4), 2), Score::Mate(-2));
        // Three players: the mover's second move is 4 plies away; a loss 3 plies away (after
        // the mover's move and both others') is `mate -1`, 5 plies away `mate -2`.
        assert_eq!(Score::from_value(MATE - 4, 3), Score::Mate(2));
        assert_eq!(Score::from_value(-(MATE - 3), 3), Score::Mate(-1));
        assert_eq!(Score::from_value(-(MATE - 5), 3), Score::Mate(-2));
        assert_eq!(Score::from_value(120, 2), Score::Cp(120));
        assert_eq!(Score::Mate(-3).to_string(), "mate -3");
        assert_eq!(Score::Cp(-40).to_string(), "cp -40");
    }
}
