//! Checks every registered game through the object-safe layer, the way the CLI and the server
//! use it: random games played by move text, undo, position strings, and garbage input that must
//! be refused with an error, never a panic.

use myrmidon_rules::registry::games;
use myrmidon_rules::testkit::{perft_of, Rng};
use myrmidon_rules::{DynRecord, MoveError, Settings};

fn start(game: &dyn myrmidon_rules::DynGame) -> Box<dyn DynRecord> {
    game.new_game(&Settings::new())
        .unwrap_or_else(|e| panic!("{}: {e}", game.info().id))
}

/// Plays random games by move text; every position string reloads to the same moves.
#[test]
fn emblems_and_icons_are_pieces_of_their_game() {
    for game in games() {
        let info = game.info();
        let kinds: Vec<char> = info.pieces.iter().map(|p| p.letter).collect();
        assert!(!info.emblems.is_empty(), "{}", info.id);
        for k in info.emblems.iter().chain([&info.icon.kind]) {
            assert!(
                kinds.contains(k),
                "{}: {k} is not one of {kinds:?}",
                info.id
            );
        }
        assert!(
            (info.icon.owner as usize) < info.players.len(),
            "{}",
            info.id
        );
        assert!(info.emblems.len() <= info.players.len(), "{}", info.id);
    }
}

#[test]
fn random_games_through_the_dynamic_layer() {
    let mut rng = Rng::new(11);
    for game in games() {
        let id = game.info().id;
        for _ in 0..5 {
            let mut rec = start(*game);
            let mut strings = vec![rec.position_string()];
            for _ in 0..120 {
                if rec.outcome().is_some() {
                    assert!(matches!(
                        rec.play("pass"),
                        Err(MoveError::GameOver) | Err(_)
                    ));
                    break;
                }
                let moves = rec.legal_moves();
                let text = rec.position_string();
                let reloaded = game
                    .new_game_at(&text)
                    .unwrap_or_else(|e| panic!("{id}: {text}: {e}"));
                assert_eq!(reloaded.position_string(), text, "{id}");
                let again: Vec<String> =
                    reloaded.legal_moves().into_iter().map(|m| m.text).collect();
                let here: Vec<String> = moves.iter().map(|m| m.text.clone()).collect();
                assert_eq!(again, here, "{id}: {text}");
                assert_eq!(
                    perft_of(rec.as_ref(), 1),
                    moves.len() as u64,
                    "{id}: {text}"
                );
                if moves.is_empty() {
                    break;
                }
                let mv = &moves[rng.below(moves.len())];
                for c in mv
                    .cells
                    .from
                    .iter()
                    .chain(&mv.cells.to)
                    .chain(&mv.cells.captures)
                {
                    assert!((*c as usize) < game.info().geometry.cell_count(), "{id}");
                }
                // A move carries pieces exactly when it goes from a cell to a cell.
                let travels = mv.cells.from.is_some() && mv.cells.to.is_some();
                assert_eq!(mv.pieces_moved > 0, travels, "{id}: {text}: {}", mv.text);
                let mover = rec.to_move();
                let played = rec.play(&mv.text).unwrap_or_else(|e| panic!("{id}: {e}"));
                assert_eq!(&played, mv, "{id}");
                // A promotion leaves a piece of the kind it names on its cell.
                if let (Some(kind), Some(to)) = (mv.promotion, mv.cells.to) {
                    let piece = rec
                        .piece_at(to)
                        .unwrap_or_else(|| panic!("{id}: {}", mv.text));
                    assert_eq!(
                        (piece.owner, piece.kind),
                        (mover, kind),
                        "{id}: {}",
                        mv.text
                    );
                }
                strings.push(rec.position_string());
            }
            // Undo walks back through the same positions.
            while rec.undo() {
                strings.pop();
                assert_eq!(rec.position_string(), *strings.last().unwrap(), "{id}");
            }
            assert_eq!(strings.len(), 1, "{id}");
        }
    }
}

const NOISE: &[&str] = &[
    "",
    " ",
    "/",
    "//",
    "-",
    "0",
    "9",
    "99999999999999999999",
    "-1",
    "x",
    "é",
    "\u{0}",
    "w",
    "b",
    "r",
    "g",
    "Q",
    "q",
    "K",
    "k",
    "W",
    "B",
    "1",
    "14",
    "127",
    "/8",
    " - ",
    "pass",
];

