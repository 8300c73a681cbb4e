//! The strong search on positions found by random play in every game: a win on the spot is
//! taken, an opponent's win on the spot is prevented, a forced win in two moves is found at
//! depth 4, a search stops when told or out of nodes, a fixed-depth search is deterministic,
//! and a small transposition table shared by many positions never yields an illegal move.

mod common;

use common::{ids, scan, wins_at_once};
use myrmidon_rules::rng::Rng;

use std::collections::HashSet;
use std::time::{Duration, Instant};

use myrmidon_engine::players::{Options, Pvs};
use myrmidon_engine::{
    with_engine_game, Control, EngineGame, EngineVisitor, Limits, Report, Score, Searcher,
};
use myrmidon_rules::{Position, Record, Settings};

fn search_at<P: Position, S: Searcher<P>>(
    player: &mut S,
    record: &Record<P>,
    depth: u32,
) -> (P::Move, Vec<Report>) {
    let mut reports = Vec::new();
    let mv = player
        .search(
            record,
            &Limits::depth(depth),
            &Control::unlimited(),
            &mut |r| reports.push(r.clone()),
        )
        .expect("a position with moves gets a move");
    (mv, reports)
}

fn pvs<G: EngineGame>() -> Pvs<G::Pos, G::Eval> {
    Pvs::new(None, G::POLICY, &Options::default())
}

struct TakesWins;
impl EngineVisitor for TakesWins {
    type Output = usize;
    fn visit<G: EngineGame>(self, game: &'static G) -> usize {
        let mut found = 0;
        scan(game, 7, 200, |record| {
            let pos = record.position();
            let wins = wins_at_once(pos);
            if wins.is_empty() {
                return false;
            }
            found += 1;
            for depth in [1, 4] {
                let (mv, reports) = search_at(&mut pvs::<G>(), record, depth);
                assert!(
                    wins.contains(&mv),
                    "{pos}: depth {depth} chose {} instead of a winning move",
                    pos.move_text(mv)
                );
                assert_eq!(reports[0].score, Score::Mate(1), "{pos}");
            }
            found >= 25
        });
        found
    }
}

#[test]
fn the_search_takes_a_win_on_the_spot() {
    for id in ids() {
        let found = with_engine_game(id, TakesWins).unwrap();
        // Epaminondas rarely has a move that wins on the spot (see tests/players.rs).
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
    /// ours stops every such threat (and we cannot win at once), the search plays such a move.
    fn visit<G: EngineGame>(self, game: &'static G) -> usize {
        if game.info().players.len() != 2 {
            return 0;
        }
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
            if moves.len() > 40 {
                return false;
            }
            let safe_count = moves.iter().filter(|&&m| safe(m)).count();
            if safe_count == 0 || safe_count == moves.len() {
                return false;
            }
            found += 1;
            for depth in [2, 5] {
                let (mv, _) = search_at(&mut pvs::<G>(), record, depth);
                assert!(
                    safe(mv),
                    "{pos}: depth {depth}: {} lets the opponent win at once",
                    pos.move_text(mv)
                );
            }
            found >= 10
        });
        found
    }
}

#[test]
fn the_search_stops_a_win_on_the_next_move() {
    let total: usize = ids()
        .iter()
        .map(|id| with_engine_game(id, PreventsWins).unwrap())
        .sum();
    assert!(total >= 20, "only {total} positions with a threat to stop");
}

/// True if `mv` wins by force in two moves of the mover: it does not end the game, and after
/// every reply (none of which wins, draws by rule or repeats a position of `seen`) the mover
/// has a move that wins on the spot.
fn forces_win_in_two<P: Position>(pos: &P, mv: P::Move, seen: &HashSet<u64>) -> bool {
    let mut after = pos.clone();
    after.make_move(mv);
    if after.draw_by_rule().is_some() || seen.contains(&after.hash()) {
        return false;
    }
    let replies = after.moves();
    if replies.is_empty() {
        return false;
    }
    replies.iter().all(|&reply| {
        if after.tactics(reply).wins {
            return false;
        }
        let mut next = after.clone();
        next.make_move(reply);
        next.draw_by_rule().is_none()
            && !seen.contains(&next.hash())
            && next.hash() != after.hash()
            && !wins_at_once(&next).is_empty()
    })
}

