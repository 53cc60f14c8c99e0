"""Every roll's replies from many positions at once (``roll_replies``, for a search two rolls deep): the native
core's are the Python reference's, row for row, at every turn of seeded Tabla and Tapa games."""

from __future__ import annotations

import random

import numpy as np
import pytest

from referee.games import CHANCE, make_game
from referee.games.engine import NATIVE
from referee.games.tabla_family.features import ROLLS, python_roll_replies, roll_replies

pytestmark = pytest.mark.skipif(NATIVE is None, reason="the native core is not installed")


def positions_of(game_id: str, options: dict, games: int, seed: int):
    """(state, the position with the side to roll first) at each roll of ``games`` random games."""
    game, rng = make_game(game_id, options), random.Random(seed)
    for _ in range(games):
        state = game.new_state()
        while not state.is_terminal():
            if state.current_player == CHANCE:
                if state._phase == "roll":
                    mover = state._turn
                    yield state, (state._boards[mover], state._boards[1 - mover], state._pins[mover],
                                  state._pins[1 - mover])
                state.apply(state.sample_chance(rng))
            else:
                state.apply(rng.choice(state.legal_actions()))


OPTION_SETS = [("tabla", {}), ("tapa", {}), ("tapa", {"tapa.both_mothers": "draw_1_1"})]


@pytest.mark.parametrize(("game_id", "options"), OPTION_SETS)
def test_the_native_replies_are_the_references(game_id, options):
    found = list(positions_of(game_id, options, 2, seed=5))[::3]  # every third roll: the reference is slow
    assert len(found) > 30
    for start in range(0, len(found), 16):
        batch = found[start:start + 16]
        state, positions = batch[0][0], [position for _, position in batch]
        native, python = roll_replies(state, positions), python_roll_replies(state, positions)
        assert native.groups == python.groups and len(native.groups) == len(ROLLS) * len(positions)
        assert native.outcomes == python.outcomes and native.afters == python.afters
        assert np.array_equal(native.rows, python.rows)
    bare = roll_replies(state, positions, afters=False)
    assert bare.afters == [] and bare.groups == native.groups and np.array_equal(bare.rows, native.rows)


def test_gjul_bara_has_no_replies_of_one_stage():
    state = make_game("gjul-bara").new_state(starter=0)
    for replies in (roll_replies, python_roll_replies):
        with pytest.raises(ValueError, match="one stage a turn"):
            replies(state, [(state._boards[0], state._boards[1], 0, 0)])
