//! `myrmidon perft`: leaf count of the legal-move tree to a depth; the last line of standard
//! output is `nodes <N>`, with `--divide` preceded by one `<move> <count>` line per legal move.
//! The speed goes to standard error.

use std::io::Write;
use std::time::Instant;

use clap::Args;

use crate::common::{CliResult, GameArgs};
use crate::progress;
use crate::typed;

/// The deepest perft accepted: anything deeper would not finish anyway.
pub const MAX_DEPTH: u32 = 64;

/// Reads a depth: a whole number from 0 to [`MAX_DEPTH`].
pub fn parse_depth(text: &str) -> Result<u32, String> {
    let bad = || format!("depth must be a whole number from 0 to {MAX_DEPTH}, not {text:?}");
    let digits = text.trim();
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    match digits.parse::<u32>() {
        Ok(d) if d <= MAX_DEPTH => Ok(d),
        _ => Err(bad()),
    }
}

#[derive(Args, Debug)]
pub struct PerftArgs {
    #[command(flatten)]
    pub game: GameArgs,

    /// How many plies deep to count (0 to 64).
    #[arg(value_parser = parse_depth, allow_negative_numbers = true)]
    pub depth: u32,

    /// Before the total, print each legal move (sorted by text) and the leaves below it.
    #[arg(long)]
    pub divide: bool,
}

pub fn run(args: &PerftArgs) -> CliResult {
    let record = args.game.open()?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let start = Instant::now();
    // On a terminal, count move by move from the root to show the progress (hidden elsewhere).
    let bar = progress::bar(0, "root moves");
    bar.set_prefix(format!("perft {} {}: ", record.info().id, args.depth));
    let split = args.depth > 0 && (args.divide || !bar.is_hidden());
    let nodes = if split {
        bar.set_length(typed::count_moves(record.as_ref())?);
        let mut lines = typed::divide(record.as_ref(), args.depth, &|text| {
            bar.set_message(text.to_string());
            bar.inc(1);
        })?;
        bar.finish_and_clear();
        if args.divide {
            lines.sort();
            for (text, count) in &lines {
                writeln!(out, "{text} {count}")?;
            }
        }
        lines.iter().map(|(_, n)| n).sum()
    } else {
        typed::perft(record.as_ref(), args.depth)?
    };
    let seconds = start.elapsed().as_secs_f64();
    writeln!(out, "nodes {nodes}")?;
    out.flush()?;
    let rate = if seconds > 0.0 {
        nodes as f64 / seconds
    } else {
        0.0
    };
    eprintln!(
        "{} perft({}) = {nodes} in {seconds:.3} s, {} nodes/s",
        record.info().id,
        args.depth,
        human(rate)
    );
    Ok(())
}

/// 12.3M, 456.7k, 89.
pub fn human(rate: f64) -> String {
    if rate >= 1e9 {
        format!("{:.2}G", rate / 1e9)
    } else if rate >= 1e6 {
        format!("{:.1}M", rate / 1e6)
    } else if rate >= 1e3 {
        format!("{:.1}k", rate / 1e3)
    } else {
        format!("{rate:.0}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depths() {
        assert_eq!(parse_depth("0"), Ok(0));
        assert_eq!(parse_depth("7"), Ok(7));
        assert_eq!(parse_depth("64"), Ok(64));
        for bad in ["", "-1", "65", "abc", "3.5", "+3", "99999999999999999999"] {
            let err = parse_depth(bad).unwrap_err();
            assert!(err.contains("depth"), "{bad}: {err}");
        }
    }

    #[test]
    fn human_rates() {
        assert_eq!(human(12.0), "12");
        assert_eq!(human(12_345.0), "12.3k");
        assert_eq!(human(12_345_678.0), "12.3M");
        assert_eq!(human(2_500_000_000.0), "2.50G");
    }
}
