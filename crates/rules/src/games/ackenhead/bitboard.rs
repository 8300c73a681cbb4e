//! Bitboards for the 8x8 board (bit `rank * 8 + file`, a1 = 0) and the precomputed tables
//! Ackenhead's move generation reads: magic rook and bishop lookups (the hoppers' quiet moves,
//! and their captures by a second lookup through the screens), king steps, Mao legs, Berolina
//! pawn steps and the rays used for the cheap legality test.

use std::sync::LazyLock;

/// A set of squares: bit `rank * 8 + file` (a1 = bit 0), the numbering of the game's cells.
pub type Bb = u64;

pub const RANK_1: Bb = 0xFF;
pub const RANK_8: Bb = 0xFF << 56;

#[inline(always)]
pub const fn bit(sq: u8) -> Bb {
    1u64 << sq
}

/// Iterates the squares of a bitboard, lowest first.
#[derive(Clone, Copy)]
pub struct Squares(pub Bb);

impl Iterator for Squares {
    type Item = u8;
    #[inline(always)]
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            None
        } else {
            let sq = self.0.trailing_zeros() as u8;
            self.0 &= self.0 - 1;
            Some(sq)
        }
    }
}

/// The 8 directions as (file, rank) steps: N, E, S, W, NE, SE, SW, NW.
pub const DIRS: [(i8, i8); 8] = [
    (0, 1),
    (1, 0),
    (0, -1),
    (-1, 0),
    (1, 1),
    (1, -1),
    (-1, -1),
    (-1, 1),
];

fn step(sq: u8, df: i8, dr: i8) -> Option<u8> {
    let f = (sq % 8) as i8 + df;
    let r = (sq / 8) as i8 + dr;
    if (0..8).contains(&f) && (0..8).contains(&r) {
        Some((r * 8 + f) as u8)
    } else {
        None
    }
}

/// Slider attacks by walking the board (used to build the tables, and by tests).
pub fn slide(sq: u8, occ: Bb, dirs: &[(i8, i8)]) -> Bb {
    let mut out = 0;
    for &(df, dr) in dirs {
        let mut s = sq;
        while let Some(n) = step(s, df, dr) {
            out |= bit(n);
            if occ & bit(n) != 0 {
                break;
            }
            s = n;
        }
    }
    out
}

const ROOK_DIRS: [(i8, i8); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, -1), (-1, 1)];

#[derive(Clone, Copy, Default)]
struct Magic {
    mask: Bb,
    magic: u64,
    shift: u32,
    offset: u32,
}

/// All precomputed tables.
pub struct Tables {
    rook: [Magic; 64],
    bishop: [Magic; 64],
    attacks: Vec<Bb>,
    pub king: [Bb; 64],
    /// Mao moves: for each square, its 4 orthogonal legs (64 = off board) and the two targets
    /// beyond each leg.
    pub mao_leg: [[u8; 4]; 64],
    pub mao_targets: [[Bb; 4]; 64],
    /// Mao attacks on a square: for each of its 4 diagonal neighbours (64 = off board), the two
    /// squares from which a Mao reaches it through that neighbour as its leg.
    pub mao_attack_leg: [[u8; 4]; 64],
    pub mao_attackers: [[Bb; 4]; 64],
    /// Berolina pawns per colour: diagonal forward steps, straight forward captures, and the
    /// double steps from the starting rank as (passed square, target) pairs (64 = none).
    pub pawn_steps: [[Bb; 64]; 2],
    pub pawn_captures: [[Bb; 64]; 2],
    pub pawn_doubles: [[[(u8, u8); 2]; 64]; 2],
    /// Squares from which a pawn of the given colour captures onto a square (straight behind).
    pub pawn_attackers: [[Bb; 64]; 2],
    /// Empty-board rays from a square in each of the 8 `DIRS`.
    pub rays: [[Bb; 8]; 64],
}

impl Tables {
    #[inline(always)]
    fn lookup(&self, m: &Magic, occ: Bb) -> Bb {
        let idx = ((occ & m.mask).wrapping_mul(m.magic) >> m.shift) as usize;
        self.attacks[m.offset as usize + idx]
    }

