//! Jeu de Reines: material (pending Ponte Workers included), the immobile Queens (the enemies
//! near each, the friends beside her, Counsellors on her lines), the Ponte square (blocked or
//! taken by the enemy), the Workers' advance, mobility and the move.

use myrmidon_rules::games::reines::{ReinesKind, ReinesPosition};
use myrmidon_rules::{PieceSets, Player, Position};

use super::weights::{kind_weights, material_of, set_kind_weight, set_term, term_weights, Term};
use super::{Evaluator, Tunable, Weight};
use crate::players::{Levels, BEGINNER, STRENGTHS};

/// Squares within two steps (king moves) of each player's Queen: a1 for player 0, h8 for
/// player 1 (Queens never move). Bit `rank * 8 + file`.
const NEAR2: [u64; 2] = [0x07_07_07, 0xE0_E0_E0 << 40];
/// Squares next to each Queen.
const NEAR1: [u64; 2] = [0x03_03, 0xC0_C0 << 48];
/// The rank and the file of each Queen: where a Counsellor attacks her along a line.
const LINES: [u64; 2] = [0x0101_0101_0101_01FF, 0xFF80_8080_8080_8080];

/// The weights after the piece values, in [`Tunable`] order.
const OTHERS: [Term<ReinesEval>; 20] = [
    ("worker.pending", |e| &mut e.worker_pending),
    ("queen.attackers", |e| &mut e.queen_attackers),
    ("queen.guards", |e| &mut e.queen_guards),
    ("counsellor.line", |e| &mut e.counsellor_line),
    ("ponte.blocked", |e| &mut e.ponte_blocked),
    ("ponte.enemy", |e| &mut e.ponte_enemy),
    ("worker.advance", |e| &mut e.worker_advance),
    ("mobility", |e| &mut e.mobility),
    ("tempo", |e| &mut e.tempo),
    ("worker.race1", |e| &mut e.worker_race[0]),
    ("worker.race2", |e| &mut e.worker_race[1]),
    ("worker.race3", |e| &mut e.worker_race[2]),
    ("worker.race4", |e| &mut e.worker_race[3]),
    ("worker.race5", |e| &mut e.worker_race[4]),
    ("worker.race6", |e| &mut e.worker_race[5]),
    ("soldier.reach1", |e| &mut e.soldier_reach[0]),
    ("soldier.reach2", |e| &mut e.soldier_reach[1]),
    ("counsellor.reach", |e| &mut e.counsellor_reach),
    ("threat.open", |e| &mut e.threat_open),
    ("queen.cover", |e| &mut e.queen_cover),
];

/// Piece values in centipawns (a Worker is 100), then the positional terms. Capturing a Queen
/// ends the game, which the search scores.
#[derive(Clone, Debug)]
pub struct ReinesEval {
    pub values: [(ReinesKind, i32); 3],
    /// Each Worker waiting to come back on the Ponte.
    pub worker_pending: i32,
    /// Each enemy piece within two squares of the own Queen (a penalty when positive).
    pub queen_attackers: i32,
    /// Each own piece next to the own Queen.
    pub queen_guards: i32,
    /// Each own Counsellor on the enemy Queen's rank or file.
    pub counsellor_line: i32,
    /// The own Ponte square occupied while a Worker waits to come back (a penalty).
    pub ponte_blocked: i32,
    /// An enemy piece on the own Ponte square, next to the Queen (a penalty).
    pub ponte_enemy: i32,
    /// Each step forward (rank and file) of a Worker.
    pub worker_advance: i32,
    /// Sixteenths of a centipawn a move.
    pub mobility: i32,
    /// The player to move's bonus.
    pub tempo: i32,
    /// Each Worker 1 to 6 forward steps from the enemy Ponte square, where a Worker takes the
    /// enemy Queen, by the number of steps.
    pub worker_race: [i32; 6],
    /// Each Soldier 1 or 2 jumps from a square where it attacks the enemy Queen, by jumps
    /// (one further away counts nothing: a term for every Soldier would be its value).
    pub soldier_reach: [i32; 2],
    /// Each Counsellor one move from attacking the enemy Queen along a line.
    pub counsellor_reach: i32,
    /// Each square from which the enemy Queen would be attacked that an own piece of the right
    /// kind can go to next and the enemy does not guard.
    pub threat_open: i32,
    /// Each square from which the own Queen would be attacked by a Soldier or a Worker that
    /// an own piece guards.
    pub queen_cover: i32,
}

