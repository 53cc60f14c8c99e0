"""An evaluator's features of every legal play's position: the native core's are the reference's, row for row,
for every game of the Tabla family, and each play's row is the position that play makes."""

from __future__ import annotations

import numpy as np
import pytest

from referee.games import make_game
from referee.games.engine import NATIVE
from referee.games.tabla_family.features import (
    FEATURES,
    after_features,
    encode,
    native_after_features,
    python_after_features,
)
from referee.playouts import random_decisions


@pytest.mark.skipif(NATIVE is None, reason="the native core is not installed")
@pytest.mark.parametrize(("game_id", "options"), [
    ("tabla", {}), ("gjul-bara", {}), ("tapa", {}), ("tapa", {"tapa.both_mothers": "draw_1_1"}),
])
def test_the_core_gives_the_references_features(game_id, options):
    decisions = ended = 0
    for state, legal in random_decisions(make_game(game_id, options), 8, seed=17):
        if legal is None:
            continue
        rows, outcomes = native_after_features(state)
        expected_rows, expected_outcomes = python_after_features(state)
        assert rows.dtype == np.float32 and rows.shape == (len(legal), FEATURES)
        assert np.array_equal(rows, expected_rows) and outcomes == expected_outcomes
        decisions += 1
        ended += sum(one is not None for one in outcomes)
    assert decisions > 300 and ended >= 8  # the plays that end a game are compared too


def test_a_hit_puts_the_blot_on_the_bar_in_the_row():
    state = make_game("tabla").position(0, {13: 2}, {10: 1}, dice=(3, 1))
    rows, outcomes = after_features(state)
    notations = [play.notation() for play in state.legal_actions()]
    hit = rows[notations.index("13/10* 13/12")]
    quiet = rows[notations.index("13/12 12/9")]
    their_bar = 98 + 96  # the second side's bar unit
    assert hit[their_bar] == 0.5 and quiet[their_bar] == 0.0 and outcomes == [None] * 3


def test_a_winning_play_carries_its_points():
    state = make_game("gjul-bara").position(0, {1: 1}, {12: 15}, dice=(2, 1))
    rows, outcomes = after_features(state)
    assert outcomes == [(2, 0)]  # the last checker off; the loser has none off: mars
    assert rows[0].tolist() == encode((15, state._boards[1]), (0, 0))


def test_nobody_to_move_is_refused():
    with pytest.raises(ValueError, match="nobody is to play"):
        after_features(make_game("tapa").new_state())
