//! The `Game` and `Position` traits every game implements.
//!
//! Two layers:
//!
//! * [`Game`] / [`Position`]: generic, monomorphised, for speed. A search or a perft works on a
//!   concrete `Position` type with `make_move` / `unmake_move` and never allocates per node.
//! * [`crate::dynamic`]: an object-safe layer over any `Game`, for the command line, the server
//!   and the UI, which speak in strings and loop over the [`crate::registry`].

use std::fmt;
use std::hash::Hash;

use crate::error::{MoveError, PositionError, SettingError};
use crate::geometry::Geometry;
use crate::movelist::{MoveBuffer, MoveCounter, MoveSink};
use crate::outcome::{Outcome, Reason};

/// A player, numbered from 0 in turn order (`GameInfo::players[i]` is its name).
pub type Player = u8;

/// A cell of a game's board, as an index into its [`Geometry`] (see `Geometry::cell_name`).
pub type Cell = u16;

/// A piece as seen from outside: its owner and its kind letter (the upper-case letter of
/// [`PieceKind::letter`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PieceView {
    pub owner: Player,
    pub kind: char,
}

/// The cells a move touches, for highlighting on a board: where the moving piece starts and ends,
/// and every cell whose piece it captures. A `pass` has none.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MoveCells {
    pub from: Option<Cell>,
    pub to: Option<Cell>,
    pub captures: Vec<Cell>,
}

/// A kind of piece of a game, for legends and help texts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct PieceKind {
    /// The upper-case letter that names it in position strings and `PieceView::kind`.
    pub letter: char,
    pub name: &'static str,
}

/// How a game writes its pieces in its own position strings, so that boards drawn as text (and
/// later in the browser) read the same way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub enum PieceNotation {
    /// The kind letters of the player named first in `GameInfo::players` in upper case, the
    /// other's in lower case (`K`, `k`). By name: where a setting changes who moves first
    /// (Jeu de Reines' region), a position's player 0 may be the lower-case one.
    Case,
    /// The owner's letter then the kind letter (`bQ`); one owner letter per player.
    OwnerPrefix(&'static [char]),
    /// The kind letter alone: the kinds already tell the owners apart (`W`, `B`).
    Letter,
}

/// A setting of a game chosen when it is created (Jeu de Reines' region, for example).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct SettingInfo {
    pub name: &'static str,
    pub values: &'static [&'static str],
    pub default: &'static str,
    pub help: &'static str,
}

/// How an English sentence takes a game's players' names (`GameInfo::players`): each as one
/// side, "White wins", or as a people, "the Termides win". The pages' catalogues choose their
/// words by it (`singular`, `plural`); another language's names say their own
/// (docs/api.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(rename_all = "lowercase")
)]
pub enum GrammaticalNumber {
    Singular,
    Plural,
}

/// What the registry says about a game.
#[derive(Clone, Copy, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct GameInfo {
    /// The id used on the command line, in URLs and in files (`ackenhead`).
    pub id: &'static str,
    pub name: &'static str,
    /// The players' names in turn order (`["White", "Black"]`).
    pub players: &'static [&'static str],
    /// How English takes those names: "White wins", "the Termides win" (every name of a game
    /// alike: colours, or peoples).
    pub players_number: GrammaticalNumber,
    pub geometry: Geometry,
    pub pieces: &'static [PieceKind],
    /// How pieces are written (and drawn).
    pub notation: PieceNotation,
    pub settings: &'static [SettingInfo],
    /// The reasons a game of it can end for by its rules (checkmate, anthill, …), besides the
    /// common ones of [`Reason::COMMON`].
    pub reasons: &'static [Reason],
    /// One line saying what the game is.
    pub summary: &'static str,
    /// Cells with a role in the rules, for boards to mark (Ant Chess's anthill, Jeu de Reines'
    /// Ponte squares); empty where none has.
    pub marked: &'static [MarkedCell],
    /// How the side to move is written in position strings (their second field, in every
    /// game), for each player of `players`.
    pub to_move_letters: &'static [char],
    /// The kind of piece that stands for each player beside their name (in turn order; a
    /// player past the list takes the first): the royal piece, or in Epaminondas the stone.
    pub emblems: &'static [char],
    /// The piece that stands for the game in a list of games, in the colours of its owner.
    pub icon: PieceView,
    /// The most legal moves of one position that go from the same cell to the same cell (a
    /// promotion's choices, a Ladybird's paths): the last factor of the game's numbering of
    /// moves as integers ([`crate::actions`]); 1 where a start and an end name one move.
    pub action_variants: u8,
    /// How the pieces are drawn, as plain data for boards: the text of the game folder's
    /// `pieces.json`, `{"colours": [{name: colour}, …], "pieces": {letter: [markup, …]}}`.
    /// `colours` gives each player's colours in turn order (a player past the list takes them
    /// again from the first); `pieces` gives each kind letter its drawing, SVG elements in a
    /// 100x100 box (joined in order), where `{fill}` (any `{name}`) is the owner's colour of
    /// that name.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub drawings: &'static str,
}

