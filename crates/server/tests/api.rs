//! The HTTP API through the router (no network), on SQLite: every endpoint, every refusal,
//! whole games, the computer's replies, and games that outlive the process (a new server on the
//! same database file replays them). The cases are in cases/api.rs; api_postgres.rs runs them
//! on PostgreSQL.

/// A new in-memory database.
fn fresh_db() -> String {
    "sqlite::memory:".to_string()
}

/// A database file in a temporary folder (removed when the folder is dropped).
fn lasting_db() -> (String, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite:{}", dir.path().join("games.db").display());
    (db, dir)
}

include!("cases/api.rs");
