//! Accounts (docs/api.md, "Accounts"): sign up, log in and out, change the password, delete
//! the account. Passwords are hashed with Argon2id; a logged-in browser holds a session cookie
//! whose value is a random secret (the store keeps its SHA-256 only). Requests that change
//! something are refused when they come from another site ([`same_origin`]), and wrong
//! passwords slow the account and the client down ([`Accounts::throttle`]).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::de::DeserializeOwned;
use serde::Deserialize;

use crate::api::{body, ApiError};
use crate::limits::ClientIp;
use crate::live::{hash_token, new_id, new_token, App, Refusal};
use crate::store::{now, SeatAccount, UserRow};
use crate::views::accounts::{AccountView, EmptyView, NameView, RatingView};

/// The session cookie's name.
pub const COOKIE: &str = "myrmidon_session";

/// How accounts work on this server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccountSettings {
    /// Send the cookie with `Secure` (the server is reached through TLS): `--cookie-secure`.
    pub cookie_secure: bool,
    /// Argon2id's memory (KiB), iterations and lanes. OWASP's: 19 MiB, 2, 1.
    pub argon2_memory_kib: u32,
    pub argon2_iterations: u32,
    pub argon2_lanes: u32,
    /// Wrong passwords for one account name before each further try must wait.
    pub free_failures_per_account: u32,
    /// Wrong passwords from one client (any names) before each further try must wait.
    pub free_failures_per_client: u32,
    /// How long a player of a rated game must be gone before the others may claim against
    /// them, at least and at most (docs/api.md, "A player who left").
    pub leave_floor: Duration,
    pub leave_cap: Duration,
    /// How long a session lasts from its login: the cookie's `Max-Age`, and on the server the
    /// age past which its row no longer opens it (and is removed at the next login).
    pub session_lifetime: Duration,
}

impl AccountSettings {
    /// How long a player of a rated game with `clock` must be gone (no connection, no move)
    /// before the others may claim against them: a tenth of the game's estimated time (the
    /// initial time and forty increments), at least `leave_floor`, at most `leave_cap`.
    pub fn leave_wait(&self, clock: &crate::clock::ClockSpec) -> Duration {
        let estimated = clock.initial_ms + 40 * clock.increment_ms;
        Duration::from_millis(estimated / 10)
            .clamp(self.leave_floor, self.leave_cap.max(self.leave_floor))
    }

    /// How often a seat's WebSocket says that the seat is still there: a quarter of the
    /// shortest wait.
    pub fn presence_beat(&self) -> Duration {
        (self.leave_floor / 4).max(Duration::from_millis(20))
    }
}

impl Default for AccountSettings {
    fn default() -> Self {
        AccountSettings {
            cookie_secure: false,
            argon2_memory_kib: 19 * 1024,
            argon2_iterations: 2,
            argon2_lanes: 1,
            free_failures_per_account: 5,
            free_failures_per_client: 20,
            leave_floor: Duration::from_secs(10),
            leave_cap: Duration::from_secs(60),
            session_lifetime: Duration::from_secs(30 * 24 * 3600),
        }
    }
}

/// Wrong passwords for one key (an account name or a client).
#[derive(Clone, Copy)]
struct Failures {
    count: u32,
    last: Instant,
}

/// The longest wait between two tries once the free failures are used.
const MOST_WAIT: Duration = Duration::from_secs(15 * 60);

/// The accounts' settings and what they keep in memory.
pub struct Accounts {
    pub settings: AccountSettings,
    /// A hash of no password, with the settings' parameters: a login with an unknown name is
    /// verified against it, so that it takes as long as one with a known name. Made with the
    /// server, so that the first unknown name does not cost a hash more than a known one.
    dummy: OnceLock<String>,
    failures: Mutex<HashMap<String, Failures>>,
    /// Passwords verified so far (the tests check that an unknown name costs one too).
    pub verifications: AtomicU64,
    /// Passwords hashed so far, the dummy hash included (the tests check that a login never
    /// makes one).
    pub hashes: AtomicU64,
}

impl Accounts {
    pub fn new(settings: AccountSettings) -> Accounts {
        let accounts = Accounts {
            settings,
            dummy: OnceLock::new(),
            failures: Mutex::new(HashMap::new()),
            verifications: AtomicU64::new(0),
            hashes: AtomicU64::new(0),
        };
        // (should it fail, the first unknown name makes it: see `verify`)
        if let Ok(dummy) = accounts
            .argon2()
            .and_then(|a| accounts.hash_with(a, new_token()))
        {
            let _ = accounts.dummy.set(dummy);
        }
        accounts
    }

