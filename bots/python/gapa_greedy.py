"""A greedy, priority-aware Gapa policy (used by the heuristic bot).

It never ignores a priority class (in ``gapa=penalty`` games that would cost the turn), then sheds its own cards
where they do most harm to the opponent or most good to itself: onto the opponent's up-stacks, onto the side piles,
into empty side places (the drawn card and small-pile cards first, which count double in a margin), then clears
side cards onto the opponent's stacks and moves whole piles to open places; it draws before it discards.
"""

from __future__ import annotations

from referee.games import GapaAction, GapaView
from referee.games.cards.gapa import (
    BIG_UP,
    DISCARD,
    DRAW_BIG,
    DRAW_SMALL,
    FOUNDATION,
    MOVE,
    PARK,
    PENDING,
    PILE,
    SIDE_PILES,
    SMALL_UP,
    THEIR_BIG_UP,
    THEIR_SMALL_UP,
)
from referee.wire import ActRequest, ActResponse

_FREE = {DRAW_SMALL: 3.0, DRAW_BIG: 2.0, PARK: 1.0, DISCARD: 0.0}


def priority_class(action: GapaAction, view: GapaView) -> int:
    """The priority class (1-3) an action belongs to, or 0."""
    if action.kind != MOVE:
        return 0
    to_foundation = FOUNDATION <= action.dst < FOUNDATION + 8
    if to_foundation:
        return 1 if action.src < SIDE_PILES else 2
    mine = view.players[view.turn]
    small_card = action.src == SMALL_UP or action.src == PENDING and mine.pending_from == "small"
    if action.dst < SIDE_PILES and small_card and not view.side[action.dst]:
        return 3
    return 0


def score(action: GapaAction, view: GapaView) -> float:
    """How much the policy likes ``action``."""
    if action.kind == PILE:
        return 20.0
    if action.kind != MOVE:
        return _FREE.get(action.kind, 0.0)
    bonus = 10.0 if action.src == PENDING else 5.0 if action.src == SMALL_UP else 0.0
    own = action.src in (SMALL_UP, PENDING, BIG_UP)
    onto_them = action.dst in (THEIR_SMALL_UP, THEIR_BIG_UP)
    if FOUNDATION <= action.dst < FOUNDATION + 8:
        return 100.0 + bonus
    if action.src in (THEIR_SMALL_UP, THEIR_BIG_UP):  # a shift: harmless, rarely useful
        return 4.0
    if own and onto_them:
        return 60.0 + bonus
    if own:
        return 50.0 + bonus - (5.0 if not view.side[action.dst] else 0.0)
    if onto_them:  # a side card onto the opponent's stack
        return 40.0
    return 10.0


def choose(request: ActRequest) -> ActResponse:
    """The best-scoring legal action of the first priority class that has one."""
    view: GapaView = request.view
    actions = [entry.action for entry in request.legal_actions]
    if view.priority:
        forced = [i for i, a in enumerate(actions) if priority_class(a, view) == view.priority]
        if forced:
            best = max(forced, key=lambda i: (score(actions[i], view), -i))
            return ActResponse(best, f"priority {view.priority}")
    best = max(range(len(actions)), key=lambda i: (score(actions[i], view), -i))
    return ActResponse(best, f"score {score(actions[best], view):.0f}")
