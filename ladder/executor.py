"""Where matches run. Scheduling talks only to an :class:`Executor`; :class:`LocalExecutor` runs matches in
referee processes of this machine, so a crashing match cannot take the ladder down: within a :meth:`session`, in
long-lived match workers that keep their bots between matches (:mod:`ladder.workers`), else each in its own
``referee run-match`` process."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol

import trio

from referee.matchspec import MatchSpec
from referee.runtime.affinity import usable_cores
from referee.runtime.clock import DEFAULT_CLOCK, Clock
from referee.runtime.hello import Entrant
from referee.runtime.sandbox import SANDBOX_ENV

from .workers import WorkerPool, at_once, core_shares

log = logging.getLogger(__name__)

MATCH_TIMEOUT = 3600.0
"""Seconds a whole match may take before the executor gives up on it (an :class:`ExecutorError`)."""
PAUSED_FROM = 3
"""Tables of this many seats and more pause their bots off turn unless told otherwise (docs/security.md: the CPU
two bots at one table share is a channel between them; the pause closes it)."""


@dataclass(frozen=True)
class MatchJob:
    """One match to play: everything a referee needs."""

    match_id: str
    game: str
    options: dict[str, str]
    bots: tuple[str, ...]
    seed: str
    """The unit's secret chance seed: the referee keeps it out of the replay until the match is over."""
    replay: str
    clock: Clock = DEFAULT_CLOCK
    unit: str = ""
    """The duplicate unit the match belongs to: no bot process plays two matches of one unit."""
    open_units: tuple[str, ...] = ()
    """The other units being played when the match was handed out: no bot process that played one of them plays
    this match."""
    entrants: tuple[Entrant, ...] = ()
    """Who each seat's bot was registered as: its Hello must say the same (empty: not checked)."""


FailureKind = Literal["timeout", "referee", "worker", "bots", "cluster"]
"""Why an executor could not play a match: it ran past its time, the referee process failed or said nothing
readable, the match worker ended or refused it, the bots could not be packed, unpacked or started where it ran,
or the cluster gave up on it."""


@dataclass(frozen=True)
class ExecutorError:
    """A match the executor could not play, which is no bot's fault (a bot's fault is part of a result)."""

    kind: FailureKind
    detail: str
    """What was said, in words (its first line first)."""

    def __str__(self) -> str:
        """As a match's stored error: ``executor_error (KIND): DETAIL``."""
        return f"executor_error ({self.kind}): {self.detail}"


@dataclass(frozen=True)
class MatchResult:
    """What came back from a match: the referee's result, or an executor error (then nothing else is set)."""

    termination: str = ""
    points: tuple[int, ...] = ()
    games: tuple[dict, ...] = ()
    faults: tuple[dict, ...] = ()
    decisions: int = 0
    bots: tuple[str, ...] = ()
    seconds: float = 0.0
    error: ExecutorError | None = None

    @classmethod
    def from_json(cls, data: object, seconds: float) -> MatchResult:
        """The result ``referee run-match`` printed (parsed JSON), read strictly.

        Raises:
            ValueError: not an object, a key missing or unknown, or a value of the wrong type (the message names
                it).
        """
        if not isinstance(data, dict):
            raise ValueError(f"a result is a JSON object, not {type(data).__name__}")
        if (unknown := sorted(set(data) - set(_RESULT_KEYS))):
            raise ValueError(f"unknown key {unknown[0]!r} in the result")
        if (missing := [key for key in _RESULT_KEYS if key not in data]):
            raise ValueError(f"the result has no {missing[0]!r}")
        for key, (kind, items) in _RESULT_KEYS.items():
            value = data[key]
            if not _typed(value, kind) or (items is not None and not all(_typed(item, items) for item in value)):
                raise ValueError(f"the result's {key!r} is {value!r}"[:200])
        return cls(termination=data["termination"], points=tuple(data["points"]), games=tuple(data["games"]),
                   faults=tuple(data["faults"]), decisions=data["decisions"], bots=tuple(data["bots"]),
                   seconds=seconds)


