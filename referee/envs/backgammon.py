"""The Tabla family's encoding for training (``tabla``, ``gjul-bara``, ``tapa`` and ``tabla-match``).

Observation (float32, :data:`SIZE` numbers, from the seat's :class:`~referee.games.BackgammonView`):

====  =====================================================================================================
0     the position's 244 features (:mod:`referee.games.tabla_family.features`: the seat first, then the
      opponent, each in its own numbering; per point TD-Gammon's four units, the bar, the borne-off; then each
      side's pinned checkers)
244   the dice of the decision: how many of each face, 1..6, divided by 4
250   Gjul Bara's ladder: how many stages of each face are still to come, divided by 6; then 1 while the seat
      plays the rest of its opponent's ladder
257   the game being played: tabla, gjul-bara, tapa (one of three)
260   the match: the seat's points and the opponent's, each divided by the target (0 outside a match)
====  =====================================================================================================

Tokens: a play is spelled as its steps, one token per checker moved: ``src/die`` (150 tokens: from point 1..24 or
the bar, 25, with die 1..6), in the order the referee lists the play's steps; ``no move`` is the one play of a
stage that moves nothing. Every order of a play's steps leads to the same position, and the mask offers the order
the referee lists; the steps' destinations and hits follow from the position.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from referee.games import PIN_MINE, PIN_THEIRS, BackgammonView, Play
from referee.games.tabla_family._movegen import pack
from referee.games.tabla_family.features import FEATURES, encode

from ._encoding import floats, one_hot

VARIANTS = ("tabla", "gjul-bara", "tapa")
SIZE = FEATURES + 6 + 7 + len(VARIANTS) + 2
"""Numbers in an observation."""
NO_MOVE = 150
"""The token of the empty play."""
VOCABULARY = tuple(f"{'bar' if src == 25 else src}/{die}" for src in range(1, 26) for die in range(1, 7)) + (
    "no move",
)


def boards(view: BackgammonView) -> tuple[tuple[int, int], tuple[int, int]]:
    """The seat's and the opponent's packed boards, each in its own numbering, and their pin masks."""
    mine = {point: n for point, n in enumerate(view.mine, 1) if n}
    theirs = {25 - point: n for point, n in enumerate(view.theirs, 1) if n}
    mine.update({25: view.my_bar, 0: view.my_off})
    theirs.update({25: view.their_bar, 0: view.their_off})
    my_pins = sum(1 << (point << 2) for point, pin in enumerate(view.pins, 1) if pin == PIN_MINE)
    their_pins = sum(1 << ((25 - point) << 2) for point, pin in enumerate(view.pins, 1) if pin == PIN_THEIRS)
    return (pack(mine), pack(theirs)), (my_pins, their_pins)


class BackgammonEncoding:
    """The encoding of one game of the family (see the module's table)."""

    observation_size = SIZE
    vocabulary = VOCABULARY

    def observe(self, view: BackgammonView) -> np.ndarray:
        """The observation of ``view`` (the module's table)."""
        position, pins = boards(view)
        dice = np.bincount(np.asarray(view.dice, dtype=np.int64), minlength=7)[1:7] / 4
        later = np.bincount(np.asarray(view.later_stages, dtype=np.int64), minlength=7)[1:7] / 6
        match = view.match
        points = list(match.points) if len(match.points) == 2 else [0, 0]
        target = max(match.target, 1) if view.match.current_game else 0
        score = [points[view.seat] / target, points[1 - view.seat] / target] if target else [0.0, 0.0]
        return np.concatenate(
            [
                np.asarray(encode(position, pins), dtype=np.float32),
                dice.astype(np.float32),
                later.astype(np.float32),
                floats(view.remainder),
                one_hot(len(VARIANTS), VARIANTS.index(view.variant)),
                floats(*score),
            ]
        )

    def tokens(self, action: Play) -> tuple[int, ...]:
        """A play's steps as tokens (``no move`` for the empty play)."""
        raw: Any = action.raw
        return tuple((src - 1) * 6 + die - 1 for src, _, die, _ in raw) if raw else (NO_MOVE,)
