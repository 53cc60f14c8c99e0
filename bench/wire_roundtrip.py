"""A referee decision against the raw gRPC round trip: equal work, one run, order alternated.

Usage: python bench/wire_roundtrip.py [--game tapa] [--rounds 8] [--bot bots/python/random_bot.py]

The bot (the random bot by default, a Python kit bot) is started twice over Unix sockets, once per seat, in each
of two ways: asking for one call per request (``session=False``) and serving the Session stream (the kit's
default). Rounds go in pairs that play the same game (the same seed), the referee first in one and the raw calls
first in the other. Per decision, wall time (``time.perf_counter``):

- **referee, calls** / **referee, session**: one whole game through the referee's loop (``play_game``: legal
  actions, views, requests built and sent, answers read strictly, moves applied, clocks, the replay written) to
  the bots that take calls / to the bots on the stream, timed from the start of the game to the last decision's
  answer. What follows it (the GameOver and MatchOver notifications to both bots, the replay's result line) is
  not a decision and has no twin on the raw side: it is timed apart (**the game's end**, spread over the game's
  decisions) and printed with the ratio of the whole game;
- **raw unary**: the same requests, as the exact bytes the referee sent in that round's game, sent to the bots
  that take calls by blocking grpcio unary calls from one thread with nothing around them (answers not parsed);
- **referee's client**: the same bytes sent to the bots that take calls by the referee's own client
  (``calls.CALLER``: the native core's, or grpcio's with ``KAFANA_WIRE=grpcio``), one call after the other from
  trio with nothing around them: the client against grpcio's blocking call, and the referee's loop alone (the
  first row less this one);
- **raw stream**: the same bytes, framed as SessionRequests, on one bidirectional stream per bot from one thread
  (a request put, its answer read), nothing else around them.

Both sides include the bot's own work on each request (the same bytes, the same bot). Printed: medians with
min-max, and the ratios raw unary / referee (1.0 = the referee costs nothing beyond a raw unary call; above 1,
faster than one).
"""

from __future__ import annotations

import argparse
import dataclasses
import queue
import statistics
import sys
import tempfile
import time
from pathlib import Path

import grpc
import trio

ROOT = Path(__file__).resolve().parents[1]

from referee import wire
from referee.games import make_game
from referee.replay import ReplayWriter
from referee.runtime import Clock, play_game, resolve_bot
from referee.runtime.calls import CALLER, WIRE
from referee.runtime.process import MAX_REQUEST_BYTES, MAX_RESPONSE_BYTES, ProcessPlayer, bot_address

CALLS_BOT = """import sys
sys.path.insert(0, {root!r})
sys.argv[0] = {bot!r}
import runpy
from bots.python import kit
kit.serve = __import__("functools").partial(kit.serve, session=False)
runpy.run_path({bot!r}, run_name="__main__")
"""
"""The same bot asking for one call per request: the kit's serve with session=False."""


