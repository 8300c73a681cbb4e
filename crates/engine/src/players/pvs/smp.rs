//! Lazy SMP, the strong search's threads: helper threads search the same root at the same time
//! as the main thread, sharing the transposition table (lock-free), each with its own killers
//! and history and the odd ones one ply deeper, so that they fill the table with what the main
//! thread needs next. The main thread alone reports and chooses the move; when it stops, the
//! helpers stop.

use std::sync::atomic::Ordering;

use myrmidon_rules::{Position, Record};

use super::{proven, Pvs, MAX_DEPTH};
use crate::control::Control;
use crate::eval::Evaluator;
use crate::players::alphabeta::history_hashes;
use crate::players::Options;

/// Stops a control when dropped.
struct StopOnDrop<'a>(&'a Control);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.stop();
    }
}

impl<P: Position, E: Evaluator<P>> Pvs<P, E> {
    /// Runs `main` (the main thread's search of `root`) with `threads - 1` helpers searching
    /// beside it until it returns (none with one thread); its result.
    pub(super) fn with_helpers<R>(
        &mut self,
        record: &Record<P>,
        root: &P,
        threads: usize,
        main: impl FnOnce(&mut Self) -> R,
    ) -> R {
        self.helper_nodes.store(0, Ordering::Relaxed);
        if threads == 1 {
            return main(self);
        }
        // The helpers search until the main thread is done.
        let mut helpers = std::mem::take(&mut self.helpers);
        helpers.truncate(threads - 1);
        while helpers.len() < threads - 1 {
            let options = Options {
                multipv: 1,
                threads: 1,
                ..self.options.clone()
            };
            helpers.push(Pvs::build(
                None,
                self.policy,
                self.eval.clone(),
                &options,
                self.tt.clone(),
                helpers.len() + 1,
                self.helper_nodes.clone(),
            ));
        }
        let helper_control = Control::unlimited();
        let result = std::thread::scope(|scope| {
            // Stops the helpers however the main thread ends (even by a panic).
            let _stop = StopOnDrop(&helper_control);
            for helper in helpers.iter_mut() {
                let control = helper_control.clone();
                scope.spawn(move || helper.help(record, root, &control));
            }
            main(self)
        });
        self.helpers = helpers;
        result
    }

    /// A helper of Lazy SMP: iterative deepening of `root` (the odd helpers one ply deeper)
    /// until `control` stops it, filling the shared table; it reports nothing.
    fn help(&mut self, record: &Record<P>, root: &P, control: &Control) {
        self.prepare(root);
        self.node_limit = u64::MAX;
        let mut pos = root.clone();
        let mut previous = None;
        for depth in 1..=MAX_DEPTH {
            let depth = (depth + (self.id as u32 & 1)).min(MAX_DEPTH);
            self.path = history_hashes(record);
            self.seldepth = 0;
            let value = self.root_search(&mut pos, depth, previous, control, |_| {});
            if self.aborted {
                return;
            }
            previous = Some(value);
            if proven(value, depth) {
                return;
            }
        }
    }
}
