//! Reading one line of the UCI protocol into a [`Command`]. Pure: no state, no output; what is
//! wrong with a line comes back as a message for an `info string error: …` line.
//!
//! Words are separated by any run of whitespace. Command words and keywords are case-sensitive,
//! as UCI says; option names are not (the session compares them).

use std::time::Duration;

use crate::perft;

/// One line of input.
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

/// The parameters of a `go`, before the game (its number of players) is known.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    pub movestogo: Option<u32>,
    pub infinite: bool,
    pub ponder: bool,
    /// Clock times by player index (`wtime` is player 0, `btime` 1, `p<n>time` is n - 1),
    /// with the word that gave each, in the order given.
    pub times: Vec<(usize, String, Duration)>,
    /// Increments the same way.
    pub incs: Vec<(usize, String, Duration)>,
    /// `searchmoves` (not supported: the session says so and searches every move).
    pub searchmoves: Vec<String>,
    /// `mate <n>` (not supported: searched as `infinite` would not end; the session says so).
    pub mate: Option<u32>,
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
    let parsed = |command: Command| {
        Ok(Parsed {
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
        "register" => parsed(Command::Register),
        "debug" => match rest {
            ["on"] => parsed(Command::Debug(true)),
            ["off"] => parsed(Command::Debug(false)),
            _ => Err("debug: expected `debug on` or `debug off`".to_string()),
        },
        "setoption" => parse_setoption(rest).map(|c| Parsed {
            command: c,
            warning: None,
        }),
        "position" => parse_position(rest).map(|c| Parsed {
            command: c,
            warning: None,
        }),
        "go" => parse_go(rest).map(|c| Parsed {
            command: c,
            warning: None,
        }),
        other => Err(format!(
            "unknown command `{}` (the commands: uci, debug, isready, setoption, register, \
             ucinewgame, position, go, stop, ponderhit, quit, d)",
            shorten(other)
        )),
    }
}

/// At most 60 characters of what was received, control characters escaped, to quote it in a
/// message (which must stay one line of text).
pub fn shorten(text: &str) -> String {
    const MAX: usize = 60;
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == MAX {
            out.push('…');
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
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
    let moves_at = rest.iter().position(|&w| w == "moves");
    let (before, moves) = match moves_at {
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

/// The player index of `wtime`, `btime`, `p1time`… (`kind` is "time" or "inc").
fn seat_word(word: &str, kind: &str) -> Option<usize> {
    let color = match kind {
        "time" => ["wtime", "btime"],
        _ => ["winc", "binc"],
    };
    if let Some(i) = color.iter().position(|&c| c == word) {
        return Some(i);
    }
    let digits = word.strip_prefix('p')?.strip_suffix(kind)?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 3 {
        return None;
    }
    let seat: usize = digits.parse().ok()?;
    (seat >= 1).then(|| seat - 1)
}

fn parse_go(words: &[&str]) -> Result<Command, String> {
    if let Some((&"perft", rest)) = words.split_first() {
        return match rest {
            [depth] => perft::parse_depth(depth)
                .map(Command::Perft)
                .map_err(|e| format!("go perft: {e}")),
            [] => Err("go perft: the depth is missing".to_string()),
            [_, extra, ..] => Err(format!(
                "go perft: expected only a depth, then `{}`",
                shorten(extra)
            )),
        };
    }
    let mut go = Go::default();
    let mut i = 0;
    while i < words.len() {
        let word = words[i];
        i += 1;
        let mut value = |what: &str| -> Result<&str, String> {
            let v = words
                .get(i)
                .copied()
                .ok_or_else(|| format!("go: `{word}` needs {what}"))?;
            i += 1;
            Ok(v)
        };
        match word {
            "infinite" => go.infinite = true,
            "ponder" => go.ponder = true,
            "depth" => go.depth = Some(count(word, value("a number of plies")?)?),
            "nodes" => go.nodes = Some(count(word, value("a number of nodes")?)?),
            "movestogo" => go.movestogo = Some(count(word, value("a number of moves")?)?),
            "mate" => go.mate = Some(count(word, value("a number of moves")?)?),
            "movetime" => go.movetime = Some(millis(word, value("a time in milliseconds")?)?),
            "searchmoves" => {
                while let Some(&w) = words.get(i) {
                    if is_go_keyword(w) {
                        break;
                    }
                    go.searchmoves.push(w.to_string());
                    i += 1;
                }
            }
            _ => {
                if let Some(player) = seat_word(word, "time") {
                    let t = millis(word, value("a time in milliseconds")?)?;
                    go.times.push((player, word.to_string(), t));
                } else if let Some(player) = seat_word(word, "inc") {
                    let t = millis(word, value("a time in milliseconds")?)?;
                    go.incs.push((player, word.to_string(), t));
                } else {
                    return Err(format!(
                        "go: unknown word `{}` (expected wtime, btime, winc, binc, p<seat>time, \
                         p<seat>inc, movestogo, movetime, depth, nodes, infinite, ponder or \
                         perft)",
                        shorten(word)
                    ));
                }
            }
        }
    }
    Ok(Command::Go(go))
}

fn is_go_keyword(word: &str) -> bool {
    matches!(
        word,
        "infinite"
            | "ponder"
            | "depth"
            | "nodes"
            | "movestogo"
            | "mate"
            | "movetime"
            | "searchmoves"
            | "perft"
    ) || seat_word(word, "time").is_some()
        || seat_word(word, "inc").is_some()
}

/// A whole number, not negative.
fn count<T: std::str::FromStr>(word: &str, text: &str) -> Result<T, String> {
    text.parse()
        .map_err(|_| format!("go: `{word}` needs a whole number, not `{}`", shorten(text)))
}

/// Milliseconds; a negative time (a clock already run out, as some GUIs send it) is zero.
fn millis(word: &str, text: &str) -> Result<Duration, String> {
    let ms: i64 = text.parse().map_err(|_| {
        format!(
            "go: `{word}` needs a whole number of milliseconds, not `{}`",
            shorten(text)
        )
    })?;
    Ok(Duration::from_millis(ms.max(0) as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn go_words() {
        let Command::Go(go) = cmd("go wtime 1000 btime -5 winc 10 binc 20 movestogo 7") else {
            panic!()
        };
        let ms = Duration::from_millis;
        assert_eq!(
            go.times,
            vec![(0, "wtime".into(), ms(1000)), (1, "btime".into(), ms(0))]
        );
        assert_eq!(
            go.incs,
            vec![(0, "winc".into(), ms(10)), (1, "binc".into(), ms(20))]
        );
        assert_eq!(go.movestogo, Some(7));
        let Command::Go(go) = cmd("go p1time 5 p2time 6 p3time 7 p3inc 1 ponder") else {
            panic!()
        };
        assert_eq!(go.times.len(), 3);
        assert_eq!(go.times[2], (2, "p3time".into(), ms(7)));
        assert_eq!(go.incs, vec![(2, "p3inc".into(), ms(1))]);
        assert!(go.ponder);
        let Command::Go(go) = cmd("go depth 4 nodes 100 movetime 50 infinite") else {
            panic!()
        };
        assert_eq!(
            (go.depth, go.nodes, go.movetime, go.infinite),
            (Some(4), Some(100), Some(ms(50)), true)
        );
        let Command::Go(go) = cmd("go searchmoves e2e4 d2d4 depth 3") else {
            panic!()
        };
        assert_eq!(go.searchmoves, vec!["e2e4", "d2d4"]);
        assert_eq!(go.depth, Some(3));
        assert_eq!(cmd("go"), Command::Go(Go::default()));
        assert_eq!(cmd("go perft 3"), Command::Perft(3));
        assert!(err("go depth x").contains("`depth` needs a whole number, not `x`"));
        assert!(err("go depth -1").contains("whole number"));
        assert!(err("go depth").contains("`depth` needs"));
        assert!(err("go wtime 1.5").contains("milliseconds"));
        assert!(err("go p0time 5").contains("unknown word `p0time`"));
        assert!(err("go fast").contains("unknown word `fast`"));
        assert!(err("go perft").contains("missing"));
        assert!(err("go perft 99").contains("depth"));
        assert!(err("go perft 2 3").contains("only a depth"));
    }

    #[test]
    fn long_input_is_quoted_short_and_on_one_line() {
        let long = "x".repeat(10_000);
        assert!(err(&long).len() < 300);
        assert_eq!(shorten("a\u{0}b\u{1b}[31m"), "a\\u{0}b\\u{1b}[31m");
        assert_eq!(shorten(&"é".repeat(61)), format!("{}…", "é".repeat(60)));
    }
}
