"""The bridge from grpcio to trio: a bot's calls at the speed of a blocking call, without blocking the trio loop.

grpcio's blocking calls are its fastest: the calling thread waits on the call's own completion queue. Its future
API, which trio could await without a thread of its own, starts a new channel thread for every call made while no
other call is in flight on the channel, which is every call a referee makes to a bot (one decision at a time).
So each bot gets one long-lived :class:`Caller` thread that makes its blocking calls one after the other, and the
trio task that asked waits for a wake-up through its trio token: two thread switches per call, no thread started.

Cancellation: a trio task cancelled while it waits stops waiting at once; the call itself ends at its gRPC
deadline (always give one) or when the caller is closed, which closes the channel and cancels every call still on
the wire.

A :class:`Stream` is one bidirectional call kept open (the ``Session`` RPC): a trio task hands it a request's
bytes and waits for the one answer; grpcio sends from its own thread and a reader thread hands each answer to
trio. An answer on an open stream costs less than a call (no call set up, no new server-side dispatch).

Messages are bytes both ways (the referee serializes requests and reads answers strictly itself). This is the
reference client, used when the native core is not installed; :mod:`.native_bridge` has the same contract.
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


def _channel_options(max_response: int, max_request: int) -> list[tuple[str, Any]]:
    return [
        ("grpc.max_receive_message_length", max_response),
        ("grpc.max_send_message_length", max_request),
        ("grpc.initial_reconnect_backoff_ms", 20),
        ("grpc.min_reconnect_backoff_ms", 20),
        ("grpc.max_reconnect_backoff_ms", 100),
        ("grpc.enable_retries", 0),
        # gRPC names a Unix socket's channel by its path, percent-encoded, in HTTP/2's :authority, which some
        # servers (Rust's hyper, under tonic) refuse as malformed; any server accepts a plain host name.
        ("grpc.default_authority", "localhost"),
    ]


class Caller:
    """A bot's client at ``address`` (``unix:PATH`` or ``HOST:PORT``): makes the blocking calls of one channel on a
    thread of its own, for trio tasks (:meth:`call`), and opens its streams (:meth:`stream`). Answers longer than
    ``max_response`` bytes fail with ``RESOURCE_EXHAUSTED``."""

    def __init__(self, address: str, *, max_response: int, max_request: int, name: str = "kafana-caller") -> None:
        self.channel = grpc.insecure_channel(address, options=_channel_options(max_response, max_request))
        self._name = name
        self._methods: dict[str, grpc.UnaryUnaryMultiCallable] = {}
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

    async def call(self, method: str, request: bytes, *, timeout: float, wait_for_ready: bool = False) -> bytes:
        """Call ``method`` (``/package.Service/Method``) with ``request`` and a gRPC deadline of ``timeout`` seconds,
        (with ``wait_for_ready``, waiting that long for the bot to listen) and return the answer's bytes.

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

        if (callable_ := self._methods.get(method)) is None:
            callable_ = self._methods[method] = self.channel.unary_unary(method)
        self._jobs.put((callable_, request, {"timeout": timeout, "wait_for_ready": wait_for_ready}, finished))
        await done.wait()
        response, error = result
        if error is not None:
            raise error
        return response

    def stream(self, method: str) -> Stream:
        """Open a bidirectional stream of ``method`` on this caller's channel."""
        return Stream(self.channel.stream_stream(method), name=f"{self._name}-stream")

    def close(self) -> None:
        """Close the channel (cancelling any call still on the wire) and let the thread end."""
        self.channel.close()
        self._jobs.put(None)


class StreamClosed(Exception):
    """The stream ended: the bot closed it, it failed (``error`` is then the grpc.RpcError, else None), or the bot
    sent an answer to a request not yet made (``unasked``: the referee then cancelled the stream)."""

    def __init__(self, error: grpc.RpcError | None, unasked: bool = False) -> None:
        super().__init__(
            "the stream failed" if error is not None
            else "the bot answered a request not yet made" if unasked
            else "the bot closed the stream"
        )
        self.error = error
        self.unasked = unasked


class StreamTimeout(Exception):
    """No answer within the time given."""


_END = object()
"""What ends the requests' iterator (and so the stream, from the referee's side)."""


class Stream:
    """One bidirectional stream of ``method`` (bytes both ways) for the trio run that opens it: send one request,
    get its answer (:meth:`call`); one call at a time.

    Answers are numbered as they arrive; a call waits for the answer with its request's number, so an answer that
    comes after its caller stopped waiting (a timeout, a cancellation) is dropped and the next call gets its own.
    An answer ahead of its request (a bot sending unasked, say to flood the referee) cancels the stream at once.
    """

    def __init__(self, method: grpc.StreamStreamMultiCallable, name: str = "kafana-stream") -> None:
        self._requests: queue.SimpleQueue[object] = queue.SimpleQueue()
        self._token = trio.lowlevel.current_trio_token()
        self._sent = 0
        self._waiting: tuple[int, trio.Event, list[bytes]] | None = None
        """The number of the request a call waits for, the event that wakes it and where its answer goes."""
        self._closed: StreamClosed | None = None
        self._call = method(iter(self._requests.get, _END))
        self._thread = threading.Thread(target=self._read, name=name, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        ended = StreamClosed(None)
        number = 0
        try:
            for answer in self._call:
                number += 1
                self._hand_over(self._answered, number, answer)
        except grpc.RpcError as exc:
            ended = StreamClosed(exc)
        self._hand_over(self._ended, ended)

    def _hand_over(self, function: Callable[..., None], *args: Any) -> None:
        try:
            self._token.run_sync_soon(function, *args)
        except trio.RunFinishedError:  # the referee stopped for good
            pass

    def _answered(self, number: int, answer: bytes) -> None:  # on the trio thread
        if number > self._sent:
            if self._closed is None:
                self._ended(StreamClosed(None, unasked=True))
                self._call.cancel()
            return
        waiting = self._waiting
        if waiting is not None and waiting[0] == number:
            waiting[2].append(answer)
            waiting[1].set()

    def _ended(self, ended: StreamClosed) -> None:  # on the trio thread
        if self._closed is not None and self._closed.unasked:
            return  # the cancellation that followed
        self._closed = ended
        if self._waiting is not None:
            self._waiting[1].set()

    async def call(self, request: bytes, *, timeout: float) -> bytes:
        """Send ``request`` and return its answer within ``timeout`` seconds.

        Raises:
            StreamTimeout: no answer in time (a later one is dropped).
            StreamClosed: the stream ended, before or while waiting.
            trio.Cancelled: the surrounding scope was cancelled (the answer, when it comes, is dropped).
        """
        if self._closed is not None:
            raise self._closed
        self._sent += 1
        answer: list[bytes] = []
        self._waiting = (self._sent, trio.Event(), answer)
        self._requests.put(request)
        try:
            with trio.move_on_after(timeout):
                await self._waiting[1].wait()
        finally:
            self._waiting = None
        if answer:
            return answer[0]
        if self._closed is not None:
            raise self._closed
        raise StreamTimeout(f"no answer within {timeout:.3f}s")

    def close(self) -> None:
        """End the stream from this side and cancel it (the reader thread then ends)."""
        self._requests.put(_END)
        self._call.cancel()
