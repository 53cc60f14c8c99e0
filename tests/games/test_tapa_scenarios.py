"""Every scenario of rules/tabla.md §8.3 (Tapa), plus the opening throw of §5 and the stuck guard."""

from __future__ import annotations

import pytest

from referee.games import (
    CHANCE,
    PIN_MINE,
    PIN_NONE,
    PIN_THEIRS,
    IllegalActionError,
    OpeningThrow,
    Outcome,
    Roll,
    Tapa,
)

pytestmark = pytest.mark.usefixtures("engine")  # every test on both engines (conftest.py)

GAME = Tapa()
STRICT = Tapa({"tapa.pinned_home_blocks_all": "true"})


def notations(state) -> list[str]:
    return [action.notation() for action in state.legal_actions()]


def play(state, text: str) -> None:
    state.apply(GAME.parse_action(text, state))


def test_1_setup():
    view = GAME.new_state().view(0)
    assert view.mine[23] == 15 and sum(view.mine) == 15
    assert view.theirs[0] == 15 and sum(view.theirs) == 15


def test_2_pin_and_pinned_checker_cannot_move():
    state = GAME.position(0, {13: 2}, {10: 1}, dice=(3, 1))
    assert "13/10* 13/12" in notations(state) or "13/12 13/10*" in notations(state)
    play(state, "13/10* 13/12")
    view = state.view(0)
    assert view.pins[9] == PIN_THEIRS and view.theirs[9] == 1 and view.mine[9] == 1
    # Seat 1 sees its checker pinned on its 15 and no play ever moves it.
    assert state.view(1).pins[14] == PIN_MINE
    for high in range(1, 7):
        for low in range(1, high + 1):
            trial = state.clone()
            trial.apply(Roll(high, low))
            for action in trial.legal_actions():
                assert all(src != 15 for src, *_ in action.raw)


def test_3_stack_on_own_pin_and_opponent_cannot_land():
    state = GAME.position(0, {10: 1, 13: 1}, {10: 1, 4: 1}, pinned_theirs=(10,), dice=(3, 1))
    assert any("13/10" in n for n in notations(state))
    play(state, "13/10 10/9")
    # Now the opponent (seat 1) with checker on its 21 (my 4) rolls 6: its 15 (my 10) holds my pinner.
    state = GAME.position(0, {10: 2}, {10: 1, 4: 1}, pinned_theirs=(10,))
    state.apply(Roll(6, 6))
    assert state.current_player == 0  # seat 1 could not land on its 15: turn passed back
    assert state.view(0).pins[9] == PIN_THEIRS


def test_4_blocked_by_two():
    state = GAME.position(0, {13: 1}, {10: 2}, dice=(3, 1))
    assert all("/10" not in n for n in notations(state))


def test_5_release_and_keep():
    state = GAME.position(0, {10: 1}, {10: 1, 1: 1}, pinned_theirs=(10,), dice=(2, 1))
    play(state, "10/8 8/7")
    assert state.view(0).pins[9] == PIN_NONE
    # The freed checker can move again and can be pinned again.
    state.apply(Roll(2, 1))
    assert any(src == 15 for action in state.legal_actions() for src, *_ in action.raw)
    state = GAME.position(0, {10: 2}, {10: 1, 1: 1}, pinned_theirs=(10,), dice=(2, 1))
    play(state, "10/8 8/7")
    assert state.view(0).pins[9] == PIN_THEIRS


def test_6_pass_through_pins_and_releases():
    state = GAME.position(0, {20: 1}, {17: 1, 1: 1}, dice=(5, 3))
    action = GAME.parse_action("20/17* 17/12", state)
    state.apply(action)
    view = state.view(0)
    assert view.mine[11] == 1 and view.pins[16] == PIN_NONE and view.theirs[16] == 1


def test_7_intermediate_point_closed_by_a_pinner():
    state = GAME.position(0, {20: 1, 17: 1}, {17: 1, 1: 1}, pinned_mine=(17,), dice=(5, 3))
    with pytest.raises(IllegalActionError):
        GAME.parse_action("20/17 17/12", state)
    assert notations(state) == ["20/15 15/12"]


def test_8_mother_now():
    state = GAME.position(0, {3: 1, 13: 14}, {1: 1}, dice=(2, 5))
    assert "3/1*" in notations(state)
    assert any(len(action.raw) == 2 for action in state.legal_actions())
    play(state, "3/1*")
    assert state.is_terminal() and state.outcome() == Outcome("mother", (2, 0))


def test_9_mother_later():
    state = GAME.position(0, {24: 1, 3: 1, 13: 13}, {1: 1}, dice=(5, 2))
    assert "24/19 19/17" in notations(state)
    play(state, "3/1* 24/19")
    assert state.outcome() == Outcome("mother", (2, 0))


def test_9b_mother_pinned_but_own_start_not_empty_is_not_yet_a_win():
    state = GAME.position(0, {24: 2, 3: 1, 13: 12}, {1: 1, 20: 2}, dice=(5, 2))
    play(state, "3/1* 24/19")
    assert not state.is_terminal()


