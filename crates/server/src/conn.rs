//! The server's connections: our own accept loop over hyper (what `axum::serve` does inside),
//! with deadlines and caps, so that slow or hostile clients cannot hold the server (slowloris:
//! many connections that send a request slowly, or never).
//!
//! - **Header timeout** ([`RateLimits::header_timeout`]): a new connection must send the head of
//!   its first request (request line and headers) within this time of being accepted; on a
//!   kept-alive connection, the head of the next request must be complete within this time of
//!   its first byte. Otherwise the connection is closed, unanswered.
//! - **Idle timeout** ([`RateLimits::idle_timeout`]): a kept-alive connection with no request in
//!   flight is closed when no next request begins within this time. A request is in flight from
//!   its head to the end of its response, so a streamed response (`/api/games/{id}/stream`) is
//!   never idle; an upgraded connection (a WebSocket) is no longer HTTP and has no deadline.
//! - **Cap per client** ([`RateLimits::connections_per_client`]): the connections one peer
//!   address may hold open at once, WebSockets included (an IPv6 peer counts by its /64 prefix,
//!   the network of one subscriber, in which a host may take any address). One more is closed
//!   at once, unread and unanswered: answering it a `429` would mean reading its request, and a
//!   flood wants the server to read. What counts is the TCP peer, not `X-Forwarded-For`, so the
//!   trusted proxies (`--trusted-proxy`) are exempt: a proxy carries the connections of many
//!   clients and is expected to limit them itself; the total cap still bounds it.
//! - **Total cap** ([`RateLimits::connections`]): at the cap the server accepts no more (new
//!   connections wait in the kernel's queue) until one closes, so that it never runs out of file
//!   descriptors. An `accept` error that is not one connection's ("too many open files" when
//!   the cap is above what the process may open) pauses accepting briefly, instead of spinning
//!   or stopping the server.
//!
//! Why not only hyper's own `header_read_timeout`: hyper starts that clock whenever it waits
//! for a request head, idle time between kept-alive requests included, so it would close every
//! kept-alive connection after the header timeout and cannot tell a slow head from a quiet
//! connection. It stays set, to the sum of both timeouts, as a backstop that never fires
//! before the deadlines here do.
//!
//! Shutdown (the `shutdown` future of [`Connections::serve`]): the listener is closed; the
//! kept-alive connections idle between requests are closed; a new connection, or one whose
//! next request head has begun, is closed unless a request is in flight on it within
//! [`SHUTDOWN_HEAD_WAIT`] (so a flood of half-sent heads does not hold shutdown); the requests
//! in flight may finish, for up to [`SHUTDOWN_GRACE`]; then every connection left, WebSockets
//! and streams included, is closed: its reads end and its writes fail, and the handlers stop.

use std::collections::HashMap;
use std::convert::Infallible;
use std::fmt;
use std::future::Future;
use std::io;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::pin::{pin, Pin};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::SeqCst};
use std::sync::{Arc, Mutex, MutexGuard};
use std::task::{Context, Poll, Waker};
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::extract::ConnectInfo;
use axum::Router;
use http_body::{Frame, SizeHint};
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpSocket, TcpStream};
use tokio::sync::{watch, Notify, OwnedSemaphorePermit, Semaphore};
use tower::ServiceExt;

use crate::limits::RateLimits;

/// After the shutdown signal, how long the requests in flight have to finish before their
/// connections are closed.
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

/// After the shutdown signal, how long a request head that has begun has to be complete.
pub const SHUTDOWN_HEAD_WAIT: Duration = Duration::from_secs(1);

/// After the connections left are told to close, how long shutdown waits for them to go.
const CLOSE_WAIT: Duration = Duration::from_secs(2);

/// After an `accept` error that is not one connection's, the pause before accepting again.
const ACCEPT_PAUSE: Duration = Duration::from_millis(100);

