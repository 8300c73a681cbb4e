//! One line to an engine: read into a [`Command`] by [`parse`], written back by its `Display`.
//!
//! Words are separated by any run of whitespace. Command words and keywords are case-sensitive,
//! as UCI says; option names are not (whoever holds the options compares them).

use std::fmt;

use super::go::Go;
use super::shorten;

/// One line of input to an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Uci,
    Debug(bool),
    IsReady,
    /// `setoption name <name> [value <value>]`; words of each joined by one space.
    SetOption {
        name: String,
        value: Option<String>,
    },
    /// `register …`: myrmidon needs no registration.
    Register,
    UciNewGame,
    /// `position startpos|fen <position string> [moves <token>…]`; `fen: None` is startpos.
    Position {
        fen: Option<String>,
        moves: Vec<String>,
    },
    Go(Go),
    /// `go perft <depth>`.
    Perft(u32),
    Stop,
    PonderHit,
    Quit,
    /// `d`: the position string, the player to move and the result (not UCI; as Stockfish).
    Display,
}

/// A line read, with what was wrong but harmless (words after a command that takes none).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsed {
    pub command: Command,
    pub warning: Option<String>,
}

/// Reads one line. `Err` says what is wrong with it.
pub fn parse(line: &str) -> Result<Parsed, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some((&first, rest)) = words.split_first() else {
        return Err("empty line".to_string());
    };
    let plain = |command: Command| {
        let warning = (!rest.is_empty())
            .then(|| format!("ignored `{}` after `{first}`", shorten(&rest.join(" "))));
        Ok(Parsed { command, warning })
    };
    let parsed = |command: Result<Command, String>| {
        command.map(|command| Parsed {
            command,
            warning: None,
        })
    };
    match first {
        "uci" => plain(Command::Uci),
        "isready" => plain(Command::IsReady),
        "ucinewgame" => plain(Command::UciNewGame),
        "stop" => plain(Command::Stop),
        "ponderhit" => plain(Command::PonderHit),
        "quit" => plain(Command::Quit),
        "d" => plain(Command::Display),
        "register" => parsed(Ok(Command::Register)),
        "debug" => parsed(match rest {
            ["on"] => Ok(Command::Debug(true)),
            ["off"] => Ok(Command::Debug(false)),
            _ => Err("debug: expected `debug on` or `debug off`".to_string()),
        }),
        "setoption" => parsed(parse_setoption(rest)),
        "position" => parsed(parse_position(rest)),
        "go" => parsed(parse_go(rest)),
        other => Err(format!(
            "unknown command `{}` (the commands: uci, debug, isready, setoption, register, \
             ucinewgame, position, go, stop, ponderhit, quit, d)",
            shorten(other)
        )),
    }
}

fn parse_setoption(words: &[&str]) -> Result<Command, String> {
    let usage = "setoption: expected `setoption name <name> [value <value>]`";
    let Some((&"name", rest)) = words.split_first() else {
        return Err(usage.to_string());
    };
    let (name, value) = match rest.iter().position(|&w| w == "value") {
        Some(i) => (&rest[..i], Some(rest[i + 1..].join(" "))),
        None => (rest, None),
    };
    if name.is_empty() {
        return Err(format!("{usage}: the name is missing"));
    }
    Ok(Command::SetOption {
        name: name.join(" "),
        value,
    })
}

fn parse_position(words: &[&str]) -> Result<Command, String> {
    let usage = "position: expected `position startpos [moves …]` or \
                 `position fen <position string> [moves …]`";
    let Some((&kind, rest)) = words.split_first() else {
        return Err(usage.to_string());
    };
    let (before, moves) = match rest.iter().position(|&w| w == "moves") {
        Some(i) => (&rest[..i], rest[i + 1..].to_vec()),
        None => (rest, Vec::new()),
    };
    let moves = moves.into_iter().map(str::to_string).collect();
    match kind {
        "startpos" => match before {
            [] => Ok(Command::Position { fen: None, moves }),
            [word, ..] => Err(format!(
                "position startpos: expected `moves` or the end of the line, not `{}`",
                shorten(word)
            )),
        },
        "fen" => {
            if before.is_empty() {
                return Err("position fen: the position string is missing".to_string());
            }
            Ok(Command::Position {
                fen: Some(before.join(" ")),
                moves,
            })
        }
        other => Err(format!("{usage}; not `{}`", shorten(other))),
    }
}

