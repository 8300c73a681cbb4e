//! Open seats: joining one, and the lobby of public games with open seats.

use std::sync::Arc;

use serde_json::Value;

use crate::views::LobbyEntry;

use super::change::Edit;
use super::{hash_token, new_token, App, Refusal, Seat};
use crate::store::SeatAccount;

impl App {
    /// Takes an open seat: its new token and the state.
    /// A logged-in client's account holds the seat; a rated game's seats are for accounts
    /// only, each account one seat.
    pub async fn join(
        self: &Arc<Self>,
        id: &str,
        seat: u8,
        account: Option<SeatAccount>,
    ) -> Result<(String, Value), Refusal> {
        let slot = self.current(id).await?;
        let mut live = slot.live.lock().await;
        let players = live.record.player_names();
        let Some(kind) = live.seats.get(seat as usize).copied() else {
            return Err(Refusal::Bad(msg!(
                "api-seat-range",
                seat = seat,
                last = players.len() - 1
            )));
        };
        let name = live.seat_player(seat)?;
        match kind {
            Seat::Open => {}
            Seat::Online => {
                return Err(Refusal::Conflict(msg!(
                    "api-seat-taken",
                    seat = seat,
                    name = name
                )))
            }
            Seat::Human | Seat::Computer(_) => {
                return Err(Refusal::Bad(msg!(
                    "api-seat-not-open",
                    seat = seat,
                    name = name
                )))
            }
        }
        if live.record.result().is_some() {
            return Err(Refusal::Bad(msg!("api-game-over-for", what = "join")));
        }
        if live.row.rated {
            let Some(account) = &account else {
                return Err(Refusal::Unauthorized(msg!("api-not-logged-in")));
            };
            if live.row.holds_seat(&account.id) {
                return Err(Refusal::Forbidden(msg!("api-rated-one-seat")));
            }
        }
        let token = new_token();
        // Taking a seat leaves the pending offers as they are.
        let mut row = live.row.clone();
        if let Some(account) = account {
            row.accounts.resize(row.seats.len(), None);
            row.accounts[seat as usize] = Some(account);
        }
        row.seats[seat as usize] = "online".into();
        row.token_hashes[seat as usize] = Some(hash_token(&token));
        let job = self
            .commit(&mut live, Edit::row(row))
            .await
            .map_err(|e| match e {
                Refusal::Conflict(_) => {
                    Refusal::Conflict(msg!("api-join-changed", seat = seat, name = name))
                }
                e => e,
            })?;
        let state = live.state();
        drop(live);
        self.start(slot, job);
        Ok((token, state))
    }

    /// The account `account` takes over `seat`, which `token` holds and no account holds yet
    /// (a game played before logging in, going on or over): the state. An account holds one
    /// seat of a game at most.
    pub async fn claim_seat(
        self: &Arc<Self>,
        id: &str,
        seat: u8,
        token: Option<&str>,
        account: SeatAccount,
    ) -> Result<Value, Refusal> {
        let slot = self.current(id).await?;
        let mut live = slot.live.lock().await;
        let name = live.seat_player(seat)?;
        if !live.holds(token, seat) {
            return Err(Refusal::Forbidden(msg!(
                "api-not-your-seat",
                seat = seat,
                name = name
            )));
        }
        if live.row.account(seat as usize).is_some() {
            return Err(Refusal::Conflict(msg!(
                "api-seat-claimed",
                seat = seat,
                name = name
            )));
        }
        if live.row.holds_seat(&account.id) {
            return Err(Refusal::Forbidden(msg!("api-claim-one-seat")));
        }
        let mut row = live.row.clone();
        row.accounts.resize(row.seats.len(), None);
        row.accounts[seat as usize] = Some(account);
        let job = self.commit(&mut live, Edit::row(row)).await?;
        let state = live.state();
        drop(live);
        self.start(slot, job);
        Ok(state)
    }

    /// The public games with open seats, newest first.
    pub async fn lobby(self: &Arc<Self>) -> Result<Vec<LobbyEntry>, Refusal> {
        let mut out = Vec::new();
        for (id, stored) in self.store.lobby_games(100).await? {
            let Ok(slot) = self.game(&id).await else {
                continue;
            };
            if slot.live.lock().await.version < stored {
                // Changed by another process (or by a race here) since it was read: the
                // lobby shows the seats as the database has them.
                self.reload(&slot, &id).await?;
            }
            let live = slot.live.lock().await;
            let open = live.open_seats();
            if open.is_empty() || live.record.result().is_some() {
                continue;
            }
            let info = live.record.info();
            out.push(LobbyEntry {
                id,
                game: info.id,
                name: info.name,
                players: live.record.player_names(),
                seats: live.row.seats.clone(),
                open_seats: open,
                settings: live.row.settings.iter().cloned().collect(),
                clock: live.row.clock,
                moves: live.record.history().len(),
                created_ms: live.row.created_ms,
            });
        }
        Ok(out)
    }
}
