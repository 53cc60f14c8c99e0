"""Plain dataclasses for the protocol messages, so that nothing outside :mod:`referee.wire` touches protobuf."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

PROTOCOL = "kafana.v1"


@dataclass(frozen=True)
class BotInfo:
    """What a bot says about itself in Hello."""

    name: str
    version: str = ""
    author: str = ""
    language: str = ""
    games: tuple[str, ...] = ()
    without_action_detail: bool = False
    """The bot reads only the ids and notations of the legal actions: their structured detail is left out."""
    session: bool = False
    """The bot serves the ``Session`` stream: its Act and Notify messages go over one stream."""


@dataclass(frozen=True)
class ClockInfo:
    """A seat's clock as sent with a request, in milliseconds."""

    bank_ms: int
    increment_ms: int
    move_cap_ms: int
    move_limit_ms: int


class LegalAction(NamedTuple):
    """One legal action: its id, notation and the engine's action object (for structured detail). A named tuple:
    the referee makes one per legal action at every decision."""

    id: int
    notation: str
    action: Any = None


@dataclass(frozen=True)
class ActRequest:
    """A decision asked of one seat."""

    match_id: str
    game_number: int
    game: str
    seat: int
    options: dict[str, str]
    decision: int
    view: Any
    clock: ClockInfo
    legal_actions: tuple[LegalAction, ...]


@dataclass(frozen=True)
class ActResponse:
    """A bot's answer: the chosen action id and an optional comment."""

    action_id: int
    comment: str = ""


@dataclass(frozen=True)
class SeatResult:
    """One seat's result in a game or match."""

    seat: int
    points: int
    fault: str = ""
    fault_message: str = ""


@dataclass(frozen=True)
class GameOver:
    """Notification: a game ended."""

    match_id: str
    game_number: int
    game: str
    termination: str
    seats: tuple[SeatResult, ...] = field(default_factory=tuple)


@dataclass(frozen=True)
class MatchOver:
    """Notification: a match ended."""

    match_id: str
    game: str
    seats: tuple[SeatResult, ...] = field(default_factory=tuple)