/// The largest buffer hyper keeps for a connection, and so the largest request head (hyper's
/// default is about 400 KiB): what a slow client can make the server hold in memory. A longer
/// head is answered `431`.
const MAX_BUFFER: usize = 64 * 1024;

/// Connections waiting to be accepted that the kernel may queue (it caps this at
/// `net.core.somaxconn`), so that a burst of connections does not drop the next client's.
const BACKLOG: u32 = 4096;

/// Open files the process keeps beside its connections: the database's, the runtime's, logs.
#[cfg(unix)]
const FILES_BESIDE: u64 = 256;

/// Listens on `addr`, with a long queue of connections waiting to be accepted.
pub fn bind(addr: SocketAddr) -> io::Result<TcpListener> {
    let socket = if addr.is_ipv4() {
        TcpSocket::new_v4()?
    } else {
        TcpSocket::new_v6()?
    };
    // As `TcpListener::bind` does: a restarted server may listen again at once.
    #[cfg(unix)]
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(BACKLOG)
}

/// The cap on connections that the process's limit on open files (`RLIMIT_NOFILE`, `ulimit
/// -n`) allows, after raising that limit (its soft value) as far as needed and allowed: the cap
/// asked for, or less when the limit is lower. For `serve`; the limit is the whole process's.
#[cfg(unix)]
pub fn fit_to_file_limit(connections: usize) -> usize {
    use rustix::process::{getrlimit, setrlimit, Resource, Rlimit};
    let limit = getrlimit(Resource::Nofile);
    let wanted = (connections as u64).saturating_add(FILES_BESIDE);
    // `None` is no limit.
    let mut soft = limit.current;
    if let Some(current) = soft.filter(|&s| s < wanted) {
        let raised = wanted.min(limit.maximum.unwrap_or(u64::MAX)).max(current);
        let asked = Rlimit {
            current: Some(raised),
            maximum: limit.maximum,
        };
        if setrlimit(Resource::Nofile, asked).is_ok() {
            soft = Some(raised);
        }
    }
    let Some(soft) = soft else {
        return connections;
    };
    let fits = soft.saturating_sub(FILES_BESIDE).max(1);
    connections.min(usize::try_from(fits).unwrap_or(usize::MAX))
}

/// The cap on connections that the process's limit on open files allows (elsewhere than on
/// Unix, not known: the cap asked for).
#[cfg(not(unix))]
pub fn fit_to_file_limit(connections: usize) -> usize {
    connections
}

/// The address a connection counts against for [`RateLimits::connections_per_client`]: an
/// IPv4 address as it is (also when written IPv4-mapped IPv6, as a dual-stack listener shows
/// it); an IPv6 address by its /64 prefix.
pub fn client_key(ip: IpAddr) -> IpAddr {
    match ip.to_canonical() {
        IpAddr::V6(v6) => {
            let s = v6.segments();
            IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
        }
        v4 => v4,
    }
}

/// What the connections of a server did so far, for tests and diagnostics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ConnStats {
    /// Connections open now, upgraded ones (WebSockets) included.
    pub open: usize,
    /// Connections accepted, the refused ones included.
    pub accepted: u64,
    /// Connections closed at once because their client held its cap.
    pub refused: u64,
    /// Connections closed because a request head was not complete in time.
    pub header_timeouts: u64,
    /// Kept-alive connections closed because no next request began in time.
    pub idle_timeouts: u64,
    /// `accept` errors that paused accepting (too many open files, no memory…).
    pub accept_errors: u64,
}

/// Why a connection was closed by its deadline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expired {
    Header,
    Idle,
}

impl fmt::Display for Expired {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Expired::Header => "the request head was not complete in time",
            Expired::Idle => "idle too long between requests",
        })
    }
}

