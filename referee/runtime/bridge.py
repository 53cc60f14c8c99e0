"""The bridge from grpcio to trio: await a unary call without blocking the trio loop.

grpcio's future API runs the call on gRPC's own threads; a done-callback wakes the waiting trio task through
its trio token. If the trio task is cancelled, the future is cancelled, which cancels the call on the wire too.
Always pass a gRPC ``timeout`` as well as the trio scope around the await.
"""

from __future__ import annotations

from typing import Any

import grpc
import trio


async def call_unary(method: grpc.UnaryUnaryMultiCallable, request: Any, *, timeout: float, **kwargs: Any) -> Any:
    """Call ``method(request)`` with a gRPC deadline of ``timeout`` seconds and return the response.

    Raises:
        grpc.RpcError: the call failed (its ``code()`` tells how, e.g. ``DEADLINE_EXCEEDED``).
        trio.Cancelled: the surrounding scope was cancelled; the gRPC call is cancelled as well.
    """
    token = trio.lowlevel.current_trio_token()
    done = trio.Event()

    def wake(_future: grpc.Future) -> None:
        try:
            token.run_sync_soon(done.set)
        except trio.RunFinishedError:
            pass

    future = method.future(request, timeout=timeout, **kwargs)
    future.add_done_callback(wake)
    try:
        await done.wait()
    except BaseException:
        future.cancel()
        raise
    return future.result()
