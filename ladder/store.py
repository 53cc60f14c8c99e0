"""The league database: one SQLite file (WAL mode) through sqlite-utils, its schema defined by migrations.

Tables: ``bots`` and ``versions`` (each version with its content hash), ``arenas`` (a rating pool: a game with
fixed options and seats) and ``entries`` (which versions play in which arena), ``units`` (a duplicate pair: one
seed played with the seats in every rotation, stored as one unit) and ``matches`` (one referee run each, with its
result, faults, timings and replay). Every write happens in ``db.atomic()`` (see the callers).
"""

from __future__ import annotations

import datetime
from pathlib import Path

from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

MIGRATIONS = Migrations("kafana-ladder")


@MIGRATIONS()
def m001_initial(db: Database) -> None:
    """The first schema."""
    db["bots"].create({"id": int, "name": str, "created_at": str, "retired": int}, pk="id", not_null={"name"})
    db["bots"].create_index(["name"], unique=True)
    db["versions"].create(
        {
            "id": int,
            "bot_id": int,
            "number": int,
            "version": str,
            "hash": str,
            "path": str,
            "language": str,
            "author": str,
            "games": str,
            "created_at": str,
        },
        pk="id",
        foreign_keys=[("bot_id", "bots", "id")],
    )
    db["versions"].create_index(["bot_id", "hash"], unique=True)
    db["arenas"].create({"id": str, "game": str, "options": str, "seats": int, "match_length": int}, pk="id")
    db["entries"].create(
        {"arena_id": str, "version_id": int, "joined_at": str},
        pk=("arena_id", "version_id"),
        foreign_keys=[("arena_id", "arenas", "id"), ("version_id", "versions", "id")],
    )
    db["units"].create(
        {"id": str, "league": str, "arena_id": str, "seed": int, "versions": str, "status": str, "done_at": str},
        pk="id",
        foreign_keys=[("arena_id", "arenas", "id")],
    )
    db["units"].create_index(["league", "status"])
    db["matches"].create(
        {
            "id": str,
            "unit_id": str,
            "arena_id": str,
            "rotation": int,
            "seed": int,
            "seats": str,
            "status": str,
            "termination": str,
            "points": str,
            "games": str,
            "faults": str,
            "decisions": int,
            "replay_path": str,
            "replay_hash": str,
            "referee_version": str,
            "started_at": str,
            "finished_at": str,
            "seconds": float,
            "error": str,
        },
        pk="id",
        foreign_keys=[("unit_id", "units", "id"), ("arena_id", "arenas", "id")],
    )
    db["matches"].create_index(["unit_id"])


def now() -> str:
    """The current UTC time as ISO text."""
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def open_store(path: str | Path) -> Database:
    """Open (and create or migrate) the league database at ``path``, in WAL mode."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    db = Database(path)
    db.enable_wal()
    db.execute("PRAGMA foreign_keys = ON")
    db.execute("PRAGMA busy_timeout = 10000")
    MIGRATIONS.apply(db)
    return db


def replay_folder(db: Database) -> Path:
    """Where the league's replays live: a folder next to the database file."""
    filename = db.execute("PRAGMA database_list").fetchone()[2]
    return Path(filename).with_suffix("").parent / (Path(filename).stem + "-replays")