/// The connections of one server: its limits, what each client holds, what happened.
pub struct Connections {
    header_timeout: Duration,
    idle_timeout: Duration,
    per_client: usize,
    total: usize,
    /// The trusted proxies, free of the cap per client.
    exempt: Vec<IpAddr>,
    registry: Mutex<Registry>,
    /// Told when the last connection closes.
    emptied: Notify,
    accepted: AtomicU64,
    refused: AtomicU64,
    header_timeouts: AtomicU64,
    idle_timeouts: AtomicU64,
    accept_errors: AtomicU64,
}

/// The open connections, and how many each client holds.
#[derive(Default)]
struct Registry {
    next_id: u64,
    open: HashMap<u64, Arc<ConnState>>,
    per_client: HashMap<IpAddr, usize>,
}

impl Connections {
    /// For a server with these limits (the connection fields and the trusted proxies).
    pub fn new(limits: &RateLimits) -> Arc<Connections> {
        Arc::new(Connections {
            header_timeout: limits.header_timeout,
            idle_timeout: limits.idle_timeout,
            per_client: limits.connections_per_client,
            total: limits.connections,
            exempt: limits
                .trusted_proxies
                .iter()
                .map(|ip| ip.to_canonical())
                .collect(),
            registry: Mutex::new(Registry::default()),
            emptied: Notify::new(),
            accepted: AtomicU64::new(0),
            refused: AtomicU64::new(0),
            header_timeouts: AtomicU64::new(0),
            idle_timeouts: AtomicU64::new(0),
            accept_errors: AtomicU64::new(0),
        })
    }

    /// The counts so far.
    pub fn stats(&self) -> ConnStats {
        ConnStats {
            open: self.registry().open.len(),
            accepted: self.accepted.load(SeqCst),
            refused: self.refused.load(SeqCst),
            header_timeouts: self.header_timeouts.load(SeqCst),
            idle_timeouts: self.idle_timeouts.load(SeqCst),
            accept_errors: self.accept_errors.load(SeqCst),
        }
    }

    /// The registry, even if a thread panicked holding it (its counts stay consistent: every
    /// change is made whole under the lock).
    fn registry(&self) -> MutexGuard<'_, Registry> {
        self.registry.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Serves `router` on the connections of `listener` until `shutdown` completes, then shuts
    /// down as the module says: returns when every connection is closed, or
    /// [`SHUTDOWN_GRACE`] and a little more after `shutdown`. Handlers see the peer address as
    /// `ConnectInfo<SocketAddr>`.
    pub async fn serve(
        self: Arc<Self>,
        listener: TcpListener,
        router: Router,
        shutdown: impl Future<Output = ()>,
    ) {
        let mut builder = auto::Builder::new(TokioExecutor::new());
        builder
            .http1()
            .timer(TokioTimer::new())
            .header_read_timeout(self.header_timeout.saturating_add(self.idle_timeout))
            .max_buf_size(MAX_BUFFER);
        let slots = Arc::new(Semaphore::new(self.total.clamp(1, Semaphore::MAX_PERMITS)));
        // `true` tells the connections to shut down.
        let (stop_tx, stop_rx) = watch::channel(false);
        // Every connection task holds a receiver: all are gone when the sender is closed.
        let (done_tx, done_rx) = watch::channel(());
        let mut shutdown = pin!(shutdown);
        let mut warned: Option<Instant> = None;
        loop {
            // A free place first, so that at the cap nothing is accepted.
            let slot = tokio::select! {
                biased;
                () = &mut shutdown => break,
                slot = slots.clone().acquire_owned() => match slot {
                    Ok(slot) => slot,
                    Err(_) => break, // Never: the semaphore is not closed.
                },
            };
            let accepted = tokio::select! {
                biased;
                () = &mut shutdown => break,
                accepted = listener.accept() => accepted,
            };
            let (stream, peer) = match accepted {
                Ok(accepted) => accepted,
                // That connection failed before it was accepted: on to the next.
                Err(e) if is_connection_error(&e) => continue,
                Err(e) => {
                    self.accept_errors.fetch_add(1, SeqCst);
                    if warned.is_none_or(|at| at.elapsed() > Duration::from_secs(10)) {
                        tracing::warn!(
                            "cannot accept connections: {e} (accepting again in {} ms)",
                            ACCEPT_PAUSE.as_millis()
                        );
                        warned = Some(Instant::now());
                    }
                    drop(slot);
                    tokio::select! {
                        biased;
                        () = &mut shutdown => break,
                        () = tokio::time::sleep(ACCEPT_PAUSE) => continue,
                    }
                }
            };
            let Some(io) = self.admit(stream, peer, slot) else {
                continue;
            };
            tokio::spawn(self.clone().drive(
                builder.clone(),
                io,
                peer,
                router.clone(),
                stop_rx.clone(),
                done_rx.clone(),
            ));
        }
        drop(listener);
        let _ = stop_tx.send(true);
        drop(done_rx);
        if tokio::time::timeout(SHUTDOWN_GRACE, done_tx.closed())
            .await
            .is_err()
        {
            tracing::warn!(
                "shutting down: requests still in flight after {} s are cut off",
                SHUTDOWN_GRACE.as_secs()
            );
        }
        self.close_all();
        let _ = tokio::time::timeout(CLOSE_WAIT, self.all_closed()).await;
    }

