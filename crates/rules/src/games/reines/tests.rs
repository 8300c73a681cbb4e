//! Tests of Jeu de Reines: the reference perft table, scenarios built from the rules file, bad
//! input, and random games checked against `Slow`, an independent, obviously-correct model of
//! the rules (a plain 8x8 array of pieces, moves as text) written here and sharing no code with
//! the bitboard implementation.

use super::*;
use crate::error::MoveError;
use crate::game::PieceSets;
use crate::game::{perft, Game, Position, Settings};
use crate::outcome::{Outcome, Reason};
use crate::record::Record;
use crate::testkit::{check_position, Rng};

const PERFT: &str = include_str!("testdata/perft.tsv");
const START: &str = "5s1q/4w1c1/5w1s/6w1/1W6/S1W5/1C1W4/Q1S5 w d2c3b4g5f6e7 -/- 0 1";
const START_CULTIST: &str = "5S1Q/4W1C1/5W1S/6W1/1w6/s1w5/1c1w4/q1s5 b d2c3b4g5f6e7 -/- 0 1";

fn pos(text: &str) -> ReinesPosition {
    Reines
        .parse_position(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn texts(p: &ReinesPosition) -> Vec<String> {
    let mut v = Vec::new();
    p.legal_moves(&mut v);
    let mut t: Vec<String> = v.iter().map(|&m| p.move_text(m)).collect();
    t.sort();
    t
}

fn play(p: &ReinesPosition, text: &str) -> ReinesPosition {
    let mv = p
        .parse_move(text)
        .unwrap_or_else(|e| panic!("{p}: {text}: {e}"));
    let mut next = p.clone();
    next.make_move(mv);
    next
}

fn play_all(p: &ReinesPosition, moves: &[&str]) -> ReinesPosition {
    moves.iter().fold(p.clone(), |p, m| play(&p, m))
}

fn sorted(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

// ---------------------------------------------------------------------------------------------
// The slow model.

type Steps<const N: usize> = [(i32, i32); N];

#[derive(Clone, Debug)]
struct Slow {
    /// `board[file][rank]`: (owner, upper-case kind letter).
    board: [[Option<(u8, char)>; 8]; 8],
    to_move: u8,
    unmoved: [[bool; 8]; 8],
    /// Pending counters of each people (0 = Termides). Owners and `to_move` are peoples too
    /// (0 = Termides), as in the position string; outcomes are in turn order.
    ponte: [Vec<u8>; 2],
    quiet: u64,
    number: u64,
    passes: u32,
}

fn sq_name(f: i32, r: i32) -> String {
    format!("{}{}", (b'a' + f as u8) as char, r + 1)
}

fn sq_parse(s: &str) -> (i32, i32) {
    let b = s.as_bytes();
    ((b[0] - b'a') as i32, (b[1] - b'1') as i32)
}

impl Slow {
    fn parse(text: &str) -> Slow {
        let f: Vec<&str> = text.split(' ').collect();
        let mut board = [[None; 8]; 8];
        for (i, row) in f[0].split('/').enumerate() {
            let r = 7 - i;
            let mut file = 0;
            for c in row.chars() {
                if let Some(d) = c.to_digit(10) {
                    file += d as usize;
                } else {
                    let owner = if c.is_uppercase() { 0 } else { 1 };
                    board[file][r] = Some((owner, c.to_ascii_uppercase()));
                    file += 1;
                }
            }
        }
        let mut unmoved = [[false; 8]; 8];
        if f[2] != "-" {
            for i in (0..f[2].len()).step_by(2) {
                let (a, b) = sq_parse(&f[2][i..i + 2]);
                unmoved[a as usize][b as usize] = true;
            }
        }
        let (t, m) = f[3].split_once('/').unwrap();
        let counters = |s: &str| -> Vec<u8> {
            if s == "-" {
                vec![]
            } else {
                s.bytes().map(|b| b - b'0').collect()
            }
        };
        Slow {
            board,
            to_move: if f[1] == "w" { 0 } else { 1 },
            unmoved,
            ponte: [counters(t), counters(m)],
            quiet: f[4].parse().unwrap(),
            number: f[5].parse().unwrap(),
            passes: 0,
        }
    }

    fn at(&self, f: i32, r: i32) -> Option<(u8, char)> {
        if (0..8).contains(&f) && (0..8).contains(&r) {
            self.board[f as usize][r as usize]
        } else {
            None
        }
    }

    fn queens(&self) -> usize {
        self.board
            .iter()
            .flatten()
            .filter(|p| matches!(p, Some((_, 'Q'))))
            .count()
    }

    /// The people in the a1 corner, read from the Queens.
    fn a1_player(&self) -> u8 {
        match (self.board[0][0], self.board[7][7]) {
            (Some((o, 'Q')), _) => o,
            (_, Some((o, 'Q'))) => 1 - o,
            _ => unreachable!(),
        }
    }

    fn moves(&self) -> Vec<String> {
        if self.queens() < 2 {
            return vec![];
        }
        let me = self.to_move;
        let in_a1 = self.a1_player() == me;
        let mut out = Vec::new();
        for f in 0..8 {
            for r in 0..8 {
                let Some((owner, kind)) = self.at(f, r) else {
                    continue;
                };
                if owner != me {
                    continue;
                }
                let mut add = |tf: i32, tr: i32, can_take: bool, can_go: bool| -> bool {
                    if !(0..8).contains(&tf) || !(0..8).contains(&tr) {
                        return false;
                    }
                    match self.at(tf, tr) {
                        None => {
                            if can_go {
                                out.push(format!("{}-{}", sq_name(f, r), sq_name(tf, tr)));
                            }
                            true
                        }
                        Some((o, _)) => {
                            if o != me && can_take {
                                out.push(format!("{}x{}", sq_name(f, r), sq_name(tf, tr)));
                            }
                            false
                        }
                    }
                };
                match kind {
                    'C' => {
                        for (df, dr) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
                            let mut k = 1;
                            while add(f + df * k, r + dr * k, true, true) {
                                k += 1;
                            }
                        }
                    }
                    'S' => {
                        for (df, dr) in [
                            (1, 2),
                            (2, 1),
                            (2, -1),
                            (1, -2),
                            (-1, -2),
                            (-2, -1),
                            (-2, 1),
                            (-1, 2),
                        ] {
                            add(f + df, r + dr, true, true);
                        }
                    }
                    'W' => {
                        let (fwd, caps): (Steps<2>, Steps<3>) = if in_a1 {
                            ([(0, 1), (1, 0)], [(1, 1), (-1, 1), (1, -1)])
                        } else {
                            ([(0, -1), (-1, 0)], [(-1, -1), (1, -1), (-1, 1)])
                        };
                        for (df, dr) in fwd {
                            let empty1 = add(f + df, r + dr, false, true);
                            if empty1 && self.unmoved[f as usize][r as usize] {
                                add(f + 2 * df, r + 2 * dr, false, true);
                            }
                        }
                        for (df, dr) in caps {
                            add(f + df, r + dr, true, false);
                        }
                    }
                    _ => {}
                }
            }
        }
        if out.is_empty() {
            out.push("pass".to_string());
        }
        out
    }

    fn apply(&self, text: &str) -> Slow {
        let mut s = self.clone();
        let me = s.to_move;
        let them = 1 - me;
        let a1 = s.a1_player();
        let mut queen_taken = false;
        if text == "pass" {
            s.quiet += 1;
            s.passes += 1;
        } else {
            s.passes = 0;
            let (ff, fr) = sq_parse(&text[0..2]);
            let (tf, tr) = sq_parse(&text[3..5]);
            let piece = s.board[ff as usize][fr as usize].take().unwrap();
            let victim = s.board[tf as usize][tr as usize];
            s.board[tf as usize][tr as usize] = Some(piece);
            let moved_worker = piece.1 == 'W';
            s.unmoved[ff as usize][fr as usize] = false;
            s.unmoved[tf as usize][tr as usize] = false;
            match victim {
                Some((_, 'W')) => s.ponte[them as usize].push(2),
                Some((_, 'Q')) => queen_taken = true,
                _ => {}
            }
            if victim.is_some() || moved_worker {
                s.quiet = 0;
            } else {
                s.quiet += 1;
            }
        }
        if me != a1 {
            s.number += 1;
        }
        s.to_move = them;
        if !queen_taken {
            let counters = &mut s.ponte[them as usize];
            for c in counters.iter_mut() {
                *c = c.saturating_sub(1);
            }
            let (pf, pr) = if them == a1 { (1, 1) } else { (6, 6) };
            if let Some(i) = counters.iter().position(|&c| c == 0) {
                if s.board[pf][pr].is_none() {
                    counters.remove(i);
                    s.board[pf][pr] = Some((them, 'W'));
                    s.unmoved[pf][pr] = true;
                }
            }
        }
        s
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.queens() < 2 {
            let people = if self.board.iter().flatten().any(|p| *p == Some((0, 'Q'))) {
                0
            } else {
                1
            };
            // Players are numbered in turn order: the people in a1 is player 0.
            return Some(Outcome::Win {
                winner: people ^ self.a1_player(),
                reason: super::outcome::QUEEN_CAPTURED,
            });
        }
        if self.passes >= 2 {
            return Some(Outcome::Draw {
                reason: Reason::PASSES,
            });
        }
        if self.quiet >= 100 {
            return Some(Outcome::Draw {
                reason: Reason::NO_PROGRESS,
            });
        }
        None
    }

    fn print(&self) -> String {
        let mut rows = Vec::new();
        for r in (0..8).rev() {
            let mut row = String::new();
            let mut gap = 0;
            for f in 0..8 {
                match self.board[f][r] {
                    None => gap += 1,
                    Some((o, k)) => {
                        if gap > 0 {
                            row += &gap.to_string();
                            gap = 0;
                        }
                        row.push(if o == 0 { k } else { k.to_ascii_lowercase() });
                    }
                }
            }
            if gap > 0 {
                row += &gap.to_string();
            }
            rows.push(row);
        }
        let mut unmoved = String::new();
        for r in 0..8 {
            for f in 0..8 {
                if self.unmoved[f][r] {
                    unmoved += &sq_name(f as i32, r as i32);
                }
            }
        }
        if unmoved.is_empty() {
            unmoved.push('-');
        }
        let counters = |v: &Vec<u8>| -> String {
            let mut v = v.clone();
            v.sort();
            if v.is_empty() {
                "-".to_string()
            } else {
                v.iter().map(|c| c.to_string()).collect()
            }
        };
        format!(
            "{} {} {} {}/{} {} {}",
            rows.join("/"),
            if self.to_move == 0 { "w" } else { "b" },
            unmoved,
            counters(&self.ponte[0]),
            counters(&self.ponte[1]),
            self.quiet,
            self.number
        )
    }
}

fn slow_moves(p: &ReinesPosition) -> Vec<String> {
    Slow::parse(&p.to_string()).moves()
}

fn slow_perft(s: &Slow, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    s.moves()
        .iter()
        .map(|m| slow_perft(&s.apply(m), depth - 1))
        .sum()
}

/// Every check of `testkit::check_position`, for a position that may have passes in a row
/// behind it. The hash covers those passes and the string cannot show them, so the string
/// round trip is checked on a copy without them (the legal moves are the same), and the
/// incremental hash and make/unmake on the position itself.
fn check(p: &ReinesPosition) -> Vec<ReinesMove> {
    let mut q = p.clone();
    q.passes = 0;
    q.hash = q.compute_hash();
    let moves = check_position(&Reines, &q, &slow_moves);
    assert_eq!(p.hash(), p.hash_from_scratch(), "incremental hash of {p}");
    for by in 0..2 {
        let one_by_one = (0..64)
            .filter(|&sq| p.attackers(sq, by) != 0)
            .fold(0u64, |set, sq| set | 1 << sq);
        assert_eq!(
            p.attacked_squares(by),
            one_by_one,
            "{p}: squares attacked by {by}"
        );
    }
    for &mv in &moves {
        let mut after = p.clone();
        let undo = after.make_move(mv);
        assert_eq!(after.hash(), after.hash_from_scratch(), "{p} then {mv:?}");
        after.unmake_move(mv, undo);
        assert_eq!(&after, p, "{p}: unmake of {mv:?}");
    }
    moves
}

/// `testkit::check_random_games` with [`check`] at every position.
fn check_random_games(start: &ReinesPosition, games: usize, plies: usize, seed: u64) -> usize {
    let mut rng = Rng::new(seed);
    let mut checked = 0;
    for _ in 0..games {
        let mut p = start.clone();
        for _ in 0..plies {
            let moves = check(&p);
            checked += 1;
            if moves.is_empty() {
                break;
            }
            p.make_move(moves[rng.below(moves.len())]);
        }
    }
    checked
}

/// Plays random games; at every position, every legal move's result (position string and
/// outcome, passes in a row included) must be what the slow model says.
fn check_against_slow(start: &ReinesPosition, games: usize, plies: usize, seed: u64) -> usize {
    let mut rng = Rng::new(seed);
    let mut checked = 0;
    for _ in 0..games {
        let mut p = start.clone();
        let mut s = Slow::parse(&p.to_string());
        for _ in 0..plies {
            let moves = check(&p);
            checked += 1;
            assert_eq!(p.to_string(), s.print());
            assert_eq!(p.outcome(), s.outcome(), "outcome of {p}");
            if moves.is_empty() {
                break;
            }
            for &mv in &moves {
                let mut after = p.clone();
                after.make_move(mv);
                let s_after = s.apply(&p.move_text(mv));
                assert_eq!(
                    after.to_string(),
                    s_after.print(),
                    "{p} then {}",
                    p.move_text(mv)
                );
                assert_eq!(after.outcome(), s_after.outcome());
            }
            let mv = moves[rng.below(moves.len())];
            s = s.apply(&p.move_text(mv));
            p.make_move(mv);
        }
    }
    checked
}

// ---------------------------------------------------------------------------------------------
// Perft.

fn perft_rows() -> Vec<(String, u32, u64)> {
    PERFT
        .lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            (
                cols[0].to_string(),
                cols[1].parse().unwrap(),
                cols[2].parse().unwrap(),
            )
        })
        .collect()
}

