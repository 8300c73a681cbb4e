//! `info` lines: what a search says as it goes, written from a [`Report`] and read back by
//! whoever drives the engine.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use crate::players::Report;
use crate::score::Score;

/// One `info` line. Every field is optional, as in UCI; the line writes them in this order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    pub depth: Option<u32>,
    pub seldepth: Option<u32>,
    /// Which best line this is (1: the best), with `MultiPV`.
    pub multipv: Option<u32>,
    pub score: Option<Score>,
    pub nodes: Option<u64>,
    pub nps: Option<u64>,
    /// Permille of the transposition table in use.
    pub hashfull: Option<u32>,
    /// Milliseconds since the search began.
    pub time: Option<Duration>,
    /// The principal variation (the rest of the line after `pv`).
    pub pv: Vec<String>,
    /// Free text (the rest of the line after `string`).
    pub string: Option<String>,
}

impl Info {
    /// A line of free text: `info string <text>`.
    pub fn string(text: &str) -> Info {
        Info {
            string: Some(text.to_string()),
            ..Info::default()
        }
    }

    /// The report this line gives, if it has a depth and a score (a line of a finished
    /// iteration); the fields it lacks are the report's defaults (seldepth the depth, the
    /// first line, no nodes).
    pub fn report(&self) -> Option<Report> {
        let (depth, score) = (self.depth?, self.score?);
        Some(Report {
            depth,
            seldepth: self.seldepth.unwrap_or(depth),
            multipv: self.multipv.unwrap_or(1),
            score,
            nodes: self.nodes.unwrap_or(0),
            time: self.time.unwrap_or_default(),
            hashfull: self.hashfull,
            pv: self.pv.clone(),
        })
    }

    /// Whether this line is about the best line (no `multipv`, or `multipv 1`).
    pub fn is_best_line(&self) -> bool {
        self.multipv.is_none_or(|n| n == 1)
    }
}

impl From<&Report> for Info {
    /// Every field of the report, and the speed: nodes per second over the time, a time under
    /// a millisecond counting as one (as Stockfish).
    fn from(r: &Report) -> Info {
        let micros = r.time.as_micros().max(1000);
        let nps = (r.nodes as u128 * 1_000_000 / micros).min(u64::MAX as u128) as u64;
        Info {
            depth: Some(r.depth),
            seldepth: Some(r.seldepth),
            multipv: Some(r.multipv),
            score: Some(r.score),
            nodes: Some(r.nodes),
            nps: Some(nps),
            hashfull: r.hashfull,
            time: Some(Duration::from_millis(r.time.as_millis() as u64)),
            pv: r.pv.clone(),
            string: None,
        }
    }
}

impl fmt::Display for Info {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("info")?;
        let numbers = [
            ("depth", self.depth.map(u64::from)),
            ("seldepth", self.seldepth.map(u64::from)),
            ("multipv", self.multipv.map(u64::from)),
        ];
        for (word, n) in numbers {
            if let Some(n) = n {
                write!(f, " {word} {n}")?;
            }
        }
        if let Some(score) = self.score {
            write!(f, " score {score}")?;
        }
        let numbers = [
            ("nodes", self.nodes),
            ("nps", self.nps),
            ("hashfull", self.hashfull.map(u64::from)),
            ("time", self.time.map(|t| t.as_millis() as u64)),
        ];
        for (word, n) in numbers {
            if let Some(n) = n {
                write!(f, " {word} {n}")?;
            }
        }
        if !self.pv.is_empty() {
            write!(f, " pv {}", self.pv.join(" "))?;
        }
        if let Some(text) = &self.string {
            write!(f, " string {text}")?;
        }
        Ok(())
    }
}

/// Why a line is not an `info` line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not an `info` line")]
pub struct NotInfo;

impl FromStr for Info {
    type Err = NotInfo;

