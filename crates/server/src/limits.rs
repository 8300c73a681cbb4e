//! Limits per client, against abuse: how fast a client may create games and act in them (token
//! buckets), how many unfinished games it may have made, and how many WebSockets it may hold
//! open. A client is its IP address as the connection shows it, or, when the connection comes
//! from a trusted proxy (`--trusted-proxy`), as the proxy's `X-Forwarded-For` header says.
//! The limits on connections (their deadlines, how many a peer address and the whole server
//! may hold) are kept here too, and enforced by the accept loop (conn.rs).

use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::ws::{close_code, CloseFrame, Message, WebSocket};
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{header, HeaderMap, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;

use crate::i18n::{Lang, Refused};
use crate::live::App;
use crate::views::ErrorView;

/// The limits of one server.
#[derive(Clone, Debug, PartialEq)]
pub struct RateLimits {
    /// Games a client may create: this many at once, then one every `create_every`.
    pub create_burst: u32,
    pub create_every: Duration,
    /// Other requests that change something (moves, resignations, joins, explorer set-ups…): this
    /// many at once, then one every `action_every`.
    pub action_burst: u32,
    pub action_every: Duration,
    /// WebSockets a client may hold open at once.
    pub sockets: usize,
    /// Messages a client may send on one WebSocket in a second; more closes the socket.
    pub messages_per_second: u32,
    /// Unfinished games a client may have created in the last 24 hours (counted in the
    /// database, so across server processes).
    pub open_games: u32,
    /// The proxies (load balancers) whose `X-Forwarded-For` header names the client. They
    /// are also exempt from `connections_per_client` (conn.rs says why).
    pub trusted_proxies: Vec<IpAddr>,
    /// How long a client has to send a request head (request line and headers): from the
    /// accept for a new connection, from the first byte of the next request on a kept-alive
    /// one. Then the connection is closed, unanswered.
    pub header_timeout: Duration,
    /// How long a kept-alive connection may wait, with no request in flight, for the next
    /// request to begin; then it is closed. Streamed responses and WebSockets are not idle.
    pub idle_timeout: Duration,
    /// Connections one client may hold open at once, WebSockets included; one more is closed
    /// at once. The client is the TCP peer address (an IPv6 one by its /64 prefix), whatever
    /// `X-Forwarded-For` says; trusted proxies are exempt.
    pub connections_per_client: usize,
    /// Connections the server holds at once, from all clients; at the cap it accepts no more
    /// until one closes. `serve` lowers it to what the limit on open files allows.
    pub connections: usize,
}

impl Default for RateLimits {
    /// For people and bots: 20 games at once then one every 3 s; 100 actions at once then 50 a
    /// second; 50 sockets; 20 messages a second on a socket. Connections: 10 s for a request
    /// head, 60 s idle, 64 a client (a browser opens up to 6 for HTTP/1.1, plus its
    /// WebSockets, which are capped at 50), 10,000 in all.
    fn default() -> Self {
        RateLimits {
            create_burst: 20,
            create_every: Duration::from_secs(3),
            action_burst: 100,
            action_every: Duration::from_millis(20),
            sockets: 50,
            messages_per_second: 20,
            open_games: 50,
            trusted_proxies: Vec::new(),
            header_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(60),
            connections_per_client: 64,
            connections: 10_000,
        }
    }
}

impl RateLimits {
    /// No limit per client (tests, load tests on a trusted network). What protects the process
    /// itself stays as by default: the timeouts of connections (a load test does not idle) and
    /// the total cap on connections (the open files).
    pub fn off() -> Self {
        RateLimits {
            create_burst: u32::MAX,
            create_every: Duration::ZERO,
            action_burst: u32::MAX,
            action_every: Duration::ZERO,
            sockets: usize::MAX,
            messages_per_second: u32::MAX,
            open_games: u32::MAX,
            trusted_proxies: Vec::new(),
            connections_per_client: usize::MAX,
            ..RateLimits::default()
        }
    }
}

#[derive(Clone, Copy)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

/// The state of the limits: buckets and open sockets per client.
pub struct Limiter {
    pub limits: RateLimits,
    buckets: Mutex<HashMap<(IpAddr, bool), Bucket>>,
    sockets: Mutex<HashMap<IpAddr, usize>>,
}

/// An open WebSocket counted against its client; dropping it lets the client open another.
pub struct SocketPermit {
    limiter: Arc<Limiter>,
    ip: IpAddr,
}

impl Drop for SocketPermit {
    fn drop(&mut self) {
        let mut sockets = self.limiter.sockets.lock().expect("sockets lock");
        if let Some(n) = sockets.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                sockets.remove(&self.ip);
            }
        }
    }
}

impl Limiter {
    pub fn new(limits: RateLimits) -> Arc<Limiter> {
        Arc::new(Limiter {
            limits,
            buckets: Mutex::new(HashMap::new()),
            sockets: Mutex::new(HashMap::new()),
        })
    }

