//! The hexagonal board: axial coordinates `(q, r)`, `s = -q - r`, pointy-top rows from the top
//! (`r = -radius`) down, cells named by row letter and 1-based place in the row (`g7` is the
//! centre of the radius-6 board).

use crate::game::Cell;

/// The six directions, in the order E, NE, NW, W, SW, SE (`u_0 … u_5`).
pub const DIRECTIONS: [(i8, i8); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];

/// A hexagon of a given radius, with cells numbered in reading order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HexGrid {
    pub radius: u8,
}

impl HexGrid {
    pub const fn new(radius: u8) -> Self {
        HexGrid { radius }
    }

    pub fn cell_count(self) -> usize {
        let n = self.radius as usize;
        3 * n * (n + 1) + 1
    }

    pub fn contains(self, q: i32, r: i32) -> bool {
        let n = self.radius as i32;
        let s = -q - r;
        q.abs() <= n && r.abs() <= n && s.abs() <= n
    }

    /// The first `q` of row `r` and the row's length.
    fn row_span(self, r: i32) -> (i32, i32) {
        let n = self.radius as i32;
        let q0 = (-n).max(-n - r);
        let q1 = n.min(n - r);
        (q0, q1 - q0 + 1)
    }

    /// The cell at axial `(q, r)`, or `None` off the board.
    pub fn cell(self, q: i32, r: i32) -> Option<Cell> {
        if !self.contains(q, r) {
            return None;
        }
        let n = self.radius as i32;
        let mut index = 0;
        for row in -n..r {
            index += self.row_span(row).1;
        }
        let (q0, _) = self.row_span(r);
        Some((index + q - q0) as Cell)
    }

    /// Axial `(q, r)` of a cell; `None` for a cell index off the board.
    pub fn coords(self, cell: Cell) -> Option<(i32, i32)> {
        let n = self.radius as i32;
        let mut left = cell as i32;
        for r in -n..=n {
            let (q0, len) = self.row_span(r);
            if left < len {
                return Some((q0 + left, r));
            }
            left -= len;
        }
        None
    }

    /// The cell's name (`g7`); a cell index off the board is written `?<index>`.
    pub fn name(self, cell: Cell) -> String {
        let Some((q, r)) = self.coords(cell) else {
            return format!("?{cell}");
        };
        let n = self.radius as i32;
        let (q0, _) = self.row_span(r);
        format!("{}{}", (b'a' + (r + n) as u8) as char, q - q0 + 1)
    }

    pub fn parse(self, text: &str) -> Option<Cell> {
        let bytes = text.as_bytes();
        let (&row, rest) = bytes.split_first()?;
        if !row.is_ascii_lowercase() || rest.is_empty() || rest.len() > 2 || rest[0] == b'0' {
            return None;
        }
        if !rest.iter().all(u8::is_ascii_digit) {
            return None;
        }
        let n = self.radius as i32;
        let r = (row - b'a') as i32 - n;
        if r > n {
            return None;
        }
        let place: i32 = std::str::from_utf8(rest).ok()?.parse().ok()?;
        let (q0, len) = self.row_span(r);
        if place < 1 || place > len {
            return None;
        }
        self.cell(q0 + place - 1, r)
    }

    /// The neighbour of a cell in direction `d` (index into [`DIRECTIONS`]).
    /// `None` off the board, or for a cell or a direction out of range.
    pub fn neighbour(self, cell: Cell, d: usize) -> Option<Cell> {
        let (q, r) = self.coords(cell)?;
        let (dq, dr) = *DIRECTIONS.get(d)?;
        self.cell(q + dq as i32, r + dr as i32)
    }

    /// Distance from the centre (`max(|q|, |r|, |s|)`); edge cells have `radius`. `None` off
    /// the board.
    pub fn ring(self, cell: Cell) -> Option<i32> {
        let (q, r) = self.coords(cell)?;
        Some(q.abs().max(r.abs()).max((q + r).abs()))
    }

