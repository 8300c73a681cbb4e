//! Where games live between requests and across restarts. One interface, [`Store`]; SQLite
//! today (a file created on first start), PostgreSQL next, behind the same methods. Every
//! step is written (and committed) before the server acknowledges it.

use crate::clock::ClockSpec;
use std::path::Path;
use std::str::FromStr;
use std::time::{SystemTime, UNIX_EPOCH};

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{Row, SqliteConnection, SqlitePool};

/// A game as it was created.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    pub id: String,
    pub kind: String,
    /// Settings by name, in the order given.
    pub settings: Vec<(String, String)>,
    pub start: Option<String>,
    pub seats: Vec<String>,
    /// SHA-256 of each human seat's token (hex), `None` for a computer seat.
    pub token_hashes: Vec<Option<String>>,
    /// Counts every change of the game (a step stored, a takeback); only grows.
    pub version: u64,
    /// Its clock, if it has one.
    pub clock: Option<ClockSpec>,
    /// When it was created (milliseconds since the epoch).
    pub created_ms: i64,
    /// Listed in the lobby while it has open seats.
    pub public: bool,
    /// When each of its steps was stored, as loaded (the clock is replayed from them); empty
    /// in a row written by the server.
    pub step_times: Vec<i64>,
}

/// One step of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StepRow {
    Move {
        seat: u8,
        text: String,
    },
    /// The seat leaves the game (resignation, time): the reason's id.
    Out {
        seat: u8,
        reason: String,
    },
    /// The game ends off the board: the winner (none for a draw) and the reason's id.
    Declare {
        winner: Option<u8>,
        reason: String,
    },
}

/// Why a write did not happen.
#[derive(Debug)]
pub enum StoreError {
    /// Another writer took this step's place first.
    Conflict,
    Database(String),
}

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoreError::Conflict => f.write_str("another move was stored first"),
            StoreError::Database(e) => write!(f, "database error: {e}"),
        }
    }
}

impl std::error::Error for StoreError {}

impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> Self {
        if let sqlx::Error::Database(d) = &e {
            if d.is_unique_violation() {
                return StoreError::Conflict;
            }
        }
        StoreError::Database(e.to_string())
    }
}

/// The database behind the server.
#[derive(Clone, Debug)]
pub enum Store {
    Sqlite(SqlitePool),
}

pub fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

