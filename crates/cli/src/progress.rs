//! Progress of long runs (`perft`, `bench`) on standard error, drawn only when standard error is a
//! terminal: never in a pipe, a file or a test. The bar says how to stop (Ctrl-C) and is cleared
//! when the run ends, so that what is left on the screen is the output alone.

use std::io::{self, IsTerminal};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressFinish, ProgressStyle};
use myrmidon_rules::DynRecord;

/// A bar of `len` steps with `unit` after its count (`12/20 root moves`), on standard error if it
/// is a terminal, else hidden (its methods then do nothing). Its prefix and message say what is
/// being done.
pub fn bar(len: u64, unit: &str) -> ProgressBar {
    if !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let unit = if unit.is_empty() {
        String::new()
    } else {
        format!(" {unit}")
    };
    let template = format!(
        "{{spinner}} {{prefix}}{{msg}} [{{bar:16}}] {{pos}}/{{len}}{unit}, {{elapsed}} \
         (Ctrl-C to stop)"
    );
    let style = ProgressStyle::with_template(&template)
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> ");
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr())
        .with_style(style)
        .with_finish(ProgressFinish::AndClear);
    // Keep the spinner and the time moving while one step takes long.
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// Perft split by the moves of the position, played one by one through the dynamic layer (each
/// on a copy of the game), with `bar` advanced after each: the same counts as
/// `DynRecord::divide`, and their sum is `perft(depth)`. `None` at depth 0 or when the game is
/// over (a record refuses moves then, although perft may still count them).
pub fn divide_by_root(
    record: &dyn DynRecord,
    depth: u32,
    bar: &ProgressBar,
) -> Option<Vec<(String, u64)>> {
    if depth == 0 || record.outcome().is_some() {
        return None;
    }
    let moves = record.legal_moves();
    bar.set_length(moves.len() as u64);
    let mut lines = Vec::with_capacity(moves.len());
    for mv in moves {
        bar.set_message(mv.text.clone());
        let mut child = record.clone_box();
        child.play(&mv.text).ok()?;
        lines.push((mv.text, child.perft(depth - 1)));
        bar.inc(1);
    }
    Some(lines)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testgame;
    use myrmidon_rules::{DynGame, Outcome, Reason, Settings};

    #[test]
    fn dividing_by_root_moves_counts_what_perft_counts() {
        for game in [&testgame::SQUARE as &dyn DynGame, &testgame::HEX] {
            let record = game.new_game(&Settings::new()).unwrap();
            for depth in 1..=3 {
                let bar = ProgressBar::hidden();
                let mut lines = divide_by_root(record.as_ref(), depth, &bar).unwrap();
                let total: u64 = lines.iter().map(|(_, n)| n).sum();
                assert_eq!(total, record.perft(depth), "depth {depth}");
                let mut expected = record.divide(depth);
                lines.sort();
                expected.sort();
                assert_eq!(lines, expected, "depth {depth}");
                assert_eq!(bar.position(), lines.len() as u64);
            }
            assert!(divide_by_root(record.as_ref(), 0, &ProgressBar::hidden()).is_none());
        }
    }

    #[test]
    fn a_finished_game_is_left_to_plain_perft() {
        let game: &dyn DynGame = &testgame::SQUARE;
        let mut record = game.new_game(&Settings::new()).unwrap();
        record.declare(Outcome::Draw {
            reason: Reason::AGREEMENT,
        });
        assert!(divide_by_root(record.as_ref(), 2, &ProgressBar::hidden()).is_none());
    }

    #[test]
    fn no_bar_outside_a_terminal() {
        // Tests run with standard error captured or piped.
        if !io::stderr().is_terminal() {
            assert!(bar(10, "steps").is_hidden());
        }
    }
}
