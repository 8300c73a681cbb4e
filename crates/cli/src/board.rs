//! Drawing any game's board as text, from its `GameInfo` and `piece_at` alone.
//!
//! * Square boards: ranks down the left, files along the bottom, `a1` at the bottom left.
//! * Hex boards: the rows of `Geometry::rows()` with their indents, the row letter on the left;
//!   a cell's name is its row letter and its place in the row (see [`draw_names`]).
//!
//! Pieces are written as the game's own notation writes them (`GameInfo::notation`): by case
//! (`K`, `k`), by an owner prefix (`bQ`) or by the kind letter alone (`W`, `B`). An empty cell
//! is a dot.

use anstyle::{AnsiColor, Color, Style};
use myrmidon_rules::{Cell, GameInfo, Geometry, PieceNotation, PieceView, Player};

/// A piece with its owner numbered as in `GameInfo::players` (the order legends, colours and
/// the case of letters follow), from a position that numbers its players `names` (in turn
/// order, which a setting may change).
pub fn by_name(info: &GameInfo, names: &[&str], piece: Option<PieceView>) -> Option<PieceView> {
    piece.map(|p| {
        let name = names.get(p.owner as usize).copied();
        let owner = info
            .players
            .iter()
            .position(|&n| Some(n) == name)
            .map_or(p.owner, |i| i as Player);
        PieceView { owner, ..p }
    })
}

/// A bold foreground colour.
const fn bold(fg: AnsiColor) -> Style {
    Style::new().bold().fg_color(Some(Color::Ansi(fg)))
}

/// A bold colour on a background: a tile.
const fn tile(fg: AnsiColor, bg: AnsiColor) -> Style {
    bold(fg).bg_color(Some(Color::Ansi(bg)))
}

/// Styles for players named after a colour (matched without regard to case). White and Black
/// are a light and a dark tile, which read the same on dark and light terminals.
const NAMED: [(&str, Style); 10] = [
    ("white", tile(AnsiColor::Black, AnsiColor::White)),
    ("black", tile(AnsiColor::White, AnsiColor::Black)),
    ("red", bold(AnsiColor::Red)),
    ("green", bold(AnsiColor::Green)),
    ("yellow", bold(AnsiColor::Yellow)),
    ("blue", bold(AnsiColor::Blue)),
    ("magenta", bold(AnsiColor::Magenta)),
    ("purple", bold(AnsiColor::Magenta)),
    ("cyan", bold(AnsiColor::Cyan)),
    ("orange", bold(AnsiColor::Yellow)),
];

/// Styles for the other players, in turn order, skipping those a named player took.
const PALETTE: [Style; 6] = [
    bold(AnsiColor::Yellow),
    bold(AnsiColor::Cyan),
    bold(AnsiColor::Magenta),
    bold(AnsiColor::Green),
    bold(AnsiColor::Blue),
    bold(AnsiColor::Red),
];

/// The ANSI style of each player's pieces: the colour a player is named after (Black, Red,
/// Green...), else the first colour of [`PALETTE`] that no other player of the game has.
pub fn player_colours(players: &[&str]) -> Vec<Style> {
    let named: Vec<Option<Style>> = players
        .iter()
        .map(|name| {
            NAMED
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(name.trim()))
                .map(|&(_, style)| style)
        })
        .collect();
    let mut taken: Vec<Style> = named.iter().flatten().copied().collect();
    named
        .iter()
        .enumerate()
        .map(|(i, style)| {
            style.unwrap_or_else(|| {
                let free = PALETTE.iter().find(|p| !taken.contains(p));
                let style = free.copied().unwrap_or(PALETTE[i % PALETTE.len()]);
                taken.push(style);
                style
            })
        })
        .collect()
}

/// `text` in `style`, or as it is without a style.
fn styled(text: &str, style: Option<Style>) -> String {
    match style {
        Some(style) => format!("{style}{text}{style:#}"),
        None => text.to_string(),
    }
}

