"""td2_bot, the learned bot two rolls ahead: the native core's best replies are the reference's (every reply's row
valued in numpy), its network is the numpy network, the search's values are those of a search through the State
API, and the bot answers legally and falls back where it does not search (``referee check-bot`` accepts it:
``test_td.py``)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from bots.python import td1_bot, td2_bot, td_bot
from bots.python.td_bot import Values
from referee.games.engine import ACCELERATORS
from referee.games.tabla_family.features import after_features, encode, roll_replies
from referee.wire import ClockInfo

from ..games.test_roll_replies import positions_of
from .test_ladder_search import request_of, stages

native = pytest.mark.skipif(ACCELERATORS is None, reason="the native core is not installed")


@pytest.fixture
def reference(monkeypatch):
    """td2_bot valuing every reply's row in numpy, as it does in a match or without the core."""
    monkeypatch.setattr(td2_bot, "_native_network", lambda game_id: None)


@native
@pytest.mark.parametrize("game_id", ["tabla", "tapa"])
def test_the_native_network_is_the_numpy_network(game_id):
    state, position = next(positions_of(game_id, {}, 1, seed=2))
    rows = roll_replies(state, [position]).rows
    network = td_bot.network(game_id)
    values = np.frombuffer(network.native().values(rows.tobytes()), dtype="<f4")
    assert np.allclose(values, network.values(rows), atol=1e-5)


@native
@pytest.mark.parametrize("game_id", ["tabla", "tapa"])
def test_the_native_best_replies_are_the_references(game_id, monkeypatch):
    found = list(positions_of(game_id, {}, 2, seed=4))[::4]
    state, judge = found[0][0], Values(game_id)
    positions = [position for _, position in found]
    fast = td2_bot.best_replies(state, judge, positions, mine=True)
    monkeypatch.setattr(td2_bot, "_native_network", lambda game_id: None)
    slow = td2_bot.best_replies(state, judge, positions, mine=True)
    assert len(fast.values) == 21 * len(positions)
    assert np.array_equal(fast.weights, slow.weights)
    assert np.allclose(fast.values, slow.values, atol=1e-5)
    clear = [group for group in range(len(positions) * 21) if slow.ended[group] or not np.isclose(
        slow.values[group], fast.values[group], rtol=0, atol=0)]  # equal values: the first best may differ
    assert fast.ended == slow.ended
    assert [fast.afters[group] for group in clear] == [slow.afters[group] for group in clear]


def best_through_the_states(state, judge: Values, seat: int, side: int) -> tuple[float, object]:
    """``side``'s best play by ``judge`` after the roll just made in ``state``, its value for that side and the
    state it leaves; with no play, the position as it stands (as if the side had played and left it)."""
    if state.current_player == side:
        values = judge.plays(*after_features(state), mine=side == seat)
        best = int(np.argmax(values))
        state.apply(state.legal_actions()[best])
        return float(values[best]), state
    assert not state.is_terminal()
    row = encode((state._boards[side], state._boards[1 - side]), (state._pins[side], state._pins[1 - side]))
    return float(judge.plays(np.array([row], dtype=np.float32), [None], mine=side == seat)[0]), state


def searched_through_the_states(state, judge: Values, seat: int, index: int) -> float:
    """The value two rolls ahead of play ``index`` for ``seat`` through the public State API: after each roll of
    the opponent its best play by ``judge``, after each of the seat's own rolls the seat's best play's value (the
    positions are early ones, where nobody has won two rolls on)."""
    after = state.clone()
    after.apply(state.legal_actions()[index])
    total = 0.0
    for roll, chance in after.chance_outcomes():
        theirs = after.clone()
        theirs.apply(roll)
        _, theirs = best_through_the_states(theirs, judge, seat, 1 - seat)
        for again, again_chance in theirs.chance_outcomes():
            mine = theirs.clone()
            mine.apply(again)
            total += chance * again_chance * best_through_the_states(mine, judge, seat, seat)[0]
    return total


@pytest.mark.parametrize("game_id", ["tabla", "tapa"])
def test_two_rolls_ahead_is_the_search_through_the_states(game_id, reference):
    state = [turn for turn in stages(game_id, {}, 1, seed=9)][3]
    judge, seat = Values(game_id), state.current_player
    ahead = td2_bot.two_rolls_ahead(state, judge, seat)
    assert len(ahead) == td2_bot.DEEP
    for index, value in ahead.items():
        assert value == pytest.approx(searched_through_the_states(state, judge, seat, index), abs=1e-6)


@native
@pytest.mark.parametrize("game_id", ["tabla", "tapa"])
def test_the_native_search_is_the_references(game_id, monkeypatch):
    judge = Values(game_id)
    for state in list(stages(game_id, {}, 1, seed=6))[::8]:
        fast = td2_bot.two_rolls_ahead(state, judge, state.current_player)
        monkeypatch.setattr(td2_bot, "_native_network", lambda game_id: None)
        slow = td2_bot.two_rolls_ahead(state, judge, state.current_player)
        monkeypatch.undo()
        assert fast.keys() == slow.keys()
        assert all(fast[index] == pytest.approx(slow[index], abs=1e-5) for index in fast)


def test_it_searches_tabla_and_tapa_and_plays_as_td1_elsewhere(monkeypatch):
    """Gjul Bara (a turn of chained stages), a match (td1_bot weighs the score), a clock shorter than
    :data:`td2_bot.MIN_LIMIT_MS` and a referee without the native core go to td1_bot."""
    monkeypatch.setattr(td1_bot, "choose", lambda request: "td1")
    games = [("tabla", "tabla"), ("tapa", "tapa"), ("gjul-bara", "gjul-bara"), ("tabla-match", "tabla")]
    for game_id, variant in games:
        request = request_of(next(stages(variant, {}, 1, seed=1)), {}, game_id)
        answer = td2_bot.choose(request)
        if game_id not in td2_bot.SEARCHED or ACCELERATORS is None:
            assert answer == "td1"
        else:
            assert answer.comment.endswith("two rolls ahead")
            assert answer.action_id in {legal.id for legal in request.legal_actions}
            short = ClockInfo(10**6, 0, 10**6, td2_bot.MIN_LIMIT_MS - 1)
            assert td2_bot.choose(dataclasses.replace(request, clock=short)) == "td1"
            monkeypatch.setattr(td2_bot, "ACCELERATORS", None)
            assert td2_bot.choose(request) == "td1"
            monkeypatch.undo()
            monkeypatch.setattr(td1_bot, "choose", lambda request: "td1")
