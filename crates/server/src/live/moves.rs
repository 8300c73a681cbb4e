//! A person's move.

use std::sync::Arc;

use serde_json::Value;

use crate::store::{now, StepRow};

use super::change::Edit;
use super::{App, Refusal, Seat};

impl App {
    /// Plays a human's move: the token must hold the seat to move.
    pub async fn play(
        self: &Arc<Self>,
        id: &str,
        text: &str,
        token: Option<&str>,
    ) -> Result<Value, Refusal> {
        let slot = self.current(id).await?;
        let (state, job) = {
            let mut live = slot.live.lock().await;
            let Some(seat) = live.seat_to_move() else {
                return Err(Refusal::Bad(format!(
                    "move {text:?}: the game is over ({})",
                    live.record
                        .result()
                        .map(|r| r.describe(live.record.player_names()))
                        .unwrap_or_default()
                )));
            };
            let name = live.record.player_names()[seat as usize];
            match live.seats[seat as usize] {
                Seat::Computer(_) => {
                    return Err(Refusal::Forbidden(format!(
                        "it is the computer's turn ({name}), not a human seat's"
                    )))
                }
                Seat::Open => {
                    return Err(Refusal::Forbidden(format!(
                        "{name}'s seat is open: nobody has joined it yet"
                    )))
                }
                Seat::Human | Seat::Online => {}
            }
            if !live.holds(token, seat) {
                return Err(Refusal::Forbidden(format!(
                    "this token does not hold the seat to move ({name})"
                )));
            }
            if live.deadline().is_some_and(|d| d <= now()) {
                drop(live);
                self.flag(&slot, None).await;
                return Err(Refusal::Conflict(format!(
                    "move {text:?}: {name}'s time ran out"
                )));
            }
            let played = live
                .record
                .play(text)
                .map_err(|e| Refusal::Bad(format!("move {text:?}: {e}")))?;
            let edit = Edit {
                step: Some(StepRow::Move {
                    seat,
                    text: played.text,
                }),
                ..Edit::row(live.next_row())
            };
            let job = match self.commit(&mut live, edit).await {
                Ok(job) => job,
                Err(e) => {
                    // Not stored: the game in memory is the one before the move.
                    live.record.undo();
                    return Err(e);
                }
            };
            (live.state(), job)
        };
        self.start(slot, job);
        Ok(state)
    }
}
