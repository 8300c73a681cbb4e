//! What the rules pages and the analysis board need: the rules texts as HTML (`GET
//! /api/rules/{game}`) and the explorer (`POST /api/explore`): a position set up by hand, with
//! its legal moves, and the moves of a line played from it.

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query};
use axum::http::HeaderMap;
use axum::http::StatusCode;
use axum::Json;
use myrmidon_rules::view::{self, ExploreError, ExploreQuery, ExploreView};
use myrmidon_rules::{registry, DynGame, PieceView};
use serde::Deserialize;
use serde_json::Value;

use crate::api::{body, settings_of, ApiError};
use crate::i18n::{self, Arg, Lang, Msg};
use crate::views::RulesView;
use crate::web::rules_text;

fn game(id: &str) -> Result<&'static dyn DynGame, ApiError> {
    registry::find(id).map_err(|e| {
        ApiError(
            StatusCode::NOT_FOUND,
            msg!("api-unknown-game", detail = e.to_string()),
        )
    })
}

/// The query of `GET /api/rules/{game}`: `?lang=fr` chooses the language (else the request's,
/// [`crate::i18n::negotiate`]).
#[derive(Deserialize)]
pub struct RulesQuery {
    lang: Option<String>,
}

/// `GET /api/rules/{game}`: the game's rules page in the language asked for, as HTML.
pub async fn rules(
    Path(id): Path<String>,
    query: Result<Query<RulesQuery>, QueryRejection>,
    headers: HeaderMap,
) -> Result<Json<RulesView>, ApiError> {
    let info = game(&id)?.info();
    let Query(query) = query.map_err(|e| bad(msg!("api-query", detail = e.body_text())))?;
    let lang = match query.lang.as_deref() {
        None => i18n::negotiate(&headers),
        Some(code) => Lang::parse(code).ok_or_else(|| bad(msg!("api-rules-lang", lang = code)))?,
    };
    let text = rules_text(info.id, lang.code()).ok_or_else(|| {
        ApiError(
            StatusCode::NOT_FOUND,
            msg!("api-no-rules-text", game = Arg::Game(info.id)),
        )
    })?;
    let options = pulldown_cmark::Options::ENABLE_TABLES
        | pulldown_cmark::Options::ENABLE_STRIKETHROUGH
        | pulldown_cmark::Options::ENABLE_HEADING_ATTRIBUTES;
    let parser = pulldown_cmark::Parser::new_ext(text, options);
    let mut html = String::with_capacity(text.len() * 3 / 2);
    pulldown_cmark::html::push_html(&mut html, parser);
    Ok(Json(RulesView {
        game: info.id,
        name: info.name,
        lang: lang.code(),
        html,
    }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PutRequest {
    cell: String,
    piece: Option<PieceView>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExploreRequest {
    game: String,
    #[serde(default)]
    position: Option<String>,
    #[serde(default)]
    settings: serde_json::Map<String, Value>,
    #[serde(default)]
    clear: bool,
    #[serde(default)]
    put: Vec<PutRequest>,
    #[serde(default)]
    to_move: Option<u8>,
    /// Moves played in order from the position set up (the analysis board's line).
    #[serde(default)]
    moves: Vec<String>,
}

fn bad(message: Msg) -> ApiError {
    ApiError(StatusCode::BAD_REQUEST, message)
}

/// `POST /api/explore`.
pub async fn explore(bytes: Result<Bytes, BytesRejection>) -> Result<Json<ExploreView>, ApiError> {
    let req: ExploreRequest = body(bytes)?;
    let info = game(&req.game)?.info();
    // (settings beside a position are refused as such, whatever their values)
    let settings = if req.position.is_some() && !req.settings.is_empty() {
        return Err(bad(msg!("api-explore-settings-and-position")));
    } else {
        settings_of(req.settings)?
    };
    let put: Vec<(String, Option<PieceView>)> =
        req.put.into_iter().map(|p| (p.cell, p.piece)).collect();
    let query = ExploreQuery {
        game: info.id,
        position: req.position.as_deref(),
        settings: &settings,
        clear: req.clear,
        put: &put,
        to_move: req.to_move,
        moves: &req.moves,
    };
    view::explore(&query).map(Json).map_err(|e| match e {
        ExploreError::UnknownGame(e) => ApiError(
            StatusCode::NOT_FOUND,
            msg!("api-unknown-game", detail = e.to_string()),
        ),
        ExploreError::SettingsAndPosition => bad(msg!("api-explore-settings-and-position")),
        ExploreError::Settings(e) => bad(msg!("api-settings", detail = e.to_string())),
        ExploreError::Position(e) => bad(msg!("api-position", detail = e.to_string())),
        ExploreError::NotACell { cell, game } => bad(msg!(
            "api-put-not-a-cell",
            cell = format!("{cell:?}"),
            game = Arg::Game(game)
        )),
        ExploreError::Put(e) => bad(msg!("api-put", detail = e.to_string())),
        ExploreError::LineMove { n, text, detail } => bad(msg!(
            "api-line-move",
            n = n,
            move = format!("{text:?}"),
            detail = detail.to_string()
        )),
    })
}
