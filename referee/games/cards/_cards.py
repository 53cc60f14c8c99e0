"""Playing cards as small integers, shared by the card games (rules/cards.md, conventions).

A card is ``suit * 13 + rank - 2`` with ranks 2..14 (``T J Q K A`` = 10..14) and suits ``C D H S`` = 0..3, so
that the integer order is the canonical order (suit, then rank). A set of cards is a bitmask of those integers.
"""

from __future__ import annotations

from collections.abc import Iterable

SUITS = "CDHS"
RANKS = "23456789TJQKA"
"""Rank letters for the ranks 2..14."""


def card(rank: int, suit: int) -> int:
    """The card of ``rank`` (2..14) and ``suit`` (0..3).

    >>> card_text(card(10, 3))
    'TS'
    """
    return suit * 13 + rank - 2


def rank_of(c: int) -> int:
    """The rank 2..14 of card ``c``."""
    return c % 13 + 2


def suit_of(c: int) -> int:
    """The suit 0..3 (C, D, H, S) of card ``c``."""
    return c // 13


def card_text(c: int) -> str:
    """``9C``, ``TD``, ``AS``…"""
    return RANKS[c % 13] + SUITS[c // 13]


def parse_card(text: str) -> int:
    """The card written as ``text`` (rank letter then suit letter, case-insensitive).

    >>> parse_card("th") == card(10, 2)
    True
    >>> parse_card("1X")
    Traceback (most recent call last):
    ...
    ValueError: '1X' is not a card (rank 2-9 T J Q K A, then suit C D H S)
    """
    t = text.strip().upper()
    if len(t) != 2 or t[0] not in RANKS or t[1] not in SUITS:
        raise ValueError(f"{text!r} is not a card (rank 2-9 T J Q K A, then suit C D H S)")
    return SUITS.index(t[1]) * 13 + RANKS.index(t[0])


def deck(lowest_rank: int) -> list[int]:
    """Every card from ``lowest_rank`` to the ace in each suit, in canonical order."""
    return [card(rank, suit) for suit in range(4) for rank in range(lowest_rank, 15)]


def mask_of(cards: Iterable[int]) -> int:
    """The bitmask of ``cards``."""
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def cards_of(mask: int) -> list[int]:
    """The cards of a bitmask, in canonical order.

    >>> [card_text(c) for c in cards_of(mask_of([card(9, 2), card(6, 0)]))]
    ['6C', '9H']
    """
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def beats(attack: int, defence: int, trump: int) -> bool:
    """True when ``defence`` beats ``attack`` with trump suit ``trump``: a higher card of the same suit, or any
    trump on a non-trump.

    >>> H = SUITS.index("H")
    >>> beats(parse_card("9S"), parse_card("6H"), H), beats(parse_card("7H"), parse_card("AS"), H)
    (True, False)
    """
    a, d = attack // 13, defence // 13
    if a == d:
        return defence > attack
    return d == trump
