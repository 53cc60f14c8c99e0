"""A heuristic Durak policy: play low, keep trumps, throw in what the defender cannot beat, transfer when it pays.

It reads only the request (the seat's view and the legal actions). Card cost = rank, plus 13 for a trump, so a
low non-trump is the cheapest card to part with and a high trump the dearest.
"""

from __future__ import annotations

from referee.games import NO_CARD, DurakView
from referee.games.cards import beats, rank_of, suit_of
from referee.games.cards.durak import action_words
from referee.wire import ActRequest, ActResponse

DEAR = 24
"""Cards costing this or more (a trump above the ten) are kept while the stock lasts, unless nothing else helps."""


def cost(card: int, trump: int) -> int:
    """What a card is worth keeping: its rank, plus 13 for a trump."""
    return rank_of(card) + (13 if suit_of(card) == trump else 0)


def _unbeatable(card: int, view: DurakView) -> bool:
    """True when no card the defender is known to hold beats ``card`` (what a human with perfect memory sees)."""
    known = view.seats[view.defender].known
    return not any(beats(card, other, view.trump_suit) for other in known)


def score(kind: str, cards: tuple[int, ...], view: DurakView) -> float:
    """How much the policy likes an action (higher is better)."""
    trump = view.trump_suit
    late = view.stock == 0
    if kind == "lead":
        # Shed the cheapest rank, as many of it as allowed; avoid leading trumps while the stock lasts.
        return -min(cost(c, trump) for c in cards) + 1.5 * (len(cards) - 1)
    if kind == "beat":
        spent = cost(cards[1], trump)
        if spent >= DEAR and not late and sum(1 for _, d in view.table if d == NO_CARD) > 1:
            return -40.0  # would need a dear trump for one of several open cards: taking is better
        return -spent
    if kind == "transfer":
        return 5.0 - cost(cards[0], trump) / 4  # passing the attack on with a cheap card pays
    if kind == "show":
        return 6.0  # showing a trump passes the attack on and keeps the card
    if kind == "take":
        return -DEAR - 0.5
    if kind == "throw":
        c = cards[0]
        value = 10.0 - cost(c, trump)
        if _unbeatable(c, view):
            value += 4
        if suit_of(c) == trump and not late:
            value -= 20
        if view.phase == "take_throw":
            value += 3  # the defender picks these up anyway
        return value
    return 0.0  # pass, done


def choose(request: ActRequest) -> ActResponse:
    """The best-scoring legal action (ties: the lowest id)."""
    view = request.view
    best = max(request.legal_actions, key=lambda legal: (score(*action_words(legal.action), view=view), -legal.id))
    return ActResponse(best.id)
