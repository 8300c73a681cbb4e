//! How every change of a game is made: judged on the game in memory, stored by the database
//! only if the stored game is still the one it was judged on (its version), and only then
//! applied in memory and told to the watchers. A change that loses a race is refused with
//! `409` and the game is read again; a database that fails refuses it with `503`, and in
//! either case nothing changes in memory.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use myrmidon_rules::DynRecord;

use crate::clock::Clock;
use crate::store::{Backend, Change, GameRow, StepRow, StoreError};

use super::{replay, App, Job, Live, Refusal, Slot, TAKEOVER};

tokio::task_local! {
    /// The version of the state a client made its request from, when it said (`"version"`
    /// in the request): the change is made only if the game is still at that version.
    pub static SEEN_VERSION: Option<u64>;
}

/// A refusal when the client saw an older (or newer) state than the game's.
fn seen_other(live: &Live) -> Option<Refusal> {
    let seen = SEEN_VERSION.try_with(|v| *v).ok().flatten()?;
    (seen != live.version).then(|| {
        Refusal::Conflict(msg!(
            "api-stale-version",
            seen = seen,
            version = live.version
        ))
    })
}

/// One change of a game, as a command judged it.
pub(super) struct Edit {
    /// The game's row after the change: seats, tokens, offers, the clock base, the rematch.
    pub row: GameRow,
    /// The record after the change, when the command made a new one; `None` keeps the record
    /// in memory (unchanged, or changed in place by the caller, who undoes it on failure).
    pub record: Option<Box<dyn DynRecord>>,
    /// Steps from this place on are taken back.
    pub truncate: Option<usize>,
    /// A step stored after them.
    pub step: Option<StepRow>,
    /// A game created with the change (an accepted rematch).
    pub create: Option<GameRow>,
}

impl Edit {
    /// A change of the row alone (an offer, a seat taken).
    pub fn row(row: GameRow) -> Edit {
        Edit {
            row,
            record: None,
            truncate: None,
            step: None,
            create: None,
        }
    }
}

impl Live {
    /// The row as the next change starts it: any change withdraws the pending draw offer and
    /// takeback proposal, and forgets who declined the last one (a command that makes one sets it again).
    pub(super) fn next_row(&self) -> GameRow {
        let mut row = self.row.clone();
        row.draw_offer = None;
        row.takeback_offer = None;
        row.takeback_yes = 0;
        row.takeback_declined = None;
        row
    }
}

impl App {
    /// Stores `edit` if the game is still at the version in memory, then applies it: the
    /// version grows by one, the clock moves on, the computer's move is claimed if it is its
    /// turn (returned, to start once the lock is let go) and the watchers get the new state.
    pub(super) async fn commit(
        self: &Arc<Self>,
        live: &mut Live,
        edit: Edit,
    ) -> Result<Option<Job>, Refusal> {
        if let Some(refusal) = seen_other(live) {
            return Err(refusal);
        }
        let Edit {
            mut row,
            record,
            truncate,
            step,
            create,
        } = edit;
        let finished = record
            .as_ref()
            .map_or(live.record.result().is_some(), |r| r.result().is_some());
        let place = truncate.unwrap_or(live.steps);
        // A seat an account took with this change.
        let join = (0..row.accounts.len())
            .find(|&s| row.account(s).is_some() && live.row.account(s).is_none())
            .and_then(|s| Some((s as u8, row.account(s)?.id.as_str())));
        // A move is played on the record in memory before it is stored (the caller undoes it
        // if the store fails), and only on a game not over: then the record in memory is the
        // record after the change, and the game was not over before it.
        let moved_in_place = record.is_none() && matches!(step, Some(StepRow::Move { .. }));
        let over_before = !moved_in_place && live.record.result().is_some();
        // Each seat's place, when the change ends the game (and the game was not over), or
        // when an account takes a seat of a game over (its result is written).
        let result = if !over_before {
            match &record {
                Some(r) => r.result(),
                None => live.record.result(),
            }
        } else if join.is_some() && record.is_none() {
            live.record.result()
        } else {
            None
        };
        let places = result
            .filter(|_| finished)
            .map(|result| crate::rating::places(row.seats.len(), &result));
        let stored = self
            .store
            .change(&Change {
                row: &row,
                from_version: live.version,
                finished,
                truncate,
                append: step.as_ref().map(|s| (place, s)),
                create: create.as_ref(),
                join,
                places: places.as_deref(),
            })
            .await;
        let at = match stored {
            Ok(at) => at,
            Err(StoreError::Conflict) => {
                // Another change came first (through another process, or a race here that the
                // memory has not seen): read the game again, once this lock is let go (and
                // before the next request is answered).
                live.stale = true;
                let app = self.clone();
                let id = row.id.clone();
                tokio::spawn(async move { app.refresh(&id).await });
                return Err(Refusal::Conflict(msg!("api-changed-first")));
            }
            Err(e) => return Err(e.into()),
        };
        live.version += 1;
        row.version = live.version;
        if let Some(record) = record {
            live.record = record;
        }
        if truncate.is_some() {
            row.step_times.truncate(place);
            live.steps = place;
            // A takeback sets the clock's base: each seat keeps the time it had.
            if let (Some(spec), Some(base)) = (row.clock, &row.clock_base) {
                live.clock = Some(Clock::replay_from(spec, base, &[]));
            }
        }
        if let Some(step) = &step {
            live.stored(step, at);
            live.steps = place + 1;
            row.step_times.push(at);
        }
        live.row = row;
        live.seats = live
            .row
            .seats
            .iter()
            .map(|s| super::Seat::parse(s))
            .collect::<Result<_, _>>()
            .map_err(Refusal::internal)?;
        live.draw_declined = None;
        live.elsewhere = false;
        if places.is_some() && live.row.rated {
            // Rated in the transaction that ended it: the change, for the state.
            live.row.rating_change = self.store.rating_change(&live.row.id).await.ok().flatten();
        }
        let job = live.claim();
        live.publish();
        Ok(job)
    }