/// A cell with a role in the rules, and what it is called (`anthill`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct MarkedCell {
    pub cell: Cell,
    pub name: &'static str,
}

/// Chosen values of a game's settings, by name. Missing names take their defaults.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Settings(pub Vec<(String, String)>);

impl Settings {
    pub fn new() -> Self {
        Settings(Vec::new())
    }

    pub fn with(mut self, name: &str, value: &str) -> Self {
        self.0.push((name.to_string(), value.to_string()));
        self
    }

    /// Checks every chosen setting against `info` and returns the value of `name`
    /// (its default if it was not chosen).
    pub fn get<'a>(&'a self, info: &GameInfo, name: &str) -> Result<&'a str, SettingError> {
        self.validate(info)?;
        let spec = Self::spec(info, name)?;
        Ok(self
            .0
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
            .unwrap_or(spec.default))
    }

    /// The game's setting of this name.
    fn spec(info: &GameInfo, name: &str) -> Result<&'static SettingInfo, SettingError> {
        info.settings
            .iter()
            .find(|s| s.name == name)
            .ok_or_else(|| SettingError::Unknown {
                game: info.id,
                name: name.to_string(),
            })
    }

    /// Every chosen setting must exist for the game and take one of its values.
    pub fn validate(&self, info: &GameInfo) -> Result<(), SettingError> {
        for (name, value) in &self.0 {
            let spec = Self::spec(info, name)?;
            if !spec.values.contains(&value.as_str()) {
                return Err(SettingError::BadValue {
                    name: spec.name,
                    value: value.clone(),
                    expected: spec.values,
                });
            }
        }
        Ok(())
    }
}

/// What a move does that a search orders moves by, without allocating: how many pieces it
/// takes and of which kinds, whether it promotes, whether it wins on the spot.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Tactics {
    /// How many enemy pieces the move takes.
    pub captures: u8,
    /// The kinds taken, as bits over the indices of `GameInfo::pieces`.
    pub taken_kinds: u16,
    /// The kind a piece promotes to (its index in `GameInfo::pieces`), if the move promotes.
    pub promotion: Option<u8>,
    /// The move ends the game at once with a win for the mover.
    pub wins: bool,
}

impl Tactics {
    /// Captures, promotions and immediate wins: the moves a quiescence search looks at.
    #[inline(always)]
    pub fn is_tactical(self) -> bool {
        self.captures > 0 || self.promotion.is_some() || self.wins
    }
}

/// One piece of the state a display shows beside the board (a Ponte counter, a far-row count, a
/// move counter), as data: the lines of [`Position::info_messages`] are made from these.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Fact {
    /// A stable identifier, lower case with hyphens (`quiet-plies`, `pending-workers`).
    pub name: &'static str,
    /// The player it is about, if any.
    pub player: Option<Player>,
    pub value: FactValue,
}

#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum FactValue {
    Flag(bool),
    Number(i64),
    Numbers(Vec<i64>),
    Cell(Option<Cell>),
    Cells(Vec<Cell>),
}

/// One line a display shows beside the board, as a message: its key in the game's catalogues
/// (`<game folder>/en.ftl` and `fr.ftl`, read by the server) and its arguments. The display
/// writes it in its reader's language from those catalogues (a terminal, in English).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InfoLine {
    /// `<game>-info-<name>` (`antchess-info-queens`).
    pub key: &'static str,
    pub args: Vec<(&'static str, InfoArg)>,
}

/// An argument of an [`InfoLine`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InfoArg {
    Number(i64),
    /// Numbers, written one after another.
    Numbers(Vec<i64>),
    /// A player, written as their name.
    Player(Player),
    /// A cell, written as its name.
    Cell(Cell),
    /// Cells, written one after another (the count is a separate argument where it matters).
    Cells(Vec<Cell>),
    /// A word the message chooses its variant by (`neutral-or-animist`), not written itself.
    Word(&'static str),
    /// Lines written one after another, separated by commas.
    Lines(Vec<InfoLine>),
}

