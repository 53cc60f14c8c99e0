"""Plain dataclasses for the protocol messages, so that nothing outside :mod:`referee.wire` touches protobuf."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, overload

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


class _LazyActions(Sequence[LegalAction]):
    """Legal actions made one by one from a list of records only when read (:meth:`_made`); equal to any sequence
    of the same :class:`LegalAction` items, and pickled as that tuple."""

    __slots__ = ("_actions",)

    def __init__(self, actions: Sequence[Any]) -> None:
        self._actions = actions

    def _made(self, index: int) -> LegalAction:
        raise NotImplementedError

    def __len__(self) -> int:
        return len(self._actions)

    @overload
    def __getitem__(self, index: int) -> LegalAction: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[LegalAction, ...]: ...

    def __getitem__(self, index: int | slice) -> LegalAction | tuple[LegalAction, ...]:
        if isinstance(index, slice):
            return tuple(self[i] for i in range(*index.indices(len(self))))
        if index < 0:
            index += len(self._actions)
        if not 0 <= index < len(self._actions):
            raise IndexError("legal action id out of range")
        return self._made(index)

    def __iter__(self) -> Iterator[LegalAction]:
        return (self._made(i) for i in range(len(self._actions)))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and tuple(self) == tuple(other)

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({list(self)!r})"

    def __reduce__(self) -> tuple:
        return tuple, (tuple(self),)  # pickled as the tuple it equals (an engine's list may not pickle)


class LegalActions(_LazyActions):
    """A decision's legal actions, made from the engine's list of actions (ids in its order) only when read: a
    referee whose bot reads the request from its bytes never makes them.

    When the engine's list writes its own wire records (``wire_records(detail)``, as a native Tabla-family stage
    does), :func:`referee.wire.act_request_bytes` sends those.
    """

    __slots__ = ()

    def _made(self, index: int) -> LegalAction:
        action = self._actions[index]
        return LegalAction(index, action.notation(), action)

    def wire_records(self, detail: bool) -> bytes | None:
        """The actions as an ActRequest's ``legal_actions`` records, when the engine's list writes them; else None.
        """
        records = getattr(self._actions, "wire_records", None)
        return records(detail) if records is not None else None


class ReceivedActions(_LazyActions):
    """A request's legal actions as a bot reads them: each made from its received record by ``read`` when it is
    first used (a bot that picks one by its index pays for that one)."""

    __slots__ = ("_read", "_made_ones")

    def __init__(self, records: Sequence[Any], read: Callable[[Any], LegalAction]) -> None:
        super().__init__(records)
        self._read = read
        self._made_ones: dict[int, LegalAction] = {}

    def _made(self, index: int) -> LegalAction:
        if (made := self._made_ones.get(index)) is None:
            made = self._made_ones[index] = self._read(self._actions[index])
        return made


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
    legal_actions: Sequence[LegalAction]
    """A tuple, :class:`LegalActions` made from the engine's list (the referee's), or :class:`ReceivedActions`
    read from the request's records (a bot's)."""
    view_record: bytes | None = None
    """The view's wire record, when the engine made one with it (:meth:`referee.games.State.view_and_record`):
    sent instead of encoding the view's fields (the referee's side only)."""


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
