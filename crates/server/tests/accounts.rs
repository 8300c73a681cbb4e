//! Accounts and ratings through the API (docs/api.md, "Accounts", "Ratings"), on SQLite: the
//! session cookie and its flags, the protection against cross-site requests, wrong passwords
//! (the same answer for any name, and slowed after a few), sessions ended at logout and at a
//! password change, deleted accounts, passwords never shown, rated games. The cases are in
//! cases/accounts.rs; accounts_postgres.rs runs them on PostgreSQL.

#[path = "common/http.rs"]
mod http;

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

/// Another connection to the file makes the database refuse every new or changed row of
/// `table` (`on`), or no longer.
async fn refuse_writes_to(db: &str, table: &str, on: bool) {
    use sqlx::Connection;
    let mut other = sqlx::SqliteConnection::connect(db).await.unwrap();
    let sql = if on {
        format!(
            "CREATE TRIGGER refuse_insert BEFORE INSERT ON {table} \
             BEGIN SELECT RAISE(ABORT, 'refused by the test'); END; \
             CREATE TRIGGER refuse_update BEFORE UPDATE ON {table} \
             BEGIN SELECT RAISE(ABORT, 'refused by the test'); END;"
        )
    } else {
        "DROP TRIGGER refuse_insert; DROP TRIGGER refuse_update;".to_string()
    };
    sqlx::raw_sql(&sql).execute(&mut other).await.unwrap();
}

include!("cases/accounts.rs");
