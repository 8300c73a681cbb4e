//! Games ending off the board: resignations and flags (the clock's timer).

use std::sync::Arc;
use std::time::Duration;

use crate::store::now;
use myrmidon_rules::{DynRecord, Reason};
use serde_json::Value;

use crate::store::{StepRow, StoreError};

use super::{App, Job, Live, Refusal, Slot};

impl App {
    /// A seat resigns: with two players the other wins; with three it drops out.
    pub async fn resign(
        self: &Arc<Self>,
        id: &str,
        seat: u8,
        token: Option<&str>,
    ) -> Result<Value, Refusal> {
        let slot = self.game(id).await?;
        let (state, job) = {
            let mut live = slot.live.lock().await;
            let name = live.acting_seat(seat, token, "resign")?;
            let mut record = live.record.clone_box();
            if !record.drop_out(seat, Reason::RESIGNATION) {
                return Err(Refusal::Bad(format!(
                    "seat {seat} ({name}) is already out of the game"
                )));
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
    /// made `record` from the game's, and makes it the game's: the new state is published and
    /// the computer's move returned if it is its turn.
    pub(super) async fn store_off_board(
        &self,
        live: &mut Live,
        record: Box<dyn DynRecord>,
        step: StepRow,
    ) -> Result<Option<Job>, StoreError> {
        let finished = record.result().is_some();
        let at = self
            .store
            .append_step(&live.row.id, live.steps, &step, finished)
            .await?;
        live.stored(&step, at);
        live.record = record;
        live.steps += 1;
        Ok(live.changed())
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
                Err(StoreError::Conflict) => {
                    // Another server process stored a step first (its own flag, or a move in
                    // time): read the game again.
                    let id = live.row.id.clone();
                    drop(live);
                    self.refresh(&id).await;
                    return;
                }
                Err(e) => {
                    tracing::error!("game {}: storing a flag: {e}", live.row.id);
                    return;
                }
            }
        };
        self.start(slot.clone(), job);
    }
}
