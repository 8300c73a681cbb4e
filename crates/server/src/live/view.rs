//! The game as the API shows it: its state (the position, its seats, offers and clock) as the
//! typed views of `crate::views`, built from the record in memory.

use crate::store::now;
use crate::views::{GameStateView, LiveView};
use serde_json::Value;
use std::sync::Arc;

use super::{Live, Refusal};

impl Live {
    /// The game's state as the API gives it.
    pub fn view(&self) -> GameStateView {
        let mut view = GameStateView::of(
            &self.row.id,
            &self.row.seats,
            &self.row.settings,
            &*self.record,
            self.version,
            self.thinking || self.elsewhere,
        );
        let seats = |mask: u8| -> Vec<u8> {
            (0..self.seats.len() as u8)
                .filter(|s| mask & (1 << s) != 0)
                .collect()
        };
        view.live = Some(LiveView {
            draw_offer: self.row.draw_offer,
            draw_declined: self.draw_declined,
            takeback_offer: self.row.takeback_offer,
            takeback_agreed: seats(self.row.takeback_yes),
            takeback_declined: self.row.takeback_declined,
            rematch_offers: seats(self.row.rematch_offers),
            rematch: self.row.rematch.clone(),
            open_seats: self.open_seats(),
            public: self.row.public,
            rated: self.row.rated,
            accounts: (0..self.seats.len())
                .map(|s| self.row.account(s).map(|a| a.name.clone()))
                .collect(),
            rating_change: self
                .row
                .rating_change
                .as_deref()
                .and_then(|text| serde_json::from_str(text).ok()),
            clock: self
                .clock
                .as_ref()
                .map(|clock| clock.view(self.seat_to_move(), now())),
        });
        view
    }

    /// The game's state as JSON.
    pub fn state(&self) -> Value {
        serde_json::to_value(self.view()).expect("a state serialises")
    }

    /// The state as JSON text, written straight from the view (what watchers are sent).
    pub fn state_text(&self) -> Arc<str> {
        serde_json::to_string(&self.view())
            .expect("a state serialises")
            .into()
    }

    /// The state at an earlier ply (`at` moves played), read only.
    pub fn state_at(&self, at: usize) -> Result<Value, Refusal> {
        let played = self.record.history().len();
        if at > played {
            return Err(Refusal::Bad(msg!(
                "api-at-beyond",
                at = at,
                played = played
            )));
        }
        let mut record = self.record.clone_box();
        while record.history().len() > at {
            if !record.undo() {
                break;
            }
        }
        let mut view = GameStateView::of(
            &self.row.id,
            &self.row.seats,
            &self.row.settings,
            &*record,
            self.version,
            false,
        );
        view.at = Some(at);
        Ok(serde_json::to_value(view).expect("a state serialises"))
    }
}
