//! The games in play: each one's record (the rules library referees every move), its seats and
//! their tokens, and the watchers of its WebSocket. Loaded from the store on first use; every
//! change is stored before it is applied and acknowledged.

use std::collections::HashMap;
use std::sync::{Arc, Mutex as StdMutex};
use std::time::Duration;

use crate::clock::{Clock, ClockSpec};
use crate::limits::{Limiter, RateLimits};
use crate::store::now;
use myrmidon_engine::{new_searcher, Control, Limits, Options, PlayerSpec, Score};
use myrmidon_rules::dynamic::Step;
use myrmidon_rules::{
    pgn, registry, DynRecord, GameResult, MoveDesc, Outcome, PieceView, Reason, Settings,
};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use tokio::sync::{broadcast, Mutex, Semaphore};

use crate::store::{GameRow, StepRow, Store, StoreError};

/// The highest computer level.
pub const LEVELS: u8 = 8;

/// What a seat is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    /// A person at this screen (every seat "human": one shared token).
    Human,
    /// A person elsewhere, with a token of their own (an invitation link, or a seat joined).
    Online,
    /// Waiting for someone to join (no token yet).
    Open,
    Computer(u8),
}

impl Seat {
    pub fn parse(text: &str) -> Result<Seat, String> {
        match text {
            "human" => return Ok(Seat::Human),
            "online" => return Ok(Seat::Online),
            "open" => return Ok(Seat::Open),
            _ => {}
        }
        if let Some(level) = text.strip_prefix("computer:") {
            if let Ok(level) = level.parse::<u8>() {
                if (1..=LEVELS).contains(&level) {
                    return Ok(Seat::Computer(level));
                }
            }
            return Err(format!(
                "seat {text:?}: the computer's level must be a number from 1 to {LEVELS}"
            ));
        }
        Err(format!(
            "seat {text:?}: expected \"human\", \"online\", \"open\" or \"computer:<level>\" \
             (level 1 to {LEVELS})"
        ))
    }
}

/// Why a request about a game was refused: the HTTP layer turns each into a status.
#[derive(Debug)]
pub enum Refusal {
    /// 400: what the client sent cannot be played.
    Bad(String),
    /// 403: the token does not hold the seat.
    Forbidden(String),
    /// 404.
    NotFound(String),
    /// 409: another change came first.
    Conflict(String),
    /// 500: a stored game cannot be read back.
    Internal(String),
    /// 503: the database does not answer (nothing was changed).
    Unavailable(String),
    /// 429: the client has made too many games.
    TooMany(String),
}

impl From<StoreError> for Refusal {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::Conflict => {
                Refusal::Conflict("another move was stored first: read the state again".into())
            }
            StoreError::Database(e) => {
                tracing::error!("store: {e}");
                Refusal::Unavailable(
                    "the database is not answering: nothing was changed, try again".into(),
                )
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
}

/// A game in memory.
pub struct Live {
    pub row: GameRow,
    pub seats: Vec<Seat>,
    pub record: Box<dyn DynRecord>,
    /// The steps stored so far (the next step's place).
    pub steps: usize,
    /// The computer is choosing a move.
    pub thinking: bool,
    /// Counts every change (a takeback too), as the store does: a computer move chosen before
    /// a change is dropped, and the state's `version` is it.
    pub version: u64,
    /// Every change, as the state's JSON text, to the game's watchers.
    pub watchers: broadcast::Sender<Arc<str>>,
    /// A pending draw offer, by this seat (stored, so that every server process sees it). Any
    /// change of the game withdraws it.
    pub draw_offer: Option<u8>,
    /// The seat (of the computer) that declined the last offer, until the next change.
    pub draw_declined: Option<u8>,
    /// The game a rematch of this one created.
    pub rematch: Option<String>,
    /// The game's clock, if it has one.
    pub clock: Option<Clock>,
}

pub struct Slot {
    pub live: Mutex<Live>,
}

/// Everything the handlers share.
pub struct App {
    pub store: Store,
    games: StdMutex<HashMap<String, Arc<Slot>>>,
    /// Computer moves running at once, at most.
    engines: Arc<Semaphore>,
    /// Analyses (the analysis board) running at once, at most: a pool of their own.
    pub analyses: Arc<Semaphore>,
    /// How long the computer thinks for a move.
    pub think: Duration,
    /// Limits per client.
    pub limiter: Arc<Limiter>,
}

/// How long past three times its thinking time a computer move made by another server
/// process may take before this one makes it instead (the other may have stopped).
const TAKEOVER: Duration = Duration::from_secs(5);

/// How a client is named in the store: the SHA-256 (hex) of its address.
pub fn client_key(ip: std::net::IpAddr) -> String {
    hash_token(&format!("client {ip}"))
}

/// A fresh secret: 128 random bits in hex.
pub fn new_token() -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the system's random source");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A fresh game id: 10 letters and digits.
pub fn new_id() -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
    let mut bytes = [0u8; 10];
    getrandom::fill(&mut bytes).expect("the system's random source");
    bytes
        .iter()
        .map(|b| ALPHABET[*b as usize % ALPHABET.len()] as char)
        .collect()
}

