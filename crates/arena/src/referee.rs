//! One game: the referee asks each seat's player for a move, checks it with the rules library,
//! keeps a clock per seat, and ends the game by the rules, by a fault, or by adjudication.
//!
//! The game is one record played forward move by move (never replayed from the start); the
//! tokens that external engines get in `position … moves …` grow with it. A player that
//! faults (crash, hang, illegal move or garbage) loses: between two players the other wins
//! (the reason is `crash`, `time` or `illegal-move`); between three it drops out
//! ([`DynRecord::drop_out`]), the token `out:<seat>:<reason>` joins the move list, and the
//! others play on. The faulty program is killed; the next game starts it again.

use std::time::{Duration, Instant};

use myrmidon_engine::Score;
use myrmidon_rules::{DynGame, DynRecord, GameResult, Outcome, Reason};

use crate::clock::{Clocks, MoveLimit};
use crate::openings::Opening;
use crate::player::{Fault, GameView, Player};

/// How a game is played, beyond who plays it.
#[derive(Clone, Copy, Debug)]
pub struct GameRules {
    pub limit: MoveLimit,
    /// Moves played by the players (the opening's not counted) after which the game is a draw
    /// by adjudication.
    pub max_plies: Option<usize>,
    /// How long a move may take with no clock (`--depth`, `--nodes`) before its engine counts
    /// as hung.
    pub move_timeout: Duration,
}

/// One entry of a game's move list.
#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    /// The canonical move text, or `out:<seat>:<reason>`.
    pub text: String,
    /// `book` for opening moves; `+0.35/12 0.51s` (score in pawns from the mover's view,
    /// depth, time) for a player's; the fault for a dropout.
    pub comment: Option<String>,
}

/// A game played to its end.
pub struct Played {
    pub record: Box<dyn DynRecord>,
    pub result: GameResult,
    /// Points per seat.
    pub points: Vec<f64>,
    /// The fault that lost each seat the game, if any.
    pub faults: Vec<Option<Fault>>,
    /// Every move and dropout from the start, opening included.
    pub tokens: Vec<Token>,
    /// How many plies of the opening `tokens` starts with.
    pub opening_plies: usize,
    /// Moves the players made.
    pub plies: usize,
    pub duration: Duration,
}

impl Clone for Played {
    fn clone(&self) -> Self {
        Played {
            record: self.record.clone_box(),
            result: self.result.clone(),
            points: self.points.clone(),
            faults: self.faults.clone(),
            tokens: self.tokens.clone(),
            opening_plies: self.opening_plies,
            plies: self.plies,
            duration: self.duration,
        }
    }
}

/// A cutechess-style move comment: `+0.35/12 0.51s`, `+M3/9 0.20s`, or the time alone.
pub fn move_comment(score: Option<Score>, depth: Option<u32>, elapsed: Duration) -> String {
    let time = format!("{:.2}s", elapsed.as_secs_f64());
    let score = match score {
        Some(Score::Cp(cp)) => format!("{:+.2}", f64::from(cp) / 100.0),
        Some(Score::Mate(n)) if n >= 0 => format!("+M{n}"),
        Some(Score::Mate(n)) => format!("-M{}", -n),
        None => return time,
    };
    match depth {
        Some(d) => format!("{score}/{d} {time}"),
        None => format!("{score} {time}"),
    }
}

