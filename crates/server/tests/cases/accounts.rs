// The account tests, run on SQLite by tests/accounts.rs and on PostgreSQL by
// tests/accounts_postgres.rs: each defines `fresh_db()` (the URL of a new, empty database),
// then includes this file.

use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use http_body_util::BodyExt;
use myrmidon_server::accounts::AccountSettings;
use myrmidon_server::{router, App, RateLimits, Store};
use serde_json::{json, Value};
use tower::ServiceExt;

/// The settings of the tests: Argon2id with its smallest cost (the production parameters
/// take tens of milliseconds a hash), otherwise the defaults.
fn fast() -> AccountSettings {
    AccountSettings {
        argon2_memory_kib: 8,
        argon2_iterations: 1,
        ..AccountSettings::default()
    }
}

async fn app_with(settings: AccountSettings) -> Arc<App> {
    let store = Store::open(&fresh_db()).await.unwrap();
    App::with_accounts(
        store,
        Duration::from_millis(20),
        1,
        RateLimits::off(),
        settings,
    )
}

/// An answer: status, the `Set-Cookie` header, the body as text and as JSON.
struct Answer {
    status: StatusCode,
    set_cookie: Option<String>,
    text: String,
    json: Value,
}

impl Answer {
    /// The session cookie it sets (`name=value`).
    fn cookie(&self) -> String {
        let set = self.set_cookie.as_deref().expect("a Set-Cookie header");
        set.split(';').next().unwrap().to_string()
    }
}

/// A request as a browser on this site sends it: with the cookie, if any, and its origin.
async fn send(
    app: &Arc<App>,
    method: &str,
    path: &str,
    body: Option<Value>,
    headers: &[(&str, &str)],
) -> Answer {
    let mut request = Request::builder()
        .method(method)
        .uri(path)
        .header("host", "myrmidon.test")
        .header("content-type", "application/json");
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let body = body.map_or_else(Body::empty, |b| Body::from(b.to_string()));
    let response = router(app.clone())
        .oneshot(request.body(body).unwrap())
        .await
        .unwrap();
    let status = response.status();
    let set_cookie = response
        .headers()
        .get(header::SET_COOKIE)
        .map(|v| v.to_str().unwrap().to_string());
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let text = String::from_utf8_lossy(&bytes).to_string();
    let json = serde_json::from_str(&text).unwrap_or(Value::Null);
    Answer {
        status,
        set_cookie,
        text,
        json,
    }
}

/// A `POST` from this site's pages (same origin), with a cookie or none.
async fn post(app: &Arc<App>, path: &str, body: Value, cookie: Option<&str>) -> Answer {
    let mut headers = vec![
        ("origin", "http://myrmidon.test"),
        ("sec-fetch-site", "same-origin"),
    ];
    if let Some(c) = cookie {
        headers.push(("cookie", c));
    }
    send(app, "POST", path, Some(body), &headers).await
}

async fn me(app: &Arc<App>, cookie: &str) -> Answer {
    send(app, "GET", "/api/account", None, &[("cookie", cookie)]).await
}

async fn signup(app: &Arc<App>, name: &str, password: &str) -> String {
    let a = post(
        app,
        "/api/account/signup",
        json!({"name": name, "password": password}),
        None,
    )
    .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    a.cookie()
}

async fn login(app: &Arc<App>, name: &str, password: &str) -> Answer {
    post(
        app,
        "/api/account/login",
        json!({"name": name, "password": password}),
        None,
    )
    .await
}

