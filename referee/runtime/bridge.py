"""The bridge from grpcio to trio: a bot's calls at the speed of a blocking call, without blocking the trio loop.

grpcio's blocking calls are its fastest: the calling thread waits on the call's own completion queue. Its future
API, which trio could await without a thread of its own, starts a new channel thread for every call made while no
other call is in flight on the channel, which is every call a referee makes to a bot (one decision at a time).
So each bot gets one long-lived :class:`Caller` thread that makes its blocking calls one after the other, and the
trio task that asked waits for a wake-up through its trio token: two thread switches per call, no thread started.

Cancellation: a trio task cancelled while it waits stops waiting at once; the call itself ends at its gRPC
deadline (always give one) or when the caller is closed, which closes the channel and cancels every call still on
the wire.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import Any

import grpc
import trio

_Finished = Callable[[Any, BaseException | None], None]
_Job = tuple[Callable[..., Any], Any, dict[str, Any], _Finished]


class Caller:
    """Makes the blocking calls of one channel on a thread of its own, for trio tasks (:meth:`call`)."""

    def __init__(self, channel: grpc.Channel, name: str = "kafana-caller") -> None:
        self.channel = channel
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._serve, name=name, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while (job := self._jobs.get()) is not None:
            method, request, options, finished = job
            try:
                response = method(request, **options)
            except BaseException as exc:  # noqa: BLE001 - handed to the waiting task, which raises it
                finished(None, exc)
            else:
                finished(response, None)

    async def call(self, method: Callable[..., Any], request: Any, *, timeout: float, **options: Any) -> Any:
        """Call ``method(request)`` (a multi-callable of this caller's channel) with a gRPC deadline of ``timeout``
        seconds and return the response.

        Raises:
            grpc.RpcError: the call failed (its ``code()`` tells how, e.g. ``DEADLINE_EXCEEDED``).
            trio.Cancelled: the surrounding scope was cancelled (the call ends by its deadline or :meth:`close`).
        """
        token = trio.lowlevel.current_trio_token()
        done = trio.Event()
        result: list[Any] = []

        def finished(response: Any, error: BaseException | None) -> None:
            result.extend((response, error))
            try:
                token.run_sync_soon(done.set)
            except trio.RunFinishedError:  # the referee stopped waiting for good
                pass

        self._jobs.put((method, request, {"timeout": timeout, **options}, finished))
        await done.wait()
        response, error = result
        if error is not None:
            raise error
        return response

    def close(self) -> None:
        """Close the channel (cancelling any call still on the wire) and let the thread end."""
        self.channel.close()
        self._jobs.put(None)
