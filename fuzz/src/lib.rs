//! The checks behind the fuzz targets, written once for every game as `fn<G: Game>` and called by
//! each target with a concrete game type.
//!
//! Byte layouts (the seed generator, `examples/seed.rs`, writes the same):
//!
//! * `position_<game>`: the whole input, read as UTF-8 (lossy), is a position string.
//! * `move_<game>`: one byte per setting of the game (a value, modulo the number of values), a
//!   ply count `n`, `n` bytes each choosing a legal move (modulo the number of moves), then the
//!   rest, read as UTF-8 (lossy), is a move text for the position reached.
//! * `play`: a byte choosing the game (modulo the number of games of the registry), one byte per setting, then one
//!   operation per byte: `0xF0..=0xFF` takes back the last move, anything else plays the legal
//!   move of that index (modulo the number of moves).
//!
//! * `record`: the whole input, read as UTF-8 (lossy), is a game record file
//!   (`docs/records.md`).
//!
//! Targets reach the games by id through the library's typed path (`registry::with_game`).
//! A failed check panics, which libFuzzer reports as a crash.

use myrmidon_rules::game::{Game, Position, Settings};
use myrmidon_rules::pgn;
use myrmidon_rules::registry::{self, with_game, GameVisitor};

/// Reads an input a byte at a time.
pub struct Bytes<'a>(pub &'a [u8]);

impl<'a> Bytes<'a> {
    pub fn next_byte(&mut self) -> Option<u8> {
        let (&b, rest) = self.0.split_first()?;
        self.0 = rest;
        Some(b)
    }

    pub fn rest(&self) -> &'a [u8] {
        self.0
    }
}

/// The start position with each setting chosen by a byte (its first value when input runs out).
pub fn start<G: Game>(game: &G, bytes: &mut Bytes) -> G::Pos {
    let mut settings = Settings::new();
    for info in game.info().settings {
        let i = bytes.next_byte().unwrap_or(0) as usize % info.values.len();
        settings = settings.with(info.name, info.values[i]);
    }
    game.start(&settings)
        .unwrap_or_else(|e| panic!("{}: start with {settings:?}: {e}", game.info().id))
}

/// The position reached from a chosen start by a ply count then that many move choices (the
/// choices after the end of the game are read and ignored). Returns it and the rest of the input.
pub fn reach<'a, G: Game>(game: &G, data: &'a [u8]) -> (G::Pos, &'a [u8]) {
    let mut bytes = Bytes(data);
    let mut pos = start(game, &mut bytes);
    let plies = bytes.next_byte().unwrap_or(0);
    let mut moves = Vec::new();
    for _ in 0..plies {
        let Some(b) = bytes.next_byte() else { break };
        moves.clear();
        pos.legal_moves(&mut moves);
        if let Some(&mv) = moves.get(b as usize % moves.len().max(1)) {
            pos.make_move(mv);
        }
    }
    (pos, bytes.rest())
}

/// Games whose positions keep state their strings cannot carry, by a ruling of the game: a
/// position read back from its string may differ from the original in that state alone. Jeu de
/// Reines counts the passes in a row outside its string (docs/rules/reines.md, "Passes in a
/// row"), and its hash covers them (a pass after a pass draws). For these the round trip
/// compares the string and the legal moves, and the hash only when the positions are equal.
/// (Ant Chess's players who have left, in `antchess3`, are outside its string too, but only a
/// game record's dropout marks them, never a move: the positions checked here never have one.)
pub const STRING_OMITS_STATE: &[&str] = &["reines"];