/// Every row of the reference table, depth 6 included (under a second each in the test
/// profile).
#[test]
fn perft_table() {
    let rows = perft_rows();
    assert_eq!(rows.len(), 12);
    for (text, depth, nodes) in rows {
        let mut p = pos(&text);
        assert_eq!(p.to_string(), text);
        assert_eq!(perft(&mut p, depth), nodes, "perft({depth}) of {text}");
    }
}

#[test]
fn perft_of_both_start_settings() {
    for (region, text) in [
        ("neutral", START),
        ("animist", START),
        ("cultist", START_CULTIST),
    ] {
        let mut p = Reines
            .start(&Settings::new().with("region", region))
            .unwrap();
        assert_eq!(p.to_string(), text, "{region}");
        assert_eq!(perft(&mut p, 4), 285_588, "{region}");
    }
}

#[test]
fn slow_model_agrees_with_perft_table() {
    for text in [START, START_CULTIST] {
        assert_eq!(slow_perft(&Slow::parse(text), 3), 12_824);
    }
}

// ---------------------------------------------------------------------------------------------
// Setup and settings.

#[test]
fn region_setting() {
    let info = Reines.info();
    assert_eq!(info.id, "reines");
    assert_eq!(info.settings.len(), 1);
    let s = &info.settings[0];
    assert_eq!(s.name, "region");
    assert_eq!(s.values, &["neutral", "animist", "cultist"]);
    assert_eq!(s.default, "neutral");
    assert_eq!(Reines.start(&Settings::new()).unwrap().to_string(), START);
    assert!(Reines
        .start(&Settings::new().with("region", "martian"))
        .is_err());
    assert!(Reines
        .start(&Settings::new().with("colour", "red"))
        .is_err());

    use crate::game::{InfoArg, InfoLine};
    let region_line = |region| {
        InfoLine::new(
            "reines-info-region",
            vec![
                ("region", InfoArg::Word(region)),
                ("player", InfoArg::Player(0)),
            ],
        )
    };
    for (region, first) in [
        ("neutral", People::Termides),
        ("animist", People::Termides),
        ("cultist", People::Myrmides),
    ] {
        let p = Reines
            .start(&Settings::new().with("region", region))
            .unwrap();
        // Players in turn order: player 0 moves first, whoever it is.
        assert_eq!(p.to_move(), 0);
        assert_eq!(p.people(0), Some(first));
        assert_eq!(p.player_of(first), 0);
        assert_eq!(p.player_names()[0], first.name());
        assert_eq!(p.info_messages()[0], region_line(region));
    }
    // From a string the region is read from the Queens.
    assert_eq!(
        pos(START_CULTIST).info_messages()[0],
        region_line("cultist")
    );
    assert_eq!(
        pos(START).info_messages()[0],
        region_line("neutral-or-animist")
    );
    // The region is for display: it does not change equality or the hash.
    let n = Reines
        .start(&Settings::new().with("region", "animist"))
        .unwrap();
    assert_eq!(n, pos(START));
}

#[test]
fn start_moves() {
    let p = pos(START);
    let expected = sorted(&[
        // Counsellor b2: b1, a2, c2 (d2 own Worker), b3 (b4 own Worker).
        "b2-b1", "b2-a2", "b2-c2", "b2-b3", // Soldier a3: b1, b5, c2, c4.
        "a3-b1", "a3-b5", "a3-c2", "a3-c4", // Soldier c1: a2, b3, e2, d3 (e2 and d3).
        "c1-a2", "c1-b3", "c1-e2", "c1-d3",
        // Workers, single and double steps north and east.
        "b4-b5", "b4-b6", "b4-c4", "b4-d4", "c3-c4", "c3-c5", "c3-d3", "c3-e3", "d2-d3", "d2-d4",
        "d2-e2", "d2-f2",
    ]);
    assert_eq!(texts(&p), expected);
    assert_eq!(p.count_legal_moves(), 24);
    // The mirrored start: the Myrmides in a1 have the same moves.
    assert_eq!(texts(&pos(START_CULTIST)), expected);
}

#[test]
fn piece_at_owner_and_kind() {
    use crate::game::PieceView;
    let p = pos(START);
    let at = |name: &str| p.piece_at(crate::geometry::square::parse(8, 8, name).unwrap());
    assert_eq!(
        at("a1"),
        Some(PieceView {
            owner: 0,
            kind: 'Q'
        })
    );
    assert_eq!(
        at("b2"),
        Some(PieceView {
            owner: 0,
            kind: 'C'
        })
    );
    assert_eq!(
        at("c1"),
        Some(PieceView {
            owner: 0,
            kind: 'S'
        })
    );
    assert_eq!(
        at("d2"),
        Some(PieceView {
            owner: 0,
            kind: 'W'
        })
    );
    assert_eq!(
        at("h8"),
        Some(PieceView {
            owner: 1,
            kind: 'Q'
        })
    );
    assert_eq!(
        at("g5"),
        Some(PieceView {
            owner: 1,
            kind: 'W'
        })
    );
    assert_eq!(at("e4"), None);
    assert_eq!(p.piece_at(64), None);
    assert_eq!(p.piece_at(u16::MAX), None);
    // Cultist: the Myrmides hold a1 and move first, so they are player 0.
    let c = pos(START_CULTIST);
    assert_eq!(
        c.piece_at(0),
        Some(PieceView {
            owner: 0,
            kind: 'Q'
        })
    );
}

