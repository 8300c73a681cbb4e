//! One evaluator per game, each in its own file. An evaluator scores a position for one player
//! in centipawn-like units with named, tunable terms; the baseline players (greedy, alpha-beta)
//! read only its material count (`baseline_value`, `greedy_value`), so that they stay fixed.
//!
//! Every evaluator has the same shape:
//!
//! - **A table of named terms**, each a weight times a count the position gives (`T_*`
//!   indices and `term_names` at the top of `<game>.rs`; Ackenhead's terms are pairs of
//!   weights, middle game and endgame). The names are what weights files and `myrmidon tune`
//!   show ([`Tunable`]).
//! - **One function that counts the terms** (`terms_of` or `side`) into a sink: summed with
//!   the weights it is [`Evaluator::evaluate`]; collected, it is [`Evaluator::linear_terms`],
//!   the coefficients through which `myrmidon tune` fits every weight at once (see
//!   [`crate::tune`]). The sum of weight × count is the evaluation but for roundings toward
//!   zero, each under a centipawn (mobility in sixteenths of a centipawn, Ackenhead's blend by
//!   the phase); each evaluator's test `linear_terms_reproduce_the_evaluation` checks it.
//!   `terms.rs` holds the sinks of the flat evaluators.
//! - **Its default weights in a file beside it**, `<game id>.weights` (`ackenhead.weights`,
//!   `antchess.weights`, `antchess3.weights`, `epaminondas.weights`, `reines.weights`), read
//!   once at the first use, which must name every weight; its comments say how the weights
//!   were fitted. `myrmidon tune --out` writes such a file. The code keeps only what the
//!   baseline players count ([`Tunable::baseline`]: the hand-set piece values, where a game
//!   has them) and, for Ackenhead, the hand-set terms the tuning started from.
//!
//! An evaluator says what a position is worth, and what the search asks of a position or a
//! move (a check or an attacked Queen, a threat, a win at once, the value of a victim). How the
//! search prunes in a game ([`SearchPolicy`](crate::players::SearchPolicy)), its levels and its
//! bench positions are not the evaluator's: each game sets them where it is wired to the
//! engine ([`EngineGame`](crate::games::EngineGame), at the end of `<game>.rs`).

mod ackenhead;
mod antchess;
mod epaminondas;
mod reines;

pub use ackenhead::AckenheadEval;
pub use antchess::AntChessEval;
pub use epaminondas::EpaminondasEval;
pub use reines::ReinesEval;

mod terms;
mod weights;

pub use weights::{parse_weights, write_weights, Tunable, Weight, MAX_WEIGHT};

use myrmidon_rules::{Player, Position};

