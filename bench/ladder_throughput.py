"""League throughput: matches per minute of two random bots, with match workers that keep their bots (a
session of the local executor; concurrency 1, 2 and 4) against a ``referee run-match`` process per match
(concurrency 1 and 2), and against the same matches played without the ladder (this process's referee with kept
bots, one after the other, writing the same replays), in one run with the order alternated; and on a Dask cluster
of two workers on this machine (``--dask``).

Usage: python bench/ladder_throughput.py [--rounds 6] [--arena tapa] [--repeats 3] [--dask] [--workers-only]
[--bots python|rust]

``--workers-only`` leaves out the process-per-match configurations (slow, and their figures do not move), so a run
can afford enough rounds for the workers' start-up to weigh little. ``--bots`` picks the two random bots: the
Python kit's (the default), or the Rust starter's (``bots/rust``, built once before the run with its manifest's
own build, into ``bots/rust/build``; not timed), whose decisions cost the bot a tenth of the Python kit's CPU, so
that the league's own scaling shows rather than the bots'.

At concurrency 2 and 4 the workers share the cores out, each keeping to its own share with its bots (printed:
``core shares``), and no more matches play at once than there are cores (``ladder.workers.at_once``: on two cores
concurrency 4 plays two at a time); at concurrency 1 the lone worker runs where the machine puts it, as the
matches without the ladder do.

Each measurement is a fresh league database with the two bots submitted (not timed) and a round robin of
``--rounds`` duplicate units (2 matches each) played through ``run_units``, timed by wall clock from the first
match to the last, worker start-up included. Printed: medians with min-max over the repeats, the ratios, how
many bot processes were started, and how many of the machine's cores were busy over the timed part (from
/proc/stat, everything on the machine counted: a configuration that keeps more than one core busy at concurrency
1 cannot gain the full number of cores at a higher concurrency). Beside them, what the machine itself gives two
processes: the same CPU-bound Python work in one process and in two at once (:func:`machine`), in the same
alternation: a concurrency-2 league cannot gain more over concurrency 1 than that.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import multiprocessing
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path

import trio

ROOT = Path(__file__).resolve().parents[1]

from ladder.executor import LocalExecutor
from ladder.league import plan, run_units
from ladder.registry import submit
from ladder.store import open_store
from ladder.workers import at_once, core_shares
from referee.games import make_game
from referee.runtime import BotPool, Clock, SeatOptions, default_store, prepare_bot, resolve_bot, run_game
from referee.runtime.affinity import format_cores, usable_cores
from referee.runtime.build import BuildError
from referee.runtime.sandbox import resolve_mode

BOT = """from bots.python.kit import serve
from bots.python.random_bot import GAMES, choose
serve(choose, name="{name}", games=GAMES, action_detail=False)
"""
RUST_STARTER = ROOT / "bots" / "rust"
RUST_BINARY = Path("build") / "target" / "release" / "random-rust"
"""Where the Rust starter's build (its manifest's command and environment) leaves the random bot, in its copy."""
MACHINE_LOOPS = 20_000_000
"""The CPU-bound work of one process in :func:`machine` (about a second here)."""


def make_bots(folder: Path, kind: str) -> None:
    """The two random bots' folders, ``random-a`` and ``random-b``, of ``kind`` (``python`` or ``rust``)."""
    if kind == "rust":
        try:
            starter = prepare_bot(RUST_STARTER, default_store())
        except BuildError as error:
            raise SystemExit(f"the Rust starter did not build: {error}") from None
    for name in ("random-a", "random-b"):
        bot = folder / name
        bot.mkdir(exist_ok=True)
        if kind == "rust":
            (bot / "bin").mkdir(exist_ok=True)
            shutil.copy2(starter.path / RUST_BINARY, bot / "bin" / "random-rust")
            (bot / "bot.toml").write_text(f'name = "{name}"\ncommand = ["bin/random-rust"]\n')
        else:
            (bot / "bot.toml").write_text(f'name = "{name}"\ncommand = ["python3", "bot.py"]\n')
            (bot / "bot.py").write_text(BOT.format(name=name))


