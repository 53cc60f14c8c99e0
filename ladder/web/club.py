"""The club ladder's side of the web: authors sign in with their token, upload bots, retire them and read their
own bots' logs. Every write goes through the same library functions as the command line.

Authentication is a bearer token (``Authorization: Bearer kf_…``, for scripts and ``ladder submit --server``) or
a sign-in session: a random id in an HttpOnly, SameSite=Strict cookie (``Secure`` behind TLS), stored hashed, with
a CSRF token that every write made with the cookie must send back in the ``X-CSRF-Token`` header (a custom header,
which another site's page cannot send). Signing in takes JSON only, and from this site's own pages when the browser
says where the request comes from (``Origin``): another site's form cannot sign a visitor in to its own account.
Tokens are hashed in a worker thread, one at a time (scrypt is meant to be slow), and wrong ones are throttled
(:mod:`.throttle`).
"""

from __future__ import annotations

import hmac
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import anyio
from sqlite_utils import Database
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from ..authors import Author, authenticate, close_session, open_session, session_author
from ..registry import retire
from ..store import connect
from ..uploads import CHECK_POLL, LimitReached, UploadLimits, outcome, receive
from .throttle import Throttle

COOKIE = "kafana_session"
CHECK_WAIT = 120.0
"""Seconds an upload's answer waits beyond its check's limit (for the uploads checked before it)."""
T = TypeVar("T")


class Refused(PermissionError):
    """A request refused before its work: the status, the one-line reason and, when throttled, the seconds to wait."""

    def __init__(self, status: int, message: str, retry_after: int = 0) -> None:
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after

    def response(self) -> JSONResponse:
        """The answer that says so."""
        headers = {"Retry-After": str(self.retry_after)} if self.retry_after else None
        return JSONResponse({"error": str(self)}, status_code=self.status, headers=headers)


@dataclass
class Club:
    """What the web needs to take uploads and to know who asks."""

    db_path: Path
    limits: UploadLimits
    behind_tls: bool = False
    """Served to browsers over HTTPS (by a proxy in front): the session cookie is ``Secure``."""
    visitors_play: bool = False
    """Visitors who are not signed in may play the bots too (:mod:`ladder.people`)."""
    throttle: Throttle = field(default_factory=Throttle)
    _hashing: anyio.CapacityLimiter | None = None

    async def in_thread(self, work: Callable[..., T], *args: Any) -> T:
        """``work(db, *args)`` in a worker thread on a connection of its own."""

        def run() -> T:
            db = connect(self.db_path)
            try:
                return work(db, *args)
            finally:
                db.close()

        return await anyio.to_thread.run_sync(run)

    async def token_author(self, request: Request, token: str) -> Author | None:
        """The author whose token ``token`` is, or None (the failure counted). Tokens are checked one at a time,
        and the throttle is asked when a check's turn comes, so that checks waiting together cannot pass it.

        Raises:
            Refused: too many wrong tokens from this address or for this author lately (429).
        """
        keys = self.throttle.keys(request.client.host if request.client else "", token)
        if self._hashing is None:
            self._hashing = anyio.CapacityLimiter(1)
        async with self._hashing:
            if wait := self.throttle.wait(keys):
                raise Refused(429, f"too many wrong tokens: try again in {wait} s", wait)
            author = await self.in_thread(authenticate, token)
            if author is None:
                self.throttle.failed(keys)
        return author

    async def identify(self, request: Request, writing: bool = False) -> Author | None:
        """The author making ``request`` (by token or by session), or None.

        Raises:
            Refused: a session writes without its CSRF token (403), or wrong tokens are throttled (429).
        """
        header = request.headers.get("authorization", "")
        if header.lower().startswith("bearer "):
            return await self.token_author(request, header[7:].strip())
        session = request.cookies.get(COOKIE)
        if not session:
            return None
        found = await self.in_thread(session_author, session)
        if found is None:
            return None
        author, csrf = found
        if writing and not hmac.compare_digest(request.headers.get("x-csrf-token", ""), csrf):
            raise Refused(403, "a signed-in write must send its X-CSRF-Token")
        return author


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def _nobody(request: Request, doing: str) -> JSONResponse:
    """The answer to a write by nobody: a token that is not (or no longer) valid, or no token at all."""
    if request.headers.get("authorization", "").lower().startswith("bearer "):
        return _error(401, "unknown, revoked or banned token")
    return _error(401, f"{doing} needs your token (Authorization: Bearer kf_…) or a sign-in")