    #[inline(always)]
    pub fn rook(&self, sq: u8, occ: Bb) -> Bb {
        self.lookup(&self.rook[sq as usize], occ)
    }

    #[inline(always)]
    pub fn bishop(&self, sq: u8, occ: Bb) -> Bb {
        self.lookup(&self.bishop[sq as usize], occ)
    }

    /// Captures of a rook-line hopper on `sq`: the first piece beyond the first screen on each
    /// line (of any colour; the caller keeps the enemies).
    #[inline(always)]
    pub fn rook_hops(&self, sq: u8, occ: Bb) -> Bb {
        let screens = self.rook(sq, occ) & occ;
        let beyond_occ = occ ^ screens;
        self.rook(sq, beyond_occ) & beyond_occ
    }

    #[inline(always)]
    pub fn bishop_hops(&self, sq: u8, occ: Bb) -> Bb {
        let screens = self.bishop(sq, occ) & occ;
        let beyond_occ = occ ^ screens;
        self.bishop(sq, beyond_occ) & beyond_occ
    }
}

fn relevant_mask(sq: u8, dirs: &[(i8, i8)]) -> Bb {
    let mut out = 0;
    for &(df, dr) in dirs {
        let mut s = sq;
        while let Some(n) = step(s, df, dr) {
            // The last square of a ray never changes the attack set.
            if step(n, df, dr).is_none() {
                break;
            }
            out |= bit(n);
            s = n;
        }
    }
    out
}

fn subsets(mask: Bb) -> Vec<Bb> {
    let mut out = Vec::with_capacity(1 << mask.count_ones());
    let mut sub: Bb = 0;
    loop {
        out.push(sub);
        sub = sub.wrapping_sub(mask) & mask;
        if sub == 0 {
            break;
        }
    }
    out
}

/// Magic multipliers found by `find_magics` with the seeds below; known in advance so that the
/// tables build in a few milliseconds. Each is checked while the table is filled, and searched
/// again if it ever fails.
const ROOK_MAGICS: [u64; 64] = [
    0x0080008040002018,
    0x0040100040002001,
    0x09000D0010200040,
    0x8080080010008004,
    0xA280080002340080,
    0x2500050024000208,
    0x0280010000800200,
    0x1100144380220100,
    0xA92080048C204002,
    0x0802804003200080,
    0x0108802000100089,
    0x8060800800801002,
    0xA002000822000410,
    0x950A001002000824,
    0x1202000408010200,
    0x02950008408A0100,
    0x40A0A18000814000,
    0x0080848020004011,
    0x0800828010002000,
    0x0500420010200A00,
    0x0008818004000802,
    0x0000808004000200,
    0x0000040001020810,
    0x0081120000442081,
    0x0522400180002090,
    0x2800200040401000,
    0x402004A180100481,
    0x0880420200200810,
    0x000A040080800800,
    0x080A000404001020,
    0x0000010400820810,
    0x4000D08200004C09,
    0x0100804000800020,
    0xCC01028026004200,
    0x0081002001004010,
    0x0000800800801000,
    0x0009800401802800,
    0x0002000902000410,
    0x0000180144001022,
    0x00008100C6002884,
    0x1200800040008024,
    0x2000200050044000,
    0x0090882200420010,
    0x6A1810200A020040,
    0x0480040008008080,
    0x0206001108160014,
    0xC010040200010100,
    0x000001018046000C,
    0x00B0400880042080,
    0x0040002010080220,
    0x0020004228110100,
    0x0150000804004140,
    0x0028008004000980,
    0x0801000804000300,
    0x2C80210208900400,
    0x0000040130408200,
    0x4001409100258001,
    0x0005004002883021,
    0x019041E003001019,
    0x8000200900041001,
    0x4021001002040801,
    0x0011000400080201,
    0x1600010210408804,
    0x2010810084003042,
];
const BISHOP_MAGICS: [u64; 64] = [
    0x8810101001002020,
    0x0048011842084080,
    0x000401220A010C08,
    0x1042408100000000,
    0x0002021080000000,
    0x0A02080208080200,
    0x20090401A0080604,
    0x1002004044042000,
    0x0100101001084088,
    0x8020A02401020034,
    0x8080084081020C00,
    0x0401082A01200800,
    0x0000040420000048,
    0x0000108E30400040,
    0x2008212808020800,
    0x00C2002208024800,
    0x2089044042040439,
    0x0028021001284080,
    0x2001000808082080,
    0x0801041024008100,
    0x01041062020213A0,
    0x107200004100A004,
    0x4820880208040300,
    0x209200004200C408,
    0x0090108004E00244,
    0x0008600002841103,
    0x2202010002040400,
    0x0010910008004100,
    0x0000840008802004,
    0x5404004004092000,
    0x8000810B02011080,
    0x4014015104250400,
    0x081008A110040401,
    0x0008980820041000,
    0x0040402800100841,
    0x8244020081080080,
    0x0104101010140040,
    0x5820910202010080,
    0x0002881202110080,
    0x0008220820808880,
    0x8004104211000900,
    0x0001014120049090,
    0x0262002024002800,
    0x0000184208001082,
    0x0122A04410400402,
    0x6001B00108401A01,
    0x03082101020A0409,
    0x0001211200800200,
    0x0000411008200000,
    0x2420210402200080,
    0x003000240A084800,
    0xA14005020A020000,
    0x0101021002020828,
    0x0002202002262004,
    0x010A020424040000,
    0x0462500409024021,
    0x0000820B42024010,
    0x0004842404040430,
    0xF1028102404C1008,
    0x4000000403208848,
    0x0408420104050400,
    0x888A001021011100,
    0xC000305021890408,
    0x0028202808404381,
];

