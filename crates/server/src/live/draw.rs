//! Draw offers and their answers; the computer's answer.

use std::sync::Arc;
use std::time::Duration;

use myrmidon_engine::{new_searcher, Control, Limits, Options, PlayerSpec, Score};
use myrmidon_rules::{DynRecord, Outcome, Reason};
use serde_json::Value;

use crate::engines::{PoolError, Work};
use crate::i18n::Arg;
use crate::store::StepRow;

use super::change::Edit;
use super::{App, Refusal, Seat};

impl App {
    /// A draw offer, or the answer to one (two-player games). Against the computer an offer is
    /// answered at once: accepted when the computer does not think itself better.
    pub async fn draw(
        self: &Arc<Self>,
        id: &str,
        seat: u8,
        token: Option<&str>,
        action: &str,
    ) -> Result<Value, Refusal> {
        let slot = self.current(id).await?;
        let mut live = slot.live.lock().await;
        let players = live.record.player_names();
        if players.len() != 2 {
            return Err(Refusal::Bad(msg!(
                "api-draw-two-players",
                game = Arg::Game(live.record.info().id),
                players = players.len()
            )));
        }
        live.acting_seat(seat, token, "draw")?;
        let other = 1 - seat;
        let accept = match action {
            "offer" if live.row.draw_offer == Some(other) => true,
            "offer" => {
                if live.row.draw_offer == Some(seat) {
                    return Err(Refusal::Bad(msg!("api-draw-pending")));
                }
                if let Seat::Computer(_) = live.seats[other as usize] {
                    let record = live.record.clone_box();
                    let version = live.version;
                    drop(live);
                    let better = if record.history().len() < DRAW_MIN_PLIES {
                        true
                    } else {
                        // A short search in the engine pool: refused when it is full.
                        let thinks = self
                            .engines
                            .run(Work::Draw, move || computer_thinks_better(&*record, other));
                        match thinks.await {
                            Ok(better) => better,
                            Err(PoolError::Busy(e)) => {
                                return Err(Refusal::Unavailable(msg!(
                                    "api-draw-computer-busy",
                                    detail = e
                                )))
                            }
                            Err(PoolError::Failed(e)) => {
                                tracing::error!("game {id}: draw decision: {e}");
                                true
                            }
                        }
                    };
                    live = slot.live.lock().await;
                    if live.version != version || live.record.result().is_some() {
                        return Err(Refusal::Conflict(msg!("api-draw-changed")));
                    }
                    if better {
                        live.draw_declined = Some(other);
                        live.publish();
                        return Ok(live.state());
                    }
                    true
                } else {
                    let mut row = live.next_row();
                    row.draw_offer = Some(seat);
                    self.commit(&mut live, Edit::row(row)).await?;
                    return Ok(live.state());
                }
            }
            "accept" | "decline" => {
                if live.row.draw_offer != Some(other) {
                    return Err(Refusal::Bad(msg!(
                        "api-draw-no-offer",
                        seat = live.seat_player(other)?,
                        action = action
                    )));
                }
                action == "accept"
            }
            other => {
                return Err(Refusal::Bad(msg!(
                    "api-bad-draw-action",
                    action = format!("{other:?}")
                )))
            }
        };
        if !accept {
            let row = live.next_row();
            self.commit(&mut live, Edit::row(row)).await?;
            return Ok(live.state());
        }
        let mut record = live.record.clone_box();
        record.declare(Outcome::Draw {
            reason: Reason::AGREEMENT,
        });
        let step = StepRow::Declare {
            winner: None,
            reason: Reason::AGREEMENT.id.to_string(),
        };
        let job = self.store_off_board(&mut live, record, step).await?;
        let state = live.state();
        drop(live);
        self.start(slot, job);
        Ok(state)
    }
}

/// Plies a game must have before the computer accepts a draw: an offer in the opening is
/// declined, as people expect a game first.
const DRAW_MIN_PLIES: usize = 20;
/// Whether the computer (`seat`) thinks it stands better than a draw: a short search, from its
/// own view (off the async runtime, in the engine pool); in the opening it always does.
fn computer_thinks_better(record: &dyn DynRecord, seat: u8) -> bool {
    if record.history().len() < DRAW_MIN_PLIES {
        return true;
    }
    let spec = PlayerSpec::Level { level: 8 };
    let options = Options {
        hash_mb: Work::Draw.hash_mb(),
        ..Options::default()
    };
    let Ok(mut searcher) = new_searcher(record.info().id, &spec, &options) else {
        return true;
    };
    let limits = Limits::movetime(Duration::from_millis(200));
    let control = Control::new(&limits, record.to_move());
    let mut score = None;
    let _ = searcher.search(record, &limits, &control, &mut |r| {
        if r.multipv <= 1 {
            score = Some(r.score);
        }
    });
    let mine = |s: i32| if record.to_move() == seat { s } else { -s };
    match score {
        Some(Score::Cp(cp)) => mine(cp) > 0,
        Some(Score::Mate(n)) => mine(n) > 0,
        None => true,
    }
}