impl InfoLine {
    pub fn new(key: &'static str, args: Vec<(&'static str, InfoArg)>) -> InfoLine {
        InfoLine { key, args }
    }

    /// Its argument `name`.
    pub fn arg(&self, name: &str) -> Option<&InfoArg> {
        self.args.iter().find(|(n, _)| *n == name).map(|(_, a)| a)
    }

    /// The keys of this line and of the lines in its arguments.
    pub fn keys(&self, out: &mut Vec<&'static str>) {
        out.push(self.key);
        for (_, arg) in &self.args {
            if let InfoArg::Lines(lines) = arg {
                lines.iter().for_each(|l| l.keys(out));
            }
        }
    }
}

/// A position of one game: its state, its legal moves and how to play them.
///
/// Contract:
/// * `generate` produces no move exactly when the game is over *by rule* (checkmate, stalemate,
///   anthill, crossing, captured queen, …): these are the leaves of perft, and
///   [`Position::outcome_without_moves`] says who won. Draw rules that perft ignores (move
///   counters, mutual passes, bare kings) do not empty it; [`Position::draw_by_rule`] reports
///   them without counting moves, and [`crate::record::Record`] applies repetition.
/// * `make_move` followed by `unmake_move` restores the position exactly, hash included.
/// * `hash` is maintained incrementally and equals `hash_from_scratch`; it covers everything
///   that changes the legal moves or the outcome, so two positions with the same hash are the
///   same for the repetition rule of the game.
///
/// What an evaluation reads of a position (its pieces as sets of cells, its mobility) is the
/// other trait every game's position implements, [`PieceSets`].
pub trait Position: Clone + Eq + fmt::Debug + fmt::Display + Send + Sync + 'static {
    /// A move. Small and `Copy`: searches keep millions of them.
    type Move: Copy + Eq + Hash + fmt::Debug + Default + Send + Sync + 'static;
    /// What `unmake_move` needs to take a move back (the old position, for copy-make games).
    type Undo: Send;
    /// A list that holds every legal move of any position of the game, without allocating.
    type MoveList: MoveBuffer<Self::Move>;

    /// The player to move.
    fn to_move(&self) -> Player;

    /// The players' names in turn order (player 0 moves first in the game's start position).
    fn player_names(&self) -> &'static [&'static str];

    /// Sends every legal move to `out`.
    fn generate<S: MoveSink<Self::Move>>(&self, out: &mut S);

    /// Sends the tactical moves to `out`: exactly the legal moves whose [`Tactics`] are
    /// tactical (captures, promotions, immediate wins), for quiescence search.
    fn generate_tactical<S: MoveSink<Self::Move>>(&self, out: &mut S) {
        let mut all = Self::MoveList::default();
        self.generate(&mut all);
        for &mv in all.iter() {
            if self.tactics(mv).is_tactical() {
                out.push(mv);
            }
        }
    }

    /// Sends the legal captures and promotions to `out`, for the deeper plies of a quiescence
    /// search: [`Position::generate_tactical`] without the quiet moves that win at once, where
    /// finding those is dear (Ackenhead's quiet checkmates). By default `generate_tactical`.
    fn generate_captures<S: MoveSink<Self::Move>>(&self, out: &mut S) {
        self.generate_tactical(out)
    }

    /// The legal moves, in a list of the game's own kind.
    #[inline]
    fn moves(&self) -> Self::MoveList {
        let mut list = Self::MoveList::default();
        self.generate(&mut list);
        list
    }

    /// Appends the legal moves to `out` (which the caller clears).
    fn legal_moves(&self, out: &mut Vec<Self::Move>) {
        self.generate(out)
    }

    /// The number of legal moves; games override it to count without generating.
    fn count_legal_moves(&self) -> u64 {
        let mut c = MoveCounter(0);
        self.generate(&mut c);
        c.0 as u64
    }

    /// What a legal move of this position does (for move ordering). The default is a slow
    /// fallback (it allocates and plays the move, and leaves `taken_kinds` empty); games
    /// override it.
    fn tactics(&self, mv: Self::Move) -> Tactics {
        let captures = self.move_cells(mv).captures.len() as u8;
        let mut after = self.clone();
        after.make_move(mv);
        let wins = after.count_legal_moves() == 0
            && after.outcome_without_moves().winner() == Some(self.to_move());
        Tactics {
            captures,
            taken_kinds: 0,
            promotion: None,
            wins,
        }
    }

    /// [`Position::tactics`] where the immediate-win test is dear (Ackenhead's checkmate test
    /// plays the move and looks for an answer): `captures`, `taken_kinds` and `promotion` as
    /// `tactics` gives them, but `wins` may be false for a move that wins (a search sees the
    /// win one ply later). By default `tactics`.
    fn quick_tactics(&self, mv: Self::Move) -> Tactics {
        self.tactics(mv)
    }

    /// True if the legal move `mv` puts the opponent in check, for a search that keeps such
    /// moves out of its pruning. False by default (games without check, or that do not say:
    /// the search then prunes such moves as any other); a game that overrides it is exact.
    fn gives_check(&self, _mv: Self::Move) -> bool {
        false
    }

    /// The move as a number of at most 32 bits, for transposition tables. Different legal
    /// moves of one position have different codes. The default hashes the move (FNV-1a over
    /// its `Hash`), so codes of two legal moves could in principle collide; games override it
    /// with an exact packing.
    fn move_code(&self, mv: Self::Move) -> u32 {
        let mut h = Fnv(0xcbf2_9ce4_8422_2325);
        mv.hash(&mut h);
        (h.0 ^ (h.0 >> 32)) as u32
    }

    /// The legal move of this position with this code, or `None`: a code taken from another
    /// position (a colliding hash entry) never gives an illegal move.
    fn move_from_code(&self, code: u32) -> Option<Self::Move> {
        self.moves()
            .iter()
            .copied()
            .find(|&m| self.move_code(m) == code)
    }

    /// True if the player to move is in check (games without check: always false).
    fn in_check(&self) -> bool {
        false
    }

    /// The cells of the player to move's pieces that are in check (the King or Queen attacked
    /// whose loss loses the game), for a board to mark; empty when not in check.
    fn check_cells(&self) -> Vec<Cell> {
        Vec::new()
    }

    /// Hands the turn to the next player without moving, for null-move pruning, where the
    /// game's rules make that meaningful and it is safe here (not in check, not at the end).
    /// `None` if not. Take it back with `unmake_null_move`.
    fn make_null_move(&mut self) -> Option<Self::Undo> {
        None
    }

    fn unmake_null_move(&mut self, _undo: Self::Undo) {}

    /// Plays a legal move. Playing a move that `generate` did not produce is a logic error
    /// (it may leave a nonsensical position, but must not cause undefined behaviour).
    fn make_move(&mut self, mv: Self::Move) -> Self::Undo;

    /// Takes back the move `mv` that produced `undo`.
    fn unmake_move(&mut self, mv: Self::Move, undo: Self::Undo);

    /// The Zobrist hash (incremental).
    fn hash(&self) -> u64;

    /// The hash recomputed from the whole position (for tests).
    fn hash_from_scratch(&self) -> u64;

    /// A draw by the position's counters alone (no-progress plies, passes in a row, bare
    /// kings), never counting moves: cheap enough for every node of a search. Repetition is
    /// the record's.
    fn draw_by_rule(&self) -> Option<Outcome>;

    /// The result of this position when it has no legal move (checkmate, stalemate, anthill,
    /// crossing, …). Only meaningful when `generate` produces nothing.
    fn outcome_without_moves(&self) -> Outcome;

    /// The outcome decided by this position alone (no history), or `None` if play goes on.
    /// Counts the moves: for displays and game records, not for every node of a search.
    fn outcome(&self) -> Option<Outcome> {
        if self.count_legal_moves() == 0 {
            Some(self.outcome_without_moves())
        } else {
            self.draw_by_rule()
        }
    }

    /// True if positions before this move can never repeat after it (capture, pawn move, …).
    /// The repetition rule only looks back to the last irreversible move.
    fn is_irreversible(&self, mv: Self::Move) -> bool;

    /// In games of three or more: the reason `player` can no longer win while others play on
    /// (a Queen captured), or `None`. Two-player games: always `None`.
    fn eliminated(&self, _player: Player) -> Option<Reason> {
        None
    }

    /// In games of three or more, takes `player` out of the game (a resignation or a fallen
    /// flag): the game says what that does to the board. False if the game does not go on
    /// without a player (two players: the other wins).
    fn remove_player(&mut self, _player: Player) -> bool {
        false
    }

    /// The `pass` move if it is legal here.
    fn pass_move(&self) -> Option<Self::Move> {
        None
    }

    /// The canonical text of a legal move of this position.
    fn move_text(&self, mv: Self::Move) -> String;

    /// Reads a move text and checks that it is legal here. The error says what is wrong.
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError>;

    /// The cells a legal move touches (for highlighting; allocates: for displays only).
    fn move_cells(&self, mv: Self::Move) -> MoveCells;

    /// How many of the mover's pieces a legal move carries from its `from` cell toward its
    /// `to` cell: by default one when it has both (a pass carries none). A phalanx of
    /// Epaminondas carries several, so a board cannot show the move by moving one piece.
    fn pieces_moved(&self, mv: Self::Move) -> u8 {
        let cells = self.move_cells(mv);
        u8::from(cells.from.is_some() && cells.to.is_some())
    }

    /// The piece on a cell of the game's geometry (`None` for a cell off the board).
    fn piece_at(&self, cell: Cell) -> Option<PieceView>;

    /// The state a display shows beside the board, as data.
    fn facts(&self) -> Vec<Fact> {
        Vec::new()
    }

    /// The same state as lines for a display in any language, made from [`Position::facts`].
    fn info_messages(&self) -> Vec<InfoLine> {
        Vec::new()
    }

    /// The settings of the game this position belongs to, as far as the position remembers
    /// them (Jeu de Reines' region, which its string cannot always tell), for game records.
    /// A setting not listed is unknown and taken as its default. The default lists none.
    fn settings(&self) -> Settings {
        Settings::new()
    }
}

