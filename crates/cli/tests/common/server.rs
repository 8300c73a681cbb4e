//! A `myrmidon serve` process for the tests (the built binary on loopback), spoken to over
//! HTTP, and the test of a server killed mid-game, run on SQLite and on PostgreSQL.

#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use myrmidon_server::client;
use serde_json::{json, Value};

pub struct Server {
    pub child: Child,
    pub addr: String,
}

impl Server {
    pub fn start(db: &str) -> Server {
        Server::start_with(db, &[])
    }

    /// With more arguments to `serve` (the computer thinks 30 ms unless they say otherwise).
    pub fn start_with(db: &str, more: &[&str]) -> Server {
        let think: &[&str] = if more.contains(&"--think-ms") {
            &[]
        } else {
            &["--think-ms", "30"]
        };
        let mut child = Command::new(env!("CARGO_BIN_EXE_myrmidon"))
            .args(["serve", "--port", "0", "--db", db])
            .args(think)
            .args(more)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the binary runs");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        // "myrmidon: serving on http://127.0.0.1:PORT/ (database: …)"
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        assert!(line.contains("database:"), "{line}");
        Server { child, addr }
    }

    /// One request on a connection of its own (`myrmidon_server::client`): the status and the
    /// answer's JSON.
    pub fn request(&self, method: &str, path: &str, body: Option<&Value>) -> (u16, Value) {
        client::request(&self.addr, method, path, body).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A request with an account's session cookies (as the site's page sends them).
    pub fn request_as(
        &self,
        cookies: &[String],
        method: &str,
        path: &str,
        body: Option<&Value>,
    ) -> (u16, Value) {
        let (status, value, _) = client::request_with(&self.addr, cookies, method, path, body)
            .unwrap_or_else(|e| panic!("{e}"));
        (status, value)
    }

    /// Signs up the account `name`: its session cookies.
    pub fn sign_up(&self, name: &str) -> Vec<String> {
        let body = json!({"name": name, "password": "the password"});
        let (status, answer, cookies) =
            client::request_with(&self.addr, &[], "POST", "/api/account/signup", Some(&body))
                .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(status, 201, "{answer}");
        assert!(!cookies.is_empty(), "a session cookie");
        cookies
    }