    /// A connection just accepted, counted against its client, or `None` (and it is closed
    /// when dropped) when its client holds its cap.
    fn admit(
        self: &Arc<Self>,
        stream: TcpStream,
        peer: SocketAddr,
        slot: OwnedSemaphorePermit,
    ) -> Option<Tracked> {
        self.accepted.fetch_add(1, SeqCst);
        let ip = peer.ip().to_canonical();
        let key = (!self.exempt.contains(&ip)).then(|| client_key(ip));
        let mut registry = self.registry();
        if let Some(key) = key {
            let held = registry.per_client.get(&key).copied().unwrap_or(0);
            if held >= self.per_client {
                drop(registry);
                self.refused.fetch_add(1, SeqCst);
                tracing::debug!("connection from {peer} refused: its client holds {held}");
                return None;
            }
            registry.per_client.insert(key, held + 1);
        }
        let id = registry.next_id;
        registry.next_id += 1;
        let state = Arc::new(ConnState::new());
        registry.open.insert(id, state.clone());
        Some(Tracked {
            stream,
            state,
            conns: self.clone(),
            id,
            key,
            _slot: slot,
        })
    }

    /// The end of a connection: its client may open another.
    fn release(&self, id: u64, key: Option<IpAddr>) {
        let mut registry = self.registry();
        registry.open.remove(&id);
        if let Some(key) = key {
            if let Some(held) = registry.per_client.get_mut(&key) {
                *held -= 1;
                if *held == 0 {
                    registry.per_client.remove(&key);
                }
            }
        }
        if registry.open.is_empty() {
            self.emptied.notify_waiters();
        }
    }

    /// Ends the reads and fails the writes of every open connection.
    fn close_all(&self) {
        let open: Vec<_> = self.registry().open.values().cloned().collect();
        for state in open {
            state.close();
        }
    }

    /// Completes when no connection is open.
    async fn all_closed(&self) {
        loop {
            let mut emptied = pin!(self.emptied.notified());
            emptied.as_mut().enable();
            if self.registry().open.is_empty() {
                return;
            }
            emptied.await;
        }
    }