/// The text of a piece on the board, as the game's own notation writes it: `K`, `k`, `bQ`, `W`.
pub fn piece_token(info: &GameInfo, piece: PieceView) -> String {
    match info.notation {
        PieceNotation::Case if piece.owner == 0 => piece.kind.to_ascii_uppercase().to_string(),
        PieceNotation::Case => piece.kind.to_ascii_lowercase().to_string(),
        PieceNotation::OwnerPrefix(prefixes) => {
            let prefix = prefixes.get(piece.owner as usize).copied().unwrap_or('?');
            format!("{prefix}{}", piece.kind.to_ascii_uppercase())
        }
        PieceNotation::Letter => piece.kind.to_string(),
    }
}

/// Lines explaining the pieces: who owns which, and what each letter is. With `colour`, each
/// player's name is written in the colour of their pieces, so that the legend says which is
/// which.
pub fn legend(info: &GameInfo, colour: bool) -> Vec<String> {
    let colours = player_colours(info.players);
    let names = |i: usize| {
        let name = info.players.get(i).copied().unwrap_or("?");
        styled(name, colours.get(i).copied().filter(|_| colour))
    };
    let mut lines = Vec::new();
    match info.notation {
        PieceNotation::Case => lines.push(format!(
            "{}: upper case, {}: lower case, empty: .",
            names(0),
            names(1)
        )),
        PieceNotation::OwnerPrefix(prefixes) => {
            let owners: Vec<String> = (0..info.players.len())
                .zip(prefixes)
                .map(|(i, p)| format!("{}: {p}…", names(i)))
                .collect();
            lines.push(format!("{}, empty: .", owners.join(", ")));
        }
        PieceNotation::Letter if colour => {
            let players: Vec<String> = (0..info.players.len()).map(names).collect();
            lines.push(format!("players: {}, empty: .", players.join(", ")));
        }
        PieceNotation::Letter => lines.push("empty: .".to_string()),
    }
    if !info.pieces.is_empty() {
        let kinds: Vec<String> = info
            .pieces
            .iter()
            .map(|k| format!("{} {}", k.letter, k.name))
            .collect();
        lines.push(format!("pieces: {}", kinds.join(", ")));
    }
    lines
}

/// What to show in one cell: its visible text and the player whose colour it takes.
struct CellText {
    text: String,
    owner: Option<Player>,
}

/// Splits a cell name into its letters and its digits (`n12` -> `n`, `12`).
fn split_name(name: &str) -> (&str, &str) {
    let at = name
        .find(|c: char| c.is_ascii_digit())
        .unwrap_or(name.len());
    name.split_at(at)
}

/// The cell's text padded to `width`, in its owner's style if `colours` are given.
fn paint(cell: &CellText, width: usize, colours: Option<&[Style]>) -> String {
    let pad = width.saturating_sub(cell.text.chars().count());
    let style = colours
        .zip(cell.owner)
        .and_then(|(colours, owner)| colours.get(owner as usize).copied());
    format!("{}{}", styled(&cell.text, style), " ".repeat(pad))
}

