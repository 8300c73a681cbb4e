//! `myrmidon tune <game> --records <file>...`: fits the weights of the game's evaluator to the
//! results of finished games (texel's method, `myrmidon_engine::tune`) and prints the error
//! before and after and the weights; `--out` writes them as a weights file. With `--verbose`
//! the error after each pass goes to standard error.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use myrmidon_engine::tune::{tune_records, Sampling, TuneSettings};
use myrmidon_engine::{engine_game_ids, Weight};
use myrmidon_rules::pgn::read_games;
use myrmidon_rules::DynRecord;

use crate::common::{CliError, CliResult};

#[derive(Args, Debug)]
pub struct TuneArgs {
    /// The game whose evaluator to tune (an id of `myrmidon games`).
    pub game: String,

    /// Record files of finished games of this game (`myrmidon match --records`).
    #[arg(long, value_name = "FILE", num_args = 1.., required = true)]
    pub records: Vec<PathBuf>,

    /// Write the tuned weights here, one `<name> <value>` a line.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,

    /// Start from the weights of this file instead of the evaluator's defaults.
    #[arg(long, value_name = "FILE")]
    pub weights: Option<PathBuf>,

    /// The most passes of gradient descent (50 steps each).
    #[arg(
        long,
        default_value_t = 100,
        value_name = "N",
        allow_negative_numbers = true
    )]
    pub iterations: u32,

    /// Leave out the first plies of every game (random openings).
    #[arg(
        long,
        default_value_t = 8,
        value_name = "N",
        allow_negative_numbers = true
    )]
    pub skip_plies: u32,

    /// Take at most N quiet positions of each game, evenly spread (default: all), so that
    /// long games do not outweigh the others.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = clap::value_parser!(u32).range(1..))]
    pub per_game: Option<u32>,

    /// The weight of each game's result in the labels, from 0 to 1; the rest is the score
    /// the moving engine wrote in its move's comment (`+0.35/12`, as `myrmidon match
    /// --records` writes them), `sigmoid(score-scale · score)`. Below 1, positions whose move
    /// has no score are left out.
    #[arg(long, default_value_t = 1.0, value_name = "W", value_parser = unit_interval, allow_negative_numbers = true)]
    pub result_weight: f64,

    /// The scale of the comments' scores in the labels (default ln 10 / 400: 400 centipawns
    /// are odds of ten to one).
    #[arg(long, default_value_t = myrmidon_engine::tune::SCORE_SCALE, value_name = "S", value_parser = positive, allow_negative_numbers = true)]
    pub score_scale: f64,

    /// How strongly every weight is pulled back to its starting value, `l2 · Σ (K · (w −
    /// w₀))²` added to the error.
    #[arg(long, default_value_t = myrmidon_engine::tune::DEFAULT_L2, value_name = "L", value_parser = non_negative, allow_negative_numbers = true)]
    pub l2: f64,

    /// Leave every N-th game out of the fit and print the error on its positions before and
    /// after, to see whether the weights generalise (0: none).
    #[arg(
        long,
        default_value_t = 0,
        value_name = "N",
        value_parser = holdout,
        allow_negative_numbers = true
    )]
    pub holdout: u32,

    /// Hold the weights whose names start with PREFIX at their starting values (repeatable):
    /// `--fix material` anchors the piece values while the terms collinear with them are
    /// fitted; a group left at 0 stays out of the evaluation.
    #[arg(long, value_name = "PREFIX")]
    pub fix: Vec<String>,

    /// Four times the learning rate of the gradient descent, in centipawns.
    #[arg(long, default_value_t = 16, value_name = "N", value_parser = clap::value_parser!(i32).range(1..=1000), allow_negative_numbers = true)]
    pub step: i32,

    /// Print the error after every pass on standard error.
    #[arg(long, short)]
    pub verbose: bool,
}

fn unit_interval(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(w) if (0.0..=1.0).contains(&w) => Ok(w),
        _ => Err(format!("`{text}` is not a number from 0 to 1")),
    }
}

fn non_negative(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && s >= 0.0 => Ok(s),
        _ => Err(format!("`{text}` is not a number of 0 or more")),
    }
}

/// 0 (nothing held out) or at least 2: with 1 every game would be held out.
fn holdout(text: &str) -> Result<u32, String> {
    match text.parse::<u32>() {
        Ok(1) => Err("1 would hold out every game: give 0 (none) or 2 or more".to_string()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("`{text}` is not a whole number of 0 or more")),
    }
}

fn positive(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 => Ok(s),
        _ => Err(format!("`{text}` is not a positive number")),
    }
}

