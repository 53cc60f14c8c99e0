"""A Durak bot that searches in the native core: the determinized search of :mod:`.durak_search_bot` (guesses of
the hidden cards consistent with the seat's view, every legal action played out in each guess with the same greedy
policy), with about forty times the playouts, which the core plays (``kafana_native.bots.durak_rollouts``): each guess
plays every action :data:`ROLLOUTS` times, and the action with the best average result over all guesses is chosen.

Only the request is read (the seat's view and the legal actions); the guesses come from a generator seeded by the
decision, so equal requests get equal answers. Without the native core it plays as :mod:`.durak_search_bot`.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterable

from bots.python import durak_search_bot
from bots.python.kit import serve
from referee.games import NO_CARD, Durak, DurakView, make_game
from referee.games.cards import mask_of
from referee.games.engine import ACCELERATORS
from referee.wire import ActRequest, ActResponse

WORLDS = 64
"""Guesses per decision (fewer only when the clock runs short)."""
ROLLOUTS = 24
"""Playouts of each action in each guess."""
EXPLORE = 0.15
"""How often the playout policy picks a random action instead of the greedy one."""
BUDGET = 0.08
"""Seconds of search per decision at most (less when the clock is short)."""


def position(view: DurakView, hands: list[list[int]], stock: list[int]) -> tuple:
    """The core's arguments for a guess: the public state of ``view`` with the guessed hands and stock."""
    return (
        [mask_of(hand) for hand in hands],
        [mask_of(seat.known) for seat in view.seats],
        [seat.place for seat in view.seats],
        stock,
        view.trump_card,
        [(attack, defence if defence != NO_CARD else -1) for attack, defence in view.table],
        mask_of(view.discard),
        mask_of(view.shown),
        view.phase,
        view.bout,
        view.attacker,
        view.defender,
        view.throw_room,
        view.to_act,
    )


Key = tuple[int, tuple[int, ...]]
"""An action as the core names it: (kind, cards)."""


def means(view: DurakView, game: Durak, keys: Iterable[Key], rng: random.Random, worlds: int = WORLDS,
          deadline: float = math.inf) -> tuple[dict[Key, float], int]:
    """Each of the actions ``keys`` (the legal actions of ``view``'s seat) valued by the search: the mean over
    ``worlds`` guesses (fewer when ``deadline``, a ``time.perf_counter()``, passes) of :data:`ROLLOUTS` playouts
    each of the seat's points less the others' mean; and the guesses made."""
    assert ACCELERATORS is not None
    rules = game.core_rules()
    totals = dict.fromkeys(keys, 0.0)
    made = 0
    while made < worlds and (made == 0 or time.perf_counter() < deadline):
        hands, stock = durak_search_bot.guess(view, game.deck, rng)
        actions, sums = ACCELERATORS.durak_rollouts(
            rules, *position(view, hands, stock), me=view.seat, rollouts=ROLLOUTS, explore=EXPLORE,
            seed=rng.getrandbits(64),
        )
        for (kind, cards), total in zip(actions, sums, strict=True):
            key = (kind, tuple(cards))
            if key in totals:  # a guess that cannot tell the whole state (team games) may list more
                totals[key] += total
        made += 1
    return {key: total / (made * ROLLOUTS) for key, total in totals.items()}, made


def search(request: ActRequest, rng: random.Random) -> tuple[int, str]:
    """The chosen action id and a comment, over at most :data:`WORLDS` guesses (fewer when :data:`BUDGET` runs
    out: then equal requests may get different answers)."""
    legal = request.legal_actions
    if len(legal) == 1:
        return legal[0].id, "forced"
    ids = {(action.kind, action.cards): number for number, _, action in legal}
    deadline = time.perf_counter() + min(BUDGET, request.clock.move_limit_ms / 1000 / 5)
    valued, worlds = means(request.view, make_game("durak", request.options), ids, rng, deadline=deadline)
    best = max(valued, key=lambda key: (valued[key], -ids[key]))
    return ids[best], f"{valued[best]:+.2f} over {worlds} guesses x {ROLLOUTS} playouts"


def choose(request: ActRequest) -> ActResponse:
    """Search in the core, seeded by the decision (the Python search bot's choice without the core)."""
    if ACCELERATORS is None:
        return durak_search_bot.choose(request)
    rng = random.Random(f"{request.match_id}/{request.game_number}/{request.seat}/{request.decision}")
    action_id, comment = search(request, rng)
    return ActResponse(action_id, comment)


if __name__ == "__main__":
    serve(choose, name="durak-mc", version="1.0", author="Kafana", games=["durak"])
