"""Running totals of an arena, kept as its units are stored so that no page reads every match: per version its
units, games, wins, draws, losses, faults (and its faults by day, its games by minute for the last hour) and latest
results, and per pair of versions the sums of their pairwise results (what the rating fit needs,
:data:`ladder.ratings.Totals`) and their head-to-head record.

:func:`record_unit` runs inside the transaction that marks a unit done, so the totals always hold exactly the
arena's complete units; :func:`rebuild` recounts an arena from its stored matches (a database made before the
totals were kept). In a one-seat arena (a patience) a deal's bots are compared with each other: the deal's
pairwise results are replaced as each bot plays it (each pair weighted 1/(n−1) for n bots on the deal).
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Sequence

from sqlite_utils import Database

from referee.games import GapsTermination

from .ratings import Pairwise, Totals, pairwise

TREND = 10
"""How many of a version's latest results its trend keeps."""
RECENT_MINUTES = 60
"""How far back the games of each minute are kept (a leaderboard's games in the last hour)."""


def create_tables(db: Database) -> None:
    """The totals' tables (a migration's step)."""
    db.table("arena_bots").create(
        {"arena_id": str, "version_id": int, "units": int, "games": int, "wins": int, "draws": int, "losses": int,
         "faults": int, "trend": str},
        pk=("arena_id", "version_id"),
    )
    db.table("arena_pairs").create(
        {"arena_id": str, "a": int, "b": int, "weight": float, "score": float, "results": int, "a_wins": int,
         "b_wins": int},
        pk=("arena_id", "a", "b"),
    )
    db.table("arena_pairs").create_index(["arena_id", "b"])
    db.table("arena_minutes").create(
        {"arena_id": str, "minute": str, "version_id": int, "games": int}, pk=("arena_id", "minute", "version_id")
    )
    db.table("arena_faults").create(
        {"arena_id": str, "version_id": int, "day": str, "faults": int}, pk=("arena_id", "version_id", "day")
    )
    db.table("arena_faults").create_index(["version_id"])
    db.table("arenas").add_column("counted", int, not_null_default=0)


def _letters(points: Sequence[int], teams: bool = False) -> list[str]:
    """Each seat's result in a match: W (the only best; at a table of teams, the best team's seats), D (a shared
    best: between teams, every seat) or L.

    >>> _letters([2, 0]), _letters([1, 1]), _letters([3, 1, 3, 0])
    (['W', 'L'], ['D', 'D'], ['D', 'L', 'D', 'L'])
    >>> _letters([2, 0, 2, 0], teams=True), _letters([0, 0, 0, 0], teams=True)
    (['W', 'L', 'W', 'L'], ['D', 'D', 'D', 'D'])
    """
    best = max(points)
    shared = points.count(best) == len(points) if teams else points.count(best) > 1
    return ["L" if p != best else "D" if shared else "W" for p in points]


def _add_version(db: Database, arena_id: str, version: int, units: int, letters: str, faults: int) -> None:
    db.execute(
        """
        insert into arena_bots (arena_id, version_id, units, games, wins, draws, losses, faults, trend)
        values (?, ?, ?, ?, ?, ?, ?, ?, ?)
        on conflict (arena_id, version_id) do update set
            units = units + excluded.units, games = games + excluded.games, wins = wins + excluded.wins,
            draws = draws + excluded.draws, losses = losses + excluded.losses, faults = faults + excluded.faults,
            trend = substr(trend || excluded.trend, -?)
        """,
        [arena_id, version, units, len(letters), letters.count("W"), letters.count("D"), letters.count("L"), faults,
         letters[-TREND:], TREND],
    )


