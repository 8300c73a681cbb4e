//! `myrmidon tactics <game>`: suites of positions with a forced win whose first move is unique,
//! proved by the engine crate's exact solver ([`myrmidon_engine::solve`]), and how many of
//! them an engine finds.
//!
//! * `--generate N`: plays seeded games between weak players (random, greedy, shallow
//!   alpha-beta, now and then a random move) to their end, asks the solver about the last
//!   plies (where the winner is to move) and one earlier position in eight, and keeps
//!   those it proves won in 1 to `--max-moves` moves of the player to move with a unique first
//!   move, about as many of each length and at most one of each length a game; writes the suite (to `--out` or standard output).
//! * `--suite FILE`: runs an engine (`builtin=search` unless `--engine` says otherwise: any
//!   `--engine` of `myrmidon match`, external UCI engines included) on each position of the
//!   suite at `--movetime`, `--nodes` or `--depth`, and prints solved/total, by length, and
//!   the failures. With `--check`, the solver proves every line again instead.
//!
//! The suite format, one position a line (`#` starts a comment, blank lines are skipped):
//!
//! ```text
//! <position string> ; <best move> ; win in <N> ; unique within <M>
//! ```
//!
//! `win in N`: the player to move wins by force within N of its own moves (the game over with
//! it the winner: a move that wins at once, a checkmate, a crossing left unanswered), and in no
//! fewer. `unique within M` (M ≥ N; optional, M = N if left out): every other first move fails
//! to force a win within M moves. Repetition is not considered (no position can occur three
//! times in such short lines from a position without history).

use std::collections::HashSet;
use std::fmt::Write as _;
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::{ArgAction, Args};
use myrmidon_arena::player::{new_player, GameView};
use myrmidon_arena::EngineSpec;
use myrmidon_engine::players::{AlphaBeta, Greedy, RandomPlayer};
use myrmidon_engine::solve::{OutOfNodes, Solver};
use myrmidon_engine::{
    with_engine_game, Control, EngineGame, EngineVisitor, Limits, Options, Score, Searcher,
};
use myrmidon_rules::rng::Rng;
use myrmidon_rules::{registry, Position, Record, Settings};

use crate::common::{CliError, CliResult};

#[derive(Args, Debug)]
pub struct TacticsArgs {
    /// The game id (`myrmidon games` lists them; two-player games).
    pub game: String,
    /// The suite to run (or with --check, to prove again).
    #[arg(long, value_name = "FILE", required_unless_present = "generate")]
    pub suite: Option<PathBuf>,
    /// Think this many milliseconds a position.
    #[arg(long, value_name = "MS", conflicts_with_all = ["nodes", "depth"],
          value_parser = clap::value_parser!(u64).range(1..))]
    pub movetime: Option<u64>,
    /// Search this many nodes a position.
    #[arg(long, value_name = "N", conflicts_with = "depth",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Search this many plies a position.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: Option<u32>,
    /// The engine, as key=value words like an --engine of `myrmidon match`
    /// (default builtin=search).
    #[arg(long = "engine", value_name = "KEY=VALUE", num_args = 1.., action = ArgAction::Append,
          allow_hyphen_values = false)]
    pub engine: Vec<String>,
    /// Prove every line of the suite again with the solver instead of running an engine.
    #[arg(long, conflicts_with_all = ["generate", "engine", "movetime", "nodes", "depth"])]
    pub check: bool,
    /// Make a suite of about this many positions.
    #[arg(long, value_name = "N", conflicts_with = "suite",
          value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub generate: Option<u32>,
    /// With --generate: the longest wins kept, in moves of the player to move.
    #[arg(long, value_name = "N", default_value_t = 3,
          value_parser = clap::value_parser!(u32).range(1..=6))]
    pub max_moves: u32,
    /// With --generate: uniqueness is proved within this many moves more than the win's
    /// length when the budget allows (else within the win's length).
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(0..=3))]
    pub margin: u32,
    /// The solver's node budget for each question (a position's win, its uniqueness).
    #[arg(long, value_name = "NODES", default_value_t = 2_000_000,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub budget: u64,
    /// With --generate: the seed of the games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// With --generate: play at most this many games.
    #[arg(long, value_name = "N", default_value_t = 2000,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub games: u32,
    /// With --generate: write the suite here rather than on standard output.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

