//! The greedy player: one ply. A move that wins at once; else the move after which the mover's
//! material balance is best (the biggest capture, a promotion); ties broken at random.

use myrmidon_rules::rng::Rng;
use myrmidon_rules::{Position, Record};

use super::{Options, Report, Searcher};
use crate::control::Control;
use crate::eval::Evaluator;
use crate::limits::Limits;
use crate::score::{Score, MATE};

pub struct Greedy<E> {
    eval: E,
    rng: Rng,
}

impl<E: Default> Greedy<E> {
    pub fn new(options: &Options) -> Self {
        Greedy {
            eval: E::default(),
            rng: Rng::new(options.seed),
        }
    }
}

impl<P: Position, E: Evaluator<P>> Searcher<P> for Greedy<E> {
    fn search(
        &mut self,
        record: &Record<P>,
        _limits: &Limits,
        control: &Control,
        report: &mut dyn FnMut(&Report),
    ) -> Option<P::Move> {
        let root = record.position();
        let me = root.to_move();
        let moves = root.moves();
        let mut pos = root.clone();
        let mut best_value = i32::MIN;
        let mut best: Vec<P::Move> = Vec::new();
        for &mv in moves.iter() {
            let value = if root.tactics(mv).wins {
                MATE - 1
            } else {
                let undo = pos.make_move(mv);
                let v = self.eval.evaluate(&pos, me);
                pos.unmake_move(mv, undo);
                v
            };
            if value > best_value {
                best_value = value;
                best.clear();
            }
            if value == best_value {
                best.push(mv);
            }
        }
        let choice = *best.get(self.rng.below(best.len().max(1)))?;
        report(&Report {
            depth: 1,
            seldepth: 1,
            multipv: 1,
            score: Score::from_value(best_value, root.player_names().len()),
            nodes: moves.len() as u64,
            time: control.elapsed(),
            hashfull: None,
            pv: vec![root.move_text(choice)],
        });
        Some(choice)
    }

    fn configure(&mut self, options: &Options) {
        self.rng = Rng::new(options.seed);
    }
}
