//! `myrmidon serve`: the web app. One process serves the embedded front end, the JSON API and
//! the WebSockets of live games, and keeps every game in a database (a SQLite file by
//! default). The server is the referee: every move goes through the rules library, and each
//! state it sends carries the legal moves with their cells, so the browser knows no rules.

pub mod analysis;
pub mod api;
pub mod clock;
pub mod learn;
pub mod limits;
pub mod live;
pub mod store;
pub mod web;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use axum::Router;

pub use limits::RateLimits;
pub use live::App;
pub use store::Store;

/// How the server runs.
#[derive(Clone, Debug)]
pub struct Config {
    /// Address to listen on.
    pub addr: SocketAddr,
    /// The database: `sqlite:<path>` or a file path.
    pub db: String,
    /// How long the computer thinks for a move.
    pub think: Duration,
    /// Computer moves searched at once (each on its own thread, off the async runtime).
    pub engines: usize,
    /// Limits per client.
    pub limits: RateLimits,
}

/// The routes, over a running [`App`].
pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/api/games", get(api::list_games).post(api::create_game))
        .route("/api/games/{id}", get(api::get_game))
        .route("/api/games/{id}/moves", post(api::post_move))
        .route("/api/games/{id}/resign", post(api::resign))
        .route("/api/games/{id}/takeback", post(api::takeback))
        .route("/api/games/{id}/draw", post(api::draw))
        .route("/api/games/{id}/rematch", post(api::rematch))
        .route("/api/games/{id}/join", post(api::join))
        .route("/api/lobby", get(api::lobby))
        .route("/api/games/{id}/record", get(api::record))
        .route("/api/games/{id}/ws", get(api::watch))
        .route("/api/rules/{game}", get(learn::rules))
        .route("/api/explore", post(learn::explore))
        .route("/api/analysis", get(analysis::analysis))
        .route("/api", get(api::unknown_api))
        .route("/api/{*rest}", get(api::unknown_api).post(api::unknown_api))
        .route("/", get(web::home))
        .route("/game/{id}", get(web::game_page))
        .route("/rules/{game}", get(web::rules_page))
        .route("/analysis", get(web::analysis_page))
        .route("/{*path}", get(web::asset))
        .layer(DefaultBodyLimit::max(api::BODY_LIMIT))
        .layer(axum::middleware::from_fn_with_state(
            app.clone(),
            limits::limit,
        ))
        .layer(tower_http::trace::TraceLayer::new_for_http())
        .with_state(app)
}

/// Opens the store, resumes the computer's pending moves, and serves until Ctrl-C. `ready` is
/// called with the address bound (port 0 picks a free one).
pub async fn serve(config: Config, ready: impl FnOnce(SocketAddr)) -> Result<(), String> {
    let store = Store::open(&config.db)
        .await
        .map_err(|e| format!("--db {}: {e}", config.db))?;
    let app = App::with_limits(store, config.think, config.engines, config.limits);
    let listener = tokio::net::TcpListener::bind(config.addr)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", config.addr))?;
    let addr = listener
        .local_addr()
        .map_err(|e| format!("cannot listen on {}: {e}", config.addr))?;
    let resumed = app
        .resume()
        .await
        .map_err(|e| format!("reading unfinished games: {e}"))?;
    if resumed > 0 {
        tracing::info!("{resumed} unfinished games loaded");
    }
    ready(addr);
    axum::serve(
        listener,
        router(app).into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(async {
        let _ = tokio::signal::ctrl_c().await;
    })
    .await
    .map_err(|e| format!("server: {e}"))
}
