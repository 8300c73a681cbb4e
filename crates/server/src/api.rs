//! The JSON HTTP API and the WebSocket of each game (docs/api.md).

use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::ws::{close_code, CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;

use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::Value;

use crate::clock::ClockSpec;
use crate::i18n::{Lang, Msg, Refused};
use crate::limits::{
    close_too_big, message_size, over_frame_limit, too_many, ClientIp, MessageRate, FRAME_LIMIT,
};
use crate::live::{Answer, App, NewGame, Refusal, Rematched, Slot, SEEN_VERSION};
use crate::views::{CreatedView, ErrorView, JoinedView, LobbyEntry};
use tokio::sync::broadcast::error::RecvError;

/// A command, judged once more when its refusal may come from a stale state
/// ([`App::recheck`]).
macro_rules! confirmed {
    ($app:expr, $id:expr, $command:expr) => {{
        let first = $command;
        match $app.recheck($id, &first).await {
            Ok(true) => $command,
            Ok(false) => first,
            Err(e) => Err(e),
        }
    }};
}

/// The largest request body accepted.
pub const BODY_LIMIT: usize = 64 * 1024;
/// The largest message a client may send on a game's WebSocket (a larger one closes it, with
/// close code 1009).
pub const WATCH_MESSAGE_LIMIT: usize = 4096;

/// A refusal as the client sees it: a status and `{"error": "…"}`.
pub struct ApiError(pub StatusCode, pub Msg);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (self.0, Json(ErrorView::of(&self.1, Lang::En))).into_response();
        // The middleware (i18n::localise) writes the message in the request's language.
        response.extensions_mut().insert(Refused(self.1));
        if self.0 == StatusCode::SERVICE_UNAVAILABLE {
            // The database or the engines are busy for now.
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, header::HeaderValue::from_static("1"));
        }
        response
    }
}

impl From<Refusal> for ApiError {
    fn from(r: Refusal) -> Self {
        match r {
            Refusal::Bad(e) => ApiError(StatusCode::BAD_REQUEST, e),
            Refusal::Unauthorized(e) => ApiError(StatusCode::UNAUTHORIZED, e),
            Refusal::Forbidden(e) => ApiError(StatusCode::FORBIDDEN, e),
            Refusal::NotFound(e) => ApiError(StatusCode::NOT_FOUND, e),
            Refusal::Conflict(e) => ApiError(StatusCode::CONFLICT, e),
            Refusal::Internal(e) => ApiError(StatusCode::INTERNAL_SERVER_ERROR, e),
            Refusal::Unavailable(e) => ApiError(StatusCode::SERVICE_UNAVAILABLE, e),
            Refusal::TooMany(e) => ApiError(StatusCode::TOO_MANY_REQUESTS, e),
        }
    }
}

impl From<crate::store::StoreError> for ApiError {
    fn from(e: crate::store::StoreError) -> Self {
        Refusal::from(e).into()
    }
}

type ApiResult<T> = Result<T, ApiError>;

/// Reads a JSON body, with a message that says what is wrong.
pub(crate) fn body<T: DeserializeOwned>(bytes: Result<Bytes, BytesRejection>) -> ApiResult<T> {
    let bytes = bytes.map_err(|e| {
        let status = e.status();
        if status == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError(status, msg!("api-body-too-large", limit = BODY_LIMIT))
        } else {
            ApiError(status, msg!("api-body-unreadable", detail = e.body_text()))
        }
    })?;
    serde_json::from_slice(&bytes).map_err(|e| {
        ApiError(
            StatusCode::BAD_REQUEST,
            msg!("api-body-not-json", detail = e.to_string()),
        )
    })
}

/// A request's `settings`: names and string values.
pub(crate) fn settings_of(
    settings: serde_json::Map<String, Value>,
) -> ApiResult<Vec<(String, String)>> {
    let mut out = Vec::new();
    for (name, value) in settings {
        match value {
            Value::String(v) => out.push((name, v)),
            other => {
                return Err(ApiError(
                    StatusCode::BAD_REQUEST,
                    msg!(
                        "api-setting-not-string",
                        name = name.as_str(),
                        value = other.to_string()
                    ),
                ))
            }
        }
    }
    Ok(out)
}

