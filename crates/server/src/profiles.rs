//! Players' profiles and the rating lists (docs/api.md, "Profiles"): an account's ratings with
//! their history, its games with their results, its wins, draws and losses per game; and the
//! best ratings at each game.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use futures_util::StreamExt;

use crate::api::ApiError;
use crate::live::App;
use crate::views::accounts::{LevelView, PlayedGameView, ProfileView, RankedView, RatingView};

/// The most games a profile lists.
const PROFILE_GAMES: u32 = 100;
/// The most lines of a rating list.
const LIST_LENGTH: u32 = 100;

/// The most games an export holds.
const EXPORT_GAMES: u32 = 100_000;

/// `GET /api/users/{name}/games`: every game of the account, newest first, as one file of game
/// records (docs/records.md), written game by game as it is sent.
pub async fn export(
    State(app): State<Arc<App>>,
    Path(name): Path<String>,
) -> Result<Response, ApiError> {
    let Some(user) = crate::accounts::user_named(&app, &name).await? else {
        return Err(ApiError(
            StatusCode::NOT_FOUND,
            msg!("api-no-user", name = name.as_str()),
        ));
    };
    let ids: Vec<String> = app
        .store
        .games_of(&user.id, EXPORT_GAMES)
        .await?
        .into_iter()
        .map(|g| g.id)
        .collect();
    let records = futures_util::stream::iter(ids).then(move |id| {
        let app = app.clone();
        async move {
            match app.stored_record(&id).await {
                Ok(Some(text)) => Ok(format!("{text}\n")),
                Ok(None) => Ok(String::new()),
                Err(e) => {
                    // The answer is under way: it ends short, which the client sees.
                    tracing::error!("export: game {id}: {e:?}");
                    Err(std::io::Error::other(format!("game {id} cannot be read")))
                }
            }
        }
    });
    let file = format!("attachment; filename=\"myrmidon-{}.pgn\"", user.name);
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (header::CONTENT_DISPOSITION, file),
        ],
        axum::body::Body::from_stream(records),
    )
        .into_response())
}

/// `GET /api/users/{name}`: the profile of the account with this name (any letter case).
pub async fn profile(
    State(app): State<Arc<App>>,
    Path(name): Path<String>,
) -> Result<Json<ProfileView>, ApiError> {
    let Some(user) = crate::accounts::user_named(&app, &name).await? else {
        return Err(ApiError(
            StatusCode::NOT_FOUND,
            msg!("api-no-user", name = name.as_str()),
        ));
    };
    let history = app.store.rating_history(&user.id).await?;
    let ratings = app
        .store
        .ratings_of(&user.id)
        .await?
        .iter()
        .map(|r| RatingView::with_history(r, &history))
        .collect();
    let games = app.store.games_of(&user.id, PROFILE_GAMES).await?;
    Ok(Json(ProfileView {
        name: user.name,
        created_ms: user.created_ms,
        ratings,
        results: ProfileView::tallies(app.store.tallies(&user.id).await?),
        games: games.into_iter().map(PlayedGameView::from).collect(),
    }))
}

/// `GET /api/ratings/{game}`: the best ratings at a game, every speed, highest first.
pub async fn rating_list(
    State(app): State<Arc<App>>,
    Path(game): Path<String>,
) -> Result<Json<Vec<RankedView>>, ApiError> {
    let id = game_id(&game)?;
    let list = app.store.rating_list(&id, LIST_LENGTH).await?;
    Ok(Json(list.iter().map(RankedView::from).collect()))
}

/// `GET /api/levels/{game}`: each computer level's rating at a game, against people, level 1
/// first (its prior until a person has played it).
pub async fn level_ratings(
    State(app): State<Arc<App>>,
    Path(game): Path<String>,
) -> Result<Json<Vec<LevelView>>, ApiError> {
    let id = game_id(&game)?;
    let list = app.store.level_ratings(&id).await?;
    Ok(Json(list.iter().map(LevelView::from).collect()))
}

/// The id of a game the rules library plays (`404` for another).
fn game_id(game: &str) -> Result<String, ApiError> {
    myrmidon_rules::registry::find(game)
        .map(|g| g.info().id.to_string())
        .map_err(|e| {
            ApiError(
                StatusCode::NOT_FOUND,
                msg!("api-unknown-game", detail = e.to_string()),
            )
        })
}
