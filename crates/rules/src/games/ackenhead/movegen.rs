//! Legal move generation and counting, and playing a move.
//!
//! Legality without make-and-test where possible: a "danger" mask holds the squares whose
//! occupancy can change whether our King is attacked (the lines from the King that hold an
//! enemy hopper of the matching kind, and the legs of enemy Maos that reach it). A move of a
//! non-King piece that neither leaves nor enters that mask, while not in check, is legal without
//! a test; every other move is tested by recomputing the attacks on the King with the
//! occupancy the move would leave (a handful of table lookups, no copy of the position).

use super::bitboard::{bit, Bb, Squares, RANK_1, RANK_8, TABLES};
use super::moves::AckenheadMove;
use super::position::*;
use crate::movelist::MoveSink;

/// Receives legal moves: whole target sets known to be legal, or single ones.
pub(super) trait Sink {
    fn set(&mut self, from: u8, targets: Bb, promotion: bool);
    fn one(&mut self, from: u8, to: u8, promotion: bool);
}

/// Counts moves (promotions count 4: Leo, Pao, Vao, Mao).
pub(super) struct Counter(pub u64);

impl Sink for Counter {
    #[inline(always)]
    fn set(&mut self, _from: u8, targets: Bb, promotion: bool) {
        self.0 += targets.count_ones() as u64 * if promotion { 4 } else { 1 };
    }

    #[inline(always)]
    fn one(&mut self, _from: u8, _to: u8, promotion: bool) {
        self.0 += if promotion { 4 } else { 1 };
    }
}

/// Collects moves into a vector.
pub(super) struct Collector<'a, S>(pub &'a mut S);

impl<S: MoveSink<AckenheadMove>> Sink for Collector<'_, S> {
    #[inline(always)]
    fn set(&mut self, from: u8, targets: Bb, promotion: bool) {
        for to in Squares(targets) {
            self.one(from, to, promotion);
        }
    }

    #[inline(always)]
    fn one(&mut self, from: u8, to: u8, promotion: bool) {
        if promotion {
            for kind in [LEO, PAO, VAO, MAO] {
                self.0.push(AckenheadMove::new(from, to, kind));
            }
        } else {
            self.0.push(AckenheadMove::new(from, to, 0));
        }
    }
}

struct Context {
    king: u8,
    them: u8,
    occ: Bb,
    danger: Bb,
}

impl AckenheadPosition {
    /// Squares where a change of occupancy can expose our King (see the module comment).
    #[inline(always)]
    fn danger_mask(&self, king: u8, them: u8) -> Bb {
        let t = &*TABLES;
        let k = king as usize;
        let theirs = self.colours[them as usize];
        let leos = self.kinds[LEO as usize];
        let orth = (self.kinds[PAO as usize] | leos) & theirs;
        let diag = (self.kinds[VAO as usize] | leos) & theirs;
        let mut danger = 0;
        for d in 0..4 {
            let ray = t.rays[k][d];
            if ray & orth != 0 {
                danger |= ray;
            }
            let ray = t.rays[k][d + 4];
            if ray & diag != 0 {
                danger |= ray;
            }
        }
        let maos = self.kinds[MAO as usize] & theirs;
        if maos != 0 {
            for i in 0..4 {
                let leg = t.mao_attack_leg[k][i];
                if leg < 64 && t.mao_attackers[k][i] & maos != 0 {
                    danger |= bit(leg);
                }
            }
        }
        danger
    }

    #[inline(always)]
    fn legal_after(&self, cx: &Context, from: u8, to: u8) -> bool {
        let occ = (cx.occ & !bit(from)) | bit(to);
        !self.attacked_with(cx.king, cx.them, occ, !bit(to))
    }

    #[inline(always)]
    fn emit<S: Sink>(&self, sink: &mut S, cx: &Context, from: u8, targets: Bb, promotion: bool) {
        if targets == 0 {
            return;
        }
        let tested = if bit(from) & cx.danger == 0 {
            sink.set(from, targets & !cx.danger, promotion);
            targets & cx.danger
        } else {
            targets
        };
        for to in Squares(tested) {
            if self.legal_after(cx, from, to) {
                sink.one(from, to, promotion);
            }
        }
    }

