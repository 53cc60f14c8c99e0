"""The Tabla family's states run by the native core are the Python states' games: seeded games played through both
side by side give the same seat to act, legal plays (end positions, notations, steps), views of both seats and
outcomes at every step, for every game and option set; and the native state keeps the State contract (copies,
positions, parsing, one-line errors)."""

from __future__ import annotations

import random

import pytest

from referee.games import CHANCE, IllegalActionError, make_game
from referee.games.engine import NATIVE
from referee.games.tabla_family._dice import OpeningThrow, Roll
from referee.games.tabla_family._native import NativeState
from referee.games.tabla_family._plays import Play
from referee.wire._convert import _backgammon_view_to_proto

from ._differential import play_along
from .test_playouts import OPTION_SETS

pytestmark = pytest.mark.skipif(NATIVE is None, reason="the native core is not installed")

FAMILY_SETS = [(g, o, max(4, n // 10)) for g, o, n in OPTION_SETS if g != "durak"]


def _same_step(native, python) -> None:
    assert native.current_player == python.current_player
    assert native.is_terminal() == python.is_terminal()
    for seat in (0, 1):
        (view, record), reference = native.view_and_record(seat), python.view(seat)
        assert view == reference == native.view(seat)
        # the wire record the core made with the view is the library's encoding of the reference's view (a match's
        # view at its end, its score changed, has none)
        assert record is not None or native.is_terminal()
        assert record in (None, _backgammon_view_to_proto(reference).SerializeToString())
    assert native.chance_outcomes() == python.chance_outcomes()
    mine, theirs = native.legal_actions(), python.legal_actions()
    assert [p.key for p in mine] == [p.key for p in theirs]
    assert [p.notation() for p in mine] == [p.notation() for p in theirs]
    assert [p.raw for p in mine] == [p.raw for p in theirs]


@pytest.mark.parametrize(("game_id", "options", "count"), FAMILY_SETS,
                         ids=[f"{g}-{'-'.join(o.values()) or 'default'}" for g, o, _ in FAMILY_SETS])
def test_native_states_play_the_python_states_games(game_id, options, count):
    game = make_game(game_id, options)
    rng = random.Random(f"{game_id}{options}")
    for _ in range(count):
        play_along(game.new_state(), game.reference().new_state(), rng, _same_step)


def test_the_native_state_is_the_default_and_the_reference_is_python():
    game = make_game("tapa")
    assert isinstance(game.new_state(), NativeState)
    assert not isinstance(game.reference().new_state(), NativeState)
    match = make_game("tabla-match").reference().new_state()
    assert not isinstance(match._sub, NativeState)


def test_a_copy_is_independent_and_a_listed_play_applies_to_it():
    state = make_game("tabla").new_state(starter=0)
    state.apply(Roll(6, 5))
    copy = state.clone()
    play = state.legal_actions()[0]
    copy.apply(play)
    assert state.current_player == 0 and copy.current_player == CHANCE
    assert state.view(0) != copy.view(0)
    state.apply(play)
    assert state.view(0) == copy.view(0)


def test_positions_plays_by_steps_and_parsing_match_the_python_state():
    for game in (make_game("tabla"), make_game("tabla").reference()):
        state = game.position(0, {13: 2}, {10: 1}, dice=(3, 1))
        assert [a.notation() for a in state.legal_actions()] == ["13/12 12/9", "13/10* 13/12", "13/10* 10/9"]
        parsed = game.parse_action("13/12 13/10*", state)
        assert parsed.notation() == "13/10* 13/12"
        state.apply(Play(((13, 10, 3, True), (10, 9, 1, False))))  # a play read from the wire, matched by steps
        assert state.view(0).mine[8] == 1 and state.view(1).my_bar == 1


@pytest.mark.parametrize("game_id", ["tabla", "gjul-bara", "tapa"])
def test_wrong_actions_get_the_python_states_one_line_errors(game_id):
    errors = []
    for game in (make_game(game_id), make_game(game_id).reference()):
        state = game.new_state(starter=1)
        messages = []
        for action in (OpeningThrow((3, 1)), Play(((24, 21, 3, False),))):
            with pytest.raises(IllegalActionError) as caught:
                state.apply(action)
            messages.append(str(caught.value))
        state.apply(Roll(2, 1))
        with pytest.raises(IllegalActionError) as caught:
            state.apply(Play(((6, 1, 5, False),)))
        messages.append(str(caught.value))
        with pytest.raises(ValueError, match="^the game is not over$"):
            state.outcome()
        errors.append(messages)
    assert errors[0] == errors[1]
    assert all("\n" not in message for message in errors[0])