    /// Hex distance between two cells; `None` if either is off the board.
    pub fn distance(self, a: Cell, b: Cell) -> Option<i32> {
        let (q0, r0) = self.coords(a)?;
        let (q1, r1) = self.coords(b)?;
        let (dq, dr) = (q1 - q0, r1 - r0);
        Some(dq.abs().max(dr.abs()).max((dq + dr).abs()))
    }

    /// True for the cells of the outermost ring (`max(|q|,|r|,|s|) = radius`).
    pub fn is_edge(self, cell: Cell) -> bool {
        self.ring(cell) == Some(self.radius as i32)
    }

    /// The edge cells, in reading order.
    pub fn edge_cells(self) -> Vec<Cell> {
        (0..self.cell_count() as Cell)
            .filter(|&c| self.is_edge(c))
            .collect()
    }

    /// The cells met going from `cell` in direction `d`, nearest first, up to the edge
    /// (`cell` itself excluded).
    pub fn ray(self, cell: Cell, d: usize) -> Vec<Cell> {
        let mut out = Vec::new();
        let (Some((mut q, mut r)), Some(&(dq, dr))) = (self.coords(cell), DIRECTIONS.get(d)) else {
            return out;
        };
        loop {
            q += dq as i32;
            r += dr as i32;
            match self.cell(q, r) {
                Some(c) => out.push(c),
                None => return out,
            }
        }
    }

    /// The six neighbours of `cell` in direction order E, NE, NW, W, SW, SE (`None` off the
    /// board). Consecutive entries are neighbours of each other: going through the array (and
    /// wrapping round) walks counter-clockwise round the cell.
    pub fn ring_around(self, cell: Cell) -> [Option<Cell>; 6] {
        let mut out = [None; 6];
        for (d, slot) in out.iter_mut().enumerate() {
            *slot = self.neighbour(cell, d);
        }
        out
    }

    /// The cells at distance exactly `k` from `cell` (on the board), in reading order.
    pub fn cells_at_distance(self, cell: Cell, k: i32) -> Vec<Cell> {
        (0..self.cell_count() as Cell)
            .filter(|&c| self.distance(cell, c) == Some(k))
            .collect()
    }

    /// The corner in direction `k` from the centre (`radius · u_k`).
    pub fn corner(self, k: usize) -> Cell {
        let n = self.radius as i32;
        let (dq, dr) = DIRECTIONS[k % 6];
        self.cell(n * dq as i32, n * dr as i32)
            .expect("corners are on the board")
    }

    /// Corner-relative coordinates: `C_k + a·u_{k−2} + b·u_{k+2}`, the two axes running from
    /// corner `k` along its two edges. `None` if off the board.
    pub fn corner_relative(self, k: usize, a: i32, b: i32) -> Option<Cell> {
        let n = self.radius as i32;
        let (cq, cr) = DIRECTIONS[k % 6];
        let (aq, ar) = DIRECTIONS[(k + 4) % 6];
        let (bq, br) = DIRECTIONS[(k + 2) % 6];
        self.cell(
            n * cq as i32 + a * aq as i32 + b * bq as i32,
            n * cr as i32 + a * ar as i32 + b * br as i32,
        )
    }

    /// The edge cells from corner `from` to corner `to` (adjacent corners), both included.
    pub fn side(self, from: usize, to: usize) -> Vec<Cell> {
        let n = self.radius as i32;
        let (Some((q0, r0)), Some((q1, r1))) =
            (self.coords(self.corner(from)), self.coords(self.corner(to)))
        else {
            return Vec::new();
        };
        (0..=n)
            .filter_map(|t| self.cell(q0 + (q1 - q0) * t / n, r0 + (r1 - r0) * t / n))
            .collect()
    }

