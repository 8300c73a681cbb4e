//! Checks every game's tests share: random legal games along which the position string
//! round-trips, make/unmake restores the position and its hash, the incremental hash equals the
//! recomputed one, the fast generator agrees with a slow obvious one, and every move's text
//! reads back to the same move. Used by tests; public so that every game (and later crates) can
//! call it.

use std::collections::BTreeSet;

use crate::game::{Game, Position};
pub use crate::rng::Rng;

/// Checks one position; panics with the position string on the first failure. The position
/// must read back from its string exactly, as every position reached by moves does (not, for
/// one, an `antchess3` position after a dropout, whose string omits who has left).
pub fn check_position<G: Game>(
    game: &G,
    pos: &G::Pos,
    slow: &dyn Fn(&G::Pos) -> Vec<String>,
) -> Vec<<G::Pos as Position>::Move> {
    let text = pos.to_string();
    let reparsed = game
        .parse_position(&text)
        .unwrap_or_else(|e| panic!("{text}: printed string does not parse: {e}"));
    assert_eq!(reparsed.to_string(), text, "round trip of {text}");
    assert_eq!(
        reparsed.hash(),
        pos.hash(),
        "hash after round trip of {text}"
    );
    assert_eq!(
        pos.hash(),
        pos.hash_from_scratch(),
        "incremental hash of {text}"
    );

    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    assert_eq!(
        pos.count_legal_moves(),
        moves.len() as u64,
        "count_legal_moves of {text}"
    );
    let fast: Vec<String> = moves.iter().map(|&m| pos.move_text(m)).collect();
    let fast_set: BTreeSet<String> = fast.iter().cloned().collect();
    assert_eq!(
        fast_set.len(),
        fast.len(),
        "duplicate moves in {text}: {fast:?}"
    );
    let slow_set: BTreeSet<String> = slow(pos).into_iter().collect();
    let extra: Vec<_> = fast_set.difference(&slow_set).collect();
    let missing: Vec<_> = slow_set.difference(&fast_set).collect();
    assert!(
        extra.is_empty() && missing.is_empty(),
        "{text}: generated but not legal {extra:?}; legal but not generated {missing:?}"
    );

    for &mv in &moves {
        let t = pos.move_text(mv);
        let parsed = pos
            .parse_move(&t)
            .unwrap_or_else(|e| panic!("{text}: move text {t} does not parse back: {e}"));
        assert_eq!(parsed, mv, "{text}: {t} parses to another move");
        let mut after = pos.clone();
        let undo = after.make_move(mv);
        assert_eq!(
            after.hash(),
            after.hash_from_scratch(),
            "{text}: incremental hash after {t}"
        );
        after.unmake_move(mv, undo);
        assert_eq!(&after, pos, "{text}: unmake of {t} does not restore");
        assert_eq!(after.hash(), pos.hash(), "{text}: hash after unmake of {t}");
    }
    moves
}

/// Plays `games` random games of at most `plies` plies from `start`, checking every position
/// with [`check_position`]. Returns how many positions were checked.
pub fn check_random_games<G: Game>(
    game: &G,
    start: &G::Pos,
    games: usize,
    plies: usize,
    seed: u64,
    slow: &dyn Fn(&G::Pos) -> Vec<String>,
) -> usize {
    let mut rng = Rng::new(seed);
    let mut checked = 0;
    for _ in 0..games {
        let mut pos = start.clone();
        for _ in 0..plies {
            let moves = check_position(game, &pos, slow);
            checked += 1;
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            pos.make_move(mv);
        }
    }
    checked
}

/// Perft of a game in progress, through the typed path of the registry.
pub fn perft_of(record: &dyn crate::DynRecord, depth: u32) -> u64 {
    struct Perft(u32);
    impl crate::registry::RecordVisitor for Perft {
        type Output = u64;
        fn visit<G: Game>(self, _: &G, record: &crate::Record<G::Pos>) -> u64 {
            crate::perft(&mut record.position().clone(), self.0)
        }
    }
    crate::registry::with_record(record, Perft(depth)).expect("a game of the registry")
}