def _add_pairs(db: Database, arena_id: str, results: Sequence[Pairwise], sign: int = 1) -> None:
    """Add (``sign=-1``: take away) pairwise results to the arena's pair lines, one statement per pair."""
    lines: dict[tuple[int, int], list[float]] = {}
    for r in results:
        a, b, score = (r.a, r.b, r.score) if r.a < r.b else (r.b, r.a, 1.0 - r.score)
        line = lines.setdefault((a, b), [0.0, 0.0, 0, 0, 0])
        for k, value in enumerate((r.weight, r.weight * score, 1, score == 1.0, score == 0.0)):
            line[k] += sign * value
    db.conn.executemany(
        """
        insert into arena_pairs (arena_id, a, b, weight, score, results, a_wins, b_wins) values (?, ?, ?, ?, ?, ?, ?, ?)
        on conflict (arena_id, a, b) do update set
            weight = weight + excluded.weight, score = score + excluded.score, results = results + excluded.results,
            a_wins = a_wins + excluded.a_wins, b_wins = b_wins + excluded.b_wins
        """,
        [[arena_id, a, b, *line] for (a, b), line in lines.items()],
    )


def _deal(db: Database, arena_id: str, seed: str, without: str) -> list[dict]:
    """The other complete matches of a one-seat arena's deal."""
    return [
        {"seats": json.loads(row["seats"]), "points": json.loads(row["points"])}
        for row in db.query(
            "select m.seats, m.points from matches m join units u on u.id = m.unit_id "
            "where m.arena_id = ? and m.seed = ? and u.status = 'done' and m.unit_id != ? order by m.rowid",
            [arena_id, seed, without],
        )
    ]


def _deal_results(matches: Sequence[dict]) -> list[Pairwise]:
    return pairwise([m["seats"][0] for m in matches], [m["points"][0] for m in matches]) if len(matches) > 1 else []


def _minute(moment: str) -> str:
    """The minute of an ISO time, as :data:`arena_minutes` keys it.

    >>> _minute("2026-12-05T11:45:46+00:00")
    '2026-12-05T11:45'
    """
    return moment[:16]


def _count_versions(db: Database, arena_id: str, seats: int, matches: Sequence[dict], finished: str) -> None:
    """Add a unit's matches, ``finished`` at that time, to its versions' lines, their faults of the day and the
    games of its minute (kept for :data:`RECENT_MINUTES`)."""
    faults: dict[int, int] = {}
    letters: dict[int, str] = {}
    options = db.execute("select options from arenas where id = ?", [arena_id]).fetchone()
    teams = options is not None and json.loads(options[0] or "{}").get("teams", "none") != "none"
    for match in matches:
        for fault in match["faults"]:
            version = match["seats"][fault["seat"]]
            faults[version] = faults.get(version, 0) + 1
        if seats == 1:  # a patience: the deal won (every card placed) or not
            marks = ["W" if match["termination"] == GapsTermination.WIN else "L"]
        else:
            marks = _letters(match["points"], teams)
        for version, mark in zip(match["seats"], marks, strict=True):
            letters[version] = letters.get(version, "") + mark
    for version, line in letters.items():
        _add_version(db, arena_id, version, 1, line, faults.get(version, 0))
    db.conn.executemany(
        "insert into arena_faults (arena_id, version_id, day, faults) values (?, ?, ?, ?) "
        "on conflict (arena_id, version_id, day) do update set faults = faults + excluded.faults",
        [(arena_id, version, finished[:10], count) for version, count in faults.items()],
    )
    db.conn.executemany(
        "insert into arena_minutes (arena_id, minute, version_id, games) values (?, ?, ?, ?) "
        "on conflict (arena_id, minute, version_id) do update set games = games + excluded.games",
        [(arena_id, _minute(finished), version, len(marks)) for version, marks in letters.items()],
    )
    db.execute("update arenas set counted = counted + 1 where id = ?", [arena_id])


def record_unit(
    db: Database, arena_id: str, seats: int, unit_id: str, matches: Sequence[dict], finished: str
) -> None:
    """Count a complete unit, ``finished`` at that time (ISO): ``matches`` as stored (``seats``, ``points``,
    ``faults`` and ``termination``, the lists decoded; a one-seat arena's also ``seed``). Call inside the
    transaction that marks it done."""
    _count_versions(db, arena_id, seats, matches, finished)
    oldest = (datetime.datetime.fromisoformat(finished) - datetime.timedelta(minutes=RECENT_MINUTES)).isoformat()
    db.execute("delete from arena_minutes where arena_id = ? and minute < ?", [arena_id, _minute(oldest)])
    if seats > 1:
        _add_pairs(db, arena_id, [r for m in matches for r in pairwise(m["seats"], m["points"])])
        return
    for match in matches:
        before = _deal(db, arena_id, match["seed"], unit_id)
        _add_pairs(db, arena_id, _deal_results(before), -1)
        _add_pairs(db, arena_id, _deal_results([*before, match]))


