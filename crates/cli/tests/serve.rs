//! `myrmidon serve` as a user runs it: the built binary on a fresh database, spoken to over
//! HTTP on loopback. A whole game against the computer through the API; a server killed with
//! `kill -9` mid-game and started again, the game going on from the same moves; command-line
//! errors.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

struct Server {
    child: Child,
    addr: String,
}

impl Server {
    fn start(db: &str) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_myrmidon"))
            .args(["serve", "--port", "0", "--db", db, "--think-ms", "30"])
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

    fn request(&self, method: &str, path: &str, body: Option<&Value>) -> (u16, Value) {
        let body = body.map(|b| b.to_string()).unwrap_or_default();
        let mut stream = TcpStream::connect(&self.addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        write!(
            stream,
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.addr,
            body.len()
        )
        .unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        let (head, rest) = response.split_once("\r\n\r\n").expect("a response");
        let status: u16 = head.split(' ').nth(1).unwrap().parse().unwrap();
        let value =
            serde_json::from_str(rest).unwrap_or_else(|e| panic!("{method} {path}: {e}: {rest:?}"));
        (status, value)
    }

    /// The state once the computer is done (a human to move, or the end).
    fn settled(&self, id: &str) -> Value {
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

    fn kill(mut self) {
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

#[test]
fn a_whole_game_against_the_computer_through_the_api() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("fresh.db");
    let server = Server::start(db.to_str().unwrap());
    assert!(db.exists(), "the database file is created on first start");
    let (status, created) = server.request(
        "POST",
        "/api/games",
        Some(&json!({"game": "reines", "seats": ["human", "computer:1"]})),
    );
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let token = created["tokens"][0].as_str().unwrap().to_string();
    let mut state = created["state"].clone();
    let mut n = 0usize;
    while state["outcome"].is_null() {
        let legal = state["legal"].as_array().unwrap();
        let mv = legal[n * 7 % legal.len()].as_str().unwrap().to_string();
        let (status, after) = server.request(
            "POST",
            &format!("/api/games/{id}/moves"),
            Some(&json!({"move": mv, "token": token})),
        );
        assert_eq!(status, 200, "{mv}: {after}");
        state = server.settled(&id);
        n += 1;
        assert!(n < 1000, "no end after 1000 moves");
    }
    assert!(state["outcome"]["text"].as_str().unwrap().len() > 5);
}

#[test]
fn a_server_killed_mid_game_loses_no_move() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite:{}", dir.path().join("games.db").display());
    let server = Server::start(&db);
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

    let server = Server::start(&db);
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

#[test]
fn serve_command_line_errors_are_clear() {
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_myrmidon"))
            .args(args)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    let (code, err) = run(&["serve", "--port", "eighty"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("--port") && err.contains("eighty"), "{err}");
    let (code, err) = run(&["serve", "--port", "0", "--db", "postgres://localhost/x"]);
    assert_eq!(code, Some(1));
    assert!(err.contains("PostgreSQL"), "{err}");
    let dir = tempfile::tempdir().unwrap();
    let (code, err) = run(&[
        "serve",
        "--port",
        "0",
        "--db",
        dir.path().join("no/such/dir/x.db").to_str().unwrap(),
    ]);
    assert_eq!(code, Some(1));
    assert!(err.contains("--db"), "{err}");
    // A port already taken.
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let (code, err) = run(&[
        "serve",
        "--port",
        &port,
        "--db",
        dir.path().join("y.db").to_str().unwrap(),
    ]);
    assert_eq!(code, Some(1));
    assert!(err.contains("cannot listen"), "{err}");
}
