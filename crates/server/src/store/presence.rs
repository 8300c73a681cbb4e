//! When each seat of a rated game was last seen on a WebSocket (docs/api.md, "A player who
//! left"), for every server process to read: a claim against a player who left is judged on
//! it.

use sqlx::Row;

use super::{Store, StoreError, Write};

impl Store {
    /// Seat `seat` of game `id` is seen at `at_ms` (a later time only moves it on).
    pub async fn seen(&self, id: &str, seat: u8, at_ms: i64) -> Result<(), StoreError> {
        let mut write = Write::begin(self).await?;
        sqlx::query(
            "INSERT INTO presence (game_id, seat, seen_at) VALUES ($1, $2, $3) \
             ON CONFLICT (game_id, seat) DO UPDATE SET seen_at = excluded.seen_at \
             WHERE presence.seen_at < excluded.seen_at",
        )
        .bind(id)
        .bind(i64::from(seat))
        .bind(at_ms)
        .execute(write.conn())
        .await?;
        write.commit().await
    }

    /// When each seat of game `id` was last seen (`None`: never), for `seats` seats.
    pub async fn seen_times(&self, id: &str, seats: usize) -> Result<Vec<Option<i64>>, StoreError> {
        let mut times = vec![None; seats];
        for r in sqlx::query("SELECT seat, seen_at FROM presence WHERE game_id = $1")
            .bind(id)
            .fetch_all(&self.pool)
            .await?
        {
            let seat = r.try_get::<i64, _>("seat")?;
            if let Some(t) = usize::try_from(seat).ok().and_then(|s| times.get_mut(s)) {
                *t = Some(r.try_get::<i64, _>("seen_at")?);
            }
        }
        Ok(times)
    }
}