def _typed(value: Any, kind: type) -> bool:
    """Whether ``value`` is a ``kind`` (a boolean is no number here)."""
    return isinstance(value, kind) and not isinstance(value, bool)


_RESULT_KEYS: dict[str, tuple[type, type | None]] = {
    "match_id": (str, None),
    "game": (str, None),
    "seed": (str, None),
    "bots": (list, str),
    "termination": (str, None),
    "points": (list, int),
    "games": (list, dict),
    "faults": (list, dict),
    "decisions": (int, None),
    "replay": (str, None),
}
"""What a result printed by the referee holds: each key's type, and its items' type for a list."""


def failed(kind: FailureKind, detail: str) -> MatchResult:
    """The result of a match the executor could not play."""
    return MatchResult(error=ExecutorError(kind, detail))


class Executor(Protocol):
    """Runs matches and bot checks; scheduling never knows where."""

    async def run(self, job: MatchJob) -> MatchResult:
        """Play ``job`` and return its result (never raises for a failed match)."""
        ...

    async def check(self, bot: str, startup_timeout: float) -> dict:
        """Run ``referee check-bot`` on ``bot``: ``{"info": {...} | None, "passed": bool, "checks": [...]}``."""
        ...

    def session(self, concurrency: int = 1) -> contextlib.AbstractAsyncContextManager[None]:
        """A block in which matches may share long-lived resources (workers, kept bots), ended with it;
        ``concurrency`` is how many matches it plays at once."""
        ...


