"""Slow checks that are whole programs (a test suite on the Python engines, clippy, mypy): each starts when the run
begins, at low priority, and its test waits for it, so that it uses the cores the tests in front leave idle instead
of adding its own time to the run's.

A test module declares one with :class:`Background` and marks its test with it; ``tests/conftest.py`` starts the
checks of the tests the run selected as soon as they are collected.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

NICENESS = 19
"""How much lower the checks' priority is than the tests': the lowest there is (a check's thread gets about one
part in seventy of a core a busy test wants), so that they take only the time the tests leave idle."""


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
    _process: subprocess.Popen[bytes] | None = None
    _output: IO[bytes] | None = None
    _folder: tempfile.TemporaryDirectory[str] | None = None

    def __call__(self, test: Callable[..., Any]) -> Callable[..., Any]:
        """Mark ``test`` as the one that waits for this check (the check starts when the test is selected)."""
        test.background = self  # type: ignore[attr-defined]
        return test

    def start(self) -> None:
        """Start the command at low priority (once)."""
        if self._process is not None:
            return
        env = {**os.environ, **self.env}
        if self.scratch is not None:
            self._folder = tempfile.TemporaryDirectory(prefix="kafana-check-")
            env[self.scratch] = self._folder.name
        self._output = tempfile.TemporaryFile()
        self._process = subprocess.Popen(
            ["nice", "-n", str(NICENESS), *self.command], cwd=self.cwd, env=env, stdin=subprocess.DEVNULL,
            stdout=self._output, stderr=subprocess.STDOUT,
        )

    def stop(self) -> None:
        """Kill the command if it still runs (the run ended without waiting for it)."""
        if self._process is not None and self._process.poll() is None:
            self._process.kill()
            self._process.wait()
        if self._folder is not None:
            self._folder.cleanup()

    def result(self, timeout: float) -> Finished:
        """Wait up to ``timeout`` seconds for the command (started now if it was not) and return how it ended."""
        self.start()
        assert self._process is not None and self._output is not None
        try:
            code = self._process.wait(timeout)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
            raise
        finally:
            if self._folder is not None:
                self._folder.cleanup()
        self._output.seek(0)
        return Finished(code, self._output.read().decode(errors="replace"))