    fn argon2(&self) -> Result<Argon2<'static>, Refusal> {
        let s = &self.settings;
        let params = Params::new(
            s.argon2_memory_kib,
            s.argon2_iterations,
            s.argon2_lanes,
            None,
        )
        .map_err(|e| Refusal::internal(format!("argon2 parameters: {e}")))?;
        Ok(Argon2::new(Algorithm::Argon2id, Version::V0x13, params))
    }

    /// The Argon2id hash of a password (PHC string), with a new random salt, off the async
    /// runtime.
    async fn hash(&self, password: String) -> Result<String, Refusal> {
        let argon2 = self.argon2()?;
        self.hashes.fetch_add(1, Ordering::Relaxed);
        tokio::task::spawn_blocking(move || hash_password(&argon2, &password))
            .await
            .map_err(|e| Refusal::internal(e.to_string()))?
    }

    /// [`Accounts::hash`] on this thread.
    fn hash_with(&self, argon2: Argon2<'static>, password: String) -> Result<String, Refusal> {
        self.hashes.fetch_add(1, Ordering::Relaxed);
        hash_password(&argon2, &password)
    }

    /// Whether `password` is the one `hash` was made of (`None`: checked against the dummy
    /// hash, and false), off the async runtime.
    async fn verify(&self, hash: Option<String>, password: String) -> Result<bool, Refusal> {
        let known = hash.is_some();
        let hash = match hash {
            Some(h) => h,
            None => match self.dummy.get() {
                Some(d) => d.clone(),
                None => {
                    let made = self.hash(new_token()).await?;
                    self.dummy.get_or_init(|| made).clone()
                }
            },
        };
        let argon2 = self.argon2()?;
        self.verifications.fetch_add(1, Ordering::Relaxed);
        let ok = tokio::task::spawn_blocking(move || {
            PasswordHash::new(&hash)
                .map(|h| argon2.verify_password(password.as_bytes(), &h).is_ok())
                .unwrap_or(false)
        })
        .await
        .map_err(|e| Refusal::internal(e.to_string()))?;
        Ok(ok && known)
    }

    /// How long the next try for these keys must still wait, if it must: each key has its
    /// free failures, then waits 1 s, 2 s, 4 s… (at most [`MOST_WAIT`]) after its last one.
    fn throttle(&self, keys: &[(String, u32)]) -> Option<Duration> {
        let failures = self.failures.lock().expect("failures lock");
        keys.iter()
            .filter_map(|(key, free)| {
                let f = failures.get(key)?;
                if f.count < *free {
                    return None;
                }
                let wait = Duration::from_secs(1u64 << (f.count - free).min(10)).min(MOST_WAIT);
                wait.checked_sub(f.last.elapsed())
            })
            .max()
    }

    /// What wrong passwords are counted against, with each one's free failures: the name
    /// (known or not) and the client.
    fn keys(&self, name: &str, ip: std::net::IpAddr) -> [(String, u32); 2] {
        [
            (
                format!("name {}", crate::store::name_key(name)),
                self.settings.free_failures_per_account,
            ),
            (
                format!("client {ip}"),
                self.settings.free_failures_per_client,
            ),
        ]
    }

    fn failed(&self, keys: &[(String, u32)]) {
        let mut failures = self.failures.lock().expect("failures lock");
        if failures.len() > 100_000 {
            failures.retain(|_, f| f.last.elapsed() < MOST_WAIT);
        }
        for (key, _) in keys {
            let f = failures.entry(key.clone()).or_insert(Failures {
                count: 0,
                last: Instant::now(),
            });
            if f.last.elapsed() >= MOST_WAIT {
                f.count = 0;
            }
            f.count += 1;
            f.last = Instant::now();
        }
    }

    fn succeeded(&self, account_key: &str) {
        self.failures
            .lock()
            .expect("failures lock")
            .remove(account_key);
    }

    /// The time (milliseconds since the epoch) after which a session must have started to be
    /// open still.
    fn sessions_born_after(&self) -> i64 {
        crate::store::now() - self.settings.session_lifetime.as_millis() as i64
    }

    /// The `Set-Cookie` value that gives the browser a session (`https`: the browser came
    /// through HTTPS, as [`Https`] tells).
    fn cookie(&self, value: &str, https: bool) -> String {
        let secure = if https { "; Secure" } else { "" };
        format!(
            "{COOKIE}={value}; Path=/; HttpOnly; SameSite=Lax; Max-Age={}{secure}",
            self.settings.session_lifetime.as_secs()
        )
    }

    /// The `Set-Cookie` value that removes the session cookie.
    fn cleared(&self, https: bool) -> String {
        let secure = if https { "; Secure" } else { "" };
        format!("{COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0{secure}")
    }
}

