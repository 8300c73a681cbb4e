//! Legal move generation and counting, the tactical moves alone, legality of one move, and
//! playing a move.
//!
//! Legality without make-and-test where possible: a "danger" mask holds the squares whose
//! occupancy can change whether our King is attacked (the lines from the King that hold an
//! enemy hopper of the matching kind, and the legs of enemy Maos that reach it). A move of a
//! non-King piece that neither leaves nor enters that mask, while not in check, is legal without
//! a test; every other move is tested by recomputing the attacks on the King with the
//! occupancy the move would leave (a handful of table lookups, no copy of the position).
//!
//! The generator hands whole target sets of one piece to a [`TargetSink`]: [`Pushing`] sends
//! each move on to a core [`MoveSink`], the core [`MoveCounter`] counts a set with one popcount
//! (perft's last ply and `count_legal_moves`), [`AnyMove`] stops at the first, and
//! [`QuietMates`] keeps the quiet moves that checkmate (for `generate_tactical`).

use super::bitboard::{bit, Bb, Squares, RANK_1, RANK_8, TABLES};
use super::moves::AckenheadMove;
use super::position::*;
use crate::game::{PieceSets, Player};
use crate::movelist::{MoveCounter, MoveSink};

/// Receives the legal moves of one piece as a set of target squares.
pub(super) trait TargetSink {
    /// The moves from `from` to each square of `targets` (each one four moves, to a Leo, Pao,
    /// Vao and Mao, if `promotion`).
    fn push_targets(&mut self, from: u8, targets: Bb, promotion: bool);

    /// True once the sink wants no more moves: the generator may stop early.
    #[inline(always)]
    fn done(&self) -> bool {
        false
    }
}

/// Sends every move on to a core sink.
pub(super) struct Pushing<'a, S>(pub &'a mut S);

impl<S: MoveSink<AckenheadMove>> TargetSink for Pushing<'_, S> {
    #[inline(always)]
    fn push_targets(&mut self, from: u8, targets: Bb, promotion: bool) {
        for to in Squares(targets) {
            if promotion {
                for kind in [LEO, PAO, VAO, MAO] {
                    self.0.push(AckenheadMove::new(from, to, kind));
                }
            } else {
                self.0.push(AckenheadMove::new(from, to, 0));
            }
        }
    }
}

/// Counts a whole set at once (a promotion counts four moves).
impl TargetSink for MoveCounter {
    #[inline(always)]
    fn push_targets(&mut self, _from: u8, targets: Bb, promotion: bool) {
        self.0 += targets.count_ones() as usize * if promotion { 4 } else { 1 };
    }
}

/// Stops at the first legal move.
pub(super) struct AnyMove(pub bool);

impl TargetSink for AnyMove {
    #[inline(always)]
    fn push_targets(&mut self, _from: u8, targets: Bb, _promotion: bool) {
        self.0 |= targets != 0;
    }

    #[inline(always)]
    fn done(&self) -> bool {
        self.0
    }
}

/// Which targets the generator looks at: a mask for the King, one for the other pieces but
/// pawns, one for pawns, and whether en passant is included.
#[derive(Clone, Copy)]
pub(super) struct Filter {
    king: Bb,
    pieces: Bb,
    pawns: Bb,
    en_passant: bool,
}

impl Filter {
    pub(super) const ALL: Filter = Filter {
        king: !0,
        pieces: !0,
        pawns: !0,
        en_passant: true,
    };
}

struct Context {
    king: u8,
    them: u8,
    occ: Bb,
    danger: Bb,
}

impl AckenheadPosition {
    /// Squares where a change of occupancy can change whether the King on `king` is attacked by
    /// `them` (see the module comment).
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

    /// Sends the legal ones of a non-King piece's `targets` to `sink`: all of them at once when
    /// the piece is off the danger mask, those off the mask at once and the others after a test
    /// otherwise.
    #[inline(always)]
    fn emit<S: TargetSink>(
        &self,
        sink: &mut S,
        cx: &Context,
        from: u8,
        targets: Bb,
        promotion: bool,
    ) {
        if targets == 0 {
            return;
        }
        let tested = if bit(from) & cx.danger == 0 {
            sink.push_targets(from, targets & !cx.danger, promotion);
            targets & cx.danger
        } else {
            targets
        };
        let mut legal = 0;
        for to in Squares(tested) {
            if self.legal_after(cx, from, to) {
                legal |= bit(to);
            }
        }
        if legal != 0 {
            sink.push_targets(from, legal, promotion);
        }
    }

