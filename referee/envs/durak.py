"""Durak's encoding for training (every variant, deck and seat count, teams, sessions).

Cards are numbered 0..51 (suit ``C D H S`` times 13, rank 2..A within a suit). Seats are counted from the seat
observing: relative seat 0 is itself, 1 the next seat in play order, up to 5 (seats a game does not have are
zeros). Observation (float32, :data:`SIZE` numbers, from the seat's :class:`~referee.games.DurakView` only):

====  =====================================================================================================
0     its hand (52, one per card)
52    the attack cards on the table (52), then the cards beating them (52)
156   the discard pile (52)
208   the card that fixed trump (52), trump's suit (4), 1 while that card still lies under the stock, the
      stock's size divided by 52
266   the cards the others are known to hold (5 × 52, relative seats 1..5)
526   the trumps shown this game (52)
578   per relative seat 0..5: hand size divided by 52, 1 once out, its role (attacker, defender, thrower),
      1 when it is on the observer's team, deals lost in the session divided by the deals (6 × 7)
620   the phase: lead, defend, throw_in, take_throw (4), the room left for attack cards divided by 6, the
      variant: podkidnoy, perevodnoy (2)
====  =====================================================================================================

Tokens: an action is spelled as its kind (``lead beat transfer show take throw pass done``) followed by its cards
(``beat``: the attack card, then the card that beats it; ``lead``: the cards in the referee's order), and
``end`` where one action's spelling is the start of another's (a lead of one card when two may be led).
"""

from __future__ import annotations

import numpy as np

from referee.games import DurakAction, DurakView
from referee.games.cards._cards import card_text

from ._encoding import cards_hot, floats, one_hot

SEATS = 6
KINDS = ("lead", "beat", "transfer", "show", "take", "throw", "pass", "done")
ROLES = ("attacker", "defender", "thrower")
PHASES = ("lead", "defend", "throw_in", "take_throw")
VARIANTS = ("podkidnoy", "perevodnoy")
SIZE = 52 * 5 + 4 + 2 + 52 * (SEATS - 1) + 52 + SEATS * 7 + len(PHASES) + 1 + len(VARIANTS)
VOCABULARY = KINDS + tuple(card_text(card) for card in range(52))


class DurakEncoding:
    """The encoding of one Durak game (see the module's table)."""

    observation_size = SIZE
    vocabulary = VOCABULARY

    def observe(self, view: DurakView) -> np.ndarray:
        """The observation of ``view`` (the module's table)."""
        count = len(view.seats)
        order = [(view.seat + step) % count for step in range(count)]
        me = view.seats[view.seat]
        others = np.zeros((SEATS - 1, 52), dtype=np.float32)
        per_seat = np.zeros((SEATS, 7), dtype=np.float32)
        for relative, seat in enumerate(order):
            shown = view.seats[seat]
            if relative:
                others[relative - 1] = cards_hot(shown.known)
            lost = view.duraks[seat] / max(view.deals, 1) if view.duraks else 0.0
            role = one_hot(len(ROLES), ROLES.index(shown.role) if shown.role in ROLES else -1)
            same_team = float(shown.team >= 0 and shown.team == me.team)
            per_seat[relative] = [shown.hand_size / 52, float(shown.place > 0), *role, same_team, lost]
        return np.concatenate(
            [
                cards_hot(view.hand),
                cards_hot(attack for attack, _ in view.table),
                cards_hot(defence for _, defence in view.table),
                cards_hot(view.discard),
                cards_hot([view.trump_card]),
                one_hot(4, view.trump_suit),
                floats(view.trump_in_stock, view.stock / 52),
                others.ravel(),
                cards_hot(view.shown),
                per_seat.ravel(),
                one_hot(len(PHASES), PHASES.index(view.phase) if view.phase in PHASES else -1),
                floats(view.throw_room / 6),
                one_hot(len(VARIANTS), VARIANTS.index(view.variant)),
            ]
        )

    def tokens(self, action: DurakAction) -> tuple[int, ...]:
        """The kind, then the cards."""
        return (action.kind, *(len(KINDS) + card for card in action.cards))