/// A set of cells of a game's board, as the game stores it (a bitboard): what
/// [`PieceSets`] hands an evaluation. Bit `c` stands for [`Cell`] `c` of the game's
/// [`Geometry`], except where the game pads its board (Epaminondas: [`CellSet::cells`] still
/// gives the game's cells). The set operations are the type's own operators; complements are
/// left out because they would add cells off the board (the game's own type may offer them).
pub trait CellSet:
    Copy
    + Eq
    + fmt::Debug
    + std::ops::BitAnd<Output = Self>
    + std::ops::BitOr<Output = Self>
    + std::ops::BitXor<Output = Self>
    + Send
    + Sync
    + 'static
{
    /// The set without cells.
    const EMPTY: Self;

    /// The number of cells in the set.
    fn count(self) -> u32;

    /// True if the set has no cell.
    #[inline(always)]
    fn is_empty(self) -> bool {
        self == Self::EMPTY
    }

    /// True if the set holds `cell` (false for a cell off the board).
    fn contains(self, cell: Cell) -> bool;

    /// The cells of the set, lowest first.
    fn cells(self) -> impl Iterator<Item = Cell>;
}

/// Bitboards whose bit `c` is cell `c`: Ackenhead's and Jeu de Reines' `u64`, Ant Chess's
/// `u128`.
macro_rules! plain_cell_set {
    ($($t:ty),*) => {$(
        impl CellSet for $t {
            const EMPTY: Self = 0;

            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }

            #[inline(always)]
            fn contains(self, cell: Cell) -> bool {
                (cell as u32) < <$t>::BITS && (self >> cell) & 1 != 0
            }

            #[inline(always)]
            fn cells(self) -> impl Iterator<Item = Cell> {
                let mut rest = self;
                std::iter::from_fn(move || {
                    (rest != 0).then(|| {
                        let cell = rest.trailing_zeros() as Cell;
                        rest &= rest - 1;
                        cell
                    })
                })
            }
        }
    )*};
}

