//! What a `go` allows a search: a depth, a node count, a time per move, the clocks of every
//! seat, or no limit at all; and how much of a clock one move may take.

use std::time::Duration;

use myrmidon_rules::Player;

/// The limits of one search. Several may be set: the search stops at the first one reached.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Search this many plies deep at most.
    pub depth: Option<u32>,
    /// Stop after this many nodes.
    pub nodes: Option<u64>,
    /// Think exactly this long (less a small margin).
    pub movetime: Option<Duration>,
    /// Each seat's remaining clock time, by player (`wtime`/`btime`, `p1time`…).
    pub time: Vec<Option<Duration>>,
    /// Each seat's increment per move.
    pub inc: Vec<Duration>,
    /// Moves until the next time control.
    pub movestogo: Option<u32>,
    /// Think until stopped.
    pub infinite: bool,
    /// Think on the opponent's time until `ponderhit` (then the clocks apply) or `stop`.
    pub ponder: bool,
}

/// What the protocol keeps back from the clock for its own latency.
pub const MOVE_OVERHEAD: Duration = Duration::from_millis(20);

impl Limits {
    /// A fixed depth.
    pub fn depth(depth: u32) -> Self {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// A fixed time per move.
    pub fn movetime(time: Duration) -> Self {
        Limits {
            movetime: Some(time),
            ..Limits::default()
        }
    }

    /// The time the mover may spend on this move at most (the hard limit of
    /// [`Limits::time_plan`]), or `None` when only depth, nodes or a stop end the search.
    pub fn time_budget(&self, mover: Player) -> Option<Duration> {
        self.time_plan(mover).map(|plan| plan.hard)
    }

    /// How long the mover should think, or `None` when only depth, nodes or a stop end the
    /// search. With `movetime`: all of it (less a small margin), soft and hard alike. With a
    /// clock: the remaining time shared over the moves to go (30 if not given) plus most of the
    /// increment is the soft limit (no new iteration starts after it; at most 40 % of what is
    /// left); an iteration under way may run on to two and a half times that, never past half of
    /// what is left; [`MOVE_OVERHEAD`] is always kept back. With both, the smaller of each.
    pub fn time_plan(&self, mover: Player) -> Option<TimePlan> {
        if self.infinite || self.ponder {
            return None;
        }
        let ms1 = Duration::from_millis(1);
        let by_clock = self
            .time
            .get(mover as usize)
            .copied()
            .flatten()
            .map(|left| {
                let inc = self.inc.get(mover as usize).copied().unwrap_or_default();
                let moves = self.movestogo.unwrap_or(30).clamp(1, 60);
                let share = left / moves + inc * 3 / 4;
                let usable = left.saturating_sub(MOVE_OVERHEAD);
                let soft = share.min(usable * 2 / 5).max(ms1);
                let hard = (share * 5 / 2).min(usable / 2).max(soft);
                TimePlan { soft, hard }
            });
        let by_movetime = self.movetime.map(|t| {
            let t = t.saturating_sub(MOVE_OVERHEAD.min(t / 10)).max(ms1);
            TimePlan { soft: t, hard: t }
        });
        match (by_clock, by_movetime) {
            (Some(a), Some(b)) => Some(TimePlan {
                soft: a.soft.min(b.soft),
                hard: a.hard.min(b.hard),
            }),
            (a, b) => a.or(b),
        }
    }
}

/// A search's time: after `soft` no new iteration starts; at `hard` the search stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimePlan {
    pub soft: Duration,
    pub hard: Duration,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn budgets() {
        assert_eq!(Limits::depth(4).time_budget(0), None);
        assert_eq!(Limits::movetime(ms(1000)).time_budget(1), Some(ms(980)));
        assert_eq!(Limits::movetime(ms(50)).time_budget(1), Some(ms(45)));
        let clock = Limits {
            time: vec![Some(ms(60_000)), Some(ms(3_000))],
            inc: vec![ms(1000), ms(1000)],
            ..Limits::default()
        };
        // 60 s / 30 + 750 ms, and up to two and a half times that.
        assert_eq!(
            clock.time_plan(0),
            Some(TimePlan {
                soft: ms(2750),
                hard: ms(6875)
            })
        );
        assert_eq!(clock.time_budget(0), Some(ms(6875)));
        // 3 s left: 100 ms + 750 ms, under 40 % of 2.98 s; at most half of 2.98 s.
        assert_eq!(
            clock.time_plan(1),
            Some(TimePlan {
                soft: ms(850),
                hard: ms(1490)
            })
        );
        assert_eq!(
            Limits::movetime(ms(100)).time_plan(0),
            Some(TimePlan {
                soft: ms(90),
                hard: ms(90)
            })
        );
        let low = Limits {
            time: vec![None, Some(ms(100))],
            inc: vec![ms(0), ms(5000)],
            ..Limits::default()
        };
        // The increment cannot be spent before it is earned: at most 40 % of 80 ms, then half.
        assert_eq!(
            low.time_plan(1),
            Some(TimePlan {
                soft: ms(32),
                hard: ms(40)
            })
        );
        assert_eq!(low.time_budget(0), None);
        let infinite = Limits {
            infinite: true,
            ..clock
        };
        assert_eq!(infinite.time_budget(0), None);
    }
}