    /// Rows top to bottom: indent in half cells and the row's cells.
    pub fn rows(self) -> Vec<(usize, Vec<Cell>)> {
        let n = self.radius as i32;
        (-n..=n)
            .map(|r| {
                let (q0, len) = self.row_span(r);
                let cells = (0..len).map(|i| self.cell(q0 + i, r).unwrap()).collect();
                (r.unsigned_abs() as usize, cells)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn radius_six_names_and_neighbours() {
        let g = HexGrid::new(6);
        assert_eq!(g.cell_count(), 127);
        assert_eq!(g.name(g.cell(0, 0).unwrap()), "g7");
        assert_eq!(g.name(g.cell(-6, 0).unwrap()), "g1");
        assert_eq!(g.name(g.cell(0, -6).unwrap()), "a1");
        assert_eq!(g.name(g.cell(6, -6).unwrap()), "a7");
        assert_eq!(g.name(g.cell(6, 0).unwrap()), "g13");
        assert_eq!(g.name(g.cell(0, 6).unwrap()), "m7");
        assert_eq!(g.name(g.cell(-6, 6).unwrap()), "m1");
        let centre = g.parse("g7").unwrap();
        let names: Vec<String> = (0..6)
            .map(|d| g.name(g.neighbour(centre, d).unwrap()))
            .collect();
        assert_eq!(names, ["g8", "f7", "f6", "g6", "h6", "h7"]);
        for cell in 0..127 {
            assert_eq!(g.parse(&g.name(cell)), Some(cell));
            let (q, r) = g.coords(cell).unwrap();
            assert_eq!(g.cell(q, r), Some(cell));
        }
        assert_eq!((0..127).filter(|&c| g.ring(c) == Some(6)).count(), 36);
        // Cells off the board give no value and no panic.
        for off in [127, 500, Cell::MAX] {
            assert_eq!(g.coords(off), None);
            assert_eq!(g.name(off), format!("?{off}"));
            assert_eq!(g.neighbour(off, 0), None);
            assert_eq!(g.ring(off), None);
            assert_eq!(g.distance(off, 0), None);
            assert!(!g.is_edge(off) && g.ray(off, 1).is_empty());
        }
        assert_eq!(g.neighbour(0, 6), None);
        for bad in ["n1", "a8", "g14", "g0", "", "g", "A1"] {
            assert_eq!(g.parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn rays_rings_edges_corners() {
        let g = HexGrid::new(6);
        let c = |n: &str| g.parse(n).unwrap();
        let names = |v: Vec<Cell>| v.into_iter().map(|x| g.name(x)).collect::<Vec<_>>();
        assert_eq!(names(g.ray(c("g10"), 0)), ["g11", "g12", "g13"]);
        assert_eq!(
            names(g.ray(c("g1"), 1)),
            ["f1", "e1", "d1", "c1", "b1", "a1"]
        );
        assert!(g.ray(c("a1"), 2).is_empty());
        assert_eq!(g.edge_cells().len(), 36);
        assert!(g.is_edge(c("e1")) && !g.is_edge(c("e2")));
        assert_eq!(g.cells_at_distance(c("g7"), 2).len(), 12);
        assert_eq!(g.cells_at_distance(c("g1"), 1).len(), 3);
        let ring = g.ring_around(c("g1"));
        assert_eq!(ring.iter().filter(|x| x.is_some()).count(), 3);
        let corners: Vec<String> = (0..6).map(|k| g.name(g.corner(k))).collect();
        assert_eq!(corners, ["g13", "a7", "a1", "g1", "m1", "m7"]);
        // Black's home corner is W (k = 3): (1,1) is the Beetle's cell g2.
        assert_eq!(g.corner_relative(3, 0, 0), Some(c("g1")));
        assert_eq!(g.corner_relative(3, 1, 1), Some(c("g2")));
        assert_eq!(g.corner_relative(3, 2, 0), Some(c("e1")));
        assert_eq!(g.corner_relative(3, -1, 0), None);
        assert_eq!(
            names(g.side(1, 0)),
            ["a7", "b8", "c9", "d10", "e11", "f12", "g13"]
        );
    }
}
