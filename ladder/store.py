"""The league database: one SQLite file (WAL mode) through sqlite-utils, its schema defined by migrations.

Tables: ``bots`` and ``versions`` (each version with its content hash), ``arenas`` (a rating pool: a game with
fixed options and seats) and ``entries`` (which versions play in which arena), ``units`` (a duplicate pair: one
seed played with the seats in every rotation, stored as one unit) and ``matches`` (one referee run each, with its
result, faults, timings and replay, stored compressed), ``match_seats`` (each match's versions, and when it started or finished), and what the
read side keeps instead of recomputing (:mod:`ladder.tallies`, :mod:`ladder.fits`). A unit's chance seed is a
secret (see :mod:`ladder.league`): it is handed to the referee and revealed in the replays once played, never
shown before. Every write happens in ``db.atomic()``, which takes the write lock at once (:class:`LeagueDatabase`).
"""

from __future__ import annotations

import contextlib
import datetime
import json
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

from referee.chance import new_secret_seed

from . import fits, tallies

MIGRATIONS = Migrations("kafana-ladder")


@MIGRATIONS()
def m001_initial(db: Database) -> None:
    """The first schema."""
    db.table("bots").create({"id": int, "name": str, "created_at": str, "retired": int}, pk="id", not_null={"name"})
    db.table("bots").create_index(["name"], unique=True)
    db.table("versions").create(
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
    db.table("versions").create_index(["bot_id", "hash"], unique=True)
    db.table("arenas").create({"id": str, "game": str, "options": str, "seats": int, "match_length": int}, pk="id")
    db.table("entries").create(
        {"arena_id": str, "version_id": int, "joined_at": str},
        pk=("arena_id", "version_id"),
        foreign_keys=[("arena_id", "arenas", "id"), ("version_id", "versions", "id")],
    )
    db.table("units").create(
        {"id": str, "league": str, "arena_id": str, "seed": int, "versions": str, "status": str, "done_at": str},
        pk="id",
        foreign_keys=[("arena_id", "arenas", "id")],
    )
    db.table("units").create_index(["league", "status"])
    db.table("matches").create(
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
    db.table("matches").create_index(["unit_id"])


@MIGRATIONS(transactional=False)  # changing a column's type rebuilds the table, which a transaction forbids
def m002_secret_seeds(db: Database) -> None:
    """Chance seeds become text (256-bit secrets), units record their round (a one-seat arena's deal), and units
    planned by an older ladder, whose seeds were derived from public facts, get secret seeds before they are
    played. Each step can run again after an interruption."""
    for table in ("units", "matches"):
        if db.table(table).columns_dict["seed"] is not str:
            db.table(table).transform(types={"seed": str})
    if "round" not in db.table("units").columns_dict:
        db.table("units").add_column("round", int)
    with db.atomic():
        for unit in list(db.query("select id from units where round is null")):
            found = re.search(r"-r(\d+)-[\dv]+$", unit["id"])
            db.table("units").update(unit["id"], {"round": int(found.group(1)) if found else 0})
        for unit in list(db.query("select id from units where status != 'done' and length(seed) != 64")):
            seed = new_secret_seed()
            db.table("units").update(unit["id"], {"seed": seed})
            db.execute("update matches set seed = ? where unit_id = ?", [seed, unit["id"]])


@MIGRATIONS()
def m003_paths_beside_the_database(db: Database) -> None:
    """Bot and replay paths inside the database's folder are stored relative to it, so that the database and its
    folders can move together and be used from any working directory. (Relative paths of an older ladder were
    relative to where it ran, which for the demo and most leagues was this folder; they are read so now.)"""
    for table, column in (("versions", "path"), ("matches", "replay_path")):
        for row in list(db.query(f"select rowid, {column} from {table} where {column} like '/%'")):
            db.execute(f"update {table} set {column} = ? where rowid = ?", [stored_path(db, row[column]), row["rowid"]])


@MIGRATIONS()
def m004_authors(db: Database) -> None:
    """Authors (a club ladder's: they own bots and hold hashed API tokens), the owner of each bot (none for bots
    submitted on the ladder's own machine), the uploads with their check reports, the web's sign-in sessions
    (their ids stored hashed), and arenas an operator paused."""
    db.table("authors").create(
        {"id": int, "name": str, "token_hash": str, "token_salt": str, "created_at": str, "banned": int},
        pk="id",
        not_null={"name"},
    )
    db.table("authors").create_index(["name"], unique=True)
    db.table("bots").add_column("author_id", int)
    db.table("arenas").add_column("paused", int)
    db.table("uploads").create(
        {"id": int, "author_id": int, "received_at": str, "bytes": int, "accepted": int, "report": str,
         "version_id": int},
        pk="id",
        foreign_keys=[("author_id", "authors", "id")],
    )
    db.table("uploads").create_index(["author_id", "received_at"])
    db.table("sessions").create(
        {"id": str, "author_id": int, "csrf": str, "created_at": str}, pk="id", foreign_keys=[("author_id", "authors", "id")]
    )


@MIGRATIONS()
def m005_tournaments(db: Database) -> None:
    """Tournaments (a format, an arena, the entrants in seed order, the format's options) and their rounds (the
    groups each round paired, and its byes); the units a round plays are ordinary units of the tournament's league."""
    db.table("tournaments").create(
        {"name": str, "format": str, "arena_id": str, "options": str, "entrants": str, "status": str,
         "created_at": str, "finished_at": str},
        pk="name",
        foreign_keys=[("arena_id", "arenas", "id")],
    )
    db.table("tournament_rounds").create(
        {"id": str, "tournament": str, "number": int, "groups": str, "byes": str},
        pk="id",
        foreign_keys=[("tournament", "tournaments", "name")],
    )
    db.table("tournament_rounds").create_index(["tournament", "number"], unique=True)


@MIGRATIONS()
def m006_kept_totals(db: Database) -> None:
    """What the read side keeps instead of recomputing: each arena's running totals and its rating fit with a
    thinned history (:mod:`ladder.tallies`, :mod:`ladder.fits`), counted from the matches already stored; each
    match's versions in a table of their own (a bot's matches without reading every match); and the indexes of
    the match list (newest first, all and by arena) and of the matches running."""
    tallies.create_tables(db)
    fits.create_tables(db)
    db.table("match_seats").create({"match_id": str, "version_id": int, "shown_at": str}, pk=("match_id", "version_id"))
    db.table("match_seats").create_index(["version_id", "shown_at"])
    db.execute("insert or ignore into match_seats select m.id, j.value, coalesce(m.finished_at, m.started_at) "
               "from matches m, json_each(m.seats) j")
    db.execute(  # a match's place in its bots' lists follows it as it starts, finishes or goes back to pending
        "create trigger match_seats_shown after update of started_at, finished_at on matches begin "
        "update match_seats set shown_at = coalesce(new.finished_at, new.started_at) where match_id = new.id; end"
    )
    db.execute("create index matches_shown on matches (coalesce(finished_at, started_at))")
    db.execute("create index matches_arena_shown on matches (arena_id, coalesce(finished_at, started_at))")
    db.execute("create index matches_deal on matches (arena_id, seed)")
    db.execute("create index matches_running on matches (arena_id) where status = 'running'")
    for row in list(db.query("select id from arenas")):
        tallies.rebuild(db, row["id"])


@MIGRATIONS()
def m007_deals(db: Database) -> None:
    """The deals per bot an operator set for a one-seat arena (none: the default, :data:`ladder.arenas.DEALS`)."""
    db.table("arenas").add_column("deals", int)


@MIGRATIONS()
def m008_session_use(db: Database) -> None:
    """When each sign-in session was last used (sessions idle too long are over: :mod:`ladder.authors`)."""
    db.table("sessions").add_column("seen_at", str)


@MIGRATIONS()
def m009_upload_queue(db: Database) -> None:
    """Uploads waiting for their check: the web records them, the service's privileged process checks them
    (:mod:`ladder.uploads`); an upload of an earlier version was checked at once."""
    db.table("uploads").add_column("status", str, not_null_default="done")
    db.table("uploads").add_column("staged", str)
    db.table("uploads").create_index(["status"])


@MIGRATIONS()
def m010_team_wins(db: Database) -> None:
    """A team's win counted as a win of each of its seats (it was counted a draw): the team arenas counted again."""
    for row in list(db.query("select id, options from arenas")):
        if json.loads(row["options"] or "{}").get("teams", "none") != "none":
            tallies.rebuild(db, row["id"])


@MIGRATIONS()
def m011_upload_progress(db: Database) -> None:
    """The last lines of an upload's build, kept while it is checked, for its author's page."""
    db.table("uploads").add_column("progress", str)


@MIGRATIONS()
def m012_people_games(db: Database) -> None:
    """Games people play against the club's bots (:mod:`ladder.people`), kept apart from the bots' matches: the
    person's seat and name (an author's, or a visitor's with its address), its page's token, and how it ended."""
    db.table("people_games").create(
        {"id": int, "arena_id": str, "version_id": int, "seat": int, "person": str, "author_id": int,
         "address": str, "token": str, "status": str, "points": str, "termination": str, "faults": str,
         "replay_path": str, "message": str, "created_at": str, "started_at": str, "finished_at": str},
        pk="id",
        foreign_keys=[("arena_id", "arenas", "id"), ("version_id", "versions", "id")],
    )
    db.table("people_games").create_index(["token"], unique=True)
    db.table("people_games").create_index(["status"])
    db.table("people_games").create_index(["version_id", "id"])


def database_folder(db: Database) -> Path:
    """The folder holding the database file."""
    return Path(db.execute("PRAGMA database_list").fetchone()[2]).resolve().parent


def stored_path(db: Database, path: str | Path) -> str:
    """``path`` as the database keeps it: relative to the database's folder when inside it, else absolute.

    >>> db = Database(memory=True)
    >>> stored_path(db, "/elsewhere/bot")
    '/elsewhere/bot'
    """
    absolute = Path(path).resolve()
    try:
        return str(absolute.relative_to(database_folder(db)))
    except ValueError:
        return str(absolute)


def resolved_path(db: Database, stored: str) -> Path:
    """A path the database keeps, as a path to open from here."""
    path = Path(stored)
    return path if path.is_absolute() else database_folder(db) / path


def backup(db: Database, target: Path) -> None:
    """Copy the database to the new file ``target``, whole and consistent while others write to it (SQLite's
    online backup).

    Raises:
        ValueError: ``target`` exists, or cannot be written (then nothing is left there).
    """
    if target.exists():
        raise ValueError(f"{target} exists: back up to a new file")
    try:
        copy = sqlite3.connect(target)
    except sqlite3.Error as exc:
        raise ValueError(f"cannot write {target}: {exc}") from None
    try:
        with contextlib.closing(copy):
            db.conn.backup(copy)
    except sqlite3.Error as exc:
        target.unlink(missing_ok=True)
        raise ValueError(f"cannot back up to {target}: {exc}") from None


def replay_of(db: Database, match_id: str) -> Path | None:
    """Where match ``match_id``'s replay file is (None: the match has none, or it is gone).

    Raises:
        KeyError: no such match.
    """
    row = next(db.table("matches").rows_where("id = ?", [match_id], select="replay_path"), None)
    if row is None:
        raise KeyError(match_id)
    path = resolved_path(db, row["replay_path"]) if row["replay_path"] else None
    return path if path is not None and path.exists() else None


def insert(db: Database, table: str, row: dict[str, Any]) -> int:
    """Insert ``row`` into ``table`` (a table with an integer key) and return the row's new key."""
    key = db.table(table).insert(row).last_pk
    assert isinstance(key, int), f"{table} has no integer key"
    return key


def now() -> str:
    """The current UTC time as ISO text."""
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


BUSY_SECONDS = 10
"""How long one attempt to take the write lock waits for another writer (SQLite's busy timeout)."""
WRITE_TRIES = 6
"""Attempts to take the write lock before a transaction gives up: a minute of another writer's holding it."""


class DatabaseLocked(sqlite3.OperationalError):
    """Another connection held the database's write lock for longer than a transaction waits."""


class LeagueDatabase(Database):
    """A league database connection whose transactions take the write lock when they begin (``BEGIN IMMEDIATE``):
    a transaction that read before it wrote would otherwise fail at once with "database is locked" whenever another
    connection wrote in between, instead of waiting its turn. Every writer of the ladder (the command line, the
    service's web, scheduler and workers) takes it this way, waiting up to a minute."""

    @contextlib.contextmanager
    def atomic(self) -> Iterator[Database]:
        """A transaction (a savepoint inside one) that holds the write lock from its start.

        Raises:
            DatabaseLocked: another writer held the lock for :data:`WRITE_TRIES` busy timeouts.
        """
        if self.conn.in_transaction:
            with super().atomic():
                yield self
            return
        self._begin()
        try:
            yield self
        except BaseException:
            self.rollback()
            raise
        try:
            self.conn.execute("COMMIT")
        except BaseException:
            self.rollback()
            raise

    def _begin(self) -> None:
        for attempt in range(WRITE_TRIES):
            try:
                self.conn.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) and "busy" not in str(exc):
                    raise
        raise DatabaseLocked(f"the database stayed locked by another writer for {WRITE_TRIES * BUSY_SECONDS:g} s")


class MissingDatabase(FileNotFoundError):
    """There is no league database where one was expected; the message says what makes one."""


class NotADatabase(ValueError):
    """The file given as the league database is not an SQLite database (a mistyped path, another file)."""


def open_store(path: str | Path, create: bool = True) -> LeagueDatabase:
    """Open (and migrate) the league database at ``path``, in WAL mode; create it only with ``create``.

    Raises:
        MissingDatabase: ``create`` is False and there is no database at ``path``.
        NotADatabase: the file at ``path`` is not an SQLite database.
        ValueError: ``path`` looks like a mistyped option (it starts with ``-``).
    """
    path = Path(path)
    if path.name.startswith("-"):
        raise ValueError(f"{str(path)!r} looks like an option, not a database file (give --db a file name)")
    if not create and not path.is_file():
        raise MissingDatabase(f"no league database at {path} (ladder submit or ladder demo makes one)")
    path.parent.mkdir(parents=True, exist_ok=True)
    db = LeagueDatabase(path)
    try:
        db.enable_wal()
    except sqlite3.DatabaseError as exc:
        db.close()
        if isinstance(exc, sqlite3.OperationalError):  # a database, busy or unreadable: not this error's case
            raise
        raise NotADatabase(f"{path} is not a league database ({exc})") from None
    _settings(db)
    MIGRATIONS.apply(db)
    return db


def connect(path: str | Path) -> LeagueDatabase:
    """Another connection to an existing, migrated league database (the service's web requests)."""
    db = LeagueDatabase(path)
    _settings(db)
    return db


def _settings(db: Database) -> None:
    """A connection's settings: foreign keys checked, a writer waits :data:`BUSY_SECONDS` for another (and tries
    again in :meth:`LeagueDatabase.atomic`), and commits are not synced to the disk one by one (in WAL mode the
    file stays whole after any crash; a power cut may only lose the last transactions, matches the next run plays
    again)."""
    db.execute("PRAGMA foreign_keys = ON")
    db.execute(f"PRAGMA busy_timeout = {int(BUSY_SECONDS * 1000)}")
    db.execute("PRAGMA synchronous = NORMAL")


def replay_folder(db: Database) -> Path:
    """Where the league's replays live: a folder next to the database file."""
    filename = db.execute("PRAGMA database_list").fetchone()[2]
    return database_folder(db) / (Path(filename).stem + "-replays")