impl Store {
    /// Opens (creating it and running the migrations if needed) the database at `url`:
    /// `sqlite:<path>`, or a bare file path.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            return Err(StoreError::Database(
                "PostgreSQL is not supported yet: use a SQLite file (--db sqlite:<path>)".into(),
            ));
        }
        let path = url.strip_prefix("sqlite:").unwrap_or(url);
        let path = path.strip_prefix("//").unwrap_or(path);
        let options = if path == ":memory:" {
            SqliteConnectOptions::from_str("sqlite::memory:")?
        } else {
            SqliteConnectOptions::new()
                .filename(Path::new(path))
                .create_if_missing(true)
                .journal_mode(SqliteJournalMode::Wal)
        }
        // A committed step survives the process being killed (WAL: the commit is in the log
        // before the call returns); FULL also survives the machine losing power.
        .synchronous(SqliteSynchronous::Full)
        .foreign_keys(true)
        .busy_timeout(std::time::Duration::from_secs(5));
        let pool = SqlitePoolOptions::new()
            // One in-memory database is one connection.
            .max_connections(if path == ":memory:" { 1 } else { 4 })
            .connect_with(options)
            .await?;
        sqlx::migrate!("./migrations/sqlite")
            .run(&pool)
            .await
            .map_err(|e| StoreError::Database(format!("migrations: {e}")))?;
        Ok(Store::Sqlite(pool))
    }

    pub async fn create_game(&self, game: &GameRow) -> Result<(), StoreError> {
        self.create_with_steps(game, &[], false).await
    }

    /// The game and its steps in order, if it exists.
    pub async fn load_game(&self, id: &str) -> Result<Option<(GameRow, Vec<StepRow>)>, StoreError> {
        match self {
            Store::Sqlite(pool) => {
                let Some(row) = sqlx::query(
                    "SELECT id, kind, settings, start, seats, token_hashes, version, clock, \
                     created_at, public FROM games WHERE id = ?",
                )
                .bind(id)
                .fetch_optional(pool)
                .await?
                else {
                    return Ok(None);
                };
                let mut game = game_row(
                    row.get("id"),
                    row.get("kind"),
                    row.get("settings"),
                    row.get("start"),
                    row.get("seats"),
                    row.get("token_hashes"),
                )?;
                game.version = row.get::<i64, _>("version") as u64;
                game.created_ms = row.get("created_at");
                game.public = row.get::<i64, _>("public") != 0;
                game.clock = match row.get::<Option<String>, _>("clock") {
                    Some(text) => {
                        Some(serde_json::from_str(&text).map_err(|e| corrupt("clock", e))?)
                    }
                    None => None,
                };
                let mut times = Vec::new();
                let steps = sqlx::query(
                    "SELECT kind, seat, body, created_at FROM steps WHERE game_id = ? ORDER BY seq",
                )
                .bind(id)
                .fetch_all(pool)
                .await?
                .into_iter()
                .map(|r| {
                    times.push(r.get::<i64, _>("created_at"));
                    step_row(r.get("kind"), r.get("seat"), r.get("body"))
                })
                .collect::<Result<Vec<_>, _>>()?;
                game.step_times = times;
                Ok(Some((game, steps)))
            }
        }
    }

    /// Stores step number `seq` of a game (and whether the game is now finished). Fails with
    /// [`StoreError::Conflict`] if that place is taken. Returns the time it was stored at
    /// (milliseconds since the epoch).
    pub async fn append_step(
        &self,
        id: &str,
        seq: usize,
        step: &StepRow,
        finished: bool,
    ) -> Result<i64, StoreError> {
        let at = now();
        match self {
            Store::Sqlite(pool) => {
                let mut tx = pool.begin().await?;
                insert_step(&mut tx, id, seq, step, at).await?;
                sqlx::query("UPDATE games SET version = version + 1, finished = ? WHERE id = ?")
                    .bind(finished as i64)
                    .bind(id)
                    .execute(&mut *tx)
                    .await?;
                tx.commit().await?;
            }
        }
        Ok(at)
    }

    /// Gives a seat to someone who joined: the seats and token hashes change from `old_seats`
    /// to the new ones, unless another writer changed the seats first
    /// ([`StoreError::Conflict`]).
    pub async fn claim_seat(
        &self,
        id: &str,
        old_seats: &[String],
        seats: &[String],
        token_hashes: &[Option<String>],
    ) -> Result<(), StoreError> {
        let old = serde_json::to_string(old_seats).expect("seats serialise");
        let new = serde_json::to_string(seats).expect("seats serialise");
        let tokens = serde_json::to_string(token_hashes).expect("tokens serialise");
        match self {
            Store::Sqlite(pool) => {
                let done = sqlx::query(
                    "UPDATE games SET seats = ?, token_hashes = ? WHERE id = ? AND seats = ?",
                )
                .bind(new)
                .bind(tokens)
                .bind(id)
                .bind(old)
                .execute(pool)
                .await?;
                if done.rows_affected() == 0 {
                    return Err(StoreError::Conflict);
                }
            }
        }
        Ok(())
    }

    /// The ids of the public unfinished games with an open seat, newest first.
    pub async fn lobby_games(&self, limit: u32) -> Result<Vec<String>, StoreError> {
        match self {
            Store::Sqlite(pool) => Ok(sqlx::query(
                "SELECT id FROM games WHERE public = 1 AND finished = 0 AND seats LIKE '%\"open\"%' \
                 ORDER BY created_at DESC LIMIT ?",
            )
            .bind(limit as i64)
            .fetch_all(pool)
            .await?
            .into_iter()
            .map(|r| r.get("id"))
            .collect()),
        }
    }

    /// Takes back the steps from place `from` on (a takeback); the game has no result after.
    pub async fn truncate(&self, id: &str, from: usize) -> Result<(), StoreError> {
        match self {
            Store::Sqlite(pool) => {
                let mut tx = pool.begin().await?;
                sqlx::query("DELETE FROM steps WHERE game_id = ? AND seq >= ?")
                    .bind(id)
                    .bind(from as i64)
                    .execute(&mut *tx)
                    .await?;
                sqlx::query("UPDATE games SET finished = 0, version = version + 1 WHERE id = ?")
                    .bind(id)
                    .execute(&mut *tx)
                    .await?;
                tx.commit().await?;
            }
        }
        Ok(())
    }

    /// Creates a game with steps already played (an imported record), in one transaction.
    pub async fn create_with_steps(
        &self,
        game: &GameRow,
        steps: &[StepRow],
        finished: bool,
    ) -> Result<(), StoreError> {
        match self {
            Store::Sqlite(pool) => {
                let mut tx = pool.begin().await?;
                insert_game(&mut tx, game).await?;
                for (i, step) in steps.iter().enumerate() {
                    insert_step(&mut tx, &game.id, i, step, game.created_ms).await?;
                }
                sqlx::query("UPDATE games SET version = ?, finished = ? WHERE id = ?")
                    .bind(game.version as i64)
                    .bind(finished as i64)
                    .bind(&game.id)
                    .execute(&mut *tx)
                    .await?;
                tx.commit().await?;
            }
        }
        Ok(())
    }

    /// The ids of the games without a result, oldest first (to resume computer moves after a
    /// restart).
    pub async fn unfinished_games(&self) -> Result<Vec<String>, StoreError> {
        match self {
            Store::Sqlite(pool) => Ok(sqlx::query(
                "SELECT id FROM games WHERE finished = 0 ORDER BY created_at",
            )
            .fetch_all(pool)
            .await?
            .into_iter()
            .map(|r| r.get("id"))
            .collect()),
        }
    }
}

