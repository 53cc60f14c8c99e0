"""A bot for bench/side_channels.py: two copies at one Durak table, seat 0 sending and seat 2 receiving through
what the sandbox leaves shared, each logging to stderr what it sent or read (``S`` or ``R``, the time on the
machine's monotonic clock, a number), so that the bench can line the two up. ``$KAFANA_CHANNEL`` picks the channel:

- ``cpu``: the sender's two processes spin through the time slots (``$KAFANA_CHANNEL_SLOT`` seconds) whose bit is
  1 and sleep through the others; the receiver's thread counts how far it gets in each slot (``R slot count``).
- ``threads``: at each of its moves the sender keeps ``level × 4`` threads alive (``S time level``); at each of its
  moves the receiver reads the machine's thread count from ``sysinfo`` (``R time count``).
- ``pace``: the sender takes 2 ms over a move whose bit is 0 and 32 ms over one whose bit is 1 (``S time bit``);
  the receiver notes when its requests arrive (``R time 0``).

Every copy also takes ``$KAFANA_CHANNEL_PACE`` seconds over each move (default 0.02), so that games last long
enough to measure. It plays the first legal action.
"""

import ctypes
import hashlib
import os
import sys
import threading
import time

from bots.python.kit import serve

CHANNEL = os.environ.get("KAFANA_CHANNEL", "cpu")
SLOT = float(os.environ.get("KAFANA_CHANNEL_SLOT", "0.01"))
PACE = float(os.environ.get("KAFANA_CHANNEL_PACE", "0.02"))
SENDER, RECEIVER = 0, 2
STEP, LEVELS = 4, 8
libc = ctypes.CDLL(None, use_errno=True)


def symbol(index: int, levels: int = 2) -> int:
    """The ``index``-th symbol sent, known to both copies (and to the bench)."""
    return hashlib.sha256(str(index).encode()).digest()[0] % levels


def log(kind: str, *values: object) -> None:
    print(kind, *values, file=sys.stderr, flush=True)


def spin_slots() -> None:
    while True:
        now = time.monotonic()
        slot = int(now / SLOT)
        end = (slot + 1) * SLOT
        if symbol(slot):
            while time.monotonic() < end:
                pass
        else:
            time.sleep(max(0.0, end - time.monotonic()))


def count_slots() -> None:
    slot, count = int(time.monotonic() / SLOT), 0
    while True:
        now = time.monotonic()
        current = int(now / SLOT)
        if current != slot:
            if current == slot + 1:  # a slot seen whole (a stop in between would show as a gap)
                log("R", slot, count)
            slot, count = current, 0
        count += 1


class Holders:
    """Threads kept alive to set the machine's thread count."""

    def __init__(self) -> None:
        self.threads: list[tuple[threading.Thread, threading.Event]] = []

    def hold(self, wanted: int) -> None:
        while len(self.threads) > wanted:
            thread, done = self.threads.pop()
            done.set()
            thread.join()
        while len(self.threads) < wanted:
            done = threading.Event()
            thread = threading.Thread(target=done.wait, daemon=True)
            thread.start()
            self.threads.append((thread, done))


def machine_threads() -> int:
    """The machine's thread count (``sysinfo``'s ``procs``, after the uptime, 3 loads and 6 memory figures)."""
    info = ctypes.create_string_buffer(128)
    libc.sysinfo(info)
    return int.from_bytes(info.raw[80:82], "little")


holders = Holders()
moves = 0
started = False


def choose(request):
    global moves, started
    if request.match_id.startswith("check-"):
        return 0
    seat = request.seat
    if not started:
        started = True
        if CHANNEL == "cpu" and seat == SENDER:
            for _ in range(2):  # processes, not threads: one Python process spins on one core at a time
                if os.fork() == 0:
                    spin_slots()
        if CHANNEL == "cpu" and seat == RECEIVER:
            threading.Thread(target=count_slots, daemon=True).start()
    if CHANNEL == "threads" and seat == SENDER:
        level = symbol(moves, LEVELS)
        holders.hold(level * STEP)
        log("S", time.monotonic(), level)
    elif CHANNEL == "threads" and seat == RECEIVER:
        log("R", time.monotonic(), machine_threads())
    elif CHANNEL == "pace" and seat == SENDER:
        bit = symbol(moves)
        log("S", time.monotonic(), bit)
        time.sleep(0.032 if bit else 0.002)
    elif CHANNEL == "pace" and seat == RECEIVER:
        log("R", time.monotonic(), 0)
    moves += 1
    time.sleep(PACE)
    return 0


serve(choose, name="channel", games=["durak"])
