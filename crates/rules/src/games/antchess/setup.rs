//! The data of the game that the lost figures would have fixed: board radius, home corners and
//! the army's layout. Change them here and everything else follows.

use super::position::AntChessKind as Kind;

/// Radius of the hexagon (side 7, 127 cells). At most 6: the board must fit one `u128`.
pub const RADIUS: u8 = 6;

/// Home corner (index `k` of the direction `u_k`: 0 E, 1 NE, 2 NW, 3 W, 4 SW, 5 SE) of each
/// player in turn order, for 2 and 3 players.
pub const HOMES_2: [usize; 2] = [3, 0];
pub const HOMES_3: [usize; 3] = [3, 1, 5];

/// The army in corner-relative coordinates `(a, b)`: `cell = C_k + a·u_{k−2} + b·u_{k+2}`.
pub const ARMY: [(Kind, i32, i32); 17] = [
    (Kind::Queen, 0, 0),
    (Kind::Beetle, 1, 1),
    (Kind::Ladybird, 1, 0),
    (Kind::Ladybird, 0, 1),
    (Kind::Grasshopper, 2, 1),
    (Kind::Grasshopper, 1, 2),
    (Kind::Worm, 2, 0),
    (Kind::Worm, 0, 2),
    (Kind::Warrior, 4, 0),
    (Kind::Warrior, 3, 0),
    (Kind::Warrior, 3, 1),
    (Kind::Warrior, 3, 2),
    (Kind::Warrior, 2, 2),
    (Kind::Warrior, 2, 3),
    (Kind::Warrior, 1, 3),
    (Kind::Warrior, 0, 3),
    (Kind::Warrior, 0, 4),
];

/// Draw after a full round of passes: this many passes in a row.
pub const fn passes_for_draw(players: usize) -> u32 {
    players as u32
}

/// Draw after this many plies without capture, Warrior move or promotion.
pub const fn quiet_plies_for_draw(players: usize) -> u32 {
    if players == 2 {
        100
    } else {
        150
    }
}
