//! The API tests of api.rs (cases/api.rs) on PostgreSQL: a temporary server started for this
//! test program (common/pg.rs), a new database for each test.

#[path = "common/pg.rs"]
mod pg;

/// A new database on the shared temporary server.
fn fresh_db() -> String {
    pg::shared().database()
}

/// On PostgreSQL every database outlives its server process.
fn lasting_db() -> (String, ()) {
    (fresh_db(), ())
}

/// Another connection makes the database refuse every new row of `table` (`on`), or no longer.
async fn refuse_inserts(db: &str, table: &str, on: bool) {
    use sqlx::Connection;
    let mut other = sqlx::PgConnection::connect(db).await.unwrap();
    let sql = if on {
        format!(
            "CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS \
             $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$; \
             CREATE TRIGGER refuse BEFORE INSERT ON {table} \
             FOR EACH ROW EXECUTE FUNCTION refuse();"
        )
    } else {
        format!("DROP TRIGGER refuse ON {table}; DROP FUNCTION refuse();")
    };
    sqlx::raw_sql(&sql).execute(&mut other).await.unwrap();
}

include!("cases/api.rs");

// ---- Several processes on one database: a starting process and the computer's moves ----

/// A server of its own on `db` whose computer thinks for `think`.
async fn app_thinking(db: &str, think: Duration) -> Arc<App> {
    let store = Store::open(db).await.expect("the database opens");
    App::new(store, think, 2)
}

#[tokio::test]
async fn a_starting_process_leaves_a_computer_move_to_the_process_thinking_for_it() {
    let db = fresh_db();
    // A thinks for 1.5 s for the computer, which moves first.
    let a = app_thinking(&db, Duration::from_millis(1500)).await;
    let (id, _, created) = create(
        &a,
        json!({"game": "ackenhead", "seats": ["computer:8", "human"]}),
    )
    .await;
    assert_eq!(created["thinking"], true);
    // B starts on the same database meanwhile and resumes the unfinished games.
    let b = app_thinking(&db, Duration::from_millis(1500)).await;
    assert_eq!(b.resume().await.unwrap(), 1);
    let (_, during) = get(&a, &format!("/api/games/{id}")).await;
    assert_eq!(
        during["version"], 0,
        "A was still thinking when B started: {during}"
    );
    let moved = settled(&a, &id).await;
    assert_eq!(moved["moves"].as_array().unwrap().len(), 1, "{moved}");
    // B ran no search of its own for the move A was making.
    assert_eq!(b.engines.most_running(), 0);
    assert_eq!(a.engines.most_running(), 1);
}

#[test]
fn a_starting_process_makes_the_computer_move_of_a_process_that_stopped() {
    let db = fresh_db();
    // A starts thinking for the computer (60 s) and stops: its runtime is gone.
    let id = {
        let runtime = tokio::runtime::Runtime::new().unwrap();
        let id = runtime.block_on(async {
            let a = app_thinking(&db, Duration::from_secs(60)).await;
            let (id, _, created) = create(
                &a,
                json!({"game": "ackenhead", "seats": ["computer:1", "human"]}),
            )
            .await;
            assert_eq!(created["thinking"], true);
            id
        });
        runtime.shutdown_background();
        id
    };
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let started = std::time::Instant::now();
        let b = app_thinking(&db, Duration::from_millis(20)).await;
        assert_eq!(b.resume().await.unwrap(), 1);
        // Overdue five seconds after the game's last change (B's thinking time is short):
        // B makes the move.
        let mut state = Value::Null;
        while started.elapsed() < Duration::from_secs(30) {
            state = get(&b, &format!("/api/games/{id}")).await.1;
            if state["version"] == 1 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert_eq!(state["version"], 1, "the computer's move is stuck: {state}");
        assert_eq!(state["thinking"], false);
        assert_eq!(b.engines.most_running(), 1);
    });
}

// ---- Several processes on one database: one import key ----

/// Makes every new game wait in the database, before its row is written, until two new games
/// have begun (at most 10 s), counting them in the sequence `tries` (`on`), or no longer.
async fn inserts_meet(db: &str, on: bool) {
    use sqlx::Connection;
    let mut other = sqlx::PgConnection::connect(db).await.unwrap();
    let sql = if on {
        "CREATE SEQUENCE tries; \
         CREATE FUNCTION meet() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN \
           PERFORM nextval('tries'); \
           FOR i IN 1..500 LOOP \
             EXIT WHEN (SELECT last_value FROM tries) >= 2; \
             PERFORM pg_sleep(0.02); \
           END LOOP; \
           RETURN NEW; \
         END $$; \
         CREATE TRIGGER meet BEFORE INSERT ON games FOR EACH ROW EXECUTE FUNCTION meet();"
    } else {
        "DROP TRIGGER meet ON games; DROP FUNCTION meet();"
    };
    sqlx::raw_sql(sql).execute(&mut other).await.unwrap();
}

/// A record sent with its key to two server processes at the same moment (two tabs behind a
/// load balancer): neither finds a game saved with the key, both write one, and the database's
/// one game per key takes the first; the other process answers with that game.
#[tokio::test]
async fn a_keyed_import_sent_to_two_processes_at_once_is_one_game() {
    let db = fresh_db();
    let (a, b) = (app_on(&db).await, app_on(&db).await);
    let (_, state, record) = a_record_played(&a, 4, false).await;
    let body = json!({"record": record, "seats": ["human", "computer:1"], "key": "p".repeat(40)});
    inserts_meet(&db, true).await;
    let (x, y) = tokio::join!(
        post(&a, "/api/games", body.clone()),
        post(&b, "/api/games", body.clone())
    );
    inserts_meet(&db, false).await;
    use sqlx::Connection;
    let mut other = sqlx::PgConnection::connect(&db).await.unwrap();
    let count = |sql: &'static str| sqlx::query_scalar::<_, i64>(sql);
    let tries = count("SELECT last_value FROM tries")
        .fetch_one(&mut other)
        .await
        .unwrap();
    assert_eq!(tries, 2, "both requests wrote a game: {} {}", x.1, y.1);
    one_game_answered(&x, &y, &state["moves"]);
    let keyed = count("SELECT COUNT(*) FROM games WHERE import_key IS NOT NULL")
        .fetch_one(&mut other)
        .await
        .unwrap();
    assert_eq!(keyed, 1, "one game stored with the key");
    // The seat's token plays in it through either process.
    let saved = x.1["id"].as_str().unwrap();
    let (_, now) = get(&b, &format!("/api/games/{saved}")).await;
    let mv = pick(now["legal"].as_array().unwrap(), 0);
    let token = y.1["tokens"][0].as_str().unwrap();
    let (status, v) = play(&b, saved, &mv, token).await;
    assert_eq!(status, StatusCode::OK, "{v}");
}
