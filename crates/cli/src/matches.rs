//! `myrmidon match <game>`: plays engines against each other (built-in players and external
//! UCI engines), referees every move with the rules library and reports the score, the Elo
//! difference and the SPRT verdict as cutechess and fastchess do; `--json` adds one summary
//! object as the last line of standard output. The runner itself is `myrmidon_arena`.

use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use clap::{ArgAction, ArgMatches, Args};
use myrmidon_arena::clock::DEFAULT_MOVE_TIMEOUT;
use myrmidon_arena::openings::read_openings;
use myrmidon_arena::spec::distinct_names;
use myrmidon_arena::{
    run_match, EngineSpec, GameRules, MatchConfig, MoveLimit, Openings, Sprt, TimeControl,
};
use myrmidon_rules::registry;

use crate::common::{open_game, CliError, CliResult, GameArgs};
use crate::progress;

#[derive(Args, Debug)]
#[command(group(clap::ArgGroup::new("limit").args(["movetime", "depth", "nodes", "tc"])))]
pub struct MatchArgs {
    #[command(flatten)]
    pub game: GameArgs,

    /// An engine, once per seat, in seat order for the first game: key=value words up to the
    /// next option. cmd=<command line> (an external UCI engine) or
    /// builtin=random|greedy|alphabeta[:depth=N]|search[:depth=N]|level:<1-8>; name=<name>; option.<Name>=<value>
    /// (setoption, in order); dir=<directory>; timemargin=<ms> (default 250).
    #[arg(long = "engine", value_name = "KEY=VALUE", num_args = 1.., action = ArgAction::Append,
          required = true)]
    pub engine: Vec<String>,

    /// The words of each `--engine`, one list per occurrence (clap's derive flattens them:
    /// [`MatchArgs::group_engines`] fills this from the parsed command line).
    #[arg(skip)]
    pub engines: Vec<Vec<String>>,

    /// How many games: rounded up to whole pairs (two players, colours swapped) or whole sets
    /// of the six seat orders (three players).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    pub games: u64,

    /// Milliseconds per move.
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    pub movetime: Option<u64>,

    /// A fixed depth per move.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub depth: Option<u32>,

    /// A fixed node count per move.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,

    /// A clock per seat: <seconds>+<increment>, or <moves>/<seconds>+<increment> (decimals
    /// allowed: 10+0.1, 0.5+0.05, 40/60).
    #[arg(long, value_name = "S+INC")]
    pub tc: Option<String>,

    /// Openings: a file of position strings, one a line (# comments and blank lines skipped);
    /// each is played by every seat order.
    #[arg(long, value_name = "FILE", conflicts_with = "random_opening")]
    pub openings: Option<PathBuf>,

    /// Start each pair (or set of seat orders) after N random plies, kept only when a depth-2
    /// alpha-beta search finds them balanced (within 150 centipawns of its view of the start).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=1000))]
    pub random_opening: Option<u32>,

    /// Games played at once, each on its own thread.
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=256))]
    pub concurrency: u32,

    /// A game still going after N moves of the players (the opening not counted) is a draw
    /// by adjudication.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub max_plies: Option<u64>,

    /// Stop early when a sequential probability ratio test on the game pairs decides:
    /// elo0=<elo> elo1=<elo> [alpha=0.05] [beta=0.05] [model=normalized|logistic] (two
    /// players only; fastchess's models, normalized Elo by default).
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    pub sprt: Option<Vec<String>>,

    /// Append every game to this file as a game record as it ends (the file is created
    /// anew).
    #[arg(long, value_name = "FILE")]
    pub records: Option<PathBuf>,

    /// Seeds the random players and the random openings (the same seed plays the same games
    /// between deterministic players). Default: from the clock, given in the JSON summary and,
    /// on a terminal, after the text.
    #[arg(long)]
    pub seed: Option<u64>,

    /// Print a line for every game as it ends (`Finished game 3 (A vs B): 1-0 {…}`), as
    /// cutechess does.
    #[arg(long, short)]
    pub verbose: bool,

    /// After the text, one JSON summary object as the last line of standard output.
    #[arg(long)]
    pub json: bool,

    /// Seconds a move may take with no clock (--depth, --nodes or no limit) before its
    /// engine counts as hung and loses on time.
    #[arg(long, value_name = "SECONDS")]
    pub move_timeout: Option<f64>,
}

impl MatchArgs {
    /// Groups the `--engine` words by occurrence, from the subcommand's matches.
    pub fn group_engines(&mut self, matches: &ArgMatches) {
        self.engines = matches
            .get_occurrences::<String>("engine")
            .map(|occurrences| occurrences.map(|o| o.cloned().collect()).collect())
            .unwrap_or_default();
    }

