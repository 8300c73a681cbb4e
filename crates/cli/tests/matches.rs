//! `myrmidon match` as a user runs it: built-in players, fake external engines (small shell
//! scripts written here) that crash, hang, play illegal moves or print garbage, the JSON
//! summary, the SPRT stop, and usage errors.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use myrmidon_rules::pgn::read_games;
use myrmidon_rules::registry;
use serde_json::Value;

fn myrmidon(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_myrmidon"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The JSON object on the last line of standard output.
fn summary(out: &Output) -> Value {
    assert!(
        out.status.success(),
        "status {:?}\nstdout: {}\nstderr: {}",
        out.status,
        stdout(out),
        stderr(out)
    );
    let text = stdout(out);
    let last = text.lines().last().expect("some output");
    serde_json::from_str(last).unwrap_or_else(|e| panic!("{e}: {last}"))
}

/// A scratch directory for one test, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir =
            std::env::temp_dir().join(format!("myrmidon-match-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Writes an executable fake UCI engine: it answers `uci` (offering `Hash` and `UCI_Variant`)
/// and `isready`, logs every line it gets to `log` (if given), and does `on_go` on `go`.
fn fake_engine(dir: &Scratch, name: &str, on_go: &str, log: Option<&Path>) -> PathBuf {
    let path = dir.path(name);
    let log_line = match log {
        Some(log) => format!("  printf '%s\\n' \"$line\" >> '{}'\n", log.display()),
        None => String::new(),
    };
    let script = format!(
        "#!/bin/sh\n\
         while IFS= read -r line; do\n\
         {log_line}\
         \x20 case \"$line\" in\n\
         \x20   uci) echo 'id name {name}'; \
                  echo 'option name Hash type spin default 1 min 1 max 64'; \
                  echo 'option name UCI_Variant type combo default antchess var antchess'; \
                  echo 'uciok' ;;\n\
         \x20   isready) echo readyok ;;\n\
         \x20   go*) {on_go} ;;\n\
         \x20   quit) exit 0 ;;\n\
         \x20 esac\n\
         done\n"
    );
    std::fs::write(&path, script).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    path
}

/// A move of the start position of `game` for the first player: legal in the first move,
/// not when the second player plays it, and not again once played.
fn first_move(game: &str) -> String {
    let record = registry::find(game)
        .unwrap()
        .new_game(&Default::default())
        .unwrap();
    record.legal_moves()[0].text.clone()
}

fn engine<'a>(e: &'a Value, name: &str) -> &'a Value {
    e["engines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["name"] == name)
        .unwrap_or_else(|| panic!("no engine {name} in {e}"))
}

#[test]
fn faulty_engines_lose_their_games_and_are_counted() {
    let dir = Scratch::new("faults");
    let illegal = format!("echo 'bestmove {}'", first_move("antchess"));
    let cases = [
        ("crash", "exit 3", "crashes"),
        ("hang", "sleep 30", "time_losses"),
        ("illegal", illegal.as_str(), "illegal_moves"),
        (
            "garbage",
            "echo '%%% garbage &&&'; echo 'info depth x score cp'; echo 'bestmove #!?garbage'",
            "illegal_moves",
        ),
    ];
    for (name, on_go, counter) in cases {
        let script = fake_engine(&dir, name, on_go, None);
        let cmd = format!("cmd={}", script.display());
        let records = dir.path(&format!("{name}.pgn")).display().to_string();
        let out = myrmidon(&[
            "match",
            "antchess",
            "--engine",
            &cmd,
            "timemargin=100",
            "--engine",
            "builtin=random",
            "--games",
            "4",
            "--movetime",
            "50",
            "--seed",
            "1",
            "--records",
            &records,
            "--json",
        ]);
        let s = summary(&out);
        assert_eq!(s["games"], 4, "{name}: {s}");
        let fake = engine(&s, name);
        let random = engine(&s, "random");
        assert_eq!(fake["losses"], 4, "{name}: {s}");
        assert_eq!(fake["score"], 0.0, "{name}: {s}");
        assert_eq!(fake[counter], 4, "{name}: {s}");
        for other in ["crashes", "time_losses", "illegal_moves"] {
            if other != counter {
                assert_eq!(fake[other], 0, "{name} {other}: {s}");
            }
            assert_eq!(random[other], 0, "{name} {other}: {s}");
        }
        assert_eq!(random["wins"], 4, "{name}: {s}");
        let text = stdout(&out);
        assert!(
            text.contains(&format!("Score of {name} vs random: 0 - 4 - 0")),
            "{text}"
        );
        // The records say why each game ended and what the engine did.
        let reason = match counter {
            "crashes" => "crash",
            "time_losses" => "time",
            _ => "illegal-move",
        };
        let games = read_games(&std::fs::read_to_string(&records).unwrap()).unwrap();
        assert_eq!(games.len(), 4);
        for g in &games {
            assert_eq!(g.tag("Termination"), Some(reason), "{name}");
            assert_eq!(g.tag("TimeControl"), Some("0.05/move"));
            let seat = if g.tag("Black") == Some(name) {
                "Black"
            } else {
                "Red"
            };
            let result = if seat == "Black" { "0-1" } else { "1-0" };
            assert_eq!(g.tag("Result"), Some(result), "{name}");
            let comment = g.comment.as_deref().unwrap_or_default();
            assert!(
                comment.starts_with(&format!("{seat} ({name}) ")),
                "{comment}"
            );
        }
    }
}

#[test]
fn an_engine_gets_its_options_the_variant_positions_and_clocks() {
    let dir = Scratch::new("protocol");
    let log = dir.path("log");
    let script = fake_engine(&dir, "logger", "exit 1", Some(&log));
    let cmd = format!("cmd={}", script.display());
    let out = myrmidon(&[
        "match",
        "antchess",
        "--engine",
        &cmd,
        "option.Hash=8",
        "option.My Option=a b",
        "--engine",
        "builtin=random",
        "--games",
        "2",
        "--tc",
        "2+0.1",
        "--seed",
        "3",
        "--json",
    ]);
    let s = summary(&out);
    assert_eq!(engine(&s, "logger")["crashes"], 2, "{s}");
    let log = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = log.lines().collect();
    // One start to check the engine, then one per game (it crashes in each).
    let handshake = [
        "uci",
        "setoption name Hash value 8",
        "setoption name My Option value a b",
        "setoption name UCI_Variant value antchess",
        "isready",
    ];
    assert_eq!(&lines[..5], &handshake, "{log}");
    let games: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i] == "ucinewgame")
        .collect();
    assert_eq!(games.len(), 2, "{log}");
    // First game: the engine moves first, from the standard start.
    let g = games[0];
    assert_eq!(&lines[g - 5..g], &handshake, "{log}");
    assert_eq!(lines[g + 1], "isready");
    assert_eq!(lines[g + 2], "position startpos");
    assert_eq!(lines[g + 3], "go wtime 2000 btime 2000 winc 100 binc 100");
    // Second game: it plays second, after the random player's move.
    let g = games[1];
    let position = lines[g + 2];
    assert!(position.starts_with("position startpos moves "), "{log}");
    assert_eq!(position.split_whitespace().count(), 4, "{log}");
    assert!(lines[g + 3].starts_with("go wtime "), "{log}");
    assert!(
        lines[g + 3].ends_with(" btime 2000 winc 100 binc 100"),
        "{log}"
    );

    // An opening that is not the standard start is sent as `position fen`.
    let mut record = registry::find("antchess")
        .unwrap()
        .new_game(&Default::default())
        .unwrap();
    let first = first_move("antchess");
    record.play(&first).unwrap();
    let opening = record.position_string();
    std::fs::write(dir.path("openings"), format!("{opening}\n")).unwrap();
    std::fs::remove_file(dir.path("log")).unwrap();
    let openings = dir.path("openings").display().to_string();
    let out = myrmidon(&[
        "match",
        "antchess",
        "--engine",
        &cmd,
        "--engine",
        "builtin=random",
        "--games",
        "2",
        "--movetime",
        "100",
        "--openings",
        &openings,
        "--json",
    ]);
    summary(&out);
    let log = std::fs::read_to_string(dir.path("log")).unwrap();
    let positions: Vec<&str> = log.lines().filter(|l| l.starts_with("position ")).collect();
    assert_eq!(positions.len(), 2, "{log}");
    // Red is to move in the opening: the engine (Black in the first game) gets it after
    // Red's move; as Red in the second game, at once.
    assert!(
        positions.contains(&format!("position fen {opening}").as_str()),
        "{log}"
    );
    assert!(
        positions
            .iter()
            .any(|p| p.starts_with(&format!("position fen {opening} moves "))),
        "{log}"
    );
    assert!(log.contains("\ngo movetime 100\n"), "{log}");

    // A variant given by the user is not sent again.
    std::fs::remove_file(dir.path("log")).unwrap();
    let out = myrmidon(&[
        "match",
        "antchess",
        "--engine",
        &cmd,
        "option.UCI_Variant=mine",
        "--engine",
        "builtin=random",
        "--games",
        "2",
        "--depth",
        "1",
        "--json",
    ]);
    summary(&out);
    let log = std::fs::read_to_string(dir.path("log")).unwrap();
    assert!(
        log.contains("setoption name UCI_Variant value mine\n"),
        "{log}"
    );
    assert!(!log.contains("value antchess"), "{log}");
    assert!(log.contains("\ngo depth 1\n"), "{log}");
}