/// The printed position parses back to an equal position with the same hash and the same
/// string; the incremental hash equals the recomputed one.
pub fn check_round_trip<G: Game>(game: &G, pos: &G::Pos) {
    let text = pos.to_string();
    let again = game
        .parse_position(&text)
        .unwrap_or_else(|e| panic!("{text:?}: printed string does not parse: {e}"));
    if STRING_OMITS_STATE.contains(&game.info().id) {
        let (mut a, mut b) = (Vec::new(), Vec::new());
        pos.legal_moves(&mut a);
        again.legal_moves(&mut b);
        let a: Vec<String> = a.into_iter().map(|m| pos.move_text(m)).collect();
        let b: Vec<String> = b.into_iter().map(|m| again.move_text(m)).collect();
        assert_eq!(a, b, "{text:?}: other legal moves after round trip");
    } else {
        assert_eq!(&again, pos, "{text:?}: parses to another position");
    }
    if &again == pos {
        assert_eq!(again.hash(), pos.hash(), "{text:?}: hash after round trip");
    }
    assert_eq!(
        again.hash(),
        again.hash_from_scratch(),
        "{text:?}: hash of the position read back"
    );
    assert_eq!(again.to_string(), text, "{text:?}: prints differently");
    assert_eq!(
        pos.hash(),
        pos.hash_from_scratch(),
        "{text:?}: incremental hash"
    );
}

/// Every check of one position: the round trip; the display helpers do not panic and name cells
/// of the board; `count_legal_moves` agrees with `legal_moves`; every move's text is distinct and
/// parses back to the move; make then unmake restores the position and its hash, and the hash
/// after make equals the recomputed one. With `children`, every position one move on also
/// round-trips.
pub fn check_position<G: Game>(game: &G, pos: &G::Pos, children: bool) {
    check_round_trip(game, pos);
    let text = pos.to_string();
    let cells = game.info().geometry.cell_count();
    for cell in 0..cells {
        let _ = pos.piece_at(cell as u16);
    }
    let _ = pos.outcome();
    let _ = pos.info_messages();

    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    assert_eq!(
        pos.count_legal_moves(),
        moves.len() as u64,
        "{text:?}: count_legal_moves"
    );
    let mut texts = std::collections::HashSet::new();
    let mut after = pos.clone();
    for &mv in &moves {
        let t = pos.move_text(mv);
        assert!(texts.insert(t.clone()), "{text:?}: two moves {t:?}");
        match pos.parse_move(&t) {
            Ok(back) => assert_eq!(back, mv, "{text:?}: {t:?} parses to another move"),
            Err(e) => panic!("{text:?}: move text {t:?} does not parse back: {e}"),
        }
        let touched = pos.move_cells(mv);
        for c in touched
            .from
            .iter()
            .chain(&touched.to)
            .chain(&touched.captures)
        {
            assert!((*c as usize) < cells, "{text:?}: {t:?} touches cell {c}");
        }
        let _ = pos.is_irreversible(mv);
        let undo = after.make_move(mv);
        if children {
            check_round_trip(game, &after);
        } else {
            assert_eq!(
                after.hash(),
                after.hash_from_scratch(),
                "{text:?}: incremental hash after {t:?}"
            );
        }
        after.unmake_move(mv, undo);
        assert_eq!(&after, pos, "{text:?}: unmake of {t:?} does not restore");
        assert_eq!(
            after.hash(),
            pos.hash(),
            "{text:?}: hash after unmake of {t:?}"
        );
    }
}

/// `position_<game>`: any text either is refused with an error or is a position that passes
/// [`check_position`], its children included.
pub fn check_position_text<G: Game>(game: &G, data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    match game.parse_position(&text) {
        Ok(pos) => check_position(game, &pos, true),
        Err(e) => {
            let _ = e.to_string();
        }
    }
}

