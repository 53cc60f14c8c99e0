"""Slow checks that are whole programs (a test suite on the Python engines, clippy, mypy): each starts when the run
begins, at low priority, and its test waits for it, so that it uses the cores the tests in front leave idle instead
of adding its own time to the run's.

A test module declares one with :class:`Background` and marks its test with it; ``tests/conftest.py`` starts the
checks of the tests the run selected as soon as they are collected. A check runs once in a run however many
processes collect its test (each of pytest-xdist's workers collects every test): it lives in the run's folder
(:data:`RUN_ENV`), where the process that starts it first leaves its output and exit status for whichever waits.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import signal
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

RUN_ENV = "KAFANA_TEST_RUN"
"""The variable naming the run's own folder, made by its first process (``tests/conftest.py``) and inherited by
pytest-xdist's workers; the checks' commands run without it."""
NICENESS = 19
"""How much lower the checks' priority is than the tests': the lowest there is (a check's thread gets about one
part in seventy of a core a busy test wants), so that they take only the time the tests leave idle."""
WRAPPER = f'nice -n {NICENESS} "$@" >"$0/output" 2>&1; echo $? >"$0/status.part"; mv "$0/status.part" "$0/status"'
"""The shell line a check runs in: the command at low priority, its output and then its exit status written to
the check's folder (``$0``), the status last and whole, so that its file's presence says the check is done."""
POLL = 0.2
"""Seconds between looks for a check's exit status."""


@dataclass
class Finished:
    """A check's exit status and everything it printed (stdout and stderr together)."""

    returncode: int
    output: str


@dataclass
class Background:
    """A command run beside the tests. ``env`` is added to the run's environment; ``scratch`` names a variable set
    to a temporary folder of the check's own (removed when it is done)."""

    command: Sequence[str]
    cwd: Path
    env: Mapping[str, str] = field(default_factory=dict)
    scratch: str | None = None

    def __call__(self, test: Callable[..., Any]) -> Callable[..., Any]:
        """Mark ``test`` as the one that waits for this check (the check starts when the test is selected)."""
        test.background = self  # type: ignore[attr-defined]
        return test

    @property
    def folder(self) -> Path:
        """The check's folder in the run's: named by its command and where it runs, the same in every process."""
        key = hashlib.sha256(repr((list(self.command), str(self.cwd))).encode()).hexdigest()[:16]
        return Path(os.environ[RUN_ENV]) / f"check-{key}"

    def start(self) -> None:
        """Start the command at low priority, unless a process of the run has started it already."""
        folder = self.folder
        try:
            folder.mkdir()
        except FileExistsError:
            return
        env = {name: value for name, value in os.environ.items()
               if name != RUN_ENV and not name.startswith("PYTEST_XDIST")} | dict(self.env)
        if self.scratch is not None:
            (folder / "scratch").mkdir()
            env[self.scratch] = str(folder / "scratch")
        process = subprocess.Popen(
            ["sh", "-c", WRAPPER, str(folder), *self.command], cwd=self.cwd, env=env,
            stdin=subprocess.DEVNULL, start_new_session=True,  # it outlives the worker that started it
        )
        (folder / "pid").write_text(str(process.pid))

    def result(self, timeout: float) -> Finished:
        """Wait up to ``timeout`` seconds for the command (started now if it was not) and return how it ended."""
        self.start()
        status = self.folder / "status"
        deadline = time.monotonic() + timeout
        while not status.exists():
            if time.monotonic() > deadline:
                stop(self.folder)
                raise subprocess.TimeoutExpired(list(self.command), timeout)
            time.sleep(POLL)
        shutil.rmtree(self.folder / "scratch", ignore_errors=True)
        return Finished(int(status.read_text()), (self.folder / "output").read_bytes().decode(errors="replace"))


def stop(folder: Path) -> None:
    """Kill the check of ``folder`` and what it started, if it still runs."""
    try:
        pid = int((folder / "pid").read_text())
    except (OSError, ValueError):
        return  # not started, or its starter was stopped before it wrote the pid
    if not (folder / "status").exists():
        try:
            os.killpg(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def stop_all(run: Path) -> None:
    """Kill the checks of the run's folder ``run`` still running (the run was cut short, or stopped at a failure)."""
    for folder in run.glob("check-*"):
        stop(folder)
