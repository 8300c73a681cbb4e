//! The engine's state between commands (the game, the position, the options, the player, the
//! search under way) and what each command does to it.

use std::io::BufRead;
use std::time::Duration;

use myrmidon_engine::players::{Algorithm, MAX_LEVEL, MIN_LEVEL};
use myrmidon_engine::{new_searcher, DynSearcher, Limits, Options, PlayerSpec};
use myrmidon_rules::{registry, DynGame, DynRecord, Settings};

use super::command::{self, shorten, Command, Go};
use super::search::Running;
use super::Out;
use crate::typed;

/// The most lines `MultiPV` may ask for.
pub const MAX_MULTIPV: u32 = 256;

/// The options `uci` lists, for the message about an unknown one.
const OPTIONS: &str = "UCI_Variant, Player, Skill Level, Algorithm, Hash, Threads, MultiPV, Ponder";

pub struct Session {
    out: Out,
    game: &'static dyn DynGame,
    record: Box<dyn DynRecord>,
    spec: PlayerSpec,
    options: Options,
    /// The player, between searches (built when first needed).
    searcher: Option<Box<dyn DynSearcher>>,
    /// The search under way, or finished but not yet joined.
    running: Option<Running>,
}

impl Session {
    /// A session of `game`, from its start position, writing to `out`.
    pub fn new(game: &'static dyn DynGame, out: Out) -> Self {
        Session {
            out,
            game,
            record: start_of(game),
            spec: default_player(),
            options: Options::default(),
            searcher: None,
            running: None,
        }
    }

