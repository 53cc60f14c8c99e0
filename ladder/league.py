"""Leagues: plan the units of a schedule, run them through an executor K matches at a time, store each unit's
results in one transaction.

Duplicate chance: a unit is one pairing and one seed, played once per rotation of the seats (twice for two seats),
so luck cancels out; the unit is stored as one unit, and only complete units count. Every unit's seed is a fresh
secret (:func:`referee.chance.new_secret_seed`, or the ``new_seed`` a caller passes), kept in the database and
handed to the referee as a secret: no bot can derive it from what it is sent. A one-seat arena (a patience) is
played in duplicate by deals: every bot entered when a deal is made plays it, and a bot entered later gets new
deals (played by every bot again), never one whose seed and replays are already public. Crash safety: a unit's rows
are planned before anything runs, and a unit becomes ``done`` only in the transaction that stores its results, so
killing the ladder at any moment and running the same command again finishes the league without a lost or
doubled result (an interrupted unit is simply played again).
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import logging
import math
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import trio
from sqlite_utils import Database

import referee
from referee.chance import new_secret_seed
from referee.replay import compress_replay
from referee.runtime.clock import DEFAULT_CLOCK, Clock
from referee.runtime.hello import Entrant

from . import fits
from .arenas import ArenaSpec, load_arena
from .executor import Executor, MatchJob, MatchResult
from .registry import copies_folder, current_versions
from .store import connect, now, replay_folder, resolved_path, stored_path
from .tallies import record_unit

log = logging.getLogger(__name__)

SCHEDULES = ("round-robin", "gauntlet", "continuous")

SeedSource = Callable[[], str]
"""Makes the chance seed of a new unit (a one-seat arena: of a new deal)."""


@dataclass
class Progress:
    """What a running league reports after every match."""

    total: int = 0
    done: int = 0
    running: int = 0
    faults: int = 0
    errors: int = 0
    seconds_per_match: float = 0.0
    failures: list[str] = field(default_factory=list)
    """One line per match that failed for a reason that is not a bot's fault (``MATCH: why``), in order."""

    @property
    def eta_seconds(self) -> float | None:
        """A rough estimate of the time left, once a match has finished to base it on."""
        return (self.total - self.done) * self.seconds_per_match if self.done else None

    def add(self, other: Progress) -> None:
        """Count ``other``'s matches in these (the sum of a league's steps)."""
        self.total += other.total
        self.done += other.done
        self.faults += other.faults
        self.errors += other.errors
        self.failures += other.failures


def rotations(pairing: Sequence[int]) -> list[tuple[int, ...]]:
    """Every rotation of the seats.

    >>> rotations((1, 2, 3))
    [(1, 2, 3), (2, 3, 1), (3, 1, 2)]
    """
    return [tuple(pairing[i:]) + tuple(pairing[:i]) for i in range(len(pairing))]


def pairings(schedule: str, versions: Sequence[int], seats: int, challenger: int | None = None) -> list[tuple[int, ...]]:
    """The pairings of one round: all seat-sized groups (round robin) or the challenger against each group of
    the others (gauntlet).

    >>> pairings("round-robin", [1, 2, 3], 2)
    [(1, 2), (1, 3), (2, 3)]
    >>> pairings("gauntlet", [1, 2, 3], 2, challenger=3)
    [(3, 1), (3, 2)]
    """
    if schedule == "round-robin":
        return list(itertools.combinations(versions, seats))
    if schedule == "gauntlet":
        if challenger is None or challenger not in versions:
            raise ValueError("a gauntlet needs a challenger entered in the arena")
        others = [v for v in versions if v != challenger]
        return [(challenger, *group) for group in itertools.combinations(others, seats - 1)]
    raise ValueError(f"unknown schedule {schedule!r} (one of {', '.join(SCHEDULES)})")


def unit_id_of(league: str, arena_id: str, index: int, pairing: Sequence[int]) -> str:
    """The id of round (or deal) ``index`` of ``pairing`` in ``league``.

    >>> unit_id_of("l", "tapa", 0, (1, 2))
    'l-tapa-r0-1v2'
    """
    return f"{league}-{arena_id}-r{index}-{'v'.join(map(str, pairing))}"


