//! The games in play: each one's record (the rules library referees every move), its seats and
//! their tokens, and the watchers of its WebSocket. Loaded from the store on first use; every
//! change is stored before it is applied and acknowledged.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex as StdMutex};
use std::time::Duration;

use crate::accounts::AccountSettings;
use crate::clock::{Clock, ClockSpec};
use crate::engines::EnginePool;
use crate::i18n::Msg;
use crate::limits::{Limiter, RateLimits};
use myrmidon_rules::{registry, DynRecord, Outcome, Reason, Settings};
use serde_json::Value;
use tokio::sync::{broadcast, Mutex};

use crate::store::{Backend, GameRow, SeatAccount, StepRow, Store, StoreError};

mod change;
mod computer;
mod create;
mod draw;
mod finish;
mod gone;
mod join;
mod moves;
mod rematch;
mod seats;
mod seek;
mod takeback;
mod view;

use computer::{Job, TAKEOVER};
use seats::seat_tokens;

pub use change::SEEN_VERSION;
pub use rematch::Rematched;
pub use seats::{client_key, hash_token, new_id, new_token, Seat};

/// The highest computer level.
pub const LEVELS: u8 = 8;

/// What a request does to a proposal that the other people in the game answer (a takeback, a
/// rematch): makes it (`offer`, or `propose`), or answers another seat's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    Offer,
    Accept,
    Decline,
}

impl std::str::FromStr for Answer {
    type Err = Refusal;

    fn from_str(text: &str) -> Result<Self, Refusal> {
        match text {
            "offer" | "propose" => Ok(Answer::Offer),
            "accept" => Ok(Answer::Accept),
            "decline" => Ok(Answer::Decline),
            other => Err(Refusal::Bad(msg!(
                "api-bad-answer",
                action = format!("{other:?}")
            ))),
        }
    }
}

/// Why a request about a game was refused: the HTTP layer turns each into a status.
#[derive(Debug)]
pub enum Refusal {
    /// 400: what the client sent cannot be played.
    Bad(Msg),
    /// 401: the request needs an account's session.
    Unauthorized(Msg),
    /// 403: the token does not hold the seat.
    Forbidden(Msg),
    /// 404.
    NotFound(Msg),
    /// 409: another change came first.
    Conflict(Msg),
    /// 500: a stored game cannot be read back.
    Internal(Msg),
    /// 503: the database does not answer, or the engines are busy (nothing was changed).
    Unavailable(Msg),
    /// 429: the client has made too many games.
    TooMany(Msg),
}

impl Refusal {
    /// A 500 for what should not happen (a stored game that does not replay), with its detail.
    pub fn internal(detail: String) -> Refusal {
        Refusal::Internal(msg!("api-internal", detail = detail))
    }
}

impl From<StoreError> for Refusal {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::Conflict => Refusal::Conflict(msg!("api-stored-first")),
            StoreError::Database(e) => {
                tracing::error!("store: {e}");
                Refusal::Unavailable(msg!("api-database-down"))
            }
        }
    }
}

/// What a new game is made of (see `POST /api/games` in docs/api.md).
pub struct NewGame {
    /// The game kind's id.
    pub kind: String,
    /// Each seat's kind, as the API names them (`human`, `computer:5`, `online`, `open`).
    pub seats: Vec<String>,
    pub settings: Vec<(String, String)>,
    /// A position string to start from (then no settings).
    pub position: Option<String>,
    pub clock: Option<ClockSpec>,
    /// Listed in the lobby while it has open seats.
    pub public: bool,
    /// The client who asks, as [`client_key`] names it (`None` for the server's own games).
    pub creator: Option<String>,
    /// A rated game (docs/api.md, "Ratings").
    pub rated: bool,
    /// The account of the client who asks, if it is logged in: it holds the game's one
    /// `"online"` seat.
    pub account: Option<SeatAccount>,
}

/// A game in memory.
pub struct Live {
    pub row: GameRow,
    pub seats: Vec<Seat>,
    pub record: Box<dyn DynRecord>,
    /// The steps stored so far (the next step's place).
    pub steps: usize,
    /// The computer is choosing a move here.
    pub thinking: bool,
    /// The computer is to move and another server process thinks for it (it made the last
    /// change).
    pub elsewhere: bool,
    /// Counts every change (a takeback too), as the store does: a computer move chosen before
    /// a change is dropped, and the state's `version` is it.
    pub version: u64,
    /// Every change, as the state's JSON text, to the game's watchers.
    pub watchers: broadcast::Sender<Arc<str>>,
    /// The seat (of the computer) that declined the last offer, until the next change.
    pub draw_declined: Option<u8>,
    /// The game's clock, if it has one.
    pub clock: Option<Clock>,
    /// A change was refused because the database holds a newer version: the game is read
    /// again before it is next shown or judged.
    pub stale: bool,
    /// When each seat last made a step (its creation or its last move; milliseconds since the
    /// epoch): a player who left is judged by it too.
    pub moved_ms: Vec<i64>,
}

