"""Tapa (Plakoto, Mahbusa): the pinning game of the Tabla family.

Rules: ../shared/rules/tabla.md §0, §1 and §4 (the opening throw of §5 starts a single game); our own choices are
in docs/rules/tapa.md. Seat mapping: each seat counts the points in its own direction of travel; seat s's point q
is the opponent's point 25 − q. Both start with 15 checkers on their own 24.

Options (strings):

============================== =========== ==========================================================
option                         default     alternatives
============================== =========== ==========================================================
``tapa.pinned_home_blocks_all`` ``false``   ``true``: no bearing off at all while a checker is pinned
``tapa.both_mothers``           ``draw_0_0`` ``draw_1_1``: both mothers pinned scores 1 point each
``stuck_limit``                 ``100``     any positive integer: rolls in a row with no checker moved → draw
============================== =========== ==========================================================

Outcomes: ``normal`` 1 point, ``mars`` 2 (the loser has borne off none), ``mother`` 2, ``both_mothers`` and
``stuck`` draws.

>>> game = Tapa()
>>> state = game.new_state()
>>> state.apply(OpeningThrow((5, 2)))
>>> state.apply(Roll(6, 3))
>>> [a.notation() for a in state.legal_actions()]
['24/18 24/21', '24/18 18/15']
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from .._core import GameOption, Outcome
from ._dice import OpeningThrow, Roll  # noqa: F401 (used by the doctest)
from ._family import DECISION_LIMIT, STUCK_OPTION, FamilyGame, FamilyState, FamilyTermination
from ._movegen import POINTS, Stage, count, mirror, occupied, stacked
from ._native import native_state
from ._views import PIN_MINE, PIN_NONE, PIN_THEIRS


class Tapa(FamilyGame):
    """The Tapa game definition (immutable)."""

    id = "tapa"
    variant = "tapa"
    OPTIONS = (
        GameOption("tapa.pinned_home_blocks_all", "false", ("false", "true"), "no bear-off while any own checker is pinned"),
        GameOption("tapa.both_mothers", "draw_0_0", ("draw_0_0", "draw_1_1"), "score when both mothers are pinned"),
        STUCK_OPTION,
        DECISION_LIMIT,
    )

    def __init__(self, options: Mapping[str, str] | None = None) -> None:
        super().__init__(options)
        self.blocks_all = self.options["tapa.pinned_home_blocks_all"] == "true"
        self.both_mothers_points = 1 if self.options["tapa.both_mothers"] == "draw_1_1" else 0

    def core_options(self) -> dict[str, int | bool]:
        """The resolved options as the native core takes them."""
        options = super().core_options()
        return {**options, "blocks_all": self.blocks_all, "both_mothers_points": self.both_mothers_points}

    @staticmethod
    def theirs_to_mine(point: int) -> int:
        """Opposite directions: the opponent's point q is my 25 − q."""
        return 25 - point

    def start(self) -> dict[int, int]:
        """All 15 on the own 24."""
        return {24: 15}


def _all_off(board: int) -> bool:
    return board & 15 == 15


@lru_cache(maxsize=None)
def _reaching_point_1(dice: tuple[int, ...]) -> int:
    """The nibbles of point 1 and of the points from which a checker could reach it with some of ``dice`` (closed
    points aside): the opponent's mother is pinned during this stage only by a checker starting there."""
    if len(dice) == 2 and dice[0] != dice[1]:
        distances = {0, dice[0], dice[1], dice[0] + dice[1]}
    else:
        distances = {dice[0] * k for k in range(len(dice) + 1)}
    return sum(15 << ((1 + distance) << 2) for distance in distances if distance < 24)


class TapaState(FamilyState):
    """A Tapa position; ``_pins[s]`` is a nibble-mask: bit 4p is set when seat s's checker on its point p is
    pinned."""

    _game: Tapa

    def _stage(self, dice: tuple[int, ...]) -> tuple[Stage, int]:
        mover = self._turn
        me, opp = self._boards[mover], self._boards[1 - mover]
        my_pins, their_pins = self._pins[mover], self._pins[1 - mover]
        theirs = mirror(opp) & POINTS
        stacks = stacked(theirs)
        singles = occupied(theirs) & ~stacks & ~mirror(their_pins)
        can_bear_off = not (self._game.blocks_all and my_pins)
        my_mother_pinned = bool((my_pins >> 96) & 1)
        if (
            count(opp, 24) != 1  # the mother is pinned only as the last opposing checker left on its start
            or not me & _reaching_point_1(dice)  # no checker of the mover is on it or can reach it
            or (count(me, 24) > len(dice) and not my_mother_pinned)  # pinning it would not end the game
        ):
            # Only the 15th checker off can end the game this stage: the fast, order-free generators apply.
            return Stage(dice, my_pins | stacks, my_pins, singles, can_bear_off, _all_off), me

        def terminal(board: int) -> bool:
            if board & 15 == 15:
                return True
            if (board >> 4) & 15:  # the mother is pinned: won, or both mothers are
                return not (board >> 96) & 15 or my_mother_pinned
            return False

        return Stage(dice, my_pins | stacks, my_pins, singles, can_bear_off, terminal, rule=int(my_mother_pinned)), me

    def _after_play(self, end: int) -> None:
        mover, other = self._turn, 1 - self._turn
        opp = self._boards[other]
        my_pins = self._pins[mover]
        # Their lone checkers under one of mine that is not itself pinned (nibble masks in their numbering).
        mine = mirror(occupied(end & POINTS) & ~my_pins)
        self._pins[other] = occupied(opp & POINTS) & ~stacked(opp) & mine
        if end & 15 == 15:
            self._win(mover)
        elif count(opp, 24) and count(end, 1):
            if not count(end, 24):
                self._win(mover, FamilyTermination.MOTHER)
            elif (my_pins >> 96) & 1:
                draw = self._game.both_mothers_points
                self._finish(Outcome(FamilyTermination.BOTH_MOTHERS, (draw, draw)))

    def _pin_markers(self, seat: int) -> tuple[int, ...]:
        mine, theirs = self._pins[seat], self._pins[1 - seat]
        return tuple(
            PIN_MINE if (mine >> (p << 2)) & 1 else PIN_THEIRS if (theirs >> ((25 - p) << 2)) & 1 else PIN_NONE
            for p in range(1, 25)
        )


Tapa.reference_state = TapaState
Tapa.native_state = native_state(TapaState)
