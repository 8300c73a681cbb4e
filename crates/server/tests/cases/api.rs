// The API tests, run on SQLite by tests/api.rs and on PostgreSQL by tests/api_postgres.rs:
// each defines `fresh_db()` (the URL of a new, empty database) and `lasting_db()` (one that
// a second server can open again: its URL and what keeps it alive), then includes this file.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use myrmidon_server::{router, App, Store};
use serde_json::{json, Value};
use tower::ServiceExt;

async fn app_on(db: &str) -> Arc<App> {
    let store = Store::open(db).await.expect("the database opens");
    App::new(store, Duration::from_millis(20), 2)
}

/// An app on a new, empty database.
async fn app() -> Arc<App> {
    app_on(&fresh_db()).await
}

async fn call(app: &Arc<App>, method: &str, path: &str, body: Option<Body>) -> (StatusCode, Value) {
    let request = Request::builder()
        .method(method)
        .uri(path)
        .header("content-type", "application/json")
        .body(body.unwrap_or_else(Body::empty))
        .unwrap();
    let response = router(app.clone()).oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let value = serde_json::from_slice(&bytes).unwrap_or_else(|e| {
        panic!(
            "{method} {path}: not JSON ({e}): {}",
            String::from_utf8_lossy(&bytes)
        )
    });
    (status, value)
}

async fn get(app: &Arc<App>, path: &str) -> (StatusCode, Value) {
    call(app, "GET", path, None).await
}

async fn post(app: &Arc<App>, path: &str, body: Value) -> (StatusCode, Value) {
    call(app, "POST", path, Some(Body::from(body.to_string()))).await
}

/// Plays a move with a seat's token.
async fn play(app: &Arc<App>, id: &str, mv: &str, token: &str) -> (StatusCode, Value) {
    post(
        app,
        &format!("/api/games/{id}/moves"),
        json!({"move": mv, "token": token}),
    )
    .await
}

async fn create(app: &Arc<App>, body: Value) -> (String, Vec<Option<String>>, Value) {
    let (status, v) = post(app, "/api/games", body.clone()).await;
    assert_eq!(status, StatusCode::CREATED, "{body}: {v}");
    let tokens = v["tokens"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().map(String::from))
        .collect();
    (
        v["id"].as_str().unwrap().to_string(),
        tokens,
        v["state"].clone(),
    )
}

/// Serves the app on a free loopback port through the accept loop of `serve` (with the
/// clients' addresses and the app's limits on connections), for the tests that need real
/// sockets; its address.
async fn serve_on_loopback(app: &Arc<App>) -> std::net::SocketAddr {
    let listener = myrmidon_server::conn::bind("127.0.0.1:0".parse().unwrap()).unwrap();
    let addr = listener.local_addr().unwrap();
    let connections = myrmidon_server::Connections::new(&app.limiter.limits);
    tokio::spawn(connections.serve(listener, router(app.clone()), std::future::pending()));
    addr
}

