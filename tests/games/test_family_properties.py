"""Properties of the three Tabla-family games over many seeded random games, and exactness of every legal-play
list against an independent brute-force enumerator."""

from __future__ import annotations

import pytest

from referee.games import PIN_MINE, PIN_THEIRS, make_game
from referee.games.engine import ENGINE, NATIVE
from referee.games.tabla_family._ends import (
    native_stage_ends,
    native_stage_plays,
    python_stage_ends,
    python_stage_plays,
)
from referee.games.tabla_family._movegen import Stage, count
from referee.playouts import random_decisions

from ._oracle import end_positions, engine_end

GAMES = ("tabla", "gjul-bara", "tapa")

GENERATORS = pytest.mark.parametrize(
    "stage_ends",
    [python_stage_ends, pytest.param(native_stage_ends, marks=pytest.mark.skipif(
        NATIVE is None, reason="the native core is not installed (test_the_native_core_is_built says so)"))],
    ids=["python", "native"],
)
"""The end generators the engines can run: each must list exactly the step generator's plays."""


def check_invariants(game_id: str, state) -> None:
    view = state.view(0)
    assert sum(view.mine) + view.my_off + view.my_bar == 15
    assert sum(view.theirs) + view.their_off + view.their_bar == 15
    for point in range(24):
        pin, mine, theirs = view.pins[point], view.mine[point], view.theirs[point]
        if pin == PIN_THEIRS:
            assert theirs == 1 and mine >= 1
        elif pin == PIN_MINE:
            assert mine == 1 and theirs >= 1
        else:
            assert not (mine and theirs), f"{game_id}: point {point + 1} shared without a pin"


GAMES_PLAYED = 1000 if ENGINE == "native" else 200
"""Random games of the invariants test: a fifth on the Python engines (the same rules, several times slower; the
suite runs on them too, tests/games/test_engine_choice.py)."""


@pytest.mark.parametrize("game_id", ["tabla", "gjul-bara", "tapa"])
def test_invariants_over_random_decisions(game_id):
    game = make_game(game_id)
    finished = 0
    for state, legal in random_decisions(game, GAMES_PLAYED, seed=11):
        check_invariants(game_id, state)
        if legal is None:
            finished += 1
            assert sum(state.outcome().points) <= 2
            continue
        plays = list(legal)
        assert plays == sorted(plays) and len({action.raw for action in plays}) == len(plays)
        assert [action.key for action in plays] == sorted({action.key for action in plays})
        if game_id == "gjul-bara":
            dice = state.view(state.current_player).dice
            assert len(set(dice)) == 1 or len(dice) == 2
    assert finished == GAMES_PLAYED


@pytest.mark.parametrize("game_id", GAMES)
def test_legal_plays_equal_the_oracle(game_id):
    game = make_game(game_id)
    checked = 0
    for index, (state, legal) in enumerate(random_decisions(game, 40, seed=5)):
        if legal is None or index % 2:
            continue
        mover = state.current_player
        view = state.view(mover)
        got = []
        for action in legal:
            trial = state.clone()
            trial.apply(action)
            got.append(engine_end(trial.view(mover)))
        assert len(got) == len(set(got)), "an end position is listed twice"
        assert set(got) == end_positions(view, view.dice), f"{state!r}"
        checked += 1
    assert checked > 300


ALL_DICE = [(high, low) for high in range(1, 7) for low in range(1, high)] + [
    (die,) * n for die in range(1, 7) for n in range(1, 5)
]


@GENERATORS
@pytest.mark.parametrize("game_id", GAMES)
def test_end_generator_equals_the_step_generator(game_id, stage_ends):
    """The fast end-position generator and the step generator list the same plays with the same dice count, for
    every dice of every stage size at positions of random games."""
    checked = 0
    for index, (state, legal) in enumerate(random_decisions(make_game(game_id), 6, seed=21)):
        if legal is None or index % 2:
            continue
        for dice in ALL_DICE:
            stage, board = state._stage(dice)
            plays, used = stage.plays(board)
            ends, ends_used = stage_ends(stage, board)
            assert (sorted(ends), ends_used) == (sorted(plays), used), f"{state!r} {dice}"  # each end once
            checked += 1
    assert checked > 5_000


@GENERATORS
def test_tapa_mother_stages_end_generator_equals_the_step_generator(stage_ends):
    """Where the opponent's mother can be pinned this turn the game may end before the 15th checker is off, so
    the end generator takes every order of the steps: it must still list exactly the step generator's plays."""
    checked = 0
    for state, legal in random_decisions(make_game("tapa"), 25, seed=31):
        if legal is None:
            continue
        for dice in ALL_DICE:
            stage, board = state._stage(dice)
            if stage.rule == -1:
                continue  # only the 15th checker off can end the game: not a mother stage
            plays, used = stage.plays(board)
            ends, ends_used = stage_ends(stage, board)
            assert (sorted(ends), ends_used) == (sorted(plays), used), f"{state!r} {dice}"
            checked += 1
    assert checked > 2_000


