"""Processes that do not outlive their parent, even when the parent is killed with SIGKILL.

A child notices that its parent died when it is re-parented (``os.getppid()`` changes). The referee, started by
the ladder, watches with :func:`exit_when_orphaned` beside its work, so that its own clean-up (stopping its bots)
still runs; a Python bot watches with :func:`kafana_kit.watch_parent` in a thread. (Linux's PR_SET_PDEATHSIG is not
used: it fires when the parent *thread* ends, and trio starts processes from worker threads that come and go.)
"""

from __future__ import annotations

import os

import trio

POLL_SECONDS = 0.5


class Orphaned(Exception):
    """The parent process is gone."""


async def exit_when_orphaned(poll: float = POLL_SECONDS) -> None:
    """Return never; raise :class:`Orphaned` once the parent process is gone (run it in the work's nursery)."""
    parent = os.getppid()
    while True:
        await trio.sleep(poll)
        if os.getppid() != parent:
            raise Orphaned(f"parent process {parent} is gone")

