//! Accounts and ratings through the API (docs/api.md, "Accounts", "Ratings"), on SQLite: the
//! session cookie and its flags, the protection against cross-site requests, wrong passwords
//! (the same answer for any name, and slowed after a few), sessions ended at logout and at a
//! password change, deleted accounts, passwords never shown, rated games. The cases are in
//! cases/accounts.rs; accounts_postgres.rs runs them on PostgreSQL.

/// A new in-memory database.
fn fresh_db() -> String {
    "sqlite::memory:".to_string()
}

include!("cases/accounts.rs");
