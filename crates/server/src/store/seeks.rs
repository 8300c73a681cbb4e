//! Seeks and challenges in the store (docs/api.md, "Seeks and challenges"). A seek leaves the
//! state `open` once only: accepting it makes its game in the same transaction, so that of
//! two players accepting one seek at once, through one process or several, exactly one gets
//! the game.

use sqlx::Row;

use super::{insert_game, settings_text, GameRow, Store, StoreError, Write};
use crate::clock::ClockSpec;

/// A seek (or a challenge: `target` is the account challenged) as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct SeekRow {
    pub id: String,
    pub kind: String,
    pub settings: Vec<(String, String)>,
    pub clock: Option<ClockSpec>,
    pub rated: bool,
    /// The ratings the other player may have, both ends included.
    pub range: Option<(i64, i64)>,
    /// The account that asks, and its name (`None`: anonymous).
    pub user: Option<(String, String)>,
    /// The account challenged, and its name.
    pub target: Option<(String, String)>,
    /// The SHA-256 of the token of the seat the seeker will hold.
    pub token_hash: String,
    /// `open`, `accepted`, `cancelled` or `declined`.
    pub state: String,
    /// The game made when it was accepted.
    pub game_id: Option<String>,
    pub created_ms: i64,
    /// The seat the seeker takes (`None`: drawn at random when the seek is accepted; set
    /// then).
    pub seat: Option<u8>,
}

const COLUMNS: &str = "s.id, s.kind, s.settings, s.clock, s.rated, s.rating_min, s.rating_max, \
     s.user_id, u.name AS user_name, s.target_id, t.name AS target_name, s.token_hash, s.state, \
     s.game_id, s.created_at, s.seat FROM seeks s LEFT JOIN users u ON u.id = s.user_id \
     LEFT JOIN users t ON t.id = s.target_id";

fn corrupt(what: &str, e: impl std::fmt::Display) -> StoreError {
    StoreError::Database(format!("a stored seek's {what}: {e}"))
}

fn seek_row(r: &sqlx::any::AnyRow) -> Result<SeekRow, StoreError> {
    let settings: String = r.try_get("settings")?;
    let settings: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(&settings).map_err(|e| corrupt("settings", e))?;
    let clock = match r.try_get::<Option<String>, _>("clock")? {
        Some(text) => Some(serde_json::from_str(&text).map_err(|e| corrupt("clock", e))?),
        None => None,
    };
    let pair = |id: &str, name: &str| -> Result<Option<(String, String)>, StoreError> {
        Ok(
            match (
                r.try_get::<Option<String>, _>(id)?,
                r.try_get::<Option<String>, _>(name)?,
            ) {
                (Some(id), Some(name)) => Some((id, name)),
                _ => None,
            },
        )
    };
    let range = match (
        r.try_get::<Option<i64>, _>("rating_min")?,
        r.try_get::<Option<i64>, _>("rating_max")?,
    ) {
        (Some(a), Some(b)) => Some((a, b)),
        _ => None,
    };
    Ok(SeekRow {
        id: r.try_get("id")?,
        kind: r.try_get("kind")?,
        settings: settings
            .into_iter()
            .map(|(k, v)| (k, v.as_str().unwrap_or_default().to_string()))
            .collect(),
        clock,
        rated: r.try_get::<i64, _>("rated")? != 0,
        range,
        user: pair("user_id", "user_name")?,
        target: pair("target_id", "target_name")?,
        token_hash: r.try_get("token_hash")?,
        state: r.try_get("state")?,
        game_id: r.try_get("game_id")?,
        created_ms: r.try_get("created_at")?,
        seat: r
            .try_get::<Option<i64>, _>("seat")?
            .map(u8::try_from)
            .transpose()
            .map_err(|e| corrupt("seat", e))?,
    })
}

