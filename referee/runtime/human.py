"""A seat played by a person: the :class:`HumanSeat` the driver asks like any bot, and the messages a page shows.

The seat is a :class:`~referee.runtime.player.Player`: the driver sends it the same request as a bot (the seat's
view, the legal actions, the clock) and takes its answer within the same limit, else the seat has timed out. What
the person sees is exactly what the request carries, turned into messages (:meth:`HumanSeat.messages_after`), each a
JSON-ready dict with a rising ``version`` (all kept, so that a page that connects late, or again, misses none):

- ``{"kind": "decide", "view": …, "legal": [{"id", "notation", "steps"}…], "decision", "limit_ms", "bank_ms", …}``:
  the seat is to act (``view`` as the replay viewer draws it; ``steps``, the parts of each action a person clicks,
  from the game's registration);
- ``{"kind": "wait", "view": …}``: the seat has answered, the others are thinking (the view it answered on);
- ``{"kind": "game_over" | "match_over", "termination", "points", …}``: a game of the match, or the whole, ended;
- ``{"kind": "timeout"}``: the seat's time ran out (a fault: the game is lost);
- ``{"kind": "closed", "message"}``: the referee will ask nothing more (:meth:`HumanSeat.close`).

A page answers with :meth:`HumanSeat.answer` (the decision it answers and the action's id): a stale or unknown
answer is refused with a one-line reason, and nothing else changes.
"""

from __future__ import annotations

from typing import Any

import trio

from referee.frames import view_json
from referee.games.registry import registration_for
from referee.wire import ActRequest, ActResponse, BotInfo, GameOver, MatchOver

from .clock import Clock
from .faults import BotTimeout

HUMAN = "human"
"""The word that seats a person (``referee play tapa human BOT``), and a human seat's language in a replay."""
HUMAN_CLOCK = Clock(bank=600.0, increment=10.0, cap=300.0)
"""The clock of a game a person plays unless one is asked for: 10 minutes, 10 s more a move, 5 minutes at most
for one move."""


class HumanSeat:
    """A person's seat: the driver's :class:`~referee.runtime.player.Player`, a page's source of messages."""

    def __init__(self, seat: int, name: str = HUMAN) -> None:
        self.seat = seat
        self.info = BotInfo(name=name, language=HUMAN, author=name)
        self.names: list[str] = []
        """The names of the game's seats, shown on the page (public: every replay has them)."""
        self._message: dict[str, Any] = {"kind": "wait", "version": 0}
        self._sent: list[dict[str, Any]] = []
        """Every message so far: message ``v`` is ``_sent[v - 1]``."""
        self._changed = trio.Event()
        self._pending: int | None = None
        """The decision number the seat is asked, while it is asked."""
        self._answers: tuple[trio.MemorySendChannel[int], trio.MemoryReceiveChannel[int]] = (
            trio.open_memory_channel(1))

    @property
    def message(self) -> dict[str, Any]:
        """The latest message (every message has a higher ``version`` than the one before)."""
        return self._message

    def _publish(self, message: dict[str, Any]) -> None:
        self._message = message | {"version": self._message["version"] + 1, "seat": self.seat, "names": self.names}
        self._sent.append(self._message)
        self._changed.set()
        self._changed = trio.Event()

    async def messages_after(self, after: int) -> list[dict[str, Any]]:
        """The messages after version ``after``, in order, once there is one (at once if there already is)."""
        while self._message["version"] <= after:
            await self._changed.wait()
        return self._sent[max(0, after):]

    async def act(self, request: ActRequest, limit: float) -> ActResponse:
        """Show the decision and wait for the page's answer; past ``limit`` seconds the seat has timed out."""
        clicks = registration_for(request.view).clicks
        legal = [{"id": action.id, "notation": action.notation, "steps": clicks(action.notation)}
                 for action in request.legal_actions]
        view = view_json(request.view)
        self._pending = request.decision
        self._publish({"kind": "decide", "game": request.game, "game_number": request.game_number,
                       "decision": request.decision, "view": view, "legal": legal,
                       "limit_ms": request.clock.move_limit_ms, "bank_ms": request.clock.bank_ms})
        try:
            with trio.move_on_after(limit):
                action_id = await self._answers[1].receive()
                self._publish({"kind": "wait", "view": view, "played": legal[action_id]["notation"]})
                return ActResponse(action_id)
            self._publish({"kind": "timeout", "view": view})
            raise BotTimeout(self.seat, f"no move within the {limit:.1f}s limit")
        finally:
            self._pending = None

    def answer(self, decision: int, action_id: int) -> str | None:
        """Take the page's move: None when it is taken, else why not (one line)."""
        message = self._message
        if self._pending is None or message["kind"] != "decide":
            return "it is not this seat's move"
        if decision != self._pending:
            return f"decision {decision} is over: the seat is asked decision {self._pending}"
        if not 0 <= action_id < len(message["legal"]):
            return f"no legal action {action_id}: the ids are 0..{len(message['legal']) - 1}"
        try:
            self._answers[0].send_nowait(action_id)
        except trio.WouldBlock:
            return "this decision is already answered"
        return None

    async def notify(self, event: GameOver | MatchOver) -> None:
        """Show a game's or the match's end."""
        kind = "game_over" if isinstance(event, GameOver) else "match_over"
        seats = [{"seat": r.seat, "points": r.points, "fault": r.fault} for r in event.seats]
        termination = event.termination if isinstance(event, GameOver) else ""
        previous = self._message
        self._publish({"kind": kind, "termination": termination, "seats": seats,
                       **({"view": previous["view"]} if "view" in previous else {})})

    def close(self, message: str) -> None:
        """Say that the referee will ask nothing more, and why (the replay's path, a fault, …)."""
        previous = self._message
        self._publish({"kind": "closed", "message": message,
                       **({"view": previous["view"]} if "view" in previous else {})})

    def output(self) -> dict[str, str]:
        """A person's seat has no captured output."""
        return {"stdout": "", "stderr": ""}
