"""Serve a Python function over the referee's own dataclasses as a Kafana bot (the shipped bots use it).

>>> # A complete bot (see random_bot.py):
>>> # from bots.python.kit import serve
>>> # serve(lambda request: 0, name="first", games=["tapa"])

The function gets an :class:`referee.wire.ActRequest` (the seat's view and the legal actions, as the engines'
dataclasses, so that a bot can use the referee's engines for its search) and returns the id of one legal action,
or an :class:`referee.wire.ActResponse` to add a comment. The serving is :mod:`kafana_kit`'s; a bot that needs
nothing of the referee uses that package alone (kit/README.md).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import grpc
import kafana_kit

from referee import wire

Decide = Callable[[wire.ActRequest], "int | wire.ActResponse"]
OnEvent = Callable[["wire.GameOver | wire.MatchOver"], None]


def _converted(decide: Decide, on_event: OnEvent | None) -> tuple[kafana_kit.Decide, kafana_kit.OnEvent | None]:
    def act(message: Any) -> Any:
        answer = decide(wire.act_request_from_proto(message))
        return wire.act_response_to_proto(answer if isinstance(answer, wire.ActResponse) else wire.ActResponse(int(answer)))

    if on_event is None:
        return act, None
    return act, lambda message: on_event(wire.notification_from_proto(message))


def make_server(
    decide: Decide,
    *,
    name: str,
    games: Sequence[str],
    version: str = "1.0",
    author: str = "",
    on_event: OnEvent | None = None,
    address: str | None = None,
    action_detail: bool = True,
    session: bool = True,
) -> grpc.Server:
    """A started gRPC server serving ``decide`` (see :func:`kafana_kit.make_server` for the arguments)."""
    act, told = _converted(decide, on_event)
    return kafana_kit.make_server(act, name=name, games=games, version=version, author=author, on_event=told,
                                  address=address, action_detail=action_detail, session=session)


def serve(
    decide: Decide,
    *,
    name: str,
    games: Sequence[str],
    version: str = "1.0",
    author: str = "",
    on_event: OnEvent | None = None,
    action_detail: bool = True,
    session: bool = True,
) -> None:
    """Serve ``decide`` as a bot until the process is stopped (``action_detail`` and ``session``: see
    :func:`make_server`)."""
    act, told = _converted(decide, on_event)
    kafana_kit.serve(act, name=name, games=games, version=version, author=author, on_event=told,
                     action_detail=action_detail, session=session)
