"""The Gaps solver: the native search and its Python twin search the same positions in the same order, its wins
play out as wins in the engine, and every deal it calls lost is re-checked by an independent exhaustive search over
the engine's own legal moves."""

from __future__ import annotations

import random

import pytest

from bots.python.gaps_search_bot import GapsPlayer, layout_of
from bots.python.gaps_solver import Layout, plan, python_solve, solve
from referee.games import CHANCE, make_game
from referee.games.cards._cards import parse_card
from referee.games.cards.gaps import GapsState
from referee.games.engine import ACCELERATORS

native_only = pytest.mark.skipif(ACCELERATORS is None, reason="the native core is not installed")


def dealt(seed: int, options: dict[str, str] | None = None) -> GapsState:
    """The first deal of seed ``seed``, as the referee deals it."""
    game = make_game("gaps", {"deals": "1", **(options or {})})
    rng, state = random.Random(seed), game.new_state()
    while state.current_player == CHANCE:
        state.apply(state.sample_chance(rng))
    return state


def grid_and_layout(state: GapsState) -> tuple[list[int], Layout]:
    view = state.view(0)
    return list(view.grid), layout_of(view)


def winnable(state: GapsState) -> tuple[bool, int]:
    """Whether any line of moves wins the round, by a plain breadth-first search over every grid reachable with
    the engine's legal moves (no pruning, no symmetry, no ordering), and how many grids it saw."""
    seen = {state.view(0).grid}
    frontier = [state]
    while frontier:
        following = []
        for position in frontier:
            for action in position.legal_actions():
                if action.ends_round:
                    continue
                after = position.clone()
                after.apply(action)
                if after.is_terminal() and after.outcome().termination == "win":
                    return True, len(seen)
                grid = after.view(0).grid
                if grid not in seen:
                    seen.add(grid)
                    following.append(after)
        frontier = following
    return False, len(seen)


def play_out(state: GapsState, line: list[tuple[int, int, int]]) -> GapsState:
    for card, src, dst in line:
        legal = [a for a in state.legal_actions() if (a.card, a.src, a.dst) == (card, src, dst)]
        assert legal, f"{card} {src}>{dst} is not legal"
        state.apply(legal[0])
    return state


@native_only
@pytest.mark.parametrize("variant", ["montana", "blue_moon", "red_moon", "paganini"])
def test_the_native_search_and_its_python_twin_agree(variant):
    """The same status, cards in place, line and count of positions, at every level, on seeded deals."""
    for seed in range(4):
        grid, layout = grid_and_layout(dealt(seed, {"variant": variant}))
        for level in range(4):
            python = python_solve(layout, grid, level, 60, 3_000, 1_000)
            assert solve(layout, grid, level, 60, 3_000, 1_000) == python, (seed, level)


@native_only
def test_a_move_cap_and_a_small_table_stop_the_search_without_a_proof():
    grid, layout = grid_and_layout(dealt(5))  # a lost deal: the complete search sees 19,882 positions
    assert solve(layout, grid, 3, 60, 10**9, 1_000).status == "exhausted"
    assert solve(layout, grid, 3, 60, 10**9, 1_000, table=1_000).status == "stopped"
    assert solve(layout, grid, 3, 60, 10**9, 5).status == "stopped"
    assert python_solve(layout, grid, 3, 60, 10**9, 5).status == "stopped"


def test_a_won_plan_wins_in_the_engine():
    state = dealt(0)
    grid, layout = grid_and_layout(state)
    found = plan(layout, grid, seconds=60, nodes=200_000, moves=1_000)
    assert found.status == "won" and found.placed == 48
    after = play_out(state, found.line)
    assert after.is_terminal() and after.outcome().termination == "win"


@pytest.mark.parametrize("seed", [5, 107, 243, 286, 305])
def test_every_deal_called_lost_is_lost(seed):
    """A sample of the seeded deals the solver proves lost (each found in seeds 0-399), re-checked by a plain
    exhaustive search over the engine's legal moves; the solver's best line is also what it says."""
    state = dealt(seed)
    grid, layout = grid_and_layout(state)
    found = plan(layout, grid, seconds=120, nodes=10**9, moves=1_000)
    assert found.status == "exhausted"
    complete = solve(layout, grid, 3, 120, 10**9, 1_000)  # the level whose exhaustion is the proof
    assert winnable(state) == (False, complete.nodes + 1)  # the same positions, and the deal itself
    assert sum(play_out(state.clone(), found.line).view(0).runs) == found.placed


def test_a_win_needing_a_first_card_moved_is_found_by_the_later_levels():
    """Row 2's 2S is the only card in place in its row; the only win moves it to row 0's first column, where 3S
    waits, and the likely moves alone (a card in place never moves) never try that."""
    game = make_game("gaps", {"deals": "1"})
    rows = [
        [None, "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS", None],
        ["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "JH", "QH", "KH", None],
        ["2S", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "TD", "JD", "QD", "KD", None],
        ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "2D"],
    ]
    state = game.position(rows)
    grid, layout = grid_and_layout(state)
    assert solve(layout, grid, 0, 60, 10**6, 1_000).status == "exhausted"
    found = plan(layout, grid, seconds=60, nodes=10**6, moves=1_000)
    assert found.status == "won"
    assert play_out(state, found.line).outcome().termination == "win"
    assert found.placed == 48 and found.line[0] == (parse_card("2S"), 26, 0)


@native_only
def test_a_bad_grid_is_refused_with_a_reason():
    with pytest.raises(ValueError, match="places"):
        ACCELERATORS.gaps_solve([0, 1, 2], 4, 13, 12, False, 0, 1.0, 10, 10, 10)
    with pytest.raises(ValueError, match="level"):
        ACCELERATORS.gaps_solve([-1] * 52, 4, 13, 12, False, 7, 1.0, 10, 10, 10)


def test_a_round_proved_lost_is_planned_once_and_played_to_its_best():
    """After a plan that saw every position of the round, the bot ends the round when the plan is played out
    instead of searching again from where it ended (deal 305's best line ends with moves left)."""
    state = dealt(305)
    player = GapsPlayer(nodes=10**7)
    plans = []
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply(legal[player.decide(state.view(0), legal, seconds=60)])
        if player.found is not None:
            plans.append(player.found)
    assert [found.status for found in plans] == ["exhausted"]
    assert state.outcome().points == (plans[0].placed,)
