"""Every scenario of rules/tabla.md §8.1 (Tabla)."""

from __future__ import annotations

import pytest

from referee.games import CHANCE, Outcome, Roll, Tabla
from referee.games.tabla_family._native import NativeState

pytestmark = pytest.mark.usefixtures("engine")  # every test on both engines (conftest.py)

GAME = Tabla()
BAR = 25


def notations(state) -> list[str]:
    return [action.notation() for action in state.legal_actions()]


def play(state, text: str) -> None:
    state.apply(GAME.parse_action(text, state))


def test_setup():
    view = GAME.new_state().view(0)
    assert {p + 1: n for p, n in enumerate(view.mine) if n} == {24: 2, 13: 5, 8: 3, 6: 5}
    assert {p + 1: n for p, n in enumerate(view.theirs) if n} == {1: 2, 12: 5, 17: 3, 19: 5}


def test_1_hit_and_hit_and_run():
    state = GAME.position(0, {13: 2}, {10: 1}, dice=(3, 1))
    assert {"13/10* 13/12", "13/10* 10/9", "13/12 12/9"} <= set(notations(state))
    trial = state.clone()
    play(trial, "13/10* 10/9")
    assert trial.view(1).my_bar == 1 and trial.view(0).theirs[9] == 0
    trial = state.clone()
    play(trial, "13/12 12/9")
    assert trial.view(1).my_bar == 0 and trial.view(0).theirs[9] == 1


def test_2_bar_first():
    state = GAME.position(0, {BAR: 1, 13: 5}, {19: 2}, dice=(6, 5))
    assert sorted(notations(state)) == ["bar/20 13/7", "bar/20 20/14"]


def test_3_closed_board_passes_for_every_roll():
    theirs = {p: 2 for p in range(19, 25)}
    for high in range(1, 7):
        for low in range(1, high + 1):
            state = GAME.position(0, {BAR: 1, 13: 5}, theirs)
            state.apply(Roll(high, low))
            assert state.current_player == CHANCE and state.view(0).turn == 1


def test_4_two_on_the_bar_one_entry():
    state = GAME.position(0, {BAR: 2, 13: 5}, {19: 2}, dice=(6, 5))
    assert notations(state) == ["bar/20"]


def test_5_order_matters():
    assert notations(GAME.position(0, {13: 1}, {7: 2}, dice=(6, 5))) == ["13/8 8/2"]


def test_6_larger_die():
    assert notations(GAME.position(0, {13: 1}, {2: 2}, dice=(6, 5))) == ["13/7"]


def test_7_smaller_only():
    assert notations(GAME.position(0, {13: 1}, {2: 2, 7: 2}, dice=(6, 5))) == ["13/8"]


def test_8_bear_off_end_positions():
    state = GAME.position(0, {6: 1, 3: 1, 2: 1}, {20: 1}, dice=(6, 3))
    ends = set()
    for action in state.legal_actions():
        trial = state.clone()
        trial.apply(action)
        ends.add(tuple(trial.view(0).mine[:6]))
    assert ends == {(0, 1, 0, 0, 0, 0), (0, 1, 1, 0, 0, 0)}


def test_9_not_home_then_home_in_the_same_turn():
    state = GAME.position(0, {7: 1, 2: 1}, {20: 1}, dice=(2, 1))
    assert "7/6 2/off" in notations(state)
    for action in state.legal_actions():
        steps = [(s, d) for s, d, _, _ in action.raw]
        if any(d == 0 for _, d in steps):
            assert steps[0] == (7, 6)


def test_10_last_checker_mid_roll():
    state = GAME.position(0, {2: 1}, {20: 1}, dice=(6, 1))
    assert notations(state) == ["2/off"]
    play(state, "2/off")
    assert state.outcome() == Outcome("normal", (1, 0))


def test_11_hit_during_bear_off_enter_first():
    state = GAME.position(0, {BAR: 1, 6: 3}, {1: 1}, dice=(6, 5))
    plays = state.legal_actions()
    assert plays and all(d != 0 for action in plays for _, d, _, _ in action.raw)
    assert all(action.raw[0][0] == BAR for action in plays)


def test_12_scoring_mars_is_2_even_with_a_checker_on_the_bar():
    state = GAME.position(0, {1: 1}, {BAR: 1, 20: 14}, dice=(3, 1))
    play(state, "1/off")
    assert state.outcome() == Outcome("mars", (2, 0))
    state = GAME.position(0, {1: 1}, {BAR: 1, 20: 13}, dice=(3, 1))
    play(state, "1/off")
    assert state.outcome() == Outcome("normal", (1, 0))


def test_13_partial_double():
    state = GAME.position(0, {13: 1}, {5: 2}, dice=(4, 4))
    assert notations(state) == ["13/9"]
    play(state, "13/9")
    assert state.current_player == CHANCE and state.view(0).turn == 1


def test_hit_checker_enters_on_the_opponents_side():
    state = GAME.position(0, {13: 2}, {10: 1, 20: 2}, dice=(3, 1))
    play(state, "13/10* 13/12")
    state.apply(Roll(2, 1))  # seat 1 must enter: bar/23 or bar/24 in its numbering
    assert all(action.raw[0][0] == BAR for action in state.legal_actions())


def test_the_states_are_those_of_the_engine_of_the_run(engine):
    assert isinstance(GAME.new_state(), NativeState) == (engine == "native")
    assert isinstance(Tabla().on(engine).new_state(), NativeState) == (engine == "native")
