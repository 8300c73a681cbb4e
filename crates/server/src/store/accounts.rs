//! Accounts in the store: users, their sessions, the seats they hold and their ratings
//! (docs/api.md, "Accounts"). Every write that belongs together is one transaction.

use std::collections::HashMap;

use sqlx::{AnyConnection, Row};

use super::{corrupt, now, Backend, GameRow, SeatAccount, Store, StoreError, Write};
use crate::rating::{self, Rating, RatingChange, SeatChange};

/// An account as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UserRow {
    pub id: String,
    /// The name as it was written at sign-up.
    pub name: String,
    /// The Argon2id hash of the password (a PHC string).
    pub password_hash: String,
    pub created_ms: i64,
}

/// One rating of an account.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingRow {
    pub game: String,
    pub speed: String,
    pub rating: Rating,
    /// Rated games played at this game and speed.
    pub games: i64,
    pub updated_ms: i64,
}

fn user(row: &sqlx::any::AnyRow) -> Result<UserRow, StoreError> {
    Ok(UserRow {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        password_hash: row.try_get("password_hash")?,
        created_ms: row.try_get("created_at")?,
    })
}

/// The key of a name: two names that differ only in letter case are one.
pub fn name_key(name: &str) -> String {
    name.to_lowercase()
}

impl Store {
    /// Creates an account: [`StoreError::Conflict`] when the name (in any letter case) is taken.
    pub async fn create_user(&self, user: &UserRow) -> Result<(), StoreError> {
        let mut write = Write::begin(self).await?;
        // A name taken is no error of the database's: the transaction ends normally.
        let done = sqlx::query(
            "INSERT INTO users (id, name, name_key, password_hash, created_at) \
             VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
        )
        .bind(&user.id)
        .bind(&user.name)
        .bind(name_key(&user.name))
        .bind(&user.password_hash)
        .bind(user.created_ms)
        .execute(write.conn())
        .await?;
        write.commit().await?;
        if done.rows_affected() == 0 {
            return Err(StoreError::Conflict);
        }
        Ok(())
    }

    /// The account with this name, in any letter case.
    pub async fn user_by_name(&self, name: &str) -> Result<Option<UserRow>, StoreError> {
        sqlx::query("SELECT id, name, password_hash, created_at FROM users WHERE name_key = $1")
            .bind(name_key(name))
            .fetch_optional(&self.pool)
            .await?
            .map(|r| user(&r))
            .transpose()
    }

    /// Starts a session of `user_id` whose cookie hashes to `id_hash`; `replaces`: the hash of
    /// the session the browser had, ended in the same transaction (the id changes at login).
    /// The sessions of every account that started before `born_after` (milliseconds since
    /// the epoch), expired, are removed with it.
    pub async fn create_session(
        &self,
        id_hash: &str,
        user_id: &str,
        replaces: Option<&str>,
        born_after: i64,
    ) -> Result<(), StoreError> {
        let mut write = Write::begin(self).await?;
        if let Some(old) = replaces {
            end_session(write.conn(), old).await?;
        }
        sqlx::query("DELETE FROM sessions WHERE created_at <= $1")
            .bind(born_after)
            .execute(write.conn())
            .await?;
        insert_session(write.conn(), id_hash, user_id).await?;
        write.commit().await
    }

    /// The account of the session whose cookie hashes to `id_hash`, if it is still open: not
    /// ended, and started after `born_after` (milliseconds since the epoch).
    pub async fn session_user(
        &self,
        id_hash: &str,
        born_after: i64,
    ) -> Result<Option<UserRow>, StoreError> {
        sqlx::query(
            "SELECT u.id, u.name, u.password_hash, u.created_at FROM sessions s \
             JOIN users u ON u.id = s.user_id WHERE s.id_hash = $1 AND s.created_at > $2",
        )
        .bind(id_hash)
        .bind(born_after)
        .fetch_optional(&self.pool)
        .await?
        .map(|r| user(&r))
        .transpose()
    }

    /// Ends one session (a logout).
    pub async fn end_session(&self, id_hash: &str) -> Result<(), StoreError> {
        let mut write = Write::begin(self).await?;
        end_session(write.conn(), id_hash).await?;
        write.commit().await
    }

