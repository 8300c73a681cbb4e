//! Levels 1–8 (`level:N`, UCI `Skill Level`): the strong search ([`Pvs`]) made weaker.
//!
//! Level 8 is the search itself, unchanged (`search`). Below it, in the spirit of Stockfish's
//! Skill Level, each level
//!
//! * may play a share of its moves carelessly, at random (level 1: nine in ten, the next levels
//!   of most games fewer), though it still plays a move that wins at once: a beginner's
//!   blunders;
//! * searches less: at most a depth and a node count that shrink with the level (so that a weak
//!   level answers at once whatever the clock, and plays the same with a fixed seed however
//!   loaded the machine is);
//! * searches several best lines (`MultiPV`, with the search's own exclusion of the root moves
//!   already found): the more, the weaker the level (level 1 looks at every move);
//! * and then plays not always the best line: each line's score gets a random bonus, uniform
//!   from 0 to the level's *noise* (in centipawns, a pawn or its game's equivalent being 100), and
//!   the line with the highest sum is played. A line worse than the best by more than the noise
//!   is never played; wins found by the search (mate scores) still dwarf every noise, and forced
//!   losses are avoided while anything else is left.
//!
//! The careless moves and the random bonuses come from a generator seeded by [`Options::seed`]
//! (again at each `configure` and new game): with a fixed seed and one thread, a level plays the
//! same moves.
//!
//! Each game has its own table of [`Levels`] (`EngineGame::LEVELS`, given to [`Level::new`];
//! [`STRENGTHS`] for a game that has not calibrated one), so that the eight levels span that game's range in steps of
//! about the same size: in one game a careless move costs more than in another, and a doubled
//! node budget gains more. `docs/engine-measurements.md` has the matches that calibrated them.

use std::cell::RefCell;

use myrmidon_rules::rng::Rng;
use myrmidon_rules::{Position, Record};

use super::{strong_searcher, wins_at_once, Algorithm, Options, Report, SearchPolicy, Searcher};
use crate::control::Control;
use crate::eval::Evaluator;
use crate::limits::Limits;
use crate::score::{Score, MATE};

/// The lowest level.
pub const MIN_LEVEL: u8 = 1;
/// The highest level: full strength.
pub const MAX_LEVEL: u8 = 8;

/// How a level below the top one is made weaker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strength {
    /// Of every thousand moves, how many are played carelessly: without a search, a legal move
    /// at random (but a move that wins at once is seen and played).
    pub careless: u32,
    /// The deepest iteration.
    pub depth: u32,
    /// The most nodes a move may search (the limits of a `go` may cut it further).
    pub nodes: u64,
    /// How many best lines are searched and chosen among (`u32::MAX`: every move).
    pub lines: u32,
    /// The largest random bonus a line's score gets before the best sum is played.
    pub noise: i32,
}

/// The parameters of levels 1 to 7 of one game (level 8 is the search unchanged).
pub type Levels = [Strength; 7];

/// Level 1 of every game: nine moves in ten at random (a win at once is still played), the
/// tenth by one ply and quiescence, any of the 12 best moves within about ten pawns of the
/// best. Without the random moves level 1 beat `greedy` in every game (85–100 %): too strong
/// for a beginner.
pub const BEGINNER: Strength = Strength::new(900, 1, 20_000, 12, 1000);

/// The levels of a game without a table of its own: the node budget grows while the lines and
/// the noise shrink. The budget is shared by the lines, so that a level with many lines still
/// sees a few plies deep (depth is what converts a won game).
pub const STRENGTHS: Levels = [
    BEGINNER,
    Strength::searching(3_000, 6, 250),
    Strength::searching(6_000, 4, 120),
    Strength::searching(12_000, 4, 70),
    Strength::searching(20_000, 3, 40),
    Strength::searching(30_000, 2, 30),
    Strength::searching(60_000, 2, 8),
];

impl Strength {
    pub const fn new(careless: u32, depth: u32, nodes: u64, lines: u32, noise: i32) -> Strength {
        Strength {
            careless,
            depth,
            nodes,
            lines,
            noise,
        }
    }

    /// A level that searches every move: at most `nodes`, with no limit of depth.
    pub const fn searching(nodes: u64, lines: u32, noise: i32) -> Strength {
        Strength::new(0, 64, nodes, lines, noise)
    }