def _insert_unit(db: Database, league: str, arena: ArenaSpec, index: int, pairing: tuple[int, ...], seed: str) -> None:
    """Plan one unit and its matches (nothing happens if it exists: its seed stays)."""
    unit_id = unit_id_of(league, arena.id, index, pairing)
    db.table("units").insert(
        {
            "id": unit_id,
            "league": league,
            "arena_id": arena.id,
            "round": index,
            "seed": seed,
            "versions": json.dumps(list(pairing)),
            "status": "pending",
        },
        pk="id",
        ignore=True,
    )
    for number, seats in enumerate(rotations(pairing)):
        db.table("matches").insert(
            {
                "id": f"{unit_id}-{number}",
                "unit_id": unit_id,
                "arena_id": arena.id,
                "rotation": number,
                "seed": seed,
                "seats": json.dumps(seats),
                "status": "pending",
            },
            pk="id",
            ignore=True,
        )
        db.table("match_seats").insert_all(
            [{"match_id": f"{unit_id}-{number}", "version_id": v} for v in set(seats)], pk=("match_id", "version_id"),
            ignore=True,
        )


def _unit_exists(db: Database, unit_id: str) -> bool:
    return db.table("units").count_where("id = ?", [unit_id]) > 0


def _new_deals(
    db: Database, league: str, arena: ArenaSpec, versions: Sequence[int], count: int, new_seed: SeedSource
) -> int:
    """A one-seat arena: ``count`` new deals, each played by every one of ``versions``; returns the first deal's
    number. A deal is never added to later: a bot that joins gets new deals, not ones already played (whose
    seeds are revealed in their replays)."""
    row = db.execute("select max(round) from units where league = ? and arena_id = ?", [league, arena.id]).fetchone()
    first = 0 if row[0] is None else row[0] + 1
    for deal in range(first, first + count):
        seed = new_seed()
        for version in versions:
            _insert_unit(db, league, arena, deal, (version,), seed)
    return first


def plan(
    db: Database,
    league: str,
    arena_id: str,
    schedule: str,
    rounds: int,
    challenger: int | None = None,
    new_seed: SeedSource = new_secret_seed,
) -> int:
    """Create the units of a round-robin or gauntlet league (idempotent: what exists keeps its seeds); return how
    many units it has. In a one-seat arena each bot gets ``rounds`` deals: when one has fewer, new deals are made
    for every entered bot."""
    arena = load_arena(db, arena_id)
    versions = [v["id"] for v in current_versions(db, arena_id)]
    groups = pairings(schedule, versions, arena.seats, challenger)
    with db.atomic():
        if arena.seats == 1:
            units = db.table("units")
            dealt = {v: units.count_where("league = ? and versions = ?", [league, json.dumps([v])]) for v in versions}
            missing = max((rounds - count for count in dealt.values()), default=0)
            if missing > 0:
                _new_deals(db, league, arena, versions, missing, new_seed)
        else:
            for round_number in range(rounds):
                for pairing in groups:
                    if not _unit_exists(db, unit_id_of(league, arena.id, round_number, pairing)):
                        _insert_unit(db, league, arena, round_number, pairing, new_seed())
    return db.table("units").count_where("league = ?", [league])


def plan_continuous(db: Database, league: str, arena_id: str, new_seed: SeedSource = new_secret_seed) -> str | None:
    """Add the next most informative unit: the pairing with the fewest completed units, then the closest
    ratings (a one-seat arena: a new deal for every bot). Returns its id (None when fewer bots than seats are
    entered)."""
    arena = load_arena(db, arena_id)
    versions = [v["id"] for v in current_versions(db, arena_id)]
    groups = pairings("round-robin", versions, arena.seats)
    if not groups:
        return None
    if arena.seats == 1:
        with db.atomic():
            deal = _new_deals(db, league, arena, versions, 1, new_seed)
        return unit_id_of(league, arena.id, deal, groups[0])
    ratings = arena_ratings(db, arena_id)
    played: dict[tuple[int, ...], int] = {}
    for row in db.query("select versions from units where league = ? and arena_id = ?", [league, arena_id]):
        key = tuple(json.loads(row["versions"]))
        played[key] = played.get(key, 0) + 1

    def informative(group: tuple[int, ...]) -> tuple[int, float]:
        spread = max(ratings.get(v, 1500.0) for v in group) - min(ratings.get(v, 1500.0) for v in group)
        return (played.get(group, 0), spread)

    group = min(groups, key=informative)
    index = played.get(group, 0)
    with db.atomic():
        _insert_unit(db, league, arena, index, group, new_seed())
    return unit_id_of(league, arena.id, index, group)


