//! The searches for three players (`search:algorithm=paranoid|maxn|brs|mcts`) in
//! three-player Ant Chess, on positions from random play: a win on the spot is taken (the
//! anthill, or the last rival Queen taken); a win in two of the mover's own turns, forced
//! whatever both opponents do, is found; every move is legal however short the limits or
//! whenever `stop` comes; a finished game gets no move; a fixed depth (a fixed node count for
//! MCTS) repeats. The algorithms also play legal moves in every two-player game.

mod common;

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use common::{ids, scan, wins_at_once};
use myrmidon_engine::players::{Algorithm, BestReply, MaxN, Mcts, Options, Pvs};
use myrmidon_engine::{with_engine_game, Control, EngineGame, EngineVisitor, Limits, Searcher};
use myrmidon_rules::rng::Rng;
use myrmidon_rules::{Position, Record};

/// The player of an algorithm, for one game.
fn player<G: EngineGame>(algorithm: Algorithm) -> Box<dyn Searcher<G::Pos>> {
    let options = Options::default();
    match algorithm {
        Algorithm::Paranoid => Box::new(Pvs::<G::Pos, G::Eval>::new(None, G::POLICY, &options)),
        Algorithm::MaxN => Box::new(MaxN::<G::Pos, G::Eval>::new(None, &options)),
        Algorithm::BestReply => Box::new(BestReply::<G::Pos, G::Eval>::new(None, &options)),
        Algorithm::Mcts => Box::new(Mcts::<G::Pos, G::Eval>::new(&options)),
    }
}

/// Limits that let each algorithm see `turns` of the mover's own turns in a three-player game:
/// plies for paranoid and max-n, layers for best-reply search, iterations for MCTS.
fn limits_for(algorithm: Algorithm, turns: u32) -> Limits {
    match algorithm {
        Algorithm::Paranoid | Algorithm::MaxN => Limits::depth(3 * turns - 2),
        Algorithm::BestReply => Limits::depth(2 * turns - 1),
        Algorithm::Mcts => Limits {
            nodes: Some(200_000 * turns as u64),
            ..Limits::default()
        },
    }
}

fn best<P: Position>(player: &mut dyn Searcher<P>, record: &Record<P>, limits: &Limits) -> P::Move {
    player
        .search(record, limits, &Control::unlimited(), &mut |_| {})
        .expect("a position with moves gets a move")
}

struct TakesWins;
impl EngineVisitor for TakesWins {
    type Output = usize;
    fn visit<G: EngineGame>(self, game: &'static G) -> usize {
        let mut found = 0;
        scan(game, 5, 300, |record| {
            let pos = record.position();
            let wins = wins_at_once(pos);
            if wins.is_empty() {
                return false;
            }
            found += 1;
            for algorithm in Algorithm::ALL {
                let mv = best(
                    &mut *player::<G>(algorithm),
                    record,
                    &limits_for(algorithm, 1),
                );
                assert!(
                    wins.contains(&mv),
                    "{pos}: {algorithm} chose {} instead of a winning move",
                    pos.move_text(mv)
                );
            }
            found >= 15
        });
        found
    }
}

#[test]
fn every_algorithm_takes_a_win_on_the_spot() {
    assert!(with_engine_game("antchess3", TakesWins).unwrap() >= 10);
}

/// True if `mv` wins by force on the mover's next turn: it does not end the game, and after
/// every move of each opponent in turn (none of which ends the game or repeats a position of
/// `seen`), the mover has a move that wins at once.
fn forces_win_in_two<P: Position>(pos: &P, mv: P::Move, seen: &HashSet<u64>) -> bool {
    let me = pos.to_move();
    let mut after = pos.clone();
    after.make_move(mv);
    fn all_replies<P: Position>(pos: &P, me: u8, seen: &HashSet<u64>) -> bool {
        if pos.draw_by_rule().is_some() || seen.contains(&pos.hash()) {
            return false;
        }
        if pos.to_move() == me {
            return !wins_at_once(pos).is_empty();
        }
        let replies = pos.moves();
        !replies.is_empty()
            && replies.iter().all(|&r| {
                if pos.tactics(r).wins {
                    return false;
                }
                let mut next = pos.clone();
                next.make_move(r);
                all_replies(&next, me, seen)
            })
    }
    all_replies(&after, me, seen)
}

struct FindsWinInTwo;
impl EngineVisitor for FindsWinInTwo {
    type Output = usize;
    fn visit<G: EngineGame>(self, game: &'static G) -> usize {
        let mut found = 0;
        let mut scanned = 0;
        scan(game, 23, 400, |record| {
            let pos = record.position();
            let moves = pos.moves();
            scanned += 1;
            if scanned > 30_000 {
                return true;
            }
            // (Few moves: max-n, without pruning, takes seconds at depth 4 otherwise.)
            if moves.len() > 20 || !wins_at_once(pos).is_empty() {
                return false;
            }
            let seen: HashSet<u64> = record.positions().iter().map(|p| p.hash()).collect();
            // Cheap filter first: a move after which the mover could win at once if the others
            // passed is needed.
            let forcing: Vec<_> = moves
                .iter()
                .copied()
                .filter(|&m| forces_win_in_two(pos, m, &seen))
                .collect();
            if forcing.is_empty() {
                return false;
            }
            found += 1;
            for algorithm in Algorithm::ALL {
                let mv = best(
                    &mut *player::<G>(algorithm),
                    record,
                    &limits_for(algorithm, 2),
                );
                assert!(
                    forces_win_in_two(pos, mv, &seen) || pos.tactics(mv).wins,
                    "{pos}: {algorithm} chose {} instead of one of {:?}",
                    pos.move_text(mv),
                    forcing
                        .iter()
                        .map(|&m| pos.move_text(m))
                        .collect::<Vec<_>>()
                );
            }
            found >= 3
        });
        found
    }
}

