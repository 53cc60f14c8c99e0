"""The referee's gRPC client, compiled (``native/src/wire.rs``): tonic on a tokio thread of its own, each result
handed to Python through an eventfd that trio waits on (``referee.runtime.native_bridge``).

:class:`WireClient` makes unary calls and opens :class:`WireStream` streams to one bot; both post events that
``take()`` drains as ``(kind, number, detail)``, the kind one of :data:`ANSWER` (detail: the answer's bytes),
:data:`ENDED` (the call or stream ended: ``(code, details)``), :data:`UNASKED` (the bot answered unasked) and
:data:`LATE` (no answer in time).
"""

from kafana_native._core import wire as _part

WireClient = _part.WireClient
WireStream = _part.WireStream
ANSWER: int = _part.ANSWER
ENDED: int = _part.ENDED
UNASKED: int = _part.UNASKED
LATE: int = _part.LATE

__all__ = ["ANSWER", "ENDED", "LATE", "UNASKED", "WireClient", "WireStream"]