    /// Serves one connection until it ends, its deadline passes, or shutdown.
    async fn drive(
        self: Arc<Self>,
        builder: auto::Builder<TokioExecutor>,
        io: Tracked,
        peer: SocketAddr,
        router: Router,
        mut stop: watch::Receiver<bool>,
        _done: watch::Receiver<()>,
    ) {
        let state = io.state.clone();
        let service = {
            let state = state.clone();
            hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
                let in_flight = InFlight::start(state.clone());
                request.extensions_mut().insert(ConnectInfo(peer));
                let response = router.clone().oneshot(request.map(Body::new));
                async move {
                    let response = response.await?;
                    Ok::<_, Infallible>(response.map(|body| {
                        Body::new(Counted {
                            body,
                            _in_flight: in_flight,
                        })
                    }))
                }
            })
        };
        let mut conn = pin!(builder.serve_connection_with_upgrades(TokioIo::new(io), service));
        let mut deadline = pin!(state.watchdog(self.header_timeout, self.idle_timeout));
        let mut stopping = false;
        // At shutdown: when a request head that has begun must be complete.
        let mut head_wait = pin!(tokio::time::sleep(Duration::ZERO));
        let mut head_waiting = false;
        loop {
            tokio::select! {
                result = conn.as_mut() => {
                    if let Err(e) = result {
                        tracing::debug!("connection from {peer}: {e}");
                    }
                    break;
                }
                expired = &mut deadline => {
                    let count = match expired {
                        Expired::Header => &self.header_timeouts,
                        Expired::Idle => &self.idle_timeouts,
                    };
                    count.fetch_add(1, SeqCst);
                    tracing::debug!("connection from {peer} closed: {expired}");
                    break;
                }
                // Also when the sender is gone (the server future dropped): shut down.
                _ = stop.changed(), if !stopping => {
                    stopping = true;
                    if state.quiet() {
                        break;
                    }
                    conn.as_mut().graceful_shutdown();
                    head_wait.as_mut().reset((Instant::now() + SHUTDOWN_HEAD_WAIT).into());
                    head_waiting = true;
                }
                () = &mut head_wait, if head_waiting => {
                    head_waiting = false;
                    if state.in_flight.load(SeqCst) == 0 {
                        tracing::debug!("connection from {peer} closed: shutting down");
                        break;
                    }
                }
            }
        }
    }
}

/// `accept` failed for that one connection (it was reset before it was accepted).
fn is_connection_error(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::ConnectionRefused
            | io::ErrorKind::ConnectionAborted
            | io::ErrorKind::ConnectionReset
    )
}

/// What the deadlines of one connection go by. Times are milliseconds since it was accepted.
struct ConnState {
    accepted: Instant,
    /// Requests whose head was read and whose response has not all been sent.
    in_flight: AtomicUsize,
    /// A request was read: the header timeout no longer counts from the accept.
    served: AtomicBool,
    /// When the last request in flight ended.
    waiting_since: AtomicU64,
    /// One more than when the first byte came while no request was in flight; 0 when none
    /// came since. (Bytes that come while a request is in flight, a pipelined next request,
    /// are not counted: that connection then has the idle timeout, then the header timeout.)
    first_byte: AtomicU64,
    /// Told when any of the above changes, to wake the watchdog.
    changed: Notify,
    /// Shutdown: reads end, writes fail.
    closing: AtomicBool,
    reader: Mutex<Option<Waker>>,
    writer: Mutex<Option<Waker>>,
}

impl ConnState {
    fn new() -> ConnState {
        ConnState {
            accepted: Instant::now(),
            in_flight: AtomicUsize::new(0),
            served: AtomicBool::new(false),
            waiting_since: AtomicU64::new(0),
            first_byte: AtomicU64::new(0),
            changed: Notify::new(),
            closing: AtomicBool::new(false),
            reader: Mutex::new(None),
            writer: Mutex::new(None),
        }
    }

    /// Now, rounded up to the millisecond: a deadline counted from it is never early.
    fn now(&self) -> u64 {
        let micros = self.accepted.elapsed().as_micros();
        u64::try_from(micros.div_ceil(1000)).unwrap_or(u64::MAX)
    }

    fn at(&self, millis: u64) -> Instant {
        self.accepted + Duration::from_millis(millis)
    }

    /// Bytes came from the client.
    fn received(&self) {
        if self.in_flight.load(SeqCst) == 0 && self.first_byte.load(SeqCst) == 0 {
            self.first_byte.store(self.now() + 1, SeqCst);
            self.changed.notify_one();
        }
    }

