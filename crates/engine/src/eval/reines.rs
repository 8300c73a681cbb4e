//! Jeu de Reines: material (pending Ponte Workers included), the immobile Queens (the enemies
//! near each, the friends beside her, Counsellors on her lines), the Ponte square (blocked or
//! taken by the enemy), the Workers' advance, mobility and the move.

use std::sync::LazyLock;

use myrmidon_rules::games::reines::{Reines, ReinesKind, ReinesPosition};
use myrmidon_rules::{PieceSets, Player, Position};

use super::terms::{named_weights, with_defaults, Coefficients, Sink, Sum};
use super::weights::kind_name;
use super::{Evaluator, Tunable, Weight};
use crate::games::EngineGame;
use crate::players::{Levels, QuiescenceTable, SearchPolicy, BEGINNER, STRENGTHS};

/// Squares within two steps (king moves) of each player's Queen: a1 for player 0, h8 for
/// player 1 (Queens never move). Bit `rank * 8 + file`.
const NEAR2: [u64; 2] = [0x07_07_07, 0xE0_E0_E0 << 40];
/// Squares next to each Queen.
const NEAR1: [u64; 2] = [0x03_03, 0xC0_C0 << 48];
/// The rank and the file of each Queen: where a Counsellor attacks her along a line.
const LINES: [u64; 2] = [0x0101_0101_0101_01FF, 0xFF80_8080_8080_8080];

/// The kinds with a value, in weights order (a Queen's capture ends the game, which the
/// search scores).
const VALUED: [ReinesKind; 3] = [
    ReinesKind::Counsellor,
    ReinesKind::Soldier,
    ReinesKind::Worker,
];

// The terms, in weights order; each counts for a player, less the same for the opponent.
/// `counsellor`, `soldier`, `worker`: the piece values in centipawns (a Worker is about 100).
const T_VALUE: usize = 0;
/// `worker.pending`: each Worker waiting to come back on the Ponte.
const T_WORKER_PENDING: usize = T_VALUE + VALUED.len();
/// `queen.attackers`: each enemy piece within two squares of the own Queen (a penalty when
/// positive).
const T_QUEEN_ATTACKERS: usize = T_WORKER_PENDING + 1;
/// `queen.guards`: each own piece next to the own Queen.
const T_QUEEN_GUARDS: usize = T_QUEEN_ATTACKERS + 1;
/// `counsellor.line`: each own Counsellor on the enemy Queen's rank or file.
const T_COUNSELLOR_LINE: usize = T_QUEEN_GUARDS + 1;
/// `ponte.blocked`: the own Ponte square occupied while a Worker waits to come back (a
/// penalty).
const T_PONTE_BLOCKED: usize = T_COUNSELLOR_LINE + 1;
/// `ponte.enemy`: an enemy piece on the own Ponte square, next to the Queen (a penalty).
const T_PONTE_ENEMY: usize = T_PONTE_BLOCKED + 1;
/// `worker.advance`: each step forward (rank and file) of a Worker.
const T_WORKER_ADVANCE: usize = T_PONTE_ENEMY + 1;
/// `mobility`: sixteenths of a centipawn a move.
const T_MOBILITY: usize = T_WORKER_ADVANCE + 1;
/// `tempo`: the player to move's bonus.
const T_TEMPO: usize = T_MOBILITY + 1;
/// `worker.race1` to `worker.race6`: each Worker 1 to 6 forward steps from the enemy Ponte
/// square, where a Worker takes the enemy Queen, by the number of steps.
const T_WORKER_RACE: usize = T_TEMPO + 1;
/// `soldier.reach1`, `soldier.reach2`: each Soldier 1 or 2 jumps from a square where it
/// attacks the enemy Queen, by jumps (one further away counts nothing: a term for every
/// Soldier would be its value).
const T_SOLDIER_REACH: usize = T_WORKER_RACE + 6;
/// `counsellor.reach`: each Counsellor one move from attacking the enemy Queen along a line.
const T_COUNSELLOR_REACH: usize = T_SOLDIER_REACH + 2;
/// `threat.open`: each square from which the enemy Queen would be attacked that an own piece
/// of the right kind can go to next and the enemy does not guard.
const T_THREAT_OPEN: usize = T_COUNSELLOR_REACH + 1;
/// `queen.cover`: each square from which the own Queen would be attacked by a Soldier or a
/// Worker that an own piece guards.
const T_QUEEN_COVER: usize = T_THREAT_OPEN + 1;
/// `queen.open`: each square on the own Queen's rank and file up to the first piece each way
/// (where an enemy Counsellor would attack her from), counted only while the enemy has a
/// Counsellor (a penalty when positive).
const T_QUEEN_OPEN: usize = T_QUEEN_COVER + 1;
/// `queen.zone`: each move of an enemy piece onto a square within two steps of the own Queen
/// (the attackers' pressure, not only their presence; a penalty when positive).
const T_QUEEN_ZONE: usize = T_QUEEN_OPEN + 1;
/// `ponte.attacked`: the own Ponte square attacked by the enemy (a Worker coming back there,
/// or a guard standing there, would be taken; a penalty when positive).
const T_PONTE_ATTACKED: usize = T_QUEEN_ZONE + 1;
/// `mobility.counsellor`, `mobility.soldier`: each move of an own Counsellor, of an own
/// Soldier (beside `mobility`, which counts every move alike).
const T_MOBILITY_KIND: usize = T_PONTE_ATTACKED + 1;
/// `hanging.mover`, `hanging.waiting`: each own piece (not the Queen) that the enemy attacks
/// and no own piece guards, for the side to move and for the side that has just moved (a
/// penalty when positive: the waiting side's is about to be taken).
const T_HANGING: usize = T_MOBILITY_KIND + 2;
/// `pst.<kind>.<square>`: each Counsellor, Soldier and Worker on a square, seen from its own
/// Queen's corner. The game is the same mirrored in the diagonal through both Queens (a Worker
/// goes north or east, takes north-east, north-west or south-east), so a square and its mirror
/// share a weight, named by the one on or above the diagonal (`a3` for a3 and c1): 36 a kind.
const T_PST: usize = T_HANGING + 2;
/// Squares a kind of the piece-square table: the board folded on the diagonal.
const PST_SQUARES: usize = 36;
const TERMS: usize = T_PST + VALUED.len() * PST_SQUARES;

