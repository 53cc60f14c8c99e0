"""A duel (``ladder duel``): duplicate units of one bot against another, until the SPRT decides."""

from __future__ import annotations

from collections.abc import Callable

from sqlite_utils import Database

from .arenas import load_arena
from .executor import Executor
from .league import Progress, plan_pairing, run_units, scores_of
from .sprt import SprtResult, sprt


async def duel(
    db: Database,
    executor: Executor,
    arena: str,
    a: int,
    b: int,
    *,
    elo0: float,
    elo1: float,
    alpha: float,
    beta: float,
    max_units: int,
    concurrency: int = 1,
    on_unit: Callable[[Progress, SprtResult], None] | None = None,
) -> SprtResult:
    """Play units of version ``a`` against version ``b`` in ``arena`` (league ``duel-ARENA-AvB``, resumed where an
    earlier duel of theirs stopped) until :func:`ladder.sprt.sprt` decides between H0 (``a`` at most ``elo0``
    stronger) and H1 (at least ``elo1``), or the league has ``max_units`` units; after each unit ``on_unit`` is
    told its progress and the test's state. Returns the test's last state."""
    length = load_arena(db, arena).match_length
    league = f"duel-{arena}-{a}v{b}"
    result = sprt(scores_of(db, league, a), elo0, elo1, length, alpha, beta)
    units = db.table("units").count_where("league = ?", [league])
    while result.decision is None and units < max_units:
        plan_pairing(db, league, arena, (a, b))
        progress = await run_units(db, league, executor, concurrency=concurrency)
        units += 1
        result = sprt(scores_of(db, league, a), elo0, elo1, length, alpha, beta)
        if on_unit is not None:
            on_unit(progress, result)
    return result