    /// Reads the game in `slot` again from the store and makes it the game in memory if the
    /// store's is newer. Fails when the database does not answer.
    pub(super) async fn reload(
        self: &Arc<Self>,
        slot: &Arc<Slot>,
        id: &str,
    ) -> Result<(), Refusal> {
        let Some((row, steps)) = self.store.load_game(id).await? else {
            return Ok(());
        };
        let mut live = slot.live.lock().await;
        live.stale = false;
        if row.version == live.version
            && (row.accounts != live.row.accounts || row.rating_change != live.row.rating_change)
        {
            // The same game, whose accounts changed without a move: a deleted account's
            // name leaves its seat and the rating change.
            live.row.accounts = row.accounts;
            live.row.rating_change = row.rating_change;
            live.publish();
            return Ok(());
        }
        if row.version <= live.version {
            // The same game, or read before a change this process has made since.
            return Ok(());
        }
        let fresh = replay(&row, &steps)
            .and_then(|record| Live::new(row, record, &steps))
            .map_err(|e| {
                tracing::error!("game {id} cannot be replayed: {e}");
                Refusal::Internal(msg!("api-cannot-replay", id = id))
            })?;
        live.row = fresh.row;
        live.seats = fresh.seats;
        live.record = fresh.record;
        live.steps = fresh.steps;
        live.clock = fresh.clock;
        // A computer move under way here was chosen for the position before: it is dropped
        // (its version is old).
        live.version = fresh.version;
        live.draw_declined = None;
        // The process that made the change thinks for the computer if it is to move.
        live.elsewhere = !live.thinking
            && live
                .seat_to_move()
                .is_some_and(|s| matches!(live.seats[s as usize], super::Seat::Computer(_)));
        live.publish();
        drop(live);
        self.arm(slot);
        self.watch_overdue(slot).await;
        Ok(())
    }

    /// The game with this id, as the database has it now when this process may have missed
    /// changes (PostgreSQL: while the listener for other processes' changes is not connected):
    /// a command is never judged on a state that cannot be confirmed (`503` instead).
    pub(super) async fn current(self: &Arc<Self>, id: &str) -> Result<Arc<Slot>, Refusal> {
        let slot = self.game(id).await?;
        let seen = SEEN_VERSION.try_with(|v| *v).ok().flatten();
        let here = slot.live.lock().await.version;
        let behind = seen.is_some_and(|v| v > here);
        if behind || !self.synced.load(Ordering::Acquire) {
            // Behind the client (another process's change not heard of yet), or perhaps
            // behind the database.
            self.reload(&slot, id).await?;
        }
        if let Some(refusal) = seen_other(&*slot.live.lock().await) {
            return Err(refusal);
        }
        Ok(slot)
    }

    /// After a command was refused on the state in memory (not the seat's turn, not its
    /// token, the game over…): when other processes may change the game, confirms the state
    /// first. True when the database had a newer version (the game was read again: judge the
    /// command once more); `503` when the database does not answer.
    pub async fn recheck<T>(
        self: &Arc<Self>,
        id: &str,
        first: &Result<T, Refusal>,
    ) -> Result<bool, Refusal> {
        if self.store.backend() != Backend::Postgres
            || !matches!(first, Err(Refusal::Bad(_) | Refusal::Forbidden(_)))
        {
            return Ok(false);
        }
        let Some(slot) = self.games.lock().expect("games lock").get(id).cloned() else {
            return Ok(false);
        };
        let stored = self.store.version(id).await?;
        let here = slot.live.lock().await.version;
        if stored.is_some_and(|v| v > here) {
            self.reload(&slot, id).await?;
            return Ok(true);
        }
        Ok(false)
    }

    /// When a computer seat is to move in a game loaded here and no move of its is under way
    /// here (another process made the last change and thinks for it), waits until its move is
    /// overdue (three times its thinking time and [`TAKEOVER`] after the last change) and, if
    /// the game has not changed meanwhile, makes the move itself: a process that stopped
    /// thinking (killed, or its database away) never leaves a game stuck.
    pub(super) async fn watch_overdue(self: &Arc<Self>, slot: &Arc<Slot>) {
        let (version, wait) = {
            let mut live = slot.live.lock().await;
            let computer = live
                .seat_to_move()
                .is_some_and(|s| matches!(live.seats[s as usize], super::Seat::Computer(_)));
            if !computer || live.thinking {
                return;
            }
            // Another process thinks for it, as far as this one knows.
            live.elsewhere = true;
            let last = live
                .row
                .step_times
                .last()
                .copied()
                .unwrap_or(live.row.created_ms);
            let due = last + (self.think * 3 + TAKEOVER).as_millis() as i64;
            (live.version, (due - crate::store::now()).max(0) as u64)
        };
        let app = self.clone();
        let slot = slot.clone();
        tokio::spawn(async move {
            tokio::time::sleep(std::time::Duration::from_millis(wait)).await;
            let job = {
                let mut live = slot.live.lock().await;
                if live.version != version || live.thinking {
                    return;
                }
                live.elsewhere = false;
                let job = live.claim();
                live.publish();
                job
            };
            app.start(slot, job);
        });
    }
}
