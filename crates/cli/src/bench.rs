//! `myrmidon bench`: speed of every game (or the ones named), in three tables on standard output.
//!
//! * perft from the start position, deepening until a run takes about a second (it stops before
//!   a depth predicted to take more than a few seconds), or at the depth given with `--depth`;
//! * move generation alone (into the game's stack move list) on the start position and on
//!   positions reached by random legal moves (a fixed seed, so every run measures the same
//!   positions);
//! * the cost of the cheap draw check a search makes at every node (`Position::draw_by_rule`):
//!   a perft that makes every move down to the leaves, without and with the check at each node;
//! * the strong search (`search`, one thread, 16 MiB table) for `--movetime` milliseconds (one
//!   second by default; 0 leaves it out) from the start position and from a middlegame position:
//!   the last depth completed in that time, its nodes and the nodes per second. The middlegame
//!   position is the one after [`MIDDLEGAME_PLIES`] plies of the `greedy` player against itself
//!   with the `--seed` (fewer if the game would end), so every run measures the same position;
//!   its position string is printed;
//! * time to depth (`depth`): the search to a fixed depth from middlegame positions of real games
//!   shipped with the program, with the effective branching factor at each depth.
//!
//! Every measurement runs monomorphised through the typed path (`crate::typed`).

use std::io::Write;
use std::time::{Duration, Instant};

use clap::Args;
use myrmidon_engine::{new_searcher, Control, Limits, Options, PlayerSpec, Report};
use myrmidon_rules::rng::Rng;
use myrmidon_rules::{registry, DynGame, DynRecord, Settings};

mod depth;

use crate::common::{CliError, CliResult};
use crate::perft::{human, parse_depth};
use crate::progress;
use crate::typed;

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// The games to measure (all of them if none is named).
    pub games: Vec<String>,

    /// Run perft at this depth (0 to 64) instead of choosing one.
    // Hyphen values reach the parser, so that `--depth -1` is told the range.
    #[arg(long, value_parser = parse_depth, allow_hyphen_values = true)]
    pub depth: Option<u32>,

    /// Seconds a chosen perft depth should take at least (it deepens while a run is faster):
    /// above 0, at most 600.
    #[arg(long, default_value_t = 1.0, value_name = "SECONDS", value_parser = parse_target,
          allow_hyphen_values = true)]
    pub target: f64,

    /// Seed of the random moves that lead to the positions measured for move generation, and
    /// of the greedy game that leads to the middlegame position of the search.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,

    /// Milliseconds the search runs on each position (0: no search table; at most an hour).
    #[arg(long, value_name = "MS", default_value_t = 1000,
          value_parser = clap::value_parser!(u64).range(0..=3_600_000))]
    pub movetime: u64,

    /// Search each game's middlegame positions to this depth for the time-to-depth table
    /// (default: the depth its positions file gives; 0 leaves the table out).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=64))]
    pub search_depth: Option<u32>,
}

fn msg(e: impl std::fmt::Display) -> CliError {
    CliError::msg(e.to_string())
}

/// Plies of `greedy` against itself from the start to the middlegame position of the search.
pub const MIDDLEGAME_PLIES: usize = 20;

/// The middlegame position of the search: [`MIDDLEGAME_PLIES`] plies of the `greedy` player
/// (seeded by `seed`) against itself from `start`, stopping before a move that would end the
/// game.
fn middlegame(start: &dyn DynRecord, seed: u64) -> CliResult<Box<dyn DynRecord>> {
    let options = Options {
        seed,
        ..Options::default()
    };
    let mut greedy = new_searcher(start.info().id, &PlayerSpec::Greedy, &options).map_err(msg)?;
    let mut game = start.clone_box();
    for _ in 0..MIDDLEGAME_PLIES {
        let Some(mv) = greedy
            .search(
                &*game,
                &Limits::default(),
                &Control::unlimited(),
                &mut |_| {},
            )
            .map_err(msg)?
        else {
            break;
        };
        let mut next = game.clone_box();
        next.play(&mv).map_err(msg)?;
        if next.outcome().is_some() {
            break;
        }
        game = next;
    }
    Ok(game)
}

/// What one timed search reached.
struct SearchRun {
    /// The last depth completed, its nodes and the time it took (from the search's start).
    depth: u32,
    seldepth: u32,
    nodes: u64,
    time: Duration,
}

