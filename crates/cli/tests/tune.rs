//! `myrmidon tune` as a user runs it: on records that `myrmidon match` made, then the tuned
//! weights in a match (`weights=`); and its usage errors.

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use myrmidon_engine::eval::AckenheadEval;
use myrmidon_engine::Tunable;

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

fn assert_ok(out: &Output) {
    assert!(
        out.status.success(),
        "status {:?}\nstdout: {}\nstderr: {}",
        out.status,
        stdout(out),
        stderr(out)
    );
}

/// A usage error (status 2) whose message contains `needle`.
fn assert_usage_error(out: &Output, needle: &str) {
    assert_eq!(out.status.code(), Some(2), "stderr: {}", stderr(out));
    let err = stderr(out);
    assert!(err.starts_with("myrmidon: error: "), "{err}");
    assert!(err.contains(needle), "{needle:?} not in {err}");
    assert!(stdout(out).is_empty());
}

/// A scratch directory for one test, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("myrmidon-tune-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    fn path(&self, name: &str) -> String {
        self.0.join(name).to_string_lossy().into_owned()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Self-play records of `game`: `games` games of alpha-beta at depth 1 from random openings.
fn self_play(dir: &Scratch, game: &str, games: &str) -> String {
    let records = dir.path(&format!("{game}.pgn"));
    let out = myrmidon(&[
        "match",
        game,
        "--engine",
        "builtin=alphabeta:depth=1",
        "--engine",
        "builtin=alphabeta:depth=1",
        "--games",
        games,
        "--random-opening",
        "4",
        "--seed",
        "5",
        "--records",
        &records,
    ]);
    assert_ok(&out);
    records
}