#[test]
fn three_players_drop_out_and_the_others_play_on() {
    let dir = Scratch::new("three");
    let log = dir.path("log");
    let crash = fake_engine(&dir, "crash", "exit 2", None);
    let logger = fake_engine(&dir, "logger", "exit 1", Some(&log));
    let crash = format!("cmd={}", crash.display());
    let logger = format!("cmd={}", logger.display());
    let out = myrmidon(&[
        "match",
        "antchess3",
        "--engine",
        &crash,
        "--engine",
        &logger,
        "--engine",
        "builtin=greedy",
        "--games",
        "6",
        "--tc",
        "1+0",
        "--seed",
        "5",
        "--records",
        &dir.path("games.pgn").display().to_string(),
        "--json",
    ]);
    let s = summary(&out);
    assert_eq!(s["games"], 6, "{s}");
    // The records carry the dropouts as `out:` tokens and read back.
    let text = std::fs::read_to_string(dir.path("games.pgn")).unwrap();
    let games = read_games(&text).unwrap();
    assert_eq!(games.len(), 6);
    assert!(text.contains("out:1:crash"), "{text}");
    for g in &games {
        let outs = g.record.eliminations();
        assert_eq!(outs.len(), 2, "{g:?}");
        assert!(outs.iter().all(|e| e.reason.id == "crash"), "{g:?}");
        assert!(g.tag("Result").unwrap().contains('1'), "{g:?}");
    }
    for name in ["crash", "logger"] {
        let e = engine(&s, name);
        assert_eq!(e["crashes"], 6, "{s}");
        assert_eq!(e["losses"], 6, "{s}");
    }
    assert_eq!(engine(&s, "greedy")["wins"], 6, "{s}");
    assert_eq!(s["elo"], Value::Null);
    assert_eq!(s["pentanomial"], Value::Null);
    let log = std::fs::read_to_string(&log).unwrap();
    // Where the crashing engine moved before the logger, the logger was told it left.
    let outs: Vec<&str> = log
        .lines()
        .filter(|l| l.starts_with("position startpos moves") && l.contains(" out:"))
        .collect();
    assert!(!outs.is_empty(), "{log}");
    for l in &outs {
        assert!(
            l.split_whitespace()
                .filter(|w| w.starts_with("out:"))
                .all(|w| ["out:1:crash", "out:2:crash", "out:3:crash"].contains(&w)),
            "{l}"
        );
    }
    assert!(
        log.lines()
            .any(|l| l == "go p1time 1000 p2time 1000 p3time 1000 p1inc 0 p2inc 0 p3inc 0"),
        "{log}"
    );
    let text = stdout(&out);
    assert!(text.contains("Black W-D-L"), "{text}");
    assert!(text.contains("crash lost 6 games by crash"), "{text}");
}

