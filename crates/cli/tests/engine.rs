//! `myrmidon engine`: scripted UCI sessions against the built binary, for every game of the
//! registry. Each engine runs with piped standard input and output; a reader thread hands its
//! lines over a channel, and every wait has a deadline, so a hung engine fails the test with
//! the transcript instead of hanging it. Moves are checked with the rules library.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use myrmidon_rules::rng::Rng;
use myrmidon_rules::testkit::perft_of;
use myrmidon_rules::{registry, DynGame, DynRecord, Reason, Settings};

/// Long enough for a loaded machine; a hung engine still fails in seconds.
const PATIENCE: Duration = Duration::from_secs(20);

struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Everything sent (`> `) and received, for failure messages.
    transcript: Vec<String>,
}

impl Engine {
    fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_myrmidon"))
            .arg("engine")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the binary runs");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                match line {
                    Ok(l) => {
                        if tx.send(l).is_err() {
                            break;
                        }
                    }
                    Err(_) => break,
                }
            }
        });
        Engine {
            stdin: child.stdin.take(),
            child,
            lines: rx,
            transcript: Vec::new(),
        }
    }

    /// An engine set to `game`.
    fn of(game: &str) -> Engine {
        let mut e = Engine::start(&[]);
        e.send(&format!("setoption name UCI_Variant value {game}"));
        e
    }

    fn send(&mut self, line: &str) {
        self.transcript.push(format!("> {line}"));
        let stdin = self.stdin.as_mut().expect("input still open");
        writeln!(stdin, "{line}").expect("the engine reads its input");
        stdin.flush().unwrap();
    }

    fn fail(&self, what: &str) -> ! {
        panic!("{what}\n--- transcript ---\n{}", self.transcript.join("\n"))
    }

    /// The next line, or `None` after `timeout`.
    fn next(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => {
                check_shape(&line).unwrap_or_else(|e| {
                    self.transcript.push(line.clone());
                    self.fail(&e)
                });
                self.transcript.push(line.clone());
                Some(line)
            }
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => self.fail("the engine's output closed"),
        }
    }

    /// The lines up to and including the first one that `done` accepts.
    fn until(&mut self, timeout: Duration, done: impl Fn(&str) -> bool) -> Vec<String> {
        let end = Instant::now() + timeout;
        let mut lines = Vec::new();
        loop {
            let left = end.saturating_duration_since(Instant::now());
            match self.next(left) {
                Some(line) => {
                    let last = done(&line);
                    lines.push(line);
                    if last {
                        return lines;
                    }
                }
                None => self.fail(&format!("no expected line within {timeout:?}")),
            }
        }
    }

    /// Sends `isready`; returns the lines before `readyok`.
    fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.until(PATIENCE, |l| l == "readyok");
        lines.pop();
        lines
    }

    /// The lines up to `bestmove`, and the move (`None` for `(none)`).
    fn bestmove(&mut self, timeout: Duration) -> (Vec<String>, Option<String>) {
        let lines = self.until(timeout, |l| l.starts_with("bestmove"));
        let words: Vec<&str> = lines.last().unwrap().split_whitespace().collect();
        let mv = match words.get(1) {
            Some(&"(none)") => None,
            Some(m) => Some(m.to_string()),
            None => self.fail("bestmove without a move"),
        };
        (lines, mv)
    }

    /// Nothing for `time` (asserts that no line matching `unwanted` comes).
    fn quiet(&mut self, time: Duration, unwanted: impl Fn(&str) -> bool) {
        let end = Instant::now() + time;
        while let Some(line) = self.next(end.saturating_duration_since(Instant::now())) {
            if unwanted(&line) {
                self.fail(&format!("unexpected line {line:?}"));
            }
        }
    }

    /// The position string `d` reports.
    fn position_string(&mut self) -> String {
        self.send("d");
        let lines = self.until(PATIENCE, |l| l.starts_with("info string position "));
        lines.last().unwrap()["info string position ".len()..].to_string()
    }

    /// Closes the input or sends `quit`; the engine must exit with status 0 within `timeout`.
    fn finish(mut self, quit: bool, timeout: Duration) -> Vec<String> {
        if quit {
            self.send("quit");
        } else {
            self.stdin.take();
        }
        let end = Instant::now() + timeout;
        let mut rest = Vec::new();
        loop {
            match self.child.try_wait().unwrap() {
                Some(status) => {
                    assert!(status.success(), "exit status {status}");
                    break;
                }
                None if Instant::now() > end => self.fail("the engine did not exit"),
                None => std::thread::sleep(Duration::from_millis(10)),
            }
        }
        while let Ok(line) = self.lines.recv_timeout(Duration::from_millis(500)) {
            rest.push(line);
        }
        rest
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Every line the engine writes has one of the shapes of the protocol: a line from two threads
/// mixed into one would not.
fn check_shape(line: &str) -> Result<(), String> {
    let first = line.split(' ').next().unwrap_or("");
    let ok = match first {
        "" => line.is_empty(),
        "id" => line.starts_with("id name ") || line.starts_with("id author "),
        "option" => line.starts_with("option name "),
        "uciok" | "readyok" => line == first,
        "bestmove" => {
            let w: Vec<&str> = line.split(' ').collect();
            w.len() == 2 || (w.len() == 4 && w[2] == "ponder")
        }
        "info" => {
            line.starts_with("info string ")
                || line.starts_with("info depth 0 score ")
                || info_fields(line).is_ok()
        }
        "Nodes" => line.starts_with("Nodes searched: "),
        _ => {
            // A perft line: `<move>: <count>`.
            let mut parts = line.split(": ");
            let (mv, count) = (parts.next().unwrap(), parts.next().unwrap_or(""));
            parts.next().is_none()
                && !mv.contains(' ')
                && !count.is_empty()
                && count.bytes().all(|b| b.is_ascii_digit())
        }
    };
    if ok {
        Ok(())
    } else {
        Err(format!("a line of no known shape: {line:?}"))
    }
}

/// The fields of an `info depth …` line, which must come in the protocol's order.
#[derive(Debug)]
struct Info {
    depth: u32,
    multipv: u32,
    nodes: u64,
    pv: Vec<String>,
}

fn info_fields(line: &str) -> Result<Info, String> {
    let w: Vec<&str> = line.split(' ').collect();
    let bad = || format!("malformed info line {line:?}");
    let num = |i: usize, key: &str| -> Result<u64, String> {
        if w.get(i) != Some(&key) {
            return Err(bad());
        }
        w.get(i + 1)
            .and_then(|v| v.parse::<u64>().ok())
            .ok_or_else(bad)
    };
    let depth = num(1, "depth")? as u32;
    num(3, "seldepth")?;
    let multipv = num(5, "multipv")? as u32;
    if w.get(7) != Some(&"score") || !matches!(w.get(8), Some(&"cp") | Some(&"mate")) {
        return Err(bad());
    }
    w.get(9)
        .and_then(|v| v.parse::<i64>().ok())
        .ok_or_else(bad)?;
    let nodes = num(10, "nodes")?;
    num(12, "nps")?;
    let mut i = 14;
    if w.get(i) == Some(&"hashfull") {
        num(i, "hashfull")?;
        i += 2;
    }
    num(i, "time")?;
    i += 2;
    let pv = match w.get(i) {
        None => Vec::new(),
        Some(&"pv") if w.len() > i + 1 => w[i + 1..].iter().map(|s| s.to_string()).collect(),
        _ => return Err(bad()),
    };
    Ok(Info {
        depth,
        multipv,
        nodes,
        pv,
    })
}

fn infos(lines: &[String]) -> Vec<Info> {
    lines
        .iter()
        .filter(|l| l.starts_with("info depth") && !l.starts_with("info depth 0 "))
        .map(|l| info_fields(l).unwrap())
        .collect()
}

fn errors(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info string error: "))
        .collect()
}

fn games() -> &'static [&'static dyn DynGame] {
    let games = registry::games();
    assert!(!games.is_empty(), "no game is registered");
    games
}

