//! The state of a Jeu de Reines game, its read access for evaluations, and its position string.
//!
//! Squares are bit indices `rank * 8 + file` (a1 = 0, h8 = 63), the same as the `Cell` indices
//! of the 8x8 geometry.
//!
//! Players are numbered in turn order: player 0 holds the a1 corner and moves first, player 1
//! holds h8. Which people each is (Termides or Myrmides) depends on the region; the position
//! string names peoples (upper case for the Termides, `w` when they are to move), so printing
//! and reading a string translate between the two.

use std::fmt;
use std::str::FromStr;

use crate::error::PositionError;
use crate::game::{Cell, PieceSets, Player};
use crate::geometry::{placement, square, Geometry};
use crate::zobrist;

pub(crate) const QUEEN: usize = 0;
pub(crate) const COUNSELLOR: usize = 1;
pub(crate) const SOLDIER: usize = 2;
pub(crate) const WORKER: usize = 3;
/// Kind letters, upper case, by kind index.
pub(crate) const KIND_LETTERS: [char; 4] = ['Q', 'C', 'S', 'W'];
pub(crate) const KIND_NAMES: [&str; 4] = ["Queen", "Counsellor", "Soldier", "Worker"];
/// How many pieces of each kind a side starts with (and can never exceed).
pub(crate) const START_COUNT: [u32; 4] = [1, 1, 2, 3];

/// The peoples' names, Termides first (the order of the position string's Ponte field).
pub(crate) const PEOPLE: [&str; 2] = ["Termides", "Myrmides"];
/// The players' names in turn order, by the people who holds a1 (`People as usize`).
pub(crate) const TURN_ORDER: [&[&str]; 2] = [&["Termides", "Myrmides"], &["Myrmides", "Termides"]];

pub(crate) const A1: u32 = 0;
pub(crate) const H8: u32 = 63;
/// The Ponte square of player 0 (b2, the a1 player) and of player 1 (g7, the h8 player).
pub(crate) const PONTE_SQUARE: [u32; 2] = [9, 54];

/// Squares where a Worker enters the board (setup squares and the Ponte square), by player.
/// Only there can a Worker be unmoved.
pub(crate) const ENTRY_SQUARES: [u64; 2] = [
    (1 << 25) | (1 << 18) | (1 << 11) | (1 << 9),
    (1 << 38) | (1 << 45) | (1 << 52) | (1 << 54),
];

/// The name of a square (`e4`).
pub(crate) fn square_name(sq: u32) -> String {
    square::name(8, sq as Cell)
}

/// Reads a square name (`e4`, lower case); `None` if it is not a square of the board.
pub(crate) fn parse_square(text: &str) -> Option<u32> {
    square::parse(8, 8, text).map(u32::from)
}

/// The kinds of pieces, in the order of `GameInfo::pieces` (`ReinesKind::X as usize` is that
/// index).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ReinesKind {
    Queen = 0,
    Counsellor = 1,
    Soldier = 2,
    Worker = 3,
}

impl ReinesKind {
    pub const ALL: [ReinesKind; 4] = [
        ReinesKind::Queen,
        ReinesKind::Counsellor,
        ReinesKind::Soldier,
        ReinesKind::Worker,
    ];

    /// The kind with this index of `GameInfo::pieces`.
    pub fn from_index(index: usize) -> Option<ReinesKind> {
        ReinesKind::ALL.get(index).copied()
    }

    /// The upper-case letter of the position string (`Q`, `C`, `S`, `W`).
    pub fn letter(self) -> char {
        KIND_LETTERS[self as usize]
    }

    pub fn name(self) -> &'static str {
        KIND_NAMES[self as usize]
    }
}

/// The two peoples of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum People {
    /// Upper-case letters, `w` in the position string.
    Termides = 0,
    /// Lower-case letters, `b` in the position string.
    Myrmides = 1,
}

impl People {
    pub fn name(self) -> &'static str {
        PEOPLE[self as usize]
    }

    fn from_index(index: u8) -> People {
        if index & 1 == 0 {
            People::Termides
        } else {
            People::Myrmides
        }
    }
}

