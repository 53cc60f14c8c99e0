"""Which encoding a game is trained with: by its id."""

from __future__ import annotations

from collections.abc import Callable

from referee.games import Game

from ._encoding import Encoding
from .backgammon import BackgammonEncoding
from .durak import DurakEncoding
from .gapa import GapaEncoding
from .gaps import GapsEncoding

_BY_GAME: dict[str, Callable[[], Encoding]] = {
    "tabla": BackgammonEncoding,
    "gjul-bara": BackgammonEncoding,
    "tapa": BackgammonEncoding,
    "tabla-match": BackgammonEncoding,
    "durak": DurakEncoding,
    "gapa": GapaEncoding,
    "gaps": GapsEncoding,
}


def encoding_for(game: Game) -> Encoding:
    """The encoding of ``game`` (a game of the registry, with its options).

    Raises:
        KeyError: a game without an encoding.
    """
    return _BY_GAME[game.id]()
