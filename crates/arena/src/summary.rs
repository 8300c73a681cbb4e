//! The results of a match as they come in: per engine (wins, draws, losses, points, faults, by
//! seat), game pairs as a pentanomial, Elo and the SPRT; and the summary in cutechess's words
//! and as one JSON object.

use std::collections::HashMap;

use serde_json::{json, Value};

use crate::player::Fault;
use crate::stats::{score_line, Pentanomial, Score, Sprt, SprtStatus, Trinomial};

/// Which hypothesis the SPRT accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    H0,
    H1,
}

/// A count of wins, draws and losses, with the points they make.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Count {
    pub games: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub points: f64,
}

impl Count {
    /// Adds one game: a win is the whole point, a loss none, anything between a draw.
    fn add(&mut self, points: f64) {
        self.games += 1;
        self.points += points;
        if points >= 1.0 - 1e-9 {
            self.wins += 1;
        } else if points <= 1e-9 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    /// `W - L - D  [0.639] N`, as cutechess writes a score.
    fn cutechess(&self) -> String {
        let ratio = if self.games == 0 {
            0.0
        } else {
            self.points / self.games as f64
        };
        format!(
            "{} - {} - {}  [{ratio:.3}] {}",
            self.wins, self.losses, self.draws, self.games
        )
    }
}

/// One engine's results.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EngineTally {
    pub name: String,
    pub total: Count,
    /// Games lost by a crash, on time, by an illegal move.
    pub crashes: u64,
    pub time_losses: u64,
    pub illegal_moves: u64,
    /// By seat (turn order).
    pub seats: Vec<Count>,
}

/// The results of a match so far.
#[derive(Clone, Debug)]
pub struct Tally {
    pub game: &'static str,
    /// The seats' names (`White`, `Black`).
    pub seat_names: Vec<&'static str>,
    pub engines: Vec<EngineTally>,
    pub games: u64,
    /// Two players: game pairs by the first engine's points in the pair (0, ½, 1, 1½, 2).
    pub pentanomial: [u64; 5],
    /// Each engine's points game by game (for the three-player summary).
    pub scores: Vec<Score>,
    /// Points of the first engine in pairs still waiting for their second game.
    open_pairs: HashMap<usize, f64>,
    pub sprt: Option<Sprt>,
    pub verdict: Option<Verdict>,
    /// A description of the time control, for the text.
    pub limit: String,
    /// The records' `[TimeControl]` tag.
    pub time_control: String,
}