#[test]
fn registry_and_dynamic_layer() {
    let g = crate::registry::find("reines").unwrap();
    let mut rec = g
        .new_game(&Settings::new().with("region", "cultist"))
        .unwrap();
    assert_eq!(rec.position_string(), START_CULTIST);
    assert_eq!(rec.to_move(), 0);
    assert_eq!(rec.player_names(), &["Myrmides", "Termides"]);
    assert_eq!(rec.legal_moves().len(), 24);
    let d = rec.play("b4-b6").unwrap();
    assert_eq!(d.cells.from, Some(25));
    assert_eq!(d.cells.to, Some(41));
    assert!(rec.play("a1-a2").is_err());
    assert!(g.new_game_at("nonsense").is_err());
}

// ---------------------------------------------------------------------------------------------
// Pieces.

#[test]
fn worker_of_the_a1_player() {
    // Termides in a1. Worker d4 (moved): north d5, east e4; captures NE e5, NW c5, SE e3;
    // never SW c3, never straight ahead onto a piece.
    let p = pos("7q/8/8/2wsw3/3W4/2s1w3/8/Q7 w - -/- 0 1");
    let w: Vec<String> = texts(&p)
        .into_iter()
        .filter(|m| m.starts_with("d4"))
        .collect();
    assert_eq!(w, sorted(&["d4xc5", "d4xe5", "d4xe3", "d4-e4"]));
    // Blocked straight ahead by a piece it cannot take straight.
    let p = pos("7q/8/8/3s4/3Ws3/8/8/Q7 w - -/- 0 1");
    assert!(
        texts(&p).iter().all(|m| !m.starts_with("d4")),
        "{:?}",
        texts(&p)
    );
    // The east step does not wrap from the h file; NE and SE captures neither.
    let p = pos("7q/8/8/s7/7W/s7/8/Q7 w - -/- 0 1");
    assert_eq!(texts(&p), sorted(&["h4-h5"]));
}

#[test]
fn worker_of_the_h8_player() {
    // Myrmides in h8 (neutral). Worker e5: south e4, west d5; captures SW d4, SE f4, NW d6;
    // never NE f6.
    let p = pos("7q/8/3CWS2/4w3/3W1W2/8/8/Q7 b - -/- 0 1");
    let w: Vec<String> = texts(&p)
        .into_iter()
        .filter(|m| m.starts_with("e5"))
        .collect();
    assert_eq!(w, sorted(&["e5-e4", "e5-d5", "e5xd4", "e5xf4", "e5xd6"]));
    // The west step does not wrap from the a file.
    let p = pos("7q/8/8/8/w7/8/8/Q7 b - -/- 0 1");
    assert_eq!(texts(&p), sorted(&["a4-a3"]));
}

#[test]
fn worker_directions_follow_the_corner_not_the_colour() {
    // Cultist: the Myrmides hold a1, so their Workers go north and east.
    let p = pos("7Q/8/8/8/3w4/8/8/q7 b - -/- 0 1");
    assert_eq!(texts(&p), sorted(&["d4-d5", "d4-e4"]));
    let p = pos("7Q/8/8/8/3W4/8/8/q7 w - -/- 0 1");
    assert_eq!(texts(&p), sorted(&["d4-d3", "d4-c4"]));
}

#[test]
fn double_step_only_unmoved_and_both_squares_empty() {
    // b4 unmoved: b5, b6, c4, d4. After b4-b5 the Worker has moved: no double step any more.
    let p = pos("7q/8/8/8/1W6/8/8/Q7 w b4 -/- 0 1");
    assert_eq!(texts(&p), sorted(&["b4-b5", "b4-b6", "b4-c4", "b4-d4"]));
    let p = play_all(&p, &["b4-b5", "pass"]);
    assert_eq!(p.to_string(), "7q/8/8/1W6/8/8/8/Q7 w - -/- 1 2");
    assert_eq!(texts(&p), sorted(&["b5-b6", "b5-c5"]));
    // The same square without the unmoved mark: single steps only.
    let p = pos("7q/8/8/8/1W6/8/8/Q7 w - -/- 0 1");
    assert_eq!(texts(&p), sorted(&["b4-b5", "b4-c4"]));
    // Middle square occupied: no double step in that direction; far square occupied: neither.
    let p = pos("7q/8/8/wc6/1W1s4/8/8/Q7 w b4 -/- 0 1");
    assert_eq!(texts(&p), sorted(&["b4-c4", "b4xa5"]));
    // A double step is never a capture.
    let p = pos("7q/8/8/8/1W1s4/8/8/Q7 w b4 -/- 0 1");
    assert!(!texts(&p).contains(&"b4xd4".to_string()));
}

#[test]
fn counsellor_and_soldier() {
    let p = pos("7q/8/8/1s1C2w1/8/8/3W4/Q7 w - -/- 0 1");
    let c: Vec<String> = texts(&p)
        .into_iter()
        .filter(|m| m.starts_with("d5"))
        .collect();
    assert_eq!(
        c,
        sorted(&[
            "d5-d6", "d5-d7", "d5-d8", "d5-d4", "d5-d3", "d5-c5", "d5xb5", "d5-e5", "d5-f5",
            "d5xg5"
        ])
    );
    // A Soldier leaps over pieces and captures on its landing square only.
    let p = pos("7q/8/8/8/w7/1ws5/wSs5/Q7 w - -/- 0 1");
    assert_eq!(texts(&p), sorted(&["b2-d1", "b2-d3", "b2xa4", "b2-c4"]));
}

#[test]
fn queen_never_moves() {
    // Only the Queen left: the Termides must pass.
    let p = pos("7q/8/8/8/8/8/8/Q7 w - -/- 0 1");
    assert_eq!(texts(&p), vec!["pass".to_string()]);
    match p.parse_move("a1-a2") {
        Err(MoveError::Illegal { reason, .. }) => assert!(reason.contains("Queen never moves")),
        other => panic!("{other:?}"),
    }
}

// ---------------------------------------------------------------------------------------------
// The Ponte.

#[test]
fn ponte_timeline() {
    // Termides capture a Myrmides Worker; the Myrmides have a Soldier to move.
    let p = pos("s6q/8/8/4w3/8/8/4C3/Q7 w - -/- 0 1");
    // Ply 1, Termides: the capture. The Myrmides' start-of-turn step already ran: counter 1
    // (a 2 never shows).
    let p = play(&p, "e2xe5");
    assert_eq!(p.to_string(), "s6q/8/8/4C3/8/8/8/Q7 b - -/1 0 1");
    assert_eq!(p.pending(1), vec![1]);
    assert_eq!(
        (p.pending_count(0), p.pending_count(1), p.pending_count(2)),
        (0, 1, 0)
    );
    let ponte = &p.info_messages()[2];
    assert_eq!(ponte.key, "reines-info-ponte");
    assert_eq!(ponte.arg("count"), Some(&crate::game::InfoArg::Number(1)));
    // Ply 2: the Myrmides' first turn after the capture: no Worker yet.
    let p = play(&p, "a8-b6");
    assert_eq!(p.to_string(), "7q/8/1s6/4C3/8/8/8/Q7 w - -/1 1 2");
    // Ply 3, Termides; then at the start of the Myrmides' second turn the Worker is back on
    // g7, unmoved. Its return does not reset the quiet plies.
    let p = play(&p, "e5-e4");
    assert_eq!(p.to_string(), "7q/6w1/1s6/8/4C3/8/8/Q7 b g7 -/- 2 2");
    // It may double-step south (g5) and west (e7).
    let w: Vec<String> = texts(&p)
        .into_iter()
        .filter(|m| m.starts_with("g7"))
        .collect();
    assert_eq!(w, sorted(&["g7-g6", "g7-g5", "g7-f7", "g7-e7"]));
    let q = play(&p, "g7-e7");
    assert_eq!(q.unmoved_workers(), 0);
    assert_eq!(q.to_string(), "7q/4w3/1s6/8/4C3/8/8/Q7 w - -/- 0 3");
}

#[test]
fn ponte_of_the_a1_player() {
    // Cultist seating: the Myrmides hold a1, their Ponte square is b2. The Termides' Worker on
    // d4 takes the Myrmides' Worker on c3 (h8 player's SW capture).
    let p = pos("7Q/8/8/8/3W4/2w5/8/q1s5 w - -/- 0 1");
    let p = play(&p, "d4xc3");
    assert_eq!(p.to_string(), "7Q/8/8/8/8/2W5/8/q1s5 b - -/1 0 2");
    let p = play_all(&p, &["c1-a2", "c3-b3"]);
    // Back on b2 at the start of the Myrmides' second turn; it double-steps north and east.
    assert_eq!(p.to_string(), "7Q/8/8/8/8/1W6/sw6/q7 b b2 -/- 0 3");
    let w: Vec<String> = texts(&p)
        .into_iter()
        .filter(|m| m.starts_with("b2"))
        .collect();
    // (b3 is taken by the Termides' Worker: no step north, and no capture straight ahead)
    assert_eq!(w, sorted(&["b2-c2", "b2-d2"]));
}

