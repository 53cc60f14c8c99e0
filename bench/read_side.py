"""The ladder's read side at size: every page and ``ladder standings`` timed on league databases of 10k, 100k and
(``--million``) 1M stored matches, and 1,000 requests at 50 concurrent to a ``ladder serve`` while a league
writes.

Usage: python bench/read_side.py [--sizes 10000,100000] [--million] [--bots 200] [--repeats 20] [--keep DIR]

Each database is a Tapa arena of ``--bots`` bots whose matches are planned (a round robin) and stored by the
ladder's own ``plan`` and ``run_units``, with an executor that answers at once from hidden strengths (no bot
processes: the read side is what is measured). The 1M database is the 100k one copied ten times over (units and
matches under new ids) and counted again by the ladder's migration step (``tallies.rebuild``).

Printed per size, for each page's answer as the web makes it (the API function on a fresh connection, after one
warm-up call): median, 95th percentile and min–max of ``--repeats`` calls, wall clock of this process (nothing
else runs). ``ladder standings``: wall clock of the whole command (a new Python process). Under load (the server,
a process playing units into the database, and 50 client tasks of this process sharing the machine): the
requests' wall clock as the clients see it, requests per second, errors, and how long after the league stopped
the fit counted its last unit.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import trio

from ladder import tallies
from ladder.arenas import arena_for_game, ensure_arena
from ladder.executor import MatchJob, MatchResult
from ladder.league import plan, run_units
from ladder.ratings import win_probability
from ladder.registry import bot_folder, copies_folder
from ladder.store import connect, now, open_store
from ladder.web import api

PAGES = [
    "/api/arenas/tapa/standings", "/api/arenas/tapa/crosstable", "/api/arenas/tapa/history", "/api/matches?limit=50",
    "/api/bots/b7", "/api/bots/b7/history", "/api/arenas", "/", "/static/app.js",
]
"""What the clients under load ask for, in turn."""


class InstantExecutor:
    """Results at once: bot ``bI`` has the hidden rating 1500 + 3·(I − bots/2); the seed decides."""

    async def run(self, job: MatchJob) -> MatchResult:
        strength = [1500 + 3 * (int(Path(path).name[1:]) - 100) for path in job.bots]
        roll = int(hashlib.sha256(f"{job.seed}/{job.match_id}".encode()).hexdigest()[:8], 16) / 2**32
        points = (1, 0) if roll < win_probability(strength[0], strength[1]) else (0, 1)
        return MatchResult(termination="normal", points=points, decisions=40, bots=job.bots)


def _register(db, bots: int) -> None:
    with db.atomic():
        ensure_arena(db, arena_for_game("tapa"))
        for index in range(bots):
            bot = db["bots"].insert({"name": f"b{index}", "created_at": now(), "retired": 0}).last_pk
            (copies_folder(db) / f"b{index}").mkdir(parents=True, exist_ok=True)
            version = db["versions"].insert(
                {"bot_id": bot, "number": 1, "version": "1", "hash": f"h{index}", "path": f"{copies_folder(db).name}/b{index}",
                 "language": "python", "author": "", "games": '["tapa"]', "created_at": now()}
            ).last_pk
            db["entries"].insert({"arena_id": "tapa", "version_id": version, "joined_at": now()})


def _play(db, league: str, units: int) -> None:
    """Plan rounds of a round robin until ``units`` units are pending, and play the first ``units``."""
    rounds = 1
    while db["units"].count_where("league = ? and status = 'pending'", [league]) < units:
        plan(db, league, "tapa", "round-robin", rounds, new_seed=lambda: f"{random.random()}")
        rounds += 1
    only = [row[0] for row in db.execute(
        "select id from units where league = ? and status = 'pending' order by rowid limit ?", [league, units])]
    trio.run(lambda: run_units(db, league, InstantExecutor(), concurrency=4, only=only))


def build(path: Path, matches: int, bots: int) -> None:
    """A database of ``matches`` stored matches (two a unit)."""
    db = open_store(path)
    _register(db, bots)
    _play(db, "bench", matches // 2)
    db.close()


def grow(source: Path, target: Path, copies: int) -> None:
    """``target``: ``source`` with its units and matches copied ``copies`` times under new ids, counted again."""
    shutil.copy(source, target)
    shutil.copytree(bot_folder(source), bot_folder(target), dirs_exist_ok=True)
    db = open_store(target)
    with db.atomic():
        db.execute("update versions set path = replace(path, ?, ?)", [bot_folder(source).name, bot_folder(target).name])
        for copy in range(1, copies):
            db.execute(f"insert into units select id || '-c{copy}', league, arena_id, seed, versions, status, "
                       f"done_at, round from units where id not like '%-c%'")
            db.execute(f"insert into matches select id || '-c{copy}', unit_id || '-c{copy}', arena_id, rotation, "
                       f"seed, seats, status, termination, points, games, faults, decisions, replay_path, "
                       f"replay_hash, referee_version, started_at, finished_at, seconds, error from matches "
                       f"where id not like '%-c%'")
        db.execute("insert or ignore into match_seats select m.id, j.value, coalesce(m.finished_at, m.started_at) "
                   "from matches m, json_each(m.seats) j")
        db.execute("delete from arena_fits")
        db.execute("delete from arena_history")
        tallies.rebuild(db, "tapa")
    db.close()


def _timed(call: Callable[[], object], repeats: int) -> list[float]:
    call()
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        call()
        times.append(time.perf_counter() - started)
    return times


def _line(label: str, times: list[float]) -> str:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return (f"  {label:28s} median {1000 * statistics.median(times):8.1f} ms  p95 {1000 * p95:8.1f} ms  "
            f"({1000 * ordered[0]:.1f}–{1000 * ordered[-1]:.1f})")


def pages(path: Path, repeats: int) -> None:
    """Each page's answer, on a fresh connection as a request gets it."""

    def page(*calls: Callable) -> Callable[[], None]:
        def run() -> None:
            db = connect(path)
            try:
                for call in calls:
                    call(db)
            finally:
                db.close()
        return run

    cases = {
        "leaderboard": page(lambda db: api.arena_standings(db, "tapa")),
        "arena page (+cross, history)": page(lambda db: api.arena_standings(db, "tapa"),
                                             lambda db: api.arena_crosstable(db, "tapa"),
                                             lambda db: api.arena_history(db, "tapa")),
        "bot page (+charts)": page(lambda db: api.bot(db, "b7"), lambda db: api.bot_history(db, "b7")),
        "match list (50)": page(lambda db: api.matches(db, limit="50")),
        "a bot's matches (50)": page(lambda db: api.matches(db, bot="b7", limit="50")),
    }
    for label, call in cases.items():
        print(_line(label, _timed(call, repeats)), flush=True)
    command = [sys.executable, "-m", "ladder.cli", "standings", "--db", str(path)]
    print(_line("ladder standings (process)",
                _timed(lambda: subprocess.run(command, check=True, capture_output=True), max(3, repeats // 4))),
          flush=True)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def write_forever(path: Path) -> None:
    """Play units into the database at ``path`` until killed, 20 at a time, printing a line after each batch (the
    league that writes while the clients read; its own process)."""
    db = open_store(path)
    plan(db, "load", "tapa", "round-robin", 1, new_seed=lambda: f"{random.random()}")
    print("planned", flush=True)
    while True:
        _play(db, "load", 20)
        print("stored", flush=True)


async def _clients(base: str, requests: int, clients: int) -> tuple[list[float], list[str], float]:
    """``requests`` requests from ``clients`` concurrent tasks: each one's wall clock, the errors, the elapsed."""
    times: list[float] = []
    errors: list[str] = []
    turn = iter(range(requests))

    async def client(session: httpx.AsyncClient) -> None:
        for k in turn:
            started = time.perf_counter()
            try:
                response = await session.get(PAGES[k % len(PAGES)])
                if response.status_code != 200:
                    errors.append(f"{response.status_code} {response.text[:100]}")
            except httpx.HTTPError as exc:
                errors.append(str(exc))
            times.append(time.perf_counter() - started)

    started = time.perf_counter()
    limits = httpx.Limits(max_connections=clients)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as session, trio.open_nursery() as tasks:
        for _ in range(clients):
            tasks.start_soon(client, session)
    return times, errors, time.perf_counter() - started


def under_load(path: Path, requests: int, clients: int) -> None:
    """``requests`` requests from ``clients`` concurrent tasks to ``ladder serve`` while another process plays
    units into the same database."""
    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "ladder.cli", "serve", "--db", str(path), "--port", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    writer = subprocess.Popen([sys.executable, __file__, "--write", str(path)], stdout=subprocess.PIPE, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            try:
                httpx.get(f"{base}/api/arenas", timeout=1)
                break
            except httpx.TransportError:
                time.sleep(0.1)
        assert writer.stdout is not None
        assert writer.stdout.readline() == "planned\n" and writer.stdout.readline() == "stored\n"
        times, errors, elapsed = trio.run(_clients, base, requests, clients)
        writer.kill()
        writer.wait()
        stopped = time.monotonic()
        print(_line(f"{requests} requests, {clients} at once", times)
              + f"  {requests / elapsed:.0f}/s, {len(errors)} errors", flush=True)
        db = connect(path)
        counted = db.execute("select counted from arenas where id = 'tapa'").fetchone()[0]
        while db.execute("select units from arena_fits").fetchone()[0] < counted:
            httpx.get(f"{base}/api/arenas/tapa/standings", timeout=60)
            time.sleep(0.2)
        print(f"  the league's last unit was in the fit {time.monotonic() - stopped:.1f} s after it stopped "
              f"at the latest", flush=True)
        db.close()
    finally:
        writer.kill()
        server.terminate()
        server.wait(10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--million", action="store_true", help="also 1M matches (the largest size copied)")
    parser.add_argument("--bots", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--keep", type=Path, help="build the databases here and keep them (built once)")
    parser.add_argument("--write", type=Path, help=argparse.SUPPRESS)  # the writing league's process
    args = parser.parse_args()
    if args.write:
        write_forever(args.write)
        return
    random.seed(1)
    folder = args.keep or Path(tempfile.mkdtemp(prefix="kafana-read-"))
    sizes = [int(size) for size in args.sizes.split(",")]
    built: list[tuple[int, Path]] = []
    for size in sizes:
        path = folder / f"m{size}" / "ladder.db"
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            started = time.perf_counter()
            build(path, size, args.bots)
            print(f"built {size} matches in {time.perf_counter() - started:.0f} s", flush=True)
        built.append((size, path))
    if args.million:
        size, source = built[-1]
        path = folder / "m1000000" / "ladder.db"
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            grow(source, path, 1_000_000 // size)
        built.append((1_000_000, path))
    try:
        for size, path in built:
            print(f"{size} matches, {args.bots} bots", flush=True)
            pages(path, args.repeats)
            under_load(path, args.requests, 50)
    finally:
        if args.keep is None:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
