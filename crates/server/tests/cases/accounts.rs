// The account tests, run on SQLite by tests/accounts.rs and on PostgreSQL by
// tests/accounts_postgres.rs: each defines `fresh_db()` (the URL of a new, empty database),
// `lasting_db()` (one that outlives the server on it, and what keeps it) and
// `refuse_writes_to(db, table, on)` (the database refuses every new or changed row of a
// table, or no longer), declares the module `http` (common/http.rs), then includes this file.

use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Body;
use axum::http::{header, StatusCode};
use myrmidon_server::accounts::AccountSettings;
use myrmidon_server::{App, RateLimits, Store};
use serde_json::{json, Value};

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
    let body = body.map_or_else(Body::empty, |b| Body::from(b.to_string()));
    send_raw(app, method, path, body, headers).await
}

/// A request with any body, on the site's host.
async fn send_raw(
    app: &Arc<App>,
    method: &str,
    path: &str,
    body: impl Into<Body>,
    headers: &[(&str, &str)],
) -> Answer {
    let mut all = vec![("host", "myrmidon.test")];
    all.extend_from_slice(headers);
    let (status, headers, bytes) = http::request(app, method, path, &all, body).await;
    let set_cookie = headers
        .get(header::SET_COOKIE)
        .map(|v| v.to_str().unwrap().to_string());
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
async fn the_cookie_is_secure_behind_a_proxy_that_says_it_was_reached_through_https() {
    // The tests' requests have no connection address: the unspecified one stands for the
    // proxy's.
    let proxy = std::net::IpAddr::V4(std::net::Ipv4Addr::UNSPECIFIED);
    let behind = App::with_accounts(
        Store::open(&fresh_db()).await.unwrap(),
        Duration::from_millis(20),
        1,
        RateLimits {
            trusted_proxies: vec![proxy],
            ..RateLimits::off()
        },
        fast(),
    );
    let site = [
        ("origin", "https://myrmidon.test"),
        ("sec-fetch-site", "same-origin"),
    ];
    let credentials = json!({"name": "alice", "password": "correct horse"});
    let secure = |a: &Answer| a.set_cookie.as_deref().unwrap_or("").contains("; Secure");
    // Through HTTPS (the first scheme of the header is the browser's): Secure, at sign-up, at
    // login, and on the cookie that logging out clears.
    let mut https = site.to_vec();
    https.push(("x-forwarded-proto", "https"));
    let a = send(&behind, "POST", "/api/account/signup", Some(credentials.clone()), &https).await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    assert!(secure(&a), "{:?}", a.set_cookie);
    let mut both = site.to_vec();
    both.push(("x-forwarded-proto", "HTTPS, http"));
    let a = send(&behind, "POST", "/api/account/login", Some(credentials.clone()), &both).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    assert!(secure(&a), "{:?}", a.set_cookie);
    let mut out = https.clone();
    let cookie = a.cookie();
    out.push(("cookie", &cookie));
    let a = send(&behind, "POST", "/api/account/logout", Some(json!({})), &out).await;
    assert!(secure(&a) && a.set_cookie.as_deref().unwrap().contains("Max-Age=0"), "{:?}", a.set_cookie);
    // Through plain HTTP, or no header: no Secure (the browser would not send the cookie back).
    for proto in [Some("http"), None] {
        let mut headers = site.to_vec();
        headers.extend(proto.map(|p| ("x-forwarded-proto", p)));
        let a = send(&behind, "POST", "/api/account/login", Some(credentials.clone()), &headers).await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.text);
        assert!(!secure(&a), "{proto:?}: {:?}", a.set_cookie);
    }
    // The header from a client that is no trusted proxy is not taken.
    let direct = app_with(fast()).await;
    let a = send(&direct, "POST", "/api/account/signup", Some(credentials), &https).await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    assert!(!secure(&a), "{:?}", a.set_cookie);
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
    let hashed = app.accounts.hashes.load(Ordering::Relaxed);
    // The unknown name first: the server's first one.
    let unknown = login(&app, "nobody", "not the password").await;
    let real = login(&app, "alice", "not the password").await;
    assert_eq!(real.status, StatusCode::UNAUTHORIZED);
    assert_eq!(real.status, unknown.status);
    assert_eq!(real.text, unknown.text);
    assert_eq!(real.json["key"], "api-login-failed");
    assert!(real.set_cookie.is_none() && unknown.set_cookie.is_none());
    // Each verified a password hash (the unknown name against a dummy one, made with the
    // server): the same work, and no hash made.
    assert_eq!(app.accounts.verifications.load(Ordering::Relaxed), before + 2);
    assert_eq!(app.accounts.hashes.load(Ordering::Relaxed), hashed);
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

/// A session lasts its lifetime from its login, on the server as in the cookie's `Max-Age`:
/// past it the cookie opens nothing, and logging in again gives a new session.
#[tokio::test]
async fn a_session_ends_when_its_lifetime_is_over() {
    let lifetime = Duration::from_secs(2);
    let app = app_with(AccountSettings {
        session_lifetime: lifetime,
        ..fast()
    })
    .await;
    signup(&app, "alice", "the password").await;
    // The session starts between these two instants.
    let before = std::time::Instant::now();
    let old = login(&app, "alice", "the password").await;
    let after = std::time::Instant::now();
    let set = old.set_cookie.as_deref().unwrap();
    assert!(set.contains("; Max-Age=2"), "{set}");
    let cookie = old.cookie();
    // Still open within its lifetime (when the machine was quick enough to ask in time).
    let answer = me(&app, &cookie).await.status;
    if before.elapsed() < lifetime {
        assert_eq!(answer, StatusCode::OK);
    }
    tokio::time::sleep(lifetime.saturating_sub(after.elapsed()) + Duration::from_millis(50)).await;
    assert_eq!(me(&app, &cookie).await.status, StatusCode::UNAUTHORIZED);
    let new = login(&app, "alice", "the password").await;
    assert_eq!(new.status, StatusCode::OK);
    assert_eq!(me(&app, &new.cookie()).await.status, StatusCode::OK);
    assert_eq!(me(&app, &cookie).await.status, StatusCode::UNAUTHORIZED);
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

#[tokio::test]
async fn passwords_are_kept_as_argon2id_hashes_with_owasps_parameters() {
    // The server's own settings, not the tests' fast ones.
    let app = app_with(AccountSettings::default()).await;
    signup(&app, "alice", "the password").await;
    signup(&app, "bob", "the password").await;
    let hash = |name: &'static str| {
        let app = app.clone();
        async move { app.store.user_by_name(name).await.unwrap().unwrap().password_hash }
    };
    let (alice, bob) = (hash("alice").await, hash("bob").await);
    // Argon2id, version 0x13, 19 MiB (19 456 KiB), 2 iterations, 1 lane; a salt of its own.
    for h in [&alice, &bob] {
        assert!(h.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{h}");
        assert!(!h.contains("the password"), "{h}");
    }
    assert_ne!(alice, bob, "the same password, each with its own salt");
    assert_eq!(login(&app, "alice", "the password").await.status, StatusCode::OK);
    assert_eq!(
        login(&app, "alice", "not the password").await.status,
        StatusCode::UNAUTHORIZED
    );
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
    // The server that holds the game in memory drops her name at once, from the seat and
    // from the rating change.
    let s = state(&app, &id).await;
    assert_eq!(s["accounts"], json!([null, "bob"]), "{s}");
    assert_eq!(s["rating_change"]["seats"][0]["name"], Value::Null, "{s}");
    assert_eq!(s["rating_change"]["seats"][1]["name"], "bob", "{s}");
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
    // Nor in the game's rating change (Bob's stays), nor in its record.
    let names: Vec<&Value> = s["rating_change"]["seats"].as_array().unwrap().iter().map(|x| &x["name"]).collect();
    assert_eq!(names, [&Value::Null, &json!("bob")], "{s}");
    assert_eq!(s["rating_change"]["seats"][0]["after"], 1338.0, "{s}");
    let record = send(&fresh, "GET", &format!("/api/games/{id}/record"), None, &[]).await;
    assert!(!record.text.contains("alice"), "{}", record.text);
    assert!(record.text.contains("\"bob\""), "{}", record.text);
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
    // Each game names who sat in the other seats: an account, or the computer's level.
    assert_eq!(
        rated["opponents"],
        json!([{"seat": 1, "name": "bob", "level": null}])
    );
    let open = games.iter().find(|g| g["id"] == json!(casual)).unwrap();
    assert_eq!(open["result"], Value::Null);
    assert_eq!(open["rated"], false);
    assert_eq!(
        open["opponents"],
        json!([{"seat": 1, "name": null, "level": 1}])
    );
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

// ---- Faults at the end of a rated game ----

/// A server on `db` with the tests' account settings.
async fn app_on(db: &str) -> Arc<App> {
    App::with_accounts(
        Store::open(db).await.unwrap(),
        Duration::from_millis(20),
        1,
        RateLimits::off(),
        fast(),
    )
}

/// Plays the first legal move of game `id` with `token`: the state after it.
async fn play_first(app: &Arc<App>, id: &str, token: &str) -> Value {
    let legal = state(app, id).await["legal"][0].as_str().unwrap().to_string();
    let a = post(
        app,
        &format!("/api/games/{id}/moves"),
        json!({"move": legal, "token": token}),
        None,
    )
    .await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    a.json
}

/// The points of the rating history of every rating of the account `name`.
async fn history_points(app: &Arc<App>, name: &str) -> usize {
    let p = send(app, "GET", &format!("/api/users/{name}"), None, &[]).await;
    assert_eq!(p.status, StatusCode::OK, "{}", p.text);
    p.json["ratings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["history"].as_array().unwrap().len())
        .sum()
}

/// A rated game of Alice's and Bob's with a move each, both acknowledged: the game's id, both
/// tokens, the state after the moves, and both cookies.
async fn rated_game_under_way(app: &Arc<App>) -> (String, [String; 2], Value, [String; 2]) {
    let alice = signup(app, "alice", "the password").await;
    let bob = signup(app, "bob", "the password").await;
    let (id, alice_token) = rated_game(app, "reines", 2, &alice).await;
    let bob_token = join(app, &id, 1, &bob).await;
    play_first(app, &id, &alice_token).await;
    let after = play_first(app, &id, &bob_token).await;
    assert_eq!(after["moves"].as_array().unwrap().len(), 2, "{after}");
    (id, [alice_token, bob_token], after, [alice, bob])
}

/// What a server opened afresh on `db` reads of the game `id` and of both players once the
/// game has been rated: its moves as acknowledged, its result and rating change, and one rated
/// game (one point of history) for each; a further resignation changes nothing.
async fn rated_exactly_once(db: &str, id: &str, moves: &Value, change: &Value, tokens: &[String; 2]) {
    let fresh = app_on(db).await;
    let s = state(&fresh, id).await;
    assert_eq!(s["moves"], *moves, "{s}");
    assert!(s["outcome"].is_object(), "{s}");
    assert_eq!(s["rating_change"], *change);
    for name in ["alice", "bob"] {
        assert_eq!(history_points(&fresh, name).await, 1, "{name}");
    }
    let again = resign(&fresh, id, 0, &tokens[0]).await;
    assert_ne!(again.status, StatusCode::OK, "{}", again.text);
    for name in ["alice", "bob"] {
        assert_eq!(history_points(&fresh, name).await, 1, "{name}");
    }
    let list = send(&fresh, "GET", "/api/ratings/reines", None, &[]).await;
    let games: Vec<&Value> = list.json.as_array().unwrap().iter().map(|r| &r["games"]).collect();
    assert_eq!(games, [&json!(1), &json!(1)], "{}", list.text);
}

#[tokio::test]
async fn a_rated_game_whose_rating_cannot_be_written_ends_only_once_it_can() {
    let (db, _keep) = lasting_db();
    let app = app_on(&db).await;
    let (id, tokens, _, _) = rated_game_under_way(&app).await;
    // The write of the ratings fails at the moment the game ends: the resignation is refused
    // with a 503 that says nothing was changed, and nothing is: neither the end of the game
    // nor any rating, in memory or in the database. A move meanwhile (the database refuses
    // only the ratings) is acknowledged, and kept.
    refuse_writes_to(&db, "rating_history", true).await;
    let before = play_first(&app, &id, &tokens[0]).await;
    for _ in 0..3 {
        let a = resign(&app, &id, 1, &tokens[1]).await;
        assert_eq!(a.status, StatusCode::SERVICE_UNAVAILABLE, "{}", a.text);
        assert_eq!(a.json["key"], "api-database-down", "{}", a.text);
        assert!(a.json["error"].as_str().unwrap().contains("nothing was changed"), "{}", a.text);
    }
    let s = state(&app, &id).await;
    assert_eq!(s["version"], before["version"], "{s}");
    assert_eq!(s["outcome"], Value::Null, "{s}");
    assert_eq!(s["rating_change"], Value::Null, "{s}");
    let fresh = app_on(&db).await;
    let stored = state(&fresh, &id).await;
    assert_eq!(stored["version"], before["version"], "{stored}");
    assert_eq!(stored["moves"], before["moves"]);
    assert_eq!(stored["outcome"], Value::Null, "{stored}");
    let list = send(&fresh, "GET", "/api/ratings/reines", None, &[]).await;
    assert_eq!(list.json, json!([]), "no rating was written: {}", list.text);
    assert_eq!(history_points(&fresh, "alice").await, 0);
    // Once the database takes the write, the same resignation ends the game and rates it.
    refuse_writes_to(&db, "rating_history", false).await;
    let a = resign(&app, &id, 1, &tokens[1]).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let change = a.json["rating_change"].clone();
    assert_eq!(change["seats"][0]["after"], 1662.0, "{}", a.text);
    assert_eq!(change["seats"][1]["after"], 1338.0, "{}", a.text);
    rated_exactly_once(&db, &id, &before["moves"], &change, &tokens).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_rated_game_ended_in_two_processes_at_once_is_rated_once() {
    // Two servers on one database (a file on SQLite), each with its own connections and its
    // own games in memory, as two processes.
    let (db, _keep) = lasting_db();
    let (a, b) = (app_on(&db).await, app_on(&db).await);
    let alice = signup(&a, "alice", "the password").await;
    let bob = signup(&a, "bob", "the password").await;
    for round in 0..8 {
        let (id, alice_token) = rated_game(&a, "reines", 2, &alice).await;
        let bob_token = join(&a, &id, 1, &bob).await;
        // Both processes have the game in memory, then each player resigns through one.
        state(&b, &id).await;
        let (one, two) = tokio::join!(
            resign(&a, &id, 0, &alice_token),
            resign(&b, &id, 1, &bob_token)
        );
        let ok = [&one, &two]
            .iter()
            .filter(|x| x.status == StatusCode::OK)
            .count();
        // One of the two changes is stored; the other is refused (the game is over).
        assert_eq!(ok, 1, "round {round}: {} / {}", one.text, two.text);
        // Whichever won, the game was rated once: one more game for each.
        let games = blitz(&a, &alice, "reines").await["games"].clone();
        assert_eq!(games, json!(round + 1), "round {round}");
        assert_eq!(blitz(&b, &bob, "reines").await["games"], json!(round + 1));
        let ended = state(&b, &id).await;
        assert!(ended["rating_change"].is_object(), "{ended}");
    }
}

// ---- Hostile input to /api/account/… ----

#[tokio::test]
async fn hostile_requests_to_the_account_endpoints_get_a_clear_4xx() {
    let app = app_with(fast()).await;
    let cookie = signup(&app, "alice", "the password").await;
    let site = [
        ("origin", "http://myrmidon.test"),
        ("sec-fetch-site", "same-origin"),
    ];
    let with_cookie = [site[0], site[1], ("cookie", cookie.as_str())];
    let paths = [
        "/api/account/signup",
        "/api/account/login",
        "/api/account/password",
        "/api/account/delete",
    ];
    // Each answer: the status expected, with the key of the refusal in a JSON body.
    let check = |what: String, a: Answer, status: StatusCode, key: &str| {
        assert_eq!(a.status, status, "{what}: {}", a.text);
        assert_eq!(a.json["key"], key, "{what}: {}", a.text);
        assert!(a.set_cookie.is_none(), "{what}");
    };
    let huge = "x".repeat(api_body_limit() * 4);
    for path in paths {
        // A body over the limit, JSON or not.
        let body = json!({"name": huge, "password": huge}).to_string();
        let a = send_raw(&app, "POST", path, body, &with_cookie).await;
        check(format!("{path} huge"), a, StatusCode::PAYLOAD_TOO_LARGE, "api-body-too-large");
        // Bytes that are not UTF-8, in a name and as the whole body.
        for body in [
            b"{\"name\": \"al\xffce\", \"password\": \"the password\"}".to_vec(),
            vec![0xff, 0xfe, 0x00, 0x7b],
            b"{\"name\": \"\\udc00\", \"password\": \"the password\"}".to_vec(),
        ] {
            let a = send_raw(&app, "POST", path, body.clone(), &with_cookie).await;
            check(format!("{path} {body:?}"), a, StatusCode::BAD_REQUEST, "api-body-not-json");
        }
        // JSON of the wrong shape.
        for body in [
            json!([]),
            json!("alice"),
            json!(null),
            json!({"name": 5, "password": "the password"}),
            json!({"name": ["alice"], "password": "the password"}),
            json!({"name": "alice", "password": {"a": 1}}),
            json!({"password": null, "new_password": null}),
            json!({"name": "alice", "password": "the password", "admin": true}),
        ] {
            let a = send(&app, "POST", path, Some(body.clone()), &with_cookie).await;
            check(format!("{path} {body}"), a, StatusCode::BAD_REQUEST, "api-body-not-json");
        }
        // Another content type than JSON, or none, even with a JSON body.
        for kind in [
            Some("text/plain"),
            Some("application/x-www-form-urlencoded"),
            Some("multipart/form-data; boundary=x"),
            Some("application/jsonp"),
            None,
        ] {
            let body = json!({"name": "alice", "password": "the password"}).to_string();
            let mut headers = with_cookie.to_vec();
            headers.push(("content-type", kind.unwrap_or("")));
            let a = send_raw(&app, "POST", path, body, &headers).await;
            check(
                format!("{path} {kind:?}"),
                a,
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "api-body-not-json-type",
            );
        }
        // JSON with a charset is JSON.
        let a = send_raw(
            &app,
            "POST",
            path,
            "[]",
            &[site[0], site[1], ("content-type", "application/json; charset=utf-8")],
        )
        .await;
        check(format!("{path} charset"), a, StatusCode::BAD_REQUEST, "api-body-not-json");
    }
    // Names that are too long, or not letters of ASCII, within the body's limit.
    for name in ["n".repeat(30_000), "é".repeat(5), "al\u{0}ce".to_string(), "al\u{202e}ce".to_string()] {
        let a = post(
            &app,
            "/api/account/signup",
            json!({"name": name, "password": "the password"}),
            None,
        )
        .await;
        check(format!("signup {:.20}", name), a, StatusCode::BAD_REQUEST, "api-account-name");
        let a = login(&app, &name, "the password").await;
        check(format!("login {:.20}", name), a, StatusCode::UNAUTHORIZED, "api-login-failed");
    }
    // A password too long to hash.
    let a = post(
        &app,
        "/api/account/signup",
        json!({"name": "bob", "password": "p".repeat(30_000)}),
        None,
    )
    .await;
    check("long password".into(), a, StatusCode::BAD_REQUEST, "api-account-password");
    // A session cookie that is huge, or not UTF-8: nobody is logged in.
    let long = format!("myrmidon_session={}", "a".repeat(20_000));
    for value in [long.as_bytes().to_vec(), b"myrmidon_session=\xff\xfe".to_vec()] {
        let request = axum::http::Request::builder()
            .uri("/api/account")
            .header("cookie", axum::http::HeaderValue::from_bytes(&value).unwrap())
            .body(Body::empty())
            .unwrap();
        let response = tower::ServiceExt::oneshot(myrmidon_server::router(app.clone()), request)
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
    }
    // Profiles of names that cannot be: a clear 4xx too.
    for path in [
        "/api/users/%FF%FE",
        "/api/users/al%00ce",
        &format!("/api/users/{}", "n".repeat(5000)),
    ] {
        let a = send(&app, "GET", path, None, &[]).await;
        assert!(a.status.is_client_error(), "{path}: {} {}", a.status, a.text);
    }
    // Rating lists of people and of the levels at games that are not: a 404 that names the
    // game; paths that cannot be read: a clear 4xx.
    for list in ["ratings", "levels"] {
        for game in ["nosuchgame", "REINES", "reines%20", "rei%00nes"] {
            let path = format!("/api/{list}/{game}");
            let a = send(&app, "GET", &path, None, &[]).await;
            assert_eq!(a.status, StatusCode::NOT_FOUND, "{path}: {}", a.text);
            assert_eq!(a.json["key"], "api-unknown-game", "{path}: {}", a.text);
        }
        for path in [
            format!("/api/{list}/%FF%FE"),
            format!("/api/{list}/{}", "g".repeat(5000)),
            format!("/api/{list}/reines/more"),
            format!("/api/{list}/"),
        ] {
            let a = send(&app, "GET", &path, None, &[]).await;
            assert!(a.status.is_client_error(), "{path}: {} {}", a.status, a.text);
            assert!(a.json["key"].is_string(), "{path}: a keyed refusal: {}", a.text);
        }
    }
    // After all of that the account is as it was.
    assert_eq!(me(&app, &cookie).await.status, StatusCode::OK);
    assert_eq!(login(&app, "alice", "the password").await.status, StatusCode::OK);
}

/// The server's limit on a request's body.
fn api_body_limit() -> usize {
    myrmidon_server::api::BODY_LIMIT
}

// ---- Seeks and challenges ----

/// A seek made with the account of `cookie` (or none): `(id, token)`.
async fn seek(app: &Arc<App>, body: Value, cookie: Option<&str>) -> (String, String) {
    let a = post(app, "/api/seeks", body, cookie).await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    assert_eq!(a.json["seek"]["state"], "open");
    (
        a.json["id"].as_str().unwrap().to_string(),
        a.json["token"].as_str().unwrap().to_string(),
    )
}

async fn get_json(app: &Arc<App>, path: &str, cookie: Option<&str>) -> Answer {
    let headers: Vec<(&str, &str)> = cookie.map(|c| ("cookie", c)).into_iter().collect();
    send(app, "GET", path, None, &headers).await
}

/// Gives the account of `cookie` a reines blitz rating of 1662 (a rated win over `loser`).
async fn win_once(app: &Arc<App>, cookie: &str, loser: &str) {
    let (id, _) = rated_game(app, "reines", 2, cookie).await;
    let t = join(app, &id, 1, loser).await;
    assert_eq!(resign(app, &id, 1, &t).await.status, StatusCode::OK);
}

#[tokio::test]
async fn a_seek_in_the_lobby_is_matched_by_rating_range_and_makes_a_rated_game() {
    let app = app_with(fast()).await;
    let alice = signup(&app, "alice", "the password").await;
    let bob = signup(&app, "bob", "the password").await;
    let carol = signup(&app, "carol", "the password").await;
    // Alice is at 1662 at reines blitz, Bob at 1338, Carol new (1500).
    win_once(&app, &alice, &bob).await;
    let clock = json!({"minutes": 5, "increment": 3});
    let (id, token) = seek(
        &app,
        json!({"game": "reines", "clock": clock, "rated": true,
               "range": {"min": 1400, "max": 1700}}),
        Some(&alice),
    )
    .await;
    // The lobby shows it, with Alice's rating, and says to whom it is open.
    let list = get_json(&app, "/api/seeks", Some(&carol)).await;
    assert_eq!(list.status, StatusCode::OK);
    let shown = &list.json[0];
    assert_eq!(shown["id"], json!(id), "{}", list.text);
    assert_eq!(shown["name"], "alice");
    assert_eq!(shown["rating"], 1662.0);
    assert_eq!(shown["range"], json!({"min": 1400, "max": 1700}));
    assert_eq!(shown["fits"], true);
    assert_eq!(get_json(&app, "/api/seeks", Some(&bob)).await.json[0]["fits"], false);
    assert_eq!(get_json(&app, "/api/seeks", Some(&alice)).await.json[0]["fits"], false);
    // Bob is out of the range; Alice cannot take her own seek; nobody without an account.
    let accept = format!("/api/seeks/{id}/accept");
    let a = post(&app, &accept, json!({}), Some(&bob)).await;
    assert_eq!(a.status, StatusCode::FORBIDDEN, "{}", a.text);
    assert_eq!(a.json["key"], "api-seek-range");
    let a = post(&app, &accept, json!({}), Some(&alice)).await;
    assert_eq!(a.status, StatusCode::FORBIDDEN, "{}", a.text);
    assert_eq!(a.json["key"], "api-seek-own");
    let a = post(&app, &accept, json!({}), None).await;
    assert_eq!(a.status, StatusCode::UNAUTHORIZED, "{}", a.text);
    // Carol takes it: a rated game, Alice at seat 0 with her seek's token, Carol at seat 1.
    let a = post(&app, &accept, json!({}), Some(&carol)).await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    let game = a.json["id"].as_str().unwrap().to_string();
    let carol_token = a.json["token"].as_str().unwrap().to_string();
    assert_eq!(a.json["seat"], 1);
    assert_eq!(a.json["state"]["rated"], true);
    assert_eq!(a.json["state"]["accounts"], json!(["alice", "carol"]));
    // The seeker learns the game from the seek; the lobby no longer lists it; a second
    // acceptance is refused.
    let s = get_json(&app, &format!("/api/seeks/{id}"), None).await;
    assert_eq!(s.json["state"], "accepted");
    assert_eq!(s.json["game_id"], json!(game));
    assert_eq!(get_json(&app, "/api/seeks", None).await.json, json!([]));
    let a = post(&app, &accept, json!({}), Some(&bob)).await;
    assert_eq!(a.status, StatusCode::CONFLICT, "{}", a.text);
    // Each token holds its own seat only; the game is rated when it ends.
    assert_eq!(resign(&app, &game, 0, &carol_token).await.status, StatusCode::FORBIDDEN);
    let a = resign(&app, &game, 0, &token).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    assert!(a.json["rating_change"].is_object(), "{}", a.text);
    assert_eq!(blitz(&app, &carol, "reines").await["games"], 1);
}

#[tokio::test]
async fn seeks_are_checked_and_only_their_seeker_cancels_them() {
    let app = app_with(fast()).await;
    let alice = signup(&app, "alice", "the password").await;
    let bob = signup(&app, "bob", "the password").await;
    let clock = json!({"minutes": 3, "increment": 2});
    // Rated seeks, ranges and challenges need an account; a range needs a clock.
    for body in [
        json!({"game": "reines", "clock": clock, "rated": true}),
        json!({"game": "reines", "clock": clock, "range": {"min": 1000, "max": 2000}}),
        json!({"game": "reines", "clock": clock, "to": "bob"}),
    ] {
        let a = post(&app, "/api/seeks", body.clone(), None).await;
        assert_eq!(a.status, StatusCode::UNAUTHORIZED, "{body}: {}", a.text);
    }
    for (body, status, key) in [
        (json!({"game": "reines", "rated": true}), StatusCode::BAD_REQUEST, "api-rated-rules"),
        (json!({"game": "reines", "range": {"min": 1, "max": 2}}), StatusCode::BAD_REQUEST, "api-seek-range-rules"),
        (json!({"game": "reines", "clock": clock, "range": {"min": 2000, "max": 1000}}), StatusCode::BAD_REQUEST, "api-seek-range-rules"),
        (json!({"game": "reines", "clock": clock, "range": {"min": -5, "max": 99999}}), StatusCode::BAD_REQUEST, "api-seek-range-rules"),
        (json!({"game": "nosuchgame"}), StatusCode::NOT_FOUND, "api-unknown-game"),
        (json!({"game": "reines", "settings": {"nosuch": "x"}}), StatusCode::BAD_REQUEST, "api-settings"),
        (json!({"game": "reines", "to": "nobody"}), StatusCode::NOT_FOUND, "api-no-user"),
        (json!({"game": "reines", "to": "ALICE"}), StatusCode::BAD_REQUEST, "api-seek-own"),
        (json!({"game": "reines", "colour": "white"}), StatusCode::BAD_REQUEST, "api-body-not-json"),
    ] {
        let a = post(&app, "/api/seeks", body.clone(), Some(&alice)).await;
        assert_eq!(a.status, status, "{body}: {}", a.text);
        assert_eq!(a.json["key"], key, "{body}: {}", a.text);
    }
    // An anonymous casual seek: anyone may take it; its token cancels it.
    let (anon, anon_token) = seek(&app, json!({"game": "reines"}), None).await;
    assert_eq!(get_json(&app, "/api/seeks", None).await.json[0]["fits"], true);
    let cancel = format!("/api/seeks/{anon}/cancel");
    let a = post(&app, &cancel, json!({}), None).await;
    assert_eq!(a.status, StatusCode::UNAUTHORIZED, "{}", a.text);
    for (body, cookie) in [
        (json!({"token": "0123456789abcdef0123456789abcdef"}), None),
        (json!({}), Some(bob.as_str())),
    ] {
        let a = post(&app, &cancel, body, cookie).await;
        assert_eq!(a.status, StatusCode::FORBIDDEN, "{}", a.text);
        assert_eq!(a.json["key"], "api-seek-not-yours");
    }
    let a = post(&app, &cancel, json!({"token": anon_token}), None).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    assert_eq!(a.json["state"], "cancelled");
    let a = post(&app, &cancel, json!({"token": anon_token}), None).await;
    assert_eq!(a.status, StatusCode::CONFLICT, "{}", a.text);
    let a = post(&app, &format!("/api/seeks/{anon}/accept"), json!({}), Some(&bob)).await;
    assert_eq!(a.status, StatusCode::CONFLICT, "{}", a.text);
    // Alice's seek: Bob's cookie, with or without a made-up token, does not cancel it, nor
    // decline it (it is no challenge); Alice's cookie does.
    let (id, _) = seek(&app, json!({"game": "reines", "clock": clock}), Some(&alice)).await;
    for path in ["cancel", "decline"] {
        let a = post(&app, &format!("/api/seeks/{id}/{path}"), json!({}), Some(&bob)).await;
        assert_eq!(a.status, StatusCode::FORBIDDEN, "{path}: {}", a.text);
    }
    let a = post(&app, &format!("/api/seeks/{id}/decline"), json!({}), None).await;
    assert_eq!(a.status, StatusCode::UNAUTHORIZED, "{}", a.text);
    assert_eq!(get_json(&app, &format!("/api/seeks/{id}"), None).await.json["state"], "open");
    let a = post(&app, &format!("/api/seeks/{id}/cancel"), json!({}), Some(&alice)).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    // No such seek.
    for path in ["/api/seeks/nosuch/accept", "/api/seeks/no%00such/accept"] {
        let a = post(&app, path, json!({}), Some(&bob)).await;
        assert_eq!(a.status, StatusCode::NOT_FOUND, "{path}: {}", a.text);
        assert_eq!(a.json["key"], "api-no-seek");
    }
    let a = post(&app, "/api/seeks", json!({"game": "reines", "to": "b\u{0}b"}), Some(&alice)).await;
    assert_eq!(a.status, StatusCode::NOT_FOUND, "{}", a.text);
}

#[tokio::test]
async fn a_challenge_is_for_its_player_only_who_accepts_or_declines_it() {
    let app = app_with(fast()).await;
    let alice = signup(&app, "alice", "the password").await;
    let bob = signup(&app, "bob", "the password").await;
    let carol = signup(&app, "carol", "the password").await;
    let clock = json!({"minutes": 5, "increment": 3});
    let (id, alice_token) = seek(
        &app,
        json!({"game": "ackenhead", "clock": clock, "rated": true, "to": "Bob"}),
        Some(&alice),
    )
    .await;
    // Not in the lobby; in Bob's incoming and Alice's outgoing challenges, no one else's.
    assert_eq!(get_json(&app, "/api/seeks", Some(&bob)).await.json, json!([]));
    let b = get_json(&app, "/api/challenges", Some(&bob)).await;
    assert_eq!(b.json["incoming"][0]["id"], json!(id), "{}", b.text);
    assert_eq!(b.json["incoming"][0]["name"], "alice");
    assert_eq!(b.json["incoming"][0]["fits"], true);
    assert_eq!(b.json["outgoing"], json!([]));
    let a = get_json(&app, "/api/challenges", Some(&alice)).await;
    assert_eq!(a.json["outgoing"][0]["to"], "bob", "{}", a.text);
    let c = get_json(&app, "/api/challenges", Some(&carol)).await;
    assert_eq!(c.json, json!({"incoming": [], "outgoing": []}));
    assert_eq!(get_json(&app, "/api/challenges", None).await.status, StatusCode::UNAUTHORIZED);
    // Carol (another account) cannot accept, decline nor cancel it; nor can anyone without a
    // cookie; Alice cannot accept or decline her own.
    for path in ["accept", "decline", "cancel"] {
        let a = post(&app, &format!("/api/seeks/{id}/{path}"), json!({}), Some(&carol)).await;
        assert_eq!(a.status, StatusCode::FORBIDDEN, "{path}: {}", a.text);
        let a = post(&app, &format!("/api/seeks/{id}/{path}"), json!({}), None).await;
        assert_eq!(a.status, StatusCode::UNAUTHORIZED, "{path}: {}", a.text);
    }
    for path in ["accept", "decline"] {
        let a = post(&app, &format!("/api/seeks/{id}/{path}"), json!({}), Some(&alice)).await;
        assert_eq!(a.status, StatusCode::FORBIDDEN, "{path}: {}", a.text);
    }
    assert_eq!(get_json(&app, &format!("/api/seeks/{id}"), None).await.json["state"], "open");
    // Bob accepts: the game between the two.
    let a = post(&app, &format!("/api/seeks/{id}/accept"), json!({}), Some(&bob)).await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    assert_eq!(a.json["state"]["accounts"], json!(["alice", "bob"]));
    let game = a.json["id"].as_str().unwrap();
    let s = state(&app, game).await;
    assert_eq!(s["open_seats"], json!([]), "{s}");
    assert_eq!(resign(&app, game, 0, &alice_token).await.status, StatusCode::OK);
    // A second challenge: Bob declines it; then neither can accept it, nor Alice cancel it.
    let (id, _) = seek(&app, json!({"game": "reines", "to": "bob"}), Some(&alice)).await;
    let a = post(&app, &format!("/api/seeks/{id}/decline"), json!({}), Some(&bob)).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    assert_eq!(a.json["state"], "declined");
    let a = post(&app, &format!("/api/seeks/{id}/accept"), json!({}), Some(&bob)).await;
    assert_eq!(a.status, StatusCode::CONFLICT, "{}", a.text);
    let a = post(&app, &format!("/api/seeks/{id}/cancel"), json!({}), Some(&alice)).await;
    assert_eq!(a.status, StatusCode::CONFLICT, "{}", a.text);
    // A third: Alice cancels it before Bob answers.
    let (id, _) = seek(&app, json!({"game": "reines", "to": "bob"}), Some(&alice)).await;
    let a = post(&app, &format!("/api/seeks/{id}/cancel"), json!({}), Some(&alice)).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let a = post(&app, &format!("/api/seeks/{id}/accept"), json!({}), Some(&bob)).await;
    assert_eq!(a.status, StatusCode::CONFLICT, "{}", a.text);
    assert_eq!(get_json(&app, "/api/challenges", Some(&bob)).await.json["incoming"], json!([]));
}

#[tokio::test]
async fn a_seek_for_three_players_leaves_its_last_seat_to_the_lobby() {
    let app = app_with(fast()).await;
    let mut cookies = Vec::new();
    for name in ["red", "green", "black"] {
        cookies.push(signup(&app, name, "the password").await);
    }
    let clock = json!({"minutes": 5, "increment": 3});
    let (id, _) = seek(
        &app,
        json!({"game": "antchess3", "clock": clock, "rated": true}),
        Some(&cookies[0]),
    )
    .await;
    let a = post(&app, &format!("/api/seeks/{id}/accept"), json!({}), Some(&cookies[1])).await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    let game = a.json["id"].as_str().unwrap().to_string();
    assert_eq!(a.json["state"]["open_seats"], json!([2]), "{}", a.text);
    // The game is in the lobby of games with open seats; the third player takes the seat.
    let lobby = get_json(&app, "/api/lobby", None).await;
    assert!(
        lobby.json.as_array().unwrap().iter().any(|g| g["id"] == json!(game)),
        "{}",
        lobby.text
    );
    join(&app, &game, 2, &cookies[2]).await;
    let s = state(&app, &game).await;
    assert_eq!(s["accounts"], json!(["red", "green", "black"]), "{s}");
}

// ---- Another account's cookie ----

#[tokio::test]
async fn another_accounts_cookie_acts_on_none_of_its_games_seats_seeks_or_challenges() {
    let app = app_with(fast()).await;
    let alice = signup(&app, "alice", "the password").await;
    let bob = signup(&app, "bob", "the password").await;
    let mallory = signup(&app, "mallory", "her password").await;
    // Alice's and Bob's games: one going on (a move each, Alice to move), one over (for its
    // rematch); Alice's seek in the lobby and her challenge to Bob. Mallory has a token of her
    // own, of a game of hers.
    let (id, alice_token) = rated_game(&app, "reines", 2, &alice).await;
    let bob_token = join(&app, &id, 1, &bob).await;
    play_first(&app, &id, &alice_token).await;
    play_first(&app, &id, &bob_token).await;
    let (over, _) = rated_game(&app, "reines", 2, &alice).await;
    let bob_over = join(&app, &over, 1, &bob).await;
    assert_eq!(resign(&app, &over, 1, &bob_over).await.status, StatusCode::OK);
    let clock = json!({"minutes": 5, "increment": 3});
    let (seek_id, _) = seek(&app, json!({"game": "reines", "clock": clock}), Some(&alice)).await;
    let (challenge, _) = seek(&app, json!({"game": "reines", "to": "bob"}), Some(&alice)).await;
    let (_, mallory_token) = rated_game(&app, "reines", 2, &mallory).await;
    let games = [id.clone(), over.clone()];
    let mut before = Vec::new();
    for g in &games {
        before.push(state(&app, g).await);
    }
    assert_eq!(before[0]["to_move"], 0);
    let legal = before[0]["legal"][0].as_str().unwrap().to_string();
    // Every endpoint of a game, with Mallory's cookie, without a token or with her own, for
    // either seat: each answered with a 4xx.
    let mut tries = Vec::new();
    for g in &games {
        for token in [None, Some(mallory_token.as_str())] {
            for seat in [0u8, 1] {
                for (path, mut body) in [
                    ("moves", json!({"move": legal})),
                    ("resign", json!({"seat": seat})),
                    ("takeback", json!({"action": "offer"})),
                    ("takeback", json!({"action": "accept"})),
                    ("draw", json!({"seat": seat, "action": "offer"})),
                    ("draw", json!({"seat": seat, "action": "accept"})),
                    ("rematch", json!({"action": "offer"})),
                    ("join", json!({"seat": seat})),
                    ("claim", json!({"seat": seat})),
                    ("claim-left", json!({"seat": 1 - seat, "result": "win"})),
                    ("claim-left", json!({"seat": 1 - seat, "result": "draw"})),
                ] {
                    if let Some(t) = token {
                        body["token"] = json!(t);
                    }
                    tries.push((g, path, body, &mallory));
                }
            }
        }
        // Bob, with his cookie and his token, for Alice's seat (Alice to move).
        for (path, body) in [
            ("moves", json!({"move": legal})),
            ("resign", json!({"seat": 0})),
            ("draw", json!({"seat": 0, "action": "offer"})),
            ("draw", json!({"seat": 0, "action": "accept"})),
            ("claim", json!({"seat": 0})),
        ] {
            let mut body = body;
            body["token"] = json!(bob_token);
            if g == &id || path != "moves" {
                tries.push((g, path, body, &bob));
            }
        }
    }
    for (g, path, body, cookie) in tries {
        let a = post(&app, &format!("/api/games/{g}/{path}"), body.clone(), Some(cookie)).await;
        assert!(a.status.is_client_error(), "{g} {path} {body}: {} {}", a.status, a.text);
        assert!(a.set_cookie.is_none(), "{path}");
    }
    // Nothing changed in either game: no move, offer, seat or end.
    for (g, was) in games.iter().zip(&before) {
        let now = state(&app, g).await;
        for key in [
            "version",
            "moves",
            "outcome",
            "accounts",
            "open_seats",
            "draw_offer",
            "takeback_offer",
            "rematch_offers",
            "rematch",
            "rating_change",
        ] {
            assert_eq!(now[key], was[key], "game {g}: {key}");
        }
    }
    // Alice's seek and her challenge to Bob: Mallory neither cancels nor declines them, with
    // her cookie alone or with her own token; nor accepts the challenge, which is Bob's.
    for (seek, paths) in [
        (&seek_id, &["cancel", "decline"][..]),
        (&challenge, &["accept", "cancel", "decline"][..]),
    ] {
        for path in paths {
            for body in [json!({}), json!({"token": mallory_token})] {
                let a = post(&app, &format!("/api/seeks/{seek}/{path}"), body.clone(), Some(&mallory)).await;
                assert_eq!(a.status, StatusCode::FORBIDDEN, "{path} {body}: {}", a.text);
            }
        }
        let s = get_json(&app, &format!("/api/seeks/{seek}"), None).await;
        assert_eq!(s.json["state"], "open", "{}", s.text);
        assert_eq!(s.json["game_id"], Value::Null);
    }
    let bobs = get_json(&app, "/api/challenges", Some(&bob)).await;
    assert_eq!(bobs.json["incoming"][0]["id"], json!(challenge), "{}", bobs.text);
    let hers = get_json(&app, "/api/challenges", Some(&mallory)).await;
    assert_eq!(hers.json, json!({"incoming": [], "outgoing": []}));
    // The account endpoints act on the cookie's own account only: Mallory giving Alice's
    // password changes nothing of Alice's (nor of her own).
    for path in ["/api/account/password", "/api/account/delete"] {
        let body = json!({"password": "the password", "new_password": "taken over!"});
        let body = if path.ends_with("delete") { json!({"password": "the password"}) } else { body };
        let a = post(&app, path, body, Some(&mallory)).await;
        assert_eq!(a.status, StatusCode::UNAUTHORIZED, "{path}: {}", a.text);
    }
    assert_eq!(me(&app, &alice).await.status, StatusCode::OK);
    assert_eq!(login(&app, "alice", "the password").await.status, StatusCode::OK);
    assert_eq!(login(&app, "mallory", "her password").await.status, StatusCode::OK);
}

// ---- Claiming a game played without an account ----

#[tokio::test]
async fn a_seat_played_anonymously_is_claimed_into_an_account_with_its_token() {
    let app = app_with(fast()).await;
    let alice = signup(&app, "alice", "the password").await;
    let bob = signup(&app, "bob", "the password").await;
    // Two players without accounts.
    let a = post(&app, "/api/games", json!({"game": "reines", "seats": ["online", "open"]}), None).await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    let id = a.json["id"].as_str().unwrap().to_string();
    let t0 = a.json["tokens"][0].as_str().unwrap().to_string();
    let a = post(&app, &format!("/api/games/{id}/join"), json!({"seat": 1}), None).await;
    let t1 = a.json["token"].as_str().unwrap().to_string();
    let claim = format!("/api/games/{id}/claim");
    // Without an account, or with the other seat's token, or a made-up one: refused.
    let a = post(&app, &claim, json!({"seat": 0, "token": t0}), None).await;
    assert_eq!(a.status, StatusCode::UNAUTHORIZED, "{}", a.text);
    for token in [t1.as_str(), "0123456789abcdef0123456789abcdef"] {
        let a = post(&app, &claim, json!({"seat": 0, "token": token}), Some(&alice)).await;
        assert_eq!(a.status, StatusCode::FORBIDDEN, "{}", a.text);
        assert_eq!(a.json["key"], "api-not-your-seat");
    }
    let a = post(&app, &claim, json!({"seat": 7, "token": t0}), Some(&alice)).await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST, "{}", a.text);
    // With its token, the seat becomes Alice's; nobody else's afterwards; Alice holds one seat.
    let a = post(&app, &claim, json!({"seat": 0, "token": t0}), Some(&alice)).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    assert_eq!(a.json["accounts"], json!(["alice", null]));
    let a = post(&app, &claim, json!({"seat": 0, "token": t0}), Some(&bob)).await;
    assert_eq!(a.status, StatusCode::CONFLICT, "{}", a.text);
    assert_eq!(a.json["key"], "api-seat-claimed");
    let a = post(&app, &claim, json!({"seat": 1, "token": t1}), Some(&alice)).await;
    assert_eq!(a.status, StatusCode::FORBIDDEN, "{}", a.text);
    assert_eq!(a.json["key"], "api-claim-one-seat");
    // The game goes on: seat 1 resigns; Alice's profile has the win.
    assert_eq!(resign(&app, &id, 1, &t1).await.status, StatusCode::OK);
    let p = get_json(&app, "/api/users/alice", None).await;
    assert_eq!(p.json["results"]["reines"]["win"], 1, "{}", p.text);
    // A game already over is claimed with its result: Bob takes the lost seat.
    let a = post(&app, &claim, json!({"seat": 1, "token": t1}), Some(&bob)).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    assert_eq!(a.json["accounts"], json!(["alice", "bob"]));
    let p = get_json(&app, "/api/users/bob", None).await;
    assert_eq!(p.json["results"]["reines"]["loss"], 1, "{}", p.text);
    assert_eq!(p.json["games"][0]["result"], "loss");
    // Claimed games are never rated afterwards.
    assert_eq!(me(&app, &bob).await.json["ratings"], json!([]));
    // A server opened afresh reads the accounts of the seats.
    let fresh = App::with_accounts(app.store.clone(), Duration::from_millis(20), 1, RateLimits::off(), fast());
    assert_eq!(state(&fresh, &id).await["accounts"], json!(["alice", "bob"]));
}

/// The settings of the tests, with a player gone for `wait` (any clock) before a claim.
fn leaving_after(wait: Duration) -> AccountSettings {
    AccountSettings {
        leave_floor: wait,
        leave_cap: wait,
        ..fast()
    }
}

/// A claim against the player of `seat` who left, with `token`: `result` `win` or `draw`.
async fn claim_left(app: &Arc<App>, id: &str, seat: u8, token: &str, result: &str) -> Answer {
    post(
        app,
        &format!("/api/games/{id}/claim-left"),
        json!({"seat": seat, "token": token, "result": result}),
        None,
    )
    .await
}

/// Waits until `wait` has passed since `since` (a player gone since then can be claimed
/// against), then a little more.
async fn until_gone(since: std::time::Instant, wait: Duration) {
    let end = since + wait + Duration::from_millis(50);
    tokio::time::sleep(end.saturating_duration_since(std::time::Instant::now())).await;
}

#[tokio::test]
async fn a_player_who_left_is_claimed_against_after_the_wait_and_only_by_another_player() {
    let wait = Duration::from_secs(3);
    let app = app_with(leaving_after(wait)).await;
    let alice = signup(&app, "alice", "the password").await;
    let bob = signup(&app, "bob", "the password").await;
    let carol = signup(&app, "carol", "the password").await;
    let made = std::time::Instant::now();
    let (id, alice_token) = rated_game(&app, "reines", 2, &alice).await;
    let bob_token = join(&app, &id, 1, &bob).await;
    // Bob has not been gone long enough: refused, with the seconds still to wait.
    let a = claim_left(&app, &id, 1, &alice_token, "win").await;
    assert_eq!(a.status, StatusCode::CONFLICT, "{}", a.text);
    assert_eq!(a.json["key"], "api-claim-early", "{}", a.text);
    // Nobody else may claim: another account's cookie, an anonymous client, a wrong token,
    // the player of the seat itself; nor with a result that is not one.
    for (cookie, token) in [(Some(&carol), None), (None, None), (Some(&carol), Some("nope"))] {
        let mut body = json!({"seat": 1});
        if let Some(token) = token {
            body["token"] = json!(token);
        }
        let a = post(&app, &format!("/api/games/{id}/claim-left"), body, cookie.map(|c| c.as_str())).await;
        assert_eq!(a.status, StatusCode::FORBIDDEN, "{}", a.text);
    }
    let a = claim_left(&app, &id, 1, &bob_token, "win").await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST, "{}", a.text);
    assert_eq!(a.json["key"], "api-claim-own-seat");
    let a = claim_left(&app, &id, 1, &alice_token, "lose").await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST, "{}", a.text);
    assert_eq!(a.json["key"], "api-claim-result");
    let a = claim_left(&app, &id, 9, &alice_token, "win").await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST, "{}", a.text);
    // Alice moves (she is there); Bob, gone since the game began, can be claimed against
    // once the wait has passed, and not before.
    play_first(&app, &id, &alice_token).await;
    let a = claim_left(&app, &id, 1, &alice_token, "win").await;
    assert_eq!(a.status, StatusCode::CONFLICT, "{}", a.text);
    until_gone(made, wait).await;
    let bystander = claim_left(&app, &id, 1, "not a token", "win").await;
    assert_eq!(bystander.status, StatusCode::FORBIDDEN, "{}", bystander.text);
    let a = claim_left(&app, &id, 1, &alice_token, "win").await;
    assert!(made.elapsed() >= wait);
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    assert_eq!(a.json["outcome"]["winner"], 0, "{}", a.text);
    assert!(a.json["outcome"]["text"].as_str().unwrap().contains("abandonment"), "{}", a.text);
    // Rated in the same change: once for each.
    assert_eq!(a.json["rating_change"]["seats"][0]["after"], 1662.0, "{}", a.text);
    assert_eq!(blitz(&app, &alice, "reines").await["games"], 1);
    assert_eq!(blitz(&app, &bob, "reines").await["games"], 1);
    let again = claim_left(&app, &id, 1, &alice_token, "draw").await;
    assert_eq!(again.status, StatusCode::BAD_REQUEST, "{}", again.text);
    assert_eq!(blitz(&app, &bob, "reines").await["games"], 1);
    // A game that is not rated has no claim.
    let a = post(
        &app,
        "/api/games",
        json!({"game": "reines", "seats": ["online", "online"], "clock": {"minutes": 5, "increment": 3}}),
        Some(&alice),
    )
    .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    let casual = a.json["id"].as_str().unwrap();
    let token = a.json["tokens"][0].as_str().unwrap();
    let a = claim_left(&app, casual, 1, token, "win").await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST, "{}", a.text);
    assert_eq!(a.json["key"], "api-claim-unrated");
}

