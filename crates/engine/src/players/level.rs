//! Levels 1–8 (`level:N`, UCI `Skill Level`): the strong search ([`Pvs`]) made weaker.
//!
//! Level 8 is the search itself, unchanged (`search`). Below it, in the spirit of Stockfish's
//! Skill Level, each level
//!
//! * may play a share of its moves carelessly, at random (level 1 only: nine in ten), though it
//!   still plays a move that wins at once: a beginner's blunders;
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
//! The parameters per level are in [`STRENGTHS`]; `docs/engine.md` has the matches that
//! calibrated them.

use std::cell::RefCell;

use myrmidon_rules::rng::Rng;
use myrmidon_rules::{Position, Record};

use super::{strong_searcher, wins_at_once, Algorithm, Options, Report, Searcher};
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

/// Levels 1 to 7 (level 8 is the search unchanged): the node budget grows while the lines and
/// the noise shrink. The budget is shared by the lines, so that a level with many lines still
/// sees a few plies deep (depth is what converts a won game).
pub const STRENGTHS: [Strength; 7] = [
    // 1: nine moves in ten at random (a win at once is still played), the tenth by one ply
    // and quiescence, any of the 12 best moves within about ten pawns of the best. Without the
    // random moves level 1 beat `greedy` in every game (85–100 %): too strong for a beginner.
    row(900, 1, 20_000, 12, 1000),
    row(0, 64, 3_000, 6, 250),
    row(0, 64, 6_000, 4, 120),
    row(0, 64, 12_000, 4, 70),
    row(0, 64, 20_000, 3, 40),
    row(0, 64, 30_000, 2, 30),
    row(0, 64, 60_000, 2, 8),
];

const fn row(careless: u32, depth: u32, nodes: u64, lines: u32, noise: i32) -> Strength {
    Strength {
        careless,
        depth,
        nodes,
        lines,
        noise,
    }
}

/// The parameters of `level` below the top one (`None` for level 8: the search unchanged).
pub fn strength(level: u8) -> Option<Strength> {
    (MIN_LEVEL..MAX_LEVEL)
        .contains(&level)
        .then(|| STRENGTHS[(level - MIN_LEVEL) as usize])
}

/// The search at one level.
pub struct Level<P: Position, E> {
    level: u8,
    inner: Box<dyn Searcher<P>>,
    _eval: std::marker::PhantomData<E>,
    options: Options,
    rng: Rng,
}

impl<P: Position, E: Evaluator<P>> Level<P, E> {
    /// The search at `level` (clamped to 1–8).
    pub fn new(level: u8, options: &Options) -> Self {
        Level::with_eval(level, E::default(), options)
    }

    /// The same with this evaluator (tuned weights).
    pub fn with_eval(level: u8, eval: E, options: &Options) -> Self {
        Level::with_algorithm(level, Algorithm::Paranoid, eval, options)
    }

    /// The search by this algorithm at `level` (the weaker levels need its `MultiPV` lines:
    /// with an algorithm that gives one line, a level plays that line).
    pub fn with_algorithm(level: u8, algorithm: Algorithm, eval: E, options: &Options) -> Self {
        let level = level.clamp(MIN_LEVEL, MAX_LEVEL);
        let inner_options = Level::<P, E>::inner_options(level, options);
        Level {
            level,
            inner: strong_searcher(algorithm, None, eval, &inner_options),
            _eval: std::marker::PhantomData,
            options: options.clone(),
            rng: Rng::new(options.seed),
        }
    }

    pub fn level(&self) -> u8 {
        self.level
    }

    /// The options of the inner search: the level's lines and one thread below level 8.
    fn inner_options(level: u8, options: &Options) -> Options {
        match strength(level) {
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
    /// move at random.
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
        report(&Report {
            depth: 1,
            seldepth: 1,
            multipv: 1,
            score: if wins.is_some() {
                Score::Mate(1)
            } else {
                Score::Cp(0)
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
        let Some(s) = strength(self.level) else {
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
        let mut choice: Option<(i64, &str)> = None;
        for (_, score, text) in &lines {
            let bonus = self.rng.below(s.noise.max(0) as usize + 1) as i64;
            let sum = value_of(*score) as i64 + bonus;
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
            .configure(&Level::<P, E>::inner_options(self.level, options));
        self.options = options.clone();
        self.rng = Rng::new(options.seed);
    }
}
