//! The search policy of one game: which of the strong search's ([`Pvs`](super::Pvs)) forward
//! pruning it uses and where its quiescence stops. These are parameters of the search, not of
//! the evaluation (as Stockfish keeps its search parameters apart from its evaluation): each
//! game sets them where it is wired to the engine ([`EngineGame::POLICY`]), from matches and
//! node counts, and the search receives them when it is built.
//!
//! [`EngineGame::POLICY`]: crate::games::EngineGame::POLICY

use crate::eval::Tunable;

/// The margin of delta pruning where a game does not choose its own.
pub const DELTA_MARGIN: i32 = 200;

/// How the strong search prunes and how deep its quiescence goes in one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchPolicy {
    /// Reverse futility, futility and late-move pruning near the leaves. These trust the
    /// static evaluation to see what a quiet move threatens; kept only for the games where a
    /// match says they gain (Ackenhead, Epaminondas, Jeu de Reines; not Ant Chess, whose quiet
    /// moves toward the anthill win in two).
    pub forward_pruning: bool,
    /// Delta pruning in quiescence: a capture whose gain (its victims' values) plus this margin
    /// leaves the score below alpha is skipped.
    pub delta_margin: DeltaMargin,
    /// The most plies of captures quiescence searches below a leaf of the main search, after
    /// which it stands pat (`usize::MAX`: unbounded). A game whose captures chain without end
    /// (Epaminondas: every group that captures can capture again, and so can the opponent's)
    /// bounds it.
    pub quiescence_plies: usize,
    /// What quiescence does with the transposition table.
    pub quiescence_table: QuiescenceTable,
    /// A capture history in the move ordering (`Orderer::new`): captures ordered by their
    /// victims and how often they cut off before, the ones that failed often after the killers.
    /// On only where a match says it gains.
    pub capture_history: bool,
}

impl SearchPolicy {
    /// The policy of a game that sets none (Ant Chess): no forward pruning, no delta pruning,
    /// unbounded quiescence that reads the table.
    pub const DEFAULT: SearchPolicy = SearchPolicy {
        forward_pruning: false,
        delta_margin: DeltaMargin::Off,
        quiescence_plies: usize::MAX,
        quiescence_table: QuiescenceTable::Read,
        capture_history: false,
    };

    /// The default with the forward pruning on, and delta pruning by [`DELTA_MARGIN`].
    pub const PRUNING: SearchPolicy = SearchPolicy {
        forward_pruning: true,
        delta_margin: DeltaMargin::Centipawns(DELTA_MARGIN),
        ..SearchPolicy::DEFAULT
    };
}

impl Default for SearchPolicy {
    fn default() -> Self {
        SearchPolicy::DEFAULT
    }
}

/// The margin of delta pruning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeltaMargin {
    /// No delta pruning.
    Off,
    /// This many centipawns.
    Centipawns(i32),
    /// This many times the evaluator's weight of this name (a margin of two stones in
    /// Epaminondas), so that the margin follows the weights a file sets.
    Weights { name: &'static str, times: i32 },
}

impl DeltaMargin {
    /// The margin with this evaluator's weights (`None`: no delta pruning).
    ///
    /// # Panics
    ///
    /// If the evaluator has no weight of the name a [`DeltaMargin::Weights`] gives (a test
    /// of `games` checks every game's policy against its evaluator).
    pub fn resolve<E: Tunable>(self, eval: &E) -> Option<i32> {
        match self {
            DeltaMargin::Off => None,
            DeltaMargin::Centipawns(margin) => Some(margin),
            DeltaMargin::Weights { name, times } => {
                let weight = eval.weights().into_iter().find(|w| w.name == name);
                let weight = weight.unwrap_or_else(|| {
                    panic!("the delta margin names the weight `{name}`, which the evaluator lacks")
                });
                Some(times * weight.value)
            }
        }
    }
}

/// What quiescence does with the transposition table ([`SearchPolicy::quiescence_table`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QuiescenceTable {
    /// Neither reads nor stores: where its probes seldom find an entry, each costs a cache miss
    /// for nothing (Jeu de Reines: 14 % of the time to a given depth).
    Skip,
    /// Reads entries of the main search, stores nothing: an entry of the main search can
    /// settle a quiescence node.
    Read,
    /// Reads, and stores its results at depth 0, below every entry of the main search: for
    /// games whose capture sequences reach the same positions in many orders (Epaminondas).
    ReadWrite,
}
