//! The API tests of api.rs (cases/api.rs) on PostgreSQL: a temporary server started for this
//! test program (common/pg.rs), a new database for each test.

#[path = "common/pg.rs"]
mod pg;

/// A new database on the shared temporary server.
fn fresh_db() -> String {
    pg::shared().database()
}

/// On PostgreSQL every database outlives its server process.
fn lasting_db() -> (String, ()) {
    (fresh_db(), ())
}

include!("cases/api.rs");