#[test]
fn ponte_waits_while_the_square_is_occupied() {
    // The Myrmides' own Soldier sits on g7 when the counter reaches 0.
    let p = pos("s6q/6s1/8/4w3/8/8/4C3/Q7 w - -/- 0 1");
    let p = play_all(&p, &["e2xe5", "a8-b6", "e5-e4"]);
    assert_eq!(p.to_string(), "7q/6s1/1s6/8/4C3/8/8/Q7 b - -/0 2 2");
    // The Soldier leaves g7: the Worker comes back only at the start of the next turn.
    let p = play(&p, "g7-f5");
    assert_eq!(p.to_string(), "7q/8/1s6/5s2/4C3/8/8/Q7 w - -/0 3 3");
    let p = play(&p, "e4-e3");
    assert_eq!(p.to_string(), "7q/6w1/1s6/5s2/8/4C3/8/Q7 b g7 -/- 4 3");

    // An enemy piece on the Ponte square blocks it too: the Counsellor takes the Worker on g7
    // and stays there.
    let p = pos("7q/6w1/8/8/8/8/6C1/Q1S5 w g7 -/- 0 1");
    let p = play(&p, "g2xg7");
    assert_eq!(p.to_string(), "7q/6C1/8/8/8/8/8/Q1S5 b - -/1 0 1");
    let p = play_all(&p, &["pass", "c1-d3"]);
    assert_eq!(p.to_string(), "7q/6C1/8/8/8/3S4/8/Q7 b - -/0 2 2");
    let p = play_all(&p, &["pass", "g7-g1"]);
    assert_eq!(p.to_string(), "7q/6w1/8/8/8/3S4/8/Q5C1 b g7 -/- 4 3");
}

#[test]
fn ponte_returns_one_worker_per_turn() {
    let p = pos("7q/6s1/8/8/8/8/4C3/Q7 b - -/00 0 1");
    let p = play(&p, "g7-f5");
    assert_eq!(p.to_string(), "7q/8/8/5s2/8/8/4C3/Q7 w - -/00 1 2");
    let p = play(&p, "e2-e3");
    assert_eq!(p.to_string(), "7q/6w1/8/5s2/8/4C3/8/Q7 b g7 -/0 2 2");
    let p = play(&p, "g7-g6");
    assert_eq!(p.to_string(), "7q/8/6w1/5s2/8/4C3/8/Q7 w - -/0 0 3");
    let p = play(&p, "e3-e2");
    assert_eq!(p.to_string(), "7q/6w1/6w1/5s2/8/8/4C3/Q7 b g7 -/- 1 3");
    // A second capture while one is waiting: counters 0 and 1 side by side, in order.
    let p = pos("s6q/6s1/8/8/8/4w3/4C3/Q7 b - -/0 0 1");
    let p = play_all(&p, &["a8-b6", "e2xe3"]);
    assert_eq!(p.to_string(), "7q/6s1/1s6/8/8/4C3/8/Q7 b - -/01 0 2");
    let p = play_all(&p, &["g7-e6", "e3-e2"]);
    assert_eq!(p.to_string(), "7q/6w1/1s2s3/8/8/8/4C3/Q7 b g7 -/0 2 3");
    let p = play_all(&p, &["g7-g6", "e2-e3"]);
    assert_eq!(p.to_string(), "7q/6w1/1s2s1w1/8/8/4C3/8/Q7 b g7 -/- 1 4");
}

#[test]
fn unmoved_worker_captured_loses_its_mark() {
    let p = pos("7q/8/8/6w1/8/8/6C1/Q7 w g5 -/- 0 1");
    let p = play(&p, "g2xg5");
    assert_eq!(p.to_string(), "7q/8/8/6C1/8/8/8/Q7 b - -/1 0 1");
}

// ---------------------------------------------------------------------------------------------
// End of the game.

#[test]
fn queen_capture_wins_and_stops_everything() {
    // The Myrmides have a Worker pending; capturing their Queen ends the game before their
    // Ponte step.
    let p = pos("7q/7C/8/8/8/8/8/Q7 w - -/1 0 1");
    let mut after = play(&p, "h7xh8");
    assert_eq!(after.to_string(), "7C/8/8/8/8/8/8/Q7 b - -/1 0 1");
    assert_eq!(
        after.outcome(),
        Some(Outcome::Win {
            winner: 0,
            reason: super::outcome::QUEEN_CAPTURED
        })
    );
    assert!(texts(&after).is_empty());
    assert_eq!(after.count_legal_moves(), 0);
    assert_eq!(perft(&mut after, 3), 0);
    assert_eq!(after.parse_move("pass"), Err(MoveError::GameOver));
    assert_eq!(after.parse_move("h8-h7"), Err(MoveError::GameOver));
    // A string with a single Queen is a finished game; the winner is the Queen's owner (here
    // the Myrmides, in a1: player 0).
    let q = pos("8/8/8/8/8/8/8/q7 w - -/- 0 1");
    assert_eq!(q.outcome().and_then(|o| o.winner()), Some(0));
    assert!(texts(&q).is_empty());
    // The Myrmides' Worker takes the Termides' Queen diagonally.
    let p = pos("7q/8/8/8/8/8/1w6/Q7 b - -/- 0 1");
    let after = play(&p, "b2xa1");
    assert_eq!(after.outcome().and_then(|o| o.winner()), Some(1));
}

#[test]
fn pass_is_forced_and_only_then() {
    // The Termides' Worker on g8 is stuck (north off the board, east the Queen, no capture):
    // they must pass. The Myrmides have only their Queen: they pass too, and the game is drawn.
    let p = pos("6Wq/8/8/8/8/8/8/Q7 w - -/- 0 1");
    assert_eq!(texts(&p), vec!["pass".to_string()]);
    assert_eq!(p.count_legal_moves(), 1);
    let p1 = play(&p, "pass");
    assert_eq!(p1.to_string(), "6Wq/8/8/8/8/8/8/Q7 b - -/- 1 1");
    assert_eq!(p1.outcome(), None);
    assert_eq!(p1.passes_in_a_row(), 1);
    let p2 = play(&p1, "pass");
    assert_eq!(p2.to_string(), "6Wq/8/8/8/8/8/8/Q7 w - -/- 2 2");
    assert_eq!(
        p2.outcome(),
        Some(Outcome::Draw {
            reason: Reason::PASSES
        })
    );
    // Perft ignores that draw: passing goes on.
    assert_eq!(texts(&p2), vec!["pass".to_string()]);
    assert_eq!(perft(&mut p2.clone(), 4), 1);
    // Equal strings, different pass history: unequal positions and hashes (after two passes
    // the game is drawn, after none it is not).
    assert_ne!(p2.hash(), p.hash());
    assert_ne!(p2.hash(), p1.hash());
    assert_ne!(p2, pos(&p2.to_string()));
    // A Record stops at the draw.
    let mut rec = Record::new(p.clone());
    rec.play_text("pass").unwrap();
    rec.play_text("pass").unwrap();
    assert_eq!(rec.play_text("pass"), Err(MoveError::GameOver));

    // Passing is illegal with a move available.
    match pos(START).parse_move("pass") {
        Err(MoveError::Illegal { reason, .. }) => assert!(reason.contains("only with no legal")),
        other => panic!("{other:?}"),
    }
    // A pass, then a real move, then a pass: no draw.
    let p = pos("6Wq/8/8/8/8/8/8/Q6s w - -/- 0 1");
    let p = play_all(&p, &["pass", "h1-g3", "pass"]);
    assert_eq!(p.passes_in_a_row(), 1);
    assert_eq!(p.outcome(), None);
    // A Worker that can capture SE is not stuck.
    let p = pos("6Wq/7s/8/8/8/8/8/Q7 w - -/- 0 1");
    assert_eq!(texts(&p), vec!["g8xh7".to_string()]);
}

#[test]
fn quiet_plies_draw() {
    let p = pos("7q/8/8/8/8/8/8/QC5s w - -/- 98 50");
    let p = play(&p, "b1-b2");
    assert_eq!(p.outcome(), None);
    let p = play(&p, "h1-g3");
    assert_eq!(p.to_string(), "7q/8/8/8/8/6s1/1C6/Q7 w - -/- 100 51");
    assert_eq!(
        p.outcome(),
        Some(Outcome::Draw {
            reason: Reason::NO_PROGRESS
        })
    );
    assert!(!texts(&p).is_empty());
    // A Worker move and a capture reset the count; a pass does not.
    let p = pos("7q/8/8/8/8/8/W7/QC5s w - -/- 50 50");
    assert_eq!(play(&p, "a2-a3").quiet_plies(), 0);
    assert_eq!(play(&p, "b1-b2").quiet_plies(), 51);
    let p = pos("7q/8/8/8/8/8/8/Q6s w - -/- 50 50");
    assert_eq!(play(&p, "pass").quiet_plies(), 51);
    let p = pos("7q/8/8/8/8/8/8/QC5s w - -/- 50 50");
    assert_eq!(play(&p, "b1xh1").quiet_plies(), 0);
}

#[test]
fn threefold_repetition() {
    let mut rec = Record::new(pos(START));
    let cycle = ["a3-b1", "h6-g8", "b1-a3", "g8-h6"];
    for m in cycle {
        rec.play_text(m).unwrap();
    }
    assert_eq!(rec.repetitions(), 2);
    assert_eq!(rec.outcome(), None);
    for m in cycle {
        rec.play_text(m).unwrap();
    }
    assert_eq!(rec.position().to_string(), START.replace("0 1", "8 5"));
    assert_eq!(
        rec.outcome(),
        Some(Outcome::Draw {
            reason: Reason::REPETITION
        })
    );
}

