//! `myrmidon loadtest`: many online games at once against `myrmidon serve` on this machine,
//! each with its two players on WebSockets, moves made over HTTP at a human pace or as fast as
//! they go. Measures the move round trip (a move sent until every player of the game has the
//! new state on its WebSocket) and the moves per second, for each number of games asked for.
//! With `--accounts` the games are rated, between logged-in accounts, so that each game's end
//! rates both players. Loopback only, bounded in time and count: it stops by itself
//! (docs/performance.md).

use std::net::{SocketAddr, ToSocketAddrs};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clap::{Args, ValueEnum};
use futures_util::StreamExt;
use myrmidon_server::client::Connection;
use serde_json::{json, Value};
use tokio::sync::watch;

use crate::common::{CliError, CliResult};

#[derive(Args, Debug)]
pub struct LoadtestArgs {
    /// A running server to load (`http://127.0.0.1:8080`; repeatable: the two players of a
    /// game are then connected to two different servers). Loopback addresses only. Start it
    /// with `--no-rate-limits`.
    #[arg(long = "server", value_name = "URL")]
    pub servers: Vec<String>,
    /// Instead of --server: start `--processes` servers of this binary on this database
    /// (`sqlite:<file>` or `postgres://…`), with --no-rate-limits, and stop them at the end.
    #[arg(long, value_name = "DB", conflicts_with = "servers")]
    pub spawn: Option<String>,
    /// How many servers --spawn starts.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=8))]
    pub processes: u64,
    /// The numbers of games played at once, one step each, in order (comma-separated).
    #[arg(long, value_delimiter = ',', default_value = "10,50,100")]
    pub games: Vec<u32>,
    /// How long each step runs, in seconds (the first second is not measured).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(2..=600))]
    pub seconds: u64,
    /// How fast the players move.
    #[arg(long, value_enum, default_value_t = Pace::Human)]
    pub pace: Pace,
    /// The game played; by default the first game of `myrmidon games`.
    #[arg(long)]
    pub game: Option<String>,
    /// The round trip a step must keep its 99th percentile under, in milliseconds.
    #[arg(long, default_value_t = 50)]
    pub target_ms: u64,
    /// Rated games (10+5) between logged-in accounts: a pool of accounts (two a game, at most
    /// 200) signed up before the first step, on the servers' database; a game's end rates both
    /// players in the transaction that ends it.
    #[arg(long)]
    pub accounts: bool,
    /// Every game with this clock, `MINUTES+INCREMENT` (seconds): anonymous games have none
    /// otherwise, rated ones 10+5. The same clock on both sides compares anonymous and rated
    /// games like with like.
    #[arg(long, value_name = "MINUTES+INCREMENT", value_parser = parse_clock)]
    pub clock: Option<(u32, u32)>,
}

/// A `--clock` value: `10+5`.
fn parse_clock(text: &str) -> Result<(u32, u32), String> {
    let bad = || format!("{text:?} is not MINUTES+INCREMENT, as 10+5");
    let (minutes, increment) = text.split_once('+').ok_or_else(bad)?;
    let minutes: u32 = minutes.trim().parse().map_err(|_| bad())?;
    let increment: u32 = increment.trim().parse().map_err(|_| bad())?;
    if minutes == 0 {
        return Err(format!("{text:?}: a clock needs at least one minute"));
    }
    Ok((minutes, increment))
}

/// The most accounts `--accounts` signs up.
const MAX_ACCOUNTS: usize = 200;
/// The password of the load test's accounts.
const PASSWORD: &str = "the load test's password";

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Pace {
    /// A move every 1 to 3 seconds in each game (uniformly at random).
    Human,
    /// Each move as soon as the one before has reached both players.
    Max,
}

/// The most games a step may have, and the most sockets in all.
const MAX_GAMES: u32 = 5000;

/// A server started by --spawn, stopped when dropped.
struct Spawned(Child);

