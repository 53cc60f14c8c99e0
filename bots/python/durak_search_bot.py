"""A determinized search bot for Durak: guess the hidden cards consistently with what the seat knows, play every
legal action out in each guess with a cheap greedy policy, and let the guesses vote.

What the seat knows: its hand, the table, the discard, every seat's publicly known cards and hand size, the
turned trump (the last card of the stock while it is there). The unseen cards are dealt at random to the other
hands and the stock; :meth:`referee.games.cards.durak.Durak.from_view` turns each guess into an engine state.
A search takes a fifth of the move's time and :data:`BUDGET` at most; when not even one guess fits in that, the
answer is the playout policy's action.
"""

from __future__ import annotations

import random
import time
from collections import Counter

from bots.python.kit import serve
from referee.games import DurakAction, DurakView, State, make_game
from referee.games.cards.durak import BEAT, LEAD, SHOW, TAKE, THROW, TRANSFER
from referee.wire import ActRequest, ActResponse

WORLDS = 12
"""Guesses per decision (fewer only when the clock runs short, so that answers are reproducible)."""
BUDGET = 0.5
"""Seconds of search per decision at most (less when the clock is short)."""
ROLLOUTS = 3
"""Playouts per action in each guess."""
EXPLORE = 0.15
"""How often the playout policy picks a random action instead of the greedy one."""


def guess(view: DurakView, deck: tuple[int, ...], rng: random.Random) -> tuple[list[list[int]], list[int]]:
    """Hands and a stock consistent with ``view``: the seat's own hand, everybody's known cards, the unseen cards
    dealt at random, and the turned trump last in the stock while it is there."""
    seen = set(view.hand) | set(view.discard) | {c for pair in view.table for c in pair if c >= 0}
    for seat in view.seats:
        seen |= set(seat.known)
    if view.trump_in_stock:
        seen.add(view.trump_card)
    unseen = [c for c in deck if c not in seen]
    rng.shuffle(unseen)
    hands = []
    for number, seat in enumerate(view.seats):
        if number == view.seat:
            hands.append(list(view.hand))
            continue
        missing = seat.hand_size - len(seat.known)
        hands.append(list(seat.known) + unseen[:missing])
        del unseen[:missing]
    stock = unseen + ([view.trump_card] if view.trump_in_stock else [])
    return hands, stock


def _cost(card: int, trump: int) -> int:
    return card % 13 + (13 if card // 13 == trump else 0)


def greedy(state: State, trump: int, rng: random.Random) -> DurakAction:
    """The playout policy: shed or spend the cheapest card, take rather than spend a high trump, pass otherwise."""
    legal = state.legal_actions()
    if len(legal) == 1 or rng.random() < EXPLORE:
        return legal[rng.randrange(len(legal))]
    best, best_value = legal[0], -1e9
    for action in legal:
        kind, cards = action
        if kind == LEAD:
            value = 30 - _cost(cards[0], trump) + len(cards)
        elif kind == BEAT:
            value = 20 - _cost(cards[1], trump)
        elif kind in (TRANSFER, SHOW):
            value = 25 - _cost(cards[0], trump) / 2
        elif kind == THROW:
            value = 12 - _cost(cards[0], trump)
        elif kind == TAKE:
            value = -8
        else:  # PASS, DONE
            value = 0
        if value > best_value:
            best, best_value = action, value
    return best


def _value(state: State, me: int) -> float:
    points = state.outcome().points
    others = [p for seat, p in enumerate(points) if seat != me]
    return points[me] - sum(others) / len(others)


def search(
    request: ActRequest, rng: random.Random, worlds_at_most: int = WORLDS, rollouts: int = ROLLOUTS
) -> tuple[int, str]:
    """The chosen action id and a comment with the vote, over at most ``worlds_at_most`` guesses of ``rollouts``
    playouts per action."""
    view = request.view
    legal = request.legal_actions
    if len(legal) == 1:
        return legal[0].id, "forced"
    game = make_game("durak", request.options)
    budget = min(BUDGET, request.clock.move_limit_ms / 1000 / 5)
    deadline = time.perf_counter() + budget
    ids = {legal_action.notation: legal_action.id for legal_action in legal}
    votes: Counter[str] = Counter()
    worlds = 0
    while worlds < worlds_at_most and (worlds == 0 or time.perf_counter() < deadline):
        hands, stock = guess(view, game.deck, rng)
        root = game.from_view(view, hands, stock)
        scores = []
        for action in root.legal_actions():
            if action.notation() not in ids:
                continue  # a guess that cannot tell the whole state (team games) may list more
            if worlds == 0 and time.perf_counter() > deadline:  # not even one guess fits the clock
                quick = ids.get(greedy(root, view.trump_suit, rng).notation(), legal[0].id)
                return quick, "the clock is short: the playout policy's action"
            total = 0.0
            for _ in range(rollouts):
                state = root.clone()
                state.apply(action)
                while not state.is_terminal():
                    state.apply(greedy(state, view.trump_suit, rng))
                total += _value(state, view.seat)
            scores.append((total, -ids[action.notation()], action.notation()))
        if scores:
            votes[max(scores)[2]] += 1
        worlds += 1
    if not votes:
        return legal[0].id, "no guess fitted"
    notation, count = max(votes.items(), key=lambda item: (item[1], -ids[item[0]]))
    return ids[notation], f"{count}/{worlds} guesses"


def choose(request: ActRequest) -> ActResponse:
    """Search, seeded by the decision so that equal requests get equal answers."""
    rng = random.Random(f"{request.match_id}/{request.game_number}/{request.seat}/{request.decision}")
    action_id, comment = search(request, rng)
    return ActResponse(action_id, comment)


if __name__ == "__main__":
    serve(choose, name="durak-search", version="1.0", author="Kafana", games=["durak"])
