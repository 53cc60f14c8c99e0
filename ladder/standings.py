"""Standings and head-to-head tables, computed from the stored results of complete units."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace

from sqlite_utils import Database

from .arenas import load_arena
from .ratings import Pairwise, bootstrap, fit, interval, pairwise, superiority


@dataclass(frozen=True)
class Standing:
    """One version's line in an arena."""

    version_id: int
    bot: str
    number: int
    rating: float
    low: float
    high: float
    games: int
    wins: int
    draws: int
    losses: int
    faults: int
    superiority: float | None = None
    """Likelihood of superiority over the next bot down the table (share of bootstrap fits rating it higher)."""


def _units(db: Database, arena_id: str) -> list[list[dict]]:
    rows = db.query(
        """
        select m.unit_id, m.seats, m.points, m.faults from matches m join units u on u.id = m.unit_id
        where m.arena_id = ? and u.status = 'done' order by m.unit_id, m.rotation
        """,
        [arena_id],
    )
    units: dict[str, list[dict]] = {}
    for row in rows:
        units.setdefault(row["unit_id"], []).append(
            {"seats": json.loads(row["seats"]), "points": json.loads(row["points"]), "faults": json.loads(row["faults"])}
        )
    return list(units.values())


def standings(db: Database, arena_id: str, samples: int = 200, seed: int = 0) -> list[Standing]:
    """Every version with results in ``arena_id``, best rating first, with 95% bootstrap intervals."""
    arena = load_arena(db, arena_id)
    units = _units(db, arena_id)
    players = sorted({v for unit in units for match in unit for v in match["seats"]})
    if not players:
        return []
    unit_results: list[list[Pairwise]] = [
        [r for match in unit for r in pairwise(match["seats"], match["points"])] for unit in units
    ]
    ratings = fit([r for u in unit_results for r in u], players, arena.match_length)
    fits = bootstrap(unit_results, players, arena.match_length, samples=samples, seed=seed)
    tally = {p: [0, 0, 0, 0, 0] for p in players}  # games, wins, draws, losses, faults
    for unit in units:
        for match in unit:
            best = max(match["points"])
            leaders = match["points"].count(best)
            for seat, version in enumerate(match["seats"]):
                line = tally[version]
                line[0] += 1
                if match["points"][seat] == best:
                    line[1 if leaders == 1 else 2] += 1
                else:
                    line[3] += 1
            for fault in match["faults"]:
                tally[match["seats"][fault["seat"]]][4] += 1
    names = {
        row["id"]: (row["name"], row["number"])
        for row in db.query("select v.id, v.number, b.name from versions v join bots b on b.id = v.bot_id")
    }
    out = []
    for player in players:
        low, high = interval(fits, player)
        name, number = names.get(player, (f"#{player}", 0))
        out.append(Standing(player, name, number, ratings[player], low, high, *tally[player]))
    out.sort(key=lambda s: -s.rating)
    return [
        replace(line, superiority=superiority(fits, line.version_id, below.version_id))
        for line, below in zip(out, out[1:], strict=False)
    ] + out[-1:]


def crosstable(db: Database, arena_id: str) -> tuple[list[str], dict[tuple[str, str], tuple[int, int]]]:
    """Head to head: bot labels, and (wins, games) of the row bot against the column bot."""
    names = {
        row["id"]: f"{row['name']} v{row['number']}"
        for row in db.query("select v.id, v.number, b.name from versions v join bots b on b.id = v.bot_id")
    }
    table: dict[tuple[str, str], tuple[int, int]] = {}
    labels: set[str] = set()
    for unit in _units(db, arena_id):
        for match in unit:
            for result in pairwise(match["seats"], match["points"]):
                a, b = names[result.a], names[result.b]
                labels.update((a, b))
                wins, games = table.get((a, b), (0, 0))
                table[(a, b)] = (wins + (result.score == 1.0), games + 1)
                wins, games = table.get((b, a), (0, 0))
                table[(b, a)] = (wins + (result.score == 0.0), games + 1)
    return sorted(labels), table