pub fn hash_token(token: &str) -> String {
    Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Equal strings, in a time that does not depend on where they differ.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// Reads the seats of a new game and makes their tokens: one per human seat, or one shared
/// token when every seat is human (one screen).
fn seat_tokens(
    players: usize,
    kind: &str,
    seats: &[String],
) -> Result<Vec<Option<String>>, Refusal> {
    if seats.len() != players {
        return Err(Refusal::Bad(format!(
            "seats: {kind} has {players} players, {} seats were given",
            seats.len()
        )));
    }
    let parsed: Vec<Seat> = seats
        .iter()
        .map(|s| Seat::parse(s))
        .collect::<Result<_, _>>()
        .map_err(Refusal::Bad)?;
    let humans = parsed.iter().filter(|s| **s == Seat::Human).count();
    let shared = (humans == parsed.len()).then(new_token);
    let tokens = parsed
        .iter()
        .map(|s| match s {
            Seat::Human => Some(shared.clone().unwrap_or_else(new_token)),
            Seat::Online => Some(new_token()),
            Seat::Open | Seat::Computer(_) => None,
        })
        .collect();
    Ok(tokens)
}

/// The clock of a stored game after these steps, if it has one: replayed from the times the
/// steps were stored (all at its creation for a game imported from a record).
fn clock_of(row: &GameRow, steps: &[StepRow]) -> Option<Clock> {
    let spec = row.clock?;
    let timed: Vec<(StepRow, i64)> = steps
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let at = row.step_times.get(i).copied().unwrap_or(row.created_ms);
            (s.clone(), at)
        })
        .collect();
    Some(Clock::replay(spec, row.seats.len(), row.created_ms, &timed))
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
        let steps = steps.len();
        let seats = row
            .seats
            .iter()
            .map(|s| Seat::parse(s))
            .collect::<Result<_, _>>()?;
        let (watchers, _) = broadcast::channel(64);
        Ok(Live {
            version: row.version,
            seats,
            record,
            steps,
            thinking: false,
            watchers,
            draw_offer: row.draw_offer,
            draw_declined: None,
            rematch: row.rematch.clone(),
            clock,
            row,
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

    /// Whether `token` holds `seat`.
    pub fn holds(&self, token: Option<&str>, seat: u8) -> bool {
        let Some(token) = token else { return false };
        match self.row.token_hashes.get(seat as usize) {
            Some(Some(hash)) => same(&hash_token(token), hash),
            _ => false,
        }
    }

    /// The game's state as the API gives it.
    pub fn state(&self) -> Value {
        let mut state = state_of(&self.row, &*self.record, self.version, self.thinking);
        state["draw_offer"] = json!(self.draw_offer);
        state["draw_declined"] = json!(self.draw_declined);
        state["rematch"] = json!(self.rematch);
        state["open_seats"] = json!(self.open_seats());
        state["public"] = json!(self.row.public);
        state["clock"] = match &self.clock {
            Some(clock) => clock.json(self.seat_to_move(), now()),
            None => Value::Null,
        };
        state
    }

    /// Checks that `token` may act (`what`: resign, draw) for `seat` of a game going on, and
    /// gives the seat's name.
    fn acting_seat(
        &self,
        seat: u8,
        token: Option<&str>,
        what: &str,
    ) -> Result<&'static str, Refusal> {
        let players = self.record.player_names();
        let Some(&name) = players.get(seat as usize) else {
            return Err(Refusal::Bad(format!(
                "seat {seat}: the game has seats 0 to {}",
                players.len() - 1
            )));
        };
        if self.record.result().is_some() {
            return Err(Refusal::Bad(format!("{what}: the game is over")));
        }
        if !self.holds(token, seat) {
            return Err(Refusal::Forbidden(format!(
                "this token does not hold seat {seat} ({name})"
            )));
        }
        Ok(name)
    }

    /// The seats nobody holds yet.
    pub fn open_seats(&self) -> Vec<u8> {
        (0..self.seats.len() as u8)
            .filter(|&s| self.seats[s as usize] == Seat::Open)
            .collect()
    }

    /// A step was stored at `at_ms`: the clock moves on.
    fn stored(&mut self, step: &StepRow, at_ms: i64) {
        if let Some(clock) = &mut self.clock {
            clock.step(step, at_ms);
        }
    }

    /// When the flag of the seat to move falls, if its clock runs.
    pub fn deadline(&self) -> Option<i64> {
        self.clock.as_ref()?.deadline(self.seat_to_move())
    }

    /// The state at an earlier ply (`at` moves played), read only.
    pub fn state_at(&self, at: usize) -> Result<Value, Refusal> {
        let played = self.record.history().len();
        if at > played {
            return Err(Refusal::Bad(format!(
                "at={at}: the game has {played} moves so far"
            )));
        }
        let mut record = self.record.clone_box();
        while record.history().len() > at {
            if !record.undo() {
                break;
            }
        }
        let mut state = state_of(&self.row, &*record, self.version, false);
        state["at"] = json!(at);
        Ok(state)
    }

    /// Marks the game as thinking and returns what the computer needs, if a computer seat is
    /// to move and no move of its is under way (the caller tells the watchers).
    fn claim(&mut self) -> Option<Job> {
        let seat = self.seat_to_move()?;
        let Seat::Computer(level) = self.seats[seat as usize] else {
            return None;
        };
        if self.thinking {
            return None;
        }
        self.thinking = true;
        // With a clock: a share of the time left, and most of the increment.
        let budget = self.clock.as_ref().map(|c| {
            let left = c.left(seat, Some(seat), now()).max(0) as u64;
            Duration::from_millis((left / 30 + c.spec.increment_ms * 3 / 4).max(10))
        });
        Some(Job {
            record: self.record.clone_box(),
            level,
            version: self.version,
            seat,
            budget,
        })
    }

    /// After a change: counts it, starts the computer's move if it is its turn (returned, to
    /// run once the lock is let go) and tells the watchers.
    #[must_use]
    fn changed(&mut self) -> Option<Job> {
        self.version += 1;
        self.draw_offer = None;
        self.draw_declined = None;
        let job = self.claim();
        self.publish();
        job
    }

    pub(crate) fn publish(&self) {
        let text: Arc<str> = self.state().to_string().into();
        // No watcher is not an error.
        let _ = self.watchers.send(text);
    }
}

