//! Move generation (bitboards), counting, and playing moves with the Ponte step.
//!
//! `make_move` is copy-make: `Undo` is the whole position (under 100 bytes), and `unmake_move`
//! copies it back. That is cheaper than undoing the Ponte step by hand.

use crate::error::MoveError;
use crate::game::{Cell, MoveCells, PieceView, Player, Position};
use crate::movelist::MoveSink;
use crate::outcome::Outcome;

use super::moves::ReinesMove;
use super::position::{
    parse_square, piece_key, ponte_key, side_key, square_name, unmoved_key, ReinesPosition,
    COUNSELLOR, KIND_LETTERS, KIND_NAMES, PEOPLE, PONTE_SQUARE, QUEEN, SOLDIER, WORKER,
};

const NOT_A: u64 = !0x0101_0101_0101_0101;
const NOT_H: u64 = !0x8080_8080_8080_8080;
const ALL: u64 = !0;

/// A Worker's straight forward steps, by corner (0 = a1 player, 1 = h8 player):
/// (square delta, mask of valid landing squares after the shift).
const FORWARD: [[(i32, u64); 2]; 2] = [[(8, ALL), (1, NOT_A)], [(-8, ALL), (-1, NOT_H)]];
/// A Worker's diagonal captures, by corner: a1 player NE, NW, SE; h8 player SW, SE, NW.
const CAPTURES: [[(i32, u64); 3]; 2] = [
    [(9, NOT_A), (7, NOT_H), (-7, NOT_A)],
    [(-9, NOT_H), (-7, NOT_A), (7, NOT_H)],
];

#[inline(always)]
fn shift(bb: u64, d: i32) -> u64 {
    if d >= 0 {
        bb << d
    } else {
        bb >> -d
    }
}

/// Rays from each square, in the directions north, east, south, west (square excluded).
const fn make_rays() -> [[u64; 64]; 4] {
    let mut rays = [[0u64; 64]; 4];
    let deltas: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
    let mut d = 0;
    while d < 4 {
        let mut sq = 0;
        while sq < 64 {
            let (df, dr) = deltas[d];
            let mut f = (sq % 8) as i32 + df;
            let mut r = (sq / 8) as i32 + dr;
            let mut bb = 0u64;
            while f >= 0 && f < 8 && r >= 0 && r < 8 {
                bb |= 1 << (r * 8 + f);
                f += df;
                r += dr;
            }
            rays[d][sq] = bb;
            sq += 1;
        }
        d += 1;
    }
    rays
}

const fn make_knight() -> [u64; 64] {
    let mut t = [0u64; 64];
    let jumps: [(i32, i32); 8] = [
        (1, 2),
        (2, 1),
        (2, -1),
        (1, -2),
        (-1, -2),
        (-2, -1),
        (-2, 1),
        (-1, 2),
    ];
    let mut sq = 0;
    while sq < 64 {
        let mut j = 0;
        while j < 8 {
            let f = (sq % 8) as i32 + jumps[j].0;
            let r = (sq / 8) as i32 + jumps[j].1;
            if f >= 0 && f < 8 && r >= 0 && r < 8 {
                t[sq] |= 1 << (r * 8 + f);
            }
            j += 1;
        }
        sq += 1;
    }
    t
}

static RAYS: [[u64; 64]; 4] = make_rays();
static KNIGHT: [u64; 64] = make_knight();

/// Squares a Counsellor (rook) on `sq` attacks with the board occupancy `occ`.
#[inline(always)]
fn rook_attacks(sq: u32, occ: u64) -> u64 {
    let s = sq as usize;
    let mut a = 0;
    for ray in &RAYS[0..2] {
        let r = ray[s];
        let b = r & occ;
        a |= if b != 0 {
            r ^ ray[b.trailing_zeros() as usize]
        } else {
            r
        };
    }
    for ray in &RAYS[2..4] {
        let r = ray[s];
        let b = r & occ;
        a |= if b != 0 {
            r ^ ray[63 - b.leading_zeros() as usize]
        } else {
            r
        };
    }
    a
}

