"""Serve a Python function as a Kafana bot in a few lines.

>>> # A complete bot (see random_bot.py):
>>> # from bots.python.kit import serve
>>> # serve(lambda request: 0, name="first", games=["tapa"])

The function gets an :class:`referee.wire.ActRequest` (the seat's view and the legal actions) and returns the id
of one legal action, or an :class:`referee.wire.ActResponse` to add a comment. The kit listens on the address the
referee gives in ``KAFANA_BOT_ADDRESS`` and serves until the referee stops it.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Callable, Sequence
from concurrent import futures
from typing import Any

import grpc

from referee import wire
from referee.runtime.lifetime import watch_parent

log = logging.getLogger(__name__)

Decide = Callable[[wire.ActRequest], "int | wire.ActResponse"]
OnEvent = Callable[["wire.GameOver | wire.MatchOver"], None]


class _Servicer:
    def __init__(self, info: wire.BotInfo, decide: Decide, on_event: OnEvent | None) -> None:
        self._info = info
        self._decide = decide
        self._on_event = on_event

    def Hello(self, request: Any, context: grpc.ServicerContext) -> Any:  # noqa: N802 (gRPC method name)
        return wire.bot_info_to_proto(self._info)

    def Act(self, request: Any, context: grpc.ServicerContext) -> Any:  # noqa: N802
        answer = self._decide(wire.act_request_from_proto(request))
        if not isinstance(answer, wire.ActResponse):
            answer = wire.ActResponse(int(answer))
        return wire.act_response_to_proto(answer)

    def Notify(self, request: Any, context: grpc.ServicerContext) -> Any:  # noqa: N802
        if self._on_event is not None:
            self._on_event(wire.notification_from_proto(request))
        return wire.empty_notify_response()


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
) -> grpc.Server:
    """A started gRPC server serving ``decide`` at ``address`` (default: ``$KAFANA_BOT_ADDRESS``). A bot that
    reads only the ids (and notations) of the legal actions passes ``action_detail=False``: its requests then come
    without each action's structured detail, smaller and quicker."""
    address = address or os.environ.get("KAFANA_BOT_ADDRESS")
    if not address:
        raise SystemExit("KAFANA_BOT_ADDRESS is not set: bots are started by the referee (referee play …)")
    watch_parent()  # a referee killed with SIGKILL takes its bots along
    info = wire.BotInfo(
        name=name,
        version=version,
        author=author,
        language="python",
        games=tuple(games),
        without_action_detail=not action_detail,
    )
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=2))
    wire.add_bot_servicer(server, _Servicer(info, decide, on_event))
    if server.add_insecure_port(address) == 0 and not address.startswith("unix:"):
        raise SystemExit(f"cannot listen on {address}")
    server.start()
    return server


def serve(
    decide: Decide,
    *,
    name: str,
    games: Sequence[str],
    version: str = "1.0",
    author: str = "",
    on_event: OnEvent | None = None,
    action_detail: bool = True,
) -> None:
    """Serve ``decide`` as a bot until the process is stopped (``action_detail``: see :func:`make_server`)."""
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING)
    server = make_server(
        decide, name=name, games=games, version=version, author=author, on_event=on_event, action_detail=action_detail
    )
    server.wait_for_termination()