#[derive(Deserialize)]
pub struct CreateRequest {
    /// Needed but with a record (then it must match the record's game).
    #[serde(default)]
    game: Option<String>,
    seats: Vec<String>,
    /// A game record (docs/records.md) to continue or review: its first game.
    #[serde(default)]
    record: Option<String>,
    /// With `record`: a secret of the client's for this game, so that it is saved once.
    #[serde(default)]
    key: Option<String>,
    #[serde(default)]
    settings: serde_json::Map<String, Value>,
    #[serde(default)]
    position: Option<String>,
    #[serde(default)]
    clock: Option<ClockRequest>,
    #[serde(default)]
    public: bool,
    #[serde(default)]
    rated: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClockRequest {
    pub(crate) minutes: f64,
    #[serde(default)]
    pub(crate) increment: f64,
}

/// `POST /api/games`.
pub async fn create_game(
    State(app): State<Arc<App>>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    bytes: Result<Bytes, BytesRejection>,
) -> ApiResult<Response> {
    let req: CreateRequest = body(bytes)?;
    let account = crate::accounts::seat_account(&app, &headers).await?;
    let creator = crate::live::client_key(ip);
    let settings = settings_of(req.settings)?;
    let clock = match &req.clock {
        Some(c) => Some(
            ClockSpec::from_request(c.minutes, c.increment)
                .map_err(|e| ApiError(StatusCode::BAD_REQUEST, e))?,
        ),
        None => None,
    };
    let (id, tokens, state) = match (req.record, req.game) {
        (Some(record), game) => {
            if req.rated {
                return Err(ApiError(StatusCode::BAD_REQUEST, msg!("api-rated-rules")));
            }
            if req.position.is_some() || !settings.is_empty() || clock.is_some() {
                return Err(ApiError(
                    StatusCode::BAD_REQUEST,
                    msg!("api-record-fixes-start"),
                ));
            }
            app.may_create(&creator).await?;
            let imported = app
                .import(
                    game.as_deref(),
                    &req.seats,
                    &record,
                    req.key.as_deref(),
                    Some(creator),
                )
                .await?;
            let status = if imported.before {
                StatusCode::OK
            } else {
                StatusCode::CREATED
            };
            let view = CreatedView {
                id: imported.id,
                tokens: imported.tokens,
                state: imported.state,
            };
            return Ok((status, Json(view)).into_response());
        }
        (None, Some(game)) => {
            app.may_create(&creator).await?;
            app.create(NewGame {
                kind: game,
                seats: req.seats,
                settings,
                position: req.position,
                clock,
                public: req.public,
                creator: Some(creator),
                rated: req.rated,
                account,
            })
            .await?
        }
        (None, None) => return Err(ApiError(StatusCode::BAD_REQUEST, msg!("api-game-missing"))),
    };
    Ok((StatusCode::CREATED, Json(CreatedView { id, tokens, state })).into_response())
}

#[derive(Deserialize)]
pub struct StateQuery {
    at: Option<usize>,
}

/// `GET /api/games/{id}` (`?at=N`: the position after N moves, read only).
pub async fn get_game(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    query: Result<Query<StateQuery>, axum::extract::rejection::QueryRejection>,
) -> ApiResult<Json<Value>> {
    let Query(query) = query.map_err(|e| {
        ApiError(
            StatusCode::BAD_REQUEST,
            msg!("api-query", detail = e.body_text()),
        )
    })?;
    let slot = app.game(&id).await?;
    let live = slot.live.lock().await;
    Ok(Json(match query.at {
        Some(at) => live.state_at(at)?,
        None => live.state(),
    }))
}

#[derive(Deserialize)]
pub struct MoveRequest {
    #[serde(rename = "move")]
    text: String,
    #[serde(default)]
    token: Option<String>,
    /// The version of the state the request was made from (optional).
    #[serde(default)]
    version: Option<u64>,
}

/// `POST /api/games/{id}/moves`.
pub async fn post_move(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    bytes: Result<Bytes, BytesRejection>,
) -> ApiResult<Json<Value>> {
    let req: MoveRequest = body(bytes)?;
    let state = detached(req.version, async move {
        let token = req.token.as_deref();
        confirmed!(app, &id, app.play(&id, &req.text, token).await)
    })
    .await?;
    Ok(Json(state))
}

#[derive(Deserialize)]
pub struct ResignRequest {
    seat: u8,
    #[serde(default)]
    token: Option<String>,
    /// The version of the state the request was made from (optional).
    #[serde(default)]
    version: Option<u64>,
}

/// `POST /api/games/{id}/resign`.
pub async fn resign(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    bytes: Result<Bytes, BytesRejection>,
) -> ApiResult<Json<Value>> {
    let req: ResignRequest = body(bytes)?;
    let state = detached(req.version, async move {
        let token = req.token.as_deref();
        confirmed!(app, &id, app.resign(&id, req.seat, token).await)
    })
    .await?;
    Ok(Json(state))
}

#[derive(Deserialize)]
pub struct OfferRequest {
    #[serde(default)]
    token: Option<String>,
    #[serde(default)]
    action: Option<String>,
    /// The version of the state the request was made from (optional).
    #[serde(default)]
    version: Option<u64>,
}

/// `POST /api/games/{id}/takeback`: a takeback (`action`: `propose` or `offer`, the default,
/// `accept` or `decline`).
pub async fn takeback(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    bytes: Result<Bytes, BytesRejection>,
) -> ApiResult<Json<Value>> {
    let req: OfferRequest = body(bytes)?;
    let action: Answer = req.action.as_deref().unwrap_or("offer").parse()?;
    let state = detached(req.version, async move {
        let token = req.token.as_deref();
        confirmed!(app, &id, app.takeback(&id, token, action).await)
    })
    .await?;
    Ok(Json(state))
}

/// Runs a command to its end even when the client goes away meanwhile (axum drops a
/// handler's future when its connection closes: a command cut between its write and its
/// change in memory would leave the two apart).
/// `seen`: the version of the state the request was made from, if it said.
async fn detached<T: Send + 'static>(
    seen: Option<u64>,
    command: impl std::future::Future<Output = Result<T, Refusal>> + Send + 'static,
) -> Result<T, Refusal> {
    tokio::spawn(SEEN_VERSION.scope(seen, command))
        .await
        .unwrap_or_else(|e| {
            Err(Refusal::Internal(msg!(
                "api-request-failed",
                detail = e.to_string()
            )))
        })
}

