"""Gaps' encoding for training (every variant, one seat).

The grid is read row by row into :data:`PLACES` places (8 rows of 14 columns, the largest grid; a smaller grid
leaves the rest empty). Observation (float32, :data:`SIZE` numbers, from the :class:`~referee.games.GapsView`):

====  =====================================================================================================
0     per place: 1 when the grid has it, 1 when it is a gap, the card's suit (4), its rank 2..A as 1..13
      divided by 13 (7 × 112)
784   per row: the cards in place (its run from the first column) divided by the row's length (8)
792   the round (the deal being played) and the rounds, each divided by 4; the moves made in the round divided
      by its cap; the cards in place divided by the grid's cards
====  =====================================================================================================

Tokens: a move is spelled as its card (52), the place it comes from and the gap it goes into (112 each); ending
the round is ``end_round``.
"""

from __future__ import annotations

import numpy as np

from referee.games import GAP, GapsMove, GapsView
from referee.games.cards._cards import card_text

from ._encoding import floats

ROWS, COLUMNS = 8, 14
PLACES = ROWS * COLUMNS
SIZE = 7 * PLACES + ROWS + 4
VOCABULARY = (
    tuple(card_text(card) for card in range(52))
    + tuple(f"from {place // COLUMNS},{place % COLUMNS}" for place in range(PLACES))
    + tuple(f"to {place // COLUMNS},{place % COLUMNS}" for place in range(PLACES))
    + ("end_round",)
)
_FROM, _TO, _END = 52, 52 + PLACES, 52 + 2 * PLACES


def _place(place: int, columns: int) -> int:
    """A place of a grid of ``columns`` columns as a place of the largest grid."""
    return place // columns * COLUMNS + place % columns


class GapsEncoding:
    """The encoding of one Gaps game (see the module's table)."""

    observation_size = SIZE
    vocabulary = VOCABULARY

    def observe(self, view: GapsView) -> np.ndarray:
        """The observation of ``view`` (the module's table)."""
        places = np.zeros((PLACES, 7), dtype=np.float32)
        for place, card in enumerate(view.grid):
            row = places[_place(place, view.columns)]
            row[0] = 1.0
            if card == GAP:
                row[1] = 1.0
            else:
                row[2 + card // 13] = 1.0
                row[6] = (card % 13 + 1) / 13
        runs = np.zeros(ROWS, dtype=np.float32)
        runs[: len(view.runs)] = np.asarray(view.runs, dtype=np.float32) / max(view.row_length, 1)
        totals = [
            view.round / 4,
            view.rounds / 4,
            view.moves / max(view.move_cap, 1),
            view.placed / max(view.rows * view.row_length, 1),
        ]
        return np.concatenate([places.ravel(), runs, floats(*totals)])

    def tokens(self, action: GapsMove) -> tuple[int, ...]:
        """The card, the place it comes from and the gap it goes into; or ``end_round``."""
        if action.ends_round:
            return (_END,)
        columns = action.columns
        return (action.card, _FROM + _place(action.src, columns), _TO + _place(action.dst, columns))
