"""League throughput: matches per minute of the random bots at concurrency 1 and 2 (local executor), and on a
Dask cluster of two workers on this machine (``--dask``).

Usage: python bench/ladder_throughput.py [--rounds 3] [--arena tapa] [--dask]

Two random bots are submitted to a fresh league database and a round robin is played in the arena; each match is
a ``referee run-match`` process with two bot processes. Printed as ratios to concurrency 1 (and Dask to the local
executor at the same concurrency).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import trio

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ladder.executor import LocalExecutor  # noqa: E402
from ladder.league import plan, run_units  # noqa: E402
from ladder.registry import submit  # noqa: E402
from ladder.store import open_store  # noqa: E402

BOT = """from bots.python.kit import serve
from bots.python.random_bot import GAMES, choose
serve(choose, name="{name}", games=GAMES)
"""


async def league(folder: Path, arena: str, rounds: int, concurrency: int, executor=None) -> tuple[int, float]:
    """(matches, seconds) of one round robin (on this machine unless an executor is given)."""
    path = folder / f"c{concurrency}-{type(executor).__name__}.db"
    db = open_store(path)
    executor = executor or LocalExecutor()
    for name in ("random-a", "random-b"):
        bot = folder / name
        bot.mkdir(exist_ok=True)
        (bot / "bot.toml").write_text(f'name = "{name}"\ncommand = ["python3", "bot.py"]\n')
        (bot / "bot.py").write_text(BOT.format(name=name))
        report = await submit(db, path, str(bot), executor)
        assert report.accepted, report.text()
    plan(db, "bench", arena, "round-robin", rounds)
    start = time.perf_counter()
    progress = await run_units(db, "bench", executor, concurrency=concurrency)
    return progress.done, time.perf_counter() - start


async def main(rounds: int, arena: str, dask: bool) -> None:
    with tempfile.TemporaryDirectory() as folder:
        base = None
        rate = 0.0
        for concurrency in (1, 2):
            matches, seconds = await league(Path(folder), arena, rounds, concurrency)
            rate = matches / seconds * 60
            base = base or rate
            print(f"{arena} concurrency {concurrency}: {rate:6.1f} matches/min  (ratio {rate / base:.2f})")
        if dask:
            from ladder.dask_cluster import loopback_cluster
            from ladder.dask_executor import DaskExecutor

            with loopback_cluster(2, Path(folder) / "logs") as cluster:
                executor = DaskExecutor(cluster.address)
                try:
                    matches, seconds = await league(Path(folder), arena, rounds, 2, executor)
                finally:
                    executor.close()
            dask_rate = matches / seconds * 60
            print(f"{arena} dask, 2 workers: {dask_rate:6.1f} matches/min  (ratio to local concurrency 2: "
                  f"{dask_rate / rate:.2f})")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--arena", default="tapa")
    parser.add_argument("--dask", action="store_true", help="also run the league on a 2-worker loopback cluster")
    args = parser.parse_args()
    trio.run(main, args.rounds, args.arena, args.dask)
