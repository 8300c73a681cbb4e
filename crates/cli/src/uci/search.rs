//! A `go` on its own thread: runs the player, writes its `info` lines, checks the move it chose
//! against the legal moves, holds the answer of `go infinite` and `go ponder` back until `stop`
//! or `ponderhit`, and writes `bestmove`.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;

use myrmidon_engine::uci::Info;
use myrmidon_engine::{Control, DynSearcher, Limits, Report, TimePlan};
use myrmidon_rules::{DynRecord, Outcome};

use super::Out;

/// What the main thread and a search share.
pub struct Shared {
    pub control: Control,
    flags: Mutex<Flags>,
    wake: Condvar,
}

#[derive(Default)]
struct Flags {
    /// `stop` (or `quit`) came.
    stop: bool,
    /// `ponderhit` came.
    ponderhit: bool,
    /// The search has decided and is writing `bestmove` (the main thread may join it).
    done: bool,
}

impl Shared {
    fn flags(&self) -> MutexGuard<'_, Flags> {
        self.flags.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// A search started by `go`.
pub struct Running {
    pub shared: Arc<Shared>,
    /// Pondering until `ponderhit`.
    pub ponder: bool,
    /// The time the move may take once `ponderhit` comes (the limits without `ponder`).
    pub ponder_budget: Option<TimePlan>,
    thread: JoinHandle<Option<Box<dyn DynSearcher>>>,
}

impl Running {
    /// Starts a search of `record` with `searcher` (`None`: the player could not be built; a
    /// legal move is sent all the same).
    pub fn start(
        searcher: Option<Box<dyn DynSearcher>>,
        record: Box<dyn DynRecord>,
        limits: Limits,
        out: Out,
    ) -> std::io::Result<Running> {
        let mover = record.to_move();
        let ponder_budget = Limits {
            ponder: false,
            ..limits.clone()
        }
        .time_plan(mover);
        let shared = Arc::new(Shared {
            control: Control::new(&limits, mover),
            flags: Mutex::new(Flags::default()),
            wake: Condvar::new(),
        });
        let ponder = limits.ponder;
        let thread_shared = Arc::clone(&shared);
        let thread = std::thread::Builder::new()
            .name("search".to_string())
            .spawn(move || think(searcher, record, limits, thread_shared, out))?;
        Ok(Running {
            shared,
            ponder,
            ponder_budget,
            thread,
        })
    }

    /// True once the search has decided (its `bestmove` is written or being written).
    pub fn done(&self) -> bool {
        self.shared.flags().done
    }

    /// True once `stop` was asked.
    pub fn stopping(&self) -> bool {
        self.shared.flags().stop
    }

    /// `stop`: ends the search; it writes its `bestmove`.
    pub fn stop(&self) {
        let mut flags = self.shared.flags();
        flags.stop = true;
        self.shared.control.stop();
        self.shared.wake.notify_all();
    }

    /// `ponderhit`: the clock now runs. False if this is not a ponder search waiting for it.
    pub fn ponderhit(&self) -> bool {
        let mut flags = self.shared.flags();
        if !self.ponder || flags.ponderhit || flags.stop {
            return false;
        }
        flags.ponderhit = true;
        self.shared.control.set_plan_from_now(self.ponder_budget);
        self.shared.wake.notify_all();
        true
    }

