//! `go`: its words read into a [`Go`], written back, and turned into the search's [`Limits`]
//! (and back, for an engine that a match runner drives).

use std::fmt;
use std::time::Duration;

use super::{millis, shorten};
use crate::limits::Limits;

/// The parameters of a `go` (not `go perft`), before the game (its number of players) is known.
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
    /// `searchmoves` (not supported by myrmidon's engine: it says so and searches every move).
    pub searchmoves: Vec<String>,
    /// `mate <n>` (not supported by myrmidon's engine: it searches as for a plain `go`).
    pub mate: Option<u32>,
}

/// The word of a seat's clock (`kind` "time") or increment ("inc"): `wtime`/`btime` between
/// two players, `p1time`, `p2time`… otherwise.
fn seat_word(seat: usize, players: usize, kind: &str) -> String {
    match (players, seat) {
        (2, 0) => format!("w{kind}"),
        (2, 1) => format!("b{kind}"),
        _ => format!("p{}{kind}", seat + 1),
    }
}

/// The player index of `wtime`, `btime`, `p1time`… (`kind` is "time" or "inc").
fn seat_of(word: &str, kind: &str) -> Option<usize> {
    if let Some(rest) = word.strip_suffix(kind) {
        match rest {
            "w" => return Some(0),
            "b" => return Some(1),
            _ => {}
        }
    }
    let digits = word.strip_prefix('p')?.strip_suffix(kind)?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 3 {
        return None;
    }
    let seat: usize = digits.parse().ok()?;
    (seat >= 1).then(|| seat - 1)
}

/// A word that starts a parameter of `go` (ends a `searchmoves` list).
fn is_keyword(word: &str) -> bool {
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
    ) || seat_of(word, "time").is_some()
        || seat_of(word, "inc").is_some()
}

/// A whole number, not negative.
fn count<T: std::str::FromStr>(word: &str, text: &str) -> Result<T, String> {
    text.parse()
        .map_err(|_| format!("go: `{word}` needs a whole number, not `{}`", shorten(text)))
}

/// Milliseconds; a negative time (a clock already run out, as some GUIs send it) is zero.
fn duration(word: &str, text: &str) -> Result<Duration, String> {
    let ms: i64 = text.parse().map_err(|_| {
        format!(
            "go: `{word}` needs a whole number of milliseconds, not `{}`",
            shorten(text)
        )
    })?;
    Ok(Duration::from_millis(ms.max(0) as u64))
}

impl Go {
    /// Reads the words after `go` (not `go perft`).
    pub fn parse_words(words: &[&str]) -> Result<Go, String> {
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
                "movetime" => go.movetime = Some(duration(word, value("a time in milliseconds")?)?),
                "searchmoves" => {
                    while let Some(&w) = words.get(i) {
                        if is_keyword(w) {
                            break;
                        }
                        go.searchmoves.push(w.to_string());
                        i += 1;
                    }
                }
                _ => {
                    if let Some(player) = seat_of(word, "time") {
                        let t = duration(word, value("a time in milliseconds")?)?;
                        go.times.push((player, word.to_string(), t));
                    } else if let Some(player) = seat_of(word, "inc") {
                        let t = duration(word, value("a time in milliseconds")?)?;
                        go.incs.push((player, word.to_string(), t));
                    } else {
                        return Err(format!(
                            "go: unknown word `{}` (expected wtime, btime, winc, binc, \
                             p<seat>time, p<seat>inc, movestogo, movetime, depth, nodes, \
                             infinite, ponder or perft)",
                            shorten(word)
                        ));
                    }
                }
            }
        }
        Ok(go)
    }

    /// The `go` of these limits for a game of `players` seats: `wtime btime winc binc` between
    /// two, `p1time p2time p3time p1inc p2inc p3inc` between three. Limits that limit nothing
    /// are `go infinite`: a bare `go` means different things to different engines.
    pub fn from_limits(limits: &Limits, players: usize) -> Go {
        let times = limits
            .time
            .iter()
            .enumerate()
            .filter_map(|(i, t)| t.map(|t| (i, seat_word(i, players, "time"), t)))
            .collect();
        let incs = limits
            .inc
            .iter()
            .enumerate()
            .map(|(i, inc)| (i, seat_word(i, players, "inc"), *inc))
            .collect();
        let limited = limits.depth.is_some()
            || limits.nodes.is_some()
            || limits.movetime.is_some()
            || limits.time.iter().any(Option::is_some)
            || limits.ponder;
        Go {
            depth: limits.depth,
            nodes: limits.nodes,
            movetime: limits.movetime,
            movestogo: limits.movestogo,
            infinite: limits.infinite || !limited,
            ponder: limits.ponder,
            times,
            incs,
            searchmoves: Vec::new(),
            mate: None,
        }
    }

    /// The limits of this `go` in a game of `players` players; `Err` names a clock word of a
    /// seat the game does not have.
    pub fn limits(&self, players: usize) -> Result<Limits, String> {
        let mut time = vec![None; players];
        let mut inc = vec![Duration::ZERO; players];
        let seat = |p: usize, word: &str| {
            if p < players {
                Ok(p)
            } else {
                Err(format!(
                    "go: `{word}`: this game has {players} players (seats 1 to {players})"
                ))
            }
        };
        for (p, word, t) in &self.times {
            time[seat(*p, word)?] = Some(*t);
        }
        for (p, word, t) in &self.incs {
            inc[seat(*p, word)?] = *t;
        }
        Ok(Limits {
            depth: self.depth,
            nodes: self.nodes,
            movetime: self.movetime,
            time,
            inc,
            movestogo: self.movestogo,
            infinite: self.infinite,
            ponder: self.ponder,
        })
    }
}

