//! The computer's moves: claimed when a computer seat is to move, searched off the async
//! runtime within the engine pool, stored like a person's move; resumed after a restart.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::engines::Work;
use crate::store::now;
use myrmidon_engine::{new_searcher, Control, Limits, Options, PlayerSpec};
use myrmidon_rules::DynRecord;

use crate::store::{Backend, StepRow, StoreError};

use super::change::Edit;

use super::{new_token, App, Live, Refusal, Seat, Slot};

/// How long past three times its thinking time a computer move made by another server
/// process may take before this one makes it instead (the other may have stopped).
pub(super) const TAKEOVER: Duration = Duration::from_secs(5);
/// Searches tried for one computer move before it is chosen without a search.
const SEARCH_TRIES: u32 = 3;
/// The pause after a failed search, times the failures so far.
const SEARCH_PAUSE: Duration = Duration::from_millis(200);

impl Live {
    /// Marks the game as thinking and returns what the computer needs, if a computer seat is
    /// to move and no move of its is under way (the caller tells the watchers).
    pub(super) fn claim(&mut self) -> Option<Job> {
        let seat = self.seat_to_move()?;
        let Seat::Computer(level) = self.seats[seat as usize] else {
            return None;
        };
        if self.thinking {
            return None;
        }
        self.thinking = true;
        // With a clock: every seat's time left and increment, for the engine's time plan.
        let mut limits = Limits::default();
        if let Some(c) = &self.clock {
            let at = now();
            let seats = self.seats.len() as u8;
            limits.time = (0..seats)
                .map(|s| {
                    Some(Duration::from_millis(
                        c.left(s, Some(seat), at).max(0) as u64
                    ))
                })
                .collect();
            limits.inc = vec![Duration::from_millis(c.spec.increment_ms); seats as usize];
        }
        Some(Job {
            id: self.row.id.clone(),
            record: self.record.clone_box(),
            level,
            version: self.version,
            seat,
            limits,
            since: Instant::now(),
        })
    }
}

impl App {
    /// If the computer is to move and not yet thinking, starts its moves in the background
    /// (one after another while computer seats follow each other).
    pub async fn schedule(self: &Arc<Self>, slot: Arc<Slot>) {
        let job = Self::claim(&slot).await;
        self.start(slot, job);
    }

    /// Runs a claimed computer move in the background.
    pub(super) fn start(self: &Arc<Self>, slot: Arc<Slot>, job: Option<Job>) {
        self.arm(&slot);
        if let Some(job) = job {
            let app = self.clone();
            tokio::spawn(async move { app.computer_moves(slot, job).await });
        }
    }

    /// Marks the game as thinking and returns what the computer needs, if a computer seat is
    /// to move and no move of its is under way.
    async fn claim(slot: &Slot) -> Option<Job> {
        let mut live = slot.live.lock().await;
        let job = live.claim();
        if job.is_some() {
            live.publish();
        }
        job
    }

    async fn computer_moves(self: Arc<Self>, slot: Arc<Slot>, mut job: Job) {
        let mut failures = 0;
        loop {
            // The server's thinking time is the most a move takes; the engine's time plan
            // shares a clock.
            let mut limits = job.limits.clone();
            limits.movetime = Some(self.think);
            let (record, level, since) = (job.record.clone_box(), job.level, job.since);
            // Waits for a slot of the pool, as long as it takes (never refused).
            let choice = self
                .engines
                .run(Work::Move, move || {
                    computer_move(&*record, level, &limits, since)
                })
                .await
                .unwrap_or_else(|e| Err(e.to_string()));
            let text = match choice {
                Ok(Some(text)) => text,
                Ok(None) => {
                    let mut live = slot.live.lock().await;
                    live.thinking = false;
                    live.publish();
                    return;
                }
                Err(e) if failures + 1 < SEARCH_TRIES => {
                    // The move is owed to the game: search again after a pause.
                    failures += 1;
                    tracing::error!("game {}: computer move: {e}; searching again", job.id);
                    tokio::time::sleep(SEARCH_PAUSE * failures).await;
                    continue;
                }
                Err(e) => match fallback_move(&*job.record) {
                    // The search fails every time: a legal move keeps the game going.
                    Some(text) => {
                        tracing::error!(
                            "game {}: computer move: {e}; failed {SEARCH_TRIES} times, plays \
                             {text} without a search",
                            job.id
                        );
                        text
                    }
                    None => {
                        let mut live = slot.live.lock().await;
                        tracing::error!("game {}: computer move: {e}", live.row.id);
                        live.thinking = false;
                        live.publish();
                        return;
                    }
                },
            };
            failures = 0;
            match self
                .store_computer_move(&slot, job.version, job.seat, &text)
                .await
            {
                Some(next) => job = next,
                None => return,
            }
        }
    }

