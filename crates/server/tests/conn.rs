//! Connections under slow and hostile clients (issue 32, defect 6: slowloris), through the
//! accept loop of `serve` (conn.rs) on loopback: 2,000 half-open connections from one client
//! neither hold the server nor slow another client; half-sent heads, silent connections and
//! idle kept-alive connections are closed by their deadlines, while WebSockets and streams
//! stay open; a client over its cap is refused, a trusted proxy is not; at the total cap the
//! server waits; "too many open files" pauses accepting without spinning; shutdown lets the
//! requests in flight finish and closes the rest.
//!
//! Each server runs on a runtime and a thread of its own, as `serve` does. Clients are told
//! apart by their source address: Linux answers every 127.x.y.z on loopback, so floods come
//! from 127.0.0.1 and the other clients from 127.0.0.2 or 127.0.0.3. Waits poll for what they
//! wait for with a generous deadline; the only fixed sleeps are for what must not happen.

#![cfg(target_os = "linux")]

use rustix::process::{getrlimit, setrlimit, Resource, Rlimit};
use std::future::Future;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use myrmidon_server::{conn, router, App, ConnStats, Connections, RateLimits, Store};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::tungstenite::Message;

/// The connections of the flood.
const FLOOD: usize = 2000;

/// The first half of a request: the request line and headers, unfinished.
const HALF: &[u8] = b"GET /api/games HTTP/1.1\r\nHost: myrmidon\r\nX-Slow: ";
/// The rest of it.
const REST: &[u8] = b"1\r\nConnection: close\r\n\r\n";

/// How long what is sure to come may take on a loaded machine.
const PATIENCE: Duration = Duration::from_secs(30);

/// The tests that need the process's open files to themselves (the floods, the lowered limit)
/// hold this for writing; the others for reading. Held from before a test builds its runtime
/// to after it is dropped: a runtime takes files too.
static FILES: RwLock<()> = RwLock::new(());

/// Runs a test on a runtime of its own, sharing the process's open files with other tests.
fn shared(test: impl Future<Output = ()>) {
    let _files = FILES.read().unwrap_or_else(|e| e.into_inner());
    runtime().block_on(test);
}

/// Runs a test on a runtime of its own, with the process's open files to itself.
fn alone(test: impl Future<Output = ()>) {
    let _files = FILES.write().unwrap_or_else(|e| e.into_inner());
    runtime().block_on(test);
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime for the test")
}

/// The limit on open files (`None`: no limit).
fn file_limit() -> Rlimit {
    getrlimit(Resource::Nofile)
}

fn set_file_limit(limit: Rlimit) {
    setrlimit(Resource::Nofile, limit).expect("setrlimit");
}

/// Raises the soft limit on open files to at least `files` (the flood's sockets are opened in
/// this process, as are the server's).
fn enough_files(files: u64) {
    let limit = file_limit();
    if limit.current.is_none_or(|soft| soft >= files) {
        return;
    }
    assert!(
        limit.maximum.is_none_or(|hard| hard >= files),
        "this test opens {files} files, but the hard limit (ulimit -Hn) is {:?}",
        limit.maximum
    );
    set_file_limit(Rlimit {
        current: Some(files),
        maximum: limit.maximum,
    });
}

/// A server on loopback, on a runtime and thread of its own; told to shut down when dropped.
struct Server {
    addr: SocketAddr,
    conns: Arc<Connections>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

fn start(limits: RateLimits) -> Server {
    let conns = Connections::new(&limits);
    let served = conns.clone();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let (bound, addr) = std::sync::mpsc::channel();
    let thread = std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async move {
            let store = Store::open("sqlite::memory:").await.unwrap();
            let app = App::with_limits(store, Duration::from_millis(20), 1, limits);
            let listener = conn::bind("127.0.0.1:0".parse().unwrap()).unwrap();
            bound.send(listener.local_addr().unwrap()).unwrap();
            let shutdown = async {
                let _ = stopped.await;
            };
            served.serve(listener, router(app), shutdown).await;
        });
    });
    let addr = addr.recv().expect("the server starts");
    Server {
        addr,
        conns,
        stop: Some(stop),
        thread: Some(thread),
    }
}

