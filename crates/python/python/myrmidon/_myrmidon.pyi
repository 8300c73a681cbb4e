from typing import List, Optional, Tuple

class MyrmidonError(ValueError):
    """A request the rules refuse: the base of every error of this package."""

class UnknownGameError(MyrmidonError):
    """A game id that is not in the registry (``games()`` lists them)."""

class PositionError(MyrmidonError):
    """A position string that cannot be read, or that the rules do not allow."""

class MoveError(MyrmidonError):
    """Text that is not a legal move of the position."""

class SettingError(MyrmidonError):
    """A setting the game does not have, or a value it does not take."""

def games() -> List[str]:
    """The ids of the games, in the registry's order."""

def perft(id: str, depth: int, position: Optional[str] = None) -> int:
    """Perft of a game's start position (default settings) or of a position string."""

def settings(id: str) -> List[Tuple[str, List[str]]]:
    """The settings a game takes: each one's name and the values it accepts, the default first."""

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