#[test]
fn the_json_summary_has_the_shape_of_the_issue() {
    let out = myrmidon(&[
        "match",
        "reines",
        "--engine",
        "builtin=greedy",
        "name=G",
        "--engine",
        "builtin=random",
        "--games",
        "6",
        "--seed",
        "9",
        "--json",
    ]);
    let s = summary(&out);
    for key in [
        "games",
        "engines",
        "elo",
        "elo_margin",
        "pentanomial",
        "llr",
        "sprt",
    ] {
        assert!(s.get(key).is_some(), "no {key} in {s}");
    }
    assert_eq!(s["games"], 6);
    let engines = s["engines"].as_array().unwrap();
    let names: Vec<&str> = engines
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["G", "random"]);
    let mut points = 0.0;
    for e in engines {
        for key in [
            "wins",
            "draws",
            "losses",
            "crashes",
            "time_losses",
            "illegal_moves",
        ] {
            assert!(e[key].is_u64(), "{key} in {e}");
        }
        let games = e["wins"].as_u64().unwrap()
            + e["draws"].as_u64().unwrap()
            + e["losses"].as_u64().unwrap();
        assert_eq!(games, 6, "{e}");
        points += e["score"].as_f64().unwrap();
    }
    assert_eq!(points, 6.0);
    assert_eq!(engines[0]["wins"], engines[1]["losses"]);
    let penta: Vec<u64> = s["pentanomial"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    assert_eq!(penta.len(), 5);
    assert_eq!(penta.iter().sum::<u64>(), 3);
    assert_eq!(s["llr"], Value::Null);
    assert_eq!(s["sprt"], Value::Null);
    assert!(s["elo"].is_number() || s["elo"].is_null());
    let text = stdout(&out);
    let first = text.lines().next().unwrap();
    assert!(first.starts_with("Score of G vs random: "), "{text}");
    assert!(text.contains("\nElo difference: "), "{text}");
}

