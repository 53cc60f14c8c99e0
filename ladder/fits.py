"""Each arena's rating fit, kept: computed from the arena's pair totals (:mod:`ladder.tallies`), warm-started from
the last fit, stored with the number of units it covers and when it was made, and read by every page and command.

A fit is stale when the arena has counted more units than it covers; :func:`refresh` brings it up to date (a few
Newton steps from the last one). The league runner refreshes the arenas it plays every few seconds, off its event
loop; readers refresh a stale fit that is older than :data:`FRESH_SECONDS` themselves, so that a result shows within
that time whoever stored it. Each refresh also keeps a point of the arena's rating history (at most
:data:`HISTORY_POINTS`, thinned to even steps in units).
"""

from __future__ import annotations

import contextlib
import datetime
import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass

from sqlite_utils import Database

from .ratings import fit_totals
from .tallies import totals

FRESH_SECONDS = 5.0
"""How old a stale fit may be before a reader refits it."""
HISTORY_POINTS = 48
"""Most rating-history points kept per arena (thinned to about half when passed)."""
_LOCKS: dict[str, threading.Lock] = {}
_GUARD = threading.Lock()


Line = tuple[float, float, float | None]
"""One version's line of a fit as stored: its rating, standard error and likelihood of superiority over the next."""


@dataclass(frozen=True)
class StoredFit:
    """An arena's fit as stored: per version its rating, standard error and likelihood of superiority over the
    version rated next below it (None for the last)."""

    units: int
    computed_at: str
    ratings: dict[int, float]
    errors: dict[int, float]
    superiority: dict[int, float | None]


def create_tables(db: Database) -> None:
    """The fits' tables (a migration's step)."""
    db.table("arena_fits").create(
        {"arena_id": str, "units": int, "computed_at": str, "lines": str}, pk="arena_id"
    )
    db.table("arena_history").create(
        {"arena_id": str, "units": int, "at": str, "lines": str}, pk=("arena_id", "units")
    )


def _now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def stored(db: Database, arena_id: str) -> StoredFit | None:
    """The arena's last stored fit, or None."""
    row = db.execute("select units, computed_at, lines from arena_fits where arena_id = ?", [arena_id]).fetchone()
    if row is None:
        return None
    lines = {int(v): line for v, line in json.loads(row[2]).items()}
    return StoredFit(
        row[0], row[1], {v: line[0] for v, line in lines.items()}, {v: line[1] for v, line in lines.items()},
        {v: line[2] for v, line in lines.items()},
    )


@contextlib.contextmanager
def snapshot(db: Database) -> Iterator[None]:
    """A read transaction (every query in the block sees the database as at the first); the block's own."""
    db.conn.execute("BEGIN")
    try:
        yield
    finally:
        db.conn.execute("COMMIT")


def _lock(arena_id: str) -> threading.Lock:
    with _GUARD:
        return _LOCKS.setdefault(arena_id, threading.Lock())


def refresh(db: Database, arena_id: str) -> StoredFit | None:
    """Bring the arena's fit up to date with its counted units and return it (None: no unit counted yet). One
    thread of a process refits an arena at a time; the others wait for its result."""
    with _lock(arena_id):
        with snapshot(db):  # the counted units and the totals agree
            counted, length = db.execute("select counted, match_length from arenas where id = ?",
                                         [arena_id]).fetchone()
            last = stored(db, arena_id)
            if last is not None and last.units >= counted:
                return last
            pairs = totals(db, arena_id)
            players = [row[0] for row in db.execute(
                "select version_id from arena_bots where arena_id = ? and units > 0", [arena_id])]
        if not players:
            return None
        fitted = fit_totals(pairs, players, length, start=last.ratings if last else None)
        order = sorted(players, key=lambda v: (-fitted.ratings[v], v))
        lines: dict[int, Line] = {
            v: (round(fitted.ratings[v], 3), round(fitted.error(v), 3),
                round(fitted.superiority(v, below), 4) if below is not None else None)
            for v, below in zip(order, [*order[1:], None], strict=True)
        }
        made = StoredFit(counted, _now(), {v: line[0] for v, line in lines.items()},
                         {v: line[1] for v, line in lines.items()}, {v: line[2] for v, line in lines.items()})
        encoded = json.dumps(lines)
        with db.atomic():
            db.execute(
                "insert into arena_fits (arena_id, units, computed_at, lines) values (?, ?, ?, ?) "
                "on conflict (arena_id) do update set units = excluded.units, computed_at = excluded.computed_at, "
                "lines = excluded.lines where excluded.units > arena_fits.units",
                [arena_id, counted, made.computed_at, encoded],
            )
            db.execute("insert or ignore into arena_history (arena_id, units, at, lines) values (?, ?, ?, ?)",
                       [arena_id, counted, made.computed_at, encoded])
            _thin(db, arena_id, counted)
        return made


def _thin(db: Database, arena_id: str, units: int) -> None:
    """Keep at most :data:`HISTORY_POINTS` history points: past that, those nearest to half as many even steps
    in units, and the latest."""
    kept = [row[0] for row in db.execute("select units from arena_history where arena_id = ? order by units",
                                         [arena_id])]
    if len(kept) <= HISTORY_POINTS:
        return
    marks = HISTORY_POINTS // 2
    wanted = {units} | {min(kept, key=lambda u: abs(u - units * k / marks)) for k in range(1, marks)}
    db.conn.executemany("delete from arena_history where arena_id = ? and units = ?",
                        [(arena_id, u) for u in kept if u not in wanted])


def current(db: Database, arena_id: str) -> StoredFit | None:
    """The fit a reader shows: the stored one, refreshed first when it is stale and older than
    :data:`FRESH_SECONDS` (or when none is stored)."""
    last = stored(db, arena_id)
    if last is not None:
        counted = db.execute("select counted from arenas where id = ?", [arena_id]).fetchone()[0]
        age = datetime.datetime.now(datetime.timezone.utc) - datetime.datetime.fromisoformat(last.computed_at)
        if last.units >= counted or age.total_seconds() < FRESH_SECONDS:
            return last
    return refresh(db, arena_id)


def history(db: Database, arena_id: str) -> list[tuple[int, str, dict[int, Line]]]:
    """The arena's kept history points, oldest first: units covered, when, and per version [rating, error, LOS]."""
    return [
        (row[0], row[1], {int(v): line for v, line in json.loads(row[2]).items()})
        for row in db.execute("select units, at, lines from arena_history where arena_id = ? order by units",
                              [arena_id])
    ]
