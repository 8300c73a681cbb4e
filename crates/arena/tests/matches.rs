//! Matches between built-in players through the library: every game id, openings shared by the
//! games of a round, adjudication, and the same games whatever the concurrency.

use std::collections::BTreeMap;
use std::time::Duration;

use myrmidon_arena::clock::DEFAULT_MOVE_TIMEOUT;
use myrmidon_arena::openings::read_openings;
use myrmidon_arena::records::game_record;
use myrmidon_arena::{
    run_match, EngineSpec, Finished, GameRules, MatchConfig, MoveLimit, Openings, Tally,
};
use myrmidon_rules::pgn::read_games;
use myrmidon_rules::{registry, DynGame, Outcome, Reason};

fn config(game: &'static dyn DynGame, players: &[&str], games: usize) -> MatchConfig {
    let mut engines: Vec<EngineSpec> = players
        .iter()
        .map(|p| EngineSpec::parse(&[format!("builtin={p}")]).unwrap())
        .collect();
    myrmidon_arena::spec::distinct_names(&mut engines);
    MatchConfig {
        game,
        start: game.new_game(&Default::default()).unwrap().start_string(),
        engines,
        games,
        rules: GameRules {
            limit: MoveLimit::Depth(1),
            max_plies: Some(80),
            move_timeout: DEFAULT_MOVE_TIMEOUT,
        },
        openings: Openings::Start,
        concurrency: 1,
        sprt: None,
        seed: 11,
    }
}

/// Plays the match and keeps every finished game, by index.
fn play(config: &MatchConfig) -> (Tally, BTreeMap<usize, Finished>) {
    let mut games = BTreeMap::new();
    let tally = run_match(config, &mut |f: &Finished, _: &Tally| {
        games.insert(f.index, f.clone());
        Ok(())
    })
    .unwrap();
    (tally, games)
}

#[test]
fn built_in_players_play_every_game_to_the_end() {
    for game in registry::games() {
        let id = game.info().id;
        let seats = game.info().players.len();
        let players = ["greedy", "random", "alphabeta:depth=1"];
        let config = config(*game, &players[..seats], 3);
        let per_round = if seats == 2 { 2 } else { 6 };
        let (tally, games) = play(&config);
        assert_eq!(
            tally.games as usize,
            3usize.div_ceil(per_round) * per_round,
            "{id}"
        );
        assert_eq!(games.len() as u64, tally.games, "{id}");
        let points: f64 = tally.engines.iter().map(|e| e.total.points).sum();
        assert!((points - tally.games as f64).abs() < 1e-9, "{id}: {points}");
        for e in &tally.engines {
            let t = &e.total;
            assert_eq!(t.wins + t.draws + t.losses, tally.games, "{id} {}", e.name);
            assert_eq!(e.crashes + e.time_losses + e.illegal_moves, 0, "{id}");
        }
        if seats == 2 {
            assert_eq!(
                tally.engines[0].total.wins, tally.engines[1].total.losses,
                "{id}"
            );
            assert_eq!(
                tally.pentanomial.iter().sum::<u64>(),
                tally.games / 2,
                "{id}"
            );
        }
        for (index, f) in &games {
            let played = &f.played;
            let outcome = played.record.outcome().expect("the game is over");
            assert!(played.plies <= 80, "{id} game {index}");
            if played.plies == 80 {
                assert_eq!(
                    outcome,
                    Outcome::Draw {
                        reason: Reason::ADJUDICATION
                    }
                );
            }
            // The record and the move list agree: every move of the history is a token.
            let history: Vec<String> = played
                .record
                .history()
                .into_iter()
                .filter(|m| !m.automatic)
                .map(|m| m.text)
                .collect();
            let moves: Vec<String> = played
                .tokens
                .iter()
                .filter(|t| !t.text.starts_with("out:"))
                .map(|t| t.text.clone())
                .collect();
            assert_eq!(history, moves, "{id} game {index}");
            // A searching player's comments say its score and depth.
            assert!(played.tokens.iter().all(|t| t.comment.is_some()));
            let sum: f64 = played.points.iter().sum();
            assert!((sum - 1.0).abs() < 1e-9, "{id}: {:?}", played.points);
        }
        // Every game's record reads back to the same game, names, result and comments.
        let file: String = games
            .values()
            .map(|f| game_record(&config, f, std::time::SystemTime::now()))
            .collect();
        let read = read_games(&file).unwrap_or_else(|e| panic!("{id}: {e}\n{file}"));
        assert_eq!(read.len(), games.len(), "{id}");
        for (r, f) in read.iter().zip(games.values()) {
            let played = &f.played;
            assert_eq!(r.record.history(), played.record.history(), "{id}");
            assert_eq!(r.record.result(), played.record.result(), "{id}");
            let seats = game.info().players;
            for (seat, &engine) in f.seats.iter().enumerate() {
                assert_eq!(
                    r.tag(seats[seat]),
                    Some(config.engines[engine].name.as_str())
                );
            }
            assert_eq!(
                r.tag("Event"),
                Some(format!("myrmidon match {id}").as_str())
            );
            assert_eq!(r.tag("TimeControl"), Some("-"));
            let round = format!("{}.{}", f.round + 1, f.index % per_round + 1);
            assert_eq!(r.tag("Round"), Some(round.as_str()));
            let comments: Vec<Option<String>> =
                played.tokens.iter().map(|t| t.comment.clone()).collect();
            assert_eq!(r.comments, comments, "{id}");
        }
    }
}