impl Drop for Spawned {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A loopback address from a URL (`http://host:port[/]`), or why not.
fn loopback(url: &str) -> Result<SocketAddr, String> {
    let rest = url
        .strip_prefix("http://")
        .ok_or_else(|| format!("--server {url}: give an http:// URL"))?;
    let hostport = rest.trim_end_matches('/');
    let addr = hostport
        .to_socket_addrs()
        .map_err(|e| format!("--server {url}: {e}"))?
        .next()
        .ok_or_else(|| format!("--server {url}: no address"))?;
    if !addr.ip().is_loopback() {
        return Err(format!(
            "--server {url}: {} is not a loopback address: the load test runs on this machine only",
            addr.ip()
        ));
    }
    Ok(addr)
}

fn spawn(db: &str, n: u64) -> Result<(Vec<Spawned>, Vec<SocketAddr>), CliError> {
    let exe = std::env::current_exe().map_err(CliError::Io)?;
    let mut children = Vec::new();
    let mut addrs = Vec::new();
    for _ in 0..n {
        let mut child = Command::new(&exe)
            .args(["serve", "--port", "0", "--db", db, "--no-rate-limits"])
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(CliError::Io)?;
        let stdout = child.stdout.take().expect("piped");
        children.push(Spawned(child));
        let mut line = String::new();
        std::io::BufRead::read_line(&mut std::io::BufReader::new(stdout), &mut line)
            .map_err(CliError::Io)?;
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|r| r.split('/').next())
            .and_then(|a| a.parse().ok())
            .ok_or_else(|| CliError::Runtime(format!("the server did not start: {line:?}")))?;
        addrs.push(addr);
    }
    Ok((children, addrs))
}

pub fn run(args: &LoadtestArgs) -> CliResult {
    if args.games.is_empty() || args.games.iter().any(|&g| g == 0 || g > MAX_GAMES) {
        return Err(CliError::msg(format!(
            "--games: each step from 1 to {MAX_GAMES} games"
        )));
    }
    let (_children, servers) = match &args.spawn {
        Some(db) => spawn(db, args.processes)?,
        None => {
            if args.servers.is_empty() {
                return Err(CliError::msg(
                    "give --server <url> (repeatable) or --spawn <database>",
                ));
            }
            let addrs = args
                .servers
                .iter()
                .map(|u| loopback(u))
                .collect::<Result<Vec<_>, _>>()
                .map_err(CliError::msg)?;
            (Vec::new(), addrs)
        }
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::Runtime(format!("cannot start the async runtime: {e}")))?;
    println!(
        "load test: {} on {} server process{}, {} pace, {} s a step, target p99 < {} ms",
        game_id(args),
        servers.len(),
        if servers.len() == 1 { "" } else { "es" },
        match args.pace {
            Pace::Human => "human (a move every 1-3 s a game)",
            Pace::Max => "maximum",
        },
        args.seconds,
        args.target_ms
    );
    let sessions = if args.accounts {
        let most = args.games.iter().max().copied().unwrap_or(1) as usize;
        let n = (2 * most).min(MAX_ACCOUNTS);
        let started = Instant::now();
        let sessions = runtime
            .block_on(sign_up(&servers, n))
            .map_err(CliError::Runtime)?;
        println!(
            "accounts: {n} signed up in {:.1} s; every game rated (10+5)",
            started.elapsed().as_secs_f64()
        );
        Some(Arc::new(sessions))
    } else {
        None
    };
    println!(
        "{:>6} {:>8} {:>7} {:>8} {:>7} {:>7} {:>7} {:>7} {:>6} {:>7}",
        "games",
        "clients",
        "moves",
        "moves/s",
        "p50 ms",
        "p90 ms",
        "p99 ms",
        "max ms",
        "ended",
        "errors"
    );
    let mut held = None;
    for &games in &args.games {
        let step = runtime.block_on(step(&servers, args, games, sessions.clone()));
        let step = step.map_err(CliError::Runtime)?;
        println!(
            "{:>6} {:>8} {:>7} {:>8.0} {:>7.1} {:>7.1} {:>7.1} {:>7.1} {:>6} {:>7}",
            games,
            games * 2,
            step.rtts.len(),
            step.rtts.len() as f64 / step.measured.as_secs_f64(),
            step.percentile(50.0),
            step.percentile(90.0),
            step.percentile(99.0),
            step.percentile(100.0),
            step.ended,
            step.errors
        );
        if !step.rtts.is_empty()
            && step.errors == 0
            && step.percentile(99.0) < args.target_ms as f64
        {
            held = Some(games);
        }
    }
    match held {
        Some(g) => println!(
            "held: {g} games ({} clients) with the 99th percentile under {} ms",
            g * 2,
            args.target_ms
        ),
        None => println!(
            "no step kept the 99th percentile under {} ms",
            args.target_ms
        ),
    }
    Ok(())
}

