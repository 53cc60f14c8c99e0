"""A person's seat as a web page: the page (``static/play.html``), the seat's messages as server-sent events, and
the moves the page posts back.

Each seat is reached by a token of its own (``/play/TOKEN``, unguessable): whoever has the address plays the seat,
nobody else reaches it. The page is sent only what the seat's :class:`~referee.runtime.human.HumanSeat` says,
which is only what a bot in that seat is sent; the seats' names are public.
"""

from __future__ import annotations

import json
import os
import secrets
import socket
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

import trio
from hypercorn.config import Config
from hypercorn.trio import serve
from hypercorn.typing import ASGIFramework
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from referee.runtime.human import HumanSeat

from .headers import SecurityHeaders
from .paths import STATIC

KEEPALIVE_SECONDS = 15.0
"""An event stream with nothing new says so this often (a comment line), so that no proxy closes it as idle."""


@dataclass
class Table:
    """The seats people play, by token."""

    seats: dict[str, HumanSeat] = field(default_factory=dict)

    def add(self, seat: HumanSeat, token: str | None = None) -> str:
        """Reach ``seat`` by ``token`` (default: a fresh one) and return the token."""
        token = token or secrets.token_urlsafe(18)
        self.seats[token] = seat
        return token


def seat_routes(table: Table) -> list[Route]:
    """The routes of ``table``'s seats: ``/play/TOKEN`` (the page), ``…/events`` (its messages), ``…/move``."""

    def seat_of(request: Request) -> HumanSeat | None:
        return table.seats.get(request.path_params["token"])

    def unknown() -> JSONResponse:
        return JSONResponse({"error": "no such seat: the address is wrong, or its game is over"}, status_code=404)

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "play.html") if seat_of(request) is not None else unknown()

    async def events(request: Request) -> Response:
        seat = seat_of(request)
        if seat is None:
            return unknown()
        try:
            after = int(request.headers.get("last-event-id", "0"))
        except ValueError:
            after = 0

        async def stream() -> AsyncIterator[str]:
            seen = after
            while True:
                messages: list[dict] = []
                with trio.move_on_after(KEEPALIVE_SECONDS):
                    messages = await seat.messages_after(seen)
                if not messages:
                    yield ": still here\n\n"
                    continue
                for message in messages:
                    seen = message["version"]
                    yield f"id: {seen}\ndata: {json.dumps(message)}\n\n"
                    if message["kind"] == "closed":
                        return

        return StreamingResponse(stream(), media_type="text/event-stream", headers={"cache-control": "no-store"})

    async def move(request: Request) -> JSONResponse:
        seat = seat_of(request)
        if seat is None:
            return unknown()
        try:
            body = json.loads(await request.body())
            decision, action = body["decision"], body["action"]
            if type(decision) is not int or type(action) is not int:
                raise TypeError
        except (ValueError, KeyError, TypeError):
            return JSONResponse({"error": 'a move is JSON {"decision": N, "action": ID}'}, status_code=400)
        problem = seat.answer(decision, action)
        if problem is not None:
            return JSONResponse({"error": problem}, status_code=409)
        return JSONResponse({"ok": True})

    return [
        Route("/play/{token}", page),
        Route("/play/{token}/events", events),
        Route("/play/{token}/move", move, methods=["POST"]),
    ]


def seat_app(table: Table) -> ASGIFramework:
    """The web app of ``table``'s seats alone, with the static files its page needs."""
    app = Starlette(routes=[*seat_routes(table), Mount("/static", StaticFiles(directory=STATIC), name="static")],
                    middleware=[Middleware(SecurityHeaders)])
    return cast(ASGIFramework, app)  # the ASGI 3 callable, spelled apart by the two libraries


def unix_listener(path: Path) -> socket.socket:
    """A socket listening at ``path`` (a leftover socket there is replaced), which any local user may connect to:
    what it serves asks for the seat's token.

    Raises:
        OSError: the path cannot be bound.
    """
    path.unlink(missing_ok=True)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        listener.bind(str(path))
        path.chmod(0o666)
        listener.listen()
    except OSError:
        listener.close()
        raise
    return listener


def loopback_listener(port: int = 0) -> socket.socket:
    """A socket listening on 127.0.0.1 (``port`` 0: a free port).

    Raises:
        OSError: the port is taken or not allowed.
    """
    return socket.create_server(("127.0.0.1", port))


async def serve_table(table: Table, listener: socket.socket, *,
                      task_status: trio.TaskStatus[list[str]] = trio.TASK_STATUS_IGNORED) -> None:
    """Serve ``table``'s pages on ``listener`` until cancelled; started once it accepts. The listener stays the
    caller's to close (the server closes a copy of it)."""
    config = Config()
    config.bind = [f"fd://{os.dup(listener.fileno())}"]
    config.accesslog = None
    config.errorlog = None
    await serve(seat_app(table), config, shutdown_trigger=trio.sleep_forever, task_status=task_status)


def addresses(table: Table, listener: socket.socket) -> Sequence[tuple[HumanSeat, str]]:
    """Each seat of ``table`` with its page's address on ``listener``."""
    port = listener.getsockname()[1]
    return [(seat, f"http://127.0.0.1:{port}/play/{token}") for token, seat in table.seats.items()]
