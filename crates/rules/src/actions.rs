//! Moves as integers in a fixed range per game, for learning programs (the Python package's
//! environments): an *action* names a start cell, an end cell and, where several legal moves
//! share both, which of them.
//!
//! With `C` the game's number of cells, a start or end is a *slot* in `0..=C`: the cell's index,
//! or `C` when the move has none (a pass has neither). A move with start slot `f`, end slot `t`
//! and variant `k` is the action `(f·(C+1) + t)·K + k`, where `K` is
//! [`GameInfo::action_variants`], so the game's actions are `0 .. (C+1)²·K`. The variant is the
//! move's place, from 0, among the legal moves of the position that share its start and end,
//! ordered by their move text: 0 for every move that shares them with no other. Moves share a
//! start and an end where a choice is made on the way: Ackenhead's four promotions (a Berolina
//! pawn's `a7b8c`, `a7b8l`, `a7b8m`, `a7b8v`: always variants 0 to 3), and Ant Chess's Ladybird, which can reach
//! a cell by up to two pivots in two senses, capturing different pieces (and a Warrior that
//! may or may not promote). Each legal move of a position has exactly one action, and each
//! action at most one legal move.

use crate::dynamic::MoveDesc;
use crate::game::{Cell, GameInfo};

/// A game's numbering of moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ActionSpace {
    /// Cells of the board, plus one for "none".
    slots: usize,
    variants: usize,
}

/// A move's parts as an action names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ActionParts {
    pub from: Option<Cell>,
    pub to: Option<Cell>,
    pub variant: usize,
}

/// More legal moves share a start and an end than the game's [`GameInfo::action_variants`]
/// allows: a fault of the game's declaration, which the rules' tests look for.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{count} legal moves go from the same cell to the same cell ({example}); the game declares at most {variants}")]
pub struct TooManyVariants {
    pub count: usize,
    pub variants: usize,
    pub example: String,
}

impl ActionSpace {
    pub fn of(info: &GameInfo) -> Self {
        ActionSpace {
            slots: info.geometry.cell_count() + 1,
            variants: info.action_variants.max(1) as usize,
        }
    }

    /// How many actions the game has: every action is below it.
    pub fn size(self) -> usize {
        self.slots * self.slots * self.variants
    }

    fn slot(self, cell: Option<Cell>) -> usize {
        match cell {
            Some(c) if (c as usize) < self.slots - 1 => c as usize,
            _ => self.slots - 1,
        }
    }

    /// The parts of an action; `None` for a number out of range.
    pub fn parts(self, action: usize) -> Option<ActionParts> {
        if action >= self.size() {
            return None;
        }
        let variant = action % self.variants;
        let pair = action / self.variants;
        let cell = |slot: usize| (slot < self.slots - 1).then_some(slot as Cell);
        Some(ActionParts {
            from: cell(pair / self.slots),
            to: cell(pair % self.slots),
            variant,
        })
    }

    /// The action of each of a position's legal moves, in the order given.
    pub fn actions(self, moves: &[MoveDesc]) -> Result<Vec<usize>, TooManyVariants> {
        let pair = |m: &MoveDesc| self.slot(m.cells.from) * self.slots + self.slot(m.cells.to);
        let mut order: Vec<usize> = (0..moves.len()).collect();
        order.sort_unstable_by(|&a, &b| {
            pair(&moves[a])
                .cmp(&pair(&moves[b]))
                .then_with(|| moves[a].text.cmp(&moves[b].text))
        });
        let mut actions = vec![0; moves.len()];
        let mut run_start = 0;
        for (place, &i) in order.iter().enumerate() {
            if place > 0 && pair(&moves[order[place - 1]]) != pair(&moves[i]) {
                run_start = place;
            }
            let variant = place - run_start;
            if variant >= self.variants {
                let same: Vec<&str> = order[run_start..=place]
                    .iter()
                    .map(|&j| moves[j].text.as_str())
                    .collect();
                return Err(TooManyVariants {
                    count: same.len(),
                    variants: self.variants,
                    example: same.join(", "),
                });
            }
            actions[i] = pair(&moves[i]) * self.variants + variant;
        }
        Ok(actions)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry;
    use crate::rng::Rng;

    /// Random games of every game: each position's actions are distinct, inside the space,
    /// name the move's own cells, and no more moves share a start and an end than declared
    /// (which one of the games reaches).
    #[test]
    fn actions_are_distinct_in_range_and_name_their_cells() {
        for game in registry::games() {
            let info = game.info();
            let space = ActionSpace::of(info);
            let mut widest = 0;
            for seed in 0..24u64 {
                let mut rng = Rng::new(seed * 7919 + 1);
                let mut record = game.new_game(&Default::default()).unwrap();
                for _ in 0..400 {
                    let moves = record.legal_moves();
                    if moves.is_empty() || record.outcome().is_some() {
                        break;
                    }
                    let actions = space
                        .actions(&moves)
                        .unwrap_or_else(|e| panic!("{}: {e}", info.id));
                    let mut sorted = actions.clone();
                    sorted.sort_unstable();
                    sorted.dedup();
                    assert_eq!(
                        sorted.len(),
                        moves.len(),
                        "{}: actions not distinct",
                        info.id
                    );
                    for (m, &a) in moves.iter().zip(&actions) {
                        let parts = space.parts(a).expect("in range");
                        assert_eq!(
                            (parts.from, parts.to),
                            (m.cells.from, m.cells.to),
                            "{}",
                            m.text
                        );
                        widest = widest.max(parts.variant + 1);
                    }
                    let pick = rng.below(moves.len());
                    record.play(&moves[pick].text).unwrap();
                }
            }
            assert!(widest <= info.action_variants as usize, "{}", info.id);
        }
    }

    #[test]
    fn ackenhead_promotions_are_variants_in_letter_order_and_too_many_is_an_error() {
        let game = registry::find("ackenhead").unwrap();
        let space = ActionSpace::of(game.info());
        let record = game.new_game_at("8/P6k/8/8/8/8/8/K7 w - - 0 1").unwrap();
        let moves = record.legal_moves();
        let actions = space.actions(&moves).unwrap();
        let promotions: Vec<(usize, &str)> = moves
            .iter()
            .zip(&actions)
            .filter(|(m, _)| m.text.starts_with("a7b8"))
            .map(|(m, &a)| (space.parts(a).unwrap().variant, m.text.as_str()))
            .collect();
        let mut promotions = promotions;
        promotions.sort();
        assert_eq!(
            promotions,
            [(0, "a7b8c"), (1, "a7b8l"), (2, "a7b8m"), (3, "a7b8v")]
        );
        let narrow = ActionSpace {
            variants: 3,
            ..space
        };
        let err = narrow.actions(&moves).unwrap_err();
        assert_eq!(err.count, 4);
        assert!(err.to_string().contains("a7b8c"), "{err}");
    }

    #[test]
    fn parts_of_out_of_range_actions_are_none() {
        for game in registry::games() {
            let space = ActionSpace::of(game.info());
            assert!(space.parts(space.size() - 1).is_some());
            assert_eq!(space.parts(space.size()), None);
        }
    }
}