fn find_magics(
    dirs: &[(i8, i8)],
    known: &[u64; 64],
    seed: u64,
    attacks: &mut Vec<Bb>,
) -> [Magic; 64] {
    let mut rng = seed;
    let mut next = move || {
        // xorshift64*
        rng ^= rng >> 12;
        rng ^= rng << 25;
        rng ^= rng >> 27;
        rng.wrapping_mul(0x2545_F491_4F6C_DD1D)
    };
    let mut magics = [Magic::default(); 64];
    for sq in 0..64u8 {
        let mask = relevant_mask(sq, dirs);
        let bits = mask.count_ones();
        let occs = subsets(mask);
        let refs: Vec<Bb> = occs.iter().map(|&o| slide(sq, o, dirs)).collect();
        let size = 1usize << bits;
        let mut table = vec![0u64; size];
        let mut used = vec![0u32; size];
        let mut attempt = 0u32;
        let magic = loop {
            attempt += 1;
            let candidate = if attempt == 1 {
                known[sq as usize]
            } else {
                next() & next() & next()
            };
            if attempt > 1 && (mask.wrapping_mul(candidate) >> 56).count_ones() < 6 {
                continue;
            }
            let shift = 64 - bits;
            let mut ok = true;
            for (o, &r) in occs.iter().zip(&refs) {
                let idx = (o.wrapping_mul(candidate) >> shift) as usize;
                if used[idx] != attempt {
                    used[idx] = attempt;
                    table[idx] = r;
                } else if table[idx] != r {
                    ok = false;
                    break;
                }
            }
            if ok {
                break candidate;
            }
        };
        magics[sq as usize] = Magic {
            mask,
            magic,
            shift: 64 - bits,
            offset: attacks.len() as u32,
        };
        attacks.extend_from_slice(&table);
    }
    magics
}