impl ReinesPosition {
    #[inline(always)]
    fn push_targets(
        &self,
        from: u32,
        targets: u64,
        enemy: u64,
        kind: usize,
        out: &mut impl MoveSink<ReinesMove>,
    ) {
        let mut q = targets & !enemy;
        while q != 0 {
            out.push(ReinesMove::quiet(from, q.trailing_zeros(), kind));
            q &= q - 1;
        }
        let mut c = targets & enemy;
        while c != 0 {
            let to = c.trailing_zeros();
            out.push(ReinesMove::capture(from, to, kind, self.kind_at(to)));
            c &= c - 1;
        }
    }

    /// Appends the moves of the side to move, `pass` if it has none; nothing once a Queen is
    /// captured.
    pub(crate) fn generate_into<S: MoveSink<ReinesMove>>(&self, out: &mut S) {
        if self.queen_missing() {
            return;
        }
        let us = self.side as usize;
        let own = self.colour[us];
        let enemy = self.colour[us ^ 1];
        let occ = own | enemy;
        let start = out.len();

        let mut bb = own & self.kinds[COUNSELLOR];
        while bb != 0 {
            let from = bb.trailing_zeros();
            self.push_targets(from, rook_attacks(from, occ) & !own, enemy, COUNSELLOR, out);
            bb &= bb - 1;
        }
        let mut bb = own & self.kinds[SOLDIER];
        while bb != 0 {
            let from = bb.trailing_zeros();
            self.push_targets(from, KNIGHT[from as usize] & !own, enemy, SOLDIER, out);
            bb &= bb - 1;
        }

        let workers = own & self.kinds[WORKER];
        let fresh = workers & self.unmoved;
        let corner = self.corner(self.side);
        for &(d, mask) in &FORWARD[corner] {
            let mut one = shift(workers, d) & mask & !occ;
            let mut two = shift(shift(fresh, d) & mask & !occ, d) & mask & !occ;
            while one != 0 {
                let to = one.trailing_zeros();
                out.push(ReinesMove::quiet((to as i32 - d) as u32, to, WORKER));
                one &= one - 1;
            }
            while two != 0 {
                let to = two.trailing_zeros();
                out.push(ReinesMove::quiet((to as i32 - 2 * d) as u32, to, WORKER));
                two &= two - 1;
            }
        }
        for &(d, mask) in &CAPTURES[corner] {
            let mut t = shift(workers, d) & mask & enemy;
            while t != 0 {
                let to = t.trailing_zeros();
                out.push(ReinesMove::capture(
                    (to as i32 - d) as u32,
                    to,
                    WORKER,
                    self.kind_at(to),
                ));
                t &= t - 1;
            }
        }

        if out.len() == start {
            out.push(ReinesMove::PASS);
        }
    }

    /// The number of legal moves, counted without generating them.
    pub(crate) fn count(&self) -> u64 {
        if self.queen_missing() {
            return 0;
        }
        let us = self.side as usize;
        let own = self.colour[us];
        let enemy = self.colour[us ^ 1];
        let occ = own | enemy;
        let mut n = 0u32;
        let mut bb = own & self.kinds[COUNSELLOR];
        while bb != 0 {
            n += (rook_attacks(bb.trailing_zeros(), occ) & !own).count_ones();
            bb &= bb - 1;
        }
        let mut bb = own & self.kinds[SOLDIER];
        while bb != 0 {
            n += (KNIGHT[bb.trailing_zeros() as usize] & !own).count_ones();
            bb &= bb - 1;
        }
        let workers = own & self.kinds[WORKER];
        let fresh = workers & self.unmoved;
        let corner = self.corner(self.side);
        for &(d, mask) in &FORWARD[corner] {
            let one = shift(workers, d) & mask & !occ;
            let two = shift(shift(fresh, d) & mask & !occ, d) & mask & !occ;
            n += one.count_ones() + two.count_ones();
        }
        for &(d, mask) in &CAPTURES[corner] {
            n += (shift(workers, d) & mask & enemy).count_ones();
        }
        n.max(1) as u64
    }

