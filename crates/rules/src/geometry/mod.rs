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

    /// The height and width of the rectangle [`Geometry::grid_position`] lays the cells out
    /// in: the board itself on square boards, `2·radius+1` by `2·radius+1` for the hexagon.
    pub fn grid_size(self) -> (usize, usize) {
        match self {
            Geometry::Square { files, ranks } => (ranks as usize, files as usize),
            Geometry::Hex { radius } => {
                let side = 2 * radius as usize + 1;
                (side, side)
            }
        }
    }

    /// Where a cell sits in a rectangular array (row, column; row 0 at the top as drawn), for
    /// programs that see the board as an image: a square board as drawn (`a8` at (0, 0) on
    /// 8×8); the hexagon in axial coordinates, row `r + radius` and column `q + radius`, so
    /// that the six neighbours of a cell are the array's (0, ±1), (±1, 0), (−1, +1) and
    /// (+1, −1) and the corners of the rectangle above the first row's start and below the
    /// last row's end hold no cell. `None` for a cell index off the board.
    pub fn grid_position(self, cell: Cell) -> Option<(usize, usize)> {
        match self {
            Geometry::Square { files, ranks } => {
                let (files, ranks) = (files as usize, ranks as usize);
                let cell = cell as usize;
                (cell < files * ranks).then(|| (ranks - 1 - cell / files, cell % files))
            }
            Geometry::Hex { radius } => {
                let (q, r) = hex::HexGrid::new(radius).coords(cell)?;
                let n = radius as i32;
                Some(((r + n) as usize, (q + n) as usize))
            }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Every cell has its own place inside the rectangle.
    fn places_are_distinct(g: Geometry) {
        let (h, w) = g.grid_size();
        let mut seen = vec![false; h * w];
        for cell in 0..g.cell_count() as Cell {
            let (r, c) = g.grid_position(cell).expect("a cell of the board");
            assert!(r < h && c < w, "{g:?}: {cell} at ({r}, {c})");
            assert!(
                !std::mem::replace(&mut seen[r * w + c], true),
                "{g:?}: {cell} twice"
            );
        }
        assert_eq!(g.grid_position(g.cell_count() as Cell), None);
    }

    #[test]
    fn grid_positions_of_square_boards_are_as_drawn() {
        let g = Geometry::Square {
            files: 14,
            ranks: 12,
        };
        places_are_distinct(g);
        assert_eq!(g.grid_size(), (12, 14));
        assert_eq!(g.grid_position(g.parse_cell("a12").unwrap()), Some((0, 0)));
        assert_eq!(g.grid_position(g.parse_cell("n1").unwrap()), Some((11, 13)));
    }

    #[test]
    fn grid_positions_of_the_hexagon_put_neighbours_at_axial_offsets() {
        let g = Geometry::Hex { radius: 6 };
        places_are_distinct(g);
        assert_eq!(g.grid_size(), (13, 13));
        let grid = hex::HexGrid::new(6);
        assert_eq!(g.grid_position(grid.parse("g7").unwrap()), Some((6, 6)));
        for cell in 0..g.cell_count() as Cell {
            let (r, c) = g.grid_position(cell).unwrap();
            for (d, &(dq, dr)) in hex::DIRECTIONS.iter().enumerate() {
                if let Some(n) = grid.neighbour(cell, d) {
                    let expected = (
                        (r as i32 + dr as i32) as usize,
                        (c as i32 + dq as i32) as usize,
                    );
                    assert_eq!(g.grid_position(n), Some(expected));
                }
            }
        }
    }
}