struct FindsWinInTwo;
impl EngineVisitor for FindsWinInTwo {
    type Output = usize;
    fn visit<G: EngineGame>(self, game: &'static G) -> usize {
        if game.info().players.len() != 2 {
            return 0;
        }
        let mut found = 0;
        let mut scanned = 0;
        scan(game, 23, 300, |record| {
            let pos = record.position();
            let moves = pos.moves();
            scanned += 1;
            if moves.len() > 60 || !wins_at_once(pos).is_empty() || scanned > 20_000 {
                return scanned > 20_000;
            }
            let seen: HashSet<u64> = record.positions().iter().map(|p| p.hash()).collect();
            let forcing: Vec<_> = moves
                .iter()
                .copied()
                .filter(|&m| forces_win_in_two(pos, m, &seen))
                .collect();
            if forcing.is_empty() {
                return false;
            }
            found += 1;
            let (mv, reports) = search_at(&mut pvs::<G>(), record, 4);
            let last = reports.last().unwrap();
            assert_eq!(last.score, Score::Mate(2), "{pos}: {last:?}");
            assert!(
                forces_win_in_two(pos, mv, &seen),
                "{pos}: chose {} instead of one of {:?}",
                pos.move_text(mv),
                forcing
                    .iter()
                    .map(|&m| pos.move_text(m))
                    .collect::<Vec<_>>()
            );
            found >= 5
        });
        found
    }
}

#[test]
fn the_search_finds_a_forced_win_in_two_at_depth_four() {
    let mut total = 0;
    for id in ids() {
        let found = with_engine_game(id, FindsWinInTwo).unwrap();
        eprintln!("{id}: {found} wins in two");
        total += found;
    }
    assert!(
        total >= 10,
        "only {total} positions with a win in two found"
    );
}

struct StopsAndRepeats;
impl EngineVisitor for StopsAndRepeats {
    type Output = ();
    fn visit<G: EngineGame>(self, game: &'static G) {
        let id = game.info().id;
        let mut record = Record::new(game.start(&Settings::new()).unwrap());
        // A few random moves into the game, the same every time.
        let mut rng = Rng::new(5);
        for _ in 0..6 {
            let moves = record.position().moves();
            record.play(moves[rng.below(moves.len())]).unwrap();
        }
        // An infinite search stops soon after `stop`, with a legal move.
        let control = Control::unlimited();
        let stopper = control.clone();
        let handle = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(100));
            stopper.stop();
            Instant::now()
        });
        let infinite = Limits {
            infinite: true,
            ..Limits::default()
        };
        let mv = pvs::<G>()
            .search(&record, &infinite, &control, &mut |_| {})
            .unwrap();
        let late = handle.join().unwrap().elapsed();
        assert!(
            late < Duration::from_millis(500),
            "{id}: search went on {late:?} after stop"
        );
        assert!(record.position().moves().contains(&mv));

        // A move time is kept.
        let start = Instant::now();
        let limits = Limits::movetime(Duration::from_millis(100));
        let control = Control::new(&limits, record.position().to_move());
        let mut reports = Vec::new();
        let mv = pvs::<G>()
            .search(&record, &limits, &control, &mut |r| reports.push(r.clone()))
            .unwrap();
        assert!(record.position().moves().contains(&mv));
        // (well past the 100 ms only when the machine starves the thread: a search that kept
        // no time would go on for seconds)
        let took = start.elapsed();
        assert!(took < Duration::from_millis(1500), "{id}: {took:?}");
        let last = reports.last().expect("at least depth 1 in 100 ms");
        assert!(last.hashfull.is_some());
        // The move time is used in full (how deep it gets in that time is the machine's
        // business: a loaded machine may give the thread a fraction of a core), unless the
        // search has proved a mate; the move played is the last report's, or one that beat it
        // in the iteration the clock cut short (searched in full, not yet reported).
        assert!(
            took >= Duration::from_millis(80) || matches!(last.score, Score::Mate(_)),
            "{id}: stopped after {took:?} at depth {}",
            last.depth
        );
        assert!(!last.pv.is_empty());

        // The same fixed-depth search twice: the same move, the same reports.
        let run = || search_at(&mut pvs::<G>(), &record, 5);
        let (a, b) = (run(), run());
        let strip = |r: &(<G::Pos as Position>::Move, Vec<Report>)| {
            let lines: Vec<_> =
                r.1.iter()
                    .map(|x| (x.depth, x.score, x.nodes, x.pv.clone()))
                    .collect();
            (r.0, lines)
        };
        assert_eq!(strip(&a), strip(&b), "{id}");
        assert_eq!(a.1.len(), 5, "{id}: one report per depth");
        for r in &a.1 {
            assert!(!r.pv.is_empty() && r.seldepth >= r.depth, "{id}: {r:?}");
        }

        // A node budget ends it early, with a move.
        let budget = Control::with(None, Some(5_000));
        let mut reports = Vec::new();
        let mv = pvs::<G>().search(
            &record,
            &Limits {
                nodes: Some(5_000),
                ..Limits::default()
            },
            &budget,
            &mut |r| reports.push(r.clone()),
        );
        assert!(record.position().moves().contains(&mv.unwrap()));
        assert!(reports.iter().all(|r| r.nodes <= 5_000), "{id}");
        // The budget is kept exactly: the same budget, the same move and reports.
        let budgeted = || {
            let mut reports = Vec::new();
            let mv = pvs::<G>().search(
                &record,
                &Limits::default(),
                &Control::with(None, Some(20_000)),
                &mut |r| reports.push((r.depth, r.score, r.nodes, r.pv.clone())),
            );
            (mv, reports)
        };
        assert_eq!(budgeted(), budgeted(), "{id}");
    }
}

