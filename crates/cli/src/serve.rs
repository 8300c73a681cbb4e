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
    /// it may open: docs/api.md). For load tests and trusted networks.
    #[arg(long)]
    pub no_rate_limits: bool,
    /// A proxy or load balancer in front of the server (its address, repeatable): for requests
    /// from it, the client is the address its `X-Forwarded-For` header names, so that the
    /// limits count each client and not the proxy.
    #[arg(long = "trusted-proxy", value_name = "IP")]
    pub trusted_proxies: Vec<IpAddr>,
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
        limits: RateLimits {
            trusted_proxies: args.trusted_proxies.clone(),
            ..if args.no_rate_limits {
                RateLimits::off()
            } else {
                RateLimits::default()
            }
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
