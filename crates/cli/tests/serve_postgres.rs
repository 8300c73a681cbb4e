//! `myrmidon serve` on PostgreSQL, as several processes behind a load balancer would run it:
//! a temporary PostgreSQL server (../../server/tests/common/pg.rs), the built binary started
//! twice on one database. A game whose two players are connected to two processes; moves for
//! one game racing through two processes; a server killed with `kill -9` mid-game, and while
//! a seek is accepted; the database restarted under running servers.

#[path = "../../server/tests/common/pg.rs"]
mod pg;
#[path = "common/server.rs"]
mod server;

use std::net::TcpStream;
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use server::Server;
use tungstenite::{Message, WebSocket};

/// A game's WebSocket, as a browser opens it.
struct Watch {
    socket: WebSocket<TcpStream>,
    last: Value,
}

impl Watch {
    fn open(server: &Server, id: &str) -> Watch {
        let stream = TcpStream::connect(&server.addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(15)))
            .unwrap();
        let url = format!("ws://{}/api/games/{id}/ws", server.addr);
        let (socket, _) = tungstenite::client(url.as_str(), stream).expect("the socket opens");
        let mut watch = Watch {
            socket,
            last: Value::Null,
        };
        watch.next();
        watch
    }

    /// The next state sent.
    fn next(&mut self) -> &Value {
        loop {
            let message = match self.socket.read() {
                // A signal (a killed server process's SIGCHLD) interrupts the read: read again.
                Err(tungstenite::Error::Io(e)) if e.kind() == std::io::ErrorKind::Interrupted => {
                    continue
                }
                read => read.expect("a state within 15 s"),
            };
            match message {
                Message::Text(text) => {
                    self.last = serde_json::from_str(text.as_str()).unwrap();
                    return &self.last;
                }
                Message::Ping(_) | Message::Pong(_) => continue,
                other => panic!("unexpected message {other:?}"),
            }
        }
    }

    /// Reads states until one satisfies `done` (or 15 s pass without a message: a panic).
    fn until(&mut self, what: &str, done: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + Duration::from_secs(20);
        while !done(&self.last) {
            assert!(
                Instant::now() < deadline,
                "{what}: not seen; last {}",
                self.last
            );
            self.next();
        }
        self.last.clone()
    }
}

fn create(server: &Server, body: Value) -> (String, Vec<Value>, Value) {
    let (status, created) = server.request("POST", "/api/games", Some(&body));
    assert_eq!(status, 201, "{created}");
    (
        created["id"].as_str().unwrap().to_string(),
        created["tokens"].as_array().unwrap().clone(),
        created["state"].clone(),
    )
}

fn play(server: &Server, id: &str, mv: &str, token: &Value) -> (u16, Value) {
    server.request(
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(&json!({"move": mv, "token": token})),
    )
}

