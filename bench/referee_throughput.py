"""Decisions per second through the referee: an in-process bot, bot processes over a Unix socket, over TCP.

Usage: python bench/referee_throughput.py [--games 10]

Random bots play whole Tapa games; the figures are printed as ratios to the in-process figure, which is the
referee's own cost without any wire.
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

from bots.python import random_bot  # noqa: E402
from referee.games import make_game  # noqa: E402
from referee.runtime import Clock, LocalPlayer, play_game, resolve_bot, run_game  # noqa: E402


async def in_process(games: int) -> tuple[int, float]:
    """(decisions, seconds) for ``games`` games of in-process random bots."""
    game = make_game("tapa")
    decisions = 0
    start = time.perf_counter()
    for index in range(games):
        players = [LocalPlayer(0, random_bot.choose), LocalPlayer(1, random_bot.choose)]
        record = await play_game(game, players, match_id=f"b{index}", seed=index, clock=Clock())
        decisions += record.decisions
    return decisions, time.perf_counter() - start


async def over_processes(games: int, transport: str) -> tuple[int, float, float]:
    """(decisions, seconds in play, seconds in all) for ``games`` games between random bot processes.

    Play time excludes process start-up: it is the time of the games' decisions as measured per move.
    """
    game = make_game("tapa")
    spec = resolve_bot(ROOT / "bots" / "python" / "random_bot.py")
    decisions = 0
    move_seconds = 0.0
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        for index in range(games):
            path = Path(folder) / f"{index}.jsonl"
            record = await run_game(
                game, [spec, spec], match_id=f"b{index}", seed=index, clock=Clock(), replay_path=path,
                transport=transport,
            )
            decisions += record.decisions
            move_seconds += _game_seconds(path)
    return decisions, move_seconds, time.perf_counter() - start


def _game_seconds(path: Path) -> float:
    import json

    lines = [json.loads(line) for line in path.read_text().splitlines()]
    return sum(line.get("ms", 0) for line in lines) / 1000


async def main(games: int) -> None:
    local_decisions, local_seconds = await in_process(games)
    local_rate = local_decisions / local_seconds
    print(f"in-process   {local_rate:10.0f} decisions/s  (ratio 1.00)")
    for transport in ("unix", "tcp"):
        decisions, move_seconds, total = await over_processes(games, transport)
        rate = decisions / move_seconds
        print(
            f"{transport:<12} {rate:10.0f} decisions/s  (ratio {rate / local_rate:.3f}; "
            f"{1000 * move_seconds / decisions:.2f} ms per decision; {total / games:.2f} s per game with start-up)"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    trio.run(main, parser.parse_args().games)
