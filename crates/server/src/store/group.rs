//! Group commit on SQLite: the changes of games that wait for their turn to write are written
//! together, in one transaction, by whichever of their writers gets the turn first.
//!
//! SQLite writes one transaction at a time, and with `synchronous = FULL` each commit waits
//! for the disk (an `fsync`, a millisecond or more). One commit per move would make every
//! move wait behind all the fsyncs queued before it; one commit for all the moves queued
//! meanwhile costs one fsync for them all. Each change is made inside a savepoint of its own,
//! so that one that lost its race ([`StoreError::Conflict`]) is undone alone and the others
//! are kept; a database error (a full disk, a refused write) or a failed `COMMIT` fails the
//! whole group, and every change in it is answered with that error: none of them was
//! acknowledged, none is stored.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use sqlx::Executor;
use tokio::sync::oneshot;

use super::{apply, now, Backend, Change, GameRow, StepRow, Store, StoreError, Write};

/// The most changes written in one transaction (the rest wait for the next).
const MOST: usize = 256;

/// The changes waiting for a turn to write, oldest first, and how many groups were
/// committed.
#[derive(Default)]
pub(super) struct Waiting(Mutex<VecDeque<Pending>>, AtomicU64);

impl std::fmt::Debug for Waiting {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.0.lock().map_or(0, |w| w.len());
        write!(f, "Waiting({n} changes)")
    }
}

/// A change waiting to be written, and where its outcome goes.
struct Pending {
    change: Owned,
    done: oneshot::Sender<Result<i64, StoreError>>,
}

/// A [`Change`] with its own copy of what it writes (another writer may write it).
struct Owned {
    row: GameRow,
    from_version: u64,
    finished: bool,
    truncate: Option<usize>,
    append: Option<(usize, StepRow)>,
    create: Option<GameRow>,
    join: Option<(u8, String)>,
    places: Option<Vec<u8>>,
}

impl Owned {
    fn of(change: &Change<'_>) -> Owned {
        Owned {
            row: change.row.clone(),
            from_version: change.from_version,
            finished: change.finished,
            truncate: change.truncate,
            append: change.append.map(|(seq, step)| (seq, step.clone())),
            create: change.create.cloned(),
            join: change.join.map(|(seat, user)| (seat, user.to_string())),
            places: change.places.map(<[u8]>::to_vec),
        }
    }

    fn change(&self) -> Change<'_> {
        Change {
            row: &self.row,
            from_version: self.from_version,
            finished: self.finished,
            truncate: self.truncate,
            append: self.append.as_ref().map(|(seq, step)| (*seq, step)),
            create: self.create.as_ref(),
            join: self
                .join
                .as_ref()
                .map(|(seat, user)| (*seat, user.as_str())),
            places: self.places.as_deref(),
        }
    }
}

fn abandoned() -> StoreError {
    StoreError::Database("the write was abandoned (the server is stopping)".into())
}

impl Store {
    /// [`Store::change`] on SQLite: queues the change and waits for this process's turn to
    /// write; by then another writer may have written it with its own, or it writes every
    /// change waiting (its own among them) in one transaction.
    pub(super) async fn change_in_group(&self, change: &Change<'_>) -> Result<i64, StoreError> {
        let (done, mut outcome) = oneshot::channel();
        self.group.0.lock().expect("group lock").push_back(Pending {
            change: Owned::of(change),
            done,
        });
        let turn = self.writes.clone().lock_owned().await;
        // Whoever had the turn before answers every change it took before letting go of it:
        // this one was either answered or is still waiting.
        match outcome.try_recv() {
            Ok(result) => return result,
            Err(oneshot::error::TryRecvError::Closed) => return Err(abandoned()),
            Err(oneshot::error::TryRecvError::Empty) => {}
        }
        let group: Vec<Pending> = {
            let mut waiting = self.group.0.lock().expect("group lock");
            let n = waiting.len().min(MOST);
            waiting.drain(..n).collect()
        };
        let write = Write::in_turn(&self.pool, turn).await;
        let changes: Vec<&Owned> = group.iter().map(|p| &p.change).collect();
        match write_group(write, &changes).await {
            Ok(results) => {
                self.group.1.fetch_add(1, Ordering::Relaxed);
                for (pending, result) in group.into_iter().zip(results) {
                    // A writer that stopped waiting is not an error.
                    let _ = pending.done.send(result);
                }
            }
            Err(e) => {
                for pending in group {
                    let _ = pending.done.send(Err(e.clone()));
                }
            }
        }
        outcome.await.unwrap_or_else(|_| Err(abandoned()))
    }
}