    /// Idle between requests: none in flight, no byte of the next one come. Nothing to lose
    /// by closing (a client whose next request crosses the close sends it again on a new
    /// connection, as for any kept-alive connection). A new connection is never quiet: its
    /// first request may be waiting unread.
    fn quiet(&self) -> bool {
        self.served.load(SeqCst)
            && self.in_flight.load(SeqCst) == 0
            && self.first_byte.load(SeqCst) == 0
    }

    /// When the connection is closed if nothing changes, and why; `None` while a request is
    /// in flight.
    fn deadline(&self, header: Duration, idle: Duration) -> Option<(Instant, Expired)> {
        if self.in_flight.load(SeqCst) > 0 {
            return None;
        }
        if !self.served.load(SeqCst) {
            return Some((self.accepted + header, Expired::Header));
        }
        match self.first_byte.load(SeqCst) {
            0 => Some((
                self.at(self.waiting_since.load(SeqCst)) + idle,
                Expired::Idle,
            )),
            first => Some((self.at(first - 1) + header, Expired::Header)),
        }
    }

    /// Completes when the connection's deadline passes.
    async fn watchdog(&self, header: Duration, idle: Duration) -> Expired {
        loop {
            let changed = self.changed.notified();
            match self.deadline(header, idle) {
                None => changed.await,
                Some((at, expired)) => {
                    if Instant::now() >= at {
                        return expired;
                    }
                    tokio::select! {
                        () = changed => {}
                        () = tokio::time::sleep_until(at.into()) => {}
                    }
                }
            }
        }
    }

    fn close(&self) {
        self.closing.store(true, SeqCst);
        for waiting in [&self.reader, &self.writer] {
            let waker = waiting.lock().unwrap_or_else(|e| e.into_inner()).take();
            if let Some(waker) = waker {
                waker.wake();
            }
        }
    }

    /// Keeps the task's waker, to wake it at [`ConnState::close`]; then whether closing.
    fn park(&self, waiting: &Mutex<Option<Waker>>, cx: &Context<'_>) -> bool {
        let mut waiting = waiting.lock().unwrap_or_else(|e| e.into_inner());
        if !waiting.as_ref().is_some_and(|w| w.will_wake(cx.waker())) {
            *waiting = Some(cx.waker().clone());
        }
        drop(waiting);
        self.closing.load(SeqCst)
    }
}

/// A request in flight on its connection, from its head until its response body is dropped
/// (sent, or the connection gone).
struct InFlight(Arc<ConnState>);

impl InFlight {
    fn start(state: Arc<ConnState>) -> InFlight {
        state.served.store(true, SeqCst);
        state.in_flight.fetch_add(1, SeqCst);
        state.first_byte.store(0, SeqCst);
        state.changed.notify_one();
        InFlight(state)
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        let state = &self.0;
        state.waiting_since.store(state.now(), SeqCst);
        state.first_byte.store(0, SeqCst);
        state.in_flight.fetch_sub(1, SeqCst);
        state.changed.notify_one();
    }
}

/// A response body that keeps its request in flight until it is dropped.
struct Counted {
    body: Body,
    _in_flight: InFlight,
}

impl http_body::Body for Counted {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// An accepted connection: notes the bytes that come for the deadlines, ends at shutdown,
/// and frees its client's place and its slot under the total cap when dropped (after a
/// WebSocket upgrade, the socket's handler holds it).
struct Tracked {
    stream: TcpStream,
    state: Arc<ConnState>,
    conns: Arc<Connections>,
    id: u64,
    /// The address counted against, `None` for an exempt proxy.
    key: Option<IpAddr>,
    _slot: OwnedSemaphorePermit,
}

impl Drop for Tracked {
    fn drop(&mut self) {
        self.conns.release(self.id, self.key);
    }
}

fn shutting_down() -> io::Error {
    io::Error::new(io::ErrorKind::BrokenPipe, "the server is shutting down")
}

impl AsyncRead for Tracked {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if this.state.closing.load(SeqCst) {
            // The end of the stream.
            return Poll::Ready(Ok(()));
        }
        let before = buf.filled().len();
        match Pin::new(&mut this.stream).poll_read(cx, buf) {
            Poll::Ready(Ok(())) => {
                if buf.filled().len() > before {
                    this.state.received();
                }
                Poll::Ready(Ok(()))
            }
            Poll::Pending if this.state.park(&this.state.reader, cx) => Poll::Ready(Ok(())),
            other => other,
        }
    }
}

