"""What the Gaps player sees (rules/cards.md §3.3): the whole grid and the round; only future redeals are unknown."""

from __future__ import annotations

from dataclasses import dataclass

GAP = -1
"""An empty place of the grid."""


@dataclass(frozen=True)
class GapsView:
    """A Gaps position as the player sees it.

    Attributes:
        variant: ``montana``, ``gaps_unshuffled``, ``spaces``, ``addiction``, ``blue_moon``, ``red_moon`` or
            ``paganini``.
        rows: rows of the grid (4, or 8 in paganini).
        columns: columns of the grid (13, or 14 where the aces head the rows).
        grid: the cards row by row (card integers of :mod:`referee.games.cards._cards`, :data:`GAP` for a gap).
        round: the deal being played, 1-based (the first deal, then each redeal).
        rounds: how many deals the game has.
        moves: moves made in this round.
        move_cap: moves a round may have; then only ``end_round`` is left.
        placed: cards in place (the rows' prefixes), the score so far.
        row_length: cards in a complete row (12 from 2 to K, or 13 from A to K).
        runs: the cards in place in each row (its run from the first column).
    """

    variant: str
    rows: int
    columns: int
    grid: tuple[int, ...]
    round: int
    rounds: int
    moves: int
    move_cap: int
    placed: int
    row_length: int
    runs: tuple[int, ...]