    /// Plays a move, then the opponent's start-of-turn Ponte step.
    pub(crate) fn apply(&mut self, mv: ReinesMove) {
        let us = self.side as usize;
        let them = us ^ 1;
        let mut h = self.hash;
        let mut worker_captured = false;
        let mut queen_captured = false;
        if mv.is_pass() {
            self.passes = self.passes.saturating_add(1);
            self.quiet = self.quiet.saturating_add(1);
        } else {
            self.passes = 0;
            let from = mv.from();
            let to = mv.to();
            let kind = mv.kind();
            let fb = 1u64 << from;
            let tb = 1u64 << to;
            if mv.is_capture() {
                let ck = mv.captured();
                self.colour[them] ^= tb;
                self.kinds[ck] ^= tb;
                h ^= piece_key(them, ck, to);
                if ck == WORKER {
                    worker_captured = true;
                    if self.unmoved & tb != 0 {
                        self.unmoved ^= tb;
                        h ^= unmoved_key(to);
                    }
                } else if ck == QUEEN {
                    queen_captured = true;
                }
            }
            self.colour[us] ^= fb | tb;
            self.kinds[kind] ^= fb | tb;
            h ^= piece_key(us, kind, from) ^ piece_key(us, kind, to);
            if kind == WORKER && self.unmoved & fb != 0 {
                self.unmoved ^= fb;
                h ^= unmoved_key(from);
            }
            self.quiet = if kind == WORKER || mv.is_capture() {
                0
            } else {
                self.quiet.saturating_add(1)
            };
        }
        if self.side != self.a1 {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side ^= 1;
        h ^= side_key();

        if !queen_captured {
            // The start of the opponent's turn: counters drop by one, then one Worker whose
            // counter is 0 comes back if the Ponte square is empty.
            let old = self.ponte[them];
            let mut new = [old[0] + old[1], worker_captured as u8];
            if new[0] > 0 {
                let sq = PONTE_SQUARE[self.corner(them as u8)];
                let b = 1u64 << sq;
                if (self.colour[0] | self.colour[1]) & b == 0 {
                    new[0] -= 1;
                    self.colour[them] |= b;
                    self.kinds[WORKER] |= b;
                    self.unmoved |= b;
                    h ^= piece_key(them, WORKER, sq) ^ unmoved_key(sq);
                }
            }
            if new != old {
                h ^= ponte_key(them, old) ^ ponte_key(them, new);
                self.ponte[them] = new;
            }
        }
        self.hash = h;
    }
}

impl Position for ReinesPosition {
    type Move = ReinesMove;
    type Undo = ReinesPosition;
    type MoveList = Vec<ReinesMove>;

    #[inline]
    fn to_move(&self) -> Player {
        self.side
    }

    fn player_names(&self) -> &'static [&'static str] {
        super::INFO.players
    }

    fn generate<S: MoveSink<ReinesMove>>(&self, out: &mut S) {
        self.generate_into(out)
    }

    #[inline]
    fn count_legal_moves(&self) -> u64 {
        self.count()
    }

    #[inline]
    fn make_move(&mut self, mv: ReinesMove) -> ReinesPosition {
        let undo = self.clone();
        self.apply(mv);
        undo
    }

    #[inline]
    fn unmake_move(&mut self, _mv: ReinesMove, undo: ReinesPosition) {
        *self = undo;
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        self.compute_hash()
    }

    fn draw_by_rule(&self) -> Option<Outcome> {
        super::outcome::draw_by_rule(self)
    }

    fn outcome_without_moves(&self) -> Outcome {
        super::outcome::outcome_without_moves(self)
    }

