//! Rematches of finished games.

use std::sync::Arc;

use serde_json::Value;

use crate::store::StoreError;

use super::{App, NewGame, Refusal, Seat};

impl App {
    /// A rematch of a finished game: the same game, settings and start, the seats rotated by
    /// one (colours swapped with two players). Returns the new game as [`App::create`] does.
    pub async fn rematch(
        self: &Arc<Self>,
        id: &str,
        token: Option<&str>,
    ) -> Result<(String, Vec<Option<String>>, Value), Refusal> {
        let slot = self.game(id).await?;
        let (kind, seats, settings, start, clock, public) = {
            let live = slot.live.lock().await;
            if !(0..live.seats.len() as u8).any(|s| live.holds(token, s)) {
                return Err(Refusal::Forbidden(
                    "rematch: this token holds no seat of the game".into(),
                ));
            }
            if live.record.result().is_none() {
                return Err(Refusal::Conflict("rematch: the game is not over".into()));
            }
            if let Some(new) = &live.rematch {
                return Err(Refusal::Conflict(format!(
                    "rematch: already created, game {new}"
                )));
            }
            let n = live.row.seats.len();
            // A person elsewhere gets the new game's seat by joining it (the tokens go to the
            // one who asked only).
            let seats: Vec<String> = (0..n)
                .map(|j| {
                    let i = (j + n - 1) % n;
                    match live.seats[i] {
                        Seat::Human | Seat::Online | Seat::Open if !live.holds(token, i as u8) => {
                            "open".to_string()
                        }
                        _ => live.row.seats[i].clone(),
                    }
                })
                .collect();
            let settings = if live.row.start.is_some() {
                Vec::new()
            } else {
                live.row.settings.clone()
            };
            (
                live.row.kind.clone(),
                seats,
                settings,
                live.row.start.clone(),
                live.row.clock,
                live.row.public,
            )
        };
        let created = self
            .create(NewGame {
                kind,
                seats,
                settings,
                position: start,
                clock,
                public,
                creator: None,
            })
            .await?;
        let mut live = slot.live.lock().await;
        if let Err(e) = self.store.set_rematch(id, &created.0).await {
            drop(live);
            if let StoreError::Conflict = e {
                // Another server process made the rematch first.
                self.refresh(id).await;
                return Err(Refusal::Conflict("rematch: already created".into()));
            }
            return Err(e.into());
        }
        live.rematch = Some(created.0.clone());
        live.publish();
        Ok(created)
    }
}
