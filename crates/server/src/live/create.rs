//! New games: created from settings or a position, imported from a record; the limit of
//! unfinished games per client; the record of a game.

use std::sync::Arc;
use std::time::{Duration, UNIX_EPOCH};

use crate::i18n::Arg;
use crate::store::now;
use myrmidon_rules::dynamic::Step;
use myrmidon_rules::{pgn, registry, DynRecord, Settings};
use serde_json::Value;

use crate::store::{GameRow, StepRow, StoreError};

use super::seats::{hash_token, hashes};
use super::{new_id, replay, seat_tokens, App, Live, NewGame, Refusal, Seat};

impl App {
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
            return Err(Refusal::TooMany(msg!("api-too-many-games", open = open)));
        }
        Ok(())
    }

    /// Creates a game; its tokens (one per human seat; one shared token when every seat is
    /// human) and its state.
    pub async fn create(
        self: &Arc<Self>,
        new: NewGame,
    ) -> Result<(String, Vec<Option<String>>, Value), Refusal> {
        let (row, record, tokens) = prepare(new)?;
        self.store.create_game(&row).await?;
        let id = row.id.clone();
        let live = Live::new(row, record, &[]).map_err(Refusal::internal)?;
        Ok(self.install(id, live, tokens).await)
    }

    /// The game as a game record (docs/records.md).
    pub async fn record_text(self: &Arc<Self>, id: &str) -> Result<String, Refusal> {
        let slot = self.game(id).await?;
        let live = slot.live.lock().await;
        Ok(record_of(&live.row, &live.seats, &*live.record))
    }

    /// A stored game as a game record, read from the database without keeping it in memory
    /// (the export of a player's games): `None` when it is gone.
    pub async fn stored_record(&self, id: &str) -> Result<Option<String>, Refusal> {
        let Some((row, steps)) = self.store.load_game(id).await? else {
            return Ok(None);
        };
        let record = replay(&row, &steps).map_err(|e| {
            tracing::error!("game {id}: {e}");
            Refusal::Internal(msg!("api-cannot-replay", id = id))
        })?;
        let seats = row
            .seats
            .iter()
            .map(|s| Seat::parse_stored(s))
            .collect::<Result<Vec<_>, _>>()
            .map_err(Refusal::internal)?;
        Ok(Some(record_of(&row, &seats, &*record)))
    }

    /// Creates a game from a game record (its first game), to continue or review it; the
    /// seats as for [`App::create`].
    pub async fn import(
        self: &Arc<Self>,
        kind: Option<&str>,
        seats: &[String],
        text: &str,
        key: Option<&str>,
        creator: Option<String>,
    ) -> Result<Imported, Refusal> {
        let key = key.map(check_key).transpose()?;
        let games = pgn::read_games(text)
            .map_err(|e| Refusal::Bad(msg!("api-record", detail = e.to_string())))?;
        let Some(read) = games.into_iter().next() else {
            return Err(Refusal::Bad(msg!("api-record-empty")));
        };
        let record = read.record;
        let info = record.info();
        if let Some(kind) = kind {
            if kind != info.id {
                return Err(Refusal::Bad(msg!(
                    "api-record-other-game",
                    record = Arg::Game(info.id),
                    game = registry::find(kind).map_or(Arg::from(kind), |g| Arg::Game(g.info().id))
                )));
            }
        }
        let mut tokens = seat_tokens(info.players.len(), info.id, seats)?;
        if let Some(key) = key {
            tokens = keyed_tokens(key, &tokens);
        }
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
            token_hashes: hashes(&tokens),
            clock,
            created_ms: now(),
            public,
            creator,
            import_key: key.map(hash_token),
            ..GameRow::default()
        };
        // What is stored must replay to the same game.
        let replayed =
            replay(&row, &steps).map_err(|e| Refusal::Bad(msg!("api-record", detail = e)))?;
        let finished = replayed.result().is_some();
        // A key sent again (two tabs, an answer lost): the game saved with it, once.
        if let Some(key_hash) = &row.import_key {
            if let Some(id) = self.store.game_of_import_key(key_hash).await? {
                return self.imported_before(&id, &row, &steps, tokens).await;
            }
        }
        match self.store.create_with_steps(&row, &steps, finished).await {
            Err(StoreError::Conflict) if row.import_key.is_some() => {
                let key_hash = row.import_key.as_deref().unwrap_or_default();
                match self.store.game_of_import_key(key_hash).await? {
                    Some(id) => return self.imported_before(&id, &row, &steps, tokens).await,
                    None => return Err(StoreError::Conflict.into()),
                }
            }
            done => done?,
        }
        let id = row.id.clone();
        let live = Live::new(row, replayed, &steps).map_err(Refusal::internal)?;
        let (id, tokens, state) = self.install(id, live, tokens).await;
        Ok(Imported {
            id,
            tokens,
            state,
            before: false,
        })
    }

    /// The game `id` saved before with the key of `row`: the same answer as then if it is the
    /// same game (the tokens come from the key), a refusal if the key saved another.
    async fn imported_before(
        self: &Arc<Self>,
        id: &str,
        row: &GameRow,
        steps: &[StepRow],
        tokens: Vec<Option<String>>,
    ) -> Result<Imported, Refusal> {
        let Some((stored, stored_steps)) = self.store.load_game(id).await? else {
            return Err(Refusal::NotFound(msg!("api-no-game", id = id)));
        };
        let same = stored.kind == row.kind
            && stored.start == row.start
            && stored.seats == row.seats
            && stored.token_hashes == row.token_hashes
            && stored_steps == steps;
        if !same {
            return Err(Refusal::Conflict(msg!("api-import-key-used")));
        }
        let slot = self.game(id).await?;
        let state = slot.live.lock().await.state();
        Ok(Imported {
            id: id.to_string(),
            tokens,
            state,
            before: true,
        })
    }
}

