//! The front end, embedded in the binary at build time (`build.rs`), served from memory.

mod bundle;
mod preload;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, OnceLock};

use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use myrmidon_rules::registry;
use serde_json::Value;

use crate::i18n::{self, Lang};
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

/// The gzip-compressed copy of an embedded file, when the build made one (every file that
/// compresses well: build.rs).
fn gzipped(path: &str) -> Option<&'static [u8]> {
    embedded::GZIPPED
        .iter()
        .find(|(name, _)| *name == path)
        .map(|(_, bytes)| *bytes)
}

/// Whether the request's `Accept-Encoding` takes gzip (`gzip` or `*`, not with `q=0`).
fn accepts_gzip(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|item| {
            let mut parts = item.split(';').map(str::trim);
            let coding = parts.next().unwrap_or("");
            let refused = parts.any(|p| {
                p.strip_prefix("q=")
                    .and_then(|q| q.trim().parse::<f32>().ok())
                    .is_some_and(|q| q <= 0.0)
            });
            (coding.eq_ignore_ascii_case("gzip") || coding == "*") && !refused
        })
}

/// A strong validator of a file's bytes: the start of their SHA-256, quoted.
fn etag_of(bytes: &[u8]) -> String {
    use sha2::Digest;
    let digest = sha2::Sha256::digest(bytes);
    let hex: String = digest[..12].iter().map(|b| format!("{b:02x}")).collect();
    format!("\"{hex}\"")
}

/// The validators of the embedded files, in the order of `FILES`, computed once.
fn embedded_etags() -> &'static [String] {
    static TAGS: OnceLock<Vec<String>> = OnceLock::new();
    TAGS.get_or_init(|| embedded::FILES.iter().map(|(_, b)| etag_of(b)).collect())
}

/// Whether `If-None-Match` names this validator (or is `*`).
fn not_modified(headers: &HeaderMap, etag: &str) -> bool {
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .any(|tag| tag == "*" || tag.trim_start_matches("W/") == etag)
}

/// A file of `web/` (or the module): with an `ETag`, answered `304` when the browser has it
/// already (`If-None-Match`), and gzip-compressed when there is a compressed copy and the
/// browser takes it. `Cache-Control: no-cache`: the browser asks each time, and a new binary's
/// files are seen at once.
fn serve(path: &str, headers: &HeaderMap) -> Response {
    if let Some(name) = path
        .strip_prefix(bundle::PREFIX)
        .and_then(|p| p.strip_suffix(".js"))
    {
        return match page_bundle(&format!("{name}.html")) {
            Some(made) => respond(made.text, made.etag, made.gz, content_type(path), headers),
            None => not_found(),
        };
    }
    // a file read from disk is sent as it is: the embedded compressed copy is of another file
    let (bytes, etag, gz): (std::borrow::Cow<'static, [u8]>, String, _) = match from_disk(path) {
        Some(bytes) => {
            let etag = etag_of(&bytes);
            (bytes.into(), etag, None)
        }
        None => match embedded::FILES.iter().position(|(name, _)| *name == path) {
            Some(i) => (
                embedded::FILES[i].1.into(),
                embedded_etags()[i].clone(),
                gzipped(path),
            ),
            None => return not_found(),
        },
    };
    respond(bytes, etag, gz, content_type(path), headers)
}

/// A page's scripts as one ([`bundle`]): its text, its validator, its gzip-compressed copy.
#[derive(Clone)]
struct Bundle {
    text: std::borrow::Cow<'static, [u8]>,
    etag: String,
    gz: Option<&'static [u8]>,
}

/// The page `path` of `web/` (`game.html`) with its include lines replaced.
fn page_text(path: &str) -> Option<String> {
    bytes_of(path).map(|bytes| with_includes(&String::from_utf8_lossy(&bytes)))
}

/// The bundle of the page `path` of `web/` (`game.html`): its module scripts and every module
/// they import as one script, served as `/bundle/game.js`; `None` for a page with no module
/// script, or whose modules cannot be bundled (it then loads them one by one). Made once from
/// the embedded files (each page's, when first asked for), every time from `MYRMIDON_WEB_DIR`.
fn page_bundle(path: &str) -> Option<Bundle> {
    let make = || -> Option<(String, String)> {
        let html = page_text(path).filter(|html| html.contains("<html"))?;
        let scripts = bundle::page_scripts(&html);
        if scripts.is_empty() {
            return None;
        }
        let read = |p: &str| bytes_of(p).map(|b| String::from_utf8_lossy(&b).into_owned());
        match bundle::bundle(&scripts, &read) {
            Ok(text) => {
                let etag = etag_of(text.as_bytes());
                Some((text, etag))
            }
            Err(why) => {
                tracing::warn!("{path}: its scripts are not bundled: {why}");
                None
            }
        }
    };
    if std::env::var_os("MYRMIDON_WEB_DIR").is_some() {
        return make().map(|(text, etag)| Bundle {
            text: text.into_bytes().into(),
            etag,
            gz: None,
        });
    }
    static MADE: OnceLock<Mutex<BTreeMap<String, Option<Bundle>>>> = OnceLock::new();
    let mut made = MADE
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    made.entry(path.to_string())
        .or_insert_with(|| {
            let (text, etag) = make()?;
            use std::io::Write;
            let mut encoder =
                flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
            encoder.write_all(text.as_bytes()).expect("in memory");
            let gz = encoder.finish().expect("in memory");
            // made once a page, kept for the server's life
            let text: &'static [u8] = Vec::leak(text.into_bytes());
            Some(Bundle {
                text: text.into(),
                etag,
                gz: Some(Vec::leak(gz)),
            })
        })
        .clone()
}