impl ReinesEval {
    /// The threats of `player`'s pieces on the enemy Queen, and the guard of the own Queen.
    fn threats(&self, pos: &ReinesPosition, player: Player) -> i32 {
        let them = player ^ 1;
        let (Some(queen), Some(ponte)) = (pos.queen_square(them), pos.ponte_square(them)) else {
            return 0;
        };
        let enemy_guards = |sq: u32| pos.attackers(sq, them) != 0;
        let jumps = ReinesPosition::soldier_jumps(queen);
        let lines = pos.lines_to(queen);
        let mut score = 0;
        let mut open = 0u64;
        let (pf, pr) = ((ponte & 7) as i32, (ponte >> 3) as i32);
        let forward = if player & 1 == 0 { 1 } else { -1 };
        let mut workers = pos.pieces(player, ReinesKind::Worker);
        while workers != 0 {
            let sq = workers.trailing_zeros();
            workers &= workers - 1;
            let (df, dr) = (
                (pf - (sq & 7) as i32) * forward,
                (pr - (sq >> 3) as i32) * forward,
            );
            if df >= 0 && dr >= 0 && (1..=6).contains(&(df + dr)) {
                score += self.worker_race[(df + dr - 1) as usize];
            }
            open |= pos.reach(sq) & (1 << ponte);
        }
        let mut soldiers = pos.pieces(player, ReinesKind::Soldier);
        while soldiers != 0 {
            let sq = soldiers.trailing_zeros();
            soldiers &= soldiers - 1;
            let first = ReinesPosition::soldier_jumps(sq);
            open |= first & pos.reach(sq) & jumps;
            if first & jumps != 0 {
                score += self.soldier_reach[0];
            } else {
                let mut second = 0;
                let mut via = first;
                while via != 0 {
                    second |= ReinesPosition::soldier_jumps(via.trailing_zeros());
                    via &= via - 1;
                }
                if second & jumps != 0 {
                    score += self.soldier_reach[1];
                }
            }
        }
        let mut counsellors = pos.pieces(player, ReinesKind::Counsellor);
        while counsellors != 0 {
            let sq = counsellors.trailing_zeros();
            counsellors &= counsellors - 1;
            let next = pos.reach(sq) & lines;
            if lines & (1 << sq) == 0 && next != 0 {
                score += self.counsellor_reach;
            }
            open |= next;
        }
        let mut unguarded = 0;
        while open != 0 {
            let sq = open.trailing_zeros();
            open &= open - 1;
            unguarded += i32::from(!enemy_guards(sq));
        }
        score += unguarded * self.threat_open;
        if let (Some(own_queen), Some(own_ponte)) =
            (pos.queen_square(player), pos.ponte_square(player))
        {
            let mut targets = ReinesPosition::soldier_jumps(own_queen) | 1 << own_ponte;
            while targets != 0 {
                let sq = targets.trailing_zeros();
                targets &= targets - 1;
                score += i32::from(pos.attackers(sq, player) != 0) * self.queen_cover;
            }
        }
        score
    }

    /// Everything of `player`'s (material included) before the opponent's part is taken off.
    fn side(&self, pos: &ReinesPosition, player: Player) -> i32 {
        let p = (player & 1) as usize;
        let them = p ^ 1;
        let queens = pos.pieces(0, ReinesKind::Queen) | pos.pieces(1, ReinesKind::Queen);
        let own = pos.pieces_of(player) & !queens;
        let enemy = pos.pieces_of(player ^ 1) & !queens;
        let mut score = self.material(pos, player);
        let pending = pos.pending_count(player);
        score += pending as i32 * self.worker_pending;
        score -= (enemy & NEAR2[p]).count_ones() as i32 * self.queen_attackers;
        score += (own & NEAR1[p]).count_ones() as i32 * self.queen_guards;
        let counsellors = pos.pieces(player, ReinesKind::Counsellor);
        score += (counsellors & LINES[them]).count_ones() as i32 * self.counsellor_line;
        if let Some(ponte) = pos.ponte_square(player) {
            let square = 1u64 << ponte;
            if pending > 0 && pos.occupied() & square != 0 {
                score -= self.ponte_blocked;
            }
            if enemy & square != 0 {
                score -= self.ponte_enemy;
            }
        }
        let mut workers = pos.pieces(player, ReinesKind::Worker);
        let mut steps = 0;
        while workers != 0 {
            let sq = workers.trailing_zeros() as i32;
            workers &= workers - 1;
            let forward = (sq >> 3) + (sq & 7);
            steps += if p == 0 { forward } else { 14 - forward };
        }
        score += steps * self.worker_advance;
        if self.mobility != 0 {
            score += pos.mobility(player) as i32 * self.mobility / 16;
        }
        score + self.threats(pos, player)
    }
}

