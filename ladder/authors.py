"""Authors of a club ladder and their API tokens.

An author owns bots: only it submits their versions, retires them and reads their logs. Its token is shown once,
when made (``ladder author add`` or ``rotate``), and stored hashed with scrypt (a memory-hard password-hashing
function from Python's standard library) and a salt of its own; the token's first part names the author, so
checking one costs a single hash. A revoked token is gone; a banned author's token no longer works and its bots
stop being scheduled.

A web sign-in is a session: a random id (only its hash is kept) with a CSRF token of its own. A session ends when
it has been idle :data:`SESSION_IDLE` or open :data:`SESSION_LIFETIME`, at sign-out, and whenever its author's
token is rotated or revoked or the author is banned: a leaked token's holder is signed out by the rotation that
replaces it.
"""

from __future__ import annotations

import datetime
import hashlib
import hmac
import secrets
from dataclasses import dataclass

from sqlite_utils import Database

from referee.runtime.hello import name_problem

from .store import insert, now

_SCRYPT = {"n": 2**14, "r": 8, "p": 1, "dklen": 32}
"""scrypt's cost: about 16 MiB and 40 ms of a core per check."""
PREFIX = "kf"
SESSION_IDLE = datetime.timedelta(hours=12)
"""A session unused this long is over."""
SESSION_LIFETIME = datetime.timedelta(days=7)
"""A session is over this long after its sign-in, used or not."""
SEEN_EVERY = datetime.timedelta(minutes=5)
"""How stale a session's last use may be in the database (it is written at most this often, not at every request)."""


class AuthorError(ValueError):
    """No such author, a name taken or malformed; the message says which."""


@dataclass(frozen=True)
class Author:
    """An author as the service sees it."""

    id: int
    name: str
    banned: bool


def _hash(secret: str, salt: bytes) -> str:
    return hashlib.scrypt(secret.encode(), salt=salt, **_SCRYPT).hex()


def _new_token(db: Database, author_id: int) -> str:
    secret = secrets.token_urlsafe(32)
    salt = secrets.token_bytes(16)
    with db.atomic():
        db.table("authors").update(author_id, {"token_hash": _hash(secret, salt), "token_salt": salt.hex()})
        _end_sessions(db, author_id)
    return f"{PREFIX}_{author_id}_{secret}"


def _end_sessions(db: Database, author_id: int) -> None:
    """Sign every session of the author out."""
    db.execute("delete from sessions where author_id = ?", [author_id])


def add_author(db: Database, name: str) -> str:
    """Make the author ``name`` and return its token (shown once: only its hash is kept).

    Raises:
        AuthorError: the name is taken or is not a valid name.
    """
    if (problem := name_problem(name)) is not None:
        raise AuthorError(problem.replace("name", "author name", 1))
    if db.table("authors").count_where("name = ?", [name]):
        raise AuthorError(f"there is already an author named {name!r}")
    with db.atomic():
        author_id = insert(db, "authors", {"name": name, "created_at": now(), "banned": 0})
    return _new_token(db, author_id)


def list_authors(db: Database) -> list[tuple[str, str]]:
    """Every author's name and state (``active``, ``banned`` or ``no token``), by name."""
    rows = db.query("select name, banned, token_hash is not null as active from authors order by name")
    return [(row["name"], "banned" if row["banned"] else "active" if row["active"] else "no token") for row in rows]


def _author_id(db: Database, name: str) -> int:
    row = next(db.table("authors").rows_where("name = ?", [name]), None)
    if row is None:
        raise AuthorError(f"no author named {name!r}")
    return row["id"]


def rotate_token(db: Database, name: str) -> str:
    """Replace ``name``'s token with a new one (the old stops working) and return it."""
    return _new_token(db, _author_id(db, name))


def revoke_token(db: Database, name: str) -> None:
    """Take ``name``'s token away (``rotate_token`` gives it a new one)."""
    author_id = _author_id(db, name)
    with db.atomic():
        db.table("authors").update(author_id, {"token_hash": None, "token_salt": None})
        _end_sessions(db, author_id)


def set_banned(db: Database, name: str, banned: bool) -> None:
    """Ban (or restore) ``name``: its token stops working and its bots stop being scheduled."""
    author_id = _author_id(db, name)
    with db.atomic():
        db.table("authors").update(author_id, {"banned": int(banned)})
        db.execute("update bots set retired = ? where author_id = ?", [int(banned), author_id])
        _end_sessions(db, author_id)


def authenticate(db: Database, token: str) -> Author | None:
    """The author whose token ``token`` is, or None (unknown, revoked, malformed or banned)."""
    prefix, _, rest = token.partition("_")
    author_id, _, secret = rest.partition("_")
    if prefix != PREFIX or not author_id.isdigit() or not secret:
        return None
    row = next(db.table("authors").rows_where("id = ?", [int(author_id)]), None)
    if row is None or not row["token_hash"] or row["banned"]:
        return None
    if not hmac.compare_digest(_hash(secret, bytes.fromhex(row["token_salt"])), row["token_hash"]):
        return None
    return Author(row["id"], row["name"], bool(row["banned"]))


def open_session(db: Database, author: Author) -> tuple[str, str]:
    """A web sign-in for ``author``: (the session id for its cookie, the CSRF token its forms must send). Only a
    hash of the session id is stored. Sessions that are over are removed."""
    session, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(24)
    moment = _now()
    with db.atomic():
        db.execute("delete from sessions where created_at < ? or seen_at < ?",
                   [_text(moment - SESSION_LIFETIME), _text(moment - SESSION_IDLE)])
        db.table("sessions").insert({"id": _session_key(session), "author_id": author.id, "csrf": csrf,
                               "created_at": _text(moment), "seen_at": _text(moment)})
    return session, csrf


def _now() -> datetime.datetime:
    return datetime.datetime.now(datetime.timezone.utc)


def _text(moment: datetime.datetime) -> str:
    return moment.isoformat(timespec="seconds")


def _session_key(session: str) -> str:
    return hashlib.sha256(session.encode()).hexdigest()


def session_author(db: Database, session: str) -> tuple[Author, str] | None:
    """The author signed in with ``session`` and the session's CSRF token, or None (unknown, over, or its author
    banned or without a token). A session in use has its last use written every :data:`SEEN_EVERY`."""
    key = _session_key(session)
    row = next(db.table("sessions").rows_where("id = ?", [key]), None)
    if row is None:
        return None
    moment = _now()
    seen = datetime.datetime.fromisoformat(row["seen_at"] or row["created_at"])
    if moment - datetime.datetime.fromisoformat(row["created_at"]) > SESSION_LIFETIME or moment - seen > SESSION_IDLE:
        with db.atomic():
            db.table("sessions").delete_where("id = ?", [key])
        return None
    author = next(db.table("authors").rows_where("id = ?", [row["author_id"]]), None)
    if author is None or author["banned"] or not author["token_hash"]:
        return None
    if moment - seen > SEEN_EVERY:
        with db.atomic():
            db.table("sessions").update(key, {"seen_at": _text(moment)})
    return Author(author["id"], author["name"], False), row["csrf"]


def close_session(db: Database, session: str) -> None:
    """Sign out."""
    with db.atomic():
        db.table("sessions").delete_where("id = ?", [_session_key(session)])
