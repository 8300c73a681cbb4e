//! A slow, obvious move generator written from the rules text, independent of the fast one:
//! a map of pieces by axial coordinates, every opponent move generated to decide attacks.
//! Players who have left the game only pass and attack nothing. Used only by tests, to check
//! the fast generator.

use std::collections::{BTreeMap, BTreeSet};

use crate::game::Position;
use crate::geometry::hex::HexGrid;

use super::position::AntChessPosition;

const R: i32 = super::setup::RADIUS as i32;
type Hex = (i32, i32);
type Board = BTreeMap<Hex, (usize, char)>;

/// E, NE, NW, W, SW, SE.
const DIRS: [Hex; 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];

fn on(h: Hex) -> bool {
    h.0.abs() <= R && h.1.abs() <= R && (h.0 + h.1).abs() <= R
}

fn add(a: Hex, b: Hex) -> Hex {
    (a.0 + b.0, a.1 + b.1)
}

fn dist(a: Hex, b: Hex) -> i32 {
    let (dq, dr) = (a.0 - b.0, a.1 - b.1);
    dq.abs().max(dr.abs()).max((dq + dr).abs())
}

fn is_edge(h: Hex) -> bool {
    dist(h, (0, 0)) == R
}

fn all_cells() -> Vec<Hex> {
    let mut v = Vec::new();
    for r in -R..=R {
        for q in -R..=R {
            if on((q, r)) {
                v.push((q, r));
            }
        }
    }
    v
}

/// Home corner direction index of each player.
fn homes(players: usize) -> Vec<usize> {
    if players == 2 {
        vec![3, 0]
    } else {
        vec![3, 1, 5]
    }
}

/// A pseudo-legal move: from, to, captured cells, promotion.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
struct M {
    from: Hex,
    to: Hex,
    caps: BTreeSet<Hex>,
    promo: bool,
}

/// The six cells round `p`, in angular order.
fn ring(p: Hex) -> Vec<Hex> {
    let mut v: Vec<(f64, Hex)> = DIRS
        .iter()
        .map(|&d| {
            // Pixel position of a pointy-top hex.
            let x = 3f64.sqrt() * (d.0 as f64 + d.1 as f64 / 2.0);
            let y = 1.5 * d.1 as f64;
            (y.atan2(x), add(p, d))
        })
        .collect();
    v.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap());
    v.into_iter().map(|x| x.1).collect()
}

fn pseudo(b: &Board, me: usize, players: usize) -> Vec<M> {
    let home = homes(players)[me];
    let opposite = (R * DIRS[(home + 3) % 6].0, R * DIRS[(home + 3) % 6].1);
    let mine = |h: Hex| matches!(b.get(&h), Some(&(o, _)) if o == me);
    let enemy = |h: Hex| matches!(b.get(&h), Some(&(o, _)) if o != me);
    let mut out = BTreeSet::new();
    let simple = |out: &mut BTreeSet<M>, from: Hex, to: Hex, promo: bool| {
        if on(to) && !mine(to) {
            let caps = if enemy(to) {
                [to].into_iter().collect()
            } else {
                BTreeSet::new()
            };
            out.insert(M {
                from,
                to,
                caps,
                promo,
            });
        }
    };
    for (&from, &(o, k)) in b {
        if o != me {
            continue;
        }
        match k {
            'Q' => {
                for d in DIRS {
                    simple(&mut out, from, add(from, d), false);
                }
            }
            'A' => {
                for i in [home + 2, home + 3, home + 4] {
                    let to = add(from, DIRS[i % 6]);
                    let promo = is_edge(to) && dist(to, opposite) <= R;
                    simple(&mut out, from, to, promo);
                }
            }
            'S' => {
                for d in DIRS {
                    let one = add(from, d);
                    simple(&mut out, from, one, false);
                    if on(one) && !b.contains_key(&one) {
                        simple(&mut out, from, add(one, d), false);
                    }
                }
            }
            'B' => {
                for d in DIRS {
                    let mut c = add(from, d);
                    while on(c) {
                        simple(&mut out, from, c, false);
                        if b.contains_key(&c) {
                            break;
                        }
                        c = add(c, d);
                    }
                }
            }
            'G' => {
                for c in all_cells() {
                    if dist(c, from) == 2 {
                        simple(&mut out, from, c, false);
                    }
                }
            }
            'L' => {
                for d in DIRS {
                    let pivot = add(from, d);
                    if !b.contains_key(&pivot) {
                        continue;
                    }
                    let cells = ring(pivot);
                    let at = cells.iter().position(|&c| c == from).unwrap();
                    for sense in [1, 5] {
                        let mut caps = BTreeSet::new();
                        for step in 1..=5 {
                            let c = cells[(at + sense * step) % 6];
                            if !on(c) || mine(c) {
                                break;
                            }
                            if enemy(c) {
                                caps.insert(c);
                            }
                            out.insert(M {
                                from,
                                to: c,
                                caps: caps.clone(),
                                promo: false,
                            });
                        }
                    }
                }
            }
            'W' => {
                for to in all_cells() {
                    if to == from || !is_edge(to) || b.contains_key(&to) {
                        continue;
                    }
                    let d = (to.0 - from.0, to.1 - from.1);
                    let n = dist(from, to);
                    let unit = (d.0 / n, d.1 / n);
                    if !DIRS.contains(&unit) || (unit.0 * n, unit.1 * n) != d {
                        continue;
                    }
                    let between: Vec<Hex> = (1..n)
                        .map(|i| (from.0 + unit.0 * i, from.1 + unit.1 * i))
                        .collect();
                    let along_edge = between.iter().all(|&c| is_edge(c));
                    if !along_edge && on(add(to, unit)) {
                        continue;
                    }
                    let caps: BTreeSet<Hex> = between.into_iter().filter(|&c| enemy(c)).collect();
                    if caps.len() <= 1 {
                        out.insert(M {
                            from,
                            to,
                            caps,
                            promo: false,
                        });
                    }
                }
            }
            _ => unreachable!(),
        }
    }
    out.into_iter().collect()
}

