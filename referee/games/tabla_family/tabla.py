"""Tabla ("prava", "obiknovena"): the hitting game of the Tabla family, backgammon without cube or triple game.

Rules: ../shared/rules/tabla.md §0, §1 and §2 (the opening throw of §5 starts a single game). Seat mapping: each
seat counts the points in its own direction of travel; seat s's point q is the opponent's point 25 − q; point 25
is the bar. Start: 2 on 24, 5 on 13, 3 on 8, 5 on 6.

Options: ``stuck_limit`` (default 100 rolls in a row with no checker moved → draw; with hitting it never happens
in practice, but the guard is common to the family).

Outcomes: ``normal`` 1 point, ``mars`` 2 (the loser has borne off none, whatever sits on the bar).

>>> game = Tabla()
>>> state = game.position(0, {13: 2}, {10: 1}, dice=(3, 1))
>>> [a.notation() for a in state.legal_actions()]
['13/12 12/9', '13/10* 13/12', '13/10* 10/9']
"""

from __future__ import annotations

from ._family import FamilyGame, FamilyState
from ._movegen import BAR_POINT, BOARD_BITS, POINT_BITS, SWAP_NIBBLES, Stage, mirror
from ._native import native_state

_BAR = 1 << (BAR_POINT << 2)


class Tabla(FamilyGame):
    """The Tabla game definition (immutable)."""

    id = "tabla"
    variant = "tabla"

    @staticmethod
    def theirs_to_mine(point: int) -> int:
        """Opposite directions: the opponent's point q is my 25 − q."""
        return 25 - point

    def start(self) -> dict[int, int]:
        """The backgammon start."""
        return {24: 2, 13: 5, 8: 3, 6: 5}


def _terminal(board: int) -> bool:
    return board & 15 == 15


class TablaState(FamilyState):
    """A Tabla position."""

    def _stage(self, dice: tuple[int, ...]) -> tuple[Stage, int]:
        theirs = int.from_bytes(self._boards[1 - self._turn].to_bytes(13, "little").translate(SWAP_NIBBLES), "big")
        closed = (theirs >> 1 | theirs >> 2 | theirs >> 3) & POINT_BITS  # mirror() and stacked(), inline
        singles = theirs & POINT_BITS & ~closed
        return Stage(dice, closed, 0, singles, True, _terminal, True), self._boards[self._turn]

    def _after_play(self, end: int) -> None:
        mover, other = self._turn, 1 - self._turn
        hits = end >> BOARD_BITS  # a nibble-mask of the points hit, in the mover's numbering
        if hits:
            self._boards[other] += hits.bit_count() * _BAR - mirror(hits)
        if end & 15 == 15:
            self._win(mover)


Tabla.reference_state = TablaState
Tabla.native_state = native_state(TablaState)
