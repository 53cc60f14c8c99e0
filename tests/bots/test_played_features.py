"""The features of the positions a request's plays make on the view's board (``positions.played_features``) are
the engine's, Gjul Bara's remainders included, and the learned bot values a remainder with its network."""

from __future__ import annotations

import numpy as np
import pytest

from bots.python import td_bot
from bots.python.positions import played_features
from referee.games.tabla_family.features import after_features

from .test_ladder_search import request_of, stages


@pytest.mark.parametrize("game_id", ["tabla", "gjul-bara", "tapa"])
def test_the_played_positions_are_the_engine_s(game_id):
    remainders = 0
    for state in stages(game_id, {}, 6, seed=4):
        view = state.view(state.current_player)
        remainders += view.remainder
        rows, outcomes = played_features(view, [play.raw for play in state.legal_actions()])
        want_rows, want_outcomes = after_features(state)
        assert np.array_equal(rows, want_rows)
        if game_id != "tapa":  # a Tapa mother's end is not seen (no remainder there)
            assert outcomes == want_outcomes
        else:
            assert all(got in (None, want) for got, want in zip(outcomes, want_outcomes))
    assert game_id != "gjul-bara" or remainders > 5


def test_td_bot_values_a_remainder_by_its_network():
    seen = 0
    for state in stages("gjul-bara", {}, 30, seed=7):
        if not state.view(state.current_player).remainder:
            continue
        request = request_of(state, {})
        answer = td_bot.choose(request)
        rows, outcomes = after_features(state)
        values = td_bot.Values.of(request).plays(rows, outcomes)
        assert answer.comment.endswith("(played on the view)")
        assert values[answer.action_id] == values.max()
        seen += 1
    assert seen > 10