#[test]
fn hash_covers_the_string_minus_counters() {
    let a = pos(START);
    assert_eq!(a.hash(), pos(&START.replace("0 1", "17 40")).hash());
    // Unmoved workers are compared.
    assert_ne!(a.hash(), pos(&START.replace("d2c3b4", "c3b4")).hash());
    // Side to move.
    let b = pos("7q/8/8/8/8/8/8/QC6 b - 1/- 0 1");
    assert_ne!(b.hash(), pos("7q/8/8/8/8/8/8/QC6 w - 1/- 0 1").hash());
    // Ponte counters, per people.
    let c = pos("7q/8/8/8/8/8/8/QC6 b - 0/- 0 1");
    let d = pos("7q/8/8/8/8/8/8/QC6 b - 01/- 0 1");
    let e = pos("7q/6C1/8/8/8/8/8/Q7 w - -/1 0 1");
    let f = pos("7q/6C1/8/8/8/8/8/Q7 w - -/0 0 1");
    let g = pos("7q/6C1/8/8/8/8/8/Q7 w - -/- 0 1");
    let hs = [b.hash(), c.hash(), d.hash(), e.hash(), f.hash(), g.hash()];
    for i in 0..hs.len() {
        for j in 0..i {
            assert_ne!(hs[i], hs[j], "{i} {j}");
        }
    }
    for p in [&a, &b, &c, &d, &e, &f, &g] {
        assert_eq!(p.hash(), p.hash_from_scratch());
    }
}

#[test]
fn move_number_follows_the_second_player() {
    // Cultist: the Myrmides (b) are first; the number grows after the Termides' move.
    let p = play(&pos(START_CULTIST), "b4-b5");
    assert_eq!(
        p.to_string(),
        "5S1Q/4W1C1/5W1S/1w4W1/8/s1w5/1c1w4/q1s5 w d2c3g5f6e7 -/- 0 1"
    );
    let p = play(&p, "g5-g4");
    assert!(p.to_string().ends_with(" 0 2"), "{p}");
    let p = play(&pos(START), "b4-b5");
    assert!(p.to_string().ends_with(" 0 1"), "{p}");
    let p = play(&p, "g5-g4");
    assert!(p.to_string().ends_with(" 0 2"), "{p}");
}

// ---------------------------------------------------------------------------------------------
// Bad input.

#[test]
fn bad_position_strings_name_the_field() {
    let cases: &[(&str, &str, &str)] = &[
        ("", "fields", "6 fields"),
        ("7q/8/8/8/8/8/8/Q7 w - -/- 0", "fields", "6 fields"),
        ("7q/8/8/8/8/8/8/Q7 w - -/- 0 1 x", "fields", "6 fields"),
        ("7q/8/8/8/8/8/Q7 w - -/- 0 1", "placement", "8 ranks"),
        ("7q/8/8/8/8/8/8/8/Q7 w - -/- 0 1", "placement", "8 ranks"),
        (
            "7q/9/8/8/8/8/8/Q7 w - -/- 0 1",
            "placement",
            "at least 9 cells",
        ),
        (
            "7q/08/8/8/8/8/8/Q7 w - -/- 0 1",
            "placement",
            "is not a run",
        ),
        (
            "7q/7/8/8/8/8/8/Q7 w - -/- 0 1",
            "placement",
            "rank 7 has 7 cells",
        ),
        (
            "7q/8p/8/8/8/8/8/Q7 w - -/- 0 1",
            "placement",
            "unexpected 'p'",
        ),
        (
            "7q/4K3/8/8/8/8/8/Q7 w - -/- 0 1",
            "placement",
            "unexpected 'K' (expected a number of empty cells or a piece: Q C S W",
        ),
        (
            "7q/44W/8/8/8/8/8/Q7 w - -/- 0 1",
            "placement",
            "at least 44 cells",
        ),
        (
            "7q/4é3/8/8/8/8/8/Q7 w - -/- 0 1",
            "placement",
            "unexpected 'é'",
        ),
        ("7q/8/8/3Q4/8/8/8/Q7 w - -/- 0 1", "placement", "3 Queens"),
        ("7Q/8/8/8/8/8/8/Q7 w - -/- 0 1", "placement", "two Queens"),
        (
            "7q/8/8/8/8/8/Q7/8 w - -/- 0 1",
            "placement",
            "Queen is on a2",
        ),
        ("8/8/8/8/8/8/8/8 w - -/- 0 1", "placement", "no Queen"),
        (
            "7q/8/8/8/8/8/8/QCC5 w - -/- 0 1",
            "placement",
            "2 Counsellors",
        ),
        (
            "7q/8/8/8/8/8/8/QSSS4 w - -/- 0 1",
            "placement",
            "3 Soldiers",
        ),
        (
            "7q/8/8/8/8/8/WWWW4/Q7 w - -/- 0 1",
            "placement",
            "4 Workers",
        ),
        (
            "7q/8/8/8/8/8/8/Q7 x - -/- 0 1",
            "side to move",
            "w (Termides) or b",
        ),
        (
            "7q/8/8/8/8/8/8/Q7 W - -/- 0 1",
            "side to move",
            "w (Termides) or b",
        ),
        (
            "7q/8/8/8/8/8/8/Q7 w d -/- 0 1",
            "unmoved workers",
            "square names",
        ),
        (
            "7q/8/8/8/8/8/8/Q7 w z9 -/- 0 1",
            "unmoved workers",
            "not a square",
        ),
        (
            "7q/8/8/8/8/8/8/Q7 w é1 -/- 0 1",
            "unmoved workers",
            "square names",
        ),
        (
            "7q/8/8/8/8/8/8/Q7 w d2 -/- 0 1",
            "unmoved workers",
            "no Worker on d2",
        ),
        (
            "7q/8/8/8/8/2W5/3W4/Q7 w c3d2 -/- 0 1",
            "unmoved workers",
            "order",
        ),
        (
            "7q/8/8/8/8/8/3W4/Q7 w d2d2 -/- 0 1",
            "unmoved workers",
            "order",
        ),
        (
            "7q/8/8/8/4W3/8/8/Q7 w e4 -/- 0 1",
            "unmoved workers",
            "cannot be unmoved",
        ),
        (
            "7q/8/8/6W1/8/8/8/Q7 w g5 -/- 0 1",
            "unmoved workers",
            "cannot be unmoved",
        ),
        (
            "7q/8/8/8/8/8/8/Q7 w - 01 0 1",
            "ponte",
            "<Termides counters>/",
        ),
        ("7q/8/8/8/8/8/8/Q7 w - 2/- 0 1", "ponte", "0 or 1"),
        ("7q/8/8/8/8/8/8/Q7 w - -/9 0 1", "ponte", "0 or 1"),
        ("7q/8/8/8/8/8/8/Q7 w - a/- 0 1", "ponte", "digits"),
        ("7q/8/8/8/8/8/8/Q7 w - 10/- 0 1", "ponte", "ascending"),
        ("7q/8/8/8/8/8/8/Q7 w - /- 0 1", "ponte", "empty"),
        ("7q/8/8/8/8/8/8/Q7 w - -/1111 0 1", "ponte", "more than 3"),
        ("7q/8/8/8/8/8/8/Q7 w - -/1/1 0 1", "ponte", "digits"),
        (
            "7q/8/8/8/8/8/WW6/Q7 w - 11/- 0 1",
            "ponte",
            "at most 3 together",
        ),
        (
            "7q/8/8/8/8/8/8/Q7 w - 0/- 0 1",
            "ponte",
            "would already have placed",
        ),
        (
            "7q/8/8/8/8/8/8/Q7 w - -/- -1 1",
            "quiet plies",
            "whole number",
        ),
        (
            "7q/8/8/8/8/8/8/Q7 w - -/- x 1",
            "quiet plies",
            "whole number",
        ),
        (
            "7q/8/8/8/8/8/8/Q7 w - -/- 99999999999999999999 1",
            "quiet plies",
            "too large",
        ),
        ("7q/8/8/8/8/8/8/Q7 w - -/- 0 0", "move number", "at least 1"),
        (
            "7q/8/8/8/8/8/8/Q7 w - -/- 0 +1",
            "move number",
            "whole number",
        ),
        (
            "7q/8/8/8/8/8/8/Q7 w - -/- 0 4294967296",
            "move number",
            "too large",
        ),
    ];
    for &(text, field, words) in cases {
        match Reines.parse_position(text) {
            Ok(p) => panic!("{text:?} parsed as {p}"),
            Err(e) => {
                assert_eq!(e.field, field, "{text:?}: {e}");
                assert!(e.message.contains(words), "{text:?}: {e}");
            }
        }
    }
    // Accepted edge cases: a waiting Worker of the player not to move with an empty Ponte
    // square (it vacated during their own move), and huge but valid counters.
    pos("7q/8/8/8/8/8/8/Q7 b - 0/- 0 1");
    let p = pos("7q/8/8/8/8/8/8/QC6 w - -/- 4294967295 4294967295");
    let p = play_all(&p, &["b1-b2", "pass"]);
    assert_eq!(p.quiet_plies(), u32::MAX);
    assert_eq!(p.move_number(), u32::MAX);
}