pub fn run(args: &TacticsArgs) -> CliResult {
    let game = registry::find(&args.game)?;
    if game.info().players.len() != 2 {
        return Err(CliError::msg(format!(
            "{}: the solver proves wins of two-player games only",
            args.game
        )));
    }
    if let Some(count) = args.generate {
        let suite = with_engine_game(
            &args.game,
            Generate {
                args,
                count: count as usize,
            },
        )
        .map_err(|e| CliError::msg(e.to_string()))??;
        return match &args.out {
            Some(path) => std::fs::write(path, suite)
                .map_err(|e| CliError::msg(format!("cannot write {}: {e}", path.display()))),
            None => {
                std::io::stdout().lock().write_all(suite.as_bytes())?;
                Ok(())
            }
        };
    }
    let path = args.suite.as_ref().expect("clap requires --suite");
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::msg(format!("cannot read {}: {e}", path.display())))?;
    let lines =
        parse_suite(&text).map_err(|e| CliError::msg(format!("{}: {e}", path.display())))?;
    if lines.is_empty() {
        return Err(CliError::msg(format!(
            "{}: no position in the suite",
            path.display()
        )));
    }
    if args.check {
        let report = with_engine_game(
            &args.game,
            Check {
                lines: &lines,
                budget: args.budget,
            },
        )
        .map_err(|e| CliError::msg(e.to_string()))??;
        print!("{report}");
        return Ok(());
    }
    run_suite(args, &lines)
}

/// One line of a suite.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteLine {
    /// Its line number in the file (from 1).
    pub number: usize,
    pub position: String,
    pub best: String,
    pub moves: u32,
    pub unique_within: u32,
}

/// Reads a suite; the error names the line and what is wrong.
pub fn parse_suite(text: &str) -> Result<Vec<SuiteLine>, String> {
    let mut lines = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let number = i + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split(';').map(str::trim).collect();
        let bad = |what: &str| {
            format!(
                "line {number}: {what}: expected `<position> ; <best move> ; win in <N> [; \
                 unique within <M>]`"
            )
        };
        if !(3..=4).contains(&fields.len()) {
            return Err(bad(&format!("{} fields", fields.len())));
        }
        if fields[0].is_empty() || fields[1].is_empty() {
            return Err(bad("an empty field"));
        }
        let number_after = |field: &str, prefix: &str| -> Result<u32, String> {
            field
                .strip_prefix(prefix)
                .and_then(|n| n.trim().parse::<u32>().ok())
                .filter(|&n| (1..=100).contains(&n))
                .ok_or_else(|| bad(&format!("`{field}` is not `{prefix}<1-100>`")))
        };
        let moves = number_after(fields[2], "win in ")?;
        let unique_within = match fields.get(3) {
            Some(f) => number_after(f, "unique within ")?,
            None => moves,
        };
        if unique_within < moves {
            return Err(bad("unique within fewer moves than the win"));
        }
        lines.push(SuiteLine {
            number,
            position: fields[0].to_string(),
            best: fields[1].to_string(),
            moves,
            unique_within,
        });
    }
    Ok(lines)
}

