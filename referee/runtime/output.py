"""Capture of a bot's stdout and stderr: the head is kept up to a cap, the rest is counted."""

from __future__ import annotations

from collections.abc import Callable

import trio

from .printable import printable

KEEP_BYTES = 64 * 1024
"""Bytes of each stream kept for the replay."""

LIMIT_BYTES = 16 * 1024 * 1024
"""Total bytes a bot may write to one stream in a game before it is stopped (``resource_limit``)."""


class OutputCapture:
    """Reads one stream to its end, keeping the first ``keep`` bytes and counting all of them."""

    def __init__(self, keep: int = KEEP_BYTES, limit: int = LIMIT_BYTES, on_limit: Callable[[], None] | None = None):
        self.keep = keep
        self.limit = limit
        self.total = 0
        self.exceeded = False
        self._head = bytearray()
        self._on_limit = on_limit

    def reset(self) -> None:
        """Keep and count from here on (a new game)."""
        self.total = 0
        self.exceeded = False
        self._head = bytearray()

    async def drain(self, stream: trio.abc.ReceiveStream) -> None:
        """Read ``stream`` until EOF (or cancellation)."""
        while True:
            try:
                chunk = await stream.receive_some(65536)
            except (trio.ClosedResourceError, trio.BrokenResourceError):
                return
            if not chunk:
                return
            self.total += len(chunk)
            if len(self._head) < self.keep:
                self._head += chunk[: self.keep - len(self._head)]
            if self.total > self.limit and not self.exceeded:
                self.exceeded = True
                if self._on_limit is not None:
                    self._on_limit()

    def text(self) -> str:
        """The kept head as text (control characters escaped), with a note of what was dropped."""
        text = printable(self._head.decode("utf-8", errors="replace"), lines=True)
        if self.total > len(self._head):
            text += f"\n[... {self.total - len(self._head)} more bytes not kept]"
        return text
