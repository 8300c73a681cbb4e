//! The baseline players on positions found by random play in every game: a win on the spot is
//! taken, an opponent's win on the spot is prevented when it can be, a search stops when told,
//! and a fixed-depth search is deterministic.

mod common;

use common::{ids, scan, wins_at_once};

use std::time::{Duration, Instant};

use myrmidon_engine::players::{AlphaBeta, Greedy, Level, Options};
use myrmidon_engine::{with_engine_game, Control, EngineGame, EngineVisitor, Limits, Searcher};
use myrmidon_rules::{Position, Record, Settings};

fn choose<P: Position>(player: &mut dyn Searcher<P>, record: &Record<P>) -> P::Move {
    player
        .search(
            record,
            &Limits::default(),
            &Control::unlimited(),
            &mut |_| {},
        )
        .expect("a position with moves gets a move")
}

struct TakesWins;
impl EngineVisitor for TakesWins {
    type Output = usize;
    fn visit<G: EngineGame>(self, game: &'static G) -> usize {
        let mut found = 0;
        let options = Options::default();
        scan(game, 7, 200, |record| {
            let pos = record.position();
            let wins = wins_at_once(pos);
            if wins.is_empty() {
                return false;
            }
            found += 1;
            let mut greedy = Greedy::<G::Eval>::new(&options);
            let mut ab1 = AlphaBeta::<G::Pos, G::Eval>::new(1, &options);
            let mut ab3 = AlphaBeta::<G::Pos, G::Eval>::new(3, &options);
            // Level 1 plays most moves at random, but not when a move wins at once.
            let mut level1 = Level::<G::Pos, G::Eval>::new(1, G::LEVELS, G::POLICY, &options);
            for player in [
                &mut greedy as &mut dyn Searcher<G::Pos>,
                &mut ab1,
                &mut ab3,
                &mut level1,
            ] {
                let mv = choose(player, record);
                assert!(
                    wins.contains(&mv),
                    "{pos}: chose {} instead of a winning move",
                    pos.move_text(mv)
                );
            }
            found >= 25
        });
        found
    }
}

#[test]
fn every_player_takes_a_win_on_the_spot() {
    for id in ids() {
        let found = with_engine_game(id, TakesWins).unwrap();
        // Random games reach a winning move often, except in Epaminondas, where a move wins on
        // the spot only when it leaves the opponent without a move (crossings win a turn
        // later): there, found may be 0.
        assert!(
            found > 0 || id == "epaminondas",
            "{id}: no position with a winning move found"
        );
    }
}

struct PreventsWins;
impl EngineVisitor for PreventsWins {
    type Output = usize;
    /// Two players: when the opponent threatens to win on their next move and some move of
    /// ours stops every such threat (and we cannot win at once), alpha-beta at depth 2 plays a
    /// move after which the opponent has no winning move.
    fn visit<G: EngineGame>(self, game: &'static G) -> usize {
        if game.info().players.len() != 2 {
            return usize::MAX;
        }
        let options = Options::default();
        let mut found = 0;
        scan(game, 11, 100, |record| {
            let pos = record.position();
            if !wins_at_once(pos).is_empty() {
                return false;
            }
            let safe = |mv| {
                let mut after = pos.clone();
                after.make_move(mv);
                after.draw_by_rule().is_some()
                    || after.count_legal_moves() == 0
                    || wins_at_once(&after).is_empty()
            };
            let moves = pos.moves();
            // Checking every reply of every move is slow in wide positions: keep to narrow ones.
            if moves.len() > 40 {
                return false;
            }
            let safe_count = moves.iter().filter(|&&m| safe(m)).count();
            if safe_count == 0 || safe_count == moves.len() {
                return false;
            }
            found += 1;
            let mut ab = AlphaBeta::<G::Pos, G::Eval>::new(2, &options);
            let mv = choose(&mut ab, record);
            assert!(
                safe(mv),
                "{pos}: {} lets the opponent win at once",
                pos.move_text(mv)
            );
            found >= 10
        });
        found
    }
}

#[test]
fn alpha_beta_stops_a_win_on_the_next_move() {
    let mut total = 0;
    for id in ids() {
        let found = with_engine_game(id, PreventsWins).unwrap();
        if found != usize::MAX {
            total += found;
        }
    }
    assert!(total >= 10, "only {total} positions with a threat to stop");
}

struct StopsAndRepeats;
impl EngineVisitor for StopsAndRepeats {
    type Output = ();
    fn visit<G: EngineGame>(self, game: &'static G) {
        let options = Options::default();
        let record = Record::new(game.start(&Settings::new()).unwrap());
        // An unlimited search stops soon after `stop`, with a legal move.
        let control = Control::unlimited();
        let stopper = control.clone();
        let handle = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(100));
            stopper.stop();
            Instant::now()
        });
        let mut ab = AlphaBeta::<G::Pos, G::Eval>::new(32, &options);
        let infinite = Limits {
            infinite: true,
            ..Limits::default()
        };
        let mv = ab
            .search(&record, &infinite, &control, &mut |_| {})
            .unwrap();
        let stopped_at = handle.join().unwrap();
        let late = stopped_at.elapsed();
        assert!(
            late < Duration::from_millis(1000),
            "{}: search went on {late:?} after stop",
            game.info().id
        );
        assert!(record.position().moves().contains(&mv));

        // The same fixed-depth search twice: the same move, the same reports.
        let run = || {
            let mut ab = AlphaBeta::<G::Pos, G::Eval>::new(3, &options);
            let mut reports = Vec::new();
            let mv = ab.search(
                &record,
                &Limits::default(),
                &Control::unlimited(),
                &mut |r| reports.push((r.depth, r.score, r.nodes, r.pv.clone())),
            );
            (mv, reports)
        };
        let (a, b) = (run(), run());
        assert_eq!(a, b, "{}", game.info().id);
        assert_eq!(a.1.len(), 3, "one report per depth");
        // A node budget ends it early, with a move.
        let mut ab = AlphaBeta::<G::Pos, G::Eval>::new(32, &options);
        let budget = Control::with(None, Some(5_000));
        let mv = ab.search(&record, &Limits::default(), &budget, &mut |_| {});
        assert!(mv.is_some());
    }
}

#[test]
fn searches_stop_when_told_and_repeat_at_a_fixed_depth() {
    for id in ids() {
        with_engine_game(id, StopsAndRepeats).unwrap();
    }
}

struct GreedyMovesAPiece;
impl EngineVisitor for GreedyMovesAPiece {
    type Output = bool;
    /// Where `pass` is legal beside other moves and nothing can be won or taken (a start
    /// position), the greedy player moves a piece, whatever its seed.
    fn visit<G: EngineGame>(self, game: &'static G) -> bool {
        let record = Record::new(game.start(&Settings::new()).unwrap());
        let Some(pass) = record.position().pass_move() else {
            return false;
        };
        for seed in 0..50 {
            let options = Options {
                seed,
                ..Options::default()
            };
            let mut greedy = Greedy::<G::Eval>::new(&options);
            assert_ne!(choose(&mut greedy, &record), pass, "{}", game.info().id);
        }
        true
    }
}

#[test]
fn greedy_moves_a_piece_rather_than_pass() {
    let with_pass = ids()
        .iter()
        .filter(|id| with_engine_game(id, GreedyMovesAPiece).unwrap())
        .count();
    assert!(with_pass >= 2, "Ant Chess lets a player pass at the start");
}