def test_10_both_mothers_draw():
    state = GAME.position(0, {24: 1, 3: 1, 13: 13}, {24: 1, 1: 1}, pinned_mine=(24,), dice=(2, 6))
    play(state, "3/1*")
    assert state.outcome() == Outcome("both_mothers", (0, 0))
    one_one = Tapa({"tapa.both_mothers": "draw_1_1"})
    state = one_one.position(0, {24: 1, 3: 1, 13: 13}, {24: 1, 1: 1}, pinned_mine=(24,), dice=(2, 6))
    state.apply(one_one.parse_action("3/1*", state))
    assert state.outcome() == Outcome("both_mothers", (1, 1))


def test_11_opponent_start_with_two_is_closed():
    state = GAME.position(0, {3: 1, 13: 14}, {1: 2}, dice=(2, 1))
    assert all(dst != 1 for action in state.legal_actions() for _, dst, *_ in action.raw)


def test_12_pinned_outside_home_blocks_bear_off():
    state = GAME.position(0, {9: 1, 6: 5, 5: 5, 4: 4}, {9: 1, 20: 1}, pinned_mine=(9,), dice=(6, 5))
    plays = state.legal_actions()
    assert plays and all(dst != 0 for action in plays for _, dst, *_ in action.raw)


def test_13_pinned_at_home():
    state = GAME.position(0, {5: 1, 3: 1, 2: 1}, {5: 1, 20: 1}, pinned_mine=(5,), dice=(6, 3))
    assert notations(state) == ["3/off"]
    strict = STRICT.position(0, {5: 1, 3: 1, 2: 1}, {5: 1, 20: 1}, pinned_mine=(5,), dice=(6, 3))
    assert strict.current_player == CHANCE and strict.view(0).turn == 1  # no play: the turn passed


@pytest.mark.parametrize(
    ("mine", "theirs", "pinned", "expected"),
    [
        ({13: 1, 7: 1}, {7: 1}, (7,), ["13/8 8/2"]),  # order matters (8.1 #5 with a pin as the block)
        ({13: 1, 2: 1}, {2: 1}, (2,), ["13/7"]),  # the larger die (8.1 #6)
        ({13: 1, 2: 1, 7: 1}, {2: 1, 7: 1}, (2, 7), ["13/8"]),  # only the smaller fits (8.1 #7)
    ],
)
def test_14_larger_die_and_maximisation_with_pins(mine, theirs, pinned, expected):
    state = GAME.position(0, mine, {**theirs, 20: 1}, pinned_mine=pinned, dice=(6, 5))
    assert notations(state) == expected


def test_15_scoring():
    state = GAME.position(0, {1: 1}, {20: 15}, dice=(3, 1))
    play(state, "1/off")
    assert state.outcome() == Outcome("mars", (2, 0))
    state = GAME.position(1, {1: 1}, {20: 1}, dice=(3, 1))
    # seat 1 bears off its last checker; seat 0 has borne off 14 → a normal win for seat 1.
    play(state, "1/off")
    assert state.outcome() == Outcome("normal", (0, 1))
    state = GAME.position(0, {13: 1}, {5: 2}, dice=(4, 4))
    assert notations(state) == ["13/9"]
    play(state, "13/9")
    assert state.current_player == CHANCE and state.view(0).turn == 1


def test_opening_throw_rethrow_and_fresh_roll():
    state = GAME.new_state()
    state.apply(OpeningThrow((4, 4)))
    assert state.current_player == CHANCE and len(state.chance_outcomes()) == 36
    state.apply(OpeningThrow((2, 6)))
    assert state.view(0).turn == 1
    assert len(state.chance_outcomes()) == 21  # a fresh two-dice roll, doubles included
    state.apply(Roll(3, 3))
    assert state.current_player == 1 and state.view(1).dice == (3, 3, 3, 3)


def test_stuck_guard_draws():
    game = Tapa({"stuck_limit": "1"})
    state = game.position(0, {13: 1}, {7: 2, 8: 2}, dice=(6, 5))
    assert state.outcome() == Outcome("stuck", (0, 0))


def test_stuck_counter_resets_when_a_checker_moves():
    game = Tapa({"stuck_limit": "2"})
    state = game.position(0, {13: 1}, {7: 2, 8: 2, 24: 1}, dice=(6, 5))  # no play: 1 roll without a move
    state.apply(Roll(1, 1))  # seat 1 moves its checker: the count starts again
    assert state.current_player == 1
    play(state, state.legal_actions()[0].notation())
    state.apply(Roll(6, 5))  # seat 0 is stuck again: 1 roll, not 2
    assert not state.is_terminal()


def test_views_at_terminal_and_bad_seat():
    state = GAME.position(0, {1: 1}, {20: 1}, dice=(3, 1))
    play(state, "1/off")
    assert state.view(1).turn == -1
    with pytest.raises(ValueError):
        state.view(2)