#[test]
fn bad_move_texts() {
    let p = pos(START);
    for text in [
        "", "b4", "b4b5", "b4-b55", "b4_b5", "b9-b5", "i4-b5", "b4-b5x", "é4-b5", "b4–b5", "pas",
    ] {
        match p.parse_move(text) {
            Err(MoveError::Malformed { .. }) => {}
            other => panic!("{text:?}: {other:?}"),
        }
    }
    let illegal = [
        ("e4-e5", "no piece on e4"),
        ("g5-g4", "belongs to the Myrmides"),
        ("a1-a2", "Queen never moves"),
        ("b4-b7", "Worker on b4 cannot go to b7"),
        ("b2-b4", "Counsellor on b2 cannot go to b4"),
        ("b2xb3", "nothing to capture on b3: write b2-b3"),
        ("pass", "only with no legal move"),
    ];
    for (text, words) in illegal {
        match p.parse_move(text) {
            Err(MoveError::Illegal { reason, .. }) => {
                assert!(reason.contains(words), "{text}: {reason}")
            }
            other => panic!("{text:?}: {other:?}"),
        }
    }
    let q = pos("7q/8/8/8/8/8/8/QC5s w - -/- 0 1");
    match q.parse_move("b1-h1") {
        Err(MoveError::Illegal { reason, .. }) => assert!(reason.contains("write b1xh1")),
        other => panic!("{other:?}"),
    }
    // Friendly spellings: surrounding spaces, upper case.
    assert_eq!(
        q.parse_move(" B1XH1 ").map(|m| m.text()),
        Ok("b1xh1".to_string())
    );
}

// ---------------------------------------------------------------------------------------------
// Random games against the slow model.

#[test]
fn random_games_from_the_starts() {
    let mut n = 0;
    for (i, start) in [START, START_CULTIST].iter().enumerate() {
        n += check_random_games(&pos(start), 20, 150, 11 + i as u64);
        n += check_against_slow(&pos(start), 20, 200, 101 + i as u64);
    }
    assert!(n > 3000, "{n}");
}

#[test]
fn random_games_from_sparse_positions() {
    // Few pieces: passes, long Ponte waits, Queen captures.
    let starts = [
        "6Wq/8/8/8/8/8/8/Q6s w - -/- 0 1",
        "7q/6s1/8/8/8/8/4C3/Q7 b - -/00 0 1",
        "7Q/8/8/8/3W4/2w5/8/q1s5 w - -/- 0 1",
        "s6q/6s1/8/4w3/8/8/4C3/Q7 w - -/- 0 1",
        "7q/1w4W1/8/8/8/8/1w4W1/Q7 w - 0/0 0 1",
        "6Sq/6w1/8/8/8/8/1W6/Q1s5 b b2g7 1/1 0 1",
    ];
    let mut n = 0;
    for (i, s) in starts.iter().enumerate() {
        n += check_against_slow(&pos(s), 15, 120, 7 + i as u64);
    }
    assert!(n > 1000, "{n}");
}

#[test]
fn random_games_exercise_the_ponte_and_passes() {
    // Counts what random games from the start go through, so the checks above are known to
    // cover Worker returns (an unmoved Worker on a Ponte square) and pending counters.
    let mut rng = Rng::new(5);
    let (mut returns, mut pending, mut passes) = (0, 0, 0);
    for _ in 0..40 {
        let mut p = pos(START);
        for _ in 0..200 {
            let mut moves = Vec::new();
            p.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            passes += mv.is_pass() as u32;
            p.make_move(mv);
            if p.unmoved_workers() & ((1 << 9) | (1 << 54)) != 0 {
                returns += 1;
            }
            if !p.pending(0).is_empty() || !p.pending(1).is_empty() {
                pending += 1;
            }
        }
    }
    assert!(
        returns > 50 && pending > 200,
        "{returns} {pending} {passes}"
    );
}

#[test]
fn info_messages_show_the_ponte() {
    use crate::game::{InfoArg, InfoLine};
    let cell = |name| InfoArg::Cell(crate::geometry::square::parse(8, 8, name).unwrap());
    let ponte = |player, at, counters: &[i64], when, square| {
        InfoLine::new(
            "reines-info-ponte",
            vec![
                ("player", InfoArg::Player(player)),
                ("cell", cell(at)),
                ("count", InfoArg::Number(counters.len() as i64)),
                ("counters", InfoArg::Numbers(counters.to_vec())),
                ("when", InfoArg::Word(when)),
                ("square", InfoArg::Word(square)),
            ],
        )
    };
    let p = pos("7q/6s1/1s6/8/8/4C3/8/Q7 b - -/01 0 2");
    let lines = p.info_messages();
    assert_eq!(
        lines[1],
        InfoLine::new(
            "reines-info-ponte-empty",
            vec![("player", InfoArg::Player(0)), ("cell", cell("b2"))]
        )
    );
    assert_eq!(lines[2], ponte(1, "g7", &[0, 1], "next-turn", "occupied"));
    let lines = pos(START).info_messages();
    let unmoved = |player, cells: [&str; 3]| {
        InfoLine::new(
            "reines-info-unmoved-of",
            vec![
                ("player", InfoArg::Player(player)),
                ("count", InfoArg::Number(3)),
                (
                    "cells",
                    InfoArg::Cells(
                        cells
                            .map(|c| crate::geometry::square::parse(8, 8, c).unwrap())
                            .to_vec(),
                    ),
                ),
            ],
        )
    };
    assert_eq!(
        lines[3],
        InfoLine::new(
            "reines-info-unmoved",
            vec![(
                "players",
                InfoArg::Lines(vec![
                    unmoved(0, ["d2", "c3", "b4"]),
                    unmoved(1, ["g5", "f6", "e7"])
                ])
            )]
        )
    );
    assert_eq!(
        lines[4],
        InfoLine::new(
            "reines-info-quiet",
            vec![
                ("count", InfoArg::Number(0)),
                ("limit", InfoArg::Number(100)),
                ("number", InfoArg::Number(1)),
            ]
        )
    );
    let p = pos("7q/8/8/8/8/8/8/QC6 b - 1/- 0 1");
    assert_eq!(
        p.info_messages()[1],
        ponte(0, "b2", &[1], "after-this-move", "free")
    );
}

/// Random edits of valid strings and random move texts: never a panic; whatever parses prints
/// a string that parses back the same and passes every testkit check.
#[test]
fn mutated_strings_never_panic() {
    const ALPHABET: &[u8] = b"012345678QCSWqcswbx-/ 9a1h8de";
    let seeds = [
        START,
        START_CULTIST,
        "7q/6s1/1s6/8/8/4C3/8/Q7 b - -/01 0 2",
        "6Sq/6w1/8/8/8/8/1W6/Q1s5 b b2g7 1/1 0 1",
    ];
    let mut rng = Rng::new(99);
    let mut parsed = 0;
    for i in 0..4000 {
        let mut bytes = seeds[i % seeds.len()].as_bytes().to_vec();
        for _ in 0..1 + rng.below(3) {
            let at = rng.below(bytes.len() + 1);
            let c = ALPHABET[rng.below(ALPHABET.len())];
            match rng.below(3) {
                0 if at < bytes.len() => bytes[at] = c,
                1 if at < bytes.len() => {
                    bytes.remove(at);
                }
                _ => bytes.insert(at, c),
            }
        }
        let text = String::from_utf8(bytes).unwrap();
        if let Ok(p) = Reines.parse_position(&text) {
            parsed += 1;
            check_position(&Reines, &p, &slow_moves);
            let printed = p.to_string();
            assert_eq!(pos(&printed).to_string(), printed);
        }
    }
    assert!(parsed > 40, "{parsed}");
    let p = pos(START);
    for _ in 0..2000 {
        let len = rng.below(7);
        let text: String = (0..len)
            .map(|_| ALPHABET[rng.below(ALPHABET.len())] as char)
            .collect();
        let _ = p.parse_move(&text);
    }
}

// ---------------------------------------------------------------------------------------------
// The search-facing surface: tactics, tactical generation, move codes, draws, the null move,
// the hash of the passes, players in turn order, facts, read access.

const SPARSE: [&str; 6] = [
    "6Wq/8/8/8/8/8/8/Q6s w - -/- 0 1",
    "7q/6s1/8/8/8/8/4C3/Q7 b - -/00 0 1",
    "7Q/8/8/8/3W4/2w5/8/q1s5 w - -/- 0 1",
    "s6q/6s1/8/4w3/8/8/4C3/Q7 w - -/- 0 1",
    "7q/1w4W1/8/8/8/8/1w4W1/Q7 w - 0/0 0 1",
    "6Sq/6w1/8/8/8/8/1W6/Q1s5 b b2g7 1/1 0 1",
];

/// Every position of random games from both starts and the sparse positions (passes, Queen
/// captures, Ponte returns, draws by passing included: play goes on past the draws).
fn sample_positions() -> Vec<ReinesPosition> {
    let mut rng = Rng::new(2024);
    let mut out = Vec::new();
    let starts: Vec<&str> = [START, START_CULTIST].into_iter().chain(SPARSE).collect();
    for start in starts {
        for _ in 0..6 {
            let mut p = pos(start);
            for _ in 0..120 {
                out.push(p.clone());
                let moves = p.moves();
                if moves.is_empty() {
                    break;
                }
                p.make_move(moves[rng.below(moves.len())]);
            }
        }
    }
    out
}

fn kind_index(letter: char) -> usize {
    Reines
        .info()
        .pieces
        .iter()
        .position(|k| k.letter == letter)
        .unwrap()
}

/// What a move does, worked out the slow way: its cells, the pieces on them, and playing it.
fn slow_tactics(p: &ReinesPosition, mv: ReinesMove) -> Tactics {
    let cells = p.move_cells(mv);
    let mut taken_kinds = 0u16;
    for &c in &cells.captures {
        let piece = p.piece_at(c).expect("a captured piece");
        assert_ne!(piece.owner, p.to_move());
        taken_kinds |= 1 << kind_index(piece.kind);
    }
    let mut after = p.clone();
    after.make_move(mv);
    let wins = after.count_legal_moves() == 0
        && after.outcome_without_moves().winner() == Some(p.to_move());
    Tactics {
        captures: cells.captures.len() as u8,
        taken_kinds,
        promotion: None,
        wins,
    }
}