impl Store {
    pub async fn create_seek(&self, seek: &SeekRow) -> Result<(), StoreError> {
        let settings = settings_text(&seek.settings);
        let clock = seek
            .clock
            .map(|c| serde_json::to_string(&c).expect("a clock serialises"));
        let mut write = Write::begin(self).await?;
        sqlx::query(
            "INSERT INTO seeks (id, kind, settings, clock, rated, rating_min, rating_max, \
             user_id, target_id, token_hash, state, created_at, seat) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'open', $11, $12)",
        )
        .bind(&seek.id)
        .bind(&seek.kind)
        .bind(settings)
        .bind(clock)
        .bind(seek.rated as i64)
        .bind(seek.range.map(|r| r.0))
        .bind(seek.range.map(|r| r.1))
        .bind(seek.user.as_ref().map(|u| u.0.clone()))
        .bind(seek.target.as_ref().map(|t| t.0.clone()))
        .bind(&seek.token_hash)
        .bind(seek.created_ms)
        .bind(seek.seat.map(i64::from))
        .execute(write.conn())
        .await?;
        write.commit().await
    }

    pub async fn seek(&self, id: &str) -> Result<Option<SeekRow>, StoreError> {
        sqlx::query(&format!("SELECT {COLUMNS} WHERE s.id = $1"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?
            .map(|r| seek_row(&r))
            .transpose()
    }

    /// The open seeks of the lobby (not the challenges), newest first.
    pub async fn open_seeks(&self, limit: u32) -> Result<Vec<SeekRow>, StoreError> {
        sqlx::query(&format!(
            "SELECT {COLUMNS} WHERE s.state = 'open' AND s.target_id IS NULL \
             ORDER BY s.created_at DESC LIMIT $1"
        ))
        .bind(limit as i64)
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(seek_row)
        .collect()
    }

    /// The open challenges an account made or received, newest first.
    pub async fn challenges_of(&self, user_id: &str) -> Result<Vec<SeekRow>, StoreError> {
        sqlx::query(&format!(
            "SELECT {COLUMNS} WHERE s.state = 'open' AND s.target_id IS NOT NULL \
             AND (s.user_id = $1 OR s.target_id = $1) ORDER BY s.created_at DESC LIMIT 100"
        ))
        .bind(user_id)
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(seek_row)
        .collect()
    }

    /// Closes an open seek (`cancelled` or `declined`): false when it was no longer open.
    pub async fn close_seek(&self, id: &str, state: &str) -> Result<bool, StoreError> {
        let mut write = Write::begin(self).await?;
        let done = sqlx::query("UPDATE seeks SET state = $1 WHERE id = $2 AND state = 'open'")
            .bind(state)
            .bind(id)
            .execute(write.conn())
            .await?;
        write.commit().await?;
        Ok(done.rows_affected() == 1)
    }

    /// Accepts an open seek with the game it makes, the seeker at `seat`, in one
    /// transaction: [`StoreError::Conflict`] when it is no longer open (nothing is written).
    pub async fn accept_seek(&self, id: &str, game: &GameRow, seat: u8) -> Result<(), StoreError> {
        let mut write = Write::begin(self).await?;
        let done = sqlx::query(
            "UPDATE seeks SET state = 'accepted', game_id = $1, seat = $2 \
             WHERE id = $3 AND state = 'open'",
        )
        .bind(&game.id)
        .bind(i64::from(seat))
        .bind(id)
        .execute(write.conn())
        .await?;
        if done.rows_affected() != 1 {
            write.commit().await?;
            return Err(StoreError::Conflict);
        }
        insert_game(write.conn(), game).await?;
        write.commit().await
    }

    /// How many open seeks and challenges an account has.
    pub async fn open_seeks_of(&self, user_id: &str) -> Result<u64, StoreError> {
        let row =
            sqlx::query("SELECT COUNT(*) AS n FROM seeks WHERE user_id = $1 AND state = 'open'")
                .bind(user_id)
                .fetch_one(&self.pool)
                .await?;
        Ok(row.try_get::<i64, _>("n")?.max(0) as u64)
    }
}
