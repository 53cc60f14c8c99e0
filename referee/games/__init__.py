"""Game engines: pure state machines, one module per game, reached through a read-only registry. The Tabla family
is in ``tabla_family``, the card games in ``cards``; ``engine`` says which core runs; ``registry`` holds each
game's registration.

>>> game = make_game("plakoto")
>>> game.id, game.num_seats
('tapa', 2)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from . import registry
from ._core import (
    CHANCE,
    FAULT,
    LIMIT,
    TERMINAL,
    Game,
    GameOption,
    IllegalActionError,
    InvalidActionError,
    InvalidOptionError,
    Outcome,
    State,
    decision_limit_option,
    draw_chance,
    resolve_options,
)
from .cards._durak_view import NO_CARD, DurakSeat, DurakView
from .cards._gapa_view import GapaHolding, GapaView
from .cards._gaps_view import GAP, GapsView
from .cards.durak import Durak, DurakAction, DurakChance, DurakTermination
from .cards.durak_session import DurakGame
from .cards.gapa import Gapa, GapaAction, GapaChance, GapaTermination
from .cards.gaps import Gaps, GapsChance, GapsMove, GapsTermination
from .tabla_family._dice import OpeningThrow, Roll
from .tabla_family._family import FamilyTermination
from .tabla_family._plays import Play, Step
from .tabla_family._views import PIN_MINE, PIN_NONE, PIN_THEIRS, BackgammonView, MatchScore
from .tabla_family.gjul_bara import GjulBara
from .tabla_family.tabla import Tabla
from .tabla_family.tabla_match import MatchTermination, TablaMatch
from .tabla_family.tapa import Tapa

__all__ = [
    "CHANCE",
    "FAULT",
    "LIMIT",
    "TERMINAL",
    "PIN_MINE",
    "PIN_NONE",
    "PIN_THEIRS",
    "BackgammonView",
    "Durak",
    "DurakAction",
    "DurakGame",
    "DurakChance",
    "DurakSeat",
    "DurakTermination",
    "DurakView",
    "NO_CARD",
    "GAP",
    "Gapa",
    "GapaAction",
    "GapaChance",
    "GapaHolding",
    "GapaTermination",
    "GapaView",
    "Gaps",
    "GapsChance",
    "GapsMove",
    "GapsTermination",
    "GapsView",
    "FamilyTermination",
    "Game",
    "GameOption",
    "IllegalActionError",
    "InvalidActionError",
    "InvalidOptionError",
    "MatchScore",
    "MatchTermination",
    "OpeningThrow",
    "Outcome",
    "Play",
    "Roll",
    "State",
    "Step",
    "GjulBara",
    "Tabla",
    "TablaMatch",
    "Tapa",
    "UnknownGameError",
    "GAMES",
    "decision_limit_option",
    "draw_chance",
    "make_game",
    "resolve_options",
]

class _Games(Mapping[str, type[Game]]):
    """Game id → game class, for every registered game (read-only; read from :mod:`.registry` when first used)."""

    def __getitem__(self, game_id: str) -> type[Game]:
        if registry.resolve(game_id) != game_id:  # an alias or no game: a key is a game id
            raise KeyError(game_id)
        return registry.registration_of(game_id).games[game_id]

    def __iter__(self) -> Iterator[str]:
        return iter(registry.game_classes())

    def __len__(self) -> int:
        return len(registry.game_classes())


GAMES: Mapping[str, type[Game]] = _Games()
"""Game id → game class, for every registered game. Read-only."""


class UnknownGameError(ValueError):
    """No game has this id or alias."""


def make_game(game_id: str, options: Mapping[str, str] | None = None, engine: str | None = None) -> Game:
    """The game ``game_id`` (or an alias) with ``options`` resolved against its defaults, run by ``engine``
    (``native`` or ``python``, :meth:`Game.on`; default: the one :mod:`.engine` chose).

    Raises:
        UnknownGameError: no game has this id or alias.
        InvalidOptionError: an unknown option, or a value it does not take.
        ValueError: an unknown engine, or ``native`` without the core.
    """
    name = registry.resolve(game_id)
    if name is None:
        raise UnknownGameError(f"unknown game {game_id!r} (known: {', '.join(sorted(GAMES))})")
    game = GAMES[name](options)
    return game if engine is None else game.on(engine)
