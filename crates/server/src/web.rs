//! The front end, embedded in the binary at build time (`build.rs`), served from memory.

use std::sync::{Arc, OnceLock};

use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::Value;

use crate::i18n;
use crate::live::App;
use crate::views::GamePageBoot;

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

/// The rules page of a game in the language `lang` (a code, `en` or `fr`): the file
/// `rules.<lang>.md` of the game's folder of the rules (`crates/rules/src/games/<folder>/`),
/// the folder whose name starts the id (the longest: `antchess3` is played by the page of
/// `antchess/`).
pub fn rules_text(id: &str, lang: &str) -> Option<&'static str> {
    embedded::RULES
        .iter()
        .filter(|(folder, l, _)| id.starts_with(folder) && *l == lang)
        .max_by_key(|(folder, _, _)| folder.len())
        .map(|(_, _, text)| *text)
}

/// The games' texts in `lang` (`crates/rules/src/games/<folder>/<lang>.ftl`), one a folder.
pub fn game_texts(lang: &str) -> impl Iterator<Item = &'static str> + '_ {
    embedded::GAME_TEXTS
        .iter()
        .filter(move |(l, _)| *l == lang)
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
        Some("wasm") => "application/wasm",
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

/// The bytes of a file of `web/`: from disk when `MYRMIDON_WEB_DIR` says so, else embedded.
fn bytes_of(path: &str) -> Option<std::borrow::Cow<'static, [u8]>> {
    match from_disk(path) {
        Some(bytes) => Some(bytes.into()),
        None => file(path).map(Into::into),
    }
}

fn serve(path: &str) -> Response {
    match bytes_of(path) {
        Some(bytes) => (
            [
                (header::CONTENT_TYPE, content_type(path)),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            bytes,
        )
            .into_response(),
        None => not_found(),
    }
}

fn not_found() -> Response {
    (
        StatusCode::NOT_FOUND,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        "not found",
    )
        .into_response()
}

/// The answer of `GET /api/games`, made once (it changes only with the binary).
async fn games_json() -> &'static Value {
    static GAMES: OnceLock<Value> = OnceLock::new();
    GAMES.get_or_init(|| {
        serde_json::to_value(crate::views::GameSummary::all()).expect("games serialise")
    })
}

/// JSON to put inside a `<script type="application/json">` element: a `<` is written `\u003c`
/// (it can only stand inside a string), so that no `</script>` or `<!--` closes the element.
fn script_json(value: &impl serde::Serialize) -> String {
    serde_json::to_string(value)
        .expect("boot data serialises")
        .replace('<', "\\u003c")
}

/// A page of the app in the request's language ([`i18n::negotiate`]): its `<html lang="en">`
/// says the language, and before `</body>` come the catalogue for its script
/// (`<script id="i18n" type="application/json">{"lang": …, "messages": {…}}</script>`, read by
/// web/i18n.js) and, when given, what its script would fetch first
/// (`<script id="boot" type="application/json">{…}</script>`: the page draws at once).
fn page(path: &str, headers: &HeaderMap, boot: Option<String>) -> Response {
    let Some(bytes) = bytes_of(path) else {
        return not_found();
    };
    let lang = i18n::negotiate(headers);
    let html = String::from_utf8_lossy(&bytes);
    let html = html.replacen(
        "<html lang=\"en\">",
        &format!("<html lang=\"{}\">", lang.code()),
        1,
    );
    let mut script = format!(
        "<script id=\"i18n\" type=\"application/json\">{}</script>\n",
        i18n::page_data(lang)
    );
    if let Some(boot) = boot {
        script.push_str(&format!(
            "<script id=\"boot\" type=\"application/json\">{}</script>\n",
            boot
        ));
    }
    let html = match html.rfind("</body>") {
        Some(at) => format!("{}{script}{}", &html[..at], &html[at..]),
        None => format!("{html}{script}"),
    };
    (
        [
            (header::CONTENT_TYPE, content_type(path)),
            (header::CACHE_CONTROL, "no-cache"),
            (header::VARY, "Accept-Language, Cookie"),
        ],
        html,
    )
        .into_response()
}

/// `/`: the home page.
pub async fn home(headers: HeaderMap) -> Response {
    page("index.html", &headers, None)
}

/// `/game/{id}`: the game page (it reads the id from its address), with the games'
/// descriptions (`GET /api/games`) and the game's state (`GET /api/games/{id}`) inlined, as
/// `{"games": […], "state": {…}}` (no `state` for a game that cannot be read: the page asks,
/// and shows the error).
pub async fn game_page(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Response {
    let state = match app.game(&id).await {
        Ok(slot) => Some(slot.live.lock().await.state()),
        Err(_) => None,
    };
    let boot = GamePageBoot {
        games: games_json().await,
        state,
    };
    page("game.html", &headers, Some(script_json(&boot)))
}

/// `/rules/{game}`: the rules page (it reads the game from its address).
pub async fn rules_page(Path(_id): Path<String>, headers: HeaderMap) -> Response {
    page("rules.html", &headers, None)
}

/// `/analysis`: the analysis board.
pub async fn analysis_page(headers: HeaderMap) -> Response {
    page("analysis.html", &headers, None)
}

/// `/account`: sign up, log in, log out.
pub async fn account_page(headers: HeaderMap) -> Response {
    page("account.html", &headers, None)
}

/// `/@/{name}`: a player's profile (it reads the name from its address).
pub async fn profile_page(Path(_name): Path<String>, headers: HeaderMap) -> Response {
    page("profile.html", &headers, None)
}

/// Any other path: a file of `web/`.
pub async fn asset(Path(path): Path<String>) -> Response {
    serve(&path)
}