/// What one step measured.
struct Step {
    /// Round trips of the moves made after the first second, in milliseconds, sorted.
    rtts: Vec<f64>,
    /// Games played to their end (with `--accounts`, each rated: checked).
    ended: u64,
    errors: u64,
    measured: Duration,
}

impl Step {
    fn percentile(&self, p: f64) -> f64 {
        if self.rtts.is_empty() {
            return f64::NAN;
        }
        let i = ((p / 100.0) * (self.rtts.len() - 1) as f64).round() as usize;
        self.rtts[i.min(self.rtts.len() - 1)]
    }
}

#[derive(Default)]
struct Tally {
    rtts: Vec<f64>,
    ended: u64,
    errors: u64,
    first_error: Option<String>,
}

/// Signs up `n` accounts, spread over the servers, a few at a time (each sign-up hashes a
/// password): each account's session cookies.
async fn sign_up(servers: &[SocketAddr], n: usize) -> Result<Vec<Vec<String>>, String> {
    // Names of this run only: the database may hold another run's accounts.
    let run = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_micros() % 1_000_000_000);
    let mut sessions = Vec::with_capacity(n);
    for chunk in (0..n).collect::<Vec<_>>().chunks(8) {
        let mut tasks = Vec::new();
        for &i in chunk {
            let addr = servers[i % servers.len()];
            tasks.push(tokio::spawn(async move {
                let mut http = Connection::open(addr).await?;
                let body = json!({"name": format!("lt{run}x{i}"), "password": PASSWORD});
                let (status, answer) = http
                    .request("POST", "/api/account/signup", Some(&body))
                    .await?;
                if status != 201 || http.cookies().is_empty() {
                    return Err(format!(
                        "signing up an account: {status} {answer} (is the server started \
                         with --no-rate-limits?)"
                    ));
                }
                Ok(http.cookies().to_vec())
            }));
        }
        for task in tasks {
            sessions.push(task.await.map_err(|e| e.to_string())??);
        }
    }
    Ok(sessions)
}

async fn step(
    servers: &[SocketAddr],
    args: &LoadtestArgs,
    games: u32,
    sessions: Option<Arc<Vec<Vec<String>>>>,
) -> Result<Step, String> {
    let start = Instant::now();
    let warm = start + Duration::from_secs(1);
    let end = start + Duration::from_secs(args.seconds);
    let tally = Arc::new(Mutex::new(Tally::default()));
    let mut tasks = Vec::new();
    for g in 0..games {
        let players = [
            servers[g as usize % servers.len()],
            servers[(g as usize + 1) % servers.len()],
        ];
        let tally = tally.clone();
        let kind = game_id(args);
        let pace = (args.pace, args.clock);
        // Two accounts of the pool, a different pair for each game while the pool lasts.
        let seated = sessions.as_ref().map(|all| {
            let at = |k: usize| all[k % all.len()].clone();
            [at(2 * g as usize), at(2 * g as usize + 1)]
        });
        // Games start spread over the first second.
        let delay = Duration::from_millis(u64::from(g) * 1000 / u64::from(games));
        tasks.push(tokio::spawn(async move {
            tokio::time::sleep(delay).await;
            let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ u64::from(g).wrapping_mul(0x2545_F491));
            while Instant::now() < end {
                let game = play_game(
                    players,
                    &kind,
                    pace,
                    seated.as_ref(),
                    (warm, end),
                    &tally,
                    &mut rng,
                );
                if let Err(e) = game.await {
                    {
                        let mut t = tally.lock().expect("tally");
                        t.errors += 1;
                        t.first_error.get_or_insert(e);
                    }
                    // An error ends the game: start another after a pause.
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
            }
        }));
    }
    for task in tasks {
        let _ = tokio::time::timeout(Duration::from_secs(30), task).await;
    }
    let mut tally = std::mem::take(&mut *tally.lock().expect("tally"));
    if let Some(e) = &tally.first_error {
        eprintln!("loadtest: {games} games: first error: {e}");
    }
    tally.rtts.sort_by(|a, b| a.total_cmp(b));
    Ok(Step {
        rtts: tally.rtts,
        ended: tally.ended,
        errors: tally.errors,
        measured: end.saturating_duration_since(warm),
    })
}