fn start(game: &dyn DynGame) -> Box<dyn DynRecord> {
    game.new_game(&Settings::new()).unwrap()
}

/// A few plies into the game, with the moves as a `position` line gives them.
fn opening(game: &dyn DynGame, plies: usize, seed: u64) -> (Box<dyn DynRecord>, Vec<String>) {
    let mut record = start(game);
    let mut rng = Rng::new(seed);
    let mut moves = Vec::new();
    for _ in 0..plies {
        let legal = record.legal_moves();
        if legal.is_empty() || record.outcome().is_some() {
            break;
        }
        let text = legal[rng.below(legal.len())].text.clone();
        record.play(&text).unwrap();
        moves.push(text);
    }
    (record, moves)
}

fn position_line(moves: &[String]) -> String {
    if moves.is_empty() {
        "position startpos".to_string()
    } else {
        format!("position startpos moves {}", moves.join(" "))
    }
}

fn assert_legal(record: &dyn DynRecord, mv: &str, context: &str) {
    let legal: Vec<String> = record.legal_moves().into_iter().map(|m| m.text).collect();
    assert!(
        legal.iter().any(|m| m == mv),
        "{context}: bestmove {mv} is not legal in {}",
        record.position_string()
    );
}

/// `go` words giving every seat `ms` on the clock and `inc` per move: `wtime`/`btime` for
/// two players, `p<n>time`/`p<n>inc` for more.
fn clock(players: usize, ms: u64, inc: u64) -> String {
    if players == 2 {
        format!("wtime {ms} btime {ms} winc {inc} binc {inc}")
    } else {
        (1..=players)
            .map(|p| format!("p{p}time {ms} p{p}inc {inc}"))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

#[test]
fn the_handshake_lists_every_variant_and_the_options() {
    let mut e = Engine::start(&[]);
    e.send("uci");
    let lines = e.until(PATIENCE, |l| l == "uciok");
    assert!(lines[0].starts_with("id name myrmidon "), "{lines:?}");
    assert!(lines.contains(&"id author the myrmidon developers".to_string()));
    let vars: Vec<String> = games()
        .iter()
        .map(|g| format!("var {}", g.info().id))
        .collect();
    let variant = format!(
        "option name UCI_Variant type combo default {} {}",
        games()[0].info().id,
        vars.join(" ")
    );
    assert!(lines.contains(&variant), "{lines:?}");
    assert!(lines.contains(&"option name MultiPV type spin default 1 min 1 max 256".into()));
    assert!(lines.contains(&"option name Player type string default search".into()));
    assert!(lines.contains(&"option name Hash type spin default 16 min 1 max 65536".into()));
    assert!(lines.contains(&"option name Threads type spin default 1 min 1 max 64".into()));
    assert!(lines.contains(&"option name Skill Level type spin default 8 min 1 max 8".into()));
    assert!(lines.contains(
        &"option name Algorithm type combo default auto var auto var paranoid var maxn var brs var mcts"
            .into()
    ));
    assert!(
        !lines
            .iter()
            .any(|l| l.starts_with("option name UCI_Chess960 ")),
        "UCI_Chess960 is advertised"
    );
    assert!(e.sync().is_empty());
    e.finish(true, PATIENCE);

    // `--game` chooses the variant at the start (the combo's default says so).
    let last = games().last().unwrap().info().id;
    let mut e = Engine::start(&["--game", last]);
    e.send("uci");
    let lines = e.until(PATIENCE, |l| l == "uciok");
    assert!(lines.iter().any(|l| l.starts_with(&format!(
        "option name UCI_Variant type combo default {last} "
    ))));
    assert_eq!(
        e.position_string(),
        start(*games().last().unwrap()).position_string()
    );
    e.finish(true, PATIENCE);
}

#[test]
fn an_unknown_game_on_the_command_line_is_a_usage_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_myrmidon"))
        .args(["engine", "--game", "chess"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("unknown game \"chess\""), "{err}");
}

#[test]
fn every_game_searches_to_a_legal_move_with_info_lines() {
    for game in games() {
        let id = game.info().id;
        let mut e = Engine::of(id);
        let (record, moves) = opening(*game, 2, 7);
        // The default player (the search) with a 1 MiB table, which it says how full it is.
        e.send("setoption name Hash value 1");
        e.send(&position_line(&moves));
        assert_eq!(e.position_string(), record.position_string(), "{id}");
        e.send("go depth 2");
        let (lines, mv) = e.bestmove(PATIENCE);
        let mv = mv.unwrap_or_else(|| e.fail("no move in a game that goes on"));
        assert_legal(&*record, &mv, id);
        assert!(errors(&lines).is_empty(), "{id}: {lines:?}");
        assert!(
            lines.iter().any(|l| l.contains(" hashfull ")),
            "{id}: {lines:?}"
        );
        let infos = infos(&lines);
        let depths: Vec<u32> = infos.iter().map(|i| i.depth).collect();
        assert_eq!(depths, vec![1, 2], "{id}: {lines:?}");
        for info in &infos {
            assert_eq!(info.multipv, 1);
            assert!(info.nodes > 0);
            let mut line = record.clone_box();
            for m in &info.pv {
                line.play(m)
                    .unwrap_or_else(|err| panic!("{id}: pv move {m}: {err}"));
            }
        }
        // The move of the deepest line is the one played.
        assert_eq!(infos.last().unwrap().pv[0], mv, "{id}");
        // A ponder move, when given, is legal after the best move.
        let last = lines.last().unwrap();
        if let Some(p) = last.split(" ponder ").nth(1) {
            let mut after = record.clone_box();
            after.play(&mv).unwrap();
            after.play(p).unwrap();
            assert_eq!(after.to_move(), record.to_move(), "{id}: {last}");
        }
        e.finish(true, PATIENCE);
    }
}

#[test]
fn every_skill_level_plays_a_legal_move_in_every_game() {
    for game in games() {
        let id = game.info().id;
        let mut e = Engine::of(id);
        let (record, moves) = opening(*game, 3, 11);
        e.send(&position_line(&moves));
        for level in [1, 4, 8] {
            e.send(&format!("setoption name Skill Level value {level}"));
            e.send("go nodes 3000");
            let (lines, mv) = e.bestmove(PATIENCE);
            let mv = mv.unwrap_or_else(|| e.fail("no move in a game that goes on"));
            assert_legal(&*record, &mv, &format!("{id} level {level}"));
            assert!(errors(&lines).is_empty(), "{id} {level}: {lines:?}");
        }
        // The `Player` option still chooses a player after a level was set.
        e.send("setoption name Player value random");
        e.send("go nodes 3000");
        let (lines, mv) = e.bestmove(PATIENCE);
        assert_legal(&*record, &mv.unwrap(), id);
        assert!(
            infos(&lines).is_empty(),
            "random reports nothing: {lines:?}"
        );
        e.finish(true, PATIENCE);
    }
}

#[test]
fn movetime_is_kept_by_every_game() {
    for game in games() {
        let id = game.info().id;
        let mut e = Engine::of(id);
        // A depth the clock must cut short.
        e.send("setoption name Player value alphabeta:depth=32");
        let (record, moves) = opening(*game, 4, 11);
        e.send(&position_line(&moves));
        e.sync();
        let t = Instant::now();
        e.send("go movetime 100");
        let (lines, mv) = e.bestmove(PATIENCE);
        let took = t.elapsed();
        assert_legal(&*record, &mv.unwrap(), id);
        assert!(errors(&lines).is_empty(), "{id}: {lines:?}");
        eprintln!("{id}: go movetime 100 answered in {took:?}");
        assert!(
            took >= Duration::from_millis(80) && took < Duration::from_millis(600),
            "{id}: go movetime 100 took {took:?}"
        );
        // A clock: the move comes well within the time left.
        e.send(&format!(
            "go {}",
            clock(record.player_names().len(), 2000, 50)
        ));
        let t = Instant::now();
        let (_, mv) = e.bestmove(PATIENCE);
        let took = t.elapsed();
        assert_legal(&*record, &mv.unwrap(), id);
        assert!(took < Duration::from_millis(1500), "{id}: took {took:?}");
        e.finish(true, PATIENCE);
    }
}

#[test]
fn go_infinite_answers_only_after_stop() {
    for game in games() {
        let id = game.info().id;
        let mut e = Engine::of(id);
        let (record, moves) = opening(*game, 3, 5);
        e.send(&position_line(&moves));
        e.sync();
        e.send("go infinite");
        e.quiet(Duration::from_millis(200), |l| l.starts_with("bestmove"));
        // Still answering while it thinks; refusing to start another search.
        assert!(e.sync().iter().all(|l| !l.starts_with("bestmove")));
        e.send("go depth 1");
        e.until(PATIENCE, |l| {
            l.starts_with("info string error: go: a search is running")
        });
        e.send(&position_line(&[]));
        e.until(PATIENCE, |l| {
            l.starts_with("info string error: position: a search is running")
        });
        let t = Instant::now();
        e.send("stop");
        let (_, mv) = e.bestmove(PATIENCE);
        let took = t.elapsed();
        eprintln!("{id}: bestmove {took:?} after stop");
        assert!(
            took < Duration::from_millis(500),
            "{id}: {took:?} after stop"
        );
        // The position refused during the search was not taken.
        assert_legal(&*record, &mv.unwrap(), id);
        assert_eq!(e.position_string(), record.position_string());
        e.finish(true, PATIENCE);
    }
}

#[test]
fn two_threads_search_to_a_legal_move_and_stop_when_told() {
    for game in games() {
        let id = game.info().id;
        let mut e = Engine::of(id);
        let (record, moves) = opening(*game, 3, 9);
        e.send("setoption name Threads value 2");
        e.send(&position_line(&moves));
        assert!(errors(&e.sync()).is_empty(), "{id}");
        e.send("go depth 4");
        let (lines, mv) = e.bestmove(PATIENCE);
        let mv = mv.unwrap_or_else(|| e.fail("no move in a game that goes on"));
        assert_legal(&*record, &mv, id);
        assert!(errors(&lines).is_empty(), "{id}: {lines:?}");
        let infos = infos(&lines);
        assert!(!infos.is_empty(), "{id}: {lines:?}");
        assert_eq!(infos.last().unwrap().pv[0], mv, "{id}");
        // An infinite search with two threads answers soon after `stop`.
        e.send("go infinite");
        e.quiet(Duration::from_millis(200), |l| l.starts_with("bestmove"));
        let t = Instant::now();
        e.send("stop");
        let (_, mv) = e.bestmove(PATIENCE);
        let took = t.elapsed();
        assert!(
            took < Duration::from_millis(500),
            "{id}: {took:?} after stop"
        );
        assert_legal(&*record, &mv.unwrap(), id);
        // Back to one thread: still a legal move.
        e.send("setoption name Threads value 1");
        e.send("go depth 2");
        let (lines, mv) = e.bestmove(PATIENCE);
        assert!(errors(&lines).is_empty(), "{id}: {lines:?}");
        assert_legal(&*record, &mv.unwrap(), id);
        e.finish(true, PATIENCE);
    }
}

#[test]
fn go_ponder_waits_for_ponderhit_or_stop() {
    for game in games() {
        let id = game.info().id;
        let players = game.info().players.len();
        let mut e = Engine::of(id);
        let (record, moves) = opening(*game, 2, 3);
        e.send(&position_line(&moves));
        e.send(&format!("go ponder {}", clock(players, 3000, 0)));
        e.quiet(Duration::from_millis(200), |l| l.starts_with("bestmove"));
        let t = Instant::now();
        e.send("ponderhit");
        // The clock now runs: 3 s shared over the moves to go, well under a second.
        let (_, mv) = e.bestmove(PATIENCE);
        let took = t.elapsed();
        assert!(took < Duration::from_millis(1000), "{id}: {took:?}");
        assert_legal(&*record, &mv.unwrap(), id);
        // A ponderhit with nothing to ponder is an error, not a crash.
        e.send("ponderhit");
        e.until(PATIENCE, |l| l.starts_with("info string error: ponderhit"));
        // The ponder move missed: stop ends it.
        e.send(&format!("go ponder {}", clock(players, 3000, 0)));
        e.quiet(Duration::from_millis(100), |l| l.starts_with("bestmove"));
        e.send("stop");
        let (_, mv) = e.bestmove(Duration::from_millis(1000));
        assert_legal(&*record, &mv.unwrap(), id);
        e.finish(true, PATIENCE);
    }
}

/// A game played at random to its end, and its moves.
fn finished_game(game: &dyn DynGame) -> (Box<dyn DynRecord>, Vec<String>) {
    for seed in 1..50 {
        let mut record = start(game);
        let mut rng = Rng::new(seed);
        let mut moves = Vec::new();
        while record.outcome().is_none() && moves.len() < 3000 {
            let legal = record.legal_moves();
            let text = legal[rng.below(legal.len())].text.clone();
            record.play(&text).unwrap();
            moves.push(text);
        }
        if record.outcome().is_some() {
            return (record, moves);
        }
    }
    panic!("{}: no random game ended", game.info().id);
}

#[test]
fn a_finished_game_gets_bestmove_none() {
    for game in games() {
        let id = game.info().id;
        let (record, moves) = finished_game(*game);
        let mut e = Engine::of(id);
        e.send(&position_line(&moves));
        assert_eq!(e.position_string(), record.position_string(), "{id}");
        let t = Instant::now();
        e.send("go depth 3");
        let (lines, mv) = e.bestmove(PATIENCE);
        assert_eq!(mv, None, "{id}: {lines:?}");
        assert!(t.elapsed() < Duration::from_millis(500), "{id}");
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string the game is over: ")),
            "{id}: {lines:?}"
        );
        // A move after the end is refused, and the finished position kept.
        e.send(&format!("{} {}", position_line(&moves), "pass"));
        e.until(PATIENCE, |l| {
            l.starts_with("info string error: position: move")
        });
        // `go infinite` on it still waits for `stop`, as UCI says.
        e.send("go infinite");
        e.quiet(Duration::from_millis(100), |l| l.starts_with("bestmove"));
        e.send("stop");
        let (_, mv) = e.bestmove(PATIENCE);
        assert_eq!(mv, None);
        e.finish(true, PATIENCE);
    }
}

#[test]
fn malformed_lines_get_errors_and_the_engine_goes_on() {
    for game in games() {
        let id = game.info().id;
        let mut e = Engine::of(id);
        let (record, moves) = opening(*game, 2, 9);
        e.send(&position_line(&moves));
        e.sync();
        let cases: Vec<(String, &str)> = vec![
            ("bogus command".into(), "unknown command `bogus`"),
            (String::new(), "empty line"),
            ("   ".into(), "empty line"),
            (
                "position fen this is not a position".into(),
                "position fen: bad position string",
            ),
            ("position".into(), "position: expected"),
            (
                "position startpos moves nonsense".into(),
                "move 1 `nonsense`",
            ),
            (
                format!("{} zz99-zz98", position_line(&moves)),
                "move 3 `zz99-zz98`",
            ),
            ("go depth x".into(), "`depth` needs a whole number, not `x`"),
            ("go wtime".into(), "`wtime` needs"),
            ("go p9time 100".into(), "`p9time`"),
            ("go perft -1".into(), "go perft"),
            (
                "setoption name Skill Level value 0".into(),
                "Skill Level: expected a whole number from 1 to 8, not `0`",
            ),
            (
                "setoption name Skill Level value 9".into(),
                "Skill Level: expected",
            ),
            (
                "setoption name Skill Level value strong".into(),
                "Skill Level: expected",
            ),
            (
                "setoption name Algorithm value minimax".into(),
                "Algorithm: expected one of auto, paranoid, maxn, brs, mcts, not `minimax`",
            ),
            (
                "setoption name Skill Levels value 2".into(),
                "unknown option `Skill Levels`",
            ),
            (
                "setoption name Threads value 0".into(),
                "Threads: expected a whole number from 1 to 64, not `0`; still 1",
            ),
            (
                "setoption name Threads value 65".into(),
                "Threads: expected",
            ),
            (
                "setoption name Hash value 0".into(),
                "Hash: expected a whole number from 1 to",
            ),
            (
                "setoption name Hash value lots".into(),
                "not `lots`; still 16",
            ),
            ("setoption name MultiPV value 0".into(), "MultiPV"),
            ("setoption name Player value minimax".into(), "Player"),
            (
                "setoption name UCI_Variant value chess".into(),
                "not `chess`; still",
            ),
            ("setoption".into(), "setoption"),
            ("debug sometimes".into(), "debug"),
            ("Go depth 1".into(), "unknown command `Go`"),
        ];
        for (line, needle) in &cases {
            e.send(line);
            let got = e.sync();
            let errs = errors(&got);
            assert!(
                errs.len() == 1 && errs[0].contains(needle),
                "{id}: {line:?} gave {got:?}, expected an error with {needle:?}"
            );
        }
        // VariantPath is acknowledged and ignored; none of this changed the position.
        e.send("setoption name VariantPath value /some/variants.ini");
        let got = e.sync();
        assert!(
            got.len() == 1 && got[0].starts_with("info string myrmidon knows its variants"),
            "{got:?}"
        );
        assert_eq!(e.position_string(), record.position_string(), "{id}");
        e.send("go depth 1");
        let (_, mv) = e.bestmove(PATIENCE);
        assert_legal(&*record, &mv.unwrap(), id);
        e.finish(true, PATIENCE);
    }
}

#[test]
fn an_illegal_move_in_the_list_keeps_the_previous_position() {
    for game in games() {
        let id = game.info().id;
        let mut e = Engine::of(id);
        let (record, moves) = opening(*game, 2, 21);
        e.send(&position_line(&moves));
        // The first player's first move again, now that it is another player's turn and the
        // first move's piece has moved: well formed, and illegal here (the rules library says).
        let mut after = record.clone_box();
        let first = moves[0].clone();
        assert!(after.play(&first).is_err(), "{id}: pick another case");
        let mut bad = moves.clone();
        bad.push(first.clone());
        e.send(&position_line(&bad));
        let got = e.sync();
        let errs = errors(&got);
        assert!(
            errs.len() == 1 && errs[0].contains(&format!("move {} `{first}`", bad.len())),
            "{id}: {got:?}"
        );
        assert_eq!(e.position_string(), record.position_string(), "{id}");
        // Letter case does not matter when it names one move.
        let upper: Vec<String> = moves.iter().map(|m| m.to_ascii_uppercase()).collect();
        e.send(&position_line(&upper));
        assert!(errors(&e.sync()).is_empty(), "{id}: {upper:?}");
        assert_eq!(e.position_string(), record.position_string(), "{id}");
        e.finish(false, PATIENCE);
    }
}

#[test]
fn perft_totals_equal_the_rules_library() {
    for game in games() {
        let id = game.info().id;
        let (record, moves) = opening(*game, 2, 13);
        let mut e = Engine::of(id);
        e.send(&position_line(&moves));
        e.send("go perft 3");
        let lines = e.until(PATIENCE, |l| l.starts_with("Nodes searched: "));
        let total: u64 = lines.last().unwrap()["Nodes searched: ".len()..]
            .parse()
            .unwrap();
        assert_eq!(total, perft_of(&*record, 3), "{id}");
        let per_move: Vec<(&str, u64)> = lines
            .iter()
            .filter_map(|l| l.split_once(": "))
            .filter(|(m, _)| *m != "Nodes searched")
            .map(|(m, n)| (m, n.parse().unwrap()))
            .collect();
        let legal: Vec<String> = record.legal_moves().into_iter().map(|m| m.text).collect();
        assert_eq!(per_move.len(), legal.len(), "{id}");
        for (m, n) in &per_move {
            assert!(legal.iter().any(|l| l == m), "{id}: {m}");
            let mut child = record.clone_box();
            child.play(m).unwrap();
            assert_eq!(*n, perft_of(&*child, 2), "{id}: {m}");
        }
        assert_eq!(per_move.iter().map(|p| p.1).sum::<u64>(), total);
        e.send("go perft 0");
        let lines = e.until(PATIENCE, |l| l.starts_with("Nodes searched: "));
        assert_eq!(lines.last().unwrap(), "Nodes searched: 1");
        e.finish(true, PATIENCE);
    }
}

#[test]
fn multipv_three_gives_three_lines_at_each_depth() {
    for game in games() {
        let id = game.info().id;
        let (record, moves) = opening(*game, 2, 17);
        assert!(
            record.legal_moves().len() >= 3,
            "{id}: pick another opening"
        );
        let mut e = Engine::of(id);
        // The default player (the search) reports several lines.
        e.send("setoption name multipv value 3");
        e.send(&position_line(&moves));
        e.send("go depth 2");
        let (lines, mv) = e.bestmove(PATIENCE);
        let infos = infos(&lines);
        for depth in 1..=2 {
            let at: Vec<u32> = infos
                .iter()
                .filter(|i| i.depth == depth)
                .map(|i| i.multipv)
                .collect();
            assert_eq!(at, vec![1, 2, 3], "{id} depth {depth}: {lines:?}");
            let firsts: Vec<&String> = infos
                .iter()
                .filter(|i| i.depth == depth)
                .map(|i| &i.pv[0])
                .collect();
            assert!(
                firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2],
                "{id}: three different moves: {firsts:?}"
            );
        }
        assert_legal(&*record, &mv.unwrap(), id);
        e.finish(true, PATIENCE);
    }
}