#[test]
fn the_search_stops_when_told_and_repeats_at_a_fixed_depth() {
    for id in ids() {
        with_engine_game(id, StopsAndRepeats).unwrap();
    }
}

struct SmallTable;
impl EngineVisitor for SmallTable {
    type Output = ();
    /// One searcher with a 1 MiB table plays both (or all three) sides of random-ish games
    /// without `new_game` between them: entries of other positions and games fill the table
    /// and collide, and every move is still legal.
    fn visit<G: EngineGame>(self, game: &'static G) {
        let options = Options {
            hash_mb: 1,
            ..Options::default()
        };
        let mut player = Pvs::<G::Pos, G::Eval>::new(Some(3), G::POLICY, &options);
        let mut rng = Rng::new(3);
        for _ in 0..3 {
            let mut record = Record::new(game.start(&Settings::new()).unwrap());
            for ply in 0..40 {
                if record.outcome().is_some() {
                    break;
                }
                let moves = record.position().moves();
                // Random moves now and then, to reach varied positions.
                let mv = if ply % 3 == 0 {
                    moves[rng.below(moves.len())]
                } else {
                    player
                        .search(
                            &record,
                            &Limits::default(),
                            &Control::unlimited(),
                            &mut |_| {},
                        )
                        .unwrap()
                };
                assert!(moves.contains(&mv), "{}", game.info().id);
                record.play(mv).unwrap();
            }
        }
        // A new size is taken.
        player.configure(&Options {
            hash_mb: 2,
            ..options
        });
        player.new_game();
    }
}

#[test]
fn a_small_shared_table_never_gives_an_illegal_move() {
    for id in ids() {
        with_engine_game(id, SmallTable).unwrap();
    }
}

/// True if after `mv` the game is over by rule with a win for the opponent (in Epaminondas: a
/// crossing left unanswered).
fn loses_on_the_spot<P: Position>(pos: &P, mv: P::Move) -> bool {
    let mut after = pos.clone();
    after.make_move(mv);
    after.count_legal_moves() == 0
        && after
            .outcome_without_moves()
            .winner()
            .is_some_and(|w| w != pos.to_move())
}

struct AvoidsLosingMoves;
impl EngineVisitor for AvoidsLosingMoves {
    type Output = usize;
    /// Two players: where some moves lose on the spot and others do not, the search plays one
    /// that does not, even at depth 1.
    fn visit<G: EngineGame>(self, game: &'static G) -> usize {
        if game.info().players.len() != 2 {
            return 0;
        }
        let mut found = 0;
        scan(game, 31, 100, |record| {
            let pos = record.position();
            let moves = pos.moves();
            let losing = moves.iter().filter(|&&m| loses_on_the_spot(pos, m)).count();
            if losing == 0 || losing == moves.len() {
                return false;
            }
            found += 1;
            for depth in [1, 3] {
                let (mv, _) = search_at(&mut pvs::<G>(), record, depth);
                assert!(
                    !loses_on_the_spot(pos, mv),
                    "{pos}: depth {depth}: {} loses at once",
                    pos.move_text(mv)
                );
            }
            found >= 10
        });
        found
    }
}

#[test]
fn the_search_answers_a_crossing() {
    let found = with_engine_game("epaminondas", AvoidsLosingMoves).unwrap();
    assert!(
        found >= 5,
        "only {found} Epaminondas positions with a crossing to answer"
    );
    for id in ids() {
        with_engine_game(id, AvoidsLosingMoves).unwrap();
    }
}

