//! What the subcommands share: the game arguments (`<game>`, `--position`, `--set`, `--region`),
//! opening a game from them, and the error type that `main` turns into a message and an exit code.

use std::io;

use clap::Args;
use myrmidon_rules::{
    registry, DynGame, DynRecord, PositionError, SettingError, Settings, UnknownGame,
};

/// The exit status of a command line that asks for something that cannot be done: a bad
/// argument, an unknown game, a bad position string, setting or depth.
pub const USAGE_STATUS: u8 = 2;

/// The exit status of a failure while running (the output or the input failed).
pub const RUNTIME_STATUS: u8 = 1;

/// Why a command failed. `Io` errors on a closed standard output (`myrmidon moves … | head`)
/// end the program quietly; every other error is printed on standard error.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// What the command line asked for is wrong (exit status [`USAGE_STATUS`]).
    #[error("{0}")]
    Usage(String),
    /// Reading or writing failed (exit status [`RUNTIME_STATUS`]).
    #[error("cannot write the output: {0}")]
    Io(#[from] io::Error),
    /// A service failed while running: a port taken, a database that cannot be opened (exit
    /// status [`RUNTIME_STATUS`]).
    #[error("{0}")]
    Runtime(String),
}

impl CliError {
    /// A usage error with this message.
    pub fn msg(text: impl Into<String>) -> Self {
        CliError::Usage(text.into())
    }

    pub fn exit_status(&self) -> u8 {
        match self {
            CliError::Usage(_) => USAGE_STATUS,
            CliError::Io(_) | CliError::Runtime(_) => RUNTIME_STATUS,
        }
    }
}

impl From<UnknownGame> for CliError {
    fn from(e: UnknownGame) -> Self {
        if e.known.is_empty() {
            CliError::Usage(format!("unknown game {:?}: no game is registered", e.id))
        } else {
            CliError::Usage(e.to_string())
        }
    }
}

impl From<PositionError> for CliError {
    fn from(e: PositionError) -> Self {
        CliError::Usage(e.to_string())
    }
}

impl From<SettingError> for CliError {
    fn from(e: SettingError) -> Self {
        CliError::Usage(e.to_string())
    }
}

pub type CliResult<T = ()> = Result<T, CliError>;

/// The arguments that choose a game and a position.
#[derive(Args, Debug, Clone, Default)]
pub struct GameArgs {
    /// The game id (`myrmidon games` lists them).
    pub game: String,

    /// Start from this position string instead of the game's start position.
    #[arg(long, value_name = "POSITION", allow_hyphen_values = true)]
    pub position: Option<String>,

    /// A game setting, as NAME=VALUE (repeatable). Not with --position, which fixes them.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,

    /// Shorthand for --set region=<REGION>. Not with --position. (The help shown is written
    /// from the registry: see `command()` in main.rs.)
    #[arg(long, value_name = "REGION")]
    pub region: Option<String>,
}

impl GameArgs {
    /// The settings chosen with `--set` and `--region`, in the order given (`--region` last).
    /// A setting given twice with the same value counts once; with two different values it is
    /// an error (which one was meant cannot be known).
    pub fn settings(&self) -> CliResult<Settings> {
        // Each setting with the argument that chose it, to name both sides of a conflict.
        let mut chosen: Vec<(String, String, String)> = Vec::new();
        for item in &self.set {
            let (name, value) = item
                .split_once('=')
                .ok_or_else(|| CliError::msg(format!("bad --set {item:?}: expected NAME=VALUE")))?;
            let (name, value) = (name.trim(), value.trim());
            if name.is_empty() {
                return Err(CliError::msg(format!(
                    "bad --set {item:?}: the setting name is empty"
                )));
            }
            chosen.push((name.to_string(), value.to_string(), format!("--set {item}")));
        }
        if let Some(region) = &self.region {
            let region = region.trim();
            chosen.push((
                "region".to_string(),
                region.to_string(),
                format!("--region {region}"),
            ));
        }
        let mut settings = Settings::new();
        for (i, (name, value, source)) in chosen.iter().enumerate() {
            match chosen[..i].iter().find(|(n, _, _)| n == name) {
                Some((_, v, _)) if v == value => continue,
                Some((_, _, first)) => {
                    return Err(CliError::msg(format!(
                        "conflicting settings: {first} and {source} both set {name}; give it once"
                    )))
                }
                None => settings = settings.with(name, value),
            }
        }
        Ok(settings)
    }

    /// Looks the game up in the registry and opens it.
    pub fn open(&self) -> CliResult<Box<dyn DynRecord>> {
        let game = registry::find(&self.game)?;
        open_game(game, self.position.as_deref(), &self.settings()?)
    }
}

/// Opens `game` at `position` (its start position if `None`) with `settings`. Settings choose a
/// start position, so they are refused with a position string, which already fixes them.
pub fn open_game(
    game: &dyn DynGame,
    position: Option<&str>,
    settings: &Settings,
) -> CliResult<Box<dyn DynRecord>> {
    match position {
        Some(_) if !settings.0.is_empty() => Err(CliError::msg(
            "--set and --region cannot be used with --position: the position string already \
             fixes every setting (give one or the other)",
        )),
        Some(text) => Ok(game.new_game_at(text)?),
        None => {
            settings.validate(game.info())?;
            Ok(game.new_game(settings)?)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(set: &[&str], region: Option<&str>) -> GameArgs {
        GameArgs {
            game: "g".to_string(),
            position: None,
            set: set.iter().map(|s| s.to_string()).collect(),
            region: region.map(str::to_string),
        }
    }

    #[test]
    fn settings_from_the_command_line() {
        let s = args(&["a=1", " b = x y "], Some("north"))
            .settings()
            .unwrap();
        assert_eq!(
            s,
            Settings::new()
                .with("a", "1")
                .with("b", "x y")
                .with("region", "north")
        );
        assert_eq!(args(&[], None).settings().unwrap(), Settings::new());
        let e = args(&["novalue"], None).settings().unwrap_err();
        assert!(e.to_string().contains("NAME=VALUE"), "{e}");
        let e = args(&["=1"], None).settings().unwrap_err();
        assert!(e.to_string().contains("name is empty"), "{e}");
    }

    #[test]
    fn conflicting_settings_are_refused_and_repeats_count_once() {
        let e = args(&["region=south"], Some("north"))
            .settings()
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "conflicting settings: --set region=south and --region north both set region; \
             give it once"
        );
        let e = args(&["a=1", "b=2", "a = 3"], None).settings().unwrap_err();
        assert!(e.to_string().contains("--set a=1 and --set a = 3"), "{e}");
        let s = args(&["region=north", "a=1", "a=1"], Some("north"))
            .settings()
            .unwrap();
        assert_eq!(s, Settings::new().with("region", "north").with("a", "1"));
    }

    #[test]
    fn unknown_games_are_named() {
        let e = GameArgs {
            game: "zork".to_string(),
            ..GameArgs::default()
        }
        .open()
        .err()
        .unwrap();
        assert!(e.to_string().contains("\"zork\""), "{e}");
    }
}
