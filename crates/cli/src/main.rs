//! `myrmidon`: list the games, their legal moves, perft counts and speed, play them at one
//! keyboard, and speak the UCI protocol as an engine. Every game comes from
//! `myrmidon_rules::registry`; nothing here knows a game by name.

mod analyse;
mod bench;
mod board;
mod common;
mod games;
mod loadtest;
mod matches;
mod moves;
mod perft;
mod play;
mod progress;
mod serve;
mod tactics;
#[cfg(test)]
mod testgame;
mod tune;
mod typed;
mod uci;

use std::io;
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

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
    /// The engine's evaluation and best line of a position at each depth.
    Analyse(analyse::AnalyseArgs),
    /// Play engines against each other (built-in players, external UCI engines), refereeing
    /// every move; print the score, Elo difference and SPRT verdict.
    Match(Box<matches::MatchArgs>),
    /// Speak the UCI protocol on standard input and output, for every game (docs/protocol.md).
    Engine(uci::EngineArgs),
    /// Fit the evaluator's weights to the results of finished games (texel's method); print
    /// the error before and after and the weights.
    Tune(tune::TuneArgs),
    /// Suites of positions with a forced win and a unique first move, proved by the solver:
    /// make one (--generate), prove one again (--check), or count what an engine solves.
    Tactics(tactics::TacticsArgs),
    /// The web app: play every game in the browser (against the computer or on one screen),
    /// with the JSON API of docs/api.md, on one port and one database.
    Serve(serve::ServeArgs),
    /// Load `myrmidon serve` on this machine with many online games at once (players on
    /// WebSockets) and measure the move round trip and the moves per second.
    Loadtest(loadtest::LoadtestArgs),
}

fn run(cli: Cli) -> common::CliResult {
    match cli.command {
        Command::Games(args) => games::run(&args),
        Command::Moves(args) => moves::run(&args),
        Command::Perft(args) => perft::run(&args),
        Command::Play(args) => play::run(&args),
        Command::Bench(args) => bench::run(&args),
        Command::Analyse(args) => analyse::run(&args),
        Command::Match(args) => matches::run(&args),
        Command::Engine(args) => uci::run(&args),
        Command::Tune(args) => tune::run(&args),
        Command::Tactics(args) => tactics::run(&args),
        Command::Serve(args) => serve::run(&args),
        Command::Loadtest(args) => loadtest::run(&args),
    }
}

/// The command line, with the help of `--region` written from the registry's setting info
/// (the games that have a region, and what it does in each).
fn command() -> clap::Command {
    let mut help = vec!["Shorthand for --set region=<REGION>. Not with --position.".to_string()];
    for game in myrmidon_rules::registry::games() {
        let info = game.info();
        for setting in info.settings.iter().filter(|s| s.name == "region") {
            help.push(format!(
                "{} ({}): {}; one of {} (default {}).",
                info.name,
                info.id,
                setting.help,
                setting.values.join(", "),
                setting.default
            ));
        }
    }
    let help = help.join("\n");
    let mut command = Cli::command();
    let names: Vec<String> = command
        .get_subcommands()
        .filter(|c| c.get_arguments().any(|a| a.get_id() == "region"))
        .map(|c| c.get_name().to_string())
        .collect();
    for name in names {
        let help = help.clone();
        command = command.mut_subcommand(name, |c| c.mut_arg("region", |a| a.help(help)));
    }
    command
}

fn main() -> ExitCode {
    let parsed = command()
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m).map(|cli| (cli, m)));
    let cli = match parsed {
        Ok((mut cli, m)) => {
            // `--engine` takes several words per occurrence, which clap's derive flattens.
            if let (Command::Match(args), Some(sub)) =
                (&mut cli.command, m.subcommand_matches("match"))
            {
                args.group_engines(sub);
            }
            cli
        }
        Err(e) => return usage_error(&e),
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        // Whoever read our output stopped reading (`| head`): not an error of ours.
        Err(CliError::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("myrmidon: error: {e}");
            ExitCode::from(e.exit_status())
        }
    }
}

