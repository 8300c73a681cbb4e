//! The UCI client of external engines: starts the program, talks to it over its standard input
//! and output, and turns what goes wrong into [`Fault`]s (a closed pipe or an exit is a crash,
//! no answer in time is a hang).
//!
//! A thread reads the engine's output line by line into a channel, so that every wait has a
//! deadline. Each engine runs in its own process group, and killing it kills the group: a
//! wrapper script's children go with it.

use std::io::{BufRead, BufReader, Write};
use std::process::{self, Child, ChildStdin, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use myrmidon_engine::uci::{Command, Info, UciOption};
use myrmidon_engine::Score;

use crate::player::Fault;
use crate::spec::EngineSpec;

/// How long an engine may take to answer `uci` and `isready`.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// What the last `info` lines of a search said (the best line's, with MultiPV).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchInfo {
    pub score: Option<Score>,
    pub depth: Option<u32>,
}

impl SearchInfo {
    /// Reads an `info` line into what is known so far. Other lines and `info string` change
    /// nothing; lines of a second best line (`multipv 2`) are skipped.
    pub fn read(&mut self, line: &str) {
        let Ok(info) = line.parse::<Info>() else {
            return;
        };
        if !info.is_best_line() {
            return;
        }
        if info.depth.is_some() {
            self.depth = info.depth;
        }
        if info.score.is_some() {
            self.score = info.score;
        }
    }
}

/// A running external engine.
pub struct UciEngine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// The name it gave (`id name`).
    pub id_name: Option<String>,
    /// The options it declared (lines that do not read as a declaration are passed over).
    pub options: Vec<UciOption>,
    /// Set once it is known dead or killed: no `quit` is sent then.
    dead: bool,
}

impl UciEngine {
    /// Starts the engine of `spec` (an external one, `argv`) for `game`: `uci` until `uciok`,
    /// the spec's options (and `UCI_Variant` = `game` if the engine offers it and the spec does
    /// not set it), then `isready` until `readyok`.
    pub fn start(
        spec: &EngineSpec,
        argv: &[String],
        game: &str,
        handshake: Duration,
    ) -> Result<UciEngine, Fault> {
        let mut command = process::Command::new(&argv[0]);
        command
            .args(&argv[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(dir) = &spec.dir {
            command.current_dir(dir);
        }
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            command.process_group(0);
        }
        let mut child = command
            .spawn()
            .map_err(|e| Fault::Crash(format!("cannot start `{}`: {e}", argv.join(" "))))?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout is piped");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).trim_end().to_string();
                        if tx.send(line).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        let mut engine = UciEngine {
            child,
            stdin,
            lines: rx,
            id_name: None,
            options: Vec::new(),
            dead: false,
        };
        engine.send(&Command::Uci)?;
        let deadline = Instant::now() + handshake;
        loop {
            let line = engine.line_before(deadline, "uciok")?;
            let mut words = line.split_whitespace();
            match (words.next(), words.next()) {
                (Some("uciok"), None) => break,
                (Some("id"), Some("name")) => {
                    let rest: Vec<&str> = words.collect();
                    engine.id_name = Some(rest.join(" "));
                }
                (Some("option"), Some("name")) => {
                    if let Ok(option) = line.parse::<UciOption>() {
                        engine.options.push(option);
                    }
                }
                _ => {}
            }
        }
        let set = |name: &str, value: &str| Command::SetOption {
            name: name.to_string(),
            value: Some(value.to_string()),
        };
        for (name, value) in &spec.options {
            engine.send(&set(name, value))?;
        }
        let offers_variant = engine.options.iter().any(|o| o.is("UCI_Variant"));
        let sets_variant = spec
            .options
            .iter()
            .any(|(n, _)| n.eq_ignore_ascii_case("UCI_Variant"));
        if offers_variant && !sets_variant {
            engine.send(&set("UCI_Variant", game))?;
        }
        engine.ready(handshake)?;
        Ok(engine)
    }

    /// Sends one command.
    pub fn send(&mut self, command: &Command) -> Result<(), Fault> {
        let line = command.to_string();
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| Fault::Crash("its input is closed".to_string()))?;
        let sent = stdin
            .write_all(line.as_bytes())
            .and_then(|_| stdin.write_all(b"\n"))
            .and_then(|_| stdin.flush());
        sent.map_err(|e| {
            self.dead = true;
            Fault::Crash(format!("it stopped reading its input ({e}) at `{line}`"))
        })
    }