    /// Takes one request of the kind from the client's bucket, or says how long to wait.
    fn take(&self, ip: IpAddr, create: bool) -> Result<(), Duration> {
        let (burst, every) = if create {
            (self.limits.create_burst, self.limits.create_every)
        } else {
            (self.limits.action_burst, self.limits.action_every)
        };
        if burst == u32::MAX || every.is_zero() {
            return Ok(());
        }
        let now = Instant::now();
        let mut buckets = self.buckets.lock().expect("buckets lock");
        if buckets.len() > 100_000 {
            // Forget the clients whose buckets are full again.
            buckets.retain(|_, b| now.duration_since(b.at) < every * burst);
        }
        let bucket = buckets.entry((ip, create)).or_insert(Bucket {
            tokens: burst as f64,
            at: now,
        });
        let refill = now.duration_since(bucket.at).as_secs_f64() / every.as_secs_f64();
        bucket.tokens = (bucket.tokens + refill).min(burst as f64);
        bucket.at = now;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            Ok(())
        } else {
            Err(every.mul_f64(1.0 - bucket.tokens))
        }
    }

    /// Counts a WebSocket of the client, if it may open one more.
    pub fn socket(self: &Arc<Self>, ip: IpAddr) -> Option<SocketPermit> {
        let mut sockets = self.sockets.lock().expect("sockets lock");
        let n = sockets.entry(ip).or_insert(0);
        if *n >= self.limits.sockets {
            return None;
        }
        *n += 1;
        Some(SocketPermit {
            limiter: self.clone(),
            ip,
        })
    }
}

impl Limiter {
    /// The client of a request: the connection's address (the unspecified address when the
    /// server runs without connection information: tests calling the router directly); when
    /// that is a trusted proxy, the last address of `X-Forwarded-For` that is not one.
    pub fn client(&self, extensions: &axum::http::Extensions, headers: &HeaderMap) -> IpAddr {
        let peer = extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |c| c.0.ip());
        let trusted = &self.limits.trusted_proxies;
        if !trusted.contains(&peer) {
            return peer;
        }
        let mut client = peer;
        // Each proxy appends the address it was reached from: read from the right.
        let forwarded = headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .collect::<Vec<_>>();
        for hop in forwarded.iter().rev() {
            match hop.trim().parse::<IpAddr>() {
                Ok(ip) => {
                    client = ip;
                    if !trusted.contains(&ip) {
                        break;
                    }
                }
                // Garbage: trust nothing further left.
                Err(_) => break,
            }
        }
        client
    }
}

impl Limiter {
    /// Whether a request came to a trusted proxy through HTTPS: the connection is from one,
    /// and its `X-Forwarded-Proto` (the first value, the scheme the browser used) is `https`.
    pub fn forwarded_https(
        &self,
        extensions: &axum::http::Extensions,
        headers: &HeaderMap,
    ) -> bool {
        let peer = extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |c| c.0.ip());
        self.limits.trusted_proxies.contains(&peer)
            && headers
                .get("x-forwarded-proto")
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.split(',').next())
                .is_some_and(|scheme| scheme.trim().eq_ignore_ascii_case("https"))
    }
}

/// The client of a request, as an extractor (for the WebSocket handlers).
pub struct ClientIp(pub IpAddr);

impl axum::extract::FromRequestParts<Arc<App>> for ClientIp {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        app: &Arc<App>,
    ) -> Result<Self, Self::Rejection> {
        Ok(ClientIp(
            app.limiter.client(&parts.extensions, &parts.headers),
        ))
    }
}

/// A `429` with `{"error"}` and `Retry-After`.
pub fn too_many(what: &str, wait: Duration) -> Response {
    let secs = wait.as_secs_f64().ceil().max(1.0) as u64;
    let msg = msg!("api-too-many", what = what, secs = secs);
    let mut response = (
        StatusCode::TOO_MANY_REQUESTS,
        [(header::RETRY_AFTER, secs.to_string())],
        Json(ErrorView::of(&msg, Lang::En)),
    )
        .into_response();
    response.extensions_mut().insert(Refused(msg));
    response
}

/// The middleware: every `POST` under `/api` takes from its client's bucket.
pub async fn limit(State(app): State<Arc<App>>, request: Request, next: Next) -> Response {
    if request.method() == Method::POST && request.uri().path().starts_with("/api/") {
        let create = request.uri().path() == "/api/games";
        let client = app.limiter.client(request.extensions(), request.headers());
        if let Err(wait) = app.limiter.take(client, create) {
            let what = if create { "games" } else { "requests" };
            return too_many(what, wait);
        }
    }
    next.run(request).await
}

/// Counts the messages a client sends on one WebSocket, for [`RateLimits::messages_per_second`].
pub struct MessageRate {
    limit: u32,
    window: Instant,
    count: u32,
}

impl MessageRate {
    pub fn new(limits: &RateLimits) -> Self {
        MessageRate {
            limit: limits.messages_per_second,
            window: Instant::now(),
            count: 0,
        }
    }

