"""Games people play against a club's bots: a challenge asked on the web, played by the service, kept apart from
the bots' matches.

A signed-in author (and an anonymous visitor, when the operator allows it) challenges an active bot of an arena
(:func:`challenge`): the web records the game as waiting, with the secret token of its seat's page. The service
takes it (:func:`take_waiting`), plays it in a referee process of its own (:mod:`ladder.challenges`), and records how
it ended (:func:`finish`, :func:`fail`). A person's game is an ordinary replay, never a match of the ladder: it
counts in no rating, tally or schedule, and its bot's page lists it under "played by people" (:func:`of_bot`).
"""

from __future__ import annotations

import json
import secrets
from typing import Any

from sqlite_utils import Database

from .arenas import load_arena
from .authors import Author
from .registry import current_versions
from .store import now, stored_path

VISITOR = "visitor"
"""The name a person who is not signed in plays under."""
AT_ONCE = 2
"""People's games a club plays at once (each holds a bot process and a referee); more wait for a turn."""
WAITING = 4
"""People's games that may wait for a turn; past them a challenge is refused until one ends."""
LISTED = 20
"""People's games a bot's page lists, newest first."""


class ChallengeRefused(ValueError):
    """A challenge the club cannot take; the message says why, in one line."""


def challenge(db: Database, arena_id: str, bot: str, author: Author | None, address: str = "") -> tuple[int, str]:
    """Record a game of the person (``author``, or a visitor from ``address``) against ``bot``'s current version in
    ``arena_id``, waiting for the service; return its id and its seat's token. The person sits at a seat of its
    own by turns (its games so far against the bot); at a table of more seats the bot fills every other one (in
    2v2, its partner too).

    Raises:
        ChallengeRefused: no such arena or active bot in it, a table of one seat, the person has a game waiting
            or being played, or too many games wait.
    """
    try:
        arena = load_arena(db, arena_id)
    except KeyError:
        raise ChallengeRefused(f"no arena {arena_id!r}") from None
    if arena.seats < 2:
        raise ChallengeRefused(f"{arena_id} is played alone: there is no bot to play against")
    version = next((v for v in current_versions(db, arena_id) if v["bot"] == bot), None)
    if version is None:
        raise ChallengeRefused(f"{bot!r} is no active bot of the {arena_id} arena")
    who = ("author_id = ?", [author.id]) if author is not None else ("author_id is null and address = ?", [address])
    table = db.table("people_games")
    if table.count_where(f"status in ('waiting', 'playing') and {who[0]}", who[1]):
        raise ChallengeRefused("you have a game waiting or being played: finish it first")
    if table.count_where("status = 'waiting'") >= WAITING:
        raise ChallengeRefused("the club is busy with other people's games: try again in a few minutes")
    played = table.count_where(f"version_id = ? and {who[0]}", [version["id"], *who[1]])
    token = secrets.token_urlsafe(18)
    with db.atomic():
        row = table.insert({
            "arena_id": arena_id, "version_id": version["id"], "seat": played % arena.seats,
            "person": author.name if author is not None else VISITOR,
            "author_id": author.id if author is not None else None, "address": address if author is None else "",
            "token": token, "status": "waiting", "created_at": now(),
        })
    assert row.last_rowid is not None
    return row.last_rowid, token


def by_token(db: Database, token: str) -> dict[str, Any] | None:
    """The game whose seat's token is ``token``, while it waits or is played; None otherwise."""
    return next(db.table("people_games").rows_where("token = ? and status in ('waiting', 'playing')", [token]), None)


def take_waiting(db: Database, limit: int) -> list[dict[str, Any]]:
    """The waiting games, oldest first, at most ``limit``, marked as being played."""
    rows = list(db.table("people_games").rows_where("status = 'waiting'", order_by="id", limit=limit))
    with db.atomic():
        for row in rows:
            db.table("people_games").update(row["id"], {"status": "playing", "started_at": now()})
    return rows


def finish(db: Database, game_id: int, points: list[int], termination: str, faults: list[dict],
           replay_path: str) -> None:
    """Record how a person's game ended: the seats' points, its termination, the faults and its replay."""
    with db.atomic():
        db.table("people_games").update(game_id, {
            "status": "done", "points": json.dumps(points), "termination": termination,
            "faults": json.dumps(faults), "replay_path": stored_path(db, replay_path), "finished_at": now(),
        })


def fail(db: Database, game_id: int, message: str) -> None:
    """Record that a person's game could not be played, and why (one line)."""
    with db.atomic():
        db.table("people_games").update(game_id, {"status": "failed", "message": message, "finished_at": now()})


def sweep(db: Database) -> int:
    """Fail the games a stopped service left waiting or being played (their pages cannot reach it any more); how
    many."""
    left = [row["id"] for row in db.table("people_games").rows_where("status in ('waiting', 'playing')")]
    for game_id in left:
        fail(db, game_id, "the club's service stopped before the game ended")
    return len(left)


def game_json(row: dict[str, Any], bot: str) -> dict[str, Any]:
    """A person's game as the web shows it (its seat's token left out)."""
    return {
        "id": row["id"], "arena": row["arena_id"], "bot": bot, "person": row["person"], "seat": row["seat"],
        "status": row["status"], "points": json.loads(row["points"]) if row["points"] else None,
        "termination": row["termination"], "faults": json.loads(row["faults"] or "[]"), "message": row["message"],
        "created_at": row["created_at"], "finished_at": row["finished_at"], "has_replay": bool(row["replay_path"]),
    }


def of_bot(db: Database, version_ids: list[int], limit: int = LISTED) -> list[dict[str, Any]]:
    """The people's games of a bot's versions, newest first."""
    if not version_ids:
        return []
    rows = db.query(
        "select p.*, b.name || ' v' || v.number as bot from people_games p join versions v on v.id = p.version_id "
        f"join bots b on b.id = v.bot_id where p.version_id in ({','.join('?' * len(version_ids))}) "
        "order by p.id desc limit ?", [*version_ids, limit])
    return [game_json(row, row["bot"]) for row in rows]


def one(db: Database, game_id: int) -> dict[str, Any] | None:
    """A person's game with its replay's stored path (``replay_path``), or None."""
    row = next(db.query(
        "select p.*, b.name || ' v' || v.number as bot from people_games p join versions v on v.id = p.version_id "
        "join bots b on b.id = v.bot_id where p.id = ?", [game_id]), None)
    return None if row is None else game_json(row, row["bot"]) | {"replay_path": row["replay_path"]}