fn cells_json(from: Option<u16>, to: Option<u16>, captures: &[u16]) -> Value {
    json!({"from": from, "to": to, "captures": captures})
}

/// The pieces of a position, one entry per cell: `null` or `{"owner", "kind"}`.
pub fn board_of(record: &dyn DynRecord) -> Vec<Value> {
    (0..record.info().geometry.cell_count())
        .map(|c| match record.piece_at(c as u16) {
            Some(p) => json!({"owner": p.owner, "kind": p.kind.to_string()}),
            None => Value::Null,
        })
        .collect()
}

/// Legal moves with the cells they touch.
pub fn legal_json(legal: &[MoveDesc]) -> Vec<Value> {
    legal
        .iter()
        .map(|m| {
            let mut v = cells_json(m.cells.from, m.cells.to, &m.cells.captures);
            v["text"] = json!(m.text);
            v
        })
        .collect()
}

/// For each seat, the kinds of its pieces on the board at the start and not now (a rough view
/// of the material: a promoted pawn shows as lost, a Worker back through the Ponte as not).
pub fn captured(record: &dyn DynRecord) -> Vec<Vec<String>> {
    let info = record.info();
    let players = record.player_names().len();
    let mut out = vec![Vec::new(); players];
    let Ok(start) = registry::find(info.id)
        .map_err(|e| e.to_string())
        .and_then(|g| {
            g.new_game_at(&record.start_string())
                .map_err(|e| e.to_string())
        })
    else {
        return out;
    };
    let count = |r: &dyn DynRecord, owner: u8, kind: char| {
        (0..info.geometry.cell_count())
            .filter(|&c| r.piece_at(c as u16) == Some(PieceView { owner, kind }))
            .count()
    };
    for (owner, lost) in out.iter_mut().enumerate() {
        for kind in info.pieces {
            let gone = count(&*start, owner as u8, kind.letter).saturating_sub(count(
                record,
                owner as u8,
                kind.letter,
            ));
            lost.extend(std::iter::repeat_n(kind.letter.to_string(), gone));
        }
    }
    out
}

/// How a game ended, for people and programs.
pub fn outcome_json(result: &GameResult, players: &[&str]) -> Value {
    json!({
        "winner": result.outcome.winner(),
        "reason": result.outcome.reason().id,
        "text": result.describe(players),
    })
}

