//! The greedy player: one ply. A move that wins at once; else the move after which the mover's
//! material balance is best (the biggest capture, a promotion; what counts is the evaluator's
//! `greedy_value`); ties broken at random, among the moves of a piece: `pass` only when it is
//! better than every other move or the only one.

use myrmidon_rules::rng::Rng;
use myrmidon_rules::{Position, Record};

use super::{wins_at_once, Options, Report, Searcher};
use crate::control::Control;
use crate::eval::{Evaluator, Tunable};
use crate::limits::Limits;
use crate::score::{Score, MATE};

pub struct Greedy<E> {
    eval: E,
    rng: Rng,
}

impl<E: Tunable> Greedy<E> {
    pub fn new(options: &Options) -> Self {
        Greedy {
            eval: E::baseline(),
            rng: Rng::new(options.seed),
        }
    }

    /// The same player with this evaluator (tuned weights) instead of the default one.
    pub fn with_eval(eval: E, options: &Options) -> Self {
        Greedy {
            eval,
            ..Self::new(options)
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
        let pass = root.pass_move().filter(|_| moves.len() > 1);
        for &mv in moves.iter() {
            let value = if wins_at_once(&mut pos, mv) {
                MATE - 1
            } else {
                let undo = pos.make_move(mv);
                // A pass ties with no move of a piece: it loses the tie.
                let v = 2 * self.eval.greedy_value(&pos, me) - i32::from(Some(mv) == pass);
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
            score: Score::from_value(
                if best_value >= MATE - 1 {
                    best_value
                } else {
                    best_value.div_euclid(2)
                },
                root.player_names().len(),
            ),
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