/// The region the game is played in: it decides who takes the a1 corner and moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Region {
    Neutral,
    Animist,
    Cultist,
    /// Read from a position string with the Termides in a1: the string cannot tell the two
    /// regions apart (they play the same).
    NeutralOrAnimist,
}

impl Region {
    pub fn name(self) -> &'static str {
        match self {
            Region::Neutral => "neutral",
            Region::Animist => "animist",
            Region::Cultist => "cultist",
            Region::NeutralOrAnimist => "neutral or animist",
        }
    }

    /// The values of the `region` setting this region may be (two for `NeutralOrAnimist`), as
    /// indices into the setting's values.
    pub fn setting_indices(self) -> &'static [usize] {
        match self {
            Region::Neutral => &[0],
            Region::Animist => &[1],
            Region::Cultist => &[2],
            Region::NeutralOrAnimist => &[0, 1],
        }
    }
}

/// Zobrist keys: pieces (2 players x 4 kinds x 64), side to move, unmoved Workers (64),
/// Ponte counters (2 players x 16 combinations of "how many counters at 0, at 1"), passes in a
/// row (1, and 2 or more), and "the Myrmides hold a1".
const KEY_SIDE: usize = 512;
const KEY_UNMOVED: usize = 513;
const KEY_PONTE: usize = 577;
const KEY_PASSES: usize = 609;
const KEY_MYRMIDES_IN_A1: usize = 611;
static KEYS: [u64; 612] = zobrist::keys::<612>(0x5245_494E_4553_0004);
/// The key of a number of passes in a row: none for 0, one for 1, one for 2 or more (the draw).
static PASSES_KEYS: [u64; 3] = [0, KEYS[KEY_PASSES], KEYS[KEY_PASSES + 1]];

#[inline(always)]
pub(crate) fn piece_key(player: usize, kind: usize, sq: u32) -> u64 {
    KEYS[(player * 4 + kind) * 64 + sq as usize]
}

#[inline(always)]
pub(crate) fn side_key() -> u64 {
    KEYS[KEY_SIDE]
}

#[inline(always)]
pub(crate) fn unmoved_key(sq: u32) -> u64 {
    KEYS[KEY_UNMOVED + sq as usize]
}

#[inline(always)]
pub(crate) fn ponte_key(player: usize, counters: [u8; 2]) -> u64 {
    KEYS[KEY_PONTE + player * 16 + (counters[0] as usize & 3) * 4 + (counters[1] as usize & 3)]
}

#[inline(always)]
pub(crate) fn passes_key(passes: u8) -> u64 {
    PASSES_KEYS[passes.min(2) as usize]
}

/// A position of Jeu de Reines.
///
/// Besides what the position string shows, it keeps two things the string cannot:
/// * `passes`, the number of passes played in a row just before it (for the draw when both
///   players pass in a row); a parsed position starts with 0. It is part of equality and of the
///   hash (0, 1, or 2 and more: one more pass draws after a pass, not otherwise).
/// * `region`, the region chosen at the start, for display only (not part of equality or hash).
#[derive(Clone, Debug)]
pub struct ReinesPosition {
    /// Pieces of each player (0 = the a1 player, 1 = the h8 player).
    pub(crate) colour: [u64; 2],
    /// Pieces of each kind, both players.
    pub(crate) kinds: [u64; 4],
    /// Workers that have not moved since they entered the board.
    pub(crate) unmoved: u64,
    /// Pending Ponte Workers of each player: `ponte[p][c]` is how many have counter `c` (0 or 1).
    pub(crate) ponte: [[u8; 2]; 2],
    /// The player to move.
    pub(crate) side: u8,
    /// The people of player 0 (who holds a1): 0 the Termides, 1 the Myrmides. The people of
    /// player `p` is `p ^ a1_people`.
    pub(crate) a1_people: u8,
    pub(crate) passes: u8,
    pub(crate) quiet: u32,
    pub(crate) fullmove: u32,
    pub(crate) hash: u64,
    pub(crate) region: Region,
}

impl PartialEq for ReinesPosition {
    fn eq(&self, o: &Self) -> bool {
        self.colour == o.colour
            && self.kinds == o.kinds
            && self.unmoved == o.unmoved
            && self.ponte == o.ponte
            && self.side == o.side
            && self.a1_people == o.a1_people
            && self.passes == o.passes
            && self.quiet == o.quiet
            && self.fullmove == o.fullmove
            && self.hash == o.hash
    }
}

