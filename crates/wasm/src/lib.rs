//! The rules and the engine of every game for JavaScript: the module the browser runs in a Web
//! Worker (`web/engine-worker.js`), built for `wasm32-unknown-unknown` by the server's build
//! script and embedded in the binary as `/engine.wasm`.
//!
//! One entry point, [`Session::call`]: a request in JSON, an answer in JSON (an object with
//! `"error"` when the request is refused; nothing here panics on bad input), and during a
//! search one JSON line per depth handed to a callback. The requests (`op`):
//!
//! * `games` → `[{"id", "players"}]`, in the registry's order;
//! * `new` `{game, position?, settings?, to_move?, moves?}` → a game's state (below) with its
//!   `handle` (`to_move`: that seat to move in the position, before the moves);
//! * `explore` `{game, position?, settings?, clear?, put?, to_move?, moves?}` → what the
//!   server's `POST /api/explore` answers (docs/api.md): a position set up by hand, its line
//!   played, and the pieces that may be put on its board; no game is kept;
//! * `state`, `undo`, `free` `{handle}`; `play` `{handle, move}` (move text, as the server's;
//!   a text differing from a legal move only in letter case is that move);
//! * `view` `{handle}` → the game as the server's game states show it (the board, the moves'
//!   cells: what a page draws a board from), with its `handle`;
//! * `resign` `{handle, seat}`: that seat resigns (with two players the other wins; with
//!   three it is out), as on the server;
//! * `record` `{handle, players?, event?, date?}` → `{"record"}`: the game as a game record
//!   (docs/records.md), as `POST /api/games` reads one back;
//! * `search` `{handle, depth?, nodes?, movetime?, multipv?, level?}` (one limit at least,
//!   since nothing interrupts a call): the engine of the server's analysis (level 8 unless
//!   given), one searcher per game keeping its transposition table from search to search;
//!   each depth's lines go to the callback as `{"depth", "seldepth", "multipv", "score",
//!   "first", "nodes", "time_ms", "pv"}` (`score` `{"cp": n}` or `{"mate": n}` for the player
//!   to move, `first` the same from seat 0's view with two players, else null), and the
//!   answer is `{"best", "lines"}` (`best` null once the game is over). `new_game` `{game}` forgets what that game's searcher learnt.
//!
//! A state is `{"handle", "game", "players", "start", "position", "to_move", "moves",
//! "legal", "outcome"}`: `legal` the legal move texts (empty once the game is over),
//! `outcome` null or `{"winner", "reason", "text"}` as in the server's game states.
//!
//! [`ffi`] is the WebAssembly interface: raw exports over the module's memory, the clock and
//! the callback imported from the page (`performance.now()`, `postMessage`).

use std::collections::HashMap;
use std::time::Duration;

use myrmidon_engine::{
    new_searcher, Control, DynSearcher, Limits, Options, PlayerSpec, Report, Score,
};
use myrmidon_rules::edit::Edit;
use myrmidon_rules::{pgn, registry, view, DynRecord, PieceView, Reason};
use serde::Deserialize;
use serde_json::{json, Map, Value};

#[cfg(target_arch = "wasm32")]
pub mod ffi;

/// The size of each searcher's transposition table, as the server's analyses.
pub const HASH_MB: usize = 16;
/// The most lines a search reports, as the server's analysis.
pub const MAX_MULTIPV: u32 = 5;
/// Games open at once in one session, at most.
pub const MAX_GAMES: usize = 1000;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Request {
    op: String,
    #[serde(default)]
    handle: Option<u32>,
    #[serde(default)]
    game: Option<String>,
    #[serde(default)]
    position: Option<String>,
    #[serde(default)]
    settings: Map<String, Value>,
    #[serde(default)]
    moves: Vec<String>,
    #[serde(default, rename = "move")]
    mv: Option<String>,
    #[serde(default)]
    depth: Option<u32>,
    #[serde(default)]
    nodes: Option<u64>,
    #[serde(default)]
    movetime: Option<u64>,
    #[serde(default)]
    multipv: Option<u32>,
    #[serde(default)]
    level: Option<u8>,
    #[serde(default)]
    seat: Option<u8>,
    #[serde(default)]
    players: Vec<String>,
    #[serde(default)]
    event: Option<String>,
    #[serde(default)]
    date: Option<String>,
    #[serde(default)]
    to_move: Option<u8>,
    /// `explore`: the board emptied first (but for what the position cannot do without).
    #[serde(default)]
    clear: bool,
    /// `explore`: pieces put on cells (a piece, or null to empty the cell).
    #[serde(default)]
    put: Vec<Put>,
}

