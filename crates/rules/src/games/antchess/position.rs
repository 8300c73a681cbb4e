//! The state of a game of Ant Chess and its position string.

use std::fmt;
use std::str::FromStr;

use crate::error::PositionError;
use crate::game::{PieceSets, Player};
use crate::geometry::{placement, Geometry};
use crate::zobrist;

use super::setup::{passes_for_draw, quiet_plies_for_draw, ARMY, HOMES_2, HOMES_3, RADIUS};
use super::tables::{bit, tables, CELLS, NONE};

/// A kind of piece, in the order of `GameInfo::pieces` (its index is the bit of
/// [`crate::game::Tactics::taken_kinds`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum AntChessKind {
    Queen = 0,
    Warrior = 1,
    Superant = 2,
    Beetle = 3,
    Grasshopper = 4,
    Ladybird = 5,
    Worm = 6,
}

/// Every kind, in the order of `GameInfo::pieces`.
pub const KINDS: [AntChessKind; 7] = [
    AntChessKind::Queen,
    AntChessKind::Warrior,
    AntChessKind::Superant,
    AntChessKind::Beetle,
    AntChessKind::Grasshopper,
    AntChessKind::Ladybird,
    AntChessKind::Worm,
];

impl AntChessKind {
    /// The upper-case letter of the kind in position strings.
    pub const fn letter(self) -> char {
        match self {
            AntChessKind::Queen => 'Q',
            AntChessKind::Warrior => 'A',
            AntChessKind::Superant => 'S',
            AntChessKind::Beetle => 'B',
            AntChessKind::Grasshopper => 'G',
            AntChessKind::Ladybird => 'L',
            AntChessKind::Worm => 'W',
        }
    }

    /// The kind of an upper-case letter.
    pub fn from_letter(c: char) -> Option<AntChessKind> {
        KINDS.iter().copied().find(|k| k.letter() == c)
    }

    /// The kind at an index of `GameInfo::pieces`, if there is one.
    #[inline(always)]
    pub fn from_index(i: u8) -> Option<AntChessKind> {
        KINDS.get(i as usize).copied()
    }
}

/// Owner letters in turn order.
pub const OWNER_LETTERS: [char; 3] = ['b', 'r', 'g'];

/// The board of both games.
pub const GEOMETRY: Geometry = Geometry::Hex { radius: RADIUS };

