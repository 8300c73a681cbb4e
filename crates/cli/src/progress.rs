//! Progress of long runs (`perft`, `bench`) on standard error, drawn only when standard error is a
//! terminal: never in a pipe, a file or a test. The bar says how to stop (Ctrl-C) and is cleared
//! when the run ends, so that what is left on the screen is the output alone.

use std::io::{self, IsTerminal};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressFinish, ProgressStyle};

/// A bar of `len` steps with `unit` after its count (`12/20 root moves`), on standard error if it
/// is a terminal, else hidden (its methods then do nothing). Its prefix and message say what is
/// being done.
pub fn bar(len: u64, unit: &str) -> ProgressBar {
    bar_on(io::stderr().is_terminal(), len, unit)
}

/// [`bar`], drawn only if `terminal`.
fn bar_on(terminal: bool, len: u64, unit: &str) -> ProgressBar {
    if !terminal {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_bar_outside_a_terminal() {
        let hidden = bar_on(false, 10, "steps");
        assert!(hidden.is_hidden());
        hidden.inc(3);
        assert_eq!(hidden.position(), 3, "a hidden bar still counts");
    }
}