/// A cell of an `explore` set-up, as the server's explorer takes it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Put {
    cell: String,
    piece: Option<PieceView>,
}

/// The games open and the searchers, of one page's worker.
#[derive(Default)]
pub struct Session {
    games: HashMap<u32, Box<dyn DynRecord>>,
    next: u32,
    /// One per game id and level, keeping its table from search to search.
    searchers: HashMap<(&'static str, u8), Box<dyn DynSearcher>>,
}

impl Session {
    pub fn new() -> Self {
        Session::default()
    }

    /// Answers one request (JSON text) with JSON text; a search hands each line to `report`.
    pub fn call(&mut self, request: &str, report: &mut dyn FnMut(&str)) -> String {
        let answer = serde_json::from_str::<Request>(request)
            .map_err(|e| format!("not the JSON expected: {e}"))
            .and_then(|req| self.answer(&req, report));
        match answer {
            Ok(value) => value.to_string(),
            Err(error) => json!({ "error": error }).to_string(),
        }
    }

    fn answer(&mut self, req: &Request, report: &mut dyn FnMut(&str)) -> Result<Value, String> {
        match req.op.as_str() {
            "games" => Ok(registry::games()
                .iter()
                .map(|g| json!({ "id": g.info().id, "players": g.info().players.len() }))
                .collect()),
            "new" => {
                if self.games.len() >= MAX_GAMES {
                    return Err(format!(
                        "{MAX_GAMES} games are open already: free some (op \"free\")"
                    ));
                }
                let record = new_record(req)?;
                let handle = self.next;
                self.next = self.next.wrapping_add(1);
                let state = state(handle, record.as_ref());
                self.games.insert(handle, record);
                Ok(state)
            }
            "explore" => {
                let game = req
                    .game
                    .as_deref()
                    .ok_or("game: missing (a game id, as \"op\": \"games\" lists them)")?;
                let settings = settings_of(req)?;
                let put: Vec<_> = req.put.iter().map(|p| (p.cell.clone(), p.piece)).collect();
                let query = view::ExploreQuery {
                    game,
                    position: req.position.as_deref(),
                    settings: &settings,
                    clear: req.clear,
                    put: &put,
                    to_move: req.to_move,
                    moves: &req.moves,
                };
                let answer = view::explore(&query).map_err(|e| e.to_string())?;
                Ok(serde_json::to_value(answer).expect("a view serialises"))
            }
            "state" => {
                let (handle, record) = self.game(req)?;
                Ok(state(handle, record))
            }
            "play" => {
                let handle = handle_of(req)?;
                let text = req.mv.as_deref().ok_or("move: missing (a move text)")?;
                let record = self.game_mut(handle)?;
                registry::play_move(record, text)?;
                Ok(state(handle, record))
            }
            "view" => {
                let (handle, record) = self.game(req)?;
                Ok(view(handle, record))
            }
            "record" => {
                let (_, record) = self.game(req)?;
                Ok(json!({ "record": record_text(req, record)? }))
            }
            "resign" => {
                let handle = handle_of(req)?;
                let seat = req.seat.ok_or("seat: missing (the seat that resigns)")?;
                let record = self.game_mut(handle)?;
                if record.result().is_some() {
                    return Err("the game is over: nobody can resign".into());
                }
                if !record.drop_out(seat, Reason::RESIGNATION) {
                    return Err(format!("seat {seat}: not in the game"));
                }
                Ok(state(handle, record))
            }
            "undo" => {
                let handle = handle_of(req)?;
                let record = self.game_mut(handle)?;
                if !record.undo() {
                    return Err("no move to take back".into());
                }
                Ok(state(handle, record))
            }
            "free" => {
                let handle = handle_of(req)?;
                self.games
                    .remove(&handle)
                    .map(|_| json!({ "freed": handle }))
                    .ok_or_else(|| no_game(handle))
            }
            "new_game" => {
                let id = registry::find(req.game.as_deref().ok_or("game: missing")?)
                    .map_err(|e| e.to_string())?
                    .info()
                    .id;
                for ((game, _), searcher) in self.searchers.iter_mut() {
                    if *game == id {
                        searcher.new_game();
                    }
                }
                Ok(json!({ "game": id }))
            }
            "search" => self.search(req, report),
            other => Err(format!(
                "op: {other:?} is not one of games, new, state, view, play, undo, resign, \
                 record, free, search, new_game"
            )),
        }
    }

