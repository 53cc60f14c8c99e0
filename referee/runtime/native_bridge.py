"""The referee's gRPC client in the native core: the contract of :mod:`.bridge` without grpcio's threads.

``kafana_native.wire.WireClient`` makes the calls and keeps the streams on a tokio thread of the core's own (tonic, over
the same Unix socket or TCP port) and posts each outcome to a mailbox whose eventfd trio waits on. A decision then
wakes the trio thread once; nothing else takes the GIL on the way (grpcio hands each answer through its channel
thread and a reader thread, each taking the GIL in turn).

The contract is :class:`.bridge.Caller`'s and :class:`.bridge.Stream`'s: bytes both ways; a call's failure is a
``grpc.RpcError`` (:class:`CallError`) with grpcio's status codes, a timed-out call answers
``DEADLINE_EXCEEDED``; a stream's end is :class:`.bridge.StreamClosed`, a late answer is dropped by its number, an
answer ahead of its request cancels the stream. A caller makes its calls one at a time, in the order asked (as
grpcio's caller thread does); a stream takes one call at a time (a second waiter is a ``trio.BusyResourceError``).
"""

from __future__ import annotations

from typing import Any

import grpc
import trio
from kafana_native import wire

from .bridge import StreamClosed, StreamTimeout

_CODES = {status.value[0]: status for status in grpc.StatusCode}


class CallError(grpc.RpcError):
    """A call that failed, or the failure that ended a stream, as grpcio reports one: :meth:`code`, :meth:`details`.
    """

    def __init__(self, code: int, details: str) -> None:
        self._code = _CODES.get(code, grpc.StatusCode.UNKNOWN)
        self._details = details
        super().__init__(f"{self._code.name}: {details}")

    def code(self) -> grpc.StatusCode:
        """The call's status code."""
        return self._code

    def details(self) -> str:
        """The status's message (the bot's server may set it)."""
        return self._details


_Event = tuple[int, int, Any]
"""A mailbox event: ``(kind, number, detail)`` (``kafana_native.wire.ANSWER`` with the answer's bytes, ``ENDED`` with
``(code, details)``, ``LATE`` or ``UNASKED`` with None)."""


async def _events(native: Any) -> list[_Event]:
    """The events in ``native``'s mailbox, waiting until there is one."""
    while not (events := native.take()):
        await trio.lowlevel.wait_readable(native.fileno())
    return events


class NativeCaller:
    """A bot's client at ``address`` in the native core (the contract of :class:`.bridge.Caller`)."""

    def __init__(self, address: str, *, max_response: int, max_request: int, name: str = "kafana-caller") -> None:
        self._native = wire.WireClient(address, max_response, max_request)
        self._turn = trio.StrictFIFOLock()

    async def call(self, method: str, request: bytes, *, timeout: float, wait_for_ready: bool = False) -> bytes:
        """Call ``method`` (``/package.Service/Method``) with ``request`` and a gRPC deadline of ``timeout`` seconds
        (with ``wait_for_ready``, waiting that long for the bot to listen) and return the answer's bytes.

        Raises:
            CallError: the call failed (its ``code()`` tells how, e.g. ``DEADLINE_EXCEEDED``).
            trio.Cancelled: the surrounding scope was cancelled (the call ends by its deadline or :meth:`close`).
        """
        try:
            self._turn.acquire_nowait()  # the usual case, without the checkpoint of ``async with``
        except trio.WouldBlock:
            await self._turn.acquire()
        try:
            number = self._native.unary(method, request, timeout, wait_for_ready)
            while True:
                for kind, got, detail in await _events(self._native):
                    if got != number:
                        continue  # the end of a call whose caller stopped waiting
                    if kind == wire.ANSWER:
                        return detail
                    raise CallError(*detail)
        finally:
            self._turn.release()

    def stream(self, method: str) -> NativeStream:
        """Open a bidirectional stream of ``method`` on this caller's connection (after a call has connected it)."""
        return NativeStream(self._native.stream(method))

    def close(self) -> None:
        """Cancel every call still on the wire and drop the connection."""
        self._native.close()


class NativeStream:
    """One bidirectional stream in the native core (the contract of :class:`.bridge.Stream`). The core keeps the
    time of the message awaited and says when it is up, so a call needs no cancel scope of its own."""

    def __init__(self, native: Any) -> None:
        self._native = native
        self._closed: StreamClosed | None = None

    async def call(self, request: bytes, *, timeout: float) -> bytes:
        """Send ``request`` and return its answer within ``timeout`` seconds.

        Raises:
            StreamTimeout: no answer in time (a later one is dropped).
            StreamClosed: the stream ended, before or while waiting.
            trio.Cancelled: the surrounding scope was cancelled (the answer, when it comes, is dropped).
        """
        if self._closed is not None:
            raise self._closed
        number = self._native.send(request, timeout)
        answer: bytes | None = None
        late = False
        while answer is None and not late and self._closed is None:
            for kind, got, detail in await _events(self._native):
                if kind == wire.ANSWER:
                    if got == number:
                        answer = detail
                elif kind == wire.LATE:
                    late = late or got == number
                elif self._closed is None:
                    unasked = kind == wire.UNASKED
                    code, details = (0, "") if unasked else detail
                    self._closed = StreamClosed(None if unasked or code == 0 else CallError(code, details), unasked)
        if answer is not None:
            return answer
        if self._closed is not None:
            raise self._closed
        raise StreamTimeout(f"no answer within {timeout:.3f}s")

    def close(self) -> None:
        """End the stream from this side and cancel it."""
        self._native.close()
