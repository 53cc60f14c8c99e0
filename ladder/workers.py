"""Long-lived match workers on this machine: ``referee serve-matches`` processes, each playing one match at a time
from JSON lines on its standard input, keeping its bot processes between matches.

A worker pays Python's imports once, not once per match, and its bots start once per (bot, worker), not once per
game (``referee/runtime/seating.py`` says when a bot process is not reused). A worker that dies, hangs past the
match timeout, or is cancelled is killed (its bots die with it) and the next match gets a new one.
"""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
from collections import deque
from collections.abc import AsyncIterator, Sequence

import trio

STDERR_KEEP = 8000
"""Characters of a worker's stderr kept for an error message."""


class Worker:
    """One ``referee serve-matches`` process and the line protocol to it."""

    def __init__(self, process: trio.Process) -> None:
        self.process = process
        self.bot_starts = 0
        """The bot processes it has started, as it last said."""
        self._buffer = b""
        self._stderr: deque[bytes] = deque(maxlen=64)

    @classmethod
    async def start(cls, nursery: trio.Nursery, arguments: Sequence[str]) -> Worker:
        """Start a worker whose stderr is drained in ``nursery``."""
        process = await trio.lowlevel.open_process(
            [sys.executable, "-m", "referee.cli", "serve-matches", *arguments],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        worker = cls(process)
        nursery.start_soon(worker._drain_stderr)
        return worker

    async def _drain_stderr(self) -> None:
        assert self.process.stderr is not None
        with contextlib.suppress(trio.ClosedResourceError, trio.BrokenResourceError):
            while chunk := await self.process.stderr.receive_some(65536):
                self._stderr.append(chunk)

    def stderr(self) -> str:
        """The end of what the worker wrote on stderr."""
        return b"".join(self._stderr).decode(errors="replace")[-STDERR_KEEP:]

    async def play(self, spec: dict) -> str:
        """Send one spec and return the worker's answer line.

        Raises:
            EOFError: the worker ended before answering.
        """
        assert self.process.stdin is not None and self.process.stdout is not None
        await self.process.stdin.send_all(json.dumps(spec).encode() + b"\n")
        while b"\n" not in self._buffer:
            chunk = await self.process.stdout.receive_some(65536)
            if not chunk:
                raise EOFError("the match worker ended before answering")
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode(errors="replace")

    async def stop(self, grace: float = 5.0) -> None:
        """End the worker: close its input (it stops its bots and exits), then kill it if it lingers."""
        with trio.CancelScope(shield=True):
            if self.process.stdin is not None:
                with contextlib.suppress(trio.ClosedResourceError, trio.BrokenResourceError):
                    await self.process.stdin.aclose()
            with trio.move_on_after(grace):
                await self.process.wait()
            if self.process.returncode is None:
                self.process.kill()
                await self.process.wait()


class WorkerPool:
    """Idle workers for matches to take (:meth:`worker`); a worker that fails is not given back."""

    def __init__(self, nursery: trio.Nursery, arguments: Sequence[str]) -> None:
        self._nursery = nursery
        self._arguments = list(arguments)
        self._idle: list[Worker] = []
        self._all: list[Worker] = []

    @contextlib.asynccontextmanager
    async def worker(self) -> AsyncIterator[Worker]:
        """An idle worker (or a new one) for one match; given back only when the block ends normally."""
        if self._idle:
            worker = self._idle.pop()
        else:
            worker = await Worker.start(self._nursery, self._arguments)
            self._all.append(worker)
        try:
            yield worker
        except BaseException:
            with trio.CancelScope(shield=True):
                worker.process.kill()
                await worker.process.wait()
            raise
        if worker.process.returncode is None:
            self._idle.append(worker)

    async def stop(self) -> None:
        """End every worker."""
        async with trio.open_nursery() as nursery:
            for worker in self._all:
                nursery.start_soon(worker.stop)
        self._idle.clear()
        self._all.clear()
