"""Matches on a Dask cluster: each match is one task that carries the bots' folders and the referee's settings to a
worker (:func:`ladder.remote.play_packed_match`), which returns the result and the replay bytes. The ladder host
alone writes the database and the replay files. A worker that dies mid-match has its task played again by another
worker (Dask reschedules it); the result is stored once, when the task finally returns. Bot checks run on the
ladder host. docs/scaling.md says how to run a cluster.
"""

from __future__ import annotations

import contextlib
import functools
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import trio

from referee.files import write_atomically

from .executor import MATCH_TIMEOUT, LocalExecutor, MatchJob, MatchResult, failed, referee_result
from .remote import PackedBot, pack_bot, play_packed_match


class DaskExecutor:
    """Runs each match as a task on the Dask scheduler at ``scheduler`` (``tcp://HOST:8786``)."""

    def __init__(
        self,
        scheduler: str,
        timeout: float = MATCH_TIMEOUT,
        sandbox: str | None = None,
        limits: dict[str, int] | None = None,
        pause_off_turn: bool | None = None,
    ) -> None:
        from distributed import Client  # an optional dependency: pip install 'kafana[dask]'

        self.client = Client(scheduler, timeout="30s")
        self.local = LocalExecutor(timeout, sandbox, limits, pause_off_turn)
        self.timeout = timeout

    @functools.lru_cache(maxsize=256)  # noqa: B019 - one executor per league run; packing is per bot version
    def _packed(self, path: str) -> PackedBot:
        return pack_bot(path)

    @contextlib.asynccontextmanager
    async def session(self, concurrency: int = 1) -> AsyncIterator[None]:
        """Nothing to share between matches here: each task unpacks its bots on a worker."""
        yield

    async def run(self, job: MatchJob) -> MatchResult:
        """Submit the match, wait for it, write its replay here (never raises for a failed match)."""
        start = time.monotonic()
        try:
            bots = [self._packed(path) for path in job.bots]
        except Exception as exc:  # noqa: BLE001 - a bot folder that cannot be packed is this match's error
            return failed("bots", f"cannot pack the bots: {exc}")
        spec = self.local.spec(job)
        key = f"match-{job.match_id}-{time.time_ns()}"  # a fresh key: a resumed league plays the match afresh
        future = self.client.submit(play_packed_match, spec, bots, self.timeout, key=key)
        try:
            answer: dict[str, Any] = await trio.to_thread.run_sync(future.result, abandon_on_cancel=True)
        except Exception as exc:  # noqa: BLE001 - the cluster gave up on the task (e.g. its workers kept dying)
            return failed("cluster", f"the cluster could not play the match: {exc!r}")
        if "error" in answer:
            return failed(answer["error"]["kind"], answer["error"]["detail"])
        if answer["replay"] is not None:
            Path(job.replay).parent.mkdir(parents=True, exist_ok=True)
            write_atomically(Path(job.replay), answer["replay"])
        return referee_result(answer["returncode"], answer["stdout"], answer["stderr"], time.monotonic() - start)

    async def check(self, bot: str, startup_timeout: float) -> dict:
        """Check a bot on the ladder host, as the local executor does."""
        return await self.local.check(bot, startup_timeout)

    def close(self) -> None:
        """Disconnect from the scheduler."""
        self.client.close()