impl fmt::Display for Go {
    /// `go`, the clocks, the increments, then `movestogo movetime depth nodes mate infinite
    /// ponder`, and `searchmoves …` last (its list ends at the end of the line).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("go")?;
        for (_, word, t) in self.times.iter().chain(&self.incs) {
            write!(f, " {word} {}", millis(t))?;
        }
        if let Some(m) = self.movestogo {
            write!(f, " movestogo {m}")?;
        }
        if let Some(t) = &self.movetime {
            write!(f, " movetime {}", millis(t))?;
        }
        if let Some(d) = self.depth {
            write!(f, " depth {d}")?;
        }
        if let Some(n) = self.nodes {
            write!(f, " nodes {n}")?;
        }
        if let Some(m) = self.mate {
            write!(f, " mate {m}")?;
        }
        if self.infinite {
            f.write_str(" infinite")?;
        }
        if self.ponder {
            f.write_str(" ponder")?;
        }
        if !self.searchmoves.is_empty() {
            write!(f, " searchmoves {}", self.searchmoves.join(" "))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn go(line: &str) -> Go {
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(words[0], "go");
        Go::parse_words(&words[1..]).unwrap_or_else(|e| panic!("{line}: {e}"))
    }

    fn err(line: &str) -> String {
        let words: Vec<&str> = line.split_whitespace().collect();
        Go::parse_words(&words[1..]).unwrap_err()
    }

    #[test]
    fn words() {
        let g = go("go wtime 1000 btime -5 winc 10 binc 20 movestogo 7");
        assert_eq!(
            g.times,
            vec![(0, "wtime".into(), ms(1000)), (1, "btime".into(), ms(0))]
        );
        assert_eq!(
            g.incs,
            vec![(0, "winc".into(), ms(10)), (1, "binc".into(), ms(20))]
        );
        assert_eq!(g.movestogo, Some(7));
        let g = go("go p1time 5 p2time 6 p3time 7 p3inc 1 ponder");
        assert_eq!(g.times.len(), 3);
        assert_eq!(g.times[2], (2, "p3time".into(), ms(7)));
        assert_eq!(g.incs, vec![(2, "p3inc".into(), ms(1))]);
        assert!(g.ponder);
        let g = go("go depth 4 nodes 100 movetime 50 infinite");
        assert_eq!(
            (g.depth, g.nodes, g.movetime, g.infinite),
            (Some(4), Some(100), Some(ms(50)), true)
        );
        let g = go("go searchmoves e2e4 d2d4 depth 3");
        assert_eq!(g.searchmoves, vec!["e2e4", "d2d4"]);
        assert_eq!(g.depth, Some(3));
        assert_eq!(go("go"), Go::default());
        assert!(err("go depth x").contains("`depth` needs a whole number, not `x`"));
        assert!(err("go depth -1").contains("whole number"));
        assert!(err("go depth").contains("`depth` needs"));
        assert!(err("go wtime 1.5").contains("milliseconds"));
        assert!(err("go p0time 5").contains("unknown word `p0time`"));
        assert!(err("go fast").contains("unknown word `fast`"));
    }

    #[test]
    fn limits_by_seat() {
        let g = Go {
            times: vec![(0, "wtime".into(), ms(100)), (2, "p3time".into(), ms(300))],
            incs: vec![(1, "binc".into(), ms(5))],
            depth: Some(2),
            ..Go::default()
        };
        let l = g.limits(3).unwrap();
        assert_eq!(l.time, vec![Some(ms(100)), None, Some(ms(300))]);
        assert_eq!(l.inc, vec![ms(0), ms(5), ms(0)]);
        assert_eq!(l.depth, Some(2));
        let e = g.limits(2).unwrap_err();
        assert!(e.contains("`p3time`") && e.contains("2 players"), "{e}");
    }

    #[test]
    fn commands_for_two_and_three_players() {
        let line = |l: &Limits, players| Go::from_limits(l, players).to_string();
        let two = Limits {
            time: vec![Some(ms(1000)), Some(ms(900))],
            inc: vec![ms(10), ms(10)],
            movestogo: Some(5),
            ..Limits::default()
        };
        assert_eq!(
            line(&two, 2),
            "go wtime 1000 btime 900 winc 10 binc 10 movestogo 5"
        );
        let three = Limits {
            time: vec![Some(ms(1)), Some(ms(2)), Some(ms(3))],
            inc: vec![ms(0); 3],
            ..Limits::default()
        };
        assert_eq!(
            line(&three, 3),
            "go p1time 1 p2time 2 p3time 3 p1inc 0 p2inc 0 p3inc 0"
        );
        assert_eq!(line(&Limits::movetime(ms(50)), 2), "go movetime 50");
        assert_eq!(line(&Limits::depth(4), 3), "go depth 4");
        let nodes = Limits {
            nodes: Some(7),
            ..Limits::default()
        };
        assert_eq!(line(&nodes, 2), "go nodes 7");
        assert_eq!(line(&Limits::default(), 2), "go infinite");
        // Clocks of no one limit nothing either.
        let none = Limits {
            time: vec![None, None],
            inc: vec![ms(0), ms(0)],
            ..Limits::default()
        };
        assert_eq!(line(&none, 2), "go winc 0 binc 0 infinite");
    }

    fn limits(players: usize) -> impl Strategy<Value = Limits> {
        let ms = || (0u64..10_000_000).prop_map(Duration::from_millis);
        (
            (
                proptest::option::of(0u32..200),
                proptest::option::of(0u64..u64::MAX),
                proptest::option::of(ms()),
                proptest::option::of(0u32..100),
            ),
            proptest::collection::vec(proptest::option::of(ms()), players),
            proptest::collection::vec(ms(), players),
            any::<bool>(),
            any::<bool>(),
        )
            .prop_map(
                |((depth, nodes, movetime, movestogo), time, inc, infinite, ponder)| Limits {
                    depth,
                    nodes,
                    movetime,
                    time,
                    inc,
                    movestogo,
                    infinite,
                    ponder,
                },
            )
    }

    proptest! {
        /// Limits written as a `go` and read back are the same limits (a `go` that limits
        /// nothing becomes `infinite`, which is what it means).
        #[test]
        fn limits_survive_the_wire(
            (players, l) in (2usize..5).prop_flat_map(|p| (Just(p), limits(p)))
        ) {
            let text = Go::from_limits(&l, players).to_string();
            let words: Vec<&str> = text.split_whitespace().collect();
            prop_assert_eq!(words[0], "go");
            let back = Go::parse_words(&words[1..]).unwrap().limits(players).unwrap();
            let unlimited = l.movetime.is_none() && l.time.iter().all(Option::is_none)
                && l.depth.is_none() && l.nodes.is_none() && !l.ponder;
            let expected = Limits { infinite: l.infinite || unlimited, ..l.clone() };
            prop_assert_eq!(back, expected, "{}", text);
        }

        /// A parsed `go` written again reads the same.
        #[test]
        fn go_reads_what_it_writes(
            (players, l) in (2usize..5).prop_flat_map(|p| (Just(p), limits(p))),
            mate in proptest::option::of(0u32..50),
            searchmoves in proptest::collection::vec("[a-h][1-8][a-h][1-8]", 0..4),
        ) {
            let g = Go { mate, searchmoves, ..Go::from_limits(&l, players) };
            let text = g.to_string();
            let words: Vec<&str> = text.split_whitespace().collect();
            prop_assert_eq!(Go::parse_words(&words[1..]).unwrap(), g);
        }
    }
}
