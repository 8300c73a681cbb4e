//! The engine pool: every search the server runs — the computer's moves in games, its answers
//! to draw offers, the analysis board — takes one of its slots, so that no client can make the
//! server run more searches at once than `--engines`, nor hold more memory for them than
//! `--engines` × [`HASH_MB`] of transposition tables.
//!
//! - A **computer move** ([`Work::Move`]) is owed to a game: it waits for a slot as long as it
//!   takes and is never refused, and it goes before any other work waiting.
//! - A **draw decision** ([`Work::Draw`]) is a short search (200 ms) that a person waits for:
//!   it waits at most [`DRAW_WAIT`] in a bounded queue, else it is refused ([`PoolError::Busy`],
//!   a `503` for the client).
//! - An **analysis** ([`Work::Analysis`], up to 300 s) may hold at most `engines − 1` slots, so
//!   at least one slot is always left for the computer's moves in games (with `--engines 1` the
//!   analysis board is refused); it waits at most [`ANALYSIS_WAIT`] in the same bounded queue.
//!
//! Draw decisions and analyses waiting share a queue of [`QUEUE_PER_ENGINE`] × `engines`
//! places: one more is refused at once. Each search runs on a thread of its own (tokio's
//! blocking pool) only once it has its slot, so the threads are bounded by the slots too.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use tokio::sync::oneshot;

/// The transposition table of a computer move or an analysis, in MiB (the engine's default
/// `Hash`, with which the levels were calibrated). The tables of the pool's searches take at
/// most `engines` × this.
pub const HASH_MB: usize = 16;
/// The table of a draw decision (a search of 200 ms), in MiB.
pub const DRAW_HASH_MB: usize = 4;
/// Draw decisions and analyses that may wait for a slot, per slot.
pub const QUEUE_PER_ENGINE: usize = 4;
/// How long a draw decision waits for a slot, at most.
pub const DRAW_WAIT: Duration = Duration::from_secs(5);
/// How long an analysis waits for a slot, at most.
pub const ANALYSIS_WAIT: Duration = Duration::from_secs(30);

/// What a search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Work {
    /// The computer's move in a game: waits, first in line, and is never refused.
    Move,
    /// The computer's answer to a draw offer: short.
    Draw,
    /// The analysis board: long; never on every slot.
    Analysis,
}

impl Work {
    /// The size of the search's transposition table, in MiB (`Options::hash_mb`).
    pub fn hash_mb(self) -> usize {
        match self {
            Work::Draw => DRAW_HASH_MB,
            Work::Move | Work::Analysis => HASH_MB,
        }
    }
}

/// The pool's bounds.
#[derive(Clone, Debug)]
pub struct PoolLimits {
    /// Searches at once, at most (`--engines`).
    pub engines: usize,
    /// Analyses at once, at most.
    pub analyses: usize,
    /// Draw decisions and analyses waiting for a slot, at most.
    pub queue: usize,
    pub draw_wait: Duration,
    pub analysis_wait: Duration,
}

impl PoolLimits {
    /// The bounds of a pool of `engines` slots (at least one).
    pub fn new(engines: usize) -> PoolLimits {
        let engines = engines.max(1);
        PoolLimits {
            engines,
            analyses: engines - 1,
            queue: QUEUE_PER_ENGINE * engines,
            draw_wait: DRAW_WAIT,
            analysis_wait: ANALYSIS_WAIT,
        }
    }
}

/// Why work did not run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PoolError {
    /// Refused: too much work waits already, no slot came free in time, or (an analysis) the
    /// pool has no slot for it. Nothing ran; the client may try again.
    #[error("{0}")]
    Busy(String),
    /// The search panicked.
    #[error("{0}")]
    Failed(String),
}

/// The pool (see the module's documentation).
pub struct EnginePool {
    inner: Arc<Inner>,
}

struct Inner {
    limits: PoolLimits,
    state: Mutex<State>,
    /// Searches running now (counted on their threads).
    running: AtomicUsize,
    /// The most searches that ever ran at once.
    most: AtomicUsize,
    /// Searches still to fail on purpose ([`EnginePool::fail_next`]).
    faults: AtomicUsize,
}