class LocalExecutor:
    """Runs each match in a ``referee run-match`` subprocess of this machine's Python."""

    def __init__(
        self,
        timeout: float = MATCH_TIMEOUT,
        sandbox: str | None = None,
        limits: dict[str, int] | None = None,
        pause_off_turn: bool | None = None,
    ) -> None:
        self.timeout = timeout
        self.sandbox = sandbox or os.environ.get(SANDBOX_ENV, "on")
        """The referee's ``--sandbox`` mode for every bot it runs (default ``$KAFANA_SANDBOX``, else on: submitted
        bots are untrusted)."""
        self.limits = dict(limits or {})
        """The sandbox limits that differ from the referee's defaults, e.g. ``{"cpu_seconds": 60}``."""
        self.pause_off_turn = pause_off_turn
        """Stop each bot while it is not its move: always, never, or (None) at tables of more than two seats, where
        a bot's copies or its author's other bots could otherwise signal each other through the CPU they share
        (docs/security.md)."""
        self._workers: WorkerPool | None = None
        self.bot_starts = 0
        """Bot processes started by the workers of this executor's sessions (reuse keeps it low)."""

    @contextlib.asynccontextmanager
    async def session(self, concurrency: int = 1) -> AsyncIterator[None]:
        """Within the block, matches are played by long-lived workers (one match at a time each), which keep their
        bots between matches and share the cores out: as many matches at once as the ``concurrency``, but never more
        than the usable cores (two matches on one core cost each more CPU than their overlap saves: at concurrency 4
        on two cores a league played 0.54 of the matches of concurrency 2, docs/performance.md); the others wait
        their turn. The workers all end with the block."""
        arguments = ["--sandbox", self.sandbox, "--limits", json.dumps(self.limits)]  # each spec says its pause
        cores = usable_cores()
        playing = at_once(concurrency, cores)
        async with trio.open_nursery() as nursery:
            self._workers = WorkerPool(nursery, arguments, core_shares(playing, cores), most=playing)
            try:
                yield
            finally:
                workers, self._workers = self._workers, None
                await workers.stop()
                nursery.cancel_scope.cancel()

    async def _referee(self, *args: str) -> subprocess.CompletedProcess:
        command = [sys.executable, "-m", "referee.cli", *args]
        with trio.fail_after(self.timeout):
            return await trio.run_process(command, capture_stdout=True, capture_stderr=True, check=False)

    def spec(self, job: MatchJob) -> dict:
        """The ``referee run-match`` spec of ``job`` with this executor's sandbox settings (as JSON)."""
        return MatchSpec(
            match_id=job.match_id,
            game=job.game,
            options=dict(job.options),
            bots=tuple(job.bots),
            seed=job.seed,
            seed_secret=True,
            clock=job.clock,
            replay=job.replay,
            sandbox=self.sandbox,
            limits=dict(self.limits),
            pause_off_turn=self.pauses(len(job.bots)),
            unit=job.unit,
            open_units=tuple(job.open_units),
            entrants=tuple(entrant.to_json() for entrant in job.entrants) if job.entrants else None,
        ).to_json()

    def pauses(self, seats: int) -> bool:
        """Whether bots are stopped off turn at a table of ``seats``."""
        return self.pause_off_turn if self.pause_off_turn is not None else seats >= PAUSED_FROM

    async def run(self, job: MatchJob) -> MatchResult:
        """Play the match in a worker (within a session), or in a ``referee run-match`` process of its own."""
        if self._workers is not None:
            return await self._in_worker(self._workers, job)
        start = time.monotonic()
        with tempfile.TemporaryDirectory(prefix="kafana-job-") as folder:
            spec = Path(folder) / "spec.json"
            spec.write_text(json.dumps(self.spec(job)))
            try:
                done = await self._referee("run-match", str(spec))
            except trio.TooSlowError:
                return failed("timeout", f"the match took more than {self.timeout:g}s")
        return referee_result(done.returncode, done.stdout.decode(errors="replace"),
                              done.stderr.decode(errors="replace"), time.monotonic() - start)

    async def _in_worker(self, workers: WorkerPool, job: MatchJob) -> MatchResult:
        start = time.monotonic()
        async with workers.worker() as worker:
            try:
                with trio.fail_after(self.timeout):
                    line = await worker.play(self.spec(job))
            except trio.TooSlowError:
                worker.process.kill()
                return failed("timeout", f"the match took more than {self.timeout:g}s")
            except (EOFError, trio.BrokenResourceError) as exc:
                return failed("worker", f"{exc}\n{worker.stderr()}")
        answer = json.loads(line)
        started = answer.pop("bot_starts", worker.bot_starts)  # the worker's count so far
        self.bot_starts += started - worker.bot_starts
        worker.bot_starts = started
        if "error" in answer:
            return failed("worker", str(answer["error"]))
        return referee_result(0, json.dumps(answer), "", time.monotonic() - start)

    async def check(self, bot: str, startup_timeout: float) -> dict:
        """Run ``referee check-bot --json``."""
        done = await self._referee(
            "check-bot", "--json", "--startup-timeout", str(startup_timeout), "--sandbox", self.sandbox, bot
        )
        lines = done.stdout.decode(errors="replace").strip().splitlines()
        try:
            return json.loads(lines[-1])
        except (IndexError, json.JSONDecodeError):
            message = done.stderr.decode(errors="replace").strip()[-800:] or f"exit code {done.returncode}"
            return {"info": None, "passed": False, "checks": [{"name": "check-bot", "ok": False, "detail": message}]}


def referee_result(returncode: int, stdout: str, stderr: str, seconds: float) -> MatchResult:
    """The result of a ``referee run-match`` run from its exit code and output (an executor error when it failed
    or printed nothing readable: its first line says why, the end of the referee's stderr follows)."""
    lines = stdout.strip().splitlines()
    if returncode != 0 or not lines:
        said = stderr.strip().splitlines()
        last = said[-1] if said else "(nothing on stderr)"  # click's "Error: …", or a traceback's last line
        tail = stderr.strip()[-1500:]
        return failed("referee", f"referee exited with {returncode}: {last}\n{tail}")
    try:
        return MatchResult.from_json(json.loads(lines[-1]), seconds)
    except json.JSONDecodeError:
        return failed("referee", f"unreadable referee output {lines[-1][:200]!r}")
    except ValueError as exc:
        return failed("referee", f"a result the ladder cannot read: {exc}")
