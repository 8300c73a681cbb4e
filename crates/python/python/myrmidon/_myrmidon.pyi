from typing import List, Optional, Tuple, Union

import numpy as np
import numpy.typing as npt

class MyrmidonError(ValueError):
    """A request the rules refuse: the base of every error of this package."""

class UnknownGameError(MyrmidonError):
    """A game id that is not in the registry (``games()`` lists them)."""

class PositionError(MyrmidonError):
    """A position string that cannot be read, or that the rules do not allow."""

class MoveError(MyrmidonError):
    """Text that is not a legal move of the position."""

class RecordError(MyrmidonError):
    """A game record that cannot be read or replayed; the message names the line."""

def read_records(text: str) -> List[Tuple[List[Tuple[str, str]], "Game"]]:
    """The games of a record file's text, each replayed: (tags as written, Game)."""

class SettingError(MyrmidonError):
    """A setting the game does not have, or a value it does not take."""

def games() -> List[str]:
    """The ids of the games, in the registry's order."""

def perft(id: str, depth: int, position: Optional[str] = None) -> int:
    """Perft of a game's start position (default settings) or of a position string."""

def settings(id: str) -> List[Tuple[str, List[str]]]:
    """The settings a game takes: each one's name and the values it accepts, the default first."""

def action_space(id: str) -> int:
    """The number of actions of a game: every action id is below it (docs/python.md)."""

def observation_shape(id: str, **settings: str) -> Tuple[int, int, int]:
    """The shape of a game's observations: (planes, height, width)."""

def observation_planes(id: str, **settings: str) -> List[str]:
    """The names of a game's observation planes, in order."""

class Outcome:
    """How a game ended."""

    @property
    def winner(self) -> Optional[int]:
        """The seat of the winner (0 for the first player), or None for a draw."""
    @property
    def reason(self) -> str:
        """Why the game ended (``checkmate``, ``queen-captured``, ``repetition``, ...)."""
    @property
    def is_draw(self) -> bool: ...

class Game:
    """A game in progress: a position, the moves that led to it, and its end."""

    def __init__(self, id: str, position: Optional[str] = None, **settings: str) -> None:
        """A new game of ``id`` at its start (with settings such as ``region="cultist"``) or
        at the position of a position string."""
    @property
    def id(self) -> str: ...
    @property
    def position(self) -> str:
        """The position string of the current position."""
    @property
    def start_position(self) -> str:
        """The position string of the position the game began at."""
    @property
    def to_move(self) -> int:
        """The seat of the player to move (0 for the first player)."""
    @property
    def players(self) -> List[str]:
        """The players' names in turn order."""
    @property
    def settings(self) -> List[Tuple[str, str]]:
        """The game's settings, as (name, value) pairs."""
    @property
    def moves(self) -> List[str]:
        """The moves played since the start position, as move text."""
    @property
    def is_over(self) -> bool: ...
    def legal_moves(self) -> List[str]:
        """The legal moves, as move text (empty once the game is over)."""
    def play(self, move: str) -> None:
        """Plays a move given as text; raises MoveError if it is not legal here."""
    def legal_actions(self) -> List[int]:
        """The action ids of the legal moves, in the order of ``legal_moves()``."""
    def action_mask(self) -> npt.NDArray[np.int8]:
        """int8 over every action of the game: 1 for the legal ones."""
    def move_of(self, action: int) -> str:
        """The move text of a legal action; MoveError for any other number."""
    def action_of(self, move: str) -> int:
        """The action of a legal move given as text; MoveError if it is not legal."""
    def play_action(self, action: int) -> str:
        """Plays the move of a legal action and returns its text."""
    def observation(self, observer: Optional[int] = None) -> npt.NDArray[np.float32]:
        """The position as float32 planes (planes, height, width) seen by seat ``observer``
        (the player to move by default)."""
    def facts(self) -> List[Tuple[str, Optional[int], Union[bool, int, List[int], Optional[str], List[str]]]]:
        """What the rules keep besides the board: (name, seat or None, value); cells by name."""
    def record(
        self,
        event: Optional[str] = None,
        site: Optional[str] = None,
        date: Optional[str] = None,
        players: Optional[List[str]] = None,
    ) -> str:
        """The game as a record (docs/records.md): tags, settings, start, moves and result."""
    def undo(self) -> bool:
        """Takes back the last move; False if there is none."""
    def outcome(self) -> Optional[Outcome]:
        """How the game ended, or None while it goes on."""
    def perft(self, depth: int) -> int:
        """Leaves of the legal-move tree ``depth`` plies deep (other threads run meanwhile)."""
    def copy(self) -> "Game": ...
    def __copy__(self) -> "Game": ...
    def __deepcopy__(self, memo: object) -> "Game": ...

class Line:
    """One line of an analysis."""

    @property
    def score(self) -> Optional[int]:
        """Centipawns for the player to move, or None for a forced win or loss."""
    @property
    def mate(self) -> Optional[int]:
        """A forced win in this many of the mover's own moves (negative: a loss), or None."""
    @property
    def depth(self) -> int: ...
    @property
    def seldepth(self) -> int: ...
    @property
    def nodes(self) -> int: ...
    @property
    def pv(self) -> List[str]:
        """The principal variation, in move text."""

class Engine:
    """A computer player of one game; it keeps its transposition table between searches."""

    def __init__(self, id: str, level: int = 8, hash_mb: int = 16, threads: int = 1) -> None:
        """A player of ``id`` at ``level`` (1, a beginner beats it, to 8, full strength)."""
    @property
    def id(self) -> str: ...
    @property
    def level(self) -> int: ...
    def analyse(
        self,
        game: Game,
        movetime: Optional[int] = None,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
        multipv: int = 1,
    ) -> List[Line]:
        """The best lines (best first) as deep as the limits allow: ``movetime`` in
        milliseconds, ``depth`` in plies, ``nodes``; with none, 6 plies. Runs without the
        global lock: other threads run meanwhile."""
    def best_move(
        self,
        game: Game,
        movetime: Optional[int] = None,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
    ) -> Optional[str]:
        """The move the engine plays (None once the game is over)."""
    def new_game(self) -> None:
        """Forgets what earlier searches learnt."""

class VecGames:
    """Many games of one id stepped together; a game that ends starts again at once."""

    def __init__(
        self, id: str, n: int, max_plies: Optional[int] = None, seed: int = 0, **settings: str
    ) -> None: ...
    def __len__(self) -> int: ...
    @property
    def id(self) -> str: ...
    @property
    def action_space(self) -> int: ...
    @property
    def to_move(self) -> npt.NDArray[np.int64]:
        """Every game's seat to move."""
    def observations(self) -> npt.NDArray[np.float32]:
        """(n, planes, height, width), each game seen by its player to move."""
    def action_masks(self) -> npt.NDArray[np.int8]:
        """(n, actions): 1 for a legal action."""
    def random_actions(self) -> npt.NDArray[np.int64]:
        """One legal action a game, drawn uniformly."""
    def reset(self) -> Tuple[npt.NDArray[np.float32], npt.NDArray[np.int8]]:
        """Starts every game again: (observations, action masks)."""
    def step(
        self, actions: npt.NDArray[np.int64]
    ) -> Tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.int8],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
    ]:
        """Plays one action a game: (observations, action masks, rewards (n, players),
        terminated, truncated). MoveError, and nothing played, if one is illegal."""
    def game(self, i: int) -> Game:
        """A copy of game ``i``."""
