"""Bot faults: every way a bot can lose a game other than by playing it out.

Each :class:`BotError` subclass names one fault kind; the kind is what results and replays record.
"""

from __future__ import annotations

from dataclasses import dataclass

FAULT_KINDS = ("crash", "timeout", "illegal_action", "protocol_error", "no_hello", "resource_limit")


@dataclass(frozen=True)
class Fault:
    """A recorded fault: which seat, which kind, and a readable message."""

    seat: int
    kind: str
    message: str

    def to_json(self) -> dict:
        """A JSON-ready dict."""
        return {"seat": self.seat, "kind": self.kind, "message": self.message}


class BotError(RuntimeError):
    """A bot broke the protocol or the rules of play. ``kind`` is the fault name."""

    kind = "protocol_error"

    def __init__(self, seat: int, message: str) -> None:
        super().__init__(f"seat {seat}: {message}")
        self.seat = seat
        self.message = message

    def fault(self) -> Fault:
        """The fault to record."""
        return Fault(self.seat, self.kind, self.message)


class BotCrashed(BotError):
    """The bot process exited."""

    kind = "crash"


class BotTimeout(BotError):
    """The bot answered later than its clock allowed."""

    kind = "timeout"


class BotIllegalAction(BotError):
    """The bot answered an id that is not in the list of legal actions."""

    kind = "illegal_action"


class BotProtocolError(BotError):
    """The bot's answer could not be read, or the connection failed while the process lived."""

    kind = "protocol_error"


class BotNoHello(BotError):
    """The bot did not answer Hello in time (or refused the game)."""

    kind = "no_hello"


class BotResourceLimit(BotError):
    """The bot exceeded a resource limit (``limit`` names which, e.g. ``output``)."""

    kind = "resource_limit"

    def __init__(self, seat: int, limit: str, message: str) -> None:
        super().__init__(seat, f"{limit} limit: {message}")
        self.limit = limit