impl Server {
    fn stats(&self) -> ConnStats {
        self.conns.stats()
    }

    /// Waits until the counts of the connections satisfy `done`.
    async fn until(&self, what: &str, done: impl Fn(&ConnStats) -> bool) -> ConnStats {
        let start = Instant::now();
        loop {
            let stats = self.stats();
            if done(&stats) {
                return stats;
            }
            assert!(
                start.elapsed() < PATIENCE,
                "{what}: not after {PATIENCE:?}; {stats:?}"
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    /// Tells the server to shut down (its listener closes, and so on).
    fn shut_down(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }

    /// Waits for the server to have shut down.
    async fn stopped(&mut self) {
        let thread = self.thread.take().expect("not stopped before");
        let joined =
            tokio::time::timeout(PATIENCE, tokio::task::spawn_blocking(move || thread.join()))
                .await
                .expect("the server stops");
        assert!(joined.unwrap().is_ok(), "the server thread panicked");
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.shut_down();
    }
}

/// A connection from `source`, a loopback address.
async fn connect_from(source: [u8; 4], to: SocketAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(SocketAddr::from((source, 0))).unwrap();
    socket
        .connect(to)
        .await
        .unwrap_or_else(|e| panic!("connecting from {source:?} to {to}: {e}"))
}

/// One response read from a connection.
struct Response {
    status: u16,
    /// The header lines, names lowercase.
    head: String,
    body: Vec<u8>,
}

impl Response {
    fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&self.body)))
    }
}

/// Reads one response whose body has a `Content-Length`.
async fn read_response(stream: &mut TcpStream) -> Response {
    let read = async {
        let mut bytes = Vec::new();
        let mut chunk = [0u8; 4096];
        let end = loop {
            if let Some(at) = bytes.windows(4).position(|w| w == b"\r\n\r\n") {
                break at;
            }
            let n = stream.read(&mut chunk).await.expect("the response comes");
            assert!(
                n > 0,
                "the connection closed mid-response: {}",
                String::from_utf8_lossy(&bytes)
            );
            bytes.extend_from_slice(&chunk[..n]);
        };
        let head = String::from_utf8_lossy(&bytes[..end]).to_ascii_lowercase();
        let status = head
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no status in {head}"));
        let length: usize = head
            .lines()
            .find_map(|l| l.strip_prefix("content-length:"))
            .unwrap_or_else(|| panic!("no content-length in {head}"))
            .trim()
            .parse()
            .unwrap();
        let mut body = bytes[end + 4..].to_vec();
        while body.len() < length {
            let n = stream.read(&mut chunk).await.expect("the body comes");
            assert!(n > 0, "the connection closed mid-body");
            body.extend_from_slice(&chunk[..n]);
        }
        Response { status, head, body }
    };
    tokio::time::timeout(PATIENCE, read)
        .await
        .expect("a response in time")
}

/// A request on a new connection from `source`, which the server then closes: the response,
/// and how long from before connecting to the end of the response.
async fn request_from(
    source: [u8; 4],
    to: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&Value>,
) -> (Response, Duration) {
    let start = Instant::now();
    let mut stream = connect_from(source, to).await;
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: myrmidon\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let response = read_response(&mut stream).await;
    (response, start.elapsed())
}

/// Waits for the server to close `stream` (end of stream or reset; bytes are a failure):
/// how long after `since`.
async fn closed(stream: &mut TcpStream, since: Instant) -> Duration {
    let mut buf = [0u8; 1024];
    match tokio::time::timeout(PATIENCE, stream.read(&mut buf)).await {
        Err(_) => panic!("the server did not close the connection in {PATIENCE:?}"),
        Ok(Ok(0)) | Ok(Err(_)) => since.elapsed(),
        Ok(Ok(n)) => panic!(
            "the server answered instead of closing: {}",
            String::from_utf8_lossy(&buf[..n])
        ),
    }
}

