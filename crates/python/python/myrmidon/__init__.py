"""The rules of myrmidon's games for Python.

Ackenhead chess, Ant Chess for two or three players, Epaminondas and Jeu de Reines: positions,
legal moves, outcomes and perft, computed by the same Rust library as the ``myrmidon`` program,
and its engine; moves as integer actions and positions as NumPy planes for learning programs,
many games stepped at once (``VecGames``), and PettingZoo and Gymnasium environments
(``myrmidon.env``). See docs/python.md.
"""

from typing import List, Optional

from ._myrmidon import (
    Engine,
    Game,
    Line,
    MoveError,
    MyrmidonError,
    Outcome,
    PositionError,
    RecordError,
    SettingError,
    UnknownGameError,
    VecGames,
    action_space,
    games,
    observation_planes,
    observation_shape,
    perft,
    read_records,
    settings,
)


def analyse(
    game: Game,
    movetime: Optional[int] = None,
    depth: Optional[int] = None,
    nodes: Optional[int] = None,
    multipv: int = 1,
    level: int = 8,
) -> List[Line]:
    """The engine's best lines for the game's position (a new engine at ``level``; keep an
    ``Engine`` to search several positions with one transposition table)."""
    engine = Engine(game.id, level=level)
    return engine.analyse(game, movetime=movetime, depth=depth, nodes=nodes, multipv=multipv)


def best_move(
    game: Game,
    level: int = 8,
    movetime: Optional[int] = None,
    depth: Optional[int] = None,
    nodes: Optional[int] = None,
) -> Optional[str]:
    """The move the engine at ``level`` plays in the game's position (``None`` once it is
    over)."""
    return Engine(game.id, level=level).best_move(game, movetime=movetime, depth=depth, nodes=nodes)


__all__ = [
    "Engine",
    "Game",
    "Line",
    "analyse",
    "best_move",
    "MoveError",
    "MyrmidonError",
    "Outcome",
    "PositionError",
    "RecordError",
    "SettingError",
    "UnknownGameError",
    "VecGames",
    "action_space",
    "games",
    "observation_planes",
    "observation_shape",
    "perft",
    "read_records",
    "settings",
]