#[derive(Deserialize)]
pub struct DrawRequest {
    seat: u8,
    #[serde(default)]
    token: Option<String>,
    action: String,
    /// The version of the state the request was made from (optional).
    #[serde(default)]
    version: Option<u64>,
}

/// `POST /api/games/{id}/draw`.
pub async fn draw(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    bytes: Result<Bytes, BytesRejection>,
) -> ApiResult<Json<Value>> {
    let req: DrawRequest = body(bytes)?;
    let state = detached(req.version, async move {
        let token = req.token.as_deref();
        confirmed!(app, &id, app.draw(&id, req.seat, token, &req.action).await)
    })
    .await?;
    Ok(Json(state))
}

#[derive(Deserialize)]
pub struct JoinRequest {
    seat: u8,
    /// The version of the state the request was made from (optional).
    #[serde(default)]
    version: Option<u64>,
}

/// `POST /api/games/{id}/join`: takes an open seat.
pub async fn join(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    bytes: Result<Bytes, BytesRejection>,
) -> ApiResult<Json<JoinedView>> {
    let req: JoinRequest = body(bytes)?;
    let account = crate::accounts::seat_account(&app, &headers).await?;
    let (token, state) = detached(req.version, async move {
        confirmed!(app, &id, app.join(&id, req.seat, account.clone()).await)
    })
    .await?;
    Ok(Json(JoinedView { token, state }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClaimRequest {
    seat: u8,
    token: String,
    /// The version of the state the request was made from (optional).
    #[serde(default)]
    version: Option<u64>,
}

/// `POST /api/games/{id}/claim`: the logged-in account takes over a seat its token holds.
pub async fn claim(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    bytes: Result<Bytes, BytesRejection>,
) -> ApiResult<Json<Value>> {
    let req: ClaimRequest = body(bytes)?;
    let user = crate::accounts::logged_in(&app, &headers).await?;
    let account = crate::store::SeatAccount {
        id: user.id,
        name: user.name,
    };
    let state = detached(req.version, async move {
        let token = Some(req.token.as_str());
        confirmed!(
            app,
            &id,
            app.claim_seat(&id, req.seat, token, account.clone()).await
        )
    })
    .await?;
    Ok(Json(state))
}

#[derive(Deserialize)]
pub struct LeftRequest {
    /// The seat of the player who left.
    seat: u8,
    #[serde(default)]
    token: Option<String>,
    /// `win` (the default) or `draw`.
    #[serde(default)]
    result: Option<String>,
    /// The version of the state the request was made from (optional).
    #[serde(default)]
    version: Option<u64>,
}

/// `POST /api/games/{id}/claim-left`: a claim against a player who left a rated game.
pub async fn claim_left(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    bytes: Result<Bytes, BytesRejection>,
) -> ApiResult<Json<Value>> {
    let req: LeftRequest = body(bytes)?;
    let draw = match req.result.as_deref() {
        None | Some("win") => false,
        Some("draw") => true,
        Some(other) => {
            return Err(ApiError(
                StatusCode::BAD_REQUEST,
                msg!("api-claim-result", result = format!("{other:?}")),
            ))
        }
    };
    let state = detached(req.version, async move {
        let token = req.token.as_deref();
        confirmed!(app, &id, app.claim_left(&id, req.seat, token, draw).await)
    })
    .await?;
    Ok(Json(state))
}

/// `GET /api/lobby`: public games with open seats.
pub async fn lobby(State(app): State<Arc<App>>) -> ApiResult<Json<Vec<LobbyEntry>>> {
    Ok(Json(app.lobby().await?))
}

/// `POST /api/games/{id}/rematch`: a rematch (`action`: `offer`, the default, `accept` or
/// `decline`): `201` with the new game once everyone wants it, else `200` with the state.
pub async fn rematch(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    ClientIp(ip): ClientIp,
    bytes: Result<Bytes, BytesRejection>,
) -> ApiResult<Response> {
    let req: OfferRequest = body(bytes)?;
    let action: Answer = req.action.as_deref().unwrap_or("offer").parse()?;
    let creator = crate::live::client_key(ip);
    let answer = detached(req.version, async move {
        let token = req.token.as_deref();
        confirmed!(
            app,
            &id,
            app.rematch(&id, token, action, Some(creator.clone())).await
        )
    })
    .await?;
    Ok(match answer {
        Rematched::Created(id, tokens, state) => {
            (StatusCode::CREATED, Json(CreatedView { id, tokens, state })).into_response()
        }
        Rematched::Offered(state) => Json(state).into_response(),
    })
}

/// `GET /api/games/{id}/record`: the game record, as text.
pub async fn record(State(app): State<Arc<App>>, Path(id): Path<String>) -> ApiResult<Response> {
    let text = app.record_text(&id).await?;
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"myrmidon-{id}.pgn\""),
            ),
        ],
        text,
    )
        .into_response())
}