    /// Waits for the end of the search; returns the player (`None` if it panicked).
    pub fn join(self) -> Option<Box<dyn DynSearcher>> {
        self.thread.join().ok().flatten()
    }
}

/// The search thread. Returns the player for the next `go` (`None` if it panicked).
fn think(
    mut searcher: Option<Box<dyn DynSearcher>>,
    record: Box<dyn DynRecord>,
    limits: Limits,
    shared: Arc<Shared>,
    out: Out,
) -> Option<Box<dyn DynSearcher>> {
    let mover = record.to_move();
    let (best, pv) = match record.outcome() {
        Some(outcome) => {
            game_over(&*record, outcome, &out);
            (None, Vec::new())
        }
        None => choose(&mut searcher, &*record, &limits, &shared, &out),
    };
    // `go infinite` and `go ponder` answer only after `stop` (or `ponderhit`).
    let mut flags = shared.flags();
    while !flags.stop && (limits.infinite || (limits.ponder && !flags.ponderhit)) {
        flags = shared.wake.wait(flags).unwrap_or_else(|e| e.into_inner());
    }
    flags.done = true;
    // Written under the lock: the main thread, seeing `done`, joins after this line.
    match best {
        None => out.line("bestmove (none)"),
        Some(best) => match ponder_move(&*record, mover, &best, &pv) {
            Some(p) => out.line(&format!("bestmove {best} ponder {p}")),
            None => out.line(&format!("bestmove {best}")),
        },
    }
    drop(flags);
    searcher
}

/// Says why a finished game has no move: `info depth 0 score …` (a loss for the player to move
/// is `mate 0`, a draw `cp 0`, as Stockfish writes them) and the result.
fn game_over(record: &dyn DynRecord, outcome: Outcome, out: &Out) {
    match outcome.winner() {
        None => out.line("info depth 0 score cp 0"),
        Some(w) if w != record.to_move() => out.line("info depth 0 score mate 0"),
        Some(_) => {}
    }
    let players = record.info().players;
    let text = match record.result() {
        Some(result) => result.describe(players, record.info().players_number),
        None => outcome.describe(players, record.info().players_number),
    };
    out.info(&format!("the game is over: {text}"));
}

/// Runs the player and returns a legal move (and the principal variation of the last report).
fn choose(
    searcher: &mut Option<Box<dyn DynSearcher>>,
    record: &dyn DynRecord,
    limits: &Limits,
    shared: &Shared,
    out: &Out,
) -> (Option<String>, Vec<String>) {
    let legal: Vec<String> = record.legal_moves().into_iter().map(|m| m.text).collect();
    let Some(fallback) = legal.first().cloned() else {
        // No legal move although no rule ends the game: cannot happen in a correct game.
        out.error("no legal move in a game that is not over");
        return (None, Vec::new());
    };
    let mut pv = Vec::new();
    let chosen = match searcher.as_mut() {
        None => Err("no player to search with".to_string()),
        Some(player) => {
            let result = catch_unwind(AssertUnwindSafe(|| {
                player.search(record, limits, &shared.control, &mut |r: &Report| {
                    out.line(&Info::from(r).to_string());
                    if r.multipv == 1 {
                        pv = r.pv.clone();
                    }
                })
            }));
            match result {
                Ok(Ok(Some(text))) => Ok(text),
                Ok(Ok(None)) => Err("the player found no move in a game that goes on".into()),
                Ok(Err(e)) => Err(format!("the search failed: {e}")),
                Err(_) => {
                    // The player may be left in any state: build a new one next time.
                    *searcher = None;
                    Err("the search panicked".to_string())
                }
            }
        }
    };
    match chosen {
        Ok(text) if legal.contains(&text) => (Some(text), pv),
        Ok(text) => {
            out.error(&format!(
                "the player chose `{text}`, which is not a legal move; playing {fallback}"
            ));
            (Some(fallback), Vec::new())
        }
        Err(e) => {
            out.error(&format!("{e}; playing {fallback}"));
            (Some(fallback), Vec::new())
        }
    }
}

/// The move expected in reply, from the principal variation, when it is legal and the engine's
/// player moves right after it (two players; with three the next move is not the reply).
fn ponder_move(
    record: &dyn DynRecord,
    mover: myrmidon_rules::Player,
    best: &str,
    pv: &[String],
) -> Option<String> {
    if pv.len() < 2 || pv[0] != best {
        return None;
    }
    let mut after = record.clone_box();
    after.play(best).ok()?;
    after.play(&pv[1]).ok()?;
    (after.outcome().is_none() && after.to_move() == mover).then(|| pv[1].clone())
}
