"""What the sandbox leaves between two bots at one table: the bandwidth of the best side channels we could build
between two copies of a bot at a four-seat Durak table (seats 0 and 2; random bots at 1 and 3), in the sandbox as
a ladder runs it, with and without ``--pause-off-turn``.

Usage: python bench/side_channels.py [--games 3] [--channels cpu,threads,pace] [--slot 0.01] [--cores 0]

The channels (bench/channel_bot.py):

- ``cpu``: CPU contention. The sender spins two threads through the time slots whose bit is 1; the receiver counts
  how far a spinning thread of its own gets in each slot and calls a slot 1 when the count is below the median.
- ``threads``: the machine's thread count, which ``sysinfo`` gives every process (it is not namespaced). At each of
  its moves the sender keeps 0, 4, … 28 threads alive (3 bits); at each of its moves the receiver reads the count,
  its baseline calibrated on the first 4 readings of each game.
- ``pace``: the time a move takes. The sender takes 2 ms or 32 ms over a move; the receiver times the gap between
  its own requests, over the gaps with exactly one move of the sender's in them, and calls the longer half 1.

For each channel the bench reports the symbols observed, the error rate, the capacity of the symmetric channel
with that error rate (bits per symbol: 1 − H(p) for bits, log2 M − H(p) − p·log2(M − 1) for M levels) and the
bandwidth: bits per symbol × symbols observed ÷ the seconds the game took (wall clock, the machine's monotonic
clock, the same on both sides of the sandbox). Both copies take 20 ms over every move so that games last long
enough; the pace channel's figure grows with the pace of the game, the others with time.

``--cores 0`` keeps this process and its bots to core 0, as a ladder playing two matches at once on two cores
keeps each match (ladder/workers.py); by default they run where the machine puts them. The games are played one
at a time, 2 s apart: a quiet machine, the best case for the receiver (other matches add noise).
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import math
import statistics
import tempfile
import time
from pathlib import Path

import trio

ROOT = Path(__file__).resolve().parents[1]

from referee.games import make_game
from referee.runtime import Clock, resolve_bot, run_game
from referee.runtime.affinity import parse_cores, pin
from referee.runtime.sandbox import resolve_mode

CHANNEL_BOT = resolve_bot(ROOT / "bench" / "channel_bot.py")
RANDOM = resolve_bot(ROOT / "bots" / "python" / "random_bot.py")
STEP, LEVELS, PREAMBLE = 4, 8, 4
SETTLE = 2.0
"""Seconds between games, for the last game's processes to end (they would move the thread count)."""


def symbol(index: int, levels: int = 2) -> int:
    """The ``index``-th symbol sent (as bench/channel_bot.py computes it)."""
    return hashlib.sha256(str(index).encode()).digest()[0] % levels


def entropy(p: float) -> float:
    return 0.0 if p <= 0 or p >= 1 else -p * math.log2(p) - (1 - p) * math.log2(1 - p)


def capacity(error: float, levels: int) -> float:
    """Bits per symbol of the symmetric channel of ``levels`` symbols that errs with probability ``error``."""
    if error >= 1 - 1 / levels:
        return 0.0
    return math.log2(levels) - entropy(error) - error * math.log2(levels - 1)


@dataclasses.dataclass
class Figures:
    symbols: int = 0
    errors: int = 0
    seconds: float = 0.0
    levels: int = 2

    def add(self, other: Figures) -> None:
        self.symbols += other.symbols
        self.errors += other.errors
        self.seconds += other.seconds
        self.levels = other.levels

    def line(self) -> str:
        error = self.errors / self.symbols if self.symbols else 0.5
        bits = capacity(error, self.levels)
        rate = bits * self.symbols / self.seconds if self.seconds else 0.0
        return (f"{self.symbols:6d} symbols  error {error:6.1%}  {bits:4.2f} bits/symbol  "
                f"{rate:7.1f} bits/s  over {self.seconds:5.1f} s")


