"""Serving a decision function as a bot: the ``Bot`` service of ``kafana.v1`` on the referee's address."""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent import futures

import grpc

from .lifeline import watch_parent
from .v1 import bot_pb2 as pb
from .v1 import bot_pb2_grpc as pb_grpc

ADDRESS_ENV = "KAFANA_BOT_ADDRESS"
"""Where the referee tells a bot to listen: ``unix:/path`` or ``127.0.0.1:PORT``."""
MAX_MESSAGE_BYTES = 64 * 1024 * 1024
"""The largest request the referee sends."""

Decide = Callable[[pb.ActRequest], "int | pb.ActResponse"]
"""A decision: the request in, a legal action's id (or a whole ``ActResponse``) out."""
OnEvent = Callable[[pb.Notification], None]
"""Told when a game or match ends."""


class _Servicer(pb_grpc.BotServicer):
    def __init__(self, hello: pb.HelloResponse, decide: Decide, on_event: OnEvent | None) -> None:
        self._hello = hello
        self._decide = decide
        self._on_event = on_event

    def Hello(self, request: pb.HelloRequest, context: grpc.ServicerContext) -> pb.HelloResponse:  # noqa: N802
        return self._hello

    def Act(self, request: pb.ActRequest, context: grpc.ServicerContext) -> pb.ActResponse:  # noqa: N802
        answer = self._decide(request)
        return answer if isinstance(answer, pb.ActResponse) else pb.ActResponse(action_id=int(answer))

    def Notify(self, request: pb.Notification, context: grpc.ServicerContext) -> pb.NotifyResponse:  # noqa: N802
        if self._on_event is not None:
            self._on_event(request)
        return pb.NotifyResponse()

    def Session(  # noqa: N802
        self, requests: Iterator[pb.SessionRequest], context: grpc.ServicerContext
    ) -> Iterator[pb.SessionResponse]:
        for request in requests:
            if request.WhichOneof("message") == "act":
                yield pb.SessionResponse(act=self.Act(request.act, context))
            else:
                yield pb.SessionResponse(notified=self.Notify(request.notify, context))


def make_server(
    decide: Decide,
    *,
    name: str,
    games: Sequence[str],
    version: str = "1.0",
    author: str = "",
    language: str = "python",
    on_event: OnEvent | None = None,
    address: str | None = None,
    action_detail: bool = True,
    session: bool = True,
) -> grpc.Server:
    """A started gRPC server serving ``decide`` at ``address`` (default: ``$KAFANA_BOT_ADDRESS``). A bot that
    reads only the ids (and notations) of the legal actions passes ``action_detail=False``: its requests then come
    without each action's structured detail, smaller and quicker. With ``session`` (the default) the bot serves
    the ``Session`` stream and says so in Hello, and the referee sends every request over it; ``session=False``
    asks for one call per request.

    Raises:
        SystemExit: no address is given, or it cannot be listened on.
    """
    address = address or os.environ.get(ADDRESS_ENV)
    if not address:
        raise SystemExit(f"{ADDRESS_ENV} is not set: bots are started by the referee (referee play …)")
    watch_parent()  # a referee killed with SIGKILL takes its bots along
    hello = pb.HelloResponse(name=name, version=version, author=author, language=language, games=list(games),
                             without_action_detail=not action_detail, session=session)
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=2),
                         options=[("grpc.max_receive_message_length", MAX_MESSAGE_BYTES)])
    pb_grpc.add_BotServicer_to_server(_Servicer(hello, decide, on_event), server)
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
    session: bool = True,
) -> None:
    """Serve ``decide`` as a bot until the process is stopped (the arguments: see :func:`make_server`)."""
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING)
    server = make_server(decide, name=name, games=games, version=version, author=author, on_event=on_event,
                         action_detail=action_detail, session=session)
    server.wait_for_termination()
