//! The state of a game of Ant Chess and its position string.

use std::fmt;

use crate::error::PositionError;
use crate::zobrist;

use super::setup::{passes_for_draw, quiet_plies_for_draw, ARMY, HOMES_2, HOMES_3};
use super::tables::{bit, tables, CELLS, NONE};

/// A kind of piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Kind {
    Queen = 0,
    Warrior = 1,
    Superant = 2,
    Beetle = 3,
    Grasshopper = 4,
    Ladybird = 5,
    Worm = 6,
}

pub const KINDS: [Kind; 7] = [
    Kind::Queen,
    Kind::Warrior,
    Kind::Superant,
    Kind::Beetle,
    Kind::Grasshopper,
    Kind::Ladybird,
    Kind::Worm,
];

impl Kind {
    pub const fn letter(self) -> char {
        match self {
            Kind::Queen => 'Q',
            Kind::Warrior => 'A',
            Kind::Superant => 'S',
            Kind::Beetle => 'B',
            Kind::Grasshopper => 'G',
            Kind::Ladybird => 'L',
            Kind::Worm => 'W',
        }
    }

    pub fn from_letter(c: char) -> Option<Kind> {
        KINDS.iter().copied().find(|k| k.letter() == c)
    }

    #[inline(always)]
    pub const fn from_index(i: u8) -> Kind {
        KINDS[i as usize]
    }
}

/// Owner letters in turn order.
pub const OWNER_LETTERS: [char; 3] = ['b', 'r', 'g'];

/// A piece on the mailbox board: `OCCUPIED | owner << 4 | kind`; 0 is empty.
pub const OCCUPIED: u8 = 8;

#[inline(always)]
pub const fn piece_code(owner: usize, kind: Kind) -> u8 {
    OCCUPIED | (owner as u8) << 4 | kind as u8
}

#[inline(always)]
pub const fn code_owner(code: u8) -> usize {
    (code >> 4) as usize
}

#[inline(always)]
pub const fn code_kind(code: u8) -> Kind {
    Kind::from_index(code & 7)
}

const KEY_COUNT: usize = 3 * 7 * 128 + 3;
static KEYS: [u64; KEY_COUNT] = zobrist::keys::<KEY_COUNT>(0xA7C4_E55A_17C4_0003);

#[inline(always)]
pub fn piece_key(owner: usize, kind: Kind, cell: usize) -> u64 {
    KEYS[(owner * 7 + kind as usize) * 128 + cell]
}

#[inline(always)]
pub fn side_key(player: usize) -> u64 {
    KEYS[3 * 7 * 128 + player]
}

/// A position of Ant Chess (2 or 3 players).
#[derive(Clone, PartialEq, Eq)]
pub struct AntPos {
    /// Pieces of each player.
    pub(super) occ: [u128; 3],
    /// Pieces of each kind, all owners together.
    pub(super) kinds: [u128; 7],
    pub(super) board: [u8; CELLS],
    /// Each player's Queen cell, or `NONE`.
    pub(super) queens: [u8; 3],
    pub(super) players: u8,
    pub(super) to_move: u8,
    pub(super) passes: u32,
    pub(super) quiet: u32,
    pub(super) move_number: u32,
    pub(super) hash: u64,
}

impl AntPos {
    fn empty(players: usize) -> AntPos {
        AntPos {
            occ: [0; 3],
            kinds: [0; 7],
            board: [0; CELLS],
            queens: [NONE; 3],
            players: players as u8,
            to_move: 0,
            passes: 0,
            quiet: 0,
            move_number: 1,
            hash: side_key(0),
        }
    }

