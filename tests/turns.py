"""Tests that need the machine to themselves. The run's processes (pytest-xdist's workers) play tests side by side,
but a test marked ``alone`` — one that looks at the whole machine (no process of a sandbox uid anywhere, no cgroup
left) or measures how the cores are shared — runs while no other test does: it waits for the tests running to end,
and no test starts until it has ended.

A readers-writer lock on two files of the run's folder: every test holds the machine's lock shared, a test alone
holds it exclusively; the gate in front of it, which a test alone keeps while it waits and runs, stops new tests
from slipping in ahead of it.
"""

from __future__ import annotations

import fcntl
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

ALONE = "alone"
"""The marker of a test that runs with no other beside it."""


@contextmanager
def turn(run: Path, alone: bool) -> Iterator[None]:
    """Hold the machine, shared or (``alone``) exclusively, through the lock files of the run's folder ``run``."""
    with ExitStack() as held:
        gate = held.enter_context((run / "gate.lock").open("a"))
        machine = held.enter_context((run / "machine.lock").open("a"))
        fcntl.flock(gate, fcntl.LOCK_EX)
        fcntl.flock(machine, fcntl.LOCK_EX if alone else fcntl.LOCK_SH)
        if not alone:
            fcntl.flock(gate, fcntl.LOCK_UN)
        yield  # closing the files lets go of their locks