/// A small seeded generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % n.max(1)
    }
}

/// Makes a game for two players on `http`: anonymous with both seats' tokens, or rated
/// between the two connections' accounts (the first makes it, the second joins): its id, the
/// seats' tokens and its state.
async fn make_game(
    http: &mut [Connection; 2],
    kind: &str,
    rated: bool,
    clock: Option<(u32, u32)>,
) -> Result<(String, [Value; 2], Value), String> {
    let mut body = if rated {
        json!({"game": kind, "seats": ["online", "open"], "rated": true,
               "clock": {"minutes": 10, "increment": 5}})
    } else {
        json!({"game": kind, "seats": ["online", "online"]})
    };
    if let Some((minutes, increment)) = clock {
        body["clock"] = json!({"minutes": minutes, "increment": increment});
    }
    let (status, created) = http[0].request("POST", "/api/games", Some(&body)).await?;
    if status != 201 {
        return Err(format!("creating a game: {status} {created}"));
    }
    let id = created["id"].as_str().ok_or("no game id")?.to_string();
    if !rated {
        let tokens = [created["tokens"][0].clone(), created["tokens"][1].clone()];
        return Ok((id, tokens, created["state"].clone()));
    }
    let path = format!("/api/games/{id}/join");
    let (status, joined) = http[1]
        .request("POST", &path, Some(&json!({"seat": 1})))
        .await?;
    if status != 200 {
        return Err(format!("joining a game: {status} {joined}"));
    }
    let tokens = [created["tokens"][0].clone(), joined["token"].clone()];
    Ok((id, tokens, joined["state"].clone()))
}

