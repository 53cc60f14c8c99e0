"""Gjul Bara (Gul bara, Gyulbara, "Rosespring"): the running game with the doubles ladder.

Rules: ../shared/rules/tabla.md §0, §1 and §3 (the opening throw of §5 starts a single game); our own choices are
in docs/rules/gjul-bara.md. Seat mapping: both seats move the same way round; each counts its points 24..1 in its
direction of travel, and the opponent's point q is my q + 12 (q ≤ 12) or q − 12 (q ≥ 13). Both start with 15
checkers on their own 24, in diagonally opposite corners. No hitting: any opposing checker closes a point.

The ladder: from a seat's 4th own roll (option), a double n-n is a chain of stages, four n's, four (n+1)'s, … four
6's, each its own decision. If the roller, having played some die of the chain, cannot play one, the rest of the
chain passes to the opponent, who plays it stage by stage before rolling; if the roller cannot play any die of the
first stage, the whole chain is lost.

Options (strings):

======================== =============== ===========================================================
option                   default         alternatives
======================== =============== ===========================================================
``gjul.ladder_from_roll`` ``4``           ``3``: the ladder starts at that roll
``gjul.ladder_count``     ``per_player``  ``global``: count the rolls of both seats together
``gjul.remainder``        ``to_opponent`` ``lost``: the unplayable rest of a chain is lost
``stuck_limit``           ``100``         any positive integer: rolls in a row with no checker moved → draw
======================== =============== ===========================================================

Outcomes: ``normal`` 1 point, ``mars`` 2 (the loser has borne off none), ``stuck`` draw.

>>> game = GjulBara()
>>> state = game.position(0, {24: 15}, {12: 15}, dice=(6, 6))  # rules §8.2 #2
>>> [a.notation() for a in state.legal_actions()]
['24/18 24/18 24/18 24/18']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

from .._core import GameOption
from ._dice import Roll
from ._family import DECISION_LIMIT, STUCK_OPTION, FamilyGame, FamilyState
from ._movegen import POINTS, Stage, occupied
from ._native import native_state
from ._views import MatchScore


class GjulBara(FamilyGame):
    """The Gjul Bara game definition (immutable)."""

    id = "gjul-bara"
    variant = "gjul-bara"
    OPTIONS = (
        GameOption("gjul.ladder_from_roll", "4", ("4", "3"), "the own roll from which doubles climb the ladder"),
        GameOption("gjul.ladder_count", "per_player", ("per_player", "global"), "whose rolls count for the ladder"),
        GameOption("gjul.remainder", "to_opponent", ("to_opponent", "lost"), "what happens to an unplayable rest"),
        STUCK_OPTION,
        DECISION_LIMIT,
    )

    def __init__(self, options: Mapping[str, str] | None = None) -> None:
        super().__init__(options)
        self.ladder_from = int(self.options["gjul.ladder_from_roll"])
        self.count_global = self.options["gjul.ladder_count"] == "global"
        self.remainder_to_opponent = self.options["gjul.remainder"] == "to_opponent"

    def core_options(self) -> dict[str, int | bool]:
        """The resolved options as the native core takes them."""
        return {
            **super().core_options(),
            "ladder_from": self.ladder_from,
            "count_global": self.count_global,
            "remainder_to_opponent": self.remainder_to_opponent,
        }

    @staticmethod
    def theirs_to_mine(point: int) -> int:
        """Same direction, diagonal starts: the opponent's q is my q + 12 (q ≤ 12) or q − 12."""
        return point + 12 if point <= 12 else point - 12

    def start(self) -> dict[int, int]:
        """All 15 on the own 24."""
        return {24: 15}


_FIRST_HALF = sum(1 << (point << 2) for point in range(1, 13))
"""The nibble bits of the points 1..12."""


def _terminal(board: int) -> bool:
    return board & 15 == 15


class GjulBaraState(FamilyState):
    """A Gjul Bara position, with the ladder's chain, hand-over and remainder."""

    _game: GjulBara

    def __init__(self, game: GjulBara, starter: int | None, match: MatchScore, opening_dice_play: bool = False) -> None:
        super().__init__(game, starter, match, opening_dice_play)
        self._chain = False  # the stages queued are a ladder chain of the roller
        self._started = False  # the roller has played at least one die of the chain
        self._handover: list[tuple[int, ...]] = []
        self._remainder = False  # the seat to move plays the opponent's remainder

    def clone(self) -> GjulBaraState:
        """An independent copy."""
        other = cast(GjulBaraState, super().clone())
        other._handover = list(self._handover)
        return other

    def _stage(self, dice: tuple[int, ...]) -> tuple[Stage, int]:
        me, opp = self._boards[self._turn], self._boards[1 - self._turn]
        theirs = occupied(opp & POINTS)
        closed = (theirs & _FIRST_HALF) << 48 | theirs >> 48  # their q is my q + 12 (q ≤ 12) or q − 12
        return Stage(dice, closed, 0, 0, True, _terminal), me

    def _after_play(self, end: int) -> None:
        if end & 15 == 15:
            self._win(self._turn)

    def _roll(self, roll: Roll) -> None:
        number = sum(self._rolls) if self._game.count_global else self._rolls[self._turn]
        if roll.is_double and number >= self._game.ladder_from:
            self._stages = [(die,) * 4 for die in range(roll.high, 7)]
            self._chain = True
            self._started = False
        else:
            super()._roll(roll)
            self._chain = False

    def _stage_done(self, used: int) -> None:
        stage = self._stages.pop(0)
        if not self._chain or self._remainder:
            return  # ordinary dice, or the receiver of a remainder: unplayable dice are lost
        if used == len(stage):
            self._started = True
            return
        if not self._started and used == 0:
            self._stages = []  # an unstarted chain is lost whole
            return
        rest = ([(stage[0],) * (len(stage) - used)] if used < len(stage) else []) + self._stages
        self._stages = []
        if self._game.remainder_to_opponent:
            self._handover = rest

    def _end_turn(self) -> None:
        if self._handover:
            stages, self._handover = self._handover, []
            self._stuck = 0 if self._moved else self._stuck + 1
            self._turn = 1 - self._turn
            self._stages = stages
            self._remainder = True
            self._moved = False
            self._advance()
        elif self._remainder:
            self._remainder = False
            self._chain = False
            if self._moved:
                self._stuck = 0
            self._to_roll(self._turn)  # the receiver now rolls its own turn
        else:
            self._chain = False
            super()._end_turn()

    def _ladder(self) -> tuple[tuple[int, ...], bool]:
        return tuple(stage[0] for stage in self._stages[1:]), self._remainder


GjulBara.reference_state = GjulBaraState
GjulBara.native_state = native_state(GjulBaraState)