/// A game saved from a record: its id, its seats' tokens and its state; `before` when its key
/// had saved it already.
pub struct Imported {
    pub id: String,
    pub tokens: Vec<Option<String>>,
    pub state: Value,
    pub before: bool,
}

/// An import key as sent: 32 to 128 letters, digits, `-` or `_` (a secret of the client's).
fn check_key(key: &str) -> Result<&str, Refusal> {
    let fits = (32..=128).contains(&key.len())
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if fits {
        Ok(key)
    } else {
        Err(Refusal::Bad(msg!("api-import-key")))
    }
}

/// The seats' tokens of a game saved with `key`: made from the key, so that the same key
/// gives the same tokens again (seats sharing a token still share one).
fn keyed_tokens(key: &str, tokens: &[Option<String>]) -> Vec<Option<String>> {
    tokens
        .iter()
        .map(|t| {
            let t = t.as_ref()?;
            let first = tokens.iter().position(|o| o.as_ref() == Some(t))?;
            Some(hash_token(&format!("seat {first} of import key {key}"))[..32].to_string())
        })
        .collect()
}

/// A new game, not stored yet: its row, its record and the tokens of its seats.
pub(super) type Prepared = (GameRow, Box<dyn DynRecord>, Vec<Option<String>>);

/// A new game's row, record and tokens, before it is stored.
pub(super) fn prepare(new: NewGame) -> Result<Prepared, Refusal> {
    let NewGame {
        kind,
        seats,
        settings,
        position,
        clock,
        public,
        creator,
        rated,
        account,
    } = new;
    let (kind, seats) = (kind.as_str(), seats.as_slice());
    // The account of the client holds the one "online" seat, if there is one.
    let online: Vec<usize> = (0..seats.len()).filter(|&i| seats[i] == "online").collect();
    if rated {
        if account.is_none() {
            return Err(Refusal::Unauthorized(msg!("api-not-logged-in")));
        }
        let others_open = seats.iter().all(|s| s == "online" || s == "open");
        if clock.is_none() || position.is_some() || online.len() != 1 || !others_open {
            return Err(Refusal::Bad(msg!("api-rated-rules")));
        }
    }
    // Or, in a game against the computer, its one "human" seat (the computer's levels are
    // rated against the accounts that play them).
    let humans: Vec<usize> = (0..seats.len()).filter(|&i| seats[i] == "human").collect();
    let against_computer = seats
        .iter()
        .all(|s| s == "human" || s.starts_with("computer:"));
    let holder = match (online.as_slice(), humans.as_slice()) {
        ([seat], _) => Some(*seat),
        ([], [seat]) if against_computer => Some(*seat),
        _ => None,
    };
    let accounts = match (&account, holder) {
        (Some(account), Some(seat)) => {
            let mut accounts = vec![None; seats.len()];
            accounts[seat] = Some(account.clone());
            accounts
        }
        _ => Vec::new(),
    };
    let game = registry::find(kind)
        .map_err(|e| Refusal::NotFound(msg!("api-unknown-game", detail = e.to_string())))?;
    let info = game.info();
    let tokens = seat_tokens(info.players.len(), info.id, seats)?;
    if position.is_some() && !settings.is_empty() {
        return Err(Refusal::Bad(msg!("api-settings-and-position")));
    }
    let record = match &position {
        Some(p) => game
            .new_game_at(p)
            .map_err(|e| Refusal::Bad(msg!("api-position", detail = e.to_string())))?,
        None => game
            .new_game(&Settings(settings.clone()))
            .map_err(|e| Refusal::Bad(msg!("api-settings", detail = e.to_string())))?,
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
        seats: seats.to_vec(),
        token_hashes: hashes(&tokens),
        clock,
        created_ms: now(),
        public,
        creator,
        rated,
        accounts,
        ..GameRow::default()
    };
    Ok((row, record, tokens))
}

/// The record of game `row`, with these seats, as the rules library writes it: the day it
/// was created (UTC), its players (an account's seat named by the account; a person without
/// one is anonymous) and its id.
fn record_of(row: &GameRow, seats: &[Seat], record: &dyn DynRecord) -> String {
    let created = UNIX_EPOCH + Duration::from_millis(row.created_ms.max(0) as u64);
    let (date, time) = pgn::utc_date_time(created);
    let header = pgn::Header {
        event: "myrmidon web game".into(),
        site: "myrmidon serve".into(),
        date,
        time: Some(time),
        players: seats
            .iter()
            .enumerate()
            .map(|(i, s)| match (s, row.account(i)) {
                (_, Some(account)) => account.name.clone(),
                (Seat::Human | Seat::Online | Seat::Open, None) => "Anonymous".to_string(),
                (Seat::Computer(level), None) => format!("myrmidon level {level}"),
            })
            .collect(),
        extra: vec![("GameId".into(), row.id.clone())],
        ..pgn::Header::default()
    };
    pgn::write_game(record, &header, &[])
}
