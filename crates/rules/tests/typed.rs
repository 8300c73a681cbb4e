//! The typed path: one generic function, written once as `fn<G: Game>`, reaches every game id of
//! the registry through `with_game`, and checks what a search relies on: perft with the cheap
//! draw check at every node, move codes that round-trip as a transposition table stores them,
//! tactical generation equal to the tactical moves of the full list, and `outcome()` equal to
//! its two cheap halves.

use std::collections::{BTreeSet, HashMap, HashSet};

use myrmidon_rules::registry::{games, with_game, with_record, GameVisitor, RecordVisitor};
use myrmidon_rules::testkit::Rng;
use myrmidon_rules::{
    perft, perft_visiting, DynRecord, Game, GameResult, GrammaticalNumber, Outcome, Position,
    Reason, Record, Settings,
};

/// Positions along random games from the start (finished positions included).
fn sample<G: Game>(game: &G, games: usize, plies: usize, seed: u64) -> Vec<G::Pos> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = game.start(&Settings::new()).unwrap();
        for _ in 0..plies {
            out.push(pos.clone());
            let moves = pos.moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            pos.make_move(mv);
        }
    }
    out
}

struct SearchFacing;

impl GameVisitor for SearchFacing {
    type Output = usize;

    fn visit<G: Game>(self, game: &G) -> usize {
        let id = game.info().id;
        let positions = sample(game, 6, 80, 5);
        // A table from hash to (move code) of one of its moves, as a search keeps: probing it
        // from any other position must give either that position's own move or nothing.
        let mut table: HashMap<u64, u32> = HashMap::new();
        let mut checked = 0;
        for pos in &positions {
            let text = pos.to_string();
            let moves = pos.moves();

            // perft with the draw check at every node counts what perft counts.
            let mut copy = pos.clone();
            let mut draws = 0u64;
            let nodes = perft_visiting(&mut copy, 2, &mut |p: &G::Pos| {
                draws += p.draw_by_rule().is_some() as u64;
            });
            assert_eq!(nodes, perft(&mut copy, 2), "{id}: {text}");
            assert_eq!(copy, *pos, "{id}: the walk restores the position");
            assert!(draws <= nodes + moves.len() as u64 + 1);

            // outcome() is its two cheap halves.
            let expected = if moves.is_empty() {
                Some(pos.outcome_without_moves())
            } else {
                pos.draw_by_rule()
            };
            assert_eq!(pos.outcome(), expected, "{id}: {text}");

            // The cells in check: some exactly when in check, each with a piece of the mover.
            let check_cells = pos.check_cells();
            assert_eq!(!check_cells.is_empty(), pos.in_check(), "{id}: {text}");
            for &c in &check_cells {
                let piece = pos.piece_at(c);
                assert_eq!(piece.map(|p| p.owner), Some(pos.to_move()), "{id}: {text}");
            }

            // Move codes: distinct, round trip, and foreign codes give only legal moves.
            let mut codes = HashSet::new();
            for &mv in moves.iter() {
                let code = pos.move_code(mv);
                assert!(codes.insert(code), "{id}: {text}: two moves share {code}");
                assert_eq!(pos.move_from_code(code), Some(mv), "{id}: {text}");
            }
            for &code in table.values() {
                if let Some(mv) = pos.move_from_code(code) {
                    assert!(moves.contains(&mv), "{id}: {text}: code {code} gave {mv:?}");
                }
            }
            if let Some(&mv) = moves.first() {
                table.insert(pos.hash(), pos.move_code(mv));
            }

            // Tactical generation is the tactical part of the full list.
            let mut tactical = <G::Pos as Position>::MoveList::default();
            pos.generate_tactical(&mut tactical);
            let got: BTreeSet<String> = tactical.iter().map(|&m| pos.move_text(m)).collect();
            assert_eq!(got.len(), tactical.len(), "{id}: {text}: duplicates");
            let want: BTreeSet<String> = moves
                .iter()
                .filter(|&&m| pos.tactics(m).is_tactical())
                .map(|&m| pos.move_text(m))
                .collect();
            assert_eq!(got, want, "{id}: {text}");
            for &mv in moves.iter() {
                let t = pos.tactics(mv);
                let cells = pos.move_cells(mv);
                assert_eq!(t.captures as usize, cells.captures.len(), "{id}: {text}");
                assert_eq!(t.taken_kinds != 0, t.captures > 0, "{id}: {text}");
                // The quick reading is the full one but for `wins`, which it may miss.
                let q = pos.quick_tactics(mv);
                assert_eq!(
                    (q.captures, q.taken_kinds, q.promotion),
                    (t.captures, t.taken_kinds, t.promotion),
                    "{id}: {text}"
                );
                assert!(!q.wins || t.wins, "{id}: {text}");
                // A move said to give check leaves the opponent in check.
                let mut after = pos.clone();
                let undo = after.make_move(mv);
                assert!(!pos.gives_check(mv) || after.in_check(), "{id}: {text}");
                after.unmake_move(mv, undo);
            }

            // Captures (for deep quiescence) are the tactical moves but for quiet wins.
            let mut captures = <G::Pos as Position>::MoveList::default();
            pos.generate_captures(&mut captures);
            let got_captures: BTreeSet<String> =
                captures.iter().map(|&m| pos.move_text(m)).collect();
            assert_eq!(
                got_captures.len(),
                captures.len(),
                "{id}: {text}: duplicates"
            );
            assert!(got_captures.is_subset(&want), "{id}: {text}");
            for &mv in tactical.iter() {
                let t = pos.tactics(mv);
                if t.captures > 0 || t.promotion.is_some() {
                    assert!(got_captures.contains(&pos.move_text(mv)), "{id}: {text}");
                }
            }

            // A null move, where the game has one, is taken back exactly.
            let mut copy = pos.clone();
            if let Some(undo) = copy.make_null_move() {
                assert_ne!(copy.to_move(), pos.to_move(), "{id}: {text}");
                assert_eq!(copy.hash(), copy.hash_from_scratch(), "{id}: {text}");
                copy.unmake_null_move(undo);
                assert_eq!(copy, *pos, "{id}: {text}");
            }
            assert_eq!(pos.player_names().len(), game.info().players.len());
            checked += 1;
        }
        checked
    }
}

