//! A whole match: which engines play which seats of which game on which opening, games in
//! parallel on worker threads, the results gathered in one place as they end, and the SPRT
//! stopping the match early.
//!
//! Games come in rounds on one opening each: between two engines a pair with the colours
//! swapped, between three the six orders of the seats. `--games` is rounded up to whole
//! rounds. Each worker thread keeps its own players (external programs stay running from game
//! to game and are started again after a fault).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, OnceLock};
use std::time::Duration;

use myrmidon_rules::DynGame;

use crate::clock::MoveLimit;
use crate::openings::{random_opening, Opening};
use crate::player::{new_player, Player};
use crate::referee::{play_game, GameRules, Played};
use crate::spec::{EngineKind, EngineSpec};
use crate::stats::Sprt;
use crate::summary::{Tally, Verdict};
use crate::uci::{UciEngine, HANDSHAKE_TIMEOUT};

/// Where the rounds start.
#[derive(Clone, Debug)]
pub enum Openings {
    /// Every round from the match's start position.
    Start,
    /// Round `r` from opening `r` modulo the list's length.
    List(Vec<Opening>),
    /// Round `r` from a balanced random opening of this many plies (seeded by the match seed
    /// and `r`).
    Random(usize),
}

/// A match to play.
pub struct MatchConfig {
    pub game: &'static dyn DynGame,
    /// The position string the games start from when no opening says otherwise.
    pub start: String,
    /// One engine per seat, in the order given.
    pub engines: Vec<EngineSpec>,
    /// At least this many games (rounded up to whole rounds).
    pub games: usize,
    pub rules: GameRules,
    pub openings: Openings,
    /// Games played at once.
    pub concurrency: usize,
    pub sprt: Option<Sprt>,
    pub seed: u64,
}

/// A game that ended.
#[derive(Clone)]
pub struct Finished {
    /// 0-based, in schedule order.
    pub index: usize,
    pub round: usize,
    /// The engine (index in the config) in each seat.
    pub seats: Vec<usize>,
    pub opening: Opening,
    pub played: Played,
}

/// The orders of the seats in a round: every permutation of the engines, in lexicographic order
/// (two: `[0, 1]`, `[1, 0]`).
pub fn seat_orders(players: usize) -> Vec<Vec<usize>> {
    fn permute(rest: &mut Vec<usize>, current: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if rest.is_empty() {
            out.push(current.clone());
            return;
        }
        for i in 0..rest.len() {
            let e = rest.remove(i);
            current.push(e);
            permute(rest, current, out);
            current.pop();
            rest.insert(i, e);
        }
    }
    let mut out = Vec::new();
    permute(&mut (0..players).collect(), &mut Vec::new(), &mut out);
    out
}

