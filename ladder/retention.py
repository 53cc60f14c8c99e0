"""How long a ladder keeps its replays: every result for ever, every replay of a tournament for ever, the other
replays for the days its operator chooses (``ladder prune --replays-older-than DAYS``, or ``ladder serve --play
--keep-replays DAYS``, which prunes every hour).

A pruned match keeps its row (result, faults, timings, the replay's hash); its replay path is cleared first and
the file removed after, so that a prune cut short leaves at worst a file no match names, never a match naming a
missing file.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from sqlite_utils import Database

from .store import resolved_path
from .tournaments import record


@dataclass(frozen=True)
class Pruned:
    """What a prune removed."""

    replays: int
    bytes: int


def prune_replays(db: Database, days: float, now: datetime.datetime | None = None) -> Pruned:
    """Remove the replays of matches finished more than ``days`` ago, except tournaments'; results stay."""
    now = now or datetime.datetime.now(datetime.timezone.utc)
    cutoff = (now - datetime.timedelta(days=days)).isoformat(timespec="seconds")
    kept = {record.league_of(name) for name in record.names(db)}
    rows = [
        (row["id"], row["replay_path"])
        for row in db.query(
            "select m.id, m.replay_path, u.league from matches m join units u on u.id = m.unit_id "
            "where coalesce(m.finished_at, m.started_at) < ? and m.replay_path is not null and m.status != 'running'",
            [cutoff],
        )
        if row["league"] not in kept
    ]
    with db.atomic():
        db.conn.executemany("update matches set replay_path = null where id = ?", [(match,) for match, _ in rows])
    removed = size = 0
    for _, stored in rows:
        path = resolved_path(db, stored)
        try:
            size += path.stat().st_size
            path.unlink()
            removed += 1
        except FileNotFoundError:
            continue
    return Pruned(removed, size)