impl Tally {
    pub fn new(
        game: &'static str,
        seat_names: &[&'static str],
        names: &[String],
        sprt: Option<Sprt>,
        limit: String,
        time_control: String,
    ) -> Tally {
        Tally {
            game,
            seat_names: seat_names.to_vec(),
            engines: names
                .iter()
                .map(|n| EngineTally {
                    name: n.clone(),
                    seats: vec![Count::default(); seat_names.len()],
                    ..EngineTally::default()
                })
                .collect(),
            games: 0,
            scores: vec![Score::new(); names.len()],
            pentanomial: [0; 5],
            open_pairs: HashMap::new(),
            sprt,
            verdict: None,
            limit,
            time_control,
        }
    }

    fn two_players(&self) -> bool {
        self.seat_names.len() == 2 && self.engines.len() == 2
    }

    /// Adds a finished game of `round` where `seats[s]` is the engine in seat `s`, with the
    /// points and faults of each seat. Returns the SPRT's verdict if this game reached one.
    pub fn add(
        &mut self,
        round: usize,
        seats: &[usize],
        points: &[f64],
        faults: &[Option<Fault>],
    ) -> Option<Verdict> {
        self.games += 1;
        for (seat, &engine) in seats.iter().enumerate() {
            let e = &mut self.engines[engine];
            e.total.add(points[seat]);
            e.seats[seat].add(points[seat]);
            // Points always lie in 0..=1 (`GameResult::points`).
            let _ = self.scores[engine].add(points[seat]);
            match &faults[seat] {
                Some(Fault::Crash(_)) => e.crashes += 1,
                Some(Fault::Timeout(_)) => e.time_losses += 1,
                Some(Fault::Illegal(_)) => e.illegal_moves += 1,
                None => {}
            }
        }
        if !self.two_players() {
            return None;
        }
        let first = seats
            .iter()
            .position(|&e| e == 0)
            .map_or(0.0, |s| points[s]);
        match self.open_pairs.remove(&round) {
            None => {
                self.open_pairs.insert(round, first);
                None
            }
            Some(other) => {
                let pair = ((other + first) * 2.0).round().clamp(0.0, 4.0) as usize;
                self.pentanomial[pair] += 1;
                self.check_sprt()
            }
        }
    }

    fn check_sprt(&mut self) -> Option<Verdict> {
        if self.verdict.is_some() {
            return self.verdict;
        }
        let llr = self.llr()?;
        self.verdict = match self.sprt?.status(llr) {
            SprtStatus::AcceptH1 => Some(Verdict::H1),
            SprtStatus::AcceptH0 => Some(Verdict::H0),
            SprtStatus::Continue => None,
        };
        self.verdict
    }

    /// The first engine's games against the second, one by one (two players).
    pub fn trinomial(&self) -> Option<Trinomial> {
        let t = &self.engines[0].total;
        self.two_players()
            .then(|| Trinomial::new(t.wins, t.draws, t.losses))
    }

    /// The first engine's Elo against the second and its 95 % margin from the games one by
    /// one, as cutechess prints them (two players, at least one game).
    pub fn elo(&self) -> Option<(f64, f64)> {
        let e = self.trinomial()?.elo()?;
        Some((e.elo, e.margin))
    }

    /// The SPRT's log-likelihood ratio on the game pairs, if there is an SPRT.
    pub fn llr(&self) -> Option<f64> {
        let sprt = self.sprt?;
        self.two_players()
            .then(|| sprt.llr(&Pentanomial(self.pentanomial)))
    }

    /// One engine's points per game with a 95 % margin (for three players).
    pub fn points_per_game(&self, engine: usize) -> Option<(f64, f64)> {
        let score = self.scores.get(engine)?;
        Some((score.mean()?, score.margin()?))
    }

    /// One line for the terminal while the match runs (beside a bar that counts the games):
    /// the score so far, the Elo difference and the LLR, or each engine's points.
    pub fn progress(&self) -> String {
        let mut line = String::new();
        if self.two_players() {
            let t = &self.engines[0].total;
            line.push_str(&format!(
                "{} vs {}: {}",
                self.engines[0].name,
                self.engines[1].name,
                t.cutechess()
            ));
            if let Some((elo, margin)) = self.elo() {
                line.push_str(&format!(", Elo {elo:.1} +/- {margin:.1}"));
            }
            if let Some(llr) = self.llr() {
                line.push_str(&format!(", llr {llr:.2}"));
            }
        } else {
            let scores: Vec<String> = self
                .engines
                .iter()
                .map(|e| format!("{} {}", e.name, trim(e.total.points)))
                .collect();
            line.push_str(&format!("points: {}", scores.join(", ")));
        }
        line
    }

    /// The summary in plain text, as cutechess prints it.
    pub fn text(&self) -> String {
        let mut out = String::new();
        if self.two_players() {
            let (a, b) = (&self.engines[0], &self.engines[1]);
            let games = self.trinomial().unwrap_or_default();
            out.push_str(&score_line(&a.name, &b.name, &games));
            out.push('\n');
            for (seat, name) in self.seat_names.iter().enumerate() {
                out.push_str(&format!(
                    "...      {} playing {name}: {}\n",
                    a.name,
                    a.seats[seat].cutechess()
                ));
            }
            let by_seat = Count {
                games: a.total.games,
                wins: a.seats[0].wins + b.seats[0].wins,
                losses: a.seats[0].losses + b.seats[0].losses,
                draws: a.seats[0].draws + b.seats[0].draws,
                points: a.seats[0].points + b.seats[0].points,
            };
            out.push_str(&format!(
                "...      {} vs {}: {}\n",
                self.seat_names[0],
                self.seat_names[1],
                by_seat.cutechess()
            ));
            if let Some(line) = games.elo_line() {
                out.push_str(&line);
                out.push('\n');
            }
            let p = self.pentanomial;
            out.push_str(&format!(
                "Ptnml(0-2): [{}, {}, {}, {}, {}]\n",
                p[0], p[1], p[2], p[3], p[4]
            ));
            if let (Some(sprt), Some(llr)) = (self.sprt, self.llr()) {
                out.push_str(&sprt.cutechess_line(llr));
                out.push('\n');
            }
        } else {
            let names: Vec<&str> = self.engines.iter().map(|e| e.name.as_str()).collect();
            out.push_str(&format!(
                "Results of {} ({}, {} games, {}):\n",
                names.join(", "),
                self.game,
                self.games,
                self.limit
            ));
            let width = names.iter().map(|n| n.len()).max().unwrap_or(0).max(6);
            let mut header = format!(
                "{:width$}  {:>6}  {:>14}  {:>4}  {:>5}  {:>6}",
                "Engine", "Points", "Per game", "Wins", "Draws", "Losses"
            );
            for seat in &self.seat_names {
                header.push_str(&format!("  {:>11}", format!("{seat} W-D-L")));
            }
            out.push_str(&header);
            out.push('\n');
            for (i, e) in self.engines.iter().enumerate() {
                let per_game = match self.points_per_game(i) {
                    Some((mean, margin)) => format!("{mean:.3} +/- {margin:.3}"),
                    None => "-".to_string(),
                };
                let mut row = format!(
                    "{:width$}  {:>6}  {:>14}  {:>4}  {:>5}  {:>6}",
                    e.name,
                    trim(e.total.points),
                    per_game,
                    e.total.wins,
                    e.total.draws,
                    e.total.losses
                );
                for s in &e.seats {
                    row.push_str(&format!(
                        "  {:>11}",
                        format!("{}-{}-{}", s.wins, s.draws, s.losses)
                    ));
                }
                out.push_str(&row);
                out.push('\n');
            }
        }
        for e in &self.engines {
            if e.crashes + e.time_losses + e.illegal_moves > 0 {
                out.push_str(&format!(
                    "{} lost {} by crash, {} on time, {} by illegal move\n",
                    e.name,
                    plural(e.crashes, "game"),
                    plural(e.time_losses, "game"),
                    plural(e.illegal_moves, "game")
                ));
            }
        }
        out
    }

    /// The summary as one JSON object: `games`, `engines` (in the order given: `name`, `wins`,
    /// `draws`, `losses`, `score`, `crashes`, `time_losses`, `illegal_moves`, and `seats`),
    /// `elo`, `elo_margin`, `pentanomial`, `llr`, `sprt`, and more.
    pub fn json(&self) -> Value {
        let finite = |v: f64| if v.is_finite() { json!(v) } else { Value::Null };
        let engines: Vec<Value> = self
            .engines
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let seats: Vec<Value> = e
                    .seats
                    .iter()
                    .zip(&self.seat_names)
                    .map(|(s, name)| {
                        json!({"seat": name, "games": s.games, "wins": s.wins, "draws": s.draws,
                               "losses": s.losses, "score": points(s.points)})
                    })
                    .collect();
                let (per_game, margin) = self
                    .points_per_game(i)
                    .map_or((Value::Null, Value::Null), |(m, d)| (finite(m), finite(d)));
                json!({
                    "name": e.name,
                    "wins": e.total.wins,
                    "draws": e.total.draws,
                    "losses": e.total.losses,
                    "score": points(e.total.points),
                    "crashes": e.crashes,
                    "time_losses": e.time_losses,
                    "illegal_moves": e.illegal_moves,
                    "games": e.total.games,
                    "seats": seats,
                    "points_per_game": per_game,
                    "points_per_game_margin": margin,
                })
            })
            .collect();
        let games = self.trinomial();
        let elo = games.and_then(|g| g.elo());
        let penta = Pentanomial(self.pentanomial)
            .elo()
            .filter(|_| self.two_players());
        json!({
            "games": self.games,
            "engines": engines,
            "elo": elo.map_or(Value::Null, |e| finite(e.elo)),
            "elo_margin": elo.map_or(Value::Null, |e| finite(e.margin)),
            "pentanomial": if self.two_players() { json!(self.pentanomial) } else { Value::Null },
            "llr": self.llr().map_or(Value::Null, finite),
            "sprt": match self.verdict {
                Some(Verdict::H0) => json!("H0"),
                Some(Verdict::H1) => json!("H1"),
                None => Value::Null,
            },
            "sprt_bounds": self.sprt.map_or(Value::Null, |s| {
                json!({"elo0": s.elo0(), "elo1": s.elo1(), "alpha": s.alpha(), "beta": s.beta(),
                       "model": s.model().name(), "lower": s.lower_bound(),
                       "upper": s.upper_bound()})
            }),
            "los": games.filter(|g| g.games() > 0).map_or(Value::Null, |g| finite(g.los())),
            "draw_ratio": games.and_then(|g| g.draw_ratio()).map_or(Value::Null, finite),
            "nelo": elo.map_or(Value::Null, |e| finite(e.nelo)),
            "elo_pentanomial": penta.map_or(Value::Null, |e| finite(e.elo)),
            "elo_pentanomial_margin": penta.map_or(Value::Null, |e| finite(e.margin)),
            "game": self.game,
            "time_control": self.time_control,
        })
    }
}

