//! Where games live between requests and across restarts. One interface, [`Store`]; SQLite
//! (a file created on first start) or PostgreSQL, behind the same methods. Every
//! step is written (and committed) before the server acknowledges it.

use crate::clock::ClockSpec;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use sqlx::any::AnyPoolOptions;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

use crate::clock::ClockBase;
use sqlx::pool::PoolConnection;
use sqlx::{Any, AnyConnection, AnyPool, Executor, Row};
use tokio::sync::OwnedMutexGuard;

mod accounts;
mod group;
mod levels;
mod presence;
mod seeks;

pub use accounts::{name_key, seat_result, PlayedGame, Ranked, RatingPoint, RatingRow, UserRow};
pub use levels::LevelRating;
pub use seeks::SeekRow;

/// A game as it was created.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
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
    /// The seat whose draw offer is pending.
    pub draw_offer: Option<u8>,
    /// The game a rematch of this one created.
    pub rematch: Option<String>,
    /// The seat whose takeback proposal is pending.
    pub takeback_offer: Option<u8>,
    /// The seats that agreed to the pending takeback (a bit per seat, the proposer's set).
    pub takeback_yes: u8,
    /// The seat that declined (or withdrew) the last takeback proposal, until the next change.
    pub takeback_declined: Option<u8>,
    /// The seats that asked for a rematch (a bit per seat).
    pub rematch_offers: u8,
    /// The clock as the last takeback left it (time used stays used).
    pub clock_base: Option<ClockBase>,
    /// Who created it (a hash of the client's address), when a client did; written only.
    pub creator: Option<String>,
    /// A rated game (between accounts: docs/api.md, "Ratings").
    pub rated: bool,
    /// The account holding each seat, for the seats an account took (empty: none).
    pub accounts: Vec<Option<SeatAccount>>,
    /// Each seat's rating before and after the game, as JSON text, once it is rated.
    pub rating_change: Option<String>,
    /// An imported game's key, as SHA-256 hex (see `POST /api/games`): one game per key.
    pub import_key: Option<String>,
}

/// The account that holds a seat.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SeatAccount {
    pub id: String,
    pub name: String,
}

impl GameRow {
    /// The account holding `seat`, if one does.
    pub fn account(&self, seat: usize) -> Option<&SeatAccount> {
        self.accounts.get(seat).and_then(Option::as_ref)
    }

