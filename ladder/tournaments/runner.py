"""Playing a tournament: pair a round, play its units (and any tie-break units), pair the next, until the format
says it is over. Every step is read back from the database first, so a run killed at any point resumes, when the
same command runs again, to the same result."""

from __future__ import annotations

from collections.abc import Callable

import trio
from sqlite_utils import Database

from referee.chance import new_secret_seed
from referee.runtime.clock import DEFAULT_CLOCK, Clock

from ..executor import Executor
from ..league import Progress, SeedSource, arena_ratings, clear_leftovers, plan_unit, run_units
from ..registry import current_versions
from ..store import replay_folder
from . import record
from .formats import Spec, check
from .tables import teams_of


class TournamentError(RuntimeError):
    """Matches of the tournament could not be played; the message says how many (rerun to resume)."""


def seeded_entrants(db: Database, arena: str, challenger: int | None = None) -> list[int]:
    """The arena's active bots (their newest versions) by rating, best first (unrated last, by name); a gauntlet's
    challenger first."""
    ratings = arena_ratings(db, arena)
    versions = current_versions(db, arena)
    ordered = sorted(versions, key=lambda v: (-ratings.get(v["id"], float("-inf")), v["bot"]))
    entrants = [v["id"] for v in ordered]
    if challenger is not None:
        entrants = [challenger] + [v for v in entrants if v != challenger]
    return entrants


def start(db: Database, spec: Spec, challenger: int | None = None) -> bool:
    """Create the tournament among the arena's active bots (False: it exists, and will resume).

    Raises:
        ValueError: the format cannot run in this arena with these bots (the message says why).
    """
    existing = db.table("tournaments").count_where("name = ?", [spec.name])
    if existing:
        return record.create(db, spec, [])
    entrants = seeded_entrants(db, spec.arena, challenger)
    if challenger is not None and challenger not in entrants:
        raise ValueError("the challenger is not an active bot of the arena")
    check(spec, len(entrants))
    if spec.teams:
        teams_of(entrants)
    with db.atomic():
        return record.create(db, spec, entrants)


async def play(
    db: Database,
    name: str,
    executor: Executor,
    *,
    concurrency: int = 2,
    clock: Clock = DEFAULT_CLOCK,
    new_seed: SeedSource = new_secret_seed,
    on_progress: Callable[[Progress], None] | None = None,
    on_round: Callable[[int], None] | None = None,
    limiter: trio.CapacityLimiter | None = None,
    open_units: set[str] | None = None,
) -> record.State:
    """Play the tournament ``name`` to its end; return its final state. The caller holds the database. With
    ``limiter`` and ``open_units`` its matches share the slots of other work (a club service's, see
    :func:`ladder.league.run_units`).

    Raises:
        TournamentError: matches failed to be played (what was played is kept; run again to resume).
    """
    league = record.league_of(name)
    clear_leftovers(db, league, replay_folder(db) / league)
    while True:
        current = record.state(db, name)
        if current.to_play:
            ids = [plan_unit(db, league, current.spec.arena, index, seats, new_seed) for index, seats in current.to_play]
            progress = await run_units(db, league, executor, concurrency=concurrency, clock=clock, only=ids,
                                       on_progress=on_progress, limiter=limiter,
                                       open_units=open_units)
            if progress.errors:
                raise TournamentError(f"{progress.errors} match(es) of the tournament could not be played: "
                                      "run the same command again to resume")
            continue
        nxt = current.spec.next_round(current.history) if current.status != "done" else None
        if nxt is None:
            if current.status != "done":
                record.finish(db, name)
                current = record.state(db, name)
            return current
        with db.atomic():
            record.store_round(db, name, nxt)
        if on_round:
            on_round(nxt.number)