/// A score as a number that orders like the score (mates beyond every centipawn score, a
/// quicker win above a slower one, a slower loss above a quicker one).
fn rank(score: Score) -> i64 {
    match score {
        Score::Cp(cp) => cp as i64,
        Score::Mate(n) if n > 0 => 1_000_000 - n as i64,
        Score::Mate(n) => -1_000_000 - n as i64,
    }
}

struct MultiPv;
impl EngineVisitor for MultiPv {
    type Output = usize;
    /// MultiPV 3 at depth 3 gives three lines with distinct first moves, best first, at every
    /// depth; the move played is line 1's, and MultiPV 1's move is one of the three.
    fn visit<G: EngineGame>(self, game: &'static G) -> usize {
        let id = game.info().id;
        let options = Options {
            multipv: 3,
            ..Options::default()
        };
        let mut checked = 0;
        let mut misses = Vec::new();
        scan(game, 11, 20, |record| {
            let pos = record.position();
            if pos.moves().len() < 3 || !wins_at_once(pos).is_empty() {
                return false;
            }
            checked += 1;
            let (single, _) = search_at(&mut pvs::<G>(), record, 3);
            let mut multi = Pvs::<G::Pos, G::Eval>::new(None, G::POLICY, &options);
            let (mv, reports) = search_at(&mut multi, record, 3);
            for depth in 1..=3 {
                let lines: Vec<&Report> = reports.iter().filter(|r| r.depth == depth).collect();
                assert_eq!(lines.len(), 3, "{id} {pos}: depth {depth}: {lines:?}");
                for (i, line) in lines.iter().enumerate() {
                    assert_eq!(line.multipv, i as u32 + 1, "{id} {pos}");
                    assert!(!line.pv.is_empty(), "{id} {pos}");
                }
                let firsts: HashSet<&String> = lines.iter().map(|r| &r.pv[0]).collect();
                assert_eq!(firsts.len(), 3, "{id} {pos}: depth {depth}: {lines:?}");
                for pair in lines.windows(2) {
                    assert!(
                        rank(pair[0].score) >= rank(pair[1].score),
                        "{id} {pos}: depth {depth}: {lines:?}"
                    );
                }
            }
            let last = reports.iter().rfind(|r| r.multipv == 1).unwrap();
            assert_eq!(last.pv[0], pos.move_text(mv), "{id} {pos}");
            // With forward pruning the lines searched before fill the table and set the windows
            // differently, so MultiPV 1's move need not be line 1, nor always one of the three
            // (the searches are deterministic: the count of those that are not is fixed).
            let finals: Vec<&String> = reports
                .iter()
                .filter(|r| r.depth == 3)
                .map(|r| &r.pv[0])
                .collect();
            if !finals.contains(&&pos.move_text(single)) {
                misses.push(format!(
                    "{pos}: MultiPV 1's move {} is not among MultiPV 3's lines {finals:?}",
                    pos.move_text(single)
                ));
            }
            checked >= 12
        });
        assert!(
            misses.len() * 4 <= checked,
            "{id}: in {} of {checked} positions: {misses:#?}",
            misses.len()
        );
        checked
    }
}

#[test]
fn multipv_gives_distinct_lines_best_first_and_plays_line_one() {
    for id in ids() {
        let checked = with_engine_game(id, MultiPv).unwrap();
        assert!(checked >= 12, "{id}: only {checked} positions");
    }
}

