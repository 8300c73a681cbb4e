//! The random player: every legal move alike.

use myrmidon_rules::rng::Rng;
use myrmidon_rules::{Position, Record};

use super::{Options, Report, Searcher};
use crate::control::Control;
use crate::limits::Limits;

pub struct RandomPlayer {
    rng: Rng,
}

impl RandomPlayer {
    pub fn new(options: &Options) -> Self {
        RandomPlayer {
            rng: Rng::new(options.seed),
        }
    }
}

impl<P: Position> Searcher<P> for RandomPlayer {
    fn search(
        &mut self,
        record: &Record<P>,
        _limits: &Limits,
        _control: &Control,
        _report: &mut dyn FnMut(&Report),
    ) -> Option<P::Move> {
        let moves = record.position().moves();
        (!moves.is_empty()).then(|| moves[self.rng.below(moves.len())])
    }

    fn configure(&mut self, options: &Options) {
        self.rng = Rng::new(options.seed);
    }
}
