"""Wrong tokens slowed down: failed sign-ins and bearer tokens counted per client address and per author over a
sliding window; past the limit the client is answered ``429 Too Many Requests`` with ``Retry-After`` until its
oldest failure leaves the window, and its token is not even hashed.

A token's first part names its author (``kf_<id>_…``), so guessing one author's secret from many addresses stops
at the author's limit; guessing many authors' from one address stops at the address's. The counts live in the
service's memory (a restart forgets them) and hold at most :data:`KEYS` keys, the least recently failed dropped
first, so that no flood of addresses makes them grow without end.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict, deque
from collections.abc import Callable

WINDOW = 600.0
"""Seconds a failure counts."""
PER_ADDRESS = 20
"""Failures one client address may make in :data:`WINDOW`."""
PER_AUTHOR = 10
"""Failures with one author's tokens in :data:`WINDOW`."""
KEYS = 10_000
"""Addresses and authors remembered at most."""


class Throttle:
    """Failures per key (``("address", host)`` or ``("author", id)``) within the last :data:`WINDOW` seconds."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._failures: OrderedDict[tuple[str, str], deque[float]] = OrderedDict()

    @staticmethod
    def keys(address: str, token: str) -> list[tuple[str, str]]:
        """The keys a check of ``token`` from ``address`` counts against (the author only when the token names
        one)."""
        author = token.split("_", 2)[1] if token.count("_") >= 2 else ""
        return [("address", address)] + ([("author", author)] if author.isdigit() else [])

    def wait(self, keys: list[tuple[str, str]]) -> int:
        """Whole seconds until every one of ``keys`` may be tried again; 0 when they may now."""
        now = self._clock()
        longest = 0.0
        for key in keys:
            if key not in self._failures:
                continue
            times = self._recent(key, now)
            limit = PER_ADDRESS if key[0] == "address" else PER_AUTHOR
            if len(times) >= limit:
                longest = max(longest, times[len(times) - limit] + WINDOW - now)
        return math.ceil(longest)

    def failed(self, keys: list[tuple[str, str]]) -> None:
        """Count a failure against each of ``keys``."""
        now = self._clock()
        for key in keys:
            self._recent(key, now).append(now)
            self._failures.move_to_end(key)
        while len(self._failures) > KEYS:
            self._failures.popitem(last=False)

    def _recent(self, key: tuple[str, str], now: float) -> deque[float]:
        times = self._failures.setdefault(key, deque())
        while times and times[0] <= now - WINDOW:
            times.popleft()
        return times