    /// Whether the account with this id already holds a seat of the game.
    pub fn holds_seat(&self, account_id: &str) -> bool {
        self.accounts.iter().flatten().any(|a| a.id == account_id)
    }
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

/// One change of a stored game (see [`Store::change`]).
pub struct Change<'a> {
    /// The game's row as it is after the change (its mutable parts are written).
    pub row: &'a GameRow,
    /// The version the change was judged on.
    pub from_version: u64,
    /// The game has a result after the change.
    pub finished: bool,
    /// Steps from this place on are taken back first.
    pub truncate: Option<usize>,
    /// A step stored at this place.
    pub append: Option<(usize, &'a StepRow)>,
    /// A new game created in the same transaction (an accepted rematch).
    pub create: Option<&'a GameRow>,
    /// A seat taken by an account with the change: the seat and the account's id.
    pub join: Option<(u8, &'a str)>,
    /// Each seat's place at the end, when the change ends the game (a rated game is rated in
    /// the same transaction).
    pub places: Option<&'a [u8]>,
}

/// A transaction on one pooled connection that either commits or is given up with its
/// connection: a connection whose statement or `COMMIT` failed is closed, never returned to
/// the pool (a connection left inside a failed transaction took every later write with it,
/// acknowledged and never committed).
struct Write {
    conn: PoolConnection<Any>,
    open: bool,
    /// SQLite: this process's turn to write, held until the transaction ends.
    _turn: Option<OwnedMutexGuard<()>>,
}

impl Write {
    /// Begins a write. On SQLite the writers of this process take turns (`Store::writes`, in
    /// the order they came, before they take a connection), and `BEGIN IMMEDIATE` then takes
    /// the database's write lock at once, so that a transaction never fails half-way to
    /// upgrade its lock. SQLite has one writer at a time: writers that met at its lock would
    /// wait in its busy handler, which sleeps up to 100 ms between tries while holding their
    /// connections; in turn, each starts the moment the one before commits. Only another
    /// process on the same file still meets the busy handler (`busy_timeout`).
    async fn begin(store: &Store) -> Result<Write, StoreError> {
        if store.backend == Backend::Sqlite {
            let turn = store.writes.clone().lock_owned().await;
            Write::in_turn(&store.pool, turn).await
        } else {
            Write::begin_with(&store.pool, "BEGIN").await
        }
    }

    /// Begins a write on SQLite in this process's turn to write (see [`Write::begin`]).
    async fn in_turn(pool: &AnyPool, turn: OwnedMutexGuard<()>) -> Result<Write, StoreError> {
        let mut write = Write::begin_with(pool, "BEGIN IMMEDIATE").await?;
        write._turn = Some(turn);
        Ok(write)
    }

    /// Begins a read of one consistent snapshot.
    async fn read(pool: &AnyPool, backend: Backend) -> Result<Write, StoreError> {
        Write::begin_with(
            pool,
            if backend == Backend::Sqlite {
                "BEGIN"
            } else {
                "BEGIN ISOLATION LEVEL REPEATABLE READ"
            },
        )
        .await
    }

    async fn begin_with(pool: &AnyPool, begin: &str) -> Result<Write, StoreError> {
        let conn = pool.acquire().await?;
        let mut write = Write {
            conn,
            open: true,
            _turn: None,
        };
        write.conn().execute(begin).await?;
        Ok(write)
    }

    fn conn(&mut self) -> &mut AnyConnection {
        &mut self.conn
    }

    async fn commit(mut self) -> Result<(), StoreError> {
        self.conn.execute("COMMIT").await?;
        self.open = false;
        Ok(())
    }
}

impl Drop for Write {
    fn drop(&mut self) {
        if self.open {
            // Failed, or abandoned half-way: the connection goes with its transaction (the
            // database rolls back what it never saw committed).
            self.conn.close_on_drop();
        }
    }
}

/// Why a write did not happen.
#[derive(Clone, Debug, thiserror::Error)]
pub enum StoreError {
    /// Another writer took this step's place first.
    #[error("another move was stored first")]
    Conflict,
    #[error("database error: {0}")]
    Database(String),
}

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

/// Which database a [`Store`] is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// The database behind the server: SQLite or PostgreSQL, one interface (sqlx's `Any` driver:
/// the same queries run on both, with `$1`-style parameters, which SQLite reads too).
#[derive(Clone, Debug)]
pub struct Store {
    pool: AnyPool,
    backend: Backend,
    /// The URL it was opened with (a PostgreSQL listener connects to it too).
    url: String,
    /// This process's name in its announcements, so that it skips its own.
    instance: String,
    /// SQLite: the most pages the database file may grow to (0: no limit but SQLite's own).
    max_pages: Arc<AtomicU32>,
    /// SQLite: whose turn it is to write (see [`Write::begin`]).
    writes: Arc<tokio::sync::Mutex<()>>,
    /// SQLite: the changes waiting to be written together (see [`group`]).
    group: Arc<group::Waiting>,
}

/// A change of a game announced on [`CHANNEL`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Announcement {
    pub game: String,
    /// The [`Store`] (server process) that made the change.
    pub instance: String,
}

impl Announcement {
    pub fn parse(payload: &str) -> Option<Announcement> {
        let (game, instance) = payload.split_once(' ')?;
        Some(Announcement {
            game: game.to_string(),
            instance: instance.to_string(),
        })
    }
}

/// The PostgreSQL channel on which every change of a game is announced (the payload is the
/// game's id), so that the other server processes on the database update their players.
pub const CHANNEL: &str = "myrmidon_games";

/// [`Store::set_max_pages`]'s "no limit" once a limit was set.
const NO_PAGE_LIMIT: u32 = u32::MAX;

pub fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// A database URL fit to print: a PostgreSQL URL's password replaced by `***`.
pub fn redacted(url: &str) -> String {
    if let Some((scheme, rest)) = url.split_once("://") {
        if let Some((user, host)) = rest.rsplit_once('@') {
            if let Some((name, _password)) = user.split_once(':') {
                return format!("{scheme}://{name}:***@{host}");
            }
        }
    }
    url.to_string()
}

/// A name for one opened store: 64 random bits in hex.
fn instance() -> String {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).expect("the system's random numbers");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A file path as the path of a `sqlite://` URL (what is not plain is percent-encoded).
fn sqlite_url(path: &str) -> String {
    let mut url = String::from("sqlite://");
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"/._-~".contains(&b) {
            url.push(b as char);
        } else {
            url.push_str(&format!("%{b:02X}"));
        }
    }
    url.push_str("?mode=rwc");
    url
}

