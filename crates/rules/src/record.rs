//! A game in progress: the start, the moves played and the positions they led to, so that the
//! repetition rule can be applied and moves taken back; and what happened off the board (a draw
//! agreed, a resignation, a fallen flag), which in games of three takes one player out while
//! the others play on.

use crate::error::MoveError;
use crate::game::{Player, Position};
use crate::outcome::{Elimination, GameResult, Outcome, Reason};

/// How many times a position must occur for the repetition draw (every game here: 3).
pub const REPETITION_COUNT: usize = 3;

/// One step of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event<M> {
    /// A move chosen by the player to move.
    Move(M),
    /// A move the record played for a player who is out of the game (their seat only passes).
    AutoPass(M),
    /// A player left the game (resignation, time) and the others play on.
    Dropout(Player, Reason),
    /// The game was ended off the board (agreement, or a resignation between two).
    Declared(Outcome),
}

#[derive(Clone, Debug)]
pub struct Record<P: Position> {
    /// `positions[0]` is the start; `positions[i]` follows `events[i - 1]`.
    positions: Vec<P>,
    events: Vec<Event<P::Move>>,
    /// For each position, the index of the earliest position it could repeat.
    window_start: Vec<usize>,
    /// Players out of the game, in the order they went, with the ply (moves played) then.
    eliminations: Vec<Elimination>,
    /// `eliminations.len()` after each event, so that undo restores it.
    eliminated_after: Vec<usize>,
}

impl<P: Position> Record<P> {
    pub fn new(start: P) -> Self {
        let mut r = Record {
            positions: vec![start],
            events: Vec::new(),
            window_start: vec![0],
            eliminations: Vec::new(),
            eliminated_after: vec![0],
        };
        // A start position may already lack a player (a Queen captured in an earlier game).
        r.note_eliminations();
        *r.eliminated_after.last_mut().unwrap() = r.eliminations.len();
        r
    }

    pub fn position(&self) -> &P {
        self.positions
            .last()
            .expect("a record always has its start")
    }

    pub fn start(&self) -> &P {
        &self.positions[0]
    }

    /// Every step since the start.
    pub fn events(&self) -> &[Event<P::Move>] {
        &self.events
    }