#[test]
fn one_generic_function_reaches_every_game() {
    let mut reached = Vec::new();
    for game in games() {
        let id = game.info().id;
        let checked = with_game(id, SearchFacing).unwrap();
        assert!(checked > 100, "{id}: only {checked} positions");
        reached.push(id);
    }
    assert_eq!(reached.len(), games().len());
    assert!(with_game("chess", SearchFacing).is_err());
}

/// The typed record behind a dynamic one is the same game: its moves, its position.
struct SameGame;

impl RecordVisitor for SameGame {
    type Output = (String, usize);
    fn visit<G: Game>(self, _: &G, record: &Record<G::Pos>) -> Self::Output {
        (
            record.position().to_string(),
            record.position().moves().len(),
        )
    }
}

#[test]
fn a_dynamic_record_gives_its_typed_record() {
    for game in games() {
        let mut rec = game.new_game(&Settings::new()).unwrap();
        for _ in 0..3 {
            let text = rec.legal_moves()[0].text.clone();
            rec.play(&text).unwrap();
        }
        let (string, moves) = with_record(rec.as_ref(), SameGame).unwrap();
        assert_eq!(string, rec.position_string());
        assert_eq!(moves, rec.legal_moves().len());
    }
}

fn two_player_games() -> impl Iterator<Item = Box<dyn DynRecord>> {
    games()
        .iter()
        .filter(|g| g.info().players.len() == 2)
        .map(|g| g.new_game(&Settings::new()).unwrap())
}

