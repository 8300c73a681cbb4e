//! Seeks and challenges (docs/api.md, "Seeks and challenges"): a game asked for in the lobby,
//! with its game, clock and the ratings the other player may have, or of one named player; the
//! first to accept gets the game. Only the seeker cancels a seek (with its account or its
//! token), only the player challenged accepts or declines a challenge.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::Value;

use crate::accounts::{current_user, logged_in, user_named};
use crate::api::{body, settings_of, ApiError, ClockRequest};
use crate::clock::ClockSpec;
use crate::live::{hash_token, new_id, new_token, App};
use crate::rating::{self, Rating};
use crate::store::{now, SeekRow, UserRow};
use crate::views::accounts::{ChallengesView, SeekMadeView, SeekTakenView, SeekView};

/// The most open seeks and challenges of one account.
const OPEN_SEEKS: u64 = 20;
/// The most seeks the lobby lists.
const LOBBY_SEEKS: u32 = 100;
/// The ratings a range may name.
const RATINGS: std::ops::RangeInclusive<i64> = 0..=4000;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RangeRequest {
    min: i64,
    max: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeekRequest {
    game: String,
    #[serde(default)]
    settings: serde_json::Map<String, Value>,
    #[serde(default)]
    clock: Option<ClockRequest>,
    #[serde(default)]
    rated: bool,
    #[serde(default)]
    range: Option<RangeRequest>,
    /// A challenge to the account of this name.
    #[serde(default)]
    to: Option<String>,
    /// The seat the seeker takes: a number, or `"random"` (the default: seat 0).
    #[serde(default)]
    seat: Option<Value>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct SeekToken {
    #[serde(default)]
    token: Option<String>,
}

/// A body that may be empty (then `T::default()`).
fn optional_body<T: DeserializeOwned + Default>(
    bytes: Result<Bytes, BytesRejection>,
) -> Result<T, ApiError> {
    match &bytes {
        Ok(b) if b.iter().all(u8::is_ascii_whitespace) => Ok(T::default()),
        _ => body(bytes),
    }
}

fn bad(msg: crate::i18n::Msg) -> ApiError {
    ApiError(StatusCode::BAD_REQUEST, msg)
}

/// The rating of an account at a seek's game and speed (a new player's when it has none).
async fn rating_at(app: &App, user_id: &str, seek: &SeekRow) -> Result<Option<f64>, ApiError> {
    let Some(clock) = seek.clock else {
        return Ok(None);
    };
    let speed = rating::speed(clock.initial_ms, clock.increment_ms);
    let rating = app
        .store
        .ratings_of(user_id)
        .await?
        .into_iter()
        .find(|r| r.game == seek.kind && r.speed == speed)
        .map_or(Rating::default(), |r| r.rating);
    Ok(Some(rating.rating.round()))
}

/// A seek as the API shows it; `viewer`: the account looking, to say whether the seek is open
/// to it (`fits`).
async fn view(app: &App, seek: &SeekRow, viewer: Option<&UserRow>) -> Result<SeekView, ApiError> {
    let rating = match &seek.user {
        Some((id, _)) => rating_at(app, id, seek).await?,
        None => None,
    };
    let fits = match viewer {
        Some(v) if seek.user.as_ref().is_some_and(|(id, _)| *id == v.id) => false,
        Some(v) => match (&seek.target, seek.range) {
            (Some((target, _)), _) => *target == v.id,
            (None, Some((min, max))) => rating_at(app, &v.id, seek)
                .await?
                .is_some_and(|r| (min as f64..=max as f64).contains(&r)),
            (None, None) => true,
        },
        None => !seek.rated && seek.range.is_none() && seek.target.is_none(),
    };
    Ok(SeekView::new(seek, rating, fits))
}

/// The seek with this id: `404` for none (an id is letters and digits: another is never asked
/// of the database).
async fn find(app: &App, id: &str) -> Result<SeekRow, ApiError> {
    let none = || ApiError(StatusCode::NOT_FOUND, msg!("api-no-seek", id = id));
    if id.is_empty() || id.len() > 64 || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return Err(none());
    }
    app.store.seek(id).await?.ok_or_else(none)
}

fn closed() -> ApiError {
    ApiError(StatusCode::CONFLICT, msg!("api-seek-closed"))
}

fn not_yours() -> ApiError {
    ApiError(StatusCode::FORBIDDEN, msg!("api-seek-not-yours"))
}

/// `POST /api/seeks`: `201` `{"id", "token", "seek"}`.
pub async fn create(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    bytes: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let req: SeekRequest = body(bytes)?;
    let user = current_user(&app, &headers).await?;
    let needs_account = req.rated || req.to.is_some() || req.range.is_some();
    if user.is_none() && needs_account {
        return Err(ApiError(
            StatusCode::UNAUTHORIZED,
            msg!("api-not-logged-in"),
        ));
    }
    let game = myrmidon_rules::registry::find(&req.game).map_err(|e| {
        ApiError(
            StatusCode::NOT_FOUND,
            msg!("api-unknown-game", detail = e.to_string()),
        )
    })?;
    let players = game.info().players.len();
    let seat = match &req.seat {
        None => Some(0),
        Some(Value::String(s)) if s == "random" => None,
        Some(v) => match v.as_u64() {
            Some(n) if (n as usize) < players => Some(n as u8),
            _ => {
                return Err(bad(msg!(
                    "api-seek-seat",
                    seat = v.to_string(),
                    last = players - 1
                )))
            }
        },
    };
    let settings = settings_of(req.settings)?;
    game.new_game(&myrmidon_rules::Settings(settings.clone()))
        .map_err(|e| bad(msg!("api-settings", detail = e.to_string())))?;
    let clock = match &req.clock {
        Some(c) => Some(ClockSpec::from_request(c.minutes, c.increment).map_err(bad)?),
        None => None,
    };
    if req.rated && clock.is_none() {
        return Err(bad(msg!("api-rated-rules")));
    }
    let range = match req.range {
        Some(r) => {
            if clock.is_none()
                || r.min > r.max
                || !RATINGS.contains(&r.min)
                || !RATINGS.contains(&r.max)
            {
                return Err(bad(msg!("api-seek-range-rules")));
            }
            Some((r.min, r.max))
        }
        None => None,
    };
    let target = match &req.to {
        Some(name) => {
            let Some(t) = user_named(&app, name).await? else {
                return Err(ApiError(
                    StatusCode::NOT_FOUND,
                    msg!("api-no-user", name = name.as_str()),
                ));
            };
            if user.as_ref().is_some_and(|u| u.id == t.id) {
                return Err(bad(msg!("api-seek-own")));
            }
            Some((t.id, t.name))
        }
        None => None,
    };
    if let Some(u) = &user {
        if app.store.open_seeks_of(&u.id).await? >= OPEN_SEEKS {
            return Err(ApiError(
                StatusCode::TOO_MANY_REQUESTS,
                msg!("api-too-many-seeks", most = OPEN_SEEKS),
            ));
        }
    }
    let token = new_token();
    let seek = SeekRow {
        id: new_id(),
        kind: game.info().id.to_string(),
        settings,
        clock,
        rated: req.rated,
        range,
        user: user.as_ref().map(|u| (u.id.clone(), u.name.clone())),
        target,
        token_hash: hash_token(&token),
        state: "open".into(),
        game_id: None,
        created_ms: now(),
        seat,
    };
    app.store.create_seek(&seek).await?;
    let shown = view(&app, &seek, user.as_ref()).await?;
    Ok((
        StatusCode::CREATED,
        Json(SeekMadeView {
            id: seek.id.clone(),
            token,
            seek: shown,
        }),
    )
        .into_response())
}

/// `GET /api/seeks`: the open seeks of the lobby, newest first.
pub async fn lobby(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
) -> Result<Json<Vec<SeekView>>, ApiError> {
    let viewer = current_user(&app, &headers).await?;
    let mut out = Vec::new();
    for seek in app.store.open_seeks(LOBBY_SEEKS).await? {
        out.push(view(&app, &seek, viewer.as_ref()).await?);
    }
    Ok(Json(out))
}

/// `GET /api/seeks/{id}`: a seek, open or not (once accepted, its game's id).
pub async fn get(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<SeekView>, ApiError> {
    let viewer = current_user(&app, &headers).await?;
    let seek = find(&app, &id).await?;
    Ok(Json(view(&app, &seek, viewer.as_ref()).await?))
}

/// `GET /api/challenges`: the open challenges the account received and made.
pub async fn challenges(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
) -> Result<Json<ChallengesView>, ApiError> {
    let user = logged_in(&app, &headers).await?;
    let (mut incoming, mut outgoing) = (Vec::new(), Vec::new());
    for seek in app.store.challenges_of(&user.id).await? {
        let shown = view(&app, &seek, Some(&user)).await?;
        if seek.target.as_ref().is_some_and(|(id, _)| *id == user.id) {
            incoming.push(shown);
        } else {
            outgoing.push(shown);
        }
    }
    Ok(Json(ChallengesView { incoming, outgoing }))
}

/// `POST /api/seeks/{id}/accept`: `201` `{"id", "seat", "token", "state"}`, the game made.
pub async fn accept(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    bytes: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let _: SeekToken = optional_body(bytes)?;
    let seek = find(&app, &id).await?;
    let user = current_user(&app, &headers).await?;
    if seek.state != "open" {
        return Err(closed());
    }
    let needs_account = seek.rated || seek.range.is_some() || seek.target.is_some();
    let user = match user {
        Some(u) => Some(u),
        None if needs_account => {
            return Err(ApiError(
                StatusCode::UNAUTHORIZED,
                msg!("api-not-logged-in"),
            ))
        }
        None => None,
    };
    if let Some(u) = &user {
        if seek.user.as_ref().is_some_and(|(id, _)| *id == u.id) {
            return Err(ApiError(StatusCode::FORBIDDEN, msg!("api-seek-own")));
        }
        if seek.target.as_ref().is_some_and(|(id, _)| *id != u.id) {
            return Err(not_yours());
        }
        if let Some((min, max)) = seek.range {
            let r = rating_at(&app, &u.id, &seek).await?.unwrap_or(1500.0);
            if !(min as f64..=max as f64).contains(&r) {
                return Err(ApiError(
                    StatusCode::FORBIDDEN,
                    msg!("api-seek-range", rating = r, min = min, max = max),
                ));
            }
        }
    }
    let account = user.map(|u| crate::store::SeatAccount {
        id: u.id,
        name: u.name,
    });
    let (game, [_, seat], token, state) = app.accept_seek(&seek, account).await?;
    Ok((
        StatusCode::CREATED,
        Json(SeekTakenView {
            id: game,
            seat,
            token,
            state,
        }),
    )
        .into_response())
}

/// `POST /api/seeks/{id}/cancel` `{"token"}` (or with the seeker's account): `200`, closed.
pub async fn cancel(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    bytes: Result<Bytes, BytesRejection>,
) -> Result<Json<SeekView>, ApiError> {
    let req: SeekToken = optional_body(bytes)?;
    let seek = find(&app, &id).await?;
    let user = current_user(&app, &headers).await?;
    let by_token = req
        .token
        .as_deref()
        .is_some_and(|t| hash_token(t) == seek.token_hash);
    let by_account = matches!((&user, &seek.user), (Some(u), Some((id, _))) if u.id == *id);
    if !by_token && !by_account {
        if user.is_none() && req.token.is_none() {
            return Err(ApiError(
                StatusCode::UNAUTHORIZED,
                msg!("api-not-logged-in"),
            ));
        }
        return Err(not_yours());
    }
    close(&app, &seek, "cancelled").await
}

/// `POST /api/seeks/{id}/decline`: the player challenged declines: `200`, closed.
pub async fn decline(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    bytes: Result<Bytes, BytesRejection>,
) -> Result<Json<SeekView>, ApiError> {
    let _: SeekToken = optional_body(bytes)?;
    let seek = find(&app, &id).await?;
    let user = logged_in(&app, &headers).await?;
    if seek.target.as_ref().is_none_or(|(id, _)| *id != user.id) {
        return Err(not_yours());
    }
    close(&app, &seek, "declined").await
}

async fn close(app: &App, seek: &SeekRow, state: &str) -> Result<Json<SeekView>, ApiError> {
    if !app.store.close_seek(&seek.id, state).await? {
        return Err(closed());
    }
    let seek = find(app, &seek.id).await?;
    Ok(Json(view(app, &seek, None).await?))
}