impl Eq for ReinesPosition {}

impl ReinesPosition {
    /// The start position of a region.
    pub fn start(region: Region) -> Self {
        let mut pos = ReinesPosition {
            colour: [0; 2],
            kinds: [0; 4],
            unmoved: 0,
            ponte: [[0; 2]; 2],
            side: 0,
            a1_people: (region == Region::Cultist) as u8,
            passes: 0,
            quiet: 0,
            fullmove: 1,
            hash: 0,
            region,
        };
        // (kind, a1-corner square); player 1's piece is on the mirror square 63 - sq.
        let setup: [(usize, u32); 7] = [
            (QUEEN, 0),      // a1
            (COUNSELLOR, 9), // b2
            (SOLDIER, 16),   // a3
            (SOLDIER, 2),    // c1
            (WORKER, 25),    // b4
            (WORKER, 18),    // c3
            (WORKER, 11),    // d2
        ];
        for (kind, sq) in setup {
            pos.put(0, kind, sq);
            pos.put(1, kind, 63 - sq);
        }
        pos.unmoved = pos.kinds[WORKER];
        pos.hash = pos.compute_hash();
        pos
    }

    fn put(&mut self, player: usize, kind: usize, sq: u32) {
        self.colour[player] |= 1 << sq;
        self.kinds[kind] |= 1 << sq;
    }

    /// The kind of the piece on `sq` (which must hold one).
    #[inline(always)]
    pub(crate) fn kind_at(&self, sq: u32) -> usize {
        let b = 1u64 << sq;
        if self.kinds[WORKER] & b != 0 {
            WORKER
        } else if self.kinds[SOLDIER] & b != 0 {
            SOLDIER
        } else if self.kinds[COUNSELLOR] & b != 0 {
            COUNSELLOR
        } else {
            QUEEN
        }
    }

    /// The piece on a square (0 = a1 … 63 = h8): its owner and kind; `None` for an empty square
    /// or a number off the board.
    pub fn piece(&self, sq: u32) -> Option<(Player, ReinesKind)> {
        if sq > 63 {
            return None;
        }
        let b = 1u64 << sq;
        let owner = if self.colour[0] & b != 0 {
            0
        } else if self.colour[1] & b != 0 {
            1
        } else {
            return None;
        };
        Some((owner, ReinesKind::ALL[self.kind_at(sq)]))
    }

    /// The people a player is (player 0 holds a1 and moves first); `None` for a number that is
    /// not a player.
    pub fn people(&self, player: Player) -> Option<People> {
        (player < 2).then(|| People::from_index(player ^ self.a1_people))
    }

    /// The player number of a people in this game.
    pub fn player_of(&self, people: People) -> Player {
        people as u8 ^ self.a1_people
    }

    /// The Ponte square of a player (b2 for player 0, g7 for player 1); `None` for a number
    /// that is not a player.
    pub fn ponte_square(&self, player: Player) -> Option<u32> {
        PONTE_SQUARE.get(player as usize).copied()
    }

    pub fn region(&self) -> Region {
        self.region
    }

    /// The pending Ponte Workers of a player, as counters in ascending order (none for a number
    /// that is not a player).
    pub fn pending(&self, player: Player) -> Vec<u8> {
        let Some(&c) = self.ponte.get(player as usize) else {
            return Vec::new();
        };
        let mut v = vec![0; c[0] as usize];
        v.extend(std::iter::repeat_n(1, c[1] as usize));
        v
    }

    /// How many pending Ponte Workers a player has (0 for a number that is not a player):
    /// [`ReinesPosition::pending`] without building a list, for evaluations.
    #[inline]
    pub fn pending_count(&self, player: Player) -> u32 {
        self.ponte
            .get(player as usize)
            .map_or(0, |c| c[0] as u32 + c[1] as u32)
    }

    /// Squares of the Workers that have not moved since they entered the board (both players).
    pub fn unmoved_workers(&self) -> u64 {
        self.unmoved
    }

    /// Passes played in a row just before this position (not in the position string).
    pub fn passes_in_a_row(&self) -> u8 {
        self.passes
    }