/// The Argon2id hash of a password (PHC string), with a new random salt.
fn hash_password(argon2: &Argon2<'static>, password: &str) -> Result<String, Refusal> {
    let mut salt = [0u8; 16];
    getrandom::fill(&mut salt).map_err(|e| Refusal::internal(e.to_string()))?;
    let salt = SaltString::encode_b64(&salt).map_err(|e| Refusal::internal(e.to_string()))?;
    argon2
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| Refusal::internal(format!("hashing: {e}")))
}

/// Whether the browser reached the server through HTTPS, so that the session cookie is sent
/// with `Secure`: the server runs with `--cookie-secure`, or the request comes from a trusted
/// proxy (`--trusted-proxy`) whose `X-Forwarded-Proto` says `https`.
pub struct Https(pub bool);

impl axum::extract::FromRequestParts<Arc<App>> for Https {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        app: &Arc<App>,
    ) -> Result<Self, Self::Rejection> {
        Ok(Https(
            app.accounts.settings.cookie_secure
                || app
                    .limiter
                    .forwarded_https(&parts.extensions, &parts.headers),
        ))
    }
}

/// The session cookie's value in a request, if it has one.
pub fn session_cookie(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|c| c.trim().split_once('='))
        .find(|(name, _)| *name == COOKIE)
        .map(|(_, value)| value.to_string())
        .filter(|v| !v.is_empty() && v.len() <= 128)
}

/// The account a request is logged into: `None` without a session cookie or with one whose
/// session has ended.
pub async fn current_user(app: &App, headers: &HeaderMap) -> Result<Option<UserRow>, Refusal> {
    match session_cookie(headers) {
        Some(value) => {
            let born_after = app.accounts.sessions_born_after();
            Ok(app
                .store
                .session_user(&hash_token(&value), born_after)
                .await?)
        }
        None => Ok(None),
    }
}

/// The middleware against cross-site request forgery. A request that may change something
/// (any method but `GET`, `HEAD` and `OPTIONS`) and carries the session cookie, or goes to
/// `/api/account/…` (a forged login would log the victim into the forger's account), is
/// refused with `403`, and changes nothing, unless the browser says it comes from this site:
/// `Sec-Fetch-Site` `same-origin` or `none` when the request has that header, else an `Origin`
/// whose host is the request's `Host`. A request with the cookie must have one of the two (a
/// browser sends at least `Origin` on a `POST`); one without the cookie and without either
/// header is a program's, not a browser's, and passes. Requests without the cookie elsewhere
/// (anonymous play: the seat's token is the secret) are not concerned.
pub async fn same_origin(request: Request, next: Next) -> Response {
    if matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    ) {
        return next.run(request).await;
    }
    let headers = request.headers();
    let anonymous = session_cookie(headers).is_none();
    if anonymous && !request.uri().path().starts_with("/api/account/") {
        return next.run(request).await;
    }
    let text = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    let ok = match (text("sec-fetch-site"), text("origin")) {
        (Some(site), _) => site == "same-origin" || site == "none",
        (None, Some(origin)) => {
            let authority = origin.split_once("://").map(|(_, rest)| rest);
            authority.is_some() && authority == text("host")
        }
        (None, None) => anonymous,
    };
    if ok {
        return next.run(request).await;
    }
    ApiError(StatusCode::FORBIDDEN, msg!("api-cross-site")).into_response()
}

/// Reads the JSON body of a request to `/api/account/…`, which must say that it is JSON
/// (`Content-Type: application/json`): `415` otherwise, before the body is read.
fn account_body<T: DeserializeOwned>(
    headers: &HeaderMap,
    bytes: Result<Bytes, BytesRejection>,
) -> Result<T, ApiError> {
    let json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"));
    if !json {
        return Err(ApiError(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            msg!("api-body-not-json-type"),
        ));
    }
    body(bytes)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    name: String,
    password: String,
}

