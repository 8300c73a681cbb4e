//! New games: created from settings or a position, imported from a record; the limit of
//! unfinished games per client; the record of a game.

use std::sync::Arc;
use std::time::{Duration, UNIX_EPOCH};

use crate::store::now;
use myrmidon_rules::dynamic::Step;
use myrmidon_rules::{pgn, registry, DynRecord, Settings};
use serde_json::Value;

use crate::store::{GameRow, StepRow};

use super::seats::hashes;
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
        // (the day the game was created, UTC; a person without an account is anonymous)
        let created = UNIX_EPOCH + Duration::from_millis(live.row.created_ms.max(0) as u64);
        let (date, time) = pgn::utc_date_time(created);
        let header = pgn::Header {
            event: "myrmidon web game".into(),
            site: "myrmidon serve".into(),
            date,
            time: Some(time),
            // An account's seat is named by the account.
            players: live
                .seats
                .iter()
                .enumerate()
                .map(|(i, s)| match (s, live.row.account(i)) {
                    (_, Some(account)) => account.name.clone(),
                    (Seat::Human | Seat::Online | Seat::Open, None) => "Anonymous".to_string(),
                    (Seat::Computer(level), None) => format!("myrmidon level {level}"),
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
                    record = info.id,
                    game = kind
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
            token_hashes: hashes(&tokens),
            clock,
            created_ms: now(),
            public,
            creator,
            ..GameRow::default()
        };
        // What is stored must replay to the same game.
        let replayed =
            replay(&row, &steps).map_err(|e| Refusal::Bad(msg!("api-record", detail = e)))?;
        let finished = replayed.result().is_some();
        self.store.create_with_steps(&row, &steps, finished).await?;
        let id = row.id.clone();
        let live = Live::new(row, replayed, &steps).map_err(Refusal::internal)?;
        Ok(self.install(id, live, tokens).await)
    }
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
    let accounts = match (&account, online.as_slice()) {
        (Some(account), [seat]) => {
            let mut accounts = vec![None; seats.len()];
            accounts[*seat] = Some(account.clone());
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