    pub fn quiet_plies(&self) -> u32 {
        self.quiet
    }

    pub fn move_number(&self) -> u32 {
        self.fullmove
    }

    /// True if a Queen has been captured.
    #[inline(always)]
    pub(crate) fn queen_missing(&self) -> bool {
        self.kinds[QUEEN].count_ones() < 2
    }

    pub(crate) fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for player in 0..2 {
            for kind in 0..4 {
                let mut bb = self.colour[player] & self.kinds[kind];
                while bb != 0 {
                    h ^= piece_key(player, kind, bb.trailing_zeros());
                    bb &= bb - 1;
                }
            }
            h ^= ponte_key(player, self.ponte[player]);
        }
        let mut bb = self.unmoved;
        while bb != 0 {
            h ^= unmoved_key(bb.trailing_zeros());
            bb &= bb - 1;
        }
        if self.side == 1 {
            h ^= side_key();
        }
        if self.a1_people == 1 {
            h ^= KEYS[KEY_MYRMIDES_IN_A1];
        }
        h ^ passes_key(self.passes)
    }
}

/// The pieces as bitboards (`u64`, bit `rank * 8 + file`); a number that is not a player has
/// none. Pending Workers are not on the board: see [`ReinesPosition::pending`].
impl PieceSets for ReinesPosition {
    type Set = u64;
    type Kind = ReinesKind;

    #[inline]
    fn pieces(&self, player: Player, kind: ReinesKind) -> u64 {
        self.pieces_of(player) & self.kinds[kind as usize]
    }

    #[inline]
    fn pieces_of(&self, player: Player) -> u64 {
        self.colour.get(player as usize).copied().unwrap_or(0)
    }

    #[inline]
    fn occupied(&self) -> u64 {
        self.colour[0] | self.colour[1]
    }

    /// The moves other than `pass` that `player` would have on this board if it were their
    /// turn (the Ponte step they would get first is not applied), counted without generating
    /// them; 0 for a number that is not a player. For the player to move, this is the number
    /// of legal moves unless they must pass (or the game is over).
    #[inline]
    fn mobility(&self, player: Player) -> u32 {
        self.count_moves_of(player)
    }
}

impl fmt::Display for ReinesPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = placement::write(GEOMETRY, |cell, out| match self.piece(cell as u32) {
            Some((owner, kind)) => {
                let c = kind.letter();
                // Upper case for the Termides, whoever holds a1.
                out.push(if owner ^ self.a1_people == 0 {
                    c
                } else {
                    c.to_ascii_lowercase()
                });
                true
            }
            None => false,
        });
        s.push(' ');
        s.push(if self.side ^ self.a1_people == 0 {
            'w'
        } else {
            'b'
        });
        s.push(' ');
        if self.unmoved == 0 {
            s.push('-');
        } else {
            let mut bb = self.unmoved;
            while bb != 0 {
                s.push_str(&square_name(bb.trailing_zeros()));
                bb &= bb - 1;
            }
        }
        s.push(' ');
        // Termides' counters first, whoever holds a1.
        for people in 0..2u8 {
            let c = self.ponte[(people ^ self.a1_people) as usize];
            if c == [0, 0] {
                s.push('-');
            } else {
                for _ in 0..c[0] {
                    s.push('0');
                }
                for _ in 0..c[1] {
                    s.push('1');
                }
            }
            if people == 0 {
                s.push('/');
            }
        }
        write!(f, "{s} {} {}", self.quiet, self.fullmove)
    }
}

fn err(field: &'static str, message: impl Into<String>) -> PositionError {
    PositionError::new(field, message)
}

/// The board of Jeu de Reines.
const GEOMETRY: Geometry = Geometry::Square { files: 8, ranks: 8 };

/// Reads the placement: pieces by people (0 = Termides, upper case) and by kind.
fn parse_placement(text: &str) -> Result<([u64; 2], [u64; 4]), PositionError> {
    let board = placement::parse(
        GEOMETRY,
        text,
        "Q C S W for the Termides, q c s w for the Myrmides",
        |rest| {
            let c = rest.chars().next()?;
            let kind = KIND_LETTERS
                .iter()
                .position(|&k| k == c.to_ascii_uppercase())?;
            Some(((c.is_ascii_lowercase() as usize, kind), 1))
        },
    )?;
    let mut colour = [0u64; 2];
    let mut kinds = [0u64; 4];
    for (sq, piece) in board.iter().enumerate() {
        if let Some((people, kind)) = *piece {
            colour[people] |= 1 << sq;
            kinds[kind] |= 1 << sq;
        }
    }
    Ok((colour, kinds))
}

