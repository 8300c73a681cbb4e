//! A client of the JSON API (docs/api.md) over HTTP/1.1, through hyper's client: the one that
//! `myrmidon loadtest` and the tests speak to a running `myrmidon serve` with. A
//! [`Connection`] sends its requests one after another on one kept-alive connection (the load
//! test: a connection a player, as a browser has); [`request`] makes one request on a
//! connection of its own and waits for the answer, outside any async runtime (the tests).
//! Every answer is read whole as JSON. A connection keeps the cookies the server sets (an
//! account's session) and sends them back with an `Origin` of the server's own, as a browser
//! on the site's page does. (WebSockets are tungstenite's; the tests of the
//! server's connection handling write their bytes by hand, since they test what a client
//! library hides: half-sent heads, stalls, pipelining.)

use std::time::Duration;

use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::client::conn::http1::{handshake, SendRequest};
use hyper::header::{CONTENT_TYPE, COOKIE, HOST, ORIGIN, SET_COOKIE};
use hyper::Request;
use hyper_util::rt::TokioIo;
use serde_json::Value;
use tokio::net::{TcpStream, ToSocketAddrs};

/// One kept-alive HTTP/1.1 connection to a server.
pub struct Connection {
    host: String,
    sender: SendRequest<Full<Bytes>>,
    /// The cookies the server set, `name=value` each (a new one replaces its namesake).
    cookies: Vec<String>,
}

impl Connection {
    /// Connects to `addr` (`127.0.0.1:8080`), without Nagle's delay. The connection is driven
    /// by a task of the current runtime and closes when this is dropped.
    pub async fn open(addr: impl ToSocketAddrs + std::fmt::Display) -> Result<Connection, String> {
        let host = addr.to_string();
        let stream = TcpStream::connect(addr)
            .await
            .map_err(|e| format!("{host}: {e}"))?;
        stream
            .set_nodelay(true)
            .map_err(|e| format!("{host}: {e}"))?;
        let (sender, connection) = handshake(TokioIo::new(stream))
            .await
            .map_err(|e| format!("{host}: {e}"))?;
        tokio::spawn(connection);
        Ok(Connection {
            host,
            sender,
            cookies: Vec::new(),
        })
    }

    /// The cookies to send from now on (`name=value`, as `cookies` gives them): another
    /// connection's session.
    pub fn set_cookies(&mut self, cookies: Vec<String>) {
        self.cookies = cookies;
    }

    /// The cookies this connection sends (`name=value` each).
    pub fn cookies(&self) -> &[String] {
        &self.cookies
    }

    /// `method path` with `body` as JSON: the status and the answer's JSON. An error names
    /// the request: the connection failed, or the answer is not JSON.
    pub async fn request(
        &mut self,
        method: &str,
        path: &str,
        body: Option<&Value>,
    ) -> Result<(u16, Value), String> {
        let what = |e: &dyn std::fmt::Display| format!("{} {method} {path}: {e}", self.host);
        let body = body.map(Value::to_string).unwrap_or_default();
        let mut request = Request::builder()
            .method(method)
            .uri(path)
            .header(HOST, &self.host)
            .header(CONTENT_TYPE, "application/json");
        if !self.cookies.is_empty() {
            request = request
                .header(COOKIE, self.cookies.join("; "))
                .header(ORIGIN, format!("http://{}", self.host));
        }
        let request = request
            .body(Full::new(Bytes::from(body)))
            .map_err(|e| what(&e))?;
        self.sender.ready().await.map_err(|e| what(&e))?;
        let response = self
            .sender
            .send_request(request)
            .await
            .map_err(|e| what(&e))?;
        let status = response.status().as_u16();
        for set in response.headers().get_all(SET_COOKIE) {
            let Some(pair) = set.to_str().ok().and_then(|v| v.split(';').next()) else {
                continue;
            };
            let name = pair.split('=').next().unwrap_or_default();
            self.cookies.retain(|c| c.split('=').next() != Some(name));
            // A cookie set empty is a cookie removed (a logout).
            if !pair.ends_with('=') {
                self.cookies.push(pair.trim().to_string());
            }
        }
        let bytes = response
            .into_body()
            .collect()
            .await
            .map_err(|e| what(&e))?
            .to_bytes();
        let value = serde_json::from_slice(&bytes).map_err(|e| {
            what(&format!(
                "{status}, not JSON ({e}): {:?}",
                String::from_utf8_lossy(&bytes)
            ))
        })?;
        Ok((status, value))
    }
}

/// How long [`request`] waits for its answer.
pub const PATIENCE: Duration = Duration::from_secs(30);

/// One request on a connection of its own, closed after it, from code that is not async:
/// [`Connection::request`] on a runtime of its own, waiting at most [`PATIENCE`].
pub fn request(
    addr: &str,
    method: &str,
    path: &str,
    body: Option<&Value>,
) -> Result<(u16, Value), String> {
    request_with(addr, &[], method, path, body).map(|(status, value, _)| (status, value))
}

/// [`request`] sending `cookies` (`name=value` each, with the server's own `Origin`, as the
/// site's page does): the status, the answer's JSON and the cookies after it (a session the
/// answer started or ended).
pub fn request_with(
    addr: &str,
    cookies: &[String],
    method: &str,
    path: &str,
    body: Option<&Value>,
) -> Result<(u16, Value, Vec<String>), String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    runtime.block_on(async {
        let answer = async {
            let mut connection = Connection::open(addr).await?;
            connection.set_cookies(cookies.to_vec());
            let (status, value) = connection.request(method, path, body).await?;
            Ok((status, value, connection.cookies().to_vec()))
        };
        tokio::time::timeout(PATIENCE, answer)
            .await
            .map_err(|_| format!("{addr} {method} {path}: no answer in {PATIENCE:?}"))?
    })
}