/// Runs the engine on every line and prints the tally and the failures.
fn run_suite(args: &TacticsArgs, lines: &[SuiteLine]) -> CliResult {
    let game = registry::find(&args.game)?;
    let words = if args.engine.is_empty() {
        vec!["builtin=search".to_string()]
    } else {
        args.engine.clone()
    };
    let spec = EngineSpec::parse(&words).map_err(|e| CliError::msg(format!("--engine: {e}")))?;
    let info = game.info();
    let mut player = new_player(&spec, info.id, info.players.len()).map_err(CliError::msg)?;
    let (limits, what) = if let Some(n) = args.nodes {
        (
            Limits {
                nodes: Some(n),
                ..Limits::default()
            },
            format!("{n} nodes"),
        )
    } else if let Some(d) = args.depth {
        (Limits::depth(d), format!("depth {d}"))
    } else {
        let ms = args.movetime.unwrap_or(1000);
        (
            Limits::movetime(Duration::from_millis(ms)),
            format!("{ms} ms"),
        )
    };
    let allowed = match limits.movetime {
        Some(t) => t + spec.time_margin,
        None => Duration::from_secs(3600),
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut by_length: Vec<(u32, u32)> = Vec::new();
    let mut failures = Vec::new();
    let start = Instant::now();
    for line in lines {
        let record = game
            .new_game_at(&line.position)
            .map_err(|e| CliError::msg(format!("line {}: {e}", line.number)))?;
        let mut expected = record.clone_box();
        expected.play(&line.best).map_err(|e| {
            CliError::msg(format!(
                "line {}: best move {}: {e}",
                line.number, line.best
            ))
        })?;
        player
            .new_game(args.seed)
            .map_err(|e| CliError::msg(format!("{}: {e}", spec.name)))?;
        let view = GameView {
            record: &*record,
            fen: Some(&line.position),
            tokens: &[],
        };
        let answer = player
            .think(&view, &limits, allowed)
            .map_err(|e| CliError::msg(format!("line {}: {} {e}", line.number, spec.name)))?;
        let mut played = record.clone_box();
        let solved = played.play(&answer.text).is_ok() && played.hash() == expected.hash();
        let slot = line.moves as usize;
        if by_length.len() <= slot {
            by_length.resize(slot + 1, (0, 0));
        }
        by_length[slot].1 += 1;
        if solved {
            by_length[slot].0 += 1;
        } else {
            let score = answer
                .score
                .map_or("-".to_string(), |s: Score| s.to_string());
            let depth = answer.depth.map_or("-".to_string(), |d| d.to_string());
            failures.push(format!(
                "line {}: {} ; {} ; win in {} ; played {} (score {score}, depth {depth})",
                line.number, line.position, line.best, line.moves, answer.text
            ));
        }
    }
    let solved: u32 = by_length.iter().map(|b| b.0).sum();
    let total = lines.len() as u32;
    writeln!(
        out,
        "{}: solved {solved}/{total} ({:.1} %) with {} at {what} a position ({:.1} s)",
        args.game,
        100.0 * solved as f64 / total as f64,
        words.join(" "),
        start.elapsed().as_secs_f64()
    )?;
    for (n, (s, t)) in by_length.iter().enumerate().filter(|(_, b)| b.1 > 0) {
        writeln!(out, "  win in {n}: {s}/{t}")?;
    }
    if !failures.is_empty() {
        writeln!(out, "failures:")?;
        for f in &failures {
            writeln!(out, "  {f}")?;
        }
    }
    Ok(())
}

/// `--check`: the solver proves every line again.
struct Check<'a> {
    lines: &'a [SuiteLine],
    budget: u64,
}

impl EngineVisitor for Check<'_> {
    type Output = CliResult<String>;

    fn visit<G: EngineGame>(self, game: &'static G) -> CliResult<String> {
        let mut report = String::new();
        let mut proven = 0;
        let mut solver = Solver::<G::Pos>::new(self.budget);
        for line in self.lines {
            let pos = game
                .parse_position(&line.position)
                .map_err(|e| CliError::msg(format!("line {}: {e}", line.number)))?;
            let best = pos.parse_move(&line.best).map_err(|e| {
                CliError::msg(format!(
                    "line {}: best move {}: {e}",
                    line.number, line.best
                ))
            })?;
            solver.reset(self.budget);
            let verdict = prove_line(&mut solver, &pos, best, line);
            match verdict {
                Ok(None) => proven += 1,
                Ok(Some(why)) => {
                    let _ = writeln!(report, "line {}: {why}", line.number);
                }
                Err(OutOfNodes) => {
                    let _ = writeln!(
                        report,
                        "line {}: not proven within {} nodes",
                        line.number, self.budget
                    );
                }
            }
        }
        let _ = writeln!(
            report,
            "{}: {proven}/{} lines proven",
            game.info().id,
            self.lines.len()
        );
        Ok(report)
    }
}

