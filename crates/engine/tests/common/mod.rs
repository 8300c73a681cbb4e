//! What the engine's test files share: the game ids and positions from random play.
#![allow(dead_code)]

use myrmidon_engine::EngineGame;
use myrmidon_rules::rng::Rng;
use myrmidon_rules::{Position, Record, Settings};

/// Every game id of the registry (a new game is tested with the others).
pub fn ids() -> Vec<&'static str> {
    myrmidon_rules::registry::games()
        .iter()
        .map(|g| g.info().id)
        .collect()
}

/// Plays random games from the start and calls `visit` on each unfinished position reached,
/// until it returns true or the games run out.
pub fn scan<G: EngineGame>(
    game: &G,
    seed: u64,
    games: usize,
    mut visit: impl FnMut(&Record<G::Pos>) -> bool,
) {
    let mut rng = Rng::new(seed);
    for _ in 0..games {
        let mut record = Record::new(game.start(&Settings::new()).unwrap());
        for _ in 0..400 {
            if record.outcome().is_some() {
                break;
            }
            if visit(&record) {
                return;
            }
            let moves = record.position().moves();
            let mv = moves[rng.below(moves.len())];
            record.play(mv).unwrap();
        }
    }
}

/// The moves that win on the spot.
pub fn wins_at_once<P: Position>(pos: &P) -> Vec<P::Move> {
    let me = pos.to_move();
    let mut after = pos.clone();
    pos.moves()
        .iter()
        .copied()
        .filter(|&m| {
            // By rule (`tactics`), or by the outcome after it (Ant Chess' checkmates).
            pos.tactics(m).wins || {
                let undo = after.make_move(m);
                let won = after.outcome().and_then(|o| o.winner()) == Some(me);
                after.unmake_move(m, undo);
                won
            }
        })
        .collect()
}