    /// One more message: false once the client sends more than its limit in a second.
    pub fn allow(&mut self) -> bool {
        let now = Instant::now();
        if now.duration_since(self.window) >= Duration::from_secs(1) {
            self.window = now;
            self.count = 0;
        }
        self.count = self.count.saturating_add(1);
        self.count <= self.limit
    }
}

/// The largest frame and message the WebSocket protocol layer reads, on every socket: the
/// sockets' own limits are lower and checked on each message read, so that a message over
/// them is answered with a close frame (1009) rather than a dropped connection. A frame over
/// this one is refused as soon as its header is read (nothing of it is buffered), and also
/// answered with a close frame, as far as the connection still takes one.
pub const FRAME_LIMIT: usize = 64 * 1024;

/// The size of a message read from a WebSocket, for its socket's limit.
pub fn message_size(message: &Message) -> usize {
    match message {
        Message::Text(text) => text.len(),
        Message::Binary(bytes) => bytes.len(),
        Message::Ping(bytes) | Message::Pong(bytes) => bytes.len(),
        Message::Close(_) => 0,
    }
}

/// Whether a WebSocket read error is a message or frame over [`FRAME_LIMIT`].
pub fn over_frame_limit(error: axum::Error) -> bool {
    matches!(
        error
            .into_inner()
            .downcast::<tungstenite::Error>()
            .as_deref(),
        Ok(tungstenite::Error::Capacity(_))
    )
}

/// Closes a WebSocket whose client sent a message over `limit` bytes: close code 1009
/// (message too big), with the limit as the reason.
pub async fn close_too_big(socket: &mut WebSocket, limit: usize) {
    let frame = CloseFrame {
        code: close_code::SIZE,
        reason: format!("a message over {limit} bytes").into(),
    };
    let _ = socket.send(Message::Close(Some(frame))).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_refill_with_time() {
        let limiter = Limiter::new(RateLimits {
            action_burst: 2,
            action_every: Duration::from_millis(40),
            ..RateLimits::default()
        });
        let ip = IpAddr::V4(Ipv4Addr::LOCALHOST);
        assert!(limiter.take(ip, false).is_ok());
        assert!(limiter.take(ip, false).is_ok());
        let wait = limiter.take(ip, false).unwrap_err();
        assert!(wait <= Duration::from_millis(40), "{wait:?}");
        // Another client has its own bucket.
        assert!(limiter
            .take(IpAddr::V4(Ipv4Addr::new(10, 0, 0, 1)), false)
            .is_ok());
        std::thread::sleep(Duration::from_millis(50));
        assert!(limiter.take(ip, false).is_ok());
        assert!(RateLimits::off() != RateLimits::default());
        let off = Limiter::new(RateLimits::off());
        assert!((0..10_000).all(|_| off.take(ip, true).is_ok()));
    }

    #[test]
    fn sockets_are_counted_until_dropped() {
        let limiter = Limiter::new(RateLimits {
            sockets: 2,
            ..RateLimits::default()
        });
        let ip = IpAddr::V4(Ipv4Addr::LOCALHOST);
        let a = limiter.socket(ip).unwrap();
        let _b = limiter.socket(ip).unwrap();
        assert!(limiter.socket(ip).is_none());
        drop(a);
        assert!(limiter.socket(ip).is_some());
    }

    #[test]
    fn a_trusted_proxy_names_the_client() {
        let proxy: IpAddr = "10.0.0.2".parse().unwrap();
        let limiter = Limiter::new(RateLimits {
            trusted_proxies: vec![proxy, "10.0.0.3".parse().unwrap()],
            ..RateLimits::default()
        });
        let client = |peer: &str, forwarded: &[&str]| {
            let mut extensions = axum::http::Extensions::new();
            extensions.insert(ConnectInfo(SocketAddr::new(peer.parse().unwrap(), 4000)));
            let mut headers = HeaderMap::new();
            for f in forwarded {
                headers.append("x-forwarded-for", f.parse().unwrap());
            }
            limiter.client(&extensions, &headers).to_string()
        };
        // Not from the proxy: the header is the client's own word, ignored.
        assert_eq!(client("192.0.2.7", &["203.0.113.9"]), "192.0.2.7");
        // From the proxy: the last address it saw, past the other trusted proxy.
        assert_eq!(client("10.0.0.2", &["203.0.113.9"]), "203.0.113.9");
        assert_eq!(
            client("10.0.0.2", &["1.2.3.4, 203.0.113.9, 10.0.0.3"]),
            "203.0.113.9"
        );
        assert_eq!(
            client("10.0.0.2", &["1.2.3.4", "203.0.113.9"]),
            "203.0.113.9"
        );
        // No header, or garbage: the proxy itself.
        assert_eq!(client("10.0.0.2", &[]), "10.0.0.2");
        assert_eq!(client("10.0.0.2", &["not an address"]), "10.0.0.2");
    }

    #[test]
    fn a_flood_of_messages_is_caught() {
        let mut rate = MessageRate::new(&RateLimits::default());
        assert!((0..20).all(|_| rate.allow()));
        assert!(!rate.allow());
    }
}