fn mutate(rng: &mut Rng, text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out: Vec<char> = chars.clone();
    for _ in 0..1 + rng.below(3) {
        let at = if out.is_empty() {
            0
        } else {
            rng.below(out.len() + 1)
        };
        match rng.below(5) {
            0 if !out.is_empty() => {
                let end = (at + 1 + rng.below(4)).min(out.len());
                out.drain(at.min(out.len())..end);
            }
            1 => {
                let noise = NOISE[rng.below(NOISE.len())];
                for (i, c) in noise.chars().enumerate() {
                    out.insert(at + i, c);
                }
            }
            2 if !out.is_empty() => {
                let i = rng.below(out.len());
                out[i] = chars[rng.below(chars.len())];
            }
            3 => {
                let fields: Vec<String> = out
                    .iter()
                    .collect::<String>()
                    .split(' ')
                    .map(String::from)
                    .collect();
                let mut f = fields.clone();
                f.push(fields[rng.below(fields.len())].clone());
                out = f.join(" ").chars().collect();
            }
            _ => out.truncate(at),
        }
    }
    out.into_iter().collect()
}

/// Mangled position strings are refused with a message or read into a valid position; never a
/// panic. An accepted string prints back to a string that reads again to the same position.
#[test]
fn garbage_position_strings_never_panic() {
    let mut rng = Rng::new(5);
    for game in games() {
        let id = game.info().id;
        let mut samples = vec![start(*game).position_string()];
        let mut rec = start(*game);
        for _ in 0..30 {
            let moves = rec.legal_moves();
            if moves.is_empty() || rec.outcome().is_some() {
                break;
            }
            rec.play(&moves[rng.below(moves.len())].text).unwrap();
            samples.push(rec.position_string());
        }
        let mut refused = 0;
        for _ in 0..3000 {
            let base = &samples[rng.below(samples.len())];
            let text = mutate(&mut rng, base);
            match game.new_game_at(&text) {
                Ok(r) => {
                    let printed = r.position_string();
                    let again = game
                        .new_game_at(&printed)
                        .unwrap_or_else(|e| panic!("{id}: {text:?} printed as {printed:?}: {e}"));
                    assert_eq!(again.position_string(), printed, "{id}");
                    let _ = r.legal_moves();
                }
                Err(e) => {
                    refused += 1;
                    assert!(!e.to_string().is_empty(), "{id}");
                }
            }
        }
        assert!(
            refused > 1000,
            "{id}: only {refused} mangled strings refused"
        );
    }
}

/// Garbage move texts are refused with a message; the game goes on unchanged.
#[test]
fn garbage_moves_never_panic() {
    let mut rng = Rng::new(9);
    for game in games() {
        let id = game.info().id;
        let mut rec = start(*game);
        let before = rec.position_string();
        let legal: Vec<String> = rec.legal_moves().into_iter().map(|m| m.text).collect();
        for _ in 0..2000 {
            let base = &legal[rng.below(legal.len())];
            let text = mutate(&mut rng, base);
            if legal.iter().any(|l| l == text.trim()) {
                continue;
            }
            let err = rec
                .play(&text)
                .expect_err(&format!("{id}: {text:?} accepted"));
            assert!(!err.to_string().is_empty());
            assert_eq!(rec.position_string(), before, "{id}");
        }
    }
}

/// `perft_until` counts what `perft` counts while nobody stops it, and gives up at once when
/// stopped: what lets a long perft be interrupted (Ctrl-C in Python).
#[test]
fn perft_until_counts_like_perft_and_gives_up_when_stopped() {
    use myrmidon_rules::registry::{with_record, RecordVisitor};
    use std::sync::atomic::AtomicBool;
    struct Until(u32, bool);
    impl RecordVisitor for Until {
        type Output = Option<u64>;
        fn visit<G: myrmidon_rules::Game>(
            self,
            _: &G,
            record: &myrmidon_rules::Record<G::Pos>,
        ) -> Option<u64> {
            let stop = AtomicBool::new(self.1);
            myrmidon_rules::perft_until(&mut record.position().clone(), self.0, &stop)
        }
    }
    for game in games() {
        let rec = start(*game);
        for depth in 0..=3 {
            let counted = with_record(rec.as_ref(), Until(depth, false)).unwrap();
            assert_eq!(
                counted,
                Some(perft_of(rec.as_ref(), depth)),
                "{}",
                game.info().id
            );
        }
        // Below three plies there is nothing worth stopping; from three on, a stop is obeyed.
        let stopped = with_record(rec.as_ref(), Until(2, true)).unwrap();
        assert_eq!(
            stopped,
            Some(perft_of(rec.as_ref(), 2)),
            "{}",
            game.info().id
        );
        assert_eq!(with_record(rec.as_ref(), Until(30, true)).unwrap(), None);
    }
}