    fn game(&self, req: &Request) -> Result<(u32, &dyn DynRecord), String> {
        let handle = handle_of(req)?;
        let record = self.games.get(&handle).ok_or_else(|| no_game(handle))?;
        Ok((handle, record.as_ref()))
    }

    fn game_mut(&mut self, handle: u32) -> Result<&mut dyn DynRecord, String> {
        match self.games.get_mut(&handle) {
            Some(record) => Ok(record.as_mut()),
            None => Err(no_game(handle)),
        }
    }

    fn search(&mut self, req: &Request, report: &mut dyn FnMut(&str)) -> Result<Value, String> {
        let multipv = req.multipv.unwrap_or(1);
        if !(1..=MAX_MULTIPV).contains(&multipv) {
            return Err(format!("multipv: {multipv} is not from 1 to {MAX_MULTIPV}"));
        }
        let level = req.level.unwrap_or(8);
        if !(1..=8).contains(&level) {
            return Err(format!("level: {level} is not from 1 to 8"));
        }
        if req.depth == Some(0) || req.nodes == Some(0) || req.movetime == Some(0) {
            return Err("depth, nodes and movetime must be at least 1".into());
        }
        // A search is one call that nothing can interrupt: it must have an end.
        if req.depth.is_none() && req.nodes.is_none() && req.movetime.is_none() {
            return Err(
                "search: give depth, nodes or movetime (a search must end by itself)".into(),
            );
        }
        let handle = handle_of(req)?;
        let record = self
            .games
            .get(&handle)
            .ok_or_else(|| no_game(handle))?
            .as_ref();
        let id = record.info().id;
        let searcher = match self.searchers.entry((id, level)) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(e) => {
                let options = Options {
                    hash_mb: HASH_MB,
                    ..Options::default()
                };
                e.insert(
                    new_searcher(id, &PlayerSpec::Level { level }, &options)
                        .map_err(|e| e.to_string())?,
                )
            }
        };
        searcher.configure(&Options {
            multipv,
            hash_mb: HASH_MB,
            ..Options::default()
        });
        let limits = Limits {
            depth: req.depth,
            nodes: req.nodes,
            movetime: req.movetime.map(Duration::from_millis),
            ..Limits::default()
        };
        let control = Control::new(&limits, record.to_move());
        let mut lines: Vec<Value> = Vec::new();
        let best = searcher
            .search(record, &limits, &control, &mut |r: &Report| {
                let line = line_of(r, record);
                report(&line.to_string());
                if r.multipv <= 1 {
                    lines.clear();
                }
                lines.push(line);
            })
            .map_err(|e| e.to_string())?;
        Ok(json!({ "best": best, "lines": lines }))
    }
}

fn handle_of(req: &Request) -> Result<u32, String> {
    req.handle
        .ok_or_else(|| "handle: missing (the number \"new\" answered)".to_string())
}

fn no_game(handle: u32) -> String {
    format!("handle {handle}: no such game (freed, or never made)")
}