#[derive(Default)]
struct State {
    /// Slots held (by permits).
    taken: usize,
    /// Of them, by analyses.
    analyses: usize,
    next_id: u64,
    /// Computer moves waiting, first come first served.
    moves: VecDeque<Waiter>,
    /// Draw decisions and analyses waiting, first come first served (an analysis may be
    /// passed by a draw decision while the analyses hold all they may).
    others: VecDeque<Waiter>,
}

struct Waiter {
    id: u64,
    work: Work,
    grant: oneshot::Sender<()>,
}

impl State {
    fn may_start(&self, work: Work, limits: &PoolLimits) -> bool {
        self.taken < limits.engines
            && match work {
                Work::Move => true,
                Work::Draw => self.moves.is_empty(),
                Work::Analysis => self.moves.is_empty() && self.analyses < limits.analyses,
            }
    }

    fn take(&mut self, work: Work) {
        self.taken += 1;
        if work == Work::Analysis {
            self.analyses += 1;
        }
    }

    /// A slot comes free: the work waiting longest gets it, computer moves first.
    fn give_back(&mut self, work: Work, limits: &PoolLimits) {
        self.taken -= 1;
        if work == Work::Analysis {
            self.analyses -= 1;
        }
        while self.taken < limits.engines {
            let next = match self.moves.pop_front() {
                Some(next) => next,
                None => {
                    let analyses = self.analyses;
                    let Some(i) = self
                        .others
                        .iter()
                        .position(|w| w.work != Work::Analysis || analyses < limits.analyses)
                    else {
                        break;
                    };
                    self.others.remove(i).expect("a waiter at i")
                }
            };
            self.take(next.work);
            if next.grant.send(()).is_err() {
                // Its waiter is gone (it takes itself out of the queue first: not expected).
                self.taken -= 1;
                if next.work == Work::Analysis {
                    self.analyses -= 1;
                }
            }
        }
    }
}

impl Inner {
    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().expect("engine pool lock")
    }
}

/// A slot of the pool, held until dropped.
pub struct Permit {
    inner: Arc<Inner>,
    work: Work,
}

impl Drop for Permit {
    fn drop(&mut self) {
        self.inner.state().give_back(self.work, &self.inner.limits);
    }
}

/// Work in the queue; leaves it when dropped (cancelled, or the wait ran out).
struct Waiting {
    inner: Arc<Inner>,
    id: u64,
    work: Work,
    granted: bool,
}

impl Drop for Waiting {
    fn drop(&mut self) {
        if self.granted {
            return;
        }
        let mut state = self.inner.state();
        let queue = if self.work == Work::Move {
            &mut state.moves
        } else {
            &mut state.others
        };
        match queue.iter().position(|w| w.id == self.id) {
            Some(i) => {
                queue.remove(i);
            }
            // Granted meanwhile, never taken up: the slot goes to the next.
            None => state.give_back(self.work, &self.inner.limits),
        }
    }
}

/// Counts a search while it runs.
struct Searching<'a>(&'a Inner);

impl<'a> Searching<'a> {
    fn start(inner: &'a Inner) -> Self {
        let now = inner.running.fetch_add(1, Ordering::SeqCst) + 1;
        inner.most.fetch_max(now, Ordering::SeqCst);
        Searching(inner)
    }
}

impl Drop for Searching<'_> {
    fn drop(&mut self) {
        self.0.running.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Permit {
    /// Runs a search (a blocking closure) on a thread of its own with this slot, which is
    /// given back when it returns (even if the caller stops waiting for it).
    pub async fn run<T, F>(self, f: F) -> Result<T, PoolError>
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        tokio::task::spawn_blocking(move || {
            let permit = self;
            let searching = Searching::start(&permit.inner);
            let fault = permit
                .inner
                .faults
                .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
                .is_ok();
            if fault {
                panic!("a search made to fail (EnginePool::fail_next)");
            }
            let out = f();
            drop(searching);
            drop(permit);
            out
        })
        .await
        .map_err(|e| PoolError::Failed(format!("the engine stopped: {e}")))
    }
}

impl EnginePool {
    /// A pool of `engines` slots (at least one), with the default bounds.
    pub fn new(engines: usize) -> EnginePool {
        EnginePool::with_limits(PoolLimits::new(engines))
    }

    pub fn with_limits(limits: PoolLimits) -> EnginePool {
        EnginePool {
            inner: Arc::new(Inner {
                limits,
                state: Mutex::new(State::default()),
                running: AtomicUsize::new(0),
                most: AtomicUsize::new(0),
                faults: AtomicUsize::new(0),
            }),
        }
    }

