//! Game clocks, kept by the server: minutes for the game and an increment per move, as on
//! lichess. A seat's clock runs from its second move on (its first move is free, so that a game
//! nobody has started yet never loses on time); each move adds the increment. The clock is not
//! stored as such: every step is stored with the time it was stored, and the clock is replayed
//! from those times (after a restart too). The flag falls on the server
//! ([`crate::live::App`] sets a timer for the running clock).

use serde::{Deserialize, Serialize};

use crate::views::ClockView;

use crate::store::StepRow;

/// The clock chosen for a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockSpec {
    pub initial_ms: u64,
    pub increment_ms: u64,
}

/// The longest clock accepted: 3 hours, and 3 minutes a move.
const MAX_INITIAL_MS: u64 = 3 * 3600 * 1000;
const MAX_INCREMENT_MS: u64 = 180 * 1000;

impl ClockSpec {
    /// From a request's `{"minutes": m, "increment": s}` (decimals allowed).
    pub fn from_request(minutes: f64, increment: f64) -> Result<ClockSpec, crate::i18n::Msg> {
        if !minutes.is_finite() || !increment.is_finite() || minutes < 0.0 || increment < 0.0 {
            return Err(msg!("api-clock-not-numbers"));
        }
        let initial_ms = (minutes * 60_000.0).round() as u64;
        let increment_ms = (increment * 1000.0).round() as u64;
        if initial_ms == 0 && increment_ms == 0 {
            return Err(msg!("api-clock-zero"));
        }
        if initial_ms > MAX_INITIAL_MS || increment_ms > MAX_INCREMENT_MS {
            return Err(msg!("api-clock-too-long"));
        }
        // A seat with no time left would lose at its second move: give it one second at least.
        Ok(ClockSpec {
            initial_ms: initial_ms.max(1000),
            increment_ms,
        })
    }
}

/// A clock as a takeback left it: the time each seat had when the steps after `steps` were
/// taken back (the time used stays used). The clock is replayed from it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockBase {
    /// How many steps the game had after the takeback.
    pub steps: usize,
    pub remaining_ms: Vec<i64>,
    pub moved: Vec<bool>,
    /// When the takeback was stored: the turn of the seat to move started then.
    pub at_ms: i64,
}

/// A running clock.
#[derive(Clone, Debug)]
pub struct Clock {
    pub spec: ClockSpec,
    /// Milliseconds left per seat, as of `turn_started` (negative once a flag has fallen).
    remaining: Vec<i64>,
    /// Whether the seat has moved (its clock runs from then on).
    moved: Vec<bool>,
    /// When the seat to move got the turn (epoch milliseconds).
    turn_started: i64,
}

impl Clock {
    /// The clock of a game created at `created_ms` after its steps, each with the time it was
    /// stored.
    pub fn replay(
        spec: ClockSpec,
        seats: usize,
        created_ms: i64,
        steps: &[(StepRow, i64)],
    ) -> Clock {
        let mut clock = Clock {
            spec,
            remaining: vec![spec.initial_ms as i64; seats],
            moved: vec![false; seats],
            turn_started: created_ms,
        };
        for (step, at) in steps {
            clock.step(step, *at);
        }
        clock
    }

    /// The clock after `steps`, of which the first `base.steps` are summed up by `base` (the
    /// clock a takeback left).
    pub fn replay_from(spec: ClockSpec, base: &ClockBase, steps: &[(StepRow, i64)]) -> Clock {
        let mut clock = Clock {
            spec,
            remaining: base.remaining_ms.clone(),
            moved: base.moved.clone(),
            turn_started: base.at_ms,
        };
        for (step, at) in steps.iter().skip(base.steps) {
            clock.step(step, *at);
        }
        clock
    }

    /// The clock at `now_ms` for a game taken back to `steps` steps, with `to_move` to move
    /// until now: each seat keeps the time it has now, and the turn starts at `now_ms`.
    pub fn taken_back(&self, steps: usize, to_move: Option<u8>, now_ms: i64) -> ClockBase {
        ClockBase {
            steps,
            remaining_ms: (0..self.remaining.len() as u8)
                .map(|s| self.left(s, to_move, now_ms))
                .collect(),
            moved: self.moved.clone(),
            at_ms: now_ms,
        }
    }

    /// A step stored at `at_ms`.
    pub fn step(&mut self, step: &StepRow, at_ms: i64) {
        if let StepRow::Out { seat, reason } = step {
            if reason == myrmidon_rules::Reason::TIME.id {
                if let Some(r) = self.remaining.get_mut(*seat as usize) {
                    *r = 0;
                }
            }
        }
        if let StepRow::Move { seat, .. } = step {
            let s = *seat as usize;
            if s < self.remaining.len() {
                if self.moved[s] {
                    self.remaining[s] -= (at_ms - self.turn_started).max(0);
                }
                self.remaining[s] += self.spec.increment_ms as i64;
                self.moved[s] = true;
            }
        }
        self.turn_started = at_ms;
    }

    /// Whether `seat`'s clock runs while it is to move.
    pub fn runs(&self, seat: u8) -> bool {
        self.moved.get(seat as usize).copied().unwrap_or(false)
    }

