"""The ladder as a service, the part that never sleeps: units chosen by the scheduler (:mod:`ladder.scheduler`),
played by the executor's workers, stored as any league's, for as long as the service runs.

Everything the club plays is one league (:data:`LEAGUE`) per arena. A unit is planned only when a worker is free
for it, so a stopped service leaves at most the units it was playing, which the next start plays first (the
matches they had finished count for nothing until the unit is whole, like any league's); a SIGKILL loses nothing
and doubles nothing.
"""

from __future__ import annotations

import datetime
import json
import logging
import sqlite3

import trio
from sqlite_utils import Database

from referee.chance import new_secret_seed
from referee.runtime.clock import DEFAULT_CLOCK, Clock

from . import fits
from .arenas import deals_of, load_arena
from .executor import Executor
from .league import clear_leftovers, plan_continuous, plan_pairing, run_units
from .registry import current_versions
from .retention import Pruned, prune_replays
from .scheduler import next_arena, next_group
from .store import connect, replay_folder
from .tallies import recent_matches
from .tournaments import runner as tournament_runner
from .tournaments.formats import FORMATS, Spec
from .tournaments.runner import TournamentError

log = logging.getLogger(__name__)

LEAGUE = "club"
IDLE = 2.0
"""Seconds to wait when no arena has enough bots to play."""
TOURNAMENT_CHECK = 30.0
"""Seconds between looks at whether a scheduled tournament is due."""
PRUNE_EVERY = 3600.0
"""Seconds between two prunes of old replays (``--keep-replays``)."""
TOURNAMENT_ROUNDS = 5
"""Rounds of a scheduled Swiss, gauntlet or tables tournament."""


def parse_schedule(text: str) -> tuple[str, str]:
    """``FORMAT:ARENA`` (a scheduled tournament of ``ladder serve --play --tournament``) as (format, arena).

    >>> parse_schedule("knockout:tabla-match")
    ('knockout', 'tabla-match')

    Raises:
        ValueError: not FORMAT:ARENA, or a format that needs more (a gauntlet's challenger).
    """
    fmt, _, arena = text.partition(":")
    if not arena or fmt not in FORMATS:
        raise ValueError(f"{text!r} is not FORMAT:ARENA (FORMAT one of {', '.join(FORMATS)})")
    if fmt == "gauntlet":
        raise ValueError("a gauntlet needs a challenger: run it with ladder tournament --format gauntlet")
    return fmt, arena


