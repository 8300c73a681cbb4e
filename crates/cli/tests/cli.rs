//! Runs the built `myrmidon` binary as a user or a script would. The parts that need a game loop
//! over the registry, so they cover every game once it is registered; the rest (unknown game,
//! bad depth, help) runs unconditionally.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use myrmidon_rules::registry;
use myrmidon_rules::{GrammaticalNumber, Settings};

fn myrmidon(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_myrmidon"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs")
}

fn with_input(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_myrmidon"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// Runs `myrmidon play <game>` on `input` with the colour variables set as given (`None`
/// removes one), whatever the environment of the test.
fn play_with_env(game: &str, input: &str, vars: &[(&str, Option<&str>)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_myrmidon"));
    command.args(["play", game]);
    for name in ["NO_COLOR", "CLICOLOR_FORCE"] {
        command.env_remove(name);
    }
    for (name, value) in vars {
        if let Some(value) = value {
            command.env(name, value);
        }
    }
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("utf-8 output")
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("utf-8 output")
}

/// Fails the test unless the command failed cleanly (no panic) with `needle` in its message.
fn assert_fails_naming(o: &Output, needle: &str) {
    let err = stderr(o);
    assert!(!o.status.success(), "should fail: {err}");
    assert!(
        err.contains(needle),
        "the message should name {needle:?}: {err}"
    );
    assert!(!err.contains("panicked"), "panic: {err}");
}

/// Fails the test unless the command was refused as a usage error: exit status 2, nothing on
/// standard output, and one message in the program's style naming `needle`.
fn assert_usage_error(o: &Output, needle: &str) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "usage errors exit with 2: {err}");
    assert!(
        err.starts_with("myrmidon: error: "),
        "the program's error style: {err}"
    );
    assert_eq!(
        err.matches("error").count(),
        1,
        "one error, said once: {err}"
    );
    assert!(
        err.contains(needle),
        "the message should name {needle:?}: {err}"
    );
    assert!(!err.contains("tip:"), "no clap tips: {err}");
    assert!(!err.contains("panicked"), "panic: {err}");
    assert!(stdout(o).is_empty(), "nothing on standard output");
}

/// A game id to use where the game itself does not matter.
fn any_game() -> &'static str {
    registry::games()
        .first()
        .map(|g| g.info().id)
        .expect("the registry has games")
}

#[test]
fn games_lists_every_registered_id() {
    let o = myrmidon(&["games"]);
    assert!(o.status.success());
    let ids: Vec<String> = stdout(&o).lines().map(str::to_string).collect();
    let expected: Vec<String> = registry::games()
        .iter()
        .map(|g| g.info().id.to_string())
        .collect();
    assert_eq!(ids, expected);

    let o = myrmidon(&["games", "--verbose"]);
    assert!(o.status.success());
    let first_words: Vec<String> = stdout(&o)
        .lines()
        .map(|l| l.split('\t').next().unwrap().to_string())
        .collect();
    assert_eq!(first_words, expected);
}

#[test]
fn unknown_game_ids_are_errors() {
    for command in [
        vec!["moves", "no-such-game"],
        vec!["perft", "no-such-game", "1"],
        vec!["play", "no-such-game"],
        vec!["bench", "no-such-game"],
    ] {
        let o = myrmidon(&command);
        assert_fails_naming(&o, "no-such-game");
        assert!(stdout(&o).is_empty());
    }
}

#[test]
fn unknown_game_ids_are_usage_errors() {
    assert_usage_error(&myrmidon(&["moves", "no-such-game"]), "no-such-game");
}

#[test]
fn bad_depths_are_errors_that_say_the_range() {
    for depth in ["-1", "-5", "abc", "65", "1e3", "", "99999999999999999999"] {
        let o = myrmidon(&["perft", any_game(), depth]);
        assert_usage_error(&o, "depth must be a whole number from 0 to 64");
        for bench in [
            vec!["bench", "--depth", depth],
            vec!["bench", any_game(), "--depth", depth],
        ] {
            let o = myrmidon(&bench);
            assert_usage_error(&o, "depth must be a whole number from 0 to 64");
            assert!(!stderr(&o).contains("-- "), "no '-- -1' advice");
        }
    }
    let o = myrmidon(&["bench", "--target", "-1"]);
    assert_usage_error(&o, "above 0");
}