def plan_unit(
    db: Database, league: str, arena_id: str, index: int, pairing: tuple[int, ...], new_seed: SeedSource = new_secret_seed
) -> str:
    """Plan unit ``index`` of ``pairing`` in the league (nothing changes, and no seed is drawn, if it exists);
    return its id."""
    unit_id = unit_id_of(league, arena_id, index, pairing)
    if not db.table("units").count_where("id = ?", [unit_id]):
        with db.atomic():
            _insert_unit(db, league, load_arena(db, arena_id), index, pairing, new_seed())
    return unit_id


def plan_pairing(
    db: Database, league: str, arena_id: str, pairing: tuple[int, ...], new_seed: SeedSource = new_secret_seed
) -> str:
    """Add one more unit of ``pairing`` to the league (a duel's next step); return its id."""
    arena = load_arena(db, arena_id)
    index = db.table("units").count_where("league = ? and versions = ?", [league, json.dumps(list(pairing))])
    with db.atomic():
        _insert_unit(db, league, arena, index, pairing, new_seed())
    return unit_id_of(league, arena.id, index, pairing)


def scores_of(db: Database, league: str, version: int) -> list[float]:
    """``version``'s score (1, 0.5, 0) in every stored two-seat match of the league's complete units."""
    scores = []
    for row in db.query(
        "select m.seats, m.points from matches m join units u on u.id = m.unit_id "
        "where u.league = ? and u.status = 'done' order by m.rowid",
        [league],
    ):
        seats, points = json.loads(row["seats"]), json.loads(row["points"])
        mine, theirs = points[seats.index(version)], points[1 - seats.index(version)]
        scores.append(1.0 if mine > theirs else 0.5 if mine == theirs else 0.0)
    return scores


def arena_ratings(db: Database, arena_id: str) -> dict[int, float]:
    """Point ratings of every version with results in the arena, as last stored (:mod:`ladder.fits`)."""
    kept = fits.stored(db, arena_id)
    return kept.ratings if kept is not None else {}


class MissingBots(ValueError):
    """A bot the league would play is not where the database says; the message names every one."""


def _pending_units(db: Database, league: str) -> list[dict]:
    return list(db.query("select * from units where league = ? and status != 'done' order by rowid", [league]))


@dataclass(frozen=True)
class Seated:
    """A version as a match seats it: where it is, and who its Hello must say it is."""

    path: str
    entrant: Entrant


def seated_versions(db: Database, versions: Iterable[int]) -> dict[int, Seated]:
    """Each of ``versions`` as a match seats it, its folder (or file) checked to exist, and to be one of the
    league's copies (links followed), before anything is played: whatever else writes the database (a club's web
    runs as another user), the ladder runs only the bots it copied.

    Raises:
        MissingBots: a version's copy is missing, or is not one of the league's copies.
    """
    wanted = sorted(set(versions))
    rows = db.query(
        f"select v.id, v.number, v.path, v.version, v.games, b.name from versions v join bots b on b.id = v.bot_id "
        f"where v.id in ({','.join('?' * len(wanted))})",
        wanted,
    ) if wanted else []
    paths, missing, outside = {}, [], []
    copies = copies_folder(db).resolve()
    for row in rows:
        path = resolved_path(db, row["path"])
        paths[row["id"]] = Seated(str(path), Entrant(row["name"], row["version"], tuple(json.loads(row["games"]))))
        if not path.exists():
            missing.append(f"{row['name']} v{row['number']} at {path}")
        elif not path.resolve().is_relative_to(copies):
            outside.append(f"{row['name']} v{row['number']} at {path}")
    if missing:
        raise MissingBots(
            f"bots missing: {'; '.join(missing)} (a league keeps its bots in the folder beside its database; "
            "move the database with its folders)"
        )
    if outside:
        raise MissingBots(f"bots outside the league's copies ({copies}): {'; '.join(outside)} (the database was "
                          "changed by hand, or by something else than the ladder: it runs only the bots it copied)")
    return paths