    /// Sets an account's password hash, ends every session of the account and starts one
    /// (`new_session`, the hash of the requester's new cookie), in one transaction.
    pub async fn set_password(
        &self,
        user_id: &str,
        password_hash: &str,
        new_session: &str,
    ) -> Result<(), StoreError> {
        let mut write = Write::begin(self).await?;
        sqlx::query("UPDATE users SET password_hash = $1 WHERE id = $2")
            .bind(password_hash)
            .bind(user_id)
            .execute(write.conn())
            .await?;
        sqlx::query("DELETE FROM sessions WHERE user_id = $1")
            .bind(user_id)
            .execute(write.conn())
            .await?;
        insert_session(write.conn(), new_session, user_id).await?;
        write.commit().await
    }

    /// Deletes an account with its sessions, ratings and its name on the seats it held and in
    /// the rating changes of its rated games: its games stay, anonymous.
    /// Deletes an account: its sessions, seeks, ratings and seats go, its games stay without
    /// its name (also in their rating changes). Returns the ids of the games it held a seat
    /// of, which are announced to the other server processes (PostgreSQL) so that they drop
    /// the name from the games they hold in memory.
    pub async fn delete_user(&self, user_id: &str) -> Result<Vec<String>, StoreError> {
        let mut write = Write::begin(self).await?;
        let games: Vec<String> =
            sqlx::query("SELECT DISTINCT game_id FROM game_players WHERE user_id = $1")
                .bind(user_id)
                .fetch_all(write.conn())
                .await?
                .iter()
                .map(|r| r.try_get("game_id"))
                .collect::<Result<_, _>>()?;
        let rated = sqlx::query(
            "SELECT g.id, g.rating_change, p.seat FROM game_players p \
             JOIN games g ON g.id = p.game_id \
             WHERE p.user_id = $1 AND g.rating_change IS NOT NULL",
        )
        .bind(user_id)
        .fetch_all(write.conn())
        .await?;
        for r in rated {
            let text: String = r.try_get("rating_change")?;
            let mut change: RatingChange =
                serde_json::from_str(&text).map_err(|e| StoreError::Database(e.to_string()))?;
            // (a rated game's every seat is an account's: one change a seat, in their order)
            let seat = usize::try_from(r.try_get::<i64, _>("seat")?).unwrap_or(usize::MAX);
            if let Some(s) = change.seats.get_mut(seat) {
                s.name = None;
            }
            let text =
                serde_json::to_string(&change).map_err(|e| StoreError::Database(e.to_string()))?;
            sqlx::query("UPDATE games SET rating_change = $1 WHERE id = $2")
                .bind(text)
                .bind(r.try_get::<String, _>("id")?)
                .execute(write.conn())
                .await?;
        }
        sqlx::query("DELETE FROM seeks WHERE user_id = $1 OR target_id = $1")
            .bind(user_id)
            .execute(write.conn())
            .await?;
        for table in [
            "sessions",
            "game_players",
            "ratings",
            "rating_history",
            "users",
        ] {
            let column = if table == "users" { "id" } else { "user_id" };
            sqlx::query(&format!("DELETE FROM {table} WHERE {column} = $1"))
                .bind(user_id)
                .execute(write.conn())
                .await?;
        }
        if self.backend == Backend::Postgres {
            for id in &games {
                self.announce(write.conn(), id).await?;
            }
        }
        write.commit().await?;
        Ok(games)
    }

    /// An account's ratings, by game and speed.
    pub async fn ratings_of(&self, user_id: &str) -> Result<Vec<RatingRow>, StoreError> {
        sqlx::query(
            "SELECT game, speed, rating, deviation, volatility, games, updated_at FROM ratings \
             WHERE user_id = $1 ORDER BY game, speed",
        )
        .bind(user_id)
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(rating_row)
        .collect()
    }
}

fn rating_row(r: &sqlx::any::AnyRow) -> Result<RatingRow, StoreError> {
    Ok(RatingRow {
        game: r.try_get("game")?,
        speed: r.try_get("speed")?,
        rating: Rating {
            rating: r.try_get("rating")?,
            deviation: r.try_get("deviation")?,
            volatility: r.try_get("volatility")?,
        },
        games: r.try_get("games")?,
        updated_ms: r.try_get("updated_at")?,
    })
}

