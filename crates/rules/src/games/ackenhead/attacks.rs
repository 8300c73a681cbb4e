//! Attack sets for evaluations: read-only views of the move generator's tables. Squares are
//! numbered `rank * 8 + file` (a1 = 0); `occ` is the set of occupied squares.

use super::bitboard::{bit, Bb, TABLES};

/// The squares a rook-line slider on `sq` reaches: every empty square up to the first piece on
/// each line, and that piece's square.
#[inline]
pub fn rook_slides(sq: u8, occ: Bb) -> Bb {
    TABLES.rook(sq, occ)
}

/// The same along bishop lines.
#[inline]
pub fn bishop_slides(sq: u8, occ: Bb) -> Bb {
    TABLES.bishop(sq, occ)
}

/// A rook-line hopper's targets from `sq`: on each line, the first piece beyond the first
/// screen (of either colour; the caller keeps the enemies).
#[inline]
pub fn rook_hops(sq: u8, occ: Bb) -> Bb {
    TABLES.rook_hops(sq, occ)
}

/// The same along bishop lines.
#[inline]
pub fn bishop_hops(sq: u8, occ: Bb) -> Bb {
    TABLES.bishop_hops(sq, occ)
}

/// What a rook-line hopper on `sq` controls: on each line, the squares beyond the first screen
/// up to and including the next piece (an enemy King there is in check; an enemy piece moving
/// there can be taken).
#[inline]
pub fn rook_hop_zone(sq: u8, occ: Bb) -> Bb {
    let t = &*TABLES;
    let near = t.rook(sq, occ);
    let beyond = occ ^ (near & occ);
    t.rook(sq, beyond) & !near
}

/// The same along bishop lines.
#[inline]
pub fn bishop_hop_zone(sq: u8, occ: Bb) -> Bb {
    let t = &*TABLES;
    let near = t.bishop(sq, occ);
    let beyond = occ ^ (near & occ);
    t.bishop(sq, beyond) & !near
}

/// The King's squares around `sq`.
#[inline]
pub fn king(sq: u8) -> Bb {
    TABLES.king[sq as usize]
}

/// The squares a Mao on `sq` reaches (moves and captures) with its legs as `occ` has them.
#[inline]
pub fn mao(sq: u8, occ: Bb) -> Bb {
    let t = &*TABLES;
    let mut out = 0;
    for i in 0..4 {
        let leg = t.mao_leg[sq as usize][i];
        if leg < 64 && occ & bit(leg) == 0 {
            out |= t.mao_targets[sq as usize][i];
        }
    }
    out
}

/// A Berolina pawn of `colour` on `sq`: its diagonal steps forward (moves onto empty squares).
#[inline]
pub fn pawn_steps(colour: u8, sq: u8) -> Bb {
    TABLES.pawn_steps[colour as usize & 1][sq as usize]
}

/// A Berolina pawn of `colour` on `sq`: the square straight ahead (its capture).
#[inline]
pub fn pawn_captures(colour: u8, sq: u8) -> Bb {
    TABLES.pawn_captures[colour as usize & 1][sq as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> u8 {
        let b = name.as_bytes();
        (b[1] - b'1') * 8 + (b[0] - b'a')
    }

    #[test]
    fn hop_zone_runs_from_beyond_the_screen_to_the_next_piece() {
        // Pao on a1, screen on a3, a piece on a6: the zone on the file is a4, a5, a6.
        let occ = bit(sq("a1")) | bit(sq("a3")) | bit(sq("a6"));
        let zone = rook_hop_zone(sq("a1"), occ);
        let file_a = zone & 0x0101_0101_0101_0101;
        assert_eq!(file_a, bit(sq("a4")) | bit(sq("a5")) | bit(sq("a6")));
        // Along the first rank nothing screens: no zone there.
        assert_eq!(zone & 0xFF, 0);
        assert_eq!(rook_hops(sq("a1"), occ), bit(sq("a6")));
    }

    #[test]
    fn mao_is_blocked_by_its_leg() {
        let free = mao(sq("b1"), bit(sq("b1")));
        assert_eq!(free, bit(sq("a3")) | bit(sq("c3")) | bit(sq("d2")));
        // A piece on b2 blocks the two forward targets.
        let blocked = mao(sq("b1"), bit(sq("b1")) | bit(sq("b2")));
        assert_eq!(blocked, bit(sq("d2")));
    }
}
