//! Takebacks.

use std::sync::Arc;

use crate::store::now;
use serde_json::Value;

use crate::store::StepRow;

use super::{clock_of, replay, App, Refusal};

impl App {
    /// Takes back the last move of a seat that `token` holds, with the moves played after it
    /// (the computer's replies): against the computer, the player's last move and the reply;
    /// on one screen, the last move.
    pub async fn takeback(
        self: &Arc<Self>,
        id: &str,
        token: Option<&str>,
    ) -> Result<Value, Refusal> {
        let slot = self.game(id).await?;
        let (state, job) = {
            let mut live = slot.live.lock().await;
            let mine: Vec<u8> = (0..live.seats.len() as u8)
                .filter(|&s| live.holds(token, s))
                .collect();
            if mine.is_empty() {
                return Err(Refusal::Forbidden(
                    "takeback: this token holds no seat of the game".into(),
                ));
            }
            let Some((row, steps)) = self.store.load_game(id).await? else {
                return Err(Refusal::NotFound(format!("no game {id:?}")));
            };
            // Back over the others' moves to this token's last move; only moves go back.
            let mut keep = steps.len();
            loop {
                match steps[..keep].last() {
                    Some(StepRow::Move { seat, .. }) => {
                        keep -= 1;
                        if mine.contains(seat) {
                            break;
                        }
                    }
                    _ => {
                        return Err(Refusal::Bad(
                            "takeback: no move of yours to take back".into(),
                        ))
                    }
                }
            }
            let record = replay(&row, &steps[..keep]).map_err(Refusal::Internal)?;
            self.store.truncate(id, keep).await?;
            live.record = record;
            live.steps = keep;
            live.clock = clock_of(&row, &steps[..keep]).map(|mut clock| {
                clock.restart_turn(now());
                clock
            });
            let job = live.changed();
            (live.state(), job)
        };
        self.start(slot, job);
        Ok(state)
    }
}