#[tokio::test]
async fn a_player_seen_on_the_game_socket_is_not_gone_and_a_draw_can_be_claimed() {
    let wait = Duration::from_millis(1500);
    let app = app_with(leaving_after(wait)).await;
    let alice = signup(&app, "alice", "the password").await;
    let bob = signup(&app, "bob", "the password").await;
    let (id, alice_token) = rated_game(&app, "reines", 2, &alice).await;
    let bob_token = join(&app, &id, 1, &bob).await;
    // Bob's WebSocket names his seat (as the game page does), then closes: he is gone from
    // then on, not from the start of the game.
    let start = std::time::Instant::now();
    until_gone(start, wait).await;
    assert_eq!(app.here(&id, &bob_token).await.unwrap(), vec![1]);
    let seen = std::time::Instant::now();
    let a = claim_left(&app, &id, 1, &alice_token, "draw").await;
    assert_eq!(a.status, StatusCode::CONFLICT, "{}", a.text);
    assert_eq!(a.json["key"], "api-claim-early", "{}", a.text);
    until_gone(seen, wait).await;
    let a = claim_left(&app, &id, 1, &alice_token, "draw").await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    assert_eq!(a.json["outcome"]["winner"], Value::Null, "{}", a.text);
    assert_eq!(a.json["rating_change"]["seats"][0]["after"], 1500.0, "{}", a.text);
    assert_eq!(blitz(&app, &bob, "reines").await["games"], 1);
    // The record says why the game ended.
    let record = send(&app, "GET", &format!("/api/games/{id}/record"), None, &[]).await;
    assert!(record.text.contains("abandonment"), "{}", record.text);
}