/// A request's settings as names and values (each value given as a string).
fn settings_of(req: &Request) -> Result<Vec<(String, String)>, String> {
    let mut settings = Vec::new();
    for (name, value) in &req.settings {
        let Value::String(value) = value else {
            return Err(format!("settings: {name}: give its value as a string"));
        };
        settings.push((name.clone(), value.clone()));
    }
    Ok(settings)
}

/// The game of a `new` request: from its position or the start of its settings, then its moves.
fn new_record(req: &Request) -> Result<Box<dyn DynRecord>, String> {
    let id = req
        .game
        .as_deref()
        .ok_or("game: missing (a game id, as \"op\": \"games\" lists them)")?;
    let mut record = registry::new_record(id, req.position.as_deref(), &settings_of(req)?)?;
    if let Some(seat) = req.to_move {
        // (the position with another player to move, as the explorer of the rules pages asks)
        let edit = Edit {
            to_move: Some(seat),
            ..Edit::default()
        };
        let game = registry::find(id).map_err(|e| e.to_string())?;
        let text = game
            .edit_position(&record.position_string(), &edit)
            .map_err(|e| e.to_string())?;
        record = game.new_game_at(&text).map_err(|e| e.to_string())?;
    }
    registry::play_moves(record.as_mut(), &req.moves)?;
    Ok(record)
}

/// A game's view as the server's game states have it (docs/api.md, "A game's state": the
/// position, its moves with their cells, the board, the outcome; the pieces lost, the facts and
/// the seats out), with its `handle`.
fn view(handle: u32, record: &dyn DynRecord) -> Value {
    let players = record.player_names();
    let mut value =
        serde_json::to_value(view::PositionView::of(record)).expect("a view serialises");
    value["handle"] = json!(handle);
    value["captured"] = json!(view::captured(record));
    value["info"] = json!(view::info_messages(record));
    value["eliminated"] = json!(record
        .eliminations()
        .iter()
        .map(|e| view::EliminationView::of(e, players, record.info().players_number))
        .collect::<Vec<_>>());
    value
}

/// The game as a game record (docs/records.md), with the request's players, event and date
/// (`YYYY.MM.DD`) in its tags.
fn record_text(req: &Request, record: &dyn DynRecord) -> Result<String, String> {
    let mut header = pgn::Header::default();
    if let Some(date) = &req.date {
        let ok = date.len() == 10
            && date.char_indices().all(|(i, c)| match i {
                4 | 7 => c == '.',
                _ => c.is_ascii_digit() || c == '?',
            });
        if !ok {
            return Err(format!("date: {date:?} is not YYYY.MM.DD"));
        }
        header.date = date.clone();
    }
    if let Some(event) = &req.event {
        header.event = event.clone();
    }
    if req.players.len() > record.player_names().len() {
        return Err(format!(
            "players: {} names for a game of {}",
            req.players.len(),
            record.player_names().len()
        ));
    }
    header.players = req.players.clone();
    Ok(pgn::write_game(record, &header, &[]))
}

/// A game's state as JSON (see the crate's documentation).
fn state(handle: u32, record: &dyn DynRecord) -> Value {
    let result = record.result();
    let legal: Vec<String> = if result.is_some() {
        Vec::new()
    } else {
        record.legal_moves().into_iter().map(|m| m.text).collect()
    };
    let over = result.is_some();
    let outcome = result.map(|r| {
        json!({
            "winner": r.outcome.winner(),
            "reason": r.outcome.reason().id,
            "text": r.describe(record.player_names(), record.info().players_number),
        })
    });
    json!({
        "handle": handle,
        "game": record.info().id,
        "players": record.player_names(),
        "start": record.start_string(),
        "position": record.position_string(),
        "to_move": if over { None } else { Some(record.to_move()) },
        "moves": record.history().into_iter().map(|m| m.text).collect::<Vec<_>>(),
        "legal": legal,
        "outcome": outcome,
    })
}

fn score_json(score: Score) -> Value {
    match score {
        Score::Cp(cp) => json!({ "cp": cp }),
        Score::Mate(n) => json!({ "mate": n }),
    }
}

