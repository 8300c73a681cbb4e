//! What limits each move of a match (`--movetime`, `--depth`, `--nodes`, `--tc`) and the clock
//! the referee keeps for every seat.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use myrmidon_engine::Limits;

/// A clock time control: `base` seconds for the game (or for every `moves` moves), plus `inc`
/// after each move. Written `<s>+<inc>` or `<moves>/<s>+<inc>` (seconds, decimals allowed), as
/// cutechess writes its `tc=` and the records' `[TimeControl]` tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub moves: Option<u32>,
    pub base: Duration,
    pub inc: Duration,
}

fn seconds(text: &str, what: &str, whole: &str) -> Result<Duration, String> {
    let value: f64 = text.trim().parse().map_err(|_| {
        format!("bad {what} `{text}` in `{whole}`: expected seconds, such as 10 or 0.5")
    })?;
    if !value.is_finite() || !(0.0..=1e7).contains(&value) {
        return Err(format!(
            "bad {what} `{text}` in `{whole}`: expected seconds from 0 to 10000000"
        ));
    }
    Ok(Duration::from_secs_f64(value))
}

impl FromStr for TimeControl {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let whole = text.trim();
        let (moves, rest) = match whole.split_once('/') {
            Some((m, rest)) => {
                let m: u32 = m.trim().parse().ok().filter(|&m| m > 0).ok_or_else(|| {
                    format!("bad moves `{m}` in `{whole}`: expected a whole number above 0")
                })?;
                (Some(m), rest)
            }
            None => (None, whole),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (b, Some(i)),
            None => (rest, None),
        };
        let base = seconds(base, "base time", whole)?;
        if base.is_zero() {
            return Err(format!("bad time control `{whole}`: the base time is 0"));
        }
        let inc = match inc {
            Some(i) => seconds(i, "increment", whole)?,
            None => Duration::ZERO,
        };
        Ok(TimeControl { moves, base, inc })
    }
}

fn secs(d: Duration) -> String {
    let s = format!("{:.3}", d.as_secs_f64());
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s.is_empty() {
        "0".to_string()
    } else {
        s.to_string()
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(m) = self.moves {
            write!(f, "{m}/")?;
        }
        write!(f, "{}", secs(self.base))?;
        if !self.inc.is_zero() {
            write!(f, "+{}", secs(self.inc))?;
        }
        Ok(())
    }
}

/// What limits each move of a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveLimit {
    /// A fixed time per move (`--movetime`).
    MoveTime(Duration),
    /// A fixed depth (`--depth`).
    Depth(u32),
    /// A fixed node count (`--nodes`).
    Nodes(u64),
    /// A clock per seat (`--tc`).
    Clock(TimeControl),
    /// Nothing: each built-in player searches as its spec says (external engines need a
    /// limit).
    Unlimited,
}

impl MoveLimit {
    /// The records' `[TimeControl]` tag: `10+0.1`, `40/60`, `0.1/move`, or `-` when only a
    /// depth or a node count limits the moves.
    pub fn tag(&self) -> String {
        match self {
            MoveLimit::MoveTime(t) => format!("{}/move", secs(*t)),
            MoveLimit::Depth(_) | MoveLimit::Nodes(_) | MoveLimit::Unlimited => "-".to_string(),
            MoveLimit::Clock(tc) => tc.to_string(),
        }
    }

    /// Says it in words, for the text summary.
    pub fn describe(&self) -> String {
        match self {
            MoveLimit::MoveTime(t) => format!("{} s a move", secs(*t)),
            MoveLimit::Depth(d) => format!("depth {d}"),
            MoveLimit::Nodes(n) => format!("{n} nodes a move"),
            MoveLimit::Clock(tc) => format!("tc {tc}"),
            MoveLimit::Unlimited => "no limit".to_string(),
        }
    }
}

/// The clock of every seat of one game.
#[derive(Clone, Debug)]
pub struct Clocks {
    limit: MoveLimit,
    left: Vec<Duration>,
    moves_made: Vec<u32>,
}

/// How long a search with no clock (`--depth`, `--nodes`, no limit) may take before its engine counts as
/// hung, unless `--move-timeout` says otherwise.
pub const DEFAULT_MOVE_TIMEOUT: Duration = Duration::from_secs(60);

impl Clocks {
    pub fn new(limit: MoveLimit, seats: usize) -> Self {
        let base = match limit {
            MoveLimit::Clock(tc) => tc.base,
            _ => Duration::ZERO,
        };
        Clocks {
            limit,
            left: vec![base; seats],
            moves_made: vec![0; seats],
        }
    }

