//! Precomputed tables of the board: neighbours, rings, rays, lines, Warrior steps, promotion
//! edges and Worm lines, as `u128` bitboards over the 127 cells (bit = cell index in reading
//! order). Built once from the general [`HexGrid`] geometry.

use std::sync::LazyLock;

use crate::geometry::hex::HexGrid;

use super::setup::RADIUS;

/// Number of cells (must fit one `u128`).
pub const CELLS: usize = 3 * (RADIUS as usize) * (RADIUS as usize + 1) + 1;
const _: () = assert!(CELLS <= 128, "the board must fit one u128");

/// "No cell" in the byte tables.
pub const NONE: u8 = u8::MAX;

#[inline(always)]
pub const fn bit(c: usize) -> u128 {
    1u128 << c
}

/// A Worm move from a given edge cell: its destination and the cells strictly between.
#[derive(Clone, Copy, Debug)]
pub struct WormMove {
    pub dest: u8,
    pub traj: u128,
}

/// A Worm move seen from a cell on its trajectory.
#[derive(Clone, Copy, Debug)]
pub struct WormThrough {
    pub worm: u8,
    pub dest: u8,
    pub traj: u128,
}

pub struct Tables {
    pub grid: HexGrid,
    pub centre: u8,
    /// Neighbour in direction `d` (E, NE, NW, W, SW, SE), or `NONE`.
    pub neigh: [[u8; 6]; CELLS],
    pub neigh_mask: [u128; CELLS],
    /// Cells at distance exactly 2 (the Grasshopper's targets).
    pub dist2_mask: [u128; CELLS],
    /// Cells at distance 1 or 2.
    pub ball2_mask: [u128; CELLS],
    /// Cells strictly beyond the cell in each direction, up to the edge.
    pub ray_mask: [[u128; 6]; CELLS],
    /// The whole line through the cell along axis `a` (directions `a` and `a + 3`), cell
    /// excluded.
    pub line_mask: [[u128; 3]; CELLS],
    pub edge_mask: u128,
    /// Warrior steps for a home corner `k`: `warrior_to[k][c]` are the targets from `c`,
    /// `warrior_from[k][c]` the cells from which a Warrior of home `k` reaches `c`.
    pub warrior_to: [[u128; CELLS]; 6],
    pub warrior_from: [[u128; CELLS]; 6],
    /// The two edges meeting at the corner opposite home corner `k`.
    pub promotion: [u128; 6],
    worm_moves: Vec<WormMove>,
    worm_moves_start: [u16; CELLS + 1],
    worm_through: Vec<WormThrough>,
    worm_through_start: [u16; CELLS + 1],
    /// Edge cells from which some Worm move passes over the cell.
    pub worm_attack_from: [u128; CELLS],
    /// Ladybird arcs: `arc[p][i][s]` are the cells met going round pivot `p` from its
    /// neighbour in direction `i`, counter-clockwise (`s = 0`) or clockwise (`s = 1`), at most
    /// 5 steps, cut at the edge of the board (`NONE` after the last one).
    pub arc: [[[[u8; 5]; 2]; 6]; CELLS],
}

impl Tables {
    /// Worm moves from an edge cell (empty for other cells).
    #[inline(always)]
    pub(super) fn worm_moves(&self, c: usize) -> &[WormMove] {
        &self.worm_moves[self.worm_moves_start[c] as usize..self.worm_moves_start[c + 1] as usize]
    }

    /// Worm moves whose trajectory contains the cell.
    #[inline(always)]
    pub(super) fn worm_through(&self, c: usize) -> &[WormThrough] {
        &self.worm_through
            [self.worm_through_start[c] as usize..self.worm_through_start[c + 1] as usize]
    }

