//! Game records (`myrmidon_rules::pgn`, `docs/records.md`): random games of every game id
//! written and read back to the same game and the same text; bad records refused with their
//! line and what is wrong; a hand-written Ackenhead record in PGN style; the examples of the
//! spec.

use myrmidon_rules::pgn::{
    first_move_number, play_token, read_games, result_tags, write_game, GameReader, Header,
    ReadGame, LINE_WIDTH,
};
use myrmidon_rules::testkit::Rng;
use myrmidon_rules::{registry, DynRecord, Outcome, Reason, Settings, Step};

/// Plays random legal moves until the game ends or `plies` moves have been played.
fn play_random(record: &mut dyn DynRecord, rng: &mut Rng, plies: usize) {
    for _ in 0..plies {
        if record.result().is_some() {
            return;
        }
        let moves = record.legal_moves();
        if moves.is_empty() {
            return;
        }
        let text = moves[rng.below(moves.len())].text.clone();
        record.play(&text).unwrap();
    }
}

fn settings_for(id: &str, rng: &mut Rng) -> Settings {
    let info = registry::find(id).unwrap().info();
    let mut s = Settings::new();
    for setting in info.settings {
        s = s.with(
            setting.name,
            setting.values[rng.below(setting.values.len())],
        );
    }
    s
}

const LEAVE: [Reason; 4] = [
    Reason::RESIGNATION,
    Reason::TIME,
    Reason::CRASH,
    Reason::ILLEGAL_MOVE,
];

/// A random game of `id` in one of several shapes: to its end by rule, cut open, ended off
/// the board, with players leaving a game of three, or from a position other than the start.
fn random_game(id: &str, shape: usize, rng: &mut Rng) -> Box<dyn DynRecord> {
    let game = registry::find(id).unwrap();
    let settings = settings_for(id, rng);
    let mut record = game.new_game(&settings).unwrap();
    let players = record.player_names().len();
    match shape {
        // To the end by rule (most games end well within the cap).
        0 => play_random(&mut *record, rng, 1500),
        // Cut open.
        1 => {
            let n = rng.below(60);
            play_random(&mut *record, rng, n)
        }
        // One player leaves: between two the other wins; in a game of three play goes on.
        2 => {
            let n = rng.below(40);
            play_random(&mut *record, rng, n);
            let who = rng.below(players) as u8;
            record.drop_out(who, LEAVE[rng.below(LEAVE.len())]);
            play_random(&mut *record, rng, 200);
        }
        // Two players: a draw agreed or adjudicated, or a win adjudicated. Three: two leave.
        3 => {
            let n = rng.below(40);
            play_random(&mut *record, rng, n);
            if players == 2 {
                let outcome = match rng.below(3) {
                    0 => Outcome::Draw {
                        reason: Reason::AGREEMENT,
                    },
                    1 => Outcome::Draw {
                        reason: Reason::ADJUDICATION,
                    },
                    _ => Outcome::Win {
                        winner: rng.below(2) as u8,
                        reason: Reason::ADJUDICATION,
                    },
                };
                record.declare(outcome);
            } else {
                let first = rng.below(players) as u8;
                record.drop_out(first, LEAVE[rng.below(LEAVE.len())]);
                let n = rng.below(40);
                play_random(&mut *record, rng, n);
                let second = (first as usize + 1 + rng.below(players - 1)) % players;
                record.drop_out(second as u8, LEAVE[rng.below(LEAVE.len())]);
                play_random(&mut *record, rng, 100);
            }
        }
        // From a position reached by random moves, then cut open or played to the end; a
        // game of three sometimes with a draw agreed after a player left.
        _ => {
            let n = 2 + rng.below(40);
            play_random(&mut *record, rng, n);
            if record.result().is_some() {
                return record;
            }
            let fen = record.position_string();
            record = game.new_game_from(&settings, &fen).unwrap();
            let n = 1 + rng.below(30);
            play_random(&mut *record, rng, n);
            if players == 3 && rng.below(2) == 0 {
                record.drop_out(rng.below(3) as u8, Reason::TIME);
                let n = rng.below(10);
                play_random(&mut *record, rng, n);
                record.declare(Outcome::Draw {
                    reason: Reason::AGREEMENT,
                });
            } else if rng.below(2) == 0 {
                play_random(&mut *record, rng, 1500);
            }
        }
    }
    record
}