async fn insert_session(
    conn: &mut AnyConnection,
    id_hash: &str,
    user_id: &str,
) -> Result<(), StoreError> {
    let at = now();
    sqlx::query(
        "INSERT INTO sessions (id_hash, user_id, created_at, used_at) VALUES ($1, $2, $3, $4)",
    )
    .bind(id_hash)
    .bind(user_id)
    .bind(at)
    .bind(at)
    .execute(conn)
    .await?;
    Ok(())
}

async fn end_session(conn: &mut AnyConnection, id_hash: &str) -> Result<(), StoreError> {
    sqlx::query("DELETE FROM sessions WHERE id_hash = $1")
        .bind(id_hash)
        .execute(conn)
        .await?;
    Ok(())
}

/// Records that the account `user_id` holds `seat` of `game`.
pub(super) async fn seat_account(
    conn: &mut AnyConnection,
    game: &GameRow,
    seat: u8,
    user_id: &str,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO game_players (game_id, seat, user_id, created_at) VALUES ($1, $2, $3, $4)",
    )
    .bind(&game.id)
    .bind(i64::from(seat))
    .bind(user_id)
    .bind(game.created_ms)
    .execute(conn)
    .await?;
    Ok(())
}

/// A seat's result by its place: a win alone in first place, a draw shared, else a loss.
pub fn seat_result(places: &[u8], seat: usize) -> &'static str {
    let first = places.iter().filter(|&&p| p == 0).count();
    match (places.get(seat), first) {
        (Some(0), 1) => "win",
        (Some(0), _) => "draw",
        _ => "loss",
    }
}

/// Writes the results of the seats accounts hold in a game that has just ended.
pub(super) async fn results(
    conn: &mut AnyConnection,
    row: &GameRow,
    places: &[u8],
) -> Result<(), StoreError> {
    for seat in 0..places.len() {
        if row.account(seat).is_none() {
            continue;
        }
        sqlx::query("UPDATE game_players SET result = $1 WHERE game_id = $2 AND seat = $3")
            .bind(seat_result(places, seat))
            .bind(&row.id)
            .bind(seat as i64)
            .execute(&mut *conn)
            .await?;
    }
    Ok(())
}

/// The accounts holding the seats of a game (`None` for a seat no account holds).
pub(super) async fn seat_accounts(
    conn: &mut AnyConnection,
    game_id: &str,
    seats: usize,
) -> Result<Vec<Option<SeatAccount>>, StoreError> {
    let rows = sqlx::query(
        "SELECT p.seat, u.id, u.name FROM game_players p JOIN users u ON u.id = p.user_id \
         WHERE p.game_id = $1",
    )
    .bind(game_id)
    .fetch_all(conn)
    .await?;
    if rows.is_empty() {
        return Ok(Vec::new());
    }
    let mut out = vec![None; seats];
    for r in rows {
        let seat = r.try_get::<i64, _>("seat")?;
        if let Some(place) = usize::try_from(seat).ok().and_then(|s| out.get_mut(s)) {
            *place = Some(SeatAccount {
                id: r.try_get("id")?,
                name: r.try_get("name")?,
            });
        }
    }
    Ok(out)
}

