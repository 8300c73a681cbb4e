//! `myrmidon engine`: the UCI protocol over standard input and output, for every game
//! (`docs/protocol.md` is its specification). The main thread reads commands; a `go` starts a
//! search on a thread of its own, so that `isready`, `stop` and `ponderhit` are answered while
//! it runs. Both threads write whole lines through one [`Out`], flushed line by line. The
//! lines themselves are read and written by the engine library's `uci` module.

mod options;
mod search;
mod session;

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use clap::Args;
use myrmidon_rules::registry;

use crate::common::CliResult;

pub use session::Session;

#[derive(Args, Debug)]
pub struct EngineArgs {
    /// The game at the start (the UCI_Variant option changes it later); by default the first
    /// game of `myrmidon games`.
    #[arg(long, value_name = "GAME")]
    pub game: Option<String>,
}

pub fn run(args: &EngineArgs) -> CliResult {
    let game = match &args.game {
        Some(id) => registry::find(id)?,
        None => registry::games()[0],
    };
    let out = Out::new(Box::new(io::stdout()));
    // Ends on `quit`, at the end of the input, or when the output is closed (whoever read it
    // is gone: nothing to say to them).
    Session::new(game, out).run(io::stdin().lock());
    Ok(())
}

/// The engine's output: whole lines, each written and flushed under one lock, from any thread.
#[derive(Clone)]
pub struct Out {
    inner: Arc<Mutex<Box<dyn Write + Send>>>,
    broken: Arc<AtomicBool>,
}

impl Out {
    pub fn new(writer: Box<dyn Write + Send>) -> Self {
        Out {
            inner: Arc::new(Mutex::new(writer)),
            broken: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Writes `text` and a newline, and flushes. Control characters (which only a message
    /// quoting bad input could hold) are escaped: a line stays one line.
    pub fn line(&self, text: &str) {
        let mut escaped = String::new();
        let text = if text.chars().any(char::is_control) {
            for c in text.chars() {
                if c.is_control() {
                    escaped.extend(c.escape_default());
                } else {
                    escaped.push(c);
                }
            }
            &escaped
        } else {
            text
        };
        let mut w = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let written = w
            .write_all(text.as_bytes())
            .and_then(|_| w.write_all(b"\n"))
            .and_then(|_| w.flush());
        if written.is_err() {
            self.broken.store(true, Ordering::Relaxed);
        }
    }

    /// `info string <text>`.
    pub fn info(&self, text: &str) {
        self.line(&format!("info string {text}"));
    }

    /// `info string error: <text>`.
    pub fn error(&self, text: &str) {
        self.line(&format!("info string error: {text}"));
    }

    /// True once a write failed (the reader closed the pipe).
    pub fn broken(&self) -> bool {
        self.broken.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer whose bytes the test can read afterwards.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn lines_stay_lines() {
        let buf = Shared::default();
        let out = Out::new(Box::new(buf.clone()));
        out.line("readyok");
        out.error("unknown command `a\u{0}b\nc`");
        let text = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
        assert_eq!(
            text,
            "readyok\ninfo string error: unknown command `a\\u{0}b\\nc`\n"
        );
        assert!(!out.broken());
    }
}