#[test]
fn switching_the_variant_resets_the_position() {
    let mut e = Engine::start(&[]);
    for game in games().iter().rev() {
        let id = game.info().id;
        let (record, moves) = opening(*game, 1, 1);
        // Names are case-insensitive; the variant's value is read the same way.
        e.send(&format!(
            "setoption name uci_variant value {}",
            id.to_ascii_uppercase()
        ));
        assert_eq!(e.position_string(), start(*game).position_string(), "{id}");
        e.send(&position_line(&moves));
        assert_eq!(e.position_string(), record.position_string(), "{id}");
        e.send(&format!("setoption name UCI_Variant value {id}"));
        assert_eq!(e.position_string(), start(*game).position_string(), "{id}");
        e.send("go depth 1");
        let (_, mv) = e.bestmove(PATIENCE);
        assert_legal(&*start(*game), &mv.unwrap(), id);
    }
    e.finish(false, PATIENCE);
}

#[test]
fn three_players_have_seat_times_and_leave_with_out_tokens() {
    let mut seen = 0;
    for game in games().iter().filter(|g| g.info().players.len() >= 3) {
        seen += 1;
        let id = game.info().id;
        let players = game.info().players.len();
        let (mut record, mut moves) = opening(*game, 1, 4);
        // The seat after the one to move leaves on time; its passes are the record's.
        let leaver = (record.to_move() as usize + 1) % players;
        let token = format!("out:{}:time", leaver + 1);
        assert!(record.drop_out(leaver as u8, Reason::TIME));
        moves.push(token);
        let mover = record.legal_moves()[0].text.clone();
        record.play(&mover).unwrap();
        moves.push(mover);
        assert!(
            record.to_move() as usize != leaver,
            "{id}: the leaver's turn was passed"
        );
        let mut e = Engine::of(id);
        e.send(&position_line(&moves));
        assert_eq!(e.position_string(), record.position_string(), "{id}");
        e.send("d");
        e.until(PATIENCE, |l| {
            l.starts_with(&format!("info string out: seat {}", leaver + 1))
        });
        let times = clock(players, 5000, 100);
        assert!(times.contains(&format!("p{players}inc")));
        e.send(&format!("go {times}"));
        let (lines, mv) = e.bestmove(PATIENCE);
        assert!(errors(&lines).is_empty(), "{lines:?}");
        assert_legal(&*record, &mv.unwrap(), id);
        // wtime and btime are seats 1 and 2 here too; seats beyond the game are refused.
        e.send("go wtime 3000 btime 3000 p3time 3000 movestogo 10");
        let (_, mv) = e.bestmove(PATIENCE);
        assert_legal(&*record, &mv.unwrap(), id);
        e.send(&format!("go p{}time 100", players + 1));
        let got = e.sync();
        assert!(
            errors(&got)[0].contains(&format!("{players} players")),
            "{got:?}"
        );
        // Leaving twice, an unknown reason or seat: refused, the position kept.
        for bad in [
            format!("out:{}:resignation", leaver + 1),
            "out:1:sleep".to_string(),
            format!("out:{}:time", players + 1),
        ] {
            let mut more = moves.clone();
            more.push(bad.clone());
            e.send(&position_line(&more));
            let got = e.sync();
            assert_eq!(errors(&got).len(), 1, "{bad}: {got:?}");
        }
        assert_eq!(e.position_string(), record.position_string(), "{id}");
        e.finish(true, PATIENCE);
    }
    assert!(seen > 0, "no game of three players is registered");
    // Between two players the token is refused.
    let two = games()
        .iter()
        .find(|g| g.info().players.len() == 2)
        .unwrap();
    let mut e = Engine::of(two.info().id);
    e.send("position startpos moves out:1:resignation");
    let got = e.sync();
    assert!(errors(&got)[0].contains("is a game of two"), "{got:?}");
    e.finish(true, PATIENCE);
}

