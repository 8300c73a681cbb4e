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
use myrmidon_rules::edit::{palette, Edit};
use myrmidon_rules::{registry, DynGame, PieceView, Settings};
use serde::Deserialize;
use serde_json::Value;

use crate::api::{body, settings_of, ApiError};
use crate::i18n::{self, Lang, Msg};
use crate::views::{ExploreView, PaletteView, PositionView, RulesView};
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
            msg!("api-no-rules-text", game = info.id),
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
    let game = game(&req.game)?;
    let info = game.info();
    let record = match req.position {
        Some(text) => {
            if !req.settings.is_empty() {
                return Err(bad(msg!("api-explore-settings-and-position")));
            }
            game.new_game_at(&text)
                .map_err(|e| bad(msg!("api-position", detail = e.to_string())))?
        }
        None => {
            let mut settings = Settings::new();
            for (name, value) in settings_of(req.settings)? {
                settings = settings.with(&name, &value);
            }
            game.new_game(&settings)
                .map_err(|e| bad(msg!("api-settings", detail = e.to_string())))?
        }
    };
    let mut edit = Edit {
        clear: req.clear,
        put: Vec::with_capacity(req.put.len()),
        to_move: req.to_move,
    };
    for put in req.put {
        let cell = info.geometry.parse_cell(&put.cell).ok_or_else(|| {
            bad(msg!(
                "api-put-not-a-cell",
                cell = format!("{:?}", put.cell),
                game = info.name
            ))
        })?;
        edit.put.push((cell, put.piece));
    }
    let text = if edit == Edit::default() {
        record.position_string()
    } else {
        game.edit_position(&record.position_string(), &edit)
            .map_err(|e| bad(msg!("api-put", detail = e.to_string())))?
    };
    let mut record = game
        .new_game_at(&text)
        .map_err(|e| bad(msg!("api-position", detail = e.to_string())))?;
    // The line: every move through the rules library, refused whole at the first bad one.
    for (i, mv) in req.moves.iter().enumerate() {
        record.play(mv).map_err(|e| {
            bad(msg!(
                "api-line-move",
                n = i + 1,
                move = format!("{mv:?}"),
                detail = e.to_string()
            ))
        })?;
    }
    let kinds = |p: &PieceView| {
        info.pieces
            .iter()
            .find(|k| k.letter == p.kind)
            .map_or("", |k| k.name)
    };
    let palette = palette(info, record.player_names())
        .iter()
        .map(|p| PaletteView {
            owner: p.owner,
            kind: p.kind,
            name: kinds(p),
        })
        .collect();
    Ok(Json(ExploreView {
        position: PositionView::of(&*record),
        palette,
    }))
}