pub fn state_of(row: &GameRow, record: &dyn DynRecord, version: u64, thinking: bool) -> Value {
    let info = record.info();
    let players = record.player_names();
    let result = record.result();
    let over = result.is_some();
    let history = record.history();
    let legal = if over {
        Vec::new()
    } else {
        record.legal_moves()
    };
    let board = board_of(record);
    let captured = captured(record);
    let outcome = result.as_ref().map(|r| outcome_json(r, players));
    let settings: serde_json::Map<String, Value> = row
        .settings
        .iter()
        .map(|(k, v)| (k.clone(), Value::String(v.clone())))
        .collect();
    json!({
        "id": row.id,
        "game": info.id,
        "players": players,
        "seats": row.seats,
        "settings": settings,
        "start": record.start_string(),
        "first_move_number": myrmidon_rules::pgn::first_move_number(record),
        "position": record.position_string(),
        "moves": history.iter().map(|m| m.text.clone()).collect::<Vec<_>>(),
        "history": history.iter().map(|m| {
            let mut v = cells_json(m.cells.from, m.cells.to, &m.cells.captures);
            v["player"] = json!(m.player);
            v["text"] = json!(m.text);
            v
        }).collect::<Vec<_>>(),
        "legal": legal.iter().map(|m| m.text.clone()).collect::<Vec<_>>(),
        "legal_cells": legal_json(&legal),
        "to_move": if over { None } else { Some(record.to_move()) },
        "board": board,
        "captured": captured,
        "check": !over && record.in_check(),
        "info": record.info_lines(),
        "eliminated": record.eliminations().iter().map(|e| json!({
            "seat": e.player,
            "reason": e.reason.id,
            "text": e.describe(players),
        })).collect::<Vec<_>>(),
        "outcome": outcome,
        "thinking": thinking,
        "version": version,
    })
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
        Arc::new(App {
            store,
            games: StdMutex::new(HashMap::new()),
            engines: Arc::new(Semaphore::new(engines.max(1))),
            analyses: Arc::new(Semaphore::new(engines.max(1))),
            think,
            limiter: Limiter::new(limits),
        })
    }

    /// The game with this id, loaded from the store if it is not in memory.
    pub async fn game(&self, id: &str) -> Result<Arc<Slot>, Refusal> {
        if let Some(slot) = self.games.lock().expect("games lock").get(id) {
            return Ok(slot.clone());
        }
        if id.is_empty() || id.len() > 64 || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(Refusal::NotFound(format!("no game {id:?}")));
        }
        let Some((row, steps)) = self.store.load_game(id).await? else {
            return Err(Refusal::NotFound(format!("no game {id:?}")));
        };
        let record = replay(&row, &steps).map_err(|e| {
            tracing::error!("game {id}: {e}");
            Refusal::Internal(format!("game {id} cannot be replayed"))
        })?;
        let live = Live::new(row, record, &steps).map_err(Refusal::Internal)?;
        let slot = Arc::new(Slot {
            live: Mutex::new(live),
        });
        let mut games = self.games.lock().expect("games lock");
        Ok(games.entry(id.to_string()).or_insert(slot).clone())
    }

    /// Reads a game in memory again from the store, after another writer (another server
    /// process on the database, or a race this one lost) changed it: the players and
    /// spectators watching it here get the new state. Nothing happens when the stored game is
    /// the one in memory, or when the game is not in memory.
    pub async fn refresh(self: &Arc<Self>, id: &str) {
        let Some(slot) = self.games.lock().expect("games lock").get(id).cloned() else {
            return;
        };
        let loaded = match self.store.load_game(id).await {
            Ok(Some(loaded)) => loaded,
            Ok(None) => return,
            Err(e) => {
                // The database is away: the listener reads every game again once it is back.
                tracing::warn!("game {id}: reading it again: {e}");
                return;
            }
        };
        let (row, steps) = loaded;
        let mut live = slot.live.lock().await;
        if row.version == live.version
            && row.seats == live.row.seats
            && row.draw_offer == live.draw_offer
            && row.rematch == live.rematch
        {
            return;
        }
        if row.version < live.version {
            // Read before a change this process has made since.
            return;
        }
        let fresh = match replay(&row, &steps).and_then(|record| Live::new(row, record, &steps)) {
            Ok(fresh) => fresh,
            Err(e) => {
                tracing::error!("game {id} cannot be replayed: {e}");
                return;
            }
        };
        let moved = fresh.version != live.version;
        live.row = fresh.row;
        live.seats = fresh.seats;
        live.record = fresh.record;
        live.steps = fresh.steps;
        live.clock = fresh.clock;
        live.draw_offer = fresh.draw_offer;
        live.rematch = fresh.rematch;
        let mut watch = None;
        if moved {
            // A computer move under way here was chosen for the position before: it will be
            // dropped (its version is old).
            live.version = fresh.version;
            live.draw_declined = None;
            // When a computer seat is to move, the process that made the change thinks for
            // it; should that process be gone, this one takes over after a while.
            live.thinking = live
                .seat_to_move()
                .is_some_and(|s| matches!(live.seats[s as usize], Seat::Computer(_)));
            if live.thinking {
                watch = Some(live.version);
            }
        }
        live.publish();
        drop(live);
        self.arm(&slot);
        if let Some(version) = watch {
            let app = self.clone();
            tokio::spawn(async move {
                tokio::time::sleep(app.think * 3 + TAKEOVER).await;
                let job = {
                    let mut live = slot.live.lock().await;
                    if live.version != version {
                        return;
                    }
                    live.thinking = false;
                    let job = live.claim();
                    live.publish();
                    job
                };
                app.start(slot, job);
            });
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

    /// Refuses a new game to a client (`creator`, as [`client_key`] makes it) that already
    /// has its limit of unfinished games made in the last 24 hours.
    pub async fn may_create(&self, creator: &str) -> Result<(), Refusal> {
        let limit = self.limiter.limits.open_games;
        if limit == u32::MAX {
            return Ok(());
        }
        let open = self
            .store
            .open_games_by(creator, now() - 24 * 3600 * 1000)
            .await?;
        if open >= limit as u64 {
            return Err(Refusal::TooMany(format!(
                "this client has {open} unfinished games made in the last 24 hours, the most \
                 it may have: finish or resign some first"
            )));
        }
        Ok(())
    }

    /// Creates a game; its tokens (one per human seat; one shared token when every seat is
    /// human) and its state.
    pub async fn create(
        self: &Arc<Self>,
        new: NewGame,
    ) -> Result<(String, Vec<Option<String>>, Value), Refusal> {
        let NewGame {
            kind,
            seats,
            settings,
            position,
            clock,
            public,
            creator,
        } = new;
        let (kind, seats) = (kind.as_str(), seats.as_slice());
        let game = registry::find(kind).map_err(|e| Refusal::NotFound(e.to_string()))?;
        let info = game.info();
        let tokens = seat_tokens(info.players.len(), info.id, seats)?;
        if position.is_some() && !settings.is_empty() {
            return Err(Refusal::Bad(
                "settings and position: a position string fixes the settings, give one or the \
                 other"
                    .into(),
            ));
        }
        let record = match &position {
            Some(p) => game
                .new_game_at(p)
                .map_err(|e| Refusal::Bad(format!("position: {e}")))?,
            None => game
                .new_game(&Settings(settings.clone()))
                .map_err(|e| Refusal::Bad(format!("settings: {e}")))?,
        };
        let row = GameRow {
            id: new_id(),
            kind: info.id.to_string(),
            settings: if position.is_some() {
                record.settings().0
            } else {
                settings
            },
            start: position,
            version: 0,
            seats: seats.to_vec(),
            token_hashes: tokens
                .iter()
                .map(|t| t.as_deref().map(hash_token))
                .collect(),
            clock,
            created_ms: now(),
            step_times: Vec::new(),
            draw_offer: None,
            rematch: None,
            public,
            creator,
        };
        self.store.create_game(&row).await?;
        let id = row.id.clone();
        let live = Live::new(row, record, &[]).map_err(Refusal::Internal)?;
        Ok(self.install(id, live, tokens).await)
    }

    /// Plays a human's move: the token must hold the seat to move.
    pub async fn play(
        self: &Arc<Self>,
        id: &str,
        text: &str,
        token: Option<&str>,
    ) -> Result<Value, Refusal> {
        let slot = self.game(id).await?;
        let (state, job) = {
            let mut live = slot.live.lock().await;
            let Some(seat) = live.seat_to_move() else {
                return Err(Refusal::Bad(format!(
                    "move {text:?}: the game is over ({})",
                    live.record
                        .result()
                        .map(|r| r.describe(live.record.player_names()))
                        .unwrap_or_default()
                )));
            };
            let name = live.record.player_names()[seat as usize];
            match live.seats[seat as usize] {
                Seat::Computer(_) => {
                    return Err(Refusal::Forbidden(format!(
                        "it is the computer's turn ({name}), not a human seat's"
                    )))
                }
                Seat::Open => {
                    return Err(Refusal::Forbidden(format!(
                        "{name}'s seat is open: nobody has joined it yet"
                    )))
                }
                Seat::Human | Seat::Online => {}
            }
            if !live.holds(token, seat) {
                return Err(Refusal::Forbidden(format!(
                    "this token does not hold the seat to move ({name})"
                )));
            }
            if live.deadline().is_some_and(|d| d <= now()) {
                drop(live);
                self.flag(&slot, None).await;
                return Err(Refusal::Conflict(format!(
                    "move {text:?}: {name}'s time ran out"
                )));
            }
            let played = live
                .record
                .play(text)
                .map_err(|e| Refusal::Bad(format!("move {text:?}: {e}")))?;
            let seq = live.steps;
            let finished = live.record.result().is_some();
            let step = StepRow::Move {
                seat,
                text: played.text,
            };
            let at = match self.store.append_step(id, seq, &step, finished).await {
                Ok(at) => at,
                Err(e) => {
                    live.record.undo();
                    if matches!(e, StoreError::Conflict) {
                        // Another process stored a step first: read the game again.
                        drop(live);
                        self.refresh(id).await;
                    }
                    return Err(e.into());
                }
            };
            live.stored(&step, at);
            live.steps += 1;
            let job = live.changed();
            (live.state(), job)
        };
        self.start(slot, job);
        Ok(state)
    }

    /// A seat resigns: with two players the other wins; with three it drops out.
    pub async fn resign(
        self: &Arc<Self>,
        id: &str,
        seat: u8,
        token: Option<&str>,
    ) -> Result<Value, Refusal> {
        let slot = self.game(id).await?;
        let (state, job) = {
            let mut live = slot.live.lock().await;
            let name = live.acting_seat(seat, token, "resign")?;
            let mut record = live.record.clone_box();
            if !record.drop_out(seat, Reason::RESIGNATION) {
                return Err(Refusal::Bad(format!(
                    "seat {seat} ({name}) is already out of the game"
                )));
            }
            let step = StepRow::Out {
                seat,
                reason: Reason::RESIGNATION.id.to_string(),
            };
            let job = self.store_off_board(&mut live, record, step).await?;
            (live.state(), job)
        };
        self.start(slot, job);
        Ok(state)
    }

    /// Takes back the last move of a seat that `token` holds, with the moves played after it
    /// (the computer's replies): against the computer, the player's last move and the reply;
    /// on one screen, the last move.
    pub async fn takeback(
        self: &Arc<Self>,
        id: &str,
        token: Option<&str>,
    ) -> Result<Value, Refusal> {
        let slot = self.game(id).await?;
        let (state, job) = {
            let mut live = slot.live.lock().await;
            let mine: Vec<u8> = (0..live.seats.len() as u8)
                .filter(|&s| live.holds(token, s))
                .collect();
            if mine.is_empty() {
                return Err(Refusal::Forbidden(
                    "takeback: this token holds no seat of the game".into(),
                ));
            }
            let Some((row, steps)) = self.store.load_game(id).await? else {
                return Err(Refusal::NotFound(format!("no game {id:?}")));
            };
            // Back over the others' moves to this token's last move; only moves go back.
            let mut keep = steps.len();
            loop {
                match steps[..keep].last() {
                    Some(StepRow::Move { seat, .. }) => {
                        keep -= 1;
                        if mine.contains(seat) {
                            break;
                        }
                    }
                    _ => {
                        return Err(Refusal::Bad(
                            "takeback: no move of yours to take back".into(),
                        ))
                    }
                }
            }
            let record = replay(&row, &steps[..keep]).map_err(Refusal::Internal)?;
            self.store.truncate(id, keep).await?;
            live.record = record;
            live.steps = keep;
            live.clock = clock_of(&row, &steps[..keep]).map(|mut clock| {
                clock.restart_turn(now());
                clock
            });
            let job = live.changed();
            (live.state(), job)
        };
        self.start(slot, job);
        Ok(state)
    }

    /// Stores a step that is not a move on the board (a seat out, a result declared), which
    /// made `record` from the game's, and makes it the game's: the new state is published and
    /// the computer's move returned if it is its turn.
    async fn store_off_board(
        &self,
        live: &mut Live,
        record: Box<dyn DynRecord>,
        step: StepRow,
    ) -> Result<Option<Job>, StoreError> {
        let finished = record.result().is_some();
        let at = self
            .store
            .append_step(&live.row.id, live.steps, &step, finished)
            .await?;
        live.stored(&step, at);
        live.record = record;
        live.steps += 1;
        Ok(live.changed())
    }

    /// A draw offer, or the answer to one (two-player games). Against the computer an offer is
    /// answered at once: accepted when the computer does not think itself better.
    pub async fn draw(
        self: &Arc<Self>,
        id: &str,
        seat: u8,
        token: Option<&str>,
        action: &str,
    ) -> Result<Value, Refusal> {
        let slot = self.game(id).await?;
        let mut live = slot.live.lock().await;
        let players = live.record.player_names();
        if players.len() != 2 {
            return Err(Refusal::Bad(format!(
                "draw: only in two-player games ({} has {})",
                live.record.info().id,
                players.len()
            )));
        }
        live.acting_seat(seat, token, "draw")?;
        let other = 1 - seat;
        let accept = match action {
            "offer" if live.draw_offer == Some(other) => true,
            "offer" => {
                if live.draw_offer == Some(seat) {
                    return Err(Refusal::Bad(
                        "draw: this seat's offer is already pending".into(),
                    ));
                }
                if let Seat::Computer(_) = live.seats[other as usize] {
                    let record = live.record.clone_box();
                    let version = live.version;
                    drop(live);
                    let better = tokio::task::spawn_blocking(move || {
                        computer_thinks_better(&*record, other)
                    })
                    .await
                    .unwrap_or(true);
                    live = slot.live.lock().await;
                    if live.version != version || live.record.result().is_some() {
                        return Err(Refusal::Conflict(
                            "draw: the game changed while the computer considered the offer".into(),
                        ));
                    }
                    if better {
                        live.draw_offer = None;
                        live.draw_declined = Some(other);
                        live.publish();
                        return Ok(live.state());
                    }
                    true
                } else {
                    self.store.set_draw_offer(id, Some(seat)).await?;
                    live.draw_offer = Some(seat);
                    live.draw_declined = None;
                    live.publish();
                    return Ok(live.state());
                }
            }
            "accept" | "decline" => {
                if live.draw_offer != Some(other) {
                    return Err(Refusal::Bad(format!(
                        "draw: {} has no pending offer to {action}",
                        players[other as usize]
                    )));
                }
                action == "accept"
            }
            other => {
                return Err(Refusal::Bad(format!(
                    "action: {other:?} is not one of offer, accept, decline"
                )))
            }
        };
        if !accept {
            self.store.set_draw_offer(id, None).await?;
            live.draw_offer = None;
            live.publish();
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

    /// Takes an open seat: its new token and the state.
    pub async fn join(self: &Arc<Self>, id: &str, seat: u8) -> Result<(String, Value), Refusal> {
        let slot = self.game(id).await?;
        let mut live = slot.live.lock().await;
        let players = live.record.player_names();
        let Some(kind) = live.seats.get(seat as usize).copied() else {
            return Err(Refusal::Bad(format!(
                "seat {seat}: the game has seats 0 to {}",
                players.len() - 1
            )));
        };
        let name = players[seat as usize];
        match kind {
            Seat::Open => {}
            Seat::Online => {
                return Err(Refusal::Conflict(format!(
                    "seat {seat} ({name}) was taken by someone else"
                )))
            }
            Seat::Human | Seat::Computer(_) => {
                return Err(Refusal::Bad(format!("seat {seat} ({name}) is not open")))
            }
        }
        if live.record.result().is_some() {
            return Err(Refusal::Bad("join: the game is over".into()));
        }
        let token = new_token();
        let mut seats = live.row.seats.clone();
        seats[seat as usize] = "online".into();
        let mut hashes = live.row.token_hashes.clone();
        hashes[seat as usize] = Some(hash_token(&token));
        match self
            .store
            .claim_seat(id, &live.row.seats, &seats, &hashes)
            .await
        {
            Ok(()) => {}
            Err(StoreError::Conflict) => {
                // Another process changed the game: read it again.
                drop(live);
                self.refresh(id).await;
                return Err(Refusal::Conflict(format!(
                    "seat {seat} ({name}) was taken by someone else"
                )));
            }
            Err(e) => return Err(e.into()),
        }
        live.row.seats = seats;
        live.row.token_hashes = hashes;
        live.seats[seat as usize] = Seat::Online;
        live.publish();
        Ok((token, live.state()))
    }

    /// The public games with open seats, newest first.
    pub async fn lobby(self: &Arc<Self>) -> Result<Vec<Value>, Refusal> {
        let mut out = Vec::new();
        for id in self.store.lobby_games(100).await? {
            let Ok(slot) = self.game(&id).await else {
                continue;
            };
            let live = slot.live.lock().await;
            let open = live.open_seats();
            if open.is_empty() || live.record.result().is_some() {
                continue;
            }
            let info = live.record.info();
            out.push(json!({
                "id": id,
                "game": info.id,
                "name": info.name,
                "players": live.record.player_names(),
                "seats": live.row.seats,
                "open_seats": open,
                "settings": live.row.settings.iter()
                    .map(|(k, v)| (k.clone(), Value::String(v.clone())))
                    .collect::<serde_json::Map<String, Value>>(),
                "clock": live.row.clock,
                "moves": live.record.history().len(),
                "created_ms": live.row.created_ms,
            }));
        }
        Ok(out)
    }

    /// The game as a game record (docs/records.md).
    pub async fn record_text(&self, id: &str) -> Result<String, Refusal> {
        let slot = self.game(id).await?;
        let live = slot.live.lock().await;
        let header = pgn::Header {
            event: "myrmidon web game".into(),
            site: "myrmidon serve".into(),
            players: live
                .seats
                .iter()
                .map(|s| match s {
                    Seat::Human | Seat::Online | Seat::Open => "human".to_string(),
                    Seat::Computer(level) => format!("myrmidon level {level}"),
                })
                .collect(),
            extra: vec![("GameId".into(), id.to_string())],
            ..pgn::Header::default()
        };
        Ok(pgn::write_game(&*live.record, &header, &[]))
    }

    /// Creates a game from a game record (its first game), to continue or review it; the
    /// seats as for [`App::create`].
    pub async fn import(
        self: &Arc<Self>,
        kind: Option<&str>,
        seats: &[String],
        text: &str,
        creator: Option<String>,
    ) -> Result<(String, Vec<Option<String>>, Value), Refusal> {
        let games = pgn::read_games(text).map_err(|e| Refusal::Bad(format!("record: {e}")))?;
        let Some(read) = games.into_iter().next() else {
            return Err(Refusal::Bad("record: it holds no game".into()));
        };
        let record = read.record;
        let info = record.info();
        if let Some(kind) = kind {
            if kind != info.id {
                return Err(Refusal::Bad(format!(
                    "record: a game of {}, not of {kind}",
                    info.id
                )));
            }
        }
        let tokens = seat_tokens(info.players.len(), info.id, seats)?;
        let mut steps = Vec::new();
        for step in record.steps() {
            steps.push(match step {
                Step::Move(m) if m.automatic => continue,
                Step::Move(m) => StepRow::Move {
                    seat: m.player,
                    text: m.text,
                },
                Step::Dropout { player, reason } => StepRow::Out {
                    seat: player,
                    reason: reason.id.to_string(),
                },
                Step::Declared(outcome) => StepRow::Declare {
                    winner: outcome.winner(),
                    reason: outcome.reason().id.to_string(),
                },
            });
        }
        let start = record.start_string();
        let (clock, public) = (None, false);
        let row = GameRow {
            id: new_id(),
            kind: info.id.to_string(),
            settings: record.settings().0,
            start: Some(start),
            version: steps.len() as u64,
            seats: seats.to_vec(),
            token_hashes: tokens
                .iter()
                .map(|t| t.as_deref().map(hash_token))
                .collect(),
            clock,
            created_ms: now(),
            step_times: Vec::new(),
            draw_offer: None,
            rematch: None,
            public,
            creator,
        };
        // What is stored must replay to the same game.
        let replayed = replay(&row, &steps).map_err(|e| Refusal::Bad(format!("record: {e}")))?;
        let finished = replayed.result().is_some();
        self.store.create_with_steps(&row, &steps, finished).await?;
        let id = row.id.clone();
        let live = Live::new(row, replayed, &steps).map_err(Refusal::Internal)?;
        Ok(self.install(id, live, tokens).await)
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

    /// If the computer is to move and not yet thinking, starts its moves in the background
    /// (one after another while computer seats follow each other).
    pub async fn schedule(self: &Arc<Self>, slot: Arc<Slot>) {
        let job = Self::claim(&slot).await;
        self.start(slot, job);
    }

    /// Runs a claimed computer move in the background.
    fn start(self: &Arc<Self>, slot: Arc<Slot>, job: Option<Job>) {
        self.arm(&slot);
        if let Some(job) = job {
            let app = self.clone();
            tokio::spawn(async move { app.computer_moves(slot, job).await });
        }
    }

    /// Marks the game as thinking and returns what the computer needs, if a computer seat is
    /// to move and no move of its is under way.
    async fn claim(slot: &Slot) -> Option<Job> {
        let mut live = slot.live.lock().await;
        let job = live.claim();
        if job.is_some() {
            live.publish();
        }
        job
    }

    async fn computer_moves(self: Arc<Self>, slot: Arc<Slot>, mut job: Job) {
        loop {
            let permit = self.engines.clone().acquire_owned().await;
            let Job {
                record,
                level,
                version,
                seat,
                budget,
            } = job;
            let think = budget.map_or(self.think, |b| b.min(self.think));
            let choice = tokio::task::spawn_blocking(move || {
                let _permit = permit;
                computer_move(&*record, level, think)
            })
            .await
            .unwrap_or_else(|e| Err(format!("the engine stopped: {e}")));
            {
                let mut live = slot.live.lock().await;
                live.thinking = false;
                let text = match choice {
                    Ok(Some(text)) if live.version == version => text,
                    // The game changed meanwhile (a takeback): think again if it is still
                    // the computer's turn.
                    Ok(Some(_)) => {
                        let next = live.claim();
                        live.publish();
                        match next {
                            Some(next) => {
                                job = next;
                                continue;
                            }
                            None => return,
                        }
                    }
                    Ok(None) => {
                        live.publish();
                        return;
                    }
                    Err(e) => {
                        tracing::error!("game {}: computer move: {e}", live.row.id);
                        live.publish();
                        return;
                    }
                };
                let id = live.row.id.clone();
                if let Err(e) = live.record.play(&text) {
                    tracing::error!("game {id}: the computer chose {text:?}: {e}");
                    live.publish();
                    return;
                }
                let finished = live.record.result().is_some();
                let step = StepRow::Move { seat, text };
                let seq = live.steps;
                let at = match self.store.append_step(&id, seq, &step, finished).await {
                    Ok(at) => at,
                    Err(e) => {
                        tracing::error!("game {id}: storing the computer's move: {e}");
                        live.record.undo();
                        live.publish();
                        return;
                    }
                };
                live.stored(&step, at);
                live.steps += 1;
                // Another computer seat may be next (three players).
                let next = live.changed();
                self.arm(&slot);
                match next {
                    Some(next) => job = next,
                    None => return,
                }
            }
        }
    }

    /// Sets a timer for the running clock of the game, if any: when it rings and nothing has
    /// changed meanwhile, the flag falls.
    fn arm(self: &Arc<Self>, slot: &Arc<Slot>) {
        let app = self.clone();
        let slot = slot.clone();
        tokio::spawn(async move {
            let (deadline, version) = {
                let live = slot.live.lock().await;
                match live.deadline() {
                    Some(d) => (d, live.version),
                    None => return,
                }
            };
            let wait = (deadline - now()).max(0) as u64;
            tokio::time::sleep(Duration::from_millis(wait + 5)).await;
            app.flag(&slot, Some(version)).await;
        });
    }

    /// The seat to move loses on time if its flag has fallen (and, with `version`, if the game
    /// has not changed since): with two players the other wins; with three it leaves the game.
    async fn flag(self: &Arc<Self>, slot: &Arc<Slot>, version: Option<u64>) {
        let job = {
            let mut live = slot.live.lock().await;
            if version.is_some_and(|v| v != live.version) {
                return;
            }
            let (Some(deadline), Some(seat)) = (live.deadline(), live.seat_to_move()) else {
                return;
            };
            if deadline > now() {
                return;
            }
            let mut record = live.record.clone_box();
            if !record.drop_out(seat, Reason::TIME) {
                return;
            }
            let step = StepRow::Out {
                seat,
                reason: Reason::TIME.id.to_string(),
            };
            match self.store_off_board(&mut live, record, step).await {
                Ok(job) => job,
                Err(StoreError::Conflict) => {
                    // Another server process stored a step first (its own flag, or a move in
                    // time): read the game again.
                    let id = live.row.id.clone();
                    drop(live);
                    self.refresh(&id).await;
                    return;
                }
                Err(e) => {
                    tracing::error!("game {}: storing a flag: {e}", live.row.id);
                    return;
                }
            }
        };
        self.start(slot.clone(), job);
    }

    /// After a restart: the games where a computer was to move get their move.
    pub async fn resume(self: &Arc<Self>) -> Result<usize, StoreError> {
        let ids = self.store.unfinished_games().await?;
        let mut resumed = 0;
        for id in ids {
            match self.game(&id).await {
                Ok(slot) => {
                    // Also sets the timer of a running clock.
                    self.schedule(slot).await;
                    resumed += 1;
                }
                Err(e) => tracing::error!("resuming game {id}: {e:?}"),
            }
        }
        Ok(resumed)
    }
}

/// A computer move to make.
struct Job {
    record: Box<dyn DynRecord>,
    level: u8,
    version: u64,
    seat: u8,
    /// The most the move may take (from the clock).
    budget: Option<Duration>,
}

/// Plies a game must have before the computer accepts a draw: an offer in the opening is
/// declined, as people expect a game first.
const DRAW_MIN_PLIES: usize = 20;

/// Whether the computer (`seat`) thinks it stands better than a draw: a short search, from its
/// own view (off the async runtime); in the opening it always does.
fn computer_thinks_better(record: &dyn DynRecord, seat: u8) -> bool {
    if record.history().len() < DRAW_MIN_PLIES {
        return true;
    }
    let Ok(spec) = "level:8".parse::<PlayerSpec>() else {
        return true;
    };
    let Ok(mut searcher) = new_searcher(record.info().id, &spec, &Options::default()) else {
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

/// The computer's choice for the player to move (off the async runtime).
fn computer_move(
    record: &dyn DynRecord,
    level: u8,
    think: Duration,
) -> Result<Option<String>, String> {
    let spec: PlayerSpec = format!("level:{level}")
        .parse()
        .map_err(|e| format!("level {level}: {e}"))?;
    let options = Options {
        seed: u64::from_le_bytes(new_token().as_bytes()[..8].try_into().expect("eight bytes")),
        ..Options::default()
    };
    let mut searcher =
        new_searcher(record.info().id, &spec, &options).map_err(|e| e.to_string())?;
    let limits = Limits::movetime(think);
    let control = Control::new(&limits, record.to_move());
    searcher
        .search(record, &limits, &control, &mut |_| {})
        .map_err(|e| e.to_string())
}
