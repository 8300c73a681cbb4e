//! Stopping a search: a flag another thread sets (`stop`), a deadline it can move
//! (`ponderhit`), a node budget; and the clock searches read ([`set_clock`]).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

/// The clock set by [`set_clock`], if any.
static CLOCK: OnceLock<fn() -> Duration> = OnceLock::new();

/// Sets the clock every search reads, once for the process: a function giving the time since
/// any fixed origin. Without it searches read the operating system's monotonic clock
/// (`std::time::Instant`), which WebAssembly in a browser lacks (there `Instant::now` panics):
/// the browser's module sets one reading `performance.now()`. Returns false, and changes
/// nothing, when a clock was already set.
pub fn set_clock(now: fn() -> Duration) -> bool {
    CLOCK.set(now).is_ok()
}

/// The time now, from the clock set or the system's.
fn now() -> Duration {
    match CLOCK.get() {
        Some(clock) => clock(),
        None => {
            static ORIGIN: OnceLock<Instant> = OnceLock::new();
            ORIGIN.get_or_init(Instant::now).elapsed()
        }
    }
}

use crate::limits::{Limits, TimePlan};

const NO_DEADLINE: u64 = u64::MAX;

/// Shared between a search and whoever started it. Cheap to clone (the clones share state).
#[derive(Clone, Debug)]
pub struct Control {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    stop: AtomicBool,
    /// [`now`] when the search started.
    start: Duration,
    /// Nanoseconds after `start`, or `NO_DEADLINE`.
    deadline: AtomicU64,
    /// No new iteration after this (nanoseconds after `start`, or `NO_DEADLINE`).
    soft: AtomicU64,
    nodes: Option<u64>,
}

impl Control {
    /// A control with no limit: only `stop` ends the search.
    pub fn unlimited() -> Self {
        Control::with(None, None)
    }

    /// A control for these limits, for the player to move, starting now.
    pub fn new(limits: &Limits, mover: myrmidon_rules::Player) -> Self {
        let control = Control::with(None, limits.nodes);
        control.set_plan_from_now(limits.time_plan(mover));
        control
    }

    /// A control with this time budget and node budget, starting now.
    pub fn with(time: Option<Duration>, nodes: Option<u64>) -> Self {
        Control {
            inner: Arc::new(Inner {
                stop: AtomicBool::new(false),
                start: now(),
                deadline: AtomicU64::new(time.map_or(NO_DEADLINE, |t| t.as_nanos() as u64)),
                soft: AtomicU64::new(time.map_or(NO_DEADLINE, |t| t.as_nanos() as u64)),
                nodes,
            }),
        }
    }

    /// Asks the search to stop as soon as it can.
    pub fn stop(&self) {
        self.inner.stop.store(true, Ordering::Relaxed);
    }

    pub fn stopped(&self) -> bool {
        self.inner.stop.load(Ordering::Relaxed)
    }

    /// Gives the search `budget` more from now (`ponderhit`: the clock now runs), soft and
    /// hard alike.
    pub fn set_deadline_from_now(&self, budget: Option<Duration>) {
        self.set_plan_from_now(budget.map(|b| TimePlan { soft: b, hard: b }));
    }

    /// Gives the search this plan from now (`ponderhit`: the clock now runs).
    pub fn set_plan_from_now(&self, plan: Option<TimePlan>) {
        let now = self.elapsed();
        let at = |d: Duration| (now + d).as_nanos() as u64;
        let (soft, hard) = plan.map_or((NO_DEADLINE, NO_DEADLINE), |p| (at(p.soft), at(p.hard)));
        self.inner.soft.store(soft, Ordering::Relaxed);
        self.inner.deadline.store(hard, Ordering::Relaxed);
    }

    /// True once the soft limit of the time plan has passed: no new iteration should start.
    pub fn past_soft(&self) -> bool {
        let soft = self.inner.soft.load(Ordering::Relaxed);
        soft != NO_DEADLINE && self.elapsed().as_nanos() as u64 >= soft
    }

    /// Time since the search started.
    pub fn elapsed(&self) -> Duration {
        now().saturating_sub(self.inner.start)
    }

    /// The node budget, if there is one.
    pub fn node_limit(&self) -> Option<u64> {
        self.inner.nodes
    }

    /// The time left before the deadline, if there is one.
    pub fn remaining(&self) -> Option<Duration> {
        let deadline = self.inner.deadline.load(Ordering::Relaxed);
        (deadline != NO_DEADLINE)
            .then(|| Duration::from_nanos(deadline).saturating_sub(self.elapsed()))
    }

    /// The share of the time budget already used (0 with no deadline).
    pub fn used_fraction(&self) -> f64 {
        let deadline = self.inner.deadline.load(Ordering::Relaxed);
        if deadline == NO_DEADLINE || deadline == 0 {
            return 0.0;
        }
        self.elapsed().as_nanos() as f64 / deadline as f64
    }

    /// True if the search must stop now, having searched `nodes` nodes: stopped, past the
    /// deadline or over the node budget.
    pub fn should_stop(&self, nodes: u64) -> bool {
        if self.stopped() || self.inner.nodes.is_some_and(|n| nodes >= n) {
            return true;
        }
        let deadline = self.inner.deadline.load(Ordering::Relaxed);
        deadline != NO_DEADLINE && self.elapsed().as_nanos() as u64 >= deadline
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stop_nodes_and_deadline() {
        let c = Control::with(None, Some(100));
        assert!(!c.should_stop(99));
        assert_eq!(c.node_limit(), Some(100));
        assert!(c.should_stop(100));
        let other = c.clone();
        let d = Control::unlimited();
        assert!(!d.should_stop(u64::MAX));
        other.stop();
        assert!(c.should_stop(0));
        let t = Control::with(Some(Duration::from_millis(5)), None);
        assert!(t.remaining().is_some());
        std::thread::sleep(Duration::from_millis(10));
        assert!(t.should_stop(0));
        t.set_deadline_from_now(None);
        assert!(!t.should_stop(0));
        assert_eq!(t.remaining(), None);
    }
}