#[tokio::test]
async fn in_a_game_of_three_the_player_who_left_drops_out_and_the_others_play_on() {
    let wait = Duration::from_millis(1500);
    let app = app_with(leaving_after(wait)).await;
    let mut cookies = Vec::new();
    for name in ["red", "green", "black"] {
        cookies.push(signup(&app, name, "the password").await);
    }
    let made = std::time::Instant::now();
    let (id, t0) = rated_game(&app, "antchess3", 3, &cookies[0]).await;
    let t1 = join(&app, &id, 1, &cookies[1]).await;
    let _t2 = join(&app, &id, 2, &cookies[2]).await;
    until_gone(made, wait).await;
    // Red and green are there (their sockets); black left.
    app.here(&id, &t0).await.unwrap();
    app.here(&id, &t1).await.unwrap();
    let a = claim_left(&app, &id, 2, &t0, "draw").await;
    assert_eq!(a.status, StatusCode::BAD_REQUEST, "{}", a.text);
    let a = claim_left(&app, &id, 1, &t0, "win").await;
    assert_eq!(a.status, StatusCode::CONFLICT, "{}", a.text);
    let a = claim_left(&app, &id, 2, &t1, "win").await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    assert!(a.json["outcome"].is_null(), "{}", a.text);
    assert_eq!(a.json["rating_change"], Value::Null);
    // Red and green play on; green resigns: red wins, green second, black last.
    let a = resign(&app, &id, 1, &t1).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let seats = &a.json["rating_change"]["seats"];
    assert_eq!(seats[0]["after"], 1747.0, "{seats}");
    assert_eq!(seats[2]["after"], 1253.0, "{seats}");
}