    /// The same search with `careless` moves in a thousand played at random.
    pub const fn careless(self, careless: u32) -> Strength {
        Strength { careless, ..self }
    }
}

/// The parameters of `level` in this table (`None` for level 8, the search unchanged, and for a
/// number outside 1–8).
pub fn strength(levels: &Levels, level: u8) -> Option<Strength> {
    (MIN_LEVEL..MAX_LEVEL)
        .contains(&level)
        .then(|| levels[(level - MIN_LEVEL) as usize])
}

/// The search at one level.
pub struct Level<P: Position, E> {
    level: u8,
    inner: Box<dyn Searcher<P>>,
    /// The evaluation, for the score a careless move reports.
    eval: E,
    options: Options,
    rng: Rng,
    /// This level's parameters (`None` at level 8).
    strength: Option<Strength>,
}

impl<P: Position, E: Evaluator<P>> Level<P, E> {
    /// The search at `level` (clamped to 1–8) of the game whose table of levels and search
    /// policy these are (`EngineGame::LEVELS`, `EngineGame::POLICY`).
    pub fn new(level: u8, levels: &Levels, policy: SearchPolicy, options: &Options) -> Self {
        Level::with_algorithm(
            level,
            Algorithm::Paranoid,
            levels,
            policy,
            E::default(),
            options,
        )
    }

    /// The search by this algorithm at `level`, with this evaluator (tuned weights) (the
    /// weaker levels need its `MultiPV` lines: with an algorithm that gives one line, a level
    /// plays that line).
    pub fn with_algorithm(
        level: u8,
        algorithm: Algorithm,
        levels: &Levels,
        policy: SearchPolicy,
        eval: E,
        options: &Options,
    ) -> Self {
        let level = level.clamp(MIN_LEVEL, MAX_LEVEL);
        let strength = strength(levels, level);
        let inner_options = Level::<P, E>::inner_options(strength, options);
        Level {
            level,
            strength,
            inner: strong_searcher(algorithm, None, policy, eval.clone(), &inner_options),
            eval,
            options: options.clone(),
            rng: Rng::new(options.seed),
        }
    }

    pub fn level(&self) -> u8 {
        self.level
    }

    /// The options of the inner search: the level's lines and one thread below level 8.
    fn inner_options(strength: Option<Strength>, options: &Options) -> Options {
        match strength {
            None => options.clone(),
            Some(s) => Options {
                multipv: s.lines,
                threads: 1,
                ..options.clone()
            },
        }
    }
}

impl<P: Position, E: Evaluator<P>> Level<P, E> {
    /// A move chosen without a search: one that wins at once if there is one, else any legal
    /// move at random. Its reported score is the evaluation of the position after it, for the
    /// player who made it (no search: a piece it leaves hanging is not seen).
    fn careless(
        &mut self,
        record: &Record<P>,
        control: &Control,
        report: &mut dyn FnMut(&Report),
    ) -> Option<P::Move> {
        let root = record.position();
        let moves = root.moves();
        let mut pos = root.clone();
        let wins = moves.iter().copied().find(|&m| wins_at_once(&mut pos, m));
        let mv = wins.or_else(|| moves.get(self.rng.below(moves.len().max(1))).copied())?;
        let me = root.to_move();
        let undo = pos.make_move(mv);
        let value = self.eval.evaluate(&pos, me);
        pos.unmake_move(mv, undo);
        report(&Report {
            depth: 1,
            seldepth: 1,
            multipv: 1,
            score: if wins.is_some() {
                Score::Mate(1)
            } else {
                Score::Cp(value)
            },
            nodes: moves.len() as u64,
            time: control.elapsed(),
            hashfull: None,
            pv: vec![root.move_text(mv)],
        });
        Some(mv)
    }
}

/// A protocol score as a number to compare: mates beyond every centipawn score.
fn value_of(score: Score) -> i32 {
    match score {
        Score::Cp(v) => v,
        Score::Mate(n) if n > 0 => MATE - n,
        Score::Mate(n) => -MATE - n,
    }
}

