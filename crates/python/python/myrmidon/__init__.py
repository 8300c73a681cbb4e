"""The rules of myrmidon's games for Python.

Ackenhead chess, Ant Chess for two or three players, Epaminondas and Jeu de Reines: positions,
legal moves, outcomes and perft, computed by the same Rust library as the ``myrmidon`` program.
See docs/python.md.
"""

from ._myrmidon import (
    Game,
    MoveError,
    MyrmidonError,
    Outcome,
    PositionError,
    SettingError,
    UnknownGameError,
    games,
    perft,
    settings,
)

__all__ = [
    "Game",
    "MoveError",
    "MyrmidonError",
    "Outcome",
    "PositionError",
    "SettingError",
    "UnknownGameError",
    "games",
    "perft",
    "settings",
]