    fn limit(&self) -> CliResult<MoveLimit> {
        Ok(if let Some(ms) = self.movetime {
            MoveLimit::MoveTime(Duration::from_millis(ms))
        } else if let Some(d) = self.depth {
            MoveLimit::Depth(d)
        } else if let Some(n) = self.nodes {
            MoveLimit::Nodes(n)
        } else if let Some(tc) = &self.tc {
            MoveLimit::Clock(
                tc.parse::<TimeControl>()
                    .map_err(|e| CliError::msg(format!("bad --tc: {e}")))?,
            )
        } else {
            MoveLimit::Unlimited
        })
    }

    fn config(&self) -> CliResult<MatchConfig> {
        let game = registry::find(&self.game.game)?;
        let start = open_game(game, self.game.position.as_deref(), &self.game.settings()?)?;
        let mut engines = Vec::new();
        for (i, words) in self.engines.iter().enumerate() {
            let spec = EngineSpec::parse(words).map_err(|e| {
                let hint = if words.iter().any(|w| w == &self.game.game) {
                    " (put the game id before the first --engine)"
                } else {
                    ""
                };
                CliError::msg(format!("--engine #{}: {e}{hint}", i + 1))
            })?;
            engines.push(spec);
        }
        distinct_names(&mut engines);
        let openings = match (&self.openings, self.random_opening) {
            (Some(path), _) => {
                if self.game.position.is_some() {
                    return Err(CliError::msg(
                        "--openings and --position cannot be used together: the openings \
                         give the start positions",
                    ));
                }
                let text = std::fs::read_to_string(path).map_err(|e| {
                    CliError::msg(format!("cannot read --openings {}: {e}", path.display()))
                })?;
                Openings::List(read_openings(game, &text).map_err(|e| {
                    CliError::msg(format!("bad --openings {}: {e}", path.display()))
                })?)
            }
            (None, Some(plies)) if plies > 0 => Openings::Random(plies as usize),
            _ => Openings::Start,
        };
        let move_timeout = match self.move_timeout {
            None => DEFAULT_MOVE_TIMEOUT,
            Some(s) if s.is_finite() && s > 0.0 && s <= 1e7 => Duration::from_secs_f64(s),
            Some(s) => {
                return Err(CliError::msg(format!(
                    "bad --move-timeout {s}: expected seconds above 0"
                )))
            }
        };
        let sprt = match &self.sprt {
            Some(words) => Some(
                Sprt::from_words(words.iter().map(String::as_str))
                    .map_err(|e| CliError::msg(e.to_string()))?,
            ),
            None => None,
        };
        Ok(MatchConfig {
            game,
            start: start.start_string(),
            engines,
            games: self.games as usize,
            rules: GameRules {
                limit: self.limit()?,
                max_plies: self.max_plies.map(|m| m as usize),
                move_timeout,
            },
            openings,
            concurrency: self.concurrency as usize,
            sprt,
            seed: self.seed.unwrap_or_else(clock_seed),
        })
    }
}

/// A seed from the clock, for matches run without `--seed`.
fn clock_seed() -> u64 {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    now.as_secs() ^ u64::from(now.subsec_nanos()).rotate_left(32) ^ u64::from(std::process::id())
}

