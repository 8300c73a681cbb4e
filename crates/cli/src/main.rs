//! `myrmidon`: list the games, their legal moves, perft counts and speed, and play them at one
//! keyboard. Every game comes from `myrmidon_rules::registry`; nothing here knows a game by name.

mod bench;
mod board;
mod common;
mod games;
mod moves;
mod perft;
mod play;
#[cfg(test)]
mod testgame;

use std::io;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::common::CliError;

/// Strategy games: Ackenhead chess, Ant Chess (2 or 3 players), Epaminondas, Jeu de Reines.
#[derive(Parser, Debug)]
#[command(name = "myrmidon", version, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// List the game ids, one a line.
    Games(games::GamesArgs),
    /// Print the legal moves of a position, one a line, in the game's move text.
    Moves(moves::MovesArgs),
    /// Count the leaves of the legal-move tree to a depth (last line: "nodes <N>").
    Perft(perft::PerftArgs),
    /// Play a game in the terminal, two or three people at one keyboard.
    Play(play::PlayArgs),
    /// Measure perft and move generation speed of every game (or the ones named).
    Bench(bench::BenchArgs),
}

fn run(cli: Cli) -> common::CliResult {
    match cli.command {
        Command::Games(args) => games::run(&args),
        Command::Moves(args) => moves::run(&args),
        Command::Perft(args) => perft::run(&args),
        Command::Play(args) => play::run(&args),
        Command::Bench(args) => bench::run(&args),
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        // Whoever read our output stopped reading (`| head`): not an error of ours.
        Err(CliError::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("myrmidon: error: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}