#[test]
fn bad_flags_are_usage_errors_in_one_style() {
    // An option of a subcommand given before it: said where it belongs, not "--version".
    let o = myrmidon(&["--verbose"]);
    assert_usage_error(&o, "unknown option '--verbose'");
    assert!(stderr(&o).contains("myrmidon games"), "{}", stderr(&o));
    assert!(!stderr(&o).contains("--version"), "{}", stderr(&o));

    let o = myrmidon(&["moves", any_game(), "--bogus"]);
    assert_usage_error(&o, "unknown option '--bogus'");
    assert!(
        stderr(&o).contains("Usage: myrmidon moves"),
        "{}",
        stderr(&o)
    );
    assert!(!stderr(&o).contains("'-- --bogus'"), "{}", stderr(&o));

    let o = myrmidon(&["moves", any_game(), "--postion", "x"]);
    assert_usage_error(&o, "did you mean '--position'?");

    assert_usage_error(&myrmidon(&["no-such-command"]), "unknown command");
    assert_usage_error(&myrmidon(&["moves"]), "<GAME>");
    assert_usage_error(&myrmidon(&[]), "a command is needed");
    assert_usage_error(&myrmidon(&["perft", any_game(), "1", "2"]), "'2'");
}

#[test]
fn help_and_version_go_to_standard_output() {
    for args in [vec!["--help"], vec!["--version"], vec!["perft", "--help"]] {
        let o = myrmidon(&args);
        assert_eq!(o.status.code(), Some(0), "{args:?}");
        assert!(stdout(&o).contains("myrmidon"), "{args:?}");
        assert!(stderr(&o).is_empty(), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn help_works_everywhere() {
    let o = myrmidon(&["--help"]);
    assert!(o.status.success());
    for sub in ["games", "moves", "perft", "play", "bench"] {
        assert!(stdout(&o).contains(sub), "{sub} in the main help");
        let o = myrmidon(&[sub, "--help"]);
        assert!(o.status.success(), "{sub} --help");
        assert!(
            stdout(&o).contains(&format!("Usage: myrmidon {sub}")),
            "{sub}: {}",
            stdout(&o)
        );
        let o = myrmidon(&["help", sub]);
        assert!(o.status.success(), "help {sub}");
    }
    let o = myrmidon(&[]);
    assert!(!o.status.success(), "no subcommand");
}

#[test]
fn malformed_settings_are_errors() {
    let o = myrmidon(&["moves", any_game(), "--set", "novalue"]);
    assert!(!o.status.success());
    assert!(!stderr(&o).contains("panicked"));
}

#[test]
fn moves_and_perft_agree_with_the_rules_library() {
    for game in registry::games() {
        let id = game.info().id;
        let record = game.new_game(&Settings::new()).unwrap();
        let expected: Vec<String> = record.legal_moves().into_iter().map(|m| m.text).collect();

        let o = myrmidon(&["moves", id]);
        assert!(o.status.success(), "{id}: {}", stderr(&o));
        let listed: Vec<String> = stdout(&o).lines().map(str::to_string).collect();
        assert_eq!(listed, expected, "{id}: moves");

        let start = record.position_string();
        let o = myrmidon(&["moves", id, "--position", &start]);
        assert_eq!(
            stdout(&o).lines().count(),
            expected.len(),
            "{id}: --position"
        );

        let o = myrmidon(&["perft", id, "1"]);
        assert!(o.status.success(), "{id}: {}", stderr(&o));
        assert_eq!(stdout(&o), format!("nodes {}\n", expected.len()), "{id}");
        assert!(stderr(&o).contains("nodes/s"), "{id}: speed on stderr");

        let o = myrmidon(&["perft", id, "0"]);
        assert_eq!(stdout(&o), "nodes 1\n", "{id}");

        let o = myrmidon(&["perft", id, "2", "--divide"]);
        assert!(o.status.success(), "{id}: {}", stderr(&o));
        let out = stdout(&o);
        let lines: Vec<&str> = out.lines().collect();
        let (last, divided) = lines.split_last().unwrap();
        assert_eq!(divided.len(), expected.len(), "{id}: one line a move");
        let sum: u64 = divided
            .iter()
            .map(|l| l.rsplit(' ').next().unwrap().parse::<u64>().unwrap())
            .sum();
        assert_eq!(*last, format!("nodes {sum}"), "{id}");
        // perft 2 through the dynamic layer: the moves of each position after one move.
        let by_hand: usize = record
            .legal_moves()
            .iter()
            .map(|mv| {
                let mut child = record.clone_box();
                child.play(&mv.text).unwrap();
                child.legal_moves().len()
            })
            .sum();
        assert_eq!(sum, by_hand as u64, "{id}");
    }
}

#[test]
fn bad_positions_and_settings_are_errors() {
    for game in registry::games() {
        let id = game.info().id;
        for bad in [
            "",
            "not a position",
            "////// w - - 0 1",
            "\u{e9}\u{e9}\u{e9}",
        ] {
            for command in [
                vec!["moves", id, "--position", bad],
                vec!["perft", id, "1", "--position", bad],
                vec!["play", id, "--position", bad],
            ] {
                let o = myrmidon(&command);
                assert_fails_naming(&o, "position");
                assert!(stdout(&o).is_empty(), "{command:?}");
            }
        }
        let o = myrmidon(&["moves", id, "--set", "no-such-setting=1"]);
        assert_fails_naming(&o, "no-such-setting");
        let has_region = game.info().settings.iter().any(|s| s.name == "region");
        let o = myrmidon(&["moves", id, "--region", "nowhere"]);
        assert_fails_naming(&o, if has_region { "nowhere" } else { "region" });
        for setting in game.info().settings {
            for value in setting.values {
                let o = myrmidon(&["moves", id, "--set", &format!("{}={value}", setting.name)]);
                assert!(o.status.success(), "{id} {}={value}", setting.name);
            }
        }
    }
}

#[test]
fn play_takes_a_script() {
    for game in registry::games() {
        let info = game.info();
        let id = info.id;
        let record = game.new_game(&Settings::new()).unwrap();
        let start = record.position_string();
        let o = myrmidon(&["moves", id]);
        let first = stdout(&o).lines().next().unwrap_or("pass").to_string();

        let script = format!("moves\n{first}\nundo\nzz\nfen\nposition\ncells\nhelp\nquit\n");
        let o = with_input(&["play", id], &script);
        let out = stdout(&o);
        assert!(o.status.success(), "{id}: {}", stderr(&o));
        assert!(out.contains(info.name), "{id}: the name");
        assert!(out.contains(info.players[0]), "{id}: whose turn");
        assert!(out.contains(&format!(" plays {first}\n")), "{id}: {out}");
        assert!(out.contains(&format!("took back {first}\n")), "{id}: {out}");
        let after_zz = out
            .split("> zz\n")
            .nth(1)
            .and_then(|rest| rest.lines().next())
            .unwrap_or("");
        assert!(after_zz.contains("zz"), "{id}: error for zz: {after_zz}");
        assert!(out.contains(&format!("> fen\n{start}\n")), "{id}: {out}");
        assert!(
            out.contains(&format!("> position\n{start}\n")),
            "{id}: {out}"
        );
        assert!(out.contains("undo"), "{id}: help");
        assert!(!out.contains('\x1b'), "{id}: no colour in a pipe");
        assert!(!stderr(&o).contains("panicked"), "{id}");

        // The end of input without quit ends cleanly too, and so does a resignation.
        let o = with_input(&["play", id], &format!("{first}\n"));
        assert!(o.status.success(), "{id}: {}", stderr(&o));
        let o = with_input(&["play", id], "resign\nundo\ndraw\nquit\n");
        let out = stdout(&o);
        // (a side "wins", a people, as Jeu de Reines' Termides, "win")
        let won = match info.players_number {
            GrammaticalNumber::Singular => "wins by resignation",
            GrammaticalNumber::Plural => "win by resignation",
        };
        if info.players.len() == 2 {
            assert!(out.contains(won), "{id}: {out}");
        } else {
            // With three, the player drops out and the others play on.
            assert!(
                out.contains(&format!("{} resigns\n", info.players[0])),
                "{id}: {out}"
            );
            assert!(!out.contains(won), "{id}: {out}");
        }
        assert!(out.contains("draw by agreement"), "{id}: {out}");
    }
}

#[test]
fn conflicting_settings_are_refused() {
    let mut checked = 0;
    for game in registry::games() {
        let id = game.info().id;
        for setting in game.info().settings {
            let [first, second, ..] = setting.values else {
                continue;
            };
            let name = setting.name;
            let (a, b) = (format!("{name}={first}"), format!("{name}={second}"));
            let o = myrmidon(&["moves", id, "--set", &a, "--set", &b]);
            assert_usage_error(&o, "conflicting settings");
            assert!(stderr(&o).contains(&a) && stderr(&o).contains(&b));
            if name == "region" {
                let o = myrmidon(&["moves", id, "--region", first, "--set", &b]);
                assert_usage_error(&o, "conflicting settings");
                assert!(stderr(&o).contains(&format!("--region {first}")));
                assert!(stderr(&o).contains(&format!("--set {b}")));
                let o = myrmidon(&["moves", id, "--region", first, "--set", &a]);
                assert!(o.status.success(), "the same value twice: {}", stderr(&o));
            }
            let o = myrmidon(&["moves", id, "--set", &a, "--set", &a]);
            assert!(o.status.success(), "the same value twice: {}", stderr(&o));
            checked += 1;
        }
    }
    assert!(
        checked > 0 || registry::games().is_empty(),
        "no setting to check"
    );
}

#[test]
fn settings_are_refused_with_a_position() {
    for game in registry::games() {
        let info = game.info();
        let start = game.new_game(&Settings::new()).unwrap().position_string();
        let mut settings = vec![vec!["--set".to_string(), "no-such-setting=1".to_string()]];
        for setting in info.settings {
            settings.push(vec![
                "--set".to_string(),
                format!("{}={}", setting.name, setting.default),
            ]);
            if setting.name == "region" {
                settings.push(vec!["--region".to_string(), setting.default.to_string()]);
            }
        }
        for extra in &settings {
            let mut args = vec!["moves", info.id, "--position", &start];
            args.extend(extra.iter().map(String::as_str));
            let o = myrmidon(&args);
            assert_usage_error(&o, "the position string already fixes every setting");
        }
        let o = myrmidon(&["moves", info.id, "--position", &start]);
        assert!(o.status.success(), "{}: {}", info.id, stderr(&o));
    }
}

#[test]
fn no_color_counts_only_when_not_empty() {
    let game = any_game();
    let coloured = |vars: &[(&str, Option<&str>)]| {
        let o = play_with_env(game, "quit\n", vars);
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o).contains('\x1b')
    };
    // A pipe is not coloured unless CLICOLOR_FORCE asks for it.
    assert!(!coloured(&[]));
    assert!(coloured(&[("CLICOLOR_FORCE", Some("1"))]));
    assert!(coloured(&[
        ("CLICOLOR_FORCE", Some("1")),
        ("NO_COLOR", Some(""))
    ]));
    assert!(!coloured(&[
        ("CLICOLOR_FORCE", Some("1")),
        ("NO_COLOR", Some("1"))
    ]));
    let plain = Command::new(env!("CARGO_BIN_EXE_myrmidon"))
        .args(["play", game, "--no-colour"])
        .env("CLICOLOR_FORCE", "1")
        .env_remove("NO_COLOR")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(plain.status.success());
    assert!(!stdout(&plain).contains('\x1b'), "--no-colour wins");
}

#[test]
fn players_named_after_a_colour_are_drawn_in_it() {
    // Bold, then the foreground, then the background (as anstyle writes them).
    let expected = [
        ("black", "\x1b[1m\x1b[37m\x1b[40m"),
        ("white", "\x1b[1m\x1b[30m\x1b[47m"),
        ("red", "\x1b[1m\x1b[31m"),
        ("green", "\x1b[1m\x1b[32m"),
    ];
    let mut checked = 0;
    for game in registry::games() {
        let info = game.info();
        let o = play_with_env(info.id, "quit\n", &[("CLICOLOR_FORCE", Some("1"))]);
        let out = stdout(&o);
        for player in info.players {
            if let Some((_, style)) = expected
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(player))
            {
                // The legend says which colour is whose.
                let legend = format!("{style}{player}\x1b[0m");
                assert!(out.contains(&legend), "{}: {player}: {out}", info.id);
                // And the pieces: the style is used beyond the legend.
                let uses = out.matches(style).count();
                assert!(uses > 1, "{}: {player}'s pieces: {out}", info.id);
                checked += 1;
            }
        }
    }
    assert!(checked > 0 || registry::games().is_empty());
}

#[test]
fn play_help_lists_the_aliases() {
    let o = with_input(&["play", any_game()], "help\n?\nh\nq\nhelp\n");
    let out = stdout(&o);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(out.contains("help | h | ?"), "{out}");
    assert!(out.contains("quit | exit | q"), "{out}");
    assert!(out.contains("fen | position"), "{out}");
    // help, ? and h print it; q quits before the last help.
    assert_eq!(out.matches("quit | exit | q").count(), 3, "{out}");
}

#[test]
fn no_move_hint_after_the_end() {
    for game in registry::games() {
        let id = game.info().id;
        let o = myrmidon(&["moves", id]);
        let first = stdout(&o).lines().next().unwrap_or("pass").to_string();
        // With three players, two resignations end the game.
        let resign = "resign\n".repeat(game.info().players.len() - 1);
        let script = format!("{resign}{first}\nmoves\nzz\n");
        let o = with_input(&["play", id], &script);
        let out = stdout(&o);
        assert!(o.status.success(), "{id}: {}", stderr(&o));
        let (before, after) = out.split_once(" resigns\n").expect("a resignation");
        assert!(before.contains("moves for the legal moves"), "{id}: {out}");
        assert!(
            after.contains(&format!(
                "game over (undo or quit)> {first}\nthe game is over ("
            )),
            "{id}: {out}"
        );
        assert!(after.contains("Type undo to take back, or quit."), "{id}");
        assert!(!after.contains("type moves"), "{id}: {after}");
        assert!(!after.contains("for the legal moves"), "{id}: {after}");
    }
}

#[test]
fn bench_measures_the_search_from_two_positions() {
    let o = myrmidon(&[
        "bench",
        "reines",
        "--depth",
        "1",
        "--movetime",
        "50",
        "--search-depth",
        "0",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains("search (one thread, 50 ms a position"),
        "{text}"
    );
    let search = &text[text.find("search (one thread").unwrap()..];
    for label in ["start", "middlegame"] {
        let row = search
            .lines()
            .find(|l| l.starts_with("reines") && l.split_whitespace().nth(1) == Some(label))
            .unwrap_or_else(|| panic!("no {label} row in {text}"));
        let fields: Vec<&str> = row.split_whitespace().collect();
        // game, position, depth, seldepth, nodes, seconds, nodes/s
        assert_eq!(fields.len(), 7, "{row}");
        let depth: u32 = fields[2].parse().unwrap();
        let nodes: u64 = fields[4].parse().unwrap();
        assert!(depth >= 1 && nodes > 0, "{row}");
    }
    // The middlegame position is printed and reads back as a Jeu de Reines position.
    let position = text
        .lines()
        .skip_while(|l| *l != "middlegame positions")
        .nth(1)
        .and_then(|l| l.strip_prefix("reines"))
        .expect("the middlegame position")
        .trim();
    let game = registry::find("reines").unwrap();
    assert!(game.new_game_at(position).is_ok(), "{position}");
    let o = myrmidon(&["bench", "reines", "--depth", "1", "--movetime", "0"]);
    assert!(!stdout(&o).contains("search (one thread"));
}

#[test]
fn bench_reports_the_time_to_depth_of_its_positions() {
    // Only the perft at depth 1 and the time to `depth`.
    let bench = |depth: &str| {
        let args = ["--depth", "1", "--movetime", "0", "--search-depth", depth];
        myrmidon(&[&["bench", "reines"][..], &args].concat())
    };
    let o = bench("4");
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let table = &text[text.find("time to depth").expect("the time-to-depth table")..];
    // As many positions as the engine ships for the game.
    let file = myrmidon_engine::game_data_of("reines")
        .unwrap()
        .bench_positions;
    let positions = file
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#') && !l.starts_with("depth "))
        .count();
    let rows: Vec<Vec<&str>> = table
        .lines()
        .filter(|l| l.starts_with("reines"))
        .map(|l| l.split_whitespace().collect())
        .collect();
    // Every depth from 1 to the one asked, in order.
    assert_eq!(rows.len(), 4, "{table}");
    let mut previous: Option<u64> = None;
    for (i, row) in rows.iter().enumerate() {
        // game, positions, depth, nodes, seconds, nodes/s, ebf
        assert_eq!(row.len(), 7, "{row:?}");
        assert_eq!(row[1].parse::<usize>().unwrap(), positions, "{row:?}");
        assert_eq!(row[2].parse::<usize>().unwrap(), i + 1, "{row:?}");
        let nodes: u64 = row[3].parse().unwrap();
        // The effective branching factor is this depth's nodes over the previous depth's.
        match previous {
            None => assert_eq!(row[6], "-", "{row:?}"),
            Some(p) => {
                assert!(nodes > p, "{table}");
                assert_eq!(row[6], format!("{:.2}", nodes as f64 / p as f64), "{row:?}");
            }
        }
        previous = Some(nodes);
    }
    let o = bench("0");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stdout(&o).contains("time to depth"));
}

#[test]
fn no_progress_bar_in_a_pipe() {
    for args in [
        vec!["perft", any_game(), "2"],
        vec!["bench", any_game(), "--depth", "1", "--search-depth", "2"],
    ] {
        let o = myrmidon(&args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        for text in [stdout(&o), stderr(&o)] {
            assert!(!text.contains("Ctrl-C"), "{args:?}: {text}");
            assert!(!text.contains('\x1b'), "{args:?}: {text}");
        }
    }
}

#[test]
fn the_region_help_comes_from_the_registry() {
    let out = myrmidon(&["play", "--help"]);
    assert!(out.status.success());
    // clap wraps help text to the terminal width: compare without line breaks and indents.
    let help = String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let mut regions = 0;
    for game in registry::games() {
        for s in game.info().settings.iter().filter(|s| s.name == "region") {
            regions += 1;
            let expected = s.help.split_whitespace().collect::<Vec<_>>().join(" ");
            assert!(help.contains(&expected), "{expected:?} not in {help}");
            assert!(help.contains(game.info().id), "{help}");
        }
    }
    assert!(regions > 0, "no game of the registry has a region");
}

#[test]
fn boards_draw_each_side_as_its_position_string_writes_it() {
    // In every region of every game with one, the board shows the pieces in the letters of
    // the position string, whoever moves first.
    for game in registry::games() {
        let id = game.info().id;
        let regions = game
            .info()
            .settings
            .iter()
            .find(|s| s.name == "region")
            .map_or(vec![None], |s| s.values.iter().map(Some).collect());
        for region in regions {
            let mut args = vec!["play", id, "--no-colour"];
            if let Some(r) = region {
                args.extend(["--region", r]);
            }
            let o = with_input(&args, "fen\nquit\n");
            let out = String::from_utf8_lossy(&o.stdout).to_string();
            let fen = out
                .lines()
                .skip_while(|l| !l.ends_with("> fen"))
                .nth(1)
                .unwrap_or_else(|| panic!("{id}: {out}"));
            let placement = fen.split(' ').next().unwrap();
            // Each row of the placement, read as text with the runs of empty cells expanded,
            // appears in the drawn board with its pieces in the same letters.
            let first_row: String = placement
                .split('/')
                .map(|row| row.chars().filter(|c| c.is_ascii_alphabetic()).collect())
                .find(|letters: &String| !letters.is_empty())
                .unwrap();
            let board_line = out
                .lines()
                .find(|l| {
                    let letters: String = l.chars().filter(|c| c.is_ascii_alphabetic()).collect();
                    letters.ends_with(&first_row)
                })
                .unwrap_or_else(|| panic!("{id} {region:?}: no board row with {first_row}\n{out}"));
            assert!(!board_line.is_empty());
        }
    }
}

#[test]
fn analyse_prints_a_line_per_depth_and_a_legal_best_move() {
    for game in registry::games() {
        let id = game.info().id;
        let out = myrmidon(&["analyse", id, "--depth", "2", "--multipv", "2"]);
        let text = stdout(&out);
        assert!(out.status.success(), "{id}: {}", stderr(&out));
        // One line per depth and per wanted line: "    1/1       1.   +0.00  …".
        let rows: Vec<&str> = text
            .lines()
            .filter(|l| {
                l.split_whitespace().next().is_some_and(|w| {
                    w.split('/')
                        .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
                        && w.contains('/')
                })
            })
            .collect();
        assert_eq!(rows.len(), 4, "{id}: {text}");
        let best = text
            .lines()
            .find_map(|l| l.strip_prefix("best move: "))
            .unwrap_or_else(|| panic!("{id}: no best move in {text}"));
        let record = game.new_game(&Settings::new()).unwrap();
        assert!(
            record.legal_moves().iter().any(|m| m.text == best),
            "{id}: {best} is not legal"
        );
        // After the best move the game goes on or ends by rule: either way it is legal there.
        let out = myrmidon(&["analyse", id, "--moves", best, "--depth", "1"]);
        assert!(out.status.success(), "{id}: {}", stderr(&out));
    }
    let id = any_game();
    assert_usage_error(
        &myrmidon(&["analyse", id, "--moves", "zz9 pass", "--depth", "1"]),
        "--moves: move 1",
    );
    assert_usage_error(
        &myrmidon(&["analyse", id, "--player", "deep-thought"]),
        "--player",
    );
    assert_usage_error(
        &myrmidon(&["analyse", id, "--depth", "2", "--movetime", "10"]),
        "--movetime",
    );
}

#[test]
fn play_against_the_computer() {
    for game in registry::games() {
        let id = game.info().id;
        let names = game.info().players;
        let record = game.new_game(&Settings::new()).unwrap();
        let first = record.legal_moves()[0].text.clone();
        // The computer takes every seat but the first; a person moves, the computers answer,
        // `hint` suggests a legal move, `undo` takes back the person's move and the answers.
        let mut args = vec!["play", id, "--no-colour", "--movetime", "50"];
        let seats: Vec<String> = (2..=names.len())
            .map(|s| format!("{s}=alphabeta:depth=2"))
            .collect();
        for s in &seats {
            args.extend(["--computer", s.as_str()]);
        }
        let out = with_input(&args, &format!("hint\n{first}\nundo\nhistory\nquit\n"));
        let text = stdout(&out);
        assert!(out.status.success(), "{id}: {}", stderr(&out));
        let hint = text
            .lines()
            .find_map(|l| l.split("hint: ").nth(1))
            .and_then(|h| h.split_whitespace().next())
            .unwrap_or_else(|| panic!("{id}: no hint in {text}"));
        assert!(
            record.legal_moves().iter().any(|m| m.text == hint),
            "{id}: hint {hint} is not legal"
        );
        for name in &names[1..] {
            assert!(
                text.contains(&format!("{name} (computer) plays ")),
                "{id}: {name} did not answer: {text}"
            );
        }
        assert!(
            text.contains(&format!("took back {first} ")),
            "{id}: {text}"
        );
        assert!(text.contains("no move played yet"), "{id}: {text}");
    }
    // Every seat the computer's: the game is played to its end.
    let out = with_input(
        &[
            "play",
            "reines",
            "--no-colour",
            "--movetime",
            "20",
            "--computer",
            "termides=greedy",
            "--computer",
            "Myrmides=random",
        ],
        "quit\n",
    );
    assert!(stdout(&out).contains("Game over: "), "{}", stdout(&out));
    // Levels by a bare number or a spec: a game of level 2 against level 1 to its end, the same
    // twice with the same seed (a move time long enough for the levels' own limits to decide,
    // not the clock: on a loaded machine 20 ms cut searches at different places).
    let levels = |seed: &str| {
        let out = with_input(
            &[
                "play",
                "reines",
                "--no-colour",
                "--movetime",
                "10000",
                "--seed",
                seed,
                "--computer",
                "1=2",
                "--computer",
                "2=level:1",
            ],
            "quit\n",
        );
        assert!(out.status.success(), "{}", stderr(&out));
        stdout(&out)
    };
    let game = levels("5");
    assert!(game.contains("Game over: "), "{game}");
    assert!(game.contains("(computer) plays "), "{game}");
    assert_eq!(levels("5"), game, "a fixed seed plays the same game");
    let id = any_game();
    for (bad, needle) in [
        ("1=0", "bad level `0`"),
        ("1=9", "bad level `9`"),
        ("1=-1", "bad level `-1`"),
        ("1=level:12", "bad level `12`"),
        ("1=level", "`level` needs its number"),
    ] {
        assert_usage_error(&myrmidon(&["play", id, "--computer", bad]), needle);
    }
    assert_usage_error(
        &myrmidon(&["play", id, "--computer", "9=greedy"]),
        "no seat",
    );
    assert_usage_error(
        &myrmidon(&["play", id, "--computer", "1=deep-thought"]),
        "unknown player",
    );
    assert_usage_error(
        &myrmidon(&["play", id, "--computer", "1", "--computer", "1=greedy"]),
        "given twice",
    );
}