    /// The limits of a `go` for `seat`.
    pub fn limits(&self, seat: usize) -> Limits {
        match self.limit {
            MoveLimit::MoveTime(t) => Limits::movetime(t),
            MoveLimit::Depth(d) => Limits::depth(d),
            MoveLimit::Unlimited => Limits::default(),
            MoveLimit::Nodes(n) => Limits {
                nodes: Some(n),
                ..Limits::default()
            },
            MoveLimit::Clock(tc) => Limits {
                time: self.left.iter().map(|&t| Some(t)).collect(),
                inc: vec![tc.inc; self.left.len()],
                movestogo: tc.moves.map(|m| m - self.moves_made[seat] % m),
                ..Limits::default()
            },
        }
    }

    /// How long `seat` may think before it loses on time (with `margin` added), or, with no
    /// clock, before its engine counts as hung (`timeout`).
    pub fn allowed(&self, seat: usize, margin: Duration, timeout: Duration) -> Duration {
        match self.limit {
            MoveLimit::MoveTime(t) => t + margin,
            MoveLimit::Clock(_) => self.left[seat] + margin,
            MoveLimit::Depth(_) | MoveLimit::Nodes(_) | MoveLimit::Unlimited => timeout,
        }
    }

    /// The time left on `seat`'s clock (zero with no clock).
    pub fn left(&self, seat: usize) -> Duration {
        self.left[seat]
    }

    /// Charges `seat` for a move that took `elapsed`: the clock runs down (never below zero,
    /// the margin being a grace), then gains the increment, and a new period's base time
    /// when `moves` moves have been made.
    pub fn charge(&mut self, seat: usize, elapsed: Duration) {
        if let MoveLimit::Clock(tc) = self.limit {
            let left = self.left[seat].saturating_sub(elapsed) + tc.inc;
            self.moves_made[seat] += 1;
            self.left[seat] = match tc.moves {
                Some(m) if self.moves_made[seat].is_multiple_of(m) => left + tc.base,
                _ => left,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn time_controls_read_and_write() {
        let tc: TimeControl = "10+0.1".parse().unwrap();
        assert_eq!((tc.moves, tc.base, tc.inc), (None, ms(10_000), ms(100)));
        assert_eq!(tc.to_string(), "10+0.1");
        let tc: TimeControl = "40/60".parse().unwrap();
        assert_eq!((tc.moves, tc.base, tc.inc), (Some(40), ms(60_000), ms(0)));
        assert_eq!(tc.to_string(), "40/60");
        let tc: TimeControl = "0.5+0.05".parse().unwrap();
        assert_eq!(tc.to_string(), "0.5+0.05");
        for bad in ["", "x", "0", "10+y", "-1+0", "0/10", "a/10", "10+-1", "inf"] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
        assert_eq!(MoveLimit::MoveTime(ms(100)).tag(), "0.1/move");
        assert_eq!(MoveLimit::Depth(3).tag(), "-");
    }

    #[test]
    fn clocks_run_down_gain_increments_and_new_periods() {
        let tc: TimeControl = "2/1+0.1".parse().unwrap();
        let mut c = Clocks::new(MoveLimit::Clock(tc), 3);
        let l = c.limits(1);
        assert_eq!(l.time, vec![Some(ms(1000)); 3]);
        assert_eq!(l.inc, vec![ms(100); 3]);
        assert_eq!(l.movestogo, Some(2));
        c.charge(1, ms(300));
        assert_eq!(c.left(1), ms(800));
        assert_eq!(c.limits(1).movestogo, Some(1));
        // The second move ends the period: 800 - 300 + 100 + 1000.
        c.charge(1, ms(300));
        assert_eq!(c.left(1), ms(1600));
        assert_eq!(c.limits(1).movestogo, Some(2));
        assert_eq!(c.left(0), ms(1000));
        assert_eq!(c.allowed(0, ms(50), ms(9)), ms(1050));
        // Past the clock within the margin: zero, then the increment.
        c.charge(0, ms(1040));
        assert_eq!(c.left(0), ms(100));
        let m = Clocks::new(MoveLimit::MoveTime(ms(100)), 2);
        assert_eq!(m.allowed(1, ms(50), ms(9)), ms(150));
        assert_eq!(m.limits(1).movetime, Some(ms(100)));
        let d = Clocks::new(MoveLimit::Depth(2), 2);
        assert_eq!(d.allowed(1, ms(50), ms(9)), ms(9));
        assert_eq!(d.limits(0).depth, Some(2));
    }
}