#[tokio::test]
async fn the_session_cookie_is_http_only_and_same_site_lax() {
    let app = app_with(fast()).await;
    let a = post(
        &app,
        "/api/account/signup",
        json!({"name": "Alice", "password": "correct horse"}),
        None,
    )
    .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    assert_eq!(a.json, json!({"name": "Alice"}));
    let set = a.set_cookie.clone().unwrap();
    assert!(set.starts_with("myrmidon_session="), "{set}");
    assert!(set.contains("; HttpOnly"), "{set}");
    assert!(set.contains("; SameSite=Lax"), "{set}");
    assert!(set.contains("; Path=/"), "{set}");
    assert!(!set.contains("Secure"), "{set}");
    // The cookie logs the browser in.
    let who = me(&app, &a.cookie()).await;
    assert_eq!(who.status, StatusCode::OK);
    assert_eq!(who.json["name"], "Alice");
    // Without it, nobody is logged in.
    let nobody = send(&app, "GET", "/api/account", None, &[]).await;
    assert_eq!(nobody.status, StatusCode::UNAUTHORIZED);
    assert_eq!(nobody.json["key"], "api-not-logged-in");
    // --cookie-secure adds Secure.
    let secure = app_with(AccountSettings {
        cookie_secure: true,
        ..fast()
    })
    .await;
    let a = post(
        &secure,
        "/api/account/signup",
        json!({"name": "Alice", "password": "correct horse"}),
        None,
    )
    .await;
    let set = a.set_cookie.unwrap();
    assert!(set.contains("; Secure") && set.contains("; HttpOnly"), "{set}");
}

#[tokio::test]
async fn names_and_passwords_are_checked() {
    let app = app_with(fast()).await;
    for (name, password, key) in [
        ("a", "long enough", "api-account-name"),
        ("bad name", "long enough", "api-account-name"),
        ("-dash", "long enough", "api-account-name"),
        ("abcdefghijklmnopqrstu", "long enough", "api-account-name"),
        ("bob", "short", "api-account-password"),
    ] {
        let a = post(
            &app,
            "/api/account/signup",
            json!({"name": name, "password": password}),
            None,
        )
        .await;
        assert_eq!(a.status, StatusCode::BAD_REQUEST, "{name}: {}", a.text);
        assert_eq!(a.json["key"], key, "{name}");
        assert!(a.set_cookie.is_none());
    }
    signup(&app, "Bob_2", "long enough").await;
    // A name taken in another letter case is taken.
    let a = post(
        &app,
        "/api/account/signup",
        json!({"name": "bob_2", "password": "long enough"}),
        None,
    )
    .await;
    assert_eq!(a.status, StatusCode::CONFLICT, "{}", a.text);
    assert_eq!(a.json["key"], "api-account-taken");
    // Logging in takes the name in any case.
    assert_eq!(login(&app, "BOB_2", "long enough").await.status, StatusCode::OK);
    // Not JSON, or a field missing: a clear 400.
    let a = send(
        &app,
        "POST",
        "/api/account/login",
        Some(json!({"name": "x"})),
        &[],
    )
    .await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST);
    assert_eq!(a.json["key"], "api-body-not-json", "{}", a.text);
}

