//! A game in progress: the start, the moves played and the positions they led to, so that the
//! repetition rule can be applied and moves taken back.

use crate::error::MoveError;
use crate::game::Position;
use crate::outcome::{Outcome, Reason};

/// How many times a position must occur for the repetition draw (every game here: 3).
pub const REPETITION_COUNT: usize = 3;

#[derive(Clone, Debug)]
pub struct Record<P: Position> {
    /// `positions[0]` is the start; `positions[i]` follows `moves[i - 1]`.
    positions: Vec<P>,
    moves: Vec<P::Move>,
    /// For each position, the index of the earliest position it could repeat.
    window_start: Vec<usize>,
    /// An outcome decided off the board (agreement, resignation, time).
    declared: Option<Outcome>,
}

impl<P: Position> Record<P> {
    pub fn new(start: P) -> Self {
        Record {
            positions: vec![start],
            moves: Vec::new(),
            window_start: vec![0],
            declared: None,
        }
    }

    pub fn position(&self) -> &P {
        self.positions
            .last()
            .expect("a record always has its start")
    }

    pub fn start(&self) -> &P {
        &self.positions[0]
    }

    pub fn moves(&self) -> &[P::Move] {
        &self.moves
    }

    /// Positions from the start to now.
    pub fn positions(&self) -> &[P] {
        &self.positions
    }

    /// Plays a legal move. Fails if the game is over.
    pub fn play(&mut self, mv: P::Move) -> Result<(), MoveError> {
        if self.outcome().is_some() {
            return Err(MoveError::GameOver);
        }
        let mut next = self.position().clone();
        let irreversible = next.is_irreversible(mv);
        next.make_move(mv);
        let window = if irreversible {
            self.positions.len()
        } else {
            *self.window_start.last().unwrap()
        };
        self.positions.push(next);
        self.window_start.push(window);
        self.moves.push(mv);
        Ok(())
    }

    /// Reads and plays a move text.
    pub fn play_text(&mut self, text: &str) -> Result<P::Move, MoveError> {
        if self.outcome().is_some() {
            return Err(MoveError::GameOver);
        }
        let mv = self.position().parse_move(text)?;
        self.play(mv)?;
        Ok(mv)
    }

    /// Takes back the last move (and any declared result). False if there is none.
    pub fn undo(&mut self) -> bool {
        if self.moves.is_empty() {
            return false;
        }
        self.moves.pop();
        self.positions.pop();
        self.window_start.pop();
        self.declared = None;
        true
    }

    /// Ends the game off the board (agreement, resignation, time).
    pub fn declare(&mut self, outcome: Outcome) {
        self.declared = Some(outcome);
    }

    /// How many times the current position has occurred since the last irreversible move.
    pub fn repetitions(&self) -> usize {
        let now = self.position();
        let from = *self.window_start.last().unwrap();
        let hash = now.hash();
        let tm = now.to_move();
        self.positions[from..]
            .iter()
            .filter(|p| p.hash() == hash && p.to_move() == tm)
            .count()
    }

    /// The outcome: declared, decided by the position, or a draw by repetition.
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(o) = self.declared {
            return Some(o);
        }
        if let Some(o) = self.position().outcome() {
            return Some(o);
        }
        if self.repetitions() >= REPETITION_COUNT {
            return Some(Outcome::Draw {
                reason: Reason::Repetition,
            });
        }
        None
    }
}