/// Plays one game from `opening` between `players` (one per seat, in turn order), each with its
/// time margin. `standard_start` is the game's standard start position string (for
/// `position startpos`); `seeds` seeds each seat's random choices.
pub fn play_game(
    game: &dyn DynGame,
    opening: &Opening,
    standard_start: &str,
    rules: &GameRules,
    players: &mut [Box<dyn Player>],
    margins: &[Duration],
    seeds: &[u64],
) -> Result<Played, String> {
    let begun = Instant::now();
    let mut record = game
        .new_game_at(&opening.start)
        .map_err(|e| format!("bad opening position `{}`: {e}", opening.start))?;
    let seats = record.player_names().len();
    if players.len() != seats || margins.len() != seats || seeds.len() != seats {
        return Err(format!(
            "{} has {seats} players, the referee got {}",
            game.info().id,
            players.len()
        ));
    }
    let mut tokens: Vec<Token> = Vec::new();
    for mv in &opening.moves {
        let played = record
            .play(mv)
            .map_err(|e| format!("bad opening move `{mv}`: {e}"))?;
        tokens.push(Token {
            text: played.text,
            comment: Some("book".to_string()),
        });
    }
    let opening_plies = tokens.len();
    let fen = (opening.start != standard_start).then_some(opening.start.as_str());
    let mut texts: Vec<String> = tokens.iter().map(|t| t.text.clone()).collect();
    let mut faults: Vec<Option<Fault>> = vec![None; seats];
    let mut clocks = Clocks::new(rules.limit, seats);
    let mut plies = 0;

    // A fault: the seat leaves (two players: the other wins), its program is killed.
    let mut fault = |record: &mut Box<dyn DynRecord>,
                     texts: &mut Vec<String>,
                     tokens: &mut Vec<Token>,
                     players: &mut [Box<dyn Player>],
                     seat: usize,
                     f: Fault| {
        players[seat].kill();
        if record.drop_out(seat as u8, f.reason()) {
            if seats > 2 {
                let text = format!("out:{}:{}", seat + 1, f.reason().id);
                texts.push(text.clone());
                tokens.push(Token {
                    text,
                    comment: Some(f.to_string()),
                });
            }
            faults[seat] = Some(f);
        }
    };

    for (seat, &seed) in seeds.iter().enumerate() {
        if record.outcome().is_some() {
            break;
        }
        if let Err(f) = players[seat].new_game(seed) {
            fault(&mut record, &mut texts, &mut tokens, players, seat, f);
        }
    }
    while record.outcome().is_none() {
        if rules.max_plies.is_some_and(|m| plies >= m) {
            record.declare(Outcome::Draw {
                reason: Reason::ADJUDICATION,
            });
            break;
        }
        let seat = record.to_move() as usize;
        let limits = clocks.limits(seat);
        let allowed = clocks.allowed(seat, margins[seat], rules.move_timeout);
        let view = GameView {
            record: &*record,
            fen,
            tokens: &texts,
        };
        let started = Instant::now();
        let answer = players[seat].think(&view, &limits, allowed);
        let elapsed = started.elapsed();
        let answer = match answer {
            Ok(_) if elapsed > allowed => Err(Fault::Timeout(format!(
                "answered after {:.3} s, {:.3} s allowed",
                elapsed.as_secs_f64(),
                allowed.as_secs_f64()
            ))),
            other => other,
        };
        let answer = answer.and_then(|a| match record.play(&a.text) {
            Ok(played) => Ok((a, played.text)),
            Err(e) if a.text.is_empty() => Err(Fault::Illegal(format!("an empty bestmove: {e}"))),
            Err(e) => Err(Fault::Illegal(format!("`{}`: {e}", a.text))),
        });
        match answer {
            Ok((a, text)) => {
                clocks.charge(seat, elapsed);
                plies += 1;
                texts.push(text.clone());
                tokens.push(Token {
                    text,
                    comment: Some(move_comment(a.score, a.depth, elapsed)),
                });
            }
            Err(f) => fault(&mut record, &mut texts, &mut tokens, players, seat, f),
        }
    }
    let result = record
        .result()
        .ok_or_else(|| "the game ended without a result".to_string())?;
    let points = result.points(seats);
    Ok(Played {
        record,
        result,
        points,
        faults,
        tokens,
        opening_plies,
        plies,
        duration: begun.elapsed(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_comments_read_like_cutechess() {
        let ms = Duration::from_millis;
        assert_eq!(
            move_comment(Some(Score::Cp(35)), Some(12), ms(510)),
            "+0.35/12 0.51s"
        );
        assert_eq!(
            move_comment(Some(Score::Cp(-120)), Some(3), ms(5)),
            "-1.20/3 0.01s"
        );
        assert_eq!(
            move_comment(Some(Score::Mate(3)), Some(9), ms(200)),
            "+M3/9 0.20s"
        );
        assert_eq!(
            move_comment(Some(Score::Mate(-2)), None, ms(0)),
            "-M2 0.00s"
        );
        assert_eq!(move_comment(None, Some(4), ms(1234)), "1.23s");
        assert_eq!(
            move_comment(Some(Score::Cp(0)), Some(1), ms(0)),
            "+0.00/1 0.00s"
        );
    }
}
