//! The engine's options, each declared once with what setting it does (as Stockfish's
//! `ucioption.cpp`): `uci` lists the declarations, `setoption` finds one by name, checks the
//! value against the declaration and runs the handler.

use myrmidon_engine::players::{Algorithm, MAX_LEVEL, MIN_LEVEL};
use myrmidon_engine::uci::{OptionKind, OptionValue, UciOption};
use myrmidon_engine::{Options, PlayerSpec};
use myrmidon_rules::registry;

use super::session::{default_player, start_of, Session};

/// The most lines `MultiPV` may ask for.
pub const MAX_MULTIPV: u32 = 256;

/// One option: its declaration and what a checked value does to the session.
pub struct Setting {
    pub option: UciOption,
    /// Applies a value that the declaration accepted; `Err` says why it is refused all the same.
    pub apply: fn(&mut Session, OptionValue) -> Result<(), String>,
    /// The value in force, for the message when a value is refused.
    pub current: fn(&Session) -> String,
}

fn spin(
    name: &str,
    default: impl Into<i64>,
    min: impl Into<i64>,
    max: impl Into<i64>,
) -> UciOption {
    UciOption::new(
        name,
        OptionKind::Spin {
            default: default.into(),
            min: min.into(),
            max: max.into(),
        },
    )
}

fn combo(name: &str, default: &str, vars: Vec<String>) -> UciOption {
    UciOption::new(
        name,
        OptionKind::Combo {
            default: default.to_string(),
            vars,
        },
    )
}

/// The number of a spin option's value (the declaration has checked its range).
fn number<T: TryFrom<i64> + Default>(value: &OptionValue) -> T {
    match value {
        OptionValue::Spin(n) => T::try_from(*n).unwrap_or_default(),
        _ => T::default(),
    }
}

/// The text of a combo or string option's value.
fn text(value: &OptionValue) -> &str {
    match value {
        OptionValue::Combo(t) | OptionValue::String(t) => t,
        _ => "",
    }
}

/// Every option, in the order `uci` lists them; `game` is the variant in force.
pub fn settings(game: &str) -> Vec<Setting> {
    let ids = registry::games()
        .iter()
        .map(|g| g.info().id.to_string())
        .collect();
    let algorithms = std::iter::once("auto".to_string())
        .chain(Algorithm::ALL.iter().map(ToString::to_string))
        .collect();
    vec![
        Setting {
            option: combo("UCI_Variant", game, ids),
            apply: |s, v| {
                let game = registry::find(text(&v)).map_err(|e| e.to_string())?;
                s.game = game;
                s.record = start_of(game);
                s.searcher = None;
                Ok(())
            },
            current: |s| s.game.info().id.to_string(),
        },
        Setting {
            option: UciOption::new(
                "Player",
                OptionKind::String {
                    default: default_player().to_string(),
                },
            ),
            apply: |s, v| {
                s.spec = text(&v).parse::<PlayerSpec>().map_err(|e| e.to_string())?;
                s.searcher = None;
                Ok(())
            },
            current: |s| s.spec.to_string(),
        },
        // A level selects the level player (8: the search at full strength).
        Setting {
            option: spin("Skill Level", MAX_LEVEL, MIN_LEVEL, MAX_LEVEL),
            apply: |s, v| {
                s.spec = PlayerSpec::Level { level: number(&v) };
                s.searcher = None;
                Ok(())
            },
            current: |s| s.spec.to_string(),
        },
        // The strong search's algorithm (for three players; with two they play alike);
        // `auto`: the game's own.
        Setting {
            option: combo("Algorithm", "auto", algorithms),
            apply: |s, v| {
                let algorithm = match text(&v) {
                    "auto" => None,
                    name => Some(name.parse::<Algorithm>().map_err(|e| e.to_string())?),
                };
                let depth = match s.spec {
                    PlayerSpec::Search { depth, .. } => depth,
                    _ => None,
                };
                s.spec = PlayerSpec::Search { depth, algorithm };
                s.searcher = None;
                Ok(())
            },
            current: |s| s.spec.to_string(),
        },
        Setting {
            option: spin(
                "Hash",
                Options::DEFAULT_HASH_MB as i64,
                1,
                Options::MAX_HASH_MB as i64,
            ),
            apply: |s, v| {
                s.options.hash_mb = number(&v);
                s.configure();
                Ok(())
            },
            current: |s| s.options.hash_mb.to_string(),
        },
        Setting {
            option: spin("Threads", 1, 1, Options::MAX_THREADS as i64),
            apply: |s, v| {
                s.options.threads = number(&v);
                s.configure();
                Ok(())
            },
            current: |s| s.options.threads.to_string(),
        },
        Setting {
            option: spin("MultiPV", 1, 1, MAX_MULTIPV),
            apply: |s, v| {
                s.options.multipv = number(&v);
                s.configure();
                Ok(())
            },
            current: |s| s.options.multipv.to_string(),
        },
        // Pondering is asked for by `go ponder`; the option only tells a GUI that it may.
        Setting {
            option: UciOption::new("Ponder", OptionKind::Check { default: false }),
            apply: |_, _| Ok(()),
            current: |_| "false".to_string(),
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations_are_unique_and_valid_by_default() {
        let all = settings("reines");
        for (i, s) in all.iter().enumerate() {
            assert!(
                !all[..i].iter().any(|o| o.option.is(&s.option.name)),
                "{} twice",
                s.option.name
            );
            // The default of each reads as a value of the option.
            let default = match &s.option.kind {
                OptionKind::Check { default } => default.to_string(),
                OptionKind::Spin { default, .. } => default.to_string(),
                OptionKind::Combo { default, .. } | OptionKind::String { default } => {
                    default.clone()
                }
                OptionKind::Button => String::new(),
            };
            s.option
                .value(Some(&default))
                .unwrap_or_else(|e| panic!("{}: {e}", s.option.name));
            // The declaration reads back as itself.
            assert_eq!(
                s.option.to_string().parse::<UciOption>(),
                Ok(s.option.clone())
            );
        }
    }
}
