//! A temporary PostgreSQL server for the tests: `initdb` into a temporary folder, started on a
//! free loopback port, stopped when the tests end. Debian's `postgresql` package gives the
//! programs (`./test.sh` installs it when missing); as root they run as the `postgres` user,
//! since PostgreSQL refuses to run as root.

#![allow(dead_code)]

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

/// A running server of our own.
pub struct TempPg {
    dir: tempfile::TempDir,
    bin: PathBuf,
    pub port: u16,
    /// Run the programs as `postgres` (we are root).
    as_postgres: bool,
}

/// Where Debian's PostgreSQL programs are: on the PATH, or in /usr/lib/postgresql/<version>/bin
/// (the newest).
fn bin_dir() -> PathBuf {
    if let Ok(path) = std::env::var("PATH") {
        for dir in std::env::split_paths(&path) {
            if dir.join("pg_ctl").exists() && dir.join("initdb").exists() {
                return dir;
            }
        }
    }
    let mut versions: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path().join("bin"))
        .filter(|d| d.join("pg_ctl").exists())
        .collect();
    versions.sort_by_key(|d| {
        d.parent()
            .and_then(|v| v.file_name())
            .and_then(|v| v.to_str())
            .and_then(|v| v.parse::<u32>().ok())
            .unwrap_or(0)
    });
    versions.pop().unwrap_or_else(|| {
        panic!(
            "the PostgreSQL tests need PostgreSQL's programs (initdb, pg_ctl), found neither on \
             the PATH nor in /usr/lib/postgresql: install Debian's `postgresql` package (./test.sh \
             does it when they are missing)"
        )
    })
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free loopback port")
}

fn check(what: &str, out: std::io::Result<Output>) -> Output {
    let out = out.unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(
        out.status.success(),
        "{what} failed ({}): {}{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

impl TempPg {
    /// Creates and starts a new server.
    pub fn start() -> TempPg {
        let bin = bin_dir();
        let as_postgres = is_root();
        let dir = tempfile::Builder::new()
            .prefix("myrmidon-pg-")
            .tempdir()
            .expect("a temporary folder");
        if as_postgres {
            check(
                "chown of the temporary folder to postgres",
                Command::new("chown")
                    .arg("postgres:postgres")
                    .arg(dir.path())
                    .output(),
            );
        }
        let pg = TempPg {
            dir,
            bin,
            port: free_port(),
            as_postgres,
        };
        let data = pg.data();
        check(
            "initdb",
            pg.command("initdb")
                .arg("-D")
                .arg(&data)
                .args(["-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"])
                .output(),
        );
        pg.pg_ctl("start");
        pg
    }

    fn data(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    fn command(&self, program: &str) -> Command {
        let path = self.bin.join(program);
        if self.as_postgres {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(path);
            c
        } else {
            Command::new(path)
        }
    }

    fn pg_ctl(&self, action: &str) {
        let options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200",
            self.port,
            self.dir.path().display()
        );
        let mut c = self.command("pg_ctl");
        c.arg("-D")
            .arg(self.data())
            .arg("-l")
            .arg(self.dir.path().join("log"))
            .args(["-w", "-t", "60", "-m", "fast", "-o", &options, action]);
        check(&format!("pg_ctl {action}"), c.output());
    }

    /// Stops the server (its clients lose their connections) and starts it again on the same
    /// port and data.
    pub fn restart(&self) {
        self.pg_ctl("restart");
    }

    pub fn stop(&self) {
        self.pg_ctl("stop");
    }

    pub fn begin(&self) {
        self.pg_ctl("start");
    }

    /// The URL of a new, empty database.
    pub fn database(&self) -> String {
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let name = format!(
            "t{}_{}",
            std::process::id(),
            COUNT.fetch_add(1, Ordering::Relaxed)
        );
        let psql = if self.bin.join("psql").exists() {
            self.bin.join("psql")
        } else {
            Path::new("psql").to_path_buf()
        };
        check(
            "psql CREATE DATABASE",
            Command::new(psql)
                .args([
                    "-h",
                    "127.0.0.1",
                    "-U",
                    "postgres",
                    "-d",
                    "postgres",
                    "-q",
                    "-c",
                ])
                .arg(format!("CREATE DATABASE {name}"))
                .arg("-p")
                .arg(self.port.to_string())
                .output(),
        );
        format!("postgres://postgres@127.0.0.1:{}/{name}", self.port)
    }
}

impl Drop for TempPg {
    fn drop(&mut self) {
        let mut c = self.command("pg_ctl");
        c.arg("-D")
            .arg(self.data())
            .args(["-w", "-m", "immediate", "stop"]);
        let _ = c.output();
    }
}

/// The server shared by one test program, stopped when the program exits.
pub fn shared() -> &'static TempPg {
    static SHARED: OnceLock<TempPg> = OnceLock::new();
    SHARED.get_or_init(|| {
        extern "C" fn stop_shared() {
            if let Some(pg) = SHARED.get() {
                let mut c = pg.command("pg_ctl");
                c.arg("-D")
                    .arg(pg.data())
                    .args(["-w", "-m", "immediate", "stop"]);
                let _ = c.output();
                let _ = std::fs::remove_dir_all(pg.dir.path());
            }
        }
        let pg = TempPg::start();
        // Statics are not dropped: stop the server when the test program exits.
        // SAFETY: `stop_shared` is an `extern "C" fn()` that does not unwind (it ignores every
        // error), as atexit requires; registering it has no other precondition.
        #[allow(unsafe_code)]
        unsafe {
            libc::atexit(stop_shared)
        };
        pg
    })
}
