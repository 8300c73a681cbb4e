//! Setting up positions by hand: put pieces on cells, empty cells, choose who moves (the
//! explorer of the web app's rules pages, and its diagrams).
//!
//! Every game's position string starts with its placement (see [`crate::geometry::placement`])
//! and its side to move (one letter of [`GameInfo::to_move_letters`]). An edit rewrites those
//! two fields, lets the game adjust the fields that depend on them ([`Game::after_edit`]), and
//! reads the string back with the game's own parser: whatever the rules of the position
//! string say holds for an edited position too, and a set-up they refuse is refused with the
//! parser's message.

use crate::error::PositionError;
use crate::game::{Cell, Game, GameInfo, PieceNotation, PieceView, Player, Position};
use crate::geometry::placement;
use crate::outcome::Outcome;

/// What to change, in this order: `clear` (take off every piece the position can do without
/// and go on),
/// then `put` (a piece, or `None` to empty the cell), then `to_move`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Edit {
    pub clear: bool,
    pub put: Vec<(Cell, Option<PieceView>)>,
    pub to_move: Option<Player>,
}

/// How a piece is written in a position string of a position whose players are `names` (in
/// its turn order), or `None` for an owner or kind the game does not have.
pub fn piece_token(info: &GameInfo, names: &[&str], piece: PieceView) -> Option<String> {
    let name = names.get(piece.owner as usize)?;
    let index = info.players.iter().position(|p| p == name)?;
    let kind = info.pieces.iter().find(|k| k.letter == piece.kind)?.letter;
    match info.notation {
        PieceNotation::Case => match index {
            0 => Some(kind.to_string()),
            1 => Some(kind.to_ascii_lowercase().to_string()),
            _ => None,
        },
        PieceNotation::OwnerPrefix(letters) => Some(format!("{}{kind}", letters.get(index)?)),
        // The kind tells the owner: the game's n-th kind belongs to its n-th player.
        PieceNotation::Letter => (info.pieces.get(index)?.letter == kind).then(|| kind.to_string()),
    }
}

/// Every piece that can be put on a board of a position whose players are `names`, by owner
/// (in the position's order) then kind.
pub fn palette(info: &GameInfo, names: &[&str]) -> Vec<PieceView> {
    let mut out = Vec::new();
    for owner in 0..names.len() as Player {
        for kind in info.pieces {
            let piece = PieceView {
                owner,
                kind: kind.letter,
            };
            if piece_token(info, names, piece).is_some() {
                out.push(piece);
            }
        }
    }
    out
}

/// Applies `edit` to `pos`, through its string (see the module's text).
pub fn edit<G: Game>(game: &G, pos: &G::Pos, edit: &Edit) -> Result<G::Pos, PositionError> {
    let info = game.info();
    let names = pos.player_names();
    let cells = info.geometry.cell_count();
    let mut board: Vec<Option<PieceView>> = (0..cells).map(|c| pos.piece_at(c as Cell)).collect();
    let mut to_move = pos.to_move();
    let text = pos.to_string();
    let rest: Vec<String> = text.split(' ').skip(2).map(str::to_string).collect();
    let build = |board: &[Option<PieceView>], to_move: Player| -> Result<G::Pos, PositionError> {
        write(game, names, board, to_move, &rest)
    };
    if edit.clear {
        // A piece stays if the string cannot do without it, or if a player would have won or
        // left the game without it (a Jeu de Reines string with one Queen is a game won, a
        // three-player Ant Chess string without a Queen has a player out). A draw is fine: two
        // bare Kings still show how Kings move.
        let players = names.len() as Player;
        let won = |p: &G::Pos| {
            matches!(p.outcome(), Some(Outcome::Win { .. }))
                || (0..players).any(|i| p.eliminated(i).is_some())
        };
        let over = won(pos);
        for cell in 0..cells {
            if let Some(piece) = board[cell].take() {
                match build(&board, to_move) {
                    Ok(p) if over || !won(&p) => {}
                    _ => board[cell] = Some(piece),
                }
            }
        }
    }
    for &(cell, piece) in &edit.put {
        let slot = board.get_mut(cell as usize).ok_or_else(|| {
            PositionError::new(placement::FIELD, format!("there is no cell {cell}"))
        })?;
        if let Some(p) = piece {
            if piece_token(info, names, p).is_none() {
                return Err(PositionError::new(
                    placement::FIELD,
                    format!(
                        "{}: no piece of kind {:?} for seat {}",
                        info.name, p.kind, p.owner
                    ),
                ));
            }
        }
        *slot = piece;
    }
    if let Some(p) = edit.to_move {
        if p as usize >= names.len() {
            return Err(PositionError::new(
                "side to move",
                format!("seat {p}: the game has {} players", names.len()),
            ));
        }
        to_move = p;
    }
    build(&board, to_move)
}