impl Tunable for ReinesEval {
    /// The hand-set piece values of before the tuning (Counsellor 300, Soldier 200, Worker
    /// 100): the baseline players' fixed yardstick.
    fn baseline() -> Self {
        ReinesEval {
            values: [
                (ReinesKind::Counsellor, 300),
                (ReinesKind::Soldier, 200),
                (ReinesKind::Worker, 100),
            ],
            ..Self::default()
        }
    }

    /// One weight a piece kind, named by the kind (`counsellor`), then the other terms.
    fn weights(&self) -> Vec<Weight> {
        let mut out = kind_weights(&self.values);
        out.extend(term_weights(self, &OTHERS));
        out
    }

    fn set_weight(&mut self, index: usize, value: i32) {
        let kinds = self.values.len();
        if index < kinds {
            set_kind_weight(&mut self.values, index, value)
        } else {
            set_term(self, &OTHERS, index - kinds, value)
        }
    }
}

impl Default for ReinesEval {
    /// Tuned from self-play (docs/engine-measurements.md, "Tuning"): 2 000 games of the search
    /// against itself at 20 ms a move, every weight fitted at once by texel's local search, half
    /// result and half search score. They beat the weights before (tuned on 737 games at 5 000
    /// nodes, the threat terms set by hand) by 201-102-9 at 50 ms a move. The fit counts a Worker
    /// close to the enemy Ponte square, where it takes the Queen, far more than the hand had it.
    fn default() -> Self {
        ReinesEval {
            values: [
                (ReinesKind::Counsellor, 557),
                (ReinesKind::Soldier, 239),
                (ReinesKind::Worker, 103),
            ],
            worker_pending: 79,
            queen_attackers: 27,
            queen_guards: -9,
            counsellor_line: 50,
            ponte_blocked: -4,
            ponte_enemy: 90,
            worker_advance: -9,
            mobility: 61,
            tempo: 9,
            worker_race: [319, 116, 74, 43, 31, 21],
            soldier_reach: [72, 27],
            counsellor_reach: -9,
            threat_open: 74,
            queen_cover: 9,
        }
    }
}

/// Levels 1–7 of Jeu de Reines: above the beginner, the generic level 2's search with a share of
/// careless moves, then the generic levels 3, 4, 5 and 7 (a game without draws, where a
/// doubled node budget wins most games: the steps are wide).
const LEVELS: Levels = [
    BEGINNER,
    STRENGTHS[1].careless(450),
    STRENGTHS[1].careless(100),
    STRENGTHS[2],
    STRENGTHS[3],
    STRENGTHS[4],
    STRENGTHS[6],
];

