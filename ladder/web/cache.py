"""Public answers kept for a moment: under many readers a page is made once a second, not once a request.

Every visitor of a ladder sees the same public pages (leaderboards, match lists, replays of finished units), and
a ladder that plays changes them many times a second; an answer at most :data:`SECONDS` old is as good as a new
one and costs nothing. While one request makes an answer, the others asking for it wait for that one.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Hashable

import anyio

SECONDS = 1.0
"""How long an answer is kept."""
MOST = 4096
"""Answers kept at most (past it, the expired are dropped, then the oldest)."""


class AnswerCache:
    """Answers by key (a path and its query), each kept :data:`SECONDS`."""

    def __init__(self, seconds: float = SECONDS) -> None:
        self.seconds = seconds
        self._kept: dict[Hashable, tuple[float, bytes]] = {}
        self._making: dict[Hashable, anyio.Event] = {}

    async def get(self, key: Hashable, make: Callable[[], Awaitable[bytes]]) -> bytes:
        """The kept answer for ``key``, or the one ``make`` makes now (an error is not kept: it goes to the
        request that made it, and each waiting request makes its own)."""
        kept = self._kept.get(key)
        if kept is not None and kept[0] > time.monotonic():
            return kept[1]
        making = self._making.get(key)
        if making is not None:
            await making.wait()
            kept = self._kept.get(key)
            if kept is not None:
                return kept[1]
            return await make()
        done = self._making[key] = anyio.Event()
        try:
            answer = await make()
            self._keep(key, answer)
            return answer
        finally:
            del self._making[key]
            done.set()

    def _keep(self, key: Hashable, answer: bytes) -> None:
        now = time.monotonic()
        if len(self._kept) >= MOST:
            self._kept = {k: v for k, v in self._kept.items() if v[0] > now}
            while len(self._kept) >= MOST:
                del self._kept[next(iter(self._kept))]
        self._kept[key] = (now + self.seconds, answer)
