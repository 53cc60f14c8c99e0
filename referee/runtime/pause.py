"""The off-turn pause: a bot's processes are stopped while it is not its move, so that a bot cannot think (or
burn CPU) on its opponents' time.

With a freezer cgroup (:class:`referee.runtime.cgroups.BotCgroup`) the whole process tree freezes at once, whatever
sessions it made. Without one, SIGSTOP/SIGCONT go to the bot process and its descendants (found through
``/proc/PID/task/TID/children``); a child that left the tree (a daemon re-parented to init) then escapes the
pause, though not the sandbox's PID namespace, which still ends it with the bot.
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
    """Stops and resumes one bot's processes."""

    def __init__(self, pid: int, freezer: BotCgroup | None) -> None:
        self.pid = pid
        self.freezer = freezer
        self.paused = False

    def pause(self) -> None:
        """Stop the bot (idempotent)."""
        if not self.paused:
            self._signal(True)
            self.paused = True

    def resume(self) -> None:
        """Let the bot run again (idempotent)."""
        if self.paused:
            self._signal(False)
            self.paused = False

    def __enter__(self) -> None:
        """Resume the bot for the length of a ``with`` block (its move or a notification)."""
        self.resume()

    def __exit__(self, *exc_info: object) -> None:
        self.pause()

    def _signal(self, stop: bool) -> None:
        if self.freezer is not None:
            with contextlib.suppress(OSError):
                self.freezer.freeze(stop)
                return
        for pid in descendants(self.pid):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGSTOP if stop else signal.SIGCONT)