/// The piece-square table's index of square `sq` (bit `rank * 8 + file`) for `player`: seen
/// from the player's Queen (a1 for player 0, h8 for player 1), folded on the diagonal.
fn pst_square(sq: u32, player: usize) -> usize {
    let own = if player == 0 { sq } else { 63 - sq } as usize;
    let (file, rank) = (own & 7, own >> 3);
    let (low, high) = (file.min(rank), file.max(rank));
    high * (high + 1) / 2 + low
}

/// The weights' names, in order.
fn term_names() -> Vec<String> {
    let mut names: Vec<String> = VALUED.iter().map(|&k| kind_name(k)).collect();
    for name in [
        "worker.pending",
        "queen.attackers",
        "queen.guards",
        "counsellor.line",
        "ponte.blocked",
        "ponte.enemy",
        "worker.advance",
        "mobility",
        "tempo",
    ] {
        names.push(name.to_string());
    }
    names.extend((1..=6).map(|n| format!("worker.race{n}")));
    names.extend((1..=2).map(|n| format!("soldier.reach{n}")));
    for name in [
        "counsellor.reach",
        "threat.open",
        "queen.cover",
        "queen.open",
        "queen.zone",
        "ponte.attacked",
        "mobility.counsellor",
        "mobility.soldier",
        "hanging.mover",
        "hanging.waiting",
    ] {
        names.push(name.to_string());
    }
    for &kind in &VALUED {
        for high in 0..8u8 {
            for low in 0..=high {
                names.push(format!(
                    "pst.{}.{}{}",
                    kind_name(kind),
                    (b'a' + low) as char,
                    high + 1
                ));
            }
        }
    }
    debug_assert_eq!(names.len(), TERMS);
    names
}