impl Store {
    /// Opens (creating it and running the migrations if needed) the database at `url`:
    /// `postgres://…` (or `postgresql://…`), `sqlite:<path>`, or a bare file path.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        sqlx::any::install_default_drivers();
        if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            let pool = AnyPoolOptions::new()
                .max_connections(8)
                .acquire_timeout(Duration::from_secs(5))
                .connect(url)
                .await
                .map_err(|e| StoreError::Database(format!("PostgreSQL: {e}")))?;
            sqlx::migrate!("./migrations/postgres")
                .run(&pool)
                .await
                .map_err(|e| StoreError::Database(format!("migrations: {e}")))?;
            return Ok(Store {
                pool,
                backend: Backend::Postgres,
                url: url.to_string(),
                instance: instance(),
                max_pages: Arc::new(AtomicU32::new(0)),
                writes: Arc::default(),
                group: Arc::default(),
            });
        }
        let path = url.strip_prefix("sqlite:").unwrap_or(url);
        let path = path.strip_prefix("//").unwrap_or(path);
        let memory = path == ":memory:";
        let connect = if memory {
            "sqlite::memory:".to_string()
        } else {
            sqlite_url(path)
        };
        let max_pages = Arc::new(AtomicU32::new(0));
        let limit = max_pages.clone();
        let pool = AnyPoolOptions::new()
            // One in-memory database is one connection, kept for the life of the pool.
            .max_connections(if memory { 1 } else { 4 })
            .idle_timeout(None)
            .max_lifetime(None)
            .after_connect(move |conn, _| {
                Box::pin(async move {
                    // A committed step survives the process being killed (WAL: the commit is
                    // in the log before the call returns); FULL also survives the machine
                    // losing power.
                    if !memory {
                        conn.execute("PRAGMA journal_mode = WAL").await?;
                    }
                    conn.execute("PRAGMA synchronous = FULL").await?;
                    conn.execute("PRAGMA foreign_keys = ON").await?;
                    conn.execute("PRAGMA busy_timeout = 5000").await?;
                    Ok(())
                })
            })
            .before_acquire(move |conn, _| {
                let limit = limit.clone();
                Box::pin(async move {
                    match limit.load(Ordering::Relaxed) {
                        0 => {}
                        NO_PAGE_LIMIT => {
                            conn.execute(
                                format!("PRAGMA max_page_count = {}", u32::MAX - 1).as_str(),
                            )
                            .await?;
                        }
                        pages => {
                            conn.execute(format!("PRAGMA max_page_count = {pages}").as_str())
                                .await?;
                        }
                    }
                    Ok(true)
                })
            })
            .connect(&connect)
            .await?;
        sqlx::migrate!("./migrations/sqlite")
            .run(&pool)
            .await
            .map_err(|e| StoreError::Database(format!("migrations: {e}")))?;
        Ok(Store {
            pool,
            backend: Backend::Sqlite,
            url: url.to_string(),
            instance: instance(),
            max_pages,
            writes: Arc::default(),
            group: Arc::default(),
        })
    }

    /// SQLite: lets the database file grow to `pages` pages at most (`None`: no limit again):
    /// a full disk, as far as the server can tell, for the tests of what a full disk does.
    /// Applied to every connection as it is taken from the pool.
    pub fn set_max_pages(&self, pages: Option<u32>) {
        let pages = pages.map_or(NO_PAGE_LIMIT, |p| p.clamp(1, NO_PAGE_LIMIT - 1));
        self.max_pages.store(pages, Ordering::Relaxed);
    }

    /// SQLite: the pages the database file has now.
    pub async fn page_count(&self) -> Result<u32, StoreError> {
        let row = sqlx::query("PRAGMA page_count")
            .fetch_one(&self.pool)
            .await?;
        Ok(row.try_get::<i64, _>(0)?.max(0) as u32)
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// The URL the store was opened with.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Whether an announcement came from this store (this process) itself.
    pub fn own(&self, announcement: &Announcement) -> bool {
        announcement.instance == self.instance
    }

    /// Whether the database answers.
    pub async fn ping(&self) -> bool {
        sqlx::raw_sql("SELECT 1").execute(&self.pool).await.is_ok()
    }

    pub async fn create_game(&self, game: &GameRow) -> Result<(), StoreError> {
        self.create_with_steps(game, &[], false).await
    }

    /// The game and its steps in order, if it exists.
    pub async fn load_game(&self, id: &str) -> Result<Option<(GameRow, Vec<StepRow>)>, StoreError> {
        // The game's row and its steps from one snapshot: read apart, a step committed by
        // another process between the two reads gave a version one behind the steps, and the
        // next move was answered with a version already given (seen in the racing test).
        let mut tx = Write::read(&self.pool, self.backend).await?;
        let Some(row) = sqlx::query(
            "SELECT id, kind, settings, start, seats, token_hashes, version, clock, created_at, \
             public, draw_offer, rematch, takeback_offer, takeback_yes, rematch_offers, \
             clock_base, takeback_declined, rated, rating_change FROM games WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(tx.conn())
        .await?
        else {
            tx.commit().await?;
            return Ok(None);
        };
        let mut game = game_row(
            row.try_get("id")?,
            row.try_get("kind")?,
            row.try_get("settings")?,
            row.try_get("start")?,
            row.try_get("seats")?,
            row.try_get("token_hashes")?,
        )?;
        game.version = row.try_get::<i64, _>("version")? as u64;
        game.created_ms = row.try_get("created_at")?;
        game.public = row.try_get::<i64, _>("public")? != 0;
        game.clock = match row.try_get::<Option<String>, _>("clock")? {
            Some(text) => Some(serde_json::from_str(&text).map_err(|e| corrupt("clock", e))?),
            None => None,
        };
        game.draw_offer = row
            .try_get::<Option<i64>, _>("draw_offer")?
            .map(u8::try_from)
            .transpose()
            .map_err(|e| corrupt("draw offer", e))?;
        game.rematch = row.try_get("rematch")?;
        let seat = |column: &str| -> Result<Option<u8>, StoreError> {
            row.try_get::<Option<i64>, _>(column)?
                .map(u8::try_from)
                .transpose()
                .map_err(|e| corrupt(column, e))
        };
        game.takeback_offer = seat("takeback_offer")?;
        game.takeback_declined = seat("takeback_declined")?;
        let mask = |column: &str| -> Result<u8, StoreError> {
            u8::try_from(row.try_get::<i64, _>(column)?).map_err(|e| corrupt(column, e))
        };
        game.takeback_yes = mask("takeback_yes")?;
        game.rematch_offers = mask("rematch_offers")?;
        game.clock_base = match row.try_get::<Option<String>, _>("clock_base")? {
            Some(text) => Some(serde_json::from_str(&text).map_err(|e| corrupt("clock", e))?),
            None => None,
        };
        game.rated = row.try_get::<i64, _>("rated")? != 0;
        game.rating_change = row.try_get("rating_change")?;
        game.accounts = accounts::seat_accounts(tx.conn(), id, game.seats.len()).await?;
        let mut times = Vec::new();
        let steps = sqlx::query(
            "SELECT kind, seat, body, created_at FROM steps WHERE game_id = $1 ORDER BY seq",
        )
        .bind(id)
        .fetch_all(tx.conn())
        .await?
        .into_iter()
        .map(|r| {
            times.push(r.try_get::<i64, _>("created_at")?);
            step_row(r.try_get("kind")?, r.try_get("seat")?, r.try_get("body")?)
        })
        .collect::<Result<Vec<_>, StoreError>>()?;
        game.step_times = times;
        tx.commit().await?;
        Ok(Some((game, steps)))
    }

    /// Makes one change of game `id`, in one transaction, only if the stored game is still at
    /// `change.from_version` (the version the change was judged on): otherwise nothing is
    /// written and the answer is [`StoreError::Conflict`]. Of two changes racing from one
    /// version, through one process or several, exactly one is stored. The row's state after
    /// the change (seats, offers, the clock after a takeback, the rematch) is written whole
    /// from `row`. Returns the time the change was stored at (milliseconds since the epoch).
    pub async fn change(&self, change: &Change<'_>) -> Result<i64, StoreError> {
        if self.backend == Backend::Sqlite {
            return self.change_in_group(change).await;
        }
        let at = now();
        let mut write = Write::begin(self).await?;
        apply(write.conn(), change, at, self.backend).await?;
        for id in std::iter::once(&change.row.id).chain(change.create.map(|g| &g.id)) {
            self.announce(write.conn(), id).await?;
        }
        write.commit().await?;
        Ok(at)
    }

    /// Tells the other server processes on the database (PostgreSQL), when the transaction
    /// commits, that game `id` changed: they read it again.
    pub(super) async fn announce(
        &self,
        conn: &mut sqlx::AnyConnection,
        id: &str,
    ) -> Result<(), StoreError> {
        if id.bytes().all(|b| b.is_ascii_alphanumeric()) {
            let notify = format!("NOTIFY {CHANNEL}, '{id} {}'", self.instance);
            conn.execute(notify.as_str()).await?;
        }
        Ok(())
    }

    /// The stored version of game `id` (`None`: no such game), to confirm that the game in
    /// memory is the stored one before refusing a request on it.
    pub async fn version(&self, id: &str) -> Result<Option<u64>, StoreError> {
        let row = sqlx::query("SELECT version FROM games WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            Some(row) => Some(row.try_get::<i64, _>("version")? as u64),
            None => None,
        })
    }

    /// How many unfinished games `creator` created since `since_ms`.
    pub async fn open_games_by(&self, creator: &str, since_ms: i64) -> Result<u64, StoreError> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM games WHERE creator = $1 AND finished = 0 \
             AND created_at >= $2",
        )
        .bind(creator)
        .bind(since_ms)
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get::<i64, _>("n")?.max(0) as u64)
    }

    /// The ids of the public unfinished games with an open seat, newest first, each with its
    /// stored version (so that a process can tell that its copy in memory is behind).
    pub async fn lobby_games(&self, limit: u32) -> Result<Vec<(String, u64)>, StoreError> {
        sqlx::query(
            "SELECT id, version FROM games WHERE public = 1 AND finished = 0 \
             AND seats LIKE '%\"open\"%' ORDER BY created_at DESC LIMIT $1",
        )
        .bind(limit as i64)
        .fetch_all(&self.pool)
        .await?
        .into_iter()
        .map(|r| {
            Ok((
                r.try_get("id")?,
                r.try_get::<i64, _>("version")?.max(0) as u64,
            ))
        })
        .collect()
    }

    /// Creates a game with steps already played (an imported record), in one transaction.
    pub async fn create_with_steps(
        &self,
        game: &GameRow,
        steps: &[StepRow],
        finished: bool,
    ) -> Result<(), StoreError> {
        let mut write = Write::begin(self).await?;
        insert_game(write.conn(), game).await?;
        for (i, step) in steps.iter().enumerate() {
            insert_step(write.conn(), &game.id, i, step, game.created_ms).await?;
        }
        sqlx::query("UPDATE games SET version = $1, finished = $2 WHERE id = $3")
            .bind(game.version as i64)
            .bind(finished as i64)
            .bind(&game.id)
            .execute(write.conn())
            .await?;
        write.commit().await
    }

    /// The game saved with an import key (its SHA-256 hex), if one was.
    pub async fn game_of_import_key(&self, key_hash: &str) -> Result<Option<String>, StoreError> {
        Ok(sqlx::query("SELECT id FROM games WHERE import_key = $1")
            .bind(key_hash)
            .fetch_optional(&self.pool)
            .await?
            .map(|r| r.try_get("id"))
            .transpose()?)
    }

    /// The ids of the games without a result, oldest first (to resume computer moves after a
    /// restart).
    pub async fn unfinished_games(&self) -> Result<Vec<String>, StoreError> {
        sqlx::query("SELECT id FROM games WHERE finished = 0 ORDER BY created_at")
            .fetch_all(&self.pool)
            .await?
            .into_iter()
            .map(|r| Ok(r.try_get("id")?))
            .collect()
    }
}