    /// The moves played on the board (automatic passes included), each with the position it
    /// was played in.
    pub fn moves(&self) -> impl Iterator<Item = (&P, P::Move)> + '_ {
        self.events
            .iter()
            .zip(&self.positions)
            .filter_map(|(e, p)| match *e {
                Event::Move(m) | Event::AutoPass(m) => Some((p, m)),
                _ => None,
            })
    }

    /// How many moves were played on the board.
    pub fn ply(&self) -> usize {
        self.moves().count()
    }

    /// Positions from the start to now (one after each event).
    pub fn positions(&self) -> &[P] {
        &self.positions
    }

    /// Players out of the game, in the order they went.
    pub fn eliminations(&self) -> &[Elimination] {
        &self.eliminations
    }

    /// True if the player left the game off the board (resignation, time): their seat only
    /// passes.
    pub fn has_left(&self, player: Player) -> bool {
        self.events
            .iter()
            .any(|e| matches!(*e, Event::Dropout(p, _) if p == player))
    }

    fn push(&mut self, event: Event<P::Move>, next: P, irreversible: bool) {
        let window = if irreversible {
            self.positions.len()
        } else {
            *self.window_start.last().unwrap()
        };
        self.positions.push(next);
        self.window_start.push(window);
        self.events.push(event);
        self.note_eliminations();
        self.eliminated_after.push(self.eliminations.len());
    }

    /// Records the players the position now counts out (a Queen captured).
    fn note_eliminations(&mut self) {
        let players = self.position().player_names().len() as Player;
        let ply = self.ply();
        for p in 0..players {
            if let Some(reason) = self.position().eliminated(p) {
                if !self.eliminations.iter().any(|e| e.player == p) {
                    self.eliminations.push(Elimination {
                        player: p,
                        reason,
                        ply,
                    });
                }
            }
        }
    }

    /// Plays a legal move. Fails if the game is over.
    pub fn play(&mut self, mv: P::Move) -> Result<(), MoveError> {
        if self.outcome().is_some() {
            return Err(MoveError::GameOver);
        }
        self.play_unchecked(Event::Move(mv), mv);
        self.pass_for_absent();
        Ok(())
    }

    fn play_unchecked(&mut self, event: Event<P::Move>, mv: P::Move) {
        let mut next = self.position().clone();
        let irreversible = next.is_irreversible(mv);
        next.make_move(mv);
        self.push(event, next, irreversible);
    }

    /// While the player to move has left the game, their seat passes.
    fn pass_for_absent(&mut self) {
        let players = self.position().player_names().len();
        for _ in 0..players {
            if self.outcome().is_some() || !self.has_left(self.position().to_move()) {
                return;
            }
            match self.position().pass_move() {
                Some(pass) => self.play_unchecked(Event::AutoPass(pass), pass),
                None => return,
            }
        }
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

    /// Takes back the last step: a move (with the automatic passes that followed it), a
    /// declared result or a player's leaving. False if there is none.
    pub fn undo(&mut self) -> bool {
        // Automatic passes go with the step before them.
        while matches!(self.events.last(), Some(Event::AutoPass(_))) {
            self.pop();
        }
        if self.events.is_empty() {
            return false;
        }
        self.pop();
        true
    }

    fn pop(&mut self) {
        self.events.pop();
        self.positions.pop();
        self.window_start.pop();
        self.eliminated_after.pop();
        let keep = *self.eliminated_after.last().unwrap();
        self.eliminations.truncate(keep);
    }

    /// Ends the game off the board with this outcome (agreement, or a win on resignation or
    /// time between two players).
    pub fn declare(&mut self, outcome: Outcome) {
        if self.outcome().is_some() {
            return;
        }
        let here = self.position().clone();
        self.push(Event::Declared(outcome), here, false);
    }

    /// `player` resigns or loses on time (`reason`). Between two players the other wins. In a
    /// game of three the player drops out as the game's rules say (`Position::remove_player`),
    /// their seat passes from then on, and the others play on. False if the game is over or
    /// the player already left.
    pub fn drop_out(&mut self, player: Player, reason: Reason) -> bool {
        let players = self.position().player_names().len() as Player;
        if self.outcome().is_some() || player >= players || self.has_left(player) {
            return false;
        }
        let mut next = self.position().clone();
        if players > 2 && next.remove_player(player) {
            self.push(Event::Dropout(player, reason), next, true);
            // `push` noted the player out as the position sees it (the Queen taken off): the
            // leaving is what counts. A player out already (a Queen captured earlier) keeps
            // when and why, which `undo` could not restore if it were rewritten here.
            let ply = self.ply();
            let before = self.eliminated_after[self.eliminated_after.len() - 2];
            if let Some(e) = self.eliminations[before..]
                .iter_mut()
                .find(|e| e.player == player)
            {
                e.reason = reason;
            } else if !self.eliminations.iter().any(|e| e.player == player) {
                self.eliminations.push(Elimination {
                    player,
                    reason,
                    ply,
                });
            }
            *self.eliminated_after.last_mut().unwrap() = self.eliminations.len();
            self.pass_for_absent();
        } else {
            let winner = (player + 1) % players;
            self.declare(Outcome::Win { winner, reason });
        }
        true
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
        if let Some(Event::Declared(o)) = self.events.last() {
            return Some(*o);
        }
        if let Some(o) = self.position().outcome() {
            return Some(o);
        }
        if self.repetitions() >= REPETITION_COUNT {
            return Some(Outcome::Draw {
                reason: Reason::REPETITION,
            });
        }
        None
    }

    /// The outcome with the players who dropped out before it, or `None` while play goes on.
    pub fn result(&self) -> Option<GameResult> {
        let outcome = self.outcome()?;
        Some(GameResult {
            outcome,
            eliminations: self
                .eliminations
                .iter()
                .copied()
                .filter(|e| outcome.winner() != Some(e.player))
                .collect(),
        })
    }

    /// The players still in the game (not eliminated), who must all agree to a draw.
    pub fn players_in(&self) -> Vec<Player> {
        let players = self.position().player_names().len() as Player;
        (0..players)
            .filter(|&p| !self.eliminations.iter().any(|e| e.player == p))
            .collect()
    }
}