static NAMES: LazyLock<Vec<String>> = LazyLock::new(term_names);

/// The evaluation's weights, one a term.
#[derive(Clone, Debug)]
pub struct ReinesEval {
    w: [i32; TERMS],
}

/// The default weights (how they were tuned is in the file).
static DEFAULT: LazyLock<ReinesEval> = LazyLock::new(|| {
    with_defaults(
        ReinesEval { w: [0; TERMS] },
        include_str!("reines.weights"),
        "reines.weights",
    )
});

impl Default for ReinesEval {
    fn default() -> Self {
        DEFAULT.clone()
    }
}

/// The squares each player attacks (by player number), for the terms that ask whether a square
/// is attacked or guarded.
fn attacked_squares(pos: &ReinesPosition) -> [u64; 2] {
    [pos.attacked_squares(0), pos.attacked_squares(1)]
}

/// The piece values set by hand before any tuning, the baseline players' yardstick.
const HAND_SET_VALUES: [i32; 3] = [300, 200, 100];

impl ReinesEval {
    /// The threats of `player`'s pieces on the enemy Queen, and the guard of the own Queen.
    fn threats(
        &self,
        pos: &ReinesPosition,
        player: Player,
        attacked: &[u64; 2],
        sink: &mut impl Sink,
    ) {
        let them = player ^ 1;
        let (Some(queen), Some(ponte)) = (pos.queen_square(them), pos.ponte_square(them)) else {
            return;
        };
        let enemy_guards = |sq: u32| attacked[(them & 1) as usize] & 1 << sq != 0;
        let jumps = ReinesPosition::soldier_jumps(queen);
        let lines = pos.lines_to(queen);
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
                sink.add(T_WORKER_RACE + (df + dr - 1) as usize, 1);
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
                sink.add(T_SOLDIER_REACH, 1);
            } else {
                let mut second = 0;
                let mut via = first;
                while via != 0 {
                    second |= ReinesPosition::soldier_jumps(via.trailing_zeros());
                    via &= via - 1;
                }
                if second & jumps != 0 {
                    sink.add(T_SOLDIER_REACH + 1, 1);
                }
            }
        }
        let mut counsellors = pos.pieces(player, ReinesKind::Counsellor);
        while counsellors != 0 {
            let sq = counsellors.trailing_zeros();
            counsellors &= counsellors - 1;
            let next = pos.reach(sq) & lines;
            if lines & (1 << sq) == 0 && next != 0 {
                sink.add(T_COUNSELLOR_REACH, 1);
            }
            open |= next;
        }
        let mut unguarded = 0;
        while open != 0 {
            let sq = open.trailing_zeros();
            open &= open - 1;
            unguarded += i32::from(!enemy_guards(sq));
        }
        sink.add(T_THREAT_OPEN, unguarded);
        if let (Some(own_queen), Some(own_ponte)) =
            (pos.queen_square(player), pos.ponte_square(player))
        {
            let mut targets = ReinesPosition::soldier_jumps(own_queen) | 1 << own_ponte;
            let mut covered = 0;
            while targets != 0 {
                let sq = targets.trailing_zeros();
                targets &= targets - 1;
                covered += i32::from(attacked[(player & 1) as usize] & 1 << sq != 0);
            }
            sink.add(T_QUEEN_COVER, covered);
        }
    }

    /// Everything of `player`'s (material included) before the opponent's part is taken off;
    /// `attacked`: the squares each player attacks.
    fn side(
        &self,
        pos: &ReinesPosition,
        player: Player,
        attacked: &[u64; 2],
        sink: &mut impl Sink,
    ) {
        let p = (player & 1) as usize;
        let them = p ^ 1;
        let queens = pos.pieces(0, ReinesKind::Queen) | pos.pieces(1, ReinesKind::Queen);
        let own = pos.pieces_of(player) & !queens;
        let enemy = pos.pieces_of(player ^ 1) & !queens;
        for (i, &kind) in VALUED.iter().enumerate() {
            sink.add(T_VALUE + i, pos.count(player, kind) as i32);
            let mut pieces = pos.pieces(player, kind);
            while pieces != 0 {
                let sq = pieces.trailing_zeros();
                pieces &= pieces - 1;
                sink.add(T_PST + i * PST_SQUARES + pst_square(sq, p), 1);
            }
        }
        let pending = pos.pending_count(player);
        sink.add(T_WORKER_PENDING, pending as i32);
        sink.add(T_QUEEN_ATTACKERS, -((enemy & NEAR2[p]).count_ones() as i32));
        sink.add(T_QUEEN_GUARDS, (own & NEAR1[p]).count_ones() as i32);
        let counsellors = pos.pieces(player, ReinesKind::Counsellor);
        sink.add(
            T_COUNSELLOR_LINE,
            (counsellors & LINES[them]).count_ones() as i32,
        );
        if let Some(ponte) = pos.ponte_square(player) {
            let square = 1u64 << ponte;
            if pending > 0 && pos.occupied() & square != 0 {
                sink.add(T_PONTE_BLOCKED, -1);
            }
            if enemy & square != 0 {
                sink.add(T_PONTE_ENEMY, -1);
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
        sink.add(T_WORKER_ADVANCE, steps);
        if sink.wants(T_MOBILITY) {
            sink.add_sixteenths(T_MOBILITY, pos.mobility(player) as i32);
        }
        self.threats(pos, player, attacked, sink);
        self.safety(pos, player, attacked, sink);
    }

    /// The own Queen's open lines and the enemy's moves near her, the own Ponte square
    /// attacked, the Counsellors' and Soldiers' moves, and the own pieces left hanging.
    fn safety(
        &self,
        pos: &ReinesPosition,
        player: Player,
        attacked: &[u64; 2],
        sink: &mut impl Sink,
    ) {
        let p = (player & 1) as usize;
        let (ours, theirs) = (attacked[p], attacked[p ^ 1]);
        let them = player ^ 1;
        let queen = pos.queen_square(player);
        if let Some(queen) = queen.filter(|_| sink.wants(T_QUEEN_OPEN)) {
            if pos.pieces(them, ReinesKind::Counsellor) != 0 {
                sink.add(T_QUEEN_OPEN, -(pos.lines_to(queen).count_ones() as i32));
            }
        }
        let queens = pos.pieces(0, ReinesKind::Queen) | pos.pieces(1, ReinesKind::Queen);
        let mut zone = 0;
        let mut enemy = if sink.wants(T_QUEEN_ZONE) {
            pos.pieces_of(them) & !queens
        } else {
            0
        };
        while enemy != 0 {
            let sq = enemy.trailing_zeros();
            enemy &= enemy - 1;
            zone += (pos.reach(sq) & NEAR2[p]).count_ones() as i32;
        }
        sink.add(T_QUEEN_ZONE, -zone);
        let ponte = pos.ponte_square(player);
        if let Some(ponte) = ponte.filter(|_| sink.wants(T_PONTE_ATTACKED)) {
            if theirs & 1 << ponte != 0 {
                sink.add(T_PONTE_ATTACKED, -1);
            }
        }
        for (i, kind) in [ReinesKind::Counsellor, ReinesKind::Soldier]
            .into_iter()
            .enumerate()
        {
            if !sink.wants(T_MOBILITY_KIND + i) {
                continue;
            }
            let mut moves = 0;
            let mut pieces = pos.pieces(player, kind);
            while pieces != 0 {
                let sq = pieces.trailing_zeros();
                pieces &= pieces - 1;
                moves += pos.reach(sq).count_ones() as i32;
            }
            sink.add(T_MOBILITY_KIND + i, moves);
        }
        let waiting = usize::from(pos.to_move() != player);
        if !sink.wants(T_HANGING + waiting) {
            return;
        }
        let mut hanging = 0;
        let mut own = pos.pieces_of(player) & !queens;
        while own != 0 {
            let sq = own.trailing_zeros();
            own &= own - 1;
            if theirs & 1 << sq != 0 && ours & 1 << sq == 0 {
                hanging += 1;
            }
        }
        sink.add(T_HANGING + waiting, -hanging);
    }
}

impl Tunable for ReinesEval {
    /// The hand-set piece values of before the tuning (Counsellor 300, Soldier 200, Worker
    /// 100) with the other weights the defaults: the baseline players' fixed yardstick.
    fn baseline() -> Self {
        let mut eval = Self::default();
        eval.w[T_VALUE..T_VALUE + VALUED.len()].copy_from_slice(&HAND_SET_VALUES);
        eval
    }

    /// One weight a piece kind, named by the kind (`counsellor`), then the other terms.
    fn weights(&self) -> Vec<Weight> {
        named_weights(&NAMES, &self.w)
    }

    fn set_weight(&mut self, index: usize, value: i32) {
        if let Some(w) = self.w.get_mut(index) {
            *w = value;
        }
    }
}

impl Evaluator<ReinesPosition> for ReinesEval {
    fn material(&self, pos: &ReinesPosition, player: Player) -> i32 {
        VALUED
            .iter()
            .enumerate()
            .map(|(i, &kind)| pos.count(player, kind) as i32 * self.w[T_VALUE + i])
            .sum()
    }

    fn evaluate(&self, pos: &ReinesPosition, player: Player) -> i32 {
        let (mut own, mut other) = (Sum::new(&self.w), Sum::new(&self.w));
        let attacked = attacked_squares(pos);
        self.side(pos, player, &attacked, &mut own);
        self.side(pos, player ^ 1, &attacked, &mut other);
        let tempo = self.w[T_TEMPO];
        let score = own.total - other.total;
        if pos.to_move() == player {
            score + tempo
        } else {
            score - tempo
        }
    }

    /// Exact but for the mobility's sixteenths, rounded toward zero on each side (within two
    /// centipawns).
    fn linear_terms(&self, pos: &ReinesPosition, player: Player, out: &mut Vec<(u32, f32)>) {
        let mut counts = Coefficients::new(TERMS);
        let attacked = attacked_squares(pos);
        self.side(pos, player, &attacked, &mut counts);
        counts.sign = -1.0;
        self.side(pos, player ^ 1, &attacked, &mut counts);
        counts.sign = 1.0;
        counts.add(T_TEMPO, if pos.to_move() == player { 1 } else { -1 });
        counts.write(out);
    }

    /// Material only: the one-ply greedy baseline stays a material counter.
    fn greedy_value(&self, pos: &ReinesPosition, player: Player) -> i32 {
        self.material(pos, player) - self.material(pos, player ^ 1)
    }

    /// A move that attacks the enemy Queen (directly or by uncovering a Counsellor's line):
    /// pruned as a quiet move, it hid the threats that decide the game.
    fn threatens(&self, pos: &ReinesPosition, mv: <ReinesPosition as Position>::Move) -> bool {
        let them = pos.to_move() ^ 1;
        let Some(queen) = pos.queen_square(them) else {
            return false;
        };
        // Only a piece landing on the Queen's lines, a jump or a step from her, or one leaving
        // her lines, can attack her: most moves are ruled out without playing them.
        let near = LINES[(them & 1) as usize]
            | ReinesPosition::soldier_jumps(queen)
            | NEAR1[(them & 1) as usize];
        if near & (1 << mv.from() | 1 << mv.to()) == 0 {
            return false;
        }
        let mut next = pos.clone();
        next.make_move(mv);
        self.in_danger(&next)
    }

    /// The Queen of the side to move is attacked: unless that is answered now (the attacker
    /// taken, the line blocked), the game is lost. The search extends such positions and
    /// does not stand pat in them, as for a check.
    fn in_danger(&self, pos: &ReinesPosition) -> bool {
        pos.queen_attacked(pos.to_move())
    }

    /// The enemy Queen attacked by the player to move: taking her wins.
    fn wins_at_once(&self, pos: &ReinesPosition) -> bool {
        pos.queen_attacked(pos.to_move() ^ 1)
    }

    /// With her Queen attacked, a player can only take the attacker or block a Counsellor's line
    /// to her (a square on her rank or file): any other move lets the Queen be taken.
    fn may_answer_danger(
        &self,
        pos: &ReinesPosition,
        mv: <ReinesPosition as Position>::Move,
    ) -> bool {
        let Some(queen) = pos.queen_square(pos.to_move()) else {
            return true;
        };
        let lines: u64 = 0xFF << (queen & !7) | 0x0101_0101_0101_0101 << (queen & 7);
        pos.quick_tactics(mv).captures > 0 || lines & 1 << mv.to() != 0
    }

    /// The Queen (whose capture wins) counts as the most valuable.
    fn piece_value(&self, kind: usize) -> i32 {
        match ReinesKind::ALL.get(kind) {
            None => 0,
            Some(kind) => VALUED
                .iter()
                .position(|k| k == kind)
                .map_or(10_000, |i| self.w[T_VALUE + i]),
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

impl EngineGame for Reines {
    type Eval = ReinesEval;
    /// Forward pruning: an attacked Queen is searched as a check (`in_danger`), so the quiet
    /// moves pruned near the leaves are the harmless ones. Quiescence leaves the table alone:
    /// its probes seldom found an entry of the main search, and each cost a cache miss;
    /// without them a depth is reached in 14 % less time, with 7.5 % more nodes.
    const POLICY: SearchPolicy = SearchPolicy {
        quiescence_table: QuiescenceTable::Skip,
        ..SearchPolicy::PRUNING
    };
    /// Calibrated by matches, 40 games a pair (docs/engine-measurements.md, "Levels per game").
    const LEVELS: &'static Levels = &LEVELS;
    const BENCH_POSITIONS: &'static str = include_str!("reines.bench");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::terms::check_linear_terms;
    use crate::players::ordering::Orderer;
    use myrmidon_rules::games::reines::Region;

    fn eval_of(text: &str, player: Player) -> i32 {
        let pos: ReinesPosition = text.parse().unwrap();
        ReinesEval::default().evaluate(&pos, player)
    }

    #[test]
    fn the_start_is_even_but_for_the_move() {
        let eval = ReinesEval::default();
        let pos = ReinesPosition::start(Region::Neutral);
        assert_eq!(eval.evaluate(&pos, 0), eval.w[T_TEMPO]);
        assert_eq!(eval.evaluate(&pos, 1), -eval.w[T_TEMPO]);
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

    /// The coefficient of term `term` for `player` (own count less the opponent's).
    fn coefficient(text: &str, player: Player, term: usize) -> f32 {
        let pos: ReinesPosition = text.parse().unwrap();
        let mut out = Vec::new();
        ReinesEval::default().linear_terms(&pos, player, &mut out);
        out.iter()
            .find(|&&(i, _)| i as usize == term)
            .map_or(0.0, |&(_, c)| c)
    }

    #[test]
    fn the_queens_safety_is_counted() {
        // The Termides Queen on a1 with a Myrmides Counsellor: her rank (7 squares) and file
        // (up to the Counsellor on a8, 7) are open; a Worker on a2 shuts the file. The Myrmides
        // Queen's lines count nothing, the Termides having no Counsellor.
        assert_eq!(
            coefficient("c6q/8/8/8/8/8/8/Q7 w - -/- 0 1", 0, T_QUEEN_OPEN),
            -14.0
        );
        assert_eq!(
            coefficient("c6q/8/8/8/8/8/W7/Q7 w - -/- 0 1", 0, T_QUEEN_OPEN),
            -8.0
        );
        // A Myrmides Soldier on d4 jumps to b3 and c2, within two steps of a1; on d3 to b2 and
        // c1, and b2 is the Ponte square.
        let d4 = "7q/8/8/8/3s4/8/8/Q7 w - -/- 0 1";
        assert_eq!(coefficient(d4, 0, T_QUEEN_ZONE), -2.0);
        assert_eq!(coefficient(d4, 0, T_PONTE_ATTACKED), 0.0);
        let d3 = "7q/8/8/8/8/3s4/8/Q7 w - -/- 0 1";
        assert_eq!(coefficient(d3, 0, T_QUEEN_ZONE), -2.0);
        assert_eq!(coefficient(d3, 0, T_PONTE_ATTACKED), -1.0);
        assert_eq!(coefficient(d3, 1, T_PONTE_ATTACKED), 1.0);
    }

    #[test]
    fn moves_and_hanging_pieces_are_counted() {
        // A Termides Soldier on c3 attacked by the Myrmides Counsellor on c6, and no Termides
        // piece guards it: hanging for the side to move; with the Myrmides to move, for the side
        // that has just moved. A Counsellor on h1 guards it along the rank.
        let hanging = "7q/8/2c5/8/8/2S5/8/Q7 w - -/- 0 1";
        assert_eq!(coefficient(hanging, 0, T_HANGING), -1.0);
        assert_eq!(coefficient(hanging, 0, T_HANGING + 1), 0.0);
        let waiting = "7q/8/2c5/8/8/2S5/8/Q7 b - -/- 0 1";
        assert_eq!(coefficient(waiting, 0, T_HANGING + 1), -1.0);
        let guarded = "7q/8/2c5/8/8/2S4C/8/Q7 w - -/- 0 1";
        assert_eq!(coefficient(guarded, 0, T_HANGING), 0.0);
        // The Soldier's eight jumps, less the Counsellor's twelve: c7 and c8, c5 to c3 (taking
        // the Soldier), a6 and b6, d6 to h6.
        assert_eq!(coefficient(hanging, 0, T_MOBILITY_KIND + 1), 8.0);
        assert_eq!(coefficient(hanging, 0, T_MOBILITY_KIND), -12.0);
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
    fn the_piece_square_table_folds_the_board_on_the_queens_diagonal() {
        let transpose = |sq: u32| (sq & 7) * 8 + (sq >> 3);
        let mut seen = [false; PST_SQUARES];
        for sq in 0..64 {
            let i = pst_square(sq, 0);
            assert!(i < PST_SQUARES);
            seen[i] = true;
            // the mirror in the a1–h8 diagonal, and the same square seen by the other player
            assert_eq!(pst_square(transpose(sq), 0), i, "square {sq}");
            assert_eq!(pst_square(63 - sq, 1), i, "square {sq}");
        }
        assert!(seen.iter().all(|&s| s), "every entry is some square's");
        // named by the square on or above the diagonal: a3 for a3 and c1, b2 for the Ponte
        let names = term_names();
        assert_eq!(names[T_PST + pst_square(16, 0)], "pst.counsellor.a3");
        assert_eq!(names[T_PST + pst_square(2, 0)], "pst.counsellor.a3");
        assert_eq!(
            names[T_PST + PST_SQUARES + pst_square(9, 0)],
            "pst.soldier.b2"
        );
        assert_eq!(
            names[T_PST + 2 * PST_SQUARES + pst_square(54, 0)],
            "pst.worker.g7"
        );
        // a Termides Worker on g7 and a Myrmides Worker on b2 stand on the same entry
        assert_eq!(pst_square(54, 0), pst_square(9, 1));
    }

    #[test]
    fn the_weights_are_named_and_set_in_order() {
        let mut eval = ReinesEval::default();
        let names: Vec<String> = eval.weights().into_iter().map(|w| w.name).collect();
        assert_eq!(names.len(), TERMS);
        assert_eq!(names[3], "worker.pending");
        for i in 0..names.len() {
            eval.set_weight(i, 1000 + i as i32);
        }
        assert_eq!(eval.w[T_VALUE], 1000);
        assert_eq!(names[11], "tempo");
        assert_eq!(eval.w[T_TEMPO], 1011);
        assert_eq!(
            eval.w[T_WORKER_RACE..T_WORKER_RACE + 6],
            [1012, 1013, 1014, 1015, 1016, 1017]
        );
        assert_eq!(names[T_QUEEN_OPEN], "queen.open");
        assert_eq!(eval.w[T_HANGING + 1], 1000 + T_HANGING as i32 + 1);
        assert_eq!(names[T_PST], "pst.counsellor.a1");
        assert_eq!(names[TERMS - 1], "pst.worker.h8");
        assert_eq!(eval.w[TERMS - 1], 1000 + names.len() as i32 - 1);
    }

    #[test]
    fn linear_terms_reproduce_the_evaluation() {
        // Two roundings: the mobility's sixteenths of each side.
        for region in [Region::Neutral, Region::Cultist] {
            check_linear_terms::<_, ReinesEval>(&ReinesPosition::start(region), 2.01);
        }
    }

    #[test]
    fn a_move_attacking_the_queen_is_a_threat() {
        let eval = ReinesEval::default();
        let threat = |text: &str, mv: &str| {
            let pos: ReinesPosition = text.parse().unwrap();
            eval.threatens(&pos, pos.parse_move(mv).unwrap())
        };
        // A Soldier jumping to g6, from where it takes the Queen on h8; one jumping elsewhere.
        assert!(threat("7q/8/8/4S3/8/8/8/Q7 w - -/- 0 1", "e5-g6"));
        assert!(!threat("7q/8/8/4S3/8/8/8/Q7 w - -/- 0 1", "e5-d3"));
        // A Soldier leaving the h-file uncovers the Counsellor on h1 (a move off every line and
        // jump of the Queen, found all the same).
        assert!(threat("7q/8/8/8/7S/8/8/Q6C w - -/- 0 1", "h4-f3"));
        assert!(!threat("7q/8/8/8/7S/8/8/Q5C1 w - -/- 0 1", "h4-f3"));
    }

    /// With a capture history, a capture that keeps failing where a quiet move cuts off falls
    /// behind the killers (but stays before the quiet moves), and one that cuts off stays
    /// first among the captures; without one, captures go by their victims alone.
    #[test]
    fn a_capture_that_keeps_failing_is_ordered_after_the_killers() {
        let eval = ReinesEval::default();
        // The Counsellor on c4 may take the Soldier on c6 or the Worker on f4.
        let pos: ReinesPosition = "7q/8/2s5/8/2C2w2/8/8/Q7 w - -/- 0 1".parse().unwrap();
        let mut moves = <ReinesPosition as Position>::MoveList::default();
        pos.generate(&mut moves);
        let text = |m| pos.move_text(m);
        let find = |t: &str| *moves.iter().find(|&&m| text(m) == t).unwrap();
        let (soldier, worker, quiet) = (find("c4xc6"), find("c4xf4"), find("c4-c5"));
        assert!(pos.quick_tactics(soldier).is_tactical());
        assert!(!pos.quick_tactics(quiet).is_tactical());

        let plain = Orderer::<ReinesPosition>::default();
        let mut learning = Orderer::<ReinesPosition>::new(true);
        for _ in 0..20 {
            // The quiet move cuts off after the Soldier's capture failed; the Worker's cuts off.
            learning.reward_quiet(&pos, quiet, 8, 3, []);
            learning.reward_captures(&pos, quiet, false, 20, [&soldier]);
            learning.reward_captures(&pos, worker, true, 8, []);
        }
        let score = |o: &Orderer<ReinesPosition>, m| o.score(&eval, &pos, m, None, 3);
        let other_quiet = find("c4-d4");
        let order = |o: &Orderer<ReinesPosition>| {
            let mut moves = [soldier, worker, quiet, other_quiet];
            moves.sort_by_key(|&m| std::cmp::Reverse(score(o, m)));
            moves.map(text)
        };
        // Without history: the Soldier (the bigger victim) first, both captures before the
        // killer.
        assert_eq!(order(&plain), ["c4xc6", "c4xf4", "c4-c5", "c4-d4"]);
        // With it: the Worker's capture first, then the killer, then the Soldier's capture,
        // then the other quiet moves.
        assert_eq!(order(&learning), ["c4xf4", "c4-c5", "c4xc6", "c4-d4"]);
        // A new game forgets it.
        learning.clear();
        assert_eq!(order(&learning), ["c4xc6", "c4xf4", "c4-c5", "c4-d4"]);
    }
}