struct TwoThreads;
impl EngineVisitor for TwoThreads {
    type Output = usize;
    /// With two threads (Lazy SMP): a legal move in positions of random games at a fixed
    /// depth and at a short move time, a win on the spot taken, and `stop` obeyed at once.
    fn visit<G: EngineGame>(self, game: &'static G) -> usize {
        let id = game.info().id;
        let options = Options {
            threads: 2,
            ..Options::default()
        };
        let mut player = Pvs::<G::Pos, G::Eval>::new(None, G::POLICY, &options);
        let mut checked = 0;
        let mut wins = 0;
        scan(game, 23, 4, |record| {
            let pos = record.position();
            checked += 1;
            if checked % 9 != 0 {
                return false;
            }
            let (mv, reports) = search_at(&mut player, record, 4);
            assert!(pos.moves().contains(&mv), "{id} {pos}");
            // Depth 4, or less when a forced result was found sooner.
            let last = reports.last().expect("reports");
            assert!(
                last.depth <= 4 && last.pv[0] == pos.move_text(mv),
                "{id} {pos}"
            );
            let winning = wins_at_once(pos);
            if !winning.is_empty() {
                wins += 1;
                assert!(winning.contains(&mv), "{id} {pos}: {}", pos.move_text(mv));
            }
            let limits = Limits::movetime(Duration::from_millis(20));
            let control = Control::new(&limits, pos.to_move());
            let mv = player
                .search(record, &limits, &control, &mut |_| {})
                .unwrap();
            assert!(pos.moves().contains(&mv), "{id} {pos}");
            checked >= 9 * 20
        });
        assert!(checked >= 9 * 20, "{id}: only {checked} positions");
        // Wins on the spot, with a fresh player each time.
        scan(game, 7, 200, |record| {
            let pos = record.position();
            let winning = wins_at_once(pos);
            if winning.is_empty() {
                return false;
            }
            wins += 1;
            let mut fresh = Pvs::<G::Pos, G::Eval>::new(None, G::POLICY, &options);
            let (mv, reports) = search_at(&mut fresh, record, 3);
            assert!(winning.contains(&mv), "{id} {pos}: {}", pos.move_text(mv));
            assert_eq!(reports[0].score, Score::Mate(1), "{id} {pos}");
            wins >= 10
        });
        // An infinite search stops soon after `stop`.
        let mut record = Record::new(game.start(&Settings::new()).unwrap());
        let mut rng = Rng::new(3);
        for _ in 0..4 {
            let moves = record.position().moves();
            record.play(moves[rng.below(moves.len())]).unwrap();
        }
        let control = Control::unlimited();
        let stopper = control.clone();
        let handle = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(100));
            stopper.stop();
            Instant::now()
        });
        let infinite = Limits {
            infinite: true,
            ..Limits::default()
        };
        let mut reports = Vec::new();
        let mv = player
            .search(&record, &infinite, &control, &mut |r| {
                reports.push(r.clone())
            })
            .unwrap();
        let late = handle.join().unwrap().elapsed();
        assert!(
            late < Duration::from_millis(500),
            "{id}: two threads went on {late:?} after stop"
        );
        assert!(record.position().moves().contains(&mv), "{id}");
        assert!(!reports.is_empty(), "{id}");
        wins
    }
}

#[test]
fn two_threads_give_legal_moves_take_wins_and_stop() {
    for id in ids() {
        let wins = with_engine_game(id, TwoThreads).unwrap();
        assert!(
            wins > 0 || id == "epaminondas",
            "{id}: no position with a winning move found"
        );
    }
}

/// Epaminondas' capture search takes one capture of each enemy line below its first ply: the
/// groups of different sizes behind one head that take the same line are alternatives, and
/// searching them all made quiescence 95–99 % of the nodes. From this middle game of 24 plies,
/// depth 4 took 1 194 937 nodes with every group searched (commit d732621); with one capture a
/// line, 77 723. The tree to depth 4 follows the evaluation: 228 640 nodes with the first
/// piece-square table, 457 347 with the table fitted again (depth 3 took 37 174 against
/// 118 615, and depth 4 changes its best move), still well below every group searched.
#[test]
fn epaminondas_searches_one_capture_of_a_line_in_quiescence() {
    use myrmidon_engine::eval::EpaminondasEval;
    use myrmidon_rules::games::epaminondas::{Epaminondas, EpaminondasPosition};
    use myrmidon_rules::Game;
    let moves = "c2-b3 l11-m10 i2-c2 i12-i9 b1-b5 h12-h9 a1-a4 a11-i11 c1-c4 g12-g10 d1-d4 \
                 a12-i12 e1-e4 d12-g9 n2-i2 k12-g8 f1-f4 k11-k12 a3-l3 f11-i8 j3-c3 c11-f11 \
                 g1-g4 e11-i7";
    let mut record = Record::new(Epaminondas.start(&Settings::default()).unwrap());
    for m in moves.split_whitespace() {
        record.play_text(m).unwrap();
    }
    let mut s = Pvs::<EpaminondasPosition, EpaminondasEval>::new(
        None,
        Epaminondas::POLICY,
        &Options::default(),
    );
    let (_, reports) = search_at(&mut s, &record, 4);
    let nodes = reports.last().map(|r| r.nodes).unwrap();
    assert!(nodes < 600_000, "{nodes} nodes to depth 4");
    assert!(s.stats.quiescence_nodes > 0);
}
