//! The account tests of accounts.rs (cases/accounts.rs) on PostgreSQL (among them a rated game
//! ended through two server processes at once: rated exactly once), and what only PostgreSQL
//! shows: its server stopped under a game, seeks and claims raced through two processes.

#[path = "common/pg.rs"]
mod pg;

#[path = "common/http.rs"]
mod http;

/// A new database on the shared temporary server.
fn fresh_db() -> String {
    pg::shared().database()
}

/// On PostgreSQL every database outlives its server process.
fn lasting_db() -> (String, ()) {
    (fresh_db(), ())
}

/// Another connection makes the database refuse every new or changed row of `table` (`on`),
/// or no longer.
async fn refuse_writes_to(db: &str, table: &str, on: bool) {
    use sqlx::Connection;
    let mut other = sqlx::PgConnection::connect(db).await.unwrap();
    let sql = if on {
        format!(
            "CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS \
             $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$; \
             CREATE TRIGGER refuse BEFORE INSERT OR UPDATE ON {table} \
             FOR EACH ROW EXECUTE FUNCTION refuse();"
        )
    } else {
        format!("DROP TRIGGER refuse ON {table}; DROP FUNCTION refuse();")
    };
    sqlx::raw_sql(&sql).execute(&mut other).await.unwrap();
}

include!("cases/accounts.rs");

/// Runs `f` (a blocking call: `pg_ctl`) without holding up the test's runtime.
fn blocking(f: impl FnOnce()) {
    tokio::task::block_in_place(f);
}

