"""The Tabla family's registration: Tabla, Gjul Bara, Tapa and the Tabla match, their board for the terminal and
the web viewer, their BackgammonView on the wire, their training encoding and their judge (the shipped learned
bots' search) for ``referee analyse``."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

from referee.games._core import Game, State
from referee.games.registry import CheckCase, Registration

from ._views import BackgammonView
from .gjul_bara import GjulBara
from .playouts import FamilyPlayouts
from .tabla import Tabla
from .tabla_match import TablaMatch
from .tapa import Tapa
from .text import render_backgammon, their_numbers


def board_json(view: BackgammonView) -> dict[str, Any]:
    """A board as JSON-ready data: its fields and the other seat's number of each point."""
    return dataclasses.asdict(view) | {"their_numbers": list(their_numbers(view.variant))}


def _on_view(wanted: Callable[[BackgammonView], bool]) -> Callable[[State, Sequence[Any]], bool]:
    return lambda state, legal: wanted(state.view(state.current_player))


_LADDERS = ("gjul-bara", "tabla-match")
"""The games with Gjul Bara's ladder."""

CHECK_CASES = (
    CheckCase("a remainder of the opponent's ladder", {}, _on_view(lambda view: view.remainder), _LADDERS),
    CheckCase("a ladder stage", {}, _on_view(lambda view: bool(view.later_stages) and not view.remainder), _LADDERS),
)
"""Gjul Bara's ladder, where a game has one: a later stage of it, and the opponent's remainder."""


def checker_clicks(notation: str) -> list[list[str | list[str]]]:
    """A play's parts as a person clicks them: each checker's move, its point (``bar``), then the point it goes to
    (``off``) or the die it moves by (``d5``: by the difference of the points; bearing off, by any die from the
    point's number up), in the mover's numbering, which the seat's board shows.

    >>> checker_clicks("bar/21* 13/8 4/off")
    [['bar', ['21', 'd4']], ['13', ['8', 'd5']], ['4', ['off', 'd4', 'd5', 'd6']]]
    """
    steps: list[list[str | list[str]]] = []
    for step in notation.split():
        if "/" not in step:
            continue
        source, target = step.rstrip("*").split("/")
        start = 25 if source == "bar" else int(source)
        dice = range(start, 7) if target == "off" else [start - int(target)]
        steps.append([source, [target, *(f"d{die}" for die in dice)]])
    return steps


def _encoding(game: Game) -> Any:
    from referee.envs.backgammon import BackgammonEncoding

    return BackgammonEncoding()


REGISTRATIONS = (
    Registration(
        games={"tabla": Tabla, "gjul-bara": GjulBara, "tapa": Tapa, "tabla-match": TablaMatch},
        views=(BackgammonView,),
        render=render_backgammon,
        aliases={"plakoto": "tapa", "mahbusa": "tapa", "prava": "tabla", "match": "tabla-match",
                 "gul-bara": "gjul-bara", "gjulbara": "gjul-bara", "gyulbara": "gjul-bara"},
        view_json=board_json,
        viewer="backgammon",
        wire="backgammon",
        encoding=_encoding,
        check_cases=CHECK_CASES,
        playouts=FamilyPlayouts(),
        judge="bots.python.analysis:judge",
        clicks=checker_clicks,
    ),
)
"""The family as one registration (their views are one kind)."""
