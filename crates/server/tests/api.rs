//! The HTTP API through the router (no network), on SQLite: every endpoint, every refusal,
//! whole games, the computer's replies, and games that outlive the process (a new server on the
//! same database file replays them). The cases are in cases/api.rs; api_postgres.rs runs them
//! on PostgreSQL.

/// A new in-memory database.
fn fresh_db() -> String {
    "sqlite::memory:".to_string()
}

/// A database file in a temporary folder (removed when the folder is dropped).
fn lasting_db() -> (String, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite:{}", dir.path().join("games.db").display());
    (db, dir)
}

/// Another connection to the file makes the database refuse every new row of `table` (`on`),
/// or no longer.
async fn refuse_inserts(db: &str, table: &str, on: bool) {
    use sqlx::Connection;
    let mut other = sqlx::SqliteConnection::connect(db).await.unwrap();
    let sql = if on {
        format!(
            "CREATE TRIGGER refuse_{table} BEFORE INSERT ON {table} \
             BEGIN SELECT RAISE(ABORT, 'refused by the test'); END"
        )
    } else {
        format!("DROP TRIGGER refuse_{table}")
    };
    sqlx::raw_sql(&sql).execute(&mut other).await.unwrap();
}

include!("cases/api.rs");

// ---- SQLite under faults: a full disk, a write refused ----

/// What a fault test did: the moves acknowledged and the games created, by game.
#[derive(Default)]
struct Acknowledged {
    moves: std::collections::HashMap<String, Vec<String>>,
    refused_games: usize,
}

/// Plays the first legal move of game `id` (one screen, token `t`): `Some(status)`.
async fn try_move(app: &Arc<App>, id: &str, t: &str, acked: &mut Acknowledged) -> StatusCode {
    let (_, before) = get(app, &format!("/api/games/{id}")).await;
    let mv = before["legal"][0].as_str().unwrap().to_string();
    let started = std::time::Instant::now();
    let (status, v) = play(app, id, &mv, t).await;
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "a move waited {:?} ({status} {v})",
        started.elapsed()
    );
    match status {
        StatusCode::OK => {
            acked.moves.get_mut(id).unwrap().push(mv);
            assert_eq!(v["moves"], json!(acked.moves[id]));
        }
        StatusCode::SERVICE_UNAVAILABLE => {
            assert!(
                v["error"].as_str().unwrap().contains("nothing was changed"),
                "{v}"
            );
            // Nothing changed in memory either.
            let (_, after) = get(app, &format!("/api/games/{id}")).await;
            assert_eq!(after["version"], before["version"], "{after}");
            assert_eq!(after["moves"], before["moves"]);
        }
        other => panic!("a move: {other} {v}"),
    }
    status
}

/// Creates a one-screen Epaminondas game: its id and token, or `None` when refused with 503.
async fn try_create(app: &Arc<App>, acked: &mut Acknowledged) -> Option<(String, String)> {
    let (status, v) = post(
        app,
        "/api/games",
        json!({"game": "epaminondas", "seats": ["human", "human"]}),
    )
    .await;
    match status {
        StatusCode::CREATED => {
            let id = v["id"].as_str().unwrap().to_string();
            acked.moves.insert(id.clone(), Vec::new());
            Some((id, v["tokens"][0].as_str().unwrap().to_string()))
        }
        StatusCode::SERVICE_UNAVAILABLE => {
            acked.refused_games += 1;
            None
        }
        other => panic!("a new game: {other} {v}"),
    }
}

/// A second server on the file (another process, as far as SQLite can tell) has exactly the
/// acknowledged moves of every acknowledged game, each game replays, and nothing else is
/// stored.
async fn check_stored(db: &str, acked: &Acknowledged) {
    let other = app_on(db).await;
    for (id, moves) in &acked.moves {
        let (status, state) = get(&other, &format!("/api/games/{id}")).await;
        assert_eq!(status, StatusCode::OK, "game {id}: {state}");
        assert_eq!(&state["moves"], &json!(moves), "game {id}");
        assert_eq!(state["version"], json!(moves.len()), "game {id}");
    }
    let store = Store::open(db).await.unwrap();
    let stored = store.unfinished_games().await.unwrap();
    assert_eq!(stored.len(), acked.moves.len(), "games stored: {stored:?}");
}

#[tokio::test]
async fn a_full_disk_refuses_changes_with_503_and_loses_none_acknowledged() {
    let (db, _dir) = lasting_db();
    let app = app_on(&db).await;
    let mut acked = Acknowledged::default();
    let mut games = Vec::new();
    for _ in 0..3 {
        games.push(
            try_create(&app, &mut acked)
                .await
                .expect("room on the disk"),
        );
    }
    for (id, t) in &games {
        assert_eq!(try_move(&app, id, t, &mut acked).await, StatusCode::OK);
    }
    // The disk is full: the file cannot grow by a page.
    let pages = app.store.page_count().await.unwrap();
    app.store.set_max_pages(Some(pages));
    let mut refused = 0;
    for round in 0..400 {
        let (id, t) = &games[round % games.len()];
        if try_move(&app, id, t, &mut acked).await == StatusCode::SERVICE_UNAVAILABLE {
            refused += 1;
        }
        if round % 5 == 0 && try_create(&app, &mut acked).await.is_none() {
            refused += 1;
        }
        if refused >= 12 {
            break;
        }
    }
    assert!(
        refused >= 12,
        "the full disk refused only {refused} changes"
    );
    assert!(acked.refused_games > 0, "no new game was refused");
    // What was acknowledged while the disk was full is on disk.
    check_stored(&db, &acked).await;
    // The disk has room again: every change is stored at once.
    app.store.set_max_pages(None);
    for (id, t) in &games {
        for _ in 0..3 {
            assert_eq!(try_move(&app, id, t, &mut acked).await, StatusCode::OK);
        }
    }
    let (id, t) = try_create(&app, &mut acked).await.expect("room again");
    assert_eq!(try_move(&app, &id, &t, &mut acked).await, StatusCode::OK);
    check_stored(&db, &acked).await;
}

#[tokio::test]
async fn a_write_the_database_refuses_is_answered_503_and_changes_nothing() {
    use sqlx::Connection;
    let (db, _dir) = lasting_db();
    let app = app_on(&db).await;
    let mut acked = Acknowledged::default();
    let (id, t) = try_create(&app, &mut acked).await.unwrap();
    assert_eq!(try_move(&app, &id, &t, &mut acked).await, StatusCode::OK);
    // Another process makes the database refuse every new step.
    let mut other = sqlx::SqliteConnection::connect(&db).await.unwrap();
    sqlx::raw_sql(
        "CREATE TRIGGER refuse BEFORE INSERT ON steps \
         BEGIN SELECT RAISE(ABORT, 'refused by the test'); END",
    )
    .execute(&mut other)
    .await
    .unwrap();
    for _ in 0..5 {
        assert_eq!(
            try_move(&app, &id, &t, &mut acked).await,
            StatusCode::SERVICE_UNAVAILABLE
        );
    }
    // A resignation and a takeback are refused the same way (the takeback deletes steps and
    // so passes the trigger: it is made, and stored).
    let (status, v) = post(
        &app,
        &format!("/api/games/{id}/resign"),
        json!({"seat": 1, "token": t}),
    )
    .await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{v}");
    sqlx::raw_sql("DROP TRIGGER refuse")
        .execute(&mut other)
        .await
        .unwrap();
    for _ in 0..3 {
        assert_eq!(try_move(&app, &id, &t, &mut acked).await, StatusCode::OK);
    }
    check_stored(&db, &acked).await;
}