/// `None` if the line is right, else what is wrong with it.
fn prove_line<P: Position>(
    solver: &mut Solver<P>,
    pos: &P,
    best: P::Move,
    line: &SuiteLine,
) -> Result<Option<String>, OutOfNodes> {
    if line.moves > 1 && solver.wins_within(pos, line.moves - 1)? {
        return Ok(Some(format!("a win in fewer than {} moves", line.moves)));
    }
    if !solver.move_wins_within(pos, best, line.moves)? {
        return Ok(Some(format!(
            "{} does not win within {} moves",
            line.best, line.moves
        )));
    }
    if !solver.only_winner(pos, best, line.unique_within)? {
        return Ok(Some(format!(
            "another first move wins within {} moves",
            line.unique_within
        )));
    }
    Ok(None)
}

/// `--generate`.
struct Generate<'a> {
    args: &'a TacticsArgs,
    count: usize,
}

/// The weak players of the generator's games, by name: one of the first three against one of
/// the last three (so that most games end in a win, near which forced wins are found).
const PLAYERS: [&str; 4] = ["alphabeta:depth=2", "alphabeta:depth=1", "greedy", "random"];

fn weak_player<G: EngineGame>(name: &str, seed: u64) -> Box<dyn Searcher<G::Pos>> {
    let options = Options {
        seed,
        hash_mb: 1,
        ..Options::default()
    };
    match name {
        "random" => Box::new(RandomPlayer::new(&options)),
        "greedy" => Box::new(Greedy::<G::Eval>::new(&options)),
        "alphabeta:depth=1" => Box::new(AlphaBeta::<G::Pos, G::Eval>::new(1, &options)),
        _ => Box::new(AlphaBeta::<G::Pos, G::Eval>::new(2, &options)),
    }
}

impl EngineVisitor for Generate<'_> {
    type Output = CliResult<String>;

    fn visit<G: EngineGame>(self, game: &'static G) -> CliResult<String> {
        let args = self.args;
        let id = game.info().id;
        let max = args.max_moves;
        // About as many of each length; the lengths found short of their share leave room
        // for the others at the end.
        let share = self.count.div_ceil(max as usize);
        let mut kept: Vec<Vec<String>> = vec![Vec::new(); max as usize + 1];
        let mut seen = HashSet::new();
        let mut rng = Rng::new(args.seed);
        let mut solver = Solver::<G::Pos>::new(args.budget);
        let started = Instant::now();
        let mut games = 0;
        let mut asked = 0u64;
        let mut out_of_nodes = 0u64;
        let full = |kept: &Vec<Vec<String>>| kept[1..].iter().all(|k| k.len() >= share);
        while games < args.games && !full(&kept) {
            games += 1;
            let mut names = [PLAYERS[rng.below(3)], PLAYERS[1 + rng.below(3)]];
            if rng.below(2) == 0 {
                names.swap(0, 1);
            }
            let mut players = [
                weak_player::<G>(names[0], rng.next_u64()),
                weak_player::<G>(names[1], rng.next_u64()),
            ];
            let mut record = Record::new(
                game.start(&Settings::new())
                    .map_err(|e| CliError::msg(e.to_string()))?,
            );
            // The game to its end first.
            let mut positions = Vec::new();
            for _ in 0..300 {
                if record.outcome().is_some() {
                    break;
                }
                let pos = record.position().clone();
                // Mostly the players' moves, now and then a random one.
                let mv = if rng.below(8) == 0 {
                    let moves = pos.moves();
                    moves[rng.below(moves.len())]
                } else {
                    let seat = pos.to_move() as usize % 2;
                    players[seat]
                        .search(
                            &record,
                            &Limits::default(),
                            &Control::unlimited(),
                            &mut |_| {},
                        )
                        .expect("a game not over has a move")
                };
                positions.push(pos);
                record
                    .play(mv)
                    .map_err(|e| CliError::msg(format!("{id}: {e}")))?;
            }
            // Forced wins are most often near a decisive end: the last plies, latest first,
            // then one position in eight before them.
            let winner = record.outcome().and_then(|o| o.winner());
            let len = positions.len();
            let near_end = (0..len).rev().take(16);
            let earlier = (2..len.saturating_sub(16)).filter(|_| rng.below(8) == 0);
            let candidates: Vec<usize> = near_end
                .filter(|&i| winner.is_none_or(|w| positions[i].to_move() == w))
                .chain(earlier)
                .collect();
            // One position of each length a game, for variety (the positions of one game
            // are much alike).
            let mut taken = vec![false; max as usize + 1];
            for i in candidates {
                let pos = &positions[i];
                if !seen.insert(pos.hash()) {
                    continue;
                }
                asked += 1;
                solver.reset(args.budget);
                match solver.solve(pos, max) {
                    Ok(Some(win))
                        if kept[win.moves as usize].len() < share && !taken[win.moves as usize] =>
                    {
                        if let Some(line) = unique_line(&mut solver, pos, win, args)? {
                            kept[win.moves as usize].push(line);
                            taken[win.moves as usize] = true;
                        }
                    }
                    Ok(_) => {}
                    Err(OutOfNodes) => out_of_nodes += 1,
                }
            }
            if games % 10 == 0 {
                eprintln!(
                    "{id}: {games} games, {asked} positions asked ({out_of_nodes} over budget), \
                     kept {:?}, {:.0} s",
                    kept[1..].iter().map(Vec::len).collect::<Vec<_>>(),
                    started.elapsed().as_secs_f64()
                );
            }
        }
        let mut suite = format!(
            "# {id}: positions where the player to move wins by force, with a unique first move,\n\
             # proved by the solver of myrmidon_engine::solve (see crates/cli/src/tactics.rs).\n\
             # Made by: myrmidon tactics {id} --generate {} --max-moves {max} --margin {} \
             --budget {} --seed {} --games {}\n\
             # ({games} games played, {asked} positions asked, {out_of_nodes} over budget.)\n\
             # <position> ; <best move> ; win in <N> ; unique within <M>\n",
            self.count, args.margin, args.budget, args.seed, args.games
        );
        for lines in &kept[1..] {
            for line in lines {
                suite.push_str(line);
                suite.push('\n');
            }
        }
        Ok(suite)
    }
}

