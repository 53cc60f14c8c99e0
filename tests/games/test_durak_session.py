"""Durak sessions (rules/cards.md §1.7): who starts later deals, the session score, views and replays."""

from __future__ import annotations

import random

import pytest

from referee.games import CHANCE, make_game
from referee.games.cards.durak_session import lost
from referee.replay import ReplayWriter, read_replay, verify
from referee.runtime import Clock, LocalPlayer, play_game

pytestmark = pytest.mark.usefixtures("engine")  # every test on both engines (conftest.py)


def play_deal(state, rng):
    """Play the current deal out at random; return the first (attacker, defender) of the next deal, if any."""
    number = state.game_number
    while not state.is_terminal() and state.game_number == number:
        if state.current_player == CHANCE:
            state.apply(state.sample_chance(rng))
        else:
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
    while state.current_player == CHANCE:
        state.apply(state.sample_chance(rng))
    if state.is_terminal():
        return None
    view = state.view(0)
    return view.attacker, view.defender


@pytest.mark.parametrize(("start", "shift"), [("under_fool", -1), ("from_under_fool", 1)])
def test_later_deals_start_at_the_last_durak(start, shift):
    game = make_game("durak", {"seats": "3", "deals": "6", "session_start": start})
    state = game.new_state()
    rng = random.Random(3)
    checked = 0
    while not state.is_terminal():
        first = play_deal(state, rng)
        if first is None:
            break
        last = state.completed_games()[-1][1]
        losers = [seat for seat in range(3) if lost(last, seat)]
        if len(losers) == 1:
            attacker = (losers[0] + shift) % 3
            assert first == (attacker, (attacker + 1) % 3)
            checked += 1
    assert checked >= 3


def test_session_score_and_views():
    game = make_game("durak", {"deals": "4"})
    state = game.new_state()
    rng = random.Random(8)
    while play_deal(state, rng) is not None:
        view = state.view(1)
        assert view.deal == state.game_number and view.deals == 4
        assert sum(view.duraks) == sum(lost(deal, seat) for _, deal in state.completed_games() for seat in range(2))
    outcome = state.outcome()
    assert outcome.termination == "session" and len(outcome.games) == 4
    assert outcome.points == tuple(sum(not lost(deal, seat) for _, deal in outcome.games) for seat in range(2))


async def test_a_session_replay_verifies(tmp_path):
    game = make_game("durak", {"deals": "3", "session_start": "under_fool"})
    path = tmp_path / "session.jsonl"
    pick = lambda request: random.Random(request.decision).randrange(len(request.legal_actions))  # noqa: E731
    players = [LocalPlayer(0, pick), LocalPlayer(1, pick)]
    record = await play_game(game, players, match_id="s", seed=4, clock=Clock(), replay=ReplayWriter(path))
    assert record.faults == () and len(record.outcome.games) == 3
    assert verify(read_replay(path)) == []