#[tokio::test]
async fn a_seeker_takes_the_seat_they_chose_or_one_drawn_at_random() {
    let app = app_with(fast()).await;
    let alice = signup(&app, "alice", "the password").await;
    let bob = signup(&app, "bob", "the password").await;
    let clock = json!({"minutes": 5, "increment": 3});
    // Seats that are none: refused, with the seats there are.
    for seat in [json!(2), json!("blue"), json!(-1), json!(0.5)] {
        let a = post(
            &app,
            "/api/seeks",
            json!({"game": "reines", "clock": clock, "seat": seat}),
            Some(&alice),
        )
        .await;
        assert_eq!(a.status, StatusCode::BAD_REQUEST, "{seat}: {}", a.text);
        assert_eq!(a.json["key"], "api-seek-seat", "{}", a.text);
    }
    // Seat 1 chosen: Alice plays the second seat with the seek's token, Bob the first.
    let (id, token) = seek(
        &app,
        json!({"game": "reines", "clock": clock, "rated": true, "seat": 1}),
        Some(&alice),
    )
    .await;
    assert_eq!(get_json(&app, &format!("/api/seeks/{id}"), None).await.json["seat"], 1);
    let a = post(&app, &format!("/api/seeks/{id}/accept"), json!({}), Some(&bob)).await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    assert_eq!(a.json["seat"], 0, "{}", a.text);
    let game = a.json["id"].as_str().unwrap().to_string();
    assert_eq!(state(&app, &game).await["accounts"], json!(["bob", "alice"]));
    let wrong = resign(&app, &game, 0, &token).await;
    assert_eq!(wrong.status, StatusCode::FORBIDDEN, "{}", wrong.text);
    let mine = resign(&app, &game, 1, &token).await;
    assert_eq!(mine.status, StatusCode::OK, "{}", mine.text);
    // Random: no seat until accepted, then the one drawn, the game's accounts agreeing; over
    // twelve seeks both seats come up (all alike: one chance in 2048).
    let mut drawn = std::collections::BTreeSet::new();
    for _ in 0..12 {
        let (id, token) = seek(
            &app,
            json!({"game": "reines", "clock": clock, "seat": "random"}),
            Some(&alice),
        )
        .await;
        assert_eq!(get_json(&app, &format!("/api/seeks/{id}"), None).await.json["seat"], Value::Null);
        let a = post(&app, &format!("/api/seeks/{id}/accept"), json!({}), Some(&bob)).await;
        assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
        let seat = get_json(&app, &format!("/api/seeks/{id}"), None).await.json["seat"]
            .as_u64()
            .unwrap() as u8;
        assert_eq!(a.json["seat"], json!(1 - seat), "{}", a.text);
        let game = a.json["id"].as_str().unwrap().to_string();
        let accounts = &state(&app, &game).await["accounts"];
        assert_eq!(accounts[seat as usize], "alice", "{accounts}");
        assert_eq!(resign(&app, &game, seat, &token).await.status, StatusCode::OK);
        drawn.insert(seat);
    }
    assert_eq!(drawn.len(), 2, "{drawn:?}");
}

