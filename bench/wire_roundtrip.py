"""A referee decision against the raw gRPC round trip: equal work, one run, order alternated.

Usage: python bench/wire_roundtrip.py [--game tapa] [--rounds 7] [--bot bots/python/random_bot.py]

Two bot processes (the random bot by default) are started once over Unix sockets. Rounds go in pairs that play
the same game (the same seed), the referee first in one and the raw calls first in the other:

- **referee**: one whole game through the referee's loop (``play_game``: legal actions, views, requests built and
  sent through the bridge, answers read strictly, moves applied, clocks, the replay written), timed from the first
  request to the end, per decision;
- **raw**: the same requests, as the exact bytes the referee sent in that round's game, sent to the same bots by
  blocking grpcio unary calls from one thread with nothing else around them (no parsing of the answers), per call;
- **bridged**: the same bytes through the referee's bridge alone (:class:`referee.runtime.bridge.Caller`), per call.

Both clocks are wall time (``time.perf_counter``), and both sides include the bot's own work on each request (the
same bytes, the same bot). Printed: medians with min-max, and the ratio raw/referee (1.0 = the referee costs
nothing beyond the wire).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import grpc
import trio

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee.games import make_game  # noqa: E402
from referee.replay import ReplayWriter  # noqa: E402
from referee.runtime import Clock, play_game, resolve_bot  # noqa: E402
from referee.runtime.bridge import Caller  # noqa: E402
from referee.runtime.process import ProcessPlayer, bot_address  # noqa: E402


class Recording(ProcessPlayer):
    """A bot process whose Act requests are kept (as the messages the referee sends: serialized after the game, so
    that keeping them costs the referee's side nothing)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.sent: list = []

    async def _call(self, method, request, *, timeout: float, **options):
        if method is self._stub.Act:
            self.sent.append(request)
        return await super()._call(method, request, timeout=timeout, **options)


async def referee_game(game, players, seed: int, folder: Path) -> tuple[float, list[tuple[int, bytes]]]:
    """Seconds per decision of one game, and the requests it sent as (seat, bytes) in order."""
    for player in players:
        player.sent.clear()
    start = time.perf_counter()
    record = await play_game(game, players, match_id=f"bench-{seed}", seed=seed, clock=Clock(),
                             replay=ReplayWriter(folder / f"{seed}.jsonl", overwrite=True))
    seconds = time.perf_counter() - start
    sent = [(message.decision, seat, message) for seat, player in enumerate(players) for message in player.sent]
    return seconds / record.decisions, [(seat, message.SerializeToString()) for _, seat, message in sorted(sent)]


def raw_calls(methods, requests: list[tuple[int, bytes]]) -> float:
    """Seconds per call of blocking unary calls with ``requests``' bytes."""
    start = time.perf_counter()
    for seat, data in requests:
        methods[seat](data, timeout=10)
    return (time.perf_counter() - start) / len(requests)


async def bridged_calls(callers, methods, requests: list[tuple[int, bytes]]) -> float:
    start = time.perf_counter()
    for seat, data in requests:
        await callers[seat].call(methods[seat], data, timeout=10)
    return (time.perf_counter() - start) / len(requests)


async def main(game_id: str, rounds: int, bot: str) -> None:
    game = make_game(game_id)
    spec = resolve_bot(bot)
    with tempfile.TemporaryDirectory() as folder:
        players = [Recording(seat, spec, bot_address("unix", Path(folder), seat), game_id) for seat in range(2)]
        async with trio.open_nursery() as nursery:
            for player in players:
                await nursery.start(player.run)
            channels = [grpc.insecure_channel(player.address) for player in players]
            methods = [channel.unary_unary("/kafana.v1.Bot/Act") for channel in channels]
            callers = [Caller(grpc.insecure_channel(player.address)) for player in players]
            bridged_methods = [caller.channel.unary_unary("/kafana.v1.Bot/Act") for caller in callers]
            figures: dict[str, list[float]] = {"referee": [], "raw": [], "bridged": []}
            requests: list[tuple[int, bytes]] = []
            for index in range(rounds):  # rounds 2k and 2k+1 play the same game (seed k), in the two orders
                if index % 2 == 0:
                    per_decision, requests = await referee_game(game, players, index // 2, Path(folder))
                    raw = raw_calls(methods, requests)
                else:
                    raw = raw_calls(methods, requests)
                    per_decision, requests = await referee_game(game, players, index // 2, Path(folder))
                figures["referee"].append(per_decision)
                figures["raw"].append(raw)
                figures["bridged"].append(await bridged_calls(callers, bridged_methods, requests))
            for caller in callers:
                caller.close()
            for channel in channels:
                channel.close()
            for player in players:
                player.close()
    print(f"{game_id}: {rounds} rounds, one game each ({len(requests)} decisions in the last)")
    for label, values in figures.items():
        ms = [1000 * v for v in values]
        print(f"  {label:<8} {statistics.median(ms):6.3f} ms a decision  ({min(ms):.3f}-{max(ms):.3f})")
    ratios = [raw / referee for raw, referee in zip(figures["raw"], figures["referee"], strict=True)]
    print(f"  raw/referee {statistics.median(ratios):.2f}  ({min(ratios):.2f}-{max(ratios):.2f})")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="tapa")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--bot", default=str(ROOT / "bots" / "python" / "random_bot.py"))
    args = parser.parse_args()
    trio.run(main, args.game, args.rounds, args.bot)
