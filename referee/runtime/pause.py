"""Stopping a bot's processes: between its moves (the off-turn pause, so that a bot cannot think, or burn CPU, on
its opponents' time) and between its games (a kept process, :mod:`.seating`).

The processes get SIGSTOP and SIGCONT. They are found through the bot's control group where it has one
(:class:`referee.runtime.cgroups.BotCgroup`: every process of the sandbox, whatever sessions it made and whoever
its parent now is), else as the bot process and its descendants (``/proc/PID/task/TID/children``; a daemon
re-parented to init then escapes the pause). Signals rather than a freezer cgroup: a process frozen by a cgroup v1
freezer cannot die, not even of the SIGKILL the kernel sends every process of a sandbox whose referee was killed,
while a stopped one can.
"""

from __future__ import annotations

import contextlib
import os
import signal
from pathlib import Path

from .cgroups import BotCgroup


def descendants(pid: int) -> list[int]:
    """``pid`` and every process below it, parents first (empty when it is gone)."""
    found: list[int] = []
    todo = [pid]
    while todo:
        current = todo.pop()
        try:
            tasks = list(Path(f"/proc/{current}/task").iterdir())
        except OSError:
            continue
        found.append(current)
        for task in tasks:
            with contextlib.suppress(OSError, ValueError):
                todo.extend(int(child) for child in (task / "children").read_text().split())
    return found


class OffTurnPause:
    """Stops and resumes one bot's processes (``pid`` and what it started; all of ``members``' when given)."""

    def __init__(self, pid: int, members: BotCgroup | None) -> None:
        self.pid = pid
        self.members = members
        self.paused = False

    def pause(self) -> None:
        """Stop the bot (idempotent)."""
        if not self.paused:
            self._signal(signal.SIGSTOP)
            self.paused = True

    def resume(self) -> None:
        """Let the bot run again (idempotent)."""
        if self.paused:
            self._signal(signal.SIGCONT)
            self.paused = False

    def __enter__(self) -> None:
        """Resume the bot for the length of a ``with`` block (its move or a notification)."""
        self.resume()

    def __exit__(self, *exc_info: object) -> None:
        self.pause()

    def _processes(self) -> list[int]:
        if self.members is not None and (found := self.members.processes()) is not None:
            return found
        return descendants(self.pid)

    def _signal(self, sig: signal.Signals) -> None:
        """Send ``sig`` to every process, again to any that appeared meanwhile (a fork before its parent stopped)."""
        done: set[int] = set()
        while todo := [pid for pid in self._processes() if pid not in done]:
            for pid in todo:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, sig)
            done.update(todo)
            if sig != signal.SIGSTOP:
                break