/// `GET /api/games/{id}/ws`: the state now and after every change.
pub async fn watch(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    ClientIp(ip): ClientIp,
    upgrade: WebSocketUpgrade,
) -> ApiResult<Response> {
    let slot = app.game(&id).await?;
    let Some(permit) = app.limiter.socket(ip) else {
        return Ok(too_many("websockets", Duration::from_secs(10)));
    };
    let rate = MessageRate::new(&app.limiter.limits);
    Ok(upgrade
        .max_message_size(FRAME_LIMIT)
        .max_frame_size(FRAME_LIMIT)
        .on_upgrade(move |socket| async move {
            let _permit = permit;
            let (state, updates) = {
                let live = slot.live.lock().await;
                (live.state_text().to_string(), live.watchers.subscribe())
            };
            follow(socket, (&app, &id), slot, state, updates, rate).await;
        }))
}

/// The next state to send a watcher: the next change, or, when the watcher fell behind (its
/// queue overflowed), the state now. `None` once the game is gone from memory.
async fn next_state(
    slot: &Slot,
    updates: &mut tokio::sync::broadcast::Receiver<Arc<str>>,
) -> Option<Arc<str>> {
    match updates.recv().await {
        Ok(text) => Some(text),
        Err(RecvError::Lagged(_)) => {
            let live = slot.live.lock().await;
            // Skip what is queued: the state now includes it.
            *updates = live.watchers.subscribe();
            Some(live.state_text())
        }
        Err(RecvError::Closed) => None,
    }
}

/// A player's seats on one WebSocket (docs/api.md, "A player who left"): the seats the token
/// it sent holds in a rated game going on, seen while the socket is open, and the seats they
/// may claim against as last told.
struct Presence {
    mine: Vec<u8>,
    told: Option<Vec<u8>>,
}

impl Presence {
    /// The seats are seen now; the socket is told of a change in the seats they may claim
    /// against. False when the socket is gone.
    async fn beat(
        &mut self,
        socket: &mut WebSocket,
        app: &Arc<App>,
        id: &str,
        slot: &Slot,
    ) -> bool {
        if self.mine.is_empty() {
            return true;
        }
        if let Err(e) = app.seen(id, &self.mine).await {
            tracing::warn!("game {id}: a seat seen: {e:?}");
            return true;
        }
        let claimable = {
            let live = slot.live.lock().await;
            if live.record.result().is_some() {
                self.mine.clear();
            }
            match app.claimable(&live, &self.mine).await {
                Ok(seats) => seats,
                Err(_) => return true,
            }
        };
        if self.told.as_ref() == Some(&claimable) {
            return true;
        }
        let view = crate::views::ClaimableView {
            claimable: &claimable,
        };
        let Ok(text) = serde_json::to_string(&view) else {
            return true;
        };
        self.told = Some(claimable);
        socket.send(Message::Text(text.into())).await.is_ok()
    }
}