    fn build() -> Tables {
        let g = HexGrid::new(RADIUS);
        assert_eq!(g.cell_count(), CELLS);
        let mut t = Tables {
            grid: g,
            centre: g.cell(0, 0).expect("centre") as u8,
            neigh: [[NONE; 6]; CELLS],
            neigh_mask: [0; CELLS],
            dist2_mask: [0; CELLS],
            ball2_mask: [0; CELLS],
            ray_mask: [[0; 6]; CELLS],
            line_mask: [[0; 3]; CELLS],
            edge_mask: 0,
            warrior_to: [[0; CELLS]; 6],
            warrior_from: [[0; CELLS]; 6],
            promotion: [0; 6],
            worm_moves: Vec::new(),
            worm_moves_start: [0; CELLS + 1],
            worm_through: Vec::new(),
            worm_through_start: [0; CELLS + 1],
            worm_attack_from: [0; CELLS],
            arc: [[[[NONE; 5]; 2]; 6]; CELLS],
        };
        let mask = |v: &[u16]| v.iter().fold(0u128, |m, &c| m | bit(c as usize));
        for c in 0..CELLS {
            let cc = c as u16;
            for (d, n) in g.ring_around(cc).iter().enumerate() {
                if let Some(n) = n {
                    t.neigh[c][d] = *n as u8;
                    t.neigh_mask[c] |= bit(*n as usize);
                }
                let ray = g.ray(cc, d);
                t.ray_mask[c][d] = mask(&ray);
            }
            for a in 0..3 {
                t.line_mask[c][a] = t.ray_mask[c][a] | t.ray_mask[c][a + 3];
            }
            t.dist2_mask[c] = mask(&g.cells_at_distance(cc, 2));
            t.ball2_mask[c] = t.dist2_mask[c] | t.neigh_mask[c];
            if g.is_edge(cc) {
                t.edge_mask |= bit(c);
            }
        }
        for p in 0..CELLS {
            for i in 0..6 {
                for (s, step) in [1, 5].into_iter().enumerate() {
                    let mut j = i;
                    for n in 0..5 {
                        j = (j + step) % 6;
                        let c = t.neigh[p][j];
                        if c == NONE {
                            break;
                        }
                        t.arc[p][i][s][n] = c;
                    }
                }
            }
        }
        for k in 0..6 {
            for c in 0..CELLS {
                for d in [(k + 3) % 6, (k + 2) % 6, (k + 4) % 6] {
                    let n = t.neigh[c][d];
                    if n != NONE {
                        t.warrior_to[k][c] |= bit(n as usize);
                        t.warrior_from[k][n as usize] |= bit(c);
                    }
                }
            }
            let far = (k + 3) % 6;
            t.promotion[k] = mask(&g.side(far, (far + 1) % 6)) | mask(&g.side(far, (far + 5) % 6));
        }
        // Worm lines: from an edge cell along a direction. Along an edge, every cell of the
        // edge is a destination; a line entering the board ends where it leaves it.
        let mut through: Vec<Vec<WormThrough>> = vec![Vec::new(); CELLS];
        for c in 0..CELLS {
            t.worm_moves_start[c] = t.worm_moves.len() as u16;
            if t.edge_mask & bit(c) == 0 {
                continue;
            }
            for d in 0..6 {
                let ray = g.ray(c as u16, d);
                if ray.is_empty() {
                    continue;
                }
                let along_edge = ray.iter().all(|&x| g.is_edge(x));
                let dests: Vec<usize> = if along_edge {
                    (0..ray.len()).collect()
                } else {
                    vec![ray.len() - 1]
                };
                for i in dests {
                    let traj = mask(&ray[..i]);
                    let m = WormMove {
                        dest: ray[i] as u8,
                        traj,
                    };
                    t.worm_moves.push(m);
                    for &x in &ray[..i] {
                        through[x as usize].push(WormThrough {
                            worm: c as u8,
                            dest: m.dest,
                            traj,
                        });
                        t.worm_attack_from[x as usize] |= bit(c);
                    }
                }
            }
        }
        t.worm_moves_start[CELLS] = t.worm_moves.len() as u16;
        for (c, list) in through.into_iter().enumerate() {
            t.worm_through_start[c] = t.worm_through.len() as u16;
            t.worm_through.extend(list);
        }
        t.worm_through_start[CELLS] = t.worm_through.len() as u16;
        t
    }
}

pub static TABLES: LazyLock<Tables> = LazyLock::new(Tables::build);

/// The tables (built on first use).
#[inline(always)]
pub fn tables() -> &'static Tables {
    &TABLES
}
