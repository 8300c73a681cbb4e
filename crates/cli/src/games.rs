//! `myrmidon games`: the registered game ids, one a line.

use std::io::Write;

use clap::Args;
use myrmidon_rules::{registry, GameInfo};

use crate::common::CliResult;

#[derive(Args, Debug)]
pub struct GamesArgs {
    /// Also print, after each id and separated by tabs: the number of players, the board, the
    /// settings and the name.
    #[arg(long, short)]
    pub verbose: bool,
}

/// One line describing a game: id first, then tab-separated details.
pub fn describe(info: &GameInfo) -> String {
    let settings = if info.settings.is_empty() {
        "-".to_string()
    } else {
        info.settings
            .iter()
            .map(|s| format!("{}={}", s.name, s.values.join("|")))
            .collect::<Vec<_>>()
            .join(" ")
    };
    format!(
        "{}\t{} players\t{}\t{}\t{}",
        info.id,
        info.players.len(),
        info.geometry.describe(),
        settings,
        info.name
    )
}

pub fn run(args: &GamesArgs) -> CliResult {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for game in registry::games() {
        let info = game.info();
        if args.verbose {
            writeln!(out, "{}", describe(info))?;
        } else {
            writeln!(out, "{}", info.id)?;
        }
    }
    if registry::games().is_empty() {
        eprintln!("no game is registered");
    }
    out.flush()?;
    Ok(())
}