/// The answer to `request`, tried again while the server's connections to a restarted
/// database are not back (each try refused with a `503`, as while it was away): a `200`
/// within 30 s.
async fn once_back<F: std::future::Future<Output = Answer>>(request: impl Fn() -> F) -> Answer {
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    loop {
        let a = request().await;
        if a.status == StatusCode::OK {
            return a;
        }
        assert_eq!(a.status, StatusCode::SERVICE_UNAVAILABLE, "{}", a.text);
        assert!(
            std::time::Instant::now() < deadline,
            "the server did not recover: {}",
            a.text
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_game_ended_while_the_database_is_stopped_is_rated_once_it_is_back() {
    // A PostgreSQL server of its own: this test stops it.
    let pg = pg::TempPg::start();
    let db = pg.database();
    let app = app_on(&db).await;
    let (id, tokens, before, _) = rated_game_under_way(&app).await;
    blocking(|| pg.stop());
    // The database is away at the moment the game ends: the resignation is refused with a 503
    // that says nothing was changed, and the game in memory has not ended.
    let a = resign(&app, &id, 1, &tokens[1]).await;
    assert_eq!(a.status, StatusCode::SERVICE_UNAVAILABLE, "{}", a.text);
    assert_eq!(a.json["key"], "api-database-down", "{}", a.text);
    assert!(
        a.json["error"]
            .as_str()
            .unwrap()
            .contains("nothing was changed"),
        "{}",
        a.text
    );
    blocking(|| pg.begin());
    // The database is back: the game is as acknowledged, and the same resignation, tried again
    // until the server's connections are back (each try refused as before, or taken), ends and
    // rates it.
    let change = once_back(|| resign(&app, &id, 1, &tokens[1])).await.json["rating_change"].clone();
    assert_eq!(change["seats"][1]["after"], 1338.0, "{change}");
    rated_exactly_once(&db, &id, &before["moves"], &change, &tokens).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_account_endpoints_refuse_clearly_while_the_database_is_stopped() {
    // A PostgreSQL server of its own: this test stops it.
    let pg = pg::TempPg::start();
    let db = pg.database();
    let app = app_on(&db).await;
    let cookie = signup(&app, "alice", "the password").await;
    blocking(|| pg.stop());
    // Logging in (with a real name and an unknown one), signing up, the account's page, a
    // profile and a password change: each a 503 that says the database is away, and no cookie.
    let change = json!({"password": "the password", "new_password": "another password"});
    for (what, a) in [
        ("login", login(&app, "alice", "the password").await),
        (
            "login, unknown name",
            login(&app, "nobody", "the password").await,
        ),
        (
            "signup",
            post(
                &app,
                "/api/account/signup",
                json!({"name": "carol", "password": "the password"}),
                None,
            )
            .await,
        ),
        ("account", me(&app, &cookie).await),
        (
            "profile",
            send(&app, "GET", "/api/users/alice", None, &[]).await,
        ),
        (
            "password",
            post(&app, "/api/account/password", change.clone(), Some(&cookie)).await,
        ),
    ] {
        assert_eq!(
            a.status,
            StatusCode::SERVICE_UNAVAILABLE,
            "{what}: {}",
            a.text
        );
        assert_eq!(a.json["key"], "api-database-down", "{what}: {}", a.text);
        assert!(a.set_cookie.is_none(), "{what}: {:?}", a.set_cookie);
    }
    blocking(|| pg.begin());
    // Once the server's connections are back, the same login works (refused as before
    // until then), and the tries made meanwhile did not count as wrong passwords.
    let logged_in = once_back(|| login(&app, "alice", "the password")).await;
    assert_eq!(me(&app, &logged_in.cookie()).await.status, StatusCode::OK);
    // The session made before the stop still holds, its password was not changed, and
    // Carol was not signed up.
    assert_eq!(me(&app, &cookie).await.json["name"], "alice");
    let profile = send(&app, "GET", "/api/users/alice", None, &[]).await;
    assert_eq!(profile.status, StatusCode::OK, "{}", profile.text);
    assert_eq!(profile.json["games"], json!([]), "{}", profile.text);
    assert_eq!(
        login(&app, "alice", "another password").await.status,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        login(&app, "carol", "the password").await.status,
        StatusCode::UNAUTHORIZED
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_seek_made_through_one_process_is_taken_through_another_by_exactly_one_player() {
    let db = fresh_db();
    let a = app_on(&db).await;
    let b = app_on(&db).await;
    let alice = signup(&a, "alice", "the password").await;
    let bob = signup(&a, "bob", "the password").await;
    let carol = signup(&b, "carol", "the password").await;
    let clock = json!({"minutes": 5, "increment": 3});
    for round in 0..8 {
        let (id, token) = seek(
            &a,
            json!({"game": "reines", "clock": clock, "rated": true}),
            Some(&alice),
        )
        .await;
        // The other process lists it at once.
        let list = get_json(&b, "/api/seeks", Some(&carol)).await;
        assert_eq!(
            list.json[0]["id"],
            json!(id),
            "round {round}: {}",
            list.text
        );
        assert_eq!(list.json[0]["fits"], true);
        // Bob through A and Carol through B accept it at the same moment: one gets the game.
        let accept = format!("/api/seeks/{id}/accept");
        let (one, two) = tokio::join!(
            post(&a, &accept, json!({}), Some(&bob)),
            post(&b, &accept, json!({}), Some(&carol))
        );
        let won: Vec<&Answer> = [&one, &two]
            .into_iter()
            .filter(|x| x.status == StatusCode::CREATED)
            .collect();
        assert_eq!(won.len(), 1, "round {round}: {} / {}", one.text, two.text);
        let lost = if one.status == StatusCode::CREATED {
            &two
        } else {
            &one
        };
        assert_eq!(
            lost.status,
            StatusCode::CONFLICT,
            "round {round}: {}",
            lost.text
        );
        assert_eq!(lost.json["key"], "api-seek-closed");
        let game = won[0].json["id"].as_str().unwrap().to_string();
        let winner = if one.status == StatusCode::CREATED {
            "bob"
        } else {
            "carol"
        };
        // Both processes see the one game, and the seek that made it.
        for app in [&a, &b] {
            let s = get_json(app, &format!("/api/seeks/{id}"), None).await;
            assert_eq!(s.json["game_id"], json!(game), "round {round}: {}", s.text);
            let g = state(app, &game).await;
            assert_eq!(
                g["accounts"],
                json!(["alice", winner]),
                "round {round}: {g}"
            );
        }
        // Alice, who made the seek through A, plays it through B with the seek's token.
        let a_resigns = resign(&b, &game, 0, &token).await;
        assert_eq!(
            a_resigns.status,
            StatusCode::OK,
            "round {round}: {}",
            a_resigns.text
        );
    }
    assert_eq!(
        blitz(&a, &alice, "reines").await["games"],
        json!(8),
        "every game was rated once"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_claims_against_a_player_who_left_through_two_processes_end_the_game_once() {
    let db = fresh_db();
    let wait = Duration::from_millis(300);
    let open = || async {
        App::with_accounts(
            Store::open(&db).await.unwrap(),
            Duration::from_millis(20),
            1,
            RateLimits::off(),
            leaving_after(wait),
        )
    };
    let (a, b) = (open().await, open().await);
    let alice = signup(&a, "alice", "the password").await;
    let bob = signup(&a, "bob", "the password").await;
    for round in 0..6 {
        let made = std::time::Instant::now();
        let (id, alice_token) = rated_game(&a, "reines", 2, &alice).await;
        join(&a, &id, 1, &bob).await;
        state(&b, &id).await;
        until_gone(made, wait).await;
        // Alice claims the win through A and a draw through B at the same moment.
        let (one, two) = tokio::join!(
            claim_left(&a, &id, 1, &alice_token, "win"),
            claim_left(&b, &id, 1, &alice_token, "draw")
        );
        let ok: Vec<&Answer> = [&one, &two]
            .into_iter()
            .filter(|x| x.status == StatusCode::OK)
            .collect();
        assert_eq!(ok.len(), 1, "round {round}: {} / {}", one.text, two.text);
        let lost = if one.status == StatusCode::OK {
            &two
        } else {
            &one
        };
        assert!(
            [StatusCode::CONFLICT, StatusCode::BAD_REQUEST].contains(&lost.status),
            "round {round}: {}",
            lost.text
        );
        // Both processes show the one result, rated once.
        let ended = state(&a, &id).await;
        assert_eq!(ended["outcome"], ok[0].json["outcome"], "round {round}");
        assert_eq!(
            state(&b, &id).await["rating_change"],
            ended["rating_change"]
        );
        assert_eq!(blitz(&a, &alice, "reines").await["games"], json!(round + 1));
        assert_eq!(blitz(&b, &bob, "reines").await["games"], json!(round + 1));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_game_against_a_level_ended_in_two_processes_at_once_rates_the_level_once() {
    let db = fresh_db();
    let (a, b) = (app_on(&db).await, app_on(&db).await);
    let alice = signup(&a, "alice", "the password").await;
    for round in 0..8 {
        let (id, token) = against_level(&a, &alice, 4).await;
        // Both processes have the game in memory; the same resignation reaches both at once.
        state(&b, &id).await;
        let (one, two) = tokio::join!(resign(&a, &id, 0, &token), resign(&b, &id, 0, &token));
        let ok = [&one, &two]
            .iter()
            .filter(|x| x.status == StatusCode::OK)
            .count();
        assert_eq!(ok, 1, "round {round}: {} / {}", one.text, two.text);
        assert_eq!(
            levels(&b).await[3]["games"],
            json!(round + 1),
            "round {round}"
        );
    }
    assert_eq!(me(&a, &alice).await.json["ratings"], json!([]));
}