#[test]
fn tactics_match_the_slow_reference() {
    let (mut captures, mut wins) = (0, 0);
    for p in sample_positions() {
        for &mv in p.moves().iter() {
            let t = p.tactics(mv);
            assert_eq!(t, slow_tactics(&p, mv), "{p}: {}", mv.text());
            captures += (t.captures > 0) as u32;
            wins += t.wins as u32;
        }
    }
    assert!(captures > 1000 && wins > 20, "{captures} {wins}");
}

#[test]
fn tactical_generation_is_the_tactical_subset() {
    use std::collections::BTreeSet;
    let mut seen = 0;
    for p in sample_positions() {
        let all: BTreeSet<u32> = p
            .moves()
            .iter()
            .filter(|&&m| p.tactics(m).is_tactical())
            .map(|m| m.0)
            .collect();
        let mut tactical = Vec::new();
        p.generate_tactical(&mut tactical);
        let set: BTreeSet<u32> = tactical.iter().map(|m| m.0).collect();
        assert_eq!(set.len(), tactical.len(), "{p}: duplicates");
        assert_eq!(set, all, "{p}");
        seen += set.len();
    }
    assert!(seen > 1000, "{seen}");
}

#[test]
fn move_codes_are_exact_and_checked() {
    use std::collections::BTreeSet;
    let positions = sample_positions();
    let mut pool = BTreeSet::new();
    for p in &positions {
        let moves = p.moves();
        let codes: BTreeSet<u32> = moves.iter().map(|&m| p.move_code(m)).collect();
        assert_eq!(codes.len(), moves.len(), "{p}: two moves share a code");
        for &m in moves.iter() {
            assert_eq!(
                p.move_from_code(p.move_code(m)),
                Some(m),
                "{p}: {}",
                m.text()
            );
        }
        pool.extend(codes);
    }
    // Codes of other positions, stray bits and random numbers give legal moves or nothing.
    let mut rng = Rng::new(77);
    let mut extra: Vec<u32> = (0..300).map(|_| rng.next_u64() as u32).collect();
    extra.extend(pool.iter().take(200).map(|c| c | 1 << 17));
    extra.extend([0, u32::MAX, ReinesMove::PASS.0 | 1, 1 << 14]);
    let mut accepted = 0;
    for (i, p) in positions.iter().enumerate().step_by(7) {
        let legal: BTreeSet<u32> = p.moves().iter().map(|m| m.0).collect();
        for &code in pool.iter().chain(&extra).skip(i % 5).step_by(3) {
            if let Some(m) = p.move_from_code(code) {
                assert!(legal.contains(&m.0), "{p}: code {code:#x} gave {m:?}");
                assert_eq!(p.move_code(m), code, "{p}");
                accepted += 1;
            }
        }
    }
    assert!(accepted > 1000, "{accepted}");
}

#[test]
fn pass_move_is_the_forced_pass() {
    for p in sample_positions() {
        let moves = p.moves();
        let only_pass = moves.len() == 1 && moves[0].is_pass();
        assert_eq!(p.pass_move().is_some(), only_pass, "{p}");
        assert_eq!(
            p.move_from_code(ReinesMove::PASS.0).is_some(),
            only_pass,
            "{p}"
        );
    }
    assert_eq!(pos(START).pass_move(), None);
    assert_eq!(
        pos("6Wq/8/8/8/8/8/8/Q7 w - -/- 0 1").pass_move(),
        Some(ReinesMove::PASS)
    );
    assert_eq!(pos("7C/8/8/8/8/8/8/Q7 b - -/- 0 1").pass_move(), None);
}

#[test]
fn draw_by_rule_agrees_with_outcome() {
    let (mut draws, mut wins) = (0, 0);
    for p in sample_positions() {
        if p.count_legal_moves() == 0 {
            assert_eq!(p.outcome(), Some(p.outcome_without_moves()), "{p}");
            wins += 1;
        } else {
            assert_eq!(p.outcome(), p.draw_by_rule(), "{p}");
            draws += p.draw_by_rule().is_some() as u32;
        }
    }
    assert!(draws > 20 && wins > 20, "{draws} {wins}");
    let p = pos("7q/8/8/8/8/8/8/QC6 w - -/- 100 60");
    assert_eq!(
        p.draw_by_rule(),
        Some(Outcome::Draw {
            reason: Reason::NO_PROGRESS
        })
    );
    assert_eq!(pos("7q/8/8/8/8/8/8/QC6 w - -/- 99 60").draw_by_rule(), None);
}

#[test]
fn null_move_hands_the_turn_over_and_back() {
    let mut made = 0;
    for p in sample_positions() {
        let mut q = p.clone();
        let over = p.count_legal_moves() == 0 || p.draw_by_rule().is_some();
        match q.make_null_move() {
            None => {
                assert!(over, "{p}: no null move in a game going on");
                assert_eq!(q, p);
            }
            Some(undo) => {
                assert!(!over, "{p}: a null move after the end");
                made += 1;
                assert_eq!(q.to_move(), 1 - p.to_move());
                assert_eq!(q.passes_in_a_row(), 0, "{p}");
                assert_eq!(q.hash(), q.hash_from_scratch(), "{p}");
                // The board is what a pass would leave (the opponent's Ponte step included).
                let mut passed = p.clone();
                passed.apply(ReinesMove::PASS, false);
                assert_eq!(q.to_string(), passed.to_string(), "{p}");
                // The string round trip holds: the position is one of the game.
                assert_eq!(pos(&q.to_string()).hash(), q.hash(), "{p}");
                q.unmake_null_move(undo);
                assert_eq!(q, p);
                assert_eq!(q.hash(), p.hash());
            }
        }
    }
    assert!(made > 1000, "{made}");
    // After a forced pass, a null move does not set up a draw by the next pass.
    let p = play(&pos("6Wq/8/8/8/8/8/8/Q7 w - -/- 0 1"), "pass");
    assert_eq!(p.passes_in_a_row(), 1);
    let mut q = p.clone();
    q.make_null_move().unwrap();
    assert_eq!(play(&q, "pass").outcome(), None);
    assert!(play(&p, "pass").outcome().is_some());
    // No null move once a Queen is taken.
    assert!(pos("7C/8/8/8/8/8/8/Q7 b - -/1 0 1")
        .make_null_move()
        .is_none());
}

#[test]
fn hash_covers_the_passes_in_a_row() {
    let p0 = pos("6Wq/8/8/8/8/8/8/Q6s w - -/- 0 1");
    let p1 = play(&p0, "pass");
    let p2 = play(&p1, "h1-g3");
    let p3 = play(&p2, "pass");
    // Same strings but the passes: p0 and the string of p1 read back differ from p1.
    let p1_read = pos(&p1.to_string());
    assert_ne!(p1.hash(), p1_read.hash());
    assert_eq!(p1.hash() ^ p1_read.hash(), super::position::passes_key(1));
    assert_eq!(p2.passes_in_a_row(), 0);
    assert_eq!(p2.hash(), pos(&p2.to_string()).hash());
    assert_eq!(p3.passes_in_a_row(), 1);
    // Two or more passes: one key, the draw.
    let q = pos("6Wq/8/8/8/8/8/8/Q7 w - -/- 0 1");
    let q2 = play_all(&q, &["pass", "pass"]);
    let q4 = play_all(&q2, &["pass", "pass"]);
    let q3 = play(&q2, "pass");
    assert_eq!(q4.hash(), q2.hash());
    assert_ne!(q3.hash(), play(&q, "pass").hash());
    for p in [&p0, &p1, &p2, &p3, &q2, &q3, &q4] {
        assert_eq!(p.hash(), p.hash_from_scratch(), "{p}");
    }
    // The repetition rule still counts positions with a pass behind them.
    let mut rec = Record::new(p0.clone());
    for m in ["pass", "h1-g3", "pass", "g3-h1"] {
        rec.play_text(m).unwrap();
    }
    assert_eq!(
        rec.position().to_string(),
        p0.to_string().replace(" 0 1", " 4 3")
    );
    assert_eq!(rec.repetitions(), 2);
}

#[test]
fn players_follow_turn_order_in_every_region() {
    // The cultist start is the neutral one with the peoples swapped: the same moves give the
    // same player numbers, owners, outcomes and facts (but the region).
    let mut rng = Rng::new(31);
    let info = Reines.info();
    assert_eq!(info.players, &["Termides", "Myrmides"]);
    for _ in 0..10 {
        let mut a = pos(START);
        let mut b = pos(START_CULTIST);
        assert_eq!(a.player_names(), &["Termides", "Myrmides"]);
        assert_eq!(b.player_names(), &["Myrmides", "Termides"]);
        for _ in 0..300 {
            assert_eq!(a.to_move(), b.to_move());
            assert_eq!(a.outcome(), b.outcome(), "{a} / {b}");
            for cell in 0..64 {
                assert_eq!(a.piece_at(cell), b.piece_at(cell));
            }
            let fa: Vec<Fact> = a.facts().into_iter().skip(1).collect();
            let fb: Vec<Fact> = b.facts().into_iter().skip(1).collect();
            assert_eq!(fa, fb);
            assert_ne!(a.hash(), b.hash());
            let moves = a.moves();
            if moves.is_empty() {
                break;
            }
            let text = a.move_text(moves[rng.below(moves.len())]);
            a = play(&a, &text);
            b = play(&b, &text);
        }
    }
    // The Myrmides (b) move first in cultist: they are player 0.
    let p = pos("7Q/8/8/8/8/8/1W6/q7 w - -/- 0 1");
    assert_eq!(p.to_move(), 1);
    assert_eq!(p.people(1), Some(People::Termides));
    let after = play(&p, "b2xa1");
    assert_eq!(
        after.outcome(),
        Some(Outcome::Win {
            winner: 1,
            reason: QUEEN_CAPTURED
        })
    );
    assert_eq!(
        after
            .outcome()
            .unwrap()
            .describe(after.player_names(), Reines.info().players_number),
        "the Termides win by capturing the Queen"
    );
    assert_eq!(p.people(2), None);
}