/// Writes `changes` in the transaction `write` begun, each in a savepoint of its own, and
/// commits: each change's outcome, or the error that failed them all.
async fn write_group(
    write: Result<Write, StoreError>,
    changes: &[&Owned],
) -> Result<Vec<Result<i64, StoreError>>, StoreError> {
    let mut write = write?;
    let mut results = Vec::with_capacity(changes.len());
    for change in changes {
        let at = now();
        write.conn().execute("SAVEPOINT change").await?;
        match apply(write.conn(), &change.change(), at, Backend::Sqlite).await {
            Ok(()) => {
                write.conn().execute("RELEASE change").await?;
                results.push(Ok(at));
            }
            Err(StoreError::Conflict) => {
                write.conn().execute("ROLLBACK TO change").await?;
                write.conn().execute("RELEASE change").await?;
                results.push(Err(StoreError::Conflict));
            }
            Err(e) => return Err(e),
        }
    }
    write.commit().await?;
    Ok(results)
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn game(id: &str) -> GameRow {
        GameRow {
            id: id.into(),
            kind: "reines".into(),
            seats: vec!["human".into(), "human".into()],
            token_hashes: vec![None, None],
            ..GameRow::default()
        }
    }

    fn step(seat: u8) -> StepRow {
        StepRow::Move {
            seat,
            text: "b4-b5".into(),
        }
    }

    async fn store_with_games(dir: &tempfile::TempDir, n: usize) -> (Store, Vec<String>) {
        let store = Store::open(dir.path().join("g.db").to_str().unwrap())
            .await
            .unwrap();
        let ids: Vec<String> = (0..n).map(|i| format!("g{i}")).collect();
        for id in &ids {
            store
                .create_with_steps(&game(id), &[], false)
                .await
                .unwrap();
        }
        (store, ids)
    }

    /// Makes the first move of each game (judged on version `from_version[i]`, with
    /// `texts[i]`) at once while another writer has the turn, so that all wait together, then
    /// lets them go: their outcomes, and how many groups were committed meanwhile.
    async fn together(
        store: &Store,
        ids: &[String],
        from_version: &[u64],
        texts: &[String],
    ) -> (Vec<Result<i64, StoreError>>, u64) {
        let turn = store.writes.clone().lock_owned().await;
        let mut tasks = Vec::new();
        for (i, id) in ids.iter().enumerate() {
            let (store, row, from) = (store.clone(), game(id), from_version[i]);
            let step = StepRow::Move {
                seat: 0,
                text: texts[i].clone(),
            };
            tasks.push(tokio::spawn(async move {
                store
                    .change(&Change {
                        row: &row,
                        from_version: from,
                        finished: false,
                        truncate: None,
                        append: Some((0, &step)),
                        create: None,
                        join: None,
                        places: None,
                    })
                    .await
            }));
        }
        // Every change is waiting for the turn before it is let go.
        for _ in 0..10_000 {
            if store.group.0.lock().unwrap().len() == ids.len() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        assert_eq!(store.group.0.lock().unwrap().len(), ids.len());
        let before = store.group.1.load(Ordering::Relaxed);
        drop(turn);
        let mut results = Vec::new();
        for task in tasks {
            results.push(task.await.unwrap());
        }
        (results, store.group.1.load(Ordering::Relaxed) - before)
    }

    /// Changes that wait while another writer has the turn are written in one transaction;
    /// the one that lost its race is refused alone, and the others are all stored.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn changes_waiting_together_are_committed_together() {
        let dir = tempfile::tempdir().unwrap();
        let (store, ids) = store_with_games(&dir, 6).await;
        // g5's change was judged on a version that is not the stored one.
        let versions = [0, 0, 0, 0, 0, 7];
        let (results, groups) = together(&store, &ids, &versions, &vec!["b4-b5".into(); 6]).await;
        assert_eq!(groups, 1, "one commit");
        for (i, (id, result)) in ids.iter().zip(&results).enumerate() {
            let (row, steps) = store.load_game(id).await.unwrap().unwrap();
            if i == 5 {
                assert!(matches!(result, Err(StoreError::Conflict)), "{result:?}");
                assert_eq!((row.version, steps.len()), (0, 0));
            } else {
                assert!(result.is_ok(), "{result:?}");
                assert_eq!((row.version, steps), (1, vec![step(0)]));
            }
        }
    }

    /// A database error in a group (the disk full) fails every change in it: none is stored,
    /// every one is answered with the error; once the disk has room, the same changes are.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_group_that_cannot_be_written_stores_none_of_its_changes() {
        let dir = tempfile::tempdir().unwrap();
        let (store, ids) = store_with_games(&dir, 4).await;
        store.set_max_pages(Some(store.page_count().await.unwrap()));
        // g2's move is long enough to need pages the file may not grow to.
        let mut texts = vec!["b4-b5".to_string(); 4];
        texts[2] = "x".repeat(64 * 1024);
        let (results, groups) = together(&store, &ids, &[0; 4], &texts).await;
        assert_eq!(groups, 0);
        for result in &results {
            assert!(
                matches!(result, Err(StoreError::Database(e)) if e.contains("full")),
                "{result:?}"
            );
        }
        store.set_max_pages(None);
        for id in &ids {
            let (row, steps) = store.load_game(id).await.unwrap().unwrap();
            assert_eq!((row.version, steps.len()), (0, 0), "{id}");
        }
        let (results, groups) = together(&store, &ids, &[0; 4], &texts).await;
        assert_eq!(groups, 1);
        assert!(results.iter().all(|r| r.is_ok()), "{results:?}");
        for (id, text) in ids.iter().zip(&texts) {
            let (_, steps) = store.load_game(id).await.unwrap().unwrap();
            assert!(matches!(&steps[..], [StepRow::Move { text: t, .. }] if t == text));
        }
    }
}