    /// Stores the computer's move chosen at `version`, trying again while the database does
    /// not answer (the move is owed to the game: it waits, thinking, until it is stored).
    /// Returns the next computer move to make (three players), if any.
    async fn store_computer_move(
        self: &Arc<Self>,
        slot: &Arc<Slot>,
        version: u64,
        seat: u8,
        text: &str,
    ) -> Option<Job> {
        let mut wait = Duration::from_millis(100);
        loop {
            let mut live = slot.live.lock().await;
            if live.version != version {
                // The game changed meanwhile (a takeback, or another process's change): think
                // again if it is still the computer's turn.
                live.thinking = false;
                let next = live.claim();
                live.publish();
                return next;
            }
            let id = live.row.id.clone();
            if let Err(e) = live.record.play(text) {
                tracing::error!("game {id}: the computer chose {text:?}: {e}");
                live.thinking = false;
                live.publish();
                return None;
            }
            let edit = Edit {
                step: Some(StepRow::Move {
                    seat,
                    text: text.to_string(),
                }),
                ..Edit::row(live.next_row())
            };
            live.thinking = false;
            match self.commit(&mut live, edit).await {
                Ok(next) => {
                    drop(live);
                    self.arm(slot);
                    return next;
                }
                Err(Refusal::Conflict(_)) => {
                    // Another process stored a change first: the game is read again (and the
                    // process that made the change thinks, or this one takes over later).
                    live.record.undo();
                    live.publish();
                    return None;
                }
                Err(e) => {
                    live.record.undo();
                    live.thinking = true;
                    tracing::warn!(
                        "game {id}: storing the computer's move {text}: {e:?}; trying again \
                         in {wait:?}"
                    );
                }
            }
            drop(live);
            tokio::time::sleep(wait).await;
            wait = (wait * 2).min(Duration::from_secs(2));
        }
    }

    /// At the start of a process: every unfinished game is loaded, its running clock gets its
    /// timer, and a computer move it owes is made. On SQLite this process is the only one, and
    /// the move is made at once. On PostgreSQL another process may be thinking for it right
    /// now: this one makes the move only once it is overdue (three times the thinking time
    /// and [`TAKEOVER`] after the game's last change; at once if that has passed), as for any
    /// game it loads ([`App::game`]).
    pub async fn resume(self: &Arc<Self>) -> Result<usize, StoreError> {
        let ids = self.store.unfinished_games().await?;
        let alone = self.store.backend() == Backend::Sqlite;
        let mut resumed = 0;
        for id in ids {
            match self.game(&id).await {
                Ok(slot) => {
                    if alone {
                        // Also sets the timer of a running clock.
                        self.schedule(slot).await;
                    } else {
                        // Loading it set the watch for an overdue computer move.
                        self.arm(&slot);
                    }
                    resumed += 1;
                }
                Err(e) => tracing::error!("resuming game {id}: {e:?}"),
            }
        }
        Ok(resumed)
    }
}

/// A computer move to make.
pub(super) struct Job {
    /// The game's id (for the log).
    id: String,
    record: Box<dyn DynRecord>,
    level: u8,
    version: u64,
    seat: u8,
    /// The clocks, if the game has one (the server's thinking time is added when it runs).
    limits: Limits,
    /// When the clocks were read: the computer's runs from then on, while the job waits for
    /// the engine and while the engine sets up.
    since: Instant,
}

/// A legal move chosen at random without a search, for when every search fails (a bug in the
/// engine should not stop the game).
fn fallback_move(record: &dyn DynRecord) -> Option<String> {
    let legal = record.legal_moves();
    let pick = u64::from_le_bytes(new_token().as_bytes()[..8].try_into().expect("eight bytes"));
    let i = (pick % legal.len().max(1) as u64) as usize;
    legal.get(i).map(|m| m.text.clone())
}

/// The computer's choice for the player to move (off the async runtime); its clock, read at
/// `since`, has run since then.
fn computer_move(
    record: &dyn DynRecord,
    level: u8,
    limits: &Limits,
    since: Instant,
) -> Result<Option<String>, String> {
    let spec = PlayerSpec::Level { level };
    let options = Options {
        seed: u64::from_le_bytes(new_token().as_bytes()[..8].try_into().expect("eight bytes")),
        hash_mb: Work::Move.hash_mb(),
        ..Options::default()
    };
    let mut searcher =
        new_searcher(record.info().id, &spec, &options).map_err(|e| e.to_string())?;
    // The time spent waiting for the engine and making it is the computer's too: the plan
    // shares what is left now.
    let mut limits = limits.clone();
    let mover = record.to_move() as usize;
    if let Some(Some(left)) = limits.time.get_mut(mover) {
        *left = left.saturating_sub(since.elapsed());
    }
    let control = Control::new(&limits, record.to_move());
    searcher
        .search(record, &limits, &control, &mut |_| {})
        .map_err(|e| e.to_string())
}