/// The search (one thread) on `record` for `time`, stopped from outside (it would stop starting
/// new depths after half a move time of its own): the last depth it completed.
fn timed_search(record: &dyn DynRecord, time: Duration) -> CliResult<SearchRun> {
    let spec = PlayerSpec::Search {
        depth: None,
        algorithm: None,
    };
    let mut search = new_searcher(record.info().id, &spec, &Options::default()).map_err(msg)?;
    let control = Control::unlimited();
    let limits = Limits {
        infinite: true,
        ..Limits::default()
    };
    let mut last: Option<Report> = None;
    std::thread::scope(|scope| {
        let stopper = control.clone();
        let (done, wait) = std::sync::mpsc::channel::<()>();
        scope.spawn(move || {
            // Ends early when the search does (a forced result, a game over).
            let _ = wait.recv_timeout(time);
            stopper.stop();
        });
        let result = search.search(record, &limits, &control, &mut |r| {
            if r.multipv == 1 {
                last = Some(r.clone());
            }
        });
        drop(done);
        result
    })
    .map_err(msg)?;
    let last = last.ok_or_else(|| {
        CliError::msg(format!(
            "the search of {} completed no depth in {} ms",
            record.info().id,
            time.as_millis()
        ))
    })?;
    Ok(SearchRun {
        depth: last.depth,
        seldepth: last.seldepth,
        nodes: last.nodes,
        time: last.time,
    })
}

/// Reads `--target`: a number of seconds above 0 and at most 600.
fn parse_target(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(t) if t > 0.0 && t <= 600.0 => Ok(t),
        _ => Err(format!(
            "the target must be a number of seconds above 0 and at most 600, not {text:?}"
        )),
    }
}

/// One perft run.
struct PerftRun {
    depth: u32,
    nodes: u64,
    seconds: f64,
}

fn timed_perft(record: &dyn DynRecord, depth: u32) -> CliResult<PerftRun> {
    let start = Instant::now();
    let nodes = typed::perft(record, depth)?;
    Ok(PerftRun {
        depth,
        nodes,
        seconds: start.elapsed().as_secs_f64(),
    })
}

/// Deepens perft from depth 1 until a run takes `target` seconds, without starting a run
/// predicted (from the growth of the last two) to take more than three times the target.
fn chosen_perft(record: &dyn DynRecord, target: f64) -> CliResult<PerftRun> {
    let mut last = timed_perft(record, 1)?;
    let mut previous_nodes = 1u64;
    while last.seconds < target && last.nodes > 0 && last.depth < crate::perft::MAX_DEPTH {
        let growth = (last.nodes as f64 / previous_nodes.max(1) as f64).max(1.0);
        if last.seconds * growth > 3.0 * target {
            break;
        }
        previous_nodes = last.nodes;
        last = timed_perft(record, last.depth + 1)?;
    }
    Ok(last)
}

/// Calls per second and moves per second of move generation on one position, measured for
/// about a quarter of a second.
fn movegen_rate(record: &dyn DynRecord) -> CliResult<(f64, f64)> {
    let mut iterations = 64u64;
    loop {
        let m = typed::movegen(record, iterations)?;
        if m.seconds >= 0.05 || iterations >= 1 << 40 {
            let scale = (0.25 / m.seconds.max(1e-9)).clamp(1.0, 1e6);
            let iterations = (iterations as f64 * scale) as u64;
            let m = typed::movegen(record, iterations.max(1))?;
            let seconds = m.seconds.max(1e-9);
            return Ok((iterations.max(1) as f64 / seconds, m.nodes as f64 / seconds));
        }
        iterations *= 4;
    }
}

/// The start and positions reached from it by random legal moves (skipping finished games).
fn sample_positions(record: &dyn DynRecord, seed: u64) -> Vec<(String, Box<dyn DynRecord>)> {
    let mut rng = Rng::new(seed);
    let mut out = vec![("start".to_string(), record.clone_box())];
    for plies in [10usize, 20, 40] {
        let mut game = record.clone_box();
        let mut played = 0;
        while played < plies && game.outcome().is_none() {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = &moves[rng.below(moves.len())];
            if game.play(&mv.text).is_err() {
                break;
            }
            played += 1;
        }
        if played == plies && game.outcome().is_none() {
            out.push((format!("random {plies} plies"), game));
        }
    }
    out
}

