"""Keeping a process on a share of the machine's cores.

A ladder that plays two matches at once on two cores gives each match worker a core of its own
(``referee serve-matches --cores``): the worker and the bots it starts (which inherit the share, and whose cpuset
cgroup holds them to it where cgroups can be made) hand the move back and forth on one core, instead of waking on
the core the other match is using while theirs idles. Core lists are written as Linux writes them (``0-3,6``).
"""

from __future__ import annotations

import os
from collections.abc import Iterable


def parse_cores(text: str) -> frozenset[int]:
    """The cores of a list like ``0-3,6``.

    >>> sorted(parse_cores("0-2,5"))
    [0, 1, 2, 5]

    Raises:
        ValueError: ``text`` is not such a list.
    """
    cores: set[int] = set()
    try:
        for part in text.split(","):
            first, _, last = part.strip().partition("-")
            low, high = int(first), int(last or first)
            if low < 0 or high < low:
                raise ValueError
            cores.update(range(low, high + 1))
    except ValueError:
        raise ValueError(f"{text!r} is not a list of cores like 0-3,6") from None
    return frozenset(cores)


def format_cores(cores: Iterable[int]) -> str:
    """The list of ``cores`` as Linux writes it.

    >>> format_cores([6, 0, 1, 2, 3])
    '0-3,6'
    """
    ranges: list[list[int]] = []
    for core in sorted(set(cores)):
        if ranges and ranges[-1][1] == core - 1:
            ranges[-1][1] = core
        else:
            ranges.append([core, core])
    return ",".join(str(low) if low == high else f"{low}-{high}" for low, high in ranges)


def usable_cores() -> frozenset[int]:
    """The cores this process may run on."""
    return frozenset(os.sched_getaffinity(0))


def pin(cores: Iterable[int]) -> None:
    """Keep every thread of this process (and so every process it starts from now on) on ``cores``.

    Raises:
        ValueError: some of ``cores`` are not among the cores this process may use.
    """
    wanted, allowed = frozenset(cores), usable_cores()
    if not wanted or not wanted <= allowed:
        raise ValueError(f"cores {format_cores(wanted) or '(none)'} are not among the usable {format_cores(allowed)}")
    for thread in os.listdir("/proc/self/task"):
        try:
            os.sched_setaffinity(int(thread), wanted)
        except ProcessLookupError:  # a thread that just ended
            pass