pub fn run(args: &MatchArgs) -> CliResult {
    let config = args.config()?;
    let mut records = match &args.records {
        Some(path) => Some(BufWriter::new(File::create(path).map_err(|e| {
            CliError::msg(format!("cannot create --records {}: {e}", path.display()))
        })?)),
        None => None,
    };
    let total = config.total_games() as u64;
    let bar = progress::bar(total, "games");
    bar.set_prefix(format!("match {}: ", config.game.info().id));
    let verbose = args.verbose;
    // A failure to write stops the match; it is reported as an output error (exit status 1,
    // or quietly when standard output was closed).
    let mut failure: Option<io::Error> = None;
    let mut observe = |finished: &myrmidon_arena::Finished, tally: &myrmidon_arena::Tally| {
        if let (Some(out), Some(path)) = (records.as_mut(), &args.records) {
            let text = myrmidon_arena::records::game_record(&config, finished, SystemTime::now());
            if let Err(e) = out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
                let e = io::Error::new(e.kind(), format!("--records {}: {e}", path.display()));
                failure = Some(e);
                return Err("cannot write the records".to_string());
            }
        }
        if verbose {
            let line = finished_line(&config, finished);
            let written = bar.suspend(|| {
                let mut out = io::stdout().lock();
                writeln!(out, "{line}").and_then(|_| out.flush())
            });
            if let Err(e) = written {
                failure = Some(e);
                return Err("cannot write the output".to_string());
            }
        }
        bar.set_message(tally.progress());
        bar.inc(1);
        Ok(())
    };
    // Ctrl-C: the games finished so far are summed up (as cutechess does); the games being
    // played are not counted.
    let latest: Arc<Mutex<Option<(String, serde_json::Value)>>> = Arc::new(Mutex::new(None));
    interrupt::on_interrupt({
        let (latest, json, seed) = (latest.clone(), args.json, config.seed);
        move || {
            // Held until the exit: no game is reported after the summary.
            let guard = latest.lock();
            let summary = guard.as_ref().map(|l| (*l).clone()).unwrap_or(None);
            let mut out = io::stdout().lock();
            let _ = writeln!(
                out,
                "interrupted: the games still being played are not counted"
            );
            match summary {
                Some((text, mut j)) => {
                    let _ = write!(out, "{text}");
                    if json {
                        j["seed"] = seed.into();
                        j["interrupted"] = true.into();
                        let _ = writeln!(out, "{j}");
                    }
                }
                None => {
                    let _ = writeln!(out, "no game was finished");
                }
            }
            let _ = out.flush();
            // With the lock still held.
            std::process::exit(130);
        }
    });
    let mut observe = |finished: &myrmidon_arena::Finished, tally: &myrmidon_arena::Tally| {
        // Under the lock, so that the summary of an interruption is never between a game's
        // line and its count; after the interruption, games are not reported.
        let mut latest = latest.lock().map_err(|_| "interrupted".to_string())?;
        if interrupt::raised() {
            return Err("interrupted".into());
        }
        let result = observe(finished, tally);
        *latest = Some((tally.text(), tally.json()));
        result
    };
    let tally = run_match(&config, &mut observe);
    if interrupt::raised() {
        // The interruption's thread prints the summary and ends the process.
        loop {
            std::thread::sleep(Duration::from_secs(1));
        }
    }
    bar.finish_and_clear();
    if let Some(e) = failure {
        return Err(CliError::Io(e));
    }
    let tally = tally.map_err(CliError::msg)?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    write!(out, "{}", tally.text())?;
    if args.json {
        let mut json = tally.json();
        json["seed"] = config.seed.into();
        writeln!(out, "{json}")?;
    } else if std::io::stdout().is_terminal() && args.seed.is_none() {
        writeln!(out, "seed {}", config.seed)?;
    }
    out.flush()?;
    Ok(())
}

/// `Finished game 3 (A vs B): 1-0 {Black wins by checkmate}`, as cutechess writes it.
fn finished_line(config: &MatchConfig, finished: &myrmidon_arena::Finished) -> String {
    let names: Vec<&str> = finished
        .seats
        .iter()
        .map(|&e| config.engines[e].name.as_str())
        .collect();
    let played = &finished.played;
    let mut line = format!(
        "Finished game {} ({}): {} {{{}}}",
        finished.index + 1,
        names.join(" vs "),
        myrmidon_rules::pgn::points_string(&played.points),
        played.result.describe(
            played.record.player_names(),
            played.record.info().players_number
        )
    );
    for (seat, fault) in played.faults.iter().enumerate() {
        if let Some(f) = fault {
            line.push_str(&format!(" [{} {f}]", names[seat]));
        }
    }
    line
}

/// Ctrl-C (SIGINT) during a match: a handler (signal-hook's) that only raises a flag, and a
/// thread that, once it is raised, prints what the match has so far and exits with status 130
/// (128 + SIGINT, as shells report a program ended by Ctrl-C).
mod interrupt {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{Arc, OnceLock};
    use std::time::Duration;

    static INTERRUPTED: OnceLock<Arc<AtomicBool>> = OnceLock::new();

    fn flag() -> &'static Arc<AtomicBool> {
        INTERRUPTED.get_or_init(|| Arc::new(AtomicBool::new(false)))
    }

    pub fn raised() -> bool {
        flag().load(Ordering::SeqCst)
    }

    pub fn on_interrupt(report: impl FnOnce() + Send + 'static) {
        if let Err(e) = signal_hook::flag::register(signal_hook::consts::SIGINT, flag().clone()) {
            eprintln!("warning: Ctrl-C will not report the match so far: {e}");
            return;
        }
        std::thread::spawn(move || loop {
            if raised() {
                report();
                std::process::exit(130);
            }
            std::thread::sleep(Duration::from_millis(50));
        });
    }
}
