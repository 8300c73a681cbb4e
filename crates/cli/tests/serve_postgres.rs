//! `myrmidon serve` on PostgreSQL, as several processes behind a load balancer would run it:
//! a temporary PostgreSQL server (../../server/tests/common/pg.rs), the built binary started
//! twice on one database. A game whose two players are connected to two processes; moves for
//! one game racing through two processes; a server killed with `kill -9` mid-game; the
//! database restarted under running servers.

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
    pg.stop();
    let now = state(&a, &id);
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