/// Lays the board out with `text(cell)` in each cell.
/// Cells are at least `min_width` wide (the widest text any cell can take, so that the board
/// keeps its shape as pieces come and go).
fn layout(
    info: &GameInfo,
    text: &dyn Fn(Cell) -> CellText,
    min_width: usize,
    colour: bool,
) -> String {
    let geometry = info.geometry;
    let palette = player_colours(info.players);
    let colours = colour.then_some(palette.as_slice());
    let rows = geometry.rows();
    let cells: Vec<Vec<CellText>> = rows
        .iter()
        .map(|(_, row)| row.iter().map(|&c| text(c)).collect())
        .collect();
    let widest = cells
        .iter()
        .flatten()
        .map(|c| c.text.chars().count())
        .max()
        .unwrap_or(1)
        .max(min_width);
    let mut out = String::new();
    match geometry {
        Geometry::Square { .. } => {
            // Rank numbers on the left, file letters at the bottom.
            let label = |row: &[Cell]| -> String {
                row.first()
                    .map(|&c| split_name(&geometry.cell_name(c)).1.to_string())
                    .unwrap_or_default()
            };
            let label_width = rows.iter().map(|(_, r)| label(r).len()).max().unwrap_or(1);
            let width = widest + 1;
            for ((_, row), texts) in rows.iter().zip(&cells) {
                let mut line = format!("{:>label_width$}  ", label(row));
                for t in texts {
                    line.push_str(&paint(t, width, colours));
                }
                out.push_str(line.trim_end());
                out.push('\n');
            }
            if let Some((_, bottom)) = rows.last() {
                let mut line = format!("{:>label_width$}  ", "");
                for &c in bottom {
                    let name = geometry.cell_name(c);
                    line.push_str(&format!("{:<width$}", split_name(&name).0));
                }
                out.push_str(line.trim_end());
                out.push('\n');
            }
        }
        Geometry::Hex { .. } => {
            // Each cell is two half cells wide; rows are shifted by their indent.
            let half = (widest + 2) / 2;
            let width = 2 * half;
            let label = |row: &[Cell]| -> String {
                row.first()
                    .map(|&c| split_name(&geometry.cell_name(c)).0.to_string())
                    .unwrap_or_default()
            };
            let label_width = rows.iter().map(|(_, r)| label(r).len()).max().unwrap_or(1);
            for ((indent, row), texts) in rows.iter().zip(&cells) {
                let mut line = format!(
                    "{:>label_width$}  {}",
                    label(row),
                    " ".repeat(indent * half)
                );
                for t in texts {
                    line.push_str(&paint(t, width, colours));
                }
                out.push_str(line.trim_end());
                out.push('\n');
            }
        }
    }
    out
}

/// The widest piece token of the game (at least 1, the dot of an empty cell).
pub fn token_width(info: &GameInfo) -> usize {
    (0..info.players.len())
        .flat_map(|owner| {
            info.pieces.iter().map(move |k| {
                piece_token(
                    info,
                    PieceView {
                        owner: owner as Player,
                        kind: k.letter,
                    },
                )
                .chars()
                .count()
            })
        })
        .max()
        .unwrap_or(1)
        .max(1)
}

/// The board with its pieces.
pub fn draw(info: &GameInfo, piece_at: &dyn Fn(Cell) -> Option<PieceView>, colour: bool) -> String {
    layout(
        info,
        &|cell| match piece_at(cell) {
            Some(p) => CellText {
                text: piece_token(info, p),
                owner: Some(p.owner),
            },
            None => CellText {
                text: ".".to_string(),
                owner: None,
            },
        },
        token_width(info),
        colour,
    )
}