/// Scores positions of one game. Its weights are [`Tunable`]: named integers that
/// `myrmidon tune` fits to games and a weights file sets.
pub trait Evaluator<P: Position>: Tunable + Clone + Default + Send + Sync + 'static {
    /// The material `player` has on the board, in centipawns.
    fn material(&self, pos: &P, player: Player) -> i32;

    /// The position seen by `player`: their material less the others' on average (with two
    /// players, less the opponent's), so that an even position scores 0.
    fn evaluate(&self, pos: &P, player: Player) -> i32 {
        self.baseline_value(pos, player)
    }

    /// Every player's [`Evaluator::evaluate`], into `out` (indexed by player; its length is the
    /// number of players at most). By default one call a player; an evaluation that computes
    /// every player's terms anyway gives them in one pass.
    fn evaluate_all(&self, pos: &P, out: &mut [i32]) {
        for (p, v) in out.iter_mut().enumerate() {
            *v = self.evaluate(pos, p as Player);
        }
    }

    /// The material count alone, as [`Evaluator::evaluate`] gives it by default: the player's
    /// material less the others' on average. The alpha-beta baseline plays on it, so that it
    /// stays the fixed yardstick it is documented as, whatever terms the evaluation gains.
    fn baseline_value(&self, pos: &P, player: Player) -> i32 {
        let players = pos.player_names().len() as Player;
        let mut others = 0;
        for p in (0..players).filter(|&p| p != player) {
            others += self.material(pos, p);
        }
        self.material(pos, player) - others / (players as i32 - 1).max(1)
    }

    /// The evaluation as a sum of weight × count: the coefficients of `evaluate(pos, player)`
    /// as `(weight index, coefficient)` pairs, written to `out` (cleared first). The sum of
    /// `weight × coefficient` is the evaluation up to its roundings (each evaluator's test
    /// `linear_terms_reproduce_the_evaluation` says how close). The tuner fits every weight at
    /// once by gradient descent on these coefficients.
    fn linear_terms(&self, pos: &P, player: Player, out: &mut Vec<(u32, f32)>);

    /// A capture that delta pruning must not skip whatever it takes: one whose worth is not
    /// in its victims (in Epaminondas, a capture that lands on the far row). None by default.
    fn delta_exempt(&self, _pos: &P, _mv: P::Move) -> bool {
        false
    }

    /// Which capture a move is, where a game has several moves taking the same pieces (in
    /// Epaminondas, groups of different sizes behind one head take the same enemy line):
    /// below the first ply of quiescence only the first move of each key is searched. None
    /// (the default): every capture is its own.
    fn capture_key(&self, _pos: &P, _mv: P::Move) -> Option<u32> {
        None
    }

    /// The value of a piece of the kind with this index in `GameInfo::pieces`, for ordering
    /// captures by their victim (`Tactics::taken_kinds`). By default every kind is alike.
    fn piece_value(&self, _kind: usize) -> i32 {
        100
    }

    /// True if the player to move must answer a threat at once or lose: check, a Queen
    /// attacked, the opponent ahead in the crossing race of Epaminondas. The search extends
    /// such nodes and looks at every move there in quiescence. By default `in_check`.
    fn in_danger(&self, pos: &P) -> bool {
        pos.in_check()
    }

    /// True only if the player to move certainly has a move that wins on the spot (in Jeu de
    /// Reines, the enemy Queen attacked): the search scores such a node as that win at once,
    /// before its table probe, null move and move generation. By default never.
    fn wins_at_once(&self, _pos: &P) -> bool {
        false
    }

    /// False only for a move that certainly loses at once when the player to move is
    /// [`Evaluator::in_danger`]: it neither takes the threat away nor answers it in kind. Once
    /// one move of a node in danger is searched, the search skips such moves: none can score
    /// better than the quickest loss, and each would cost a search of its own (in Jeu de
    /// Reines the reply's null move and table probe come before it takes the Queen). By
    /// default every move may answer.
    fn may_answer_danger(&self, _pos: &P, _mv: P::Move) -> bool {
        true
    }

    /// True if the move threatens what [`Evaluator::in_danger`] guards against (a check, an
    /// attack on the Queen): the search keeps such quiet moves out of its forward pruning. By
    /// default the rules' `gives_check`.
    fn threatens(&self, pos: &P, mv: P::Move) -> bool {
        pos.gives_check(mv)
    }

    /// True if the player to move has no legal move, where the game can tell that cheaply
    /// (quiescence asks before standing pat). By default false: not known.
    fn cheaply_over(&self, _pos: &P) -> bool {
        false
    }

    /// What the one-ply greedy player counts as gain: by default the material count
    /// ([`Evaluator::baseline_value`]), so that `greedy` stays the fixed yardstick it is
    /// documented as whatever terms the evaluation gains. A game whose ordinary captures help
    /// the opponents more than the capturer at one ply overrides it (see Ant Chess).
    fn greedy_value(&self, pos: &P, player: Player) -> i32 {
        self.baseline_value(pos, player)
    }
}

#[cfg(test)]
mod danger_tests {
    use super::*;
    use myrmidon_rules::games::epaminondas::Epaminondas;
    use myrmidon_rules::games::reines::Reines;
    use myrmidon_rules::rng::Rng;
    use myrmidon_rules::{Game, Settings};

    /// Over random games: every move `may_answer_danger` rules out, in danger, lets the opponent
    /// win at once (they win on the spot or have a winning move), and every node that
    /// `wins_at_once` claims has a move that wins. Returns how often each was checked.
    fn check_promises<G: Game, E: Evaluator<G::Pos> + Default>(game: G) -> (usize, usize) {
        let eval = E::default();
        let mut rng = Rng::new(11);
        let (mut ruled_out, mut wins) = (0, 0);
        for _ in 0..300 {
            let mut pos = game.start(&Settings::default()).unwrap();
            for _ in 0..200 {
                if pos.outcome().is_some() {
                    break;
                }
                let mut moves = <G::Pos as Position>::MoveList::default();
                pos.generate(&mut moves);
                if eval.wins_at_once(&pos) {
                    wins += 1;
                    assert!(
                        moves.iter().any(|&m| pos.quick_tactics(m).wins),
                        "no winning move in {pos:?}"
                    );
                }
                if eval.in_danger(&pos) {
                    for &mv in moves.iter() {
                        if eval.may_answer_danger(&pos, mv) {
                            continue;
                        }
                        ruled_out += 1;
                        let mut next = pos.clone();
                        next.make_move(mv);
                        let mut replies = <G::Pos as Position>::MoveList::default();
                        next.generate(&mut replies);
                        let lost = next
                            .outcome()
                            .is_some_and(|o| o.winner() != Some(pos.to_move()))
                            || replies.iter().any(|&r| next.quick_tactics(r).wins);
                        assert!(
                            lost,
                            "{} does not lose at once in {pos:?}",
                            pos.move_text(mv)
                        );
                    }
                }
                let mv = moves[rng.below(moves.len())];
                pos.make_move(mv);
            }
        }
        (ruled_out, wins)
    }

    #[test]
    fn moves_ruled_out_in_danger_lose_and_claimed_wins_exist() {
        let (ruled_out, wins) = check_promises::<_, ReinesEval>(Reines);
        assert!(ruled_out > 100 && wins > 100, "{ruled_out} {wins}");
        let (ruled_out, _) = check_promises::<_, EpaminondasEval>(Epaminondas);
        assert!(ruled_out > 100, "{ruled_out}");
    }
}
