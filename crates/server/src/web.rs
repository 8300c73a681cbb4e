//! The front end, embedded in the binary at build time (`build.rs`), served from memory.

use axum::extract::Path;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/web_files.rs"));
}

/// The embedded file at this path (relative to `web/`).
pub fn file(path: &str) -> Option<&'static [u8]> {
    embedded::FILES
        .iter()
        .find(|(name, _)| *name == path)
        .map(|(_, bytes)| *bytes)
}

/// The rules text of a game: `docs/rules/<id>.md`, or else the longest text whose name starts
/// the id (`antchess3` is played by the rules of `antchess.md`).
pub fn rules_text(id: &str) -> Option<&'static str> {
    embedded::RULES
        .iter()
        .filter(|(name, _)| id.starts_with(name))
        .max_by_key(|(name, _)| name.len())
        .map(|(_, text)| *text)
}

/// Every embedded path, for tests and listings.
pub fn paths() -> impl Iterator<Item = &'static str> {
    embedded::FILES.iter().map(|(name, _)| *name)
}

fn content_type(path: &str) -> &'static str {
    match path.rsplit('.').next() {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("json") => "application/json",
        Some("png") => "image/png",
        Some("ico") => "image/x-icon",
        Some("md") | Some("txt") => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// Where to read the front end from instead of the embedded copy, for working on it without
/// rebuilding: the environment variable `MYRMIDON_WEB_DIR` (a `web/` folder).
fn from_disk(path: &str) -> Option<Vec<u8>> {
    let dir = std::env::var_os("MYRMIDON_WEB_DIR")?;
    if path.split('/').any(|part| part == ".." || part.is_empty()) {
        return None;
    }
    std::fs::read(std::path::Path::new(&dir).join(path)).ok()
}

fn serve(path: &str) -> Response {
    if let Some(bytes) = from_disk(path) {
        return (
            [
                (header::CONTENT_TYPE, content_type(path)),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            bytes,
        )
            .into_response();
    }
    match file(path) {
        Some(bytes) => (
            [
                (header::CONTENT_TYPE, content_type(path)),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            bytes,
        )
            .into_response(),
        None => (
            StatusCode::NOT_FOUND,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            "not found",
        )
            .into_response(),
    }
}

/// `/`: the home page.
pub async fn home() -> Response {
    serve("index.html")
}

/// `/game/{id}`: the game page (it reads the id from its address).
pub async fn game_page(Path(_id): Path<String>) -> Response {
    serve("game.html")
}

/// `/rules/{game}`: the rules page (it reads the game from its address).
pub async fn rules_page(Path(_id): Path<String>) -> Response {
    serve("rules.html")
}

/// `/analysis`: the analysis board.
pub async fn analysis_page() -> Response {
    serve("analysis.html")
}

/// Any other path: a file of `web/`.
pub async fn asset(Path(path): Path<String>) -> Response {
    serve(&path)
}
