//! `myrmidon serve` as a user runs it: the built binary on a fresh database, spoken to over
//! HTTP on loopback. A whole game against the computer through the API; a server killed with
//! `kill -9` mid-game and started again, the game going on from the same moves; a server
//! killed while a seek is accepted, and while a claim against a player who left is made;
//! command-line errors.

#[path = "common/server.rs"]
mod server;

use std::process::Command;

use serde_json::json;
use server::Server;

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
    server::killed_mid_game_loses_no_move(&db);
}

#[test]
fn a_server_killed_while_a_seek_is_accepted_leaves_the_seek_and_its_game_whole() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite:{}", dir.path().join("games.db").display());
    let (made, nothing) = server::killed_while_a_seek_is_accepted(&db, 16);
    eprintln!("seeks accepted before the kill: {made}; not: {nothing}");
}

#[test]
fn a_server_killed_while_a_claim_is_made_rates_the_game_once() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite:{}", dir.path().join("games.db").display());
    let (stored, not) = server::killed_while_a_claim_is_made(&db, 12);
    eprintln!("claims stored before the kill: {stored}; not: {not}");
}

/// Runs the binary: its exit status and standard error.
fn run(args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_myrmidon"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

#[test]
fn serve_command_line_errors_are_clear() {
    let (code, err) = run(&["serve", "--port", "eighty"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("--port") && err.contains("eighty"), "{err}");
    // A PostgreSQL server that is not there.
    let free = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!(
        "postgres://postgres@127.0.0.1:{}/x",
        free.local_addr().unwrap().port()
    );
    drop(free);
    let (code, err) = run(&["serve", "--port", "0", "--db", &url]);
    assert_eq!(code, Some(1));
    assert!(err.contains("--db") && err.contains("PostgreSQL"), "{err}");
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

#[test]
fn the_load_test_plays_games_and_reports_round_trips() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite:{}", dir.path().join("load.db").display());
    // Anonymous games, then rated games between accounts (whose ends must each come with the
    // players' rating change, or count as errors).
    for more in [&[][..], &["--accounts"][..]] {
        let out = Command::new(env!("CARGO_BIN_EXE_myrmidon"))
            .args([
                "loadtest",
                "--spawn",
                &db,
                "--games",
                "2,4",
                "--seconds",
                "3",
            ])
            .args(["--pace", "max", "--game", "reines"])
            .args(more)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{more:?}: {text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        // One row a step: games, clients, moves, moves/s, p50, p90, p99, max, ended, errors.
        let rows: Vec<Vec<&str>> = text
            .lines()
            .map(|l| l.split_whitespace().collect::<Vec<_>>())
            .filter(|w| w.len() == 10 && w[0].parse::<u32>().is_ok())
            .collect();
        assert_eq!(rows.len(), 2, "{text}");
        let mut ended = 0;
        for (row, games) in rows.iter().zip([2, 4]) {
            assert_eq!(row[0], games.to_string());
            assert_eq!(row[1], (games * 2).to_string(), "two clients a game");
            let moves: u64 = row[2].parse().unwrap();
            assert!(moves > 10, "{text}");
            let p50: f64 = row[4].parse().unwrap();
            let p99: f64 = row[6].parse().unwrap();
            assert!(p50 > 0.0 && p50 <= p99, "{text}");
            ended += row[8].parse::<u64>().unwrap();
            assert_eq!(row[9], "0", "errors: {text}");
        }
        // Random games of Jeu de Reines end within seconds.
        assert!(ended > 0, "{text}");
        assert!(
            text.contains("held:") || text.contains("no step kept"),
            "{text}"
        );
        if !more.is_empty() {
            assert!(text.contains("accounts: 8 signed up"), "{text}");
        }
    }

    // Only this machine is loaded, and the steps are bounded.
    let (code, err) = run(&["loadtest", "--server", "http://192.0.2.1:8080"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("not a loopback"), "{err}");
    let (code, err) = run(&["loadtest", "--spawn", &db, "--games", "0"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("--games"), "{err}");
    let (code, err) = run(&["loadtest", "--spawn", &db, "--seconds", "100000"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("--seconds"), "{err}");
    let (code, err) = run(&["loadtest"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("--server") && err.contains("--spawn"), "{err}");
}