fn parse_go(words: &[&str]) -> Result<Command, String> {
    match words {
        ["perft", depth] => depth.parse().map(Command::Perft).map_err(|_| {
            format!(
                "go perft: the depth must be a whole number, not `{}`",
                shorten(depth)
            )
        }),
        ["perft"] => Err("go perft: the depth is missing".to_string()),
        ["perft", _, extra, ..] => Err(format!(
            "go perft: expected only a depth, then `{}`",
            shorten(extra)
        )),
        _ => Go::parse_words(words).map(Command::Go),
    }
}

impl fmt::Display for Command {
    /// The line as UCI writes it (without its newline).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Uci => f.write_str("uci"),
            Command::Debug(on) => write!(f, "debug {}", if *on { "on" } else { "off" }),
            Command::IsReady => f.write_str("isready"),
            Command::SetOption { name, value } => {
                write!(f, "setoption name {name}")?;
                match value {
                    Some(v) => write!(f, " value {v}"),
                    None => Ok(()),
                }
            }
            Command::Register => f.write_str("register later"),
            Command::UciNewGame => f.write_str("ucinewgame"),
            Command::Position { fen, moves } => {
                match fen {
                    None => f.write_str("position startpos")?,
                    Some(fen) => write!(f, "position fen {fen}")?,
                }
                if !moves.is_empty() {
                    write!(f, " moves {}", moves.join(" "))?;
                }
                Ok(())
            }
            Command::Go(go) => go.fmt(f),
            Command::Perft(depth) => write!(f, "go perft {depth}"),
            Command::Stop => f.write_str("stop"),
            Command::PonderHit => f.write_str("ponderhit"),
            Command::Quit => f.write_str("quit"),
            Command::Display => f.write_str("d"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn cmd(line: &str) -> Command {
        parse(line)
            .unwrap_or_else(|e| panic!("{line}: {e}"))
            .command
    }

    fn err(line: &str) -> String {
        parse(line).unwrap_err()
    }

    #[test]
    fn simple_commands_and_whitespace() {
        assert_eq!(cmd("uci"), Command::Uci);
        assert_eq!(cmd("  isready \t "), Command::IsReady);
        assert_eq!(cmd("quit\r"), Command::Quit);
        assert_eq!(cmd("debug on"), Command::Debug(true));
        let p = parse("isready now").unwrap();
        assert_eq!(p.command, Command::IsReady);
        assert!(p.warning.unwrap().contains("`now`"));
        assert!(err("").contains("empty"));
        assert!(err("   ").contains("empty"));
        assert!(err("IsReady").contains("unknown command `IsReady`"));
        assert!(err("debug maybe").contains("debug on"));
    }

    #[test]
    fn setoption() {
        assert_eq!(
            cmd("setoption  name UCI_Variant   value antchess3"),
            Command::SetOption {
                name: "UCI_Variant".into(),
                value: Some("antchess3".into())
            }
        );
        assert_eq!(
            cmd("setoption name Clear Hash"),
            Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            }
        );
        assert_eq!(
            cmd("setoption name VariantPath value /a b/c.ini"),
            Command::SetOption {
                name: "VariantPath".into(),
                value: Some("/a b/c.ini".into())
            }
        );
        assert!(err("setoption").contains("setoption name"));
        assert!(err("setoption name value 3").contains("name is missing"));
        assert!(err("setoption UCI_Variant value x").contains("setoption name"));
    }