/// The board with every cell's name in it.
pub fn draw_names(info: &GameInfo) -> String {
    layout(
        info,
        &|cell| CellText {
            text: info.geometry.cell_name(cell),
            owner: None,
        },
        1,
        false,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testgame;
    use myrmidon_rules::{DynGame, Settings};

    fn board_of(game: &dyn DynGame, position: &str) -> String {
        let record = game.new_game_at(position).unwrap();
        draw(game.info(), &|c| record.piece_at(c), false)
    }

    #[test]
    fn square_board_two_players() {
        let game = &testgame::SQUARE;
        let text = board_of(game, "1.2/.1./..2 1 0");
        assert_eq!(text, "3  S . s\n2  . S .\n1  . . s\n   a b c\n");
        let names = draw_names(game.info());
        assert_eq!(names, "3  a3 b3 c3\n2  a2 b2 c2\n1  a1 b1 c1\n   a  b  c\n");
    }

    #[test]
    fn hex_board_three_players() {
        let game = &testgame::HEX;
        let record = game.new_game(&Settings::new()).unwrap();
        let empty = draw(game.info(), &|c| record.piece_at(c), false);
        assert_eq!(
            empty,
            "a      .   .   .\n\
             b    .   .   .   .\n\
             c  .   .   .   .   .\n\
             d    .   .   .   .\n\
             e      .   .   .\n"
        );
        let text = board_of(game, "1../..../..3../..../2.. 2 0");
        assert_eq!(
            text,
            "a      aS  .   .\n\
             b    .   .   .   .\n\
             c  .   .   cS  .   .\n\
             d    .   .   .   .\n\
             e      bS  .   .\n"
        );
        let names = draw_names(game.info());
        assert!(names.starts_with("a      a1  a2  a3\n"), "{names}");
        assert!(names.contains("\nc  c1  c2  c3  c4  c5\n"), "{names}");
    }

    #[test]
    fn three_players_sharing_an_initial_are_numbered() {
        let game = &testgame::HEX_SAME_INITIALS;
        let text = board_of(game, "1../..../..3../..../2.. 2 0");
        assert!(text.contains("1S"), "{text}");
        assert!(text.contains("2S"), "{text}");
        assert!(text.contains("3S"), "{text}");
        assert!(legend(game.info(), false)[0].contains("1…"));
    }

    #[test]
    fn colour_only_when_asked() {
        let game = &testgame::SQUARE;
        let record = game.new_game_at("1.2/.1./..2 1 0").unwrap();
        let plain = draw(game.info(), &|c| record.piece_at(c), false);
        let coloured = draw(game.info(), &|c| record.piece_at(c), true);
        assert!(!plain.contains('\x1b'));
        assert!(coloured.contains("\x1b[1m\x1b[33mS\x1b[0m"), "{coloured}");
    }

    #[test]
    fn legends() {
        let square = legend(testgame::SQUARE.info(), false);
        assert_eq!(square[0], "Cross: upper case, Nought: lower case, empty: .");
        assert_eq!(square[1], "pieces: S stone");
        let hex = legend(testgame::HEX.info(), false);
        assert_eq!(hex[0], "Amber: a…, Blue: b…, Coral: c…, empty: .");
        // In colour, each name is in its pieces' colour.
        let hex = legend(testgame::HEX_SAME_INITIALS.info(), true);
        assert_eq!(
            hex[0],
            "\x1b[1m\x1b[31mRed\x1b[0m: 1…, \x1b[1m\x1b[33mRose\x1b[0m: 2…, \x1b[1m\x1b[36mRuby\x1b[0m: 3…, \
             empty: ."
        );
    }

    #[test]
    fn players_named_after_colours_get_them() {
        assert_eq!(
            player_colours(&["Black", "Red", "Green"]),
            [
                tile(AnsiColor::White, AnsiColor::Black),
                bold(AnsiColor::Red),
                bold(AnsiColor::Green)
            ]
        );
        assert_eq!(
            player_colours(&["White", "black"]),
            [
                tile(AnsiColor::Black, AnsiColor::White),
                tile(AnsiColor::White, AnsiColor::Black)
            ]
        );
        // Others take the palette in turn, skipping what a named player has.
        assert_eq!(
            player_colours(&["Cross", "Nought"]),
            [bold(AnsiColor::Yellow), bold(AnsiColor::Cyan)]
        );
        assert_eq!(
            player_colours(&["Amber", "Yellow", "Coral"]),
            [
                bold(AnsiColor::Cyan),
                bold(AnsiColor::Yellow),
                bold(AnsiColor::Magenta)
            ]
        );
        let game = &testgame::HEX_SAME_INITIALS;
        let record = game.new_game_at("1../..../..3../..../2.. 2 0").unwrap();
        let text = draw(game.info(), &|c| record.piece_at(c), true);
        assert!(
            text.contains("\x1b[1m\x1b[31m1S\x1b[0m"),
            "Red in red: {text}"
        );
    }
}
