"""What one Durak seat sees (rules/cards.md §1.8): an allow-list of fields, cards as integers (see _cards)."""

from __future__ import annotations

from dataclasses import dataclass

NO_CARD = -1
"""An uncovered attack card's defence, or a trump card not shown to anybody."""


@dataclass(frozen=True)
class DurakSeat:
    """One seat as everybody sees it.

    Attributes:
        hand_size: cards in its hand.
        place: finishing place once out (1 = first out), 0 while it plays.
        role: ``"attacker"`` (the main attacker), ``"defender"``, ``"thrower"`` or ``""``.
        known: the cards of its hand everybody knows (picked up, shown, the turned trump drawn), canonical order.
        team: 0 or 1 in a team game, -1 otherwise.
    """

    hand_size: int
    place: int
    role: str
    known: tuple[int, ...]
    team: int = -1


@dataclass(frozen=True)
class DurakView:
    """A seat's view of a Durak game: its own hand and what is public, never another hand's unknown cards nor the
    order of the stock.

    Attributes:
        variant: ``"podkidnoy"`` or ``"perevodnoy"``.
        seat: the seat this view is for.
        hand: its own cards, canonical order.
        seats: every seat (:class:`DurakSeat`), by seat number.
        trump_suit: 0..3 (C D H S), -1 before the deal.
        trump_card: the card that fixed trump (turned under the stock, or the last card dealt).
        trump_in_stock: True while that card still lies under the stock.
        stock: cards left to draw.
        table: the bout's (attack, defence) pairs in play order, defence :data:`NO_CARD` while uncovered.
        discard: the cards beaten off so far (public knowledge), canonical order.
        phase: ``"deal"``, ``"lead"``, ``"defend"``, ``"throw_in"``, ``"take_throw"`` or ``"over"``.
        to_act: the seat to act (-1 at a chance step or the end).
        attacker, defender: the main attacker and the defender of the bout (-1 outside a bout).
        throw_room: how many more attack cards the bout may still take.
        bout: the bout number, 1-based.
        shown: trumps shown this game with a show-trump transfer (each may be shown once).
        hands: every seat's hand, only in the spectator's view (``seat`` -1), never in a seat's.
        deal, deals: in a session, the deal being played (1-based) and how many the session has.
        duraks: in a session, how many deals each seat has lost so far.
    """

    variant: str
    seat: int
    hand: tuple[int, ...]
    seats: tuple[DurakSeat, ...]
    trump_suit: int
    trump_card: int
    trump_in_stock: bool
    stock: int
    table: tuple[tuple[int, int], ...]
    discard: tuple[int, ...]
    phase: str
    to_act: int
    attacker: int
    defender: int
    throw_room: int
    bout: int
    shown: tuple[int, ...] = ()
    hands: tuple[tuple[int, ...], ...] = ()
    deal: int = 1
    deals: int = 1
    duraks: tuple[int, ...] = ()