fn attacked(b: &Board, cell: Hex, by: usize, players: usize) -> bool {
    pseudo(b, by, players)
        .iter()
        .any(|m| m.caps.contains(&cell))
}

fn queen(b: &Board, p: usize) -> Option<Hex> {
    b.iter()
        .find(|(_, &(o, k))| o == p && k == 'Q')
        .map(|(&h, _)| h)
}

/// Is `p`'s Queen (if any) unattacked by the players who have not left (`left[o]`)?
fn safe(b: &Board, p: usize, players: usize, left: &[bool]) -> bool {
    match queen(b, p) {
        None => true,
        Some(q) => (0..players).all(|o| o == p || left[o] || !attacked(b, q, o, players)),
    }
}

fn play(b: &Board, m: &M) -> Board {
    let mut nb = b.clone();
    for c in &m.caps {
        nb.remove(c);
    }
    let (o, k) = nb.remove(&m.from).unwrap();
    nb.insert(m.to, (o, if m.promo { 'S' } else { k }));
    nb
}

/// The pieces of `pos` by coordinates, and who has left.
fn board_of<const N: usize>(pos: &AntChessPosition<N>) -> (Board, Vec<bool>) {
    let g = HexGrid::new(R as u8);
    let left: Vec<bool> = (0..pos.players()).map(|p| pos.has_left(p)).collect();
    let mut b = Board::new();
    for c in all_cells() {
        let cell = g.cell(c.0, c.1).unwrap();
        if let Some(v) = pos.piece_at(cell) {
            b.insert(c, (v.owner as usize, v.kind));
        }
    }
    (b, left)
}

/// True if `player` has a Queen and some player who has not left attacks her.
pub fn queen_attacked<const N: usize>(pos: &AntChessPosition<N>, player: usize) -> bool {
    let (b, left) = board_of(pos);
    !safe(&b, player, pos.players(), &left)
}

/// The legal moves of `pos` as canonical texts.
pub fn legal_texts<const N: usize>(pos: &AntChessPosition<N>) -> Vec<String> {
    let g = HexGrid::new(R as u8);
    let players = pos.players();
    let me = pos.to_move() as usize;
    let (b, left) = board_of(pos);
    // Game over by rule?
    let queens: Vec<usize> = (0..players).filter(|&p| queen(&b, p).is_some()).collect();
    if players == 3 && queens.len() <= 1 {
        return Vec::new();
    }
    let prev = (me + players - 1) % players;
    if queen(&b, prev) == Some((0, 0)) && safe(&b, prev, players, &left) {
        return Vec::new();
    }
    if left[me] {
        return vec!["pass".into()];
    }
    let name = |h: Hex| g.name(g.cell(h.0, h.1).unwrap());
    let text = |m: &M| {
        let mut s = format!("{}-{}", name(m.from), name(m.to));
        if !m.caps.is_empty() {
            let mut caps: Vec<Hex> = m.caps.iter().copied().collect();
            caps.sort_by_key(|&(q, r)| (r, q));
            let names: Vec<String> = caps.into_iter().map(name).collect();
            s.push('x');
            s.push_str(&names.join(","));
        }
        if m.promo {
            s.push_str("=S");
        }
        s
    };
    let all = pseudo(&b, me, players);
    let mut legal: Vec<String> = all
        .iter()
        .filter(|m| safe(&play(&b, m), me, players, &left))
        .map(text)
        .collect();
    if safe(&b, me, players, &left) {
        legal.push("pass".into());
    }
    if legal.is_empty() && players == 3 {
        legal = all.iter().map(text).collect();
        legal.push("pass".into());
    }
    legal
}