plain_cell_set!(u64, u128);

/// What an evaluation reads of a position, the same in every game: the pieces of a player
/// (of one kind, or all of them), how many there are, the occupied cells, and mobility. Every
/// game's position implements it beside [`Position`] (the registry checks it at compile time),
/// with its own set type and kind enum, so that evaluations written against it keep the
/// concrete, inlined types of their game.
///
/// A `player` is a number below the game's number of players; for another number each game
/// answers without panicking (most with an empty set).
pub trait PieceSets: Position {
    /// The game's bitboard.
    type Set: CellSet;
    /// The game's kinds of piece, `<Game>Kind`, in the order of `GameInfo::pieces`.
    type Kind: Copy + Eq + fmt::Debug + Send + Sync + 'static;

    /// The cells of `player`'s pieces of `kind`.
    fn pieces(&self, player: Player, kind: Self::Kind) -> Self::Set;

    /// The cells of all of `player`'s pieces.
    fn pieces_of(&self, player: Player) -> Self::Set;

    /// How many pieces of `kind` `player` has on the board.
    #[inline(always)]
    fn count(&self, player: Player, kind: Self::Kind) -> u32 {
        self.pieces(player, kind).count()
    }

    /// Every occupied cell.
    fn occupied(&self) -> Self::Set;

