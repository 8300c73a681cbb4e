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
                // (the state says how it ended, in the reader's language)
                return Err(Refusal::Bad(msg!(
                    "api-move-game-over",
                    move = format!("{text:?}")
                )));
            };
            let name = live.seat_player(seat)?;
            match live.seats[seat as usize] {
                Seat::Computer(_) => {
                    return Err(Refusal::Forbidden(msg!("api-computer-turn", seat = name)))
                }
                Seat::Open => return Err(Refusal::Forbidden(msg!("api-seat-open", seat = name))),
                Seat::Human | Seat::Online => {}
            }
            if !live.holds(token, seat) {
                return Err(Refusal::Forbidden(msg!("api-not-your-turn", seat = name)));
            }
            if live.deadline().is_some_and(|d| d <= now()) {
                drop(live);
                self.flag(&slot, None).await;
                return Err(Refusal::Conflict(msg!(
                    "api-time-ran-out",
                    move = format!("{text:?}"),
                    seat = name
                )));
            }
            let played = live.record.play(text).map_err(|e| {
                Refusal::Bad(msg!(
                    "api-move-refused",
                    move = format!("{text:?}"),
                    detail = e.to_string()
                ))
            })?;
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