class Recording(ProcessPlayer):
    """A bot process whose Act requests are kept (as the referee's dataclasses: converted after the game, so that
    keeping them costs the referee's side nothing)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.sent: list = []
        self.answered = 0.0

    async def act(self, request, limit):
        self.sent.append(request)
        response = await super().act(request, limit)
        self.answered = time.perf_counter()
        return response

    def sent_bytes(self) -> list[bytes]:
        detail = not self.info.without_action_detail
        return [wire.act_request_bytes(request, detail=detail) for request in self.sent]


async def referee_game(game, players, seed: int, folder: Path) -> tuple[float, float, list[tuple[int, bytes]]]:
    """Seconds per decision of one game (to the last decision's answer), the seconds of the game's end after it
    spread over its decisions, and the requests it sent as (seat, bytes) in order."""
    for player in players:
        player.sent.clear()
    start = time.perf_counter()
    record = await play_game(game, players, match_id=f"bench-{seed}", seed=seed, clock=Clock(),
                             replay=ReplayWriter(folder / f"{seed}.jsonl", overwrite=True))
    end = time.perf_counter()
    answered = max(player.answered for player in players)
    sent = sorted((request.decision, seat, data) for seat, player in enumerate(players)
                  for request, data in zip(player.sent, player.sent_bytes(), strict=True))
    decisions = record.decisions
    return (answered - start) / decisions, (end - answered) / decisions, [(seat, data) for _, seat, data in sent]


def raw_unary(methods, requests: list[tuple[int, bytes]]) -> float:
    """Seconds per call of blocking unary calls with ``requests``' bytes."""
    start = time.perf_counter()
    for seat, data in requests:
        methods[seat](data, timeout=10)
    return (time.perf_counter() - start) / len(requests)


async def client_unary(callers, requests: list[tuple[int, bytes]]) -> float:
    """Seconds per call of the referee's client's unary calls with ``requests``' bytes, one after the other."""
    start = time.perf_counter()
    for seat, data in requests:
        await callers[seat].call(wire.ACT, data, timeout=10)
    return (time.perf_counter() - start) / len(requests)


def raw_stream(streams, requests: list[tuple[int, bytes]]) -> float:
    """Seconds per message of ``requests``' bytes on open streams (put the request, read the answer)."""
    framed = [(seat, wire.session_act(data)) for seat, data in requests]
    start = time.perf_counter()
    for seat, data in framed:
        sink, answers = streams[seat]
        sink.put(data)
        next(answers)
    return (time.perf_counter() - start) / len(requests)


async def main(game_id: str, rounds: int, bot: str) -> None:
    game = make_game(game_id)
    spec = resolve_bot(bot)
    with tempfile.TemporaryDirectory() as folder:
        wrapper = Path(folder) / "calls_bot.py"
        wrapper.write_text(CALLS_BOT.format(root=str(ROOT), bot=str(Path(bot).resolve())))
        calls_spec = dataclasses.replace(spec, command=(sys.executable, str(wrapper)))
        (Path(folder) / "c").mkdir()
        (Path(folder) / "s").mkdir()
        by_calls = [Recording(s, calls_spec, bot_address("unix", Path(folder) / "c", s), game_id) for s in range(2)]
        by_session = [Recording(s, spec, bot_address("unix", Path(folder) / "s", s), game_id) for s in range(2)]
        async with trio.open_nursery() as nursery:
            for player in by_calls + by_session:
                await nursery.start(player.run)
            assert not any(p.info.session for p in by_calls) and all(p.info.session for p in by_session)
            channels = [grpc.insecure_channel(player.address) for player in by_calls + by_session]
            methods = [channel.unary_unary("/kafana.v1.Bot/Act") for channel in channels[:2]]
            callers = [CALLER(player.address, max_response=MAX_RESPONSE_BYTES, max_request=MAX_REQUEST_BYTES,
                              name="kafana-bench") for player in by_calls]
            streams = []
            for channel in channels[2:]:
                sink: queue.SimpleQueue = queue.SimpleQueue()
                streams.append((sink, channel.stream_stream("/kafana.v1.Bot/Session")(iter(sink.get, None))))
            figures: dict[str, list[float]] = {key: [] for key in ("referee, calls", "referee, session", "raw unary",
                                                                   "referee's client", "raw stream")}
            ends: dict[str, list[float]] = {"calls": [], "session": []}
            requests: list[tuple[int, bytes]] = []
            for index in range(rounds):  # rounds 2k and 2k+1 play the same game (seed k), in the two orders
                seed = index // 2
                if index % 2 == 0:
                    calls, calls_end, requests = await referee_game(game, by_calls, seed, Path(folder))
                    session, session_end, _ = await referee_game(game, by_session, seed, Path(folder))
                    unary, stream = raw_unary(methods, requests), raw_stream(streams, requests)
                    client = await client_unary(callers, requests)
                else:
                    client = await client_unary(callers, requests)
                    unary, stream = raw_unary(methods, requests), raw_stream(streams, requests)
                    session, session_end, _ = await referee_game(game, by_session, seed, Path(folder))
                    calls, calls_end, requests = await referee_game(game, by_calls, seed, Path(folder))
                for key, value in zip(figures, (calls, session, unary, client, stream), strict=True):
                    figures[key].append(value)
                ends["calls"].append(calls_end)
                ends["session"].append(session_end)
            for sink, answers in streams:
                sink.put(None)
                answers.cancel()
            for channel in channels:
                channel.close()
            for caller in callers:
                caller.close()
            for player in by_calls + by_session:
                player.close()
    print(f"{game_id}: {rounds} rounds, one game each ({len(requests)} decisions in the last); "
          f"the referee's client: {WIRE}")
    for label, values in figures.items():
        ms = [1000 * v for v in values]
        print(f"  {label:<17} {statistics.median(ms):6.3f} ms a decision  ({min(ms):.3f}-{max(ms):.3f})")
    for label in ("referee, calls", "referee, session", "referee's client"):
        ratios = [raw / mine for raw, mine in zip(figures["raw unary"], figures[label], strict=True)]
        print(f"  raw unary / {label:<17} {statistics.median(ratios):.2f}  ({min(ratios):.2f}-{max(ratios):.2f})")
    for label, values in ends.items():
        ms = [1000 * v for v in values]
        whole = [raw / (mine + end) for raw, mine, end in
                 zip(figures["raw unary"], figures[f"referee, {label}"], values, strict=True)]
        print(f"  the game's end, {label:<8} {statistics.median(ms):6.3f} ms a decision ({min(ms):.3f}-{max(ms):.3f}) "
              f"spread over the game's; raw unary / the whole game {statistics.median(whole):.2f} "
              f"({min(whole):.2f}-{max(whole):.2f})")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="tapa")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--bot", default=str(ROOT / "bots" / "python" / "random_bot.py"))
    args = parser.parse_args()
    trio.run(main, args.game, args.rounds, args.bot)
