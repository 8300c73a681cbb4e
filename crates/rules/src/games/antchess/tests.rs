use super::*;
use crate::game::perft;
use crate::game::PieceSets;
use crate::outcome::Reason;
use std::collections::BTreeSet;
use tables::tables;

#[test]
fn start_strings() {
    let p2 = AntChess2.start(&Settings::new()).unwrap();
    assert_eq!(p2.to_string(), "7/8/bA7rA/bA8rA/bWbA7rArW/bLbGbA6rArGrL/bQbBbA7rArBrQ/bLbGbA6rArGrL/bWbA7rArW/bA8rA/bA7rA/8/7 b 0 0 1");
    let p3 = AntChess3.start(&Settings::new()).unwrap();
    assert_eq!(p3.to_string(), "2rArArWrLrQ/4rArGrBrL/bA4rArArGrW/bA6rArArA/bWbA8rA/bLbGbA9/bQbBbA10/bLbGbA9/bWbA8gA/bA6gAgAgA/bA4gAgAgGgW/4gAgGgBgL/2gAgAgWgLgQ b 0 0 1");
}

#[test]
fn perft_shallow() {
    let mut p2 = AntChess2.start(&Settings::new()).unwrap();
    let mut p3 = AntChess3.start(&Settings::new()).unwrap();
    for (d, n) in [(1, 34), (2, 1162), (3, 42052)] {
        assert_eq!(perft(&mut p2, d), n, "2p depth {d}");
    }
    for (d, n) in [(1, 32), (2, 1029), (3, 33248)] {
        assert_eq!(perft(&mut p3, d), n, "3p depth {d}");
    }
}

/// Rows of a reference TSV: (position, depth, nodes).
fn tsv(text: &str) -> Vec<(String, u32, u64)> {
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (
                f[0].to_string(),
                f[1].parse().unwrap(),
                f[2].parse().unwrap(),
            )
        })
        .collect()
}

fn check_tsv<const N: usize, G: Game<Pos = AntChessPosition<N>>>(
    game: &G,
    text: &str,
    max_nodes: u64,
) -> usize {
    let mut run = 0;
    for (pos, depth, nodes) in tsv(text) {
        if nodes > max_nodes {
            continue;
        }
        let mut p = game.parse_position(&pos).unwrap();
        assert_eq!(perft(&mut p, depth), nodes, "{pos} depth {depth}");
        run += 1;
    }
    run
}

#[test]
fn perft_reference_antchess() {
    let n = check_tsv(&AntChess2, include_str!("testdata/antchess.tsv"), u64::MAX);
    assert_eq!(n, 5);
}

#[test]
fn perft_reference_antchess3() {
    let n = check_tsv(&AntChess3, include_str!("testdata/antchess3.tsv"), u64::MAX);
    assert_eq!(n, 5);
}

/// What random games met, to make sure the property tests reach the rare rules.
#[derive(Debug, Default)]
struct Seen {
    positions: usize,
    checks: usize,
    promotions: usize,
    worm_captures: usize,
    ladybird_multi: usize,
    queenless_to_move: usize,
    no_legal_move_3p: usize,
    ended: usize,
}