#[test]
fn quit_and_the_end_of_input_end_the_engine() {
    // `quit` in the middle of a search: the engine stops it and exits.
    let mut e = Engine::start(&[]);
    e.send("go infinite");
    e.quiet(Duration::from_millis(100), |l| l.starts_with("bestmove"));
    let t = Instant::now();
    e.finish(true, Duration::from_secs(2));
    assert!(t.elapsed() < Duration::from_secs(2));
    // The end of the input, also while searching.
    let mut e = Engine::start(&[]);
    e.send("go infinite");
    e.finish(false, Duration::from_secs(2));
    let mut e = Engine::start(&[]);
    e.sync();
    let rest = e.finish(false, Duration::from_secs(2));
    assert!(rest.is_empty(), "{rest:?}");
}

#[test]
fn lines_never_mix_while_a_search_writes() {
    // Many commands answered by the main thread while the search thread writes its lines;
    // every line read is checked for its shape (`check_shape`).
    let mut e = Engine::start(&[]);
    e.send("setoption name MultiPV value 8");
    e.send("go infinite");
    for _ in 0..200 {
        e.send("isready");
        e.send("d");
    }
    let mut ready = 0;
    let mut lines = 0;
    while ready < 200 {
        match e.next(PATIENCE) {
            Some(l) => {
                lines += 1;
                ready += usize::from(l == "readyok");
            }
            None => e.fail("readyok missing"),
        }
    }
    assert!(lines >= 600, "200 readyok and 3 lines of `d` each: {lines}");
    e.send("stop");
    e.bestmove(PATIENCE);
    e.finish(true, PATIENCE);
}

