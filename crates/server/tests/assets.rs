//! The front end's files: each with a validator (`ETag`, `304` when the browser has the file
//! already), and the browser's module (`/engine.wasm`), the scripts, the style sheet and the
//! pages gzip-compressed for a browser that takes it.

use std::io::Read;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::http::{HeaderMap, Request, StatusCode};
use http_body_util::BodyExt;
use myrmidon_server::{router, App, Store};
use tower::ServiceExt;

async fn app() -> Arc<App> {
    let store = Store::open("sqlite::memory:")
        .await
        .expect("the database opens");
    App::new(store, Duration::from_millis(20), 2)
}

async fn get(
    app: &Arc<App>,
    path: &str,
    headers: &[(&str, &str)],
) -> (StatusCode, HeaderMap, Vec<u8>) {
    let mut request = Request::builder().method("GET").uri(path);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = router(app.clone())
        .oneshot(request.body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = response.status();
    let headers = response.headers().clone();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (status, headers, bytes.to_vec())
}

fn header<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

#[tokio::test]
async fn the_module_comes_gzipped_to_a_browser_that_takes_it() {
    let app = app().await;
    let (status, plain_headers, plain) = get(&app, "/engine.wasm", &[]).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(&plain[..4], b"\0asm", "a WebAssembly module");
    assert_eq!(header(&plain_headers, "content-encoding"), None);
    assert_eq!(
        header(&plain_headers, "content-type"),
        Some("application/wasm")
    );

    let (status, headers, gz) = get(
        &app,
        "/engine.wasm",
        &[("accept-encoding", "br, gzip, deflate")],
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(header(&headers, "content-encoding"), Some("gzip"));
    assert_eq!(header(&headers, "content-type"), Some("application/wasm"));
    assert!(header(&headers, "vary")
        .unwrap()
        .contains("Accept-Encoding"));
    assert!(
        gz.len() < plain.len() / 2,
        "{} of {}",
        gz.len(),
        plain.len()
    );
    assert!(gz.len() < 1_000_000, "under 1 MB compressed: {}", gz.len());
    assert_eq!(gunzip(&gz), plain, "the same module");
    // the same validator either way: it names the module, not its encoding on the wire
    assert_eq!(header(&headers, "etag"), header(&plain_headers, "etag"));

    // gzip refused, or not offered: the module as it is
    for refuse in ["gzip;q=0", "identity", "br"] {
        let (_, headers, body) = get(&app, "/engine.wasm", &[("accept-encoding", refuse)]).await;
        assert_eq!(header(&headers, "content-encoding"), None, "{refuse}");
        assert_eq!(body.len(), plain.len(), "{refuse}");
    }
}

fn gunzip(gz: &[u8]) -> Vec<u8> {
    let mut unpacked = Vec::new();
    flate2::read::GzDecoder::new(gz)
        .read_to_end(&mut unpacked)
        .expect("gzip");
    unpacked
}

/// Every script and style sheet of `web/`, and every page, comes gzip-compressed to a browser
/// that takes it (the same bytes once unpacked, a fraction of them on the wire), and as it is
/// to one that does not.
#[tokio::test]
async fn the_scripts_styles_and_pages_come_gzipped() {
    let app = app().await;
    let first = myrmidon_rules::registry::games()[0].info().id;
    let mut paths: Vec<String> = myrmidon_server::web::paths()
        .filter(|p| p.ends_with(".js") || p.ends_with(".css"))
        .map(|p| format!("/{p}"))
        .collect();
    assert!(paths.len() > 10, "{paths:?}");
    paths.extend(["/".into(), "/analysis".into(), format!("/rules/{first}")]);
    let (mut plain_total, mut gz_total) = (0, 0);
    for path in &paths {
        let (status, plain_headers, plain) = get(&app, path, &[]).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert_eq!(header(&plain_headers, "content-encoding"), None, "{path}");
        let (status, headers, gz) = get(&app, path, &[("accept-encoding", "gzip, br")]).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert!(
            header(&headers, "vary")
                .unwrap()
                .contains("Accept-Encoding"),
            "{path}"
        );
        assert_eq!(
            header(&headers, "content-type"),
            header(&plain_headers, "content-type"),
            "{path}"
        );
        if plain.len() < 2048 {
            continue; // a small file may go as it is
        }
        assert_eq!(header(&headers, "content-encoding"), Some("gzip"), "{path}");
        assert_eq!(gunzip(&gz), plain, "{path}: the same bytes unpacked");
        plain_total += plain.len();
        gz_total += gz.len();
    }
    assert!(
        gz_total * 2 < plain_total,
        "{gz_total} bytes compressed of {plain_total}"
    );
}

#[tokio::test]
async fn a_file_the_browser_has_is_not_sent_again() {
    let app = app().await;
    for path in ["/engine.wasm", "/game.js", "/style.css", "/api/games"] {
        let (status, headers, body) = get(&app, path, &[("accept-encoding", "gzip")]).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert!(!body.is_empty());
        let etag = header(&headers, "etag").expect("an ETag").to_string();
        assert!(
            etag.starts_with('"') && etag.ends_with('"') && etag.len() > 10,
            "{etag}"
        );
        assert_eq!(
            header(&headers, "cache-control"),
            Some("no-cache"),
            "{path}"
        );

        let (status, again, body) = get(
            &app,
            path,
            &[("if-none-match", &etag), ("accept-encoding", "gzip")],
        )
        .await;
        assert_eq!(status, StatusCode::NOT_MODIFIED, "{path}");
        assert!(body.is_empty(), "{path}");
        assert_eq!(header(&again, "etag"), Some(etag.as_str()));

        let list = format!("\"other\", {etag}");
        let (status, _, _) = get(&app, path, &[("if-none-match", &list)]).await;
        assert_eq!(status, StatusCode::NOT_MODIFIED, "{path}: {list}");

        // another file's validator: the file
        let (status, _, body) = get(&app, path, &[("if-none-match", "\"0000\"")]).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert!(!body.is_empty());
    }
    let (status, _, _) = get(&app, "/no-such-file.js", &[("if-none-match", "*")]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

/// The lines the pages' heads share are written once in `web/` (`head.html`,
/// `offline-head.html`) and put in place by the server: every page arrives whole, with each of
/// them once and no include line left; the pages that open with no network have the manifest
/// and the service worker's script, the others not.
#[tokio::test]
async fn every_page_arrives_with_its_whole_head() {
    let app = app().await;
    let first = myrmidon_rules::registry::games()[0].info().id;
    let shared = [
        r#"<meta charset="utf-8">"#,
        r#"<meta name="viewport" content="width=device-width, initial-scale=1">"#,
        r#"<link rel="icon" href="/favicon.svg" type="image/svg+xml">"#,
        r#"<link rel="stylesheet" href="/style.css">"#,
    ];
    let offline = [
        r#"<link rel="manifest" href="/manifest.json">"#,
        r##"<meta name="theme-color" content="#2d4666">"##,
    ];
    let pages = [
        ("/".to_string(), true),
        ("/game/local".to_string(), true),
        ("/analysis".to_string(), true),
        (format!("/rules/{first}"), false),
        ("/account".to_string(), false),
        ("/@/someone".to_string(), false),
    ];
    for (path, opens_offline) in pages {
        let (status, _, body) = get(&app, &path, &[]).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        let html = String::from_utf8(body).expect("utf-8");
        let head = &html[..html.find("</head>").expect("a head")];
        assert!(head.starts_with("<!doctype html>"), "{path}");
        assert!(!html.contains("#include"), "{path}: an include line left");
        for line in shared {
            assert_eq!(head.matches(line).count(), 1, "{path}: {line}");
        }
        for line in offline {
            let want = usize::from(opens_offline);
            assert_eq!(head.matches(line).count(), want, "{path}: {line}");
        }
        // the head's scripts (head.html's theme.js, offline-head.html's offline.js) run
        // first, in the page's one script
        let scripts = module_scripts(&html);
        assert_eq!(scripts.len(), 1, "{path}: {scripts:?}");
        let (_, _, bundle) = get(&app, &scripts[0], &[]).await;
        let modules = bundled_modules(&String::from_utf8(bundle).expect("utf-8"));
        assert_eq!(modules[0], "/theme.js", "{path}: {modules:?}");
        let runs_offline = modules.iter().any(|m| m == "/offline.js");
        assert_eq!(runs_offline, opens_offline, "{path}: {modules:?}");
        // the charset within the first 1024 bytes, as browsers look for it
        assert!(head.find("charset").expect("a charset") < 1024, "{path}");
        assert!(head.find("<title").expect("a title") > head.find("charset").unwrap());
    }
}

/// The modules of a bundle (`/bundle/<page>.js`), in the order it runs them (as `/x.js`): each
/// starts on a line `__modules["x.js"] = (() => {` (web/bundle.rs).
fn bundled_modules(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.strip_prefix("__modules[\""))
        .filter_map(|l| l.split_once("\"] = (() => {"))
        .map(|(path, _)| format!("/{path}"))
        .collect()
}

/// The module scripts of a page's head.
fn module_scripts(html: &str) -> Vec<String> {
    let head = &html[..html.find("</head>").expect("a head")];
    head.split("<script type=\"module\" src=\"")
        .skip(1)
        .map(|rest| rest[..rest.find('"').unwrap()].to_string())
        .collect()
}

/// Each page loads its scripts as one (`/bundle/<page>.js`, one request where there was one a
/// module): every module the page's scripts import, directly or not, once, each after those
/// it imports; served as a file of `web/` is (a validator, gzip-compressed), and kept for the
/// app with no network (`/offline.json`).
#[tokio::test]
async fn every_page_loads_its_scripts_as_one() {
    let app = app().await;
    let first = myrmidon_rules::registry::games()[0].info().id;
    let (_, _, offline) = get(&app, "/offline.json", &[]).await;
    let offline: serde_json::Value = serde_json::from_slice(&offline).expect("json");
    let kept: Vec<&str> = offline["files"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| f.as_str())
        .collect();
    for (path, bundle, some) in [
        ("/".to_string(), "/bundle/index.js", "/home.js"),
        (
            "/game/local".to_string(),
            "/bundle/game.js",
            "/board/render.js",
        ),
        ("/analysis".to_string(), "/bundle/analysis.js", "/engine.js"),
        (
            format!("/rules/{first}"),
            "/bundle/rules.js",
            "/board/drag.js",
        ),
        ("/account".to_string(), "/bundle/account.js", "/account.js"),
        (
            "/@/someone".to_string(),
            "/bundle/profile.js",
            "/profile.js",
        ),
        ("/ratings".to_string(), "/bundle/ratings.js", "/ratings.js"),
    ] {
        let (status, _, body) = get(&app, &path, &[]).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        let html = String::from_utf8(body).expect("utf-8");
        assert_eq!(module_scripts(&html), [bundle], "{path}");
        assert!(!html.contains("modulepreload"), "{path}");
        assert!(kept.contains(&bundle), "{path}: {bundle} not kept offline");
        let (status, headers, body) = get(&app, bundle, &[]).await;
        assert_eq!(status, StatusCode::OK, "{path}: {bundle}");
        assert_eq!(
            header(&headers, "content-type"),
            Some("text/javascript; charset=utf-8"),
            "{bundle}"
        );
        let etag = header(&headers, "etag").expect("a validator").to_string();
        let (status, _, _) = get(&app, bundle, &[("if-none-match", &etag)]).await;
        assert_eq!(status, StatusCode::NOT_MODIFIED, "{bundle}");
        let (_, gz_headers, gz) = get(&app, bundle, &[("accept-encoding", "gzip")]).await;
        assert_eq!(
            header(&gz_headers, "content-encoding"),
            Some("gzip"),
            "{bundle}"
        );
        assert_eq!(gunzip(&gz), body, "{bundle}");
        let text = String::from_utf8(body).expect("utf-8");
        let modules = bundled_modules(&text);
        assert!(modules.contains(&some.to_string()), "{bundle}: {modules:?}");
        let mut once = modules.clone();
        once.sort();
        once.dedup();
        assert_eq!(
            once.len(),
            modules.len(),
            "{bundle}: a module twice: {modules:?}"
        );
        // every module a bundled module imports (as the file of web/ says) runs before it
        for (at, module) in modules.iter().enumerate() {
            let (status, _, source) = get(&app, module, &[]).await;
            assert_eq!(status, StatusCode::OK, "{bundle}: {module}");
            let source = String::from_utf8(source).expect("utf-8");
            let dir = &module[..module.rfind('/').unwrap()];
            for line in source.lines().filter(|l| {
                (l.starts_with("import ") || l.starts_with("export ")) && l.contains(" from '")
            }) {
                let name = line.split(" from '").nth(1).unwrap();
                let name = &name[..name.find('\'').unwrap()];
                let imported = match name.strip_prefix("../") {
                    Some(up) => format!("{}/{up}", &dir[..dir.rfind('/').unwrap_or(0)]),
                    None => format!("{dir}/{}", name.trim_start_matches("./")),
                };
                let before = modules[..at].contains(&imported);
                assert!(
                    before,
                    "{bundle}: {module} imports {imported}, not run before it"
                );
            }
        }
        assert!(
            !text
                .lines()
                .any(|l| l.starts_with("import ") || l.starts_with("export ")),
            "{bundle}: a statement of a module left"
        );
    }
    // No other path under /bundle/ is a bundle, nor a way out of it.
    let long = format!("/bundle/{}.js", "g".repeat(5_000));
    for path in [
        "/bundle/nothing.js",
        "/bundle/",
        "/bundle/game",
        "/bundle/../game.js",
        "/bundle/%2e%2e/game.js",
        "/bundle/..%2fgame.js",
        "/bundle/game.js/x",
        "/bundle/GAME.js",
        long.as_str(),
    ] {
        let (status, _, _) = get(&app, path, &[]).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
    }
    let (status, _, _) = get(&app, "/bundle/game.js?v=1", &[]).await;
    assert_eq!(status, StatusCode::OK, "a query is not part of the name");
}

/// The games' descriptions carry the drawings of their pieces (each game folder's
/// `pieces.json`), for every page to draw them: `GET /api/games` the same compressed or not,
/// and a game page carries its own game's drawings only.
#[tokio::test]
async fn the_games_come_with_their_drawings() {
    let app = app().await;
    let (status, headers, plain) = get(&app, "/api/games", &[]).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(header(&headers, "content-type"), Some("application/json"));
    let (_, gz_headers, gz) = get(&app, "/api/games", &[("accept-encoding", "gzip")]).await;
    assert_eq!(header(&gz_headers, "content-encoding"), Some("gzip"));
    assert!(
        gz.len() < plain.len() / 3,
        "{} of {}",
        gz.len(),
        plain.len()
    );
    assert_eq!(gunzip(&gz), plain);

    let games: serde_json::Value = serde_json::from_slice(&plain).expect("JSON");
    let games = games.as_array().expect("a list");
    assert_eq!(games.len(), myrmidon_rules::registry::games().len());
    for g in games {
        let id = g["id"].as_str().expect("an id");
        let drawings = &g["drawings"];
        let colours = drawings["colours"].as_array().expect("colours");
        assert!(
            colours.len() >= g["players"].as_array().unwrap().len(),
            "{id}"
        );
        assert!(colours.iter().all(|c| c["fill"].is_string()), "{id}");
        for piece in g["pieces"].as_array().unwrap() {
            let kind = piece["letter"].as_str().unwrap();
            let svg = drawings["pieces"][kind].as_str().unwrap_or("");
            assert!(svg.starts_with('<') && svg.len() > 40, "{id} {kind}: {svg}");
        }
    }

    // a game page: the drawings of its game, not the others'
    let first = &games[0];
    let seats: Vec<&str> = first["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|_| "human")
        .collect();
    let body = serde_json::json!({ "game": first["id"], "seats": seats });
    let request = Request::builder()
        .method("POST")
        .uri("/api/games")
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    let response = router(app.clone()).oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::CREATED);
    let created = response.into_body().collect().await.unwrap().to_bytes();
    let created: serde_json::Value = serde_json::from_slice(&created).unwrap();
    let id = created["id"].as_str().expect("the game's id");
    let (status, _, page) = get(&app, &format!("/game/{id}"), &[]).await;
    assert_eq!(status, StatusCode::OK);
    let page = String::from_utf8(page).unwrap();
    let start = page
        .find(r#"<script id="boot" type="application/json">"#)
        .expect("boot data");
    let boot = &page[start..];
    let boot = &boot[boot.find('>').unwrap() + 1..boot.find("</script>").unwrap()];
    let boot: serde_json::Value = serde_json::from_str(boot).expect("boot JSON");
    for g in boot["games"].as_array().expect("games") {
        let own = g["id"] == first["id"];
        assert_eq!(g.get("drawings").is_some(), own, "{}", g["id"]);
    }
    assert!(boot["games"][0]["drawings"] == first["drawings"]);
}