/// Rates a rated game that has just ended, inside the transaction that ends it: once only
/// (`ratings_done` turns to 1 here, and a game whose flag is already set is left alone), and
/// only when an account holds every seat. Each player's rating is read (locked, on
/// PostgreSQL, in the order of the accounts' ids, so that two games ending at once never
/// wait on each other in a circle), widened for the time since their last rated game, and
/// rated on the game's pairwise results ([`rating::rate_game`]); the history gets a row per
/// player and the game the change (`rating_change`).
pub(super) async fn rate(
    conn: &mut AnyConnection,
    row: &GameRow,
    places: &[u8],
    at: i64,
    backend: Backend,
) -> Result<(), StoreError> {
    let accounts: Vec<&SeatAccount> = row.accounts.iter().flatten().collect();
    let Some(clock) = row.clock else {
        return Ok(());
    };
    if accounts.len() != places.len() || row.accounts.len() != places.len() {
        return Ok(());
    }
    let done = sqlx::query(
        "UPDATE games SET ratings_done = 1 WHERE id = $1 AND rated = 1 AND ratings_done = 0",
    )
    .bind(&row.id)
    .execute(&mut *conn)
    .await?;
    if done.rows_affected() == 0 {
        return Ok(());
    }
    let speed = rating::speed(clock.initial_ms, clock.increment_ms);
    let mut order: Vec<usize> = (0..accounts.len()).collect();
    order.sort_by(|&a, &b| accounts[a].id.cmp(&accounts[b].id));
    let mut before = vec![Rating::default(); accounts.len()];
    let mut shown = vec![Rating::default(); accounts.len()];
    let lock = if backend == Backend::Postgres {
        " FOR UPDATE"
    } else {
        ""
    };
    for &i in &order {
        let fresh = Rating::default();
        sqlx::query(
            "INSERT INTO ratings (user_id, game, speed, rating, deviation, volatility, games, \
             updated_at) VALUES ($1, $2, $3, $4, $5, $6, 0, $7) ON CONFLICT DO NOTHING",
        )
        .bind(&accounts[i].id)
        .bind(&row.kind)
        .bind(speed)
        .bind(fresh.rating)
        .bind(fresh.deviation)
        .bind(fresh.volatility)
        .bind(at)
        .execute(&mut *conn)
        .await?;
        let stored = sqlx::query(&format!(
            "SELECT game, speed, rating, deviation, volatility, games, updated_at FROM ratings \
             WHERE user_id = $1 AND game = $2 AND speed = $3{lock}"
        ))
        .bind(&accounts[i].id)
        .bind(&row.kind)
        .bind(speed)
        .fetch_one(&mut *conn)
        .await?;
        let stored = rating_row(&stored)?;
        shown[i] = stored.rating;
        before[i] = stored.rating.idle_since(stored.updated_ms, at);
    }
    let after = rating::rate_game(&before, places);
    let mut change = Vec::new();
    for (i, account) in accounts.iter().enumerate() {
        let a = after[i];
        sqlx::query(
            "UPDATE ratings SET rating = $1, deviation = $2, volatility = $3, \
             games = games + 1, updated_at = $4 WHERE user_id = $5 AND game = $6 AND speed = $7",
        )
        .bind(a.rating)
        .bind(a.deviation)
        .bind(a.volatility)
        .bind(at)
        .bind(&account.id)
        .bind(&row.kind)
        .bind(speed)
        .execute(&mut *conn)
        .await?;
        sqlx::query(
            "INSERT INTO rating_history (user_id, game, speed, game_id, rating, deviation, at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(&account.id)
        .bind(&row.kind)
        .bind(speed)
        .bind(&row.id)
        .bind(a.rating)
        .bind(a.deviation)
        .bind(at)
        .execute(&mut *conn)
        .await?;
        let (old, new) = (shown[i].rating.round(), a.rating.round());
        change.push(SeatChange {
            name: Some(account.name.clone()),
            before: old,
            after: new,
            change: new - old,
            provisional: a.provisional(),
        });
    }
    let change = RatingChange {
        speed: speed.to_string(),
        seats: change,
    };
    let change = serde_json::to_string(&change).map_err(|e| StoreError::Database(e.to_string()))?;
    sqlx::query("UPDATE games SET rating_change = $1 WHERE id = $2")
        .bind(change)
        .bind(&row.id)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

impl Store {
    /// A rated game's rating change (JSON text), once it is rated.
    pub async fn rating_change(&self, game_id: &str) -> Result<Option<String>, StoreError> {
        let row = sqlx::query("SELECT rating_change FROM games WHERE id = $1")
            .bind(game_id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            Some(r) => r.try_get("rating_change")?,
            None => None,
        })
    }
}

/// A game an account played, for its profile (which shows it as it is: an entry of the
/// profile's `games`, docs/api.md).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct PlayedGame {
    pub id: String,
    pub game: String,
    pub seat: u8,
    /// `win`, `draw` or `loss`; `None` while the game goes on.
    pub result: Option<String>,
    pub rated: bool,
    pub created_ms: i64,
    /// Every seat as stored (`human`, `online`, `open` or `computer:<level>`).
    #[serde(skip)]
    pub seats: Vec<String>,
    /// The account holding each seat, by name (`None` for a seat no account holds).
    #[serde(skip)]
    pub accounts: Vec<Option<String>>,
}

/// One point of a rating's history.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingPoint {
    pub game: String,
    pub speed: String,
    pub at_ms: i64,
    pub rating: f64,
}

/// A line of a game's rating list.
#[derive(Clone, Debug, PartialEq)]
pub struct Ranked {
    pub name: String,
    pub rating: RatingRow,
}