def clear_leftovers(db: Database, league: str, folder: Path) -> None:
    """What a run that was killed left: matches shown as running, unfinished replay files."""
    with db.atomic():
        db.execute(
            "update matches set status = 'pending', started_at = null where status = 'running' and unit_id in "
            "(select id from units where league = ?)",
            [league],
        )
    for partial in folder.glob(".*.part"):
        partial.unlink(missing_ok=True)


async def run_units(
    db: Database,
    league: str,
    executor: Executor,
    *,
    concurrency: int = 1,
    on_progress: Callable[[Progress], None] | None = None,
    clock: Clock = DEFAULT_CLOCK,
    only: Sequence[str] | None = None,
    limiter: trio.CapacityLimiter | None = None,
    open_units: set[str] | None = None,
) -> Progress:
    """Play every unfinished unit of ``league``, ``concurrency`` matches at a time. The caller holds the database
    (:func:`ladder.writer.hold_database`). When it is cancelled (Ctrl-C), the matches it was playing are left
    ``pending`` for the next run.

    With ``only`` it plays just those units (a club ladder plays one unit per call, several calls at a time,
    sharing one ``limiter`` of matches in flight and one set of ``open_units``), and leaves the league's other
    matches and files alone. Each match is handed out with the units being played at that moment, so that no bot
    process that played one of them plays again before its unit is over (:mod:`referee.runtime.seating`).

    Raises:
        MissingBots: a bot of the league is not where the database says (nothing was played).
    """
    units = [u for u in _pending_units(db, league) if only is None or u["id"] in only]
    versions = seated_versions(db, (v for unit in units for v in json.loads(unit["versions"])))
    folder = replay_folder(db) / league
    if only is None:
        clear_leftovers(db, league, folder)
    progress = Progress(total=sum(len(json.loads(u["versions"])) for u in units))
    limiter = limiter or trio.CapacityLimiter(concurrency)
    playing = open_units if open_units is not None else set()
    spent = 0.0

    def report() -> None:
        if on_progress is not None:
            on_progress(progress)

    async def run_match(arena: ArenaSpec, match: dict) -> MatchResult:
        nonlocal spent
        async with limiter:
            playing.add(match["unit_id"])
            progress.running += 1
            report()
            with db.atomic():  # shown as running (ladder serve); the unit's results replace it in one transaction
                db.execute("update matches set status = 'running', started_at = ? where id = ?", [now(), match["id"]])
            seats = json.loads(match["seats"])
            job = MatchJob(
                match_id=match["id"],
                game=arena.game,
                options=arena.options,
                bots=tuple(versions[v].path for v in seats),
                seed=str(match["seed"]),
                replay=str(folder / f"{match['id']}.jsonl"),
                clock=clock,
                unit=match["unit_id"],
                open_units=tuple(sorted(playing - {match["unit_id"]})),
                entrants=tuple(versions[v].entrant for v in seats),
            )
            result = await executor.run(job)
            if result.error:
                progress.failures.append(f"{match['id']}: {str(result.error).splitlines()[0][:300]}")
                log.info("%s failed: %s", match["id"], result.error)
            progress.running -= 1
            progress.done += 1
            progress.faults += len(result.faults)
            progress.errors += bool(result.error)
            spent += result.seconds
            progress.seconds_per_match = spent / progress.done / concurrency
            report()
            return result

    async def run_unit(unit: dict) -> None:
        arena = load_arena(db, unit["arena_id"])
        matches = list(db.table("matches").rows_where("unit_id = ?", [unit["id"]], order_by="rotation"))
        results: list[MatchResult | None] = [None] * len(matches)

        async def one(index: int) -> None:
            results[index] = await run_match(arena, matches[index])

        started = now()
        stored = False
        try:
            try:
                async with trio.open_nursery() as nursery:
                    for index in range(len(matches)):
                        nursery.start_soon(one, index)
            finally:
                playing.discard(unit["id"])
            await trio.lowlevel.checkpoint()  # the next match starts first, and plays while the unit is stored
            _store_unit(db, unit, matches, results, folder, started)
            stored = True
            touched.add(arena.id)
            await _refit(db, arena.id)
        finally:
            if not stored:  # interrupted (Ctrl-C): nothing of the unit counts, and the next run plays it
                with db.atomic():
                    db.execute(
                        "update matches set status = 'pending', started_at = null where unit_id = ?", [unit["id"]]
                    )

    touched: set[str] = set()
    async with trio.open_nursery() as nursery:
        for unit in units:
            nursery.start_soon(run_unit, unit)
    for arena_id in sorted(touched) if only is None else ():  # a league's last units are in its fits at its end
        await _refit(db, arena_id, force=True)
    return progress