#[test]
fn every_algorithm_finds_a_win_forced_on_its_next_turn() {
    assert!(with_engine_game("antchess3", FindsWinInTwo).unwrap() >= 3);
}

struct Legal;
impl EngineVisitor for Legal {
    type Output = ();
    /// Short node limits, and `stop` from another thread after a random moment: the move is
    /// legal. A finished game gets none.
    fn visit<G: EngineGame>(self, game: &'static G) {
        let id = game.info().id;
        let mut rng = Rng::new(17);
        let mut finished = 0;
        let mut checked = 0;
        scan(game, 41, 40, |record| {
            checked += 1;
            if checked % 7 != 0 {
                return false;
            }
            let moves = record.position().moves();
            for algorithm in Algorithm::ALL {
                let mut p = player::<G>(algorithm);
                let nodes = 1 + rng.below(3_000) as u64;
                let limits = Limits {
                    nodes: Some(nodes),
                    ..Limits::default()
                };
                let mv = best(&mut *p, record, &limits);
                assert!(moves.contains(&mv), "{id} {algorithm} nodes {nodes}");
                // Stopped at a random moment.
                let control = Control::unlimited();
                let stopper = control.clone();
                let wait = Duration::from_micros(rng.below(20_000) as u64);
                let done = Arc::new(AtomicBool::new(false));
                let flag = done.clone();
                let handle = std::thread::spawn(move || {
                    std::thread::sleep(wait);
                    stopper.stop();
                    flag.store(true, Ordering::Relaxed);
                });
                let infinite = Limits {
                    infinite: true,
                    ..Limits::default()
                };
                let mv = p
                    .search(record, &infinite, &control, &mut |_| {})
                    .expect("moves");
                handle.join().unwrap();
                assert!(done.load(Ordering::Relaxed));
                assert!(
                    moves.contains(&mv),
                    "{id} {algorithm} stopped after {wait:?}"
                );
            }
            checked >= 200
        });
        // A finished game: no move.
        scan(game, 43, 30, |record| {
            let mut record = record.clone();
            let pos = record.position().clone();
            for &mv in pos.moves().iter() {
                if pos.tactics(mv).wins {
                    record.play(mv).unwrap();
                    for algorithm in Algorithm::ALL {
                        let got = player::<G>(algorithm).search(
                            &record,
                            &Limits::depth(2),
                            &Control::unlimited(),
                            &mut |_| {},
                        );
                        assert!(got.is_none(), "{id} {algorithm}: a move in a finished game");
                    }
                    finished += 1;
                    return true;
                }
            }
            false
        });
        assert!(
            finished > 0 || id == "epaminondas",
            "{id}: no finished game reached"
        );
    }
}

#[test]
fn every_algorithm_plays_legal_moves_and_stops_in_every_game() {
    for id in ids() {
        with_engine_game(id, Legal).unwrap();
    }
}

struct Repeats;
impl EngineVisitor for Repeats {
    type Output = ();
    fn visit<G: EngineGame>(self, game: &'static G) {
        let mut seen = 0;
        scan(game, 61, 10, |record| {
            seen += 1;
            if seen % 25 != 0 {
                return false;
            }
            for algorithm in Algorithm::ALL {
                let limits = match algorithm {
                    Algorithm::Mcts => Limits {
                        nodes: Some(20_000),
                        ..Limits::default()
                    },
                    Algorithm::MaxN => Limits::depth(2),
                    _ => Limits::depth(3),
                };
                let run = || {
                    let mut reports = Vec::new();
                    let mv = player::<G>(algorithm).search(
                        record,
                        &limits,
                        &Control::unlimited(),
                        &mut |r| reports.push((r.depth, r.score, r.nodes, r.pv.clone())),
                    );
                    (mv, reports)
                };
                assert_eq!(run(), run(), "{algorithm}");
            }
            seen >= 100
        });
    }
}

#[test]
fn a_fixed_depth_or_node_count_repeats() {
    with_engine_game("antchess3", Repeats).unwrap();
}

struct Lines;
impl EngineVisitor for Lines {
    type Output = ();
    /// With `MultiPV` 3, max-n and best-reply search report three lines at each depth, best
    /// first, with distinct first moves, and play line 1 (what the levels choose among).
    fn visit<G: EngineGame>(self, game: &'static G) {
        let options = Options {
            multipv: 3,
            ..Options::default()
        };
        let mut seen = 0;
        scan(game, 71, 5, |record| {
            seen += 1;
            if seen % 20 != 0 || record.position().moves().len() < 3 {
                return false;
            }
            let players: [Box<dyn Searcher<G::Pos>>; 2] = [
                Box::new(MaxN::<G::Pos, G::Eval>::new(None, &options)),
                Box::new(BestReply::<G::Pos, G::Eval>::new(None, &options)),
            ];
            for mut p in players {
                let mut reports = Vec::new();
                let mv = p
                    .search(record, &Limits::depth(2), &Control::unlimited(), &mut |r| {
                        reports.push(r.clone())
                    })
                    .unwrap();
                let last: Vec<_> = reports.iter().filter(|r| r.depth == 2).collect();
                assert_eq!(
                    last.iter().map(|r| r.multipv).collect::<Vec<_>>(),
                    [1, 2, 3]
                );
                let firsts: HashSet<&String> = last.iter().map(|r| &r.pv[0]).collect();
                assert_eq!(firsts.len(), 3, "{last:?}");
                let pos = record.position();
                assert_eq!(pos.move_text(mv), last[0].pv[0]);
            }
            seen >= 100
        });
    }
}

#[test]
fn max_n_and_best_reply_give_several_lines() {
    with_engine_game("antchess3", Lines).unwrap();
}