/// The state of a game once the server has at least `version` (another process's changes
/// reach it a moment later).
fn state_at(server: &Server, id: &str, version: usize) -> Value {
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let s = state(server, id);
        if s["version"].as_u64().unwrap() as usize >= version {
            return s;
        }
        assert!(
            Instant::now() < deadline,
            "version {version} not reached: {s}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn state(server: &Server, id: &str) -> Value {
    let (status, state) = server.request("GET", &format!("/api/games/{id}"), None);
    assert_eq!(status, 200, "{state}");
    state
}

#[test]
fn players_on_two_processes_see_each_other_at_once() {
    let db = pg::shared().database();
    let a = Server::start(&db);
    let b = Server::start(&db);
    let (id, tokens, first) = create(
        &a,
        json!({"game": "ackenhead", "seats": ["online", "online"]}),
    );
    // White is connected to process A, Black to process B, a spectator to B.
    let mut white = Watch::open(&a, &id);
    let mut black = Watch::open(&b, &id);
    let mut spectator = Watch::open(&b, &id);
    assert_eq!(black.last["version"], first["version"]);

    let mut expected = Vec::new();
    for ply in 0..6 {
        let (server, token) = if ply % 2 == 0 {
            (&a, &tokens[0])
        } else {
            (&b, &tokens[1])
        };
        let now = state(server, &id);
        let legal = now["legal"].as_array().unwrap();
        let mv = legal[(ply * 7 + 2) % legal.len()].as_str().unwrap();
        let started = Instant::now();
        let (status, after) = play(server, &id, mv, token);
        assert_eq!(status, 200, "ply {ply}, {mv}: {after}");
        expected = after["moves"].as_array().unwrap().clone();
        let version = after["version"].clone();
        for (who, watch) in [
            ("white", &mut white),
            ("black", &mut black),
            ("spectator", &mut spectator),
        ] {
            let seen = watch.until(&format!("{who}: ply {ply}"), |s| s["version"] == version);
            assert_eq!(seen["moves"].as_array().unwrap(), &expected, "{who}");
        }
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "ply {ply}: {:?} until everyone had it",
            started.elapsed()
        );
    }
    // Both processes give the same state.
    let (sa, sb) = (state(&a, &id), state(&b, &id));
    assert_eq!(sa["moves"], sb["moves"]);
    assert_eq!(sa["version"], sb["version"]);
    assert_eq!(sa["moves"].as_array().unwrap(), &expected);

    // A draw offer made through B reaches White on A, and is declined there.
    let (status, offered) = b.request(
        "POST",
        &format!("/api/games/{id}/draw"),
        Some(&json!({"token": tokens[1], "seat": 1, "action": "offer"})),
    );
    assert_eq!(status, 200, "{offered}");
    let offered_version = offered["version"].clone();
    white.until("the offer", |s| s["version"] == offered_version);
    assert_eq!(white.last["draw_offer"], 1);
    let (status, declined) = a.request(
        "POST",
        &format!("/api/games/{id}/draw"),
        Some(&json!({"token": tokens[0], "seat": 0, "action": "decline"})),
    );
    assert_eq!(status, 200, "{declined}");
    let declined_version = declined["version"].clone();
    black.until("the decline", |s| s["version"] == declined_version);
    assert!(black.last["draw_offer"].is_null());

    // Black resigns through B: everyone sees the end.
    let (status, over) = b.request(
        "POST",
        &format!("/api/games/{id}/resign"),
        Some(&json!({"token": tokens[1], "seat": 1})),
    );
    assert_eq!(status, 200, "{over}");
    for watch in [&mut white, &mut spectator] {
        let end = watch.until("the resignation", |s| !s["outcome"].is_null());
        assert_eq!(end["outcome"]["winner"], 0);
    }
    // A rematch offered on A is seen on B, accepted there, and the new game is seen on A.
    let (status, offer) = a.request(
        "POST",
        &format!("/api/games/{id}/rematch"),
        Some(&json!({"token": tokens[0]})),
    );
    assert_eq!(status, 200, "{offer}");
    let seen = black.until("the rematch offer", |s| s["rematch_offers"] == json!([0]));
    assert!(seen["rematch"].is_null());
    let (status, rematch) = b.request(
        "POST",
        &format!("/api/games/{id}/rematch"),
        Some(&json!({"token": tokens[1], "action": "accept"})),
    );
    assert_eq!(status, 201, "{rematch}");
    let seen = white.until("the rematch", |s| !s["rematch"].is_null());
    assert_eq!(seen["rematch"], rematch["id"]);
    // The same two players, colours swapped: Black's token moves White's pieces now.
    let new_id = rematch["id"].as_str().unwrap();
    let first = state(&a, new_id);
    assert_eq!(first["seats"], json!(["online", "online"]));
    let mv = first["legal"][0].as_str().unwrap();
    assert_eq!(play(&a, new_id, mv, &tokens[0]).0, 403);
    assert_eq!(play(&a, new_id, mv, &tokens[1]).0, 200);
}

