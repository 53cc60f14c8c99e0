"""The Tabla match: every scenario of rules/tabla.md §8.4, options, and properties over random matches."""

from __future__ import annotations

import random

import pytest

from referee.games import CHANCE, TERMINAL, OpeningThrow, Outcome, Roll, Tapa, make_game

pytestmark = pytest.mark.usefixtures("engine")  # every test on both engines (conftest.py)

MATCH = make_game("tabla-match")


def finish_game(state, rng):
    """Play the current game of ``state`` to its end with random moves; return its number."""
    number = state.game_number
    while state.game_number == number and not state.is_terminal():
        if state.current_player == CHANCE:
            state.apply(state.sample_chance(rng))
        else:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    return number


def random_match(seed: int, match=MATCH):
    rng = random.Random(seed)
    state = match.new_state()
    while not state.is_terminal():
        finish_game(state, rng)
    return state


def test_1_rotation_whatever_the_results():
    expected = ["tabla", "gjul-bara", "tapa"] * 20
    longest = 0
    for seed in range(60):
        state = random_match(seed, make_game("tabla-match", {"match.target": "7"}))
        games = [game_id for game_id, _ in state.outcome().games]
        assert games == expected[: len(games)]
        longest = max(longest, len(games))
    assert longest >= 7


def test_2_opening_throw_rethrow_then_fresh_roll():
    state = MATCH.new_state()
    state.apply(OpeningThrow((4, 4)))
    assert len(state.chance_outcomes()) == 36
    state.apply(OpeningThrow((6, 2)))
    assert len(state.chance_outcomes()) == 21 and state.view(0).turn == 0
    state.apply(Roll(5, 5))
    assert state.current_player == 0 and state.view(0).dice == (5, 5, 5, 5)


def test_3_game_two_starts_with_the_winner_rolling():
    rng = random.Random(1)
    state = MATCH.new_state()
    finish_game(state, rng)
    winner = state.completed_games()[0][1].winner
    assert state.game_number == 2 and state.current_game == "gjul-bara"
    assert len(state.chance_outcomes()) == 21  # a roll, not an opening throw
    assert state.view(0).turn == winner


def test_4_after_a_tapa_draw_the_next_game_opens_with_a_throw():
    tapa = MATCH.games["tapa"]
    sub = tapa.position(0, {24: 1, 3: 1, 13: 13}, {24: 1, 1: 1}, pinned_mine=(24,), dice=(2, 6))
    state = MATCH.position(3, (2, 1), sub)
    state.apply(MATCH.parse_action("3/1*", state))
    assert state.completed_games()[-1] == ("tapa", Outcome("both_mothers", (0, 0)))
    assert state.game_number == 4 and state.current_game == "tabla"
    assert len(state.chance_outcomes()) == 36 and state.view(0).turn == -1


def test_5_a_mars_at_three_four_ends_the_match_at_once():
    tabla = MATCH.games["tabla"]
    sub = tabla.position(1, {1: 1}, {20: 15}, dice=(3, 1))
    state = MATCH.position(7, (3, 4), sub)
    state.apply(MATCH.parse_action("1/off", state))
    assert state.current_player == TERMINAL
    assert state.outcome().points == (3, 6) and state.outcome().termination == "match"
    assert state.view(0).match.points == (3, 6)


def test_6_counters_and_pins_never_carry_over():
    rng = random.Random(4)
    state = MATCH.new_state()
    while state.game_number < 4 and not state.is_terminal():
        finish_game(state, rng)
        view = state.view(0)
        if not state.is_terminal():
            assert view.rolls == (0, 0) and view.later_stages == () and not view.remainder
            assert set(view.pins) == {0}
            assert view.match.game_number == state.game_number


def test_matches_end_at_or_above_the_target_with_one_leader():
    for target in ("3", "5", "7"):
        match = make_game("tabla-match", {"match.target": target})
        for seed in range(30):
            points = random_match(seed, match).outcome().points
            assert max(points) >= int(target) and points[0] != points[1]
            assert sum(o.points[0] for _, o in random_match(seed, match).outcome().games) == points[0]


def test_view_carries_score_and_game():
    rng = random.Random(2)
    state = MATCH.new_state()
    finish_game(state, rng)
    view = state.view(1)
    assert view.match.points == tuple(sum(o.points[s] for _, o in state.completed_games()) for s in (0, 1))
    assert view.match.target == 5 and view.match.current_game == "gjul-bara" and view.variant == "gjul-bara"


def test_use_opening_dice_option():
    match = make_game("tabla-match", {"match.opening": "use_opening_dice"})
    state = match.new_state()
    state.apply(OpeningThrow((2, 5)))
    assert state.current_player == 1 and state.view(1).dice == (5, 2)


def test_both_mothers_one_one_needs_a_lead():
    match = make_game("tabla-match", {"tapa.both_mothers": "draw_1_1"})
    sub = match.games["tapa"].position(0, {24: 1, 3: 1, 13: 13}, {24: 1, 1: 1}, pinned_mine=(24,), dice=(2, 6))
    state = match.position(3, (4, 4), sub)
    state.apply(match.parse_action("3/1*", state))
    assert not state.is_terminal() and state.view(0).match.points == (5, 5)


def test_options_pass_to_the_games():
    match = make_game("tabla-match", {"gjul.remainder": "lost", "tapa.pinned_home_blocks_all": "true"})
    assert match.games["gjul-bara"].remainder_to_opponent is False
    assert isinstance(match.games["tapa"], Tapa) and match.games["tapa"].blocks_all
    with pytest.raises(ValueError):
        make_game("tabla-match", {"match.target": "4"})