    /// Reads and carries out commands until `quit` or the end of the input; then stops the
    /// search (which writes its `bestmove`) and returns.
    pub fn run(&mut self, mut input: impl BufRead) {
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match input.read_until(b'\n', &mut buf) {
                Ok(0) => break,
                Ok(_) => {}
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    self.out.error(&format!("cannot read the input: {e}"));
                    break;
                }
            }
            let line = String::from_utf8_lossy(&buf);
            if !self.handle(&line) || self.out.broken() {
                break;
            }
        }
        if let Some(running) = self.running.take() {
            running.stop();
            self.searcher = running.join();
        }
    }

    /// Carries out one line. False for `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        self.reap();
        let parsed = match command::parse(line) {
            Ok(p) => p,
            Err(e) => {
                self.out.error(&e);
                return true;
            }
        };
        if let Some(warning) = &parsed.warning {
            self.out.error(warning);
        }
        match parsed.command {
            Command::Uci => self.uci(),
            Command::Debug(_) => {}
            Command::IsReady => self.out.line("readyok"),
            Command::Register => self.out.info("myrmidon needs no registration"),
            Command::SetOption { name, value } => self.setoption(&name, value.as_deref()),
            Command::UciNewGame => {
                if !self.busy("ucinewgame") {
                    if let Some(s) = self.searcher.as_mut() {
                        s.new_game();
                    }
                }
            }
            Command::Position { fen, moves } => self.position(fen.as_deref(), &moves),
            Command::Go(go) => self.go(&go),
            Command::Perft(depth) => self.perft(depth),
            Command::Stop => {
                if let Some(r) = &self.running {
                    r.stop();
                }
            }
            Command::PonderHit => {
                if !self.running.as_ref().is_some_and(|r| r.ponderhit()) {
                    self.out
                        .error("ponderhit: no search is pondering (it is ignored)");
                }
            }
            Command::Quit => return false,
            Command::Display => self.display(),
        }
        true
    }

    /// Takes back the player from a search that has finished.
    fn reap(&mut self) {
        if self.running.as_ref().is_some_and(|r| r.done()) {
            let running = self.running.take().unwrap();
            self.searcher = running.join();
        }
    }

    /// True (with an error sent) if a search is running and `what` must wait for its end. A
    /// search that was told to stop is waited for: its `bestmove` is on its way.
    fn busy(&mut self, what: &str) -> bool {
        match &self.running {
            None => false,
            Some(r) if r.done() || r.stopping() => {
                let running = self.running.take().unwrap();
                self.searcher = running.join();
                false
            }
            Some(_) => {
                self.out.error(&format!(
                    "{what}: a search is running; send stop and wait for its bestmove first"
                ));
                true
            }
        }
    }

    fn uci(&self) {
        self.out
            .line(&format!("id name myrmidon {}", env!("CARGO_PKG_VERSION")));
        self.out.line("id author the myrmidon developers");
        let vars: Vec<String> = registry::games()
            .iter()
            .map(|g| format!("var {}", g.info().id))
            .collect();
        self.out.line(&format!(
            "option name UCI_Variant type combo default {} {}",
            self.game.info().id,
            vars.join(" ")
        ));
        self.out.line(&format!(
            "option name Player type string default {}",
            default_player()
        ));
        self.out.line(&format!(
            "option name Skill Level type spin default {MAX_LEVEL} min {MIN_LEVEL} max {MAX_LEVEL}"
        ));
        let algorithms: Vec<String> = Algorithm::ALL.iter().map(|a| format!("var {a}")).collect();
        self.out.line(&format!(
            "option name Algorithm type combo default auto var auto {}",
            algorithms.join(" ")
        ));
        self.out.line(&format!(
            "option name Hash type spin default {} min 1 max {}",
            Options::DEFAULT_HASH_MB,
            Options::MAX_HASH_MB
        ));
        self.out.line(&format!(
            "option name Threads type spin default 1 min 1 max {}",
            Options::MAX_THREADS
        ));
        self.out.line(&format!(
            "option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"
        ));
        self.out.line("option name Ponder type check default false");
        self.out.line("uciok");
    }

    fn setoption(&mut self, name: &str, value: Option<&str>) {
        if self.busy("setoption") {
            return;
        }
        let key = name.to_ascii_lowercase();
        if key == "variantpath" {
            self.out.info(
                "myrmidon knows its variants: VariantPath is ignored (choose one with UCI_Variant)",
            );
            return;
        }
        let known = [
            "uci_variant",
            "player",
            "skill level",
            "algorithm",
            "hash",
            "threads",
            "multipv",
            "ponder",
        ];
        if !known.contains(&key.as_str()) {
            self.out.error(&format!(
                "unknown option `{}` (the options: {OPTIONS}); ignored",
                shorten(name)
            ));
            return;
        }
        let Some(value) = value.filter(|v| !v.is_empty()) else {
            self.out
                .error(&format!("setoption {name}: the value is missing"));
            return;
        };
        match key.as_str() {
            "uci_variant" => {
                let found = registry::games()
                    .iter()
                    .find(|g| g.info().id.eq_ignore_ascii_case(value));
                match found {
                    Some(&game) => {
                        self.game = game;
                        self.record = start_of(game);
                        self.searcher = None;
                    }
                    None => {
                        let ids: Vec<&str> =
                            registry::games().iter().map(|g| g.info().id).collect();
                        self.out.error(&format!(
                            "UCI_Variant: unknown variant `{}` (the variants: {}); still {}",
                            shorten(value),
                            ids.join(", "),
                            self.game.info().id
                        ));
                    }
                }
            }
            "player" => match value.parse::<PlayerSpec>() {
                Ok(spec) => {
                    self.spec = spec;
                    self.searcher = None;
                }
                Err(e) => self.out.error(&format!("Player: {e}; still {}", self.spec)),
            },
            // The strong search's algorithm (for three players; with two they play alike);
            // `auto`: the game's own.
            "algorithm" => match if value.trim().eq_ignore_ascii_case("auto") {
                Ok(None)
            } else {
                value.parse::<Algorithm>().map(Some)
            } {
                Ok(a) => {
                    let depth = match self.spec {
                        PlayerSpec::Search { depth, .. } => depth,
                        _ => None,
                    };
                    self.spec = PlayerSpec::Search {
                        depth,
                        algorithm: a,
                    };
                    self.searcher = None;
                }
                Err(e) => self.out.error(&format!(
                    "Algorithm: {e}, or auto; the player is still {}",
                    self.spec
                )),
            },
            // A level selects the level player (8: the search at full strength).
            "skill level" => match value.parse::<u8>() {
                Ok(level) if (MIN_LEVEL..=MAX_LEVEL).contains(&level) => {
                    self.spec = PlayerSpec::Level { level };
                    self.searcher = None;
                }
                _ => self.out.error(&format!(
                    "Skill Level: expected a whole number from {MIN_LEVEL} to {MAX_LEVEL}, not \
                     `{}`; the player is still {}",
                    shorten(value),
                    self.spec
                )),
            },
            "hash" => match value.parse::<usize>() {
                Ok(n) if (1..=Options::MAX_HASH_MB).contains(&n) => {
                    self.options.hash_mb = n;
                    if let Some(s) = self.searcher.as_mut() {
                        s.configure(&self.options);
                    }
                }
                _ => self.out.error(&format!(
                    "Hash: expected a size in MiB from 1 to {}, not `{}`; still {}",
                    Options::MAX_HASH_MB,
                    shorten(value),
                    self.options.hash_mb
                )),
            },
            "threads" => match value.parse::<usize>() {
                Ok(n) if (1..=Options::MAX_THREADS).contains(&n) => {
                    self.options.threads = n;
                    if let Some(s) = self.searcher.as_mut() {
                        s.configure(&self.options);
                    }
                }
                _ => self.out.error(&format!(
                    "Threads: expected a number of threads from 1 to {}, not `{}`; still {}",
                    Options::MAX_THREADS,
                    shorten(value),
                    self.options.threads
                )),
            },
            "multipv" => match value.parse::<u32>() {
                Ok(n) if (1..=MAX_MULTIPV).contains(&n) => {
                    self.options.multipv = n;
                    if let Some(s) = self.searcher.as_mut() {
                        s.configure(&self.options);
                    }
                }
                _ => self.out.error(&format!(
                    "MultiPV: expected a whole number from 1 to {MAX_MULTIPV}, not `{}`; still {}",
                    shorten(value),
                    self.options.multipv
                )),
            },
            "ponder" => {
                if !value.eq_ignore_ascii_case("true") && !value.eq_ignore_ascii_case("false") {
                    self.out.error(&format!(
                        "Ponder: expected true or false, not `{}`",
                        shorten(value)
                    ));
                }
            }
            _ => unreachable!("the known options are all handled"),
        }
    }

    fn position(&mut self, fen: Option<&str>, moves: &[String]) {
        if self.busy("position") {
            return;
        }
        let record = match fen {
            None => Ok(start_of(self.game)),
            Some(text) => self
                .game
                .new_game_at(text)
                .map_err(|e| format!("position fen: {e}; the position is unchanged")),
        };
        let mut record = match record {
            Ok(r) => r,
            Err(e) => return self.out.error(&e),
        };
        for (i, token) in moves.iter().enumerate() {
            if let Err(e) = play_token(&mut *record, token) {
                return self.out.error(&format!(
                    "position: move {} `{}`: {e}; the position is unchanged",
                    i + 1,
                    shorten(token)
                ));
            }
        }
        self.record = record;
    }

    fn go(&mut self, go: &Go) {
        if self.busy("go") {
            return;
        }
        let limits = match limits_of(go, self.record.player_names().len()) {
            Ok(l) => l,
            Err(e) => return self.out.error(&format!("{e}; no search started")),
        };
        if !go.searchmoves.is_empty() {
            self.out
                .info("searchmoves is not supported: every legal move is searched");
        }
        if go.mate.is_some() {
            self.out
                .info("go mate is not supported: searching as for a plain go");
        }
        if self.searcher.is_none() {
            match new_searcher(self.game.info().id, &self.spec, &self.options) {
                Ok(s) => self.searcher = Some(s),
                Err(e) => self.out.error(&format!("cannot build the player: {e}")),
            }
        }
        let record = self.record.clone_box();
        match Running::start(self.searcher.take(), record, limits, self.out.clone()) {
            Ok(r) => self.running = Some(r),
            Err(e) => {
                self.out
                    .error(&format!("cannot start the search thread: {e}"));
                let any = self.record.legal_moves().into_iter().next();
                match any.filter(|_| self.record.outcome().is_none()) {
                    Some(m) => self.out.line(&format!("bestmove {}", m.text)),
                    None => self.out.line("bestmove (none)"),
                }
            }
        }
    }

    /// `go perft N`: each legal move with its count, then `Nodes searched: N`, as Stockfish
    /// prints them. Runs on this thread, as in Stockfish.
    fn perft(&mut self, depth: u32) {
        if self.busy("go perft") {
            return;
        }
        let record = &*self.record;
        let total = if depth == 0 {
            typed::perft(record, 0)
        } else {
            typed::divide(record, depth, &|_| {}).map(|lines| {
                for (text, count) in &lines {
                    self.out.line(&format!("{text}: {count}"));
                }
                lines.iter().map(|l| l.1).sum()
            })
        };
        match total {
            Ok(n) => {
                self.out.line("");
                self.out.line(&format!("Nodes searched: {n}"));
                self.out.line("");
            }
            Err(e) => self.out.error(&format!("go perft: {e}")),
        }
    }

    /// `d`: the game, the position string and who is to move (or the result).
    fn display(&self) {
        let info = self.game.info();
        let record = &*self.record;
        self.out.info(&format!("game {} ({})", info.id, info.name));
        self.out
            .info(&format!("position {}", record.position_string()));
        match record.result() {
            Some(result) => self
                .out
                .info(&format!("game over: {}", result.describe(info.players))),
            None => {
                let p = record.to_move();
                let name = record.player_names().get(p as usize).copied();
                self.out.info(&format!(
                    "to move: {} (seat {}), {} legal moves",
                    name.unwrap_or("?"),
                    p + 1,
                    record.legal_moves().len()
                ));
            }
        }
        for e in record.eliminations() {
            self.out.info(&format!(
                "out: seat {} ({})",
                e.player + 1,
                e.describe(info.players)
            ));
        }
    }
}

