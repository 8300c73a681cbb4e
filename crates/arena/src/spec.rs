//! Engine specs: the `key=value` words after each `--engine`, as cutechess and fastchess read
//! them.
//!
//! * `cmd=<command line>`: an external UCI engine; the command line is split as a shell would
//!   (quotes and backslashes, no expansion: `cmd="./fs --x 'a b'"` is `./fs`, `--x`, `a b`);
//! * `builtin=random|greedy|alphabeta[:depth=N]`: a player of the engine crate, run in-process;
//! * `name=<name>`: the name in the results and records (default: the builtin's spec or the
//!   file name of the command);
//! * `option.<Name>=<value>`: sent as `setoption name <Name> value <value>`, in the order given;
//! * `dir=<directory>`: the working directory of an external engine;
//! * `timemargin=<ms>`: how far past its time an engine may answer before it loses on time;
//! * `weights=<file>`: a builtin's evaluation weights, as `myrmidon tune --out` writes them.
//!
//! Exactly one of `cmd=` and `builtin=` is required; any other key is refused.

use std::path::{Path, PathBuf};
use std::time::Duration;

use myrmidon_engine::PlayerSpec;

/// How far past its time an engine may answer before it loses on time, unless `timemargin=`
/// says otherwise: the latency of pipes and process scheduling on a loaded machine.
pub const DEFAULT_TIME_MARGIN: Duration = Duration::from_millis(250);

/// What plays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineKind {
    /// A player of the engine crate, in-process.
    Builtin(PlayerSpec),
    /// An external program speaking UCI: the program and its arguments.
    External(Vec<String>),
}

/// One `--engine`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    pub name: String,
    pub kind: EngineKind,
    /// `setoption` pairs in the order given.
    pub options: Vec<(String, String)>,
    pub dir: Option<PathBuf>,
    pub time_margin: Duration,
    /// The weights file of a builtin (`weights=`), read when the player is built.
    pub weights: Option<PathBuf>,
}

/// An engine spec that cannot be read: the same error as a player spec's.
pub use myrmidon_engine::SpecError;

const KEYS: &str = "cmd=, builtin=, name=, option.<Name>=, dir=, timemargin=, weights=";

impl EngineSpec {
    /// Reads the words of one `--engine`.
    pub fn parse<S: AsRef<str>>(words: &[S]) -> Result<EngineSpec, SpecError> {
        let mut name = None;
        let mut kind = None;
        let mut options: Vec<(String, String)> = Vec::new();
        let mut dir = None;
        let mut time_margin = None;
        let mut weights = None;
        if words.is_empty() {
            return Err(SpecError(format!(
                "an --engine needs key=value words ({KEYS})"
            )));
        }
        for word in words {
            let word = word.as_ref();
            let Some((key, value)) = word.split_once('=') else {
                return Err(SpecError(format!(
                    "`{word}` is not a key=value word (the keys: {KEYS})"
                )));
            };
            let once = |what: &str, set: bool| {
                if set {
                    Err(SpecError(format!(
                        "`{what}` is given twice in one --engine"
                    )))
                } else {
                    Ok(())
                }
            };
            match key {
                "cmd" | "builtin" => {
                    if kind.is_some() {
                        return Err(SpecError(
                            "an --engine has one cmd= or one builtin=, not two".to_string(),
                        ));
                    }
                    kind = Some(if key == "cmd" {
                        let argv =
                            shlex::split(value)
                                .filter(|a| !a.is_empty())
                                .ok_or_else(|| {
                                    SpecError(format!(
                                        "bad cmd `{value}`: expected a command line (an unclosed \
                                     quote, or nothing)"
                                    ))
                                })?;
                        EngineKind::External(argv)
                    } else {
                        let spec = value
                            .parse::<PlayerSpec>()
                            .map_err(|e| SpecError(format!("bad builtin `{value}`: {e}")))?;
                        EngineKind::Builtin(spec)
                    });
                }
                "name" => {
                    once("name", name.is_some())?;
                    if value.trim().is_empty() {
                        return Err(SpecError("name= is empty".to_string()));
                    }
                    name = Some(value.trim().to_string());
                }
                "dir" => {
                    once("dir", dir.is_some())?;
                    if value.is_empty() {
                        return Err(SpecError("dir= is empty".to_string()));
                    }
                    dir = Some(PathBuf::from(value));
                }
                "weights" => {
                    once("weights", weights.is_some())?;
                    if value.is_empty() {
                        return Err(SpecError("weights= is empty".to_string()));
                    }
                    weights = Some(PathBuf::from(value));
                }
                "timemargin" => {
                    once("timemargin", time_margin.is_some())?;
                    let ms: u64 = value.trim().parse().map_err(|_| {
                        SpecError(format!(
                            "bad timemargin `{value}`: expected a whole number of milliseconds"
                        ))
                    })?;
                    time_margin = Some(Duration::from_millis(ms));
                }
                _ => match key.strip_prefix("option.") {
                    Some(option) if !option.trim().is_empty() => {
                        options.push((option.to_string(), value.to_string()));
                    }
                    Some(_) => {
                        return Err(SpecError(format!(
                            "`{word}`: the option name after `option.` is empty"
                        )))
                    }
                    None => {
                        return Err(SpecError(format!(
                            "unknown key `{key}` in `{word}` (the keys: {KEYS})"
                        )))
                    }
                },
            }
        }
        let kind = kind.ok_or_else(|| {
            SpecError("an --engine needs cmd=<command line> or builtin=<player>".to_string())
        })?;
        if weights.is_some() && !matches!(kind, EngineKind::Builtin(_)) {
            return Err(SpecError(
                "weights= is for builtin players; an external engine takes its own options"
                    .to_string(),
            ));
        }
        if let EngineKind::Builtin(_) = kind {
            if dir.is_some() || !options.is_empty() {
                return Err(SpecError(
                    "dir= and option.<Name>= are for external engines (cmd=), not builtin="
                        .to_string(),
                ));
            }
        }
        let name = name.unwrap_or_else(|| match &kind {
            EngineKind::Builtin(spec) => match weights.as_deref().and_then(Path::file_name) {
                Some(file) => format!("{spec}+{}", file.to_string_lossy()),
                None => spec.to_string(),
            },
            EngineKind::External(argv) => Path::new(&argv[0])
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_else(|| argv[0].clone()),
        });
        Ok(EngineSpec {
            name,
            kind,
            options,
            dir,
            time_margin: time_margin.unwrap_or(DEFAULT_TIME_MARGIN),
            weights,
        })
    }