#[test]
fn the_games_of_a_round_share_their_opening_with_the_seats_swapped() {
    for game in registry::games() {
        let id = game.info().id;
        let seats = game.info().players.len();
        let mut config = config(*game, &["random", "random", "random"][..seats], 3 * seats);
        config.openings = Openings::Random(4);
        config.rules.max_plies = Some(6);
        let (_, games) = play(&config);
        let mut rounds: BTreeMap<usize, Vec<&Finished>> = BTreeMap::new();
        for f in games.values() {
            rounds.entry(f.round).or_default().push(f);
        }
        let per_round = if seats == 2 { 2 } else { 6 };
        let mut openings = Vec::new();
        for (round, games) in &rounds {
            assert_eq!(games.len(), per_round, "{id} round {round}");
            let opening = &games[0].opening;
            assert_eq!(opening.moves.len(), 4, "{id}");
            let mut orders: Vec<Vec<usize>> = Vec::new();
            for f in games {
                assert_eq!(&f.opening, opening, "{id} round {round}");
                assert_eq!(f.played.opening_plies, 4);
                let first: Vec<&str> = f.played.tokens[..4]
                    .iter()
                    .map(|t| t.text.as_str())
                    .collect();
                assert_eq!(first, opening.moves, "{id}");
                assert!(f.played.tokens[..4]
                    .iter()
                    .all(|t| t.comment.as_deref() == Some("book")));
                orders.push(f.seats.clone());
            }
            orders.sort();
            orders.dedup();
            assert_eq!(orders.len(), per_round, "{id}: every seat order once");
            openings.push(opening.clone());
        }
        openings.dedup();
        assert!(
            openings.len() > 1,
            "{id}: rounds get different random openings"
        );
    }
}

#[test]
fn openings_from_a_file_are_used_in_turn() {
    let game = registry::find("ackenhead").unwrap();
    let mut record = game.new_game(&Default::default()).unwrap();
    let a = record.start_string();
    let mv = record.legal_moves()[3].text.clone();
    record.play(&mv).unwrap();
    let b = record.position_string();
    let list = read_openings(game, &format!("{a}\n# second\n{b}\n")).unwrap();
    let mut config = config(game, &["random", "random"], 6);
    config.openings = Openings::List(list);
    config.rules.max_plies = Some(2);
    let (_, games) = play(&config);
    let starts: Vec<(usize, String)> = games
        .values()
        .map(|f| (f.round, f.played.record.start_string()))
        .collect();
    for (round, start) in starts {
        let expected = if round % 2 == 0 { &a } else { &b };
        assert_eq!(&start, expected, "round {round}");
    }
}

#[test]
fn the_same_seed_plays_the_same_games_at_any_concurrency() {
    let game = registry::find("antchess").unwrap();
    let mut config = config(game, &["random", "greedy"], 8);
    config.rules.limit = MoveLimit::MoveTime(Duration::from_millis(1000));
    let (one, a) = play(&config);
    config.concurrency = 3;
    let (three, b) = play(&config);
    assert_eq!(one.games, three.games);
    assert_eq!(a.len(), b.len());
    for (i, f) in &a {
        let g = &b[i];
        let ta: Vec<&str> = f.played.tokens.iter().map(|t| t.text.as_str()).collect();
        let tb: Vec<&str> = g.played.tokens.iter().map(|t| t.text.as_str()).collect();
        assert_eq!(ta, tb, "game {i}");
        assert_eq!(f.played.points, g.played.points);
    }
    assert_eq!(one.pentanomial, three.pentanomial);
    config.seed += 1;
    let (_, c) = play(&config);
    assert!(
        c.iter()
            .any(|(i, f)| f.played.tokens.len() != a[i].played.tokens.len()
                || f.played
                    .tokens
                    .iter()
                    .zip(&a[i].played.tokens)
                    .any(|(x, y)| x.text != y.text)),
        "another seed plays other games"
    );
}

#[test]
fn a_ply_limit_adjudicates_a_draw() {
    let game = registry::find("epaminondas").unwrap();
    let mut config = config(game, &["random", "random"], 2);
    config.rules.max_plies = Some(3);
    let (tally, games) = play(&config);
    for f in games.values() {
        assert_eq!(f.played.plies, 3);
        assert_eq!(
            f.played.record.outcome(),
            Some(Outcome::Draw {
                reason: Reason::ADJUDICATION
            })
        );
    }
    assert_eq!(tally.engines[0].total.draws, 2);
}