    /// Reads what it knows of a line from any engine: a number that does not read, and words
    /// it does not know (`currmovenumber 3`, `wdl 300 400 300`, `lowerbound`), are passed over;
    /// `pv`, `string`, `refutation` and `currline` take the rest of the line.
    fn from_str(line: &str) -> Result<Info, NotInfo> {
        let mut words = line.split_whitespace();
        if words.next() != Some("info") {
            return Err(NotInfo);
        }
        let mut info = Info::default();
        let rest = |words: std::str::SplitWhitespace<'_>| words.collect::<Vec<_>>().join(" ");
        while let Some(word) = words.next() {
            let mut number = || words.next().and_then(|n| n.parse::<u64>().ok());
            match word {
                "depth" => info.depth = number().and_then(|n| n.try_into().ok()),
                "seldepth" => info.seldepth = number().and_then(|n| n.try_into().ok()),
                "multipv" => info.multipv = number().and_then(|n| n.try_into().ok()),
                "nodes" => info.nodes = number(),
                "nps" => info.nps = number(),
                "hashfull" => info.hashfull = number().and_then(|n| n.try_into().ok()),
                "time" => info.time = number().map(Duration::from_millis),
                "score" => {
                    let kind = words.next();
                    let value = words.next().and_then(|v| v.parse::<i32>().ok());
                    info.score = match (kind, value) {
                        (Some("cp"), Some(v)) => Some(Score::Cp(v)),
                        (Some("mate"), Some(v)) => Some(Score::Mate(v)),
                        _ => info.score,
                    };
                }
                "currmove" => {
                    words.next();
                }
                "pv" => {
                    info.pv = words.by_ref().map(str::to_string).collect();
                }
                "string" => {
                    info.string = Some(rest(words));
                    break;
                }
                "refutation" | "currline" => break,
                _ => {}
            }
        }
        Ok(info)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn lines_of_a_report() {
        let mut r = Report {
            depth: 3,
            seldepth: 5,
            multipv: 2,
            score: Score::Cp(-35),
            nodes: 1500,
            time: ms(30),
            hashfull: None,
            pv: vec!["e2d3".into(), "d7c6".into()],
        };
        assert_eq!(
            Info::from(&r).to_string(),
            "info depth 3 seldepth 5 multipv 2 score cp -35 nodes 1500 nps 50000 time 30 \
             pv e2d3 d7c6"
        );
        r.hashfull = Some(12);
        r.score = Score::Mate(-2);
        r.pv.clear();
        r.time = Duration::ZERO;
        assert_eq!(
            Info::from(&r).to_string(),
            "info depth 3 seldepth 5 multipv 2 score mate -2 nodes 1500 nps 1500000 \
             hashfull 12 time 0"
        );
        assert_eq!(
            Info::string("hello  there").to_string(),
            "info string hello  there"
        );
    }

    #[test]
    fn lines_of_other_engines() {
        let i: Info = "info depth 5 seldepth 7 multipv 1 score cp 13 lowerbound wdl 300 400 300 \
                       nodes 100 nps 2000 tbhits 0 time 50 pv e2e4 e7e5"
            .parse()
            .unwrap();
        assert_eq!(
            (i.depth, i.score, i.nodes, i.time, i.pv.len()),
            (Some(5), Some(Score::Cp(13)), Some(100), Some(ms(50)), 2)
        );
        assert!(i.is_best_line());
        let i: Info = "info string depth 9 score cp 1".parse().unwrap();
        assert_eq!((i.depth, i.score), (None, None));
        assert_eq!(i.string.as_deref(), Some("depth 9 score cp 1"));
        let i: Info = "info depth 4 multipv 2 score cp 90 pv a2a3"
            .parse()
            .unwrap();
        assert!(!i.is_best_line());
        let i: Info = "info currmove e2e4 currmovenumber 1 depth x"
            .parse()
            .unwrap();
        assert_eq!(i, Info::default());
        assert_eq!("bestmove e2e4".parse::<Info>(), Err(NotInfo));
        assert_eq!("informal".parse::<Info>(), Err(NotInfo));
    }

    fn report() -> impl Strategy<Value = Report> {
        (
            (0u32..100, 0u32..100, 1u32..10),
            prop_oneof![
                (-29_000i32..29_000).prop_map(Score::Cp),
                (-50i32..50).prop_map(Score::Mate)
            ],
            (0u64..u64::MAX / 2, 1u64..10_000_000),
            proptest::option::of(0u32..=1000),
            proptest::collection::vec("[a-n][0-9]{1,2}-[a-n][0-9]{1,2}", 0..8),
        )
            .prop_map(
                |((depth, seldepth, multipv), score, (nodes, time), hashfull, pv)| Report {
                    depth,
                    seldepth,
                    multipv,
                    score,
                    nodes,
                    time: ms(time),
                    hashfull,
                    pv,
                },
            )
    }

    proptest! {
        /// A report written as a line and read back is the same report.
        #[test]
        fn reports_survive_the_wire(r in report()) {
            let line = Info::from(&r).to_string();
            let back: Info = line.parse().unwrap();
            prop_assert_eq!(back.report(), Some(r), "{}", line);
        }

        /// Any line beginning with `info` reads without a panic.
        #[test]
        fn any_info_line_reads(rest in ".{0,80}") {
            let line = format!("info {rest}");
            prop_assert!(line.parse::<Info>().is_ok());
        }
    }
}