#[test]
fn a_deleted_accounts_name_leaves_the_games_every_process_holds() {
    let db = pg::shared().database();
    let a = Server::start_with(&db, &["--no-rate-limits"]);
    let b = Server::start_with(&db, &["--no-rate-limits"]);
    let alice = a.sign_up("alice");
    let bob = a.sign_up("bob");
    let body = json!({"game": "reines", "seats": ["online", "open"], "rated": true,
                      "clock": {"minutes": 5, "increment": 3}});
    let (status, made) = a.request_as(&alice, "POST", "/api/games", Some(&body));
    assert_eq!(status, 201, "{made}");
    let id = made["id"].as_str().unwrap().to_string();
    let token = made["tokens"][0].clone();
    let (status, joined) = a.request_as(
        &bob,
        "POST",
        &format!("/api/games/{id}/join"),
        Some(&json!({"seat": 1})),
    );
    assert_eq!(status, 200, "{joined}");
    let (status, over) = a.request(
        "POST",
        &format!("/api/games/{id}/resign"),
        Some(&json!({"token": token, "seat": 0})),
    );
    assert_eq!(status, 200, "{over}");
    assert_eq!(over["rating_change"]["seats"][0]["name"], "alice", "{over}");
    // Process B holds the ended game in memory, and a spectator watches it there.
    let mut watch = Watch::open(&b, &id);
    watch.until("the end on B", |s| !s["rating_change"].is_null());
    assert_eq!(watch.last["accounts"], json!(["alice", "bob"]));
    // Alice deletes her account through A.
    let (status, answer) = a.request_as(
        &alice,
        "POST",
        "/api/account/delete",
        Some(&json!({"password": "the password"})),
    );
    assert_eq!(status, 200, "{answer}");
    let nameless = |s: &Value| {
        s["accounts"] == json!([null, "bob"])
            && s["rating_change"]["seats"][0]["name"].is_null()
            && s["rating_change"]["seats"][1]["name"] == "bob"
    };
    // A at once; the spectator on B is sent the game without her name, and B answers so.
    let here = state(&a, &id);
    assert!(nameless(&here), "{here}");
    watch.until("the name gone on B", nameless);
    let there = state(&b, &id);
    assert!(nameless(&there), "{there}");
    assert_eq!(there["version"], here["version"]);
    assert!(!there.to_string().contains("alice"), "{there}");
}

