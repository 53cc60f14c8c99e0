"""The Tabla family's states run by the native core: the same games as the Python states, one call into the core
a roll or a play.

:func:`native_state` makes, from a game's Python state class (the reference), a class whose state machine is the
core's ``FamilyCore`` (``native/src/engine/game.rs``, the twin of :class:`FamilyState` and its subclasses). Everything
that only reads a position (the view, the stage of the dice, Tapa's pin markers, parsing a play) is the Python
class's own code, reading the boards, pins and rolls from the core; rolls and plays go to the core, which lists
the next stage's plays. ``tests/games/test_native_state.py`` plays seeded games through both and compares every
legal play, notation, view and outcome.
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

from .._core import CHANCE, TERMINAL, IllegalActionError, Outcome
from ..engine import NATIVE
from ._dice import OpeningThrow, Roll, draw_roll
from ._family import FamilyGame, FamilyState, Plays
from ._plays import Play
from ._views import BackgammonView, MatchScore


class NativeState(FamilyState):
    """A :class:`FamilyState` whose rolls and plays are applied by the native core (mixed into a game's state
    class by :func:`native_state`)."""

    def __init__(
        self, game: FamilyGame, starter: int | None, match: MatchScore, opening_dice_play: bool = False
    ) -> None:
        self._game = game
        self._match = match
        self._core: Any = NATIVE.FamilyCore(  # type: ignore[union-attr]
            game.id, starter, opening_dice_play, **game.core_options()
        )
        self.current_player = self._core.current_player
        self._opening = starter is None  # the opening throw is due (else a roll, when a throw is)
        self._plays: Plays | None = None
        self._snapshot: Any = None
        """The core's snapshot of the position, read once per position (a view reads it several times)."""

    def clone(self) -> NativeState:
        """An independent copy."""
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other._core = self._core.copy()
        return other

    def is_terminal(self) -> bool:
        """True once the game is over."""
        return self.current_player == TERMINAL

    def sample_chance(self, rng: random.Random) -> OpeningThrow | Roll:
        """A chance outcome drawn with the probabilities of :meth:`chance_outcomes` (rolls by one uniform draw)."""
        if self.current_player == CHANCE and not self._opening:
            return draw_roll(rng)
        return super().sample_chance(rng)

    def legal_actions(self) -> Plays | list[Play]:
        """The whole plays of the stage at hand, one per distinct end position, in end-position order."""
        if self.current_player < 0:
            return []
        plays = self._plays
        if plays is None:
            stage = self._core.legal()
            plays = self._plays = Plays(stage, stage)
        return plays

    def apply(self, action: OpeningThrow | Roll | Play) -> None:
        """Apply an opening throw, a roll or a play."""
        kind = action.__class__
        core = self._core
        if kind is Roll:
            now = core.roll(action.high, action.low)  # type: ignore[union-attr]
        elif kind is Play and self.current_player >= 0:
            plays = self._plays
            # a play listed by this stage: its end position
            if plays is not None and action._source is plays:  # type: ignore[union-attr]
                now = core.play(action.key)  # type: ignore[union-attr]
            else:  # any other is matched by its steps
                end = self.legal_actions().end_of(action.raw)  # type: ignore[union-attr]
                now = None if end is None else core.play(end)
            if now is None:
                raise IllegalActionError(f"seat {self._turn}: {action.notation()} is not legal with {self._dice}")
        elif kind is OpeningThrow:
            now = core.opening(*action.dice)  # type: ignore[union-attr]
            self._opening = core.phase == "opening"
        else:
            now = None
        if now is None:
            raise IllegalActionError(f"{action!r} cannot be applied in phase {self._phase}")
        self.current_player = now
        self._plays = None
        self._snapshot = None

    def outcome(self) -> Outcome:
        """The result; raises ValueError before the end."""
        ended = self._core.outcome()
        if ended is None:
            raise ValueError("the game is not over")
        return Outcome(*ended)

    def view(self, seat: int) -> BackgammonView:
        """The board from ``seat``'s side (``FamilyState.view``)."""
        return self.view_and_record(seat)[0]

    def view_and_record(self, seat: int) -> tuple[BackgammonView, bytes]:
        """The board from ``seat``'s side and its BackgammonView's bytes, read from the core in one call."""
        if seat not in (0, 1):
            raise ValueError(f"{self._game.id} has seats 0 and 1, not {seat}")
        match = self._match
        mine, theirs, pins, (my_bar, their_bar, my_off, their_off), dice, turn, rolls, later, remainder, record = (
            self._core.view(seat, self._game.variant, (match.points, match.target, match.game_number,
                                                       match.current_game))
        )
        view = BackgammonView(
            variant=self._game.variant,
            seat=seat,
            mine=mine,
            theirs=theirs,
            pins=pins,
            my_bar=my_bar,
            their_bar=their_bar,
            my_off=my_off,
            their_off=their_off,
            dice=dice,
            turn=turn,
            match=self._match,
            rolls=rolls,
            later_stages=later,
            remainder=remainder,
        )
        return view, record

    def _place(self, boards: list[int], pins: list[int], rolls: list[int]) -> None:
        self._core.place(tuple(boards), tuple(pins), tuple(rolls))
        self._snapshot = None

    def _ladder(self) -> tuple[tuple[int, ...], bool]:
        later, remainder = self._core.ladder()
        return tuple(later), remainder

    # The position as the Python states keep it, read from the core (for the reference class's readers).

    def _position(self) -> Any:
        """The core's snapshot: both boards, both pins, the rolls, the seat whose turn it is, the stage's dice."""
        if self._snapshot is None:
            self._snapshot = self._core.snapshot()
        return self._snapshot

    @property
    def _phase(self) -> str:  # type: ignore[override]
        return self._core.phase

    @property
    def _boards(self) -> list[int]:  # type: ignore[override]
        return list(self._position()[0])

    @property
    def _pins(self) -> list[int]:  # type: ignore[override]
        return list(self._position()[1])

    @property
    def _rolls(self) -> list[int]:  # type: ignore[override]
        return list(self._position()[2])

    @property
    def _turn(self) -> int:  # type: ignore[override]
        return self._position()[3]

    @property
    def _dice(self) -> tuple[int, ...]:  # type: ignore[override]
        return tuple(self._position()[4])

    def __repr__(self) -> str:
        boards, pins, _, turn, dice = self._position()
        return f"<{type(self).__name__} {self._phase} turn={turn} dice={tuple(dice)} boards={boards} pins={pins}>"


@cache
def native_state(reference: type[FamilyState]) -> type[FamilyState]:
    """``reference``'s game run by the native core: a class of both :class:`NativeState` and ``reference`` (its
    readers of a position are the reference's own)."""
    name = f"Native{reference.__name__}"
    namespace = {"__doc__": NativeState.__doc__, "__module__": reference.__module__, "__qualname__": name}
    return type(name, (NativeState, reference), namespace)