/// `b or r`, `b, r or g`.
fn or_list(letters: &[char]) -> String {
    let names: Vec<String> = letters.iter().map(|c| c.to_string()).collect();
    match names.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// A piece on the mailbox board: `OCCUPIED | owner << 4 | kind`; 0 is empty.
pub const OCCUPIED: u8 = 8;

#[inline(always)]
pub const fn piece_code(owner: usize, kind: AntChessKind) -> u8 {
    OCCUPIED | (owner as u8) << 4 | kind as u8
}

#[inline(always)]
pub const fn code_owner(code: u8) -> usize {
    (code >> 4) as usize
}

#[inline(always)]
pub const fn code_kind(code: u8) -> AntChessKind {
    // The low three bits of a piece code are a kind index, 0 to 6.
    KINDS[(code & 7) as usize]
}

/// Pieces (3 owners × 7 kinds × 128 cells), the player to move (3), passes in a row (1 to 3),
/// players who have left (3).
const PIECE_KEYS: usize = 3 * 7 * 128;
const KEY_COUNT: usize = PIECE_KEYS + 3 + 3 + 3;
static KEYS: [u64; KEY_COUNT] = zobrist::keys::<KEY_COUNT>(0xA7C4_E55A_17C4_0003);

#[inline(always)]
pub fn piece_key(owner: usize, kind: AntChessKind, cell: usize) -> u64 {
    KEYS[(owner * 7 + kind as usize) * 128 + cell]
}

#[inline(always)]
pub fn side_key(player: usize) -> u64 {
    KEYS[PIECE_KEYS + player]
}

/// The key of a player who has left the game.
#[inline(always)]
fn left_key(player: usize) -> u64 {
    KEYS[PIECE_KEYS + 6 + player]
}

/// A position of Ant Chess for `N` players (2: `antchess`, 3: `antchess3`).
///
/// The board is a mailbox of 127 cells plus bitboards (`u128`, bit = cell index in reading
/// order, see [`crate::geometry::hex::HexGrid`]) per player and per kind. The hash covers the
/// pieces, the player to move, the passes in a row (up to the number that draws) and the
/// players who have left, which decide the legal moves and the outcome; not the quiet plies nor
/// the move number.
///
/// A player who has left (`antchess3`, [`crate::game::Position::remove_player`]) only passes,
/// and their pieces attack nothing: they are obstacles, which block and can be captured. The
/// position string has no field for this, so a string printed after a dropout reads back
/// without it (docs/rules/antchess.md, "Resigning or running out of time").
#[derive(Clone, PartialEq, Eq)]
pub struct AntChessPosition<const N: usize> {
    /// Pieces of each player (those of absent players are empty).
    pub(super) occ: [u128; 3],
    /// Pieces of each kind, all owners together, except the pieces of the players who have
    /// left: those are in `occ` and on `board` only, so that every attack test and move
    /// generator, which read pieces as `kinds & occ[player]`, sees them as obstacles that
    /// neither attack nor move. Read a player's pieces of a kind with [`Self::pieces`].
    pub(super) kinds: [u128; 7],
    pub(super) board: [u8; CELLS],
    /// Each player's Queen cell, or `NONE`.
    pub(super) queens: [u8; 3],
    pub(super) to_move: u8,
    pub(super) passes: u32,
    pub(super) quiet: u32,
    pub(super) move_number: u32,
    /// The players who have left the game, bit `1 << player` (only in `antchess3`).
    pub(super) left: u8,
    pub(super) hash: u64,
}

impl<const N: usize> AntChessPosition<N> {
    const PLAYERS: () = assert!(N == 2 || N == 3, "Ant Chess is for 2 or 3 players");

    fn empty() -> Self {
        #[allow(clippy::let_unit_value)]
        let () = Self::PLAYERS;
        AntChessPosition {
            occ: [0; 3],
            kinds: [0; 7],
            board: [0; CELLS],
            queens: [NONE; 3],
            to_move: 0,
            passes: 0,
            quiet: 0,
            move_number: 1,
            left: 0,
            hash: side_key(0),
        }
    }

    /// The start position.
    pub fn start() -> Self {
        let t = tables();
        let mut p = Self::empty();
        for (owner, &k) in Self::homes().iter().enumerate() {
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

    /// The home corners of the players in turn order (index `k` of the direction `u_k`).
    #[inline(always)]
    pub fn homes() -> &'static [usize] {
        if N == 2 {
            &HOMES_2
        } else {
            &HOMES_3
        }
    }

    /// The number of players (2 or 3).
    pub const fn players(&self) -> usize {
        N
    }

    /// Passes made in a row just before this position.
    pub fn passes(&self) -> u32 {
        self.passes
    }

    /// Plies since the last capture, Warrior move or promotion.
    pub fn quiet_plies(&self) -> u32 {
        self.quiet
    }

    /// Starts at 1, increases after the last player of the turn order has moved.
    pub fn move_number(&self) -> u32 {
        self.move_number
    }

    /// The cell of a player's Queen, if she is on the board.
    pub fn queen(&self, player: usize) -> Option<usize> {
        let q = *self.queens.get(player)?;
        (q != NONE).then_some(q as usize)
    }

    /// True if `player` has left the game (a resignation or a fallen flag in `antchess3`): their
    /// seat only passes and their pieces attack nothing.
    #[inline(always)]
    pub fn has_left(&self, player: usize) -> bool {
        player < 8 && self.left & (1 << player) != 0
    }

    /// Marks `player` (of three) as having left, keeping the hash, and takes their pieces out
    /// of the kind bitboards (they stay on the board and in the occupancy); nothing if already
    /// marked.
    pub(super) fn set_left(&mut self, player: usize) {
        if N == 3 && player < N && !self.has_left(player) {
            self.left |= 1 << player as u8;
            self.hash ^= left_key(player);
            let theirs = self.occ[player];
            for k in self.kinds.iter_mut() {
                *k &= !theirs;
            }
        }
    }

    /// True if the player to move has a Queen and she is attacked.
    pub fn in_check(&self) -> bool {
        let me = self.to_move as usize;
        self.queen(me)
            .is_some_and(|q| self.attacked_by_opponents(me, q))
    }

    /// Owner and kind of the piece on a cell (`None` for an empty cell or one off the board).
    #[inline(always)]
    pub fn piece(&self, cell: usize) -> Option<(usize, AntChessKind)> {
        let code = *self.board.get(cell)?;
        if code == 0 {
            None
        } else {
            Some((code_owner(code), code_kind(code)))
        }
    }

    /// Passes in a row that draw (2 or 3).
    pub fn pass_draw(&self) -> u32 {
        passes_for_draw(N)
    }

    /// Quiet plies that draw (100 or 150).
    pub fn quiet_draw(&self) -> u32 {
        quiet_plies_for_draw(N)
    }

    #[inline(always)]
    pub(super) fn put(&mut self, owner: usize, kind: AntChessKind, cell: usize) {
        let b = bit(cell);
        self.occ[owner] |= b;
        self.kinds[kind as usize] |= b;
        self.board[cell] = piece_code(owner, kind);
        self.hash ^= piece_key(owner, kind, cell);
        if kind == AntChessKind::Queen {
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
        if kind == AntChessKind::Queen && self.queens[owner] == cell as u8 {
            self.queens[owner] = NONE;
        }
    }

    /// The hash key of a number of passes in a row: 0 for none, one key per count up to the
    /// count that draws (more passes draw just the same).
    #[inline(always)]
    pub(super) fn passes_key(passes: u32) -> u64 {
        match passes.min(passes_for_draw(N)) {
            0 => 0,
            n => KEYS[PIECE_KEYS + 3 + n as usize - 1],
        }
    }

    /// Sets the passes in a row, keeping the hash.
    #[inline(always)]
    pub(super) fn set_passes(&mut self, passes: u32) {
        self.hash ^= Self::passes_key(self.passes) ^ Self::passes_key(passes);
        self.passes = passes;
    }

    /// The hash computed from the whole position.
    pub fn hash_from_scratch(&self) -> u64 {
        let mut h = side_key(self.to_move as usize) ^ Self::passes_key(self.passes);
        for o in 0..N {
            if self.has_left(o) {
                h ^= left_key(o);
            }
        }
        for c in 0..CELLS {
            if let Some((o, k)) = self.piece(c) {
                h ^= piece_key(o, k, c);
            }
        }
        h
    }
}

/// The pieces as bitboards (`u128`, bit = cell index in reading order); a number that is not a
/// player of the game has none.
impl<const N: usize> PieceSets for AntChessPosition<N> {
    type Set = u128;
    type Kind = AntChessKind;

    /// The cells of `player`'s pieces of this kind (also for a player who has left, whose
    /// pieces are kept out of the kind bitboards).
    #[inline]
    fn pieces(&self, player: Player, kind: AntChessKind) -> u128 {
        let Some(&own) = self.occ.get(player as usize) else {
            return 0;
        };
        if !self.has_left(player as usize) {
            return own & self.kinds[kind as usize];
        }
        // A player who has left: their pieces are not in `kinds`; read the board.
        let mut rest = own;
        let mut found = 0;
        while rest != 0 {
            let c = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if code_kind(self.board[c]) == kind {
                found |= bit(c);
            }
        }
        found
    }

    #[inline]
    fn pieces_of(&self, player: Player) -> u128 {
        self.occ.get(player as usize).copied().unwrap_or(0)
    }

    #[inline]
    fn occupied(&self) -> u128 {
        self.occ[0] | self.occ[1] | self.occ[2]
    }

    /// The number of moves `player` would have if it were their turn (their Queen-safety rule
    /// and the pass included), counted without generating them; 0 for a player not in the
    /// game, 1 (the pass) for a player who has left. It does not look at whether the game is
    /// over.
    #[inline]
    fn mobility(&self, player: Player) -> u32 {
        self.count_moves_of(player)
    }
}

impl<const N: usize> FromStr for AntChessPosition<N> {
    type Err = PositionError;

    /// Reads a position string of `antchess` (`N = 2`) or `antchess3` (`N = 3`).
    fn from_str(text: &str) -> Result<Self, PositionError> {
        let t = tables();
        let owners = &OWNER_LETTERS[..N];
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
        let mut p = Self::empty();
        // Why a piece could not be read, when an owner letter starts it.
        let mut bad_kind: Option<String> = None;
        let board = placement::parse(
            GEOMETRY,
            fields[0],
            &format!(
                "an owner {} then a kind Q A S B G L W, like bQ",
                or_list(owners)
            ),
            |s| {
                let mut chars = s.chars();
                let o = chars.next()?;
                let owner = owners.iter().position(|&c| c == o)?;
                match chars.next() {
                    Some(k) => match AntChessKind::from_letter(k) {
                        Some(kind) => Some(((owner, kind), 2)),
                        None => {
                            bad_kind = Some(format!(
                                "unknown piece kind {k:?} after owner {o:?} (expected one of Q A S B G L W)"
                            ));
                            None
                        }
                    },
                    None => {
                        bad_kind = Some(format!("owner {o:?} is not followed by a piece kind"));
                        None
                    }
                }
            },
        )
        .map_err(|e| match bad_kind.take() {
            Some(why) => PositionError::new(e.field, format!("{}; {why}", e.message)),
            None => e,
        })?;
        for (cell, piece) in board.into_iter().enumerate() {
            let Some((owner, kind)) = piece else {
                continue;
            };
            if kind == AntChessKind::Queen && p.queens[owner] != NONE {
                return Err(PositionError::new(
                    placement::FIELD,
                    format!(
                        "player {} has two Queens ({} and {})",
                        OWNER_LETTERS[owner],
                        t.grid.name(p.queens[owner] as u16),
                        t.grid.name(cell as u16)
                    ),
                ));
            }
            if kind == AntChessKind::Worm && t.edge_mask & bit(cell) == 0 {
                return Err(PositionError::new(
                    placement::FIELD,
                    format!(
                        "the Worm on {} is off the edge (a Worm always stands on an edge cell)",
                        t.grid.name(cell as u16)
                    ),
                ));
            }
            p.put(owner, kind, cell);
        }
        p.to_move = match owners.iter().position(|&o| fields[1] == o.to_string()) {
            Some(o) => o as u8,
            None => {
                return Err(PositionError::new(
                    "side to move",
                    format!(
                        "expected one of {}, found {:?}",
                        owners
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
        let number = crate::counters::parse_counter;
        let passes = number(fields[2], "passes")?;
        p.set_passes(passes);
        p.quiet = number(fields[3], "quiet plies")?;
        p.move_number = crate::counters::parse_move_number(fields[4])?;
        if p.passes > p.quiet {
            return Err(PositionError::new(
                "passes",
                format!(
                    "{} passes in a row cannot exceed the {} quiet plies (a pass is a quiet ply)",
                    p.passes, p.quiet
                ),
            ));
        }
        if N == 2 {
            for (o, &letter) in OWNER_LETTERS.iter().enumerate().take(2) {
                if p.queens[o] == NONE {
                    return Err(PositionError::new(
                        "placement",
                        format!(
                            "player {letter} has no Queen (in 2-player Ant Chess both Queens stay on the board)"
                        ),
                    ));
                }
            }
            let other = 1 - p.to_move as usize;
            if p.attacked_by_opponents(other, p.queens[other] as usize) {
                return Err(PositionError::new(
                    "placement",
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

impl<const N: usize> fmt::Display for AntChessPosition<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rows = placement::write(GEOMETRY, |cell, out| match self.piece(cell as usize) {
            Some((o, k)) => {
                out.push(OWNER_LETTERS[o]);
                out.push(k.letter());
                true
            }
            None => false,
        });
        write!(
            f,
            "{rows} {} {} {} {}",
            OWNER_LETTERS[self.to_move as usize], self.passes, self.quiet, self.move_number
        )
    }
}

impl<const N: usize> fmt::Debug for AntChessPosition<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "AntChessPosition<{N}>({self})")
    }
}