impl Evaluator<ReinesPosition> for ReinesEval {
    /// Calibrated by matches, 40 games a pair (docs/engine-measurements.md, "Levels per game").
    fn levels(&self) -> &'static Levels {
        &LEVELS
    }

    /// Reverse futility, late-move and futility pruning: an attacked Queen is searched as a
    /// check (`in_danger`), so the quiet moves pruned near the leaves are the harmless ones.
    fn forward_pruning(&self) -> bool {
        true
    }

    fn material(&self, pos: &ReinesPosition, player: Player) -> i32 {
        material_of(&self.values, |kind| pos.count(player, kind))
    }

    fn evaluate(&self, pos: &ReinesPosition, player: Player) -> i32 {
        let score = self.side(pos, player) - self.side(pos, player ^ 1);
        if pos.to_move() == player {
            score + self.tempo
        } else {
            score - self.tempo
        }
    }

    /// Material only: the one-ply greedy baseline stays a material counter.
    fn greedy_value(&self, pos: &ReinesPosition, player: Player) -> i32 {
        self.material(pos, player) - self.material(pos, player ^ 1)
    }

    /// The Queen of the side to move is attacked: unless that is answered now (the attacker
    /// taken, the line blocked), the game is lost. The search extends such positions and
    /// does not stand pat in them, as for a check.
    fn in_danger(&self, pos: &ReinesPosition) -> bool {
        pos.queen_attacked(pos.to_move())
    }

    /// The Queen (whose capture wins) counts as the most valuable.
    fn piece_value(&self, kind: usize) -> i32 {
        let Some(&kind) = ReinesKind::ALL.get(kind) else {
            return 0;
        };
        self.values
            .iter()
            .find(|v| v.0 == kind)
            .map_or(10_000, |v| v.1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use myrmidon_rules::games::reines::Region;

    fn eval_of(text: &str, player: Player) -> i32 {
        let pos: ReinesPosition = text.parse().unwrap();
        ReinesEval::default().evaluate(&pos, player)
    }

    #[test]
    fn the_start_is_even_but_for_the_move() {
        let eval = ReinesEval::default();
        let pos = ReinesPosition::start(Region::Neutral);
        assert_eq!(eval.evaluate(&pos, 0), eval.tempo);
        assert_eq!(eval.evaluate(&pos, 1), -eval.tempo);
    }

    #[test]
    fn the_terms_point_the_right_way() {
        // A Myrmides Soldier next to the Termides Queen is worse for the Termides than one far
        // away (the same material and, here, the same mobility for the Soldier).
        let near = eval_of("7q/8/8/8/8/8/2s5/Q7 w - -/- 0 1", 0);
        let far = eval_of("7q/8/8/4s3/8/8/8/Q7 w - -/- 0 1", 0);
        assert!(near < far, "{near} {far}");
        // A pending Worker is worth something, and so is one on the board; one a step from the
        // enemy Ponte square (g7), where it takes the Queen, more than either.
        let pending = eval_of("7q/8/8/8/8/8/8/Q7 w - 1/- 0 1", 0);
        let none = eval_of("7q/8/8/8/8/8/8/Q7 w - -/- 0 1", 0);
        let board = eval_of("7q/8/8/8/8/8/3W4/Q7 w - -/- 0 1", 0);
        let racing = eval_of("7q/8/6W1/8/8/8/8/Q7 w - -/- 0 1", 0);
        assert!(
            none < pending && none < board && pending.max(board) < racing,
            "{none} {pending} {board} {racing}"
        );
    }

    #[test]
    fn threats_on_the_queen_count() {
        // A Myrmides Worker one step from b2, where it would take the Queen on a1, against one
        // far from it (neither can be taken, and the Queen's guard is the same).
        let near = eval_of("7q/8/8/8/8/1w6/8/Q7 w - -/- 0 1", 0);
        let far = eval_of("7q/8/8/6w1/8/8/8/Q7 w - -/- 0 1", 0);
        assert!(near < far, "{near} {far}");
        // A Myrmides Soldier one jump from c2 or b3 (d4), against three jumps (h5).
        let near = eval_of("7q/8/8/8/3s4/8/8/Q7 w - -/- 0 1", 0);
        let far = eval_of("7q/8/8/7s/8/8/8/Q7 w - -/- 0 1", 0);
        assert!(near < far, "{near} {far}");
        // The same Soldier's threat is worth less when a Termides Soldier guards c2 and b3.
        let guarded = eval_of("7q/8/8/8/3s4/8/8/Q2S4 w - -/- 0 1", 0);
        let unguarded = eval_of("7q/8/8/8/3s4/8/8/Q6S w - -/- 0 1", 0);
        assert!(unguarded < guarded, "{unguarded} {guarded}");
    }

    #[test]
    fn the_queen_attacked_is_danger_for_the_side_to_move() {
        let eval = ReinesEval::default();
        let attacked: ReinesPosition = "7q/8/8/8/8/1s6/8/Q7 w - -/- 0 1".parse().unwrap();
        assert!(eval.in_danger(&attacked));
        let safe: ReinesPosition = "7q/8/8/8/1s6/8/8/Q7 w - -/- 0 1".parse().unwrap();
        assert!(!eval.in_danger(&safe));
    }

    #[test]
    fn the_weights_are_named_and_set_in_order() {
        let mut eval = ReinesEval::default();
        let names: Vec<String> = eval.weights().into_iter().map(|w| w.name).collect();
        assert_eq!(names.len(), 3 + OTHERS.len());
        assert_eq!(names[3], "worker.pending");
        for i in 0..names.len() {
            eval.set_weight(i, 1000 + i as i32);
        }
        assert_eq!(eval.values[0].1, 1000);
        assert_eq!(names[11], "tempo");
        assert_eq!(eval.tempo, 1011);
        assert_eq!(eval.worker_race, [1012, 1013, 1014, 1015, 1016, 1017]);
        assert_eq!(eval.queen_cover, 1000 + names.len() as i32 - 1);
    }
}