#[tokio::test]
async fn a_players_games_export_reads_back_as_the_stored_games() {
    let app = app_with(fast()).await;
    let alice = signup(&app, "alice", "the password").await;
    let bob = signup(&app, "bob", "the password").await;
    // Three games of Alice's: won by resignation after moves, one of three players left
    // going on, and one lost at once.
    let (one, alice_one) = rated_game(&app, "reines", 2, &alice).await;
    let bob_one = join(&app, &one, 1, &bob).await;
    play_first(&app, &one, &alice_one).await;
    play_first(&app, &one, &bob_one).await;
    assert_eq!(resign(&app, &one, 1, &bob_one).await.status, StatusCode::OK);
    let (two, alice_two) = rated_game(&app, "antchess3", 3, &alice).await;
    join(&app, &two, 1, &bob).await;
    play_first(&app, &two, &alice_two).await;
    let (three, alice_three) = rated_game(&app, "ackenhead", 2, &alice).await;
    join(&app, &three, 1, &bob).await;
    assert_eq!(resign(&app, &three, 0, &alice_three).await.status, StatusCode::OK);
    let a = send(&app, "GET", "/api/users/ALICE/games", None, &[]).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    let games = myrmidon_rules::pgn::read_games(&a.text).unwrap();
    // As many games as the profile lists, in its order, each the stored game.
    let profile = get_json(&app, "/api/users/alice", None).await.json;
    let ids: Vec<&str> = profile["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids.len(), 3, "{profile}");
    assert_eq!(games.len(), 3, "{}", a.text);
    for (read, id) in games.iter().zip(&ids) {
        let tag = |name: &str| read.tags.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
        assert_eq!(tag("GameId").as_deref(), Some(*id));
        let s = state(&app, id).await;
        assert_eq!(read.record.info().id, s["game"].as_str().unwrap());
        let moves: Vec<String> = read.record.history().into_iter().map(|m| m.text).collect();
        assert_eq!(json!(moves), s["moves"], "{id}");
        match read.record.outcome() {
            Some(myrmidon_rules::Outcome::Win { winner, .. }) => {
                assert_eq!(s["outcome"]["winner"], json!(winner), "{id}")
            }
            other => assert!(other.is_none() && s["outcome"].is_null(), "{id}: {other:?}"),
        }
        let record = send(&app, "GET", &format!("/api/games/{id}/record"), None, &[]).await;
        assert!(a.text.contains(&record.text), "{id}");
        assert!(read.tags.iter().any(|(_, v)| v == "alice"), "{id}: {:?}", read.tags);
    }
    let none = send(&app, "GET", "/api/users/nobody/games", None, &[]).await;
    assert_eq!(none.status, StatusCode::NOT_FOUND, "{}", none.text);
}

// ---- The computer's levels ----

/// A game of Jeu de Reines (5+3, blitz) between the account of `cookie` (seat 0) and `level`:
/// its id and the person's token.
async fn against_level(app: &Arc<App>, cookie: &str, level: u8) -> (String, String) {
    let a = post(
        app,
        "/api/games",
        json!({"game": "reines", "seats": ["human", format!("computer:{level}")],
               "clock": {"minutes": 5, "increment": 3}}),
        Some(cookie),
    )
    .await;
    assert_eq!(a.status, StatusCode::CREATED, "{}", a.text);
    assert_eq!(a.json["state"]["rated"], false);
    (
        a.json["id"].as_str().unwrap().to_string(),
        a.json["tokens"][0].as_str().unwrap().to_string(),
    )
}

/// The levels' ratings at Jeu de Reines, level 1 first.
async fn levels(app: &Arc<App>) -> Vec<Value> {
    let a = get_json(app, "/api/levels/reines", None).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    a.json.as_array().unwrap().clone()
}

#[tokio::test]
async fn a_game_against_a_level_moves_the_levels_rating_and_never_the_persons() {
    let app = app_with(fast()).await;
    let alice = signup(&app, "alice", "the password").await;
    let bob = signup(&app, "bob", "the password").await;
    win_once(&app, &alice, &bob).await;
    let mine = blitz(&app, &alice, "reines").await;
    assert_eq!(mine["rating"], 1662.0, "{mine}");
    // Before any game against people, every level has its prior: level 5 at 1500, 300 a level.
    let before = levels(&app).await;
    assert_eq!(before.len(), 8);
    for (i, l) in before.iter().enumerate() {
        assert_eq!(l["level"], json!(i + 1));
        assert_eq!(l["rating"], json!(1500.0 + 300.0 * (i as f64 - 4.0)), "{l}");
        assert_eq!(l["games"], 0);
        assert_eq!(l["provisional"], true);
    }
    // Alice (1662) resigns against level 3 (900): the level gains, Alice's rating stays.
    let (id, token) = against_level(&app, &alice, 3).await;
    assert_eq!(state(&app, &id).await["accounts"], json!(["alice", null]));
    assert_eq!(resign(&app, &id, 0, &token).await.status, StatusCode::OK);
    let after = levels(&app).await;
    assert_eq!(after[2]["games"], 1, "{}", after[2]);
    let gained = after[2]["rating"].as_f64().unwrap() - 900.0;
    assert!(gained > 100.0, "{}", after[2]);
    assert!((after[2]["deviation"].as_f64().unwrap()) < 350.0, "{}", after[2]);
    for (i, l) in after.iter().enumerate().filter(|(i, _)| *i != 2) {
        assert_eq!(l, &before[i], "level {}", i + 1);
    }
    assert_eq!(blitz(&app, &alice, "reines").await, mine);
    assert_eq!(me(&app, &alice).await.json["ratings"].as_array().unwrap().len(), 1);
    assert!(state(&app, &id).await["rating_change"].is_null());
    // Bob (1338) resigns against level 3 too: the level gains again; Bob's rating stays.
    let bob_before = blitz(&app, &bob, "reines").await;
    let (id, token) = against_level(&app, &bob, 3).await;
    assert_eq!(resign(&app, &id, 0, &token).await.status, StatusCode::OK);
    let third = levels(&app).await;
    assert_eq!(third[2]["games"], 2, "{}", third[2]);
    assert!(third[2]["rating"].as_f64().unwrap() > after[2]["rating"].as_f64().unwrap());
    assert_eq!(blitz(&app, &bob, "reines").await, bob_before);
    // An anonymous player's game against a level rates nothing.
    let a = post(&app, "/api/games", json!({"game": "reines", "seats": ["human", "computer:3"]}), None).await;
    let (id, token) = (a.json["id"].as_str().unwrap().to_string(), a.json["tokens"][0].as_str().unwrap().to_string());
    assert_eq!(resign(&app, &id, 0, &token).await.status, StatusCode::OK);
    assert_eq!(levels(&app).await, third);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_game_against_a_level_ended_twice_at_once_rates_the_level_once() {
    let app = app_with(fast()).await;
    let alice = signup(&app, "alice", "the password").await;
    for round in 0..6 {
        let (id, token) = against_level(&app, &alice, 6).await;
        // The same resignation sent twice at the same moment: one ends the game.
        let (one, two) = tokio::join!(
            resign(&app, &id, 0, &token),
            resign(&app, &id, 0, &token)
        );
        let ok = [&one, &two].iter().filter(|x| x.status == StatusCode::OK).count();
        assert_eq!(ok, 1, "round {round}: {} / {}", one.text, two.text);
        assert_eq!(levels(&app).await[5]["games"], json!(round + 1), "round {round}");
    }
    assert_eq!(me(&app, &alice).await.json["ratings"], json!([]));
}

#[tokio::test]
async fn a_game_against_a_level_whose_rating_cannot_be_written_ends_only_once_it_can() {
    let (db, _keep) = lasting_db();
    let app = app_on(&db).await;
    let alice = signup(&app, "alice", "the password").await;
    let prior = levels(&app).await;
    // Two games against level 4, each ended by Alice's resignation while the database refuses
    // the level's rating: the first would add the level's row, the second change it.
    for round in 1..=2i64 {
        let (id, token) = against_level(&app, &alice, 4).await;
        refuse_writes_to(&db, "level_ratings", true).await;
        for _ in 0..3 {
            let a = resign(&app, &id, 0, &token).await;
            assert_eq!(a.status, StatusCode::SERVICE_UNAVAILABLE, "round {round}: {}", a.text);
            assert_eq!(a.json["key"], "api-database-down", "{}", a.text);
        }
        // Nothing changed, in memory or in the database.
        assert_eq!(state(&app, &id).await["outcome"], Value::Null);
        let fresh = app_on(&db).await;
        assert_eq!(state(&fresh, &id).await["outcome"], Value::Null);
        let stored = levels(&fresh).await;
        assert_eq!(stored[3]["games"], json!(round - 1), "round {round}: {}", stored[3]);
        assert_eq!(levels(&app).await, stored);
        // Once the database takes the write, the same resignation ends the game and rates the
        // level, once: a second resignation is refused and changes nothing.
        refuse_writes_to(&db, "level_ratings", false).await;
        assert_eq!(resign(&app, &id, 0, &token).await.status, StatusCode::OK);
        assert_ne!(resign(&app, &id, 0, &token).await.status, StatusCode::OK);
        let fresh = app_on(&db).await;
        assert!(state(&fresh, &id).await["outcome"].is_object());
        let rated = levels(&fresh).await;
        assert_eq!(rated[3]["games"], json!(round), "round {round}: {}", rated[3]);
        assert!(rated[3]["rating"].as_f64() > stored[3]["rating"].as_f64(), "{}", rated[3]);
        for i in (0..8).filter(|&i| i != 3) {
            assert_eq!(rated[i], prior[i], "level {}", i + 1);
        }
    }
    assert_eq!(me(&app, &alice).await.json["ratings"], json!([]));
}

/// Plays game `id` to its end by moves: each seat whose token is given plays a capture when it
/// has one, else a legal move picked in turn; the other seats (the computer's) are waited for.
/// The last state.
async fn play_to_the_end(app: &Arc<App>, id: &str, tokens: &[Option<String>]) -> Value {
    let deadline = std::time::Instant::now() + Duration::from_secs(120);
    for n in 0usize.. {
        assert!(std::time::Instant::now() < deadline, "game {id} not over in 120 s");
        let s = state(app, id).await;
        if s["outcome"].is_object() {
            return s;
        }
        let seat = s["to_move"].as_u64().unwrap() as usize;
        let Some(token) = &tokens[seat] else {
            tokio::time::sleep(Duration::from_millis(20)).await;
            continue;
        };
        let legal: Vec<&str> = s["legal"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
        let mv = legal.iter().find(|m| m.contains('x')).unwrap_or(&legal[n * 7 % legal.len()]);
        let a = post(app, &format!("/api/games/{id}/moves"), json!({"move": mv, "token": token}), None).await;
        // (the computer may have moved meanwhile: then the move is refused, and asked again)
        assert!(a.status == StatusCode::OK || s["seats"][seat] != "online", "{mv}: {}", a.text);
    }
    unreachable!()
}

#[tokio::test]
async fn games_ended_by_a_move_are_rated_once_with_their_results() {
    let (db, _keep) = lasting_db();
    let app = app_on(&db).await;
    let alice = signup(&app, "alice", "the password").await;
    let bob = signup(&app, "bob", "the password").await;
    // A rated game between two accounts, to its end on the board.
    let (id, alice_token) = rated_game(&app, "reines", 2, &alice).await;
    let bob_token = join(&app, &id, 1, &bob).await;
    let end = play_to_the_end(&app, &id, &[Some(alice_token), Some(bob_token)]).await;
    let reason = end["outcome"]["reason"].as_str().unwrap();
    assert!(!["resignation", "time", "agreement"].contains(&reason), "{end}");
    let change = end["rating_change"].clone();
    assert_eq!(change["seats"].as_array().map(Vec::len), Some(2), "{end}");
    let fresh = app_on(&db).await;
    assert_eq!(state(&fresh, &id).await["rating_change"], change);
    for name in ["alice", "bob"] {
        assert_eq!(history_points(&fresh, name).await, 1, "{name}");
        let p = send(&fresh, "GET", &format!("/api/users/{name}"), None, &[]).await;
        let tally = &p.json["results"]["reines"];
        let games: i64 = ["win", "draw", "loss"].iter().map(|k| tally[k].as_i64().unwrap()).sum();
        assert_eq!(games, 1, "{name}: {}", p.text);
        assert_ne!(p.json["games"][0]["result"], Value::Null, "{}", p.text);
    }
    // A game against a level, to its end on the board (the level's move or the person's).
    let (id, token) = against_level(&app, &alice, 1).await;
    let end = play_to_the_end(&app, &id, &[Some(token), None]).await;
    let reason = end["outcome"]["reason"].as_str().unwrap();
    assert!(!["resignation", "time", "agreement"].contains(&reason), "{end}");
    assert_eq!(levels(&fresh).await[0]["games"], 1);
    assert_eq!(history_points(&fresh, "alice").await, 1, "the person's rating never moves");
}