    #[test]
    fn positions() {
        assert_eq!(
            cmd("position startpos"),
            Command::Position {
                fen: None,
                moves: vec![]
            }
        );
        assert_eq!(
            cmd("position startpos moves e2d3  d7c6"),
            Command::Position {
                fen: None,
                moves: vec!["e2d3".into(), "d7c6".into()]
            }
        );
        assert_eq!(
            cmd("position fen a  b c moves x"),
            Command::Position {
                fen: Some("a b c".into()),
                moves: vec!["x".into()]
            }
        );
        assert_eq!(
            cmd("position fen a b moves"),
            Command::Position {
                fen: Some("a b".into()),
                moves: vec![]
            }
        );
        assert!(err("position").contains("position startpos"));
        assert!(err("position fen").contains("missing"));
        assert!(err("position fen moves e2e4").contains("missing"));
        assert!(err("position startpos e2e4").contains("`e2e4`"));
        assert!(err("position start").contains("`start`"));
    }

    #[test]
    fn go_and_perft() {
        assert_eq!(cmd("go"), Command::Go(Go::default()));
        assert_eq!(cmd("go perft 3"), Command::Perft(3));
        assert!(matches!(
            cmd("go depth 3"),
            Command::Go(Go { depth: Some(3), .. })
        ));
        assert_eq!(
            err("go perft -1"),
            "go perft: the depth must be a whole number, not `-1`"
        );
        assert!(err("go perft").contains("missing"));
        assert!(err("go perft 2 3").contains("only a depth"));
        assert!(err("go depth x").contains("`depth` needs a whole number, not `x`"));
    }

    #[test]
    fn long_input_is_quoted_short() {
        assert!(err(&"x".repeat(10_000)).len() < 300);
    }

    /// A word of a command's free text: no whitespace, not a keyword that would end it.
    fn word() -> impl Strategy<Value = String> {
        "[A-Za-z0-9_/.:=-]{1,8}".prop_filter("not a keyword", |w| w != "value" && w != "moves")
    }

    fn command() -> impl Strategy<Value = Command> {
        let words = |n| proptest::collection::vec(word(), n);
        prop_oneof![
            Just(Command::Uci),
            any::<bool>().prop_map(Command::Debug),
            Just(Command::IsReady),
            (words(1..4), proptest::option::of(words(0..4))).prop_map(|(n, v)| {
                Command::SetOption {
                    name: n.join(" "),
                    value: v.map(|v| v.join(" ")),
                }
            }),
            Just(Command::Register),
            Just(Command::UciNewGame),
            (proptest::option::of(words(1..7)), words(0..6)).prop_map(|(fen, moves)| {
                Command::Position {
                    fen: fen.map(|f| f.join(" ")),
                    moves,
                }
            }),
            (
                proptest::option::of(0u32..99),
                proptest::option::of(any::<u64>()),
                any::<bool>()
            )
                .prop_map(|(depth, nodes, infinite)| Command::Go(Go {
                    depth,
                    nodes,
                    infinite,
                    ..Go::default()
                })),
            (0u32..1000).prop_map(Command::Perft),
            Just(Command::Stop),
            Just(Command::PonderHit),
            Just(Command::Quit),
            Just(Command::Display),
        ]
    }

    proptest! {
        /// Every command reads back as itself, with no warning.
        #[test]
        fn commands_read_what_they_write(c in command()) {
            let text = c.to_string();
            let back = parse(&text).unwrap();
            prop_assert_eq!(back.warning, None, "{}", text);
            prop_assert_eq!(back.command, c, "{}", text);
        }

        /// Any line at all gives a command or a message, on one line; never a panic.
        #[test]
        fn any_line_is_answered(line in ".{0,80}") {
            if let Err(e) = parse(&line) {
                prop_assert!(!e.contains('\n'), "{}", e);
            }
        }
    }
}