    /// Feeds every legal move to `sink`.
    #[inline(always)]
    pub(super) fn generate_into<S: TargetSink>(&self, sink: &mut S) {
        self.generate_filtered(sink, Filter::ALL);
    }

    /// Feeds the legal moves whose targets pass `filter` to `sink`.
    #[inline(always)]
    pub(super) fn generate_filtered<S: TargetSink>(&self, sink: &mut S, filter: Filter) {
        let t = &*TABLES;
        let us = self.side;
        let them = us ^ 1;
        let occ = self.occupied();
        let own = self.colours[us as usize];
        let empty = !occ;
        let king = self.king_sq(us);
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
        let mut safe = 0;
        for to in Squares(t.king[king as usize] & !own & filter.king) {
            let occ2 = (occ & !bit(king)) | bit(to);
            if !self.attacked_with(to, them, occ2, !bit(to)) {
                safe |= bit(to);
            }
        }
        if safe != 0 {
            sink.push_targets(king, safe, false);
        }
        if sink.done() {
            return;
        }

        for kind in [PAO, VAO, LEO, MAO] {
            for from in Squares(self.bb(us, kind)) {
                let targets = self.piece_targets(kind, from) & filter.pieces;
                self.emit(sink, &cx, from, targets, false);
                if sink.done() {
                    return;
                }
            }
        }
        let last = if us == WHITE { RANK_8 } else { RANK_1 };
        let u = us as usize;
        for from in Squares(self.bb(us, PAWN)) {
            let targets = self.piece_targets(PAWN, from) & filter.pawns;
            self.emit(sink, &cx, from, targets & !last, false);
            self.emit(sink, &cx, from, targets & last, true);
            if sink.done() {
                return;
            }
        }

        // En passant: a pawn straight behind the passed square takes the pawn that passed it.
        if filter.en_passant
            && self.ep_passed != NO_SQUARE
            && self.ep_is_double_step()
            && empty & bit(self.ep_passed) != 0
            && self.board[self.ep_pawn as usize] == piece(them, PAWN)
        {
            let passed = self.ep_passed;
            let victim = self.ep_pawn;
            for from in Squares(t.pawn_attackers[u][passed as usize] & self.bb(us, PAWN)) {
                let occ2 = occ ^ bit(from) ^ bit(passed) ^ bit(victim);
                if !self.attacked_with(king, them, occ2, !bit(victim)) {
                    sink.push_targets(from, bit(passed), false);
                }
            }
        }
    }

    /// The number of legal moves, counted without generating them.
    #[inline(always)]
    pub(super) fn count_moves(&self) -> u64 {
        let mut c = MoveCounter(0);
        self.generate_into(&mut c);
        c.0 as u64
    }

    /// The mobility of `player` ([`crate::game::PieceSets::mobility`]): its legal moves,
    /// counted without generating them, on a copy with the turn handed over if it is not to
    /// move (then without en passant).
    pub(super) fn count_moves_of(&self, player: Player) -> u32 {
        if player == self.side {
            return self.count_moves() as u32;
        }
        if player > 1 {
            return 0;
        }
        let mut other = self.clone();
        other.side = player;
        other.ep_passed = NO_SQUARE;
        other.ep_pawn = NO_SQUARE;
        other.count_moves() as u32
    }

    /// True if the side to move has a legal move (stops at the first one found).
    pub(super) fn has_legal_move(&self) -> bool {
        let mut any = AnyMove(false);
        self.generate_into(&mut any);
        any.0
    }