impl AsyncWrite for Tracked {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        if this.state.closing.load(SeqCst) {
            return Poll::Ready(Err(shutting_down()));
        }
        match Pin::new(&mut this.stream).poll_write(cx, buf) {
            Poll::Pending if this.state.park(&this.state.writer, cx) => {
                Poll::Ready(Err(shutting_down()))
            }
            other => other,
        }
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        if this.state.closing.load(SeqCst) {
            return Poll::Ready(Err(shutting_down()));
        }
        match Pin::new(&mut this.stream).poll_write_vectored(cx, bufs) {
            Poll::Pending if this.state.park(&this.state.writer, cx) => {
                Poll::Ready(Err(shutting_down()))
            }
            other => other,
        }
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clients_are_counted_by_address_and_ipv6_by_its_64_prefix() {
        let ip = |s: &str| s.parse::<IpAddr>().unwrap();
        assert_eq!(client_key(ip("192.0.2.7")), ip("192.0.2.7"));
        assert_eq!(client_key(ip("::ffff:192.0.2.7")), ip("192.0.2.7"));
        assert_eq!(
            client_key(ip("2001:db8:1:2:aaaa:bbbb:cccc:dddd")),
            ip("2001:db8:1:2::")
        );
        assert_eq!(
            client_key(ip("2001:db8:1:2::1")),
            client_key(ip("2001:db8:1:2:ffff::9"))
        );
        assert_ne!(
            client_key(ip("2001:db8:1:2::1")),
            client_key(ip("2001:db8:1:3::1"))
        );
    }

    #[cfg(unix)]
    #[test]
    fn the_cap_on_connections_fits_the_limit_on_open_files() {
        assert_eq!(fit_to_file_limit(10), 10);
        let fits = fit_to_file_limit(usize::MAX);
        let limit = rustix::process::getrlimit(rustix::process::Resource::Nofile);
        if let Some(soft) = limit.current {
            // Raised as far as allowed, and room kept beside the connections.
            assert_eq!(limit.current, limit.maximum);
            assert_eq!(fits as u64, soft - FILES_BESIDE);
        }
    }

    #[test]
    fn the_deadline_follows_the_state_of_the_connection() {
        let (header, idle) = (Duration::from_secs(10), Duration::from_secs(60));
        let state = Arc::new(ConnState::new());
        // New: the head of the first request is due from the accept, bytes or none.
        assert!(!state.quiet());
        assert_eq!(
            state.deadline(header, idle),
            Some((state.accepted + header, Expired::Header))
        );
        state.received();
        assert_eq!(
            state.deadline(header, idle),
            Some((state.accepted + header, Expired::Header))
        );
        // In flight: no deadline, whatever comes.
        let request = InFlight::start(state.clone());
        assert_eq!(state.deadline(header, idle), None);
        state.received();
        assert_eq!(state.first_byte.load(SeqCst), 0);
        // Done: idle until the next request's first byte, then its head is due.
        drop(request);
        let (at, why) = state.deadline(header, idle).unwrap();
        assert_eq!(why, Expired::Idle);
        assert!(at >= state.accepted + idle);
        assert!(state.quiet());
        state.received();
        let (at, why) = state.deadline(header, idle).unwrap();
        assert_eq!(why, Expired::Header);
        assert!(at < state.accepted + idle);
        assert!(!state.quiet());
    }
}