pub struct Slot {
    pub live: Mutex<Live>,
}

/// Everything the handlers share.
pub struct App {
    pub store: Store,
    games: StdMutex<HashMap<String, Arc<Slot>>>,
    /// Every search: the computer's moves and draw decisions, the analysis board.
    pub engines: EnginePool,
    /// How long the computer thinks for a move.
    pub think: Duration,
    /// Limits per client.
    pub limiter: Arc<Limiter>,
    /// Accounts: their settings, and the wrong passwords counted per account and client.
    pub accounts: crate::accounts::Accounts,
    /// Whether this process hears of every change other processes make (always with SQLite;
    /// with PostgreSQL while the listener is connected): when it is not, every command reads
    /// its game from the database first.
    pub synced: AtomicBool,
}

/// The clock of a stored game after these steps, if it has one: replayed from the times the
/// steps were stored (all at its creation for a game imported from a record).
fn clock_of(row: &GameRow, steps: &[StepRow]) -> Option<Clock> {
    let spec = row.clock?;
    let timed = timed_steps(row, steps);
    Some(match &row.clock_base {
        Some(base) if base.steps <= steps.len() => Clock::replay_from(spec, base, &timed),
        _ => Clock::replay(spec, row.seats.len(), row.created_ms, &timed),
    })
}

/// The steps with the times they were stored at.
fn timed_steps(row: &GameRow, steps: &[StepRow]) -> Vec<(StepRow, i64)> {
    steps
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let at = row.step_times.get(i).copied().unwrap_or(row.created_ms);
            (s.clone(), at)
        })
        .collect()
}

/// The seat that made `step` at `at_ms` was there then.
fn mark_moved(moved_ms: &mut [i64], step: &StepRow, at_ms: i64) {
    if let StepRow::Move { seat, .. } = step {
        if let Some(t) = moved_ms.get_mut(*seat as usize) {
            *t = (*t).max(at_ms);
        }
    }
}

/// The record a stored game replays to.
pub fn replay(row: &GameRow, steps: &[StepRow]) -> Result<Box<dyn DynRecord>, String> {
    let game = registry::find(&row.kind).map_err(|e| e.to_string())?;
    let mut record = match &row.start {
        Some(start) => game.new_game_at(start).map_err(|e| e.to_string())?,
        None => {
            let settings = Settings(row.settings.clone());
            game.new_game(&settings).map_err(|e| e.to_string())?
        }
    };
    for (i, step) in steps.iter().enumerate() {
        match step {
            StepRow::Move { text, .. } => {
                record
                    .play(text)
                    .map_err(|e| format!("stored step {i} ({text}): {e}"))?;
            }
            StepRow::Out { seat, reason } => {
                let reason = Reason::find(reason)
                    .ok_or_else(|| format!("stored step {i}: reason {reason:?}"))?;
                if !record.drop_out(*seat, reason) {
                    return Err(format!("stored step {i}: seat {seat} cannot leave"));
                }
            }
            StepRow::Declare { winner, reason } => {
                let reason = Reason::find(reason)
                    .ok_or_else(|| format!("stored step {i}: reason {reason:?}"))?;
                record.declare(match winner {
                    Some(winner) => Outcome::Win {
                        winner: *winner,
                        reason,
                    },
                    None => Outcome::Draw { reason },
                });
            }
        }
    }
    Ok(record)
}

impl Live {
    fn new(row: GameRow, record: Box<dyn DynRecord>, steps: &[StepRow]) -> Result<Live, String> {
        let clock = clock_of(&row, steps);
        let mut moved_ms = vec![row.created_ms; row.seats.len()];
        for (step, at) in timed_steps(&row, steps) {
            mark_moved(&mut moved_ms, &step, at);
        }
        let steps = steps.len();
        let seats = row
            .seats
            .iter()
            .map(|s| Seat::parse_stored(s))
            .collect::<Result<_, _>>()?;
        let (watchers, _) = broadcast::channel(64);
        Ok(Live {
            version: row.version,
            seats,
            record,
            steps,
            thinking: false,
            elsewhere: false,
            watchers,
            draw_declined: None,
            clock,
            row,
            stale: false,
            moved_ms,
        })
    }

    /// The seat to move, or `None` once the game is over.
    pub fn seat_to_move(&self) -> Option<u8> {
        if self.record.result().is_some() {
            None
        } else {
            Some(self.record.to_move())
        }
    }