/// Writes `change`, stored at `at`, inside the transaction on `conn`: nothing if the stored
/// game is no longer at `change.from_version` ([`StoreError::Conflict`]).
async fn apply(
    conn: &mut AnyConnection,
    change: &Change<'_>,
    at: i64,
    backend: Backend,
) -> Result<(), StoreError> {
    let row = change.row;
    let done = sqlx::query(
        "UPDATE games SET version = version + 1, finished = $1, seats = $2, \
         token_hashes = $3, draw_offer = $4, takeback_offer = $5, takeback_yes = $6, \
         rematch_offers = $7, rematch = $8, clock_base = $9, takeback_declined = $10 \
         WHERE id = $11 AND version = $12",
    )
    .bind(change.finished as i64)
    .bind(serde_json::to_string(&row.seats).expect("seats serialise"))
    .bind(serde_json::to_string(&row.token_hashes).expect("tokens serialise"))
    .bind(row.draw_offer.map(i64::from))
    .bind(row.takeback_offer.map(i64::from))
    .bind(i64::from(row.takeback_yes))
    .bind(i64::from(row.rematch_offers))
    .bind(&row.rematch)
    .bind(
        row.clock_base
            .as_ref()
            .map(|b| serde_json::to_string(b).expect("a clock serialises")),
    )
    .bind(row.takeback_declined.map(i64::from))
    .bind(&row.id)
    .bind(change.from_version as i64)
    .execute(&mut *conn)
    .await?;
    only_if(done.rows_affected() > 0)?;
    if let Some(from) = change.truncate {
        sqlx::query("DELETE FROM steps WHERE game_id = $1 AND seq >= $2")
            .bind(&row.id)
            .bind(from as i64)
            .execute(&mut *conn)
            .await?;
    }
    if let Some((seq, step)) = change.append {
        insert_step(conn, &row.id, seq, step, at).await?;
    }
    if let Some(game) = change.create {
        insert_game(conn, game).await?;
    }
    if let Some((seat, user)) = change.join {
        accounts::seat_account(conn, row, seat, user).await?;
    }
    if let (true, Some(places)) = (change.finished, change.places) {
        if row.accounts.iter().any(Option::is_some) {
            accounts::results(conn, row, places).await?;
        }
        if row.rated {
            accounts::rate(conn, row, places, at, backend).await?;
        }
        // The levels are rated when the game ends, not when a seat is claimed after its end.
        if change.join.is_none() {
            levels::rate_levels(conn, row, places, at, backend).await?;
        }
    }
    Ok(())
}

