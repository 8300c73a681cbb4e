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