fn header(rng: &mut Rng, players: usize, i: usize) -> Header {
    Header {
        event: format!("Test \"{i}\""),
        site: "C:\\arena".to_string(),
        date: "2024.05.17".to_string(),
        round: format!("{}.{}", i / 10 + 1, i % 10 + 1),
        players: (0..players)
            .map(|p| format!("engine {p} \\ \"quoted\" {}", rng.below(100)))
            .collect(),
        time_control: i.is_multiple_of(2).then(|| "40/60+0.6".to_string()),
        time: i.is_multiple_of(3).then(|| "12:34:56".to_string()),
        extra: if i % 2 == 1 {
            vec![
                ("Annotator".to_string(), "myrmidon".to_string()),
                ("Opening".to_string(), format!("random {i}")),
            ]
        } else {
            Vec::new()
        },
        comment: i.is_multiple_of(5).then(|| format!("game {i} of the test")),
    }
}

fn random_comments(rng: &mut Rng, record: &dyn DynRecord) -> Vec<Option<String>> {
    let written = record.history().iter().filter(|m| !m.automatic).count();
    (0..written)
        .map(|k| match rng.below(6) {
            0 => Some(format!(
                "+0.{k:02}/{} {}.{:02}s",
                rng.below(30),
                k % 3,
                k % 97
            )),
            1 => Some("book".to_string()),
            _ => None,
        })
        .collect()
}

