"""What the driver talks to: a :class:`Player` in a seat, and the in-process :class:`LocalPlayer`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

import trio

from referee.wire import ActRequest, ActResponse, BotInfo, GameOver, MatchOver

from .faults import BotError, BotProtocolError, BotTimeout


class Player(Protocol):
    """A seated bot as the driver sees it, whatever runs it."""

    seat: int
    info: BotInfo

    async def act(self, request: ActRequest, limit: float) -> ActResponse:
        """Ask for a decision; answer within ``limit`` seconds (plus transport grace) or raise a BotError."""
        ...

    async def notify(self, event: GameOver | MatchOver) -> None:
        """Tell the bot a game or match ended; never raises."""
        ...

    def output(self) -> dict[str, str]:
        """The captured output, ``{"stdout": …, "stderr": …}`` (empty strings when none)."""
        ...


Decide = Callable[[ActRequest], "int | ActResponse"]


class LocalPlayer:
    """A bot function called in the referee's own process: for tests, benchmarks and trusted analysis.

    ``decide`` gets the :class:`ActRequest` and returns an action id (or an :class:`ActResponse`). An exception
    in it is a ``protocol_error`` fault of the seat, as a remote bot's exception would be.
    """

    def __init__(self, seat: int, decide: Decide, info: BotInfo | None = None) -> None:
        self.seat = seat
        self.info = info or BotInfo(name=getattr(decide, "__name__", "local"), language="python")
        self._decide = decide
        self.events: list[GameOver | MatchOver] = []

    async def act(self, request: ActRequest, limit: float) -> ActResponse:
        """Call the function (on the trio thread: a slow function is caught only after it returns)."""
        start = trio.current_time()
        try:
            answer = self._decide(request)
        except BotError:
            raise
        except Exception as exc:  # the bot's own bug, reported as its fault
            raise BotProtocolError(self.seat, f"bot function raised {type(exc).__name__}: {exc}") from exc
        await trio.lowlevel.checkpoint()
        if trio.current_time() - start > limit:
            raise BotTimeout(self.seat, f"answered after the {limit:.3f}s limit")
        return answer if isinstance(answer, ActResponse) else ActResponse(int(answer))

    async def notify(self, event: GameOver | MatchOver) -> None:
        """Keep the event (tests read ``events``)."""
        self.events.append(event)

    def output(self) -> dict[str, str]:
        """A local bot has no captured output."""
        return {"stdout": "", "stderr": ""}