def spin(loops: int) -> int:
    """CPU-bound Python work: ``loops`` additions."""
    total = 0
    for number in range(loops):
        total += number
    return total


def machine(pool: concurrent.futures.ProcessPoolExecutor, processes: int) -> tuple[int, float, int, float]:
    """Two equal pieces of :func:`spin` work in ``pool``'s started processes: one after the other
    (``processes`` 1) or both at once (2). (pieces, seconds, 0, (cores busy, stolen)), as a league's figures."""
    start, ticks = time.perf_counter(), busy_ticks()
    if processes == 1:
        for _ in range(2):
            pool.submit(spin, MACHINE_LOOPS).result()
    else:
        list(pool.map(spin, [MACHINE_LOOPS] * 2))
    return 2, time.perf_counter() - start, 0, cores_busy(ticks, busy_ticks())


def busy_ticks() -> tuple[int, int, int]:
    """(busy, stolen, all) clock ticks of every core since boot, from /proc/stat: stolen is the time the
    hypervisor gave a virtual core's turn to another machine (counted in busy, not as this machine's work)."""
    ticks = [int(value) for value in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return sum(ticks) - ticks[3] - ticks[4], ticks[7], sum(ticks)  # idle and iowait are not busy


def cores_busy(before: tuple[int, int, int], after: tuple[int, int, int]) -> tuple[float, float]:
    """How many cores were busy, and how many of them stolen, on average between two :func:`busy_ticks`."""
    span = max(after[2] - before[2], 1) / os.cpu_count()
    return (after[0] - before[0]) / span, (after[1] - before[1]) / span


async def league(folder: Path, label: str, arena: str, rounds: int, concurrency: int, executor, workers: bool):
    """(matches, seconds, bot starts, (cores busy, stolen)) of one round robin."""
    path = folder / f"{label}.db"
    db = open_store(path)
    for name in ("random-a", "random-b"):
        report = await submit(db, path, str(folder / name), LocalExecutor())
        assert report.accepted, report.text()
    plan(db, "bench", arena, "round-robin", rounds)
    session = executor.session(concurrency) if workers else contextlib.nullcontext()
    start, ticks = time.perf_counter(), busy_ticks()
    async with session:
        progress = await run_units(db, "bench", executor, concurrency=concurrency)
    seconds, busy = time.perf_counter() - start, cores_busy(ticks, busy_ticks())
    starts = executor.bot_starts if workers else 2 * progress.done
    return progress.done, seconds, starts, busy


async def alone(folder: Path, arena: str, rounds: int) -> tuple[int, float, int]:
    """The same matches without the ladder: played one after the other by this process's referee, with kept bots
    (a pool, as a worker has) and their replays written with a secret seed (as a ladder's match is played), no
    database, scheduler or worker protocol. (matches, seconds, bot starts, (cores busy, stolen))"""
    game = make_game(arena)
    specs = [resolve_bot(folder / name) for name in ("random-a", "random-b")]
    replays = folder / "alone-replays"
    start, ticks = time.perf_counter(), busy_ticks()
    async with trio.open_nursery() as nursery:
        pool = BotPool(nursery, SeatOptions(sandboxed=resolve_mode("on")))
        for unit in range(rounds):
            for rotation, seats in enumerate((specs, specs[::-1])):
                match_id = f"alone-{unit}-{rotation}"
                await run_game(game, seats, match_id=match_id, seed=str(unit), seed_public=False, clock=Clock(),
                               replay_path=replays / f"{match_id}.jsonl", overwrite_replay=True, pool=pool,
                               unit=str(unit))
        pool.close()
    return 2 * rounds, time.perf_counter() - start, pool.starts, cores_busy(ticks, busy_ticks())


async def main(rounds: int, arena: str, repeats: int, dask: bool, workers_only: bool, bots: str) -> None:
    kinds = [(f"{'workers' if w else 'process per match'}, concurrency {c}", c, "workers" if w else "process")
             for c in (1, 2) for w in ((True,) if workers_only else (False, True))]
    kinds.append(("workers, concurrency 4", 4, "workers"))
    kinds.append(("the same matches without the ladder", 1, "alone"))
    kinds += [("the machine, 1 process", 1, "machine"), ("the machine, 2 processes", 2, "machine")]
    rates: dict[str, list[float]] = {label: [] for label, _, _ in kinds}
    busy: dict[str, list[tuple[float, float]]] = {label: [] for label, _, _ in kinds}
    starts: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as folder, concurrent.futures.ProcessPoolExecutor(
        2, mp_context=multiprocessing.get_context("spawn")
    ) as pool:
        make_bots(Path(folder), bots)
        list(pool.map(spin, [1, 1]))  # the pool's processes started before anything is timed
        for repeat in range(repeats):
            order = kinds if repeat % 2 == 0 else list(reversed(kinds))
            for label, concurrency, kind in order:
                if kind == "machine":
                    matches, seconds, started, cores = machine(pool, concurrency)
                elif kind == "alone":
                    matches, seconds, started, cores = await alone(Path(folder), arena, rounds)
                else:
                    matches, seconds, started, cores = await league(
                        Path(folder), f"{repeat}-{concurrency}-{kind}", arena, rounds, concurrency, LocalExecutor(),
                        kind == "workers",
                    )
                rates[label].append(matches / seconds * 60)
                busy[label].append(cores)
                starts[label] = started
        print(f"{arena}: {rounds} units (2 matches each), {repeats} repeats, {bots} random bots")
        for label, values in rates.items():
            unit, started = ("pieces/min", "") if label.startswith("the machine") else (
                "matches/min", f" {starts[label]} bot starts,")
            print(f"  {label:<35} {statistics.median(values):7.1f} {unit}  ({min(values):.1f}-{max(values):.1f}),"
                  f"{started} {statistics.median(b for b, _ in busy[label]):.2f} cores busy"
                  f" ({statistics.median(stolen for _, stolen in busy[label]):.2f} stolen)")
        if not workers_only:
            base = statistics.median(rates["process per match, concurrency 1"])
            for label, values in rates.items():
                if not label.startswith("the machine"):
                    print(f"  ratio to a process per match at concurrency 1: {label:<35} "
                          f"{statistics.median(values) / base:.2f}")
        alone_rate = statistics.median(rates["the same matches without the ladder"])
        single = statistics.median(rates["workers, concurrency 1"])
        for concurrency in (1, 2, 4):
            ladder_rate = statistics.median(rates[f"workers, concurrency {concurrency}"])
            print(f"  workers at concurrency {concurrency} / without the ladder: {ladder_rate / alone_rate:.2f};"
                  f" / workers at concurrency 1: {ladder_rate / single:.2f}")
        for concurrency in (2, 4):
            playing = at_once(concurrency, usable_cores())
            shares = " | ".join(format_cores(share) for share in core_shares(playing, usable_cores()))
            print(f"  core shares at concurrency {concurrency} ({playing} matches at once): "
                  f"{shares or 'none (one core)'}")
        two = statistics.median(rates["the machine, 2 processes"]) / statistics.median(rates["the machine, 1 process"])
        print(f"  the machine: 2 processes / 1 process: {two:.2f}")
        if dask:
            from ladder.dask_cluster import loopback_cluster
            from ladder.dask_executor import DaskExecutor

            with loopback_cluster(2, Path(folder) / "logs") as cluster:
                executor = DaskExecutor(cluster.address)
                try:
                    matches, seconds, _, _ = await league(Path(folder), "dask", arena, rounds, 2, executor, False)
                finally:
                    executor.close()
            dask_rate = matches / seconds * 60
            print(f"  dask, 2 workers: {dask_rate:6.1f} matches/min")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--arena", default="tapa")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--dask", action="store_true", help="also run the league on a 2-worker loopback cluster")
    parser.add_argument("--workers-only", action="store_true", help="leave out the process-per-match runs")
    parser.add_argument("--bots", choices=("python", "rust"), default="python",
                        help="the random bots: the Python kit's or the Rust starter's")
    args = parser.parse_args()
    trio.run(main, args.rounds, args.arena, args.repeats, args.dask, args.workers_only, args.bots)