/// Reads `text` as one game and checks it is `record` with `header` and `comments`, and that
/// writing it again gives `text`.
fn check_round_trip(
    text: &str,
    record: &dyn DynRecord,
    header: &Header,
    comments: &[Option<String>],
) -> ReadGame {
    let mut games = read_games(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(games.len(), 1, "{text}");
    let read = games.pop().unwrap();
    let back = &*read.record;
    assert_eq!(back.info().id, record.info().id, "{text}");
    assert_eq!(back.start_string(), record.start_string(), "{text}");
    assert_eq!(back.settings(), record_settings(record), "{text}");
    assert_eq!(back.history(), record.history(), "{text}");
    assert_eq!(back.steps(), record.steps(), "{text}");
    assert_eq!(back.result(), record.result(), "{text}");
    assert_eq!(back.position_string(), record.position_string(), "{text}");
    assert_eq!(&read.header(), header, "{text}");
    // One entry per written move; none given is none.
    let written = record.history().iter().filter(|m| !m.automatic).count();
    let mut want = comments.to_vec();
    want.resize(written, None);
    assert_eq!(read.comments, want, "{text}");
    let again = write_game(back, &read.header(), &read.comments);
    assert_eq!(again, text);
    for line in text.lines() {
        assert!(
            line.starts_with('[') || line.chars().count() <= LINE_WIDTH || !line.contains(' '),
            "line too long: {line}"
        );
    }
    read
}

/// The settings a record reads back with: those its start remembers, and for a game read from
/// a string that cannot tell (Jeu de Reines' neutral or animist) the default the record says.
fn record_settings(record: &dyn DynRecord) -> Settings {
    let info = record.info();
    let remembered = record.settings();
    let mut s = Settings::new();
    for setting in info.settings {
        s = s.with(
            setting.name,
            remembered
                .get(info, setting.name)
                .unwrap_or(setting.default),
        );
    }
    s
}

#[test]
fn random_games_of_every_game_read_back_to_the_same_game_and_text() {
    let mut rng = Rng::new(2024);
    let mut by_shape = [0usize; 5];
    let mut ended_by_rule = 0;
    let mut open = 0;
    let mut dropouts = [0usize; 3];
    let mut from_fen = 0;
    for game in registry::games() {
        let id = game.info().id;
        let mut file = String::new();
        let mut expected = Vec::new();
        for i in 0..40 {
            let shape = i % 5;
            let record = random_game(id, shape, &mut rng);
            let players = record.player_names().len();
            let header = header(&mut rng, players, i);
            let comments = random_comments(&mut rng, &*record);
            let text = write_game(&*record, &header, &comments);
            check_round_trip(&text, &*record, &header, &comments);
            by_shape[shape] += 1;
            let steps = record.steps();
            match record.result() {
                None => open += 1,
                Some(_) if !matches!(steps.last(), Some(Step::Declared(_))) => ended_by_rule += 1,
                _ => {}
            }
            let left = steps
                .iter()
                .filter(|s| matches!(s, Step::Dropout { .. }))
                .count();
            dropouts[left.min(2)] += 1;
            if text.contains("[FEN ") {
                from_fen += 1;
            }
            file.push_str(&text);
            expected.push((record, header, comments));
        }
        // The whole file reads back game by game.
        let games = read_games(&file).unwrap();
        assert_eq!(games.len(), expected.len());
        let mut line = 1;
        for (read, (record, header, comments)) in games.iter().zip(&expected) {
            assert_eq!(read.line, line);
            line += write_game(&*read.record, &read.header(), &read.comments)
                .lines()
                .count();
            assert_eq!(read.record.steps(), record.steps());
            assert_eq!(&read.header(), header);
            assert_eq!(&read.comments, comments);
        }
    }
    // Every shape of game was made, and the record carried each kind of ending.
    assert!(by_shape.iter().all(|&n| n == 40), "{by_shape:?}");
    assert!(ended_by_rule >= 40, "{ended_by_rule}");
    assert!(open >= 20, "{open}");
    assert!(dropouts[1] >= 5 && dropouts[2] >= 5, "{dropouts:?}");
    assert!(from_fen >= 20, "{from_fen}");
}

#[test]
fn jeu_de_reines_keeps_its_region_from_the_start_and_from_a_string() {
    let game = registry::find("reines").unwrap();
    let mut rng = Rng::new(5);
    for region in ["neutral", "animist", "cultist"] {
        let settings = Settings::new().with("region", region);
        // From the start: the Region tag, no FEN.
        let mut record = game.new_game(&settings).unwrap();
        play_random(&mut *record, &mut rng, 30);
        let header = Header {
            players: vec!["first".to_string(), "second".to_string()],
            ..Header::default()
        };
        let text = write_game(&*record, &header, &[]);
        assert!(text.contains(&format!("[Region \"{region}\"]\n")), "{text}");
        assert!(!text.contains("[FEN "), "{text}");
        let names = record.player_names();
        assert!(
            text.contains(&format!(
                "[{} \"first\"]\n[{} \"second\"]\n",
                names[0], names[1]
            )),
            "seats in turn order: {text}"
        );
        let read = check_round_trip(&text, &*record, &header, &[]);
        assert_eq!(read.record.player_names(), names);
        assert_eq!(
            read.record.settings(),
            Settings::new().with("region", region)
        );
        // From a string, with the region given: kept, even where the string cannot tell.
        let fen = record.position_string();
        let mut from = game.new_game_from(&settings, &fen).unwrap();
        play_random(&mut *from, &mut rng, 6);
        let text = write_game(&*from, &header, &[]);
        assert!(text.contains(&format!("[Region \"{region}\"]\n")), "{text}");
        assert!(text.contains("[SetUp \"1\"]\n[FEN "), "{text}");
        check_round_trip(&text, &*from, &header, &[]);
    }
    // A string with the Termides in a1 and no region: the default region is written.
    let start = game.new_game(&Settings::new()).unwrap().start_string();
    let record = game.new_game_at(&start).unwrap();
    assert_eq!(record.settings(), Settings::new());
    let text = write_game(&*record, &Header::default(), &[]);
    assert!(text.contains("[Region \"neutral\"]\n"), "{text}");
    assert!(!text.contains("[FEN "), "{text}");
    let read = read_games(&text).unwrap();
    assert_eq!(read[0].record.start_string(), start);
}

#[test]
fn result_strings_and_terminations() {
    let game = registry::find("antchess3").unwrap();
    let mut record = game.new_game(&Settings::new()).unwrap();
    assert_eq!(result_tags(record.result().as_ref(), 3), ("*".into(), None));
    play_token(&mut *record, "out:2:time").unwrap();
    record.declare(Outcome::Draw {
        reason: Reason::AGREEMENT,
    });
    assert_eq!(
        result_tags(record.result().as_ref(), 3),
        ("1/2-0-1/2".into(), Some("agreement"))
    );
    let mut record = game.new_game(&Settings::new()).unwrap();
    record.declare(Outcome::Draw {
        reason: Reason::ADJUDICATION,
    });
    assert_eq!(
        result_tags(record.result().as_ref(), 3),
        ("1/3-1/3-1/3".into(), Some("adjudication"))
    );
    let mut two = registry::find("epaminondas")
        .unwrap()
        .new_game(&Settings::new())
        .unwrap();
    two.drop_out(0, Reason::TIME);
    assert_eq!(
        result_tags(two.result().as_ref(), 2),
        ("0-1".into(), Some("time"))
    );
}

#[test]
fn play_token_plays_moves_and_players_leaving() {
    let game = registry::find("antchess3").unwrap();
    let mut record = game.new_game(&Settings::new()).unwrap();
    let first = record.legal_moves()[0].text.clone();
    play_token(&mut *record, &first.to_uppercase()).unwrap();
    assert_eq!(record.history()[0].text, first);
    // Red (seat 2) is to move and leaves: the record passes for Red at once.
    play_token(&mut *record, "out:2:resignation").unwrap();
    assert_eq!(record.to_move(), 2);
    assert!(record.history()[1].automatic);
    for (token, wanted) in [
        ("out:2:time", "has left already"),
        ("out:4:time", "not a seat"),
        ("out:0:time", "not a seat"),
        ("out:1:checkmate", "not a reason to leave"),
        ("out:1", "expected out:<seat>:<reason>"),
        ("a1-a2", "illegal move"),
    ] {
        let before = record.steps();
        let e = play_token(&mut *record, token).unwrap_err().to_string();
        assert!(e.contains(wanted), "{token}: {e}");
        assert_eq!(record.steps(), before, "{token} changed the game");
    }
    play_token(&mut *record, "OUT:1:Time").unwrap();
    // Green is alone: the game is over.
    assert_eq!(
        record.result().map(|r| r.points(3)),
        Some(vec![0.0, 0.0, 1.0])
    );
    let e = play_token(&mut *record, "out:3:time")
        .unwrap_err()
        .to_string();
    assert!(e.contains("the game is over"), "{e}");
    // Two players: no out token.
    let mut two = registry::find("ackenhead")
        .unwrap()
        .new_game(&Settings::new())
        .unwrap();
    let e = play_token(&mut *two, "out:1:resignation")
        .unwrap_err()
        .to_string();
    assert!(e.contains("game of two"), "{e}");
}

const ACKENHEAD_BY_HAND: &str = r#"[Event "Club \"Ant\" night"]
[Site "Lyon"]
[Date "2024.03.09"]
[Round "2"]
[White "Ada"]
[Black "Grace"]
[Result "1-0"]
[Game "ackenhead"]
[Annotator "by hand"]

{A hand-written game} 1.a2b3 {+0.35/12 0.51s} e7c5 2. f2e3 g7e5
3.e2c4! d7e6 $1 4. a1a3 E6D5 ; Black's pawn goes on
5. c4c5 c8d7 (5... d8d2 6. e1d2) 6. a3a5
  d7b5 7. g2f3 b8d7 { a comment
  over two lines }
8. f3g4 7... c7b6 9. g1f3 d7f6 10. a5a3 a8c8 11. e3d4 d5d4 12. d2f4 d8d6 1-0
"#;

#[test]
fn a_hand_written_ackenhead_record_in_pgn_style() {
    let games = read_games(ACKENHEAD_BY_HAND).unwrap();
    assert_eq!(games.len(), 1);
    let g = &games[0];
    let moves: Vec<String> = g.record.history().into_iter().map(|m| m.text).collect();
    assert_eq!(
        moves.join(" "),
        "a2b3 e7c5 f2e3 g7e5 e2c4 d7e6 a1a3 e6d5 c4c5 c8d7 a3a5 d7b5 g2f3 b8d7 f3g4 c7b6 \
         g1f3 d7f6 a5a3 a8c8 e3d4 d5d4 d2f4 d8d6"
    );
    // No Termination: a win given off the board is a resignation.
    let result = g.record.result().unwrap();
    assert_eq!(
        result.outcome,
        Outcome::Win {
            winner: 0,
            reason: Reason::RESIGNATION
        }
    );
    assert_eq!(g.tag("Event"), Some("Club \"Ant\" night"));
    assert_eq!(g.tag("Annotator"), Some("by hand"));
    assert_eq!(g.comment.as_deref(), Some("A hand-written game"));
    assert_eq!(g.comments.len(), 24);
    assert_eq!(g.comments[0].as_deref(), Some("+0.35/12 0.51s"));
    assert_eq!(g.comments[7].as_deref(), Some("Black's pawn goes on"));
    assert_eq!(g.comments[13].as_deref(), Some("a comment over two lines"));
    assert_eq!(g.comments.iter().filter(|c| c.is_some()).count(), 3);
    let header = g.header();
    assert_eq!(header.players, ["Ada", "Grace"]);
    assert_eq!(
        header.extra,
        [("Annotator".to_string(), "by hand".to_string())]
    );
    // Written again: the canonical form, which reads back to the same.
    let text = write_game(&*g.record, &header, &g.comments);
    assert!(text.contains("[Termination \"resignation\"]\n[PlyCount \"24\"]\n[Annotator "));
    assert!(text.contains("\n{A hand-written game} 1. a2b3 {+0.35/12 0.51s} e7c5 2. f2e3"));
    check_round_trip(&text, &*g.record, &header, &g.comments);
}

/// A valid game of each id, to spoil in the table of bad records.
fn base(id: &str) -> String {
    let mut rng = Rng::new(77);
    let game = registry::find(id).unwrap();
    let mut record = game.new_game(&Settings::new()).unwrap();
    play_random(&mut *record, &mut rng, 6);
    write_game(&*record, &Header::default(), &[])
}

/// The line (from 1) of the first line of `text` that contains `needle`.
fn line_of(text: &str, needle: &str) -> usize {
    text.lines()
        .position(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("{needle:?} not in {text}"))
        + 1
}

#[test]
fn bad_records_are_refused_with_their_line_and_what_is_wrong() {
    let ack = base("ackenhead");
    let three = base("antchess3");
    let reines = base("reines");
    let moves_line = line_of(&ack, "1. ");
    let first_move = ack.lines().nth(moves_line - 1).unwrap()[3..7].to_string();
    let mut cases: Vec<(String, usize, &str)> = vec![
        (
            ack.replace(&format!("1. {first_move}"), "1. {never closed"),
            moves_line,
            "never closed with }",
        ),
        (
            ack.replace("[Site \"?\"]", "[Site \"?]"),
            2,
            "not closed with \" on its line",
        ),
        (
            ack.replace("[Site \"?\"]", "[Site \"?\""),
            2,
            "expected ] after the value",
        ),
        (ack.replace("[Site \"?\"]", "[Site ?]"), 2, "double quotes"),
        (
            ack.replace("[Game \"ackenhead\"]", "[Game \"checkers\"]"),
            8,
            "unknown game \"checkers\"",
        ),
        (
            ack.replace("[Game \"ackenhead\"]\n", ""),
            1,
            "no Game tag",
        ),
        (
            ack.replace(
                "[Game \"ackenhead\"]\n",
                "[Game \"ackenhead\"]\n[SetUp \"1\"]\n[FEN \"8/8/8 w - - 0 1\"]\n",
            ),
            10,
            "FEN: bad position string",
        ),
        (
            ack.replace(
                "[Game \"ackenhead\"]\n",
                "[Game \"ackenhead\"]\n[SetUp \"1\"]\n",
            ),
            9,
            "no FEN tag",
        ),
        (
            ack.replace(&format!("1. {first_move}"), "1. e2e5"),
            moves_line,
            "move 1. of White, \"e2e5\": illegal move e2e5",
        ),
        (
            ack.replace(&format!("1. {first_move}"), "1. zz9"),
            moves_line,
            "legal moves",
        ),
        (
            ack.replace("[Result \"*\"]", "[Result \"2-0\"]"),
            7,
            "bad result \"2-0\"",
        ),
        (
            ack.replace(" *\n", " 1-0-0\n"),
            line_of(&ack, " *"),
            "3 seats given, the game has 2",
        ),
        (
            ack.replace("[Result \"*\"]", "[Result \"1-0\"]"),
            line_of(&ack, " *"),
            "the moves end with the result * but the Result tag says 1-0",
        ),
        (
            ack.replace("[Date", "[Site \"again\"]\n[Date"),
            3,
            "tag Site given twice",
        ),
        (
            ack.trim_end().trim_end_matches('*').to_string(),
            moves_line,
            "the text ends before the game's result",
        ),
        (
            ack.replace(" *\n", " (1. e2e4\n"),
            moves_line,
            "never closed",
        ),
        (
            ack.replace(&format!("1. {first_move}"), &format!("1. {first_move})")),
            moves_line,
            "unexpected ): no variation is open",
        ),
        (
            ack.replace("[PlyCount \"6\"]", "[PlyCount \"7\"]"),
            line_of(&ack, "PlyCount"),
            "PlyCount is \"7\" but the movetext has 6 moves",
        ),
        (
            ack.replace(" *\n", " out:2:time *\n"),
            line_of(&ack, " *"),
            "game of two",
        ),
        (
            ack.replace("[Result \"*\"]", "[Result \"1-0\"]")
                .replace(" *\n", " 1-0\n")
                .replace("[Game \"ackenhead\"]\n", "[Game \"ackenhead\"]\n[Termination \"agreement\"]\n"),
            9,
            "cannot end a game by agreement",
        ),
        (
            ack.replace("[Result \"*\"]", "[Result \"1-0\"]")
                .replace(" *\n", " 1-0\n")
                .replace("[Game \"ackenhead\"]\n", "[Game \"ackenhead\"]\n[Termination \"checkmate\"]\n"),
            9,
            "Termination is \"checkmate\" but the moves leave the game unfinished",
        ),
        (
            ack.replace("[Game \"ackenhead\"]\n", "[Game \"ackenhead\"]\n[Termination \"time\"]\n"),
            9,
            "the game is unfinished (result *)",
        ),
        (
            three.replace(" *\n", " out:5:time *\n"),
            line_of(&three, " *"),
            "not a seat",
        ),
        (
            three.replace(" *\n", " out:2:bored *\n"),
            line_of(&three, " *"),
            "not a reason to leave",
        ),
        (
            three.replace("[Result \"*\"]", "[Result \"1-0\"]"),
            7 + 1,
            "2 seats given, the game has 3",
        ),
        (
            three
                .replace("[Result \"*\"]", "[Result \"1-0-0\"]")
                .replace(" *\n", " out:1:time 1-0-0\n"),
            8,
            "makes Black the winner, who is out of the game",
        ),
        (
            three
                .replace("[Result \"*\"]", "[Result \"1/3-1/3-1/3\"]")
                .replace(" *\n", " out:1:time 1/3-1/3-1/3\n"),
            8,
            "cannot be: after the moves Red, Green are in the game",
        ),
        (
            reines.replace("[Region \"neutral\"]", "[Region \"martian\"]"),
            9,
            "setting region cannot be \"martian\"",
        ),
        (
            reines.replace(
                "[Region \"neutral\"]\n",
                "[Region \"cultist\"]\n[SetUp \"1\"]\n[FEN \"5s1q/4w1c1/5w1s/6w1/1W6/S1W5/1C1W4/Q1S5 w d2c3b4g5f6e7 -/- 0 1\"]\n",
            ),
            11,
            "in the region cultist the Myrmides do",
        ),
    ];
    // A game over by the moves with another result, or another termination.
    let mut rng = Rng::new(9);
    let ended = loop {
        let mut record = registry::find("epaminondas")
            .unwrap()
            .new_game(&Settings::new())
            .unwrap();
        play_random(&mut *record, &mut rng, 1000);
        if record.result().is_some() {
            break write_game(&*record, &Header::default(), &[]);
        }
    };
    let (result, winner_marker) = if ended.contains("[Result \"1-0\"]") {
        ("[Result \"1-0\"]", " 1-0\n")
    } else {
        ("[Result \"0-1\"]", " 0-1\n")
    };
    cases.push((
        ended
            .replace(result, "[Result \"1/2-1/2\"]")
            .replace(winner_marker, " 1/2-1/2\n"),
        7,
        "the moves end the game, ",
    ));
    cases.push((
        ended.replace("[Termination \"", "[Termination \"time"),
        line_of(&ended, "[Termination"),
        "Termination is \"time",
    ));
    let last_move_line = ended.lines().count() - 1;
    cases.push((
        ended.replace(winner_marker, &format!(" a1-a2{winner_marker}")),
        last_move_line,
        "comes after the end of the game",
    ));
    // A tag where the moves should have ended with a result.
    cases.push((
        format!("{}\n{ack}", ack.trim_end().trim_end_matches('*')),
        moves_line,
        "end without a result",
    ));

    for (text, line, wanted) in &cases {
        let e = read_games(text).unwrap_err();
        assert_eq!(
            (e.line, e.message.contains(wanted)),
            (*line, true),
            "expected line {line}: …{wanted}…, got {e}\n{text}"
        );
        assert!(e.to_string().starts_with(&format!("line {line}: ")));
    }
}

#[test]
fn a_bad_game_does_not_stop_the_reader() {
    let good = base("antchess");
    let bad_move = good.replace(" *\n", " zz-zz *\n");
    let bad_tag = good.replace("[Site \"?\"]", "[Site \"?");
    let unclosed = good.replace(" *\n", " {no end *\n");
    let file = format!("{good}{bad_move}{good}{bad_tag}{good}{unclosed}");
    let results: Vec<Result<ReadGame, _>> = GameReader::new(&file).collect();
    let lines = good.lines().count();
    let shape: Vec<Result<usize, usize>> = results
        .iter()
        .map(|r| match r {
            Ok(g) => Ok(g.line),
            Err(e) => Err(e.line),
        })
        .collect();
    let moves = line_of(&good, "1. ");
    assert_eq!(
        shape,
        [
            Ok(1),
            Err(lines + moves),
            Ok(2 * lines + 1),
            Err(3 * lines + 2),
            Ok(4 * lines + 1),
            Err(5 * lines + moves),
        ],
        "{results:?}"
    );
    // read_games stops at the first.
    assert_eq!(read_games(&file).unwrap_err().line, lines + moves);
}

#[test]
fn garbage_never_panics() {
    let mut rng = Rng::new(11);
    let mut texts: Vec<String> = registry::games()
        .iter()
        .map(|g| base(g.info().id))
        .collect();
    texts.push(ACKENHEAD_BY_HAND.to_string());
    let alphabet: Vec<char> = "[]{}()\";%\\ \n.-/*0123456789abcxyz:out".chars().collect();
    let mut refused = 0;
    for round in 0..3000 {
        let mut t: Vec<char> = texts[round % texts.len()].chars().collect();
        for _ in 0..1 + rng.below(4) {
            let at = rng.below(t.len() + 1);
            match rng.below(3) {
                0 if at < t.len() => {
                    t.remove(at);
                }
                1 if at < t.len() => t[at] = alphabet[rng.below(alphabet.len())],
                _ => t.insert(at, alphabet[rng.below(alphabet.len())]),
            }
        }
        let t: String = t.into_iter().collect();
        for r in GameReader::new(&t) {
            match r {
                Ok(g) => {
                    // Whatever reads must write and read back to the same game.
                    let text = write_game(&*g.record, &g.header(), &g.comments);
                    let again = read_games(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
                    assert_eq!(again[0].record.steps(), g.record.steps());
                }
                Err(e) => {
                    refused += 1;
                    assert!(e.line >= 1 && e.line <= t.lines().count() + 1, "{e}");
                }
            }
        }
    }
    assert!(refused > 1000, "{refused}");
}

/// The examples of `docs/records.md` (its ```pgn blocks) read, and write back unchanged.
#[test]
fn the_examples_of_the_spec_read_back() {
    let doc = include_str!("../../../docs/records.md");
    // ```pgn blocks are canonical (written back unchanged), ```pgn-input blocks only read.
    let mut blocks = Vec::new();
    let mut inputs = Vec::new();
    let mut current: Option<(bool, String)> = None;
    for line in doc.lines() {
        match (&mut current, line) {
            (None, "```pgn") => current = Some((true, String::new())),
            (None, "```pgn-input") => current = Some((false, String::new())),
            (Some(_), "```") => match current.take().unwrap() {
                (true, b) => blocks.push(b),
                (false, b) => inputs.push(b),
            },
            (Some((_, b)), l) => {
                b.push_str(l);
                b.push('\n');
            }
            _ => {}
        }
    }
    // The hand-written example is the game of the test above.
    assert_eq!(inputs.len(), 1);
    let by_hand = read_games(ACKENHEAD_BY_HAND).unwrap();
    let input = read_games(&inputs[0]).unwrap_or_else(|e| panic!("{e}\n{}", inputs[0]));
    assert_eq!(input.len(), 1);
    assert_eq!(input[0].record.steps(), by_hand[0].record.steps());
    assert_eq!(input[0].record.result(), by_hand[0].record.result());
    assert_eq!(input[0].comments, by_hand[0].comments);
    let mut ids = Vec::new();
    for block in &blocks {
        let games = read_games(block).unwrap_or_else(|e| panic!("{e}\n{block}"));
        let mut written = String::new();
        for g in &games {
            ids.push(g.record.info().id);
            written.push_str(&write_game(&*g.record, &g.header(), &g.comments));
        }
        assert_eq!(written.trim_end(), block.trim_end());
    }
    for g in registry::games() {
        assert!(ids.contains(&g.info().id), "no example of {}", g.info().id);
    }
    // A game of three with a player leaving, and Jeu de Reines in another region.
    assert!(blocks.iter().any(|b| b.contains(" out:")));
    assert!(blocks.iter().any(|b| b.contains("[Region \"cultist\"]")));
}

#[test]
fn move_numbers_follow_the_start_position() {
    // Black to move at move 23: `23...` first, then `24.` before White's move.
    let game = registry::find("ackenhead").unwrap();
    let mut record = game.new_game(&Settings::new()).unwrap();
    record.play("e2d3").unwrap();
    let fen = record.position_string().replace(" 0 1", " 0 23");
    let mut record = game.new_game_at(&fen).unwrap();
    let mut rng = Rng::new(1);
    play_random(&mut *record, &mut rng, 3);
    let text = write_game(&*record, &Header::default(), &[]);
    let h = record.history();
    let moves = format!("\n23... {} 24. {} {} *\n", h[0].text, h[1].text, h[2].text);
    assert!(text.contains(&moves), "{moves}\n{text}");
    assert!(
        text.contains(&format!("[SetUp \"1\"]\n[FEN \"{fen}\"]\n")),
        "{text}"
    );
    // An illegal move is named by its number.
    let bad = text.replace(&format!("24. {}", h[1].text), "24. a1a1");
    let e = read_games(&bad).unwrap_err();
    assert!(e.message.starts_with("move 24. of White, \"a1a1\""), "{e}");
}

#[test]
fn tag_values_escape_quotes_and_backslashes_and_read_control_characters_as_spaces() {
    let record = registry::find("epaminondas")
        .unwrap()
        .new_game(&Settings::new())
        .unwrap();
    let header = Header {
        event: "a \"quoted\" \\ event\twith\na line end".to_string(),
        ..Header::default()
    };
    let text = write_game(&*record, &header, &[]);
    assert!(
        text.starts_with("[Event \"a \\\"quoted\\\" \\\\ event with a line end\"]\n"),
        "{text}"
    );
    let read = read_games(&text).unwrap();
    assert_eq!(
        read[0].header().event,
        "a \"quoted\" \\ event with a line end"
    );
    // A control character in a value reads as the space it is written as (found by the
    // fuzzer: `record`).
    let odd = text.replace("[Date \"????", "[Date \"\u{1f}???");
    let read = read_games(&odd).unwrap();
    assert_eq!(read[0].header().date, " ???.??.??");
    let again = write_game(&*read[0].record, &read[0].header(), &read[0].comments);
    assert_eq!(read_games(&again).unwrap()[0].header(), read[0].header());
    // A blank value of a tag that has an unknown value is that (found by the fuzzer too).
    let blank = text.replace("[Round \"?\"]", "[Round \"\u{7f}\"]");
    let read = read_games(&blank).unwrap();
    assert_eq!(read[0].tag("Round"), Some(" "));
    assert_eq!(read[0].header().round, "?");
}

#[test]
fn move_numbers_stop_at_one_limit_in_position_strings_and_records() {
    use myrmidon_rules::MAX_MOVE_NUMBER;
    assert_eq!(MAX_MOVE_NUMBER, 4_294_967_295);
    // A game that goes past the last move number stays at it: its position string and its
    // record agree (the record used to write 4294967296 where the position said 4294967295).
    let game = registry::find("ackenhead").unwrap();
    let fen = "4k3/8/8/8/8/8/8/4K2L w - - 0 4294967294";
    let mut record = game.new_game_at(fen).unwrap();
    for _ in 0..6 {
        let moves = record.legal_moves();
        let text = moves[0].text.clone();
        record.play(&text).unwrap();
    }
    assert!(record.result().is_none());
    assert!(
        record.position_string().ends_with(" 4294967295"),
        "{}",
        record.position_string()
    );
    let text = write_game(&*record, &Header::default(), &[]);
    let h = record.history();
    let moves = format!(
        "\n4294967294. {} {} 4294967295. {} {} 4294967295. {} {} *\n",
        h[0].text, h[1].text, h[2].text, h[3].text, h[4].text, h[5].text
    );
    assert!(text.contains(&moves), "{moves}\n{text}");
    assert!(!text.contains("4294967296"), "{text}");
    // Read back: the same game; an illegal move past the limit is named by the last number.
    let read = read_games(&text).unwrap();
    assert_eq!(read[0].record.position_string(), record.position_string());
    let bad = text.replace(&format!(" {} *", h[5].text), " a1a1 *");
    let e = read_games(&bad).unwrap_err();
    assert!(
        e.message
            .starts_with("move 4294967295... of Black, \"a1a1\""),
        "{e}"
    );

    // One limit and one error in every game's position strings, and in a record's FEN tag.
    for (id, at_limit) in [
        ("ackenhead", "4k3/8/8/8/8/8/8/4K2L w - - 0 4294967295"),
        (
            "reines",
            "7q/8/8/8/8/8/8/QC6 w - -/- 4294967295 4294967295",
        ),
        (
            "antchess",
            "7/8/bA7rA/bA8rA/bWbA7rArW/bLbGbA6rArGrL/bQbBbA7rArBrQ/bLbGbA6rArGrL/bWbA7rArW/bA8rA/bA7rA/8/7 b 0 0 4294967295",
        ),
    ] {
        let game = registry::find(id).unwrap();
        let record = game.new_game_at(at_limit).unwrap();
        assert_eq!(first_move_number(&*record), 4_294_967_295, "{id}");
        for (number, why) in [
            ("4294967296", "move number: 4294967296 is too large (at most 4294967295)"),
            ("0", "move number: must be at least 1"),
            ("+5", "move number: expected a whole number (plain digits), found \"+5\""),
        ] {
            let fen = at_limit.replace(" 4294967295", &format!(" {number}"));
            let fen = if id == "reines" {
                // Its quiet plies too.
                fen.replacen(&format!(" {number}"), " 4294967295", 1)
            } else {
                fen
            };
            let Err(e) = game.new_game_at(&fen) else {
                panic!("{id} {fen:?} was read");
            };
            let e = e.to_string();
            assert!(e.contains(why), "{id} {fen:?}: {e}");
            let text = format!("[Game \"{id}\"]\n[SetUp \"1\"]\n[FEN \"{fen}\"]\n\n*\n");
            let e = read_games(&text).unwrap_err();
            assert!(e.message.contains(why), "{id} {fen:?}: {e}");
        }
    }
}
