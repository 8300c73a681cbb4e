use std::collections::BTreeSet;

use super::*;
use crate::game::PieceSets;
use crate::game::{perft, FactValue};
use crate::outcome::Reason;
use crate::record::Record;
use crate::testkit::check_random_games;

fn pos(fen: &str) -> AckenheadPosition {
    fen.parse::<AckenheadPosition>()
        .unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn moves(p: &AckenheadPosition) -> BTreeSet<String> {
    let mut v = Vec::new();
    p.legal_moves(&mut v);
    v.iter().map(|m| m.to_string()).collect()
}

fn moves_from(fen: &str, from: &str) -> BTreeSet<String> {
    moves(&pos(fen))
        .into_iter()
        .filter(|m| m.starts_with(from))
        .collect()
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

// ---------------------------------------------------------------------------------------------
// A slow, obviously correct generator, independent of the bitboard code: it reads the FEN text
// itself, walks the board square by square, and tests legality by playing the move on a copy of
// the board and asking whether any enemy piece could then capture the King.

type Board = [[Option<(bool, char)>; 8]; 8]; // [file][rank] -> (white?, upper-case letter)

struct Slow {
    board: Board,
    white: bool,
    /// (passed square, pawn square) as (file, rank).
    ep: Option<((i32, i32), (i32, i32))>,
}

fn slow_parse(fen: &str) -> Slow {
    let f: Vec<&str> = fen.split(' ').collect();
    let mut board: Board = [[None; 8]; 8];
    for (i, row) in f[0].split('/').enumerate() {
        let rank = 7 - i;
        let mut file = 0;
        for c in row.chars() {
            if let Some(d) = c.to_digit(10) {
                file += d as usize;
            } else {
                board[file][rank] = Some((c.is_ascii_uppercase(), c.to_ascii_uppercase()));
                file += 1;
            }
        }
    }
    let white = f[1] == "w";
    let ep = (f[3] != "-").then(|| {
        let sq = |t: &str| {
            let c = crate::geometry::square::parse(8, 8, t).unwrap() as i32;
            (c % 8, c / 8)
        };
        let (a, c) = (sq(&f[3][..2]), sq(&f[3][2..]));
        // the passed square is on rank 3 (index 2) or 6 (index 5)
        if a.1 == 2 || a.1 == 5 {
            (a, c)
        } else {
            (c, a)
        }
    });
    Slow { board, white, ep }
}

fn on(f: i32, r: i32) -> bool {
    (0..8).contains(&f) && (0..8).contains(&r)
}

const ORTH: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
const DIAG: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, -1), (-1, 1)];

/// Pseudo-legal moves of the side `white` as (from, to, is en passant).
type SlowMove = ((i32, i32), (i32, i32), bool);

fn slow_pseudo(s: &Slow, white: bool) -> Vec<SlowMove> {
    let b = &s.board;
    let mut out = Vec::new();
    let at = |f: i32, r: i32| b[f as usize][r as usize];
    for f in 0..8 {
        for r in 0..8 {
            let Some((w, k)) = at(f, r) else { continue };
            if w != white {
                continue;
            }
            let hop = |dirs: &[(i32, i32)], out: &mut Vec<_>| {
                for &(df, dr) in dirs {
                    let (mut x, mut y) = (f + df, r + dr);
                    let mut screens = 0;
                    while on(x, y) {
                        match at(x, y) {
                            None => {
                                if screens == 0 {
                                    out.push(((f, r), (x, y), false));
                                }
                            }
                            Some((w2, _)) => {
                                if screens == 1 {
                                    if w2 != white {
                                        out.push(((f, r), (x, y), false));
                                    }
                                    break;
                                }
                                screens += 1;
                            }
                        }
                        x += df;
                        y += dr;
                    }
                }
            };
            match k {
                'K' => {
                    for &(df, dr) in ORTH.iter().chain(DIAG.iter()) {
                        let (x, y) = (f + df, r + dr);
                        if on(x, y) && at(x, y).is_none_or(|(w2, _)| w2 != white) {
                            out.push(((f, r), (x, y), false));
                        }
                    }
                }
                'C' => hop(&ORTH, &mut out),
                'V' => hop(&DIAG, &mut out),
                'L' => {
                    hop(&ORTH, &mut out);
                    hop(&DIAG, &mut out);
                }
                'M' => {
                    for &(df, dr) in &ORTH {
                        let (lf, lr) = (f + df, r + dr);
                        if !on(lf, lr) || at(lf, lr).is_some() {
                            continue;
                        }
                        for side in [-1, 1] {
                            let (x, y) = (lf + df + side * dr, lr + dr + side * df);
                            if on(x, y) && at(x, y).is_none_or(|(w2, _)| w2 != white) {
                                out.push(((f, r), (x, y), false));
                            }
                        }
                    }
                }
                'P' => {
                    let fwd = if white { 1 } else { -1 };
                    let start = if white { 1 } else { 6 };
                    for side in [-1, 1] {
                        let (x, y) = (f + side, r + fwd);
                        if on(x, y) && at(x, y).is_none() {
                            out.push(((f, r), (x, y), false));
                            let (x2, y2) = (f + 2 * side, r + 2 * fwd);
                            if r == start && on(x2, y2) && at(x2, y2).is_none() {
                                out.push(((f, r), (x2, y2), false));
                            }
                        }
                    }
                    let (x, y) = (f, r + fwd);
                    if on(x, y) && at(x, y).is_some_and(|(w2, _)| w2 != white) {
                        out.push(((f, r), (x, y), false));
                    }
                    if let Some((passed, pawn)) = s.ep {
                        if white == s.white
                            && passed == (f, r + fwd)
                            && at(passed.0, passed.1).is_none()
                            && at(pawn.0, pawn.1) == Some((!white, 'P'))
                        {
                            out.push(((f, r), passed, true));
                        }
                    }
                }
                _ => unreachable!(),
            }
        }
    }
    out
}