impl<P: Position, E: Evaluator<P>> Searcher<P> for Level<P, E> {
    fn search(
        &mut self,
        record: &Record<P>,
        limits: &Limits,
        control: &Control,
        report: &mut dyn FnMut(&Report),
    ) -> Option<P::Move> {
        let Some(s) = self.strength else {
            return self.inner.search(record, limits, control, report);
        };
        // The roll comes first at every move, so the generator advances alike either way.
        if self.rng.below(1000) < s.careless as usize {
            return self.careless(record, control, report);
        }
        let limits = Limits {
            depth: Some(limits.depth.map_or(s.depth, |d| d.min(s.depth))),
            nodes: Some(limits.nodes.map_or(s.nodes, |n| n.min(s.nodes))),
            ..limits.clone()
        };
        // The lines of the last depth completed: (depth, score, first move's text).
        let lines: RefCell<Vec<(u32, Score, String)>> = RefCell::new(Vec::new());
        let shown = self.options.multipv.max(1);
        let mut collect = |r: &Report| {
            let mut lines = lines.borrow_mut();
            if lines.first().is_some_and(|l| l.0 != r.depth) {
                lines.clear();
            }
            if let Some(first) = r.pv.first() {
                lines.push((r.depth, r.score, first.clone()));
            }
            if r.multipv <= shown {
                report(r);
            }
        };
        let mut best = self.inner.search(record, &limits, control, &mut collect)?;
        if lines.borrow().is_empty() && !control.stopped() {
            // The node budget ran out before the first depth was done (many moves and many
            // lines): that depth in full, so that the choice is among lines searched alike.
            let one = Limits {
                depth: Some(1),
                nodes: None,
                ..limits.clone()
            };
            best = self.inner.search(record, &one, control, &mut collect)?;
        }
        let lines = lines.into_inner();
        if lines.len() < 2 {
            return Some(best);
        }
        // Every line draws its bonus (in the order of the lines), so the generator advances
        // the same way whichever wins.
        // A forced win takes no noise: mates a few moves apart differ by a few points, less
        // than the noise, and a beginner who sees a win at once plays it, not a longer one.
        let mut choice: Option<(i64, &str)> = None;
        for (_, score, text) in &lines {
            let bonus = self.rng.below(s.noise.max(0) as usize + 1) as i64;
            let won = matches!(score, Score::Mate(n) if *n > 0);
            let sum = value_of(*score) as i64 + if won { 0 } else { bonus };
            if choice.is_none_or(|(best, _)| sum > best) {
                choice = Some((sum, text));
            }
        }
        let text = choice.map(|(_, t)| t)?;
        let root = record.position();
        let chosen = root
            .moves()
            .iter()
            .copied()
            .find(|&m| root.move_text(m) == text);
        Some(chosen.unwrap_or(best))
    }

    fn new_game(&mut self) {
        self.inner.new_game();
        self.rng = Rng::new(self.options.seed);
    }

    fn configure(&mut self, options: &Options) {
        self.inner
            .configure(&Level::<P, E>::inner_options(self.strength, options));
        self.options = options.clone();
        self.rng = Rng::new(options.seed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::EngineGame;
    use myrmidon_rules::games::reines::Reines;
    use myrmidon_rules::{Game, Settings};

    /// A careless move reports the evaluation after it for its player, not a made-up 0.
    #[test]
    fn a_careless_move_reports_the_evaluation_after_it() {
        type E = <Reines as EngineGame>::Eval;
        let options = Options::default();
        let mut level = Level::<_, E>::new(1, Reines::LEVELS, Reines::POLICY, &options);
        level.strength = Some(BEGINNER.careless(1000));
        let mut record = Record::new(Reines.start(&Settings::new()).unwrap());
        let mut nonzero = 0;
        for _ in 0..40 {
            if record.outcome().is_some() {
                break;
            }
            let mut reports = Vec::new();
            let limits = Limits::default();
            let mv = level
                .search(&record, &limits, &Control::unlimited(), &mut |r| {
                    reports.push(r.clone())
                })
                .unwrap();
            let mut after = record.position().clone();
            let me = after.to_move();
            let undo = after.make_move(mv);
            let expected = match after.outcome().and_then(|o| o.winner()) {
                Some(w) if w == me => Score::Mate(1),
                _ => Score::Cp(E::default().evaluate(&after, me)),
            };
            after.unmake_move(mv, undo);
            assert_eq!(reports.len(), 1);
            assert_eq!(reports[0].score, expected);
            assert_eq!(reports[0].pv, vec![after.move_text(mv)]);
            nonzero += usize::from(expected != Score::Cp(0));
            record.play(mv).unwrap();
        }
        assert!(nonzero >= 10, "{nonzero} moves scored other than 0");
    }
}
