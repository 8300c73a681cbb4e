//! `myrmidon serve`: the web app. One process serves the embedded front end, the JSON API and
//! the WebSockets of live games, and keeps every game in a database (a SQLite file by
//! default). The server is the referee: every move goes through the rules library, and each
//! state it sends carries the legal moves with their cells, so the browser knows no rules.

#[macro_use]
pub mod i18n;
pub mod accounts;
pub mod analysis;
pub mod api;
pub mod client;
pub mod clock;
pub mod conn;
pub mod engines;
pub mod learn;
pub mod limits;
pub mod live;
pub mod profiles;
pub mod rating;
pub mod seeks;
pub mod store;
pub mod views;
pub mod web;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use axum::Router;

pub use conn::{ConnStats, Connections};
pub use engines::{EnginePool, PoolError, Work};
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
    /// Searches at once, at most (the engine pool's slots: computer moves, draw decisions,
    /// analyses; each on its own thread, off the async runtime).
    pub engines: usize,
    /// Limits per client.
    pub limits: RateLimits,
    /// Accounts: the cookie, the password hashing, the limits on wrong passwords.
    pub accounts: accounts::AccountSettings,
}

/// The routes, over a running [`App`].
pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/api/games", get(web::games_list).post(api::create_game))
        .route("/api/games/{id}", get(api::get_game))
        .route("/api/games/{id}/moves", post(api::post_move))
        .route("/api/games/{id}/resign", post(api::resign))
        .route("/api/games/{id}/takeback", post(api::takeback))
        .route("/api/games/{id}/draw", post(api::draw))
        .route("/api/games/{id}/rematch", post(api::rematch))
        .route("/api/games/{id}/join", post(api::join))
        .route("/api/games/{id}/claim", post(api::claim))
        .route("/api/games/{id}/claim-left", post(api::claim_left))
        .route("/api/lobby", get(api::lobby))
        .route("/api/account", get(accounts::me))
        .route("/api/account/signup", post(accounts::signup))
        .route("/api/account/login", post(accounts::login))
        .route("/api/account/logout", post(accounts::logout))
        .route("/api/account/password", post(accounts::change_password))
        .route("/api/account/delete", post(accounts::delete))
        .route("/api/users/{name}", get(profiles::profile))
        .route("/api/users/{name}/games", get(profiles::export))
        .route("/api/ratings/{game}", get(profiles::rating_list))
        .route("/api/levels/{game}", get(profiles::level_ratings))
        .route("/api/games/{id}/record", get(api::record))
        .route("/api/games/{id}/ws", get(api::watch))
        .route("/api/games/{id}/stream", get(api::stream))
        .route("/api/rules/{game}", get(learn::rules))
        .route("/api/explore", post(learn::explore))
        .route("/api/analysis", get(analysis::analysis))
        .route("/api/seeks", get(seeks::lobby).post(seeks::create))
        .route("/api/seeks/{id}", get(seeks::get))
        .route("/api/seeks/{id}/accept", post(seeks::accept))
        .route("/api/seeks/{id}/cancel", post(seeks::cancel))
        .route("/api/seeks/{id}/decline", post(seeks::decline))
        .route("/api/challenges", get(seeks::challenges))
        .route("/api", get(api::unknown_api))
        .route("/api/{*rest}", get(api::unknown_api).post(api::unknown_api))
        .route("/", get(web::home))
        .route("/game/{id}", get(web::game_page))
        .route("/rules/{game}", get(web::rules_page))
        .route("/analysis", get(web::analysis_page))
        .route("/account", get(web::account_page))
        .route("/@/{name}", get(web::profile_page))
        .route("/ratings", get(web::ratings_page))
        .route("/ratings/{game}", get(web::ratings_page))
        .route("/offline.json", get(web::offline_files))
        .route("/i18n/{file}", get(i18n::catalogue))
        .route("/{*path}", get(web::asset))
        .layer(DefaultBodyLimit::max(api::BODY_LIMIT))
        .layer(axum::middleware::from_fn_with_state(
            app.clone(),
            limits::limit,
        ))
        // Before the limits: a forged request is refused before it costs anything.
        .layer(axum::middleware::from_fn(accounts::same_origin))
        // Outside the limits: their refusals are written in the request's language too.
        .layer(axum::middleware::from_fn(i18n::localise))
        .layer(tower_http::trace::TraceLayer::new_for_http())
        .with_state(app)
}

