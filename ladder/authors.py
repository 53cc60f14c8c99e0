"""Authors of a club ladder and their API tokens.

An author owns bots: only it submits their versions, retires them and reads their logs. Its token is shown once,
when made (``ladder author add`` or ``rotate``), and stored hashed with scrypt (a memory-hard password-hashing
function from Python's standard library) and a salt of its own; the token's first part names the author, so
checking one costs a single hash. A revoked token is gone; a banned author's token no longer works and its bots
stop being scheduled.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

from sqlite_utils import Database

from referee.runtime.hello import name_problem

from .store import now

_SCRYPT = {"n": 2**14, "r": 8, "p": 1, "dklen": 32}
"""scrypt's cost: about 16 MiB and a few milliseconds per check."""
PREFIX = "kf"


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
        db["authors"].update(author_id, {"token_hash": _hash(secret, salt), "token_salt": salt.hex()})
    return f"{PREFIX}_{author_id}_{secret}"


def add_author(db: Database, name: str) -> str:
    """Make the author ``name`` and return its token (shown once: only its hash is kept).

    Raises:
        AuthorError: the name is taken or is not a valid name.
    """
    if (problem := name_problem(name)) is not None:
        raise AuthorError(problem.replace("name", "author name", 1))
    if db["authors"].count_where("name = ?", [name]):
        raise AuthorError(f"there is already an author named {name!r}")
    with db.atomic():
        author_id = db["authors"].insert({"name": name, "created_at": now(), "banned": 0}).last_pk
    return _new_token(db, author_id)


def _author_id(db: Database, name: str) -> int:
    row = next(db["authors"].rows_where("name = ?", [name]), None)
    if row is None:
        raise AuthorError(f"no author named {name!r}")
    return row["id"]


def rotate_token(db: Database, name: str) -> str:
    """Replace ``name``'s token with a new one (the old stops working) and return it."""
    return _new_token(db, _author_id(db, name))


def revoke_token(db: Database, name: str) -> None:
    """Take ``name``'s token away (``rotate_token`` gives it a new one)."""
    with db.atomic():
        db["authors"].update(_author_id(db, name), {"token_hash": None, "token_salt": None})


def set_banned(db: Database, name: str, banned: bool) -> None:
    """Ban (or restore) ``name``: its token stops working and its bots stop being scheduled."""
    author_id = _author_id(db, name)
    with db.atomic():
        db["authors"].update(author_id, {"banned": int(banned)})
        db.execute("update bots set retired = ? where author_id = ?", [int(banned), author_id])


def authenticate(db: Database, token: str) -> Author | None:
    """The author whose token ``token`` is, or None (unknown, revoked, malformed or banned)."""
    prefix, _, rest = token.partition("_")
    author_id, _, secret = rest.partition("_")
    if prefix != PREFIX or not author_id.isdigit() or not secret:
        return None
    row = next(db["authors"].rows_where("id = ?", [int(author_id)]), None)
    if row is None or not row["token_hash"] or row["banned"]:
        return None
    if not hmac.compare_digest(_hash(secret, bytes.fromhex(row["token_salt"])), row["token_hash"]):
        return None
    return Author(row["id"], row["name"], bool(row["banned"]))


def open_session(db: Database, author: Author) -> tuple[str, str]:
    """A web sign-in for ``author``: (the session id for its cookie, the CSRF token its forms must send). Only a
    hash of the session id is stored."""
    session, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(24)
    with db.atomic():
        db["sessions"].insert({"id": _session_key(session), "author_id": author.id, "csrf": csrf, "created_at": now()})
    return session, csrf


def _session_key(session: str) -> str:
    return hashlib.sha256(session.encode()).hexdigest()


def session_author(db: Database, session: str) -> tuple[Author, str] | None:
    """The author signed in with ``session`` and the session's CSRF token, or None."""
    row = next(db["sessions"].rows_where("id = ?", [_session_key(session)]), None)
    if row is None:
        return None
    author = next(db["authors"].rows_where("id = ?", [row["author_id"]]), None)
    if author is None or author["banned"] or not author["token_hash"]:
        return None
    return Author(author["id"], author["name"], False), row["csrf"]


def close_session(db: Database, session: str) -> None:
    """Sign out."""
    with db.atomic():
        db["sessions"].delete_where("id = ?", [_session_key(session)])