class Service:
    """Plays the club's units, ``concurrency`` matches at a time, until cancelled."""

    def __init__(
        self,
        db: Database,
        executor: Executor,
        concurrency: int = 2,
        clock: Clock = DEFAULT_CLOCK,
        tournaments: tuple[tuple[str, str], ...] = (),
        every_hours: float = 24.0,
        keep_replays_days: float | None = None,
    ) -> None:
        self.db = db
        self.path = db.execute("PRAGMA database_list").fetchone()[2]
        """The database's file, for the connections of worker threads."""
        self.keep_replays_days = keep_replays_days
        self.tournaments = tournaments
        self.every = datetime.timedelta(hours=every_hours)
        self.executor = executor
        self.concurrency = concurrency
        self.clock = clock
        self._matches = trio.CapacityLimiter(concurrency)
        self._open_units: set[str] = set()
        """The units being played, by the scheduler and the tournaments alike (see :func:`run_units`)."""
        self._units = trio.Semaphore(concurrency)

    def next_units(self, db: Database | None = None) -> list[str]:
        """Plan what the scheduler chooses next: a unit, or in a one-seat arena a new deal for every bot (its
        units); empty when no arena can play. On ``db`` when given (another connection: the service chooses in
        a worker thread, off the web's event loop)."""
        db = db or self.db
        arenas = [row["id"] for row in db.table("arenas").rows_where("coalesce(paused, 0) = 0")]
        active = {arena: [v["id"] for v in current_versions(db, arena)] for arena in arenas}
        seats = {arena: load_arena(db, arena).seats for arena in arenas}
        units = {arena: self._units_of(db, arena) for arena in arenas}
        for arena in arenas:  # a patience deals until every bot has played its arena's deals
            if seats[arena] == 1 and all(units[arena].get(v, 0) >= deals_of(db, arena) for v in active[arena]):
                active[arena] = []
        arena = next_arena(recent_matches(db), {a: len(v) for a, v in active.items()}, seats)
        if arena is None:
            return []
        if seats[arena] == 1:  # a patience is compared deal by deal: every bot plays the new deal
            first = plan_continuous(db, LEAGUE, arena)
            if first is None:
                return []
            deal = db.table("units").get(first)["round"]
            return [row["id"] for row in db.query(
                "select id from units where league = ? and arena_id = ? and round = ?", [LEAGUE, arena, deal]
            )]
        met: dict[tuple[int, ...], int] = {(row[0], row[1]): row[2] for row in db.execute(
            "select a, b, results from arena_pairs where arena_id = ? and results > 0", [arena])}
        fit = fits.stored(db, arena)  # the last fit, kept up to date by the league runner and the readers
        group = next_group(active[arena], fit.ratings if fit else {}, units[arena], met, seats[arena],
                           fit.errors if fit else None)
        return [] if group is None else [plan_pairing(db, LEAGUE, arena, group)]

    @staticmethod
    def _units_of(db: Database, arena: str) -> dict[int, int]:
        """Complete units of each version in the arena, as kept (:mod:`ladder.tallies`), and units of the
        service's league planned but not yet done (a patience's deals being played)."""
        units = {row[0]: row[1] for row in db.execute(
            "select version_id, units from arena_bots where arena_id = ?", [arena])}
        pending = "select versions from units where league = ? and arena_id = ? and status = 'pending'"
        for row in db.execute(pending, [LEAGUE, arena]):
            for version in json.loads(row[0]):
                units[version] = units.get(version, 0) + 1
        return units

    def _next_units_apart(self) -> list[str]:
        """:meth:`next_units` on a connection of its own (for a worker thread)."""
        db = connect(self.path)
        try:
            return self.next_units(db)
        finally:
            db.close()

    async def _play(self, units: list[str]) -> None:
        try:
            progress = await run_units(self.db, LEAGUE, self.executor, only=units, limiter=self._matches,
                                       open_units=self._open_units, clock=self.clock)
            for failure in progress.failures:
                log.warning("club: %s", failure)
        finally:
            self._units.release()

    def _due(self, fmt: str, arena: str) -> str | None:
        """The scheduled tournament of ``fmt`` in ``arena`` to play now: an unfinished one (a restart), or a new
        one when the last began ``every`` ago or more; None when none is due."""
        prefix = f"{fmt}-{arena}-"
        rows = list(self.db.query("select name, status, created_at from tournaments where name like ? "
                                  "order by created_at desc", [prefix + "%"]))
        for row in rows:
            if row["status"] != "done":
                return row["name"]
        last = datetime.datetime.fromisoformat(rows[0]["created_at"]) if rows else None
        started = datetime.datetime.now(datetime.timezone.utc)
        if last is not None and started - last < self.every:
            return None
        name = prefix + started.strftime("%Y%m%d-%H%M%S")
        seats = load_arena(self.db, arena).seats
        teams = load_arena(self.db, arena).options.get("teams", "none") != "none"
        spec = Spec(name=name, format=fmt, arena=arena, seats=seats, rounds=0 if fmt == "knockout" else TOURNAMENT_ROUNDS,
                    teams=teams, draw_seed=new_secret_seed())
        try:
            with self.db.atomic():
                tournament_runner.start(self.db, spec)
        except ValueError as exc:  # not enough bots yet: look again later
            log.info("club: tournament %s not started: %s", name, exc)
            return None
        return name

    async def tournaments_forever(self) -> None:
        """Play every scheduled tournament when it is due, its matches sharing the service's slots; its result
        is on the arena's page."""
        while True:
            for fmt, arena in self.tournaments:
                if not self.db.table("arenas").count_where("id = ?", [arena]):
                    continue
                name = self._due(fmt, arena)
                if name is None:
                    continue
                log.info("club: playing tournament %s", name)
                try:
                    await tournament_runner.play(self.db, name, self.executor, clock=self.clock, limiter=self._matches,
                                                 open_units=self._open_units)
                except TournamentError as exc:
                    log.warning("club: tournament %s: %s", name, exc)
            await trio.sleep(TOURNAMENT_CHECK)

    async def prune_forever(self) -> None:
        """Every :data:`PRUNE_EVERY` seconds, remove the replays older than the operator keeps (in a worker thread
        with its own connection)."""
        assert self.keep_replays_days is not None
        days = self.keep_replays_days

        def prune() -> Pruned:
            db = connect(self.path)
            try:
                return prune_replays(db, days)
            finally:
                db.close()

        while True:
            try:
                pruned = await trio.to_thread.run_sync(prune)
                if pruned.replays:
                    log.info("club: removed %d replays older than %g days (%.1f MB)", pruned.replays, days,
                             pruned.bytes / 1e6)
            except (sqlite3.OperationalError, OSError) as exc:
                log.warning("club: pruning replays: %s", exc)
            await trio.sleep(PRUNE_EVERY)

    async def play_forever(self) -> None:
        """Resume the units a stopped service left, then plan and play units for ever (and the scheduled
        tournaments when they are due)."""
        clear_leftovers(self.db, LEAGUE, replay_folder(self.db) / LEAGUE)
        left = [[row["id"]] for row in self.db.query(
            "select id from units where league = ? and status != 'done' order by rowid", [LEAGUE]
        )]
        async with self.executor.session(self.concurrency), trio.open_nursery() as nursery:
            if self.tournaments:
                nursery.start_soon(self.tournaments_forever)
            if self.keep_replays_days is not None:
                nursery.start_soon(self.prune_forever)
            while True:
                await self._units.acquire()
                try:
                    units = left.pop(0) if left else await trio.to_thread.run_sync(self._next_units_apart)
                except sqlite3.OperationalError as exc:  # a busy database: choose again after a pause
                    log.warning("club: choosing the next unit: %s", exc)
                    units = []
                if not units:
                    self._units.release()
                    await trio.sleep(IDLE)
                    continue
                log.info("club: playing %s", ", ".join(units))
                nursery.start_soon(self._play, units)
