"""Every scenario of rules/tabla.md §8.2 (Gjul Bara), the doubles ladder included."""

from __future__ import annotations

import pytest

from referee.games import CHANCE, GjulBara, Outcome, Roll

pytestmark = pytest.mark.usefixtures("engine")  # every test on both engines (conftest.py)

GAME = GjulBara()


def notations(state) -> list[str]:
    return [action.notation() for action in state.legal_actions()]


def play(state, text: str) -> None:
    state.apply(GAME.parse_action(text, state))


def test_1_setup_diagonal_corners():
    view = GAME.new_state().view(0)
    assert view.mine[23] == 15 and view.theirs[11] == 15
    assert GjulBara.theirs_to_mine(24) == 12 and GjulBara.theirs_to_mine(1) == 13


def test_2_first_roll_six_six():
    state = GAME.position(0, {24: 15}, {12: 15}, dice=(6, 6), rolls=(0, 0))
    assert notations(state) == ["24/18 24/18 24/18 24/18"]
    assert state.view(0).later_stages == ()


def test_3_a_single_checker_holds_a_point():
    state = GAME.position(0, {13: 1}, {10: 1}, dice=(3, 2))
    assert notations(state) == ["13/11 11/8"]
    state = GAME.position(0, {13: 1}, {10: 1, 11: 1}, dice=(3, 2))
    assert state.current_player == CHANCE and state.view(0).turn == 1


def test_4_opponent_start_closed_by_one_checker():
    state = GAME.position(0, {16: 1}, {12: 1}, dice=(4, 1))
    assert all("/12" not in n for n in notations(state))


def test_5_ladder_timing_is_per_player():
    third = GAME.position(0, {24: 15}, {12: 15}, dice=(2, 2), rolls=(2, 9))
    assert third.view(0).dice == (2, 2, 2, 2) and third.view(0).later_stages == ()
    fourth = GAME.position(0, {24: 15}, {12: 15}, dice=(2, 2), rolls=(3, 0))
    assert fourth.view(0).later_stages == (3, 4, 5, 6)
    three = GjulBara({"gjul.ladder_from_roll": "3"}).position(0, {24: 15}, {12: 15}, dice=(2, 2), rolls=(2, 0))
    assert three.view(0).later_stages == (3, 4, 5, 6)
    shared = GjulBara({"gjul.ladder_count": "global"}).position(0, {24: 15}, {12: 15}, dice=(2, 2), rolls=(1, 2))
    assert shared.view(0).later_stages == (3, 4, 5, 6)


def test_6_ladder_lengths():
    six = GAME.position(0, {24: 15}, {12: 15}, dice=(6, 6), rolls=(5, 5))
    assert six.view(0).later_stages == ()
    one = GAME.position(0, {24: 15}, {12: 15}, dice=(1, 1), rolls=(5, 5))
    assert one.view(0).later_stages == (2, 3, 4, 5, 6)
    pips = 0
    while one.current_player == 0:
        action = one.legal_actions()[0]
        pips += sum(die for _, _, die, _ in action.raw)
        one.apply(action)
    assert pips == 84


def test_7_stage_independence():
    # Stage 1 (four 5s) is fully playable; every stage-1 play is listed even if it leaves four 6s unplayable.
    state = GAME.position(0, {24: 4, 10: 11}, {12: 1, 14: 1, 6: 1}, dice=(5, 5), rolls=(4, 4))
    assert state.view(0).later_stages == (6,)
    assert all(len(action.raw) == 4 for action in state.legal_actions())


def test_8_remainder_passes_to_the_opponent():
    state = GAME.position(0, {24: 1, 3: 14}, {14: 1, 20: 14}, dice=(5, 5), rolls=(4, 4))
    assert notations(state) == ["24/19"]
    play(state, "24/19")
    view = state.view(1)
    assert state.current_player == 1 and view.remainder and view.dice == (5, 5, 5) and view.later_stages == (6,)
    assert view.rolls == (5, 4)
    state.apply(state.legal_actions()[0])
    view = state.view(1)
    assert state.current_player == 1 and view.remainder and view.dice == (6, 6, 6, 6)
    state.apply(state.legal_actions()[0])
    assert state.current_player == CHANCE and state.view(1).turn == 1 and not state.view(1).remainder
    state.apply(Roll(2, 1))
    assert state.view(1).rolls == (5, 5)