/// Whether the server closed `stream`, without waiting.
fn is_closed(stream: &TcpStream) -> bool {
    let mut buf = [0u8; 64];
    match stream.try_read(&mut buf) {
        Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => false,
        Ok(0) | Err(_) => true,
        Ok(n) => panic!(
            "a stalled connection got an answer: {}",
            String::from_utf8_lossy(&buf[..n])
        ),
    }
}

/// With the default caps and a header timeout of 1 s: while one client opens 2,000
/// connections that send half a request head and stall, another client's `GET` is answered in
/// under a second, again and again; the server holds no more than the client's cap, refuses
/// the rest at once, and closes the ones it held after the header timeout, not before.
#[test]
fn two_thousand_half_open_connections_neither_hold_nor_slow_the_server() {
    alone(async {
        enough_files(FLOOD as u64 + 500);
        let header_timeout = Duration::from_secs(1);
        let cap = RateLimits::default().connections_per_client;
        let server = start(RateLimits {
            header_timeout,
            ..RateLimits::default()
        });
        let addr = server.addr;
        let opened = Arc::new(AtomicUsize::new(0));
        let flood: Vec<_> = (0..FLOOD)
            .map(|_| {
                let opened = opened.clone();
                tokio::spawn(async move {
                    let start = Instant::now();
                    let mut stream = TcpStream::connect(addr)
                        .await
                        .unwrap_or_else(|e| panic!("connecting to {addr}: {e}"));
                    // A refused connection may be closed already: then the write fails.
                    let _ = stream.write_all(HALF).await;
                    opened.fetch_add(1, SeqCst);
                    closed(&mut stream, start).await
                })
            })
            .collect();

        // Another client, all through the flood and once after it.
        let mut gets = Vec::new();
        let mut most_held = 0;
        loop {
            let flooded = opened.load(SeqCst) == FLOOD;
            let (response, took) =
                request_from([127, 0, 0, 2], addr, "GET", "/api/games", None).await;
            assert_eq!(response.status, 200);
            gets.push(took);
            most_held = most_held.max(server.stats().open);
            if flooded {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let slowest = gets.iter().max().unwrap();
        eprintln!(
            "{} GETs from another client during and after the flood: slowest {slowest:?}, last \
         {:?}; the server held at most {most_held} connections",
            gets.len(),
            gets.last().unwrap()
        );
        assert!(
            *slowest < Duration::from_secs(1),
            "a GET took {slowest:?}: {gets:?}"
        );
        assert!(most_held <= cap + 1, "held {most_held}, over the cap");

        // Every connection of the flood is closed: the held ones after the header timeout.
        let mut late = 0;
        for task in flood {
            let after = task.await.unwrap();
            if after >= header_timeout {
                late += 1;
            }
        }
        let stats = server.until("all closed", |s| s.open == 0).await;
        eprintln!("{stats:?}; closed after the header timeout: {late}");
        assert_eq!(stats.accepted, (FLOOD + gets.len()) as u64, "{stats:?}");
        assert_eq!(
            stats.refused + stats.header_timeouts,
            FLOOD as u64,
            "{stats:?}"
        );
        assert!(stats.header_timeouts >= cap as u64, "{stats:?}");
        assert!(stats.refused > 0, "{stats:?}");
        assert_eq!(stats.idle_timeouts, 0, "{stats:?}");
        // None was closed by its deadline before the timeout had passed.
        assert!(late >= stats.header_timeouts, "{late}, {stats:?}");
    });
}

/// With the default cap and a long header timeout: of 2,000 stalled connections from one
/// client, exactly the cap is held and the rest are closed at once; another client is served
/// meanwhile in under a second; the held connections are served when they finish their
/// request, and then the client may connect again.
#[test]
fn a_client_over_its_cap_is_refused_and_others_are_served() {
    alone(async {
        enough_files(FLOOD as u64 + 500);
        let cap = RateLimits::default().connections_per_client;
        let server = start(RateLimits {
            header_timeout: Duration::from_secs(120),
            ..RateLimits::default()
        });
        let mut flood = Vec::with_capacity(FLOOD);
        for _ in 0..FLOOD {
            let mut stream = TcpStream::connect(server.addr).await.unwrap();
            let _ = stream.write_all(HALF).await;
            flood.push(stream);
        }
        let stats = server
            .until("the connections over the cap refused", |s| {
                s.accepted == FLOOD as u64 && s.refused == (FLOOD - cap) as u64
            })
            .await;
        assert_eq!(stats.open, cap, "{stats:?}");

        let (response, took) =
            request_from([127, 0, 0, 2], server.addr, "GET", "/api/games", None).await;
        eprintln!("a GET from another client with {cap} half-open connections held and the rest refused: {took:?}");
        assert_eq!(response.status, 200);
        assert!(took < Duration::from_secs(1), "{took:?}");

        // The flood sees the same: the cap open, the rest closed.
        let start = Instant::now();
        let held = loop {
            let held: Vec<usize> = (0..FLOOD).filter(|&i| !is_closed(&flood[i])).collect();
            if held.len() == cap {
                break held;
            }
            assert!(
                start.elapsed() < PATIENCE,
                "{} connections still open",
                held.len()
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        };
        for i in held {
            flood[i].write_all(REST).await.unwrap();
            let response = read_response(&mut flood[i]).await;
            assert_eq!(response.status, 200);
        }
        drop(flood);
        server.until("all closed", |s| s.open == 0).await;
        let (response, _) =
            request_from([127, 0, 0, 1], server.addr, "GET", "/api/games", None).await;
        assert_eq!(response.status, 200);
    });
}

/// A trusted proxy carries many clients: the cap per client does not apply to it.
#[test]
fn a_trusted_proxy_is_not_capped_like_one_client() {
    shared(async {
        let server = start(RateLimits {
            header_timeout: Duration::from_secs(120),
            connections_per_client: 2,
            trusted_proxies: vec!["127.0.0.3".parse().unwrap()],
            ..RateLimits::default()
        });
        let mut proxy = Vec::new();
        for _ in 0..5 {
            let mut stream = connect_from([127, 0, 0, 3], server.addr).await;
            stream.write_all(HALF).await.unwrap();
            proxy.push(stream);
        }
        let mut client = Vec::new();
        for _ in 0..3 {
            let mut stream = connect_from([127, 0, 0, 1], server.addr).await;
            let _ = stream.write_all(HALF).await;
            client.push(stream);
        }
        let stats = server
            .until("all accepted", |s| s.accepted == 8 && s.refused == 1)
            .await;
        assert_eq!(stats.open, 7, "{stats:?}");
        for mut stream in proxy {
            stream.write_all(REST).await.unwrap();
            assert_eq!(read_response(&mut stream).await.status, 200);
        }
    });
}

/// At the total cap the server accepts nothing more (the next client waits in the kernel's
/// queue) until a connection closes; then it serves the one waiting.
#[test]
fn at_the_total_cap_the_next_connection_waits_for_a_free_place() {
    shared(async {
        let server = start(RateLimits {
            header_timeout: Duration::from_secs(120),
            connections: 3,
            ..RateLimits::default()
        });
        let mut stalled = Vec::new();
        for _ in 0..3 {
            let mut stream = connect_from([127, 0, 0, 1], server.addr).await;
            stream.write_all(HALF).await.unwrap();
            stalled.push(stream);
        }
        server.until("three held", |s| s.open == 3).await;
        let addr = server.addr;
        let waiting = tokio::spawn(request_from(
            [127, 0, 0, 2],
            addr,
            "GET",
            "/api/games",
            None,
        ));
        // What must not happen: the fourth accepted while three are held.
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert!(!waiting.is_finished());
        assert_eq!(server.stats().accepted, 3);
        // One of the three finishes: the fourth is served.
        stalled[0].write_all(REST).await.unwrap();
        assert_eq!(read_response(&mut stalled[0]).await.status, 200);
        let (response, _) = waiting.await.unwrap();
        assert_eq!(response.status, 200);
        assert_eq!(server.stats().accepted, 4);
    });
}

/// A kept-alive connection left idle is closed after the idle timeout (here much shorter than
/// the header timeout), not before.
#[test]
fn an_idle_kept_alive_connection_is_closed_after_the_idle_timeout() {
    shared(async {
        // Long enough for the client to send its second request in time on a loaded machine.
        let idle_timeout = Duration::from_secs(2);
        let server = start(RateLimits {
            header_timeout: Duration::from_secs(120),
            idle_timeout,
            ..RateLimits::default()
        });
        let mut stream = connect_from([127, 0, 0, 1], server.addr).await;
        // Two requests on the connection: it is kept alive.
        let mut asked = Instant::now();
        for _ in 0..2 {
            asked = Instant::now();
            stream
                .write_all(b"GET /api/games HTTP/1.1\r\nHost: myrmidon\r\n\r\n")
                .await
                .unwrap();
            let response = read_response(&mut stream).await;
            assert_eq!(response.status, 200);
            assert!(!response.head.contains("connection: close"));
        }
        let after = closed(&mut stream, asked).await;
        eprintln!("an idle connection closed {after:?} after its last request");
        assert!(after >= idle_timeout, "{after:?}");
        let stats = server.until("closed", |s| s.open == 0).await;
        assert_eq!((stats.idle_timeouts, stats.header_timeouts), (1, 0));
    });
}

/// The header timeout closes a connection that sends nothing, and one whose next request
/// (after a first one) stops half-way, even though the idle timeout is long; not before.
#[test]
fn a_half_sent_or_missing_request_head_is_closed_after_the_header_timeout() {
    shared(async {
        let header_timeout = Duration::from_secs(1);
        let server = start(RateLimits {
            header_timeout,
            idle_timeout: Duration::from_secs(120),
            ..RateLimits::default()
        });
        let since = Instant::now();
        let mut silent = connect_from([127, 0, 0, 1], server.addr).await;
        let mut half = connect_from([127, 0, 0, 1], server.addr).await;
        half.write_all(b"GET /api/games HTTP/1.1\r\nHost: myrmidon\r\n\r\n")
            .await
            .unwrap();
        assert_eq!(read_response(&mut half).await.status, 200);
        let began = Instant::now();
        half.write_all(b"GET /api/ga").await.unwrap();
        let (silent_after, half_after) =
            tokio::join!(closed(&mut silent, since), closed(&mut half, began));
        eprintln!(
        "silent connection closed after {silent_after:?}, a half-sent head after {half_after:?}"
    );
        assert!(silent_after >= header_timeout, "{silent_after:?}");
        assert!(half_after >= header_timeout, "{half_after:?}");
        let stats = server.until("closed", |s| s.open == 0).await;
        assert_eq!((stats.header_timeouts, stats.idle_timeouts), (2, 0));
    });
}

/// A WebSocket and a stream of states outlive the idle timeout many times over: they are not
/// idle. (The header timeout is long: a slow start of a request is not what this tests.)
#[test]
fn websockets_and_streams_are_not_idle() {
    shared(async {
        let timeout = Duration::from_millis(500);
        let server = start(RateLimits {
            header_timeout: Duration::from_secs(120),
            idle_timeout: timeout,
            ..RateLimits::default()
        });
        let addr = server.addr;
        let (mut socket, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/api/analysis"))
            .await
            .unwrap();
        let (created, _) = request_from(
            [127, 0, 0, 1],
            addr,
            "POST",
            "/api/games",
            Some(&json!({"game": "reines", "seats": ["human", "human"]})),
        )
        .await;
        assert_eq!(created.status, 201);
        let created = created.json();
        let id = created["id"].as_str().unwrap();
        let mut stream = connect_from([127, 0, 0, 1], addr).await;
        stream
            .write_all(
                format!("GET /api/games/{id}/stream HTTP/1.1\r\nHost: myrmidon\r\n\r\n").as_bytes(),
            )
            .await
            .unwrap();
        // Each state is a JSON object on a line of its own.
        let states = |streamed: &[u8]| streamed.windows(2).filter(|w| w == b"}\n").count();
        let mut streamed = Vec::new();
        let mut chunk = [0u8; 8192];
        while states(&streamed) < 1 {
            let n = tokio::time::timeout(PATIENCE, stream.read(&mut chunk))
                .await
                .unwrap()
                .unwrap();
            assert!(n > 0, "the stream closed");
            streamed.extend_from_slice(&chunk[..n]);
        }
        // What must not happen: both closed by the timeouts.
        tokio::time::sleep(timeout * 4).await;
        socket.send(Message::Ping(vec![7].into())).await.unwrap();
        let pong = tokio::time::timeout(PATIENCE, async {
            loop {
                match socket.next().await {
                    Some(Ok(Message::Pong(data))) => return data,
                    Some(Ok(_)) => {}
                    other => panic!("the WebSocket closed: {other:?}"),
                }
            }
        })
        .await
        .unwrap();
        assert_eq!(&pong[..], &[7]);
        let mv = created["state"]["legal"][0].as_str().unwrap();
        let token = created["tokens"][0].as_str().unwrap();
        let (moved, _) = request_from(
            [127, 0, 0, 1],
            addr,
            "POST",
            &format!("/api/games/{id}/moves"),
            Some(&json!({"move": mv, "token": token})),
        )
        .await;
        assert_eq!(moved.status, 200);
        while states(&streamed) < 2 {
            let n = tokio::time::timeout(PATIENCE, stream.read(&mut chunk))
                .await
                .unwrap()
                .unwrap();
            assert!(n > 0, "the stream closed");
            streamed.extend_from_slice(&chunk[..n]);
        }
        let stats = server.stats();
        assert_eq!(
            (stats.header_timeouts, stats.idle_timeouts),
            (0, 0),
            "{stats:?}"
        );
    });
}

/// "Too many open files": accepting pauses and resumes when files are free, without spinning
/// and without stopping the server.
#[test]
fn too_many_open_files_pauses_accepting() {
    const CLIENTS: u64 = 16;
    alone(async {
        let server = start(RateLimits {
            header_timeout: Duration::from_secs(120),
            ..RateLimits::default()
        });
        // The clients' sockets exist before the limit is lowered: connecting takes no new file.
        // More of them than files that earlier tests' servers may still be closing.
        let sockets: Vec<TcpSocket> = (0..CLIENTS).map(|_| TcpSocket::new_v4().unwrap()).collect();
        let before = file_limit();
        // Less the one that lists them.
        let open = std::fs::read_dir("/proc/self/fd").unwrap().count() as u64 - 1;
        struct Restore(Rlimit);
        impl Drop for Restore {
            fn drop(&mut self) {
                set_file_limit(self.0);
            }
        }
        let _restore = Restore(before);
        // Room for two more files: the server accepts two connections, then cannot.
        set_file_limit(Rlimit {
            current: Some(open + 2),
            maximum: before.maximum,
        });
        let mut clients = Vec::new();
        for socket in sockets {
            let mut stream = socket.connect(server.addr).await.unwrap();
            stream.write_all(HALF).await.unwrap();
            clients.push(stream);
        }
        let stats = server
            .until("accepting fails", |s| s.accept_errors > 0)
            .await;
        assert!(stats.accepted < CLIENTS, "{stats:?}");
        // What must not happen: accepting again and again (it pauses 100 ms each time).
        let window = Duration::from_millis(500);
        let start = Instant::now();
        tokio::time::sleep(window).await;
        let errors = server.stats().accept_errors - stats.accept_errors;
        let most = (start.elapsed().as_millis() / 100 + 2) as u64;
        eprintln!(
            "out of files: {} of {CLIENTS} accepted, {errors} accept errors in {:?}",
            stats.accepted,
            start.elapsed()
        );
        assert!(
            errors <= most,
            "{errors} accept errors in {:?}",
            start.elapsed()
        );
        // Each request finished frees a file: every client is served in turn.
        for stream in &mut clients {
            stream.write_all(REST).await.unwrap();
            assert_eq!(read_response(stream).await.status, 200);
        }
        let stats = server.until("all closed", |s| s.open == 0).await;
        assert_eq!(stats.accepted, CLIENTS, "{stats:?}");
    });
}

/// Shutdown: the listener closes, an idle connection is closed at once, a request in flight
/// finishes (told the connection closes), a WebSocket is closed, a half-sent head is cut off,
/// and the server is done without waiting out its grace period.
#[test]
fn shutdown_finishes_requests_in_flight_and_closes_websockets() {
    shared(async {
        let mut server = start(RateLimits::default());
        let addr = server.addr;
        let (mut socket, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/api/analysis"))
            .await
            .unwrap();
        let mut idle = connect_from([127, 0, 0, 1], addr).await;
        idle.write_all(b"GET /api/games HTTP/1.1\r\nHost: myrmidon\r\n\r\n")
            .await
            .unwrap();
        assert_eq!(read_response(&mut idle).await.status, 200);
        // A request in flight: its head sent, half its body.
        let body = json!({"game": "reines", "seats": ["human", "human"]}).to_string();
        let (first, second) = body.split_at(body.len() / 2);
        let mut busy = connect_from([127, 0, 0, 1], addr).await;
        busy.write_all(
            format!(
                "POST /api/games HTTP/1.1\r\nHost: myrmidon\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\n\r\n{first}",
                body.len()
            )
            .as_bytes(),
        )
        .await
        .unwrap();
        // A request head begun, never finished.
        let mut half = connect_from([127, 0, 0, 1], addr).await;
        half.write_all(HALF).await.unwrap();
        server.until("four open", |s| s.open == 4).await;

        server.shut_down();
        let start = Instant::now();
        while TcpStream::connect(addr).await.is_ok() {
            assert!(start.elapsed() < PATIENCE, "the listener is still open");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        closed(&mut idle, Instant::now()).await;
        busy.write_all(second.as_bytes()).await.unwrap();
        let response = read_response(&mut busy).await;
        assert_eq!(response.status, 201);
        assert!(
            response.head.contains("connection: close"),
            "{}",
            response.head
        );
        let finished = Instant::now();
        let closing = tokio::time::timeout(PATIENCE, async {
            loop {
                match socket.next().await {
                    None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return,
                    Some(Ok(_)) => {}
                }
            }
        });
        closing.await.expect("the WebSocket is closed");
        closed(&mut half, Instant::now()).await;
        server.stopped().await;
        let took = finished.elapsed();
        eprintln!(
            "shut down {took:?} after the last request in flight (the half-sent head had 1 s)"
        );
        assert!(took < conn::SHUTDOWN_GRACE, "{took:?}");
        assert_eq!(server.stats().open, 0);
    });
}

/// What a slow client can make the server hold is bounded: a request head over 64 KiB is
/// refused with `431`; a body over the limit with `413`, as through the router alone.
#[test]
fn a_head_over_64_kib_is_refused() {
    shared(async {
        let server = start(RateLimits::default());
        let mut stream = connect_from([127, 0, 0, 1], server.addr).await;
        let long = "x".repeat(70 * 1024);
        // The server may answer and close before it has read all of it.
        let _ = stream
            .write_all(
                format!("GET /api/games HTTP/1.1\r\nHost: myrmidon\r\nX-Long: {long}\r\n\r\n")
                    .as_bytes(),
            )
            .await;
        let mut answer = Vec::new();
        let _ = tokio::time::timeout(PATIENCE, stream.read_to_end(&mut answer)).await;
        let answer = String::from_utf8_lossy(&answer);
        assert!(answer.starts_with("HTTP/1.1 431"), "{answer}");
        let big =
            json!({"game": "reines", "seats": ["human", "human"], "pad": "x".repeat(100 * 1024)});
        let (response, _) = request_from(
            [127, 0, 0, 1],
            server.addr,
            "POST",
            "/api/games",
            Some(&big),
        )
        .await;
        assert_eq!(response.status, 413);
    });
}