#[test]
fn ackenhead_speaks_fairy_stockfish_notation() {
    // Facts from Fairy-Stockfish loaded with the project's variants.ini (see docs/protocol.md):
    // its start FEN for `ackenhead`, and its UCI move text for a promotion (the piece letter
    // in lower case after the squares).
    let game = registry::find("ackenhead").expect("Ackenhead is registered");
    assert_eq!(
        start(game).position_string(),
        "cmvlkvmc/pppppppp/8/8/8/8/PPPPPPPP/CMVLKVMC w - - 0 1"
    );
    let mut e = Engine::of("ackenhead");
    e.send("position fen 4k3/1P6/8/8/8/8/8/4K3 w - - 0 1 moves b7a8l");
    assert_eq!(e.position_string(), "L3k3/8/8/8/8/8/8/4K3 b - - 0 1");
    e.send("position fen 4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    e.send("go perft 1");
    let lines = e.until(PATIENCE, |l| l.starts_with("Nodes searched: "));
    for promotion in ["b7a8l", "b7a8c", "b7a8v", "b7a8m", "b7c8l"] {
        assert!(lines.contains(&format!("{promotion}: 1")), "{lines:?}");
    }
    assert_eq!(lines.last().unwrap(), "Nodes searched: 13");
    e.finish(true, PATIENCE);
}

#[test]
fn random_lines_never_stop_the_engine() {
    // Lines of protocol words, moves and garbage in random order: every one is answered or
    // refused, and the engine is alive and answering at the end.
    let mut words: Vec<String> = [
        "uci",
        "isready",
        "ucinewgame",
        "setoption",
        "name",
        "value",
        "UCI_Variant",
        "MultiPV",
        "Player",
        "Ponder",
        "position",
        "startpos",
        "fen",
        "moves",
        "go",
        "perft",
        "depth",
        "nodes",
        "movetime",
        "movestogo",
        "wtime",
        "btime",
        "winc",
        "p3time",
        "p2inc",
        "infinite",
        "ponder",
        "searchmoves",
        "mate",
        "stop",
        "ponderhit",
        "d",
        "debug",
        "on",
        "register",
        "out:2:time",
        "out:9:x",
        "out:",
        "pass",
        "-5",
        "0",
        "1",
        "2",
        "3",
        "x",
        "true",
        "é",
        "\u{0}",
        "moves moves",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for game in games() {
        words.push(game.info().id.to_string());
        let (record, moves) = opening(*game, 2, 2);
        words.extend(moves);
        words.push(record.position_string());
    }
    let mut rng = Rng::new(12);
    let mut e = Engine::start(&[]);
    for i in 0..1500 {
        let n = 1 + rng.below(7);
        let line: Vec<&str> = (0..n)
            .map(|_| words[rng.below(words.len())].as_str())
            .collect();
        e.send(&line.join(" "));
        if i % 25 == 0 {
            // Whatever state the random lines left: a search that ends.
            e.send("stop");
            e.send("go depth 1");
        }
        // Read what came so far, checking each line's shape.
        while e.next(Duration::ZERO).is_some() {}
    }
    e.send("stop");
    // A line of its own to wait for: random lines had `isready` too.
    e.send("end-of-random-lines");
    e.until(PATIENCE, |l| l.contains("`end-of-random-lines`"));
    e.sync();
    let received = |prefix: &str| {
        e.transcript
            .iter()
            .filter(|l| l.starts_with(prefix))
            .count()
    };
    let (errors, bestmoves, infos) = (
        received("info string error"),
        received("bestmove"),
        received("info depth"),
    );
    eprintln!("{errors} errors, {bestmoves} bestmoves, {infos} info lines");
    assert!(errors > 500 && bestmoves >= 60 && infos >= 60);
    e.send("setoption name UCI_Variant value ackenhead");
    e.send("setoption name Player value alphabeta:depth=2");
    e.send("position startpos");
    e.send("go");
    let (_, mv) = e.bestmove(PATIENCE);
    let record = start(registry::find("ackenhead").unwrap());
    assert_legal(&*record, &mv.unwrap(), "ackenhead");
    e.finish(true, PATIENCE);
}