def test_9_unstarted_chain_is_lost():
    state = GAME.position(0, {24: 1, 3: 14}, {19: 1, 20: 14}, dice=(5, 5), rolls=(3, 4))
    assert state.current_player == CHANCE and state.view(0).turn == 1 and not state.view(1).remainder


def test_10_partial_first_stage():
    state = GAME.position(0, {12: 1, 1: 14}, {3: 1, 20: 14}, dice=(3, 3), rolls=(4, 4))
    assert notations(state) == ["12/9 9/6"]
    play(state, "12/9 9/6")
    view = state.view(1)
    assert view.remainder and view.dice == (3, 3) and view.later_stages == (4, 5, 6)


def test_11_receiver_fails_a_stage_and_goes_on():
    # Seat 1 receives [5, 5, 5] + [6, 6, 6, 6]; none of its 5s can be played (lost), the 6s still come.
    state = GAME.position(0, {24: 1, 18: 1, 3: 13}, {14: 1, 13: 1, 23: 1}, dice=(5, 5), rolls=(4, 4))
    assert notations(state) == ["24/19"]
    play(state, "24/19")
    view = state.view(1)
    assert state.current_player == 1 and view.remainder and view.dice == (6, 6, 6, 6)
    while state.current_player == 1:
        state.apply(state.legal_actions()[0])
    # Nothing bounced back to seat 0: seat 1 now rolls its own turn (unless it already won).
    assert state.is_terminal() or (state.current_player == CHANCE and state.view(0).turn == 1)


def test_12_early_double_partial_is_lost():
    state = GAME.position(0, {13: 1}, {5: 1, 20: 14}, dice=(4, 4), rolls=(1, 1))
    assert notations(state) == ["13/9"]
    play(state, "13/9")
    assert state.current_player == CHANCE and state.view(0).turn == 1 and not state.view(1).remainder


def test_13_full_prime_is_legal_and_shuts_the_opponent_in():
    mine = {24: 9, 11: 1, 10: 1, 9: 1, 8: 1, 7: 1, 6: 1}
    for high in range(1, 7):
        for low in range(1, high + 1):
            state = GAME.position(1, {24: 15}, {12: 9, 23: 1, 22: 1, 21: 1, 20: 1, 19: 1, 18: 1}, dice=(high, low))
            assert state.current_player == CHANCE, (high, low)
    state = GAME.position(0, mine, {12: 15})
    assert state.view(0).mine[5:11] == (1, 1, 1, 1, 1, 1)


def test_14_ladder_in_bear_off_ends_at_the_fifteenth():
    state = GAME.position(0, {2: 3, 3: 4, 4: 4, 5: 4}, {12: 15}, dice=(2, 2), rolls=(4, 4))
    while state.current_player == 0:  # each stage bears off as many checkers as it can
        state.apply(max(state.legal_actions(), key=lambda action: sum(dst == 0 for _, dst, _, _ in action.raw)))
    assert state.outcome() == Outcome("mars", (2, 0))


def test_15_remainder_can_win_for_the_receiver():
    state = GAME.position(0, {24: 1, 3: 14}, {14: 1, 6: 0}, dice=(5, 5), rolls=(4, 4))
    # Seat 1 has one checker left, on its 2 (my 14): the passed 5s bear it off.
    play(state, "24/19")
    state.apply(state.legal_actions()[0])
    assert state.outcome() == Outcome("mars", (0, 2))


def test_16_mars():
    state = GAME.position(0, {1: 1}, {20: 15}, dice=(2, 1))
    play(state, "1/off")
    assert state.outcome() == Outcome("mars", (2, 0))


def test_remainder_lost_option():
    lost = GjulBara({"gjul.remainder": "lost"})
    state = lost.position(0, {24: 1, 3: 14}, {14: 1, 20: 14}, dice=(5, 5), rolls=(4, 4))
    state.apply(lost.parse_action("24/19", state))
    assert state.current_player == CHANCE and state.view(0).turn == 1