/// A name: 2 to 20 letters (ASCII), digits, `_` and `-`, beginning with a letter or a digit.
fn valid_name(name: &str) -> bool {
    (2..=20).contains(&name.len())
        && name
            .bytes()
            .next()
            .is_some_and(|b| b.is_ascii_alphanumeric())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

fn check_name(name: &str) -> Result<(), ApiError> {
    if valid_name(name) {
        Ok(())
    } else {
        Err(ApiError(StatusCode::BAD_REQUEST, msg!("api-account-name")))
    }
}

/// The account with this name, in any letter case: none for a name no account can have
/// (never asked of the database, which may refuse some characters, as PostgreSQL does NUL).
pub async fn user_named(app: &App, name: &str) -> Result<Option<UserRow>, Refusal> {
    if !valid_name(name) {
        return Ok(None);
    }
    Ok(app.store.user_by_name(name).await?)
}

/// A password: 8 to 256 characters.
fn check_password(password: &str) -> Result<(), ApiError> {
    let n = password.chars().count();
    if (8..=256).contains(&n) {
        Ok(())
    } else {
        Err(ApiError(
            StatusCode::BAD_REQUEST,
            msg!("api-account-password", least = 8, most = 256),
        ))
    }
}

/// A `200` or `201` with `{"name"}` and a new session cookie.
fn with_session(app: &App, https: bool, status: StatusCode, name: &str, value: &str) -> Response {
    let name = NameView {
        name: name.to_string(),
    };
    let mut response = (status, Json(name)).into_response();
    if let Ok(v) = HeaderValue::from_str(&app.accounts.cookie(value, https)) {
        response.headers_mut().insert(header::SET_COOKIE, v);
    }
    response
}

/// Starts a session for `user`, ending the one the request had (the id changes at login).
async fn start_session(app: &App, headers: &HeaderMap, user: &UserRow) -> Result<String, Refusal> {
    let value = new_token() + &new_token();
    let old = session_cookie(headers).map(|v| hash_token(&v));
    app.store
        .create_session(
            &hash_token(&value),
            &user.id,
            old.as_deref(),
            app.accounts.sessions_born_after(),
        )
        .await?;
    Ok(value)
}

/// `POST /api/account/signup` `{"name", "password"}`: `201`, logged in.
pub async fn signup(
    State(app): State<Arc<App>>,
    Https(https): Https,
    headers: HeaderMap,
    bytes: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let req: Credentials = account_body(&headers, bytes)?;
    check_name(&req.name)?;
    check_password(&req.password)?;
    let user = UserRow {
        id: new_id(),
        name: req.name.clone(),
        password_hash: app.accounts.hash(req.password).await?,
        created_ms: now(),
    };
    app.store.create_user(&user).await.map_err(|e| match e {
        crate::store::StoreError::Conflict => {
            ApiError(StatusCode::CONFLICT, msg!("api-account-taken"))
        }
        e => Refusal::from(e).into(),
    })?;
    let value = start_session(&app, &headers, &user).await?;
    Ok(with_session(
        &app,
        https,
        StatusCode::CREATED,
        &user.name,
        &value,
    ))
}

/// `POST /api/account/login` `{"name", "password"}`: `200`, logged in with a new session;
/// `401` for a wrong name or password alike; `429` while the account or the client must wait.
pub async fn login(
    State(app): State<Arc<App>>,
    ClientIp(ip): ClientIp,
    Https(https): Https,
    headers: HeaderMap,
    bytes: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let req: Credentials = account_body(&headers, bytes)?;
    let accounts = &app.accounts;
    let keys = accounts.keys(&req.name, ip);
    if let Some(wait) = accounts.throttle(&keys) {
        return Ok(crate::limits::too_many("logins", wait));
    }
    let user = user_named(&app, &req.name).await?;
    let ok = accounts
        .verify(user.as_ref().map(|u| u.password_hash.clone()), req.password)
        .await?;
    let Some(user) = user.filter(|_| ok) else {
        accounts.failed(&keys);
        return Err(ApiError(StatusCode::UNAUTHORIZED, msg!("api-login-failed")));
    };
    accounts.succeeded(&keys[0].0);
    let value = start_session(&app, &headers, &user).await?;
    Ok(with_session(
        &app,
        https,
        StatusCode::OK,
        &user.name,
        &value,
    ))
}

/// The account a request is logged into, as the seat it takes will name it.
pub async fn seat_account(app: &App, headers: &HeaderMap) -> Result<Option<SeatAccount>, Refusal> {
    Ok(current_user(app, headers).await?.map(|u| SeatAccount {
        id: u.id,
        name: u.name,
    }))
}

/// The account a request must be logged into: `401` otherwise.
pub async fn logged_in(app: &App, headers: &HeaderMap) -> Result<UserRow, ApiError> {
    current_user(app, headers)
        .await?
        .ok_or_else(|| ApiError(StatusCode::UNAUTHORIZED, msg!("api-not-logged-in")))
}

/// A `200` `{}` that removes the session cookie.
fn logged_out(app: &App, https: bool) -> Response {
    let mut response = Json(EmptyView {}).into_response();
    if let Ok(v) = HeaderValue::from_str(&app.accounts.cleared(https)) {
        response.headers_mut().insert(header::SET_COOKIE, v);
    }
    response
}

/// `POST /api/account/logout`: ends this session.
pub async fn logout(
    State(app): State<Arc<App>>,
    Https(https): Https,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    if let Some(value) = session_cookie(&headers) {
        app.store.end_session(&hash_token(&value)).await?;
    }
    Ok(logged_out(&app, https))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PasswordChange {
    password: String,
    new_password: String,
}

/// Checks the logged-in account's password: `401` when it is wrong (counted as a failure).
async fn confirm(
    app: &App,
    ip: std::net::IpAddr,
    user: &UserRow,
    password: String,
) -> Result<(), ApiError> {
    let keys = app.accounts.keys(&user.name, ip);
    if let Some(wait) = app.accounts.throttle(&keys) {
        let secs = wait.as_secs_f64().ceil().max(1.0) as u64;
        return Err(ApiError(
            StatusCode::TOO_MANY_REQUESTS,
            msg!("api-too-many", what = "logins", secs = secs),
        ));
    }
    if app
        .accounts
        .verify(Some(user.password_hash.clone()), password)
        .await?
    {
        Ok(())
    } else {
        app.accounts.failed(&keys);
        Err(ApiError(
            StatusCode::UNAUTHORIZED,
            msg!("api-wrong-password"),
        ))
    }
}

/// `POST /api/account/password` `{"password", "new_password"}`: every session of the account
/// ends, and this browser gets a new one.
pub async fn change_password(
    State(app): State<Arc<App>>,
    ClientIp(ip): ClientIp,
    Https(https): Https,
    headers: HeaderMap,
    bytes: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let req: PasswordChange = account_body(&headers, bytes)?;
    let user = logged_in(&app, &headers).await?;
    check_password(&req.new_password)?;
    confirm(&app, ip, &user, req.password).await?;
    let hash = app.accounts.hash(req.new_password).await?;
    let value = new_token() + &new_token();
    app.store
        .set_password(&user.id, &hash, &hash_token(&value))
        .await?;
    Ok(with_session(
        &app,
        https,
        StatusCode::OK,
        &user.name,
        &value,
    ))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Deletion {
    password: String,
}

/// `POST /api/account/delete` `{"password"}`: the account, its sessions and ratings go; its
/// games stay, without its name.
pub async fn delete(
    State(app): State<Arc<App>>,
    ClientIp(ip): ClientIp,
    Https(https): Https,
    headers: HeaderMap,
    bytes: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let req: Deletion = account_body(&headers, bytes)?;
    let user = logged_in(&app, &headers).await?;
    confirm(&app, ip, &user, req.password).await?;
    let games = app.store.delete_user(&user.id).await?;
    // The games held in memory here drop the name too (other processes hear of them).
    for id in games {
        app.refresh(&id).await;
    }
    Ok(logged_out(&app, https))
}

/// `GET /api/account`: the logged-in account's name and ratings; `401` when logged out.
pub async fn me(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
) -> Result<Json<AccountView>, ApiError> {
    let user = logged_in(&app, &headers).await?;
    let rows = app.store.ratings_of(&user.id).await?;
    Ok(Json(AccountView {
        name: user.name,
        ratings: rows.iter().map(RatingView::of).collect(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::ClockSpec;

    #[test]
    fn the_wait_before_a_claim_against_a_player_who_left_follows_the_clock() {
        // A tenth of the initial time and forty increments, between 10 s and 60 s (docs/api.md,
        // "A player who left").
        let settings = AccountSettings::default();
        let wait = |minutes: u64, increment_s: u64| {
            settings
                .leave_wait(&ClockSpec {
                    initial_ms: minutes * 60_000,
                    increment_ms: increment_s * 1000,
                })
                .as_secs()
        };
        assert_eq!(wait(1, 0), 10);
        assert_eq!(wait(3, 2), 26);
        assert_eq!(wait(5, 3), 42);
        assert_eq!(wait(15, 10), 60);
        assert_eq!(wait(180, 0), 60);
    }
}
