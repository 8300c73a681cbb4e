//! A player who left a rated game (docs/api.md, "A player who left"): no WebSocket of theirs
//! and no move of theirs for a while (`AccountSettings::leave_wait`, by the clock), and the
//! others may claim against them: the game won (with three players: the one who left drops
//! out, and the others play on), or, between two players, a draw.

use std::sync::Arc;

use myrmidon_rules::{Outcome, Reason};
use serde_json::Value;

use crate::i18n::Arg;
use crate::store::{now, StepRow};

use super::{App, Live, Refusal};

impl Live {
    /// When each seat was last there (its last move, or its WebSocket last seen, whichever
    /// is later), with `seen` the times its WebSocket was last seen.
    fn there_at(&self, seen: &[Option<i64>]) -> Vec<i64> {
        (0..self.seats.len())
            .map(|s| {
                let moved = self.moved_ms.get(s).copied().unwrap_or(self.row.created_ms);
                seen.get(s)
                    .copied()
                    .flatten()
                    .map_or(moved, |t| t.max(moved))
            })
            .collect()
    }

    /// The seats that the holder of `mine` may claim against at `at_ms`: the other players
    /// still in a rated game going on who have been gone for the game's wait.
    fn claimable_at(&self, mine: &[u8], seen: &[Option<i64>], wait_ms: i64, at_ms: i64) -> Vec<u8> {
        if !self.row.rated || self.record.result().is_some() {
            return Vec::new();
        }
        let players_in = self.record.players_in();
        if !mine.iter().any(|s| players_in.contains(s)) {
            return Vec::new();
        }
        let there = self.there_at(seen);
        players_in
            .into_iter()
            .filter(|s| !mine.contains(s) && at_ms - there[*s as usize] >= wait_ms)
            .collect()
    }
}

impl App {
    /// How long a player of this game must be gone before a claim, in milliseconds (`None`:
    /// the game is not rated, or has no clock: no claim).
    fn leave_wait_ms(&self, live: &Live) -> Option<i64> {
        let clock = live.row.clock.as_ref().filter(|_| live.row.rated)?;
        Some(self.accounts.settings.leave_wait(clock).as_millis() as i64)
    }

    /// The seats the holder of `mine` may claim against now (see [`App::claim_left`]).
    pub async fn claimable(self: &Arc<Self>, live: &Live, mine: &[u8]) -> Result<Vec<u8>, Refusal> {
        let Some(wait) = self.leave_wait_ms(live) else {
            return Ok(Vec::new());
        };
        if live.record.result().is_some() {
            return Ok(Vec::new());
        }
        let seen = self
            .store
            .seen_times(&live.row.id, live.seats.len())
            .await?;
        Ok(live.claimable_at(mine, &seen, wait, now()))
    }

    /// The holder of `token` claims against `seat`, a player who left: the game won (`draw`
    /// false: `seat` drops out, as if it had resigned) or a draw. Refused before the wait, or
    /// by anyone who does not hold another seat of the game still in play. Rated in the same
    /// transaction that ends the game.
    pub async fn claim_left(
        self: &Arc<Self>,
        id: &str,
        seat: u8,
        token: Option<&str>,
        draw: bool,
    ) -> Result<Value, Refusal> {
        let slot = self.current(id).await?;
        let (state, job) = {
            let mut live = slot.live.lock().await;
            let players = live.record.player_names();
            let name = live.seat_player(seat)?;
            let Some(wait) = self.leave_wait_ms(&live) else {
                return Err(Refusal::Bad(msg!("api-claim-unrated")));
            };
            if live.record.result().is_some() {
                return Err(Refusal::Bad(msg!("api-game-over-for", what = "claim")));
            }
            let mine = live.seats_held(token, "claim")?;
            if mine.contains(&seat) {
                return Err(Refusal::Bad(msg!("api-claim-own-seat")));
            }
            if draw && players.len() != 2 {
                return Err(Refusal::Bad(msg!(
                    "api-draw-two-players",
                    game = Arg::Game(live.record.info().id),
                    players = players.len()
                )));
            }
            let seen = self.store.seen_times(id, live.seats.len()).await?;
            let at = now();
            if !live.claimable_at(&mine, &seen, wait, at).contains(&seat) {
                let there = live.there_at(&seen)[seat as usize];
                let left = ((there + wait - at).max(0) + 999) / 1000;
                return Err(Refusal::Conflict(msg!(
                    "api-claim-early",
                    name = name,
                    seconds = left
                )));
            }
            let mut record = live.record.clone_box();
            let step = if draw {
                record.declare(Outcome::Draw {
                    reason: Reason::ABANDONMENT,
                });
                StepRow::Declare {
                    winner: None,
                    reason: Reason::ABANDONMENT.id.to_string(),
                }
            } else {
                if !record.drop_out(seat, Reason::ABANDONMENT) {
                    return Err(Refusal::Bad(msg!("api-seat-out", seat = seat, name = name)));
                }
                StepRow::Out {
                    seat,
                    reason: Reason::ABANDONMENT.id.to_string(),
                }
            };
            let job = self.store_off_board(&mut live, record, step).await?;
            (live.state(), job)
        };
        self.start(slot, job);
        Ok(state)
    }

    /// The holder of `token` is at `seat` of game `id` (its WebSocket said so): the seat is
    /// seen now, if it is a seat of a rated game going on that the token holds. Returns the
    /// seats the token holds (empty: nothing to watch).
    pub async fn here(self: &Arc<Self>, id: &str, token: &str) -> Result<Vec<u8>, Refusal> {
        let slot = self.game(id).await?;
        let mine = {
            let live = slot.live.lock().await;
            if self.leave_wait_ms(&live).is_none() || live.record.result().is_some() {
                return Ok(Vec::new());
            }
            (0..live.seats.len() as u8)
                .filter(|&s| live.holds(Some(token), s))
                .collect::<Vec<u8>>()
        };
        self.seen(id, &mine).await?;
        Ok(mine)
    }

    /// The seats `mine` of game `id` are seen now.
    pub async fn seen(&self, id: &str, mine: &[u8]) -> Result<(), Refusal> {
        let at = now();
        for &seat in mine {
            self.store.seen(id, seat, at).await?;
        }
        Ok(())
    }
}