#[test]
fn the_sprt_stops_a_lopsided_match_early() {
    let out = myrmidon(&[
        "match",
        "reines",
        "--engine",
        "builtin=greedy",
        "--engine",
        "builtin=random",
        "--games",
        "400",
        "--sprt",
        "elo0=0",
        "elo1=50",
        "alpha=0.05",
        "beta=0.05",
        "--seed",
        "2",
        "--json",
    ]);
    let s = summary(&out);
    assert_eq!(s["sprt"], "H1", "{s}");
    let games = s["games"].as_u64().unwrap();
    assert!(games < 400 && games.is_multiple_of(2), "{s}");
    assert!(s["llr"].as_f64().unwrap() >= 2.94, "{s}");
    let text = stdout(&out);
    let line = text
        .lines()
        .find(|l| l.starts_with("SPRT: llr "))
        .expect("an SPRT line");
    assert!(
        line.contains("lbound -2.94, ubound 2.94 - H1 was accepted"),
        "{line}"
    );
}

#[test]
fn usage_errors_say_what_is_wrong() {
    let dir = Scratch::new("usage");
    let openings = dir.path("openings");
    std::fs::write(&openings, "# two lines\n\nnot a position\n").unwrap();
    let openings = openings.display().to_string();
    for (args, needle) in [
        (
            &["match", "antchess", "--engine", "builtin=random"][..],
            "give --engine 2 times",
        ),
        (
            &[
                "match",
                "antchess3",
                "--engine",
                "builtin=random",
                "--engine",
                "builtin=random",
            ][..],
            "give --engine 3 times",
        ),
        (
            &[
                "match",
                "antchess",
                "--engine",
                "builtin=minimax",
                "--engine",
                "builtin=random",
            ][..],
            "--engine #1: bad builtin",
        ),
        (
            &[
                "match",
                "antchess",
                "--engine",
                "builtin=random",
                "--engine",
                "speed=3",
            ][..],
            "--engine #2: unknown key",
        ),
        (
            &[
                "match",
                "antchess",
                "--engine",
                "builtin=random",
                "--engine",
                "builtin=random",
                "--tc",
                "fast",
            ][..],
            "bad --tc",
        ),
        (
            &[
                "match",
                "antchess",
                "--engine",
                "builtin=random",
                "--engine",
                "builtin=random",
                "--openings",
                &openings,
            ][..],
            "line 3: ",
        ),
        (
            &[
                "match",
                "antchess",
                "--engine",
                "builtin=random",
                "--engine",
                "cmd=/bin/true",
            ][..],
            "--movetime, --depth, --nodes or --tc",
        ),
        (
            &[
                "match",
                "antchess",
                "--engine",
                "builtin=random",
                "--engine",
                "cmd=/no/such/engine",
                "--depth",
                "1",
            ][..],
            "does not start",
        ),
        (
            &[
                "match",
                "antchess3",
                "--engine",
                "builtin=random",
                "--engine",
                "builtin=random",
                "--engine",
                "builtin=random",
                "--sprt",
                "elo0=0",
                "elo1=5",
            ][..],
            "two-player",
        ),
        (
            &[
                "match",
                "antchess",
                "--engine",
                "builtin=random",
                "--engine",
                "builtin=random",
                "--sprt",
                "elo0=5",
                "elo1=0",
            ][..],
            "elo0 must be less than elo1",
        ),
        (
            &[
                "match",
                "antchess",
                "--engine",
                "builtin=random",
                "--engine",
                "builtin=random",
                "--depth",
                "1",
                "--nodes",
                "5",
            ][..],
            "cannot be used with",
        ),
        (
            &[
                "match",
                "chess",
                "--engine",
                "builtin=random",
                "--engine",
                "builtin=random",
            ][..],
            "chess",
        ),
    ] {
        let out = myrmidon(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(err.starts_with("myrmidon: error: "), "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

/// `myrmidon engine` itself, as an external engine.
fn engine_cmd() -> String {
    format!("cmd='{}' engine", env!("CARGO_BIN_EXE_myrmidon"))
}

#[test]
fn myrmidon_engine_plays_every_game_as_an_external_engine() {
    for game in registry::games() {
        let id = game.info().id;
        let seats = game.info().players.len();
        let cmd = engine_cmd();
        let mut args = vec![
            "match",
            id,
            "--engine",
            &cmd,
            "name=uci",
            "option.Player=greedy",
            "--engine",
            "builtin=random",
        ];
        if seats == 3 {
            args.extend(["--engine", "builtin=random"]);
        }
        args.extend([
            "--games",
            "2",
            "--depth",
            "1",
            "--max-plies",
            "30",
            "--seed",
            "4",
            "--json",
        ]);
        let s = summary(&myrmidon(&args));
        let games = if seats == 3 { 6 } else { 2 };
        assert_eq!(s["games"], games, "{id}: {s}");
        let uci = engine(&s, "uci");
        for counter in ["crashes", "time_losses", "illegal_moves"] {
            assert_eq!(uci[counter], 0, "{id} {counter}: {s}");
        }
        let points: f64 = s["engines"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["score"].as_f64().unwrap())
            .sum();
        assert!((points - games as f64).abs() < 1e-9, "{id}: {s}");
    }
}

#[test]
fn myrmidon_engine_follows_dropouts_in_three_player_games() {
    let dir = Scratch::new("dropouts");
    let crash = fake_engine(&dir, "crash", "exit 2", None);
    let crash = format!("cmd={}", crash.display());
    let cmd = engine_cmd();
    let s = summary(&myrmidon(&[
        "match",
        "antchess3",
        "--engine",
        &crash,
        "--engine",
        &cmd,
        "name=uci",
        "option.Player=random",
        "--engine",
        "builtin=random",
        "--games",
        "6",
        "--depth",
        "1",
        "--max-plies",
        "60",
        "--seed",
        "8",
        "--json",
    ]));
    assert_eq!(s["games"], 6, "{s}");
    assert_eq!(engine(&s, "crash")["crashes"], 6, "{s}");
    let uci = engine(&s, "uci");
    for counter in ["crashes", "time_losses", "illegal_moves"] {
        assert_eq!(uci[counter], 0, "{counter}: {s}");
    }
}

#[test]
fn ctrl_c_sums_up_the_games_finished_so_far() {
    use std::io::{BufRead, BufReader, Read};
    let mut child = Command::new(env!("CARGO_BIN_EXE_myrmidon"))
        .args([
            "match",
            "reines",
            "--engine",
            "builtin=search",
            "--engine",
            "builtin=greedy",
            "--games",
            "10000",
            "--movetime",
            "5",
            "--json",
            "-v",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    let mut finished = 0;
    let mut line = String::new();
    while finished < 3 {
        line.clear();
        assert!(
            reader.read_line(&mut line).unwrap() > 0,
            "the match ended early"
        );
        if line.starts_with("Finished game") {
            finished += 1;
        }
    }
    let started = std::time::Instant::now();
    let pid = rustix::process::Pid::from_raw(child.id() as i32).expect("a child's id");
    rustix::process::kill_process(pid, rustix::process::Signal::INT).unwrap();
    let mut rest = String::new();
    reader.read_to_string(&mut rest).unwrap();
    let status = child.wait().unwrap();
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
    assert_eq!(status.code(), Some(130), "{rest}");
    assert!(rest.contains("interrupted"), "{rest}");
    assert!(rest.contains("Score of"), "{rest}");
    // The summary counts the games reported finished, and no more than were reported.
    let reported = finished + rest.matches("Finished game").count();
    let json: Value = serde_json::from_str(rest.lines().last().unwrap()).unwrap();
    assert_eq!(json["interrupted"], true);
    let games = json["games"].as_u64().unwrap_or_else(|| panic!("{json}"));
    assert_eq!(games as usize, reported, "{rest}");
}