    /// The state once the computer is done (a human to move, or the end).
    pub fn settled(&self, id: &str) -> Value {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let (status, state) = self.request("GET", &format!("/api/games/{id}"), None);
            assert_eq!(status, 200, "{state}");
            let human = state["to_move"]
                .as_u64()
                .is_some_and(|s| state["seats"][s as usize] == "human");
            if state["thinking"] == false && (human || !state["outcome"].is_null()) {
                return state;
            }
            assert!(
                Instant::now() < deadline,
                "the computer did not move: {state}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    pub fn kill(mut self) {
        // SIGKILL: no chance to flush or close anything.
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A game against the computer on `db`, the server killed with `kill -9` right after a move
/// was acknowledged and started again: every acknowledged move is there, and the game goes on.
pub fn killed_mid_game_loses_no_move(db: &str) {
    let server = Server::start(db);
    let (status, created) = server.request(
        "POST",
        "/api/games",
        Some(&json!({"game": "ackenhead", "seats": ["human", "computer:2"]})),
    );
    assert_eq!(status, 201);
    let id = created["id"].as_str().unwrap().to_string();
    let token = created["tokens"][0].as_str().unwrap().to_string();
    let mut state = created["state"].clone();
    let mut acknowledged = Vec::new();
    for n in 0..4 {
        let legal = state["legal"].as_array().unwrap();
        let mv = legal[(n * 5 + 3) % legal.len()]
            .as_str()
            .unwrap()
            .to_string();
        let (status, after) = server.request(
            "POST",
            &format!("/api/games/{id}/moves"),
            Some(&json!({"move": mv, "token": token})),
        );
        assert_eq!(status, 200, "{after}");
        acknowledged = after["moves"].as_array().unwrap().clone();
        if n < 3 {
            state = server.settled(&id);
        }
    }
    // Killed right after a move was acknowledged, with the computer thinking.
    server.kill();

    let server = Server::start(db);
    // Every acknowledged move is there; the computer then plays its reply by itself.
    let state = server.settled(&id);
    let moves = state["moves"].as_array().unwrap();
    assert_eq!(moves[..acknowledged.len()], acknowledged[..]);
    assert_eq!(moves.len(), acknowledged.len() + 1, "{state}");
    // The game goes on with the same token.
    let mv = state["legal"][0].as_str().unwrap().to_string();
    let (status, after) = server.request(
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(&json!({"move": mv, "token": token})),
    );
    assert_eq!(status, 200, "{after}");
}

/// Seeks accepted on `db` while the server is killed with `kill -9`, `rounds` times, the kill
/// landing a little later each round (before the acceptance is read, while its transaction is
/// written, after it is answered): after each restart the seek and its game are whole, either
/// the seek accepted with its game of two seats taken (the seeker's token holds its seat), or
/// nothing done and the seek still open (and accepted then). Returns how many rounds ended
/// each way: `(game made, nothing done)`.
pub fn killed_while_a_seek_is_accepted(db: &str, rounds: u64) -> (u32, u32) {
    use std::io::Write;
    let mut server = Server::start(db);
    let (mut made, mut nothing) = (0, 0);
    for round in 0..rounds {
        let (status, seek) = server.request("POST", "/api/seeks", Some(&json!({"game": "reines"})));
        assert_eq!(status, 201, "{seek}");
        let id = seek["id"].as_str().unwrap().to_string();
        let token = seek["token"].as_str().unwrap().to_string();
        let mut stream = std::net::TcpStream::connect(&server.addr).unwrap();
        write!(
            stream,
            "POST /api/seeks/{id}/accept HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
             Content-Length: 2\r\nConnection: close\r\n\r\n{{}}",
            server.addr
        )
        .unwrap();
        stream.flush().unwrap();
        // Where the kill lands (not a wait for anything): 0.2 ms later each round.
        let at = Instant::now() + Duration::from_micros(200 * round);
        while Instant::now() < at {
            std::hint::spin_loop();
        }
        server.kill();
        drop(stream);
        server = Server::start(db);
        let (status, after) = server.request("GET", &format!("/api/seeks/{id}"), None);
        assert_eq!(status, 200, "round {round}: {after}");
        match after["state"].as_str() {
            Some("accepted") => {
                made += 1;
                let game = after["game_id"].as_str().unwrap_or_else(|| {
                    panic!("round {round}: a seek accepted without its game: {after}")
                });
                let (status, state) = server.request("GET", &format!("/api/games/{game}"), None);
                assert_eq!(
                    status, 200,
                    "round {round}: the seek's game is gone: {state}"
                );
                assert_eq!(
                    state["seats"],
                    json!(["online", "online"]),
                    "round {round}: {state}"
                );
                // The seeker's token holds the seat the seek gave it.
                let seat = after["seat"].as_u64().expect("the seeker's seat");
                let (status, ended) = server.request(
                    "POST",
                    &format!("/api/games/{game}/resign"),
                    Some(&json!({"seat": seat, "token": token})),
                );
                assert_eq!(status, 200, "round {round}: {ended}");
            }
            Some("open") => {
                nothing += 1;
                assert!(after["game_id"].is_null(), "round {round}: {after}");
                // Still whole: accepted now, it makes its game.
                let path = format!("/api/seeks/{id}/accept");
                let (status, accepted) = server.request("POST", &path, Some(&json!({})));
                assert_eq!(status, 201, "round {round}: {accepted}");
                let game = accepted["id"].as_str().unwrap();
                let (_, state) = server.request("GET", &format!("/api/games/{game}"), None);
                assert_eq!(
                    state["seats"],
                    json!(["online", "online"]),
                    "round {round}: {state}"
                );
            }
            _ => panic!("round {round}: {after}"),
        }
    }
    (made, nothing)
}

/// Claims against players who left, on `db`, while the server is killed with `kill -9`,
/// `rounds` times, the kill landing a little later each round (before the claim is read, while
/// its transaction is written, after it is answered). Alice makes `rounds` rated games (1+0)
/// that Bob joins and leaves; once the wait for a player gone has passed, each round claims the
/// win in one of them (one more game tells when the wait is over). After each restart the game is whole: either won by the claim and rated,
/// or not over and claimed then. At the end every game is over and rated exactly once: Alice
/// has one win and one point of rating history a game. Returns how many claims were stored
/// before the kill and how many were not: `(stored, not)`.
pub fn killed_while_a_claim_is_made(db: &str, rounds: usize) -> (u32, u32) {
    use std::io::Write;
    let mut server = Server::start_with(db, &["--no-rate-limits"]);
    let alice = server.sign_up("alice");
    let bob = server.sign_up("bob");
    let mut games = Vec::new();
    for _ in 0..=rounds {
        let body = json!({"game": "reines", "seats": ["online", "open"], "rated": true,
                          "clock": {"minutes": 1, "increment": 0}});
        let (status, made) = server.request_as(&alice, "POST", "/api/games", Some(&body));
        assert_eq!(status, 201, "{made}");
        let id = made["id"].as_str().unwrap().to_string();
        let token = made["tokens"][0].as_str().unwrap().to_string();
        let join = json!({"seat": 1});
        let (status, joined) =
            server.request_as(&bob, "POST", &format!("/api/games/{id}/join"), Some(&join));
        assert_eq!(status, 200, "{joined}");
        // Alice moves (she is there); Bob never comes back.
        let mv = joined["state"]["legal"][0].as_str().unwrap().to_string();
        let body = json!({"move": mv, "token": token});
        let (status, after) =
            server.request("POST", &format!("/api/games/{id}/moves"), Some(&body));
        assert_eq!(status, 200, "{after}");
        games.push((id, token));
    }
    // The wait for a player gone, at 1+0: 10 s since Bob was last seen (his join). The last
    // game made is the probe: claimed until the claim is taken (409 before), it tells when Bob
    // counts as gone in every game.
    let claim = |server: &Server, id: &str, token: &str| {
        let body = json!({"seat": 1, "token": token, "result": "win"});
        server.request("POST", &format!("/api/games/{id}/claim-left"), Some(&body))
    };
    let (probe, probe_token) = games.pop().unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let (status, answer) = claim(&server, &probe, &probe_token);
        if status == 200 {
            break;
        }
        assert_eq!(status, 409, "{answer}");
        assert_eq!(answer["key"], "api-claim-early", "{answer}");
        assert!(
            Instant::now() < deadline,
            "Bob never counted as gone: {answer}"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    let (mut stored, mut not) = (0, 0);
    for (round, (id, token)) in games.iter().enumerate() {
        let mut stream = std::net::TcpStream::connect(&server.addr).unwrap();
        let body = json!({"seat": 1, "token": token, "result": "win"}).to_string();
        write!(
            stream,
            "POST /api/games/{id}/claim-left HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            server.addr,
            body.len()
        )
        .unwrap();
        stream.flush().unwrap();
        // Where the kill lands (not a wait for anything): 1 ms later each round (a claim
        // reads the players' presence and writes two ratings: longer than a seek's accept).
        let at = Instant::now() + Duration::from_millis(round as u64);
        while Instant::now() < at {
            std::hint::spin_loop();
        }
        server.kill();
        drop(stream);
        server = Server::start_with(db, &["--no-rate-limits"]);
        let (status, state) = server.request("GET", &format!("/api/games/{id}"), None);
        assert_eq!(status, 200, "round {round}: {state}");
        if state["outcome"].is_null() {
            not += 1;
            assert!(state["rating_change"].is_null(), "round {round}: {state}");
            let (status, won) = claim(&server, id, token);
            assert_eq!(status, 200, "round {round}: {won}");
        } else {
            stored += 1;
            assert_eq!(state["outcome"]["winner"], 0, "round {round}: {state}");
            assert_eq!(
                state["outcome"]["reason"], "abandonment",
                "round {round}: {state}"
            );
            assert!(
                state["rating_change"]["seats"].is_array(),
                "round {round}: {state}"
            );
            // Claimed once: a second claim is refused.
            let (status, again) = claim(&server, id, token);
            assert_eq!(status, 400, "round {round}: {again}");
        }
    }
    // Every game won once by Alice and rated once, for both.
    let (status, profile) = server.request("GET", "/api/users/alice", None);
    assert_eq!(status, 200, "{profile}");
    // (the probe's game too)
    assert_eq!(profile["results"]["reines"]["win"], rounds + 1, "{profile}");
    let points: usize = profile["ratings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["history"].as_array().unwrap().len())
        .sum();
    assert_eq!(points, rounds + 1, "{profile}");
    let (_, bob_profile) = server.request("GET", "/api/users/bob", None);
    assert_eq!(
        bob_profile["results"]["reines"]["loss"],
        rounds + 1,
        "{bob_profile}"
    );
    (stored, not)
}
