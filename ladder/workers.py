"""Long-lived match workers on this machine: ``referee serve-matches`` processes, each playing one match at a time
from JSON lines on its standard input, keeping its bot processes between matches.

A worker pays Python's imports once, not once per match, and its bots start once per (bot, worker), not once per
game (``referee/runtime/seating.py`` says when a bot process is not reused). A worker that dies, hangs past the
match timeout, or is cancelled is killed (its bots die with it) and the next match gets a new one.

The workers that play at once share the machine's cores out (:func:`core_shares`): each plays on its own share,
its bots with it (:mod:`referee.runtime.affinity` says why).

Each worker keeps its temporary files (its bots' sockets) in a folder of its own, removed when it ends, however it
ends; the folders of workers whose ladder was killed are removed by the next pool on the machine.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import deque
from collections.abc import AsyncIterator, Collection, Sequence
from pathlib import Path

import trio

from referee.runtime.affinity import format_cores

STDERR_KEEP = 8000
"""Characters of a worker's stderr kept for an error message."""
FOLDER_PREFIX = "kafana-worker-"
"""A worker's temporary folder: this, the ladder's process id, a dash and a random part."""


def _worker_folder() -> str:
    return tempfile.mkdtemp(prefix=f"{FOLDER_PREFIX}{os.getpid()}-")


def sweep_folders(parent: Path | None = None) -> int:
    """Remove the temporary folders of workers whose ladder process is gone (killed before it could); return how
    many."""
    removed = 0
    for folder in (parent or Path(tempfile.gettempdir())).glob(f"{FOLDER_PREFIX}*"):
        found = re.fullmatch(rf"{FOLDER_PREFIX}(\d+)-.*", folder.name)
        if found is None or _alive(int(found.group(1))):
            continue
        shutil.rmtree(folder, ignore_errors=True)
        removed += 1
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


async def _remove_when_ended(process: trio.Process, folder: str) -> None:
    try:
        await process.wait()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def at_once(concurrency: int, cores: Collection[int]) -> int:
    """How many matches a league asking for ``concurrency`` plays at once on ``cores``: never more than the cores
    (two matches on one core cost each more CPU than their overlap saves), at least one.

    >>> at_once(4, [0, 1]), at_once(2, range(8)), at_once(3, [0])
    (2, 2, 1)
    """
    return max(1, min(concurrency, len(cores)))


def core_shares(workers: int, cores: Collection[int]) -> list[tuple[int, ...]]:
    """The cores each of ``workers`` workers playing at once keeps to: ``cores`` shared out in runs as even as can
    be, or one core each, in turn, when there are more workers than cores. Empty when there is nothing to share
    out (one worker, or one core): a worker then runs wherever the machine puts it.

    >>> core_shares(2, [0, 1])
    [(0,), (1,)]
    >>> core_shares(3, range(8))
    [(0, 1, 2), (3, 4, 5), (6, 7)]
    >>> core_shares(3, [0, 1])
    [(0,), (1,), (0,)]
    >>> core_shares(1, [0, 1])
    []
    """
    ordered = sorted(cores)
    if workers <= 1 or len(ordered) <= 1:
        return []
    if workers >= len(ordered):
        return [(ordered[index % len(ordered)],) for index in range(workers)]
    size, extra = divmod(len(ordered), workers)
    bounds = [index * size + min(index, extra) for index in range(workers + 1)]
    return [tuple(ordered[bounds[index]:bounds[index + 1]]) for index in range(workers)]


class Worker:
    """One ``referee serve-matches`` process and the line protocol to it."""

    def __init__(self, process: trio.Process, slot: int = 0) -> None:
        self.process = process
        self.slot = slot
        """Which of the pool's core shares it plays on."""
        self.bot_starts = 0
        """The bot processes it has started, as it last said."""
        self._buffer = b""
        self._stderr: deque[bytes | bytearray] = deque(maxlen=64)

    @classmethod
    async def start(
        cls, nursery: trio.Nursery, arguments: Sequence[str], cores: Sequence[int] = (), slot: int = 0
    ) -> Worker:
        """Start a worker (on ``cores`` only, when given) whose stderr is drained in ``nursery``."""
        pinned = ["--cores", format_cores(cores)] if cores else []
        folder = _worker_folder()
        try:
            process = await trio.lowlevel.open_process(
                [sys.executable, "-m", "referee.cli", "serve-matches", *arguments, *pinned],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env={**os.environ, "TMPDIR": folder},
            )
        except BaseException:
            shutil.rmtree(folder, ignore_errors=True)
            raise
        worker = cls(process, slot)
        nursery.start_soon(worker._drain_stderr)
        nursery.start_soon(_remove_when_ended, process, folder)
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
    """Idle workers for matches to take (:meth:`worker`), ``most`` at a time (the others wait); a worker that fails
    is not given back. A new worker takes the first core share (of ``shares``, from :func:`core_shares`) that no live
    worker plays on."""

    def __init__(
        self, nursery: trio.Nursery, arguments: Sequence[str], shares: Sequence[Sequence[int]] = (),
        most: int | None = None,
    ) -> None:
        self._nursery = nursery
        self._turns = trio.Semaphore(most) if most is not None else None
        """Taken by each match while it has a worker, when there is a most."""
        self._arguments = list(arguments)
        self._shares = [tuple(share) for share in shares]
        self._idle: list[Worker] = []
        self._all: list[Worker] = []
        self._held: set[int] = set()
        """The slots of the live workers."""
        sweep_folders()

    @contextlib.asynccontextmanager
    async def worker(self) -> AsyncIterator[Worker]:
        """An idle worker (or a new one) for one match, once fewer than the most are in use; given back only when
        the block ends normally. An idle worker that has died meanwhile is left behind."""
        async with self._turns if self._turns is not None else contextlib.nullcontext():
            async with self._worker() as worker:
                yield worker

    @contextlib.asynccontextmanager
    async def _worker(self) -> AsyncIterator[Worker]:
        while self._idle and self._idle[-1].process.returncode is not None:
            self._held.discard(self._idle.pop().slot)
        if self._idle:
            worker = self._idle.pop()
        else:
            slot = next(slot for slot in itertools.count() if slot not in self._held)
            self._held.add(slot)
            cores = self._shares[slot % len(self._shares)] if self._shares else ()
            try:
                worker = await Worker.start(self._nursery, self._arguments, cores, slot)
            except BaseException:
                self._held.discard(slot)
                raise
            self._all.append(worker)
        try:
            yield worker
        except BaseException:
            with trio.CancelScope(shield=True):
                worker.process.kill()
                await worker.process.wait()
            self._held.discard(worker.slot)
            raise
        if worker.process.returncode is None:
            self._idle.append(worker)
        else:
            self._held.discard(worker.slot)

    async def stop(self) -> None:
        """End every worker."""
        async with trio.open_nursery() as nursery:
            for worker in self._all:
                nursery.start_soon(worker.stop)
        self._idle.clear()
        self._all.clear()
        self._held.clear()