/// The pages of `web/` whose scripts are bundled, and their bundles' addresses
/// (`/bundle/game.js`).
pub fn bundles() -> impl Iterator<Item = String> {
    paths()
        .filter_map(|p| p.strip_suffix(".html"))
        .filter(|stem| page_bundle(&format!("{stem}.html")).is_some())
        .map(|stem| format!("/{}{stem}.js", bundle::PREFIX))
}

/// The answer of a request for `bytes` (whose validator is `etag`, whose gzip-compressed copy
/// is `gz` when there is one): `304` when the browser has them already, else the compressed
/// copy to a browser that takes it, else the bytes.
fn respond(
    bytes: std::borrow::Cow<'static, [u8]>,
    etag: String,
    gz: Option<&'static [u8]>,
    content_type: &'static str,
    headers: &HeaderMap,
) -> Response {
    let compressed = gz.filter(|_| accepts_gzip(headers));
    let common = [
        (header::CACHE_CONTROL, "no-cache".to_string()),
        (header::ETAG, etag.clone()),
        (header::VARY, "Accept-Encoding".to_string()),
    ];
    if not_modified(headers, &etag) {
        return (StatusCode::NOT_MODIFIED, common).into_response();
    }
    match compressed {
        Some(gz) => (
            common,
            [
                (header::CONTENT_TYPE, content_type),
                (header::CONTENT_ENCODING, "gzip"),
            ],
            gz,
        )
            .into_response(),
        None => (common, [(header::CONTENT_TYPE, content_type)], bytes).into_response(),
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
fn games_json() -> &'static Value {
    static GAMES: OnceLock<Value> = OnceLock::new();
    GAMES.get_or_init(|| {
        serde_json::to_value(crate::views::GameSummary::all()).expect("games serialise")
    })
}

/// `GET /api/games`: every game the server plays (docs/api.md), as a file of `web/` is served:
/// made once, with a validator (`304` when the browser has it) and gzip-compressed for a
/// browser that takes it (the pieces' drawings make most of it, and compress well).
pub async fn games_list(headers: HeaderMap) -> Response {
    static BODY: OnceLock<(Vec<u8>, Vec<u8>, String)> = OnceLock::new();
    let (plain, gz, etag) = BODY.get_or_init(|| {
        use std::io::Write;
        let plain = serde_json::to_vec(games_json()).expect("games serialise");
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        encoder.write_all(&plain).expect("in memory");
        let gz = encoder.finish().expect("in memory");
        let etag = etag_of(&plain);
        (plain, gz, etag)
    });
    respond(
        plain.as_slice().into(),
        etag.clone(),
        Some(gz.as_slice()),
        "application/json",
        &headers,
    )
}

/// The games as the game page of a game of `game` carries them: each game's description, the
/// pieces' drawings of that game only (the page draws no other; a page that plays another game
/// kept in the browser, with no network, reads them from `GET /api/games`, which the service
/// worker keeps). Every game's drawings when the game is not known.
fn games_for_page(game: Option<&str>) -> Value {
    let mut games = games_json().clone();
    if let (Some(game), Value::Array(list)) = (game, &mut games) {
        for entry in list {
            if entry.get("id").and_then(Value::as_str) != Some(game) {
                if let Some(fields) = entry.as_object_mut() {
                    fields.remove("drawings");
                }
            }
        }
    }
    games
}

/// JSON to put inside a `<script type="application/json">` element: a `<` is written `\u003c`
/// (it can only stand inside a string), so that no `</script>` or `<!--` closes the element.
fn script_json(value: &impl serde::Serialize) -> String {
    serde_json::to_string(value)
        .expect("boot data serialises")
        .replace('<', "\\u003c")
}

/// What starts an include line of a page: `<!--#include head.html-->` stands for the file
/// `head.html` of `web/`.
const INCLUDE: &str = "<!--#include ";

/// A page's HTML with each include line replaced by the file it names: the lines the heads of
/// the pages share (`head.html`, every page; `offline-head.html`, the pages that open with no
/// network) are written once, and the browser receives whole pages. A fragment's own leading
/// comment (what it is, for its readers) is left out. A line naming no file of `web/` is left
/// as it is (a comment to the browser).
fn with_includes(html: &str) -> String {
    let mut out = String::with_capacity(html.len() + 1024);
    let mut rest = html;
    while let Some(at) = rest.find(INCLUDE) {
        let after = &rest[at + INCLUDE.len()..];
        let Some(end) = after.find("-->") else { break };
        let Some(bytes) = bytes_of(after[..end].trim()) else {
            out.push_str(&rest[..at + INCLUDE.len()]);
            rest = after;
            continue;
        };
        out.push_str(&rest[..at]);
        let text = String::from_utf8_lossy(&bytes);
        let text = match text.trim_start().strip_prefix("<!--") {
            Some(comment) => comment.split_once("-->\n").map_or("", |(_, body)| body),
            None => &text,
        };
        out.push_str(text.trim_end_matches('\n'));
        rest = &after[end + "-->".len()..];
    }
    out.push_str(rest);
    out
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
    let html = with_includes(&String::from_utf8_lossy(&bytes));
    // its scripts as one (one request, one script to compile), else each module announced
    let html = match (page_bundle(path), path.strip_suffix(".html")) {
        (Some(_), Some(stem)) => {
            bundle::with_bundle(&html, &format!("/{}{stem}.js", bundle::PREFIX))
        }
        _ => preload::with_preloads(&html, &|path| {
            bytes_of(path).map(|b| String::from_utf8_lossy(&b).into_owned())
        }),
    };
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
    let common = [
        (header::CONTENT_TYPE, content_type(path)),
        (header::CACHE_CONTROL, "no-cache"),
        (header::VARY, "Accept-Language, Cookie, Accept-Encoding"),
        (header::CONTENT_LANGUAGE, lang.code()),
    ];
    if accepts_gzip(headers) {
        // made per request (the catalogue and the boot data are in it): the fast level, a
        // fraction of a millisecond for a page's 50 KB, a quarter of the bytes on the wire
        use std::io::Write;
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        if encoder.write_all(html.as_bytes()).is_ok() {
            if let Ok(gz) = encoder.finish() {
                return (common, [(header::CONTENT_ENCODING, "gzip")], gz).into_response();
            }
        }
    }
    (common, html).into_response()
}

/// `/`: the home page.
pub async fn home(headers: HeaderMap) -> Response {
    page("index.html", &headers, None)
}

/// `/game/{id}`: the game page (it reads the id from its address), with the games'
/// descriptions (`GET /api/games`, with the pieces' drawings of this game only:
/// [`games_for_page`]) and the game's state (`GET /api/games/{id}`) inlined, as
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
    let game = state
        .as_ref()
        .and_then(|s| s.get("game"))
        .and_then(Value::as_str);
    let games = games_for_page(game);
    let boot = GamePageBoot {
        games: &games,
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

/// `/ratings/{game}`: a game's rating list (it reads the game from its address; `/ratings`:
/// the first game's).
pub async fn ratings_page(headers: HeaderMap) -> Response {
    page("ratings.html", &headers, None)
}

/// `/offline.json`: what the service worker (web/sw.js) keeps for the app to open with no
/// network, `{"languages": [codes], "pages": [paths], "files": [paths]}`: the pages, each kept in
/// every language (the home page, the analysis board, a game page's shell — `/game/local`: a
/// game page without a game, which plays the games kept in the browser —, every game's rules
/// page); and the files, kept as they are: the games' descriptions, every game's rules text in
/// every language, and every file of `web/` but the pages' HTML (served through their
/// addresses), the catalogues' sources (inside the pages) and the service worker itself, and
/// each page's scripts as one (`/bundle/<page>.js`: [`bundles`]); and
/// `lang`, the language this browser's pages are in (until one says otherwise).
pub async fn offline_files(headers: HeaderMap) -> Response {
    let ids: Vec<&str> = registry::games().iter().map(|g| g.info().id).collect();
    let mut pages: Vec<String> = ["/", "/analysis", "/game/local"]
        .into_iter()
        .map(String::from)
        .collect();
    pages.extend(ids.iter().map(|id| format!("/rules/{id}")));
    let mut files = vec!["/api/games".to_string()];
    for lang in Lang::ALL {
        files.extend(
            ids.iter()
                .map(|id| format!("/api/rules/{id}?lang={}", lang.code())),
        );
    }
    files.extend(
        paths()
            .filter(|p| !p.ends_with(".html") && !p.ends_with(".ftl") && *p != "sw.js")
            .map(|p| format!("/{p}")),
    );
    files.extend(bundles());
    let languages: Vec<&str> = Lang::ALL.iter().map(|l| l.code()).collect();
    (
        [(header::CACHE_CONTROL, "no-cache")],
        axum::Json(crate::views::OfflineView {
            languages,
            lang: i18n::negotiate(&headers).code(),
            pages,
            files,
        }),
    )
        .into_response()
}

/// Any other path: a file of `web/`.
pub async fn asset(Path(path): Path<String>, headers: HeaderMap) -> Response {
    serve(&path, &headers)
}

/// For the tests of the bundler and the preloads: web/'s files as a list of (path, text).
#[cfg(test)]
fn test_files(list: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
    move |path| {
        list.iter()
            .find(|(name, _)| *name == path)
            .map(|(_, text)| text.to_string())
    }
}