fn build() -> Tables {
    let mut attacks = Vec::with_capacity(110_000);
    let rook = find_magics(
        &ROOK_DIRS,
        &ROOK_MAGICS,
        0x1234_5678_9ABC_DEF1,
        &mut attacks,
    );
    let bishop = find_magics(
        &BISHOP_DIRS,
        &BISHOP_MAGICS,
        0x0FED_CBA9_8765_4321,
        &mut attacks,
    );
    let mut t = Tables {
        rook,
        bishop,
        attacks,
        king: [0; 64],
        mao_leg: [[64; 4]; 64],
        mao_targets: [[0; 4]; 64],
        mao_attack_leg: [[64; 4]; 64],
        mao_attackers: [[0; 4]; 64],
        pawn_steps: [[0; 64]; 2],
        pawn_captures: [[0; 64]; 2],
        pawn_doubles: [[[(64, 64); 2]; 64]; 2],
        pawn_attackers: [[0; 64]; 2],
        rays: [[0; 8]; 64],
    };
    for sq in 0..64u8 {
        let s = sq as usize;
        for (d, &(df, dr)) in DIRS.iter().enumerate() {
            if let Some(n) = step(sq, df, dr) {
                t.king[s] |= bit(n);
            }
            t.rays[s][d] = slide(sq, 0, &[(df, dr)]);
        }
        // Mao: orthogonal leg then one diagonal step outward.
        for (i, &(df, dr)) in ROOK_DIRS.iter().enumerate() {
            if let Some(leg) = step(sq, df, dr) {
                t.mao_leg[s][i] = leg;
                let (pf, pr) = (dr, df); // perpendicular
                for sign in [1i8, -1] {
                    if let Some(target) = step(leg, df + sign * pf, dr + sign * pr) {
                        t.mao_targets[s][i] |= bit(target);
                    }
                }
            }
        }
        // Mao attacks through each diagonal neighbour `leg` = sq + (ex, ey): from
        // sq + (2ex, ey) and sq + (ex, 2ey).
        for (i, &(ex, ey)) in BISHOP_DIRS.iter().enumerate() {
            if let Some(leg) = step(sq, ex, ey) {
                t.mao_attack_leg[s][i] = leg;
                for (af, ar) in [(2 * ex, ey), (ex, 2 * ey)] {
                    if let Some(a) = step(sq, af, ar) {
                        t.mao_attackers[s][i] |= bit(a);
                    }
                }
            }
        }
        for colour in 0..2 {
            let fwd: i8 = if colour == 0 { 1 } else { -1 };
            for df in [-1i8, 1] {
                if let Some(n) = step(sq, df, fwd) {
                    t.pawn_steps[colour][s] |= bit(n);
                }
            }
            if let Some(n) = step(sq, 0, fwd) {
                t.pawn_captures[colour][s] |= bit(n);
            }
            if let Some(n) = step(sq, 0, -fwd) {
                t.pawn_attackers[colour][s] |= bit(n);
            }
            let start_rank = if colour == 0 { 1 } else { 6 };
            if sq / 8 == start_rank {
                for (k, df) in [-1i8, 1].into_iter().enumerate() {
                    if let (Some(mid), Some(to)) = (step(sq, df, fwd), step(sq, 2 * df, 2 * fwd)) {
                        t.pawn_doubles[colour][s][k] = (mid, to);
                    }
                }
            }
        }
    }
    t
}

pub static TABLES: LazyLock<Tables> = LazyLock::new(build);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::Rng;

    #[test]
    fn magics_match_slow_sliders() {
        let t = &*TABLES;
        let mut rng = Rng::new(7);
        for _ in 0..2000 {
            let occ = rng.next_u64() & rng.next_u64();
            let sq = rng.below(64) as u8;
            assert_eq!(t.rook(sq, occ), slide(sq, occ, &ROOK_DIRS));
            assert_eq!(t.bishop(sq, occ), slide(sq, occ, &BISHOP_DIRS));
        }
    }

    #[test]
    fn hops_find_the_piece_beyond_the_screen() {
        let t = &*TABLES;
        // Pao on a1, screen a3, target a6, further piece a8: hops to a6 only on the file.
        let occ = bit(16) | bit(40) | bit(56);
        assert_eq!(t.rook_hops(0, occ), bit(40));
        // No screen: nothing.
        assert_eq!(t.rook_hops(0, bit(56)), 0);
        // Vao on c1 (2), screen e3 (20), target g5 (38).
        assert_eq!(t.bishop_hops(2, bit(20) | bit(38)), bit(38));
    }
}