    /// Feeds every legal move to `sink`.
    pub(super) fn generate_into<S: Sink>(&self, sink: &mut S) {
        let t = &*TABLES;
        let us = self.side;
        let them = us ^ 1;
        let occ = self.occupied();
        let own = self.colours[us as usize];
        let empty = !occ;
        let king = self.king_square(us);
        if king >= 64 {
            return;
        }
        let in_check = self.attacked_with(king, them, occ, !0);
        let danger = if in_check {
            !0
        } else {
            self.danger_mask(king, them)
        };
        let cx = Context {
            king,
            them,
            occ,
            danger,
        };

        // King.
        for to in Squares(t.king[king as usize] & !own) {
            let occ2 = (occ & !bit(king)) | bit(to);
            if !self.attacked_with(to, them, occ2, !bit(to)) {
                sink.one(king, to, false);
            }
        }

        for kind in [PAO, VAO, LEO, MAO] {
            for from in Squares(self.pieces(us, kind)) {
                let targets = self.piece_targets(kind, from);
                self.emit(sink, &cx, from, targets, false);
            }
        }
        let last = if us == WHITE { RANK_8 } else { RANK_1 };
        let u = us as usize;
        for from in Squares(self.pieces(us, PAWN)) {
            let targets = self.piece_targets(PAWN, from);
            self.emit(sink, &cx, from, targets & !last, false);
            self.emit(sink, &cx, from, targets & last, true);
        }

        // En passant: a pawn straight behind the passed square takes the pawn that passed it.
        if self.ep_passed != NO_SQUARE
            && self.ep_is_double_step()
            && empty & bit(self.ep_passed) != 0
            && self.board[self.ep_pawn as usize] == piece(them, PAWN)
        {
            let passed = self.ep_passed;
            let victim = self.ep_pawn;
            for from in Squares(t.pawn_attackers[u][passed as usize] & self.pieces(us, PAWN)) {
                let occ2 = occ ^ bit(from) ^ bit(passed) ^ bit(victim);
                if !self.attacked_with(king, them, occ2, !bit(victim)) {
                    sink.one(from, passed, false);
                }
            }
        }
    }

    /// Where a piece of the side to move of `kind` on `from` can go, ignoring the safety of its
    /// own King and en passant. Hoppers move like the slider and capture over exactly one
    /// screen; Maos are blocked by a piece on the orthogonal leg; Berolina pawns step
    /// diagonally (two steps from the start rank) and capture straight forward.
    #[inline(always)]
    pub(super) fn piece_targets(&self, kind: u8, from: u8) -> Bb {
        let t = &*TABLES;
        let us = self.side as usize;
        let occ = self.occupied();
        let empty = !occ;
        let enemy = self.colours[us ^ 1];
        let f = from as usize;
        match kind {
            KING => t.king[f] & !self.colours[us],
            PAO => (t.rook(from, occ) & empty) | (t.rook_hops(from, occ) & enemy),
            VAO => (t.bishop(from, occ) & empty) | (t.bishop_hops(from, occ) & enemy),
            LEO => {
                ((t.rook(from, occ) | t.bishop(from, occ)) & empty)
                    | ((t.rook_hops(from, occ) | t.bishop_hops(from, occ)) & enemy)
            }
            MAO => {
                let mut targets = 0;
                for i in 0..4 {
                    let leg = t.mao_leg[f][i];
                    if leg < 64 && empty & bit(leg) != 0 {
                        targets |= t.mao_targets[f][i];
                    }
                }
                targets & !self.colours[us]
            }
            _ => {
                let mut targets = t.pawn_steps[us][f] & empty;
                for &(mid, to) in &t.pawn_doubles[us][f] {
                    if mid < 64 && empty & bit(mid) != 0 && empty & bit(to) != 0 {
                        targets |= bit(to);
                    }
                }
                targets | (t.pawn_captures[us][f] & enemy)
            }
        }
    }

    /// True if `mv` moves a pawn straight forward onto an empty square: an en passant capture.
    #[inline(always)]
    pub(super) fn is_en_passant(&self, mv: AckenheadMove) -> bool {
        let from = mv.from();
        let to = mv.to();
        piece_kind_at(self, from) == Some(PAWN)
            && to == self.ep_passed
            && from % 8 == to % 8
            && self.board[to as usize] == EMPTY
    }

    /// Plays a move (assumed legal).
    #[inline(always)]
    pub(super) fn apply(&mut self, mv: AckenheadMove) {
        let from = mv.from();
        let to = mv.to();
        let us = self.side;
        if self.ep_passed != NO_SQUARE {
            self.hash ^= ep_key(self.ep_passed);
        }
        let ep_victim = self.ep_pawn;
        self.ep_passed = NO_SQUARE;
        self.ep_pawn = NO_SQUARE;
        let moving = self.board[from as usize];
        if moving == EMPTY {
            // Not a move of this position; leave it unchanged but for the side (logic error).
            return;
        }
        let kind = piece_kind(moving);
        let mut reset = kind == PAWN;
        if self.board[to as usize] != EMPTY {
            self.remove(to);
            reset = true;
        } else if kind == PAWN && from % 8 == to % 8 && ep_victim < 64 {
            self.remove(ep_victim);
        }
        self.remove(from);
        let promotion = mv.promotion();
        self.put(
            if promotion != 0 {
                piece(us, promotion)
            } else {
                moving
            },
            to,
        );
        if kind == PAWN && (from / 8).abs_diff(to / 8) == 2 {
            let passed = (from + to) / 2;
            self.ep_passed = passed;
            self.ep_pawn = to;
            self.hash ^= ep_key(passed);
        }
        self.halfmove = if reset {
            0
        } else {
            self.halfmove.saturating_add(1)
        };
        if us == BLACK {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side ^= 1;
        self.hash ^= side_key();
    }
}

#[inline(always)]
fn piece_kind_at(pos: &AckenheadPosition, sq: u8) -> Option<u8> {
    pos.piece_on(sq).map(|(_, k)| k)
}