/// The suite line of a proven win if its first move is unique (within the margin if the
/// budget allows, else within the win's length), else `None`.
fn unique_line<P: Position>(
    solver: &mut Solver<P>,
    pos: &P,
    win: myrmidon_engine::solve::Win<P::Move>,
    args: &TacticsArgs,
) -> CliResult<Option<String>> {
    let mut bound = win.moves + args.margin;
    loop {
        solver.reset(args.budget);
        match solver.only_winner(pos, win.first, bound) {
            Ok(true) => break,
            Ok(false) => return Ok(None),
            Err(OutOfNodes) if bound > win.moves => bound -= 1,
            Err(OutOfNodes) => return Ok(None),
        }
    }
    let text = pos.to_string();
    if text.contains(';') {
        return Err(CliError::msg(format!(
            "a position string with `;` cannot be written in a suite: {text}"
        )));
    }
    Ok(Some(format!(
        "{text} ; {} ; win in {} ; unique within {bound}",
        pos.move_text(win.first),
        win.moves
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suites_read_and_errors_name_the_line() {
        let text = "# a comment\n\nP w ; a1a2 ; win in 2 ; unique within 3\nQ b;b2b3;win in 1\n";
        let lines = parse_suite(text).unwrap();
        assert_eq!(lines.len(), 2);
        assert_eq!(
            lines[0],
            SuiteLine {
                number: 3,
                position: "P w".to_string(),
                best: "a1a2".to_string(),
                moves: 2,
                unique_within: 3
            }
        );
        assert_eq!((lines[1].moves, lines[1].unique_within), (1, 1));
        for (bad, what) in [
            ("x ; y", "line 1: 2 fields"),
            ("x ; y ; win in", "`win in` is not"),
            ("x ; y ; mate in 2", "`mate in 2` is not"),
            ("x ; ; win in 2", "an empty field"),
            ("x ; y ; win in 3 ; unique within 2", "fewer moves"),
            ("x ; y ; win in 0", "not `win in <1-100>`"),
        ] {
            let err = parse_suite(bad).unwrap_err();
            assert!(err.contains(what), "{bad}: {err}");
        }
    }
}
