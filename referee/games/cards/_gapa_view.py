"""What one Gapa seat sees (rules/cards.md §2.6): an allow-list of fields, cards as integers (see _cards)."""

from __future__ import annotations

from dataclasses import dataclass

NO_CARD = -1
"""An empty foundation, or no pending card."""


@dataclass(frozen=True)
class GapaHolding:
    """One player's five places as a given seat sees them.

    Attributes:
        small: cards in the face-down small pile.
        small_up: the face-up stack beside it, bottom to top.
        big: cards in the face-down big pile.
        big_known: the big pile's cards top first when everybody saw their order (it was made by turning big_up
            over), else empty.
        big_up: the face-up stack beside the big pile, bottom to top.
        pending: the drawn card not yet played, when the viewer may see it (its owner), else :data:`NO_CARD`.
        pending_from: ``"small"`` or ``"big"`` while a card is pending (public), else ``""``.
    """

    small: int
    small_up: tuple[int, ...]
    big: int
    big_known: tuple[int, ...]
    big_up: tuple[int, ...]
    pending: int
    pending_from: str


@dataclass(frozen=True)
class GapaView:
    """A seat's view of a Gapa game: everything face up, both players' piles, its own pending card.

    Attributes:
        seat: the seat this view is for (-1: a spectator, who sees both pending cards).
        players: both players' places (:class:`GapaHolding`), by seat.
        foundations: the top card of each of the 8 foundations (:data:`NO_CARD` when empty).
        side: the 8 side piles, bottom to top (piles 0-3 the left column, 4-7 the right).
        turn: the seat to act (-1 before the start and at the end).
        actions: actions taken in this turn so far.
        turn_cap: actions a turn may have before only forced moves, draws and discards are listed.
        shifted: the cards shifted between the opponent's up-stacks this turn (each may move so once a turn).
        priority: the first non-empty priority class (1-3) of the seat to act, 0 when none.
        mode: ``"strict"`` or ``"penalty"`` (the ``gapa`` option).
    """

    seat: int
    players: tuple[GapaHolding, GapaHolding]
    foundations: tuple[int, ...]
    side: tuple[tuple[int, ...], ...]
    turn: int
    actions: int
    turn_cap: int
    shifted: tuple[int, ...]
    priority: int
    mode: str
