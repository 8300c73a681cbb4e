//! The computer levels' ratings against people (docs/api.md, "Ratings"): moved in the
//! transaction that ends a game between an account and a level, with the arithmetic of the
//! people's ratings (crate::rating); the person's rating never moves.

use sqlx::{AnyConnection, Row};

use crate::live::{Seat, LEVELS};
use crate::rating::{self, Rating, Result1};

use super::{Backend, GameRow, Store, StoreError};

/// A level's rating at a game, as stored (or its prior, before any game).
#[derive(Clone, Debug, PartialEq)]
pub struct LevelRating {
    pub level: u8,
    pub rating: Rating,
    /// Games against people that rated it.
    pub games: i64,
}

/// Rates the computer levels of a game that has just ended against the accounts that held
/// its other seats, inside the transaction that ends it: once only (the game's
/// `ratings_done` turns to 1 here, as for a rated game, which has no computer seat), and only
/// when the game has a computer seat and an account holds another. Each level is rated (one
/// rating period) on its seats' pairwise results ([`rating::pairwise`]) against the accounts'
/// seats, each person counted at their rating for the game's speed, or else at their best
/// known rating at that game (the smallest deviation, any speed), or else at a new player's;
/// the levels' rows are locked on PostgreSQL in the order of the levels. The people's
/// ratings are read, never written.
pub(super) async fn rate_levels(
    conn: &mut AnyConnection,
    row: &GameRow,
    places: &[u8],
    at: i64,
    backend: Backend,
) -> Result<(), StoreError> {
    let levels: Vec<Option<u8>> = row
        .seats
        .iter()
        .map(|s| match Seat::parse_stored(s) {
            Ok(Seat::Computer(level)) => Some(level),
            _ => None,
        })
        .collect();
    let people: Vec<usize> = (0..row.seats.len())
        .filter(|&s| levels[s].is_none() && row.account(s).is_some())
        .collect();
    if people.is_empty() || levels.iter().all(Option::is_none) || places.len() != levels.len() {
        return Ok(());
    }
    let done = sqlx::query("UPDATE games SET ratings_done = 1 WHERE id = $1 AND ratings_done = 0")
        .bind(&row.id)
        .execute(&mut *conn)
        .await?;
    if done.rows_affected() == 0 {
        return Ok(());
    }
    let speed = row
        .clock
        .map_or("", |c| rating::speed(c.initial_ms, c.increment_ms));
    let mut person = vec![Rating::default(); levels.len()];
    for &s in &people {
        let account = row.account(s).expect("a person's seat has an account");
        let stored = sqlx::query(
            "SELECT rating, deviation, volatility, updated_at FROM ratings \
             WHERE user_id = $1 AND game = $2 ORDER BY (speed = $3) DESC, deviation LIMIT 1",
        )
        .bind(&account.id)
        .bind(&row.kind)
        .bind(speed)
        .fetch_optional(&mut *conn)
        .await?;
        if let Some(r) = stored {
            let rating = Rating {
                rating: r.try_get("rating")?,
                deviation: r.try_get("deviation")?,
                volatility: r.try_get("volatility")?,
            };
            person[s] = rating.idle_since(r.try_get("updated_at")?, at);
        }
    }
    // Each level's results against the people, all its seats together.
    let pairs = rating::pairwise(places);
    let mut played: Vec<(u8, Vec<Result1>)> = Vec::new();
    for (seat, level) in levels.iter().enumerate() {
        let Some(level) = *level else { continue };
        let results = pairs[seat]
            .iter()
            .filter(|(other, _)| people.contains(other))
            .map(|&(other, score)| Result1 {
                opponent: person[other],
                score,
            });
        match played.iter_mut().find(|(l, _)| *l == level) {
            Some((_, all)) => all.extend(results),
            None => played.push((level, results.collect())),
        }
    }
    played.sort_by_key(|(level, _)| *level);
    let lock = if backend == Backend::Postgres {
        " FOR UPDATE"
    } else {
        ""
    };
    for (level, results) in played {
        let prior = rating::level_prior(level, LEVELS);
        sqlx::query(
            "INSERT INTO level_ratings (game, level, rating, deviation, volatility, games, \
             updated_at) VALUES ($1, $2, $3, $4, $5, 0, $6) ON CONFLICT DO NOTHING",
        )
        .bind(&row.kind)
        .bind(i64::from(level))
        .bind(prior.rating)
        .bind(prior.deviation)
        .bind(prior.volatility)
        .bind(at)
        .execute(&mut *conn)
        .await?;
        let stored = sqlx::query(&format!(
            "SELECT level, rating, deviation, volatility, games, updated_at FROM level_ratings \
             WHERE game = $1 AND level = $2{lock}"
        ))
        .bind(&row.kind)
        .bind(i64::from(level))
        .fetch_one(&mut *conn)
        .await?;
        let before = level_rating(&stored)?
            .rating
            .idle_since(stored.try_get("updated_at")?, at);
        let after = before.update(&results, rating::TAU);
        sqlx::query(
            "UPDATE level_ratings SET rating = $1, deviation = $2, volatility = $3, \
             games = games + 1, updated_at = $4 WHERE game = $5 AND level = $6",
        )
        .bind(after.rating)
        .bind(after.deviation)
        .bind(after.volatility)
        .bind(at)
        .bind(&row.kind)
        .bind(i64::from(level))
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

fn level_rating(r: &sqlx::any::AnyRow) -> Result<LevelRating, StoreError> {
    Ok(LevelRating {
        level: u8::try_from(r.try_get::<i64, _>("level")?).unwrap_or(0),
        rating: Rating {
            rating: r.try_get("rating")?,
            deviation: r.try_get("deviation")?,
            volatility: r.try_get("volatility")?,
        },
        games: r.try_get("games")?,
    })
}

impl Store {
    /// Every level's rating at `game`, level 1 first: as stored, or its prior
    /// ([`rating::level_prior`]) for a level no person has played yet.
    pub async fn level_ratings(&self, game: &str) -> Result<Vec<LevelRating>, StoreError> {
        let stored = sqlx::query(
            "SELECT level, rating, deviation, volatility, games FROM level_ratings \
             WHERE game = $1",
        )
        .bind(game)
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(level_rating)
        .collect::<Result<Vec<_>, _>>()?;
        Ok((1..=LEVELS)
            .map(|level| {
                stored
                    .iter()
                    .find(|s| s.level == level)
                    .cloned()
                    .unwrap_or(LevelRating {
                        level,
                        rating: rating::level_prior(level, LEVELS),
                        games: 0,
                    })
            })
            .collect())
    }
}