    /// The number of moves `player` has, or would have if it were their turn, counted without
    /// generating them (each game says what it leaves out: a pass, en passant, a rule that
    /// ends the game).
    fn mobility(&self, player: Player) -> u32;
}

/// FNV-1a, for the default move code.
struct Fnv(u64);

impl std::hash::Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// A game: its registry entry, its start position and its position-string parser.
pub trait Game: Send + Sync + 'static {
    type Pos: Position;

    fn info(&self) -> &'static GameInfo;

    /// The start position for these settings.
    fn start(&self, settings: &Settings) -> Result<Self::Pos, SettingError>;

    /// Reads a position string; the error names the field and what was expected.
    fn parse_position(&self, text: &str) -> Result<Self::Pos, PositionError>;

    /// Reads a position string of a game played with `settings` (a game record's `FEN` with
    /// its setting tags). A setting the string cannot show is taken from `settings` (Jeu de
    /// Reines' region: `neutral` and `animist` play alike); a setting the string contradicts
    /// is an error. The default checks the settings and reads the string.
    fn parse_position_with(
        &self,
        settings: &Settings,
        text: &str,
    ) -> Result<Self::Pos, PositionError> {
        settings
            .validate(self.info())
            .map_err(|e| PositionError::new("settings", e.to_string()))?;
        self.parse_position(text)
    }

    /// Adjusts a position string set up by hand ([`crate::edit`]) before it is read: `fields`
    /// is the string split at spaces, its placement and side to move already the new ones. A
    /// game whose other fields name cells (Jeu de Reines' unmoved Workers, Ackenhead's en
    /// passant squares) drops what no longer holds. The default changes nothing.
    fn after_edit(&self, _fields: &mut [String]) {}
}

/// Perft with make/unmake and bulk counting at the last ply.
pub fn perft<P: Position>(pos: &mut P, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves(),
        _ => {
            let moves = pos.moves();
            let mut nodes = 0;
            for &mv in moves.iter() {
                let undo = pos.make_move(mv);
                nodes += perft(pos, depth - 1);
                pos.unmake_move(mv, undo);
            }
            nodes
        }
    }
}

/// Perft that gives up, returning `None`, once `stop` is set: checked at every node three or
/// more plies above the leaves, so it answers within a fraction of a second at any depth.
pub fn perft_until<P: Position>(
    pos: &mut P,
    depth: u32,
    stop: &std::sync::atomic::AtomicBool,
) -> Option<u64> {
    if depth < 3 {
        return Some(perft(pos, depth));
    }
    if stop.load(std::sync::atomic::Ordering::Relaxed) {
        return None;
    }
    let moves = pos.moves();
    let mut nodes = 0;
    for &mv in moves.iter() {
        let undo = pos.make_move(mv);
        let below = perft_until(pos, depth - 1, stop);
        pos.unmake_move(mv, undo);
        nodes += below?;
    }
    Some(nodes)
}

/// Perft that makes every move down to the leaves (no counting at the last ply) and calls
/// `visit` on every node it reaches, leaves included: for measuring what a search pays per node
/// (a draw check, an evaluation) against the bare walk.
pub fn perft_visiting<P: Position>(pos: &mut P, depth: u32, visit: &mut impl FnMut(&P)) -> u64 {
    visit(pos);
    if depth == 0 {
        return 1;
    }
    let moves = pos.moves();
    let mut nodes = 0;
    for &mv in moves.iter() {
        let undo = pos.make_move(mv);
        nodes += perft_visiting(pos, depth - 1, visit);
        pos.unmake_move(mv, undo);
    }
    nodes
}

/// Perft split by first move: each legal move's text and its subtree's leaf count.
pub fn divide<P: Position>(pos: &mut P, depth: u32) -> Vec<(String, u64)> {
    let moves = pos.moves();
    let mut out = Vec::with_capacity(moves.len());
    for &mv in moves.iter() {
        let text = pos.move_text(mv);
        let undo = pos.make_move(mv);
        let n = perft(pos, depth.saturating_sub(1));
        pos.unmake_move(mv, undo);
        out.push((text, n));
    }
    out
}