/// The built-in player of the `Player` option by default.
/// The strongest player: the search (measured against alpha-beta in the note of issue 13).
fn default_player() -> PlayerSpec {
    PlayerSpec::Search {
        depth: None,
        algorithm: None,
    }
}

/// The start position of a game with its default settings.
fn start_of(game: &'static dyn DynGame) -> Box<dyn DynRecord> {
    game.new_game(&Settings::new())
        .expect("every game starts with its default settings")
}

/// The limits of a `go` in a game of `players` players.
fn limits_of(go: &Go, players: usize) -> Result<Limits, String> {
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
    for (p, word, t) in &go.times {
        time[seat(*p, word)?] = Some(*t);
    }
    for (p, word, t) in &go.incs {
        inc[seat(*p, word)?] = *t;
    }
    Ok(Limits {
        depth: go.depth,
        nodes: go.nodes,
        movetime: go.movetime,
        time,
        inc,
        movestogo: go.movestogo,
        infinite: go.infinite,
        ponder: go.ponder,
    })
}

/// Plays one token of a `position … moves` list: a move in the game's move text (any letter
/// case when that names one move), or `out:<seat>:<reason-id>`, a player of a game of three or
/// more leaving it (seat from 1), exactly as game records read them.
pub fn play_token(record: &mut dyn DynRecord, token: &str) -> Result<(), String> {
    myrmidon_rules::pgn::play_token(record, token).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn out_tokens() {
        let three = registry::games()
            .iter()
            .find(|g| g.info().players.len() == 3)
            .expect("a game of three");
        let mut record = start_of(*three);
        let first = record.to_move();
        assert!(play_token(&mut *record, "out:4:time")
            .unwrap_err()
            .contains("1 to 3"));
        assert!(play_token(&mut *record, "out:2:nap")
            .unwrap_err()
            .contains("\"nap\" is not a reason"));
        assert!(play_token(&mut *record, "out:2")
            .unwrap_err()
            .contains("out:<seat>"));
        play_token(&mut *record, "OUT:2:Time").unwrap();
        assert!(!record.players_in().contains(&1));
        assert_eq!(
            record.to_move(),
            first,
            "leaving out of turn changes no turn"
        );
        assert!(play_token(&mut *record, "out:2:resignation")
            .unwrap_err()
            .contains("has left already"));
        let two = registry::games()
            .iter()
            .find(|g| g.info().players.len() == 2)
            .expect("a game of two");
        let mut record = start_of(*two);
        assert!(play_token(&mut *record, "out:1:time")
            .unwrap_err()
            .contains("is a game of two"));
    }

    #[test]
    fn limits_by_seat() {
        let ms = Duration::from_millis;
        let go = Go {
            times: vec![(0, "wtime".into(), ms(100)), (2, "p3time".into(), ms(300))],
            incs: vec![(1, "binc".into(), ms(5))],
            depth: Some(2),
            ..Go::default()
        };
        let l = limits_of(&go, 3).unwrap();
        assert_eq!(l.time, vec![Some(ms(100)), None, Some(ms(300))]);
        assert_eq!(l.inc, vec![ms(0), ms(5), ms(0)]);
        assert_eq!(l.depth, Some(2));
        let e = limits_of(&go, 2).unwrap_err();
        assert!(e.contains("`p3time`") && e.contains("2 players"), "{e}");
    }
}
