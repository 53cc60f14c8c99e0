"""Which client the referee speaks to bots with: the native core's (:mod:`.native_bridge`) or grpcio's
(:mod:`.bridge`, the reference). The default, :data:`CALLER`, is chosen here once, from
``KAFANA_WIRE=native|grpcio`` (native when the native core is installed); a command settles the choice before it
works (:func:`referee.choices.settle`), which refuses a mistyped value in one line. Whoever seats bots may pass
another (``client=`` of :func:`.runner.run_game`, :class:`.seating.SeatOptions`, :class:`.process.ProcessPlayer`):
both keep the same contract, and the bridge and fault tests run on both by passing each.
"""

from __future__ import annotations

import os
from typing import Protocol

from .bridge import Caller


class BotStream(Protocol):
    """One ``Session`` stream to a bot (:class:`.bridge.Stream`, :class:`.native_bridge.NativeStream`)."""

    async def call(self, request: bytes, *, timeout: float) -> bytes:
        """Send ``request`` and return its answer within ``timeout`` seconds."""
        ...

    def close(self) -> None:
        """End the stream."""
        ...


class BotClient(Protocol):
    """A bot's client (:class:`.bridge.Caller`, :class:`.native_bridge.NativeCaller`)."""

    async def call(self, method: str, request: bytes, *, timeout: float, wait_for_ready: bool = False) -> bytes:
        """Call ``method`` with ``request`` and return the answer's bytes."""
        ...

    def stream(self, method: str) -> BotStream:
        """Open a bidirectional stream of ``method``."""
        ...

    def close(self) -> None:
        """Cancel the calls on the wire and drop the connection."""
        ...


class ClientKind(Protocol):
    """What opens a bot's client: :class:`.bridge.Caller` or :class:`.native_bridge.NativeCaller`."""

    def __call__(self, address: str, *, max_response: int, max_request: int, name: str) -> BotClient:
        """A client of the bot at ``address`` (``unix:PATH`` or ``HOST:PORT``)."""
        ...


class WireChoiceError(RuntimeError):
    """``KAFANA_WIRE`` names a client that is not there."""


def _native_caller() -> ClientKind | None:
    try:
        from .native_bridge import NativeCaller
    except ImportError:
        return None
    return NativeCaller


def choose(wanted: str | None) -> tuple[str, ClientKind]:
    """The client for ``wanted`` (the variable's value, None when unset): its name and its caller class.

    Raises:
        WireChoiceError: an unknown value, or ``native`` without the native core.
    """
    if wanted not in (None, "", "native", "grpcio"):
        raise WireChoiceError(f"KAFANA_WIRE={wanted!r}: use native or grpcio")
    native = _native_caller() if wanted != "grpcio" else None
    if wanted == "native" and native is None:
        raise WireChoiceError("KAFANA_WIRE=native, but the native core is not installed (pip install ./native)")
    return ("native", native) if native is not None else ("grpcio", Caller)


def _chosen() -> tuple[str, ClientKind, str | None]:
    """The client the environment asks for, its caller class, and what is wrong with the variable (then grpcio's
    client, which every machine has)."""
    try:
        return (*choose(os.environ.get("KAFANA_WIRE")), None)
    except WireChoiceError as exc:
        return "grpcio", Caller, str(exc)


WIRE, CALLER, PROBLEM = _chosen()
"""The default client's name, its kind (``Caller`` or ``NativeCaller``), and what is wrong with ``KAFANA_WIRE``."""