    pub fn is_builtin(&self) -> bool {
        matches!(self.kind, EngineKind::Builtin(_))
    }
}

/// Gives engines that share a name distinct names (`random`, `random-2`), so that the results
/// and the records can tell them apart.
pub fn distinct_names(specs: &mut [EngineSpec]) {
    for i in 1..specs.len() {
        if specs[..i].iter().any(|s| s.name == specs[i].name) {
            let base = specs[i].name.clone();
            let mut n = 2;
            while specs.iter().any(|s| s.name == format!("{base}-{n}")) {
                n += 1;
            }
            specs[i].name = format!("{base}-{n}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(words: &[&str]) -> Result<EngineSpec, SpecError> {
        EngineSpec::parse(words)
    }

    #[test]
    fn external_engines_read_like_a_shell() {
        let s = parse(&[
            "cmd=./fs --opt 'a b' \"c d\"",
            "option.Hash=16",
            "option.UCI_Variant=ackenhead",
            "dir=/tmp",
            "timemargin=50",
        ])
        .unwrap();
        assert_eq!(
            s.kind,
            EngineKind::External(vec![
                "./fs".into(),
                "--opt".into(),
                "a b".into(),
                "c d".into()
            ])
        );
        assert_eq!(s.name, "fs");
        assert_eq!(
            s.options,
            vec![
                ("Hash".to_string(), "16".to_string()),
                ("UCI_Variant".to_string(), "ackenhead".to_string())
            ]
        );
        assert_eq!(s.dir, Some(PathBuf::from("/tmp")));
        assert_eq!(s.time_margin, Duration::from_millis(50));
        // An option's value may hold `=` and spaces.
        let s = parse(&["cmd=e", "option.Path=a=b c", "name=Eng One"]).unwrap();
        assert_eq!(s.options, vec![("Path".to_string(), "a=b c".to_string())]);
        assert_eq!(s.name, "Eng One");
    }

    #[test]
    fn builtins_are_named_by_their_spec() {
        let s = parse(&["builtin=alphabeta:depth=2"]).unwrap();
        assert_eq!(
            s.kind,
            EngineKind::Builtin(PlayerSpec::AlphaBeta { depth: 2 })
        );
        assert_eq!(s.name, "alphabeta:depth=2");
        assert_eq!(s.time_margin, DEFAULT_TIME_MARGIN);
        assert!(s.is_builtin());
        assert_eq!(s.weights, None);
        // With weights, the file's name tells the player from the one without.
        let s = parse(&["builtin=greedy", "weights=/tmp/tuned.w"]).unwrap();
        assert_eq!(s.weights, Some(PathBuf::from("/tmp/tuned.w")));
        assert_eq!(s.name, "greedy+tuned.w");
        let s = parse(&["builtin=greedy", "weights=a.w", "name=g"]).unwrap();
        assert_eq!(s.name, "g");
    }

    #[test]
    fn bad_specs_say_what_is_wrong() {
        for (words, needle) in [
            (&[][..], "key=value"),
            (&["random"][..], "not a key=value"),
            (&["builtin=minimax"][..], "bad builtin `minimax`"),
            (&["cmd="][..], "bad cmd"),
            (&["cmd='open"][..], "unclosed"),
            (&["cmd=a", "builtin=random"][..], "not two"),
            (&["name=x"][..], "needs cmd="),
            (&["cmd=a", "speed=3"][..], "unknown key `speed`"),
            (&["cmd=a", "option.=3"][..], "option name"),
            (&["cmd=a", "timemargin=x"][..], "bad timemargin"),
            (&["builtin=random", "option.Hash=1"][..], "external"),
            (&["cmd=a", "name=b", "name=c"][..], "twice"),
            (
                &["cmd=a", "weights=w"][..],
                "weights= is for builtin players",
            ),
            (&["builtin=greedy", "weights="][..], "weights= is empty"),
            (&["builtin=greedy", "weights=a", "weights=b"][..], "twice"),
        ] {
            let e = parse(words).unwrap_err();
            assert!(e.0.contains(needle), "{words:?}: {e}");
        }
    }

    #[test]
    fn duplicate_names_are_numbered() {
        let mut specs = vec![
            parse(&["builtin=random"]).unwrap(),
            parse(&["builtin=random"]).unwrap(),
            parse(&["builtin=random"]).unwrap(),
        ];
        distinct_names(&mut specs);
        let names: Vec<&str> = specs.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["random", "random-2", "random-3"]);
    }
}