    pub fn limits(&self) -> &PoolLimits {
        &self.inner.limits
    }

    /// Searches running now.
    pub fn running(&self) -> usize {
        self.inner.running.load(Ordering::SeqCst)
    }

    /// The most searches that ran at once since the pool was made.
    pub fn most_running(&self) -> usize {
        self.inner.most.load(Ordering::SeqCst)
    }

    /// Makes the next `n` searches panic on their thread, as a bug in the engine would: for
    /// tests of what the server does when a search fails.
    pub fn fail_next(&self, n: usize) {
        self.inner.faults.store(n, Ordering::SeqCst);
    }

    /// Work waiting for a slot: computer moves, and the others.
    pub fn waiting(&self) -> (usize, usize) {
        let state = self.inner.state();
        (state.moves.len(), state.others.len())
    }

    /// A slot for `work`, once one is free (see the module's documentation for who waits how
    /// long). Dropping the future while it waits leaves the queue.
    pub async fn acquire(&self, work: Work) -> Result<Permit, PoolError> {
        let limits = &self.inner.limits;
        let (rx, mut waiting) = {
            let mut state = self.inner.state();
            if state.may_start(work, limits) {
                state.take(work);
                return Ok(Permit {
                    inner: self.inner.clone(),
                    work,
                });
            }
            if work == Work::Analysis && limits.analyses == 0 {
                return Err(PoolError::Busy(
                    "the analysis board is off on this server: its one engine (--engines 1) is \
                     kept for the computer's moves in games"
                        .into(),
                ));
            }
            if work != Work::Move && state.others.len() >= limits.queue {
                return Err(PoolError::Busy(format!(
                    "the engines are busy ({} searches at once, {} waiting): try again in a \
                     moment",
                    limits.engines,
                    state.others.len()
                )));
            }
            let id = state.next_id;
            state.next_id += 1;
            let (grant, rx) = oneshot::channel();
            let waiter = Waiter { id, work, grant };
            if work == Work::Move {
                state.moves.push_back(waiter);
            } else {
                state.others.push_back(waiter);
            }
            let waiting = Waiting {
                inner: self.inner.clone(),
                id,
                work,
                granted: false,
            };
            (rx, waiting)
        };
        let wait = match work {
            Work::Move => None,
            Work::Draw => Some(limits.draw_wait),
            Work::Analysis => Some(limits.analysis_wait),
        };
        let granted = match wait {
            None => rx.await,
            Some(wait) => match tokio::time::timeout(wait, rx).await {
                Ok(granted) => granted,
                Err(_) => {
                    // `waiting` leaves the queue (or gives back a slot granted just now).
                    return Err(PoolError::Busy(format!(
                        "the engines are busy: none came free within {} s: try again in a \
                         moment",
                        wait.as_secs_f64()
                    )));
                }
            },
        };
        match granted {
            Ok(()) => {
                waiting.granted = true;
                Ok(Permit {
                    inner: self.inner.clone(),
                    work,
                })
            }
            Err(_) => Err(PoolError::Failed("the engine pool dropped a waiter".into())),
        }
    }

    /// Runs a search (a blocking closure) in the pool: waits for a slot, then runs it on a
    /// thread of its own.
    pub async fn run<T, F>(&self, work: Work, f: F) -> Result<T, PoolError>
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        self.acquire(work).await?.run(f).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    fn pool(engines: usize, queue: usize) -> EnginePool {
        EnginePool::with_limits(PoolLimits {
            queue,
            draw_wait: Duration::from_secs(60),
            analysis_wait: Duration::from_secs(60),
            ..PoolLimits::new(engines)
        })
    }

    /// Holds a slot with a search that runs until told to stop; returns the stop.
    async fn hold(pool: &Arc<EnginePool>, work: Work) -> mpsc::Sender<()> {
        let (stop, stopped) = mpsc::channel::<()>();
        let permit = pool.acquire(work).await.expect("a slot");
        tokio::spawn(permit.run(move || {
            let _ = stopped.recv();
        }));
        stop
    }