async fn follow(
    mut socket: WebSocket,
    (app, id): (&Arc<App>, &str),
    slot: Arc<Slot>,
    first: String,
    mut updates: tokio::sync::broadcast::Receiver<Arc<str>>,
    mut rate: MessageRate,
) {
    if socket.send(Message::Text(first.into())).await.is_err() {
        return;
    }
    let mut presence = Presence {
        mine: Vec::new(),
        told: None,
    };
    let mut beat = tokio::time::interval(app.accounts.settings.presence_beat());
    beat.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = beat.tick() => {
                if !presence.beat(&mut socket, app, id, &slot).await {
                    break;
                }
            }
            update = next_state(&slot, &mut updates) => match update {
                Some(text) => {
                    if socket.send(Message::Text(text.as_ref().into())).await.is_err() {
                        break;
                    }
                }
                None => break,
            },
            incoming = socket.recv() => match incoming {
                Some(Ok(Message::Close(_))) | None => break,
                Some(Err(e)) => {
                    if over_frame_limit(e) {
                        close_too_big(&mut socket, WATCH_MESSAGE_LIMIT).await;
                    }
                    break;
                }
                Some(Ok(message)) if message_size(&message) > WATCH_MESSAGE_LIMIT => {
                    close_too_big(&mut socket, WATCH_MESSAGE_LIMIT).await;
                    break;
                }
                // A flood of messages closes the socket.
                Some(Ok(message)) => {
                    if !rate.allow() {
                        let _ = socket.send(Message::Close(Some(CloseFrame {
                            code: close_code::POLICY,
                            reason: "too many messages".into(),
                        }))).await;
                        break;
                    }
                    // `{"token": "…"}` names the player's seats; any other message is ignored.
                    if let Message::Text(text) = message {
                        let hello = serde_json::from_str::<Value>(text.as_str()).ok();
                        if let Some(token) = hello.as_ref().and_then(|h| h["token"].as_str()) {
                            presence.mine = app.here(id, token).await.unwrap_or_default();
                            presence.told = None;
                            if !presence.beat(&mut socket, app, id, &slot).await {
                                break;
                            }
                        }
                    }
                }
            },
        }
    }
    // The player's seats were last seen now.
    if !presence.mine.is_empty() {
        if let Err(e) = app.seen(id, &presence.mine).await {
            tracing::warn!("game {id}: a seat seen: {e:?}");
        }
    }
}

/// `GET /api/games/{id}/stream`: the state now and after every change, one JSON object a
/// line (newline-delimited JSON, as lichess's Board API streams), with an empty line every
/// 20 seconds of quiet to keep the connection open. Counts as one of the client's sockets.
pub async fn stream(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    ClientIp(ip): ClientIp,
) -> ApiResult<Response> {
    let slot = app.game(&id).await?;
    let Some(permit) = app.limiter.socket(ip) else {
        return Ok(too_many("streams", Duration::from_secs(10)));
    };
    let (first, updates) = {
        let live = slot.live.lock().await;
        (live.state_text().to_string(), live.watchers.subscribe())
    };
    let start = (Some(first), updates, slot, permit);
    let lines = futures_util::stream::unfold(start, |(first, mut updates, slot, permit)| async {
        let line = match first {
            Some(first) => Some(first),
            None => match tokio::time::timeout(KEEP_ALIVE, next_state(&slot, &mut updates)).await {
                Err(_) => Some(String::new()),
                Ok(Some(text)) => Some(text.to_string()),
                Ok(None) => None,
            },
        }?;
        let chunk = Ok::<_, std::convert::Infallible>(format!("{line}\n"));
        Some((chunk, (None, updates, slot, permit)))
    });
    Ok((
        [
            (header::CONTENT_TYPE, "application/x-ndjson"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        axum::body::Body::from_stream(lines),
    )
        .into_response())
}

/// The quiet after which a stream sends an empty line.
const KEEP_ALIVE: Duration = Duration::from_secs(20);

/// Any other `/api/…` path.
pub async fn unknown_api() -> ApiError {
    ApiError(StatusCode::NOT_FOUND, msg!("api-no-endpoint"))
}