#[tokio::test]
async fn a_forged_cross_site_post_changes_nothing() {
    let app = app_with(fast()).await;
    let cookie = signup(&app, "alice", "first password").await;
    let change = json!({"password": "first password", "new_password": "second password"});
    // A page on another site posts with the victim's cookie (a browser adds it to a
    // top-level form post): the browser says where it comes from.
    let forged = [
        vec![
            ("origin", "https://evil.example"),
            ("sec-fetch-site", "cross-site"),
        ],
        vec![("origin", "https://evil.example")],
        vec![("sec-fetch-site", "same-site")],
        vec![("origin", "null")],
        // The cookie without any header saying where the request comes from.
        vec![],
    ];
    for headers in forged {
        let mut with_cookie = headers.clone();
        with_cookie.push(("cookie", cookie.as_str()));
        for (path, body) in [
            ("/api/account/password", change.clone()),
            ("/api/account/delete", json!({"password": "first password"})),
            ("/api/account/logout", json!({})),
        ] {
            let a = send(&app, "POST", path, Some(body), &with_cookie).await;
            assert_eq!(a.status, StatusCode::FORBIDDEN, "{path} {headers:?}: {}", a.text);
            assert_eq!(a.json["key"], "api-cross-site");
            assert!(a.set_cookie.is_none());
        }
        // A login forged from another site (to log the victim into the forger's account).
        if !headers.is_empty() {
            let a = send(
                &app,
                "POST",
                "/api/account/login",
                Some(json!({"name": "alice", "password": "first password"})),
                &headers,
            )
            .await;
            assert_eq!(a.status, StatusCode::FORBIDDEN, "{headers:?}: {}", a.text);
        }
    }
    // Nothing changed: the session is open, the password the same, the account there.
    assert_eq!(me(&app, &cookie).await.status, StatusCode::OK);
    assert_eq!(login(&app, "alice", "first password").await.status, StatusCode::OK);
    // The same requests from the site itself go through.
    let a = post(&app, "/api/account/password", change, Some(&cookie)).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    // Reads are never refused.
    let new = a.cookie();
    let a = send(
        &app,
        "GET",
        "/api/account",
        None,
        &[("cookie", &new), ("sec-fetch-site", "cross-site")],
    )
    .await;
    assert_eq!(a.status, StatusCode::OK);
    // A client that is not a browser, without a cookie, plays as before; and anonymous play,
    // whose secret is the seat's token, is not concerned.
    for headers in [vec![], vec![("origin", "https://elsewhere.example")]] {
        let a = send(
            &app,
            "POST",
            "/api/games",
            Some(json!({"game": "reines", "seats": ["human", "human"]})),
            &headers,
        )
        .await;
        assert_eq!(a.status, StatusCode::CREATED, "{headers:?}: {}", a.text);
    }
}

#[tokio::test]
async fn a_wrong_password_is_answered_alike_for_a_real_and_an_unknown_name() {
    let app = app_with(fast()).await;
    signup(&app, "alice", "the password").await;
    let before = app.accounts.verifications.load(Ordering::Relaxed);
    let real = login(&app, "alice", "not the password").await;
    let unknown = login(&app, "nobody", "not the password").await;
    assert_eq!(real.status, StatusCode::UNAUTHORIZED);
    assert_eq!(real.status, unknown.status);
    assert_eq!(real.text, unknown.text);
    assert_eq!(real.json["key"], "api-login-failed");
    assert!(real.set_cookie.is_none() && unknown.set_cookie.is_none());
    // Each verified a password hash (the unknown name against a dummy one): the same work.
    assert_eq!(app.accounts.verifications.load(Ordering::Relaxed), before + 2);
}

#[tokio::test]
async fn wrong_passwords_slow_the_account_down() {
    let app = app_with(AccountSettings {
        free_failures_per_account: 3,
        free_failures_per_client: 1000,
        ..fast()
    })
    .await;
    signup(&app, "alice", "the password").await;
    signup(&app, "bob", "the password").await;
    for _ in 0..3 {
        assert_eq!(
            login(&app, "alice", "wrong guess").await.status,
            StatusCode::UNAUTHORIZED
        );
    }
    // Now even the right password must wait (the answer says how long).
    let a = login(&app, "alice", "the password").await;
    assert_eq!(a.status, StatusCode::TOO_MANY_REQUESTS, "{}", a.text);
    assert_eq!(a.json["key"], "api-too-many");
    assert!(a.set_cookie.is_none());
    // Another account is not slowed.
    assert_eq!(login(&app, "bob", "the password").await.status, StatusCode::OK);
    // An unknown name is slowed the same way.
    for _ in 0..3 {
        login(&app, "nobody", "wrong guess").await;
    }
    assert_eq!(
        login(&app, "nobody", "wrong guess").await.status,
        StatusCode::TOO_MANY_REQUESTS
    );
}