fn slow_legal(p: &AckenheadPosition) -> Vec<String> {
    let s = slow_parse(&p.to_string());
    let mut out = Vec::new();
    for (from, to, ep) in slow_pseudo(&s, s.white) {
        let mut b = s.board;
        let piece = b[from.0 as usize][from.1 as usize];
        b[from.0 as usize][from.1 as usize] = None;
        b[to.0 as usize][to.1 as usize] = piece;
        if ep {
            let (_, pawn) = s.ep.unwrap();
            b[pawn.0 as usize][pawn.1 as usize] = None;
        }
        let after = Slow {
            board: b,
            white: !s.white,
            ep: None,
        };
        let king_captured = slow_pseudo(&after, !s.white)
            .iter()
            .any(|&(_, t, _)| after.board[t.0 as usize][t.1 as usize] == Some((s.white, 'K')));
        if king_captured {
            continue;
        }
        let name = |(f, r): (i32, i32)| crate::geometry::square::name(8, (r * 8 + f) as Cell);
        let text = format!("{}{}", name(from), name(to));
        let last = if s.white { 7 } else { 0 };
        if piece.unwrap().1 == 'P' && to.1 == last {
            for c in ['l', 'c', 'v', 'm'] {
                out.push(format!("{text}{c}"));
            }
        } else {
            out.push(text);
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Perft and reference data.

#[test]
fn perft_start_to_depth_6() {
    for line in include_str!("testdata/perft.tsv").lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (fen, depth, nodes): (&str, u32, u64) =
            (cols[0], cols[1].parse().unwrap(), cols[2].parse().unwrap());
        assert_eq!(perft(&mut pos(fen), depth), nodes, "{fen} depth {depth}");
    }
}

/// Legal move lists of Fairy-Stockfish on random positions (tools/fsf_oracle.py).
#[test]
fn move_lists_equal_fairy_stockfish() {
    let mut n = 0;
    for line in include_str!("testdata/fsf_moves.tsv").lines() {
        let (fen, list) = line.split_once('\t').unwrap();
        let expected: BTreeSet<String> = list.split_whitespace().map(String::from).collect();
        let p = pos(fen);
        assert_eq!(moves(&p), expected, "{fen}");
        assert_eq!(p.count_legal_moves(), expected.len() as u64, "{fen}");
        n += 1;
    }
    assert!(n >= 300);
}

/// Perft counts of Fairy-Stockfish on random positions (tools/fsf_oracle.py).
#[test]
fn perft_equals_fairy_stockfish_on_random_positions() {
    let mut n = 0;
    for line in include_str!("testdata/fsf_perft.tsv").lines() {
        let cols: Vec<&str> = line.split('\t').collect();
        let (fen, depth, nodes): (&str, u32, u64) =
            (cols[0], cols[1].parse().unwrap(), cols[2].parse().unwrap());
        assert_eq!(perft(&mut pos(fen), depth), nodes, "{fen} depth {depth}");
        n += 1;
    }
    assert!(n >= 100);
}

#[test]
fn random_games_hold_every_property() {
    let start = pos(START_FEN);
    let checked = check_random_games(&Ackenhead, &start, 40, 200, 1, &slow_legal);
    assert!(checked > 2000, "only {checked} positions");
    // Thinner boards reach promotions and bare endings sooner.
    let sparse = pos("4k3/1p1p1p1p/2m5/8/8/5V2/P1P1P1P1/2C1K3 w - - 0 1");
    check_random_games(&Ackenhead, &sparse, 40, 150, 2, &slow_legal);
}

#[test]
fn fsf_positions_hold_every_property() {
    for line in include_str!("testdata/fsf_moves.tsv").lines() {
        let (fen, _) = line.split_once('\t').unwrap();
        crate::testkit::check_position(&Ackenhead, &pos(fen), &slow_legal);
    }
}

// ---------------------------------------------------------------------------------------------
// The pieces.

#[test]
fn pao_screens_of_both_colours() {
    // Own pawn a3 is the screen: the Pao takes the black pawn a4 right beyond it, not a7.
    let own = "4k3/m7/8/8/p7/P7/8/C3K3 w - - 0 1";
    assert_eq!(
        moves_from(own, "a1"),
        set(&["a1a2", "a1a4", "a1b1", "a1c1", "a1d1"])
    );
    // An enemy pawn a4 is the screen: the Pao takes the Mao a7 beyond it, never the screen.
    let enemy = "4k3/m7/8/8/p7/8/8/C3K3 w - - 0 1";
    assert_eq!(
        moves_from(enemy, "a1"),
        set(&["a1a2", "a1a3", "a1a7", "a1b1", "a1c1", "a1d1"])
    );
}

#[test]
fn vao_and_leo_hop_on_their_lines() {
    // Vao c1, screen e3 (own pawn), black Mao g5: captured; the Leo d1 hops e-file? no: d-file.
    let fen = "4k3/8/3m4/6m1/8/4P3/8/2VLK3 w - - 0 1";
    let vao = moves_from(fen, "c1");
    assert!(vao.contains("c1g5") && vao.contains("c1d2") && !vao.contains("c1f4"));
    // Leo d1: d-file quiet to d5, black Mao d6 has no screen before it: no capture.
    let leo = moves_from(fen, "d1");
    assert!(leo.contains("d1d5") && !leo.contains("d1d6"));
    // Leo d1 diagonal: e2 empty... b3, a4 quiet; the own pawn e3 is not on a Leo line from d1.
    assert!(leo.contains("d1a4") && leo.contains("d1e2"));
}

#[test]
fn mao_is_blocked_by_a_piece_on_its_leg() {
    assert_eq!(
        moves_from("4k3/8/8/8/8/8/8/1M2K3 w - - 0 1", "b1"),
        set(&["b1a3", "b1c3", "b1d2"])
    );
    // A pawn on b2 blocks the northern leg (a3 and c3), not the eastern one (d2).
    assert_eq!(
        moves_from("4k3/8/8/8/8/8/1P6/1M2K3 w - - 0 1", "b1"),
        set(&["b1d2"])
    );
}

#[test]
fn berolina_pawns_step_diagonally_and_capture_straight() {
    let start = pos(START_FEN);
    let e2: BTreeSet<String> = moves(&start)
        .into_iter()
        .filter(|m| m.starts_with("e2"))
        .collect();
    assert_eq!(e2, set(&["e2c4", "e2d3", "e2f3", "e2g4"]));
    // d3 occupied: no step there, and no double step through it; no straight move to e3.
    assert_eq!(
        moves_from("4k3/8/8/8/8/3p4/4P3/4K3 w - - 0 1", "e2"),
        set(&["e2f3", "e2g4"])
    );
    // A straight capture.
    assert_eq!(
        moves_from("4k3/8/8/8/8/4p3/4P3/4K3 w - - 0 1", "e2"),
        set(&["e2d3", "e2e3", "e2f3", "e2c4", "e2g4"])
    );
}

#[test]
fn double_step_sets_the_two_square_en_passant_field() {
    let mut r = Record::new(pos(START_FEN));
    r.play_text("a2c4").unwrap();
    assert_eq!(
        r.position().to_string(),
        "cmvlkvmc/pppppppp/8/8/2P5/8/1PPPPPPP/CMVLKVMC b - b3c4 0 1"
    );
    r.play_text("h7f5").unwrap();
    assert_eq!(
        r.position().to_string(),
        "cmvlkvmc/ppppppp1/8/5p2/2P5/8/1PPPPPPP/CMVLKVMC w - f5g6 0 2"
    );
}

#[test]
fn en_passant_takes_the_pawn_that_passed() {
    // Black has just played d7b5 (passing c6); the white pawn c5 stands straight in front of c6.
    let fen = "4k3/8/8/1pP5/8/8/8/4K3 w - b5c6 0 1";
    let p = pos(fen);
    assert_eq!(moves_from(fen, "c5"), set(&["c5b6", "c5c6", "c5d6"]));
    let mv = p.parse_move("c5c6").unwrap();
    let cells = p.move_cells(mv);
    assert_eq!(cells.captures, vec![33]); // b5
    let mut after = p.clone();
    after.make_move(mv);
    assert_eq!(after.to_string(), "4k3/8/2P5/8/8/8/8/4K3 b - - 0 1");
    // The same placement without the en passant field: no capture on c6.
    assert_eq!(
        moves_from("4k3/8/8/1pP5/8/8/8/4K3 w - - 0 1", "c5"),
        set(&["c5b6", "c5d6"])
    );
    // The two squares may come in either order; they print in board order.
    assert_eq!(
        pos("4k3/8/8/1pP5/8/8/8/4K3 w - c6b5 0 1").to_string(),
        "4k3/8/8/1pP5/8/8/8/4K3 w - b5c6 0 1"
    );
    // A field naming squares where no capture is possible is accepted, and gives no capture.
    let idle = pos("4k3/8/8/1p6/8/8/8/4K3 w - b5c6 0 1");
    assert_eq!(idle.to_string(), "4k3/8/8/1p6/8/8/8/4K3 w - b5c6 0 1");
    assert!(moves(&idle).iter().all(|m| !m.ends_with("c6")));
    // So is a field that is not a double step of the side that just moved (here White's own
    // b3-c4 with White to move): kept as written, and no capture: the c3 pawn may not take
    // the b3 pawn by moving to c4.
    let odd = "4k3/8/8/8/8/1pP5/8/4K3 w - b3c4 0 1";
    assert_eq!(pos(odd).to_string(), odd);
    assert_eq!(moves_from(odd, "c3"), set(&["c3b4", "c3d4"]));
    assert!(pos(odd).parse_move("c3c4").is_err());
}

#[test]
fn en_passant_that_exposes_the_king_is_illegal() {
    // White King a5, black Pao h5. With b5, c5 and e5 between them there is no check; taking
    // en passant (c5c6) removes b5 and c5 at once and leaves e5 alone as a screen: illegal.
    let fen = "4k3/8/8/KpP1P2c/8/8/8/8 w - b5c6 0 1";
    let p = pos(fen);
    assert!(!p.king_attacked(WHITE));
    assert!(!moves(&p).contains("c5c6"));
    assert!(moves(&p).contains("c5d6"));
    // Without e5 the capture leaves no screen at all: legal.
    let open = pos("4k3/8/8/KpP4c/8/8/8/8 w - b5c6 0 1");
    assert!(moves(&open).contains("c5c6"));
}

#[test]
fn promotion_is_compulsory_to_four_pieces() {
    let fen = "1m2k3/1P6/8/8/8/8/8/4K3 w - - 0 1";
    let b7 = moves_from(fen, "b7");
    let mut expected = BTreeSet::new();
    for to in ["a8", "b8", "c8"] {
        for c in ["l", "c", "v", "m"] {
            expected.insert(format!("b7{to}{c}"));
        }
    }
    assert_eq!(b7, expected);
    let p = pos(fen);
    assert!(matches!(
        p.parse_move("b7b8"),
        Err(MoveError::Illegal { .. })
    ));
    let mut after = p.clone();
    after.make_move(p.parse_move("b7b8c").unwrap());
    assert_eq!(after.to_string(), "1C2k3/8/8/8/8/8/8/4K3 b - - 0 1");
}

// ---------------------------------------------------------------------------------------------
// Check.

#[test]
fn hopper_checks_through_one_screen() {
    // The Pao e1 checks e8 through the black pawn e4.
    let fen = "4k3/8/8/8/4p3/8/8/K3C3 b - - 0 1";
    let p = pos(fen);
    assert!(p.king_attacked(BLACK));
    // Parries: step off the file, or move the screen away.
    assert_eq!(
        moves(&p),
        set(&["e8d8", "e8d7", "e8f8", "e8f7", "e4d3", "e4f3"])
    );
    // The same with White to move: the side not to move is in check.
    let err = "4k3/8/8/8/4p3/8/8/K3C3 w - - 0 1"
        .parse::<AckenheadPosition>()
        .unwrap_err();
    assert!(err.message.contains("not to move is in check"), "{err}");
}

#[test]
fn a_second_screen_parries_a_hopper_check() {
    // Two screens (c6, d7) between the Vao b5 and the King e8: no check.
    assert!(!pos("4k3/3p4/2l5/1V6/8/8/8/K7 b - - 0 1").king_attacked(BLACK));
    // One screen (d7): check. The Leo c1 parries by adding a second screen on c6; the pawn
    // parries by leaving the diagonal (d7e6) but not by stepping along it (d7c6).
    let p = pos("4k3/3p4/8/1V6/8/8/8/K1l5 b - - 0 1");
    assert!(p.king_attacked(BLACK));
    let m = moves(&p);
    assert!(m.contains("c1c6") && !m.contains("c1c5"));
    assert!(m.contains("d7e6") && !m.contains("d7c6"));
}

#[test]
fn creating_a_screen_for_an_enemy_hopper_is_illegal() {
    // Black Pao e8 faces the White King e1 with nothing between: not a check. The Vao d3 may not
    // step onto e2 or e4, which would make it the screen.
    let fen = "4c2k/8/8/8/8/3V4/8/4K3 w - - 0 1";
    let p = pos(fen);
    assert!(!p.king_attacked(WHITE));
    assert_eq!(
        moves_from(fen, "d3"),
        set(&["d3c2", "d3b1", "d3c4", "d3b5", "d3a6", "d3f1", "d3f5", "d3g6", "d3h7"])
    );
    // The King may stay on the open file.
    assert!(moves(&p).contains("e1e2"));
    let err = p.parse_move("d3e4").unwrap_err();
    assert!(err.to_string().contains("check"), "{err}");
}

#[test]
fn moving_one_of_two_screens_is_illegal() {
    // Pao e8, screens e5 (white Mao) and e3 (black pawn), King e1: the Mao may not leave the
    // file unless it stays between them.
    let fen = "4c2k/8/8/4M3/8/4p3/8/4K3 w - - 0 1";
    let p = pos(fen);
    assert!(!p.king_attacked(WHITE));
    assert!(moves_from(fen, "e5").is_empty());
}

#[test]
fn mao_check_is_blocked_on_its_leg() {
    // Black Mao d3 attacks e1 through the leg d2; a white pawn on d2 blocks it.
    assert!(pos("4k3/8/8/8/8/3m4/8/4K3 w - - 0 1").king_attacked(WHITE));
    assert!(!pos("4k3/8/8/8/8/3m4/3P4/4K3 w - - 0 1").king_attacked(WHITE));
    // Moving the blocker away (d2c3) is illegal; it would discover the check.
    assert!(!moves_from("4k3/8/8/8/8/3m4/3P4/4K3 w - - 0 1", "d2").contains("d2c3"));
}

// ---------------------------------------------------------------------------------------------
// The end of the game.

#[test]
fn checkmate_and_stalemate() {
    let mate = pos("k7/2K5/P7/8/8/8/8/C7 b - - 0 1");
    assert!(moves(&mate).is_empty());
    assert_eq!(
        mate.outcome(),
        Some(Outcome::Win {
            winner: WHITE,
            reason: Reason::CHECKMATE
        })
    );
    let stale = pos("k7/2K5/P7/8/8/8/8/8 b - - 0 1");
    assert!(moves(&stale).is_empty());
    assert_eq!(
        stale.outcome(),
        Some(Outcome::Draw {
            reason: Reason::STALEMATE
        })
    );
    assert_eq!(perft(&mut mate.clone(), 3), 0);
}

#[test]
fn threefold_repetition_draws() {
    let mut r = Record::new(pos(START_FEN));
    for m in ["e2d3", "e7d6"] {
        r.play_text(m).unwrap();
    }
    for m in ["e1e2", "e8e7", "e2e1", "e7e8", "e1e2", "e8e7", "e2e1"] {
        r.play_text(m).unwrap();
        assert_eq!(r.outcome(), None, "after {m}");
    }
    r.play_text("e7e8").unwrap();
    assert_eq!(r.repetitions(), 3);
    assert_eq!(
        r.outcome(),
        Some(Outcome::Draw {
            reason: Reason::REPETITION
        })
    );
    assert_eq!(r.play_text("e1e2"), Err(MoveError::GameOver));
    // Perft ignores it: the position itself still has moves.
    assert!(!moves(r.position()).is_empty());
    r.undo();
    assert_eq!(r.outcome(), None);
}

#[test]
fn fifty_move_rule_and_bare_kings() {
    let mut p = pos("4k3/8/8/8/8/8/4P3/4K3 w - - 99 80");
    assert_eq!(p.outcome(), None);
    let mv = p.parse_move("e1d1").unwrap();
    p.make_move(mv);
    assert_eq!(p.quiet_plies(), 100);
    assert_eq!(
        p.outcome(),
        Some(Outcome::Draw {
            reason: Reason::NO_PROGRESS
        })
    );
    // A pawn move resets the clock.
    let mut q = pos("4k3/8/8/8/8/8/4P3/4K3 w - - 99 80");
    q.make_move(q.parse_move("e2d3").unwrap());
    assert_eq!(q.quiet_plies(), 0);
    assert_eq!(
        pos("4k3/8/8/8/8/8/8/4K3 w - - 0 1").outcome(),
        Some(Outcome::Draw {
            reason: super::outcome::BARE_KINGS
        })
    );
}

// ---------------------------------------------------------------------------------------------
// Bad input.

#[test]
fn bad_fens_are_refused_with_the_field_named() {
    let cases: &[(&str, &str)] = &[
        ("", "fields"),
        (
            "cmvlkvmc/pppppppp/8/8/8/8/PPPPPPPP/CMVLKVMC w - - 0",
            "fields",
        ),
        (
            "cmvlkvmc/pppppppp/8/8/8/8/PPPPPPPP/CMVLKVMC w - - 0 1 x",
            "fields",
        ),
        ("cmvlkvmc/pppppppp/8/8/8/8/PPPPPPPP w - - 0 1", "placement"),
        (
            "cmvlkvmc/pppppppp/8/8/8/8/PPPPPPPP/CMVLKVMC/8 w - - 0 1",
            "placement",
        ),
        (
            "cmvlkvmx/pppppppp/8/8/8/8/PPPPPPPP/CMVLKVMC w - - 0 1",
            "placement",
        ),
        (
            "cmvlkvmcc/pppppppp/8/8/8/8/PPPPPPPP/CMVLKVMC w - - 0 1",
            "placement",
        ),
        (
            "cmvlkvm/pppppppp/8/8/8/8/PPPPPPPP/CMVLKVMC w - - 0 1",
            "placement",
        ),
        (
            "cmvlkvmc/pppppppp/9/8/8/8/PPPPPPPP/CMVLKVMC w - - 0 1",
            "placement",
        ),
        (
            "cmvlkvmc/pppppppp/0/8/8/8/PPPPPPPP/CMVLKVMC w - - 0 1",
            "placement",
        ),
        (
            "cmvlkvmc/pppppppp/8/8/8/8/PPPPPPPP/CMVKKVMC w - - 0 1",
            "placement",
        ),
        (
            "cmvl1vmc/pppppppp/8/8/8/8/PPPPPPPP/CMVLKVMC w - - 0 1",
            "placement",
        ),
        (
            "cmvlkvmc/pppppppp/8/8/8/8/PPPPPPPP/CMVLKVMC x - - 0 1",
            "side to move",
        ),
        (
            "cmvlkvmc/pppppppp/8/8/8/8/PPPPPPPP/CMVLKVMC w KQkq - 0 1",
            "castling",
        ),
        (
            "cmvlkvmc/pppppppp/8/8/8/8/PPPPPPPP/CMVLKVMC w - e3 0 1",
            "en passant",
        ),
        (
            "cmvlkvmc/pppppppp/8/8/8/8/PPPPPPPP/CMVLKVMC w - z9z9 0 1",
            "en passant",
        ),
        (
            "cmvlkvmc/pppppppp/8/8/8/8/PPPPPPPP/CMVLKVMC w - c4c4 0 1",
            "en passant",
        ),
        (
            "cmvlkvmc/pppppppp/8/8/8/8/PPPPPPPP/CMVLKVMC w - é3c4 0 1",
            "en passant",
        ),
        (
            "cmvlkvmc/pppppppp/8/8/8/8/PPPPPPPP/CMVLKVMC w - - x 1",
            "halfmove clock",
        ),
        (
            "cmvlkvmc/pppppppp/8/8/8/8/PPPPPPPP/CMVLKVMC w - - -1 1",
            "halfmove clock",
        ),
        (
            "cmvlkvmc/pppppppp/8/8/8/8/PPPPPPPP/CMVLKVMC w - - 99999999999999999999 1",
            "halfmove clock",
        ),
        (
            "cmvlkvmc/pppppppp/8/8/8/8/PPPPPPPP/CMVLKVMC w - - 0 0",
            "move number",
        ),
        (
            "cmvlkvmc/pppppppp/8/8/8/8/PPPPPPPP/CMVLKVMC w - - 0 y",
            "move number",
        ),
        ("4k3/8/8/8/4p3/8/8/K3C3 w - - 0 1", "position"),
        ("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "placement"),
        ("4k3/8/8/8/8/8/8/4K2p w - - 0 1", "placement"),
        ("é/8/8/8/8/8/8/8 w - - 0 1", "placement"),
    ];
    for (fen, field) in cases {
        let err = fen.parse::<AckenheadPosition>().expect_err(fen);
        assert_eq!(err.field, *field, "{fen}: {err}");
        assert!(!err.message.is_empty());
    }
    // Four fields (no counters) are accepted.
    assert_eq!(
        pos("cmvlkvmc/pppppppp/8/8/8/8/PPPPPPPP/CMVLKVMC w - -").to_string(),
        START_FEN
    );
}

#[test]
fn bad_moves_are_refused_with_a_reason() {
    let p = pos(START_FEN);
    for text in [
        "", "e2", "e2e", "e2e9", "i2i4", "e2e4x", "e2e4k", "e2e4q", "2e4e", "é2e4",
    ] {
        assert!(
            matches!(p.parse_move(text), Err(MoveError::Malformed { .. })),
            "{text}"
        );
    }
    let reason = |p: &AckenheadPosition, text: &str| match p.parse_move(text) {
        Err(MoveError::Illegal { reason, .. }) => reason,
        other => panic!("{text}: {other:?}"),
    };
    assert!(reason(&p, "e3e4").contains("no piece"));
    assert!(reason(&p, "e7d6").contains("not White's"));
    assert!(reason(&p, "e2e4").contains("cannot move"));
    assert!(reason(&p, "e2d3l").contains("only a pawn reaching the last rank"));
    assert!(reason(&p, "a1a3").contains("cannot move"));
    let promo = pos("1m2k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    assert!(reason(&promo, "b7b8").contains("must promote"));
    let mate = pos("k7/2K5/P7/8/8/8/8/C7 b - - 0 1");
    assert_eq!(mate.parse_move("a8b8"), Err(MoveError::GameOver));
}

#[test]
fn start_position_and_settings() {
    let p = Ackenhead.start(&Settings::new()).unwrap();
    assert_eq!(p.to_string(), START_FEN);
    assert!(Ackenhead
        .start(&Settings::new().with("region", "cultist"))
        .is_err());
    assert_eq!(
        p.piece_at(4),
        Some(PieceView {
            owner: 0,
            kind: 'K'
        })
    );
    assert_eq!(p.piece_at(100), None);
    // Paos attack a7, h7 and the Leo d7 from the first move, through their own pawns.
    assert!(moves(&p).contains("a1a7") && moves(&p).contains("h1h7"));
    assert!(moves(&p).contains("d1d7"));
}

/// Development aid, not a test: writes random positions with our perft counts to the file named
/// by `ACKENHEAD_DUMP` (`fen \t depth \t nodes`), for comparison with Fairy-Stockfish
/// (tools/fsf_compare.py).
#[test]
#[ignore]
fn dump_random_positions_with_perft() {
    let Ok(path) = std::env::var("ACKENHEAD_DUMP") else {
        panic!("set ACKENHEAD_DUMP to the output file");
    };
    let count: usize = std::env::var("ACKENHEAD_COUNT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1000);
    let depth: u32 = std::env::var("ACKENHEAD_DEPTH")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    let mut rng = crate::testkit::Rng::new(count as u64 ^ 0xF00D);
    let mut out = String::new();
    let mut v = Vec::new();
    for _ in 0..count {
        let mut p = pos(START_FEN);
        let greed = rng.below(100);
        let plies = 1 + rng.below(150);
        for _ in 0..plies {
            v.clear();
            p.legal_moves(&mut v);
            if v.is_empty() {
                break;
            }
            let caps: Vec<_> = v
                .iter()
                .copied()
                .filter(|&m| !p.move_cells(m).captures.is_empty())
                .collect();
            let m = if !caps.is_empty() && rng.below(100) < greed {
                caps[rng.below(caps.len())]
            } else {
                v[rng.below(v.len())]
            };
            p.make_move(m);
        }
        let n = perft(&mut p.clone(), depth);
        out.push_str(&format!("{p}\t{depth}\t{n}\n"));
    }
    std::fs::write(path, out).unwrap();
}

// ---------------------------------------------------------------------------------------------
// The search-facing surface: tactics, tactical generation, move codes, null moves, facts.

/// Positions along random games (half of the moves captures when there are some, so that
/// promotions and bare endings come), from the start and from a few thinner positions, plus
/// positions with checkmates, promotions and en passant at hand.
fn sample_positions() -> Vec<AckenheadPosition> {
    let mut out: Vec<AckenheadPosition> = [
        // b1a1 mates (the pawn a6 is the Pao's screen); a6a7 is a stalemate, not a win.
        "k7/2K5/P7/8/8/8/8/1C6 w - - 0 1",
        // b4a6 mates by making the screen of the Pao a1.
        "k7/2K5/8/8/1M6/8/8/C7 w - - 0 1",
        // Promotions with and without capture; b7a8c mates? no: the King escapes.
        "1m2k3/1P6/8/8/8/8/8/4K3 w - - 0 1",
        "1c2k3/1P6/8/8/8/8/8/4K3 w - - 0 1",
        // En passant that is legal, and one that would expose the King.
        "4k3/8/8/1pP5/8/8/8/4K3 w - b5c6 0 1",
        "4k3/8/8/KpP1P2c/8/8/8/8 w - b5c6 0 1",
        // Two black pawns that could both have passed c6: the field says which.
        "4k3/8/8/1pPp4/8/8/8/4K3 w - b5c6 0 1",
        "4k3/8/8/1pPp4/8/8/8/4K3 w - c6d5 0 1",
        // Checkmated, stalemated, in check.
        "k7/2K5/P7/8/8/8/8/C7 b - - 0 1",
        "k7/2K5/P7/8/8/8/8/8 b - - 0 1",
        "4k3/8/8/8/4p3/8/8/K3C3 b - - 0 1",
    ]
    .iter()
    .map(|f| pos(f))
    .collect();
    let mut rng = crate::testkit::Rng::new(11);
    let starts = [
        START_FEN,
        "4k3/1p1p1p1p/2m5/8/8/5V2/P1P1P1P1/2C1K3 w - - 0 1",
        "l3k2c/pp3ppp/8/8/8/8/PP3PPP/C2LK2V w - - 0 1",
    ];
    for (i, start) in starts.iter().cycle().take(30).enumerate() {
        let mut p = pos(start);
        for _ in 0..(60 + 10 * i) {
            out.push(p.clone());
            let moves = p.moves();
            if moves.is_empty() {
                break;
            }
            let caps: Vec<AckenheadMove> = moves
                .iter()
                .copied()
                .filter(|&m| !p.move_cells(m).captures.is_empty())
                .collect();
            let m = if !caps.is_empty() && rng.below(2) == 0 {
                caps[rng.below(caps.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            p.make_move(m);
        }
    }
    out
}

/// What a move does, found the slow way: the cells it captures and the pieces on them, the
/// piece on its target after it is played, and the position after it.
fn slow_tactics(p: &AckenheadPosition, mv: AckenheadMove) -> Tactics {
    let letter_index = |c: char| INFO.pieces.iter().position(|k| k.letter == c).unwrap();
    let cells = p.move_cells(mv);
    let mut taken_kinds = 0u16;
    for &c in &cells.captures {
        taken_kinds |= 1 << letter_index(p.piece_at(c).unwrap().kind);
    }
    let before = p.piece_at(cells.from.unwrap()).unwrap().kind;
    let mut after = p.clone();
    after.make_move(mv);
    let now = after.piece_at(cells.to.unwrap()).unwrap().kind;
    let promotion = (now != before).then(|| letter_index(now) as u8);
    let wins = after.count_legal_moves() == 0
        && after.outcome_without_moves().winner() == Some(p.to_move());
    Tactics {
        captures: cells.captures.len() as u8,
        taken_kinds,
        promotion,
        wins,
    }
}

#[test]
fn tactics_agree_with_a_slow_reference() {
    let (mut wins, mut promotions, mut captures, mut en_passant) = (0, 0, 0, 0);
    for p in sample_positions() {
        for &mv in p.moves().iter() {
            let t = p.tactics(mv);
            assert_eq!(t, slow_tactics(&p, mv), "{p} {mv}");
            wins += t.wins as usize;
            promotions += t.promotion.is_some() as usize;
            captures += t.captures as usize;
            en_passant +=
                (t.taken_kinds == 1 << PAWN && p.board[mv.to() as usize] == EMPTY) as usize;
        }
    }
    assert!(wins >= 2 && promotions >= 20 && captures >= 500 && en_passant >= 2);
    // The two quiet mates, and a stalemating move that wins nothing.
    let p = pos("k7/2K5/P7/8/8/8/8/1C6 w - - 0 1");
    assert!(p.tactics(p.parse_move("b1a1").unwrap()).wins);
    assert!(!p.tactics(p.parse_move("c7b6").unwrap()).wins);
    let p = pos("k7/2K5/8/8/1M6/8/8/C7 w - - 0 1");
    assert!(p.tactics(p.parse_move("b4a6").unwrap()).wins);
    assert!(!p.tactics(p.parse_move("b4c6").unwrap()).wins);
    let p = pos("1c2k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    let t = p.tactics(p.parse_move("b7b8m").unwrap());
    assert_eq!(
        (t.captures, t.taken_kinds, t.promotion),
        (1, 1 << PAO, Some(MAO))
    );
}

#[test]
fn checks_and_captures_read_without_playing() {
    let (mut checks, mut mates) = (0, 0);
    for p in sample_positions() {
        let mut captures = Vec::new();
        p.generate_captures(&mut captures);
        let got: BTreeSet<String> = captures.iter().map(|m| m.to_string()).collect();
        assert_eq!(got.len(), captures.len(), "duplicates in {p}");
        let mut want = BTreeSet::new();
        for &mv in p.moves().iter() {
            let t = p.tactics(mv);
            if t.captures > 0 || t.promotion.is_some() {
                want.insert(mv.to_string());
            }
            // Exact both ways: gives_check against the position after the move.
            let mut after = p.clone();
            after.make_move(mv);
            assert_eq!(p.gives_check(mv), after.in_check(), "{p} {mv}");
            checks += after.in_check() as usize;
            // The quick reading never says the move mates; the full one does when it does.
            assert!(!p.quick_tactics(mv).wins);
            mates += t.wins as usize;
        }
        assert_eq!(got, want, "{p}");
    }
    assert!(
        checks >= 100 && mates >= 2,
        "{checks} checks, {mates} mates"
    );
}

#[test]
fn tactical_generation_is_the_tactical_subset() {
    let mut quiet_mates = 0;
    for p in sample_positions() {
        let mut fast = Vec::new();
        p.generate_tactical(&mut fast);
        let fast_set: BTreeSet<String> = fast.iter().map(|m| m.to_string()).collect();
        assert_eq!(fast_set.len(), fast.len(), "duplicates in {p}");
        let slow: BTreeSet<String> = p
            .moves()
            .iter()
            .filter(|&&m| slow_tactics(&p, m).is_tactical())
            .map(|m| m.to_string())
            .collect();
        assert_eq!(fast_set, slow, "{p}");
        quiet_mates += fast
            .iter()
            .filter(|&&m| p.tactics(m).captures == 0 && p.tactics(m).promotion.is_none())
            .count();
    }
    assert!(quiet_mates >= 2);
}

#[test]
fn move_codes_are_exact_and_checked() {
    let positions = sample_positions();
    for (i, p) in positions.iter().enumerate() {
        let moves = p.moves();
        let codes: BTreeSet<u32> = moves.iter().map(|&m| p.move_code(m)).collect();
        assert_eq!(codes.len(), moves.len(), "{p}");
        for &m in moves.iter() {
            assert!(p.move_code(m) <= 0xFFFF);
            assert_eq!(p.move_from_code(p.move_code(m)), Some(m), "{p} {m}");
        }
        // Codes of the moves of other positions give legal moves or nothing.
        for q in positions.iter().skip(i + 1).step_by(37).take(20) {
            for &m in q.moves().iter() {
                let code = q.move_code(m);
                match p.move_from_code(code) {
                    Some(d) => assert!(moves.contains(&d) && d == m, "{p}: {m} from {q}"),
                    None => assert!(!moves.contains(&m), "{p}: legal {m} refused"),
                }
            }
        }
    }
    // Every 16-bit code (and some wider ones) on a few positions: exactly the legal moves
    // decode.
    for p in positions.iter().step_by(97) {
        let legal: BTreeSet<AckenheadMove> = p.moves().iter().copied().collect();
        let decoded: BTreeSet<AckenheadMove> = (0..=0xFFFFu32)
            .filter_map(|c| p.move_from_code(c))
            .collect();
        assert_eq!(decoded, legal, "{p}");
        for c in [
            0x1_0000,
            0x1_0000 | p.move_code(*legal.first().unwrap()),
            u32::MAX,
        ] {
            assert_eq!(p.move_from_code(c), None);
        }
    }
}

#[test]
fn random_codes_never_decode_to_an_illegal_move() {
    let mut rng = crate::testkit::Rng::new(5);
    let mut decoded = 0;
    for p in sample_positions() {
        let legal = p.moves();
        for _ in 0..2000 {
            let code = rng.next_u64() as u32 & if rng.below(4) == 0 { !0 } else { 0xFFFF };
            if let Some(m) = p.move_from_code(code) {
                assert!(legal.contains(&m), "{p}: {m}");
                decoded += 1;
            }
        }
    }
    assert!(decoded > 50, "{decoded}");
}

#[test]
fn draw_by_rule_agrees_with_the_outcome() {
    let mut positions = sample_positions();
    positions.push(pos("4k3/8/8/8/8/8/8/4K3 w - - 0 1"));
    positions.push(pos("4k3/8/8/8/8/8/4P3/4K3 w - - 100 80"));
    positions.push(pos("4k3/8/8/8/8/8/8/4K3 w - - 150 80"));
    let mut draws = 0;
    for p in positions {
        // The rule book read off the position string.
        let text = p.to_string();
        let fields: Vec<&str> = text.split(' ').collect();
        let kings_only = fields[0]
            .chars()
            .filter(|c| c.is_ascii_alphabetic())
            .count()
            == 2;
        let clock: u32 = fields[4].parse().unwrap();
        let expected = if clock >= 100 {
            Some(Reason::NO_PROGRESS)
        } else if kings_only {
            Some(super::outcome::BARE_KINGS)
        } else {
            None
        };
        let draw = p.draw_by_rule();
        assert_eq!(draw.map(|o| o.reason()), expected, "{p}");
        assert!(draw.is_none_or(|o| o.winner().is_none()));
        draws += draw.is_some() as usize;
        let outcome = if p.count_legal_moves() == 0 {
            Some(p.outcome_without_moves())
        } else {
            draw
        };
        assert_eq!(p.outcome(), outcome, "{p}");
    }
    assert!(draws >= 3);
}

#[test]
fn null_moves_hand_over_the_turn_and_come_back() {
    let mut made = 0;
    for p in sample_positions() {
        let mut q = p.clone();
        match q.make_null_move() {
            None => {
                assert_eq!(q, p);
                assert!(
                    p.in_check() || p.count_legal_moves() == 0 || p.draw_by_rule().is_some(),
                    "{p}"
                );
            }
            Some(undo) => {
                made += 1;
                assert!(!p.in_check() && p.count_legal_moves() > 0);
                assert_eq!(q.to_move(), p.to_move() ^ 1);
                assert_eq!(q.en_passant(), None);
                assert_eq!(q.hash(), q.hash_from_scratch(), "{p}");
                assert_ne!(q.hash(), p.hash());
                assert_eq!(q.quiet_plies(), p.quiet_plies());
                // The same position as the string with the side flipped and no en passant.
                let text = p.to_string();
                let f: Vec<&str> = text.split(' ').collect();
                let side = if f[1] == "w" { "b" } else { "w" };
                let flipped = format!("{} {side} - - {} {}", f[0], f[4], f[5]);
                if let Ok(r) = flipped.parse::<AckenheadPosition>() {
                    assert_eq!(q.hash(), r.hash(), "{p}");
                    assert_eq!(moves(&q), moves(&r), "{p}");
                }
                q.unmake_null_move(undo);
                assert_eq!(q, p);
                assert_eq!(q.hash(), p.hash());
            }
        }
    }
    assert!(made > 1000);
    let mut checked = pos("4k3/8/8/8/4p3/8/8/K3C3 b - - 0 1");
    assert!(checked.in_check() && checked.make_null_move().is_none());
    let mut stalemate = pos("k7/2K5/P7/8/8/8/8/8 b - - 0 1");
    assert!(stalemate.make_null_move().is_none());
    let mut bare = pos("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    assert!(bare.make_null_move().is_none());
}

#[test]
fn the_hash_tells_which_pawn_passed() {
    // Both black pawns could have passed c6: the field says which one en passant takes.
    let b5 = pos("4k3/8/8/1pPp4/8/8/8/4K3 w - b5c6 0 1");
    let d5 = pos("4k3/8/8/1pPp4/8/8/8/4K3 w - c6d5 0 1");
    assert_ne!(b5.hash(), d5.hash());
    let after = |p: &AckenheadPosition| {
        let mut q = p.clone();
        q.make_move(q.parse_move("c5c6").unwrap());
        q.to_string()
    };
    assert_eq!(after(&b5), "4k3/8/2P5/3p4/8/8/8/4K3 b - - 0 1");
    assert_eq!(after(&d5), "4k3/8/2P5/1p6/8/8/8/4K3 b - - 0 1");
    // Every part of the state changes the hash: the side, the field, a piece.
    let plain = pos("4k3/8/8/1pPp4/8/8/8/4K3 w - - 0 1");
    assert_ne!(plain.hash(), b5.hash());
    assert_ne!(
        pos("4k3/8/8/1pPp4/8/8/8/4K3 b - - 0 1").hash(),
        plain.hash()
    );
    assert_ne!(pos("4k3/8/8/1pP5/8/8/8/4K3 w - - 0 1").hash(), plain.hash());
    // And not the counters.
    assert_eq!(
        pos("4k3/8/8/1pPp4/8/8/8/4K3 w - - 7 30").hash(),
        plain.hash()
    );
}

#[test]
fn a_crowded_board_stays_within_the_move_list_bound() {
    // Many Leos (the black King hides behind two screens on each line), or many promotions
    // (three pawns, 35 moves with the King's):
    // more moves than games reach, still under the proved bound.
    for (fen, expected) in [
        ("5ppk/6pp/5p1p/1L1L1L2/8/2L1L1L1/PP6/KP6 w - - 0 1", 110),
        (
            "5ppk/6pp/5p1p/1L1L1L2/L1L1L1L1/1L1L1L2/L1L1L1L1/K7 w - - 0 1",
            102,
        ),
        ("m1m1m1pk/P1P1P1pp/5p1p/8/8/8/8/K7 w - - 0 1", 35),
    ] {
        let p = pos(fen);
        let n = p.count_legal_moves() as usize;
        assert!(n <= MAX_MOVES && p.moves().len() == n, "{fen}: {n}");
        assert_eq!(n, expected, "{fen}");
    }
}

#[test]
fn facts_and_info_messages() {
    let p = pos("4k3/8/8/1pP5/8/8/8/4K3 w - b5c6 7 30");
    let facts = p.facts();
    let get = |name: &str| facts.iter().find(|f| f.name == name).unwrap().value.clone();
    assert_eq!(get("move-number"), FactValue::Number(30));
    assert_eq!(get("quiet-plies"), FactValue::Number(7));
    assert_eq!(get("check"), FactValue::Flag(false));
    assert_eq!(get("en-passant"), FactValue::Cell(Some(42)));
    use crate::game::{InfoArg, InfoLine};
    let move_line = |number, quiet| {
        InfoLine::new(
            "ackenhead-info-move",
            vec![
                ("number", InfoArg::Number(number)),
                ("quiet", InfoArg::Number(quiet)),
            ],
        )
    };
    assert_eq!(
        p.info_messages(),
        [
            move_line(30, 7),
            InfoLine::new(
                "ackenhead-info-en-passant",
                vec![("cell", InfoArg::Cell(42))]
            )
        ]
    );
    let checked = pos("4k3/8/8/8/4p3/8/8/K3C3 b - - 0 1");
    assert_eq!(
        checked.info_messages(),
        [
            move_line(1, 0),
            InfoLine::new("ackenhead-info-check", Vec::new())
        ]
    );
    // A field that allows no capture shows nothing.
    let idle = pos("4k3/8/8/1p6/8/8/8/4K3 w - b5c6 0 1");
    assert!(idle.facts().contains(&crate::game::Fact {
        name: "en-passant",
        player: None,
        value: FactValue::Cell(None)
    }));
    for f in p.facts() {
        assert!(f.name.bytes().all(|b| b.is_ascii_lowercase() || b == b'-'));
    }
}

#[test]
fn read_access_for_evaluations() {
    for (i, k) in AckenheadKind::ALL.iter().enumerate() {
        assert_eq!(INFO.pieces[i].letter, k.letter());
        assert_eq!(k.index(), i);
        assert_eq!(AckenheadKind::from_index(i), Some(*k));
    }
    assert_eq!(AckenheadKind::from_index(6), None);
    let p = pos(START_FEN);
    assert_eq!(p.count(WHITE, AckenheadKind::Pawn), 8);
    assert_eq!(p.count(BLACK, AckenheadKind::Pao), 2);
    assert_eq!(p.pieces(WHITE, AckenheadKind::Leo), 1 << 3);
    assert_eq!(p.pieces(BLACK, AckenheadKind::King), 1 << 60);
    assert_eq!(p.pieces(2, AckenheadKind::King), 0);
    assert_eq!(p.occupied(), 0xFFFF_0000_0000_FFFF);
    assert_eq!(p.king_square(BLACK), Some(60));
    assert_eq!(p.king_square(7), None);
    assert_eq!(p.piece(3), Some((WHITE, AckenheadKind::Leo)));
    assert_eq!(p.piece(64), None);
    assert!(!p.king_attacked(5));
    for q in sample_positions().iter().step_by(7) {
        let us = q.to_move();
        assert_eq!(q.mobility(us) as u64, q.count_legal_moves());
        let text = q.to_string();
        let f: Vec<&str> = text.split(' ').collect();
        let side = if f[1] == "w" { "b" } else { "w" };
        let flipped = format!("{} {side} - - {} {}", f[0], f[4], f[5]);
        if let Ok(r) = flipped.parse::<AckenheadPosition>() {
            assert_eq!(q.mobility(us ^ 1) as u64, r.count_legal_moves(), "{q}");
        }
        let total: u32 = AckenheadKind::ALL
            .iter()
            .map(|&k| q.count(WHITE, k) + q.count(BLACK, k))
            .sum();
        assert_eq!(total, q.occupied().count_ones());
    }
    assert_eq!(p.mobility(2), 0);
}