REFIT_SECONDS = 2.0
"""Least time between two refits of an arena's ratings by one process."""
_refitted: dict[tuple[str, str], float] = {}


async def _refit(db: Database, arena_id: str, force: bool = False) -> None:
    """Refit the arena's ratings (:func:`ladder.fits.refresh`) in a worker thread with its own connection, unless
    this process did within :data:`REFIT_SECONDS` and not ``force`` (readers refit a fit left stale, see
    :func:`ladder.fits.current`). A refit that fails (a busy database) is logged and left to the next."""
    path = db.execute("PRAGMA database_list").fetchone()[2]
    key = (path, arena_id)
    if not force and trio.current_time() - _refitted.get(key, -math.inf) < REFIT_SECONDS:
        return
    _refitted[key] = trio.current_time()

    def refit() -> None:
        other = connect(path)
        try:
            fits.refresh(other, arena_id)
        finally:
            other.close()

    try:
        if path:
            await trio.to_thread.run_sync(refit)
        else:  # a database in memory has no second connection
            fits.refresh(db, arena_id)
    except sqlite3.OperationalError as exc:
        log.warning("refitting %s: %s", arena_id, exc)


def _store_unit(
    db: Database, unit: dict, matches: list[dict], results: Sequence[MatchResult | None], folder: Path, started: str
) -> None:
    """Store a unit's results and mark it done, all in one transaction; its replays compressed first (the hash is
    the text's, as the referee wrote it)."""
    failed = any(r is None or r.error for r in results)
    replays: dict[str, tuple[str | None, str | None]] = {}
    for match in matches:
        plain = folder / f"{match['id']}.jsonl"
        if plain.exists():
            text = plain.read_bytes()
            replays[match["id"]] = (stored_path(db, compress_replay(plain, text)), hashlib.sha256(text).hexdigest())
    with db.atomic():
        for match, result in zip(matches, results, strict=True):
            assert result is not None
            replay_path, replay_hash = replays.get(match["id"], (None, None))
            db.table("matches").update(
                match["id"],
                {
                    "status": "error" if result.error else "done",
                    "termination": result.termination,
                    "points": json.dumps(list(result.points)),
                    "games": json.dumps(list(result.games)),
                    "faults": json.dumps(list(result.faults)),
                    "decisions": result.decisions,
                    "replay_path": replay_path,
                    "replay_hash": replay_hash,
                    "referee_version": referee.__version__,
                    "started_at": started,
                    "finished_at": now(),
                    "seconds": round(result.seconds, 3),
                    "error": str(result.error) if result.error else None,
                },
            )
        done_at = now()
        db.table("units").update(unit["id"], {"status": "error" if failed else "done", "done_at": done_at})
        if not failed:
            arena = db.execute("select seats from arenas where id = ?", [unit["arena_id"]]).fetchone()
            record_unit(db, unit["arena_id"], arena[0], unit["id"], [
                {"seats": json.loads(m["seats"]), "seed": m["seed"], "points": list(r.points),
                 "faults": list(r.faults), "termination": r.termination}
                for m, r in zip(matches, results, strict=True) if r is not None
            ], done_at)


async def play_league(
    db: Database,
    league: str,
    arena_id: str,
    schedule: str,
    rounds: int,
    executor: Executor,
    *,
    challenger: int | None = None,
    concurrency: int = 1,
    on_progress: Callable[[Progress], None] | None = None,
    clock: Clock = DEFAULT_CLOCK,
) -> Progress:
    """Plan the league (:data:`SCHEDULES`: ``rounds`` rounds, or as many steps of a continuous schedule) and play
    it; return the progress of everything played, summed over a continuous schedule's steps."""
    run = functools.partial(run_units, db, league, executor, concurrency=concurrency, on_progress=on_progress,
                            clock=clock)
    if schedule != "continuous":
        plan(db, league, arena_id, schedule, rounds, challenger)
        return await run()
    total = Progress()
    for _ in range(rounds):
        if plan_continuous(db, league, arena_id) is None:
            break
        total.add(await run())
    return total
