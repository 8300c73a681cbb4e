//! Board geometries: square grids and the hexagon. A cell is an index (`crate::Cell`) into the
//! geometry; names and layout come from here, so renderers loop over cells without knowing the
//! game.

pub mod hex;
pub mod placement;
pub mod square;

use crate::game::Cell;

/// The shape of a game's board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Geometry {
    /// `files` columns `a…` and `ranks` rows `1…`, a1 at the bottom left.
    /// Cell index = `rank * files + file` (both from 0).
    Square { files: u8, ranks: u8 },
    /// A hexagon of `radius` cells around the centre, drawn pointy-top in `2·radius+1` rows
    /// `a…` from the top; cells numbered in reading order (see [`hex::HexGrid`]).
    Hex { radius: u8 },
}

impl Geometry {
    pub fn cell_count(self) -> usize {
        match self {
            Geometry::Square { files, ranks } => files as usize * ranks as usize,
            Geometry::Hex { radius } => hex::HexGrid::new(radius).cell_count(),
        }
    }

    /// The cell's name: `e4` on a square board, `g7` on the hexagon; a cell index off the
    /// board is written `?<index>`.
    pub fn cell_name(self, cell: Cell) -> String {
        match self {
            Geometry::Square { files, ranks }
                if cell as usize >= files as usize * ranks as usize =>
            {
                format!("?{cell}")
            }
            Geometry::Square { files, .. } => square::name(files, cell),
            Geometry::Hex { radius } => hex::HexGrid::new(radius).name(cell),
        }
    }

    /// Reads a cell name; `None` if it is not a cell of this board.
    pub fn parse_cell(self, name: &str) -> Option<Cell> {
        match self {
            Geometry::Square { files, ranks } => square::parse(files, ranks, name),
            Geometry::Hex { radius } => hex::HexGrid::new(radius).parse(name),
        }
    }

    /// The rows of the board as drawn, top row first: each row's cells from left to right and the
    /// row's indent in half cells (0 on square boards).
    pub fn rows(self) -> Vec<(usize, Vec<Cell>)> {
        match self {
            Geometry::Square { files, ranks } => (0..ranks)
                .rev()
                .map(|r| {
                    (
                        0,
                        (0..files)
                            .map(|f| r as Cell * files as Cell + f as Cell)
                            .collect(),
                    )
                })
                .collect(),
            Geometry::Hex { radius } => hex::HexGrid::new(radius).rows(),
        }
    }

    /// What a row as drawn is called: `rank` on square boards, `row` on the hexagon.
    pub fn row_word(self, plural: bool) -> &'static str {
        match (self, plural) {
            (Geometry::Square { .. }, false) => "rank",
            (Geometry::Square { .. }, true) => "ranks",
            (Geometry::Hex { .. }, false) => "row",
            (Geometry::Hex { .. }, true) => "rows",
        }
    }

    /// The name of the `i`-th row as drawn (top first): `rank 8`, `row a`.
    pub fn row_label(self, i: usize) -> String {
        match self {
            Geometry::Square { ranks, .. } => {
                format!("rank {}", (ranks as usize).saturating_sub(i))
            }
            Geometry::Hex { .. } => format!("row {}", (b'a' + i as u8) as char),
        }
    }

    pub fn describe(self) -> String {
        match self {
            Geometry::Square { files, ranks } => format!("{files}x{ranks} squares"),
            Geometry::Hex { radius } => format!(
                "hexagon of side {} ({} cells)",
                radius + 1,
                self.cell_count()
            ),
        }
    }
}
