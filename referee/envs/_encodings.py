"""Which encoding a game is trained with: as its registration says."""

from __future__ import annotations

from referee.games import Game
from referee.games.registry import registration_of

from ._encoding import Encoding


def encoding_for(game: Game) -> Encoding:
    """The encoding of ``game`` (a game of the registry, with its options).

    Raises:
        KeyError: a game without an encoding.
    """
    make = registration_of(game.id).encoding
    if make is None:
        raise KeyError(f"{game.id} has no training encoding")
    return make(game)