pub fn run(args: &BenchArgs) -> CliResult {
    let games: Vec<&dyn DynGame> = if args.games.is_empty() {
        registry::games().to_vec()
    } else {
        args.games
            .iter()
            .map(|id| registry::find(id))
            .collect::<Result<_, _>>()?
    };
    if games.is_empty() {
        eprintln!("no game is registered: nothing to measure");
        return Ok(());
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();

    let mut records = Vec::new();
    for game in &games {
        // Each game from its start with the default settings.
        let record = crate::common::open_game(*game, None, &Settings::new())?;
        records.push(record);
    }

    // On a terminal, a bar over every measurement, perft then move generation (hidden elsewhere).
    let samples: Vec<Vec<(String, Box<dyn DynRecord>)>> = records
        .iter()
        .map(|r| sample_positions(r.as_ref(), args.seed))
        .collect();
    let searches = if args.movetime > 0 {
        2 * records.len()
    } else {
        0
    };
    let to_depth = if args.search_depth == Some(0) {
        0
    } else {
        records.len()
    };
    let steps =
        2 * records.len() + samples.iter().map(Vec::len).sum::<usize>() + searches + to_depth;
    let bar = progress::bar(steps as u64, "");

    writeln!(out, "perft from the start position")?;
    writeln!(
        out,
        "{:<14} {:>5} {:>15} {:>9} {:>12}",
        "game", "depth", "nodes", "seconds", "nodes/s"
    )?;
    for record in &records {
        bar.set_message(format!("perft {}", record.info().id));
        let run = match args.depth {
            Some(d) => timed_perft(record.as_ref(), d)?,
            None => chosen_perft(record.as_ref(), args.target)?,
        };
        bar.inc(1);
        let rate = run.nodes as f64 / run.seconds.max(1e-9);
        bar.suspend(|| {
            writeln!(
                out,
                "{:<14} {:>5} {:>15} {:>9.3} {:>12}",
                record.info().id,
                run.depth,
                run.nodes,
                run.seconds,
                human(rate)
            )?;
            out.flush()
        })?;
    }

    writeln!(out)?;
    writeln!(out, "move generation alone")?;
    writeln!(
        out,
        "{:<14} {:<18} {:>6} {:>12} {:>12}",
        "game", "position", "moves", "positions/s", "moves/s"
    )?;
    for (record, samples) in records.iter().zip(samples) {
        for (label, position) in samples {
            bar.set_message(format!("movegen {} {label}", record.info().id));
            let count = position.legal_moves().len();
            let (calls, moves) = movegen_rate(position.as_ref())?;
            bar.inc(1);
            bar.suspend(|| {
                writeln!(
                    out,
                    "{:<14} {:<18} {:>6} {:>12} {:>12}",
                    record.info().id,
                    label,
                    count,
                    human(calls),
                    human(moves)
                )?;
                out.flush()
            })?;
        }
    }

    writeln!(out)?;
    writeln!(
        out,
        "draw check at every node (perft making every leaf; fastest of three runs each)"
    )?;
    writeln!(
        out,
        "{:<14} {:>5} {:>15} {:>9} {:>11} {:>7}",
        "game", "depth", "nodes", "plain s", "checked s", "cost"
    )?;
    for record in &records {
        bar.set_message(format!("draw check {}", record.info().id));
        let depth = args.depth.map(|d| d.saturating_sub(1));
        let run = typed::draw_check_cost(record.as_ref(), depth, args.target / 3.0)?;
        let (depth, nodes, plain, checked) = (run.depth, run.nodes, run.plain, run.checked);
        bar.inc(1);
        let cost = 100.0 * (checked - plain) / plain.max(1e-9);
        bar.suspend(|| {
            writeln!(
                out,
                "{:<14} {:>5} {:>15} {:>9.3} {:>11.3} {:>+6.1}%",
                record.info().id,
                depth,
                nodes,
                plain,
                checked,
                cost
            )?;
            out.flush()
        })?;
    }
    if args.movetime > 0 {
        search_table(&mut out, &records, args, &bar)?;
    }
    if to_depth > 0 {
        depth_table(&mut out, &games, args.search_depth, &bar)?;
    }
    bar.finish_and_clear();
    Ok(())
}

/// The search from the start and from the middlegame position of every game.
fn search_table(
    out: &mut impl Write,
    records: &[Box<dyn DynRecord>],
    args: &BenchArgs,
    bar: &indicatif::ProgressBar,
) -> CliResult {
    let time = Duration::from_millis(args.movetime);
    writeln!(out)?;
    writeln!(
        out,
        "search (one thread, {} ms a position; the middlegame after {MIDDLEGAME_PLIES} plies of \
         greedy against itself, seed {})",
        args.movetime, args.seed
    )?;
    writeln!(
        out,
        "{:<14} {:<10} {:>5} {:>8} {:>12} {:>9} {:>12}",
        "game", "position", "depth", "seldepth", "nodes", "seconds", "nodes/s"
    )?;
    let mut middlegames = Vec::new();
    for record in records {
        let middle = middlegame(record.as_ref(), args.seed)?;
        for (label, position) in [("start", record.as_ref()), ("middlegame", middle.as_ref())] {
            bar.set_message(format!("search {} {label}", record.info().id));
            let run = timed_search(position, time)?;
            bar.inc(1);
            let seconds = run.time.as_secs_f64();
            bar.suspend(|| {
                writeln!(
                    out,
                    "{:<14} {:<10} {:>5} {:>8} {:>12} {:>9.3} {:>12}",
                    record.info().id,
                    label,
                    run.depth,
                    run.seldepth,
                    run.nodes,
                    seconds,
                    human(run.nodes as f64 / seconds.max(1e-9))
                )?;
                out.flush()
            })?;
        }
        middlegames.push((record.info().id, middle.position_string()));
    }
    writeln!(out)?;
    writeln!(out, "middlegame positions")?;
    for (id, position) in middlegames {
        writeln!(out, "{id:<14} {position}")?;
    }
    Ok(())
}

/// Time to depth: for each game, the totals over its middlegame positions at each depth to
/// `depth` (or its file's), with the effective branching factor.
fn depth_table(
    out: &mut impl Write,
    games: &[&dyn DynGame],
    depth: Option<u32>,
    bar: &indicatif::ProgressBar,
) -> CliResult {
    writeln!(out)?;
    writeln!(
        out,
        "time to depth (one thread, a new table a position; the middlegame positions of \
         each game's .bench file; totals over the positions; ebf: nodes over the previous depth's)"
    )?;
    writeln!(
        out,
        "{:<14} {:>9} {:>5} {:>12} {:>9} {:>12} {:>6}",
        "game", "positions", "depth", "nodes", "seconds", "nodes/s", "ebf"
    )?;
    for game in games {
        let id = game.info().id;
        bar.set_message(format!("time to depth {id}"));
        let Some(set) = depth::positions(id)? else {
            bar.inc(1);
            continue;
        };
        let totals = depth::time_to_depth(*game, &set.positions, depth.unwrap_or(set.depth))?;
        bar.inc(1);
        bar.suspend(|| {
            let mut previous = None;
            for total in &totals {
                let seconds = total.time.as_secs_f64();
                let ebf = previous.map_or("-".to_string(), |p| {
                    format!("{:.2}", depth::ebf(total.nodes, p))
                });
                writeln!(
                    out,
                    "{:<14} {:>9} {:>5} {:>12} {:>9.3} {:>12} {:>6}",
                    id,
                    set.positions.len(),
                    total.depth,
                    total.nodes,
                    seconds,
                    human(total.nodes as f64 / seconds.max(1e-9)),
                    ebf
                )?;
                previous = Some(total.nodes);
            }
            out.flush()
        })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testgame;

    #[test]
    fn perft_deepens_and_stops() {
        for game in registry::games() {
            let record = game.new_game(&Settings::new()).unwrap();
            let moves = record.legal_moves().len() as u64;
            // A tiny target: the first depth already meets it or the next is predicted too slow.
            let run = chosen_perft(record.as_ref(), 1e-12).unwrap();
            assert_eq!(run.depth, 1);
            assert_eq!(run.nodes, moves);
            let run = timed_perft(record.as_ref(), 0).unwrap();
            assert_eq!(run.nodes, 1);
        }
    }

    #[test]
    fn sample_positions_are_playable() {
        let game: &dyn DynGame = &testgame::HEX;
        let record = game.new_game(&Settings::new()).unwrap();
        let samples = sample_positions(record.as_ref(), 3);
        assert_eq!(samples[0].0, "start");
        for (_, p) in &samples {
            assert!(p.outcome().is_none());
        }
    }
}
