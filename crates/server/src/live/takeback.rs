//! Takebacks. Against the computer and on one screen a takeback is immediate while the game
//! goes on; between people on different devices it is a proposal that every other person in
//! the game accepts (or one declines), as on lichess. None once the game has ended, and the
//! time used stays used: each seat keeps the time it had when the takeback was made.

use std::sync::Arc;

use serde_json::Value;

use crate::store::{now, StepRow};

use super::change::Edit;
use super::{replay, Answer, App, Live, Refusal};

fn bit(seat: u8) -> u8 {
    1 << seat
}

impl Live {
    /// The seats that must agree to a takeback and are not held by `mine`: the people who may
    /// be elsewhere ([`Live::people_elsewhere`]). With none, a takeback is immediate.
    fn takeback_voters(&self, mine: &[u8]) -> u8 {
        mine.iter()
            .fold(self.people_elsewhere(), |m, &s| m & !bit(s))
    }
}

impl App {
    /// A takeback request by the holder of `token` (see the module's rules). Immediate, or
    /// the proposal's new state.
    pub async fn takeback(
        self: &Arc<Self>,
        id: &str,
        token: Option<&str>,
        action: Answer,
    ) -> Result<Value, Refusal> {
        let slot = self.current(id).await?;
        let (state, job) = {
            let mut live = slot.live.lock().await;
            let mine = live.seats_held(token, "takeback")?;
            if live.record.result().is_some() {
                return Err(Refusal::Bad(msg!("api-game-over-for", what = "takeback")));
            }
            let voters = live.takeback_voters(&mine);
            let pending = live.row.takeback_offer;
            let job = match action {
                Answer::Offer if voters == 0 => self.take_back(&mut live, &mine).await?,
                Answer::Offer | Answer::Accept if pending.is_some_and(|p| !mine.contains(&p)) => {
                    // Agreed by this seat too: taken back once every voter agreed.
                    let proposer = pending.expect("pending");
                    let yes = live.row.takeback_yes | mine.iter().fold(0, |m, &s| m | bit(s));
                    let needed = live.takeback_voters(&[proposer]);
                    if yes & needed == needed {
                        self.take_back(&mut live, &[proposer]).await?
                    } else {
                        let mut row = live.row.clone();
                        row.takeback_yes = yes;
                        self.commit(&mut live, Edit::row(row)).await?
                    }
                }
                Answer::Offer => {
                    if pending.is_some() {
                        return Err(Refusal::Bad(msg!("api-takeback-pending")));
                    }
                    let proposer = self.last_mover(&live, &mine).await?;
                    let mut row = live.next_row();
                    row.takeback_offer = Some(proposer);
                    row.takeback_yes = mine.iter().fold(0, |m, &s| m | bit(s));
                    self.commit(&mut live, Edit::row(row)).await?
                }
                Answer::Accept => return Err(Refusal::Bad(msg!("api-takeback-none-to-accept"))),
                Answer::Decline => {
                    let Some(proposer) = pending else {
                        return Err(Refusal::Bad(msg!("api-takeback-none-to-decline")));
                    };
                    // Declined by another seat, or withdrawn by its proposer: by a seat of
                    // `mine` that is not the proposer's, if any.
                    let mut row = live.next_row();
                    row.takeback_declined =
                        Some(*mine.iter().find(|&&s| s != proposer).unwrap_or(&proposer));
                    self.commit(&mut live, Edit::row(row)).await?
                }
            };
            (live.state(), job)
        };
        self.start(slot, job);
        Ok(state)
    }

    /// The seat of `mine` whose move would be taken back (the last to have moved).
    async fn last_mover(&self, live: &Live, mine: &[u8]) -> Result<u8, Refusal> {
        live.record
            .history()
            .iter()
            .rev()
            .map(|m| m.player)
            .find(|p| mine.contains(p))
            .ok_or_else(|| Refusal::Bad(msg!("api-takeback-no-move")))
    }

    /// Takes back the last move of one of `seats`, with every move played after it (the
    /// replies), as stored; the clock keeps the time each seat has now.
    async fn take_back(
        self: &Arc<Self>,
        live: &mut Live,
        seats: &[u8],
    ) -> Result<Option<super::Job>, Refusal> {
        let id = live.row.id.clone();
        let Some((row, steps)) = self.store.load_game(&id).await? else {
            return Err(Refusal::NotFound(msg!(
                "api-no-game",
                id = format!("{id:?}")
            )));
        };
        if row.version != live.version {
            live.stale = true;
            let app = self.clone();
            tokio::spawn(async move { app.refresh(&id).await });
            return Err(Refusal::Conflict(msg!("api-changed-first")));
        }
        // Back over the others' moves to the last move of these seats; only moves go back.
        let mut keep = steps.len();
        loop {
            match steps[..keep].last() {
                Some(StepRow::Move { seat, .. }) => {
                    keep -= 1;
                    if seats.contains(seat) {
                        break;
                    }
                }
                _ => return Err(Refusal::Bad(msg!("api-takeback-no-move"))),
            }
        }
        let record = replay(&row, &steps[..keep]).map_err(Refusal::internal)?;
        let mut next = live.next_row();
        next.clock_base = live
            .clock
            .as_ref()
            .map(|clock| clock.taken_back(keep, live.seat_to_move(), now()));
        let edit = Edit {
            record: Some(record),
            truncate: Some(keep),
            ..Edit::row(next)
        };
        self.commit(live, edit).await
    }
}