impl Store {
    /// The account with this id.
    pub async fn user_by_id(&self, id: &str) -> Result<Option<UserRow>, StoreError> {
        sqlx::query("SELECT id, name, password_hash, created_at FROM users WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?
            .map(|r| user(&r))
            .transpose()
    }

    /// The games an account played, newest first (of one moment, by id; at most `limit`),
    /// each with its seats and the accounts that hold them.
    pub async fn games_of(&self, user_id: &str, limit: u32) -> Result<Vec<PlayedGame>, StoreError> {
        let mut games = sqlx::query(
            "SELECT p.game_id, g.kind, p.seat, p.result, g.rated, p.created_at, g.seats \
             FROM game_players p JOIN games g ON g.id = p.game_id WHERE p.user_id = $1 \
             ORDER BY p.created_at DESC, p.game_id LIMIT $2",
        )
        .bind(user_id)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(|r| {
            let seats: Vec<String> = serde_json::from_str(&r.try_get::<String, _>("seats")?)
                .map_err(|e| corrupt("seats", e))?;
            Ok(PlayedGame {
                id: r.try_get("game_id")?,
                game: r.try_get("kind")?,
                seat: u8::try_from(r.try_get::<i64, _>("seat")?).unwrap_or(0),
                result: r.try_get("result")?,
                rated: r.try_get::<i64, _>("rated")? != 0,
                created_ms: r.try_get("created_at")?,
                accounts: vec![None; seats.len()],
                seats,
            })
        })
        .collect::<Result<Vec<_>, StoreError>>()?;
        // Who holds each seat of those games, by name.
        let holders = sqlx::query(
            "SELECT o.game_id, o.seat, u.name FROM game_players o \
             JOIN users u ON u.id = o.user_id WHERE o.game_id IN \
             (SELECT p.game_id FROM game_players p WHERE p.user_id = $1 \
              ORDER BY p.created_at DESC, p.game_id LIMIT $2)",
        )
        .bind(user_id)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        let index: HashMap<String, usize> = games
            .iter()
            .enumerate()
            .map(|(i, g)| (g.id.clone(), i))
            .collect();
        for r in &holders {
            let id: String = r.try_get("game_id")?;
            let seat = usize::try_from(r.try_get::<i64, _>("seat")?).unwrap_or(usize::MAX);
            if let Some(slot) = index
                .get(&id)
                .and_then(|&i| games[i].accounts.get_mut(seat))
            {
                *slot = Some(r.try_get("name")?);
            }
        }
        Ok(games)
    }

    /// How many games an account won, drew and lost, per game id: `(game, result, count)`.
    pub async fn tallies(&self, user_id: &str) -> Result<Vec<(String, String, i64)>, StoreError> {
        sqlx::query(
            "SELECT g.kind, p.result, COUNT(*) AS n FROM game_players p \
             JOIN games g ON g.id = p.game_id WHERE p.user_id = $1 AND p.result IS NOT NULL \
             GROUP BY g.kind, p.result ORDER BY g.kind",
        )
        .bind(user_id)
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(|r| Ok((r.try_get("kind")?, r.try_get("result")?, r.try_get("n")?)))
        .collect()
    }

    /// An account's rating after each of its rated games, oldest first.
    pub async fn rating_history(&self, user_id: &str) -> Result<Vec<RatingPoint>, StoreError> {
        sqlx::query(
            "SELECT game, speed, at, rating FROM rating_history WHERE user_id = $1 \
             ORDER BY at, game_id",
        )
        .bind(user_id)
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(|r| {
            Ok(RatingPoint {
                game: r.try_get("game")?,
                speed: r.try_get("speed")?,
                at_ms: r.try_get("at")?,
                rating: r.try_get("rating")?,
            })
        })
        .collect()
    }

    /// The best ratings at a game (every speed), highest first (at most `limit`).
    pub async fn rating_list(&self, game: &str, limit: u32) -> Result<Vec<Ranked>, StoreError> {
        sqlx::query(
            "SELECT u.name, r.game, r.speed, r.rating, r.deviation, r.volatility, r.games, \
             r.updated_at FROM ratings r JOIN users u ON u.id = r.user_id WHERE r.game = $1 \
             ORDER BY r.rating DESC, u.name LIMIT $2",
        )
        .bind(game)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(|r| {
            Ok(Ranked {
                name: r.try_get("name")?,
                rating: rating_row(r)?,
            })
        })
        .collect()
    }
}
