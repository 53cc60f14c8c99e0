"""Gapa's encoding for training.

Cards are numbered 0..51 (suit ``C D H S`` times 13, rank 2..A; Gapa's two decks share the numbers). A card
position is encoded as 53 numbers: one per card, and the last for "no card". Observation (float32, :data:`SIZE`
numbers, from the seat's :class:`~referee.games.GapaView` only):

====  =====================================================================================================
0     per player, the seat first: the small pile's size, the big pile's size (each divided by 52), the top
      cards of its small and big face-up stacks (2 × 53), the sizes of those stacks (divided by 52), 1 while
      the top of its big pile is known to all, and its pending card (53: the seat's own, when it has one; the
      opponent's is never seen), 1 when the pending card came from the small pile
330   the eight foundations' top cards (8 × 53)
754   the eight side piles: each one's top card (53) and its size divided by 13 (8 × 54)
1186  the cards shifted between the opponent's stacks this turn (52)
1238  the first priority class that binds (none, 1, 2, 3), the actions taken this turn divided by the turn's
      cap, 1 in the ``penalty`` mode
====  =====================================================================================================

Tokens: an action is spelled as its kind (``move pile park draw_small draw_big discard end_turn``), then for a
``move`` its card, and for ``move`` and ``pile`` the place it comes from and the place it goes to (21 places each:
side piles s0..s7, foundations f0..f7, small_up, big_up, pending, their_small_up, their_big_up).
"""

from __future__ import annotations

import numpy as np

from referee.games import NO_CARD, GapaAction, GapaView
from referee.games.cards._cards import card_text
from referee.games.cards.gapa import MOVE, PLACE_NAMES

from ._encoding import cards_hot, floats, one_hot

KINDS = ("move", "pile", "park", "draw_small", "draw_big", "discard", "end_turn")
PLAYER = 2 + 2 * 53 + 2 + 1 + 53 + 1
SIZE = 2 * PLAYER + 8 * 53 + 8 * 54 + 52 + 4 + 1 + 1
VOCABULARY = (
    KINDS
    + tuple(card_text(card) for card in range(52))
    + tuple(f"from {name}" for name in PLACE_NAMES)
    + tuple(f"to {name}" for name in PLACE_NAMES)
)
_CARDS = len(KINDS)
_FROM = _CARDS + 52
_TO = _FROM + len(PLACE_NAMES)


def _card(card: int) -> np.ndarray:
    """53 numbers: the card, or the last for no card."""
    return one_hot(53, card if card != NO_CARD else 52)


def _top(stack: tuple[int, ...]) -> np.ndarray:
    return _card(stack[-1] if stack else NO_CARD)


class GapaEncoding:
    """The encoding of one Gapa game (see the module's table)."""

    observation_size = SIZE
    vocabulary = VOCABULARY

    def observe(self, view: GapaView) -> np.ndarray:
        """The observation of ``view`` (the module's table)."""
        seat = max(view.seat, 0)
        parts = []
        for player in (view.players[seat], view.players[1 - seat]):
            parts += [
                floats(player.small / 52, player.big / 52),
                _top(player.small_up),
                _top(player.big_up),
                floats(len(player.small_up) / 52, len(player.big_up) / 52, bool(player.big_known)),
                _card(player.pending),
                floats(player.pending_from == "small"),
            ]
        for top in view.foundations:
            parts.append(_card(top))
        for pile in view.side:
            parts += [_top(pile), floats(len(pile) / 13)]
        parts += [
            cards_hot(view.shifted),
            one_hot(4, view.priority),
            floats(view.actions / max(view.turn_cap, 1), view.mode == "penalty"),
        ]
        return np.concatenate(parts)

    def tokens(self, action: GapaAction) -> tuple[int, ...]:
        """The kind, then (a move) the card, then (a move or a pile) the places from and to."""
        spelled = [action.kind]
        if action.kind == MOVE:
            spelled.append(_CARDS + action.card)
        if action.src >= 0:
            spelled += [_FROM + action.src, _TO + action.dst]
        return tuple(spelled)