/// splitmix64: a well-mixed 64-bit value from two.
pub fn mix(a: u64, b: u64) -> u64 {
    let mut z = a ^ b.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl MatchConfig {
    /// The number of seats of the game.
    pub fn seats(&self) -> usize {
        self.game.info().players.len()
    }

    /// How many games will be played (without an SPRT stop): `games` rounded up to whole
    /// rounds.
    pub fn total_games(&self) -> usize {
        let per_round = seat_orders(self.seats()).len();
        self.games.max(1).div_ceil(per_round) * per_round
    }

    /// Checks what can be checked before the first game: one engine per seat, the start
    /// position, and that every external engine starts and answers `uci` and `isready`.
    pub fn check(&self) -> Result<(), String> {
        let seats = self.seats();
        let info = self.game.info();
        if self.engines.len() != seats {
            return Err(format!(
                "{} is played by {seats} players: give --engine {seats} times (got {})",
                info.id,
                self.engines.len()
            ));
        }
        if self.concurrency == 0 {
            return Err("--concurrency must be at least 1".to_string());
        }
        if self.sprt.is_some() && seats != 2 {
            return Err(format!(
                "--sprt is for two-player games; {} has {seats} players",
                info.id
            ));
        }
        let start = self
            .game
            .new_game_at(&self.start)
            .map_err(|e| format!("bad start position: {e}"))?;
        if start.outcome().is_some() {
            return Err("the game is already over in the start position".to_string());
        }
        for spec in &self.engines {
            if let EngineKind::External(argv) = &spec.kind {
                if self.rules.limit == MoveLimit::Unlimited {
                    return Err(format!(
                        "engine {} is an external engine: give --movetime, --depth, --nodes or \
                         --tc (only built-in players play without a limit)",
                        spec.name
                    ));
                }
                match UciEngine::start(spec, argv, info.id, HANDSHAKE_TIMEOUT) {
                    Ok(engine) => engine.quit(),
                    Err(f) => {
                        return Err(format!(
                            "engine {} does not start: {}",
                            spec.name,
                            f.detail()
                        ))
                    }
                }
            }
        }
        Ok(())
    }

    /// An empty tally for this match.
    pub fn tally(&self) -> Tally {
        let names: Vec<String> = self.engines.iter().map(|e| e.name.clone()).collect();
        Tally::new(
            self.game.info().id,
            self.game.info().players,
            &names,
            self.sprt,
            self.rules.limit.describe(),
            self.rules.limit.tag(),
        )
    }
}

/// Plays the match. `observe` sees each game as it ends, with the tally that includes it (it
/// writes records, draws progress); an error from it stops the match. Returns the final tally.
/// Once the SPRT reaches a verdict no new game starts, and games still being played when it
/// does are not counted.
pub fn run_match(
    config: &MatchConfig,
    observe: &mut dyn FnMut(&Finished, &Tally) -> Result<(), String>,
) -> Result<Tally, String> {
    config.check()?;
    let game = config.game;
    let id = game.info().id;
    let seats = config.seats();
    let orders = seat_orders(seats);
    let total = config.total_games();
    let rounds = total / orders.len();
    let standard_start = game
        .new_game(&Default::default())
        .map(|r| r.start_string())
        .unwrap_or_default();
    let base = game
        .new_game_at(&config.start)
        .map_err(|e| format!("bad start position: {e}"))?;
    let random_openings: Vec<OnceLock<Opening>> = match config.openings {
        Openings::Random(_) => (0..rounds).map(|_| OnceLock::new()).collect(),
        _ => Vec::new(),
    };
    let opening_of = |round: usize| -> Opening {
        match &config.openings {
            Openings::Start => Opening {
                start: config.start.clone(),
                moves: Vec::new(),
            },
            Openings::List(list) => list[round % list.len()].clone(),
            Openings::Random(plies) => random_openings[round]
                .get_or_init(|| {
                    random_opening(game, &*base, *plies, mix(config.seed, round as u64))
                })
                .clone(),
        }
    };
    let margins: Vec<Duration> = config.engines.iter().map(|e| e.time_margin).collect();
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let mut tally = config.tally();
    let (tx, rx) = mpsc::channel::<Result<Finished, String>>();
    std::thread::scope(|scope| -> Result<(), String> {
        for _ in 0..config.concurrency.min(total) {
            let tx = tx.clone();
            let (next, stop, orders, margins) = (&next, &stop, &orders, &margins);
            let opening_of = &opening_of;
            let standard_start = &standard_start;
            scope.spawn(move || {
                let mut players: Vec<Option<Box<dyn Player>>> = Vec::new();
                for spec in &config.engines {
                    match new_player(spec, id, seats) {
                        Ok(p) => players.push(Some(p)),
                        Err(e) => {
                            let _ = tx.send(Err(format!("engine {}: {e}", spec.name)));
                            return;
                        }
                    }
                }
                loop {
                    if stop.load(Ordering::Relaxed) {
                        return;
                    }
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= total {
                        return;
                    }
                    let round = index / orders.len();
                    let order = &orders[index % orders.len()];
                    let opening = opening_of(round);
                    let mut taken: Vec<Box<dyn Player>> = order
                        .iter()
                        .map(|&e| players[e].take().expect("each engine plays one seat"))
                        .collect();
                    let seeds: Vec<u64> = order
                        .iter()
                        .map(|&e| mix(mix(config.seed, index as u64), e as u64))
                        .collect();
                    let margins: Vec<Duration> = order.iter().map(|&e| margins[e]).collect();
                    let played = play_game(
                        game,
                        &opening,
                        standard_start,
                        &config.rules,
                        &mut taken,
                        &margins,
                        &seeds,
                    );
                    for (&e, p) in order.iter().zip(taken) {
                        players[e] = Some(p);
                    }
                    let finished = played.map(|played| Finished {
                        index,
                        round,
                        seats: order.clone(),
                        opening,
                        played,
                    });
                    if tx.send(finished).is_err() {
                        return;
                    }
                }
            });
        }
        drop(tx);
        for finished in rx {
            if tally.verdict.is_some() {
                continue;
            }
            let finished = match finished {
                Ok(f) => f,
                Err(e) => {
                    stop.store(true, Ordering::Relaxed);
                    return Err(e);
                }
            };
            let verdict: Option<Verdict> = tally.add(
                finished.round,
                &finished.seats,
                &finished.played.points,
                &finished.played.faults,
            );
            if verdict.is_some() {
                stop.store(true, Ordering::Relaxed);
            }
            if let Err(e) = observe(&finished, &tally) {
                stop.store(true, Ordering::Relaxed);
                return Err(e);
            }
        }
        Ok(())
    })?;
    Ok(tally)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seat_orders_are_every_permutation() {
        assert_eq!(seat_orders(2), vec![vec![0, 1], vec![1, 0]]);
        let three = seat_orders(3);
        assert_eq!(three.len(), 6);
        for order in &three {
            let mut sorted = order.clone();
            sorted.sort();
            assert_eq!(sorted, vec![0, 1, 2]);
        }
        let mut unique = three.clone();
        unique.dedup();
        assert_eq!(unique.len(), 6);
    }

    #[test]
    fn mixing_spreads_seeds() {
        assert_ne!(mix(1, 0), mix(1, 1));
        assert_ne!(mix(0, 1), mix(1, 0));
        assert_eq!(mix(5, 6), mix(5, 6));
    }
}
