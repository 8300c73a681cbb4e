//! The solver against a plain minimax of the game's rules (no table, no move ordering, no
//! `Tactics`): on positions of random games of every two-player game, both agree on whether the
//! player to move wins by force within one and two of its moves, and the first move and
//! uniqueness the solver reports are right.

mod common;

use common::{ids, scan};
use myrmidon_engine::solve::{OutOfNodes, Solver};
use myrmidon_engine::{with_engine_game, EngineGame, EngineVisitor};
use myrmidon_rules::{Player, Position};

/// After the attacker's move (`pos` has the defender to move, `left` attacker moves left):
/// true if the attacker wins whatever the defender does.
fn naive_defend<P: Position>(pos: &P, attacker: Player, left: u32) -> bool {
    let moves = pos.moves();
    if moves.is_empty() {
        return pos.outcome_without_moves().winner() == Some(attacker);
    }
    if pos.draw_by_rule().is_some() {
        return false;
    }
    moves.iter().all(|&reply| {
        let mut next = pos.clone();
        next.make_move(reply);
        naive_attack(&next, attacker, left)
    })
}

/// The attacker to move with `left` moves: true if it wins by force.
fn naive_attack<P: Position>(pos: &P, attacker: Player, left: u32) -> bool {
    let moves = pos.moves();
    if moves.is_empty() {
        return pos.outcome_without_moves().winner() == Some(attacker);
    }
    if pos.draw_by_rule().is_some() || left == 0 {
        return false;
    }
    moves.iter().any(|&mv| naive_move_wins(pos, mv, left))
}

fn naive_move_wins<P: Position>(pos: &P, mv: P::Move, left: u32) -> bool {
    let mut after = pos.clone();
    after.make_move(mv);
    naive_defend(&after, pos.to_move(), left - 1)
}

struct AgreesWithMinimax;
impl EngineVisitor for AgreesWithMinimax {
    type Output = [usize; 3];
    /// Counts of positions checked with no win within two, a win in one, a win in two.
    fn visit<G: EngineGame>(self, game: &'static G) -> [usize; 3] {
        let mut counts = [0; 3];
        if game.info().players.len() != 2 {
            return counts;
        }
        let id = game.info().id;
        let mut seen = 0;
        let mut checked = 0;
        scan(game, 41, 60, |record| {
            seen += 1;
            let pos = record.position();
            let moves = pos.moves();
            // The plain minimax of n moves costs about moves^(2n) nodes.
            let depth = match moves.len() {
                0..=24 => 2,
                25..=160 => 1,
                _ => 0,
            };
            if depth == 0 {
                return false;
            }
            let mut solver = Solver::new(50_000_000);
            let solved = solver.solve(pos, depth).expect("a budget large enough");
            // Every position the solver finds won, and a sample of the others.
            if solved.is_none() && seen % 16 != 0 {
                return false;
            }
            checked += 1;
            let attacker = pos.to_move();
            let naive = (1..=depth).find(|&n| naive_attack(pos, attacker, n));
            assert_eq!(solved.map(|w| w.moves), naive, "{id} {pos}");
            let winners: Vec<_> = match naive {
                Some(n) => {
                    let w = solved.unwrap();
                    assert!(naive_move_wins(pos, w.first, n), "{id} {pos}");
                    moves
                        .iter()
                        .copied()
                        .filter(|&m| naive_move_wins(pos, m, n))
                        .collect()
                }
                None => Vec::new(),
            };
            let unique = solver.solve_unique(pos, depth, 0).unwrap();
            assert_eq!(unique.is_some(), winners.len() == 1, "{id} {pos}");
            counts[naive.unwrap_or(0) as usize] += 1;
            checked >= 300 || (counts[1] >= 10 && counts[2] >= 5 && counts[0] >= 20)
        });
        counts
    }
}

#[test]
fn the_solver_agrees_with_a_plain_minimax() {
    let mut wins_in_two = 0;
    for id in ids() {
        let [none, one, two] = with_engine_game(id, AgreesWithMinimax).unwrap();
        eprintln!("{id}: {none} without a win, {one} wins in 1, {two} wins in 2");
        if id != "antchess3" {
            assert!(none >= 5 && one + two >= 1, "{id}: too few positions");
        }
        wins_in_two += two;
    }
    assert!(wins_in_two >= 5, "only {wins_in_two} wins in two checked");
}

struct Budget;
impl EngineVisitor for Budget {
    type Output = ();
    fn visit<G: EngineGame>(self, game: &'static G) {
        scan(game, 5, 1, |record| {
            let pos = record.position();
            let mut solver = Solver::new(3);
            if pos.moves().len() > 3 {
                assert_eq!(solver.solve(pos, 3), Err(OutOfNodes), "{pos}");
                return true;
            }
            false
        });
    }
}

#[test]
fn a_small_budget_runs_out() {
    with_engine_game("reines", Budget).unwrap();
}