fn parse_counters(text: &str, people: &str) -> Result<[u8; 2], PositionError> {
    const F: &str = "ponte";
    if text == "-" {
        return Ok([0, 0]);
    }
    if text.is_empty() {
        return Err(err(
            F,
            format!("the {people}' counters are empty: write digits 0/1 or '-'"),
        ));
    }
    let mut counts = [0u8; 2];
    let mut last = 0u8;
    for c in text.chars() {
        let v = match c {
            '0' => 0,
            '1' => 1,
            '2'..='9' => {
                return Err(err(
                    F,
                    format!(
                        "the {people}' counter {c} is impossible: a counter in a position string \
                         is 0 or 1"
                    ),
                ))
            }
            _ => {
                return Err(err(
                    F,
                    format!("the {people}' counters must be digits 0 or 1, or '-', found {c:?}"),
                ))
            }
        };
        if v < last {
            return Err(err(
                F,
                format!("the {people}' counters must be in ascending order: {text:?}"),
            ));
        }
        last = v;
        counts[v as usize] = counts[v as usize].saturating_add(1);
        if counts[0] as u32 + counts[1] as u32 > 3 {
            return Err(err(
                F,
                format!("the {people} have more than 3 pending Workers: {text:?}"),
            ));
        }
    }
    Ok(counts)
}

impl FromStr for ReinesPosition {
    type Err = PositionError;

    /// Reads a position string (`docs/rules/reines.md`). Everything is read by people (the
    /// string's letters, `w`/`b` and the Ponte field name peoples), then renumbered in turn
    /// order once the Queens tell who holds a1.
    fn from_str(text: &str) -> Result<Self, PositionError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() != 6 {
            return Err(err(
                "fields",
                format!(
                    "expected 6 fields (placement, side to move, unmoved workers, ponte, quiet \
                     plies, move number) separated by spaces, found {}",
                    fields.len()
                ),
            ));
        }
        // By people: 0 = Termides, 1 = Myrmides.
        let (by_people, kinds) = parse_placement(fields[0])?;

        // Queens: which corner each people holds.
        const PL: &str = "placement";
        let queens = [by_people[0] & kinds[QUEEN], by_people[1] & kinds[QUEEN]];
        let total = kinds[QUEEN].count_ones();
        if total > 2 {
            return Err(err(PL, format!("{total} Queens: there are at most 2")));
        }
        if total == 0 {
            return Err(err(PL, "no Queen: each side has one, on a1 and h8"));
        }
        for p in 0..2 {
            if queens[p].count_ones() > 1 {
                return Err(err(PL, format!("the {} have two Queens", PEOPLE[p])));
            }
            if queens[p] & !((1 << A1) | (1 << H8)) != 0 {
                return Err(err(
                    PL,
                    format!(
                        "the {} Queen is on {}: Queens never move, they stand on a1 and h8",
                        PEOPLE[p],
                        square_name(queens[p].trailing_zeros())
                    ),
                ));
            }
        }
        // Both Queens are on a1/h8, at most one per people, and a square holds one piece: two
        // Queens of different peoples are necessarily on opposite corners.
        let a1_people: u8 = if queens[0] == 1 << A1 || queens[1] == 1 << H8 {
            0
        } else {
            1
        };
        for p in 0..2 {
            for kind in [COUNSELLOR, SOLDIER, WORKER] {
                let n = (by_people[p] & kinds[kind]).count_ones();
                if n > START_COUNT[kind] {
                    return Err(err(
                        PL,
                        format!(
                            "the {} have {n} {}s, more than the {} they start with",
                            PEOPLE[p], KIND_NAMES[kind], START_COUNT[kind]
                        ),
                    ));
                }
            }
        }
        // From here on, by player: player `p` is people `p ^ a1_people`.
        let colour = [
            by_people[a1_people as usize],
            by_people[(a1_people ^ 1) as usize],
        ];