/// Prints what clap found wrong with the command line in the program's own error style, or the
/// help and version text that clap reports the same way (on standard output, status 0).
fn usage_error(e: &clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            // Help and version text go to standard output; a closed pipe is not an error.
            let _ = e.print();
            ExitCode::SUCCESS
        }
        _ => {
            let args: Vec<String> = std::env::args().skip(1).collect();
            eprint!("{}", usage_message(e, &args));
            ExitCode::from(common::USAGE_STATUS)
        }
    }
}

/// The subcommand named on the command line (the first argument that is not an option), if it
/// is one of ours.
fn subcommand_in(args: &[String]) -> Option<String> {
    let first = args.iter().find(|a| !a.starts_with('-'))?;
    command()
        .get_subcommands()
        .find(|c| c.get_name() == first)
        .map(|c| c.get_name().to_string())
}

/// The text of a command line error: `myrmidon: error: …`, then a hint where one helps, the
/// usage of the command concerned and where to read more.
fn usage_message(e: &clap::Error, args: &[String]) -> String {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    // A context value as text; several values (suggestions) are joined with "or".
    let string = |kind| match e.get(kind) {
        Some(ContextValue::String(s)) => Some(s.clone()),
        Some(ContextValue::Strings(s)) if !s.is_empty() => Some(s.join("' or '")),
        _ => None,
    };
    let mut command = command();
    command.build();
    let sub = subcommand_in(args);
    let mut hints = Vec::new();
    let message = match e.kind() {
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            hints.push(format!("the commands: {}", subcommand_names(&command)));
            "a command is needed".to_string()
        }
        ErrorKind::UnknownArgument => {
            let arg = string(ContextKind::InvalidArg).unwrap_or_default();
            let name = arg.split('=').next().unwrap_or(&arg).to_string();
            let owners = owners_of(&command, &name);
            if sub.is_none() && !owners.is_empty() {
                hints.push(format!(
                    "{name} is an option of {}: put it after the command",
                    owners.join(", ")
                ));
            } else if let Some(s) = string(ContextKind::SuggestedArg).filter(|_| sub.is_some()) {
                hints.push(format!("did you mean '{s}'?"));
            }
            if arg.starts_with('-') {
                format!("unknown option '{arg}'")
            } else {
                format!("unexpected argument '{arg}'")
            }
        }
        ErrorKind::InvalidSubcommand => {
            let name = string(ContextKind::InvalidSubcommand).unwrap_or_default();
            match string(ContextKind::SuggestedSubcommand) {
                Some(s) => hints.push(format!("did you mean '{s}'?")),
                None => hints.push(format!("the commands: {}", subcommand_names(&command))),
            }
            format!("unknown command '{name}'")
        }
        // Anything else: clap's own first paragraph, without its "error: " and its tips.
        _ => {
            let text = e.render().to_string();
            let first = text.split("\n\n").next().unwrap_or("").trim_end();
            first.strip_prefix("error: ").unwrap_or(first).to_string()
        }
    };
    let (usage, help) = match sub
        .as_deref()
        .and_then(|name| command.find_subcommand_mut(name))
    {
        Some(s) => (
            s.render_usage().to_string(),
            format!("myrmidon {} --help", s.get_name()),
        ),
        None => (
            command.render_usage().to_string(),
            "myrmidon --help".to_string(),
        ),
    };
    let mut out = format!("myrmidon: error: {message}\n");
    for hint in hints {
        out.push_str(&format!("  {hint}\n"));
    }
    out.push_str(usage.trim_end());
    out.push_str(&format!("\n'{help}' says more.\n"));
    out
}

/// The names of the subcommands, comma-separated.
fn subcommand_names(command: &clap::Command) -> String {
    command
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The subcommands that take the option `name` (`--verbose` -> `myrmidon games`).
fn owners_of(command: &clap::Command, name: &str) -> Vec<String> {
    command
        .get_subcommands()
        .filter(|c| {
            c.get_arguments().any(|a| {
                a.get_long().is_some_and(|l| format!("--{l}") == name)
                    || a.get_short().is_some_and(|s| format!("-{s}") == name)
            })
        })
        .map(|c| format!("'myrmidon {}'", c.get_name()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}