/// Opens the store, resumes the computer's pending moves, and serves until Ctrl-C (then the
/// requests in flight finish and the WebSockets are closed: conn.rs). `ready` is called with
/// the address bound (port 0 picks a free one).
pub async fn serve(config: Config, ready: impl FnOnce(SocketAddr)) -> Result<(), String> {
    let store = Store::open(&config.db)
        .await
        .map_err(|e| format!("--db {}: {e}", store::redacted(&config.db)))?;
    let mut limits = config.limits.clone();
    let fits = conn::fit_to_file_limit(limits.connections);
    if fits < limits.connections {
        tracing::warn!(
            "at most {fits} connections at once, not {}: the limit on open files (ulimit -n) \
             allows no more",
            limits.connections
        );
        limits.connections = fits;
    }
    let app = App::with_accounts(
        store,
        config.think,
        config.engines,
        config.limits,
        config.accounts,
    );
    let listener =
        conn::bind(config.addr).map_err(|e| format!("cannot listen on {}: {e}", config.addr))?;
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
    if app.store.backend() == store::Backend::Postgres {
        tokio::spawn(listen(app.clone()));
    }
    // the pages' bundles of scripts made now, not by the first request of each page
    tokio::task::spawn_blocking(|| web::bundles().count());
    ready(addr);
    let ctrl_c = async {
        if let Err(e) = tokio::signal::ctrl_c().await {
            tracing::warn!("cannot listen for Ctrl-C ({e}): the server runs until killed");
            std::future::pending::<()>().await;
        }
    };
    Connections::new(&limits)
        .serve(listener, router(app), ctrl_c)
        .await;
    Ok(())
}

/// With PostgreSQL: follows the changes that other server processes make to games (announced
/// on [`store::CHANNEL`] with `NOTIFY`) and gives them to the players and spectators connected
/// here. When the connection is lost, it connects again and reads every game in memory anew
/// (announcements made meanwhile are lost).
async fn listen(app: Arc<App>) {
    use sqlx::postgres::PgListener;
    let mut wait = Duration::from_millis(100);
    loop {
        let mut listener = match PgListener::connect(app.store.url()).await {
            Ok(listener) => listener,
            Err(e) => {
                tracing::warn!("listening for other processes' changes: {e}");
                tokio::time::sleep(wait).await;
                wait = (wait * 2).min(Duration::from_secs(2));
                continue;
            }
        };
        if let Err(e) = listener.listen(store::CHANNEL).await {
            tracing::warn!("listening for other processes' changes: {e}");
            tokio::time::sleep(wait).await;
            continue;
        }
        wait = Duration::from_millis(100);
        app.refresh_all().await;
        // From here on every change another process makes is heard of.
        app.synced.store(true, std::sync::atomic::Ordering::Release);
        loop {
            match listener.try_recv().await {
                Ok(Some(notification)) => {
                    let Some(news) = store::Announcement::parse(notification.payload()) else {
                        continue;
                    };
                    if app.store.own(&news) {
                        continue;
                    }
                    let app = app.clone();
                    tokio::spawn(async move { app.refresh(&news.game).await });
                }
                Ok(None) | Err(_) => {
                    // Changes may be missed until the listener is back: commands read their
                    // game from the database meanwhile.
                    app.synced
                        .store(false, std::sync::atomic::Ordering::Release);
                    tracing::warn!("the database connection was lost: connecting again");
                    break;
                }
            }
        }
    }
}