def lines(stderr: str, kind: str) -> list[tuple[float, float]]:
    found = []
    for line in stderr.splitlines():
        words = line.split()
        if len(words) == 3 and words[0] == kind:
            found.append((float(words[1]), float(words[2])))
    return found


def cpu(sender: str, receiver: str, slot: float) -> Figures:
    counts = lines(receiver, "R")
    if not counts:
        return Figures()
    threshold = statistics.median(count for _, count in counts)
    errors = sum((count < threshold) != bool(symbol(int(index))) for index, count in counts)
    seconds = (counts[-1][0] - counts[0][0] + 1) * slot
    return Figures(len(counts), errors, seconds)


def threads(sender: str, receiver: str) -> Figures:
    sent, read = lines(sender, "S"), lines(receiver, "R")
    pairs, last = [], None
    for at, count in read:
        earlier = [level for when, level in sent if when < at]
        if earlier and len(earlier) != last:  # a new symbol since the last reading
            pairs.append((count, int(earlier[-1])))
            last = len(earlier)
    if len(pairs) <= PREAMBLE:
        return Figures(levels=LEVELS)
    base = statistics.median(count - level * STEP for count, level in pairs[:PREAMBLE])
    decoded = [(min(LEVELS - 1, max(0, round((count - base) / STEP))), level) for count, level in pairs[PREAMBLE:]]
    seconds = read[-1][0] - read[0][0]
    return Figures(len(decoded), sum(guess != level for guess, level in decoded), seconds, LEVELS)


def pace(sender: str, receiver: str) -> Figures:
    sent, read = lines(sender, "S"), lines(receiver, "R")
    gaps = []
    for (start, _), (end, _) in zip(read, read[1:]):
        between = [bit for when, bit in sent if start < when < end]
        if len(between) == 1:
            gaps.append((end - start, int(between[0])))
    if not gaps:
        return Figures()
    threshold = statistics.median(gap for gap, _ in gaps)
    errors = sum((gap > threshold) != bool(bit) for gap, bit in gaps)
    return Figures(len(gaps), errors, read[-1][0] - read[0][0])


async def play(channel: str, pause: bool, seed: int, slot: float, folder: Path) -> Figures:
    env = (("KAFANA_CHANNEL", channel), ("KAFANA_CHANNEL_SLOT", str(slot)))
    bot = dataclasses.replace(CHANNEL_BOT, env=env)
    record = await run_game(make_game("durak", {"seats": "4"}), [bot, RANDOM, bot, RANDOM],
                            match_id=f"channel-{channel}-{seed}", seed=seed, clock=Clock(),
                            replay_path=folder / f"{channel}-{pause}-{seed}.jsonl", seed_public=False,
                            sandboxed=resolve_mode("on"), pause_off_turn=pause)
    if record.faults:
        raise SystemExit(f"{channel}: {record.faults}")
    sender, receiver = record.output[0]["stderr"], record.output[2]["stderr"]
    if channel == "cpu":
        return cpu(sender, receiver, slot)
    return threads(sender, receiver) if channel == "threads" else pace(sender, receiver)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--channels", default="cpu,threads,pace")
    parser.add_argument("--slot", type=float, default=0.01, help="seconds per bit of the cpu channel")
    parser.add_argument("--cores", help="keep this process and its bots to these cores (e.g. 0)")
    args = parser.parse_args()
    if args.cores:
        pin(parse_cores(args.cores))
    print(f"four-seat Durak, sandbox on, {args.games} games per line, cores: {args.cores or 'all'}")
    with tempfile.TemporaryDirectory(prefix="kafana-channels-") as folder:
        for channel in args.channels.split(","):
            for pause in (False, True):
                total = Figures()
                for seed in range(1, args.games + 1):
                    time.sleep(SETTLE)
                    total.add(trio.run(play, channel, pause, seed, args.slot, Path(folder)))
                print(f"{channel:8s} pause {'on ' if pause else 'off'}  {total.line()}", flush=True)


if __name__ == "__main__":
    main()