    /// The next line, waiting until `deadline` at most; `waiting_for` says what for, in the
    /// error.
    fn line_before(&mut self, deadline: Instant, waiting_for: &str) -> Result<String, Fault> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(Fault::Timeout(format!(
                "no `{waiting_for}` after {:.2} s",
                left.as_secs_f64()
            ))),
            Err(RecvTimeoutError::Disconnected) => {
                self.dead = true;
                let status = self
                    .child
                    .try_wait()
                    .ok()
                    .flatten()
                    .map(|s| format!(" ({s})"))
                    .unwrap_or_default();
                Err(Fault::Crash(format!(
                    "it closed its output{status} while the referee waited for `{waiting_for}`"
                )))
            }
        }
    }

    /// `isready`, then waits for `readyok`.
    pub fn ready(&mut self, timeout: Duration) -> Result<(), Fault> {
        self.send(&Command::IsReady)?;
        let deadline = Instant::now() + timeout;
        loop {
            let line = self.line_before(deadline, "readyok").map_err(|f| match f {
                // Not answering `isready` is a broken engine, not a slow move.
                Fault::Timeout(m) => Fault::Crash(m),
                f => f,
            })?;
            if line.trim() == "readyok" {
                return Ok(());
            }
        }
    }

    /// `ucinewgame` and `isready`.
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), Fault> {
        self.send(&Command::UciNewGame)?;
        self.ready(timeout)
    }

    /// Sends `position` and `go`, reads `info` lines into `info` until `bestmove`, and returns
    /// its move text; waits for `allowed` at most.
    pub fn go(
        &mut self,
        position: &Command,
        go: &Command,
        allowed: Duration,
        info: &mut SearchInfo,
    ) -> Result<String, Fault> {
        self.send(position)?;
        self.send(go)?;
        let deadline = Instant::now() + allowed;
        loop {
            let line = self.line_before(deadline, "bestmove")?;
            let mut words = line.split_whitespace();
            match words.next() {
                Some("info") => info.read(&line),
                Some("bestmove") => return Ok(words.next().unwrap_or("").to_string()),
                _ => {}
            }
        }
    }

    /// Asks it to quit, gives it a moment, then kills what is left.
    pub fn quit(mut self) {
        if !self.dead && self.send(&Command::Quit).is_ok() {
            self.stdin = None;
            let until = Instant::now() + Duration::from_millis(500);
            while Instant::now() < until {
                match self.child.try_wait() {
                    Ok(Some(_)) => {
                        self.dead = true;
                        return;
                    }
                    Ok(None) => std::thread::sleep(Duration::from_millis(2)),
                    Err(_) => break,
                }
            }
        }
    }
}

impl Drop for UciEngine {
    /// Kills the engine and everything it started, and waits for it.
    fn drop(&mut self) {
        self.stdin = None;
        if let Ok(Some(_)) = self.child.try_wait() {
            return;
        }
        kill_group(&self.child);
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Kills the process group of `child` (it leads one: `process_group(0)` at spawn). The child
/// is not yet reaped, so its id, which is the group's, cannot have been reused.
#[cfg(unix)]
fn kill_group(child: &Child) {
    use rustix::process::{kill_process_group, Pid, Signal};
    if let Some(group) = i32::try_from(child.id()).ok().and_then(Pid::from_raw) {
        let _ = kill_process_group(group, Signal::KILL);
    }
}

#[cfg(not(unix))]
fn kill_group(_child: &Child) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_keep_the_last_score_and_depth_of_the_best_line() {
        let mut info = SearchInfo::default();
        info.read("info depth 3 seldepth 5 score cp 35 nodes 100 pv e2e4 e7e5");
        assert_eq!(info.score, Some(Score::Cp(35)));
        assert_eq!(info.depth, Some(3));
        info.read("info depth 4 multipv 2 score cp 90 pv a2a3");
        assert_eq!(info.score, Some(Score::Cp(35)));
        info.read("info string depth 9 score cp 1");
        assert_eq!(info.depth, Some(3));
        info.read("info depth 5 multipv 1 score mate -2 lowerbound pv x");
        assert_eq!(info.score, Some(Score::Mate(-2)));
        assert_eq!(info.depth, Some(5));
        info.read("info nodes 5000 nps 100");
        assert_eq!(info.depth, Some(5));
        info.read("bestmove e2e4");
        assert_eq!(info.depth, Some(5));
    }
}