#[test]
fn facts_and_the_lines_made_from_them() {
    use crate::game::FactValue::*;
    let p = pos("7q/6s1/1s6/8/8/4C3/8/Q7 b - -/01 7 2");
    let facts = p.facts();
    let get = |name: &str, player: Option<u8>| {
        facts
            .iter()
            .find(|f| f.name == name && f.player == player)
            .unwrap_or_else(|| panic!("{name} {player:?}"))
            .value
            .clone()
    };
    assert_eq!(get("region", None), Numbers(vec![0, 1]));
    assert_eq!(get("ponte-square", Some(0)), Cell(Some(9)));
    assert_eq!(get("ponte-square", Some(1)), Cell(Some(54)));
    assert_eq!(get("pending-workers", Some(0)), Numbers(vec![]));
    assert_eq!(get("pending-workers", Some(1)), Numbers(vec![0, 1]));
    assert_eq!(get("ponte-blocked", Some(1)), Flag(true));
    assert_eq!(get("ponte-blocked", Some(0)), Flag(false));
    assert_eq!(get("quiet-plies", None), Number(7));
    assert_eq!(get("move-number", None), Number(2));
    assert_eq!(get("passes", None), Number(0));
    assert_eq!(get("unmoved-workers", Some(0)), Cells(vec![]));
    for f in &facts {
        assert!(f.name.bytes().all(|b| b.is_ascii_lowercase() || b == b'-'));
    }
    let s = pos(START);
    let facts = s.facts();
    assert!(facts.contains(&Fact {
        name: "unmoved-workers",
        player: Some(1),
        value: Cells(vec![38, 45, 52]),
    }));
    // The lines are made from the facts: change a fact, the line follows.
    let mut changed = p.facts();
    for f in &mut changed {
        if f.name == "quiet-plies" {
            f.value = Number(42);
        }
    }
    use crate::game::{InfoArg, InfoLine};
    let lines = super::outcome::info_messages(&changed, &["n", "a", "c"], 1);
    assert_eq!(
        lines[0].arg("region"),
        Some(&InfoArg::Word("neutral-or-animist"))
    );
    assert_eq!(lines[4].arg("count"), Some(&InfoArg::Number(42)));
    assert_eq!(lines[4].arg("number"), Some(&InfoArg::Number(2)));
    // Cultist: the lines follow turn order (player 0, the Myrmides, first).
    let c = Reines
        .start(&Settings::new().with("region", "cultist"))
        .unwrap();
    assert_eq!(c.player_names()[0], "Myrmides");
    let lines = c.info_messages();
    assert_eq!(lines[0].arg("region"), Some(&InfoArg::Word("cultist")));
    assert_eq!(lines[1].key, "reines-info-ponte-empty");
    assert_eq!(lines[1].arg("player"), Some(&InfoArg::Player(0)));
    let Some(InfoArg::Lines(unmoved)) = lines[3].arg("players") else {
        panic!("{:?}", lines[3])
    };
    assert_eq!(unmoved[0].arg("player"), Some(&InfoArg::Player(0)));
    assert_eq!(
        unmoved[0].arg("cells"),
        Some(&InfoArg::Cells(vec![11, 18, 25]))
    );
    let after_pass = play(&pos("6Wq/8/8/8/8/8/8/Q7 w - -/- 0 1"), "pass");
    assert_eq!(
        after_pass.info_messages().last(),
        Some(&InfoLine::new("reines-info-pass", Vec::new()))
    );
}

#[test]
fn read_access_for_evaluations() {
    for p in sample_positions().iter().step_by(3) {
        let mut occupied = 0u64;
        for player in 0..2u8 {
            for kind in ReinesKind::ALL {
                let bb = p.pieces(player, kind);
                assert_eq!(p.count(player, kind), bb.count_ones());
                for sq in 0..64u32 {
                    let here = p.piece(sq) == Some((player, kind));
                    assert_eq!(bb >> sq & 1 == 1, here, "{p} {sq}");
                    assert_eq!(
                        here,
                        p.piece_at(sq as u16)
                            == Some(crate::game::PieceView {
                                owner: player,
                                kind: kind.letter()
                            })
                    );
                }
                occupied |= bb;
            }
            // Mobility: the moves other than pass the player would have to move now.
            if p.count_legal_moves() > 0 {
                let mut turn = p.clone();
                turn.side = player;
                let moves = turn.moves();
                let real = moves.iter().filter(|m| !m.is_pass()).count() as u32;
                assert_eq!(p.mobility(player), real, "{p} {player}");
            }
        }
        assert_eq!(p.occupied(), occupied);
        if p.count_legal_moves() > 0 {
            let n = p.count_legal_moves() as u32;
            assert!(p.mobility(p.to_move()) == n || (n == 1 && p.pass_move().is_some()));
        }
        assert!(p.moves().len() <= 51);
    }
    assert_eq!(pos(START).pieces(2, ReinesKind::Queen), 0);
    assert_eq!(pos(START).mobility(2), 0);
    assert_eq!(pos(START).ponte_square(2), None);
    assert_eq!(ReinesKind::from_index(3), Some(ReinesKind::Worker));
    assert_eq!(ReinesKind::from_index(4), None);
    for (i, k) in Reines.info().pieces.iter().enumerate() {
        assert_eq!(ReinesKind::ALL[i].letter(), k.letter);
        assert_eq!(ReinesKind::ALL[i].name(), k.name);
    }
}

#[test]
fn every_square_pair_reads_as_a_move_exactly_when_legal() {
    use crate::geometry::square;
    for p in sample_positions().iter().step_by(40) {
        let legal: Vec<String> = texts(p);
        for from in 0..64u16 {
            for to in 0..64u16 {
                for sep in ['-', 'x'] {
                    let t = format!("{}{sep}{}", square::name(8, from), square::name(8, to));
                    let ok = p.parse_move(&t).is_ok();
                    assert_eq!(ok, legal.contains(&t), "{p}: {t}");
                }
            }
        }
    }
}

/// A crowded position fills a stack move list within the bound argued at `MAX_MOVES`.
#[test]
fn a_crowded_position_stays_within_the_bound() {
    // Counsellor d5: 11; Soldiers c6 and e3: 8 and 7; the unmoved Worker c3: 3 steps and 3
    // captures (b4, d4, d2).
    let p = pos("7q/8/2S5/3C4/1w1w4/2W1S3/3w4/Q7 w c3 -/- 0 1");
    let n = p.moves().len();
    assert_eq!(n as u64, p.count_legal_moves());
    assert_eq!(n, 32);
    let mut list = <ReinesPosition as Position>::MoveList::default();
    p.generate(&mut list);
    assert_eq!(list.len(), n);
}

// ---------------------------------------------------------------------------------------------
// Attacks.

/// In random games, each piece of the side to move reaches exactly the squares of its moves,
/// the attackers of every piece of the side not to move are exactly the pieces whose captures
/// land on it, and the Queen is attacked exactly when a capture takes
/// her.
#[test]
fn reach_and_attackers_agree_with_the_moves() {
    let mut rng = Rng::new(41);
    let mut attacked_queens = 0;
    for start in [
        ReinesPosition::start(Region::Neutral),
        ReinesPosition::start(Region::Cultist),
    ] {
        for _ in 0..200 {
            let mut p = start.clone();
            for _ in 0..80 {
                let mut moves = <ReinesPosition as Position>::MoveList::default();
                p.generate(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let mover = p.to_move();
                let mut captures = <ReinesPosition as Position>::MoveList::default();
                p.generate_captures(&mut captures);
                for sq in 0..64u32 {
                    if p.pieces_of(mover) & (1 << sq) != 0 {
                        let to: u64 = moves
                            .iter()
                            .filter(|m| !m.is_pass() && m.from() == sq)
                            .fold(0, |bb, m| bb | 1 << m.to());
                        assert_eq!(p.reach(sq), to, "{p}: reach of {sq}");
                    }
                    if p.pieces_of(mover ^ 1) & (1 << sq) == 0 {
                        continue;
                    }
                    let from: u64 = captures
                        .iter()
                        .filter(|m| m.to() == sq)
                        .fold(0, |bb, m| bb | 1 << m.from());
                    assert_eq!(p.attackers(sq, mover), from, "{p}: attackers of {sq}");
                }
                let takes_queen = captures
                    .iter()
                    .any(|m| m.taken_kind() == Some(ReinesKind::Queen));
                assert_eq!(p.queen_attacked(mover ^ 1), takes_queen, "{p}");
                attacked_queens += usize::from(takes_queen);
                p.make_move(moves[rng.below(moves.len())]);
            }
        }
    }
    assert!(attacked_queens > 20, "{attacked_queens}");
    let p = ReinesPosition::start(Region::Neutral);
    assert_eq!(p.queen_square(0), Some(0));
    assert_eq!(p.queen_square(1), Some(63));
    assert_eq!(p.queen_square(2), None);
    assert_eq!(p.attackers(64, 0), 0);
}
