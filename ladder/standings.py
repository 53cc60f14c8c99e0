"""Standings, head-to-head tables and rating histories, read from what the ladder keeps as units complete (the
arena's totals, :mod:`ladder.tallies`, and its fit, :mod:`ladder.fits`): the one source of the numbers that the
terminal (``ladder standings``) and the web show."""

from __future__ import annotations

import math
from collections.abc import Collection
from dataclasses import dataclass, replace

from sqlite_utils import Database

from . import fits
from .arenas import load_arena
from .ratings import MEAN

MIN_UNITS = 5
"""Complete units a bot needs before its interval (and its LOS) is shown: with fewer, resampling them says
nothing honest."""

COLUMNS = {
    "rating": "maximum-likelihood rating (match-length-aware logistic model, 1500 = the field's mean)",
    "95% interval": f"the rating ± 1.96 standard errors of the fit (its observed information); ? until a bot has "
                    f"{MIN_UNITS} units",
    "units": "complete duplicate units played (the same seed with the seats swapped, or a Gaps deal)",
    "games": "games (matches) played in those units",
    "W D L": "matches won, shared and lost (teams: the winning team's seats won; several seats: the only best "
             "place won, a shared best place shared; a patience: deals won, all cards placed, and deals not won)",
    "faults": "matches the bot lost by a fault (crash, timeout, illegal action, …)",
    "LOS next": "likelihood of superiority over the next bot down: the fit's probability that it is the stronger",
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
    """Likelihood of superiority over the next bot down the table (the fit's probability that it is the stronger);
    None for the last bot, and while either has fewer than :data:`MIN_UNITS` units."""
    trend: str = ""
    """The latest results, oldest first (:data:`ladder.tallies.TREND` at most)."""
    rated_at: str | None = None
    """When the fit the ratings come from was made."""


def history(db: Database, arena_id: str, versions: Collection[int] | None = None, points: int = 24) -> dict:
    """Every bot's rating (only ``versions``' when given) as the arena's units were completed, at up to ``points``
    of the kept moments (:func:`ladder.fits.history`): the units so far, the time, and per bot its rating with a
    95% band (±1.96 standard errors of the fit), None before its first unit. The last moment's ratings are the
    leaderboard's."""
    fits.current(db, arena_id)
    kept = fits.history(db, arena_id)
    step = max(1, math.ceil(len(kept) / points))
    chosen = kept[::-1][::step][::-1]
    names = version_labels(db)
    out: dict = {"units": [units for units, _, _ in chosen], "times": [at for _, at, _ in chosen], "bots": {}}
    for k, (_, _, lines) in enumerate(chosen):
        for version, (rating, error, _) in lines.items():
            if versions is not None and version not in versions:
                continue
            line = out["bots"].get(version)
            if line is None:
                line = out["bots"][version] = {"rating": [None] * len(chosen), "low": [None] * len(chosen),
                                               "high": [None] * len(chosen)}
            line["rating"][k] = round(rating, 1)
            line["low"][k] = round(rating - 1.96 * error, 1)
            line["high"][k] = round(rating + 1.96 * error, 1)
    out["bots"] = {names.get(version, f"#{version}"): line for version, line in out["bots"].items()}
    return out


def version_labels(db: Database) -> dict[int, str]:
    """Every version's label, ``NAME vN``."""
    return {
        row["id"]: f"{row['name']} v{row['number']}"
        for row in db.query("select v.id, v.number, b.name from versions v join bots b on b.id = v.bot_id")
    }


def standings(db: Database, arena_id: str, fresh: bool = False) -> list[Standing]:
    """Every version with results in ``arena_id``, best rating first, with 95% intervals: the arena's kept
    totals and its stored fit (:func:`ladder.fits.current`; with ``fresh``, refitted first if any unit is not in
    it). KeyError if there is no such arena."""
    load_arena(db, arena_id)
    fit = fits.refresh(db, arena_id) if fresh else fits.current(db, arena_id)
    rows = list(db.query(
        "select a.*, b.name, v.number from arena_bots a left join versions v on v.id = a.version_id "
        "left join bots b on b.id = v.bot_id where a.arena_id = ? and a.units > 0", [arena_id],
    ))
    if not rows:
        return []
    ratings = fit.ratings if fit is not None else {}
    errors = fit.errors if fit is not None else {}
    units = {row["version_id"]: row["units"] for row in rows}
    out = []
    for row in rows:
        version = row["version_id"]
        known = row["units"] >= MIN_UNITS and version in errors
        rating = ratings.get(version, MEAN)
        spread = 1.96 * errors[version] if known else None
        out.append(Standing(
            version, row["name"] or f"#{version}", row["number"] or 0, rating,
            None if spread is None else rating - spread, None if spread is None else rating + spread,
            row["units"], row["games"], row["wins"], row["draws"], row["losses"], row["faults"], None, row["trend"],
            fit.computed_at if fit is not None else None,
        ))
    out.sort(key=lambda line: (-line.rating, line.version_id))
    return [
        replace(line, superiority=fit.superiority.get(line.version_id))
        if fit is not None and units[line.version_id] >= MIN_UNITS and units[below.version_id] >= MIN_UNITS
        else line
        for line, below in zip(out, out[1:], strict=False)
    ] + out[-1:]


def crosstable(
    db: Database, arena_id: str, versions: Collection[int] | None = None
) -> tuple[list[str], dict[tuple[str, str], tuple[int, int]]]:
    """Head to head: bot labels, and (wins, games) of the row bot against the column bot (only the pairs of
    ``versions`` when given)."""
    names = version_labels(db)
    query = "select a, b, results, a_wins, b_wins from arena_pairs where arena_id = ? and results > 0"
    params: list = [arena_id]
    if versions is not None:
        marks = ",".join("?" * len(versions))
        query += f" and (a in ({marks}) or b in ({marks}))"
        params += [*versions, *versions]
    table: dict[tuple[str, str], tuple[int, int]] = {}
    for a, b, results, a_wins, b_wins in db.execute(query, params):
        a_label, b_label = names.get(a, f"#{a}"), names.get(b, f"#{b}")
        table[(a_label, b_label)] = (a_wins, results)
        table[(b_label, a_label)] = (b_wins, results)
    return sorted({label for pair in table for label in pair}), table