def rebuild(db: Database, arena_id: str) -> None:
    """Count the arena's complete units again from its stored matches, in the order they were completed."""
    db.execute("delete from arena_bots where arena_id = ?", [arena_id])
    db.execute("delete from arena_pairs where arena_id = ?", [arena_id])
    db.execute("delete from arena_minutes where arena_id = ?", [arena_id])
    db.execute("delete from arena_faults where arena_id = ?", [arena_id])
    db.execute("update arenas set counted = 0 where id = ?", [arena_id])
    seats = db.execute("select seats from arenas where id = ?", [arena_id]).fetchone()[0]
    units: dict[str, list[dict]] = {}
    finished: dict[str, str] = {}
    deals: dict[str, list[dict]] = {}
    for row in db.query(
        "select m.unit_id, m.seed, m.seats, m.points, m.faults, m.termination, u.done_at from matches m "
        "join units u on u.id = m.unit_id where m.arena_id = ? and u.status = 'done' "
        "order by u.done_at, m.unit_id, m.rotation",
        [arena_id],
    ):
        match = {field: json.loads(row[field]) for field in ("seats", "points", "faults")}
        match["termination"] = row["termination"]
        units.setdefault(row["unit_id"], []).append(match)
        finished[row["unit_id"]] = row["done_at"] or ""
        deals.setdefault(row["seed"], []).append(match)
    since = _minute((datetime.datetime.now(datetime.timezone.utc)
                     - datetime.timedelta(minutes=RECENT_MINUTES)).isoformat())
    for unit_id, matches in units.items():
        _count_versions(db, arena_id, seats, matches, finished[unit_id])
        if seats > 1:
            _add_pairs(db, arena_id, [r for m in matches for r in pairwise(m["seats"], m["points"])])
    if seats == 1:
        for matches in deals.values():
            _add_pairs(db, arena_id, _deal_results(matches))
    db.execute("delete from arena_minutes where arena_id = ? and minute < ?", [arena_id, since])


def totals(db: Database, arena_id: str) -> Totals:
    """The arena's pairwise sums, as :func:`ladder.ratings.fit_totals` reads them."""
    return {
        (row["a"], row["b"]): (row["weight"], row["score"])
        for row in db.query("select a, b, weight, score from arena_pairs where arena_id = ?", [arena_id])
    }


def recent_games(db: Database, arena_id: str, minutes: int = RECENT_MINUTES) -> dict[int, int]:
    """Each version's games in the arena's units completed in the last ``minutes`` (whole minutes)."""
    since = _minute((datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(minutes=minutes)).isoformat())
    return {row[0]: row[1] for row in db.execute(
        "select version_id, sum(games) from arena_minutes where arena_id = ? and minute > ? group by version_id",
        [arena_id, since])}


def recent_matches(db: Database, minutes: int = RECENT_MINUTES) -> dict[str, int]:
    """Each arena's matches in its units completed in the last ``minutes`` (whole minutes)."""
    since = _minute((datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(minutes=minutes)).isoformat())
    return {row[0]: row[1] for row in db.execute(
        "select m.arena_id, sum(m.games) / a.seats from arena_minutes m join arenas a on a.id = m.arena_id "
        "where m.minute > ? group by m.arena_id", [since])}


def faults_by_day(db: Database, versions: Sequence[int]) -> list[tuple[str, int]]:
    """The faults of ``versions`` in every arena, by day (UTC), oldest first."""
    return [(row[0], row[1]) for row in db.execute(
        f"select day, sum(faults) from arena_faults where version_id in ({','.join('?' * len(versions))}) "
        f"group by day order by day", list(versions))]