fn random_walk<const N: usize, G: Game<Pos = AntChessPosition<N>>>(
    game: &G,
    games: usize,
    plies: usize,
    seed: u64,
    check: bool,
) -> Seen {
    let mut rng = crate::testkit::Rng::new(seed);
    let mut seen = Seen::default();
    let start = game.start(&Settings::new()).unwrap();
    for _ in 0..games {
        let mut pos = start.clone();
        for _ in 0..plies {
            let moves = if check {
                crate::testkit::check_position(game, &pos, &slow::legal_texts)
            } else {
                let mut v = Vec::new();
                pos.legal_moves(&mut v);
                v
            };
            seen.positions += 1;
            let me = pos.to_move as usize;
            let q = pos.queens[me];
            if q == tables::NONE {
                seen.queenless_to_move += 1;
            } else if pos.attacked_by_opponents(me, q as usize) {
                seen.checks += 1;
                if moves.contains(&AntChessMove::PASS) {
                    seen.no_legal_move_3p += 1;
                }
            }
            for &m in &moves {
                if m.is_promotion() {
                    seen.promotions += 1;
                }
                let kind = m.from().and_then(|c| pos.piece(c)).map(|p| p.1);
                if kind == Some(AntChessKind::Worm) && m.is_capture() {
                    seen.worm_captures += 1;
                }
                if m.capture_bits().count_ones() >= 2 {
                    seen.ladybird_multi += 1;
                }
            }
            if moves.is_empty() {
                seen.ended += 1;
                break;
            }
            // Captures half of the time, so that games reach their ends.
            let captures: Vec<AntChessMove> = moves
                .iter()
                .copied()
                .filter(|m| m.capture_bits() != 0)
                .collect();
            let mv = if !captures.is_empty() && rng.below(2) == 0 {
                captures[rng.below(captures.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            pos.make_move(mv);
        }
    }
    seen
}

#[test]
fn random_games_antchess() {
    let seen = random_walk(&AntChess2, 4, 250, 1, true);
    assert!(seen.positions >= 400, "{seen:?}");
    assert!(
        seen.checks > 0 && seen.promotions > 0 && seen.worm_captures > 0,
        "{seen:?}"
    );
}

#[test]
fn random_games_antchess3() {
    let seen = random_walk(&AntChess3, 4, 250, 2, true);
    assert!(seen.positions >= 400, "{seen:?}");
    assert!(
        seen.checks > 0 && seen.promotions > 0 && seen.worm_captures > 0,
        "{seen:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// Scenarios built from the rules text.

/// A position string with the given pieces (`("g1", "bQ")`), the player to move and counters.
fn build(pieces: &[(&str, &str)], to_move: char, passes: u32, quiet: u32) -> String {
    let g = crate::geometry::hex::HexGrid::new(setup::RADIUS);
    let mut rows = Vec::new();
    for (_, cells) in g.rows() {
        let mut row = String::new();
        let mut run = 0;
        for c in cells {
            let name = g.name(c);
            match pieces.iter().find(|(n, _)| *n == name) {
                Some((_, p)) => {
                    if run > 0 {
                        row.push_str(&run.to_string());
                        run = 0;
                    }
                    row.push_str(p);
                }
                None => run += 1,
            }
        }
        if run > 0 {
            row.push_str(&run.to_string());
        }
        rows.push(row);
    }
    format!("{} {to_move} {passes} {quiet} 10", rows.join("/"))
}

fn texts<const N: usize>(pos: &AntChessPosition<N>) -> Vec<String> {
    let mut v = Vec::new();
    pos.legal_moves(&mut v);
    let mut t: Vec<String> = v.iter().map(|&m| pos.move_text(m)).collect();
    t.sort();
    t
}

/// The moves of the piece on `from`, sorted.
fn moves_from<const N: usize>(pos: &AntChessPosition<N>, from: &str) -> Vec<String> {
    texts(pos)
        .into_iter()
        .filter(|t| t.starts_with(&format!("{from}-")))
        .collect()
}

fn sorted(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// Parses, checks against the slow generator, and returns the position.
fn pos2(pieces: &[(&str, &str)], to_move: char) -> AntChessPosition<2> {
    let p = AntChess2
        .parse_position(&build(pieces, to_move, 0, 0))
        .unwrap();
    crate::testkit::check_position(&AntChess2, &p, &slow::legal_texts);
    p
}

fn pos3(pieces: &[(&str, &str)], to_move: char) -> AntChessPosition<3> {
    let p = AntChess3
        .parse_position(&build(pieces, to_move, 0, 0))
        .unwrap();
    crate::testkit::check_position(&AntChess3, &p, &slow::legal_texts);
    p
}

fn play<const N: usize>(pos: &AntChessPosition<N>, text: &str) -> AntChessPosition<N> {
    let mut p = pos.clone();
    let m = p.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    p.make_move(m);
    p
}

#[test]
fn ladybird_figure_6_blocked_by_a_friend() {
    // The Ladybird on g8 turns round the Beetle on g7; a red Warrior (f6) and a red
    // Grasshopper (h6) stand on the ring, a black Warrior on g6 blocks: one sense or the other.
    let base = [
        ("a1", "bQ"),
        ("c1", "rQ"),
        ("g7", "bB"),
        ("g8", "bL"),
        ("f6", "rA"),
        ("h6", "rG"),
    ];
    let mut blocked = base.to_vec();
    blocked.push(("g6", "bA"));
    let pb = pos2(&blocked, 'b');
    assert_eq!(
        moves_from(&pb, "g8"),
        sorted(&["g8-f7", "g8-f6xf6", "g8-h7", "g8-h6xh6"])
    );
    // Without the blocker it sweeps both, and may stop anywhere on the ring; the same
    // destination with different captured sets gives different moves.
    let p = pos2(&base, 'b');
    assert_eq!(
        moves_from(&p, "g8"),
        sorted(&[
            "g8-f7",
            "g8-f7xf6,h6",
            "g8-f6xf6",
            "g8-f6xf6,h6",
            "g8-g6xf6",
            "g8-g6xh6",
            "g8-h6xh6",
            "g8-h6xf6,h6",
            "g8-h7",
            "g8-h7xf6,h6",
        ])
    );
    let after = play(&p, "g8-h7xf6,h6");
    assert_eq!(after.piece_at(cell("f6")), None);
    assert_eq!(after.piece_at(cell("h6")), None);
    assert_eq!(
        after.piece_at(cell("g7")).unwrap().kind,
        'B',
        "the pivot stays"
    );
    // Without its capture list a move is read when unambiguous, not otherwise.
    assert_eq!(
        pb.parse_move("g8-f6").unwrap(),
        pb.parse_move("g8-f6xf6").unwrap()
    );
    let e = p.parse_move("g8-g6").unwrap_err();
    assert!(e.to_string().contains("ambiguous"), "{e}");
    // An impossible capture list is refused.
    let e = p.parse_move("g8-f7xf6").unwrap_err();
    assert!(e.to_string().contains("captures exactly"), "{e}");
}

#[test]
fn ladybird_moves_round_two_pivots_are_merged() {
    // Pivots g7 and f7 share the neighbours g8 (the Ladybird) and f8: the one-step move to f8
    // is the same move whichever pivot it turns round.
    let p = pos2(
        &[
            ("a1", "bQ"),
            ("m7", "rQ"),
            ("g7", "bA"),
            ("f7", "bA"),
            ("g8", "bL"),
        ],
        'b',
    );
    let m = moves_from(&p, "g8");
    assert_eq!(m.iter().filter(|t| *t == "g8-f8").count(), 1, "{m:?}");
}

fn cell(name: &str) -> Cell {
    tables().grid.parse(name).unwrap()
}

#[test]
fn worm_check_figure_7_and_its_parry() {
    // The black Worm on g1 runs along row g to g13: the red Queen on g9 is the only enemy on
    // that trajectory, so she is in check.
    let pieces = [("g1", "bW"), ("f6", "bQ"), ("g9", "rQ"), ("f5", "rA")];
    let p = pos2(&pieces, 'r');
    assert!(p
        .info_messages()
        .iter()
        .any(|l| l.key == "antchess-info-check"));
    let legal = texts(&p);
    assert!(!legal.contains(&"pass".to_string()), "no pass in check");
    assert!(legal.contains(&"f5-g5".to_string()), "{legal:?}");
    assert!(
        !legal.contains(&"f5-f4".to_string()),
        "f5-f4 leaves the Queen in check"
    );
    // A second red piece on the trajectory parries: two enemies block the Worm.
    let parried = play(&p, "f5-g5");
    assert!(!moves_from(&parried, "g1")
        .iter()
        .any(|t| t.starts_with("g1-g13")));
    assert!(!parried.attacked_by_opponents(1, cell("g9") as usize));
    // Stepping back lets the black Queen found her anthill.
    let back = play(&p, "g9-h9");
    let won = play(&back, "f6-g7");
    assert_eq!(
        won.outcome(),
        Some(Outcome::Win {
            winner: 0,
            reason: super::outcome::ANTHILL
        })
    );
    assert_eq!(won.count_legal_moves(), 0);
    // With a free path and an empty g13, the Worm takes a lone enemy on its way.
    let q = pos2(
        &[
            ("g1", "bW"),
            ("a1", "bQ"),
            ("m7", "rQ"),
            ("g5", "rA"),
            ("g3", "bA"),
        ],
        'b',
    );
    assert!(moves_from(&q, "g1").contains(&"g1-g13xg5".to_string()));
    // The destination must be empty.
    let q = pos2(
        &[
            ("g1", "bW"),
            ("a1", "bQ"),
            ("m7", "rQ"),
            ("g5", "rA"),
            ("g13", "rA"),
        ],
        'b',
    );
    assert!(!moves_from(&q, "g1").iter().any(|t| t.starts_with("g1-g13")));
}

#[test]
fn worm_runs_along_its_edge() {
    let p = pos2(
        &[("g1", "bW"), ("d5", "bQ"), ("a7", "rQ"), ("d1", "rA")],
        'b',
    );
    let m = moves_from(&p, "g1");
    // Along the W–NW edge: f1, e1, then over the red Warrior on d1 to c1, b1, a1.
    for t in ["g1-f1", "g1-e1", "g1-c1xd1", "g1-b1xd1", "g1-a1xd1"] {
        assert!(m.contains(&t.to_string()), "{t} in {m:?}");
    }
    assert!(
        !m.contains(&"g1-d1xd1".to_string()),
        "never captures on its destination"
    );
    // Along the W–SW edge every cell, and across row g to g13.
    for t in ["g1-h1", "g1-m1", "g1-g13"] {
        assert!(m.contains(&t.to_string()), "{t} in {m:?}");
    }
}

#[test]
fn superant_blocked_and_capturing() {
    let p = pos2(
        &[
            ("a1", "bQ"),
            ("m7", "rQ"),
            ("g7", "bS"),
            ("g8", "bA"), // E: a friend blocks both cells
            ("f7", "rA"), // NE: an enemy is captured, and stops the 2-cell move
            ("e5", "rG"), // NW: f6 empty, then an enemy two cells away
            ("i5", "bA"), // SW: h6 empty, then a friend
        ],
        'b',
    );
    assert_eq!(
        moves_from(&p, "g7"),
        sorted(&["g7-f7xf7", "g7-f6", "g7-e5xe5", "g7-g6", "g7-g5", "g7-h6", "g7-h7", "g7-i7",])
    );
}

#[test]
fn warrior_promotion() {
    let p = pos2(
        &[
            ("g1", "bQ"),
            ("m7", "rQ"),
            ("f11", "bA"),
            ("d9", "bA"),
            ("c9", "rA"),
        ],
        'b',
    );
    let m = moves_from(&p, "f11");
    assert_eq!(m, sorted(&["f11-f12=S", "f11-e11=S", "f11-g12"]));
    assert!(moves_from(&p, "d9").contains(&"d9-c9xc9=S".to_string()));
    let q = play(&p, "d9-c9xc9=S");
    assert_eq!(q.piece_at(cell("c9")).unwrap().kind, 'S');
    assert_eq!(q.quiet_plies(), 0);
    // "=S" may be left out; a promotion mark on another move is refused.
    assert_eq!(
        p.parse_move("f11-f12").unwrap(),
        p.parse_move("f11-f12=S").unwrap()
    );
    assert!(p.parse_move("f11-g12=S").is_err());
    // Three players: Green's Warriors step NW, NE or W and promote on the two edges at a1.
    let p = pos3(
        &[
            ("a7", "rQ"),
            ("m7", "gQ"),
            ("g13", "bQ"),
            ("h2", "gA"),
            ("b2", "gA"),
        ],
        'g',
    );
    assert_eq!(moves_from(&p, "h2"), sorted(&["h2-g2", "h2-g3", "h2-h1"]));
    assert_eq!(
        moves_from(&p, "b2"),
        sorted(&["b2-a1=S", "b2-a2=S", "b2-b1=S"])
    );
}

#[test]
fn anthill_refused_when_attacked_and_won_when_not() {
    let free = [("f6", "bQ"), ("g13", "rQ")];
    let p = pos2(&free, 'b');
    assert!(texts(&p).contains(&"f6-g7".to_string()));
    let won = play(&p, "f6-g7");
    assert_eq!(
        won.outcome(),
        Some(Outcome::Win {
            winner: 0,
            reason: super::outcome::ANTHILL
        })
    );
    assert!(texts(&won).is_empty());
    // A red Grasshopper two cells from g7 attacks the centre: the Queen may not go there.
    let p = pos2(&[("f6", "bQ"), ("g13", "rQ"), ("e7", "rG")], 'b');
    assert!(!texts(&p).contains(&"f6-g7".to_string()));
    // Three players: Black's Queen stands on g7 attacked (Black had no legal move); Black
    // wins as soon as Black ends a move with her there unattacked (here by taking the
    // attacker), not before.
    let p = pos3(
        &[
            ("g7", "bQ"),
            ("a7", "rQ"),
            ("m7", "gQ"),
            ("e7", "rG"),
            ("e5", "bG"),
        ],
        'b',
    );
    assert_eq!(p.outcome(), None);
    assert!(!texts(&p).contains(&"pass".to_string()));
    let won = play(&p, "e5-e7xe7");
    assert_eq!(
        won.outcome(),
        Some(Outcome::Win {
            winner: 0,
            reason: super::outcome::ANTHILL
        })
    );
    // Brought there attacked by the player who just moved: no win.
    let p = pos3(
        &[("g7", "bQ"), ("a7", "rQ"), ("m7", "gQ"), ("e7", "rG")],
        'r',
    );
    assert_eq!(p.outcome(), None);
    assert!(!texts(&p).is_empty());
}

#[test]
fn checkmate_two_players() {
    // The red Queen in her corner: the Beetle checks along row g and covers g12, the
    // Grasshoppers cover f12 and h12.
    let p = pos2(
        &[
            ("g13", "rQ"),
            ("g10", "bB"),
            ("f10", "bG"),
            ("h10", "bG"),
            ("g1", "bQ"),
        ],
        'r',
    );
    assert!(texts(&p).is_empty());
    assert_eq!(p.count_legal_moves(), 0);
    assert_eq!(
        p.outcome(),
        Some(Outcome::Win {
            winner: 0,
            reason: Reason::CHECKMATE
        })
    );
    // Take the f12 guard away: the Queen escapes there, and it is not mate.
    let p = pos2(
        &[("g13", "rQ"), ("g10", "bB"), ("h10", "bG"), ("g1", "bQ")],
        'r',
    );
    assert_eq!(texts(&p), sorted(&["g13-f12"]));
    assert_eq!(p.outcome(), None);
}

#[test]
fn three_players_no_legal_move_queen_captured_and_play_on() {
    // Black's Queen on g1 is in check from the red Beetle and every escape is attacked:
    // Black plays on with any move of her pieces, or passes.
    let p = pos3(
        &[
            ("g1", "bQ"),
            ("g5", "rB"),
            ("e2", "gG"),
            ("h3", "gG"),
            ("a7", "rQ"),
            ("m7", "gQ"),
        ],
        'b',
    );
    assert_eq!(texts(&p), sorted(&["g1-f1", "g1-g2", "g1-h1", "pass"]));
    assert_eq!(p.outcome(), None);
    // Red takes the Queen; Black has no Queen but plays on, and nobody has won.
    let q = play(&play(&p, "pass"), "g5-g1xg1");
    assert_eq!(q.outcome(), None);
    let captured = crate::game::InfoLine::new(
        "antchess-info-queen-captured",
        vec![("player", crate::game::InfoArg::Player(0))],
    );
    assert!(q.info_messages().iter().any(|l| matches!(
        l.arg("queens"),
        Some(crate::game::InfoArg::Lines(queens)) if queens.contains(&captured)
    )));
    let q = play(&q, "pass"); // Green
    assert_eq!(q.to_move(), 0);
    assert_eq!(texts(&q), sorted(&["pass"]), "no pieces: Black only passes");
    // A queenless Black Grasshopper ignores queen safety and keeps playing.
    let p = pos3(
        &[("g4", "bG"), ("a7", "rQ"), ("m7", "gQ"), ("l6", "rB")],
        'b',
    );
    assert!(texts(&p).len() > 1);
    assert_eq!(p.outcome(), None);
}

#[test]
fn three_players_last_queen_and_no_queen() {
    // Red (no Queen) sweeps both remaining Queens with one Ladybird move: a draw.
    let p = pos3(
        &[("g8", "rL"), ("g7", "rA"), ("f7", "bQ"), ("f6", "gQ")],
        'r',
    );
    let end = play(&p, "g8-f6xf6,f7");
    assert_eq!(
        end.outcome(),
        Some(Outcome::Draw {
            reason: super::outcome::NO_QUEENS
        })
    );
    assert!(texts(&end).is_empty());
    // Taking only the black Queen leaves Green's alone: Green wins.
    let end = play(&p, "g8-f7xf7");
    assert_eq!(
        end.outcome(),
        Some(Outcome::Win {
            winner: 2,
            reason: super::outcome::LAST_QUEEN
        })
    );
    assert_eq!(end.count_legal_moves(), 0);
}

#[test]
fn draws_by_passes_counters_and_repetition() {
    let s = build(&[("g1", "bQ"), ("g13", "rQ")], 'b', 1, 99);
    let p = AntChess2.parse_position(&s).unwrap();
    let q = play(&p, "pass");
    assert_eq!(
        q.outcome(),
        Some(Outcome::Draw {
            reason: Reason::PASSES
        })
    );
    assert!(!texts(&q).is_empty(), "perft ignores the pass draw");
    let q = play(&p, "g1-g2");
    assert_eq!(
        q.outcome(),
        Some(Outcome::Draw {
            reason: Reason::NO_PROGRESS
        })
    );
    assert_eq!(q.quiet_plies(), 100);
    // Three players: three passes; 150 quiet plies.
    let s = build(&[("g1", "bQ"), ("a7", "rQ"), ("m7", "gQ")], 'r', 2, 149);
    let p = AntChess3.parse_position(&s).unwrap();
    assert_eq!(p.outcome(), None);
    let q = play(&p, "pass");
    assert_eq!(
        q.outcome(),
        Some(Outcome::Draw {
            reason: Reason::PASSES
        })
    );
    let q = play(&p, "a7-a6");
    assert_eq!(
        q.outcome(),
        Some(Outcome::Draw {
            reason: Reason::NO_PROGRESS
        })
    );
    // Repetition, through a game record.
    let mut rec = crate::record::Record::new(AntChess2.start(&Settings::new()).unwrap());
    for _ in 0..2 {
        for m in ["f2-e3", "f11-e9", "e3-f2", "e9-f11"] {
            assert_eq!(rec.outcome(), None);
            rec.play_text(m).unwrap();
        }
    }
    assert_eq!(
        rec.outcome(),
        Some(Outcome::Draw {
            reason: Reason::REPETITION
        })
    );
}

// ---------------------------------------------------------------------------------------------
// Bad input.

fn err2(text: &str) -> PositionError {
    AntChess2
        .parse_position(text)
        .expect_err(&format!("should be refused: {text}"))
}

fn err3(text: &str) -> PositionError {
    AntChess3
        .parse_position(text)
        .expect_err(&format!("should be refused: {text}"))
}

const START2: &str = "7/8/bA7rA/bA8rA/bWbA7rArW/bLbGbA6rArGrL/bQbBbA7rArBrQ/bLbGbA6rArGrL/bWbA7rArW/bA8rA/bA7rA/8/7 b 0 0 1";

#[test]
fn bad_position_strings() {
    let cases: Vec<(String, &str, &str)> = vec![
        ("".into(), "fields", "5 fields"),
        (START2.replace(" 1", ""), "fields", "5 fields"),
        (format!("{START2} x"), "fields", "5 fields"),
        (START2.replacen("7/8/", "7/", 1), "placement", "13 rows"),
        (
            START2.replacen("7/8/", "6/8/", 1),
            "placement",
            "row a has 6 cells, expected 7",
        ),
        (
            START2.replacen("7/8/", "8/8/", 1),
            "placement",
            "row a has at least 8 cells, expected 7",
        ),
        (
            START2.replacen("7/8/", "7/8bA/", 1),
            "placement",
            "row b has at least 9 cells, expected 8",
        ),
        (
            START2.replacen("7/8/", "0/8/", 1),
            "placement",
            "row a: \"0\" is not a run of empty cells",
        ),
        (
            START2.replacen("7/8/", "99999999999999999999999/8/", 1),
            "placement",
            "is not a run of empty cells",
        ),
        (
            START2.replacen("7/8/", "xA6/8/", 1),
            "placement",
            "row a: unexpected 'x' (expected a number of empty cells or a piece: an owner b or r then a kind",
        ),
        (
            START2.replacen("7/8/", "gA6/8/", 1),
            "placement",
            "unexpected 'g'",
        ),
        (
            START2.replacen("7/8/", "bX6/8/", 1),
            "placement",
            "unknown piece kind",
        ),
        (
            START2.replacen("7/8/", "6b/8/", 1),
            "placement",
            "not followed by a piece kind",
        ),
        (
            START2.replacen("7/8/", "bQ6/8/", 1),
            "placement",
            "two Queens",
        ),
        (
            START2.replacen("/bA7rA/bA8rA/", "/bA7rA/1bW7rA/", 1),
            "placement",
            "off the edge",
        ),
        (START2.replace("rQ", "rB"), "placement", "r has no Queen"),
        (
            START2.replace(" b 0 0 1", " g 0 0 1"),
            "side to move",
            "expected one of b, r",
        ),
        (
            START2.replace(" b 0 0 1", " B 0 0 1"),
            "side to move",
            "expected one of b, r",
        ),
        (
            START2.replace(" b 0 0 1", " b -1 0 1"),
            "passes",
            "whole number",
        ),
        (
            START2.replace(" b 0 0 1", " b 0 x 1"),
            "quiet plies",
            "whole number",
        ),
        (
            START2.replace(" b 0 0 1", " b 0 0 0"),
            "move number",
            "at least 1",
        ),
        (
            START2.replace(" b 0 0 1", " b 0 0 99999999999999999999"),
            "move number",
            "too large",
        ),
        (
            START2.replace(" b 0 0 1", " b 3 2 1"),
            "passes",
            "cannot exceed",
        ),
        // Black to move, but Red's Queen is attacked by the black Grasshopper on e7.
        (
            build(&[("g1", "bQ"), ("g7", "rQ"), ("e7", "bG")], 'b', 0, 0),
            "placement",
            "(not to move) is attacked on g7",
        ),
    ];
    for (text, field, words) in cases {
        let e = err2(&text);
        assert_eq!(e.field, field, "{text}: {e}");
        assert!(
            e.to_string().contains(words),
            "{text}: {e} (expected {words:?})"
        );
    }
    // Three players: "g" is an owner, a missing Queen is fine, two Queens are not.
    let start3 = AntChess3.start(&Settings::new()).unwrap().to_string();
    assert!(AntChess3
        .parse_position(&start3.replace("gQ", "gB"))
        .is_ok());
    assert!(AntChess3
        .parse_position(&start3.replace(" b 0 0 1", " g 0 0 1"))
        .is_ok());
    assert!(err3(&start3.replace("gB", "gQ"))
        .message
        .contains("two Queens"));
    assert!(err3(&start3.replace(" b 0 0 1", " x 0 0 1"))
        .message
        .contains("b, r, g"));
    // Accepted although unreachable: extra pieces, a Warrior on its promotion edge, the mover's
    // Queen on g7; a finished position has no moves.
    let odd = build(
        &[("g1", "bQ"), ("g13", "rQ"), ("a7", "bA"), ("a6", "bA")],
        'b',
        0,
        0,
    );
    assert!(AntChess2.parse_position(&odd).is_ok());
    let on_hill = build(&[("g7", "bQ"), ("a7", "rQ")], 'b', 0, 0);
    let p = AntChess2.parse_position(&on_hill).unwrap();
    assert_eq!(p.outcome(), None);
    assert_eq!(
        play(&p, "pass").outcome().map(|o| o.reason()),
        Some(super::outcome::ANTHILL)
    );
    let done = build(&[("g7", "bQ"), ("a7", "rQ")], 'r', 0, 0);
    let p = AntChess2.parse_position(&done).unwrap();
    assert_eq!(p.count_legal_moves(), 0);
    assert_eq!(p.parse_move("a7-a6"), Err(MoveError::GameOver));
}

#[test]
fn bad_move_texts() {
    let p = AntChess2.start(&Settings::new()).unwrap();
    for bad in [
        "", "g3", "g3g4", "g3-", "-g4", "g3-z9", "g3-g4x", "g3-g4xq1", "g3-g4=Q", "PASS",
        "g3-g4-g5",
    ] {
        assert!(
            matches!(p.parse_move(bad), Err(MoveError::Malformed { .. })),
            "{bad}: {:?}",
            p.parse_move(bad)
        );
    }
    let illegal = |t: &str, words: &str| {
        let e = p.parse_move(t).unwrap_err();
        assert!(matches!(e, MoveError::Illegal { .. }), "{t}: {e}");
        assert!(
            e.to_string().contains(words),
            "{t}: {e} (expected {words:?})"
        );
    };
    illegal("g7-g8", "g7 is empty");
    illegal("g13-g12", "not yours");
    illegal("g3-g5", "no legal move to g5");
    illegal("g3-g4xg4", "captures exactly");
    illegal("g3-g4=S", "promotes only on its far edges");
    illegal("g2-g3", "no legal move");
    assert_eq!(
        p.parse_move(" g3-g4 ").map(|m| p.move_text(m)),
        Ok("g3-g4".into())
    );
    assert_eq!(p.parse_move("pass"), Ok(AntChessMove::PASS));
}

#[test]
fn registry_and_dynamic_layer() {
    for (id, players, moves) in [("antchess", 2, 34), ("antchess3", 3, 32)] {
        let game = crate::registry::find(id).unwrap();
        assert_eq!(game.info().players.len(), players);
        let mut rec = game.new_game(&Settings::new()).unwrap();
        assert_eq!(rec.legal_moves().len(), moves);
        assert_eq!(
            crate::testkit::perft_of(rec.as_ref(), 2),
            if players == 2 { 1162 } else { 1029 }
        );
        let g = game.info().geometry;
        let q = rec.piece_at(g.parse_cell("g1").unwrap()).unwrap();
        assert_eq!((q.owner, q.kind), (0, 'Q'));
        let d = rec.play("g3-g4").unwrap();
        assert_eq!(d.cells.from, g.parse_cell("g3"));
        assert_eq!(d.cells.to, g.parse_cell("g4"));
        assert_eq!(rec.to_move(), 1);
        assert!(rec
            .info_messages()
            .iter()
            .any(|l| l.key == "antchess-info-quiet"
                && l.arg("count") == Some(&crate::game::InfoArg::Number(0))));
        assert!(rec.play("g4-g6").is_err());
        assert!(rec.undo());
        let back = game.new_game_at(&rec.position_string()).unwrap();
        assert_eq!(back.hash(), rec.hash());
    }
}

/// A longer run of the random cross-check (about a minute):
/// `cargo test -p myrmidon-rules random_games_long -- --ignored --nocapture`.
#[test]
#[ignore]
fn random_games_long() {
    for seed in 10..16 {
        println!("{:?}", random_walk(&AntChess2, 6, 300, seed, true));
        println!("{:?}", random_walk(&AntChess3, 6, 300, seed, true));
    }
}

/// A random position: each cell holds a random piece with probability `density`% (Worms only
/// on edge cells, at most one Queen per player; in 2 players both Queens).
fn random_position(rng: &mut crate::testkit::Rng, players: usize, density: usize) -> String {
    let g = crate::geometry::hex::HexGrid::new(setup::RADIUS);
    let owners = ['b', 'r', 'g'];
    let kinds = ['A', 'S', 'B', 'G', 'L', 'W', 'L', 'W'];
    let mut pieces: Vec<(String, String)> = Vec::new();
    let mut queens = [false; 3];
    for c in 0..g.cell_count() as Cell {
        if rng.below(100) >= density {
            continue;
        }
        let o = rng.below(players);
        let mut k = kinds[rng.below(kinds.len())];
        if !queens[o] && rng.below(8) == 0 {
            queens[o] = true;
            k = 'Q';
        }
        if k == 'W' && !g.is_edge(c) {
            k = 'L';
        }
        pieces.push((g.name(c), format!("{}{k}", owners[o])));
    }
    // Both Queens in 2 players: put the missing ones on free cells.
    for (o, has) in queens.iter().enumerate().take(players) {
        if !has && (players == 2 || rng.below(2) == 0) {
            loop {
                let name = g.name(rng.below(g.cell_count()) as Cell);
                if !pieces.iter().any(|(n, _)| *n == name) {
                    pieces.push((name, format!("{}Q", owners[o])));
                    break;
                }
            }
        }
    }
    let refs: Vec<(&str, &str)> = pieces
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    build(&refs, owners[rng.below(players)], 0, 0)
}

fn random_positions<const N: usize, G: Game<Pos = AntChessPosition<N>>>(
    game: &G,
    count: usize,
    seed: u64,
) -> usize {
    let mut rng = crate::testkit::Rng::new(seed);
    let mut checked = 0;
    let mut tried = 0;
    while checked < count {
        tried += 1;
        assert!(tried < 20 * count, "too many refused positions");
        let density = 20 + rng.below(40);
        let text = random_position(&mut rng, game.info().players.len(), density);
        let Ok(mut pos) = game.parse_position(&text) else {
            continue; // 2 players: the Queen not to move is attacked
        };
        for _ in 0..4 {
            let moves = crate::testkit::check_position(game, &pos, &slow::legal_texts);
            checked += 1;
            if moves.is_empty() {
                break;
            }
            pos.make_move(moves[rng.below(moves.len())]);
        }
    }
    checked
}

#[test]
fn random_positions_antchess() {
    assert!(random_positions(&AntChess2, 300, 5) >= 300);
}

#[test]
fn random_positions_antchess3() {
    assert!(random_positions(&AntChess3, 300, 6) >= 300);
}

#[test]
fn ladybird_check_through_a_sweep() {
    // The red Ladybird on f7 turns round the black Beetle on f6: f7, e6, e5, f5 sweeps the
    // black Warrior on e6 and reaches the black Queen on f5 (the other way round is closed by
    // the red Warrior on g7). Black's own pieces do not shield the Queen.
    let p = pos2(
        &[
            ("f5", "bQ"),
            ("f6", "bB"),
            ("e6", "bA"),
            ("f7", "rL"),
            ("g7", "rA"),
            ("m7", "rQ"),
        ],
        'b',
    );
    assert!(p.attacked_by_opponents(0, cell("f5") as usize));
    let legal = texts(&p);
    assert!(!legal.contains(&"pass".to_string()));
    // Taking the pivot away parries; so does taking the Ladybird.
    assert!(legal
        .iter()
        .any(|t| t.starts_with("f6-") && t != "f6-f7xf7"));
    assert!(legal.contains(&"f6-f7xf7".to_string()));
    // The Warrior on the arc does not block it: its only legal move takes the Ladybird.
    let warrior: Vec<&String> = legal.iter().filter(|t| t.starts_with("e6-")).collect();
    assert_eq!(warrior, ["e6-f7xf7"]);
    // The Queen may not step to e5, also on the arc.
    assert!(!legal.contains(&"f5-e5".to_string()));
}

#[test]
fn mutated_input_never_panics() {
    let mut rng = crate::testkit::Rng::new(99);
    let alphabet: Vec<char> = "brgQASBGLWqx0123456789/ -=,pasmn\u{e9}".chars().collect();
    let parse2 = |t: &str| AntChess2.parse_position(t).is_ok();
    let parse3 = |t: &str| AntChess3.parse_position(t).is_ok();
    let start3 = AntChess3.start(&Settings::new()).unwrap().to_string();
    type Parse<'a> = &'a dyn Fn(&str) -> bool;
    let games: [(Parse, &str); 2] = [(&parse2, START2), (&parse3, &start3)];
    for (game, start) in games {
        for _ in 0..3000 {
            let mut chars: Vec<char> = start.chars().collect();
            for _ in 0..1 + rng.below(3) {
                let i = rng.below(chars.len() + 1);
                let c = alphabet[rng.below(alphabet.len())];
                match rng.below(3) {
                    0 if i < chars.len() => chars[i] = c,
                    1 if i < chars.len() => {
                        chars.remove(i);
                    }
                    _ => chars.insert(i, c),
                }
            }
            let text: String = chars.into_iter().collect();
            game(&text);
        }
    }
    let p = AntChess2.start(&Settings::new()).unwrap();
    for _ in 0..3000 {
        let len = rng.below(12);
        let text: String = (0..len)
            .map(|_| alphabet[rng.below(alphabet.len())])
            .collect();
        let _ = p.parse_move(&text);
    }
}

// ---------------------------------------------------------------------------------------------
// The search-facing surface: tactics, tactical generation, move codes, draws, hash.

/// Positions to check: along random games (captures half of the time, so that games reach
/// Ladybird sweeps, promotions and lost Queens) and after random dense positions.
fn sample_positions<const N: usize, G: Game<Pos = AntChessPosition<N>>>(
    game: &G,
    seed: u64,
    games: usize,
    dense: usize,
) -> Vec<AntChessPosition<N>> {
    let mut rng = crate::testkit::Rng::new(seed);
    let mut out = Vec::new();
    let start = game.start(&Settings::new()).unwrap();
    let walk = |pos: &mut AntChessPosition<N>,
                plies: usize,
                rng: &mut crate::testkit::Rng,
                out: &mut Vec<AntChessPosition<N>>| {
        for _ in 0..plies {
            out.push(pos.clone());
            let moves = pos.moves();
            if moves.is_empty() {
                break;
            }
            let captures: Vec<AntChessMove> =
                moves.iter().copied().filter(|m| m.is_capture()).collect();
            let mv = if !captures.is_empty() && rng.below(2) == 0 {
                captures[rng.below(captures.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            pos.make_move(mv);
        }
    };
    for _ in 0..games {
        let mut pos = start.clone();
        walk(&mut pos, 200, &mut rng, &mut out);
    }
    let mut made = 0;
    while made < dense {
        let density = 20 + rng.below(40);
        let text = random_position(&mut rng, N, density);
        if let Ok(mut pos) = game.parse_position(&text) {
            walk(&mut pos, 4, &mut rng, &mut out);
            made += 1;
        }
    }
    out
}

/// What a move does, found the slow way: its cells, the pieces on them, and the position
/// after it. `wins` is a win by rule at once (anthill, last Queen); checkmate is not counted.
fn slow_tactics<const N: usize>(pos: &AntChessPosition<N>, mv: AntChessMove) -> Tactics {
    let cells = pos.move_cells(mv);
    let mut taken_kinds = 0u16;
    for &c in &cells.captures {
        let view = pos.piece_at(c).expect("a captured cell holds a piece");
        assert_ne!(
            view.owner,
            pos.to_move(),
            "{pos}: {mv:?} takes its own piece"
        );
        let i = PIECES.iter().position(|k| k.letter == view.kind).unwrap();
        taken_kinds |= 1 << i;
    }
    let mut after = pos.clone();
    after.make_move(mv);
    let promotion = match (cells.from, cells.to) {
        (Some(f), Some(t)) if pos.piece_at(f).unwrap().kind != after.piece_at(t).unwrap().kind => {
            Some(PIECES.iter().position(|k| k.letter == 'S').unwrap() as u8)
        }
        _ => None,
    };
    let wins = after.count_legal_moves() == 0
        && matches!(after.outcome_without_moves(),
            Outcome::Win { winner, reason } if winner == pos.to_move() && reason != Reason::CHECKMATE);
    Tactics {
        captures: cells.captures.len() as u8,
        taken_kinds,
        promotion,
        wins,
    }
}

/// Tactics, tactical generation, move codes and the draw check over the sample positions.
fn check_search_surface<const N: usize, G: Game<Pos = AntChessPosition<N>>>(
    game: &G,
    seed: u64,
) -> [usize; 4] {
    let positions = sample_positions(game, seed, 6, 60);
    // How many positions, tactical moves, winning moves and multi-capture moves were seen.
    let mut seen = [positions.len(), 0, 0, 0];
    for (i, pos) in positions.iter().enumerate() {
        let moves = pos.moves();
        assert_eq!(moves.len() as u64, pos.count_legal_moves(), "{pos}");
        let mut tactical = BTreeSet::new();
        for &mv in moves.iter() {
            let fast = pos.tactics(mv);
            assert_eq!(fast, slow_tactics(pos, mv), "{pos}: {}", pos.move_text(mv));
            if fast.is_tactical() {
                tactical.insert(mv.code());
                seen[1] += 1;
            }
            seen[2] += fast.wins as usize;
            seen[3] += (fast.captures >= 2) as usize;
        }
        let mut gen = Vec::new();
        pos.generate_tactical(&mut gen);
        let gen_set: BTreeSet<u32> = gen.iter().map(|m| m.code()).collect();
        assert_eq!(gen_set.len(), gen.len(), "{pos}: a tactical move twice");
        assert_eq!(gen_set, tactical, "{pos}: tactical generation");

        // Codes: distinct, and each reads back to its move.
        let codes: BTreeSet<u32> = moves.iter().map(|&m| pos.move_code(m)).collect();
        assert_eq!(codes.len(), moves.len(), "{pos}: two moves share a code");
        for &mv in moves.iter() {
            assert_eq!(pos.move_from_code(pos.move_code(mv)), Some(mv), "{pos}");
        }
        // Codes of other positions (and of the same squares in other games) give legal moves
        // only, and every code of a legal move is read.
        let other = &positions[(i * 7 + 3) % positions.len()];
        for &m in other.moves().iter() {
            let code = other.move_code(m);
            match pos.move_from_code(code) {
                Some(back) => {
                    assert!(moves.contains(&back), "{pos}: code of {m:?} gives {back:?}");
                    assert_eq!(back.code(), code);
                }
                None => assert!(!codes.contains(&code), "{pos}: legal code refused"),
            }
        }
        let mut rng = crate::testkit::Rng::new(i as u64);
        for _ in 0..50 {
            let code = rng.next_u64() as u32;
            if let Some(back) = pos.move_from_code(code) {
                assert!(moves.contains(&back), "{pos}: random code {code:#x}");
            }
        }

        // The cheap draw check agrees with the outcome whenever play goes on by rule.
        if !moves.is_empty() {
            assert_eq!(pos.outcome(), pos.draw_by_rule(), "{pos}");
        }
        // The pass: offered exactly when legal.
        assert_eq!(
            pos.pass_move(),
            moves
                .contains(&AntChessMove::PASS)
                .then_some(AntChessMove::PASS),
            "{pos}"
        );
    }
    seen
}

#[test]
fn search_surface_antchess() {
    let seen = check_search_surface(&AntChess2, 21);
    assert!(
        seen[0] > 1000 && seen[1] > 1000 && seen[2] > 0 && seen[3] > 0,
        "{seen:?}"
    );
}

#[test]
fn search_surface_antchess3() {
    let seen = check_search_surface(&AntChess3, 22);
    assert!(
        seen[0] > 1000 && seen[1] > 1000 && seen[2] > 0 && seen[3] > 0,
        "{seen:?}"
    );
}

#[test]
fn tactics_of_chosen_moves() {
    // A Ladybird sweep takes two pieces of two kinds; a promotion; the Queen to the anthill.
    let p = pos2(
        &[
            ("a1", "bQ"),
            ("c1", "rQ"),
            ("g7", "bB"),
            ("g8", "bL"),
            ("f6", "rA"),
            ("h6", "rG"),
        ],
        'b',
    );
    let mv = p.parse_move("g8-f7xf6,h6").unwrap();
    let t = p.tactics(mv);
    assert_eq!(t.captures, 2);
    assert_eq!(
        t.taken_kinds,
        1 << AntChessKind::Warrior as u16 | 1 << AntChessKind::Grasshopper as u16
    );
    assert_eq!(t.promotion, None);
    assert!(!t.wins && t.is_tactical());
    assert!(!p.tactics(p.parse_move("g8-f7").unwrap()).is_tactical());

    let p = pos2(&[("g1", "bQ"), ("m7", "rQ"), ("f11", "bA")], 'b');
    let t = p.tactics(p.parse_move("f11-f12=S").unwrap());
    assert_eq!(t.promotion, Some(AntChessKind::Superant as u8));
    assert_eq!(t.captures, 0);

    let p = pos2(&[("f6", "bQ"), ("g13", "rQ")], 'b');
    assert!(p.tactics(p.parse_move("f6-g7").unwrap()).wins);
    assert!(!p.tactics(p.parse_move("f6-f7").unwrap()).wins);
    // On the anthill already (a string no game reaches): every legal move that keeps her
    // there wins, the pass too; her own steps do not.
    let p = AntChess2
        .parse_position(&build(
            &[("g7", "bQ"), ("a7", "rQ"), ("m1", "bA")],
            'b',
            0,
            0,
        ))
        .unwrap();
    assert!(p.tactics(AntChessMove::PASS).wins);
    let mut tact = Vec::new();
    p.generate_tactical(&mut tact);
    let mut tact: Vec<String> = tact.iter().map(|&m| p.move_text(m)).collect();
    tact.sort();
    assert_eq!(tact, sorted(&["m1-l2", "m1-m2", "pass"]));

    // Three players: taking the second-last Queen wins; a queenless player taking one does not.
    let p = pos3(
        &[("g1", "bQ"), ("g5", "rB"), ("a7", "rQ"), ("m1", "gA")],
        'r',
    );
    let t = p.tactics(p.parse_move("g5-g1xg1").unwrap());
    assert!(t.wins && t.taken_kinds == 1 << AntChessKind::Queen as u16);
    let p = pos3(
        &[("g1", "bQ"), ("g5", "rB"), ("a7", "gQ"), ("m1", "gA")],
        'r',
    );
    assert!(!p.tactics(p.parse_move("g5-g1xg1").unwrap()).wins);
}

#[test]
fn move_codes_fit_and_ladybird_sweeps_have_one_code() {
    // The same sweep reached round two pivots is one move with one code; the same end with
    // other captures is another move.
    let p = pos2(
        &[
            ("a1", "bQ"),
            ("m7", "rQ"),
            ("g7", "bA"),
            ("f7", "bA"),
            ("g8", "bL"),
        ],
        'b',
    );
    let f8: Vec<AntChessMove> = p
        .moves()
        .iter()
        .copied()
        .filter(|m| p.move_text(*m) == "g8-f8")
        .collect();
    assert_eq!(f8.len(), 1);
    // A code from the start position is no move of a position where that piece is gone.
    let start = AntChess2.start(&Settings::new()).unwrap();
    let g3g4 = start.parse_move("g3-g4").unwrap();
    assert_eq!(start.move_from_code(g3g4.code()), Some(g3g4));
    let after = play(&start, "g3-g4");
    assert_eq!(after.move_from_code(g3g4.code()), None);
    assert_eq!(start.move_from_code(u32::MAX), None);
    assert_eq!(start.move_from_code(0), None);
    // A finished game reads no code.
    let done = AntChess2
        .parse_position(&build(&[("g7", "bQ"), ("a7", "rQ")], 'r', 0, 0))
        .unwrap();
    assert_eq!(done.move_from_code(AntChessMove::PASS.code()), None);
    assert_eq!(done.pass_move(), None);
}

#[test]
fn no_null_move_and_check() {
    let mut p = AntChess2.start(&Settings::new()).unwrap();
    let before = p.clone();
    assert!(p.make_null_move().is_none());
    assert_eq!(p, before);
    assert!(!p.in_check());
    let checked = pos2(
        &[("g1", "bW"), ("f6", "bQ"), ("g9", "rQ"), ("f5", "rA")],
        'r',
    );
    assert!(checked.in_check());
    assert!(checked.facts().iter().any(|f| f.name == "check"
        && f.player == Some(1)
        && f.value == crate::game::FactValue::Flag(true)));
}

#[test]
fn passes_in_a_row_are_hashed() {
    let s = |passes| build(&[("g1", "bQ"), ("g13", "rQ")], 'b', passes, 5);
    let p0 = AntChess2.parse_position(&s(0)).unwrap();
    let p1 = AntChess2.parse_position(&s(1)).unwrap();
    let p2 = AntChess2.parse_position(&s(2)).unwrap();
    let p3 = AntChess2.parse_position(&s(3)).unwrap();
    assert_ne!(p0.hash(), p1.hash());
    assert_ne!(p1.hash(), p2.hash());
    // From the drawing count on, more passes change nothing.
    assert_eq!(p2.hash(), p3.hash());
    for p in [&p0, &p1, &p2, &p3] {
        assert_eq!(p.hash(), p.hash_from_scratch());
    }
    // A pass then a move: the counter goes up and back to 0, with the hash.
    let q = play(&p0, "pass");
    assert_eq!(q.passes(), 1);
    assert_eq!(q.hash(), q.hash_from_scratch());
    let r = play(&q, "g13-g12");
    assert_eq!(r.passes(), 0);
    assert_eq!(r.hash(), r.hash_from_scratch());
    // The same pieces and player to move after a pass and after a move differ.
    let via_moves = play(&play(&p0, "g1-g2"), "g13-g12");
    let via_pass = play(&play(&play(&p0, "g1-g2"), "pass"), "g2-g1");
    assert_ne!(via_pass.to_string(), via_moves.to_string());
    let a = play(&play(&p0, "pass"), "g13-g12");
    let b = play(&play(&p0, "g1-g2"), "g13-g12");
    assert_ne!(a.hash(), b.hash());
}

#[test]
fn read_access_for_evaluations() {
    let p = AntChess3.start(&Settings::new()).unwrap();
    for player in 0..3 {
        assert_eq!(p.count(player, AntChessKind::Warrior), 9);
        assert_eq!(p.count(player, AntChessKind::Queen), 1);
        let q = p.pieces(player, AntChessKind::Queen);
        assert_eq!(
            q.trailing_zeros() as usize,
            p.queen(player as usize).unwrap()
        );
    }
    assert_eq!(p.count(3, AntChessKind::Queen), 0);
    assert_eq!(p.occupied().count_ones(), 51);
    assert_eq!(p.mobility(0) as u64, p.count_legal_moves());
    assert_eq!(p.mobility(7), 0);
    // Another player's mobility is what they would have on move.
    let red = AntChess3
        .parse_position(&p.to_string().replace(" b 0 0 1", " r 0 0 1"))
        .unwrap();
    assert_eq!(p.mobility(1) as u64, red.count_legal_moves());
    let two = AntChess2.start(&Settings::new()).unwrap();
    assert_eq!(two.count(2, AntChessKind::Queen), 0);
    assert_eq!(two.mobility(1), 34);
}

#[test]
fn facts_and_info_messages() {
    let p = pos3(
        &[("g1", "bQ"), ("g5", "rB"), ("a7", "rQ"), ("m1", "gA")],
        'g',
    );
    let facts = p.facts();
    let names: Vec<&str> = facts.iter().map(|f| f.name).collect();
    assert_eq!(
        names,
        [
            "move-number",
            "queen",
            "queen",
            "queen",
            "passes",
            "quiet-plies",
            "check"
        ]
    );
    assert_eq!(facts[3].value, crate::game::FactValue::Cell(None));
    use crate::game::{InfoArg, InfoLine};
    let g = tables().grid;
    let cell = |name| InfoArg::Cell(g.parse(name).unwrap());
    let count = |key, limit| {
        InfoLine::new(
            key,
            vec![
                ("count", InfoArg::Number(0)),
                ("limit", InfoArg::Number(limit)),
            ],
        )
    };
    // No line says whose turn it is.
    assert_eq!(
        p.info_messages(),
        [
            InfoLine::new("antchess-info-move", vec![("number", InfoArg::Number(10))]),
            InfoLine::new(
                "antchess-info-queens",
                vec![
                    (
                        "queens",
                        InfoArg::Lines(vec![
                            InfoLine::new(
                                "antchess-info-queen",
                                vec![("player", InfoArg::Player(0)), ("cell", cell("g1"))]
                            ),
                            InfoLine::new(
                                "antchess-info-queen",
                                vec![("player", InfoArg::Player(1)), ("cell", cell("a7"))]
                            ),
                            InfoLine::new(
                                "antchess-info-queen-captured",
                                vec![("player", InfoArg::Player(2))]
                            ),
                        ])
                    ),
                    ("anthill", cell("g7")),
                ]
            ),
            count("antchess-info-passes", 3),
            count("antchess-info-quiet", 150),
        ]
    );
}

#[test]
fn the_move_list_bound_adds_up() {
    // The largest sum of the per-kind bounds of MAX_MOVES' argument, by enumeration.
    let mut best = 0;
    for u in 0..=127 {
        for x in 0..=127 - u {
            for z in 0..=127 - u - x {
                let y = 127 - u - x - z;
                best = best.max(6 * u.min(6 * x) + 12 * u.min(y) + 12 * u.min(5 * z));
            }
        }
    }
    assert_eq!(best, 1668);
    let worms = (0..=36).map(|w| (13 * w).min(w * (36 - w))).max().unwrap();
    assert_eq!(worms, 299);
    assert!(1 + best + worms <= MAX_MOVES);
}

#[test]
fn the_move_list_bound_holds_on_crowded_boards() {
    // Boards full of Ladybirds, Beetles and Superants: the most moves seen stays under the
    // proved bound.
    let g = crate::geometry::hex::HexGrid::new(setup::RADIUS);
    let mut rng = crate::testkit::Rng::new(5);
    let mut most = 0;
    for _ in 0..300 {
        let mut pieces: Vec<(String, String)> = vec![("a1".into(), "bQ".into())];
        pieces.push(("m7".into(), "rQ".into()));
        for c in 0..g.cell_count() as Cell {
            let name = g.name(c);
            if name == "a1" || name == "m7" || rng.below(100) >= 60 {
                continue;
            }
            let mine = rng.below(3) != 0;
            let kind = ['L', 'L', 'B', 'S', 'L'][rng.below(5)];
            let piece = if mine {
                format!("b{kind}")
            } else {
                "rA".to_string()
            };
            pieces.push((name, piece));
        }
        let refs: Vec<(&str, &str)> = pieces
            .iter()
            .map(|(a, b)| (a.as_str(), b.as_str()))
            .collect();
        if let Ok(p) = AntChess2.parse_position(&build(&refs, 'b', 0, 0)) {
            most = most.max(p.count_legal_moves());
        }
    }
    assert!(most > 200 && most <= MAX_MOVES as u64, "{most}");
}

// ---------------------------------------------------------------------------------------------
// Every way out of a three-player game, through a game record.

use crate::outcome::{Elimination, GameResult};
use crate::record::{Event, Record};

fn out(player: Player, reason: Reason, ply: usize) -> Elimination {
    Elimination {
        player,
        reason,
        ply,
    }
}

/// The start of `antchess3` after Black's g3-g4: Red to move.
fn record3() -> Record<AntChessPosition<3>> {
    let mut rec = Record::new(AntChess3.start(&Settings::new()).unwrap());
    rec.play_text("g3-g4").unwrap();
    rec
}

/// Plays the first legal move that is not a pass.
fn play_some(rec: &mut Record<AntChessPosition<3>>) {
    let mv = *rec
        .position()
        .moves()
        .iter()
        .find(|m| !m.is_pass())
        .unwrap();
    rec.play(mv).unwrap();
}

#[test]
fn three_players_a_captured_queen_leaves_the_player_in_play() {
    let start = AntChess3
        .parse_position(&build(
            &[
                ("g1", "bQ"),
                ("c1", "bA"),
                ("g5", "rB"),
                ("a7", "rQ"),
                ("m7", "gQ"),
                ("m3", "gA"),
            ],
            'r',
            0,
            0,
        ))
        .unwrap();
    let mut rec = Record::new(start);
    rec.play_text("g5-g1xg1").unwrap();
    assert_eq!(rec.eliminations(), [out(0, QUEEN_LOST, 1)]);
    assert_eq!(rec.outcome(), None);
    assert!(!rec.has_left(0));
    rec.play_text("pass").unwrap(); // Green
                                    // Black has no Queen but plays her Warrior; nothing passes for her.
    assert_eq!(rec.position().to_move(), 0);
    rec.play_text("c1-c2").unwrap();
    assert_eq!(
        rec.position().piece_at(cell("c2")).map(|v| v.kind),
        Some('A')
    );
    assert_eq!(rec.position().to_move(), 1);
    assert_eq!(rec.eliminations().len(), 1);
    assert_eq!(rec.players_in(), [1, 2]);
}

#[test]
fn three_players_resignation_of_the_player_to_move() {
    let mut rec = record3();
    let before = rec.position().clone();
    assert!(rec.drop_out(1, Reason::RESIGNATION));
    // Red's Queen is off, the rest of Red's army stays, and Red's seat has passed already.
    let p = rec.position();
    assert_eq!(p.piece_at(cell("a7")), None);
    assert_eq!(p.count(1, AntChessKind::Queen), 0);
    assert_eq!(p.count(1, AntChessKind::Warrior), 9);
    assert_eq!(p.pieces_of(1).count_ones(), 16);
    assert_eq!(p.to_move(), 2);
    assert_eq!(p.passes(), 1);
    assert!(matches!(rec.events().last(), Some(Event::AutoPass(m)) if m.is_pass()));
    assert_eq!(rec.eliminations(), [out(1, Reason::RESIGNATION, 1)]);
    assert_eq!(rec.outcome(), None);
    assert!(rec.has_left(1));
    // Play goes on between Black and Green; Red passes after each of Black's moves.
    play_some(&mut rec); // Green
    assert_eq!(rec.position().to_move(), 0);
    play_some(&mut rec); // Black, then Red passes
    assert_eq!(rec.position().to_move(), 2);
    assert!(matches!(rec.events().last(), Some(Event::AutoPass(_))));
    assert_eq!(rec.position().hash(), rec.position().hash_from_scratch());
    // Red cannot leave twice, nor play.
    assert!(!rec.drop_out(1, Reason::TIME));
    // Undo takes back Black's move with Red's pass, then Green's move, then the resignation.
    assert!(rec.undo());
    assert_eq!(rec.position().to_move(), 0);
    assert!(rec.undo());
    assert!(rec.undo());
    assert_eq!(rec.position(), &before);
    assert_eq!(rec.position().hash(), before.hash());
    assert_eq!(
        rec.position().piece_at(cell("a7")).map(|v| v.kind),
        Some('Q')
    );
    assert_eq!(rec.position().to_move(), 1);
    assert!(rec.eliminations().is_empty());
    assert!(!rec.has_left(1));
}

#[test]
fn three_players_resignation_of_a_player_not_to_move() {
    let mut rec = record3();
    let before = rec.position().clone();
    assert!(rec.drop_out(2, Reason::RESIGNATION));
    assert_eq!(rec.position().piece_at(cell("m7")), None);
    assert_eq!(rec.position().to_move(), 1, "Red still to move");
    assert!(matches!(rec.events().last(), Some(Event::Dropout(2, _))));
    assert_eq!(rec.eliminations(), [out(2, Reason::RESIGNATION, 1)]);
    play_some(&mut rec); // Red, then Green passes
    assert_eq!(rec.position().to_move(), 0);
    assert!(matches!(rec.events().last(), Some(Event::AutoPass(_))));
    assert!(rec.undo());
    assert_eq!(rec.position().to_move(), 1);
    assert!(rec.undo());
    assert_eq!(rec.position(), &before);
    assert!(rec.eliminations().is_empty());
}

#[test]
fn three_players_fallen_flag() {
    let mut rec = record3();
    assert!(rec.drop_out(0, Reason::TIME));
    assert_eq!(rec.eliminations(), [out(0, Reason::TIME, 1)]);
    assert_eq!(rec.position().piece_at(cell("g1")), None);
    assert_eq!(rec.outcome(), None);
    // Red and Green play; Black's seat passes.
    play_some(&mut rec); // Red
    play_some(&mut rec); // Green, then Black passes
    assert_eq!(rec.position().to_move(), 1);
    assert_eq!(
        rec.eliminations()[0].describe(AntChess3.info().players, AntChess3.info().players_number),
        "Black is out on time"
    );
}

#[test]
fn three_players_a_second_resignation_ends_the_game() {
    let mut rec = record3();
    assert!(rec.drop_out(1, Reason::RESIGNATION));
    play_some(&mut rec); // Green
    assert!(rec.drop_out(2, Reason::RESIGNATION));
    let won = Outcome::Win {
        winner: 0,
        reason: LAST_QUEEN,
    };
    assert_eq!(rec.outcome(), Some(won));
    let result = rec.result().unwrap();
    assert_eq!(
        result,
        GameResult {
            outcome: won,
            eliminations: vec![
                out(1, Reason::RESIGNATION, 1),
                out(2, Reason::RESIGNATION, 3)
            ],
        }
    );
    assert_eq!(
        result.describe(AntChess3.info().players, AntChess3.info().players_number),
        "Black wins by holding the last Queen (Red is out by resignation; Green is out by resignation)"
    );
    assert_eq!(result.points(3), [1.0, 0.0, 0.0]);
    assert_eq!(rec.position().count_legal_moves(), 0);
    assert!(rec.play_text("g4-g5").is_err());
    assert!(!rec.drop_out(0, Reason::RESIGNATION), "the game is over");
    // Undo brings Green back.
    assert!(rec.undo());
    assert_eq!(rec.outcome(), None);
    assert_eq!(rec.eliminations(), [out(1, Reason::RESIGNATION, 1)]);
}

#[test]
fn three_players_draw_by_agreement_after_a_dropout() {
    let mut rec = record3();
    assert!(rec.drop_out(1, Reason::RESIGNATION));
    assert_eq!(rec.players_in(), [0, 2]);
    rec.declare(Outcome::Draw {
        reason: Reason::AGREEMENT,
    });
    let result = rec.result().unwrap();
    assert_eq!(result.eliminations, [out(1, Reason::RESIGNATION, 1)]);
    assert_eq!(result.points(3), [0.5, 0.0, 0.5]);
    assert_eq!(
        result.describe(AntChess3.info().players, AntChess3.info().players_number),
        "draw by agreement (Red is out by resignation)"
    );
    assert!(rec.undo());
    assert_eq!(rec.outcome(), None);
}

#[test]
fn three_players_anthill_after_a_dropout() {
    let start = AntChess3
        .parse_position(&build(
            &[
                ("f6", "bQ"),
                ("a7", "rQ"),
                ("a5", "rA"),
                ("m7", "gQ"),
                ("m5", "gA"),
            ],
            'r',
            0,
            0,
        ))
        .unwrap();
    let mut rec = Record::new(start);
    assert!(rec.drop_out(1, Reason::RESIGNATION));
    assert_eq!(rec.position().to_move(), 2);
    rec.play_text("pass").unwrap(); // Green
    rec.play_text("f6-g7").unwrap(); // Black
    let result = rec.result().unwrap();
    assert_eq!(
        result.outcome,
        Outcome::Win {
            winner: 0,
            reason: ANTHILL
        }
    );
    assert_eq!(result.eliminations, [out(1, Reason::RESIGNATION, 0)]);
    // The game ended before Red's seat passed.
    assert!(matches!(rec.events().last(), Some(Event::Move(_))));
}

#[test]
fn three_players_a_resignation_that_leaves_one_queen() {
    // Black's Queen was captured before this position: Black is out from the start, and when
    // Red leaves Green's Queen is the last one.
    let start = AntChess3
        .parse_position(&build(
            &[
                ("g1", "bA"),
                ("a7", "rQ"),
                ("a5", "rA"),
                ("m7", "gQ"),
                ("m5", "gA"),
            ],
            'b',
            0,
            0,
        ))
        .unwrap();
    let mut rec = Record::new(start);
    assert_eq!(rec.eliminations(), [out(0, QUEEN_LOST, 0)]);
    rec.play_text("g1-g2").unwrap();
    assert!(rec.drop_out(1, Reason::RESIGNATION));
    let result = rec.result().unwrap();
    assert_eq!(
        result.outcome,
        Outcome::Win {
            winner: 2,
            reason: LAST_QUEEN
        }
    );
    assert_eq!(
        result.eliminations,
        [out(0, QUEEN_LOST, 0), out(1, Reason::RESIGNATION, 1)]
    );
    assert!(rec.undo());
    assert_eq!(rec.outcome(), None);
    // A queenless player who leaves was out already: the record keeps when and why, and
    // undo restores the record as it was.
    assert!(rec.drop_out(0, Reason::RESIGNATION));
    assert!(rec.has_left(0));
    assert_eq!(rec.eliminations(), [out(0, QUEEN_LOST, 0)]);
    assert_eq!(rec.outcome(), None);
    assert!(rec.undo());
    assert!(!rec.has_left(0));
    assert_eq!(rec.eliminations(), [out(0, QUEEN_LOST, 0)]);
}

#[test]
fn two_players_resignation_and_flag_hand_the_win_over() {
    let mut rec = Record::new(AntChess2.start(&Settings::new()).unwrap());
    let mut p = rec.position().clone();
    assert!(!p.remove_player(0), "two players: nobody is removed");
    assert_eq!(p.eliminated(0), None);
    assert!(rec.drop_out(0, Reason::RESIGNATION));
    assert_eq!(
        rec.outcome(),
        Some(Outcome::Win {
            winner: 1,
            reason: Reason::RESIGNATION
        })
    );
    assert!(rec.result().unwrap().eliminations.is_empty());
    assert!(rec.undo());
    assert!(rec.drop_out(1, Reason::TIME));
    assert_eq!(rec.outcome().and_then(|o| o.winner()), Some(0));
}

// ---------------------------------------------------------------------------------------------
// A player who has left `antchess3` (resignation, fallen flag): their seat only passes, their
// pieces are obstacles that attack nothing.

/// Perft making every move down to the leaves (none counted without being generated).
fn perft_generating<P: Position>(pos: &mut P, depth: u32) -> u64 {
    crate::game::perft_visiting(pos, depth, &mut |_| {})
}

/// The checks of `testkit::check_position` that do not need the position string (a position
/// with a player out does not read back from it: docs/rules/antchess.md, "Resigning or running
/// out of time"), and more: the check test and each player's mobility against the slow
/// generator, tactics and tactical generation, move codes, and perft counting its last ply
/// against perft generating it.
fn check_without_string(pos: &AntChessPosition<3>) -> Vec<AntChessMove> {
    let text = format!("{pos:?}, left {:03b}", pos.left);
    assert_eq!(pos.hash(), pos.hash_from_scratch(), "{text}: hash");
    let moves = pos.moves();
    assert_eq!(pos.count_legal_moves(), moves.len() as u64, "{text}: count");
    let fast: BTreeSet<String> = moves.iter().map(|&m| pos.move_text(m)).collect();
    assert_eq!(fast.len(), moves.len(), "{text}: a move twice");
    let slow_set: BTreeSet<String> = slow::legal_texts(pos).into_iter().collect();
    assert_eq!(fast, slow_set, "{text}: fast and slow generators");
    let me = pos.to_move() as usize;
    assert_eq!(
        pos.in_check(),
        slow::queen_attacked(pos, me),
        "{text}: in_check"
    );
    let mut tactical = BTreeSet::new();
    for &mv in moves.iter() {
        let t = pos.move_text(mv);
        assert_eq!(pos.parse_move(&t).ok(), Some(mv), "{text}: text {t}");
        assert_eq!(
            pos.move_from_code(pos.move_code(mv)),
            Some(mv),
            "{text}: code of {t}"
        );
        let tactics = pos.tactics(mv);
        assert_eq!(tactics, slow_tactics(pos, mv), "{text}: tactics of {t}");
        if tactics.is_tactical() {
            tactical.insert(mv.code());
        }
        let mut after = pos.clone();
        let undo = after.make_move(mv);
        assert_eq!(after.left, pos.left, "{text}: {t} changes who has left");
        assert_eq!(
            after.hash(),
            after.hash_from_scratch(),
            "{text}: hash after {t}"
        );
        after.unmake_move(mv, undo);
        assert_eq!(&after, pos, "{text}: unmake of {t}");
        assert_eq!(after.hash(), pos.hash(), "{text}: hash after unmake of {t}");
    }
    let mut gen = Vec::new();
    pos.generate_tactical(&mut gen);
    let gen_set: BTreeSet<u32> = gen.iter().map(|m| m.code()).collect();
    assert_eq!(gen_set.len(), gen.len(), "{text}: a tactical move twice");
    assert_eq!(gen_set, tactical, "{text}: tactical generation");
    assert_eq!(
        pos.pass_move(),
        moves
            .contains(&AntChessMove::PASS)
            .then_some(AntChessMove::PASS),
        "{text}: pass_move"
    );
    // Each player's mobility: the number of moves they would have on their turn.
    for p in 0..3 {
        let mut turn = pos.clone();
        turn.to_move = p as u8;
        let slow_moves = slow::legal_texts(&turn);
        // (Empty when the game is over as seen from there; mobility does not look at that.)
        if !slow_moves.is_empty() {
            assert_eq!(
                pos.mobility(p as Player) as usize,
                slow_moves.len(),
                "{text}: mobility of {p}"
            );
        }
    }
    let mut walk = pos.clone();
    assert_eq!(
        perft(&mut walk, 2),
        perft_generating(&mut walk, 2),
        "{text}: perft 2"
    );
    assert_eq!(&walk, pos);
    moves.to_vec()
}

/// Black to move, in check: Black's Queen on g4 has a red Superant next to her on g5, which
/// also stands between her and a green Beetle on g9; a red Ladybird on k4 turns round a green
/// Warrior on l4 onto Green's Queen on k5; a black Grasshopper on g3 can take the Superant.
fn obstacle_start() -> AntChessPosition<3> {
    AntChess3
        .parse_position(&build(
            &[
                ("g4", "bQ"),
                ("g3", "bG"),
                ("a7", "rQ"),
                ("g5", "rS"),
                ("k4", "rL"),
                ("k5", "gQ"),
                ("l4", "gA"),
                ("g9", "gB"),
            ],
            'b',
            0,
            0,
        ))
        .unwrap()
}

fn has(moves: &[String], m: &str) -> bool {
    moves.iter().any(|t| t == m)
}

#[test]
fn a_leavers_pieces_are_obstacles_that_give_no_check() {
    let start = obstacle_start();
    assert!(start.in_check());
    assert!(start.attacked_by_opponents(2, cell("k5") as usize));
    let before = texts(&start);
    for m in ["pass", "g4-f4", "g4-h4", "g4-g5xg5"] {
        assert!(!has(&before, m), "{m} before Red leaves");
    }
    assert!(has(&before, "g3-g5xg5"));

    let mut rec = Record::new(start.clone());
    assert!(rec.drop_out(1, Reason::RESIGNATION));
    let p = rec.position().clone();
    assert_eq!(p.to_move(), 0, "Black is still to move");
    assert!(p.has_left(1) && !p.has_left(0) && !p.has_left(2));
    check_without_string(&p);
    // Red's Queen is off; the Superant and the Ladybird stay, but attack nothing.
    assert_eq!(p.queen(1), None);
    assert_eq!(
        p.pieces(1, AntChessKind::Superant),
        tables::bit(cell("g5") as usize)
    );
    assert_eq!(
        p.pieces(1, AntChessKind::Ladybird),
        tables::bit(cell("k4") as usize)
    );
    assert_eq!(p.count(1, AntChessKind::Queen), 0);
    assert!(!p.in_check());
    assert!(!p.attacked_by_opponents(0, cell("g4") as usize));
    assert!(!p.attacked_by_opponents(2, cell("k5") as usize));
    // Black may pass and step next to the Superant as if it were any obstacle.
    let after = texts(&p);
    for m in ["pass", "g4-f4", "g4-h4", "g3-g5xg5"] {
        assert!(has(&after, m), "{m} after Red left: {after:?}");
    }
    // The Superant still shields her from the Beetle: taking it with the Queen opens the line.
    assert!(!has(&after, "g4-g5xg5"));
    assert!(!slow::queen_attacked(&p, 0));
}

#[test]
fn a_leavers_pieces_can_be_captured_and_the_seat_only_passes() {
    let start = obstacle_start();
    assert!(start.mobility(1) > 1, "Red has moves before leaving");
    let mut rec = Record::new(start.clone());
    assert!(rec.drop_out(1, Reason::RESIGNATION));
    assert_eq!(rec.position().mobility(1), 1, "only the pass");
    // Black takes the Superant; Red's seat passes at once, automatically.
    rec.play_text("g3-g5xg5").unwrap();
    assert_eq!(
        rec.position()
            .piece_at(cell("g5"))
            .map(|v| (v.owner, v.kind)),
        Some((0, 'G'))
    );
    assert_eq!(rec.position().count(1, AntChessKind::Superant), 0);
    let n = rec.events().len();
    assert!(matches!(rec.events()[n - 2], Event::Move(_)));
    assert!(matches!(rec.events()[n - 1], Event::AutoPass(m) if m.is_pass()));
    assert_eq!(rec.position().to_move(), 2);
    assert_eq!(rec.position().passes(), 1);
    // Where Red was to move, the pass was the only move: no Ladybird move, by text or by code.
    let red = &rec.positions()[n - 1];
    assert_eq!(red.to_move(), 1);
    assert_eq!(texts(red), ["pass"]);
    assert_eq!(red.count_legal_moves(), 1);
    assert!(red.parse_move("k4-k5xk5").is_err());
    let (k4, k5) = (cell("k4") as u8, cell("k5") as u8);
    let sweep = AntChessMove::simple(k4, k5, moves::CAPTURE_TO);
    assert_eq!(red.move_from_code(sweep.code()), None);
    assert_eq!(red.pass_move(), Some(AntChessMove::PASS));
    let mut tactical = Vec::new();
    red.generate_tactical(&mut tactical);
    assert!(tactical.is_empty());
    check_without_string(red);
    // Green is not in check from the Ladybird, may pass, and may take it.
    let green = rec.position().clone();
    check_without_string(&green);
    assert!(!green.in_check());
    let moves = texts(&green);
    assert!(has(&moves, "pass") && has(&moves, "l4-k4xk4"), "{moves:?}");
    rec.play_text("l4-k4xk4").unwrap();
    assert_eq!(rec.position().pieces_of(1), 0, "Red has no piece left");
    assert_eq!(rec.position().to_move(), 0);
    // Each of Black's moves is followed by Red's automatic pass.
    rec.play_text("pass").unwrap();
    assert!(matches!(rec.events().last(), Some(Event::AutoPass(_))));
    assert_eq!(rec.position().to_move(), 2);
    assert_eq!(rec.position().passes(), 2);
    let autos: Vec<usize> = rec
        .events()
        .iter()
        .enumerate()
        .filter(|(_, e)| matches!(e, Event::AutoPass(_)))
        .map(|(i, _)| i)
        .collect();
    assert_eq!(autos, [2, 5]);
    for &i in &autos {
        assert_eq!(
            rec.positions()[i].to_move(),
            1,
            "automatic passes are Red's"
        );
    }
    assert_eq!(rec.outcome(), None);
}

#[test]
fn undoing_a_resignation_restores_the_attacks() {
    let start = obstacle_start();
    let mut rec = Record::new(start.clone());
    assert!(rec.drop_out(1, Reason::RESIGNATION));
    rec.play_text("g4-f4").unwrap();
    assert!(matches!(rec.events().last(), Some(Event::AutoPass(_))));
    assert!(
        !rec.position().in_check(),
        "Green, with the Ladybird next to her Queen"
    );
    // Undo takes back Black's move with Red's pass, then the resignation.
    assert!(rec.undo());
    assert!(rec.position().has_left(1));
    assert!(!rec.position().in_check());
    assert!(rec.undo());
    let p = rec.position();
    assert_eq!(p, &start);
    assert_eq!(p.hash(), start.hash());
    assert!(!p.has_left(1));
    assert!(p.in_check());
    assert!(p.attacked_by_opponents(2, cell("k5") as usize));
    assert_eq!(p.queen(1), Some(cell("a7") as usize));
    assert_eq!(texts(p), texts(&start));
    assert!(!has(&texts(p), "pass"));
    assert!(p.mobility(1) > 1);
    assert!(rec.eliminations().is_empty());
}

#[test]
fn a_player_out_is_hashed_and_not_in_the_string() {
    let start = obstacle_start();
    let mut rec = Record::new(start);
    assert!(rec.drop_out(1, Reason::RESIGNATION));
    let p = rec.position().clone();
    assert_eq!(p.hash(), p.hash_from_scratch());
    // The string has no field for it: it reads back as the same board with Red still in the
    // game (queenless), whose Superant checks Black again.
    let text = p.to_string();
    let back = AntChess3.parse_position(&text).unwrap();
    assert_eq!(back.to_string(), text);
    assert!(!back.has_left(1));
    assert_ne!(back, p);
    assert_ne!(back.hash(), p.hash());
    assert_eq!(back.hash(), back.hash_from_scratch());
    assert!(back.in_check() && !p.in_check());
    // Marking the same player out of that board gives the same position and hash.
    let mut again = back.clone();
    assert!(again.remove_player(1));
    assert_eq!(again, p);
    assert_eq!(again.hash(), p.hash());
    // Leaving twice changes nothing; each player's mark has its own key.
    assert!(again.remove_player(1));
    assert_eq!(again.hash(), p.hash());
    let mut other = back.clone();
    assert!(other.remove_player(2));
    assert_ne!(other.hash(), p.hash());
    assert_eq!(other.hash(), other.hash_from_scratch());
    // Moves keep the mark, and the hash with it.
    let mut q = p.clone();
    q.make_move(q.parse_move("g3-g5xg5").unwrap());
    assert!(q.has_left(1));
    assert_eq!(q.hash(), q.hash_from_scratch());
}

#[test]
fn random_positions_with_a_player_out() {
    let mut rng = crate::testkit::Rng::new(33);
    let (mut checked, mut differ, mut leaver_to_move, mut leaver_taken) = (0, 0, 0, 0);
    while checked < 150 {
        let density = 20 + rng.below(40);
        let text = random_position(&mut rng, 3, density);
        let Ok(mut pos) = AntChess3.parse_position(&text) else {
            continue;
        };
        let who = rng.below(3);
        assert!(pos.remove_player(who as Player));
        for _ in 0..4 {
            let moves = check_without_string(&pos);
            checked += 1;
            // The same board with nobody out: other moves whenever the leaver's pieces
            // would attack, or move.
            let unmarked = AntChess3.parse_position(&pos.to_string()).unwrap();
            if texts(&unmarked) != texts(&pos) {
                differ += 1;
                leaver_to_move += (pos.to_move() as usize == who) as usize;
            }
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            leaver_taken += (mv.capture_bits() & pos.pieces_of(who as Player) != 0) as usize;
            pos.make_move(mv);
        }
    }
    assert!(
        differ > leaver_to_move && leaver_to_move > 0 && leaver_taken > 0,
        "{differ} {leaver_to_move} {leaver_taken}"
    );
}

#[test]
fn random_games_with_a_dropout() {
    let mut rng = crate::testkit::Rng::new(34);
    let mut after_dropout = 0;
    for _ in 0..4 {
        let mut rec = Record::new(AntChess3.start(&Settings::new()).unwrap());
        let drop_at = 5 + rng.below(30);
        let who = rng.below(3) as Player;
        for ply in 0..100 {
            if ply == drop_at {
                assert!(rec.drop_out(who, Reason::RESIGNATION));
            }
            if rec.outcome().is_some() {
                break;
            }
            let pos = rec.position().clone();
            let moves = if ply >= drop_at {
                assert_ne!(pos.to_move(), who, "the record passes for the leaver");
                after_dropout += 1;
                check_without_string(&pos)
            } else {
                pos.moves().to_vec()
            };
            let captures: Vec<AntChessMove> =
                moves.iter().copied().filter(|m| m.is_capture()).collect();
            let mv = if !captures.is_empty() && rng.below(2) == 0 {
                captures[rng.below(captures.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            rec.play(mv).unwrap();
        }
        // Every automatic pass is the leaver's, and the leaver never chose a move.
        for (p, e) in rec.positions().iter().zip(rec.events()) {
            match e {
                Event::AutoPass(m) => assert!(m.is_pass() && p.to_move() == who),
                Event::Move(_) => assert!(!p.has_left(who as usize) || p.to_move() != who),
                _ => {}
            }
        }
    }
    assert!(after_dropout > 50, "{after_dropout}");
}

#[test]
fn the_marked_anthill_is_the_centre() {
    for info in [super::INFO_2, super::INFO_3] {
        assert_eq!(info.marked.len(), 1);
        assert_eq!(info.marked[0].cell, tables().centre as u16);
        assert_eq!(info.geometry.cell_name(info.marked[0].cell), "g7");
    }
}