/// `move_<game>`: a move text is either refused with an error or names a legal move, whose
/// canonical text parses back to the same move and prints the same.
pub fn check_move_text<G: Game>(game: &G, data: &[u8]) {
    let (pos, rest) = reach(game, data);
    let text = String::from_utf8_lossy(rest);
    match pos.parse_move(&text) {
        Ok(mv) => {
            let mut legal = Vec::new();
            pos.legal_moves(&mut legal);
            assert!(
                legal.contains(&mv),
                "{pos}: {text:?} parses to {mv:?}, not a legal move"
            );
            let canonical = pos.move_text(mv);
            let back = pos
                .parse_move(&canonical)
                .unwrap_or_else(|e| panic!("{pos}: {canonical:?} does not parse: {e}"));
            assert_eq!(back, mv, "{pos}: {canonical:?} parses to another move");
            assert_eq!(pos.move_text(back), canonical, "{pos}: {canonical:?}");
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
}

/// At most this many operations of a `play` input are run, so that one input stays fast.
pub const MAX_OPERATIONS: usize = 1024;

/// `play`: plays and takes back moves as the bytes say, checking every position reached with
/// [`check_position`] and that each take-back restores the position before the move exactly.
pub fn check_play<G: Game>(game: &G, data: &[u8]) {
    let mut bytes = Bytes(data);
    let mut pos = start(game, &mut bytes);
    check_position(game, &pos, false);
    let mut played = Vec::new();
    let mut moves = Vec::new();
    for _ in 0..MAX_OPERATIONS {
        let Some(b) = bytes.next_byte() else { break };
        moves.clear();
        pos.legal_moves(&mut moves);
        if b >= 0xF0 || moves.is_empty() {
            let Some((mv, undo, before)) = played.pop() else {
                continue;
            };
            pos.unmake_move(mv, undo);
            assert_eq!(pos, before, "{before}: unmake restores another position");
            assert_eq!(pos.hash(), before.hash(), "{before}: hash after unmake");
        } else {
            let mv = moves[b as usize % moves.len()];
            let before = pos.clone();
            let undo = pos.make_move(mv);
            played.push((mv, undo, before));
        }
        check_position(game, &pos, false);
    }
}

/// Runs [`check_play`] on the game chosen by the first byte.
pub fn check_play_any(data: &[u8]) {
    struct Play<'a>(&'a [u8]);
    impl GameVisitor for Play<'_> {
        type Output = ();
        fn visit<G: Game>(self, game: &G) {
            check_play(game, self.0)
        }
    }
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let games = registry::games();
    let id = games[which as usize % games.len()].info().id;
    with_game(id, Play(rest)).expect("an id of the registry");
}

/// Reads any text as game records: each game is refused with a line inside the text, or reads
/// to a game that writes out, reads back to the same game (start, steps, result, tags and
/// comments) and writes out again to the same text.
pub fn check_record_text(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let lines = text.lines().count().max(1);
    for game in pgn::GameReader::new(&text) {
        let game = match game {
            Ok(game) => game,
            Err(e) => {
                assert!(e.line >= 1 && e.line <= lines + 1, "{e} in {lines} lines");
                continue;
            }
        };
        let header = game.header();
        let written = pgn::write_game(&*game.record, &header, &game.comments);
        let back = pgn::read_games(&written)
            .unwrap_or_else(|e| panic!("a written record does not read back: {e}\n{written}"));
        assert_eq!(back.len(), 1, "{written}");
        let again = &back[0];
        assert_eq!(again.record.start_string(), game.record.start_string());
        assert_eq!(again.record.steps(), game.record.steps(), "{written}");
        assert_eq!(again.record.result(), game.record.result(), "{written}");
        assert_eq!(again.header(), header, "{written}");
        assert_eq!(again.comments, game.comments, "{written}");
        let twice = pgn::write_game(&*again.record, &again.header(), &again.comments);
        assert_eq!(twice, written);
    }
}

/// The check a per-game target runs, on the game of this id.
#[derive(Clone, Copy, Debug)]
pub enum Check {
    PositionText,
    MoveText,
}

/// Runs one check on the game with this id (the per-game targets).
pub fn check_game(id: &str, check: Check, data: &[u8]) {
    struct Run<'a>(Check, &'a [u8]);
    impl GameVisitor for Run<'_> {
        type Output = ();
        fn visit<G: Game>(self, game: &G) {
            match self.0 {
                Check::PositionText => check_position_text(game, self.1),
                Check::MoveText => check_move_text(game, self.1),
            }
        }
    }
    with_game(id, Run(check, data)).expect("a target names a game of the registry");
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every target's game id is a game of the registry, and every game has its targets.
    #[test]
    fn targets_cover_the_registry() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/fuzz_targets");
        for game in registry::games() {
            let id = game.info().id;
            for kind in ["position", "move"] {
                let path = format!("{dir}/{kind}_{id}.rs");
                assert!(std::path::Path::new(&path).exists(), "{path}");
            }
        }
    }
}
