//! Openings: where each game pair (each set of seat orders) starts. From a file of position
//! strings (`--openings`), or a few random plies from the start (`--random-opening N`) kept
//! only when a short search finds them balanced.

use myrmidon_engine::{new_searcher, Control, Limits, Options, PlayerSpec, Score};
use myrmidon_rules::rng::Rng;
use myrmidon_rules::{DynGame, DynRecord};

/// Where a game starts: a position, then moves played for the players (shown as `book` in the
/// records).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The start position string.
    pub start: String,
    /// Moves from there, in canonical move text.
    pub moves: Vec<String>,
}

impl Opening {
    /// The game at the end of the opening.
    pub fn record(&self, game: &dyn DynGame) -> Result<Box<dyn DynRecord>, String> {
        let mut record = game
            .new_game_at(&self.start)
            .map_err(|e| format!("bad opening position `{}`: {e}", self.start))?;
        for mv in &self.moves {
            record
                .play(mv)
                .map_err(|e| format!("bad opening move `{mv}`: {e}"))?;
        }
        Ok(record)
    }
}

/// Reads an openings file: one position string a line; blank lines and lines starting with `#`
/// are skipped. Each is checked with the rules library: a bad line, or a position whose game
/// is already over, is an error naming the line.
pub fn read_openings(game: &dyn DynGame, text: &str) -> Result<Vec<Opening>, String> {
    let mut openings = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let record = game
            .new_game_at(line)
            .map_err(|e| format!("line {}: {e}", i + 1))?;
        if let Some(outcome) = record.outcome() {
            return Err(format!(
                "line {}: the game is already over there ({})",
                i + 1,
                outcome.describe(record.player_names(), record.info().players_number)
            ));
        }
        openings.push(Opening {
            start: line.to_string(),
            moves: Vec::new(),
        });
    }
    if openings.is_empty() {
        return Err("no position in the file (only blank lines and comments)".to_string());
    }
    Ok(openings)
}

/// How far from level, in centipawns from the mover's view, a random opening may be.
pub const BALANCE_CP: i32 = 150;
/// The depth of the search that judges a random opening.
pub const BALANCE_DEPTH: u32 = 2;
/// How many random openings are tried before the most level one found is taken.
pub const BALANCE_TRIES: usize = 200;

/// `plies` random moves from `start`, kept when the game is not over and a depth-2 alpha-beta
/// search (material only) scores the position, for the player to move, within ±[`BALANCE_CP`]
/// centipawns of what it says of `start` itself (zero in two-player games, where both sides
/// have the same army; with three players a material count from one player's view is far from
/// zero even at the start); else tried again, [`BALANCE_TRIES`] times at most, after which the
/// most level one found is taken. The same `seed` gives the same opening.
pub fn random_opening(
    game: &dyn DynGame,
    start: &dyn DynRecord,
    plies: usize,
    seed: u64,
) -> Opening {
    let opening = |moves: Vec<String>| Opening {
        start: start.start_string(),
        moves,
    };
    if plies == 0 {
        return opening(Vec::new());
    }
    let mut rng = Rng::new(seed);
    let mut judge = new_searcher(
        game.info().id,
        &PlayerSpec::AlphaBeta {
            depth: BALANCE_DEPTH,
        },
        &Options {
            seed,
            ..Options::default()
        },
    )
    .ok();
    let mut judge_score = |record: &dyn DynRecord| -> Option<i32> {
        let judge = judge.as_mut()?;
        let mut score = None;
        let found = judge.search(
            record,
            &Limits::depth(BALANCE_DEPTH),
            &Control::unlimited(),
            &mut |r| {
                if r.multipv <= 1 {
                    score = Some(r.score)
                }
            },
        );
        match (found, score) {
            (Ok(Some(_)), Some(Score::Cp(cp))) => Some(cp),
            _ => None,
        }
    };
    // What the same search says of the start: level, by definition (with three players a
    // material count from one player's view is far from zero even there).
    let Some(level) = judge_score(start) else {
        let line = random_line(start, plies, &mut rng);
        return opening(line.map(|(m, _)| m).unwrap_or_default());
    };
    let mut best: Option<(i64, Vec<String>)> = None;
    for _ in 0..BALANCE_TRIES {
        let Some((moves, record)) = random_line(start, plies, &mut rng) else {
            continue;
        };
        let off =
            judge_score(&*record).map_or(i64::MAX, |cp| (i64::from(cp) - i64::from(level)).abs());
        if off <= i64::from(BALANCE_CP) {
            return opening(moves);
        }
        if best.as_ref().is_none_or(|(b, _)| off < *b) {
            best = Some((off, moves));
        }
    }
    // No balanced opening in all those tries: the most level one, or none at all if every
    // random line ended the game.
    opening(best.map(|(_, m)| m).unwrap_or_default())
}

