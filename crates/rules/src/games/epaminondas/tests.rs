//! Tests of Epaminondas: the reference perft table, scenarios from the rules, property tests
//! against a slow generator written here independently, and bad input.

#![allow(clippy::needless_range_loop)] // grids are indexed by (rank, file) on purpose

use super::*;
use crate::error::MoveError;
use crate::game::PieceSets;
use crate::game::{perft, Game, Player, Position, Tactics};
use crate::geometry::square;
use crate::outcome::{Outcome, Reason};
use crate::record::Record;
use crate::testkit::{check_position, check_random_games, Rng};

const PERFT: &str = include_str!("testdata/perft.tsv");

fn rows() -> Vec<(String, u32, u64)> {
    PERFT
        .lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (
                f[0].to_string(),
                f[1].parse().expect("depth"),
                f[2].parse().expect("nodes"),
            )
        })
        .collect()
}

fn pos(text: &str) -> EpaminondasPosition {
    Epaminondas
        .parse_position(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn texts(p: &EpaminondasPosition) -> Vec<String> {
    let mut v = Vec::new();
    p.legal_moves(&mut v);
    v.iter().map(|&m| p.move_text(m)).collect()
}

fn play(p: &EpaminondasPosition, text: &str) -> EpaminondasPosition {
    let mv = p
        .parse_move(text)
        .unwrap_or_else(|e| panic!("{p}: {text}: {e}"));
    let mut q = p.clone();
    q.make_move(mv);
    q
}

fn illegal_reason(p: &EpaminondasPosition, text: &str) -> String {
    match p.parse_move(text) {
        Err(MoveError::Illegal { reason, .. }) => reason,
        other => panic!("{p}: {text}: expected an illegal-move error, got {other:?}"),
    }
}

// ---------------------------------------------------------------------------------------------
// A board built from a list of pieces, for scenarios.

/// A position string from `(square, 'W' | 'B')` pairs and the side to move.
fn board(pieces: &[(&str, char)], side: char) -> String {
    let mut grid = [['.'; 14]; 12];
    for &(sq, c) in pieces {
        let cell = square::parse(14, 12, sq).unwrap_or_else(|| panic!("square {sq}")) as usize;
        grid[cell / 14][cell % 14] = c;
    }
    grid_string(&grid, side)
}

fn grid_string(grid: &[[char; 14]; 12], side: char) -> String {
    let mut s = String::new();
    for r in (0..12).rev() {
        let mut run = 0;
        for f in 0..14 {
            if grid[r][f] == '.' {
                run += 1;
            } else {
                if run > 0 {
                    s += &run.to_string();
                    run = 0;
                }
                s.push(grid[r][f]);
            }
        }
        if run > 0 {
            s += &run.to_string();
        }
        if r > 0 {
            s.push('/');
        }
    }
    format!("{s} {side}")
}

// ---------------------------------------------------------------------------------------------
// The slow generator: a plain 12×14 grid read from the position string, every piece, every
// direction, walked square by square.

fn slow_grid(text: &str) -> ([[char; 14]; 12], char) {
    let (placement, side) = text.split_once(' ').expect("two fields");
    let mut grid = [['.'; 14]; 12];
    for (row, rank) in placement.split('/').enumerate() {
        let r = 11 - row;
        let mut f = 0;
        let mut num = 0;
        for c in rank.chars() {
            if let Some(d) = c.to_digit(10) {
                num = num * 10 + d as usize;
            } else {
                f += num;
                num = 0;
                grid[r][f] = c;
                f += 1;
            }
        }
    }
    (grid, side.chars().next().expect("side"))
}

fn slow_moves(p: &EpaminondasPosition) -> Vec<String> {
    let (grid, side) = slow_grid(&p.to_string());
    let me = if side == 'w' { 'W' } else { 'B' };
    let them = if me == 'W' { 'B' } else { 'W' };
    let at = |f: i32, r: i32| -> Option<char> {
        if (0..14).contains(&f) && (0..12).contains(&r) {
            Some(grid[r as usize][f as usize])
        } else {
            None
        }
    };
    let name = |f: i32, r: i32| square::name(14, (r * 14 + f) as u16);
    let white_far = (0..14).filter(|&f| grid[11][f] == 'W').count();
    let black_far = (0..14).filter(|&f| grid[0][f] == 'B').count();
    let (mine, theirs) = if me == 'W' {
        (white_far, black_far)
    } else {
        (black_far, white_far)
    };
    if mine > theirs {
        return Vec::new();
    }
    let mut out = Vec::new();
    for r in 0..12 {
        for f in 0..14 {
            if grid[r as usize][f as usize] != me {
                continue;
            }
            for (df, dr) in [
                (1, 0),
                (-1, 0),
                (0, 1),
                (0, -1),
                (1, 1),
                (1, -1),
                (-1, 1),
                (-1, -1),
            ] {
                let mut k = 1;
                while at(f + k * df, r + k * dr) == Some(me) {
                    k += 1;
                }
                let (hf, hr) = (f + (k - 1) * df, r + (k - 1) * dr);
                for dist in 1..=k {
                    let (sf, sr) = (hf + dist * df, hr + dist * dr);
                    match at(sf, sr) {
                        None => break,
                        Some('.') => out.push(format!("{}-{}", name(f, r), name(sf, sr))),
                        Some(c) if c == them => {
                            let mut m = 1;
                            while at(sf + m * df, sr + m * dr) == Some(them) {
                                m += 1;
                            }
                            if m < k {
                                out.push(format!("{}x{}", name(f, r), name(sf, sr)));
                            }
                            break;
                        }
                        Some(_) => break,
                    }
                }
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Perft.

#[test]
fn perft_table_every_row() {
    // All 204 rows, the start to depth 4 included (well under a second at opt-level 3).
    let rows = rows();
    assert_eq!(rows.len(), 204);
    for (fen, depth, nodes) in rows {
        let mut p = pos(&fen);
        assert_eq!(perft(&mut p, depth), nodes, "{fen} depth {depth}");
    }
}

/// Perft with the portable counter at the last ply (the dispatching one may pick AVX2).
fn perft_portable(p: &mut EpaminondasPosition, depth: u32) -> u64 {
    if depth == 1 {
        return p.count_portable();
    }
    let mut v = Vec::new();
    p.legal_moves(&mut v);
    let mut n = 0;
    for mv in v {
        let undo = p.make_move(mv);
        n += perft_portable(p, depth - 1);
        p.unmake_move(mv, undo);
    }
    n
}

#[test]
fn perft_table_with_the_portable_counter() {
    for (fen, depth, nodes) in rows() {
        if depth <= 3 {
            assert_eq!(
                perft_portable(&mut pos(&fen), depth),
                nodes,
                "{fen} depth {depth}"
            );
        }
    }
}

#[test]
fn slow_generator_matches_the_table_at_depth_one() {
    for (fen, depth, nodes) in rows() {
        if depth == 1 {
            assert_eq!(slow_moves(&pos(&fen)).len() as u64, nodes, "{fen}");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Property tests.

#[test]
fn random_games_from_the_start() {
    let start = EpaminondasPosition::start();
    let n = check_random_games(&Epaminondas, &start, 12, 150, 7, &slow_moves);
    assert!(n >= 500, "{n}");
}

#[test]
fn random_games_from_capture_rich_positions() {
    let mut checked = 0;
    let one_ply = rows().into_iter().filter(|r| r.1 == 1).skip(1);
    for (i, (fen, _, _)) in one_ply.enumerate() {
        if i % 4 == 1 {
            checked += check_random_games(&Epaminondas, &pos(&fen), 2, 40, i as u64, &slow_moves);
        }
    }
    assert!(checked >= 400, "{checked}");
}

/// A random placement, dense enough for long lines in every direction and captures of every
/// size: not a reachable position, but it exercises every path of the counter. Every third
/// round colours by blocks, for long lines.
fn random_placement(rng: &mut Rng, round: usize) -> EpaminondasPosition {
    let mut grid = [['.'; 14]; 12];
    let density = 10 + rng.below(60); // percent of squares taken
    let (mut w, mut b) = (0, 0);
    for r in 0..12 {
        for f in 0..14 {
            if rng.below(100) < density {
                let white = if round.is_multiple_of(3) {
                    (f / 3 + r / 4) % 2 == 0
                } else {
                    rng.below(2) == 0
                };
                if white && w < 28 {
                    grid[r][f] = 'W';
                    w += 1;
                } else if !white && b < 28 {
                    grid[r][f] = 'B';
                    b += 1;
                }
            }
        }
    }
    let side = if round.is_multiple_of(2) { 'w' } else { 'b' };
    pos(&grid_string(&grid, side))
}

#[test]
fn random_placements() {
    let mut rng = Rng::new(11);
    for round in 0..400 {
        let p = random_placement(&mut rng, round);
        check_position(&Epaminondas, &p, &slow_moves);
        let mut v = Vec::new();
        p.legal_moves(&mut v);
        assert_eq!(v.is_empty(), p.outcome().is_some(), "{p}");
        assert_eq!(p.count_portable(), v.len() as u64, "portable count of {p}");
    }
}

#[test]
fn outcome_agrees_with_the_move_list_along_random_games() {
    let mut rng = Rng::new(3);
    let mut captures = 0;
    let mut ended = 0;
    for _ in 0..20 {
        let mut p = EpaminondasPosition::start();
        for _ in 0..300 {
            let mut v = Vec::new();
            p.legal_moves(&mut v);
            assert_eq!(v.is_empty(), p.outcome().is_some(), "{p}");
            assert_eq!(p.count_legal_moves(), v.len() as u64, "{p}");
            assert_eq!(p.count_portable(), v.len() as u64, "portable count of {p}");
            if !v.is_empty() {
                // Mobility of the player to move is its move count; of the other player, the
                // count with the turn passed (unless that position is already decided).
                assert_eq!(p.mobility(p.to_move()) as usize, v.len());
                let text = p.to_string();
                let other = if text.ends_with('w') { 'b' } else { 'w' };
                let flipped = pos(&format!("{}{other}", &text[..text.len() - 1]));
                if !flipped.crossing_win() {
                    let n = flipped.count_legal_moves();
                    assert_eq!(p.mobility(1 - p.to_move()) as u64, n, "{p}");
                }
            }
            if v.is_empty() {
                ended += 1;
                break;
            }
            let mv = v[rng.below(v.len())];
            captures += mv.is_capture() as u32;
            p.make_move(mv);
        }
    }
    assert!(
        captures > 50 && ended > 0,
        "{captures} captures, {ended} games ended"
    );
}

// ---------------------------------------------------------------------------------------------
// Scenarios.

#[test]
fn start_position() {
    let p = EpaminondasPosition::start();
    assert_eq!(p.to_string(), START);
    assert_eq!(Epaminondas.start(&Default::default()).unwrap(), p);
    assert_eq!(p.count_legal_moves(), 114);
    let t = texts(&p);
    for m in [
        "b2-c3", "c1-c4", "c1-c3", "c2-c3", "a1-c3", "a1-d4", "l1-n3", "n1-l3",
    ] {
        assert!(t.contains(&m.to_string()), "{m}");
    }
    // l1-m2 can only go one square north-east: the board ends after n3.
    assert!(!t.contains(&"l1-o4".to_string()));
    assert_eq!(p.outcome(), None);
    // c1-c4 moves the c1–c2 pair two squares up the file.
    let q = play(&p, "c1-c4");
    assert_eq!(
        q.to_string(),
        "BBBBBBBBBBBBBB/BBBBBBBBBBBBBB/14/14/14/14/14/14/2W11/2W11/WW1WWWWWWWWWWW/WW1WWWWWWWWWWW b"
    );
}

#[test]
fn a_pair_takes_a_lone_piece() {
    let p = pos(&board(
        &[
            ("c3", 'W'),
            ("c4", 'W'),
            ("c5", 'B'),
            ("h8", 'B'),
            ("h9", 'B'),
        ],
        'w',
    ));
    let t = texts(&p);
    assert!(t.contains(&"c3xc5".to_string()), "{t:?}");
    let q = play(&p, "c3xc5");
    assert_eq!(
        q.to_string(),
        board(&[("c4", 'W'), ("c5", 'W'), ("h8", 'B'), ("h9", 'B')], 'b')
    );
    // With an empty square between, the pair moves two squares to take.
    let p = pos(&board(&[("c3", 'W'), ("c4", 'W'), ("c6", 'B')], 'w'));
    let q = play(&p, "c3xc6");
    assert_eq!(q.to_string(), board(&[("c5", 'W'), ("c6", 'W')], 'b'));
    // A lone piece never captures; the head of the pair alone neither.
    assert!(!texts(&p).contains(&"c4xc6".to_string()));
    let reason = illegal_reason(&p, "c4xc6");
    assert!(reason.contains("at most 1 square"), "{reason}");
    // Two empty squares: out of the pair's reach.
    let p = pos(&board(&[("c3", 'W'), ("c4", 'W'), ("c7", 'B')], 'w'));
    assert!(texts(&p).iter().all(|m| !m.contains('x')));
    let reason = illegal_reason(&p, "c3xc7");
    assert!(reason.contains("at most 2"), "{reason}");
}

#[test]
fn a_triple_takes_a_pair_in_line() {
    let p = pos(&board(
        &[
            ("c2", 'W'),
            ("c3", 'W'),
            ("c4", 'W'),
            ("c5", 'B'),
            ("c6", 'B'),
            ("a12", 'B'),
        ],
        'w',
    ));
    let q = play(&p, "c2xc5");
    assert_eq!(
        q.to_string(),
        board(&[("c3", 'W'), ("c4", 'W'), ("c5", 'W'), ("a12", 'B')], 'b')
    );
    let mv = p.parse_move("c2xc5").unwrap();
    assert_eq!(mv.captured(), 2);
    assert_eq!(mv.size(), 3);
    assert_eq!(mv.distance(), 1);
    assert_eq!(
        Some(mv.tail_cell()),
        Epaminondas.info().geometry.parse_cell("c2")
    );
    assert_eq!(
        Some(mv.landing_cell()),
        Epaminondas.info().geometry.parse_cell("c5")
    );
    assert!(p.is_irreversible(mv));
    let cells = p.move_cells(mv);
    let g = Epaminondas.info().geometry;
    assert_eq!(cells.from, g.parse_cell("c2"));
    assert_eq!(cells.to, g.parse_cell("c5"));
    assert_eq!(
        cells.captures,
        vec![g.parse_cell("c5").unwrap(), g.parse_cell("c6").unwrap()]
    );
    // The pair c3–c4 inside the triple cannot take a line of two.
    assert!(!texts(&p).contains(&"c3xc5".to_string()));
    let reason = illegal_reason(&p, "c3xc5");
    assert!(reason.contains("more pieces"), "{reason}");
}

#[test]
fn a_triple_is_refused_against_an_equal_line() {
    let p = pos(&board(
        &[
            ("c2", 'W'),
            ("c3", 'W'),
            ("c4", 'W'),
            ("c5", 'B'),
            ("c6", 'B'),
            ("c7", 'B'),
        ],
        'w',
    ));
    let t = texts(&p);
    assert!(t.iter().all(|m| !m.contains('x')), "{t:?}");
    let reason = illegal_reason(&p, "c2xc5");
    assert!(
        reason.contains("3 pieces") && reason.contains("more pieces"),
        "{reason}"
    );
    // And Black's triple cannot take White's triple either.
    let q = pos(&p.to_string().replace(" w", " b"));
    assert!(texts(&q).iter().all(|m| !m.contains('x')));
}

#[test]
fn a_sub_group_of_a_longer_phalanx_captures() {
    // c1–c4 with a lone enemy on c5: the groups from c1 (4), c2 (3) and c3 (2) may all take;
    // c4 alone may not.
    let p = pos(&board(
        &[
            ("c1", 'W'),
            ("c2", 'W'),
            ("c3", 'W'),
            ("c4", 'W'),
            ("c5", 'B'),
            ("n12", 'B'),
        ],
        'w',
    ));
    let caps: Vec<String> = texts(&p).into_iter().filter(|m| m.contains('x')).collect();
    let mut sorted = caps.clone();
    sorted.sort();
    assert_eq!(sorted, vec!["c1xc5", "c2xc5", "c3xc5"]);
    let q = play(&p, "c3xc5");
    assert_eq!(
        q.to_string(),
        board(
            &[
                ("c1", 'W'),
                ("c2", 'W'),
                ("c4", 'W'),
                ("c5", 'W'),
                ("n12", 'B')
            ],
            'b'
        )
    );
    // Against a line of three only the whole phalanx of four may take.
    let p = pos(&board(
        &[
            ("c1", 'W'),
            ("c2", 'W'),
            ("c3", 'W'),
            ("c4", 'W'),
            ("c5", 'B'),
            ("c6", 'B'),
            ("c7", 'B'),
        ],
        'w',
    ));
    let caps: Vec<String> = texts(&p).into_iter().filter(|m| m.contains('x')).collect();
    assert_eq!(caps, vec!["c1xc5"]);
    let q = play(&p, "c1xc5");
    assert_eq!(
        q.to_string(),
        board(&[("c2", 'W'), ("c3", 'W'), ("c4", 'W'), ("c5", 'W')], 'b')
    );
}

#[test]
fn a_piece_in_a_line_of_another_direction_is_taken_alone() {
    // Black d5–e5–f5 is a line along the rank; moving up the d-file, White's pair meets only d5.
    let p = pos(&board(
        &[
            ("d3", 'W'),
            ("d4", 'W'),
            ("d5", 'B'),
            ("e5", 'B'),
            ("f5", 'B'),
        ],
        'w',
    ));
    let q = play(&p, "d3xd5");
    assert_eq!(
        q.to_string(),
        board(&[("d4", 'W'), ("d5", 'W'), ("e5", 'B'), ("f5", 'B')], 'b')
    );
    // The same along a diagonal: b3–c4 takes d5 although d5 has neighbours on the rank.
    let p = pos(&board(
        &[
            ("b3", 'W'),
            ("c4", 'W'),
            ("d5", 'B'),
            ("e5", 'B'),
            ("d6", 'B'),
        ],
        'w',
    ));
    let q = play(&p, "b3xd5");
    assert_eq!(
        q.to_string(),
        board(&[("c4", 'W'), ("d5", 'W'), ("e5", 'B'), ("d6", 'B')], 'b')
    );
    // But along the rank the line d5–e5 (plus f5) is what counts: the pair a5–b5 (with c5
    // empty) cannot take three.
    let p = pos(&board(
        &[
            ("a5", 'W'),
            ("b5", 'W'),
            ("d5", 'B'),
            ("e5", 'B'),
            ("f5", 'B'),
        ],
        'w',
    ));
    assert!(texts(&p).iter().all(|m| !m.contains('x')));
}

#[test]
fn crossing_majority_with_one_reply_allowed() {
    // White reaches rank 12 with a11-a12; Black answers.
    let p = pos(&board(
        &[
            ("a11", 'W'),
            ("h3", 'W'),
            ("m12", 'B'),
            ("n12", 'B'),
            ("e6", 'B'),
        ],
        'w',
    ));
    let q = play(&p, "a11-a12");
    assert_eq!(q.far_row_count(WHITE), 1);
    assert_eq!(q.outcome(), None, "Black still has a turn");
    assert!(q.count_legal_moves() > 0);
    let far_row = &q.info_messages()[0];
    assert_eq!(far_row.key, "epaminondas-info-far-row");
    assert_eq!(
        far_row.arg("count0"),
        Some(&crate::game::InfoArg::Number(1))
    );
    // Black does nothing about it: White wins at the start of its turn.
    let r = play(&q, "e6-e5");
    assert_eq!(
        r.outcome(),
        Some(Outcome::Win {
            winner: WHITE,
            reason: super::outcome::CROSSING
        })
    );
    assert_eq!(r.count_legal_moves(), 0);
    assert!(texts(&r).is_empty());
    assert_eq!(r.parse_move("h3-h4"), Err(MoveError::GameOver));
    // Black may answer by capturing the crossed piece: the pair c12–d12 takes it along rank 12,
    // and the majority is gone.
    let p = pos(&board(
        &[
            ("a11", 'W'),
            ("h3", 'W'),
            ("c12", 'B'),
            ("d12", 'B'),
            ("e6", 'B'),
        ],
        'w',
    ));
    let q = play(&p, "a11-a12");
    let r = play(&q, "d12xa12");
    assert_eq!(r.far_row_count(WHITE), 0);
    assert_eq!(r.outcome(), None);
    // Or by getting as many pieces to rank 1: equal counts do not win.
    let p = pos(&board(
        &[("a11", 'W'), ("h3", 'W'), ("m12", 'B'), ("e2", 'B')],
        'w',
    ));
    let q = play(&p, "a11-a12");
    let r = play(&q, "e2-e1");
    assert_eq!(r.far_row_count(BLACK), 1);
    assert_eq!(r.outcome(), None);
    // A majority of the player *not* to move does not end the game by itself.
    let p = pos(&board(&[("a12", 'W'), ("b12", 'W'), ("e6", 'B')], 'b'));
    assert_eq!(p.outcome(), None);
    assert!(p.count_legal_moves() > 0);
    // A position string where the player to move already has the majority is accepted and over.
    let p = pos(&board(&[("a12", 'W'), ("e6", 'B')], 'w'));
    assert_eq!(
        p.outcome(),
        Some(Outcome::Win {
            winner: WHITE,
            reason: super::outcome::CROSSING
        })
    );
    let p = pos(&board(&[("a12", 'W'), ("e1", 'B'), ("f1", 'B')], 'b'));
    assert_eq!(p.outcome().map(|o| o.winner()), Some(Some(BLACK)));
}

#[test]
fn a_player_without_moves_loses() {
    // Black's lone piece in the corner is walled in by White; a lone piece cannot capture.
    let p = pos(&board(
        &[("a12", 'B'), ("b12", 'W'), ("a11", 'W'), ("b11", 'W')],
        'b',
    ));
    assert_eq!(p.count_legal_moves(), 0);
    assert!(texts(&p).is_empty());
    assert_eq!(
        p.outcome(),
        Some(Outcome::Win {
            winner: WHITE,
            reason: super::outcome::NO_MOVE
        })
    );
    assert_eq!(p.parse_move("a12-a11"), Err(MoveError::GameOver));
    // A player with no pieces at all has no move either.
    let p = pos(&board(&[("c3", 'W')], 'b'));
    assert_eq!(
        p.outcome(),
        Some(Outcome::Win {
            winner: WHITE,
            reason: super::outcome::NO_MOVE
        })
    );
    // Walled in, but a pair can take one of the wall: not lost.
    let p = pos(&board(
        &[
            ("a12", 'B'),
            ("a11", 'B'),
            ("a10", 'W'),
            ("b12", 'W'),
            ("b11", 'W'),
            ("b10", 'W'),
        ],
        'b',
    ));
    assert_eq!(texts(&p), vec!["a12xa10"]);
    assert_eq!(p.outcome(), None);
}

#[test]
fn repetition_is_a_draw_and_the_hash_is_placement_and_side() {
    let start = EpaminondasPosition::start();
    let mut rec = Record::new(start.clone());
    for _ in 0..2 {
        for m in ["b2-b3", "b11-b10", "b3-b2", "b10-b11"] {
            rec.play_text(m).unwrap();
        }
    }
    assert_eq!(
        rec.outcome(),
        Some(Outcome::Draw {
            reason: Reason::REPETITION
        })
    );
    // Same placement, other side to move: another hash.
    let black = pos(&START.replace(" w", " b"));
    assert_ne!(black.hash(), start.hash());
    assert_eq!(black.hash(), black.hash_from_scratch());
    // A capture is irreversible, a plain move is not.
    let mv = start.parse_move("b2-b3").unwrap();
    assert!(!start.is_irreversible(mv));
}

#[test]
fn pieces_and_info_messages() {
    let p = EpaminondasPosition::start();
    let g = Epaminondas.info().geometry;
    let a1 = g.parse_cell("a1").unwrap();
    let n12 = g.parse_cell("n12").unwrap();
    let e6 = g.parse_cell("e6").unwrap();
    assert_eq!(
        p.piece_at(a1),
        Some(crate::game::PieceView {
            owner: 0,
            kind: 'W'
        })
    );
    assert_eq!(
        p.piece_at(n12),
        Some(crate::game::PieceView {
            owner: 1,
            kind: 'B'
        })
    );
    assert_eq!(p.piece_at(e6), None);
    assert_eq!(p.piece_at(168), None);
    assert_eq!(p.piece_at(u16::MAX), None);
    let lines = p.info_messages();
    let count = |line: usize, arg| match lines[line].arg(arg) {
        Some(crate::game::InfoArg::Number(n)) => *n,
        other => panic!("{arg}: {other:?}"),
    };
    assert_eq!((count(0, "count0"), count(0, "count1")), (0, 0));
    assert_eq!((count(1, "count0"), count(1, "count1")), (28, 28));
}

#[test]
fn registered_and_playable_through_the_dynamic_layer() {
    let game = crate::registry::find("epaminondas").unwrap();
    assert_eq!(game.info().name, "Epaminondas");
    let mut rec = game.new_game(&Default::default()).unwrap();
    assert_eq!(rec.legal_moves().len(), 114);
    assert_eq!(crate::testkit::perft_of(rec.as_ref(), 2), 12996);
    let d = rec.play("c1-c4").unwrap();
    assert_eq!(d.text, "c1-c4");
    assert!(rec.play("c1-c4").is_err());
    assert!(game.new_game_at("nonsense").is_err());
}

// ---------------------------------------------------------------------------------------------
// Bad input.

#[test]
fn bad_position_strings_are_rejected_with_the_field_at_fault() {
    let cases: &[(&str, &str, &str)] = &[
        ("", "position", "empty"),
        ("   ", "position", "empty"),
        (
            "14/14/14/14/14/14/14/14/14/14/14/14",
            "position",
            "two fields",
        ),
        (
            "14/14/14/14/14/14/14/14/14/14/14/14 w x",
            "position",
            "two fields",
        ),
        (
            "14/14/14/14/14/14/14/14/14/14/14/14  w",
            "position",
            "exactly one space",
        ),
        (
            "14/14/14/14/14/14/14/14/14/14/14/14\tw",
            "position",
            "exactly one space",
        ),
        (
            "14/14/14/14/14/14/14/14/14/14/14/14/w",
            "position",
            "found 1",
        ),
        (
            "14/14/14/14/14/14/14/14/14/14/14/14 x",
            "side to move",
            "`w` or `b`",
        ),
        (
            "14/14/14/14/14/14/14/14/14/14/14/14 W",
            "side to move",
            "`w` or `b`",
        ),
        (
            "14/14/14/14/14/14/14/14/14/14/14 w",
            "placement",
            "found 11",
        ),
        (
            "14/14/14/14/14/14/14/14/14/14/14/14/14 w",
            "placement",
            "found 13",
        ),
        (
            "14/14/14/14/14/14/14/14/14/14/14/13 w",
            "placement",
            "rank 1 has 13",
        ),
        (
            "14/14/14/14/14/14/14/14/14/14/14/14W w",
            "placement",
            "rank 1 has at least 15 cells, expected 14",
        ),
        (
            "14/14/14/14/14/14/14/14/14/14/14/7W7 w",
            "placement",
            "at least 15",
        ),
        (
            "15/14/14/14/14/14/14/14/14/14/14/14 w",
            "placement",
            "rank 12 has at least 15",
        ),
        (
            "14/14/14/14/14/14/14/14/14/14/14/99999999999999999999999 w",
            "placement",
            "is not a run of empty cells",
        ),
        (
            "14/14/14/14/14/14/14/14/14/14/14/0W13 w",
            "placement",
            "leading zero",
        ),
        (
            "14/14/14/14/14/14/14/14/14/14/14/13X w",
            "placement",
            "unexpected 'X'",
        ),
        (
            "14/14/14/14/14/14/14/14/14/14/14/13w w",
            "placement",
            "unexpected 'w'",
        ),
        (
            "14/14/14/14/14/14/14/14/14/14/14/13é w",
            "placement",
            "unexpected 'é'",
        ),
        (
            "14/14/14/14/14//14/14/14/14/14/14 w",
            "placement",
            "rank 7 has 0 cells",
        ),
        (
            "14/14/14/14/14/14/14/14/14/WWWWWWWWWWWWWW/WWWWWWWWWWWWWW/W13 w",
            "placement",
            "White has 29",
        ),
        (
            "B13/BBBBBBBBBBBBBB/BBBBBBBBBBBBBB/14/14/14/14/14/14/14/14/14 b",
            "placement",
            "Black has 29",
        ),
    ];
    for &(text, field, needle) in cases {
        match Epaminondas.parse_position(text) {
            Err(e) => {
                assert_eq!(e.field, field, "{text:?}: {e}");
                assert!(e.message.contains(needle), "{text:?}: {e}");
            }
            Ok(p) => panic!("{text:?} parsed as {p}"),
        }
    }
    // Accepted: up to 28 a side, any placement, surrounding whitespace.
    for text in [
        "14/14/14/14/14/14/14/14/14/14/14/14 w",
        "W13/14/14/14/14/14/14/14/14/14/14/13B b",
        " BBBBBBBBBBBBBB/BBBBBBBBBBBBBB/14/14/14/14/14/14/14/14/WWWWWWWWWWWWWW/WWWWWWWWWWWWWW w\n",
    ] {
        assert!(Epaminondas.parse_position(text).is_ok(), "{text:?}");
    }
    // Non-canonical runs (7 and 7 cannot be written apart, so only a split by a piece) read
    // back canonically.
    let p = pos("1W12/14/14/14/14/14/14/14/14/14/14/14 w");
    assert_eq!(p.to_string(), "1W12/14/14/14/14/14/14/14/14/14/14/14 w");
}

#[test]
fn bad_move_texts_are_rejected_with_what_is_wrong() {
    let p = EpaminondasPosition::start();
    for text in [
        "",
        "b2",
        "b2-",
        "-b3",
        "b2b3",
        "b2-b0",
        "b2-b13",
        "o2-b3",
        "B2-B3",
        "b2-b3-b4",
        "b2xx3",
        "b2–b3",
        "b99999999999999999999-b3",
        "b2 - b3",
    ] {
        match p.parse_move(text) {
            Err(MoveError::Malformed { .. }) => {}
            other => panic!("{text:?}: expected malformed, got {other:?}"),
        }
    }
    let cases: &[(&str, &str)] = &[
        ("e5-e6", "e5 is empty"),
        ("e11-e10", "enemy piece"),
        ("b2-c4", "not on one rank, file or diagonal"),
        ("b2-b2", "both b2"),
        ("b2-b4", "at most 1 square"),
        ("b1-b5", "at most 2 squares"),
        ("b1-b2", "inside the group"),
        ("a1-c1", "inside"),
        ("b1-b1", "both b1"),
        ("b2xb3", "no enemy piece on b3"),
    ];
    for &(text, needle) in cases {
        let reason = illegal_reason(&p, text);
        assert!(reason.contains(needle), "{text}: {reason}");
    }
    // Blocked paths and occupied landing squares.
    let p = pos(&board(
        &[
            ("c3", 'W'),
            ("c4", 'W'),
            ("c5", 'W'),
            ("c7", 'B'),
            ("e3", 'W'),
            ("f3", 'W'),
            ("d3", 'B'),
        ],
        'w',
    ));
    let reason = illegal_reason(&p, "c3-c8");
    assert!(reason.contains("pass over the piece on c7"), "{reason}");
    let reason = illegal_reason(&p, "c3-c7");
    assert!(reason.contains("capture is written c3xc7"), "{reason}");
    let reason = illegal_reason(&p, "f3-c3");
    assert!(reason.contains("pass over the piece on d3"), "{reason}");
    let p = pos(&board(&[("c3", 'W'), ("c5", 'W'), ("h8", 'B')], 'w'));
    let reason = illegal_reason(&p, "c3-c5");
    assert!(reason.contains("at most 1"), "{reason}");
    let p = pos(&board(
        &[("c3", 'W'), ("c4", 'W'), ("c6", 'W'), ("h8", 'B')],
        'w',
    ));
    let reason = illegal_reason(&p, "c3-c6");
    assert!(
        reason.contains("occupied by another White piece"),
        "{reason}"
    );
    // Off the board is malformed, not a crash.
    let p = EpaminondasPosition::start();
    assert!(matches!(
        p.parse_move("n2-o3"),
        Err(MoveError::Malformed { .. })
    ));
}

#[test]
fn random_text_never_panics() {
    let mut rng = Rng::new(99);
    let alphabet: Vec<char> = "WBwbx-/ 0123456789acnoé\t14".chars().collect();
    let start = EpaminondasPosition::start();
    let mut accepted = 0;
    for round in 0..20_000 {
        let mut text: String = if round % 2 == 0 {
            // A mutation of a valid string.
            let mut chars: Vec<char> = START.chars().collect();
            for _ in 0..1 + rng.below(3) {
                let i = rng.below(chars.len());
                match rng.below(3) {
                    0 => chars[i] = alphabet[rng.below(alphabet.len())],
                    1 => {
                        chars.remove(i);
                    }
                    _ => chars.insert(i, alphabet[rng.below(alphabet.len())]),
                }
            }
            chars.into_iter().collect()
        } else {
            (0..rng.below(12))
                .map(|_| alphabet[rng.below(alphabet.len())])
                .collect()
        };
        if let Ok(p) = Epaminondas.parse_position(&text) {
            accepted += 1;
            // Whatever was accepted prints and reads back the same.
            assert_eq!(pos(&p.to_string()), p, "{text:?}");
        }
        let _ = start.parse_move(&text);
        text = text.chars().take(7).collect();
        let _ = start.parse_move(&text);
    }
    assert!(accepted > 100, "{accepted}");
}

#[test]
fn parse_move_accepts_exactly_the_generated_moves() {
    let mut rng = Rng::new(1234);
    let name = |f: usize, r: usize| square::name(14, (r * 14 + f) as u16);
    let mut tried = 0;
    for game in 0..30 {
        let mut p = EpaminondasPosition::start();
        for _ in 0..(game * 7) % 120 {
            let mut v = Vec::new();
            p.legal_moves(&mut v);
            if v.is_empty() {
                break;
            }
            p.make_move(v[rng.below(v.len())]);
        }
        let legal: std::collections::BTreeSet<String> = texts(&p).into_iter().collect();
        for _ in 0..400 {
            let (f1, r1) = (rng.below(14), rng.below(12));
            // Mostly squares on a line from the first, sometimes anywhere.
            let (f2, r2) = if rng.below(4) == 0 {
                (rng.below(14), rng.below(12))
            } else {
                let (df, dr) = [
                    (1, 0),
                    (-1, 0),
                    (0, 1),
                    (0, -1),
                    (1, 1),
                    (1, -1),
                    (-1, 1),
                    (-1, -1),
                ][rng.below(8)];
                let n = 1 + rng.below(6) as i32;
                let (f, r) = (f1 as i32 + df * n, r1 as i32 + dr * n);
                if !(0..14).contains(&f) || !(0..12).contains(&r) {
                    continue;
                }
                (f as usize, r as usize)
            };
            for sep in ['-', 'x'] {
                let text = format!("{}{}{}", name(f1, r1), sep, name(f2, r2));
                tried += 1;
                match p.parse_move(&text) {
                    Ok(mv) => {
                        assert!(
                            legal.contains(&text),
                            "{p}: {text} accepted but not generated"
                        );
                        assert_eq!(p.move_text(mv), text);
                    }
                    Err(e) => assert!(!legal.contains(&text), "{p}: {text} refused: {e}"),
                }
            }
        }
    }
    assert!(tried > 10_000, "{tried}");
}

// ---------------------------------------------------------------------------------------------
// The search surface: tactics, tactical generation, move codes, null move, draws, facts.

/// Two positions where a plain move leaves the opponent no move, one where a capture takes the
/// last enemy piece, and one where the opponent is walled in but wins by crossing first.
fn win_scenarios() -> Vec<EpaminondasPosition> {
    vec![
        // Black a6 is walled in once a7 is filled: a9-a7 (the pair) or a8-a7 (alone).
        pos(&board(
            &[
                ("a5", 'W'),
                ("b5", 'W'),
                ("b6", 'W'),
                ("b7", 'W'),
                ("a8", 'W'),
                ("a9", 'W'),
                ("a6", 'B'),
            ],
            'w',
        )),
        // The same with colours and sides swapped and the wall closed from the other side.
        pos(&board(
            &[
                ("n7", 'B'),
                ("m7", 'B'),
                ("m6", 'B'),
                ("m5", 'B'),
                ("n4", 'B'),
                ("n3", 'B'),
                ("n6", 'W'),
            ],
            'b',
        )),
        // c3xc5 takes Black's last piece.
        pos(&board(&[("c3", 'W'), ("c4", 'W'), ("c5", 'B')], 'w')),
        // Black a1 is walled in and has the far-row majority: whatever White plays, Black wins
        // by crossing at the start of its turn, so no White move wins.
        pos(&board(
            &[
                ("a2", 'W'),
                ("b2", 'W'),
                ("b1", 'W'),
                ("h6", 'W'),
                ("a1", 'B'),
            ],
            'w',
        )),
    ]
}

/// Positions for the property tests: random games from the start and from the capture-rich
/// perft rows, random dense placements, and the scenarios above.
fn sample_positions() -> Vec<EpaminondasPosition> {
    let mut out = win_scenarios();
    let mut rng = Rng::new(2024);
    let mut starts = vec![EpaminondasPosition::start(); 6];
    starts.extend(
        rows()
            .into_iter()
            .filter(|r| r.1 == 1)
            .step_by(5)
            .map(|r| pos(&r.0)),
    );
    for start in starts {
        let mut p = start;
        for ply in 0..200 {
            let moves = p.moves();
            if ply % 3 == 0 || moves.is_empty() {
                out.push(p.clone());
            }
            if moves.is_empty() {
                break;
            }
            // Prefer captures, so that games thin out and end.
            let caps: Vec<_> = moves.iter().filter(|m| m.is_capture()).copied().collect();
            let mv = if !caps.is_empty() && rng.below(2) == 0 {
                caps[rng.below(caps.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            p.make_move(mv);
        }
    }
    for round in 0..150 {
        out.push(random_placement(&mut rng, round));
    }
    out
}

/// What a move does, found the slow way: the cells it captures, whose pieces they hold, and
/// the slow generator and the outcome after playing it.
fn slow_tactics(p: &EpaminondasPosition, mv: EpaminondasMove) -> Tactics {
    let cells = p.move_cells(mv).captures;
    let mut taken_kinds = 0u16;
    for &c in &cells {
        let view = p.piece_at(c).expect("a captured cell holds a piece");
        assert_eq!(view.owner, 1 - p.to_move(), "{p}: {}", p.move_text(mv));
        let kind = Epaminondas
            .info()
            .pieces
            .iter()
            .position(|k| k.letter == view.kind)
            .expect("a kind of the game");
        taken_kinds |= 1 << kind;
    }
    let mut after = p.clone();
    after.make_move(mv);
    let wins = match after.outcome() {
        Some(o) => {
            assert!(slow_moves(&after).is_empty(), "{after}");
            o.winner() == Some(p.to_move())
        }
        None => false,
    };
    Tactics {
        captures: cells.len() as u8,
        taken_kinds,
        promotion: None,
        wins,
    }
}

#[test]
fn tactics_agree_with_the_slow_reference() {
    let (mut moves, mut captures, mut wins) = (0, 0, 0);
    for p in sample_positions() {
        for &mv in p.moves().iter() {
            let t = p.tactics(mv);
            assert_eq!(t, slow_tactics(&p, mv), "{p}: {}", p.move_text(mv));
            // the search's quicker answer: the same but for the win
            let quick = Tactics { wins: false, ..t };
            assert_eq!(p.quick_tactics(mv), quick, "{p}: {}", p.move_text(mv));
            moves += 1;
            captures += (t.captures > 0) as u32;
            wins += t.wins as u32;
        }
    }
    assert!(
        moves > 50_000 && captures > 1_000 && wins > 4,
        "{moves} moves, {captures} captures, {wins} wins"
    );
}

#[test]
fn tactics_of_the_scenarios() {
    let s = win_scenarios();
    let t = |p: &EpaminondasPosition, text: &str| p.tactics(p.parse_move(text).unwrap());
    let quiet_win = Tactics {
        captures: 0,
        taken_kinds: 0,
        promotion: None,
        wins: true,
    };
    assert_eq!(t(&s[0], "a9-a7"), quiet_win);
    assert_eq!(t(&s[0], "a8-a7"), quiet_win);
    assert!(!t(&s[0], "b7-a7").wins, "b7 leaves a hole next to a6");
    assert_eq!(t(&s[1], "n3-n5"), quiet_win);
    assert_eq!(
        t(&s[2], "c3xc5"),
        Tactics {
            captures: 1,
            taken_kinds: 1 << EpaminondasKind::Black.index(),
            promotion: None,
            wins: true,
        }
    );
    assert!(s[3].moves().iter().all(|&m| !s[3].tactics(m).wins));
    let mut tactical = Vec::new();
    s[3].generate_tactical(&mut tactical);
    assert!(tactical.is_empty());
    // A triple takes a pair: two pieces of the Black kind; Black takes White pieces.
    let p = pos(&board(
        &[
            ("c2", 'W'),
            ("c3", 'W'),
            ("c4", 'W'),
            ("c5", 'B'),
            ("c6", 'B'),
            ("a12", 'B'),
        ],
        'w',
    ));
    let tc = t(&p, "c2xc5");
    assert_eq!((tc.captures, tc.taken_kinds, tc.wins), (2, 0b10, false));
    let p = pos(&board(
        &[("c7", 'B'), ("c6", 'B'), ("c5", 'W'), ("a1", 'W')],
        'b',
    ));
    assert_eq!(t(&p, "c7xc5").taken_kinds, 0b01);
    // Reaching the far row does not win on the spot, but it is a far-row gain.
    let p = pos(&board(&[("a11", 'W'), ("h3", 'W'), ("e6", 'B')], 'w'));
    let mv = p.parse_move("a11-a12").unwrap();
    assert!(!p.tactics(mv).is_tactical());
    assert_eq!(p.far_row_gain(mv), 1);
    assert_eq!(p.far_row_gain(p.parse_move("h3-h4").unwrap()), 0);
    let p = pos(&board(
        &[("a12", 'W'), ("h3", 'W'), ("e6", 'B'), ("n1", 'B')],
        'b',
    ));
    let q = play(&p, "e6-e7");
    assert_eq!(q.far_row_gain(q.parse_move("a12-a11").unwrap()), -1);
}

#[test]
fn tactical_generation_is_the_tactical_subset() {
    let mut nonempty = 0;
    for p in sample_positions() {
        let mut fast = Vec::new();
        p.generate_tactical(&mut fast);
        let set: std::collections::BTreeSet<u32> = fast.iter().map(|&m| p.move_code(m)).collect();
        assert_eq!(set.len(), fast.len(), "{p}: duplicate tactical moves");
        let slow: std::collections::BTreeSet<u32> = p
            .moves()
            .iter()
            .filter(|&&m| p.tactics(m).is_tactical())
            .map(|&m| p.move_code(m))
            .collect();
        assert_eq!(set, slow, "{p}");
        nonempty += !fast.is_empty() as u32;
    }
    assert!(nonempty > 300, "{nonempty}");
}

#[test]
fn move_codes_are_exact_and_checked() {
    let positions = sample_positions();
    let mut rng = Rng::new(5);
    let (mut foreign, mut accepted) = (0, 0);
    for (i, p) in positions.iter().enumerate() {
        let moves = p.moves();
        let mut codes = std::collections::BTreeSet::new();
        for &m in moves.iter() {
            let code = p.move_code(m);
            assert!(codes.insert(code), "{p}: two moves share the code {code}");
            assert_eq!(p.move_from_code(code), Some(m), "{p}: {}", p.move_text(m));
        }
        // Codes of other positions, and damaged codes: a legal move of this one or nothing.
        let other = &positions[(i * 7 + 3) % positions.len()];
        let mut tries: Vec<u32> = other.moves().iter().map(|&m| other.move_code(m)).collect();
        for _ in 0..50 {
            let base = tries
                .get(rng.below(tries.len().max(1)))
                .copied()
                .unwrap_or(0);
            tries.push(base ^ (1 << rng.below(32)));
            tries.push(rng.next_u64() as u32);
        }
        for code in tries {
            foreign += 1;
            if let Some(m) = p.move_from_code(code) {
                accepted += 1;
                assert!(
                    moves.contains(&m),
                    "{p}: code {code:#x} gave an illegal move"
                );
                assert_eq!(p.move_code(m), code);
            }
        }
    }
    assert!(foreign > 20_000 && accepted > 500, "{foreign} {accepted}");
}

#[test]
fn the_move_list_bound_holds() {
    let mut most = 0;
    for p in sample_positions() {
        let n = p.count_legal_moves();
        assert!(n as usize <= MAX_MOVES, "{p}: {n} moves");
        most = most.max(n);
        // The far-row majority aside, both players' moves are within the bound too.
        for player in [WHITE, BLACK] {
            assert!(p.mobility(player) as usize <= MAX_MOVES, "{p}");
        }
    }
    assert!(most > 100, "{most}");
    // The most moves found (a search over blocks of pieces, then random swaps): 554, in the
    // stack list without a panic.
    let p = pos("14/14/14/5WWWWW4/4WWWWWW4/4WWWWWW4/4WWWWWW4/4WWWWW5/14/B13/14/14 w");
    assert_eq!(p.count_legal_moves(), 554);
    assert_eq!(p.moves().len(), 554);
    check_position(&Epaminondas, &p, &slow_moves);
}

#[test]
fn draw_by_rule_agrees_with_outcome() {
    for p in sample_positions() {
        assert_eq!(p.draw_by_rule(), None);
        let outcome = p.outcome();
        assert_eq!(outcome.is_some(), p.count_legal_moves() == 0, "{p}");
        assert_eq!(outcome.is_some(), !p.has_legal_move(), "{p}");
        if let Some(o) = outcome {
            assert_eq!(o, p.outcome_without_moves());
            assert!(o.winner().is_some());
        }
    }
}

#[test]
fn the_null_move_passes_the_turn_and_is_taken_back() {
    let mut passed = 0;
    for p in sample_positions() {
        let mut q = p.clone();
        match q.make_null_move() {
            Some(undo) => {
                passed += 1;
                assert!(p.has_legal_move());
                assert_eq!(q.to_move(), 1 - p.to_move());
                assert_ne!(q.hash(), p.hash());
                assert_eq!(q.hash(), q.hash_from_scratch(), "{p}");
                // The same placement with the other side to move, read from its string.
                assert_eq!(pos(&q.to_string()), q);
                q.unmake_null_move(undo);
                assert_eq!(q, p);
                assert_eq!(q.hash(), p.hash());
            }
            None => {
                assert!(p.outcome().is_some(), "{p}");
                assert_eq!(q, p);
            }
        }
    }
    assert!(passed > 500, "{passed}");
    // Over by crossing or by no move: no null move.
    let mut won = pos(&board(&[("a12", 'W'), ("e6", 'B')], 'w'));
    assert!(won.make_null_move().is_none());
    let mut stuck = pos(&board(
        &[("a12", 'B'), ("b12", 'W'), ("a11", 'W'), ("b11", 'W')],
        'b',
    ));
    assert!(stuck.make_null_move().is_none());
}

#[test]
fn the_hash_is_the_placement_and_the_side_to_move() {
    // Each piece and the side to move change the hash; nothing else is hashed.
    let p = EpaminondasPosition::start();
    let q = play(&p, "b2-b3");
    assert_ne!(p.hash(), q.hash());
    let back = play(&play(&q, "b11-b10"), "b3-b2");
    let again = play(&back, "b10-b11");
    assert_eq!(again, p);
    assert_eq!(again.hash(), p.hash());
    let flipped = pos(&START.replace(" w", " b"));
    assert_ne!(flipped.hash(), p.hash());
}

#[test]
fn facts_and_the_read_surface() {
    let p = pos(&board(
        &[
            ("a12", 'W'),
            ("b12", 'W'),
            ("c3", 'W'),
            ("a1", 'B'),
            ("e6", 'B'),
        ],
        'b',
    ));
    let facts = p.facts();
    let get = |name: &str, player: Player| {
        facts
            .iter()
            .find(|f| f.name == name && f.player == Some(player))
            .map(|f| f.value.clone())
    };
    use crate::game::FactValue::Number;
    assert_eq!(get("far-row", WHITE), Some(Number(2)));
    assert_eq!(get("far-row", BLACK), Some(Number(1)));
    assert_eq!(get("pieces", WHITE), Some(Number(3)));
    assert_eq!(get("pieces", BLACK), Some(Number(2)));
    assert_eq!(facts.len(), 4);
    let counts: Vec<_> = p
        .info_messages()
        .iter()
        .map(|l| (l.key, l.arg("count0").cloned(), l.arg("count1").cloned()))
        .collect();
    use crate::game::InfoArg;
    assert_eq!(
        counts,
        [
            (
                "epaminondas-info-far-row",
                Some(InfoArg::Number(2)),
                Some(InfoArg::Number(1))
            ),
            (
                "epaminondas-info-pieces",
                Some(InfoArg::Number(3)),
                Some(InfoArg::Number(2))
            )
        ]
    );
    // The read surface: kinds in the order of GameInfo::pieces, pieces by player and kind.
    let g = Epaminondas.info().geometry;
    for kind in EpaminondasKind::ALL {
        assert_eq!(
            Epaminondas.info().pieces[kind.index()].letter,
            if kind == EpaminondasKind::White {
                'W'
            } else {
                'B'
            }
        );
    }
    let white = p.pieces(WHITE, EpaminondasKind::White);
    let names: Vec<String> = white.cells().map(|c| g.cell_name(c)).collect();
    assert_eq!(names, vec!["c3", "a12", "b12"]);
    assert!(p.pieces(WHITE, EpaminondasKind::Black).is_empty());
    assert_eq!(p.count(BLACK, EpaminondasKind::Black), 2);
    assert_eq!(p.count(BLACK, EpaminondasKind::White), 0);
    assert_eq!(p.occupied().count(), 5);
    assert!(p.occupied().has_cell(g.parse_cell("e6").unwrap()));
    assert!(!p.occupied().has_cell(g.parse_cell("e7").unwrap()));
    assert!(!p.occupied().has_cell(168) && !p.occupied().has_cell(u16::MAX));
    assert_eq!(p.pieces_of(BLACK), p.pieces(BLACK, EpaminondasKind::Black));
    // Mobility of both sides, the player to move's equal to its move count.
    assert_eq!(p.mobility(BLACK) as u64, p.count_legal_moves());
    assert!(p.mobility(WHITE) > 0);
}
