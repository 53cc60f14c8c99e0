"""Standings and head-to-head tables, computed from the stored results of complete units: the one source of the
numbers that the terminal (``ladder standings``) and the web show."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, replace

from sqlite_utils import Database

from .arenas import ArenaSpec, load_arena
from .ratings import Pairwise, bootstrap, fit, fit_with_errors, interval, pairwise, superiority


MIN_UNITS = 5
"""Complete units a bot needs before its interval (and its LOS) is shown: with fewer, resampling them says
nothing honest."""

COLUMNS = {
    "rating": "maximum-likelihood rating (match-length-aware logistic model, 1500 = the field's mean)",
    "95% interval": f"the rating's 95% bootstrap interval over complete units; ? until a bot has {MIN_UNITS} units",
    "units": "complete duplicate units played (the same seed with the seats swapped, or a Gaps deal)",
    "games": "games (matches) played in those units",
    "W D L": "matches won, shared and lost (a patience: deals won, all cards placed, and deals not won)",
    "faults": "matches the bot lost by a fault (crash, timeout, illegal action, …)",
    "LOS next": "likelihood of superiority over the next bot down: the share of bootstrap fits rating it higher",
    "trend": "the latest results, oldest first: W won, D shared, L lost",
    "games/hour": "matches finished in the last hour (a club ladder's scheduler gives every bot its share)",
}
"""What each column of a leaderboard means, for ``ladder standings --help`` and the pages."""


@dataclass(frozen=True)
class Standing:
    """One version's line in an arena (the columns of :data:`COLUMNS`)."""

    version_id: int
    bot: str
    number: int
    rating: float
    low: float | None
    high: float | None
    units: int
    games: int
    wins: int
    draws: int
    losses: int
    faults: int
    superiority: float | None = None
    """Likelihood of superiority over the next bot down the table (share of bootstrap fits rating it higher);
    None for the last bot, and while either has fewer than :data:`MIN_UNITS` units."""


def _units(db: Database, arena: ArenaSpec) -> list[list[dict]]:
    """The matches of the arena's complete units, unit by unit in the order they were completed; in a one-seat
    arena, deal by deal (the matches of every bot on one deal form the unit that is compared and resampled). Each
    match carries its unit's completion time (``done_at``)."""
    rows = db.query(
        """
        select m.unit_id, m.seed, m.seats, m.points, m.faults, m.termination, u.done_at from matches m
        join units u on u.id = m.unit_id where m.arena_id = ? and u.status = 'done'
        order by u.done_at, m.unit_id, m.rotation
        """,
        [arena.id],
    )
    units: dict[object, list[dict]] = {}
    for row in rows:
        key = row["seed"] if arena.seats == 1 else row["unit_id"]
        match = {field: json.loads(row[field]) for field in ("seats", "points", "faults")}
        match["termination"] = row["termination"]
        match["done_at"] = row["done_at"]
        units.setdefault(key, []).append(match)
    return list(units.values())


def history(db: Database, arena_id: str, points: int = 24) -> dict:
    """Every bot's rating as the arena's units were completed, at up to ``points`` moments: the units so far, the
    time, and per bot its rating with a 95% band (±1.96 standard errors of the fit), None before its first unit.
    The last moment's ratings are the leaderboard's."""
    arena = load_arena(db, arena_id)
    units = _units(db, arena)
    names = version_labels(db)
    unit_results = [_results(arena, unit) for unit in units]
    step = max(1, math.ceil(len(units) / points))
    marks = sorted({*range(step, len(units) + 1, step), len(units)} - {0})
    out: dict = {"units": marks, "times": [units[mark - 1][0]["done_at"] for mark in marks], "bots": {}}
    for k, mark in enumerate(marks):
        played = {v for unit in units[:mark] for match in unit for v in match["seats"]}
        ratings, errors = fit_with_errors([r for u in unit_results[:mark] for r in u], played, arena.match_length)
        for version in played:
            line = out["bots"].setdefault(names.get(version, f"#{version}"), {"rating": [None] * len(marks),
                                                                              "low": [None] * len(marks),
                                                                              "high": [None] * len(marks)})
            line["rating"][k] = round(ratings[version], 1)
            line["low"][k] = round(ratings[version] - 1.96 * errors[version], 1)
            line["high"][k] = round(ratings[version] + 1.96 * errors[version], 1)
    return out