pub fn run(args: &TuneArgs) -> CliResult {
    let game = args.game.as_str();
    if !engine_game_ids().contains(&game) {
        // The engine's list of games is the registry's (a test of the engine crate checks).
        return Err(myrmidon_rules::registry::find(game)
            .err()
            .map(CliError::from)
            .unwrap_or_else(|| CliError::msg(format!("the engine does not play {game}"))));
    }
    // Each game with its moves' comments (where the engines wrote their scores).
    type Commented = (Box<dyn DynRecord>, Vec<Option<String>>);
    let mut records: Vec<Commented> = Vec::new();
    for path in &args.records {
        let text = std::fs::read_to_string(path)
            .map_err(|e| CliError::msg(format!("cannot read --records {}: {e}", path.display())))?;
        let games = read_games(&text)
            .map_err(|e| CliError::msg(format!("bad --records {}: {e}", path.display())))?;
        for read in games {
            let id = read.record.info().id;
            if id != game {
                return Err(CliError::msg(format!(
                    "--records {}: the game on line {} is {id}, not {game}",
                    path.display(),
                    read.line
                )));
            }
            records.push((read.record, read.comments));
        }
    }
    let start = match &args.weights {
        Some(path) => Some(std::fs::read_to_string(path).map_err(|e| {
            CliError::msg(format!("cannot read --weights {}: {e}", path.display()))
        })?),
        None => None,
    };
    let finished = records.iter().filter(|r| r.0.result().is_some()).count();
    let settings = TuneSettings {
        iterations: args.iterations,
        step: args.step,
        k: None,
        l2: args.l2,
        holdout: args.holdout as usize,
        fixed: args.fix.clone(),
    };
    let refs: Vec<(&dyn DynRecord, &[Option<String>])> = records
        .iter()
        .map(|(r, c)| (r.as_ref(), c.as_slice()))
        .collect();
    let outcome = tune_records(
        game,
        &refs,
        start.as_deref(),
        Sampling {
            skip_plies: args.skip_plies as usize,
            per_game: args.per_game.map(|n| n as usize),
            result_weight: args.result_weight,
            score_scale: args.score_scale,
        },
        &settings,
        &mut |p| {
            if args.verbose {
                eprintln!("pass {} step {}: error {:.6}", p.pass, p.step, p.error)
            }
        },
    )
    .map_err(|e| match (&args.weights, e) {
        (Some(path), myrmidon_engine::tune::TuneError::Weights(e)) => {
            CliError::msg(format!("bad --weights {}: {e}", path.display()))
        }
        (_, e) => CliError::msg(e.to_string()),
    })?;

    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    writeln!(
        out,
        "{game}: {} quiet positions from {finished} finished games of {}",
        outcome.samples,
        records.len()
    )?;
    writeln!(out, "k {:.6}", outcome.k)?;
    if outcome.k_at_bound {
        eprintln!(
            "myrmidon: warning: k is at the end of its range ({} to {}): the evaluation hardly \
             predicts the results of these games, and the tuned weights mean little",
            myrmidon_engine::tune::K_MIN,
            myrmidon_engine::tune::K_MAX
        );
    }
    writeln!(out, "error before {:.6}", outcome.error_before)?;
    writeln!(
        out,
        "error after {:.6} ({} passes)",
        outcome.error_after, outcome.passes
    )?;
    if let Some(v) = &outcome.validation {
        writeln!(
            out,
            "held-out error before {:.6} after {:.6} ({} positions)",
            v.before, v.after, v.samples
        )?;
    }
    let width = outcome
        .after
        .iter()
        .map(|w| w.name.len())
        .max()
        .unwrap_or(0);
    writeln!(out, "{:width$} {:>6} {:>6}", "weight", "before", "after")?;
    for (before, after) in outcome.before.iter().zip(&outcome.after) {
        writeln!(
            out,
            "{:width$} {:>6} {:>6}",
            after.name, before.value, after.value
        )?;
    }
    if let Some(path) = &args.out {
        let text = weights_file(game, &outcome.after, &outcome);
        std::fs::write(path, text)
            .map_err(|e| CliError::msg(format!("cannot write --out {}: {e}", path.display())))?;
    }
    Ok(())
}

/// The weights file: a comment saying where it comes from, then one weight a line.
fn weights_file(
    game: &str,
    weights: &[Weight],
    outcome: &myrmidon_engine::tune::TuneOutcome,
) -> String {
    format!(
        "# {game} weights from myrmidon tune: {} quiet positions, k {:.6}, error {:.6} -> {:.6}\n{}",
        outcome.samples,
        outcome.k,
        outcome.error_before,
        outcome.error_after,
        myrmidon_engine::eval::write_weights(weights)
    )
}
