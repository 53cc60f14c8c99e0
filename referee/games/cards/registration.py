"""The card games' registrations: Durak (a deal and a session of deals), Gapa and Gaps, each with its table for the
terminal and the web viewer, its message on the wire and its training encoding."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from typing import Any

from referee.games._core import Game
from referee.games.registry import CheckCase, Clicks, Registration

from ._cards import SUITS, card_text
from ._durak_view import NO_CARD, DurakView
from ._gapa_view import GapaView
from ._gaps_view import GAP, GapsView
from .durak_session import DurakGame
from .gapa import Gapa
from .gaps import Gaps
from .playouts import DurakPlayouts
from .text import render_durak, render_gapa, render_gaps


def _cards(cards: Any) -> Any:
    """Cards (one, or nested tuples of them) as text, ``""`` for no card."""
    if isinstance(cards, int):
        return card_text(cards) if cards != NO_CARD else ""
    return [_cards(c) for c in cards]


def durak_json(view: DurakView) -> dict[str, Any]:
    """A Durak view as JSON-ready data, cards as text."""
    data = dataclasses.asdict(view)
    for key in ("hand", "discard", "shown", "hands", "trump_card"):
        data[key] = _cards(data[key])
    data["table"] = [_cards(pair) for pair in view.table]
    data["trump_suit"] = SUITS[view.trump_suit] if view.trump_suit >= 0 else ""
    for seat in data["seats"]:
        seat["known"] = _cards(seat["known"])
    return data


def gapa_json(view: GapaView) -> dict[str, Any]:
    """A Gapa view as JSON-ready data, cards as text."""
    data = dataclasses.asdict(view)
    for holding in data["players"]:
        for key in ("small_up", "big_known", "big_up", "pending"):
            holding[key] = _cards(holding[key])
    data["foundations"] = _cards(view.foundations)
    data["side"] = [_cards(pile) for pile in view.side]
    data["shifted"] = _cards(view.shifted)
    return data


def gaps_json(view: GapsView) -> dict[str, Any]:
    """A Gaps view as JSON-ready data, cards as text, ``""`` for a gap."""
    return dataclasses.asdict(view) | {"grid": [card_text(c) if c != GAP else "" for c in view.grid]}


_CARD = re.compile(r"[2-9TJQKA][CDHS]")


def card_clicks(notation: str) -> Clicks:
    """A Durak action's parts as a person clicks them: each of its cards, in any order (``take``, ``pass`` and
    ``done`` have none).

    >>> card_clicks("beat 9C with TC")
    [['9C'], ['TC']]
    """
    return [[word] for word in notation.split() if _CARD.fullmatch(word)]


def move_clicks(notation: str) -> Clicks:
    """A Gapa or Gaps move's parts as a person clicks them: the card or the place it leaves, then the place it
    goes to (Gapa's piles ``s0``…, ``f0``…, ``small_up``…; a Gaps gap's ``row,column``).

    >>> move_clicks("6H 2,5>1,4"), move_clicks("pile s2>s5"), move_clicks("end_round")
    ([['6H', '1,4']], [['s2', 's5']], [])
    """
    words = notation.split()
    if len(words) != 2 or ">" not in words[1]:
        return []
    source, target = words[1].split(">")
    return [[words[0] if _CARD.fullmatch(words[0]) else source, target]]


def durak_result(result: Mapping[str, Any], final: DurakView, names: tuple[str, ...]) -> str | None:
    """A finished deal's places and its durak; None for a session of deals (its points say it)."""
    if final.deals != 1 or not final.seats or not all(s.place for s in final.seats):
        return None
    durak = "".join(f", durak {names[n] if n < len(names) else '?'} (seat {n})"
                    for n, seat in enumerate(final.seats) if seat.hand_size)
    places = ":".join(str(seat.place) for seat in final.seats)
    return f"result: places {places}{durak} by {result.get('termination')}"


def _durak_encoding(game: Game) -> Any:
    from referee.envs.durak import DurakEncoding

    return DurakEncoding()


def _gapa_encoding(game: Game) -> Any:
    from referee.envs.gapa import GapaEncoding

    return GapaEncoding()


def _gaps_encoding(game: Game) -> Any:
    from referee.envs.gaps import GapsEncoding

    return GapsEncoding()


REGISTRATIONS = (
    Registration(
        games={"durak": DurakGame},
        views=(DurakView,),
        render=render_durak,
        aliases={"podkidnoy": "durak"},
        view_json=durak_json,
        viewer="durak",
        wire="durak",
        encoding=_durak_encoding,
        result_line=durak_result,
        playouts=DurakPlayouts(),
        arenas={"durak": (("durak-2", {"seats": "2"}), ("durak-4", {"seats": "4"}),
                          ("durak-2v2", {"seats": "4", "teams": "2v2"}))},
        check_cases=(
            CheckCase("a 6-seat throw-in poll", {"seats": "6"}, lambda state, legal: state.view(0).phase == "throw_in"),
            CheckCase("a transfer", {"variant": "perevodnoy", "show_trump_transfer": "true"},
                      lambda state, legal: any(a.notation().startswith("transfer") for a in legal)),
        ),
        judge="bots.python.analysis:judge_durak",
        clicks=card_clicks,
    ),
    Registration(games={"gapa": Gapa}, views=(GapaView,), render=render_gapa, view_json=gapa_json, viewer="gapa",
                 wire="gapa", encoding=_gapa_encoding, clicks=move_clicks),
    Registration(games={"gaps": Gaps}, views=(GapsView,), render=render_gaps, aliases={"montana": "gaps"},
                 view_json=gaps_json, viewer="gaps", wire="gaps", encoding=_gaps_encoding, clicks=move_clicks),
)
"""Durak, Gapa and Gaps, one registration each."""