/// One game from creation to its end (or the end of the step), at `pace` with `clock` (if
/// any); `accounts`: the two players' session cookies, for a rated game.
async fn play_game(
    players: [SocketAddr; 2],
    kind: &str,
    (pace, clock): (Pace, Option<(u32, u32)>),
    accounts: Option<&[Vec<String>; 2]>,
    (warm, end): (Instant, Instant),
    tally: &Mutex<Tally>,
    rng: &mut Rng,
) -> Result<(), String> {
    let mut http = [
        Connection::open(players[0]).await?,
        Connection::open(players[1]).await?,
    ];
    if let Some(accounts) = accounts {
        for (connection, cookies) in http.iter_mut().zip(accounts) {
            connection.set_cookies(cookies.clone());
        }
    }
    let (id, tokens, mut state) = make_game(&mut http, kind, accounts.is_some(), clock).await?;
    // Each player's WebSocket; a task per socket tells the last version it brought.
    let mut seen = Vec::new();
    let mut readers = Vec::new();
    for addr in players {
        let url = format!("ws://{addr}/api/games/{id}/ws");
        let (socket, _) = tokio_tungstenite::connect_async(&url)
            .await
            .map_err(|e| format!("{url}: {e}"))?;
        let (tx, rx) = watch::channel(0u64);
        seen.push(rx);
        readers.push(tokio::spawn(async move {
            let (_, mut read) = socket.split();
            while let Some(Ok(message)) = read.next().await {
                if let tokio_tungstenite::tungstenite::Message::Text(text) = message {
                    if let Some(v) = version_of(text.as_str()) {
                        tx.send_if_modified(|old| {
                            let newer = v > *old;
                            if newer {
                                *old = v;
                            }
                            newer
                        });
                    }
                }
            }
        }));
    }
    let result = async {
        while state["outcome"].is_null() && Instant::now() < end {
            if pace == Pace::Human {
                let think = Duration::from_millis(1000 + rng.below(2000));
                tokio::time::sleep(think).await;
                if Instant::now() >= end {
                    break;
                }
            }
            let seat = state["to_move"].as_u64().ok_or("no seat to move")? as usize;
            let legal = state["legal"].as_array().ok_or("no legal moves")?;
            if legal.is_empty() {
                break;
            }
            let mv = legal[rng.below(legal.len() as u64) as usize].clone();
            let sent = Instant::now();
            let (status, next) = http[seat]
                .request(
                    "POST",
                    &format!("/api/games/{id}/moves"),
                    Some(&json!({"move": mv, "token": tokens[seat]})),
                )
                .await?;
            if status != 200 {
                return Err(format!("move {mv}: {status} {next}"));
            }
            let version = next["version"].as_u64().ok_or("no version")?;
            for rx in seen.iter_mut() {
                tokio::time::timeout(Duration::from_secs(10), rx.wait_for(|&v| v >= version))
                    .await
                    .map_err(|_| format!("version {version} not on a socket within 10 s"))?
                    .map_err(|_| "a socket closed".to_string())?;
            }
            if sent >= warm && Instant::now() <= end {
                let rtt = sent.elapsed().as_secs_f64() * 1000.0;
                tally.lock().expect("tally").rtts.push(rtt);
            }
            state = next;
        }
        if !state["outcome"].is_null() {
            // A rated game's end comes with both players' rating change.
            if accounts.is_some() && state["rating_change"].is_null() {
                return Err(format!("game {id} ended unrated: {state}"));
            }
            tally.lock().expect("tally").ended += 1;
        }
        Ok(())
    }
    .await;
    for reader in readers {
        reader.abort();
    }
    result
}

/// The `"version"` of a state's JSON text, read without parsing the rest.
fn version_of(text: &str) -> Option<u64> {
    let at = text.find("\"version\":")? + "\"version\":".len();
    let digits: String = text[at..]
        .trim_start()
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    digits.parse().ok()
}

/// The game the load test plays.
fn game_id(args: &LoadtestArgs) -> String {
    args.game
        .clone()
        .unwrap_or_else(|| myrmidon_rules::registry::games()[0].info().id.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_loopback_servers_are_loaded() {
        assert!(loopback("http://127.0.0.1:8080").is_ok());
        assert!(loopback("http://[::1]:8080/").is_ok());
        let e = loopback("http://192.0.2.1:80").unwrap_err();
        assert!(e.contains("not a loopback"), "{e}");
        assert!(loopback("ftp://127.0.0.1:1")
            .unwrap_err()
            .contains("http://"));
        let ip: std::net::IpAddr = "127.0.0.1".parse().unwrap();
        assert!(ip.is_loopback());
    }

    #[test]
    fn versions_are_read_from_state_text() {
        assert_eq!(version_of(r#"{"a":1,"version": 42,"b":2}"#), Some(42));
        assert_eq!(version_of(r#"{"version":7}"#), Some(7));
        assert_eq!(version_of(r#"{"x":1}"#), None);
    }

    #[test]
    fn clocks_are_read_as_minutes_and_increment() {
        assert_eq!(parse_clock("10+5"), Ok((10, 5)));
        assert_eq!(parse_clock("3+0"), Ok((3, 0)));
        for bad in ["10", "+5", "10+", "a+5", "10+-1", "0+5", ""] {
            assert!(parse_clock(bad).is_err(), "{bad:?}");
        }
    }
}
