//! A seek or a challenge accepted: its game made (docs/api.md, "Seeks and challenges").

use std::sync::Arc;

use serde_json::Value;

use crate::store::{SeatAccount, SeekRow, StoreError};

use super::create::prepare;
use super::{hash_token, new_token, App, Live, NewGame, Refusal};

impl App {
    /// Makes the game of an open seek, accepted by `account` (if logged in): the seeker holds
    /// the seat they chose (drawn at random now if they did not; with the token given when
    /// the seek was made), the one accepting the first other seat, and the other seats of a
    /// game of three are open, in the lobby. Of two acceptances at once exactly one makes the
    /// game; the other is a `409`. Returns the game's id, the seats of the seeker and of the
    /// one accepting, the new seat's token and the game's state.
    pub async fn accept_seek(
        self: &Arc<Self>,
        seek: &SeekRow,
        account: Option<SeatAccount>,
    ) -> Result<(String, [u8; 2], String, Value), Refusal> {
        let players = myrmidon_rules::registry::find(&seek.kind)
            .map_err(|e| Refusal::NotFound(msg!("api-unknown-game", detail = e.to_string())))?
            .info()
            .players
            .len();
        let seeker = match seek.seat {
            Some(seat) => seat.min(players as u8 - 1),
            None => {
                let mut byte = [0u8; 1];
                getrandom::fill(&mut byte).expect("the system's random source");
                byte[0] % players as u8
            }
        };
        let other = if seeker == 0 { 1 } else { 0 };
        let mut seats = vec!["open".to_string(); players];
        seats[seeker as usize] = "online".into();
        let new = NewGame {
            kind: seek.kind.clone(),
            seats,
            settings: seek.settings.clone(),
            position: None,
            clock: seek.clock,
            public: players > 2,
            creator: None,
            rated: seek.rated,
            account: seek.user.clone().map(|(id, name)| SeatAccount { id, name }),
        };
        let (mut row, record, _) = prepare(new)?;
        let token = new_token();
        row.seats[other as usize] = "online".into();
        row.token_hashes[seeker as usize] = Some(seek.token_hash.clone());
        row.token_hashes[other as usize] = Some(hash_token(&token));
        if let Some(account) = account {
            row.accounts.resize(players, None);
            row.accounts[other as usize] = Some(account);
        }
        self.store
            .accept_seek(&seek.id, &row, seeker)
            .await
            .map_err(|e| match e {
                StoreError::Conflict => Refusal::Conflict(msg!("api-seek-closed")),
                e => e.into(),
            })?;
        let id = row.id.clone();
        let live = Live::new(row, record, &[]).map_err(Refusal::internal)?;
        let mut tokens = vec![None; players];
        tokens[other as usize] = Some(token.clone());
        let (id, _, state) = self.install(id, live, tokens).await;
        Ok((id, [seeker, other], token, state))
    }
}