    /// Milliseconds `seat` has left at `now_ms` if it is to move (`to_move`).
    pub fn left(&self, seat: u8, to_move: Option<u8>, now_ms: i64) -> i64 {
        let base = self.remaining.get(seat as usize).copied().unwrap_or(0);
        if to_move == Some(seat) && self.runs(seat) {
            base - (now_ms - self.turn_started).max(0)
        } else {
            base
        }
    }

    /// When the flag of the seat to move falls (epoch milliseconds), if its clock runs.
    pub fn deadline(&self, to_move: Option<u8>) -> Option<i64> {
        let seat = to_move?;
        self.runs(seat)
            .then(|| self.turn_started + self.remaining[seat as usize])
    }

    /// For the game's state.
    pub fn view(&self, to_move: Option<u8>, now_ms: i64) -> ClockView {
        ClockView {
            initial_ms: self.spec.initial_ms,
            increment_ms: self.spec.increment_ms,
            remaining_ms: (0..self.remaining.len() as u8)
                .map(|s| self.left(s, to_move, now_ms).max(0))
                .collect(),
            running: to_move.filter(|&s| self.runs(s)),
            as_of_ms: now_ms,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(seat: u8) -> StepRow {
        StepRow::Move {
            seat,
            text: "x".into(),
        }
    }

    #[test]
    fn first_moves_are_free_then_time_runs_with_increments() {
        let spec = ClockSpec::from_request(1.0, 2.0).unwrap();
        let steps = [
            (mv(0), 5_000),
            (mv(1), 9_000),
            (mv(0), 19_000),
            (mv(1), 20_000),
        ];
        let clock = Clock::replay(spec, 2, 0, &steps);
        // Seat 0: 60 s + 2 (first move) - 10 + 2 = 54 s; seat 1: 60 + 2 - 1 + 2 = 63 s.
        assert_eq!(clock.left(0, Some(0), 20_000), 54_000);
        assert_eq!(clock.left(1, Some(0), 20_000), 63_000);
        // Seat 0 to move since 20 s: its deadline is 54 s later.
        assert_eq!(clock.deadline(Some(0)), Some(74_000));
        assert_eq!(clock.left(0, Some(0), 30_000), 44_000);
        let view = clock.view(Some(0), 30_000);
        assert_eq!(view.remaining_ms, [44_000, 63_000]);
        assert_eq!(view.running, Some(0));
    }

    #[test]
    fn a_fallen_flag_shows_no_time_left() {
        let spec = ClockSpec::from_request(1.0, 0.0).unwrap();
        let out = StepRow::Out {
            seat: 1,
            reason: "time".into(),
        };
        let clock = Clock::replay(
            spec,
            2,
            0,
            &[(mv(0), 1), (mv(1), 2), (mv(0), 3), (out, 61_000)],
        );
        assert_eq!(clock.view(None, 70_000).remaining_ms, [59_999, 0]);
    }

    #[test]
    fn no_clock_runs_before_a_seats_first_move() {
        let spec = ClockSpec::from_request(0.5, 0.0).unwrap();
        let clock = Clock::replay(spec, 3, 0, &[(mv(0), 100_000)]);
        assert_eq!(clock.deadline(Some(1)), None);
        assert_eq!(clock.view(Some(1), 500_000).running, None);
        assert_eq!(clock.left(1, Some(1), 900_000), 30_000);
    }

    #[test]
    fn a_takeback_gives_no_time_back() {
        let spec = ClockSpec::from_request(1.0, 0.0).unwrap();
        let steps = [(mv(0), 1_000), (mv(1), 2_000), (mv(0), 12_000)];
        let clock = Clock::replay(spec, 2, 0, &steps);
        // Seat 1 to move since 12 s, its clock running: at 20 s it has 52 s left. Seat 0's
        // last move is taken back at 20 s: seat 0 keeps its 50 s, seat 1 its 52 s.
        let base = clock.taken_back(2, Some(1), 20_000);
        assert_eq!(base.remaining_ms, vec![50_000, 52_000]);
        let again = Clock::replay_from(spec, &base, &steps[..2]);
        assert_eq!(again.left(0, Some(0), 25_000), 45_000);
        assert_eq!(again.deadline(Some(0)), Some(70_000));
        // Replayed from the base, later steps count as usual.
        let later = [steps[0].clone(), steps[1].clone(), (mv(0), 30_000)];
        let after = Clock::replay_from(spec, &base, &later);
        assert_eq!(after.left(0, Some(1), 30_000), 40_000);
    }

    #[test]
    fn bad_clocks_are_refused() {
        assert!(ClockSpec::from_request(-1.0, 0.0).is_err());
        assert!(ClockSpec::from_request(0.0, 0.0).is_err());
        assert!(ClockSpec::from_request(f64::NAN, 1.0).is_err());
        assert!(ClockSpec::from_request(500.0, 1.0).is_err());
        assert_eq!(
            ClockSpec::from_request(0.0, 3.0).unwrap(),
            ClockSpec {
                initial_ms: 1000,
                increment_ms: 3000
            }
        );
    }
}