async fn insert_game(conn: &mut SqliteConnection, game: &GameRow) -> Result<(), StoreError> {
    let settings = serde_json::to_string(
        &game
            .settings
            .iter()
            .map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone())))
            .collect::<serde_json::Map<_, _>>(),
    )
    .expect("settings serialise");
    let seats = serde_json::to_string(&game.seats).expect("seats serialise");
    let tokens = serde_json::to_string(&game.token_hashes).expect("tokens serialise");
    let clock = game
        .clock
        .map(|c| serde_json::to_string(&c).expect("a clock serialises"));
    sqlx::query(
        "INSERT INTO games (id, kind, settings, start, seats, token_hashes, created_at, clock, \
         public) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(&game.id)
    .bind(&game.kind)
    .bind(settings)
    .bind(&game.start)
    .bind(seats)
    .bind(tokens)
    .bind(game.created_ms)
    .bind(clock)
    .bind(game.public as i64)
    .execute(conn)
    .await?;
    Ok(())
}

async fn insert_step(
    conn: &mut SqliteConnection,
    id: &str,
    seq: usize,
    step: &StepRow,
    at: i64,
) -> Result<(), StoreError> {
    let (kind, seat, body) = match step {
        StepRow::Move { seat, text } => ("move", Some(*seat), text.as_str()),
        StepRow::Out { seat, reason } => ("out", Some(*seat), reason.as_str()),
        StepRow::Declare { winner, reason } => ("declare", *winner, reason.as_str()),
    };
    sqlx::query(
        "INSERT INTO steps (game_id, seq, kind, seat, body, created_at) VALUES (?, ?, ?, ?, ?, ?)",
    )
    .bind(id)
    .bind(seq as i64)
    .bind(kind)
    .bind(seat.map(i64::from))
    .bind(body)
    .bind(at)
    .execute(conn)
    .await?;
    Ok(())
}

fn corrupt(what: &str, e: impl std::fmt::Display) -> StoreError {
    StoreError::Database(format!("stored {what} unreadable: {e}"))
}

fn game_row(
    id: String,
    kind: String,
    settings: String,
    start: Option<String>,
    seats: String,
    tokens: String,
) -> Result<GameRow, StoreError> {
    let settings: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(&settings).map_err(|e| corrupt("settings", e))?;
    let settings = settings
        .into_iter()
        .map(|(k, v)| match v {
            serde_json::Value::String(s) => Ok((k, s)),
            other => Err(corrupt("settings", format!("{k} = {other}"))),
        })
        .collect::<Result<_, _>>()?;
    Ok(GameRow {
        id,
        kind,
        settings,
        start,
        seats: serde_json::from_str(&seats).map_err(|e| corrupt("seats", e))?,
        token_hashes: serde_json::from_str(&tokens).map_err(|e| corrupt("tokens", e))?,
        version: 0,
        clock: None,
        created_ms: 0,
        step_times: Vec::new(),
        public: false,
    })
}

fn step_row(kind: String, seat: Option<i64>, body: String) -> Result<StepRow, StoreError> {
    let seat = seat
        .map(u8::try_from)
        .transpose()
        .map_err(|e| corrupt("seat", e))?;
    let need =
        |seat: Option<u8>| seat.ok_or_else(|| corrupt("step", format!("{kind} without a seat")));
    match kind.as_str() {
        "move" => Ok(StepRow::Move {
            seat: need(seat)?,
            text: body,
        }),
        "out" => Ok(StepRow::Out {
            seat: need(seat)?,
            reason: body,
        }),
        "declare" => Ok(StepRow::Declare {
            winner: seat,
            reason: body,
        }),
        other => Err(corrupt("step", format!("kind {other:?}"))),
    }
}
