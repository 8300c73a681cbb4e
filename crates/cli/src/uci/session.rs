//! The engine's state between commands (the game, the position, the options, the player, the
//! search under way) and what each command does to it.

use std::io::BufRead;

use myrmidon_engine::uci::{self, shorten, Command, Go};
use myrmidon_engine::{new_searcher, DynSearcher, Options, PlayerSpec};
use myrmidon_rules::{DynGame, DynRecord, Settings};

use super::options::settings;
use super::search::Running;
use super::Out;
use crate::perft;
use crate::typed;

/// What the options set, the game included (`super::options` holds their handlers).
pub struct Session {
    out: Out,
    pub(super) game: &'static dyn DynGame,
    pub(super) record: Box<dyn DynRecord>,
    pub(super) spec: PlayerSpec,
    pub(super) options: Options,
    /// The player, between searches (built when first needed).
    pub(super) searcher: Option<Box<dyn DynSearcher>>,
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
        let parsed = match uci::parse(line) {
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
        for setting in settings(self.game.info().id) {
            self.out.line(&setting.option.to_string());
        }
        self.out.line("uciok");
    }

    fn setoption(&mut self, name: &str, value: Option<&str>) {
        if self.busy("setoption") {
            return;
        }
        if name.eq_ignore_ascii_case("VariantPath") {
            self.out.info(
                "myrmidon knows its variants: VariantPath is ignored (choose one with UCI_Variant)",
            );
            return;
        }
        let all = settings(self.game.info().id);
        let Some(setting) = all.iter().find(|s| s.option.is(name)) else {
            let names: Vec<&str> = all.iter().map(|s| s.option.name.as_str()).collect();
            self.out.error(&format!(
                "unknown option `{}` (the options: {}); ignored",
                shorten(name),
                names.join(", ")
            ));
            return;
        };
        let name = &setting.option.name;
        let applied = setting
            .option
            .value(value)
            .and_then(|v| (setting.apply)(self, v));
        if let Err(e) = applied {
            let current = (setting.current)(self);
            self.out.error(&format!("{name}: {e}; still {current}"));
        }
    }

    /// Gives the player the options in force.
    pub(super) fn configure(&mut self) {
        if let Some(s) = self.searcher.as_mut() {
            s.configure(&self.options);
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
        let limits = match go.limits(self.record.player_names().len()) {
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
        if depth > perft::MAX_DEPTH {
            return self.out.error(&format!(
                "go perft: the depth must be at most {}, not {depth}",
                perft::MAX_DEPTH
            ));
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
            Some(result) => self.out.info(&format!(
                "game over: {}",
                result.describe(info.players, info.players_number)
            )),
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
                e.describe(info.players, info.players_number)
            ));
        }
    }
}

/// The built-in player of the `Player` option by default.
/// The strongest player: the search (measured against alpha-beta in the note of issue 13).
pub(super) fn default_player() -> PlayerSpec {
    PlayerSpec::Search {
        depth: None,
        algorithm: None,
    }
}

/// The start position of a game with its default settings.
pub(super) fn start_of(game: &'static dyn DynGame) -> Box<dyn DynRecord> {
    game.new_game(&Settings::new())
        .expect("every game starts with its default settings")
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
    use myrmidon_rules::registry;

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
}
