"""The ladder's read side at size: every page and ``ladder standings`` timed on league databases of 10k, 100k and
(``--million``) 1M stored matches, and 50 concurrent clients asking a ``ladder serve`` for its public pages for
``--seconds`` while a league writes.

Usage: python bench/read_side.py [--sizes 10000,100000] [--million] [--bots 200] [--repeats 20] [--seconds 10]
[--keep DIR]

Each database is a Tapa arena of ``--bots`` bots whose matches are planned (a round robin) and stored by the
ladder's own ``plan`` and ``run_units``, with an executor that answers at once from hidden strengths (no bot
processes: the read side is what is measured). The 1M database is the 100k one copied ten times over (units and
matches under new ids) and counted again by the ladder's migration step (``tallies.rebuild``).

Printed per size, for each page's answer as the web makes it (the API function on a fresh connection, after one
warm-up call): median, 95th percentile and min–max of ``--repeats`` calls, wall clock of this process (nothing
else runs). ``ladder standings``: wall clock of the whole command (a new Python process). Under load (the server,
a process playing units into the database as fast as it can, and the clients sharing the machine): the requests'
wall clock as the clients see it (median, 95th percentile, max), requests per second, errors, the CPU seconds a
request cost the server and the clients, and how long after the league stopped the fit counted its last unit.

The clients are vegeta's (``attack -rate=0 -max-workers=50``: 50 workers, each asking again as soon as it is
answered, the pages in turn), a compiled load generator built once by ``go install`` into the user's cache: a
Python client (httpx on trio) spent about 3 ms of CPU a request, three times the server's, and on two cores its
own wait for the CPU was most of the latency it measured.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import resource
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


VEGETA = "github.com/tsenart/vegeta/v12@v12.13.0"
"""The load generator, a Go module."""


def vegeta() -> Path:
    """vegeta's binary, built by ``go install`` into ``~/.cache/kafana-bench`` the first time."""
    folder = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "kafana-bench"
    binary = folder / "vegeta"
    if not binary.exists():
        subprocess.run(["go", "install", VEGETA], env={**os.environ, "GOBIN": str(folder)}, check=True)
    return binary


def _cpu(pid: int) -> float:
    """CPU seconds (user and system) a running process has used."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _children_cpu() -> float:
    """CPU seconds of this process's finished children."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _attack(base: str, seconds: float, clients: int) -> dict:
    """vegeta's report (JSON) of ``clients`` workers asking for :data:`PAGES` in turn for ``seconds``."""
    targets = "".join(f"GET {base}{page}\n" for page in PAGES).encode()
    attack = subprocess.run([str(vegeta()), "attack", "-rate=0", f"-workers={clients}", f"-max-workers={clients}",
                             f"-duration={seconds}s", "-timeout=60s"], input=targets, capture_output=True, check=True)
    report = subprocess.run([str(vegeta()), "report", "-type=json"], input=attack.stdout, capture_output=True,
                            check=True)
    return json.loads(report.stdout)


def under_load(path: Path, seconds: float, clients: int) -> None:
    """``clients`` concurrent clients asking ``ladder serve`` for its public pages for ``seconds`` while another
    process plays units into the same database."""
    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "ladder.cli", "serve", "--db", str(path), "--port", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    writer = subprocess.Popen([sys.executable, __file__, "--write", str(path)], stdout=subprocess.PIPE, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        vegeta()
        for _ in range(200):
            try:
                httpx.get(f"{base}/api/arenas", timeout=1)
                break
            except httpx.TransportError:
                time.sleep(0.1)
        assert writer.stdout is not None
        assert writer.stdout.readline() == "planned\n" and writer.stdout.readline() == "stored\n"
        served, written, asked = _cpu(server.pid), _cpu(writer.pid), _children_cpu()
        report = _attack(base, seconds, clients)
        served, written, asked = _cpu(server.pid) - served, _cpu(writer.pid) - written, _children_cpu() - asked
        writer.kill()
        writer.wait()
        stopped = time.monotonic()
        latency, requests = report["latencies"], report["requests"]
        errors = requests - report["status_codes"].get("200", 0)
        print(f"  {clients} clients for {seconds:g} s, {requests} requests: median {latency['50th'] / 1e6:.1f} ms, "
              f"p95 {latency['95th'] / 1e6:.1f} ms, max {latency['max'] / 1e6:.0f} ms, "
              f"{report['throughput']:.0f}/s, {errors} errors; CPU a request: server {1000 * served / requests:.2f} ms, "
              f"clients {1000 * asked / requests:.2f} ms (the writing league {written:.1f} s in all)", flush=True)
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
    parser.add_argument("--seconds", type=float, default=10, help="how long the clients ask, under load")
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
            under_load(path, args.seconds, 50)
    finally:
        if args.keep is None:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