        let side: u8 = match fields[1] {
            "w" => a1_people,
            "b" => a1_people ^ 1,
            other => {
                return Err(err(
                    "side to move",
                    format!("expected w (Termides) or b (Myrmides), found {other:?}"),
                ))
            }
        };

        // Unmoved workers.
        const UF: &str = "unmoved workers";
        let mut unmoved = 0u64;
        if fields[2] != "-" {
            let t = fields[2];
            if !t.len().is_multiple_of(2) || !t.is_ascii() {
                return Err(err(
                    UF,
                    format!("expected square names run together (d2c3b4) or '-', found {t:?}"),
                ));
            }
            let mut last: Option<u32> = None;
            for i in (0..t.len()).step_by(2) {
                let name = &t[i..i + 2];
                let sq = parse_square(name).ok_or_else(|| {
                    err(UF, format!("{name:?} is not a square (a1 to h8) in {t:?}"))
                })?;
                if let Some(l) = last {
                    if sq <= l {
                        return Err(err(
                            UF,
                            format!(
                                "{name} comes after {}: list the squares once each in the order \
                                 a1, b1, ..., h1, a2, ..., h8",
                                square_name(l)
                            ),
                        ));
                    }
                }
                last = Some(sq);
                let b = 1u64 << sq;
                if kinds[WORKER] & b == 0 {
                    return Err(err(UF, format!("no Worker on {name}")));
                }
                let player = if colour[0] & b != 0 { 0 } else { 1 };
                if ENTRY_SQUARES[player] & b == 0 {
                    return Err(err(
                        UF,
                        format!(
                            "the {} Worker on {name} cannot be unmoved: their Workers enter the \
                             board on {}",
                            PEOPLE[player ^ a1_people as usize],
                            if player == 0 {
                                "b4, c3, d2 and the Ponte square b2"
                            } else {
                                "g5, f6, e7 and the Ponte square g7"
                            }
                        ),
                    ));
                }
                unmoved |= b;
            }
        }

        // Ponte: Termides' counters, then Myrmides'.
        let (t, m) = fields[3].split_once('/').ok_or_else(|| {
            err(
                "ponte",
                format!(
                    "expected <Termides counters>/<Myrmides counters> (like 01/-), found {:?}",
                    fields[3]
                ),
            )
        })?;
        let by_people_ponte = [parse_counters(t, PEOPLE[0])?, parse_counters(m, PEOPLE[1])?];
        for p in 0..2 {
            let on_board = (by_people[p] & kinds[WORKER]).count_ones();
            let pending = (by_people_ponte[p][0] + by_people_ponte[p][1]) as u32;
            if on_board + pending > 3 {
                return Err(err(
                    "ponte",
                    format!(
                        "the {} have {on_board} Workers in play and {pending} pending: at most 3 \
                         together",
                        PEOPLE[p]
                    ),
                ));
            }
        }
        let ponte = [
            by_people_ponte[a1_people as usize],
            by_people_ponte[(a1_people ^ 1) as usize],
        ];
        let queen_missing = total < 2;
        let ponte_sq = PONTE_SQUARE[side as usize];
        if !queen_missing
            && ponte[side as usize][0] > 0
            && (colour[0] | colour[1]) & (1 << ponte_sq) == 0
        {
            return Err(err(
                "ponte",
                format!(
                    "the {} (to move) have a Worker due (counter 0) and their Ponte square {} \
                     is empty: the start-of-turn step would already have placed it",
                    PEOPLE[(side ^ a1_people) as usize],
                    square_name(ponte_sq)
                ),
            ));
        }

        let quiet = crate::counters::parse_counter(fields[4], "quiet plies")?;
        let fullmove = crate::counters::parse_move_number(fields[5])?;

        let mut pos = ReinesPosition {
            colour,
            kinds,
            unmoved,
            ponte,
            side,
            a1_people,
            passes: 0,
            quiet,
            fullmove,
            hash: 0,
            region: if a1_people == 1 {
                Region::Cultist
            } else {
                Region::NeutralOrAnimist
            },
        };
        pos.hash = pos.compute_hash();
        Ok(pos)
    }
}