@GENERATORS
def test_tapa_stages_that_cannot_pin_the_mother_lose_no_play(stage_ends):
    """With one opposing checker left on its start, a stage is played order-free (as if only the 15th checker off
    could end the game) when no checker of the mover is on point 1 or can reach it, or when pinning the mother
    would not end the game (checkers left on the mover's own start, its own mother free): those stages must list
    exactly the plays of a stage that checks, after every step, whether the game ended."""

    def mother_rule(mother_pinned: bool):
        def ended(board: int) -> bool:  # 15 off, or the mother pinned with an empty start or both mothers pinned
            return board & 15 == 15 or bool((board >> 4) & 15 and (not (board >> 96) & 15 or mother_pinned))

        return ended

    order_free = checked = 0
    for state, legal in random_decisions(make_game("tapa"), 40, seed=41):
        if legal is None or count(state._boards[1 - state._turn], 24) != 1:
            continue
        pins = state._pins[state._turn]
        for dice in ALL_DICE:
            stage, board = state._stage(dice)
            every_step = Stage(dice, stage.closed, pins, stage.singles, stage.can_bear_off, mother_rule(pins >> 96 & 1))
            plays, used = every_step.plays(board)
            ends, ends_used = stage_ends(stage, board)
            assert (sorted(ends), ends_used) == (sorted(plays), used), f"{state!r} {dice}"
            order_free += stage.rule == -1
            checked += 1
    assert order_free > 1_000 and checked - order_free > 1_000


def test_tapa_strict_pins_equal_the_oracle():
    game = make_game("tapa", {"tapa.pinned_home_blocks_all": "true"})
    for index, (state, legal) in enumerate(random_decisions(game, 20, seed=9)):
        if legal is None or index % 3:
            continue
        view = state.view(state.current_player)
        got = set()
        for action in legal:
            trial = state.clone()
            trial.apply(action)
            got.add(engine_end(trial.view(state.current_player)))
        assert got == end_positions(view, view.dice, blocks_all=True)


@pytest.mark.parametrize("game_id", GAMES)
def test_same_seed_and_answers_give_the_same_game(game_id):
    game = make_game(game_id)
    first = [legal[0].raw if legal else None for _, legal in random_decisions(game, 5, seed=3)]
    second = [legal[0].raw if legal else None for _, legal in random_decisions(game, 5, seed=3)]
    assert first == second


@pytest.mark.parametrize("game_id", GAMES)
def test_chance_probabilities_sum_to_one(game_id):
    state = make_game(game_id).new_state()
    assert abs(sum(p for _, p in state.chance_outcomes()) - 1) < 1e-12
    state.apply(state.chance_outcomes()[1][0])
    assert abs(sum(p for _, p in state.chance_outcomes()) - 1) < 1e-12


def test_gjul_bara_ladder_stages_appear_and_are_exact():
    game = make_game("gjul-bara")
    stages = remainders = 0
    for state, legal in random_decisions(game, 80, seed=21):
        if legal is None:
            continue
        view = state.view(state.current_player)
        if view.later_stages or view.remainder:
            stages += 1
            remainders += view.remainder
            got = set()
            for action in legal:
                trial = state.clone()
                trial.apply(action)
                got.add(engine_end(trial.view(state.current_player)))
            assert got == end_positions(view, view.dice)
    assert stages > 15 and remainders > 0


@GENERATORS
def test_the_ends_come_in_increasing_order(stage_ends):
    """The engines list a stage's plays in the order of their end positions, straight from the generator."""
    for state, legal in random_decisions(make_game("tabla"), 3, seed=8):
        if legal is None:
            continue
        for dice in ALL_DICE:
            stage, board = state._stage(dice)
            ends, _ = stage_ends(stage, board)
            assert list(ends) == sorted(set(ends))


@pytest.mark.skipif(NATIVE is None, reason="the native core is not installed (test_the_native_core_is_built says so)")
@pytest.mark.parametrize("game_id", GAMES)
def test_native_plays_have_the_step_generators_steps(game_id):
    """The native core chooses the same steps for every end, and writes the same notation."""
    checked = 0
    for index, (state, legal) in enumerate(random_decisions(make_game(game_id), 6, seed=23)):
        if legal is None or index % 2:
            continue
        for dice in ALL_DICE:
            stage, board = state._stage(dice)
            assert native_stage_plays(stage, board) == python_stage_plays(stage, board), f"{state!r} {dice}"
            checked += 1
    assert checked > 5_000