#[tokio::test]
async fn wrong_passwords_slow_the_client_down() {
    let app = app_with(AccountSettings {
        free_failures_per_account: 1000,
        free_failures_per_client: 4,
        ..fast()
    })
    .await;
    signup(&app, "alice", "the password").await;
    // Four names guessed from one client.
    for name in ["a1", "b2", "c3", "d4"] {
        assert_eq!(
            login(&app, name, "guess guess").await.status,
            StatusCode::UNAUTHORIZED
        );
    }
    let a = login(&app, "alice", "the password").await;
    assert_eq!(a.status, StatusCode::TOO_MANY_REQUESTS, "{}", a.text);
}

#[tokio::test]
async fn logging_in_again_and_out_ends_the_session() {
    let app = app_with(fast()).await;
    let first = signup(&app, "alice", "the password").await;
    // Logging in from a browser that had a session gives it a new id; the old one ends.
    let a = post(
        &app,
        "/api/account/login",
        json!({"name": "alice", "password": "the password"}),
        Some(&first),
    )
    .await;
    assert_eq!(a.status, StatusCode::OK);
    let second = a.cookie();
    assert_ne!(first, second);
    assert_eq!(me(&app, &first).await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(me(&app, &second).await.status, StatusCode::OK);
    // Logging out ends it and clears the cookie.
    let a = post(&app, "/api/account/logout", json!({}), Some(&second)).await;
    assert_eq!(a.status, StatusCode::OK);
    let cleared = a.set_cookie.unwrap();
    assert!(cleared.contains("Max-Age=0"), "{cleared}");
    assert_eq!(me(&app, &second).await.status, StatusCode::UNAUTHORIZED);
    // A made-up cookie is nobody.
    assert_eq!(
        me(&app, "myrmidon_session=0123456789abcdef").await.status,
        StatusCode::UNAUTHORIZED
    );
}

#[tokio::test]
async fn a_password_change_ends_the_sessions_of_every_device() {
    let app = app_with(fast()).await;
    let laptop = signup(&app, "alice", "old password").await;
    let phone = login(&app, "alice", "old password").await.cookie();
    // A wrong current password changes nothing.
    let a = post(
        &app,
        "/api/account/password",
        json!({"password": "wrong one!", "new_password": "new password"}),
        Some(&laptop),
    )
    .await;
    assert_eq!(a.status, StatusCode::UNAUTHORIZED);
    assert_eq!(a.json["key"], "api-wrong-password");
    assert_eq!(me(&app, &phone).await.status, StatusCode::OK);
    // Changed from the laptop: the phone is logged out, the laptop gets a new session.
    let a = post(
        &app,
        "/api/account/password",
        json!({"password": "old password", "new_password": "new password"}),
        Some(&laptop),
    )
    .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let renewed = a.cookie();
    assert_eq!(me(&app, &phone).await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(me(&app, &laptop).await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(me(&app, &renewed).await.status, StatusCode::OK);
    assert_eq!(
        login(&app, "alice", "old password").await.status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(login(&app, "alice", "new password").await.status, StatusCode::OK);
    // Without a session, nothing to change.
    let a = post(
        &app,
        "/api/account/password",
        json!({"password": "new password", "new_password": "third password"}),
        None,
    )
    .await;
    assert_eq!(a.status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_deleted_account_is_gone_and_its_name_free() {
    let app = app_with(fast()).await;
    let cookie = signup(&app, "alice", "the password").await;
    let other = login(&app, "alice", "the password").await.cookie();
    let a = post(
        &app,
        "/api/account/delete",
        json!({"password": "wrong password"}),
        Some(&cookie),
    )
    .await;
    assert_eq!(a.status, StatusCode::UNAUTHORIZED);
    assert_eq!(me(&app, &cookie).await.status, StatusCode::OK);
    let a = post(
        &app,
        "/api/account/delete",
        json!({"password": "the password"}),
        Some(&cookie),
    )
    .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    assert!(a.set_cookie.unwrap().contains("Max-Age=0"));
    assert_eq!(me(&app, &cookie).await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(me(&app, &other).await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        login(&app, "alice", "the password").await.status,
        StatusCode::UNAUTHORIZED
    );
    signup(&app, "alice", "another password").await;
}

/// Every log line the server writes, at every level, kept for the test that reads them.
#[derive(Clone, Default)]
struct Logs(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Logs {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl<'a> tracing_subscriber::fmt::MakeWriter<'a> for Logs {
    type Writer = Logs;

    fn make_writer(&'a self) -> Logs {
        self.clone()
    }
}

#[tokio::test]
async fn passwords_never_appear_in_answers_or_logs() {
    let logs = Logs::default();
    tracing_subscriber::fmt()
        .with_max_level(tracing::Level::TRACE)
        .with_writer(logs.clone())
        .init();
    let app = app_with(fast()).await;
    let secrets = ["Secret-Number-1", "Secret-Number-2", "Secret-Wrong-3"];
    let mut answers = Vec::new();
    let a = post(
        &app,
        "/api/account/signup",
        json!({"name": "alice", "password": secrets[0]}),
        None,
    )
    .await;
    let cookie = a.cookie();
    answers.push(a);
    answers.push(login(&app, "alice", secrets[2]).await);
    answers.push(login(&app, "alice", secrets[0]).await);
    answers.push(
        post(
            &app,
            "/api/account/password",
            json!({"password": secrets[0], "new_password": secrets[1]}),
            Some(&cookie),
        )
        .await,
    );
    answers.push(me(&app, &answers[3].cookie()).await);
    let logged = String::from_utf8_lossy(&logs.0.lock().unwrap()).to_string();
    assert!(!logged.is_empty(), "the requests were logged");
    for secret in secrets {
        assert!(!logged.contains(secret), "{secret} in the logs");
        for a in &answers {
            assert!(!a.text.contains(secret), "{secret} in {}", a.text);
            assert!(!a.set_cookie.clone().unwrap_or_default().contains(secret));
        }
    }
}

// ---- Rated games ----

/// A game's state.
async fn state(app: &Arc<App>, id: &str) -> Value {
    let a = send(app, "GET", &format!("/api/games/{id}"), None, &[]).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    a.json
}

/// A rated game of `game` created by the account of `cookie` (its one "online" seat is the
/// first): its id and the creator's token.
async fn rated_game(app: &Arc<App>, game: &str, players: usize, cookie: &str) -> (String, String) {
    let mut seats = vec!["online"];
    seats.resize(players, "open");
    let a = post(
        app,
        "/api/games",
        json!({"game": game, "seats": seats, "rated": true,
               "clock": {"minutes": 5, "increment": 3}}),
        Some(cookie),
    )
    .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    assert_eq!(a.json["state"]["rated"], true);
    (
        a.json["id"].as_str().unwrap().to_string(),
        a.json["tokens"][0].as_str().unwrap().to_string(),
    )
}

/// Joins `seat` with the account of `cookie`: the seat's token.
async fn join(app: &Arc<App>, id: &str, seat: u8, cookie: &str) -> String {
    let a = post(
        app,
        &format!("/api/games/{id}/join"),
        json!({"seat": seat}),
        Some(cookie),
    )
    .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    a.json["token"].as_str().unwrap().to_string()
}

async fn resign(app: &Arc<App>, id: &str, seat: u8, token: &str) -> Answer {
    post(
        app,
        &format!("/api/games/{id}/resign"),
        json!({"seat": seat, "token": token}),
        None,
    )
    .await
}

/// An account's rating at `game` (blitz), as `GET /api/account` shows it.
async fn blitz(app: &Arc<App>, cookie: &str, game: &str) -> Value {
    let a = me(app, cookie).await;
    a.json["ratings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["game"] == game && r["speed"] == "blitz")
        .cloned()
        .unwrap_or(Value::Null)
}

#[tokio::test]
async fn a_rated_game_between_two_accounts_changes_both_ratings_once() {
    let app = app_with(fast()).await;
    let alice = signup(&app, "alice", "the password").await;
    let bob = signup(&app, "bob", "the password").await;
    let (id, alice_token) = rated_game(&app, "ackenhead", 2, &alice).await;
    let bob_token = join(&app, &id, 1, &bob).await;
    let s = state(&app, &id).await;
    assert_eq!(s["accounts"], json!(["alice", "bob"]));
    assert_eq!(s["rating_change"], Value::Null);
    // Bob's token cannot act for Alice's seat.
    let a = resign(&app, &id, 0, &bob_token).await;
    assert_eq!(a.status, StatusCode::FORBIDDEN, "{}", a.text);
    let legal = s["legal"][0].as_str().unwrap().to_string();
    let a = post(
        &app,
        &format!("/api/games/{id}/moves"),
        json!({"move": legal, "token": bob_token}),
        Some(&bob),
    )
    .await;
    assert_eq!(a.status, StatusCode::FORBIDDEN, "{}", a.text);
    // Alice resigns: Bob wins; both new players (1500/350): 1662 and 1338 (rating.rs works it
    // by hand), shown in the final state.
    let a = resign(&app, &id, 0, &alice_token).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let change = &a.json["rating_change"];
    assert_eq!(change["speed"], "blitz", "{}", a.text);
    assert_eq!(change["seats"][0]["name"], "alice");
    assert_eq!(change["seats"][0]["before"], 1500.0);
    assert_eq!(change["seats"][0]["after"], 1338.0);
    assert_eq!(change["seats"][1]["after"], 1662.0);
    assert_eq!(change["seats"][1]["change"], 162.0);
    assert_eq!(change["seats"][1]["provisional"], true);
    assert_eq!(state(&app, &id).await["rating_change"], *change);
    // The game's record names the accounts, and holds no password.
    let record = send(&app, "GET", &format!("/api/games/{id}/record"), None, &[]).await;
    assert_eq!(record.status, StatusCode::OK);
    assert!(record.text.contains("\"alice\"") && record.text.contains("\"bob\""), "{}", record.text);
    assert!(!record.text.contains("the password"));
    let b = blitz(&app, &bob, "ackenhead").await;
    assert_eq!(b["rating"], 1662.0, "{b}");
    assert_eq!(b["games"], 1);
    assert_eq!(blitz(&app, &alice, "ackenhead").await["rating"], 1338.0);
    // A rematch of a rated game is rated, between the same accounts, seats swapped; a
    // second game moves the ratings once more, from where they are.
    let a = post(
        &app,
        &format!("/api/games/{id}/rematch"),
        json!({"token": alice_token}),
        None,
    )
    .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let a = post(
        &app,
        &format!("/api/games/{id}/rematch"),
        json!({"token": bob_token}),
        None,
    )
    .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    let again = a.json["id"].as_str().unwrap().to_string();
    let s = state(&app, &again).await;
    assert_eq!(s["rated"], true);
    assert_eq!(s["accounts"], json!(["bob", "alice"]));
    // Bob (seat 0 now) resigns.
    let a = resign(&app, &again, 0, &bob_token).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    assert_eq!(a.json["rating_change"]["seats"][0]["before"], 1662.0);
    let b = blitz(&app, &bob, "ackenhead").await;
    assert_eq!(b["games"], 2);
    assert!(b["rating"].as_f64().unwrap() < 1662.0, "{b}");
    assert!(blitz(&app, &alice, "ackenhead").await["rating"].as_f64().unwrap() > 1338.0);
}

#[tokio::test]
async fn three_accounts_are_rated_by_their_finishing_order() {
    let app = app_with(fast()).await;
    let mut cookies = Vec::new();
    for name in ["red", "green", "black"] {
        cookies.push(signup(&app, name, "the password").await);
    }
    let (id, t0) = rated_game(&app, "antchess3", 3, &cookies[0]).await;
    let t1 = join(&app, &id, 1, &cookies[1]).await;
    let t2 = join(&app, &id, 2, &cookies[2]).await;
    // Seat 0 drops out first, then seat 1: seat 2 wins, seat 1 second, seat 0 last.
    let a = resign(&app, &id, 0, &t0).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    assert_eq!(a.json["rating_change"], Value::Null);
    let a = resign(&app, &id, 1, &t1).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let seats = &a.json["rating_change"]["seats"];
    // rating.rs works these by hand: 1747.3, 1500, 1252.7.
    assert_eq!(seats[2]["after"], 1747.0, "{seats}");
    assert_eq!(seats[1]["after"], 1500.0, "{seats}");
    assert_eq!(seats[0]["after"], 1253.0, "{seats}");
    let _ = t2;
    assert_eq!(blitz(&app, &cookies[2], "antchess3").await["games"], 1);
}

#[tokio::test]
async fn rated_games_need_accounts_a_clock_and_people() {
    let app = app_with(fast()).await;
    let alice = signup(&app, "alice", "the password").await;
    let clock = json!({"minutes": 3, "increment": 2});
    // Not logged in.
    let a = post(
        &app,
        "/api/games",
        json!({"game": "reines", "seats": ["online", "open"], "rated": true, "clock": clock}),
        None,
    )
    .await;
    assert_eq!(a.status, StatusCode::UNAUTHORIZED, "{}", a.text);
    // Against the computer, on one screen, without a clock, from a record: never rated.
    for body in [
        json!({"game": "reines", "seats": ["online", "computer:3"], "rated": true, "clock": clock}),
        json!({"game": "reines", "seats": ["human", "human"], "rated": true, "clock": clock}),
        json!({"game": "reines", "seats": ["online", "open"], "rated": true}),
        json!({"game": "reines", "seats": ["online", "online"], "rated": true, "clock": clock}),
        json!({"record": "[Game \"reines\"]\n\n*", "seats": ["online", "open"], "rated": true}),
    ] {
        let a = post(&app, "/api/games", body.clone(), Some(&alice)).await;
        assert_eq!(a.status, StatusCode::BAD_REQUEST, "{body}: {}", a.text);
        assert_eq!(a.json["key"], "api-rated-rules", "{body}");
    }
    let (id, _) = rated_game(&app, "reines", 2, &alice).await;
    // Nobody joins a rated game without an account, and an account holds one seat.
    let a = post(&app, &format!("/api/games/{id}/join"), json!({"seat": 1}), None).await;
    assert_eq!(a.status, StatusCode::UNAUTHORIZED, "{}", a.text);
    let a = post(
        &app,
        &format!("/api/games/{id}/join"),
        json!({"seat": 1}),
        Some(&alice),
    )
    .await;
    assert_eq!(a.status, StatusCode::FORBIDDEN, "{}", a.text);
    assert_eq!(a.json["key"], "api-rated-one-seat");
    // A game against the computer played by an account is casual and changes no rating.
    let a = post(
        &app,
        "/api/games",
        json!({"game": "reines", "seats": ["online", "computer:1"], "clock": clock}),
        Some(&alice),
    )
    .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    assert_eq!(a.json["state"]["rated"], false);
    assert_eq!(a.json["state"]["accounts"], json!(["alice", null]));
    let cid = a.json["id"].as_str().unwrap();
    let token = a.json["tokens"][0].as_str().unwrap();
    let a = resign(&app, cid, 0, token).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    assert_eq!(a.json["rating_change"], Value::Null);
    assert_eq!(me(&app, &alice).await.json["ratings"], json!([]));
}

#[tokio::test]
async fn a_deleted_accounts_games_stay_without_its_name() {
    let app = app_with(fast()).await;
    let alice = signup(&app, "alice", "the password").await;
    let bob = signup(&app, "bob", "the password").await;
    let (id, alice_token) = rated_game(&app, "reines", 2, &alice).await;
    join(&app, &id, 1, &bob).await;
    assert_eq!(resign(&app, &id, 0, &alice_token).await.status, StatusCode::OK);
    let a = post(
        &app,
        "/api/account/delete",
        json!({"password": "the password"}),
        Some(&alice),
    )
    .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    // A new server on the database reads the game without Alice's name.
    let fresh = App::with_accounts(
        app.store.clone(),
        Duration::from_millis(20),
        1,
        RateLimits::off(),
        fast(),
    );
    let s = state(&fresh, &id).await;
    assert_eq!(s["accounts"], json!([null, "bob"]), "{s}");
    assert!(s["outcome"].is_object(), "{s}");
    assert_eq!(blitz(&fresh, &bob, "reines").await["games"], 1);
}

#[tokio::test]
async fn profiles_show_ratings_games_and_results_and_lists_rank_players() {
    let app = app_with(fast()).await;
    let alice = signup(&app, "Alice", "the password").await;
    let bob = signup(&app, "bob", "the password").await;
    let (id, alice_token) = rated_game(&app, "reines", 2, &alice).await;
    join(&app, &id, 1, &bob).await;
    // A casual game of Alice's against the computer, unfinished.
    let a = post(
        &app,
        "/api/games",
        json!({"game": "ackenhead", "seats": ["online", "computer:1"]}),
        Some(&alice),
    )
    .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    let casual = a.json["id"].as_str().unwrap().to_string();
    assert_eq!(resign(&app, &id, 0, &alice_token).await.status, StatusCode::OK);
    let p = send(&app, "GET", "/api/users/alice", None, &[]).await;
    assert_eq!(p.status, StatusCode::OK, "{}", p.text);
    assert_eq!(p.json["name"], "Alice");
    let ratings = p.json["ratings"].as_array().unwrap();
    assert_eq!(ratings.len(), 1, "{}", p.text);
    assert_eq!(ratings[0]["game"], "reines");
    assert_eq!(ratings[0]["speed"], "blitz");
    assert_eq!(ratings[0]["rating"], 1338.0);
    assert_eq!(ratings[0]["history"].as_array().unwrap().len(), 1);
    assert_eq!(ratings[0]["history"][0][1], 1338.0);
    assert_eq!(
        p.json["results"],
        json!({"reines": {"win": 0, "draw": 0, "loss": 1}})
    );
    let games = p.json["games"].as_array().unwrap();
    assert_eq!(games.len(), 2, "{}", p.text);
    let rated = games.iter().find(|g| g["id"] == json!(id)).unwrap();
    assert_eq!(rated["result"], "loss");
    assert_eq!(rated["rated"], true);
    assert_eq!(rated["seat"], 0);
    let open = games.iter().find(|g| g["id"] == json!(casual)).unwrap();
    assert_eq!(open["result"], Value::Null);
    assert_eq!(open["rated"], false);
    let b = send(&app, "GET", "/api/users/BOB", None, &[]).await;
    assert_eq!(b.json["results"]["reines"]["win"], 1, "{}", b.text);
    // The list of Reines' ratings: Bob above Alice.
    let list = send(&app, "GET", "/api/ratings/reines", None, &[]).await;
    assert_eq!(list.status, StatusCode::OK);
    let names: Vec<&str> = list.json.as_array().unwrap().iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["bob", "Alice"]);
    assert_eq!(list.json[0]["rating"], 1662.0);
    // No such account, no such game.
    let a = send(&app, "GET", "/api/users/nobody", None, &[]).await;
    assert_eq!(a.status, StatusCode::NOT_FOUND);
    assert_eq!(a.json["key"], "api-no-user");
    let a = send(&app, "GET", "/api/ratings/nosuchgame", None, &[]).await;
    assert_eq!(a.status, StatusCode::NOT_FOUND);
    // No profile says anything of the password.
    assert!(!p.text.contains("password") && !p.text.contains("argon2"));
}