fn write<G: Game>(
    game: &G,
    names: &[&str],
    board: &[Option<PieceView>],
    to_move: Player,
    rest: &[String],
) -> Result<G::Pos, PositionError> {
    let info = game.info();
    let placement = placement::write(info.geometry, |cell, out| {
        match board[cell as usize].and_then(|p| piece_token(info, names, p)) {
            Some(token) => {
                out.push_str(&token);
                true
            }
            None => false,
        }
    });
    let side = names
        .get(to_move as usize)
        .and_then(|name| info.players.iter().position(|p| p == name))
        .and_then(|i| info.to_move_letters.get(i))
        .ok_or_else(|| PositionError::new("side to move", format!("no seat {to_move}")))?;
    let mut fields = vec![placement, side.to_string()];
    fields.extend(rest.iter().cloned());
    game.after_edit(&mut fields);
    game.parse_position(&fields.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry;

    fn start(id: &str) -> Box<dyn crate::DynRecord> {
        registry::find(id)
            .unwrap()
            .new_game(&Default::default())
            .unwrap()
    }

    #[test]
    fn an_empty_edit_gives_the_same_position_in_every_game() {
        for game in registry::games() {
            let record = game.new_game(&Default::default()).unwrap();
            let text = record.position_string();
            assert_eq!(
                game.edit_position(&text, &Edit::default()).unwrap(),
                text,
                "{}",
                game.info().id
            );
        }
    }

    #[test]
    fn clearing_keeps_only_what_a_position_needs() {
        // Ackenhead needs its Kings, Ant Chess and Jeu de Reines their Queens, Epaminondas a
        // piece for the side to move (with none it could not move: the game would be over).
        let wants = [
            ("ackenhead", vec!['K', 'K']),
            ("antchess", vec!['Q', 'Q']),
            ("antchess3", vec!['Q', 'Q', 'Q']),
            ("epaminondas", vec!['W']),
            ("reines", vec!['Q', 'Q']),
        ];
        for (id, kinds) in wants {
            let game = registry::find(id).unwrap();
            let text = start(id).position_string();
            let edit = Edit {
                clear: true,
                ..Edit::default()
            };
            let cleared = game.edit_position(&text, &edit).unwrap();
            let record = game.new_game_at(&cleared).unwrap();
            let left: Vec<char> = (0..game.info().geometry.cell_count())
                .filter_map(|c| record.piece_at(c as Cell))
                .map(|p| p.kind)
                .collect();
            assert_eq!(left, kinds, "{id}: {cleared}");
            assert!(
                !matches!(record.outcome(), Some(crate::Outcome::Win { .. })),
                "{id}: {cleared}"
            );
        }
    }

    #[test]
    fn a_piece_put_moves_as_its_kind() {
        // A Leo (queen-like) alone with the Kings on d4 of an Ackenhead board.
        let game = registry::find("ackenhead").unwrap();
        let text = start("ackenhead").position_string();
        let geo = game.info().geometry;
        let d4 = geo.parse_cell("d4").unwrap();
        let edit = Edit {
            clear: true,
            put: vec![(
                d4,
                Some(PieceView {
                    owner: 0,
                    kind: 'L',
                }),
            )],
            to_move: Some(0),
        };
        let out = game.edit_position(&text, &edit).unwrap();
        assert_eq!(out, "4k3/8/8/8/3L4/8/8/4K3 w - - 0 1");
        // Two bare Kings are a draw, but a board to show moves on.
        let bare = Edit {
            clear: true,
            ..Edit::default()
        };
        assert_eq!(
            game.edit_position(&out, &bare).unwrap(),
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
        );
        // Who moves: Black.
        let edit = Edit {
            to_move: Some(1),
            ..Edit::default()
        };
        assert!(game.edit_position(&out, &edit).unwrap().contains(" b "));
    }

    #[test]
    fn refusals_say_what_is_wrong() {
        let game = registry::find("ackenhead").unwrap();
        let text = start("ackenhead").position_string();
        let e1 = game.info().geometry.parse_cell("e1").unwrap();
        let edit = Edit {
            put: vec![(e1, None)],
            ..Edit::default()
        };
        let err = game.edit_position(&text, &edit).unwrap_err();
        assert!(err.to_string().contains("kings"), "{err}");
        let edit = Edit {
            put: vec![(9999, None)],
            ..Edit::default()
        };
        assert!(game.edit_position(&text, &edit).is_err());
        let edit = Edit {
            put: vec![(
                e1,
                Some(PieceView {
                    owner: 0,
                    kind: 'Z',
                }),
            )],
            ..Edit::default()
        };
        assert!(game
            .edit_position(&text, &edit)
            .unwrap_err()
            .to_string()
            .contains("'Z'"));
        let edit = Edit {
            to_move: Some(2),
            ..Edit::default()
        };
        assert!(game.edit_position(&text, &edit).is_err());
    }

    #[test]
    fn reines_forgets_unmoved_workers_taken_off() {
        let game = registry::find("reines").unwrap();
        let text = start("reines").position_string();
        let d2 = game.info().geometry.parse_cell("d2").unwrap();
        let edit = Edit {
            put: vec![(d2, None)],
            ..Edit::default()
        };
        let out = game.edit_position(&text, &edit).unwrap();
        assert!(out.contains(" c3b4g5f6e7 "), "{out}");
    }

    #[test]
    fn pieces_are_written_as_each_game_writes_them() {
        let games = [
            (
                "ackenhead",
                PieceView {
                    owner: 1,
                    kind: 'C',
                },
                "c",
            ),
            (
                "antchess3",
                PieceView {
                    owner: 2,
                    kind: 'Q',
                },
                "gQ",
            ),
            (
                "epaminondas",
                PieceView {
                    owner: 1,
                    kind: 'B',
                },
                "B",
            ),
        ];
        for (id, piece, token) in games {
            let info = registry::find(id).unwrap().info();
            assert_eq!(
                piece_token(info, info.players, piece).as_deref(),
                Some(token)
            );
        }
        let epa = registry::find("epaminondas").unwrap().info();
        // A White piece is W, never B.
        assert_eq!(
            piece_token(
                epa,
                epa.players,
                PieceView {
                    owner: 1,
                    kind: 'W'
                }
            ),
            None
        );
        assert_eq!(palette(epa, epa.players).len(), 2);
        let ant = registry::find("antchess3").unwrap().info();
        assert_eq!(palette(ant, ant.players).len(), 3 * ant.pieces.len());
    }
}
