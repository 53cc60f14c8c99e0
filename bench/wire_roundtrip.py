"""What the referee adds to a gRPC round trip: a bare Hello, a raw Act, and Act through the referee's conversion.

Usage: python bench/wire_roundtrip.py [--calls 300] [--bot bots/python/random_bot.py]

One bot process over a Unix socket; a Tapa request with 15 legal plays. Printed as ratios to the bare Hello.
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

from referee import wire  # noqa: E402
from referee.games import make_game  # noqa: E402
from referee.runtime import resolve_bot  # noqa: E402
from referee.runtime.bridge import call_unary  # noqa: E402
from referee.runtime.process import ProcessPlayer, bot_address  # noqa: E402


def request() -> wire.ActRequest:
    """A mid-game Tapa decision with 15 legal plays."""
    game = make_game("tapa")
    state = game.position(0, {13: 3, 8: 3, 6: 4, 24: 5}, {10: 1, 20: 3, 3: 2}, dice=(3, 1))
    legal = tuple(wire.LegalAction(i, a.notation(), a) for i, a in enumerate(state.legal_actions()))
    return wire.ActRequest("m", 1, "tapa", 0, dict(game.options), 1, state.view(0), wire.ClockInfo(1, 1, 1, 1), legal)


async def main(bot: str, calls: int) -> None:
    act = request()
    message = wire.act_request_to_proto(act)
    hello = wire.hello_request("bench")
    with tempfile.TemporaryDirectory() as folder:
        player = ProcessPlayer(0, resolve_bot(bot), bot_address("unix", Path(folder), 0), "tapa")
        async with trio.open_nursery() as nursery:
            await nursery.start(player.run)
            timings = {}
            for label, call in (
                ("bare Hello (bridged)", lambda: call_unary(player._stub.Hello, hello, timeout=5)),
                ("raw Act (bridged)", lambda: call_unary(player._stub.Act, message, timeout=5)),
                ("Act via the referee", lambda: player.act(act, 5)),
            ):
                start = time.perf_counter()
                for _ in range(calls):
                    await call()
                timings[label] = (time.perf_counter() - start) / calls * 1000
            player.close()
    base = timings["bare Hello (bridged)"]
    for label, ms in timings.items():
        print(f"{label:<22} {ms:6.3f} ms  (ratio {ms / base:.2f})")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--bot", default=str(ROOT / "bots" / "python" / "random_bot.py"))
    args = parser.parse_args()
    trio.run(main, args.bot, args.calls)