/// One line of a search as JSON, with the score from seat 0's view in two-player games.
fn line_of(r: &Report, record: &dyn DynRecord) -> Value {
    let first = (record.player_names().len() == 2).then(|| match r.score {
        s if record.to_move() == 0 => s,
        Score::Cp(cp) => Score::Cp(-cp),
        Score::Mate(n) => Score::Mate(-n),
    });
    json!({
        "depth": r.depth,
        "seldepth": r.seldepth,
        "multipv": r.multipv,
        "score": score_json(r.score),
        "first": first.map(score_json),
        "nodes": r.nodes,
        "time_ms": r.time.as_millis() as u64,
        "pv": r.pv,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use myrmidon_rules::Settings;

    fn call(session: &mut Session, request: Value) -> Value {
        let text = session.call(&request.to_string(), &mut |_| {});
        serde_json::from_str(&text).expect("the answer is JSON")
    }

    #[test]
    fn rules_of_every_game_as_the_library_has_them() {
        let mut s = Session::new();
        let games = call(&mut s, json!({"op": "games"}));
        let ids: Vec<&str> = registry::games().iter().map(|g| g.info().id).collect();
        assert_eq!(games.as_array().unwrap().len(), ids.len());
        for (i, id) in ids.iter().enumerate() {
            assert_eq!(games[i]["id"], *id);
            let st = call(&mut s, json!({"op": "new", "game": id}));
            let handle = st["handle"].as_u64().unwrap();
            let record = registry::find(id)
                .unwrap()
                .new_game(&Settings::new())
                .unwrap();
            let legal: Vec<String> = record.legal_moves().into_iter().map(|m| m.text).collect();
            assert_eq!(st["legal"], json!(legal), "{id}");
            assert_eq!(st["position"], record.position_string());
            assert_eq!(st["to_move"], 0);
            // a move, then back
            let mv = legal[legal.len() / 2].clone();
            let after = call(&mut s, json!({"op": "play", "handle": handle, "move": mv}));
            assert_eq!(after["moves"], json!([mv]), "{id}");
            assert_ne!(after["position"], st["position"]);
            let back = call(&mut s, json!({"op": "undo", "handle": handle}));
            assert_eq!(back["position"], st["position"]);
            assert_eq!(back["legal"], st["legal"]);
            let freed = call(&mut s, json!({"op": "free", "handle": handle}));
            assert_eq!(freed["freed"], handle);
            let gone = call(&mut s, json!({"op": "state", "handle": handle}));
            assert!(gone["error"].as_str().unwrap().contains("no such game"));
        }
    }

    #[test]
    fn the_explorer_sets_up_a_board_and_gives_its_palette() {
        let mut s = Session::new();
        for g in registry::games() {
            let info = g.info();
            let start = call(&mut s, json!({"op": "explore", "game": info.id}));
            let palette = start["palette"].as_array().expect("a palette");
            // pieces of every player, each named
            for owner in 0..info.players.len() {
                assert!(palette.iter().any(|p| p["owner"] == owner), "{}", info.id);
            }
            assert!(palette
                .iter()
                .all(|p| p["name"].as_str().is_some_and(|n| !n.is_empty())));
            assert_eq!(
                start["position"],
                g.new_game(&Settings::new()).unwrap().position_string()
            );
            // the board emptied, then one piece of the first player put on the first empty cell
            let empty = call(
                &mut s,
                json!({"op": "explore", "game": info.id, "clear": true}),
            );
            let board = empty["board"].as_array().unwrap();
            let cell = board
                .iter()
                .position(Value::is_null)
                .expect("an empty cell");
            let name = info.geometry.cell_name(cell as myrmidon_rules::Cell);
            // (the first piece of the first player's that the rules let stand there)
            let put = palette.iter().filter(|p| p["owner"] == 0).find_map(|piece| {
                let put = json!([{"cell": name, "piece": {"owner": 0, "kind": piece["kind"]}}]);
                let set = call(
                    &mut s,
                    json!({"op": "explore", "game": info.id, "position": empty["position"], "put": put}),
                );
                set.get("error").is_none().then(|| (piece["kind"].clone(), set))
            });
            let (kind, set) = put.unwrap_or_else(|| panic!("{}: nothing put on {name}", info.id));
            assert_eq!(set["board"][cell]["kind"], kind, "{}", info.id);
            assert_eq!(set["board"][cell]["owner"], 0, "{}", info.id);
            assert_ne!(set["position"], empty["position"]);
            // a cell that is not one, named as the server names it
            let bad = call(
                &mut s,
                json!({"op": "explore", "game": info.id, "put": [{"cell": "zz99", "piece": null}]}),
            );
            assert!(
                bad["error"].as_str().unwrap().contains("not a cell"),
                "{bad}"
            );
        }
        let both = call(
            &mut s,
            json!({"op": "explore", "game": some_game(), "position": "x", "settings": {"a": "b"}}),
        );
        assert!(both["error"]
            .as_str()
            .unwrap()
            .contains("give a position or settings"));
    }

    /// The first game of the registry (any would do).
    fn some_game() -> &'static str {
        registry::games()[0].info().id
    }

    #[test]
    fn bad_requests_are_errors_not_panics() {
        let mut s = Session::new();
        let id = some_game();
        for (request, part) in [
            ("{".to_string(), "not the JSON expected"),
            (r#"{"op": "fly"}"#.into(), "is not one of"),
            (r#"{"op": "new"}"#.into(), "game: missing"),
            (r#"{"op": "new", "game": "chess"}"#.into(), "chess"),
            (
                json!({"op": "new", "game": id, "position": "x"}).to_string(),
                "",
            ),
            (
                json!({"op": "new", "game": id, "moves": ["zz99"]}).to_string(),
                "moves: move 1",
            ),
            (
                r#"{"op": "play", "handle": 7, "move": "zz99"}"#.into(),
                "no such game",
            ),
            (r#"{"op": "search", "depth": 1}"#.into(), "handle: missing"),
            (r#"{"op": "new", "bogus": 1}"#.into(), "unknown field"),
        ] {
            let answer: Value = serde_json::from_str(&s.call(&request, &mut |_| {})).unwrap();
            let error = answer["error"]
                .as_str()
                .unwrap_or_else(|| panic!("{request}"));
            assert!(error.contains(part), "{request}: {error}");
        }
        let st = call(&mut s, json!({"op": "new", "game": id}));
        let h = st["handle"].clone();
        let bad = call(&mut s, json!({"op": "search", "handle": h, "multipv": 9}));
        assert!(bad["error"].as_str().unwrap().contains("multipv"));
        let endless = call(&mut s, json!({"op": "search", "handle": h}));
        assert!(endless["error"].as_str().unwrap().contains("must end"));
        let bad = call(&mut s, json!({"op": "undo", "handle": h}));
        assert!(bad["error"].as_str().unwrap().contains("no move"));
    }

    /// A small generator of numbers for the hostile requests below (xorshift, seeded).
    struct Dice(u64);

    impl Dice {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }

        fn pick<T: Clone>(&mut self, items: &[T]) -> T {
            items[self.below(items.len())].clone()
        }
    }

    /// Thousands of requests a page could send by mistake, or a hostile script on purpose:
    /// every operation with fields of the right names and wrong or extreme values, and valid
    /// requests with bytes cut or changed. Each answer is JSON: a state, a view, a line or an
    /// error, never a panic. (Searches are given a small node budget, so that they end.)
    #[test]
    fn random_hostile_requests_get_answers_or_errors() {
        let mut s = Session::new();
        let mut dice = Dice(0x9e37_79b9_7f4a_7c15);
        let ids: Vec<Value> = registry::games()
            .iter()
            .map(|g| json!(g.info().id))
            .chain([json!("chess"), json!(""), json!(7), json!(null)])
            .collect();
        let ops = [
            "games", "new", "explore", "state", "play", "view", "record", "resign", "undo", "free",
            "new_game", "search", "", "NEW",
        ];
        let numbers = [
            json!(0),
            json!(1),
            json!(2),
            json!(-1),
            json!(255),
            json!(256),
            json!(4_294_967_296u64),
            json!(1e300),
            json!("3"),
            json!(null),
            json!([]),
        ];
        let texts = [
            json!(""),
            json!("a1"),
            json!("e2e4"),
            json!("pass"),
            json!("a1-a2xa3"),
            json!("x".repeat(10_000)),
            json!("\u{0}\u{ffff}é"),
            json!(["a"]),
            json!(3),
        ];
        let fields = [
            "handle", "game", "position", "settings", "moves", "move", "depth", "multipv", "level",
            "seat", "players", "event", "date", "to_move", "clear", "put",
        ];
        let mut answered = 0;
        let mut errors = 0;
        for round in 0..4000 {
            let op = dice.pick(&ops);
            let mut request = json!({ "op": op });
            if op == "new" || op == "explore" || dice.below(4) == 0 {
                request["game"] = dice.pick(&ids);
            }
            for _ in 0..dice.below(4) {
                let field = dice.pick(&fields);
                request[field] = match field {
                    "handle" | "depth" | "multipv" | "level" | "seat" | "to_move" => {
                        if dice.below(2) == 0 {
                            json!(dice.below(4))
                        } else {
                            dice.pick(&numbers)
                        }
                    }
                    "moves" | "players" => json!([dice.pick(&texts), dice.pick(&texts)]),
                    "settings" => json!({ "region": dice.pick(&texts) }),
                    "clear" => json!(dice.below(2) == 0),
                    "put" => json!([{ "cell": dice.pick(&texts), "piece": null }]),
                    _ => dice.pick(&texts),
                };
            }
            if op == "play" && dice.below(2) == 0 {
                // a legal move of an open game now and then, so that games go on
                let handle = dice.below(4) as u32;
                if let Ok((_, record)) = s.game(
                    &serde_json::from_value(json!({"op": "state", "handle": handle})).unwrap(),
                ) {
                    if let Some(m) = record.legal_moves().first() {
                        request["handle"] = json!(handle);
                        request["move"] = json!(m.text);
                    }
                }
            }
            if op == "search" {
                request["nodes"] = json!(1 + dice.below(2000));
                request["depth"] = json!(dice.below(4));
            }
            let mut text = request.to_string();
            if round % 5 == 4 {
                // the request's bytes cut short, or one of them changed
                let mut cut = dice.below(text.len() + 1);
                while !text.is_char_boundary(cut) {
                    cut -= 1;
                }
                if dice.below(2) == 0 {
                    text.truncate(cut);
                } else if let Some(c) = text.get(cut..=cut) {
                    let with = dice.pick(&["{", "}", "\"", ",", ":", "9", "\\"]);
                    text.replace_range(cut..cut + c.len(), with);
                }
            }
            let answer = s.call(&text, &mut |line| {
                serde_json::from_str::<Value>(line).expect("a search line is JSON");
            });
            let answer: Value = serde_json::from_str(&answer)
                .unwrap_or_else(|e| panic!("{text}: the answer is not JSON ({e}): {answer}"));
            match answer.get("error") {
                Some(error) => {
                    assert!(
                        error.as_str().is_some_and(|e| !e.is_empty()),
                        "{text}: {answer}"
                    );
                    errors += 1;
                }
                None => answered += 1,
            }
        }
        // both kinds were met: the requests reached the operations, not only the parser
        assert!(
            answered > 200 && errors > 200,
            "{answered} answered, {errors} errors"
        );
    }

    #[test]
    fn a_search_reports_each_depth_and_plays_a_legal_move() {
        let mut s = Session::new();
        for id in registry::games().iter().map(|g| g.info().id) {
            let st = call(&mut s, json!({"op": "new", "game": id}));
            let mut lines: Vec<Value> = Vec::new();
            let request = json!({"op": "search", "handle": st["handle"], "depth": 3});
            let answer = s.call(&request.to_string(), &mut |l| {
                lines.push(serde_json::from_str(l).unwrap())
            });
            let answer: Value = serde_json::from_str(&answer).unwrap();
            let best = answer["best"].as_str().unwrap();
            assert!(
                st["legal"].as_array().unwrap().iter().any(|m| m == best),
                "{id}: {best}"
            );
            let depths: Vec<u64> = lines.iter().map(|l| l["depth"].as_u64().unwrap()).collect();
            assert_eq!(depths.last(), Some(&3), "{id}");
            assert!(depths.windows(2).all(|w| w[0] <= w[1]), "{id}: {depths:?}");
            let last = lines.last().unwrap();
            assert_eq!(last["pv"][0], best, "{id}");
            assert!(last["nodes"].as_u64().unwrap() > 0);
            assert_eq!(
                last["first"].is_null(),
                st["players"].as_array().unwrap().len() != 2
            );
        }
    }

    #[test]
    fn a_finished_game_has_its_outcome_and_no_moves() {
        let mut s = Session::new();
        // Random legal moves until the end, from a fixed seed.
        let st = call(&mut s, json!({"op": "new", "game": some_game()}));
        let h = st["handle"].clone();
        let mut st = st;
        let mut seed = 12345u64;
        for _ in 0..2000 {
            if !st["outcome"].is_null() {
                break;
            }
            let legal = st["legal"].as_array().unwrap();
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let mv = legal[(seed >> 33) as usize % legal.len()].clone();
            st = call(&mut s, json!({"op": "play", "handle": h, "move": mv}));
        }
        assert!(!st["outcome"].is_null(), "a random game ends");
        assert_eq!(st["legal"], json!([]));
        assert!(st["to_move"].is_null());
        assert!(st["outcome"]["reason"].is_string());
        let more = call(
            &mut s,
            json!({"op": "play", "handle": h, "move": st["moves"][0]}),
        );
        assert!(more["error"].as_str().unwrap().contains("the game is over"));
        let search = call(&mut s, json!({"op": "search", "handle": h, "depth": 2}));
        assert!(search["best"].is_null(), "{search}");
    }

    #[test]
    fn a_view_draws_the_board_and_a_record_reads_back() {
        let mut s = Session::new();
        for game in registry::games() {
            let id = game.info().id;
            let st = call(&mut s, json!({"op": "new", "game": id}));
            let h = st["handle"].clone();
            let mv = st["legal"][0].clone();
            call(&mut s, json!({"op": "play", "handle": h, "move": mv}));
            let v = call(&mut s, json!({"op": "view", "handle": h}));
            assert_eq!(v["handle"], h);
            assert_eq!(
                v["board"].as_array().unwrap().len(),
                game.info().geometry.cell_count(),
                "{id}"
            );
            let texts: Vec<&Value> = v["legal_cells"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| &m["text"])
                .collect();
            assert_eq!(json!(texts), v["legal"], "{id}");
            assert_eq!(v["history"][0]["text"], mv);
            assert_eq!(v["history"][0]["player"], 0);
            assert_eq!(
                v["captured"].as_array().unwrap().len(),
                v["players"].as_array().unwrap().len()
            );

            let text = call(
                &mut s,
                json!({"op": "record", "handle": h, "date": "2026.11.29", "players": ["Ann"]}),
            );
            let text = text["record"].as_str().unwrap();
            assert!(text.contains("[Date \"2026.11.29\"]"), "{text}");
            assert!(text.contains("\"Ann\""), "{text}");
            let read = pgn::read_games(text).unwrap();
            let back: Vec<String> = read[0]
                .record
                .history()
                .into_iter()
                .map(|m| m.text)
                .collect();
            assert_eq!(json!(back), json!([mv]), "{id}");
            assert_eq!(read[0].record.info().id, id);

            let bad = call(
                &mut s,
                json!({"op": "record", "handle": h, "date": "29/11/2026"}),
            );
            assert!(bad["error"].as_str().unwrap().contains("YYYY.MM.DD"));
            let bad = call(
                &mut s,
                json!({"op": "record", "handle": h, "players": ["a", "b", "c", "d"]}),
            );
            assert!(bad["error"]
                .as_str()
                .unwrap()
                .contains("names for a game of"));
        }
    }
}