def version_labels(db: Database) -> dict[int, str]:
    """Every version's label, ``NAME vN``."""
    return {
        row["id"]: f"{row['name']} v{row['number']}"
        for row in db.query("select v.id, v.number, b.name from versions v join bots b on b.id = v.bot_id")
    }


def _results(arena: ArenaSpec, unit: list[dict]) -> list[Pairwise]:
    """A unit's pairwise results: within each match, or, in a one-seat arena, between the bots' scores on the
    deal (more cards placed beats fewer; a win places them all)."""
    if arena.seats == 1:
        return pairwise([match["seats"][0] for match in unit], [match["points"][0] for match in unit])
    return [r for match in unit for r in pairwise(match["seats"], match["points"])]


def standings(db: Database, arena_id: str, samples: int = 200, seed: int = 0) -> list[Standing]:
    """Every version with results in ``arena_id``, best rating first, with 95% bootstrap intervals."""
    arena = load_arena(db, arena_id)
    units = _units(db, arena)
    players = sorted({v for unit in units for match in unit for v in match["seats"]})
    if not players:
        return []
    unit_results: list[list[Pairwise]] = [_results(arena, unit) for unit in units]
    ratings = fit([r for u in unit_results for r in u], players, arena.match_length)
    fits = bootstrap(unit_results, players, arena.match_length, samples=samples, seed=seed)
    tally = {p: [0, 0, 0, 0, 0] for p in players}  # games, wins, draws, losses, faults
    unit_count = dict.fromkeys(players, 0)
    for unit in units:
        for version in {v for match in unit for v in match["seats"]}:
            unit_count[version] += 1
        for match in unit:
            for version in match["seats"]:
                tally[version][0] += 1
            for fault in match["faults"]:
                tally[match["seats"][fault["seat"]]][4] += 1
        if arena.seats == 1:  # a patience: the deal won (every card placed) or not
            for match in unit:
                tally[match["seats"][0]][1 if match["termination"] == "win" else 3] += 1
            continue
        for match in unit:
            best = max(match["points"])
            leaders = match["points"].count(best)
            for seat, version in enumerate(match["seats"]):
                if match["points"][seat] == best:
                    tally[version][1 if leaders == 1 else 2] += 1
                else:
                    tally[version][3] += 1
    names = {
        row["id"]: (row["name"], row["number"])
        for row in db.query("select v.id, v.number, b.name from versions v join bots b on b.id = v.bot_id")
    }
    out = []
    for player in players:
        known = unit_count[player] >= MIN_UNITS
        low, high = interval(fits, player) if known else (None, None)
        name, number = names.get(player, (f"#{player}", 0))
        out.append(Standing(player, name, number, ratings[player], low, high, unit_count[player], *tally[player]))
    out.sort(key=lambda s: -s.rating)
    return [
        replace(line, superiority=superiority(fits, line.version_id, below.version_id))
        if line.low is not None and below.low is not None
        else line
        for line, below in zip(out, out[1:], strict=False)
    ] + out[-1:]


def crosstable(db: Database, arena_id: str) -> tuple[list[str], dict[tuple[str, str], tuple[int, int]]]:
    """Head to head: bot labels, and (wins, games) of the row bot against the column bot."""
    names = version_labels(db)
    table: dict[tuple[str, str], tuple[int, int]] = {}
    labels: set[str] = set()
    arena = load_arena(db, arena_id)
    for unit in _units(db, arena):
        for result in _results(arena, unit):
            a, b = names[result.a], names[result.b]
            labels.update((a, b))
            wins, games = table.get((a, b), (0, 0))
            table[(a, b)] = (wins + (result.score == 1.0), games + 1)
            wins, games = table.get((b, a), (0, 0))
            table[(b, a)] = (wins + (result.score == 0.0), games + 1)
    return sorted(labels), table
