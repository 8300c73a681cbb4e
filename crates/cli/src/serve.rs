//! `myrmidon serve`: the web app — every game in the browser, the JSON API (docs/api.md) and
//! the games' WebSockets, from one process and one database.

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use clap::Args;
use myrmidon_server::{serve, Config, RateLimits};

use crate::common::{CliError, CliResult};

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The port to listen on (0: any free port, printed at start).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// The address to listen on (0.0.0.0 to be reached from other machines).
    #[arg(long, default_value = "127.0.0.1")]
    pub host: IpAddr,
    /// The database: a SQLite file (`sqlite:<path>` or a path), created on first start, or
    /// PostgreSQL (`postgres://user:password@host:port/database`), which several server
    /// processes can share (README: several processes).
    #[arg(long, default_value = "sqlite:myrmidon.db")]
    pub db: String,
    /// How long the computer thinks for a move, in milliseconds.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=600_000))]
    pub think_ms: u64,
    /// Searches at once, at most (default: the number of cores, at least 2): the computer's
    /// moves, its answers to draw offers and the analysis board share this pool. Analyses hold
    /// at most all but one (with 1 the analysis board is off); each search's hash table takes
    /// up to 16 MiB, so at most 16 MiB times this. Work beyond a short queue is refused (503).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub engines: Option<u64>,
    /// No limits per client (how fast a client may create games and play, how many sockets
    /// and connections it may open: docs/api.md). For load tests and trusted networks. The
    /// timeouts of connections and --max-connections, which protect the process, stay.
    #[arg(long)]
    pub no_rate_limits: bool,
    /// Send the session cookie with `Secure`: the server is reached through HTTPS (behind a
    /// proxy that ends TLS). Without it the cookie is also sent over plain HTTP.
    #[arg(long)]
    pub cookie_secure: bool,
    /// A proxy or load balancer in front of the server (its address, repeatable): for requests
    /// from it, the client is the address its `X-Forwarded-For` header names, so that the
    /// limits count each client and not the proxy; and its `X-Forwarded-Proto: https` makes
    /// the session cookie `Secure`, as --cookie-secure does.
    #[arg(long = "trusted-proxy", value_name = "IP")]
    pub trusted_proxies: Vec<IpAddr>,
    /// How long a client has to send a request's head (request line and headers), in
    /// milliseconds: from connecting, or on a kept-alive connection from the first byte of
    /// the next request. A slower connection is closed. [default: 10000]
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    pub header_timeout_ms: Option<u64>,
    /// How long a kept-alive connection may wait for its next request, in milliseconds; then
    /// it is closed. WebSockets and streams are never idle. [default: 60000]
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..=86_400_000))]
    pub idle_timeout_ms: Option<u64>,
    /// Connections one client (its IP address; IPv6: its /64) may hold open at once,
    /// WebSockets included; more are closed at once. Trusted proxies are exempt.
    /// [default: 64; no cap with --no-rate-limits]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub connections_per_client: Option<u64>,
    /// Connections held open at once in all; at the cap new ones wait until one closes.
    /// Lowered to what the limit on open files (ulimit -n) allows. [default: 10000]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_connections: Option<u64>,
}

pub fn run(args: &ServeArgs) -> CliResult {
    let _ = tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .with_writer(std::io::stderr)
        .try_init();
    let engines = args
        .engines
        .map(|n| n as usize)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get().max(2)));
    let config = Config {
        addr: SocketAddr::new(args.host, args.port),
        db: args.db.clone(),
        think: Duration::from_millis(args.think_ms),
        engines,
        limits: limits(args),
        accounts: myrmidon_server::accounts::AccountSettings {
            cookie_secure: args.cookie_secure,
            ..Default::default()
        },
    };
    let db = describe_db(&args.db);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::Runtime(format!("cannot start the async runtime: {e}")))?;
    runtime
        .block_on(serve(config, |addr| {
            println!("myrmidon: serving on http://{addr}/ (database: {db}); Ctrl-C stops");
        }))
        .map_err(CliError::Runtime)
}

/// The limits of the flags: the defaults, or none per client with --no-rate-limits; then what
/// the flags set.
fn limits(args: &ServeArgs) -> RateLimits {
    let mut limits = if args.no_rate_limits {
        RateLimits::off()
    } else {
        RateLimits::default()
    };
    limits.trusted_proxies = args.trusted_proxies.clone();
    if let Some(ms) = args.header_timeout_ms {
        limits.header_timeout = Duration::from_millis(ms);
    }
    if let Some(ms) = args.idle_timeout_ms {
        limits.idle_timeout = Duration::from_millis(ms);
    }
    if let Some(n) = args.connections_per_client {
        limits.connections_per_client = usize::try_from(n).unwrap_or(usize::MAX);
    }
    if let Some(n) = args.max_connections {
        limits.connections = usize::try_from(n).unwrap_or(usize::MAX);
    }
    limits
}

/// The database as the start line shows it: a SQLite file by its full path, a PostgreSQL URL
/// without its password.
fn describe_db(db: &str) -> String {
    let path = db.strip_prefix("sqlite:").unwrap_or(db);
    if path.starts_with("postgres") {
        return myrmidon_server::store::redacted(db);
    }
    if path == ":memory:" {
        return db.to_string();
    }
    match std::path::absolute(path) {
        Ok(p) => p.display().to_string(),
        Err(_) => path.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        serve: super::ServeArgs,
    }

    fn limits(args: &[&str]) -> myrmidon_server::RateLimits {
        let cli = Cli::try_parse_from(std::iter::once("serve").chain(args.iter().copied()))
            .unwrap_or_else(|e| panic!("{args:?}: {e}"));
        super::limits(&cli.serve)
    }

    #[test]
    fn connection_limits_come_from_the_flags() {
        use std::time::Duration;
        let default = limits(&[]);
        assert_eq!(default, myrmidon_server::RateLimits::default());
        let set = limits(&[
            "--header-timeout-ms",
            "1500",
            "--idle-timeout-ms",
            "2000",
            "--connections-per-client",
            "8",
            "--max-connections",
            "100",
        ]);
        assert_eq!(set.header_timeout, Duration::from_millis(1500));
        assert_eq!(set.idle_timeout, Duration::from_secs(2));
        assert_eq!(set.connections_per_client, 8);
        assert_eq!(set.connections, 100);
        // No limit per client, but the process is still protected; a flag still sets its cap.
        let off = limits(&["--no-rate-limits"]);
        assert_eq!(off.connections_per_client, usize::MAX);
        assert_eq!(off.header_timeout, default.header_timeout);
        assert_eq!(off.connections, default.connections);
        let off = limits(&["--no-rate-limits", "--connections-per-client", "500"]);
        assert_eq!(off.connections_per_client, 500);
        assert!(Cli::try_parse_from(["serve", "--connections-per-client", "0"]).is_err());
        assert!(Cli::try_parse_from(["serve", "--header-timeout-ms", "0"]).is_err());
    }

    #[test]
    fn the_start_line_hides_a_database_password() {
        assert_eq!(
            super::describe_db("postgres://app:s3cret@db.example:5432/games"),
            "postgres://app:***@db.example:5432/games"
        );
        assert_eq!(
            super::describe_db("postgresql://app@localhost/games"),
            "postgresql://app@localhost/games"
        );
        assert!(super::describe_db("sqlite:x.db").ends_with("x.db"));
    }
}
