//! Rematches of finished games. A rematch is an offer that every other person in the game
//! (the online seats) accepts; against the computer and on one screen it is made at once. The
//! new game has the same game, settings, start and clock, and the same players in their
//! seats rotated by one (colours swapped with two players): each seat keeps its player's
//! token, so nobody else can take it. It counts towards the limit of unfinished games of
//! the client who made it.

use std::sync::Arc;

use serde_json::Value;

use super::change::Edit;
use super::create::prepare;
use super::{Answer, App, Live, NewGame, Refusal};

/// The answer to a rematch request.
pub enum Rematched {
    /// The new game: its id, the requester's tokens for its seats, its state.
    Created(String, Vec<Option<String>>, Value),
    /// The offer is pending (or was declined): the finished game's state.
    Offered(Value),
}

impl Live {
    /// The seats whose people must want the rematch: every person who may be elsewhere.
    fn rematch_voters(&self) -> u8 {
        self.people_elsewhere()
    }
}

impl App {
    /// A rematch request by the holder of `token`, made from the client `creator` (as
    /// [`super::client_key`] names it; `None`: not counted).
    pub async fn rematch(
        self: &Arc<Self>,
        id: &str,
        token: Option<&str>,
        action: Answer,
        creator: Option<String>,
    ) -> Result<Rematched, Refusal> {
        let slot = self.current(id).await?;
        let mut live = slot.live.lock().await;
        let mine = live.seats_held(token, "rematch")?;
        if live.record.result().is_none() {
            return Err(Refusal::Conflict(msg!("api-rematch-not-over")));
        }
        if let Some(new) = &live.row.rematch {
            return Err(Refusal::Conflict(msg!("api-rematch-exists", game = new)));
        }
        let mask = mine.iter().fold(0u8, |m, &s| m | 1 << s);
        let offers = live.row.rematch_offers;
        let yes = match action {
            Answer::Decline => {
                if offers == 0 {
                    return Err(Refusal::Bad(msg!("api-rematch-none-to-decline")));
                }
                let mut row = live.row.clone();
                row.rematch_offers = 0;
                self.commit(&mut live, Edit::row(row)).await?;
                return Ok(Rematched::Offered(live.state()));
            }
            Answer::Accept if offers & !mask == 0 => {
                return Err(Refusal::Bad(msg!("api-rematch-none-to-accept")))
            }
            Answer::Offer if offers & mask == mask && offers != 0 => {
                return Err(Refusal::Bad(msg!("api-rematch-pending")))
            }
            Answer::Offer | Answer::Accept => offers | mask,
        };
        if let Some(creator) = &creator {
            self.may_create(creator).await?;
        }
        let voters = live.rematch_voters();
        if yes & voters != voters {
            let mut row = live.row.clone();
            row.rematch_offers = yes;
            self.commit(&mut live, Edit::row(row)).await?;
            return Ok(Rematched::Offered(live.state()));
        }
        // Everyone wants it: the new game, with the players' seats rotated by one.
        let n = live.row.seats.len();
        let from = |j: usize| (j + n - 1) % n;
        let (mut new_row, record, _) = prepare(NewGame {
            kind: live.row.kind.clone(),
            // (in their one spelling: a seat stored as `computer:+5` by an older server is
            // `computer:5`)
            seats: (0..n).map(|j| live.seats[from(j)].to_string()).collect(),
            settings: if live.row.start.is_some() {
                Vec::new()
            } else {
                live.row.settings.clone()
            },
            position: live.row.start.clone(),
            clock: live.row.clock,
            public: live.row.public,
            creator,
            rated: false,
            account: None,
        })?;
        // The accounts keep their players' seats, and a rated game's rematch is rated.
        new_row.rated = live.row.rated;
        new_row.accounts = (0..live.row.accounts.len())
            .map(|j| live.row.accounts[from(j)].clone())
            .collect();
        new_row.token_hashes = (0..n)
            .map(|j| live.row.token_hashes[from(j)].clone())
            .collect();
        let tokens: Vec<Option<String>> = (0..n)
            .map(|j| {
                live.holds(token, from(j) as u8)
                    .then(|| token.unwrap_or_default().to_string())
            })
            .collect();
        let mut row = live.row.clone();
        row.rematch = Some(new_row.id.clone());
        row.rematch_offers = yes;
        let edit = Edit {
            create: Some(new_row.clone()),
            ..Edit::row(row)
        };
        self.commit(&mut live, edit).await?;
        drop(live);
        let new_id = new_row.id.clone();
        let new_live = Live::new(new_row, record, &[]).map_err(Refusal::internal)?;
        let (id, _, state) = self.install(new_id, new_live, Vec::new()).await;
        Ok(Rematched::Created(id, tokens, state))
    }
}
