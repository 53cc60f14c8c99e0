"""Seeded random playouts through the public State API, for tests, benchmarks and ``referee check-bot``."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from referee.games import CHANCE, Game, State


def random_decisions(game: Game, count: int, seed: int) -> Iterator[tuple[State, list[Any] | None]]:
    """Play ``count`` games with uniformly random decisions and seeded chance; yield ``(state, legal actions)`` at
    every decision (before it is taken) and ``(final state, None)`` at the end of each game.

    >>> from referee.games import make_game
    >>> ends = [s for s, legal in random_decisions(make_game("tapa"), 2, seed=1) if legal is None]
    >>> len(ends), all(s.is_terminal() for s in ends)
    (2, True)
    """
    rng = random.Random(seed)
    for _ in range(count):
        state = game.new_state()
        while not state.is_terminal():
            if state.current_player == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            yield state, legal
            state.apply(legal[rng.randrange(len(legal))])
        yield state, None