/// The number after `label` at the start of a line of `text`.
fn figure(text: &str, label: &str) -> f64 {
    let line = text
        .lines()
        .find(|l| l.starts_with(label))
        .unwrap_or_else(|| panic!("no {label:?} in {text}"));
    line[label.len()..]
        .split_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

#[test]
fn tuning_self_play_lowers_the_error_and_the_weights_play() {
    let dir = Scratch::new("e2e");
    let records = self_play(&dir, "ackenhead", "6");
    let weights = dir.path("ackenhead.w");
    let out = myrmidon(&[
        "tune",
        "ackenhead",
        "--records",
        &records,
        "--out",
        &weights,
        "--iterations",
        "20",
        "--skip-plies",
        "4",
    ]);
    assert_ok(&out);
    let text = stdout(&out);
    assert!(text.starts_with("ackenhead: "), "{text}");
    let positions = figure(&text, "ackenhead:");
    assert!(positions > 50.0, "{text}");
    let (before, after) = (figure(&text, "error before"), figure(&text, "error after"));
    assert!(after < before, "{text}");
    // Every weight is listed with its value before and after.
    for w in AckenheadEval::default().weights() {
        let line = text
            .lines()
            .find(|l| l.split_whitespace().next() == Some(w.name.as_str()))
            .unwrap_or_else(|| panic!("{} not in {text}", w.name));
        assert_eq!(
            line.split_whitespace().nth(1),
            Some(w.value.to_string().as_str())
        );
    }
    // The file holds the tuned weights, which an evaluator reads back.
    let file = std::fs::read_to_string(&weights).unwrap();
    let tuned = AckenheadEval::with_weights(&file).unwrap();
    assert_ne!(tuned.weights(), AckenheadEval::default().weights());
    for w in tuned.weights() {
        let line = text
            .lines()
            .find(|l| l.split_whitespace().next() == Some(w.name.as_str()))
            .unwrap();
        assert_eq!(
            line.split_whitespace().nth(2),
            Some(w.value.to_string().as_str())
        );
    }
    // The same run gives the same output.
    let again = myrmidon(&[
        "tune",
        "ackenhead",
        "--records",
        &records,
        "--iterations",
        "20",
        "--skip-plies",
        "4",
    ]);
    assert_eq!(stdout(&again), text);

    // A match between the tuned weights and the defaults.
    let engine = format!("weights={weights}");
    let out = myrmidon(&[
        "match",
        "ackenhead",
        "--engine",
        "builtin=alphabeta:depth=1",
        &engine,
        "--engine",
        "builtin=alphabeta:depth=1",
        "--games",
        "2",
        "--max-plies",
        "40",
        "--json",
    ]);
    assert_ok(&out);
    assert!(
        stdout(&out).contains("alphabeta:depth=1+ackenhead.w"),
        "{}",
        stdout(&out)
    );
    // Weights of another game are refused, naming the file and the weight.
    let reines = dir.path("reines.w");
    std::fs::write(&reines, "worker 90\n").unwrap();
    let engine = format!("weights={reines}");
    let out = myrmidon(&[
        "match",
        "ackenhead",
        "--engine",
        "builtin=greedy",
        &engine,
        "--engine",
        "builtin=greedy",
        "--games",
        "2",
    ]);
    assert_usage_error(&out, "unknown weight `worker`");
}

#[test]
fn bad_tune_command_lines_are_usage_errors() {
    let dir = Scratch::new("errors");
    let records = self_play(&dir, "epaminondas", "2");
    let missing = dir.path("missing.pgn");
    let garbage = dir.path("garbage.pgn");
    std::fs::write(&garbage, "[Game \"reines\"]\n\n1. zz9 *\n").unwrap();
    let bad_weights = dir.path("bad.w");
    std::fs::write(&bad_weights, "stone 100\nstone 90\n").unwrap();
    let cases: Vec<(Vec<&str>, String)> = vec![
        (
            vec!["tune", "epaminondas", "--records", &missing],
            format!("cannot read --records {missing}"),
        ),
        (
            vec!["tune", "reines", "--records", &records],
            "the game on line 1 is epaminondas, not reines".to_string(),
        ),
        (
            vec!["tune", "reines", "--records", &garbage],
            format!("bad --records {garbage}: line"),
        ),
        (
            vec!["tune", "chess", "--records", &records],
            "unknown game \"chess\"".to_string(),
        ),
        (
            vec![
                "tune",
                "epaminondas",
                "--records",
                &records,
                "--iterations",
                "x",
            ],
            "invalid value 'x' for '--iterations <N>'".to_string(),
        ),
        (
            vec![
                "tune",
                "epaminondas",
                "--records",
                &records,
                "--skip-plies",
                "-3",
            ],
            "invalid value '-3' for '--skip-plies <N>'".to_string(),
        ),
        (
            vec!["tune", "epaminondas", "--records", &records, "--step", "0"],
            "invalid value '0' for '--step <N>'".to_string(),
        ),
        (
            vec![
                "tune",
                "epaminondas",
                "--records",
                &records,
                "--holdout",
                "1",
            ],
            "1 would hold out every game".to_string(),
        ),
        (
            vec![
                "tune",
                "epaminondas",
                "--records",
                &records,
                "--fix",
                "stones",
            ],
            "--fix stones: no weight's name starts with `stones`".to_string(),
        ),
        (
            vec![
                "tune",
                "epaminondas",
                "--records",
                &records,
                "--holdout",
                "x",
            ],
            "`x` is not a whole number of 0 or more".to_string(),
        ),
        (
            vec![
                "tune",
                "epaminondas",
                "--records",
                &records,
                "--per-game",
                "0",
            ],
            "invalid value '0' for '--per-game <N>'".to_string(),
        ),
        (vec!["tune", "epaminondas"], "--records".to_string()),
        (
            vec![
                "tune",
                "epaminondas",
                "--records",
                &records,
                "--weights",
                &bad_weights,
            ],
            format!("bad --weights {bad_weights}: line 2: `stone` is given twice"),
        ),
        (
            vec![
                "tune",
                "epaminondas",
                "--records",
                &records,
                "--skip-plies",
                "100000",
            ],
            "no quiet position to tune on".to_string(),
        ),
    ];
    for (args, needle) in cases {
        let out = myrmidon(&args);
        assert_usage_error(&out, &needle);
    }
}