#[test]
fn moves_racing_through_two_processes_are_stored_once() {
    let db = pg::shared().database();
    let a = Arc::new(Server::start_with(&db, &["--no-rate-limits"]));
    let b = Arc::new(Server::start_with(&db, &["--no-rate-limits"]));
    // One screen: one token holds both seats, so both processes may be asked for either.
    let (id, tokens, _) = create(&a, json!({"game": "reines", "seats": ["human", "human"]}));
    let token = tokens[0].clone();
    let mut accepted = Vec::new();
    let mut refused = 0;
    for round in 0..16 {
        // Both processes have every accepted move before the next race (the moves are read
        // from one of them).
        let now = state_at(&a, &id, accepted.len());
        state_at(&b, &id, accepted.len());
        if !now["outcome"].is_null() {
            break;
        }
        let legal = now["legal"].as_array().unwrap();
        // The same move sent through both processes at once, or two different ones.
        let moves = [
            legal[round % legal.len()].as_str().unwrap().to_string(),
            legal[(round * 3 + 1) % legal.len()]
                .as_str()
                .unwrap()
                .to_string(),
        ];
        let barrier = Arc::new(Barrier::new(2));
        let racers: Vec<_> = [a.clone(), b.clone()]
            .into_iter()
            .zip(moves)
            .map(|(server, mv)| {
                let (barrier, id, token) = (barrier.clone(), id.clone(), token.clone());
                std::thread::spawn(move || {
                    barrier.wait();
                    play(&server, &id, &mv, &token)
                })
            })
            .collect();
        let results: Vec<(u16, Value)> = racers.into_iter().map(|r| r.join().unwrap()).collect();
        let wins: Vec<&Value> = results
            .iter()
            .filter(|(status, _)| *status == 200)
            .map(|(_, v)| v)
            .collect();
        assert!(
            !wins.is_empty(),
            "round {round}: neither was accepted: {results:?}"
        );
        for (status, body) in &results {
            if *status != 200 {
                refused += 1;
                // A clear refusal: the race lost (409), or the move no longer fits the
                // position the winner made (400).
                assert!(
                    matches!(status, 400 | 409),
                    "round {round}: {status} {body}"
                );
                assert!(
                    body["error"].as_str().is_some_and(|e| e.len() > 10),
                    "{body}"
                );
            }
        }
        for win in wins {
            accepted.push(win["version"].as_u64().unwrap());
        }
    }
    assert!(refused > 0, "no race was lost: the test raced nothing");
    // Every accepted move is stored once, in its own place: the versions the winners got are
    // 1, 2, 3, … and the stored game has exactly that many moves, on both processes.
    accepted.sort_unstable();
    let n = accepted.len() as u64;
    assert_eq!(accepted, (1..=n).collect::<Vec<_>>());
    for server in [&a, &b] {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let s = state(server, &id);
            if s["moves"].as_array().unwrap().len() as u64 == n {
                assert_eq!(s["version"], n);
                break;
            }
            assert!(Instant::now() < deadline, "moves stored: {s}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

#[test]
fn a_server_killed_mid_game_on_postgresql_loses_no_move() {
    server::killed_mid_game_loses_no_move(&pg::shared().database());
}

#[test]
fn a_server_killed_while_a_seek_is_accepted_on_postgresql_leaves_it_whole() {
    let (made, nothing) = server::killed_while_a_seek_is_accepted(&pg::shared().database(), 16);
    eprintln!("seeks accepted before the kill: {made}; not: {nothing}");
}

#[test]
fn a_server_killed_while_a_claim_is_made_on_postgresql_rates_the_game_once() {
    let (stored, not) = server::killed_while_a_claim_is_made(&pg::shared().database(), 12);
    eprintln!("claims stored before the kill: {stored}; not: {not}");
}

#[test]
fn the_database_restarted_under_running_servers_loses_and_doubles_nothing() {
    // A server of its own: this test restarts it.
    let pg = pg::TempPg::start();
    let db = pg.database();
    let a = Server::start(&db);
    let b = Server::start(&db);
    let (id, tokens, _) = create(
        &a,
        json!({"game": "antchess", "seats": ["online", "online"]}),
    );
    let mut watch = Watch::open(&b, &id);
    let mut played = Vec::new();
    // Plays ply `ply` (counted from 0) through `server`, once it has heard of the ply before.
    let move_on = |server: &Server, ply: usize, played: &mut Vec<Value>| {
        let token = &tokens[ply % 2];
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let (status, now) = server.request("GET", &format!("/api/games/{id}"), None);
            if status == 200 && now["version"] == ply as u64 {
                let legal = now["legal"].as_array().unwrap();
                let mv = legal[(ply * 5 + 1) % legal.len()].as_str().unwrap();
                let (status, after) = play(server, &id, mv, token);
                if status == 200 {
                    *played = after["moves"].as_array().unwrap().clone();
                    return;
                }
                // While the database is away the server says so; nothing is half done.
                assert!(status >= 500 || status == 409, "{status} {after}");
            }
            assert!(
                Instant::now() < deadline,
                "the server did not recover: {status}"
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    };
    for ply in 0..4 {
        move_on(if ply % 2 == 0 { &a } else { &b }, ply, &mut played);
    }
    watch.until("before the restart", |s| s["version"] == 4);

    pg.restart();

    for ply in 4..8 {
        move_on(if ply % 2 == 0 { &a } else { &b }, ply, &mut played);
    }
    // The process on the other side of the restart still hears of every move.
    let seen = watch.until("after the restart", |s| s["version"] == 8);
    assert_eq!(seen["moves"].as_array().unwrap(), &played);
    assert_eq!(played.len(), 8);

    // And with the database down for a while: a move is refused (not acknowledged, not
    // stored), then accepted once it is back.
    // (once A has heard of the last move: the move below is judged on what it knows)
    let now = state_at(&a, &id, 8);
    pg.stop();
    let mv = now["legal"][0].as_str().unwrap().to_string();
    let (status, refused) = play(&a, &id, &mv, &tokens[0]);
    assert!(status >= 500, "a move with no database: {status} {refused}");
    pg.begin();
    move_on(&a, 8, &mut played);
    let seen = watch.until("after the outage", |s| s["version"] == 9);
    assert_eq!(seen["moves"].as_array().unwrap(), &played);
    // A new server reads exactly these moves.
    let c = Server::start(&db);
    assert_eq!(state(&c, &id)["moves"].as_array().unwrap(), &played);
}

#[test]
fn another_process_moves_for_the_computer_when_the_thinking_one_is_killed() {
    let db = pg::shared().database();
    // A thinks long; B, which also serves the game, takes over when A is gone.
    let a = Server::start_with(&db, &["--think-ms", "4000"]);
    let b = Server::start(&db);
    let (id, tokens, first) = create(
        &a,
        json!({"game": "ackenhead", "seats": ["human", "computer:8"]}),
    );
    let mut watch = Watch::open(&b, &id);
    let mv = first["legal"][0].as_str().unwrap().to_string();
    let (status, after) = play(&a, &id, &mv, &tokens[0]);
    assert_eq!(status, 200, "{after}");
    assert_eq!(after["thinking"], true);
    // B hears of the move, and that the computer is thinking (on A).
    let heard = watch.until("the move", |s| s["version"] == 1);
    assert_eq!(heard["thinking"], true, "{heard}");
    let killed = Instant::now();
    a.kill();
    // B plays the computer's move itself: three times its thinking time plus 5 s.
    let reply = watch.until("the computer's reply", |s| s["version"] == 2);
    assert!(killed.elapsed() < Duration::from_secs(15));
    assert_eq!(reply["moves"].as_array().unwrap().len(), 2, "{reply}");
    assert_eq!(reply["thinking"], false);
    assert_eq!(reply["to_move"], 0);
    // Stored: a new process reads the same moves.
    let c = Server::start(&db);
    assert_eq!(state(&c, &id)["moves"], reply["moves"]);
}

/// Two requests sent at once, the first through `a` and the second through `b`: their answers.
fn race(
    a: &Arc<Server>,
    b: &Arc<Server>,
    first: (String, Value),
    second: (String, Value),
) -> Vec<(u16, Value)> {
    let barrier = Arc::new(Barrier::new(2));
    let racers: Vec<_> = [(a.clone(), first), (b.clone(), second)]
        .into_iter()
        .map(|(server, (path, body))| {
            let barrier = barrier.clone();
            std::thread::spawn(move || {
                barrier.wait();
                server.request("POST", &path, Some(&body))
            })
        })
        .collect();
    racers.into_iter().map(|r| r.join().unwrap()).collect()
}

/// Of two racing changes made from one version, exactly one was stored (200) and the other
/// refused with 409; the winner's state.
fn one_wins(what: &str, results: &[(u16, Value)]) -> Value {
    let wins: Vec<&Value> = results
        .iter()
        .filter(|(s, _)| *s == 200)
        .map(|(_, v)| v)
        .collect();
    assert_eq!(wins.len(), 1, "{what}: {results:?}");
    let lost = results.iter().find(|(s, _)| *s != 200).unwrap();
    assert_eq!(lost.0, 409, "{what}: {results:?}");
    let won = wins[0];
    won.get("state").cloned().unwrap_or_else(|| won.clone())
}

#[test]
fn racing_changes_of_every_kind_through_two_processes_exactly_one_wins() {
    let db = pg::shared().database();
    let a = Arc::new(Server::start_with(&db, &["--no-rate-limits"]));
    let b = Arc::new(Server::start_with(&db, &["--no-rate-limits"]));
    // Every game raced, with the state its last winner left.
    let mut games: Vec<(String, Value)> = Vec::new();
    let path = |id: &str, what: &str| format!("/api/games/{id}/{what}");
    for round in 0..3 {
        // A move and a takeback (one screen: one token holds both seats).
        let (id, tokens, _) = create(&a, json!({"game": "reines", "seats": ["human", "human"]}));
        let t = tokens[0].clone();
        for _ in 0..2 {
            let s = state(&a, &id);
            assert_eq!(play(&a, &id, s["legal"][0].as_str().unwrap(), &t).0, 200);
        }
        let s = state_at(&b, &id, 2);
        let mv = s["legal"][round % s["legal"].as_array().unwrap().len()].clone();
        let results = race(
            &a,
            &b,
            (path(&id, "takeback"), json!({"token": t, "version": 2})),
            (
                path(&id, "moves"),
                json!({"move": mv, "token": t, "version": 2}),
            ),
        );
        let won = one_wins("move/takeback", &results);
        assert_eq!(won["version"], 3);
        let plies = won["moves"].as_array().unwrap().len();
        assert!(plies == 1 || plies == 3, "{won}");
        // Two takebacks of the same move: one is made.
        let results = race(
            &a,
            &b,
            (path(&id, "takeback"), json!({"token": t, "version": 3})),
            (path(&id, "takeback"), json!({"token": t, "version": 3})),
        );
        let won = one_wins("takeback/takeback", &results);
        assert_eq!(won["moves"].as_array().unwrap().len(), plies - 1);
        games.push((id, won));

        // A move and a resignation (two people, online).
        let (id, tokens, first) =
            create(&a, json!({"game": "reines", "seats": ["online", "online"]}));
        state_at(&b, &id, 0);
        let mv = first["legal"][0].clone();
        let results = race(
            &a,
            &b,
            (
                path(&id, "moves"),
                json!({"move": mv, "token": tokens[0], "version": 0}),
            ),
            (
                path(&id, "resign"),
                json!({"seat": 1, "token": tokens[1], "version": 0}),
            ),
        );
        let won = one_wins("move/resign", &results);
        let moved = won["outcome"].is_null();
        assert_eq!(
            won["moves"].as_array().unwrap().len(),
            moved as usize,
            "{won}"
        );
        games.push((id, won));

        // Two people joining the same open seat.
        let (id, _, _) = create(&a, json!({"game": "reines", "seats": ["online", "open"]}));
        state_at(&b, &id, 0);
        let results = race(
            &a,
            &b,
            (path(&id, "join"), json!({"seat": 1, "version": 0})),
            (path(&id, "join"), json!({"seat": 1, "version": 0})),
        );
        let won = one_wins("join/join", &results);
        assert_eq!(won["open_seats"], json!([]));
        games.push((id, won));

        // A move made as the flag falls: the move or the flag, never both.
        let (id, tokens, _) = create(
            &a,
            json!({"game": "reines", "seats": ["human", "human"],
                   "clock": {"minutes": 0, "increment": 0.001}}),
        );
        let t = tokens[0].clone();
        for _ in 0..2 {
            let s = state(&a, &id);
            assert_eq!(play(&a, &id, s["legal"][0].as_str().unwrap(), &t).0, 200);
        }
        let s = state_at(&b, &id, 2);
        let clock = &s["clock"];
        let deadline =
            clock["as_of_ms"].as_i64().unwrap() + clock["remaining_ms"][0].as_i64().unwrap();
        let mv = s["legal"][0].clone();
        // At the deadline, give or take a few milliseconds.
        let at = deadline - 10 + 10 * round as i64;
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis() as i64;
        std::thread::sleep(Duration::from_millis((at - now).max(0) as u64));
        let (status, answer) = play(&a, &id, mv.as_str().unwrap(), &t);
        // Refused: the flag came first (409), or was heard of before the move (400).
        assert!(
            status == 200
                || status == 409
                || (status == 400 && answer["error"].as_str().unwrap().contains("over")),
            "{status} {answer}"
        );
        // The step after version 2 is the move or White's flag.
        let settled = state_at(&b, &id, 3);
        let stored = state_at(&a, &id, 3);
        let moves = stored["moves"].as_array().unwrap().len();
        if status == 200 {
            assert_eq!(moves, 3, "the move was acknowledged: {stored}");
        } else {
            assert_eq!(moves, 2, "the flag fell: {stored}");
            assert_eq!(stored["outcome"]["winner"], 1, "{stored}");
            assert_eq!(stored["outcome"]["reason"], "time", "{stored}");
        }
        assert_eq!(
            settled["moves"].as_array().unwrap().len(),
            moves,
            "{settled}"
        );
        // Black's clock runs on after the move: the game ends on time either way.
        let over = state_at(&a, &id, 3 + (status == 200) as usize);
        games.push((id, over));
    }
    // A new process reads every game as the winners left it, and replays it.
    let c = Server::start(&db);
    for (id, expected) in &games {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let (sa, sc) = (state(&a, id), state(&c, id));
            if sa["version"] == sc["version"] {
                assert_eq!(sa["moves"], sc["moves"], "game {id}");
                assert_eq!(sa["outcome"], sc["outcome"], "game {id}");
                assert!(
                    sc["version"].as_u64() >= expected["version"].as_u64(),
                    "{id}"
                );
                if sc["version"] == expected["version"] {
                    assert_eq!(sc["moves"], expected["moves"], "game {id}");
                }
                break;
            }
            assert!(Instant::now() < deadline, "game {id}: {sa} / {sc}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

#[test]
fn a_rated_game_ended_through_two_processes_at_once_is_rated_once() {
    let db = pg::shared().database();
    let a = Arc::new(Server::start_with(&db, &["--no-rate-limits"]));
    let b = Arc::new(Server::start_with(&db, &["--no-rate-limits"]));
    let alice = a.sign_up("alice");
    let bob = b.sign_up("bob");
    let games_of = |server: &Server, name: &str| {
        let (status, p) = server.request("GET", &format!("/api/users/{name}"), None);
        assert_eq!(status, 200, "{p}");
        p["ratings"][0]["games"].as_u64().unwrap_or(0)
    };
    let path = |id: &str| format!("/api/games/{id}/resign");
    for round in 0..6u64 {
        let body = json!({"game": "reines", "seats": ["online", "open"], "rated": true,
                          "clock": {"minutes": 5, "increment": 3}});
        let (status, made) = a.request_as(&alice, "POST", "/api/games", Some(&body));
        assert_eq!(status, 201, "{made}");
        let id = made["id"].as_str().unwrap().to_string();
        let (status, joined) = b.request_as(
            &bob,
            "POST",
            &format!("/api/games/{id}/join"),
            Some(&json!({"seat": 1})),
        );
        assert_eq!(status, 200, "{joined}");
        let version = joined["state"]["version"].clone();
        state_at(&a, &id, version.as_u64().unwrap() as usize);
        // Alice resigns through A and Bob through B, from the same version.
        let results = race(
            &a,
            &b,
            (
                path(&id),
                json!({"seat": 0, "token": made["tokens"][0], "version": version}),
            ),
            (
                path(&id),
                json!({"seat": 1, "token": joined["token"], "version": version}),
            ),
        );
        let won = one_wins("resign/resign", &results);
        assert!(won["rating_change"].is_object(), "round {round}: {won}");
        // Rated once: one more rated game for each, as both processes and a new one say.
        for server in [&a, &b] {
            let ended = state_at(server, &id, version.as_u64().unwrap() as usize + 1);
            assert_eq!(
                ended["rating_change"], won["rating_change"],
                "round {round}"
            );
            assert_eq!(games_of(server, "alice"), round + 1, "round {round}");
            assert_eq!(games_of(server, "bob"), round + 1, "round {round}");
        }
    }
    let c = Server::start(&db);
    let (status, list) = c.request("GET", "/api/ratings/reines", None);
    assert_eq!(status, 200, "{list}");
    let games: Vec<&Value> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|l| &l["games"])
        .collect();
    assert_eq!(games, [&json!(6), &json!(6)], "{list}");
}

/// Sends `signal` to a server process (SIGSTOP freezes it, SIGCONT lets it go on).
fn signal(server: &Server, signal: rustix::process::Signal) {
    let pid = rustix::process::Pid::from_raw(server.child.id() as i32).expect("a child's id");
    rustix::process::kill_process(pid, signal).unwrap();
}

#[test]
fn the_computers_move_is_stored_once_the_database_is_back() {
    // A server of its own: this test stops it for longer than the pool waits (5 s).
    let pg = pg::TempPg::start();
    let db = pg.database();
    // Level 8 thinks the whole time given (5 s): the move is not stored before the process is
    // frozen, a moment after the human's move is acknowledged.
    let a = Server::start_with(&db, &["--think-ms", "5000"]);
    let (id, tokens, first) = create(
        &a,
        json!({"game": "ackenhead", "seats": ["human", "computer:8"]}),
    );
    let mv = first["legal"][0].as_str().unwrap().to_string();
    let (status, after) = play(&a, &id, &mv, &tokens[0]);
    assert_eq!(status, 200, "{after}");
    assert_eq!(after["thinking"], true);
    // The process is frozen while the database stops: however slowly the machine stops it,
    // the computer's move is written (tried) only after the database is gone.
    signal(&a, rustix::process::Signal::STOP);
    pg.stop();
    signal(&a, rustix::process::Signal::CONT);
    // The move had not been stored when the process was frozen: it is still owed.
    let (status, away) = a.request("GET", &format!("/api/games/{id}"), None);
    assert!(
        status >= 500 || (away["thinking"] == true && away["version"] == 1),
        "the computer's move is owed: {status} {away}"
    );
    // The database stays away for longer than a write waits for it: a write now is refused
    // once the pool has waited (its 5 s) in vain.
    let (status, refused) = a.request(
        "POST",
        "/api/games",
        Some(&json!({"game": "ackenhead", "seats": ["human", "human"]})),
    );
    assert_eq!(status, 503, "{refused}");
    let (status, away) = a.request("GET", &format!("/api/games/{id}"), None);
    assert!(
        status >= 500 || (away["thinking"] == true && away["version"] == 1),
        "the computer's move is owed: {status} {away}"
    );
    pg.begin();
    // Stored once the database is back, without a restart.
    let deadline = Instant::now() + Duration::from_secs(30);
    let moved = loop {
        let (status, s) = a.request("GET", &format!("/api/games/{id}"), None);
        if status == 200 && s["version"] == 2 {
            break s;
        }
        assert!(
            Instant::now() < deadline,
            "the computer did not move: {status} {s}"
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    assert_eq!(moved["moves"].as_array().unwrap().len(), 2, "{moved}");
    assert_eq!(moved["thinking"], false);
    // Stored: a new process reads the same moves, and the game goes on.
    let c = Server::start(&db);
    assert_eq!(state(&c, &id)["moves"], moved["moves"]);
    let mv = moved["legal"][0].as_str().unwrap();
    assert_eq!(play(&c, &id, mv, &tokens[0]).0, 200);
}

#[test]
fn a_process_that_loads_a_game_later_makes_the_overdue_computer_move() {
    let db = pg::shared().database();
    let a = Server::start_with(&db, &["--think-ms", "4000"]);
    let b = Server::start(&db);
    let (id, tokens, first) = create(
        &a,
        json!({"game": "ackenhead", "seats": ["human", "computer:3"]}),
    );
    let mv = first["legal"][0].as_str().unwrap().to_string();
    assert_eq!(play(&a, &id, &mv, &tokens[0]).0, 200);
    a.kill();
    // B has never served the game: it reads it now, sees the computer's move owed, and
    // makes it once it is overdue.
    let seen = state(&b, &id);
    assert_eq!(seen["version"], 1, "{seen}");
    assert_eq!(seen["thinking"], true, "{seen}");
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let s = state(&b, &id);
        if s["version"] == 2 {
            assert_eq!(s["moves"].as_array().unwrap().len(), 2, "{s}");
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the computer's move is stuck: {s}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}
