"""Properties of Tapa over many seeded random games, and exactness of the legal plays against an oracle."""

from __future__ import annotations

import random

from referee.games import CHANCE, PIN_MINE, PIN_THEIRS, Tapa
from referee.runtime import draw_chance

from ._tapa_oracle import end_positions

GAME = Tapa()


def random_games(count: int, seed: int, game: Tapa = GAME):
    """Yield (state, legal actions) at every decision of ``count`` random games, and the final states."""
    rng = random.Random(seed)
    for _ in range(count):
        state = game.new_state()
        while not state.is_terminal():
            if state.current_player == CHANCE:
                state.apply(draw_chance(state.chance_outcomes(), rng))
                continue
            legal = state.legal_actions()
            yield state, legal
            state.apply(legal[rng.randrange(len(legal))])
        yield state, None


def check_invariants(state) -> None:
    view = state.view(0)
    assert sum(view.mine) + view.my_off == 15
    assert sum(view.theirs) + view.their_off == 15
    for point in range(24):
        pin, mine, theirs = view.pins[point], view.mine[point], view.theirs[point]
        if pin == PIN_THEIRS:
            assert theirs == 1 and mine >= 1
        elif pin == PIN_MINE:
            assert mine == 1 and theirs >= 1
        else:
            assert not (mine and theirs), f"point {point + 1} shared without a pin"


def test_invariants_over_two_thousand_random_games():
    finished = 0
    for state, legal in random_games(2000, seed=11):
        check_invariants(state)
        if legal is None:
            finished += 1
            assert sum(state.outcome().points) <= 2
            continue
        keys = [action.raw for action in legal]
        assert keys == sorted(keys) and len(set(keys)) == len(keys)
    assert finished == 2000


def test_legal_plays_equal_the_oracle():
    checked = 0
    for index, (state, legal) in enumerate(random_games(60, seed=5)):
        if legal is None or index % 2:
            continue
        mover = state.current_player
        view = state.view(mover)
        expected = end_positions(view, view.dice)
        got = []
        for action in legal:
            trial = state.clone()
            trial.apply(action)
            after = trial.view(mover)
            got.append((after.my_off, *after.mine))
        assert len(got) == len(set(got)), "an end position is listed twice"
        assert set(got) == expected, f"{state!r}"
        checked += 1
    assert checked > 500


def test_legal_plays_equal_the_oracle_with_strict_pins():
    strict = Tapa({"tapa.pinned_home_blocks_all": "true"})
    for index, (state, legal) in enumerate(random_games(20, seed=9, game=strict)):
        if legal is None or index % 3:
            continue
        view = state.view(state.current_player)
        got = set()
        for action in legal:
            trial = state.clone()
            trial.apply(action)
            after = trial.view(state.current_player)
            got.add((after.my_off, *after.mine))
        assert got == end_positions(view, view.dice, blocks_all=True)


def test_same_seed_and_answers_give_the_same_game():
    first = [a.raw if a else None for _, a_list in random_games(5, seed=3) for a in [a_list[0] if a_list else None]]
    second = [a.raw if a else None for _, a_list in random_games(5, seed=3) for a in [a_list[0] if a_list else None]]
    assert first == second


def test_chance_probabilities_sum_to_one():
    state = GAME.new_state()
    assert abs(sum(p for _, p in state.chance_outcomes()) - 1) < 1e-12
    state.apply(state.chance_outcomes()[1][0])
    assert abs(sum(p for _, p in state.chance_outcomes()) - 1) < 1e-12