    /// Only a capture of a Counsellor, Soldier or Queen can never be undone: material of those
    /// kinds never comes back. Captured Workers return by the Ponte and Workers' diagonal
    /// captures do not always advance them, so a position before a Worker move or a Worker
    /// capture can in principle occur again.
    fn is_irreversible(&self, mv: ReinesMove) -> bool {
        mv.is_capture() && mv.captured() != WORKER
    }

    fn move_text(&self, mv: ReinesMove) -> String {
        mv.text()
    }

    fn parse_move(&self, text: &str) -> Result<ReinesMove, MoveError> {
        const EXPECTED: &str = "<from>-<to>, <from>x<to> (like b4-b6, c3xd4) or pass";
        let t = text.trim();
        if self.queen_missing() {
            return Err(MoveError::GameOver);
        }
        let mut moves = Vec::with_capacity(64);
        self.generate_into(&mut moves);
        if t.eq_ignore_ascii_case("pass") {
            return if moves.first().is_some_and(|m| m.is_pass()) {
                Ok(ReinesMove::PASS)
            } else {
                Err(MoveError::illegal(
                    t,
                    format!(
                        "a player may pass only with no legal move, and the {} have {}",
                        PEOPLE[self.side as usize],
                        moves.len()
                    ),
                ))
            };
        }
        if t.len() != 5 || !t.is_ascii() {
            return Err(MoveError::malformed(t, EXPECTED));
        }
        let from = parse_square(&t[0..2].to_ascii_lowercase());
        let to = parse_square(&t[3..5].to_ascii_lowercase());
        let sep = t.as_bytes()[2];
        let (Some(from), Some(to)) = (from, to) else {
            return Err(MoveError::malformed(t, EXPECTED));
        };
        if sep != b'-' && sep != b'x' && sep != b'X' {
            return Err(MoveError::malformed(t, EXPECTED));
        }
        let capture = sep != b'-';
        if let Some(&mv) = moves
            .iter()
            .find(|m| !m.is_pass() && m.from() == from && m.to() == to)
        {
            return match (mv.is_capture(), capture) {
                (true, false) => Err(MoveError::illegal(
                    t,
                    format!(
                        "it captures the piece on {}: write {}",
                        square_name(to),
                        mv.text()
                    ),
                )),
                (false, true) => Err(MoveError::illegal(
                    t,
                    format!(
                        "there is nothing to capture on {}: write {}",
                        square_name(to),
                        mv.text()
                    ),
                )),
                _ => Ok(mv),
            };
        }
        let reason = match self.piece(from) {
            None => format!("there is no piece on {}", square_name(from)),
            Some((owner, _)) if owner != self.side => format!(
                "the piece on {} belongs to the {}, and the {} are to move",
                square_name(from),
                PEOPLE[owner as usize],
                PEOPLE[self.side as usize]
            ),
            Some((_, QUEEN)) => "the Queen never moves".to_string(),
            Some((_, kind)) => format!(
                "the {} on {} cannot go to {}",
                KIND_NAMES[kind],
                square_name(from),
                square_name(to)
            ),
        };
        Err(MoveError::illegal(t, reason))
    }

    fn move_cells(&self, mv: ReinesMove) -> MoveCells {
        if mv.is_pass() {
            return MoveCells::default();
        }
        MoveCells {
            from: Some(mv.from() as Cell),
            to: Some(mv.to() as Cell),
            captures: if mv.is_capture() {
                vec![mv.to() as Cell]
            } else {
                Vec::new()
            },
        }
    }

    fn piece_at(&self, cell: Cell) -> Option<PieceView> {
        self.piece(cell as u32).map(|(owner, kind)| PieceView {
            owner,
            kind: KIND_LETTERS[kind],
        })
    }

    fn info_lines(&self) -> Vec<String> {
        super::outcome::info_lines(self)
    }
}
