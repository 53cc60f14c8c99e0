"""The club's web side of people's games (:mod:`ladder.people`): a challenge asked from a bot's page, and the
seat's page, whose messages and moves are passed on to the referee that plays the game (its Unix socket,
:func:`ladder.challenges.seat_socket`), which alone checks the seat's token and knows the game.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import anyio
import httpx
from sqlite_utils import Database
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from ..challenges import seat_socket
from ..people import ChallengeRefused, by_token, challenge
from ..registry import current_versions
from .club import Club
from .paths import STATIC

START_WAIT = 20.0
"""Seconds a page's request waits for its game's referee to start serving."""
START_POLL = 0.2
"""Seconds between two looks for it meanwhile."""


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def challenge_routes(club: Club) -> list[Route]:
    """The routes of people's games on a club: ``POST /api/challenges``, ``GET /api/bots/NAME/challenge`` (what
    the bot's page offers) and the seat's page, ``/play/TOKEN`` with its ``events`` and ``move``."""

    async def ask(request: Request) -> JSONResponse:
        author = await club.identify(request, writing=True)
        if author is None and not club.visitors_play:
            return _error(401, "playing a bot needs a sign-in (this club does not seat visitors)")
        try:
            body = await request.json()
            arena, bot = body["arena"], body["bot"]
            if not isinstance(arena, str) or not isinstance(bot, str):
                raise TypeError
        except (ValueError, KeyError, TypeError):
            return _error(400, 'a challenge is JSON {"bot": NAME, "arena": ARENA}')
        address = request.client.host if request.client else ""
        try:
            game_id, token = await club.in_thread(challenge, arena, bot, author, address)
        except ChallengeRefused as exc:
            return _error(409, str(exc))
        return JSONResponse({"game": game_id, "url": f"/play/{token}"})

    async def offer(request: Request) -> JSONResponse:
        name = request.path_params["name"]

        def arenas(db: Database) -> list[str]:
            rows = db.query("select id, seats from arenas where seats > 1 order by id")
            return [row["id"] for row in rows if any(v["bot"] == name for v in current_versions(db, row["id"]))]

        author = await club.identify(request)
        return JSONResponse({"arenas": await club.in_thread(arenas), "signed_in": author is not None,
                             "visitors": club.visitors_play})

    async def live(request: Request) -> int | None:
        """The id of the game whose seat the request's token is, while it waits or is played."""
        row = await club.in_thread(by_token, request.path_params["token"])
        return None if row is None else int(row["id"])

    def unknown() -> JSONResponse:
        return _error(404, "no such seat: the address is wrong, or its game is over")

    async def referee(request: Request) -> httpx.AsyncClient | JSONResponse:
        """A client of the referee of the game whose seat the request's token is, once it serves; else the answer
        that says why not (no such seat, or a referee that does not serve within :data:`START_WAIT`)."""
        game_id = await live(request)
        if game_id is None:
            return unknown()
        path = seat_socket(club.db_path, game_id)
        with anyio.move_on_after(START_WAIT):
            while not path.exists():
                await anyio.sleep(START_POLL)
            return httpx.AsyncClient(transport=httpx.AsyncHTTPTransport(uds=str(path)), base_url="http://seat",
                                     timeout=httpx.Timeout(10.0, read=None))
        return _error(503, "the game is starting: try again in a moment")

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "play.html") if await live(request) is not None else unknown()

    async def events(request: Request) -> Response:
        client = await referee(request)
        if isinstance(client, JSONResponse):
            return client
        headers = {"last-event-id": request.headers["last-event-id"]} if "last-event-id" in request.headers else {}
        try:
            upstream = await client.send(client.build_request("GET", request.url.path, headers=headers), stream=True)
        except httpx.TransportError:
            await client.aclose()
            return _error(503, "the game's referee is not answering: try again in a moment")

        async def passed_on() -> AsyncIterator[bytes]:
            try:
                async for chunk in upstream.aiter_raw():
                    yield chunk
            except httpx.TransportError:
                return  # the referee ended: the page has had its last message
            finally:
                await upstream.aclose()
                await client.aclose()

        return StreamingResponse(passed_on(), status_code=upstream.status_code,
                                 media_type=upstream.headers.get("content-type", "text/event-stream"),
                                 headers={"cache-control": "no-store"})

    async def move(request: Request) -> Response:
        client = await referee(request)
        if isinstance(client, JSONResponse):
            return client
        async with client:
            try:
                answer = await client.post(request.url.path, content=await request.body())
            except httpx.TransportError:
                return _error(503, "the game's referee is not answering: try again in a moment")
        return Response(answer.content, status_code=answer.status_code, media_type="application/json")

    return [
        Route("/api/challenges", ask, methods=["POST"]),
        Route("/api/bots/{name}/challenge", offer),
        Route("/play/{token}", page),
        Route("/play/{token}/events", events),
        Route("/play/{token}/move", move, methods=["POST"]),
    ]
