"""The club ladder's side of the web: authors sign in with their token, upload bots, retire them and read their
own bots' logs. Every write goes through the same library functions as the command line.

Authentication is a bearer token (``Authorization: Bearer kf_…``, for scripts and ``ladder submit --server``) or
a sign-in session: a random id in an HttpOnly, SameSite=Strict cookie, stored hashed, with a CSRF token that every
write made with the cookie must send back in the ``X-CSRF-Token`` header (a custom header, which another site's
page cannot send).
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlite_utils import Database
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from ..authors import Author, authenticate, close_session, open_session, session_author
from ..executor import Executor
from ..registry import retire
from ..store import connect
from ..uploads import LimitReached, UploadLimits, upload

COOKIE = "kafana_session"


@dataclass
class Club:
    """What the web needs to take uploads."""

    db_path: Path
    executor: Executor
    limits: UploadLimits


class Unauthorized(PermissionError):
    """No valid token or session (or a write without its CSRF token)."""


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def _nobody(request: Request, doing: str) -> JSONResponse:
    """The answer to a write by nobody: a token that is not (or no longer) valid, or no token at all."""
    if request.headers.get("authorization", "").lower().startswith("bearer "):
        return _error(401, "unknown, revoked or banned token")
    return _error(401, f"{doing} needs your token (Authorization: Bearer kf_…) or a sign-in")


def signed_in(request: Request, db: Database, writing: bool = False) -> Author | None:
    """The author making ``request`` (by token or by session), or None.

    Raises:
        Unauthorized: a session writes without its CSRF token.
    """
    header = request.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return authenticate(db, header[7:].strip())
    session = request.cookies.get(COOKIE)
    if not session:
        return None
    found = session_author(db, session)
    if found is None:
        return None
    author, csrf = found
    if writing and not hmac.compare_digest(request.headers.get("x-csrf-token", ""), csrf):
        raise Unauthorized("a signed-in write must send its X-CSRF-Token")
    return author


def club_routes(club: Club) -> list[Route]:
    """The routes of the club's API."""

    def database() -> Database:
        return connect(club.db_path)

    async def signin(request: Request) -> JSONResponse:
        try:
            token = str((await request.json()).get("token", ""))
        except ValueError:
            return _error(400, "send {\"token\": \"kf_…\"} as JSON")
        db = database()
        author = authenticate(db, token)
        if author is None:
            return _error(401, "unknown or revoked token")
        session, csrf = open_session(db, author)
        response = JSONResponse({"author": author.name, "csrf": csrf})
        response.set_cookie(COOKIE, session, httponly=True, samesite="strict", path="/")
        return response

    async def signout(request: Request) -> JSONResponse:
        if session := request.cookies.get(COOKIE):
            close_session(database(), session)
        response = JSONResponse({"signed_out": True})
        response.delete_cookie(COOKIE, path="/")
        return response

    async def me(request: Request) -> JSONResponse:
        db = database()
        author = signed_in(request, db)
        if author is None:
            return _error(401, "sign in with your token first")
        found = session_author(db, request.cookies.get(COOKIE, "")) if COOKIE in request.cookies else None
        return JSONResponse({"author": author.name, "csrf": found[1] if found else None, **_own(db, author)})

    def writer(request: Request, doing: str) -> tuple[Database, Author] | JSONResponse:
        """The database and the author of a write, or the answer that refuses it."""
        db = database()
        try:
            author = signed_in(request, db, writing=True)
        except Unauthorized as exc:
            return _error(403, str(exc))
        return (db, author) if author is not None else _nobody(request, doing)

    async def uploads(request: Request) -> JSONResponse:
        allowed = writer(request, "uploading")
        if isinstance(allowed, JSONResponse):
            return allowed
        db, author = allowed
        data = bytearray()
        async for chunk in request.stream():
            data += chunk
            if len(data) > club.limits.archive.archive_bytes:
                return _error(413, f"limit: an archive may be {club.limits.archive.archive_bytes} bytes at most")
        try:
            report = await upload(db, club.db_path, author, bytes(data), club.executor, club.limits)
        except LimitReached as exc:
            return _error(429, str(exc))
        answer = {"accepted": report.accepted, "bot": report.name, "version": report.number, "report": report.text()}
        return JSONResponse(answer, status_code=200 if report.accepted else 422)

    async def retire_bot(request: Request) -> JSONResponse:
        allowed = writer(request, "retiring")
        if isinstance(allowed, JSONResponse):
            return allowed
        db, author = allowed
        name = request.path_params["name"]
        row = next(db["bots"].rows_where("name = ?", [name]), None)
        if row is None or row["author_id"] != author.id:
            return _error(403, f"{name!r} is not a bot of yours")
        retire(db, name)
        return JSONResponse({"retired": name})

    return [
        Route("/api/signin", signin, methods=["POST"]),
        Route("/api/signout", signout, methods=["POST"]),
        Route("/api/me", me),
        Route("/api/uploads", uploads, methods=["POST"]),
        Route("/api/bots/{name}/retire", retire_bot, methods=["POST"]),
    ]


def _own(db: Database, author: Author) -> dict[str, Any]:
    """An author's bots (with versions) and uploads (with their check reports), newest first."""
    bots = []
    for bot in db.query("select * from bots where author_id = ? order by name", [author.id]):
        versions = list(db.query(
            "select number, version, language, games, created_at from versions where bot_id = ? order by number desc",
            [bot["id"]],
        ))
        bots.append({"name": bot["name"], "retired": bool(bot["retired"]), "versions": versions})
    uploads = list(db.query(
        "select id, received_at, bytes, accepted, report from uploads where author_id = ? order by id desc limit 50",
        [author.id],
    ))
    return {"bots": bots, "uploads": uploads}
