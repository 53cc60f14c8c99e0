"""Playing a native state and its Python reference side by side (tests/games/test_native_*.py)."""

from __future__ import annotations

import random
from collections.abc import Callable

from referee.games import CHANCE, State


def play_along(native: State, python: State, rng: random.Random, same_step: Callable[[State, State], None]) -> None:
    """Play both states to the end with the same random chance and choices (the i-th legal action of each),
    checking ``same_step`` before every step and equal outcomes at the end."""
    while True:
        same_step(native, python)
        if python.is_terminal():
            break
        if python.current_player == CHANCE:
            action = python.sample_chance(rng)
            native.apply(action)
        else:
            legal = python.legal_actions()
            index = rng.randrange(len(legal))
            action = legal[index]
            native.apply(native.legal_actions()[index])
        python.apply(action)
    assert native.outcome() == python.outcome()