/// Waits until the computer has moved (the state is not thinking and a human is to move or
/// the game is over).
async fn settled(app: &Arc<App>, id: &str) -> Value {
    for _ in 0..500 {
        let (status, state) = get(app, &format!("/api/games/{id}")).await;
        assert_eq!(status, StatusCode::OK);
        let to_move = state["to_move"].as_u64();
        let human_turn = to_move.is_some_and(|s| state["seats"][s as usize] == "human");
        if !state["thinking"].as_bool().unwrap() && (state["outcome"] != Value::Null || human_turn)
        {
            return state;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("game {id}: the computer did not move in 10 s");
}

#[tokio::test]
async fn lists_every_game_with_its_board() {
    let app = app().await;
    let (status, games) = get(&app, "/api/games").await;
    assert_eq!(status, StatusCode::OK);
    let ids: Vec<&str> = games
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        [
            "ackenhead",
            "antchess",
            "antchess3",
            "epaminondas",
            "reines"
        ]
    );
    for game in games.as_array().unwrap() {
        let board = &game["board"];
        let cells = board["cells"].as_array().unwrap().len();
        // The rows as drawn hold every cell exactly once.
        let mut seen = vec![0; cells];
        for row in board["rows"].as_array().unwrap() {
            for c in row["cells"].as_array().unwrap() {
                seen[c.as_u64().unwrap() as usize] += 1;
            }
        }
        assert!(seen.iter().all(|&n| n == 1), "{}: rows", game["id"]);
        assert!(!game["pieces"].as_array().unwrap().is_empty());
        assert_eq!(game["levels"], 8);
    }
    let reines = &games[4];
    assert_eq!(reines["settings"][0]["name"], "region");
    assert_eq!(games[2]["players"], json!(["Black", "Red", "Green"]));
    assert_eq!(games[1]["board"]["kind"], "hex");
    assert_eq!(games[1]["board"]["cells"].as_array().unwrap().len(), 127);
    // Cells with a role in the rules, for the board to mark.
    assert_eq!(
        games[1]["board"]["special"],
        json!([{"cell": 63, "name": "anthill"}])
    );
    assert_eq!(reines["board"]["special"][0]["cell"], 9);
    assert_eq!(games[0]["board"]["special"], json!([]));
}

/// A small deterministic choice among the legal moves.
fn pick(legal: &[Value], n: usize) -> String {
    let i = (n.wrapping_mul(2_654_435_761) >> 7) % legal.len();
    legal[i].as_str().unwrap().to_string()
}

#[tokio::test]
async fn whole_games_on_one_screen_in_every_game() {
    let app = app().await;
    for kind in [
        "ackenhead",
        "antchess",
        "antchess3",
        "epaminondas",
        "reines",
    ] {
        let players = if kind == "antchess3" { 3 } else { 2 };
        let (id, tokens, mut state) =
            create(&app, json!({"game": kind, "seats": vec!["human"; players]})).await;
        // One screen: one token for every seat.
        assert!(tokens.iter().all(|t| t.is_some() && *t == tokens[0]));
        let token = tokens[0].clone().unwrap();
        let mut n = 0;
        while state["outcome"].is_null() {
            let legal = state["legal"].as_array().unwrap().clone();
            assert!(!legal.is_empty(), "{kind}: no legal move but no outcome");
            assert_eq!(legal.len(), state["legal_cells"].as_array().unwrap().len());
            let mv = pick(&legal, n);
            let (status, next) = play(&app, &id, &mv, &token).await;
            assert_eq!(status, StatusCode::OK, "{kind} {mv}: {next}");
            assert_eq!(next["version"], n + 1);
            assert_eq!(
                next["history"].as_array().unwrap().last().unwrap()["text"],
                mv
            );
            state = next;
            n += 1;
            assert!(n < 3000, "{kind}: no end after 3000 moves");
        }
        assert!(state["to_move"].is_null());
        assert!(state["legal"].as_array().unwrap().is_empty());
        assert!(!state["outcome"]["text"].as_str().unwrap().is_empty());
        // The stored game reads back the same.
        let (_, again) = get(&app, &format!("/api/games/{id}")).await;
        assert_eq!(again, state);
    }
}

#[tokio::test]
async fn the_computer_replies_by_itself() {
    let app = app().await;
    let (id, tokens, state) = create(
        &app,
        json!({"game": "ackenhead", "seats": ["human", "computer:1"]}),
    )
    .await;
    assert!(tokens[0].is_some() && tokens[1].is_none());
    let mv = state["legal"][0].as_str().unwrap().to_string();
    let (status, after) = post(
        &app,
        &format!("/api/games/{id}/moves"),
        json!({"move": mv, "token": tokens[0]}),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(after["to_move"], 1);
    // The answer already says the computer is thinking.
    assert_eq!(after["thinking"], true);
    let state = settled(&app, &id).await;
    assert_eq!(state["moves"].as_array().unwrap().len(), 2);
    assert_eq!(state["to_move"], 0);

    // The computer first: it moves as soon as the game exists.
    let (id, _, created) = create(
        &app,
        json!({"game": "antchess3", "seats": ["computer:2", "computer:1", "human"]}),
    )
    .await;
    assert_eq!(created["thinking"], true);
    let state = settled(&app, &id).await;
    assert_eq!(state["moves"].as_array().unwrap().len(), 2);
    assert_eq!(state["to_move"], 2);
}

#[tokio::test]
async fn a_failing_search_does_not_stop_the_computer() {
    let app = app().await;
    let (id, tokens, state) = create(
        &app,
        json!({"game": "reines", "seats": ["human", "computer:3"]}),
    )
    .await;
    let mut legal = state["legal"].clone();
    // A search that panics once is made again; one that fails every time gives way to a legal
    // move chosen without a search. Either way the computer moves and the game goes on.
    for (round, faults) in [1, usize::MAX].into_iter().enumerate() {
        app.engines.fail_next(faults);
        let mv = legal[0].as_str().unwrap().to_string();
        let (status, after) = play(&app, &id, &mv, tokens[0].as_deref().unwrap()).await;
        assert_eq!(status, StatusCode::OK, "{after}");
        let state = settled(&app, &id).await;
        assert_eq!(state["moves"].as_array().unwrap().len(), 2 * round + 2);
        assert_eq!(state["to_move"], 0, "{state}");
        legal = state["legal"].clone();
    }
    app.engines.fail_next(0);
    // The record has the four moves.
    let record = record_text(&app, &id).await;
    for mv in settled(&app, &id).await["moves"].as_array().unwrap() {
        assert!(record.contains(mv.as_str().unwrap()), "{mv} in {record}");
    }
}

#[tokio::test]
async fn a_record_is_dated_and_names_people_anonymous_and_the_computer_by_its_level() {
    let app = app().await;
    let before = myrmidon_rules::pgn::utc_date_time(std::time::SystemTime::now()).0;
    let (id, _, _) = create(
        &app,
        json!({"game": "reines", "seats": ["human", "computer:3"]}),
    )
    .await;
    let after = myrmidon_rules::pgn::utc_date_time(std::time::SystemTime::now()).0;
    let record = record_text(&app, &id).await;
    // (the game was created between the two readings of the date: one of them, at midnight)
    assert!(
        record.contains(&format!("[Date \"{before}\"]"))
            || record.contains(&format!("[Date \"{after}\"]")),
        "{record}"
    );
    assert!(record.contains("[Time \""), "{record}");
    assert!(record.contains("\"Anonymous\"]"), "{record}");
    assert!(record.contains("\"myrmidon level 3\"]"), "{record}");
    assert!(!record.contains("\"human\""), "{record}");
}

#[tokio::test]
async fn legal_moves_say_what_they_promote_to_and_how_many_pieces_they_carry() {
    let app = app().await;
    // An Ackenhead pawn one step from promoting: four moves, one for each kind it may become.
    let (_, _, state) = create(
        &app,
        json!({"game": "ackenhead", "seats": ["human", "human"],
               "position": "4k3/P7/8/8/8/8/8/4K3 w - - 0 1"}),
    )
    .await;
    let legal = state["legal_cells"].as_array().unwrap();
    let promotions: Vec<&Value> = legal.iter().filter(|m| m["from"] == 48).collect();
    assert_eq!(promotions.len(), 4, "{legal:?}");
    let mut kinds: Vec<&str> = promotions
        .iter()
        .map(|m| m["promotion"].as_str().unwrap())
        .collect();
    kinds.sort();
    kinds.dedup();
    assert_eq!(kinds.len(), 4, "four kinds: {kinds:?}");
    let king = legal.iter().find(|m| m["from"] == 4).unwrap();
    assert_eq!(king["promotion"], Value::Null, "{king}");
    assert_eq!(king["pieces_moved"], 1, "{king}");
    // Epaminondas: a phalanx carries its stones; a single stone one.
    let (_, _, state) = create(
        &app,
        json!({"game": "epaminondas", "seats": ["human", "human"]}),
    )
    .await;
    let carried: Vec<u64> = state["legal_cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["pieces_moved"].as_u64().unwrap())
        .collect();
    assert!(carried.contains(&1) && carried.iter().any(|&n| n >= 2), "{carried:?}");
}

#[tokio::test]
async fn refusals_say_what_is_wrong_and_change_nothing() {
    let app = app().await;
    let (id, tokens, state) = create(
        &app,
        json!({"game": "ackenhead", "seats": ["human", "human"]}),
    )
    .await;
    let token = tokens[0].clone().unwrap();
    let moves = format!("/api/games/{id}/moves");
    let legal = state["legal"][0].as_str().unwrap().to_string();

    let cases: Vec<(&str, String, Body, StatusCode, &str)> = vec![
        (
            "POST",
            "/api/games".into(),
            Body::from(r#"{"game": "chess", "seats": ["human", "human"]}"#),
            StatusCode::NOT_FOUND,
            "chess",
        ),
        (
            "POST",
            "/api/games".into(),
            Body::from(r#"{"game": "ackenhead", "seats": ["human"]}"#),
            StatusCode::BAD_REQUEST,
            "2 players",
        ),
        (
            "POST",
            "/api/games".into(),
            Body::from(r#"{"game": "ackenhead", "seats": ["human", "computer:9"]}"#),
            StatusCode::BAD_REQUEST,
            "level",
        ),
        (
            "POST",
            "/api/games".into(),
            Body::from(r#"{"game": "ackenhead", "seats": ["human", "robot"]}"#),
            StatusCode::BAD_REQUEST,
            "robot",
        ),
        (
            "POST",
            "/api/games".into(),
            Body::from(
                r#"{"game": "reines", "seats": ["human", "human"], "settings": {"region": "mars"}}"#,
            ),
            StatusCode::BAD_REQUEST,
            "mars",
        ),
        (
            "POST",
            "/api/games".into(),
            Body::from(
                r#"{"game": "reines", "seats": ["human", "human"], "settings": {"colour": "red"}}"#,
            ),
            StatusCode::BAD_REQUEST,
            "colour",
        ),
        (
            "POST",
            "/api/games".into(),
            Body::from(
                r#"{"game": "ackenhead", "seats": ["human", "human"], "position": "8/8 w"}"#,
            ),
            StatusCode::BAD_REQUEST,
            "position",
        ),
        (
            "POST",
            "/api/games".into(),
            Body::from(r#"{"game": "ackenhead", "seats": ["human", "human"]"#),
            StatusCode::BAD_REQUEST,
            "JSON",
        ),
        (
            "POST",
            "/api/games".into(),
            Body::from(r#"{"seats": ["human", "human"]}"#),
            StatusCode::BAD_REQUEST,
            "game",
        ),
        (
            "POST",
            "/api/games".into(),
            Body::from(format!(
                r#"{{"game": "ackenhead", "seats": ["human", "human"], "position": "{}"}}"#,
                "x".repeat(70_000)
            )),
            StatusCode::PAYLOAD_TOO_LARGE,
            "limit",
        ),
        (
            "GET",
            "/api/games/nosuchgame".into(),
            Body::empty(),
            StatusCode::NOT_FOUND,
            "nosuchgame",
        ),
        (
            "GET",
            format!("/api/games/{id}?at=5"),
            Body::empty(),
            StatusCode::BAD_REQUEST,
            "at=5",
        ),
        (
            "GET",
            "/api/nothing".into(),
            Body::empty(),
            StatusCode::NOT_FOUND,
            "endpoint",
        ),
        (
            "POST",
            "/api/games/nosuchgame/moves".into(),
            Body::from(json!({"move": legal, "token": token}).to_string()),
            StatusCode::NOT_FOUND,
            "nosuchgame",
        ),
        (
            "POST",
            moves.clone(),
            Body::from("not json"),
            StatusCode::BAD_REQUEST,
            "JSON",
        ),
        (
            "POST",
            moves.clone(),
            Body::from(json!({"token": token}).to_string()),
            StatusCode::BAD_REQUEST,
            "move",
        ),
        (
            "POST",
            moves.clone(),
            Body::from(json!({"move": "e2e9", "token": token}).to_string()),
            StatusCode::BAD_REQUEST,
            "e2e9",
        ),
        (
            "POST",
            moves.clone(),
            Body::from(json!({"move": "a1a8", "token": token}).to_string()),
            StatusCode::BAD_REQUEST,
            "a1a8",
        ),
        (
            "POST",
            moves.clone(),
            Body::from(json!({"move": legal, "token": "0123"}).to_string()),
            StatusCode::FORBIDDEN,
            "token",
        ),
        (
            "POST",
            moves.clone(),
            Body::from(json!({"move": legal}).to_string()),
            StatusCode::FORBIDDEN,
            "token",
        ),
        (
            "POST",
            format!("/api/games/{id}/resign"),
            Body::from(json!({"seat": 5, "token": token}).to_string()),
            StatusCode::BAD_REQUEST,
            "seat 5",
        ),
        (
            "POST",
            format!("/api/games/{id}/resign"),
            Body::from(json!({"seat": 1, "token": "nope"}).to_string()),
            StatusCode::FORBIDDEN,
            "token",
        ),
    ];
    for (method, path, body, expected, mentions) in cases {
        let (status, v) = call(&app, method, &path, Some(body)).await;
        assert_eq!(status, expected, "{method} {path}: {v}");
        let error = v["error"].as_str().unwrap_or_else(|| panic!("{path}: {v}"));
        assert!(
            error.contains(mentions),
            "{path}: {error:?} should mention {mentions:?}"
        );
        let (_, now) = get(&app, &format!("/api/games/{id}")).await;
        assert_eq!(now, state, "{method} {path} changed the game");
    }

    // A seat's own token only: the computer's turn, and the other human's seat.
    let (id2, tokens2, state2) = create(
        &app,
        json!({"game": "reines", "seats": ["computer:1", "human"], "settings": {"region": "cultist"}}),
    )
    .await;
    assert_eq!(state2["settings"]["region"], "cultist");
    let first = state2["legal"][0].as_str().unwrap().to_string();
    let (status, v) = post(
        &app,
        &format!("/api/games/{id2}/moves"),
        json!({"move": first, "token": tokens2[1]}),
    )
    .await;
    assert!(
        status == StatusCode::FORBIDDEN || status == StatusCode::BAD_REQUEST,
        "{v}"
    );
    let state2 = settled(&app, &id2).await;
    let reply = state2["legal"][0].as_str().unwrap().to_string();
    let (status, v) = post(
        &app,
        &format!("/api/games/{id2}/moves"),
        json!({"move": reply, "token": token}),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "another game's token: {v}");

    // Resigning ends a two-player game; a move after the end is refused.
    let (status, over) = post(
        &app,
        &format!("/api/games/{id}/resign"),
        json!({"seat": 0, "token": token}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{over}");
    assert_eq!(over["outcome"]["winner"], 1);
    assert_eq!(over["outcome"]["reason"], "resignation");
    let (status, v) = post(&app, &moves, json!({"move": legal, "token": token})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(v["error"].as_str().unwrap().contains("over"), "{v}");
}

#[tokio::test]
async fn earlier_positions_and_a_start_position() {
    let app = app().await;
    let start = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
    let (id, tokens, state) = create(
        &app,
        json!({"game": "ackenhead", "seats": ["human", "human"], "position": start}),
    )
    .await;
    assert_eq!(state["start"], start);
    assert_eq!(state["position"], start);
    let token = tokens[0].clone().unwrap();
    let mut positions = vec![state["position"].clone()];
    let mut current = state;
    for n in 0..4 {
        let mv = pick(current["legal"].as_array().unwrap(), n);
        let (status, next) = play(&app, &id, &mv, &token).await;
        assert_eq!(status, StatusCode::OK);
        positions.push(next["position"].clone());
        current = next;
    }
    for (at, position) in positions.iter().enumerate() {
        let (status, v) = get(&app, &format!("/api/games/{id}?at={at}")).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(&v["position"], position, "at={at}");
        assert_eq!(v["moves"].as_array().unwrap().len(), at);
    }
}

#[tokio::test]
async fn games_survive_a_new_server_on_the_same_database() {
    let (db, _dir) = lasting_db();
    let (id, token, state) = {
        let app = app_on(&db).await;
        let (id, tokens, mut state) = create(
            &app,
            json!({"game": "antchess", "seats": ["human", "human"]}),
        )
        .await;
        let token = tokens[0].clone().unwrap();
        for n in 0..6 {
            let mv = pick(state["legal"].as_array().unwrap(), n);
            let (status, next) = play(&app, &id, &mv, &token).await;
            assert_eq!(status, StatusCode::OK);
            state = next;
        }
        (id, token, state)
    };
    let app = app_on(&db).await;
    let (status, again) = get(&app, &format!("/api/games/{id}")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(again, state);
    // And it goes on with the same token.
    let mv = pick(again["legal"].as_array().unwrap(), 99);
    let (status, next) = play(&app, &id, &mv, &token).await;
    assert_eq!(status, StatusCode::OK, "{next}");
    assert_eq!(next["version"], 7);
}

#[tokio::test]
async fn the_front_end_is_served_from_the_binary() {
    let app = app().await;
    // (board.js's modules too: the build embeds web/ with its folders)
    for path in ["/", "/game/abc", "/board.js", "/board/state.js", "/style.css"] {
        let response = router(app.clone())
            .oneshot(Request::builder().uri(path).body(Body::empty()).unwrap())
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        assert!(bytes.len() > 100, "{path}");
    }
    let response = router(app.clone())
        .oneshot(
            Request::builder()
                .uri("/no/such/file.js")
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn takeback_against_the_computer_and_on_one_screen() {
    let app = app().await;
    let (id, tokens, state) = create(
        &app,
        json!({"game": "epaminondas", "seats": ["human", "computer:1"]}),
    )
    .await;
    let token = tokens[0].clone().unwrap();
    let takeback = format!("/api/games/{id}/takeback");
    // Nothing of ours to take back yet.
    let (status, v) = post(&app, &takeback, json!({"token": token})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    let (status, v) = post(&app, &takeback, json!({"token": "wrong"})).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{v}");
    let mv = pick(state["legal"].as_array().unwrap(), 3);
    let (status, _) = play(&app, &id, &mv, &token).await;
    assert_eq!(status, StatusCode::OK);
    let after_reply = settled(&app, &id).await;
    assert_eq!(after_reply["moves"].as_array().unwrap().len(), 2);
    // The player's move and the computer's reply go back together.
    let (status, back) = post(&app, &takeback, json!({"token": token})).await;
    assert_eq!(status, StatusCode::OK, "{back}");
    assert_eq!(back["moves"], json!([]));
    assert_eq!(back["position"], state["position"]);
    // The version only grows: two moves and a takeback.
    assert_eq!(back["version"], 3);
    assert_eq!(back["to_move"], 0);
    // And the game goes on from there, stored so.
    let (status, _) = play(&app, &id, &mv, &token).await;
    assert_eq!(status, StatusCode::OK);
    let again = settled(&app, &id).await;
    assert_eq!(again["moves"].as_array().unwrap().len(), 2);

    // One screen: one move back at a time.
    let (id, tokens, _) =
        create(&app, json!({"game": "reines", "seats": ["human", "human"]})).await;
    let token = tokens[0].clone().unwrap();
    let mut positions = Vec::new();
    let (_, mut state) = get(&app, &format!("/api/games/{id}")).await;
    for n in 0..3 {
        positions.push(state["position"].clone());
        let mv = pick(state["legal"].as_array().unwrap(), n);
        state = play(&app, &id, &mv, &token).await.1;
    }
    for expected in positions.iter().rev() {
        let (status, back) = post(
            &app,
            &format!("/api/games/{id}/takeback"),
            json!({"token": token}),
        )
        .await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(&back["position"], expected);
    }
}

#[tokio::test]
async fn takebacks_between_people_elsewhere_are_proposals_and_give_no_time_back() {
    let app = app().await;
    let (id, tokens, state) = create(
        &app,
        json!({"game": "reines", "seats": ["online", "online"],
               "clock": {"minutes": 1, "increment": 0}}),
    )
    .await;
    let (white, black) = (tokens[0].clone().unwrap(), tokens[1].clone().unwrap());
    let takeback = format!("/api/games/{id}/takeback");
    let mut state = state;
    for n in 0..3 {
        let t = if n % 2 == 0 { &white } else { &black };
        let mv = pick(state["legal"].as_array().unwrap(), n);
        let (status, v) = play(&app, &id, &mv, t).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        state = v;
    }
    let before = state.clone();
    // White proposes: nothing goes back until Black agrees.
    let (status, offered) = post(&app, &takeback, json!({"token": white})).await;
    assert_eq!(status, StatusCode::OK, "{offered}");
    assert_eq!(offered["takeback_offer"], 0);
    assert_eq!(offered["takeback_agreed"], json!([0]));
    assert_eq!(offered["moves"], before["moves"]);
    let (status, v) = post(&app, &takeback, json!({"token": white})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "proposed twice: {v}");
    let (status, v) = post(&app, &takeback, json!({"token": white, "action": "accept"})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "its own proposal: {v}");
    let (status, v) = post(&app, &takeback, json!({"token": "a spectator", "action": "accept"})).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{v}");
    // Black declines: the proposal is gone, the game as it was.
    let (status, declined) = post(&app, &takeback, json!({"token": black, "action": "decline"})).await;
    assert_eq!(status, StatusCode::OK, "{declined}");
    assert_eq!(declined["takeback_offer"], Value::Null);
    assert_eq!(declined["takeback_declined"], 1, "{declined}");
    assert_eq!(declined["moves"], before["moves"]);
    // A move withdraws a pending proposal.
    let (_, offered) = post(&app, &takeback, json!({"token": white})).await;
    assert_eq!(offered["takeback_offer"], 0);
    assert_eq!(offered["takeback_declined"], Value::Null, "{offered}");
    let mv = pick(offered["legal"].as_array().unwrap(), 1);
    let (status, moved) = play(&app, &id, &mv, &black).await;
    assert_eq!(status, StatusCode::OK, "{moved}");
    assert_eq!(moved["takeback_offer"], Value::Null);
    // Black proposes, White accepts: Black's last move goes back (White to move again).
    let left_before = moved["clock"]["remaining_ms"].clone();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (_, offered) = post(&app, &takeback, json!({"token": black})).await;
    assert_eq!(offered["takeback_offer"], 1, "{offered}");
    let (status, back) = post(&app, &takeback, json!({"token": white, "action": "accept"})).await;
    assert_eq!(status, StatusCode::OK, "{back}");
    assert_eq!(back["moves"], before["moves"]);
    assert_eq!(back["to_move"], 1);
    assert_eq!(back["takeback_offer"], Value::Null);
    // The time White used while Black's move stood stays used; Black gets none back either.
    let left = back["clock"]["remaining_ms"].clone();
    assert!(
        left[0].as_i64().unwrap() <= left_before[0].as_i64().unwrap() - 250,
        "White's clock: {left_before} then {left}"
    );
    assert!(
        left[1].as_i64().unwrap() <= left_before[1].as_i64().unwrap(),
        "Black's clock: {left_before} then {left}"
    );
    // Read again, the same moves.
    let (status, again) = get(&app, &format!("/api/games/{id}")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(again["moves"], before["moves"]);
    // No takeback once the game is over, for anyone.
    let (status, _) = post(
        &app,
        &format!("/api/games/{id}/resign"),
        json!({"seat": 0, "token": white}),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    for t in [&white, &black] {
        let (status, v) = post(&app, &takeback, json!({"token": t})).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
        assert!(v["error"].as_str().unwrap().contains("over"), "{v}");
    }
    // A game whose creator's seat is "human" and the other "online" (as games were made
    // before creators took an online seat): the invited player only proposes.
    let (id, tokens, state) = create(
        &app,
        json!({"game": "reines", "seats": ["human", "online"]}),
    )
    .await;
    let (creator, invited) = (tokens[0].clone().unwrap(), tokens[1].clone().unwrap());
    let mv = pick(state["legal"].as_array().unwrap(), 0);
    let (_, s) = play(&app, &id, &mv, &creator).await;
    let mv = pick(s["legal"].as_array().unwrap(), 0);
    let (_, s) = play(&app, &id, &mv, &invited).await;
    let takeback = format!("/api/games/{id}/takeback");
    let (status, v) = post(&app, &takeback, json!({"token": invited})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["takeback_offer"], 1, "{v}");
    assert_eq!(v["moves"], s["moves"]);
    let (status, v) = post(&app, &takeback, json!({"token": creator, "action": "accept"})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["moves"].as_array().unwrap().len(), 1, "{v}");
    // Against the computer: immediate while the game goes on, refused once it is over.
    let (id, tokens, state) = create(
        &app,
        json!({"game": "reines", "seats": ["human", "computer:1"]}),
    )
    .await;
    let t = tokens[0].clone().unwrap();
    let mv = pick(state["legal"].as_array().unwrap(), 0);
    play(&app, &id, &mv, &t).await;
    settled(&app, &id).await;
    post(&app, &format!("/api/games/{id}/resign"), json!({"seat": 0, "token": t})).await;
    let (status, v) = post(&app, &format!("/api/games/{id}/takeback"), json!({"token": t})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "after the end: {v}");
}

#[tokio::test]
async fn a_takeback_among_three_says_who_declined_it_to_every_process() {
    let (db, _dir) = lasting_db();
    let app = app_on(&db).await;
    let (id, tokens, mut state) = create(
        &app,
        json!({"game": "antchess3", "seats": ["online", "online", "online"]}),
    )
    .await;
    let tokens: Vec<String> = tokens.into_iter().map(Option::unwrap).collect();
    for (n, token) in tokens.iter().enumerate() {
        let mv = pick(state["legal"].as_array().unwrap(), n);
        let (status, v) = play(&app, &id, &mv, token).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        state = v;
    }
    let takeback = format!("/api/games/{id}/takeback");
    let answer = |seat: usize, action: &str| json!({"token": tokens[seat], "action": action});
    // The third seat proposes, the first agrees, the second declines.
    let (status, v) = post(&app, &takeback, answer(2, "offer")).await;
    assert_eq!((status, &v["takeback_offer"]), (StatusCode::OK, &json!(2)), "{v}");
    let (status, v) = post(&app, &takeback, answer(0, "accept")).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["takeback_agreed"], json!([0, 2]), "{v}");
    let (status, v) = post(&app, &takeback, answer(1, "decline")).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["takeback_offer"], Value::Null, "{v}");
    assert_eq!(v["takeback_declined"], 1, "{v}");
    assert_eq!(v["moves"], state["moves"]);
    // Another process (a new server on the database) says the same.
    let other = app_on(&db).await;
    let (_, seen) = get(&other, &format!("/api/games/{id}")).await;
    assert_eq!(seen["takeback_declined"], 1, "{seen}");
    // A proposal withdrawn by its own seat: declined by the proposer.
    let (_, v) = post(&app, &takeback, answer(2, "offer")).await;
    assert_eq!(v["takeback_declined"], Value::Null, "{v}");
    let (status, v) = post(&app, &takeback, answer(2, "decline")).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["takeback_declined"], 2, "{v}");
}

#[tokio::test]
async fn records_export_and_import() {
    let app = app().await;
    let (id, tokens, mut state) = create(
        &app,
        json!({"game": "antchess3", "seats": ["human", "human", "human"]}),
    )
    .await;
    let token = tokens[0].clone().unwrap();
    for n in 0..7 {
        let mv = pick(state["legal"].as_array().unwrap(), n);
        state = play(&app, &id, &mv, &token).await.1;
    }
    // Red resigns: Black and Green play on.
    let (status, state) = post(
        &app,
        &format!("/api/games/{id}/resign"),
        json!({"seat": 1, "token": token}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{state}");
    assert!(state["outcome"].is_null());
    assert_eq!(state["eliminated"][0]["seat"], 1);

    let response = router(app.clone())
        .oneshot(
            Request::builder()
                .uri(format!("/api/games/{id}/record"))
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let text = String::from_utf8(
        response
            .into_body()
            .collect()
            .await
            .unwrap()
            .to_bytes()
            .to_vec(),
    )
    .unwrap();
    assert!(text.contains("[Game \"antchess3\"]"), "{text}");
    assert!(
        text.contains("out:"),
        "the resignation is in the record: {text}"
    );

    let (id2, _, imported) = create(
        &app,
        json!({"record": text, "seats": ["human", "human", "human"]}),
    )
    .await;
    assert_ne!(id2, id);
    for field in [
        "position",
        "moves",
        "legal",
        "to_move",
        "eliminated",
        "outcome",
    ] {
        assert_eq!(imported[field], state[field], "{field}");
    }
    // Stored as read: a new server over the same store gives the same state.
    let (_, again) = get(&app, &format!("/api/games/{id2}")).await;
    assert_eq!(again, imported);

    // Refusals: a record of another game, a broken record.
    let (status, v) = post(
        &app,
        "/api/games",
        json!({"game": "reines", "record": text, "seats": ["human", "human", "human"]}),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(v["key"], "api-record-other-game", "{v}");
    assert_eq!(v["args"]["record"], "antchess3", "{v}");
    assert!(v["error"].as_str().unwrap().contains("Ant Chess"), "{v}");
    let broken = text.replace("[Game \"antchess3\"]", "[Game \"antchess3\"]\n[Broken");
    let (status, v) = post(
        &app,
        "/api/games",
        json!({"record": broken, "seats": ["human", "human", "human"]}),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(v["error"].as_str().unwrap().contains("line"), "{v}");
}

#[tokio::test]
async fn rules_texts_for_every_game() {
    let app = app().await;
    for id in [
        "ackenhead",
        "antchess",
        "antchess3",
        "epaminondas",
        "reines",
    ] {
        let (status, v) = get(&app, &format!("/api/rules/{id}")).await;
        assert_eq!(status, StatusCode::OK, "{id}: {v}");
        let html = v["html"].as_str().unwrap();
        assert!(html.starts_with("<h1>"), "{id}: {}", &html[..80]);
        assert!(html.contains("<h2>"), "{id}: the markdown is rendered");
        assert!(
            html.contains("<code class=\"language-board"),
            "{id}: diagrams"
        );
        assert_eq!(v["game"], id);
        assert_eq!(v["lang"], "en", "{id}: English without a language asked");
    }
    // Three-player Ant Chess is played by the Ant Chess text.
    let (_, a) = get(&app, "/api/rules/antchess").await;
    let (_, b) = get(&app, "/api/rules/antchess3").await;
    assert_eq!(a["html"], b["html"]);
    let (status, v) = get(&app, "/api/rules/chess").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(v["error"].as_str().unwrap().contains("chess"), "{v}");
}

#[tokio::test]
async fn the_explorer_sets_up_positions_and_shows_their_moves() {
    let app = app().await;
    // A Vao (a bishop that captures by hopping) alone with the Kings, Black to move.
    let (status, v) = post(
        &app,
        "/api/explore",
        json!({"game": "ackenhead", "clear": true,
               "put": [{"cell": "d4", "piece": {"owner": 1, "kind": "V"}}], "to_move": 1}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["position"], "4k3/8/8/8/3v4/8/8/4K3 b - - 0 1");
    assert_eq!(v["to_move"], 1);
    let from_d4: Vec<&str> = v["legal"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m.as_str().filter(|t| t.starts_with("d4")))
        .collect();
    assert_eq!(from_d4.len(), 13, "{from_d4:?}");
    assert_eq!(
        v["legal"].as_array().unwrap().len(),
        v["legal_cells"].as_array().unwrap().len()
    );
    let palette = v["palette"].as_array().unwrap();
    assert_eq!(palette.len(), 12);
    assert_eq!(palette[0], json!({"owner": 0, "kind": "K", "name": "King"}));
    // Every game: an empty edit gives the start, a cleared board is still a game going on.
    for id in [
        "ackenhead",
        "antchess",
        "antchess3",
        "epaminondas",
        "reines",
    ] {
        let (_, start) = post(&app, "/api/explore", json!({"game": id})).await;
        let (status, cleared) =
            post(&app, "/api/explore", json!({"game": id, "clear": true})).await;
        assert_eq!(status, StatusCode::OK, "{id}: {cleared}");
        assert!(
            cleared["outcome"].is_null() || cleared["outcome"]["winner"].is_null(),
            "{id}: {cleared}"
        );
        let count = |v: &Value| {
            v["board"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|c| !c.is_null())
                .count()
        };
        assert!(count(&cleared) < count(&start), "{id}");
        let (_, again) = post(
            &app,
            "/api/explore",
            json!({"game": id, "position": start["position"]}),
        )
        .await;
        assert_eq!(again["position"], start["position"], "{id}");
    }
    // Jeu de Reines with the Myrmides in a1: seat 0 is theirs, written in lower case.
    let (status, v) = post(
        &app,
        "/api/explore",
        json!({"game": "reines", "settings": {"region": "cultist"},
               "put": [{"cell": "d2", "piece": null}, {"cell": "e4", "piece": {"owner": 0, "kind": "W"}}]}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert!(v["position"].as_str().unwrap().contains("/1w2w3/"), "{v}");
    // Refusals say what is wrong.
    for (body, want) in [
        (
            json!({"game": "ackenhead", "put": [{"cell": "e1", "piece": null}]}),
            "kings",
        ),
        (
            json!({"game": "ackenhead", "put": [{"cell": "z9", "piece": null}]}),
            "z9",
        ),
        (
            json!({"game": "ackenhead", "put": [{"cell": "e4", "piece": {"owner": 0, "kind": "Q"}}]}),
            "'Q'",
        ),
        (json!({"game": "ackenhead", "to_move": 2}), "seat 2"),
        (
            json!({"game": "ackenhead", "position": "8/8 w"}),
            "bad position string",
        ),
        (
            json!({"game": "ackenhead", "position": "x", "settings": {"a": "b"}}),
            "settings",
        ),
        (json!({"game": "ackenhead", "colour": 1}), "colour"),
        (
            json!({"game": "reines", "settings": {"region": "moon"}}),
            "moon",
        ),
    ] {
        let (status, v) = post(&app, "/api/explore", body.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {v}");
        assert!(v["error"].as_str().unwrap().contains(want), "{body}: {v}");
    }
    let (status, _) = post(&app, "/api/explore", json!({"game": "go"})).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn captured_pieces_draw_offers_and_rematches() {
    let app = app().await;
    let (id, tokens, state) = create(
        &app,
        json!({"game": "ackenhead", "seats": ["human", "human"]}),
    )
    .await;
    let t = tokens[0].clone().unwrap();
    assert_eq!(state["captured"], json!([[], []]));
    // The Pao h1 takes the pawn h7 over the pawn h2.
    let (_, s) = play(&app, &id, "h1h7", &t).await;
    assert_eq!(s["captured"], json!([[], ["P"]]), "{s}");
    // Draw: refusals first.
    let draw = |seat: u8, token: &str, action: &str| json!({"seat": seat, "token": token, "action": action});
    let path = format!("/api/games/{id}/draw");
    let (status, v) = post(&app, &path, draw(0, &t, "accept")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    let (status, _) = post(&app, &path, draw(0, "wrong", "offer")).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, v) = post(&app, &path, draw(0, &t, "shake")).await;
    assert!(status == StatusCode::BAD_REQUEST && v["error"].as_str().unwrap().contains("shake"));
    let (status, v) = post(&app, &path, draw(1, &t, "offer")).await;
    assert_eq!(
        (status, v["draw_offer"].clone()),
        (StatusCode::OK, json!(1))
    );
    // A rematch is for finished games.
    let rematch = format!("/api/games/{id}/rematch");
    let (status, _) = post(&app, &rematch, json!({"token": t})).await;
    assert_eq!(status, StatusCode::CONFLICT);
    let (status, v) = post(&app, &path, draw(0, &t, "accept")).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["outcome"]["reason"], "agreement");
    assert_eq!(v["outcome"]["winner"], Value::Null);
    assert_eq!(v["draw_offer"], Value::Null);
    let (status, _) = post(&app, &path, draw(0, &t, "offer")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    // The draw is stored: a new server on the database would replay it (the step is a declare).
    let (status, _) = post(&app, &rematch, json!({"token": "nope"})).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, r) = post(&app, &rematch, json!({"token": t})).await;
    assert_eq!(status, StatusCode::CREATED, "{r}");
    let new_id = r["id"].as_str().unwrap();
    assert_eq!(r["state"]["moves"], json!([]));
    let (_, old) = get(&app, &format!("/api/games/{id}")).await;
    assert_eq!(old["rematch"], new_id);
    let (status, _) = post(&app, &rematch, json!({"token": t})).await;
    assert_eq!(status, StatusCode::CONFLICT);
    // Colours swap: a computer seat moves to the other side.
    let (id, tokens, _) = create(
        &app,
        json!({"game": "reines", "seats": ["human", "computer:1"]}),
    )
    .await;
    let t = tokens[0].clone().unwrap();
    let (_, v) = post(
        &app,
        &format!("/api/games/{id}/resign"),
        json!({"seat": 0, "token": t}),
    )
    .await;
    assert_eq!(v["outcome"]["winner"], 1);
    let (_, r) = post(
        &app,
        &format!("/api/games/{id}/rematch"),
        json!({"token": t}),
    )
    .await;
    assert_eq!(r["state"]["seats"], json!(["computer:1", "human"]));
    assert!(
        r["tokens"][0].is_null() && r["tokens"][1].is_string(),
        "{r}"
    );
    // Against the computer an offer is answered at once, one way or the other.
    let (id, tokens, _) = create(
        &app,
        json!({"game": "ackenhead", "seats": ["human", "computer:3"]}),
    )
    .await;
    let t = tokens[0].clone().unwrap();
    let (status, v) = post(&app, &format!("/api/games/{id}/draw"), draw(0, &t, "offer")).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["draw_offer"], Value::Null);
    // In the opening it always declines.
    assert_eq!(v["draw_declined"], 1, "{v}");
    assert_eq!(v["outcome"], Value::Null);
    // Three players: no draw offers.
    let (id, tokens, _) = create(
        &app,
        json!({"game": "antchess3", "seats": ["human", "human", "human"]}),
    )
    .await;
    let t = tokens[0].clone().unwrap();
    let (status, v) = post(&app, &format!("/api/games/{id}/draw"), draw(0, &t, "offer")).await;
    assert!(
        status == StatusCode::BAD_REQUEST && v["error"].as_str().unwrap().contains("two-player")
    );
}

#[tokio::test]
async fn the_computer_shares_its_clock_by_the_engine_s_time_plan() {
    // The server would let the computer think 20 s a move; its clock has 6 s for the game.
    let store = Store::open(&fresh_db()).await.unwrap();
    let app = App::new(store, Duration::from_secs(20), 1);
    let (id, tokens, mut state) = create(
        &app,
        json!({"game": "reines", "seats": ["human", "computer:8"],
               "clock": {"minutes": 0.1, "increment": 0}}),
    )
    .await;
    let t = tokens[0].clone().unwrap();
    // Its first move is free; at the next two its clock runs.
    for n in 0..3 {
        let mv = pick(state["legal"].as_array().unwrap(), 0);
        let (status, v) = play(&app, &id, &mv, &t).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let started = std::time::Instant::now();
        state = settled(&app, &id).await;
        if state["outcome"] != Value::Null {
            break;
        }
        // A share of what is left (6 s over 30 moves, up to two and a half times that for an
        // iteration under way), never the server's 20 s.
        assert!(
            started.elapsed() < Duration::from_secs(3),
            "move {n}: {:?}",
            started.elapsed()
        );
    }
    let left = state["clock"]["remaining_ms"][1].as_i64().unwrap();
    assert!(left > 4000, "the computer used {} ms of 6000", 6000 - left);
}

#[tokio::test]
async fn clocks_run_on_the_server_and_flags_fall_there() {
    let (db, _dir) = lasting_db();
    let app = app_on(&db).await;
    for clock in [
        json!({"minutes": -1}),
        json!({"minutes": 0}),
        json!({"minutes": 600}),
        json!({"min": 1}),
    ] {
        let (status, v) = post(
            &app,
            "/api/games",
            json!({"game": "ackenhead", "seats": ["human", "human"], "clock": clock}),
        )
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{clock}: {v}");
    }
    // One second and one millisecond a move.
    let (id, tokens, state) = create(
        &app,
        json!({"game": "ackenhead", "seats": ["human", "human"],
               "clock": {"minutes": 0, "increment": 0.001}}),
    )
    .await;
    let t = tokens[0].clone().unwrap();
    assert_eq!(state["clock"]["remaining_ms"], json!([1000, 1000]));
    assert_eq!(state["clock"]["running"], Value::Null);
    // First moves are free; then White's clock runs.
    play(&app, &id, "e2d3", &t).await;
    let (_, s) = play(&app, &id, "d7c6", &t).await;
    assert_eq!(s["clock"]["running"], 0, "{s}");
    // A new server on the same file has the same clock.
    let other = app_on(&db).await;
    let (_, s2) = get(&other, &format!("/api/games/{id}")).await;
    assert_eq!(s2["clock"]["running"], 0);
    assert!(
        s2["clock"]["remaining_ms"][1].as_i64().unwrap() == 1001,
        "{s2}"
    );
    tokio::time::sleep(Duration::from_millis(1200)).await;
    // The flag fell on the server, with no request to make it fall.
    let (_, s) = get(&app, &format!("/api/games/{id}")).await;
    assert_eq!(s["outcome"]["reason"], "time", "{s}");
    assert_eq!(s["outcome"]["winner"], 1);
    assert_eq!(s["clock"]["remaining_ms"][0], 0);
    // A move after the flag is refused (the other server, which has no timer for it, lets it
    // fall at the move instead, or, when it reads the game from the database, finds it over).
    let (status, v) = play(&other, &id, "d3c4", &t).await;
    assert!(
        status == StatusCode::CONFLICT || status == StatusCode::BAD_REQUEST,
        "{status}: {v}"
    );
    // Either the flag falls at the move, or the game read from the database is over by time.
    if v["key"] == "api-move-game-over" {
        let (_, s) = get(&other, &format!("/api/games/{id}")).await;
        assert_eq!(s["outcome"]["reason"], "time", "{s}");
    } else {
        assert!(v["error"].as_str().unwrap().contains("time"), "{v}");
    }
    // An imported record has no clock to give.
    let (status, _) = post(
        &app,
        "/api/games",
        json!({"record": "[Game \"ackenhead\"]\n\n*\n", "seats": ["human", "human"], "clock": {"minutes": 1}}),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn analysis_streams_lines_and_evaluations() {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;

    let app = app().await;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, router(app)).await });
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/api/analysis"))
        .await
        .unwrap();
    async fn next(
        ws: &mut (impl StreamExt<Item = Result<Message, tokio_tungstenite::tungstenite::Error>> + Unpin),
    ) -> Value {
        loop {
            let msg = tokio::time::timeout(Duration::from_secs(20), ws.next())
                .await
                .expect("an answer in time")
                .expect("the socket open")
                .unwrap();
            if let Message::Text(t) = msg {
                return serde_json::from_str(t.as_str()).unwrap();
            }
        }
    }
    let send = |v: Value| Message::Text(v.to_string().into());
    ws.send(send(
        json!({"op": "analyse", "id": 7, "game": "ackenhead", "moves": ["e2d3"], "movetime": 400}),
    ))
    .await
    .unwrap();
    let mut depths = Vec::new();
    let done = loop {
        let v = next(&mut ws).await;
        match v["type"].as_str().unwrap() {
            "info" => {
                assert_eq!(v["id"], 7);
                depths.push(v["depth"].as_u64().unwrap());
                // Black to move: seat 0's view is the opposite.
                if let Some(cp) = v["score"]["cp"].as_i64() {
                    assert_eq!(v["first"]["cp"].as_i64().unwrap(), -cp);
                }
                assert!(!v["pv"].as_array().unwrap().is_empty());
            }
            "done" => break v,
            other => panic!("{other}: {v}"),
        }
    };
    assert!(
        depths.len() >= 3 && depths.windows(2).all(|w| w[0] <= w[1]),
        "{depths:?}"
    );
    let best = done["best"].as_str().unwrap();
    let mut record = myrmidon_rules::registry::find("ackenhead")
        .unwrap()
        .new_game(&Default::default())
        .unwrap();
    record.play("e2d3").unwrap();
    assert!(
        record.legal_moves().iter().any(|m| m.text == best),
        "{best}"
    );
    // Evaluations of every position of a short game.
    ws.send(send(json!({"op": "evals", "id": 8, "game": "reines", "moves": ["b2-b1", "g7-g8"], "movetime": 30})))
        .await
        .unwrap();
    for ply in 0..3 {
        let v = next(&mut ws).await;
        assert_eq!(
            (v["type"].as_str(), v["ply"].as_u64()),
            (Some("eval"), Some(ply)),
            "{v}"
        );
        assert!(v["score"].is_object() && v["first"].is_object(), "{v}");
    }
    assert_eq!(next(&mut ws).await["type"], "evals_done");
    // A stop ends a long analysis at once.
    ws.send(send(
        json!({"op": "analyse", "id": 9, "game": "epaminondas", "movetime": 60000}),
    ))
    .await
    .unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    ws.send(send(json!({"op": "stop"}))).await.unwrap();
    loop {
        let v = next(&mut ws).await;
        if v["type"] == "done" {
            assert_eq!(v["id"], 9);
            break;
        }
    }
    // Bad requests get an error and the socket stays open.
    for (bad, want) in [
        (
            json!({"op": "analyse", "game": "ackenhead", "moves": ["e2e5"]}),
            "e2e5",
        ),
        (json!({"op": "analyse", "game": "nim"}), "nim"),
        (json!({"op": "fly"}), "fly"),
        (
            json!({"op": "analyse", "game": "ackenhead", "multipv": 9}),
            "multipv",
        ),
    ] {
        ws.send(send(bad.clone())).await.unwrap();
        let v = next(&mut ws).await;
        assert_eq!(v["type"], "error", "{bad}: {v}");
        assert!(v["error"].as_str().unwrap().contains(want), "{bad}: {v}");
    }
    ws.send(Message::Text("{not json".into())).await.unwrap();
    assert_eq!(next(&mut ws).await["type"], "error");
    // Over the message limit (16 KiB): the server closes the socket with a close frame, code
    // 1009 (message too big).
    ws.send(Message::Text("x".repeat(20_000).into()))
        .await
        .unwrap();
    let end = loop {
        match tokio::time::timeout(Duration::from_secs(20), ws.next())
            .await
            .expect("the close in time")
        {
            Some(Ok(Message::Text(_))) => continue,
            end => break end,
        }
    };
    match end {
        Some(Ok(Message::Close(Some(frame)))) => {
            assert_eq!(u16::from(frame.code), 1009, "{frame:?}");
            assert!(frame.reason.contains("16384 bytes"), "{frame:?}");
        }
        other => panic!("no close frame: {other:?}"),
    }
}

#[tokio::test]
async fn online_seats_invitations_joins_and_the_lobby() {
    let app = app().await;
    // Invitation links: every online seat has its own token.
    let (id, tokens, state) = create(
        &app,
        json!({"game": "antchess3", "seats": ["online", "online", "computer:1"]}),
    )
    .await;
    let (t0, t1) = (tokens[0].clone().unwrap(), tokens[1].clone().unwrap());
    assert_ne!(t0, t1);
    assert!(tokens[2].is_none());
    assert_eq!(state["open_seats"], json!([]));
    // A seat's token moves for that seat only; a spectator (no token) for none.
    let mv = state["legal"][0].as_str().unwrap().to_string();
    let (status, _) = play(&app, &id, &mv, &t1).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = post(&app, &format!("/api/games/{id}/moves"), json!({"move": mv})).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = play(&app, &id, &mv, &t0).await;
    assert_eq!(status, StatusCode::OK);

    // A public game with an open seat is in the lobby; a private one is not.
    let (open_id, tokens, state) = create(
        &app,
        json!({"game": "reines", "seats": ["online", "open"], "public": true,
               "clock": {"minutes": 3, "increment": 2}}),
    )
    .await;
    assert!(tokens[1].is_none());
    assert_eq!(state["open_seats"], json!([1]));
    assert_eq!(state["public"], true);
    let (private_id, _, _) =
        create(&app, json!({"game": "reines", "seats": ["online", "open"]})).await;
    let (status, lobby) = get(&app, "/api/lobby").await;
    assert_eq!(status, StatusCode::OK);
    let ids: Vec<&str> = lobby
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, vec![open_id.as_str()], "{lobby}");
    assert_eq!(lobby[0]["open_seats"], json!([1]));
    assert_eq!(lobby[0]["clock"]["initial_ms"], 180_000);
    // Nobody moves for an open seat.
    let t = tokens[0].clone().unwrap();
    let mv = state["legal"][0].as_str().unwrap().to_string();
    let (_, s) = play(&app, &open_id, &mv, &t).await;
    let reply = s["legal"][0].as_str().unwrap().to_string();
    let (status, v) = play(&app, &open_id, &reply, &t).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{v}");
    assert!(v["error"].as_str().unwrap().contains("open"), "{v}");
    // Join: the seat is the joiner's; a second joiner is refused; the lobby forgets it.
    let join = format!("/api/games/{open_id}/join");
    let (status, joined) = post(&app, &join, json!({"seat": 1})).await;
    assert_eq!(status, StatusCode::OK, "{joined}");
    let t1 = joined["token"].as_str().unwrap().to_string();
    assert_eq!(joined["state"]["seats"], json!(["online", "online"]));
    assert_eq!(joined["state"]["open_seats"], json!([]));
    let (status, v) = post(&app, &join, json!({"seat": 1})).await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    assert!(v["error"].as_str().unwrap().contains("taken"), "{v}");
    for (bad, want) in [
        (json!({"seat": 0}), StatusCode::CONFLICT),
        (json!({"seat": 5}), StatusCode::BAD_REQUEST),
        (json!({}), StatusCode::BAD_REQUEST),
    ] {
        let (status, v) = post(&app, &join, bad.clone()).await;
        assert_eq!(status, want, "{bad}: {v}");
    }
    let (status, _) = post(&app, "/api/games/nosuch/join", json!({"seat": 0})).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = play(&app, &open_id, &reply, &t1).await;
    assert_eq!(status, StatusCode::OK);
    // A rematch asked by the one who joined is an offer, shown to the other player; accepted,
    // it seats the same two players with the colours swapped, each with the token they had.
    let (status, _) = post(
        &app,
        &format!("/api/games/{open_id}/resign"),
        json!({"seat": 0, "token": t}),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let rematch = format!("/api/games/{open_id}/rematch");
    let (status, r) = post(&app, &rematch, json!({"token": t1})).await;
    assert_eq!(status, StatusCode::OK, "{r}");
    assert_eq!(r["rematch_offers"], json!([1]), "{r}");
    assert_eq!(r["rematch"], Value::Null, "{r}");
    let (status, r) = post(&app, &rematch, json!({"token": t1})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "offered twice: {r}");
    let (status, r) = post(&app, &rematch, json!({"token": "a spectator"})).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{r}");
    let (status, r) = post(&app, &rematch, json!({"token": t, "action": "accept"})).await;
    assert_eq!(status, StatusCode::CREATED, "{r}");
    assert_eq!(r["state"]["seats"], json!(["online", "online"]));
    assert_eq!(r["state"]["open_seats"], json!([]));
    assert_eq!(r["tokens"], json!([null, t]), "{r}");
    let new_id = r["id"].as_str().unwrap().to_string();
    let (_, old) = get(&app, &format!("/api/games/{open_id}")).await;
    assert_eq!(old["rematch"], json!(new_id));
    // The one who joined plays White now, with the token they had; nobody can join.
    let first = pick(r["state"]["legal"].as_array().unwrap(), 0);
    let (status, v) = play(&app, &new_id, &first, &t).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{v}");
    let (status, v) = play(&app, &new_id, &first, &t1).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let (status, v) = post(&app, &format!("/api/games/{new_id}/join"), json!({"seat": 1})).await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    let (_, lobby) = get(&app, "/api/lobby").await;
    assert_eq!(lobby, json!([]), "no open seat anywhere: {lobby}");
    // The private game's open seat can be joined by anyone who has its address.
    let (status, _) = post(
        &app,
        &format!("/api/games/{private_id}/join"),
        json!({"seat": 1}),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    // A computer seat or a seat on one screen is never open.
    let (id, _, _) = create(
        &app,
        json!({"game": "reines", "seats": ["human", "computer:2"]}),
    )
    .await;
    let (status, _) = post(&app, &format!("/api/games/{id}/join"), json!({"seat": 1})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, v) = post(
        &app,
        "/api/games",
        json!({"game": "reines", "seats": ["online", "guest"]}),
    )
    .await;
    assert!(
        status == StatusCode::BAD_REQUEST && v["error"].as_str().unwrap().contains("open"),
        "{v}"
    );
}

#[tokio::test]
async fn joins_are_stored_for_a_new_server() {
    let (db, _dir) = lasting_db();
    let app = app_on(&db).await;
    let (id, _, _) = create(
        &app,
        json!({"game": "epaminondas", "seats": ["open", "open"], "public": true}),
    )
    .await;
    // Another server on the same database (as another process would be), which has read the
    // game while the seat was open, races a join: the database gives the seat to one only.
    let other = app_on(&db).await;
    let (_, s) = get(&other, &format!("/api/games/{id}")).await;
    assert_eq!(s["open_seats"], json!([0, 1]));
    // A third, which will hear of the join only through the database.
    let third = app_on(&db).await;
    let (_, s) = get(&third, &format!("/api/games/{id}")).await;
    assert_eq!(s["open_seats"], json!([0, 1]));
    let (_, joined) = post(&app, &format!("/api/games/{id}/join"), json!({"seat": 0})).await;
    let t0 = joined["token"].as_str().unwrap().to_string();
    // Its lobby shows the seats as stored, not as it read them.
    let (_, lobby) = get(&third, "/api/lobby").await;
    assert_eq!(lobby[0]["open_seats"], json!([1]), "{lobby}");
    let (status, v) = post(&other, &format!("/api/games/{id}/join"), json!({"seat": 0})).await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    let (_, lobby) = get(&other, "/api/lobby").await;
    assert_eq!(lobby[0]["open_seats"], json!([1]));
    let (_, s) = get(&other, &format!("/api/games/{id}")).await;
    let mv = s["legal"][0].as_str().unwrap().to_string();
    let (status, _) = play(&other, &id, &mv, &t0).await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn a_lost_race_shows_the_winner_at_the_next_request() {
    let (db, _dir) = lasting_db();
    let app = app_on(&db).await;
    let (id, tokens, s) = create(&app, json!({"game": "reines", "seats": ["human", "human"]})).await;
    let t = tokens[0].clone().unwrap();
    // Another server (as another process would be) reads the game, then the first one moves.
    let other = app_on(&db).await;
    let (_, before) = get(&other, &format!("/api/games/{id}")).await;
    assert_eq!(before["version"], s["version"]);
    let legal = s["legal"].as_array().unwrap();
    let (first, second) = (pick(legal, 0), pick(legal, 1));
    let (status, moved) = play(&app, &id, &first, &t).await;
    assert_eq!(status, StatusCode::OK, "{moved}");
    // The other, judging on what it read, loses at the database; its very next answer shows
    // the move that won, with no wait for its refresh in the background. (On PostgreSQL it
    // may have heard of the move first, and judges the second on the new state: illegal.)
    let (status, v) = play(&other, &id, &second, &t).await;
    if db.starts_with("postgres") {
        assert!(
            status == StatusCode::CONFLICT || status == StatusCode::BAD_REQUEST,
            "{status} {v}"
        );
    } else {
        assert_eq!(status, StatusCode::CONFLICT, "{v}");
    }
    let (_, after) = get(&other, &format!("/api/games/{id}")).await;
    assert_eq!(after["version"], moved["version"], "{after}");
    assert_eq!(after["moves"], moved["moves"], "{after}");
}

#[tokio::test]
async fn limits_per_client_refuse_floods_with_429() {
    let store = Store::open(&fresh_db()).await.unwrap();
    let limits = myrmidon_server::RateLimits {
        create_burst: 3,
        action_burst: 5,
        // No refill while the test runs, however slow the machine.
        create_every: Duration::from_secs(3600),
        action_every: Duration::from_secs(3600),
        sockets: 2,
        ..myrmidon_server::RateLimits::default()
    };
    let app = App::with_limits(store, Duration::from_millis(20), 1, limits);
    let body = json!({"game": "reines", "seats": ["human", "human"]});
    let mut statuses = Vec::new();
    for _ in 0..5 {
        statuses.push(post(&app, "/api/games", body.clone()).await.0);
    }
    assert_eq!(&statuses[..3], &[StatusCode::CREATED; 3]);
    assert_eq!(statuses[3], StatusCode::TOO_MANY_REQUESTS);
    let (status, v) = post(&app, "/api/games", body.clone()).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    assert!(
        v["error"].as_str().unwrap().contains("too many new games"),
        "{v}"
    );
    // Reading is not limited; acting is, on its own bucket.
    for _ in 0..20 {
        assert_eq!(get(&app, "/api/games").await.0, StatusCode::OK);
    }
    let mut refused = 0;
    for _ in 0..8 {
        let (status, _) = post(&app, "/api/explore", json!({"game": "reines"})).await;
        if status == StatusCode::TOO_MANY_REQUESTS {
            refused += 1;
        }
    }
    assert_eq!(refused, 3);

    // Sockets: two at once per client; a flood of messages closes one.
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    let addr = serve_on_loopback(&app).await;
    let url = format!("ws://{addr}/api/analysis");
    let (mut a, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    let (_b, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    let third = tokio_tungstenite::connect_async(&url).await;
    assert!(third.is_err(), "a third socket was opened");
    for _ in 0..100 {
        if a.send(Message::Text("{\"op\": \"stop\"}".into()))
            .await
            .is_err()
        {
            break;
        }
    }
    let closed = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            match a.next().await {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return true,
                Some(Ok(_)) => {}
            }
        }
    })
    .await
    .unwrap();
    assert!(closed);
    // Its place is free again, once the server has seen it close.
    let mut reopened = false;
    for _ in 0..100 {
        if tokio_tungstenite::connect_async(&url).await.is_ok() {
            reopened = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(reopened, "the closed socket's place was not freed within 5 s");
}

#[tokio::test]
async fn a_game_streams_its_states_as_newline_delimited_json() {
    let app = app().await;
    let (id, tokens, state) = create(
        &app,
        json!({"game": "reines", "seats": ["human", "human"]}),
    )
    .await;
    let request = Request::builder()
        .uri(format!("/api/games/{id}/stream"))
        .body(Body::empty())
        .unwrap();
    let response = router(app.clone()).oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(
        response.headers()["content-type"],
        "application/x-ndjson",
        "the stream's type"
    );
    let mut body = response.into_body();
    // Reads one line: the frames of a stream come one line each.
    async fn line(body: &mut Body) -> Value {
        let frame = tokio::time::timeout(Duration::from_secs(10), body.frame())
            .await
            .expect("a line within 10 s")
            .expect("the stream goes on")
            .unwrap();
        let bytes = frame.into_data().unwrap();
        let text = std::str::from_utf8(&bytes).unwrap();
        assert!(text.ends_with('\n'), "{text:?}");
        serde_json::from_str(text.trim_end()).unwrap()
    }
    let first = line(&mut body).await;
    assert_eq!(first["version"], state["version"]);
    assert_eq!(first["moves"], json!([]));
    let token = tokens[0].clone().unwrap();
    let mut played = Vec::new();
    for n in 0..3 {
        let now = get(&app, &format!("/api/games/{id}")).await.1;
        let mv = pick(now["legal"].as_array().unwrap(), n * 3 + 1);
        let (status, _) = play(&app, &id, &mv, &token).await;
        assert_eq!(status, StatusCode::OK);
        played.push(Value::String(mv));
        let next = line(&mut body).await;
        assert_eq!(next["version"], n as u64 + 1);
        assert_eq!(next["moves"], Value::Array(played.clone()));
    }
    // An unknown game: 404, no stream.
    let (status, error) = get(&app, "/api/games/nosuchgame/stream").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(error["error"].as_str().unwrap().contains("nosuchgame"));
}

#[tokio::test]
async fn a_client_has_a_limited_number_of_unfinished_games() {
    let store = Store::open(&fresh_db()).await.unwrap();
    let limits = myrmidon_server::RateLimits {
        open_games: 3,
        ..myrmidon_server::RateLimits::off()
    };
    let app = App::with_limits(store, Duration::from_millis(20), 1, limits);
    let body = json!({"game": "reines", "seats": ["human", "human"]});
    let mut made = Vec::new();
    for _ in 0..3 {
        made.push(create(&app, body.clone()).await);
    }
    let (status, v) = post(&app, "/api/games", body.clone()).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("3 unfinished games"),
        "{v}"
    );
    // A record to import counts as a new game too.
    let (status, _) = post(
        &app,
        "/api/games",
        json!({"record": "[Game \"reines\"]\n\n*\n", "seats": ["human", "human"]}),
    )
    .await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    // A game finished frees its place.
    let (id, tokens, _) = &made[0];
    let (status, over) = post(
        &app,
        &format!("/api/games/{id}/resign"),
        json!({"token": tokens[0], "seat": 0}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{over}");
    let (status, v) = post(&app, "/api/games", body).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    // A rematch is a new game of the client that makes it: at the limit, refused.
    let rematch = format!("/api/games/{id}/rematch");
    let (status, v) = post(&app, &rematch, json!({"token": tokens[0]})).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{v}");
    let (_, old) = get(&app, &format!("/api/games/{id}")).await;
    assert_eq!(old["rematch"], Value::Null);
    // With a place free, made, and counted: the next new game is refused.
    let (other, other_tokens, _) = &made[1];
    post(
        &app,
        &format!("/api/games/{other}/resign"),
        json!({"token": other_tokens[0], "seat": 0}),
    )
    .await;
    let (status, v) = post(&app, &rematch, json!({"token": tokens[0]})).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let (status, v) = post(
        &app,
        "/api/games",
        json!({"game": "reines", "seats": ["human", "human"]}),
    )
    .await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{v}");
}

#[tokio::test]
async fn bad_clients_on_a_game_socket_are_closed_and_nobody_else_notices() {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    let store = Store::open(&fresh_db()).await.unwrap();
    let app = App::with_limits(
        store,
        Duration::from_millis(20),
        1,
        myrmidon_server::RateLimits::default(),
    );
    let (id, tokens, _) = create(
        &app,
        json!({"game": "ackenhead", "seats": ["human", "human"]}),
    )
    .await;
    let token = tokens[0].clone().unwrap();
    let addr = serve_on_loopback(&app).await;
    let url = format!("ws://{addr}/api/games/{id}/ws");
    type Socket = tokio_tungstenite::WebSocketStream<
        tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
    >;
    async fn open(url: &str) -> Socket {
        let (mut socket, _) = tokio_tungstenite::connect_async(url).await.unwrap();
        // The state comes first.
        let first = next_state(&mut socket).await.expect("the first state");
        assert!(first["version"].is_u64());
        socket
    }
    async fn next_state(socket: &mut Socket) -> Option<Value> {
        loop {
            match tokio::time::timeout(Duration::from_secs(5), socket.next()).await {
                Ok(Some(Ok(Message::Text(t)))) => return Some(serde_json::from_str(&t).unwrap()),
                Ok(Some(Ok(Message::Ping(_) | Message::Pong(_)))) => continue,
                Ok(_) => return None,
                Err(_) => panic!("no message within 5 s"),
            }
        }
    }
    async fn closed(socket: &mut Socket) -> bool {
        tokio::time::timeout(Duration::from_secs(5), async {
            loop {
                match socket.next().await {
                    None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return true,
                    Some(Ok(_)) => {}
                }
            }
        })
        .await
        .unwrap_or(false)
    }
    let mut player = open(&url).await;
    let mut garbage = open(&url).await;
    let mut big = open(&url).await;
    let mut huge = open(&url).await;
    let mut flood = open(&url).await;

    // Garbage is ignored: the socket stays open and gets the next state.
    for junk in ["not json", "{\"op\": \"move\", \"move\": \"e2e4\"}", "\u{0}\u{1}"] {
        garbage.send(Message::Text(junk.into())).await.unwrap();
    }
    garbage
        .send(Message::Binary(vec![0xff; 100].into()))
        .await
        .unwrap();
    // A message over 4 KiB closes its socket with a close frame: code 1009, message too big.
    big.send(Message::Text("x".repeat(5000).into()))
        .await
        .unwrap();
    match tokio::time::timeout(Duration::from_secs(5), big.next()).await {
        Ok(Some(Ok(Message::Close(Some(frame))))) => {
            assert_eq!(u16::from(frame.code), 1009, "{frame:?}");
            assert!(frame.reason.contains("4096 bytes"), "{frame:?}");
        }
        other => panic!("no close frame: {other:?}"),
    }
    assert!(closed(&mut big).await);
    // A frame of 1 MiB closes its socket (the server reads no more than its header, and sends
    // the same close frame, which the client may or may not read before the connection ends).
    let _ = huge
        .send(Message::Text("x".repeat(1 << 20).into()))
        .await;
    assert!(closed(&mut huge).await, "a huge frame left the socket open");
    // A thousand messages in a second close theirs.
    for _ in 0..1000 {
        if flood.send(Message::Text("{}".into())).await.is_err() {
            break;
        }
    }
    assert!(closed(&mut flood).await, "a flood left the socket open");

    // Nobody else noticed: a move reaches the player and the garbage sender alike.
    let state = get(&app, &format!("/api/games/{id}")).await.1;
    let mv = pick(state["legal"].as_array().unwrap(), 3);
    let (status, after) = play(&app, &id, &mv, &token).await;
    assert_eq!(status, StatusCode::OK, "{after}");
    for socket in [&mut player, &mut garbage] {
        let seen = next_state(socket).await.expect("the move's state");
        assert_eq!(seen["version"], after["version"]);
        assert_eq!(seen["moves"], json!([mv]));
    }
}

// ---- `POST /api/explore` with `moves`: a line played from a position (after any set-up
// edits) through the rules library, as the analysis board plays it; a bad move is refused with
// its number and changes nothing. And the game page, which carries what it draws first. ----

/// `POST /api/explore`, which must answer 200.
async fn explore(app: &Arc<App>, body: Value) -> Value {
    let (status, v) = post(app, "/api/explore", body.clone()).await;
    assert_eq!(status, StatusCode::OK, "{body}: {v}");
    v
}

/// `POST /api/explore`, which must refuse with 400; the error's text.
async fn refused(app: &Arc<App>, body: Value) -> String {
    let (status, v) = post(app, "/api/explore", body.clone()).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {v}");
    v["error"].as_str().expect("an error text").to_string()
}

fn texts(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap().to_string())
        .collect()
}

/// The game ids the server plays.
async fn game_ids(app: &Arc<App>) -> Vec<String> {
    let (status, games) = get(app, "/api/games").await;
    assert_eq!(status, StatusCode::OK);
    let ids: Vec<String> = games
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap().to_string())
        .collect();
    assert!(ids.len() >= 4, "the server plays the games: {ids:?}");
    ids
}

#[tokio::test]
async fn a_line_is_played_in_every_game() {
    let app = app().await;
    for id in game_ids(&app).await {
        // one move at a time, each from the position before: the reference
        let start = explore(&app, json!({"game": id})).await;
        assert_eq!(
            start["moves"],
            json!([]),
            "{id}: no moves asked, none played"
        );
        assert_eq!(start["history"], json!([]), "{id}");
        assert_eq!(start["start"], start["position"], "{id}");
        let mut step = start.clone();
        let mut line: Vec<String> = Vec::new();
        let mut players = Vec::new();
        for k in 0..4 {
            // the last legal move of the list (the first is often a pass or a quiet one)
            let legal = texts(&step["legal"]);
            let Some(mv) = legal.last().cloned() else {
                break;
            };
            players.push(step["to_move"].clone());
            let next = explore(
                &app,
                json!({"game": id, "position": step["position"], "moves": [mv]}),
            )
            .await;
            assert_eq!(next["moves"], json!([mv]), "{id}: move {}", k + 1);
            line.push(mv);
            step = next;
        }
        assert!(line.len() >= 2, "{id}: the line has moves: {line:?}");
        // the whole line at once, from the start
        let all = explore(&app, json!({"game": id, "moves": line})).await;
        assert_eq!(all["position"], step["position"], "{id}: {line:?}");
        assert_eq!(all["board"], step["board"], "{id}");
        assert_eq!(all["legal"], step["legal"], "{id}");
        assert_eq!(all["legal_cells"], step["legal_cells"], "{id}");
        assert_eq!(all["to_move"], step["to_move"], "{id}");
        assert_eq!(all["outcome"], step["outcome"], "{id}");
        assert_eq!(
            all["start"], start["position"],
            "{id}: start is the position set up"
        );
        assert_eq!(
            texts(&all["moves"]),
            line,
            "{id}: the canonical texts played"
        );
        // the history: who played each move, and its cells (as a game's state has them)
        let history = all["history"].as_array().unwrap();
        assert_eq!(history.len(), line.len(), "{id}");
        for (k, h) in history.iter().enumerate() {
            assert_eq!(h["text"], json!(line[k]), "{id}: move {}", k + 1);
            assert_eq!(h["player"], players[k], "{id}: move {}", k + 1);
            assert!(
                h.get("from").is_some() && h.get("to").is_some(),
                "{id}: {h}"
            );
            assert!(h["captures"].is_array(), "{id}: {h}");
        }
        // from a position string too, with the settings the string fixes
        let again = explore(
            &app,
            json!({"game": id, "position": start["position"], "moves": line}),
        )
        .await;
        assert_eq!(again["position"], all["position"], "{id}");
    }
}

#[tokio::test]
async fn the_same_line_as_a_game_played_through_the_api() {
    let app = app().await;
    for id in game_ids(&app).await {
        let players = explore(&app, json!({"game": id})).await["players"]
            .as_array()
            .unwrap()
            .len();
        let (status, created) = post(
            &app,
            "/api/games",
            json!({"game": id, "seats": vec!["human"; players]}),
        )
        .await;
        assert_eq!(status, StatusCode::CREATED, "{created}");
        let gid = created["id"].as_str().unwrap().to_string();
        let token = created["tokens"][0].as_str().unwrap().to_string();
        let mut state = created["state"].clone();
        for k in 0..5 {
            let legal = texts(&state["legal"]);
            if legal.is_empty() {
                break;
            }
            let mv = legal[(k * 7 + 3) % legal.len()].clone();
            let (status, next) = post(
                &app,
                &format!("/api/games/{gid}/moves"),
                json!({"move": mv, "token": token}),
            )
            .await;
            assert_eq!(status, StatusCode::OK, "{next}");
            state = next;
        }
        let line = explore(&app, json!({"game": id, "moves": state["moves"]})).await;
        for field in [
            "position",
            "board",
            "legal",
            "legal_cells",
            "to_move",
            "check",
            "outcome",
            "history",
        ] {
            assert_eq!(line[field], state[field], "{id}: {field}");
        }
    }
}

#[tokio::test]
async fn move_text_in_any_letter_case_comes_back_canonical() {
    let app = app().await;
    let v = explore(
        &app,
        json!({"game": "ackenhead", "moves": ["E2D3", " e7d6 "]}),
    )
    .await;
    assert_eq!(v["moves"], json!(["e2d3", "e7d6"]));
    assert_eq!(v["history"][1]["player"], json!(1));
    assert_eq!(v["to_move"], json!(0));
}

#[tokio::test]
async fn a_bad_move_is_refused_with_its_number() {
    let app = app().await;
    // illegal: the second move (Black has no piece on e2)
    let e = refused(
        &app,
        json!({"game": "ackenhead", "moves": ["e2d3", "e2d3", "e7d6"]}),
    )
    .await;
    assert!(e.starts_with("moves: move 2 \"e2d3\": "), "{e}");
    // malformed: the first
    let e = refused(&app, json!({"game": "ackenhead", "moves": ["zz9"]})).await;
    assert!(e.starts_with("moves: move 1 \"zz9\": "), "{e}");
    // the third, in another game
    let start = explore(&app, json!({"game": "reines"})).await;
    let first = texts(&start["legal"])[0].clone();
    let after = explore(&app, json!({"game": "reines", "moves": [first]})).await;
    let second = texts(&after["legal"])[0].clone();
    let e = refused(
        &app,
        json!({"game": "reines", "moves": [first, second, "a1-a1"]}),
    )
    .await;
    assert!(e.starts_with("moves: move 3 \"a1-a1\": "), "{e}");
    // not a list of texts: the body is refused
    let (status, v) = post(
        &app,
        "/api/explore",
        json!({"game": "ackenhead", "moves": "e2d3"}),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    // nothing is kept between requests: the good part of the line still plays
    let ok = explore(&app, json!({"game": "ackenhead", "moves": ["e2d3"]})).await;
    assert_eq!(ok["moves"], json!(["e2d3"]));
    assert_eq!(ok["to_move"], json!(1));
}

#[tokio::test]
async fn moves_are_played_after_the_set_up() {
    let app = app().await;
    // an emptied board (the Kings stay), a White pawn on d2 and a Black Mao on h6; Black to move
    let set_up = json!({
        "game": "ackenhead", "clear": true,
        "put": [{"cell": "d2", "piece": {"owner": 0, "kind": "P"}},
                {"cell": "h6", "piece": {"owner": 1, "kind": "M"}}],
        "to_move": 1,
    });
    let before = explore(&app, set_up.clone()).await;
    assert_eq!(before["to_move"], json!(1));
    let mut body = set_up.clone();
    body["moves"] = json!(["h6g4", "d2c3"]);
    let v = explore(&app, body).await;
    assert_eq!(v["start"], before["position"], "start: the position set up");
    assert_eq!(v["moves"], json!(["h6g4", "d2c3"]));
    let cell = |name: &str| {
        let file = (name.as_bytes()[0] - b'a') as usize;
        let rank = (name.as_bytes()[1] - b'1') as usize;
        rank * 8 + file
    };
    assert_eq!(v["board"][cell("d2")], Value::Null);
    assert_eq!(v["board"][cell("c3")], json!({"owner": 0, "kind": "P"}));
    assert_eq!(v["board"][cell("h6")], Value::Null);
    assert_eq!(v["board"][cell("g4")], json!({"owner": 1, "kind": "M"}));
    assert_eq!(v["to_move"], json!(1));
    // the same line from the set-up's position string
    let same = explore(
        &app,
        json!({"game": "ackenhead", "position": before["position"], "moves": ["h6g4", "d2c3"]}),
    )
    .await;
    assert_eq!(same["position"], v["position"]);
    // a move the set-up's side to move cannot make: White's pawn while Black is to move
    let mut body = set_up.clone();
    body["moves"] = json!(["d2c3"]);
    let e = refused(&app, body).await;
    assert!(e.starts_with("moves: move 1 \"d2c3\": "), "{e}");
}

#[tokio::test]
async fn a_line_that_ends_the_game_has_its_outcome() {
    let app = app().await;
    // the Kings step out and back: the position after 2 plies comes a third time after 10
    let line = [
        "e2d3", "e7d6", "e1e2", "e8e7", "e2e1", "e7e8", "e1e2", "e8e7", "e2e1", "e7e8",
    ];
    let v = explore(&app, json!({"game": "ackenhead", "moves": line})).await;
    assert_eq!(texts(&v["moves"]), line);
    assert!(v["outcome"].is_object(), "{}", v["outcome"]);
    assert_eq!(v["outcome"]["winner"], Value::Null, "a draw");
    assert_eq!(v["to_move"], Value::Null);
    assert_eq!(v["legal"], json!([]));
    // nine plies: not yet
    let nine = explore(&app, json!({"game": "ackenhead", "moves": line[..9]})).await;
    assert_eq!(nine["outcome"], Value::Null);
    // and no move after the end
    let mut more = line.to_vec();
    more.push("e1e2");
    let e = refused(&app, json!({"game": "ackenhead", "moves": more})).await;
    assert!(e.starts_with("moves: move 11 \"e1e2\": "), "{e}");
}

/// `GET` a page: its status and text.
async fn page(app: &Arc<App>, path: &str) -> (StatusCode, String) {
    let request = Request::builder()
        .method("GET")
        .uri(path)
        .body(Body::empty())
        .unwrap();
    let response = router(app.clone()).oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (status, String::from_utf8(bytes.to_vec()).unwrap())
}

/// The JSON of the page's `<script id="boot" type="application/json">`.
fn boot_of(html: &str) -> Value {
    let open = "<script id=\"boot\" type=\"application/json\">";
    let start = html.find(open).expect("the page has its boot data") + open.len();
    let end = start + html[start..].find("</script>").unwrap();
    let text = &html[start..end];
    assert!(!text.contains('<'), "no < inside the script element");
    serde_json::from_str(text).unwrap()
}

#[tokio::test]
async fn the_game_page_carries_the_games_and_the_state() {
    let app = app().await;
    let (status, created) = post(
        &app,
        "/api/games",
        json!({"game": "ackenhead", "seats": ["human", "human"]}),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED);
    let id = created["id"].as_str().unwrap();
    let token = created["tokens"][0].as_str().unwrap();
    let (status, state) = post(
        &app,
        &format!("/api/games/{id}/moves"),
        json!({"move": "e2d3", "token": token}),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (status, html) = page(&app, &format!("/game/{id}")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        html.contains("<script type=\"module\" src=\"/bundle/game.js\">"),
        "the game page, its scripts as one bundle"
    );
    let boot = boot_of(&html);
    assert!(html.find("<script id=\"boot\"").unwrap() < html.rfind("</body>").unwrap());
    let (_, games) = get(&app, "/api/games").await;
    // As GET /api/games has them, with the pieces' drawings of this page's game only.
    let mut own = games.clone();
    for g in own.as_array_mut().unwrap() {
        if g["id"] != "ackenhead" {
            g.as_object_mut().unwrap().remove("drawings");
        }
    }
    assert_eq!(boot["games"], own, "the games as GET /api/games has them");
    let (_, now) = get(&app, &format!("/api/games/{id}")).await;
    assert_eq!(
        boot["state"], now,
        "the state as GET /api/games/{{id}} has it"
    );
    assert_eq!(boot["state"]["moves"], state["moves"]);
    // an unknown game: the page, the games, no state (the page asks, and says what is wrong)
    let (status, html) = page(&app, "/game/nosuchgame").await;
    assert_eq!(status, StatusCode::OK);
    let boot = boot_of(&html);
    assert_eq!(boot["games"], games);
    assert!(boot.get("state").is_none(), "{boot}");
}

#[tokio::test]
async fn states_say_the_start_positions_move_number() {
    let app = app().await;
    let fen = "4k3/8/8/8/8/8/8/4K2L w - - 0 25";
    let (_, _, state) = create(
        &app,
        json!({"game": "ackenhead", "seats": ["human", "human"], "position": fen}),
    )
    .await;
    assert_eq!(state["first_move_number"], 25, "{state}");
    let (_, _, state) = create(&app, json!({"game": "epaminondas", "seats": ["human", "human"]})).await;
    assert_eq!(state["first_move_number"], 1);
    let answer = explore(&app, json!({"game": "ackenhead", "position": fen, "moves": ["h1h2"]})).await;
    assert_eq!(answer["first_move_number"], 25, "{answer}");
}

// ---- The engine pool: every search (the computer's moves, its draw decisions, the analysis
// board) takes a slot of one bounded pool; work beyond its queue is refused. ----

/// `GET /api/games/{id}/record`: the text.
async fn record_text(app: &Arc<App>, id: &str) -> String {
    let request = Request::builder()
        .uri(format!("/api/games/{id}/record"))
        .body(Body::empty())
        .unwrap();
    let response = router(app.clone()).oneshot(request).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// Waits (with a deadline, polling) until `what` holds.
async fn until(what: &str, mut f: impl FnMut() -> bool) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    while !f() {
        assert!(tokio::time::Instant::now() < deadline, "not within 30 s: {what}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

#[tokio::test]
async fn every_search_takes_a_slot_of_one_bounded_pool() {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    type Socket = tokio_tungstenite::WebSocketStream<
        tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
    >;
    async fn analyse(addr: std::net::SocketAddr, id: u64) -> Socket {
        let url = format!("ws://{addr}/api/analysis");
        let (mut ws, _) = tokio_tungstenite::connect_async(url).await.unwrap();
        let request = json!({"op": "analyse", "id": id, "game": "epaminondas", "movetime": 120_000});
        ws.send(Message::Text(request.to_string().into()))
            .await
            .unwrap();
        ws
    }
    async fn next(ws: &mut Socket) -> Value {
        loop {
            let msg = tokio::time::timeout(Duration::from_secs(20), ws.next())
                .await
                .expect("an answer in time")
                .expect("the socket open")
                .unwrap();
            if let Message::Text(t) = msg {
                return serde_json::from_str(t.as_str()).unwrap();
            }
        }
    }

    // Two slots (app()): an analysis may hold one, never both.
    let app = app().await;
    let slots = app.engines.limits().engines;
    assert_eq!(slots, 2);
    let addr = serve_on_loopback(&app).await;
    let mut first = analyse(addr, 1).await;
    assert_eq!(next(&mut first).await["type"], "info");
    let second = analyse(addr, 2).await;
    until("the second analysis waiting", || app.engines.waiting() == (0, 1)).await;
    assert_eq!(app.engines.running(), 1);

    // The computer still moves in a game meanwhile, on the slot kept for the games.
    let (game, tokens, state) = create(
        &app,
        json!({"game": "ackenhead", "seats": ["human", "computer:1"]}),
    )
    .await;
    let token = tokens[0].clone().unwrap();
    let mv = pick(state["legal"].as_array().unwrap(), 1);
    assert_eq!(play(&app, &game, &mv, &token).await.0, StatusCode::OK);
    let state = settled(&app, &game).await;
    assert_eq!(state["moves"].as_array().unwrap().len(), 2, "{state}");

    // Games past the plies where the computer searches before it answers a draw offer.
    let (base, tokens, mut state) = create(
        &app,
        json!({"game": "ackenhead", "seats": ["human", "human"]}),
    )
    .await;
    let t = tokens[0].clone().unwrap();
    for n in 0..24 {
        let mv = pick(state["legal"].as_array().unwrap(), n);
        let (status, s) = play(&app, &base, &mv, &t).await;
        assert!(status == StatusCode::OK && s["outcome"].is_null(), "{s}");
        state = s;
    }
    let text = record_text(&app, &base).await;
    let mut games = Vec::new();
    for _ in 0..101 {
        let (id, tokens, state) = create(
            &app,
            json!({"record": text, "seats": ["human", "computer:8"]}),
        )
        .await;
        assert_eq!(state["moves"].as_array().unwrap().len(), 24);
        assert_eq!(state["to_move"], 0);
        games.push((id, tokens[0].clone().unwrap()));
    }

    let (last, last_token) = games.pop().unwrap();

    // A hundred draw offers at once, and a person's move against the computer among them.
    let mut offers = tokio::task::JoinSet::new();
    for (id, token) in games {
        let app = app.clone();
        offers.spawn(async move {
            let path = format!("/api/games/{id}/draw");
            post(&app, &path, json!({"seat": 0, "token": token, "action": "offer"})).await
        });
    }
    let state = get(&app, &format!("/api/games/{game}")).await.1;
    let mv = pick(state["legal"].as_array().unwrap(), 2);
    let (status, moved) = play(&app, &game, &mv, &token).await;
    assert_eq!(status, StatusCode::OK, "{moved}");
    let (mut decided, mut refused) = (0, 0);
    while let Some(answer) = offers.join_next().await {
        let (status, v) = answer.expect("no panic");
        match status {
            StatusCode::OK => {
                assert!(v["draw_declined"] == 1 || v["outcome"]["reason"] == "agreement", "{v}");
                decided += 1;
            }
            StatusCode::SERVICE_UNAVAILABLE => {
                let e = v["error"].as_str().unwrap();
                assert!(e.contains("the engines are busy"), "{e}");
                refused += 1;
            }
            other => panic!("a draw offer answered {other}: {v}"),
        }
    }
    // The analyses held one slot: one draw decision ran at once, the queue took a few more,
    // and the rest were refused at once.
    assert!(decided >= 1 && refused >= 1, "{decided} decided, {refused} refused");
    assert_eq!(decided + refused, 100);
    // The computer's move was never refused: it waited for its turn in the pool.
    let state = settled(&app, &game).await;
    assert_eq!(state["moves"].as_array().unwrap().len(), 4, "{state}");
    // Never more searches at once than slots.
    assert_eq!(app.engines.most_running(), slots);

    // Sockets closed: their analyses stop, the waiting one leaves the queue.
    drop(first);
    drop(second);
    until("the pool idle", || {
        app.engines.running() == 0 && app.engines.waiting() == (0, 0)
    })
    .await;
    // And an offer is considered again.
    let (status, v) = post(
        &app,
        &format!("/api/games/{last}/draw"),
        json!({"seat": 0, "token": last_token, "action": "offer"}),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert!(v["draw_declined"] == 1 || v["outcome"]["reason"] == "agreement", "{v}");
    assert_eq!(app.engines.most_running(), slots);

    // With one engine, it is for the games: the analysis board says so.
    let store = Store::open(&fresh_db()).await.unwrap();
    let lone = App::new(store, Duration::from_millis(20), 1);
    let addr = serve_on_loopback(&lone).await;
    let mut ws = analyse(addr, 3).await;
    let v = next(&mut ws).await;
    assert_eq!((v["type"].as_str(), v["id"].as_u64()), (Some("error"), Some(3)), "{v}");
    assert!(v["error"].as_str().unwrap().contains("--engines 1"), "{v}");
}

#[tokio::test]
async fn a_computer_seat_has_one_spelling() {
    let app = app().await;
    // Only a plain digit from 1 to 8: what is stored and shown is what every client reads.
    for seat in [
        "computer:+5",
        "computer:05",
        "computer: 5",
        "computer:5 ",
        "computer:٥",
        "computer:0",
        "computer:9",
        "computer:",
    ] {
        let (status, v) = post(
            &app,
            "/api/games",
            json!({"game": "ackenhead", "seats": ["human", seat]}),
        )
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{seat:?}: {v}");
        let e = v["error"].as_str().unwrap();
        assert!(
            e.contains("the computer's level must be one digit from 1 to 8"),
            "{seat:?}: {e}"
        );
    }
    // A record's import reads its seats the same way.
    let (id, tokens, _) = create(
        &app,
        json!({"game": "ackenhead", "seats": ["human", "human"]}),
    )
    .await;
    play(&app, &id, "e2d3", tokens[0].as_deref().unwrap()).await;
    let text = record_text(&app, &id).await;
    let (status, v) = post(
        &app,
        "/api/games",
        json!({"record": text, "seats": ["human", "computer:+5"]}),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    // The plain spelling is stored as written.
    let (id, _, state) = create(
        &app,
        json!({"game": "ackenhead", "seats": ["computer:5", "human"]}),
    )
    .await;
    assert_eq!(state["seats"], json!(["computer:5", "human"]));
    let (_, state) = get(&app, &format!("/api/games/{id}")).await;
    assert_eq!(state["seats"], json!(["computer:5", "human"]));
}

/// A game of Jeu de Reines between two people on one screen: `plies` moves, the same ones every
/// time, then the first player's resignation if `resign`: its id, last state and record. No
/// computer plays in it: a computer's reply depends on how far it searched in its time, so on
/// the machine's load, and once ended the game early (a queen captured), which changed the
/// record (its Result and Termination tags) under the tests that import it.
async fn a_record_played(app: &Arc<App>, plies: usize, resign: bool) -> (String, Value, String) {
    let seats = json!(["human", "human"]);
    let (id, tokens, mut state) = create(app, json!({"game": "reines", "seats": seats})).await;
    let token = tokens[0].clone().unwrap();
    for n in 0..plies {
        let mv = pick(state["legal"].as_array().unwrap(), n);
        let (status, v) = play(app, &id, &mv, &token).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        state = get(app, &format!("/api/games/{id}")).await.1;
    }
    assert_eq!(state["outcome"], Value::Null, "unfinished after its moves: {state}");
    if resign {
        let path = format!("/api/games/{id}/resign");
        let (status, v) = post(app, &path, json!({"seat": 0, "token": token})).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        state = get(app, &format!("/api/games/{id}")).await.1;
    }
    let record = record_text(app, &id).await;
    (id, state, record)
}

/// A finished game a browser played while the server was away, sent with its key while the
/// database refuses new games, then while it refuses their moves (the game's row taken, its
/// steps refused): answered 503 each time, with a message, and nothing kept; the page keeps the
/// game and sends it again (web/local-game.js), and once the database takes writes the same
/// request makes the game, whole, and a new server on the database answers with it again.
#[tokio::test]
async fn an_import_the_database_refuses_is_made_once_when_sent_again() {
    let (db, _keep) = lasting_db();
    let app = app_on(&db).await;
    let seats = json!(["human", "computer:1"]);
    let (_, state, record) = a_record_played(&app, 2, true).await;
    assert!(state["outcome"].is_object(), "{state}");
    let body = json!({"record": record, "seats": seats, "key": "r".repeat(32)});
    for table in ["games", "steps"] {
        refuse_inserts(&db, table, true).await;
        for _ in 0..2 {
            let (status, v) = post(&app, "/api/games", body.clone()).await;
            assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{table}: {v}");
            assert!(!v["error"].as_str().unwrap().is_empty(), "{v}");
        }
        refuse_inserts(&db, table, false).await;
    }
    // Made now (201: no refused try kept anything under the key), with every move and the end.
    let (status, made) = post(&app, "/api/games", body.clone()).await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    let saved = made["id"].as_str().unwrap().to_string();
    let (_, copy) = get(&app, &format!("/api/games/{saved}")).await;
    assert_eq!(copy["moves"], state["moves"]);
    assert_eq!(copy["outcome"], state["outcome"]);
    // Sent again (another tab, a page that missed the answer), here or by a new server: the
    // same game.
    let (status, again) = post(&app, "/api/games", body.clone()).await;
    assert_eq!((status, &again["id"]), (StatusCode::OK, &made["id"]), "{again}");
    drop(app);
    let next = app_on(&db).await;
    let (status, again) = post(&next, "/api/games", body).await;
    assert_eq!((status, &again["id"]), (StatusCode::OK, &made["id"]), "{again}");
}

/// The answers to one record sent twice at once with its key: one made the game (201), the
/// other is answered with it (200), with the same tokens; both with the record's `moves`.
fn one_game_answered(a: &(StatusCode, Value), b: &(StatusCode, Value), moves: &Value) {
    let mut statuses = [a.0, b.0];
    statuses.sort();
    let both = format!("{} {}", a.1, b.1);
    assert_eq!(statuses, [StatusCode::OK, StatusCode::CREATED], "{both}");
    assert_eq!(a.1["id"], b.1["id"], "one game: {both}");
    assert_eq!(a.1["tokens"], b.1["tokens"], "the same tokens: {both}");
    for answer in [&a.1, &b.1] {
        assert_eq!(&answer["state"]["moves"], moves, "{answer}");
    }
}

#[tokio::test]
async fn a_record_sent_twice_with_its_key_is_one_game() {
    let (db, _keep) = lasting_db();
    let app = app_on(&db).await;
    let seats = json!(["human", "computer:1"]);
    // Four plies: the first seat, a person's, is to move in the game saved.
    let (id, state, record) = a_record_played(&app, 4, false).await;
    let key = "k".repeat(24) + "0123456789abcdef";
    let body = json!({"record": record, "seats": seats, "key": key});
    // Two tabs send it at once: both are answered with the same game, stored once.
    let (a, b) = tokio::join!(
        post(&app, "/api/games", body.clone()),
        post(&app, "/api/games", body.clone())
    );
    one_game_answered(&a, &b, &state["moves"]);
    let saved = a.1["id"].as_str().unwrap().to_string();
    assert_ne!(saved, id);
    // A server started again on the database answers the same.
    drop(app);
    let again = app_on(&db).await;
    let (status, c) = post(&again, "/api/games", body.clone()).await;
    assert_eq!(status, StatusCode::OK, "{c}");
    assert_eq!(c["id"], saved.as_str());
    assert_eq!(c["tokens"], a.1["tokens"]);
    // Without a key, or with another, a record is a new game each time.
    let (plain, _, _) = create(&again, json!({"record": record, "seats": seats})).await;
    assert_ne!(plain, saved);
    let other = json!({"record": record, "seats": seats, "key": "x".repeat(40)});
    let (other_id, _, _) = create(&again, other).await;
    assert_ne!(other_id, saved);
    // The key sent with another game (here: the same one before its moves), a key too short,
    // or of other characters: refused, said.
    let header: Vec<&str> = record
        .lines()
        .take_while(|l| !l.is_empty())
        .filter(|l| !l.starts_with("[PlyCount ") && !l.starts_with("[Result "))
        .collect();
    let empty = format!("{}\n[Result \"*\"]\n\n*\n", header.join("\n"));
    let refused = [
        (empty, key.clone(), StatusCode::CONFLICT, "key: another game"),
        (record.clone(), "short".into(), StatusCode::BAD_REQUEST, "key: 32"),
        (record.clone(), format!("é{}", "a".repeat(40)), StatusCode::BAD_REQUEST, "key: 32"),
    ];
    for (text, bad, want, said) in refused {
        let body = json!({"record": text, "seats": seats, "key": bad});
        let (status, v) = post(&again, "/api/games", body).await;
        assert_eq!(status, want, "{bad}: {v}");
        assert!(v["error"].as_str().unwrap().starts_with(said), "{v}");
    }
    // The tokens given twice hold the seat of the game saved.
    let (_, now) = get(&again, &format!("/api/games/{saved}")).await;
    let mv = pick(now["legal"].as_array().unwrap(), 0);
    let seat_token = c["tokens"][0].as_str().unwrap();
    let (status, v) = play(&again, &saved, &mv, seat_token).await;
    assert_eq!(status, StatusCode::OK, "{v}");
}

#[tokio::test]
async fn nul_bytes_anywhere_in_a_request_get_a_clear_4xx_and_change_nothing() {
    // PostgreSQL stores no NUL in text: every field that could reach the database is refused
    // before it does, on both databases alike.
    let app = app().await;
    let (id, tokens, _) = create(&app, json!({"game": "reines", "seats": ["human", "human"]})).await;
    let token = tokens[0].clone().unwrap();
    let moves_before = get(&app, &format!("/api/games/{id}")).await.1["moves"].clone();
    let (_, _, recorded) = a_record_played(&app, 2, false).await;
    let nul = "\u{0}";
    let posts: Vec<(String, Value)> = vec![
        ("/api/games".into(), json!({"game": format!("rei{nul}nes"), "seats": ["human", "human"]})),
        ("/api/games".into(), json!({"game": "reines", "seats": [format!("hu{nul}man"), "human"]})),
        ("/api/games".into(), json!({"game": "reines", "seats": ["human", "human"], "settings": {"region": format!("neu{nul}tral")}})),
        ("/api/games".into(), json!({"game": "reines", "seats": ["human", "human"], "settings": {format!("reg{nul}ion"): "neutral"}})),
        ("/api/games".into(), json!({"record": format!("{recorded}{nul}"), "seats": ["human", "human"]})),
        ("/api/games".into(), json!({"record": recorded, "seats": ["human", "human"], "key": format!("{}{nul}", "k".repeat(40))})),
        ("/api/games".into(), json!({"game": "reines", "position": format!("5s1q/4w1c1/5w1s/6w1/1W6/S1W5/1C1W4/Q1S5 w d2c3b4g5f6e7 -/- 0 1{nul}"), "seats": ["human", "human"]})),
        (format!("/api/games/{id}/moves"), json!({"move": format!("b4-b5{nul}"), "token": token})),
        (format!("/api/games/{id}/moves"), json!({"move": "b4-b5", "token": format!("{token}{nul}")})),
        (format!("/api/games/{id}/resign"), json!({"seat": 0, "token": format!("{nul}{token}")})),
        (format!("/api/games/{id}/join"), json!({"seat": 1, "name": format!("a{nul}b")})),
        (format!("/api/games/{id}/draw"), json!({"seat": 0, "token": format!("{token}{nul}")})),
        (format!("/api/games/{id}/takeback"), json!({"seat": 0, "token": format!("{nul}")})),
        (format!("/api/games/{id}/claim-left"), json!({"seat": 0, "token": format!("{nul}"), "result": "win"})),
        ("/api/explore".into(), json!({"game": "reines", "position": format!("{nul}")})),
        ("/api/seeks".into(), json!({"game": "reines", "settings": {"region": format!("cult{nul}ist")}})),
        ("/api/seeks".into(), json!({"game": format!("reines{nul}")})),
        ("/api/seeks".into(), json!({"game": "reines", "to": format!("al{nul}ice")})),
    ];
    for (path, body) in posts {
        let (status, v) = post(&app, &path, body.clone()).await;
        assert!(status.is_client_error(), "{path} {body}: {status} {v}");
        assert!(v["error"].is_string() && v["key"].is_string(), "{path} {body}: {v}");
    }
    for path in [
        format!("/api/games/{id}%00"),
        format!("/api/games/%00{id}"),
        format!("/api/games/{id}?at=%00"),
        format!("/api/games/{id}/record%00"),
        "/api/seeks/%00".to_string(),
        "/api/rules/reines%00".to_string(),
    ] {
        let (status, v) = get(&app, &path).await;
        assert!(status.is_client_error(), "{path}: {status} {v}");
    }
    // A record whose tag the server does not keep may carry one: the game is made from its
    // moves, and the NUL goes nowhere.
    let tagged = recorded.replacen("[Game ", &format!("[Annotator \"a{nul}b\"]\n[Game "), 1);
    let (made, _, _) = create(&app, json!({"record": tagged, "seats": ["human", "human"]})).await;
    let text = record_text(&app, &made).await;
    assert!(text.contains("[Game \"reines\"]") && !text.contains(nul), "{text:?}");
    // The same without the NUL: taken (the NUL is what was refused).
    for body in [
        json!({"record": recorded, "seats": ["human", "human"], "key": "k".repeat(40)}),
        json!({"game": "reines", "position": "5s1q/4w1c1/5w1s/6w1/1W6/S1W5/1C1W4/Q1S5 w d2c3b4g5f6e7 -/- 0 1", "seats": ["human", "human"]}),
    ] {
        let (status, v) = post(&app, "/api/games", body.clone()).await;
        assert_eq!(status, StatusCode::CREATED, "{body}: {v}");
    }
    // The game is as it was, and the server still answers.
    let (status, after) = get(&app, &format!("/api/games/{id}")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(after["moves"], moves_before);
    let (status, _) = play(&app, &id, "b4-b5", &token).await;
    assert_eq!(status, StatusCode::OK);
}
