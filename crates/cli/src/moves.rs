//! `myrmidon moves`: the legal moves of a position, canonical text, one a line, nothing else on
//! standard output.

use std::io::Write;

use clap::Args;

use crate::common::{CliResult, GameArgs};

#[derive(Args, Debug)]
pub struct MovesArgs {
    #[command(flatten)]
    pub game: GameArgs,
}

pub fn run(args: &MovesArgs) -> CliResult {
    let record = args.game.open()?;
    let moves = record.legal_moves();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for mv in &moves {
        writeln!(out, "{}", mv.text)?;
    }
    out.flush()?;
    if let Some(outcome) = record.outcome() {
        eprintln!(
            "the game is over: {}",
            outcome.describe(record.info().players, record.info().players_number)
        );
    }
    Ok(())
}
