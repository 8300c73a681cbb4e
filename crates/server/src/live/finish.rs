//! Games ending off the board: resignations and flags (the clock's timer).

use std::sync::Arc;
use std::time::Duration;

use myrmidon_rules::{DynRecord, Reason};
use serde_json::Value;

use crate::store::{now, StepRow};

use super::change::Edit;
use super::{App, Job, Live, Refusal, Slot};

impl App {
    /// A seat resigns: with two players the other wins; with three it drops out.
    pub async fn resign(
        self: &Arc<Self>,
        id: &str,
        seat: u8,
        token: Option<&str>,
    ) -> Result<Value, Refusal> {
        let slot = self.current(id).await?;
        let (state, job) = {
            let mut live = slot.live.lock().await;
            let name = live.acting_seat(seat, token, "resign")?;
            let mut record = live.record.clone_box();
            if !record.drop_out(seat, Reason::RESIGNATION) {
                return Err(Refusal::Bad(msg!("api-seat-out", seat = seat, name = name)));
            }
            let step = StepRow::Out {
                seat,
                reason: Reason::RESIGNATION.id.to_string(),
            };
            let job = self.store_off_board(&mut live, record, step).await?;
            (live.state(), job)
        };
        self.start(slot, job);
        Ok(state)
    }

    /// Stores a step that is not a move on the board (a seat out, a result declared), which
    /// made `record` from the game's, and makes it the game's.
    pub(super) async fn store_off_board(
        self: &Arc<Self>,
        live: &mut Live,
        record: Box<dyn DynRecord>,
        step: StepRow,
    ) -> Result<Option<Job>, Refusal> {
        let edit = Edit {
            record: Some(record),
            step: Some(step),
            ..Edit::row(live.next_row())
        };
        self.commit(live, edit).await
    }

    /// Sets a timer for the running clock of the game, if any: when it rings and nothing has
    /// changed meanwhile, the flag falls.
    pub(super) fn arm(self: &Arc<Self>, slot: &Arc<Slot>) {
        let app = self.clone();
        let slot = slot.clone();
        tokio::spawn(async move {
            let (deadline, version) = {
                let live = slot.live.lock().await;
                match live.deadline() {
                    Some(d) => (d, live.version),
                    None => return,
                }
            };
            let wait = (deadline - now()).max(0) as u64;
            tokio::time::sleep(Duration::from_millis(wait + 5)).await;
            app.flag(&slot, Some(version)).await;
        });
    }

    /// The seat to move loses on time if its flag has fallen (and, with `version`, if the game
    /// has not changed since): with two players the other wins; with three it leaves the game.
    /// When the database does not answer, the flag is tried again a second later.
    pub(super) async fn flag(self: &Arc<Self>, slot: &Arc<Slot>, version: Option<u64>) {
        let job = {
            let mut live = slot.live.lock().await;
            if version.is_some_and(|v| v != live.version) {
                return;
            }
            let (Some(deadline), Some(seat)) = (live.deadline(), live.seat_to_move()) else {
                return;
            };
            if deadline > now() {
                return;
            }
            let mut record = live.record.clone_box();
            if !record.drop_out(seat, Reason::TIME) {
                return;
            }
            let step = StepRow::Out {
                seat,
                reason: Reason::TIME.id.to_string(),
            };
            match self.store_off_board(&mut live, record, step).await {
                Ok(job) => job,
                // Another change came first (a move in time through another process, or its
                // own flag): the game is read again.
                Err(Refusal::Conflict(_)) => return,
                Err(e) => {
                    tracing::error!("game {}: storing a flag: {e:?}", live.row.id);
                    let version = live.version;
                    drop(live);
                    let app = self.clone();
                    let slot = slot.clone();
                    tokio::spawn(async move {
                        tokio::time::sleep(Duration::from_secs(1)).await;
                        if slot.live.lock().await.version == version {
                            app.arm(&slot);
                        }
                    });
                    return;
                }
            }
        };
        self.start(slot.clone(), job);
    }
}