    /// Sends the tactical moves to `out`: every legal capture (en passant included), every
    /// promotion, and the quiet moves that checkmate. Exactly the legal moves whose `tactics`
    /// are tactical.
    pub(super) fn generate_tactical_into<S: MoveSink<AckenheadMove>>(&self, out: &mut S) {
        self.generate_captures_into(out);
        let us = self.side;
        let last = if us == WHITE { RANK_8 } else { RANK_1 };
        // The other moves (to empty squares, pawns not reaching the last rank) that checkmate.
        let Some(mut mates) = QuietMates::new(self, out) else {
            return;
        };
        let empty = !self.occupied();
        self.generate_filtered(
            &mut mates,
            Filter {
                king: empty,
                pieces: empty,
                pawns: empty & !last,
                en_passant: false,
            },
        );
    }

    /// Sends every legal capture (en passant included) and promotion (quiet or capturing) to
    /// `out`: the moves whose targets are enemy squares, or last-rank squares for a pawn.
    pub(super) fn generate_captures_into<S: MoveSink<AckenheadMove>>(&self, out: &mut S) {
        let us = self.side;
        let enemy = self.colours[(us ^ 1) as usize];
        let last = if us == WHITE { RANK_8 } else { RANK_1 };
        self.generate_filtered(
            &mut Pushing(out),
            Filter {
                king: enemy,
                pieces: enemy,
                pawns: enemy | last,
                en_passant: true,
            },
        );
    }

    /// Would the enemy King be attacked after the legal move `mv` of the side to move?
    /// Exact, without playing the move: the attacks on it are recomputed with the moving piece
    /// (promoted if it promotes) on its target and the occupancy the move leaves.
    pub(super) fn gives_check(&self, mv: AckenheadMove) -> bool {
        let us = self.side;
        let ek = self.king_sq(us ^ 1);
        let from = mv.from();
        let to = mv.to();
        let moving = self.board[from as usize];
        if ek >= 64 || moving == EMPTY {
            return false;
        }
        let kind = if mv.promotion() != 0 {
            mv.promotion()
        } else {
            piece_kind(moving)
        };
        let mut occ = (self.occupied() & !bit(from)) | bit(to);
        if self.is_en_passant(mv) {
            occ &= !bit(self.ep_pawn);
        }
        let ours = self.colours[us as usize] & !bit(from);
        let placed = |k: u8| (self.kinds[k as usize] & ours) | if k == kind { bit(to) } else { 0 };
        let leos = placed(LEO);
        super::position::attacked_by(
            ek,
            us,
            occ,
            Attackers {
                kings: placed(KING),
                pawns: placed(PAWN),
                maos: placed(MAO),
                orth: placed(PAO) | leos,
                diag: placed(VAO) | leos,
            },
        )
    }

    /// True if the legal move `mv` checkmates: it gives check (see [`Self::gives_check`]) and
    /// then, on a copy of the position where it is played, the opponent has no legal move.
    pub(super) fn gives_mate(&self, mv: AckenheadMove) -> bool {
        if !self.gives_check(mv) {
            return false;
        }
        let mut after = self.clone();
        after.apply(mv);
        !after.has_legal_move()
    }