def _check_signin_origin(request: Request) -> None:
    """Refuse a sign-in that is not JSON, or that a browser says comes from another site.

    Raises:
        Refused: which of the two (415 or 403).
    """
    if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
        raise Refused(415, 'sign in with JSON: {"token": "kf_…"} as application/json')
    origin = request.headers.get("origin")
    if origin is not None and origin != f"{request.url.scheme}://{request.url.netloc}":
        raise Refused(403, f"a sign-in from another site ({origin}) is refused")


def club_routes(club: Club) -> list[Route]:
    """The routes of the club's API."""

    async def signin(request: Request) -> JSONResponse:
        _check_signin_origin(request)
        try:
            token = str((await request.json()).get("token", ""))
        except (ValueError, AttributeError):
            return _error(400, "send {\"token\": \"kf_…\"} as JSON")
        author = await club.token_author(request, token)
        if author is None:
            return _error(401, "unknown or revoked token")
        session, csrf = await club.in_thread(open_session, author)
        response = JSONResponse({"author": author.name, "csrf": csrf})
        response.set_cookie(COOKIE, session, httponly=True, samesite="strict", path="/", secure=club.behind_tls)
        return response

    async def signout(request: Request) -> JSONResponse:
        if session := request.cookies.get(COOKIE):
            await club.in_thread(close_session, session)
        response = JSONResponse({"signed_out": True})
        response.delete_cookie(COOKIE, path="/", secure=club.behind_tls, httponly=True, samesite="strict")
        return response

    async def me(request: Request) -> JSONResponse:
        author = await club.identify(request)
        if author is None:
            return _error(401, "sign in with your token first")
        session = request.cookies.get(COOKIE) if "authorization" not in request.headers else None

        def read(db: Database) -> dict[str, Any]:
            found = session_author(db, session) if session else None
            return {"author": author.name, "csrf": found[1] if found else None, **_own(db, author)}

        return JSONResponse(await club.in_thread(read))

    async def uploads(request: Request) -> JSONResponse:
        author = await club.identify(request, writing=True)
        if author is None:
            return _nobody(request, "uploading")
        data = bytearray()
        async for chunk in request.stream():
            data += chunk
            if len(data) > club.limits.archive.archive_bytes:
                return _error(413, f"limit: an archive may be {club.limits.archive.archive_bytes} bytes at most")
        try:
            upload_id = await club.in_thread(receive, club.db_path, author, bytes(data), club.limits)
        except LimitReached as exc:
            return _error(429, str(exc))
        with anyio.move_on_after(club.limits.check_seconds + CHECK_WAIT):
            while (answer := await club.in_thread(outcome, upload_id)) is None:
                await anyio.sleep(CHECK_POLL)
            return JSONResponse(answer, status_code=200 if answer["accepted"] else 422)
        return _error(504, "the check of your upload is taking long: its report will be on your page (/me)")

    async def retire_bot(request: Request) -> JSONResponse:
        author = await club.identify(request, writing=True)
        if author is None:
            return _nobody(request, "retiring")
        name = request.path_params["name"]

        def own_retire(db: Database) -> bool:
            row = next(db.table("bots").rows_where("name = ?", [name]), None)
            return row is not None and row["author_id"] == author.id and retire(db, name)

        if not await club.in_thread(own_retire):
            return _error(403, f"{name!r} is not a bot of yours")
        return JSONResponse({"retired": name})

    return [
        Route("/api/signin", signin, methods=["POST"]),
        Route("/api/signout", signout, methods=["POST"]),
        Route("/api/me", me),
        Route("/api/uploads", uploads, methods=["POST"]),
        Route("/api/bots/{name}/retire", retire_bot, methods=["POST"]),
    ]


def _own(db: Database, author: Author) -> dict[str, Any]:
    """An author's bots (with versions) and uploads (with their status, check reports and the last lines of their
    builds), newest first."""
    bots = []
    for bot in db.query("select * from bots where author_id = ? order by name", [author.id]):
        versions = list(db.query(
            "select number, version, language, games, created_at from versions where bot_id = ? order by number desc",
            [bot["id"]],
        ))
        bots.append({"name": bot["name"], "retired": bool(bot["retired"]), "versions": versions})
    uploads = list(db.query(
        "select id, received_at, bytes, status, accepted, report, progress from uploads where author_id = ? "
        "order by id desc limit 50",
        [author.id],
    ))
    return {"bots": bots, "uploads": uploads}