    /// Waits (with a deadline) until `what` holds.
    async fn until(what: &str, mut f: impl FnMut() -> bool) {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
        while !f() {
            assert!(tokio::time::Instant::now() < deadline, "never: {what}");
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }

    #[tokio::test]
    async fn work_beyond_the_queue_is_refused_and_moves_go_first() {
        let pool = Arc::new(pool(2, 2));
        let a = hold(&pool, Work::Move).await;
        let b = hold(&pool, Work::Draw).await;
        until("two searches", || pool.running() == 2).await;
        // Two draw decisions wait; a third is refused at once.
        let (order_tx, order) = mpsc::channel::<&str>();
        let mut waiting = Vec::new();
        for (n, what) in [(1, "draw 1"), (2, "draw 2")] {
            let (pooled, order_tx) = (pool.clone(), order_tx.clone());
            waiting.push(tokio::spawn(async move {
                pooled
                    .run(Work::Draw, move || order_tx.send(what).unwrap())
                    .await
            }));
            until("the draws waiting", || pool.waiting() == (0, n)).await;
        }
        match pool.acquire(Work::Draw).await {
            Err(PoolError::Busy(e)) => assert!(e.contains("busy"), "{e}"),
            other => panic!("{:?}", other.map(|_| ())),
        }
        // A computer move is never refused, and goes before the draw decisions waiting.
        waiting.push(tokio::spawn({
            let pool = pool.clone();
            async move {
                pool.run(Work::Move, move || order_tx.send("move").unwrap())
                    .await
            }
        }));
        until("the move waiting", || pool.waiting() == (1, 2)).await;
        drop(a);
        for done in waiting {
            done.await.unwrap().unwrap();
        }
        assert_eq!(
            order.try_iter().collect::<Vec<_>>(),
            ["move", "draw 1", "draw 2"]
        );
        drop(b);
        until("all done", || pool.running() == 0).await;
        assert_eq!(pool.most_running(), 2);
        assert_eq!(pool.inner.state().taken, 0);
    }

    #[tokio::test]
    async fn analyses_never_take_the_last_slot() {
        let pool = Arc::new(pool(3, 8));
        let a = hold(&pool, Work::Analysis).await;
        let _b = hold(&pool, Work::Analysis).await;
        // A third analysis waits although a slot is free: it is for the games.
        let third = tokio::spawn({
            let pool = pool.clone();
            async move { pool.run(Work::Analysis, || "third").await }
        });
        until("the third analysis waiting", || pool.waiting() == (0, 1)).await;
        pool.run(Work::Move, || ()).await.unwrap();
        // A draw decision passes the analysis waiting.
        assert_eq!(pool.run(Work::Draw, || 7).await, Ok(7));
        assert_eq!(pool.waiting(), (0, 1));
        drop(a);
        assert_eq!(third.await.unwrap(), Ok("third"));
        // With one engine there is no analysis at all.
        match EnginePool::new(1).acquire(Work::Analysis).await {
            Err(PoolError::Busy(e)) => assert!(e.contains("--engines 1"), "{e}"),
            other => panic!("{:?}", other.map(|_| ())),
        }
    }

    #[tokio::test]
    async fn waiting_runs_out_and_cancelled_waits_leave_the_queue() {
        let pool = Arc::new(EnginePool::with_limits(PoolLimits {
            draw_wait: Duration::from_millis(50),
            ..PoolLimits::new(1)
        }));
        let stop = hold(&pool, Work::Move).await;
        match pool.acquire(Work::Draw).await {
            Err(PoolError::Busy(e)) => assert!(e.contains("within"), "{e}"),
            other => panic!("{:?}", other.map(|_| ())),
        }
        assert_eq!(pool.waiting(), (0, 0));
        // A wait dropped leaves the queue.
        let waiter = tokio::spawn({
            let pool = pool.clone();
            async move { pool.run(Work::Move, || ()).await }
        });
        until("a move waiting", || pool.waiting() == (1, 0)).await;
        waiter.abort();
        until("the queue empty", || pool.waiting() == (0, 0)).await;
        drop(stop);
        until("the slot free", || pool.inner.state().taken == 0).await;
        // A panic is an error, and gives its slot back.
        let failed = pool.run(Work::Move, || panic!("a bug")).await;
        assert!(matches!(failed, Err(PoolError::Failed(_))), "{failed:?}");
        assert_eq!(pool.run(Work::Draw, || 1).await, Ok(1));
        assert_eq!(pool.most_running(), 1);
    }
}