/// A game's settings as stored: a JSON object of strings.
fn settings_text(settings: &[(String, String)]) -> String {
    serde_json::to_string(
        &settings
            .iter()
            .map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone())))
            .collect::<serde_json::Map<_, _>>(),
    )
    .expect("settings serialise")
}

async fn insert_game(conn: &mut AnyConnection, game: &GameRow) -> Result<(), StoreError> {
    let settings = settings_text(&game.settings);
    let seats = serde_json::to_string(&game.seats).expect("seats serialise");
    let tokens = serde_json::to_string(&game.token_hashes).expect("tokens serialise");
    let clock = game
        .clock
        .map(|c| serde_json::to_string(&c).expect("a clock serialises"));
    sqlx::query(
        "INSERT INTO games (id, kind, settings, start, seats, token_hashes, created_at, clock, \
         public, creator, rated, import_key) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
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
    .bind(&game.creator)
    .bind(game.rated as i64)
    .bind(&game.import_key)
    .execute(&mut *conn)
    .await?;
    for (seat, account) in game.accounts.iter().enumerate() {
        if let Some(account) = account {
            accounts::seat_account(conn, game, seat as u8, &account.id).await?;
        }
    }
    Ok(())
}

async fn insert_step(
    conn: &mut AnyConnection,
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
        "INSERT INTO steps (game_id, seq, kind, seat, body, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6)",
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

/// A conditional update that changed nothing: another writer came first.
fn only_if(changed: bool) -> Result<(), StoreError> {
    if changed {
        Ok(())
    } else {
        Err(StoreError::Conflict)
    }
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
        ..GameRow::default()
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