    /// A step was stored at `at_ms`: the clock moves on.
    fn stored(&mut self, step: &StepRow, at_ms: i64) {
        mark_moved(&mut self.moved_ms, step, at_ms);
        if let Some(clock) = &mut self.clock {
            clock.step(step, at_ms);
        }
    }

    /// When the flag of the seat to move falls, if its clock runs.
    pub fn deadline(&self) -> Option<i64> {
        self.clock.as_ref()?.deadline(self.seat_to_move())
    }

    pub(crate) fn publish(&self) {
        let text = self.state_text();
        // No watcher is not an error.
        let _ = self.watchers.send(text);
    }
}

impl App {
    /// An app without limits per client (tests; see [`App::with_limits`]).
    pub fn new(store: Store, think: Duration, engines: usize) -> Arc<App> {
        App::with_limits(store, think, engines, RateLimits::off())
    }

    pub fn with_limits(
        store: Store,
        think: Duration,
        engines: usize,
        limits: RateLimits,
    ) -> Arc<App> {
        App::with_accounts(store, think, engines, limits, AccountSettings::default())
    }

    /// An app with these limits and accounts' settings.
    pub fn with_accounts(
        store: Store,
        think: Duration,
        engines: usize,
        limits: RateLimits,
        accounts: AccountSettings,
    ) -> Arc<App> {
        let backend = store.backend();
        Arc::new(App {
            store,
            games: StdMutex::new(HashMap::new()),
            engines: EnginePool::new(engines),
            think,
            limiter: Limiter::new(limits),
            accounts: crate::accounts::Accounts::new(accounts),
            synced: AtomicBool::new(backend == Backend::Sqlite),
        })
    }

    /// The game with this id, loaded from the store if it is not in memory.
    pub async fn game(self: &Arc<Self>, id: &str) -> Result<Arc<Slot>, Refusal> {
        let cached = self.games.lock().expect("games lock").get(id).cloned();
        if let Some(slot) = cached {
            if slot.live.lock().await.stale {
                // A conflict found the memory behind: read the database's game (a database
                // away leaves it marked, to be read at the next request).
                if let Err(e) = self.reload(&slot, id).await {
                    tracing::warn!("game {id}: reading it again: {e:?}");
                }
            }
            return Ok(slot);
        }
        if id.is_empty() || id.len() > 64 || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(Refusal::NotFound(msg!(
                "api-no-game",
                id = format!("{id:?}")
            )));
        }
        let Some((row, steps)) = self.store.load_game(id).await? else {
            return Err(Refusal::NotFound(msg!(
                "api-no-game",
                id = format!("{id:?}")
            )));
        };
        let record = replay(&row, &steps).map_err(|e| {
            tracing::error!("game {id}: {e}");
            Refusal::Internal(msg!("api-cannot-replay", id = id))
        })?;
        let live = Live::new(row, record, &steps).map_err(Refusal::internal)?;
        let slot = Arc::new(Slot {
            live: Mutex::new(live),
        });
        let (slot, new) = {
            let mut games = self.games.lock().expect("games lock");
            match games.get(id) {
                Some(slot) => (slot.clone(), false),
                None => {
                    games.insert(id.to_string(), slot.clone());
                    (slot, true)
                }
            }
        };
        if new {
            // A computer move another process owed this game may be overdue.
            self.watch_overdue(&slot).await;
        }
        Ok(slot)
    }

    /// Reads a game in memory again from the store, after another writer (another server
    /// process on the database, or a race this one lost) changed it: the players and
    /// spectators watching it here get the new state. Nothing happens when the stored game is
    /// the one in memory, or when the game is not in memory; a database away is only logged
    /// (the listener reads every game again once it is back).
    pub async fn refresh(self: &Arc<Self>, id: &str) {
        let Some(slot) = self.games.lock().expect("games lock").get(id).cloned() else {
            return;
        };
        if let Err(e) = self.reload(&slot, id).await {
            tracing::warn!("game {id}: reading it again: {e:?}");
        }
    }

    /// Reads every game in memory again (after the notifications of other processes may have
    /// been missed: the database connection was lost).
    pub async fn refresh_all(self: &Arc<Self>) {
        let ids: Vec<String> = self
            .games
            .lock()
            .expect("games lock")
            .keys()
            .cloned()
            .collect();
        for id in ids {
            self.refresh(&id).await;
        }
    }

    /// A new game into memory; the computer starts thinking if it moves first.
    async fn install(
        self: &Arc<Self>,
        id: String,
        mut live: Live,
        tokens: Vec<Option<String>>,
    ) -> (String, Vec<Option<String>>, Value) {
        let job = live.claim();
        let state = live.state();
        let slot = Arc::new(Slot {
            live: Mutex::new(live),
        });
        self.games
            .lock()
            .expect("games lock")
            .insert(id.clone(), slot.clone());
        self.start(slot, job);
        (id, tokens, state)
    }
}