    /// The home corners of the players in turn order.
    #[inline(always)]
    pub fn homes(&self) -> &'static [usize] {
        if self.players == 2 {
            &HOMES_2
        } else {
            &HOMES_3
        }
    }

    pub fn players(&self) -> usize {
        self.players as usize
    }

    pub fn passes(&self) -> u32 {
        self.passes
    }

    pub fn quiet_plies(&self) -> u32 {
        self.quiet
    }

    pub fn move_number(&self) -> u32 {
        self.move_number
    }

    /// The cell of a player's Queen, if she is on the board.
    pub fn queen(&self, player: usize) -> Option<usize> {
        let q = *self.queens.get(player)?;
        (q != NONE).then_some(q as usize)
    }

    /// True if the player to move has a Queen and she is attacked.
    pub fn in_check(&self) -> bool {
        let me = self.to_move as usize;
        self.queen(me)
            .is_some_and(|q| self.attacked_by_opponents(me, q))
    }

    /// Owner and kind of the piece on a cell.
    #[inline(always)]
    pub fn piece(&self, cell: usize) -> Option<(usize, Kind)> {
        let code = *self.board.get(cell)?;
        if code == 0 {
            None
        } else {
            Some((code_owner(code), code_kind(code)))
        }
    }

    #[inline(always)]
    pub(super) fn put(&mut self, owner: usize, kind: Kind, cell: usize) {
        let b = bit(cell);
        self.occ[owner] |= b;
        self.kinds[kind as usize] |= b;
        self.board[cell] = piece_code(owner, kind);
        self.hash ^= piece_key(owner, kind, cell);
        if kind == Kind::Queen {
            self.queens[owner] = cell as u8;
        }
    }

    #[inline(always)]
    pub(super) fn remove(&mut self, cell: usize) {
        let code = self.board[cell];
        if code == 0 {
            return;
        }
        let (owner, kind) = (code_owner(code), code_kind(code));
        let b = !bit(cell);
        self.occ[owner] &= b;
        self.kinds[kind as usize] &= b;
        self.board[cell] = 0;
        self.hash ^= piece_key(owner, kind, cell);
        if kind == Kind::Queen && self.queens[owner] == cell as u8 {
            self.queens[owner] = NONE;
        }
    }

    /// The start position for 2 or 3 players.
    pub fn start(players: usize) -> AntPos {
        let t = tables();
        let mut p = AntPos::empty(players);
        let homes: &[usize] = if players == 2 { &HOMES_2 } else { &HOMES_3 };
        for (owner, &k) in homes.iter().enumerate() {
            for &(kind, a, b) in ARMY.iter() {
                let cell = t
                    .grid
                    .corner_relative(k, a, b)
                    .expect("the army fits its corner");
                p.put(owner, kind, cell as usize);
            }
        }
        p
    }

    pub fn hash_from_scratch(&self) -> u64 {
        let mut h = side_key(self.to_move as usize);
        for c in 0..CELLS {
            if let Some((o, k)) = self.piece(c) {
                h ^= piece_key(o, k, c);
            }
        }
        h
    }

    pub fn parse(players: usize, text: &str) -> Result<AntPos, PositionError> {
        let t = tables();
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() != 5 {
            return Err(PositionError::new(
                "fields",
                format!(
                    "expected 5 fields (rows, to-move, passes, quiet plies, move number) separated by spaces, found {}",
                    fields.len()
                ),
            ));
        }
        let mut p = AntPos::empty(players);
        let grid_rows = t.grid.rows();
        let rows: Vec<&str> = fields[0].split('/').collect();
        if rows.len() != grid_rows.len() {
            return Err(PositionError::new(
                "rows",
                format!(
                    "expected {} rows separated by '/', found {}",
                    grid_rows.len(),
                    rows.len()
                ),
            ));
        }
        for (ri, (row, (_, cells))) in rows.iter().zip(grid_rows.iter()).enumerate() {
            let letter = (b'a' + ri as u8) as char;
            let len = cells.len();
            let mut placed = 0usize;
            let chars: Vec<char> = row.chars().collect();
            let mut i = 0;
            while i < chars.len() {
                let ch = chars[i];
                if ch.is_ascii_digit() {
                    let mut n: usize = 0;
                    while i < chars.len() && chars[i].is_ascii_digit() {
                        n = n
                            .saturating_mul(10)
                            .saturating_add(chars[i] as usize - '0' as usize);
                        i += 1;
                    }
                    if n == 0 {
                        return Err(PositionError::new(
                            "rows",
                            format!("row {letter}: a run of empty cells cannot be 0"),
                        ));
                    }
                    placed = placed.saturating_add(n);
                    if placed > len {
                        return Err(PositionError::new(
                            "rows",
                            format!("row {letter} has more than {len} cells"),
                        ));
                    }
                    continue;
                }
                let owner = match OWNER_LETTERS[..players].iter().position(|&o| o == ch) {
                    Some(o) => o,
                    None => {
                        return Err(PositionError::new(
                            "rows",
                            format!(
                                "row {letter}: unknown owner {ch:?} (expected {} or a digit)",
                                OWNER_LETTERS[..players]
                                    .iter()
                                    .map(|c| format!("'{c}'"))
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            ),
                        ))
                    }
                };
                let Some(&kc) = chars.get(i + 1) else {
                    return Err(PositionError::new(
                        "rows",
                        format!("row {letter}: owner {ch:?} is not followed by a piece kind"),
                    ));
                };
                let Some(kind) = Kind::from_letter(kc) else {
                    return Err(PositionError::new(
                        "rows",
                        format!(
                            "row {letter}: unknown piece kind {kc:?} (expected one of Q A S B G L W)"
                        ),
                    ));
                };
                i += 2;
                if placed >= len {
                    return Err(PositionError::new(
                        "rows",
                        format!("row {letter} has more than {len} cells"),
                    ));
                }
                let cell = cells[placed] as usize;
                if kind == Kind::Queen && p.queens[owner] != NONE {
                    return Err(PositionError::new(
                        "rows",
                        format!(
                            "player {} has two Queens ({} and {})",
                            OWNER_LETTERS[owner],
                            t.grid.name(p.queens[owner] as u16),
                            t.grid.name(cell as u16)
                        ),
                    ));
                }
                if kind == Kind::Worm && t.edge_mask & bit(cell) == 0 {
                    return Err(PositionError::new(
                        "rows",
                        format!(
                            "the Worm on {} is off the edge (a Worm always stands on an edge cell)",
                            t.grid.name(cell as u16)
                        ),
                    ));
                }
                p.put(owner, kind, cell);
                placed += 1;
            }
            if placed != len {
                return Err(PositionError::new(
                    "rows",
                    format!("row {letter} has {placed} cells, expected {len}"),
                ));
            }
        }
        p.to_move = match OWNER_LETTERS[..players]
            .iter()
            .position(|&o| fields[1] == o.to_string())
        {
            Some(o) => o as u8,
            None => {
                return Err(PositionError::new(
                    "to-move",
                    format!(
                        "expected one of {}, found {:?}",
                        OWNER_LETTERS[..players]
                            .iter()
                            .map(|c| c.to_string())
                            .collect::<Vec<_>>()
                            .join(", "),
                        fields[1]
                    ),
                ))
            }
        };
        p.hash ^= side_key(0) ^ side_key(p.to_move as usize);
        let number = |field: &'static str, s: &str| -> Result<u32, PositionError> {
            if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
                return Err(PositionError::new(
                    field,
                    format!("expected a non-negative whole number, found {s:?}"),
                ));
            }
            s.parse::<u32>().map_err(|_| {
                PositionError::new(field, format!("{s} is too large (at most {})", u32::MAX))
            })
        };
        p.passes = number("passes", fields[2])?;
        p.quiet = number("quiet plies", fields[3])?;
        p.move_number = number("move number", fields[4])?;
        if p.move_number == 0 {
            return Err(PositionError::new("move number", "starts at 1, found 0"));
        }
        if p.passes > p.quiet {
            return Err(PositionError::new(
                "passes",
                format!(
                    "{} passes in a row cannot exceed the {} quiet plies (a pass is a quiet ply)",
                    p.passes, p.quiet
                ),
            ));
        }
        if players == 2 {
            for (o, &letter) in OWNER_LETTERS.iter().enumerate().take(2) {
                if p.queens[o] == NONE {
                    return Err(PositionError::new(
                        "rows",
                        format!(
                            "player {letter} has no Queen (in 2-player Ant Chess both Queens stay on the board)"
                        ),
                    ));
                }
            }
            let other = 1 - p.to_move as usize;
            if p.attacked_by_opponents(other, p.queens[other] as usize) {
                return Err(PositionError::new(
                    "rows",
                    format!(
                        "the Queen of {} (not to move) is attacked on {}",
                        OWNER_LETTERS[other],
                        t.grid.name(p.queens[other] as u16)
                    ),
                ));
            }
        }
        Ok(p)
    }
}

impl fmt::Display for AntPos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = tables();
        for (ri, (_, cells)) in t.grid.rows().iter().enumerate() {
            if ri > 0 {
                f.write_str("/")?;
            }
            let mut run = 0;
            for &c in cells {
                match self.piece(c as usize) {
                    None => run += 1,
                    Some((o, k)) => {
                        if run > 0 {
                            write!(f, "{run}")?;
                            run = 0;
                        }
                        write!(f, "{}{}", OWNER_LETTERS[o], k.letter())?;
                    }
                }
            }
            if run > 0 {
                write!(f, "{run}")?;
            }
        }
        write!(
            f,
            " {} {} {} {}",
            OWNER_LETTERS[self.to_move as usize], self.passes, self.quiet, self.move_number
        )
    }
}

impl fmt::Debug for AntPos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "AntPos({self})")
    }
}

/// Draw thresholds of this position's game.
impl AntPos {
    pub fn pass_draw(&self) -> u32 {
        passes_for_draw(self.players as usize)
    }

    pub fn quiet_draw(&self) -> u32 {
        quiet_plies_for_draw(self.players as usize)
    }
}