/// A sum of points to 9 decimals: thirds and halves added up in floating point come out as
/// `25.999999999999993`; the exact sum is a multiple of 1/6.
fn points(v: f64) -> f64 {
    (v * 1e9).round() / 1e9
}

fn plural(n: u64, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// Points without needless decimals: `3`, `2.5`, `1.333`.
fn trim(v: f64) -> String {
    let s = format!("{v:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(sprt: Option<Sprt>) -> Tally {
        Tally::new(
            "g",
            &["White", "Black"],
            &["A".to_string(), "B".to_string()],
            sprt,
            "depth 1".to_string(),
            "-".to_string(),
        )
    }

    #[test]
    fn pairs_make_the_pentanomial_and_seats_are_counted() {
        let mut t = tally(None);
        // Round 0: A wins as White, draws as Black: a pair worth 1.5.
        t.add(0, &[0, 1], &[1.0, 0.0], &[None, None]);
        assert_eq!(t.pentanomial, [0; 5]);
        t.add(0, &[1, 0], &[0.5, 0.5], &[None, None]);
        assert_eq!(t.pentanomial, [0, 0, 0, 1, 0]);
        // Round 1, out of order across rounds: B wins both.
        t.add(2, &[0, 1], &[0.0, 1.0], &[None, None]);
        t.add(
            1,
            &[1, 0],
            &[1.0, 0.0],
            &[None, Some(Fault::Crash("x".into()))],
        );
        t.add(
            1,
            &[0, 1],
            &[0.0, 1.0],
            &[Some(Fault::Timeout("x".into())), None],
        );
        assert_eq!(t.pentanomial, [1, 0, 0, 1, 0]);
        let a = &t.engines[0];
        assert_eq!((a.total.wins, a.total.draws, a.total.losses), (1, 1, 3));
        assert_eq!(a.total.points, 1.5);
        assert_eq!((a.crashes, a.time_losses, a.illegal_moves), (1, 1, 0));
        assert_eq!(a.seats[0].games, 3);
        assert_eq!(a.seats[1].games, 2);
        let text = t.text();
        assert!(
            text.starts_with("Score of A vs B: 1 - 3 - 1  [0.300] 5\n"),
            "{text}"
        );
        assert!(
            text.contains("...      A playing White: 1 - 2 - 0  [0.333] 3"),
            "{text}"
        );
        assert!(text.contains("Ptnml(0-2): [1, 0, 0, 1, 0]"), "{text}");
        assert!(text.contains("A lost 1 game by crash, 1 game on time, 0 games by illegal move"));
        let progress = t.progress();
        assert!(
            progress.starts_with("A vs B: 1 - 3 - 1  [0.300] 5, Elo -"),
            "{progress}"
        );
        let j = t.json();
        assert_eq!(j["games"], 5);
        assert_eq!(j["engines"][0]["name"], "A");
        assert_eq!(j["engines"][0]["crashes"], 1);
        assert_eq!(j["engines"][1]["wins"], 3);
        assert_eq!(j["pentanomial"], json!([1, 0, 0, 1, 0]));
        assert_eq!(j["llr"], Value::Null);
        assert_eq!(j["sprt"], Value::Null);
        let (elo, _) = t.elo().unwrap();
        assert!(elo < 0.0);
    }

    #[test]
    fn the_sprt_stops_on_a_lopsided_match() {
        let sprt: Sprt = "elo0=0 elo1=50".parse().unwrap();
        let mut t = tally(Some(sprt));
        let mut verdict = None;
        for round in 0..1000 {
            t.add(round, &[0, 1], &[1.0, 0.0], &[None, None]);
            verdict = t.add(round, &[1, 0], &[0.5, 0.5], &[None, None]);
            if verdict.is_some() {
                break;
            }
        }
        assert_eq!(verdict, Some(Verdict::H1));
        assert!(t.games < 100, "{}", t.games);
        let text = t.text();
        assert!(text.contains("H1 was accepted"), "{text}");
        assert_eq!(t.json()["sprt"], "H1");
    }

    #[test]
    fn three_players_get_a_table() {
        let mut t = Tally::new(
            "g3",
            &["Black", "Red", "Green"],
            &["A".to_string(), "B".to_string(), "C".to_string()],
            None,
            "depth 1".to_string(),
            "-".to_string(),
        );
        t.add(0, &[0, 1, 2], &[1.0, 0.0, 0.0], &[None, None, None]);
        t.add(0, &[2, 0, 1], &[0.5, 0.5, 0.0], &[None, None, None]);
        let a = &t.engines[0];
        assert_eq!((a.total.wins, a.total.draws, a.total.losses), (1, 1, 0));
        assert_eq!(a.seats[1].draws, 1);
        let text = t.text();
        assert!(text.contains("Black W-D-L"), "{text}");
        assert_eq!(t.progress(), "points: A 1.5, B 0, C 0.5");
        let j = t.json();
        assert_eq!(j["elo"], Value::Null);
        assert_eq!(j["pentanomial"], Value::Null);
        assert_eq!(j["engines"][2]["score"], 0.5);
        // Thirds and halves add up to whole points in the summary (in floating point, B's
        // 1/3 + 1/3 + 1/3 + 1/2, four times, is 5.999999999999999).
        for _ in 0..4 {
            for _ in 0..3 {
                t.add(1, &[0, 1, 2], &[1.0 / 3.0; 3], &[None, None, None]);
            }
            t.add(1, &[0, 1, 2], &[0.0, 0.5, 0.5], &[None, None, None]);
        }
        assert_ne!(t.engines[1].total.points, 6.0);
        assert_eq!(t.json()["engines"][1]["score"], 6.0);
    }
}
