"""The ASGI app of ``ladder serve`` (Starlette; served by Hypercorn on trio): the JSON API and the pages.

The pages are one HTML shell and a script (``static/``) that reads the API; nothing is fetched from another host.
Every answer that reads the database is made in a worker thread with its own connection, so that the event loop
(static files, a club's scheduler) never waits for one; public answers are kept for a second (:mod:`.cache`).
Unknown ids answer 404 and malformed parameters 400, as JSON, never with a stack trace.
"""

from __future__ import annotations

import importlib.resources
import logging
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, cast

import anyio
from hypercorn.middleware import ProxyFixMiddleware
from hypercorn.typing import ASGIFramework
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..store import connect
from . import api
from .cache import SECONDS, AnswerCache
from .challenges import challenge_routes
from .club import Club, Refused, club_routes
from .headers import SecurityHeaders
from .paths import STATIC

ANALYSES_WAITING = 4
"""Analyses (a few seconds of CPU each) that may wait for the one being made; past them a request is answered 503."""
CHARTS = Path(str(importlib.resources.files("plotly") / "package_data" / "plotly.min.js"))
"""plotly.js as the plotly package ships it."""
log = logging.getLogger(__name__)


def make_app(
    db_path: str | Path, club: Club | None = None, cache_seconds: float = SECONDS, behind_tls: bool = False
) -> ASGIFramework:
    """The app for the league database at ``db_path`` (which must exist). With a ``club`` it is a club ladder's:
    authors sign in, upload and read their own bots' logs; without one, a local league's, whose logs are all its
    operator's. Public answers are kept ``cache_seconds`` (:mod:`.cache`; a change shows that much later at most:
    a seed is revealed a moment late, never early, since what a page may show only grows). ``behind_tls``: a
    TLS-terminating proxy forwards to it, and each client's address and scheme are the last hop of its
    ``X-Forwarded-For`` and ``X-Forwarded-Proto`` (hypercorn's ``ProxyFixMiddleware``)."""
    db_path = Path(db_path)
    if not db_path.exists():
        raise FileNotFoundError(f"no league database at {db_path}")
    answers = AnswerCache(cache_seconds)

    analysing = anyio.CapacityLimiter(1)
    """One analysis at a time, in a thread of its own: the other pages never wait for one."""
    admitted = [0]
    """The analyses being made or waiting: counted as each request comes, with no await between the count and its
    check (the limiter's own count of those waiting grows only once a request has yielded to the loop)."""

    def endpoint(
        handler: Callable[..., Any], *path_params: str, query: tuple[str, ...] = (),
        limiter: anyio.CapacityLimiter | None = None,
    ) -> Callable:
        def answer(*args: str, **kwargs: str) -> Any:
            db = connect(db_path)
            try:
                return handler(db, *args, **kwargs)
            finally:
                db.close()

        async def run(request: Request) -> Response:
            args = [request.path_params[name] for name in path_params]
            kwargs = {name: request.query_params[name] for name in query if name in request.query_params}

            async def make() -> bytes:
                if limiter is None:
                    return bytes(JSONResponse(await run_in_threadpool(answer, *args, **kwargs)).body)
                if admitted[0] > ANALYSES_WAITING:
                    raise HTTPException(503, "the server is busy analysing other matches: try again in a minute")
                admitted[0] += 1
                try:
                    made = await anyio.to_thread.run_sync(partial(answer, *args, **kwargs), limiter=limiter)
                finally:
                    admitted[0] -= 1
                return bytes(JSONResponse(made).body)

            key = (handler.__name__, *args, *sorted(kwargs.items()))
            return Response(await answers.get(key, make), media_type="application/json")

        return run

    async def page(request: Request) -> FileResponse:
        return FileResponse(STATIC / "index.html")

    async def charts(request: Request) -> FileResponse:
        return FileResponse(CHARTS, media_type="text/javascript")

    async def not_found(request: Request, exc: Exception) -> JSONResponse:
        return JSONResponse({"error": str(exc) or "not found"}, status_code=404)

    async def bad_request(request: Request, exc: Exception) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=400)

    async def forbidden(request: Request, exc: Exception) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=403)

    async def http_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, HTTPException)
        return JSONResponse({"error": exc.detail}, status_code=exc.status_code)

    async def server_error(request: Request, exc: Exception) -> JSONResponse:
        log.exception("error answering %s", request.url.path)
        return JSONResponse({"error": "internal error (see the server log)"}, status_code=500)

    def read_logs(match: str, readable: Callable[[int | None], bool]) -> dict[str, Any]:
        db = connect(db_path)
        try:
            return api.logs(db, match, readable)
        finally:
            db.close()

    async def logs(request: Request) -> JSONResponse:
        viewer = await club.identify(request) if club is not None else None
        readable = (lambda owner: True) if club is None else (lambda owner: viewer is not None and owner == viewer.id)
        return JSONResponse(await run_in_threadpool(read_logs, request.path_params["match"], readable))

    async def refused(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, Refused)
        return exc.response()

    routes = [
        *(club_routes(club) + challenge_routes(club) if club is not None else []),
        Route("/api/matches/{match}/logs", logs),
        Route("/api/arenas", endpoint(api.arenas)),
        Route("/api/columns", endpoint(api.columns)),
        Route("/api/filters", endpoint(api.filters)),
        Route("/api/arenas/{arena}/standings", endpoint(api.arena_standings, "arena")),
        Route("/api/arenas/{arena}/crosstable", endpoint(api.arena_crosstable, "arena")),
        Route("/api/arenas/{arena}/history", endpoint(api.arena_history, "arena")),
        Route("/api/bots/{name}/history", endpoint(api.bot_history, "name")),
        Route("/api/matches", endpoint(api.matches, query=("arena", "bot", "fault", "limit"))),
        Route("/api/matches/{match}", endpoint(api.match, "match")),
        Route("/api/matches/{match}/replay", endpoint(api.replay, "match", query=("seat",))),
        Route("/api/matches/{match}/analysis", endpoint(api.analysis, "match", query=("seat",), limiter=analysing)),
        Route("/api/bots/{name}", endpoint(api.bot, "name")),
        Route("/api/people/{game}", endpoint(api.person_game, "game")),
        Route("/api/people/{game}/replay", endpoint(api.person_replay, "game", query=("seat",))),
        Route("/api/tournaments", endpoint(api.tournaments, query=("arena",))),
        Route("/api/tournaments/{name}", endpoint(api.tournament, "name")),
        Route("/", page),
        Route("/arenas/{arena}", page),
        Route("/bots/{name}", page),
        Route("/matches", page),
        Route("/tournaments", page),
        Route("/tournaments/{name}", page),
        Route("/matches/{match}", page),
        Route("/people/{game}", page),
        Route("/signin", page),
        Route("/me", page),
        Route("/static/vendor/plotly.min.js", charts),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    handlers = {
        api.NotFound: not_found,
        api.BadRequest: bad_request,
        api.Forbidden: forbidden,
        HTTPException: http_error,
        Refused: refused,
        Exception: server_error,
    }
    app = Starlette(routes=routes, exception_handlers=handlers, middleware=[Middleware(SecurityHeaders)])
    # Starlette's app is the ASGI 3 callable hypercorn serves; the two libraries spell its type apart.
    served = cast(ASGIFramework, app)
    return ProxyFixMiddleware(served, mode="legacy", trusted_hops=1) if behind_tls else served