#[test]
fn resignation_between_two_and_undo_before_the_first_move() {
    for mut rec in two_player_games() {
        let id = rec.info().id;
        assert!(!rec.can_undo());
        // A resignation before any move, taken back.
        assert!(rec.drop_out(0, Reason::RESIGNATION));
        assert_eq!(
            rec.outcome(),
            Some(Outcome::Win {
                winner: 1,
                reason: Reason::RESIGNATION
            }),
            "{id}"
        );
        assert!(rec.play(&rec.legal_moves()[0].text.clone()).is_err());
        assert!(rec.undo(), "{id}: undo takes back the resignation");
        assert_eq!(rec.outcome(), None, "{id}");
        assert!(!rec.undo(), "{id}: nothing more to undo");
        // A draw agreed after a move; undo takes back the agreement, then the move.
        let first = rec.legal_moves()[0].text.clone();
        rec.play(&first).unwrap();
        rec.declare(Outcome::Draw {
            reason: Reason::AGREEMENT,
        });
        let result = rec.result().unwrap();
        assert_eq!(
            result.describe(rec.player_names(), rec.info().players_number),
            "draw by agreement"
        );
        assert_eq!(result.points(2), vec![0.5, 0.5]);
        assert!(rec.undo());
        assert_eq!(rec.history().len(), 1, "{id}");
        assert!(rec.undo());
        assert!(rec.history().is_empty(), "{id}");
        // A fallen flag.
        assert!(rec.drop_out(1, Reason::TIME));
        let text = rec
            .result()
            .unwrap()
            .describe(rec.player_names(), rec.info().players_number);
        let verb = match rec.info().players_number {
            GrammaticalNumber::Singular => "wins on time",
            GrammaticalNumber::Plural => "win on time",
        };
        assert!(text.ends_with(verb), "{id}: {text}");
    }
}

#[test]
fn history_carries_each_moves_cells_and_player() {
    for game in games() {
        let mut rec = game.new_game(&Settings::new()).unwrap();
        let mut played = Vec::new();
        for _ in 0..4 {
            let mover = rec.to_move();
            let mv = rec.legal_moves()[1].clone();
            rec.play(&mv.text).unwrap();
            played.push((mover, mv));
        }
        let history = rec.history();
        assert_eq!(history.len(), played.len());
        for (h, (mover, mv)) in history.iter().zip(&played) {
            assert_eq!((h.player, &h.text, &h.cells), (*mover, &mv.text, &mv.cells));
            assert!(!h.automatic);
        }
    }
}

#[test]
fn moves_are_read_in_any_letter_case_when_unambiguous() {
    for game in games() {
        let mut rec = game.new_game(&Settings::new()).unwrap();
        let mv = rec.legal_moves()[0].clone();
        let shouted = mv.text.to_uppercase();
        let played = rec.play(&shouted).unwrap();
        assert_eq!(played, mv, "{}", game.info().id);
    }
}

#[test]
fn outcomes_cross_the_wire_as_json() {
    for game in games() {
        for &reason in game.info().reasons {
            let result = GameResult {
                outcome: Outcome::Win { winner: 1, reason },
                eliminations: Vec::new(),
            };
            let json = serde_json::to_string(&result).unwrap();
            assert!(json.contains(&format!("\"{}\"", reason.id)), "{json}");
            let back: GameResult = serde_json::from_str(&json).unwrap();
            assert_eq!(back, result);
        }
        let info = serde_json::to_value(game.info()).unwrap();
        assert_eq!(info["id"], game.info().id);
        let rec = game.new_game(&Settings::new()).unwrap();
        let moves = serde_json::to_string(&rec.legal_moves()).unwrap();
        let back: Vec<myrmidon_rules::MoveDesc> = serde_json::from_str(&moves).unwrap();
        assert_eq!(back, rec.legal_moves());
    }
    let bad = serde_json::from_str::<Outcome>(r#"{"winner":0,"reason":"no-such-reason"}"#);
    assert!(bad.unwrap_err().to_string().contains("unknown reason"));
}