    /// True if `mv` is a legal move of this position. Exact and cheap: the piece on `from` must
    /// be the mover's, `to` one of its targets (or its en passant capture), the promotion
    /// given exactly when a pawn reaches the last rank, and the King safe afterwards (tested by
    /// recomputing the attacks on it, as the generator does).
    pub(super) fn is_legal(&self, mv: AckenheadMove) -> bool {
        let t = &*TABLES;
        let from = mv.from();
        let to = mv.to();
        let promotion = mv.promotion();
        let us = self.side;
        let them = us ^ 1;
        let p = self.board[from as usize];
        if p == EMPTY || piece_colour(p) != us || promotion > MAO {
            return false;
        }
        let kind = piece_kind(p);
        let occ = self.occupied();
        if kind == KING {
            let occ2 = (occ & !bit(from)) | bit(to);
            return promotion == 0
                && t.king[from as usize] & !self.colours[us as usize] & bit(to) != 0
                && !self.attacked_with(to, them, occ2, !bit(to));
        }
        let king = self.king_sq(us);
        if king >= 64 {
            return false;
        }
        let last = if us == WHITE { RANK_8 } else { RANK_1 };
        let promotes = kind == PAWN && bit(to) & last != 0;
        if promotes != (promotion != 0) {
            return false;
        }
        if self.piece_targets(kind, from) & bit(to) != 0 {
            let occ2 = (occ & !bit(from)) | bit(to);
            return !self.attacked_with(king, them, occ2, !bit(to));
        }
        // En passant, exactly as the generator finds it.
        kind == PAWN
            && to == self.ep_passed
            && self.ep_is_double_step()
            && occ & bit(to) == 0
            && self.board[self.ep_pawn as usize] == piece(them, PAWN)
            && t.pawn_attackers[us as usize][to as usize] & bit(from) != 0
            && {
                let victim = self.ep_pawn;
                let occ2 = occ ^ bit(from) ^ bit(to) ^ bit(victim);
                !self.attacked_with(king, them, occ2, !bit(victim))
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

    /// True if `mv` moves a pawn straight forward onto the empty square passed over by the last
    /// double step: an en passant capture (for the legal moves of this position).
    #[inline(always)]
    pub(super) fn is_en_passant(&self, mv: AckenheadMove) -> bool {
        let from = mv.from();
        let to = mv.to();
        self.board[from as usize] != EMPTY
            && piece_kind(self.board[from as usize]) == PAWN
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
            self.hash ^= ep_key(self.ep_passed, self.ep_pawn);
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
            self.hash ^= ep_key(passed, to);
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

    /// Hands the turn over without moving: clears the en passant field and flips the side,
    /// updating the hash; the counters stay (a null move is not a ply of the game).
    pub(super) fn apply_null(&mut self) {
        if self.ep_passed != NO_SQUARE {
            self.hash ^= ep_key(self.ep_passed, self.ep_pawn);
        }
        self.ep_passed = NO_SQUARE;
        self.ep_pawn = NO_SQUARE;
        self.side ^= 1;
        self.hash ^= side_key();
    }
}

/// Keeps the quiet moves that checkmate, for `generate_tactical`. A quiet move can check only
/// if its piece attacks the enemy King from its target (`direct`, by kind: a superset from
/// empty-board lines) or it leaves or enters a square where a change of occupancy can change
/// the attacks of our other pieces on that King (`discover`: the danger mask seen from the
/// enemy King); those candidates are tested exactly.
pub(super) struct QuietMates<'a, S> {
    pos: &'a AckenheadPosition,
    out: &'a mut S,
    direct: [Bb; 6],
    discover: Bb,
}

impl<'a, S: MoveSink<AckenheadMove>> QuietMates<'a, S> {
    /// `None` if the enemy King is missing (never in a position read from a string).
    fn new(pos: &'a AckenheadPosition, out: &'a mut S) -> Option<Self> {
        let t = &*TABLES;
        let us = pos.side;
        let ek = pos.king_sq(us ^ 1);
        if ek >= 64 {
            return None;
        }
        let e = ek as usize;
        let orth = t.rays[e][0] | t.rays[e][1] | t.rays[e][2] | t.rays[e][3];
        let diag = t.rays[e][4] | t.rays[e][5] | t.rays[e][6] | t.rays[e][7];
        let maos = t.mao_attackers[e][0]
            | t.mao_attackers[e][1]
            | t.mao_attackers[e][2]
            | t.mao_attackers[e][3];
        let mut direct = [0; 6];
        // A King never attacks the other King after a legal move.
        direct[LEO as usize] = orth | diag;
        direct[PAO as usize] = orth;
        direct[VAO as usize] = diag;
        direct[MAO as usize] = maos;
        direct[PAWN as usize] = t.pawn_attackers[us as usize][e];
        Some(QuietMates {
            pos,
            out,
            direct,
            discover: pos.danger_mask(ek, us),
        })
    }
}

impl<S: MoveSink<AckenheadMove>> TargetSink for QuietMates<'_, S> {
    fn push_targets(&mut self, from: u8, targets: Bb, promotion: bool) {
        let kind = piece_kind(self.pos.board[from as usize]);
        let candidates = if bit(from) & self.discover != 0 {
            targets
        } else {
            targets & (self.direct[kind as usize] | self.discover)
        };
        for to in Squares(candidates) {
            debug_assert!(!promotion);
            let mv = AckenheadMove::new(from, to, 0);
            if self.pos.gives_mate(mv) {
                self.out.push(mv);
            }
        }
    }
}
