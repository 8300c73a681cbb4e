//! `myrmidon analyse`: the engine's evaluation and principal variation of a position at each
//! depth, as a table a person reads in a terminal.

use std::io::Write;
use std::time::Duration;

use clap::Args;
use myrmidon_engine::{new_searcher, Control, Limits, Options, PlayerSpec, Report, Score};

use crate::common::{CliError, CliResult, GameArgs};

/// The player that analyses when `--player` is not given: the strong search (which reports
/// several lines with --multipv).
const DEFAULT_PLAYER: &str = "search";

#[derive(Args, Debug)]
pub struct AnalyseArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Moves to play from the position before analysing, in the game's move text, separated
    /// by spaces (as one argument: --moves "a2c4 b7d5").
    #[arg(long, value_name = "MOVES", allow_hyphen_values = true)]
    pub moves: Option<String>,
    /// Search this many plies deep (default: think for --movetime).
    #[arg(long, value_name = "N", conflicts_with = "movetime",
          value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: Option<u32>,
    /// Think this many milliseconds (default 2000 when --depth is not given).
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    pub movetime: Option<u64>,
    /// Show the best N lines at each depth.
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=256))]
    pub multipv: u32,
    /// The engine's player spec (`search`, `alphabeta:depth=N`, `greedy`, …; default
    /// `search`).
    #[arg(long, value_name = "SPEC")]
    pub player: Option<String>,
}

/// A score for people: pawns from the mover's view (`+0.35`), or a mate (`#3`, `#-2`).
fn show_score(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("{:+.2}", cp as f64 / 100.0),
        Score::Mate(n) => format!("#{n}"),
    }
}

fn show_report(r: &Report, multipv: u32) -> String {
    let line = if multipv > 1 {
        format!("{:>3}.", r.multipv)
    } else {
        String::new()
    };
    format!(
        "{:>5}/{:<3} {line}{:>8} {:>12} {:>8.2}s  {}",
        r.depth,
        r.seldepth,
        show_score(r.score),
        r.nodes,
        r.time.as_secs_f64(),
        r.pv.join(" ")
    )
}

pub fn run(args: &AnalyseArgs) -> CliResult {
    let mut record = args.game.open()?;
    for (i, text) in args
        .moves
        .as_deref()
        .unwrap_or("")
        .split_whitespace()
        .enumerate()
    {
        myrmidon_rules::pgn::play_token(&mut *record, text).map_err(|e| {
            let shown: String = text.chars().take(40).collect();
            let more = if shown.len() < text.len() { "…" } else { "" };
            CliError::msg(format!("--moves: move {} `{shown}{more}`: {e}", i + 1))
        })?;
    }
    let spec: PlayerSpec = args
        .player
        .as_deref()
        .unwrap_or(DEFAULT_PLAYER)
        .parse()
        .map_err(|e| CliError::msg(format!("--player: {e}")))?;
    let options = Options {
        multipv: args.multipv,
        ..Options::default()
    };
    let mut player = new_searcher(record.info().id, &spec, &options)
        .map_err(|e| CliError::msg(e.to_string()))?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let names = record.player_names();
    writeln!(out, "{}", record.position_string())?;
    if let Some(result) = record.result() {
        writeln!(
            out,
            "the game is over: {}",
            result.describe(names, record.info().players_number)
        )?;
        return Ok(());
    }
    let to_move = names[record.to_move() as usize];
    let moves = record.legal_moves().len();
    writeln!(
        out,
        "{to_move} to move, {moves} legal move{}; {spec}, {}",
        if moves == 1 { "" } else { "s" },
        match args.depth {
            Some(d) => format!("depth {d}"),
            None => format!("{} ms", args.movetime.unwrap_or(2000)),
        }
    )?;
    writeln!(
        out,
        "depth/sel {}   score        nodes     time  line",
        if args.multipv > 1 { "    " } else { "" }
    )?;
    let limits = match args.depth {
        Some(d) => Limits::depth(d),
        None => Limits::movetime(Duration::from_millis(args.movetime.unwrap_or(2000))),
    };
    let control = Control::new(&limits, record.to_move());
    let mut failed = None;
    let best = player
        .search(&*record, &limits, &control, &mut |r| {
            if failed.is_none() {
                if let Err(e) = writeln!(out, "{}", show_report(r, args.multipv)) {
                    failed = Some(e);
                }
            }
        })
        .map_err(|e| CliError::msg(e.to_string()))?;
    if let Some(e) = failed {
        return Err(e.into());
    }
    match best {
        Some(mv) => writeln!(out, "best move: {mv}")?,
        None => writeln!(out, "no move")?,
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_read_as_pawns_or_mates() {
        assert_eq!(show_score(Score::Cp(35)), "+0.35");
        assert_eq!(show_score(Score::Cp(-120)), "-1.20");
        assert_eq!(show_score(Score::Cp(0)), "+0.00");
        assert_eq!(show_score(Score::Mate(3)), "#3");
        assert_eq!(show_score(Score::Mate(-2)), "#-2");
    }
}