/// `plies` random legal moves from `start` and the game after them, or `None` if the game ends
/// before or on the last.
fn random_line(
    start: &dyn DynRecord,
    plies: usize,
    rng: &mut Rng,
) -> Option<(Vec<String>, Box<dyn DynRecord>)> {
    let mut record = start.clone_box();
    let mut moves = Vec::new();
    while moves.len() < plies {
        if record.outcome().is_some() {
            return None;
        }
        let legal = record.legal_moves();
        if legal.is_empty() {
            return None;
        }
        let mv = &legal[rng.below(legal.len())];
        record.play(&mv.text).ok()?;
        moves.push(mv.text.clone());
    }
    record.outcome().is_none().then_some((moves, record))
}

#[cfg(test)]
mod tests {
    use super::*;
    use myrmidon_rules::registry;

    #[test]
    fn openings_files_skip_comments_and_name_bad_lines() {
        for game in registry::games() {
            let start = game.new_game(&Default::default()).unwrap().start_string();
            let text = format!("# openings\n\n{start}\n  {start}  \n");
            let openings = read_openings(*game, &text).unwrap();
            assert_eq!(openings.len(), 2);
            assert_eq!(openings[1].start, start);
            let e = read_openings(*game, &format!("{start}\n# x\nnot a position\n")).unwrap_err();
            assert!(e.starts_with("line 3: "), "{e}");
            let e = read_openings(*game, "# nothing\n\n").unwrap_err();
            assert!(e.contains("no position"), "{e}");
        }
    }

    #[test]
    fn random_openings_are_reproducible_and_balanced() {
        for game in registry::games() {
            let start = game.new_game(&Default::default()).unwrap();
            let a = random_opening(*game, &*start, 4, 7);
            let b = random_opening(*game, &*start, 4, 7);
            assert_eq!(a, b, "{}", game.info().id);
            assert_eq!(a.moves.len(), 4);
            let record = a.record(*game).unwrap();
            assert!(record.outcome().is_none());
            assert_eq!(record.history().len(), 4);
            let mut judge = new_searcher(
                game.info().id,
                &PlayerSpec::AlphaBeta { depth: 2 },
                &Options {
                    seed: 7,
                    ..Options::default()
                },
            )
            .unwrap();
            let mut score_of = |record: &dyn DynRecord| {
                let mut score = None;
                judge
                    .search(record, &Limits::depth(2), &Control::unlimited(), &mut |r| {
                        score = Some(r.score)
                    })
                    .unwrap();
                match score {
                    Some(Score::Cp(cp)) => cp,
                    other => panic!("{}: {other:?}", game.info().id),
                }
            };
            let level = score_of(&*start);
            let score = score_of(&*record);
            assert!(
                (score - level).abs() <= BALANCE_CP,
                "{}: {score} against {level} at the start",
                game.info().id
            );
            assert!(random_opening(*game, &*start, 0, 7).moves.is_empty());
        }
    }
}
