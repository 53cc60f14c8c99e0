"""One conformance suite over every registered game: seeded playouts through the real game loop, sorted unique
legal actions, chance probabilities summing to 1, views for both seats at every step, and replays that verify."""

from __future__ import annotations

import random

import pytest

from referee.games import CHANCE, GAMES, InvalidOptionError, UnknownGameError, make_game
from referee.replay import ReplayWriter, read_replay, verify
from referee.runtime import Clock, LocalPlayer, play_game

pytestmark = pytest.mark.usefixtures("engine")  # on both engines (conftest.py)


def seeded_random(request) -> int:
    return random.Random(f"{request.match_id}/{request.seat}/{request.decision}").randrange(len(request.legal_actions))


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_playouts_keep_the_contract(game_id):
    game = make_game(game_id)
    rng = random.Random(game_id)
    for _ in range(5):
        state = game.new_state()
        while not state.is_terminal():
            for seat in range(game.num_seats):
                state.view(seat)
            if state.current_player == CHANCE:
                outcomes = state.chance_outcomes()
                assert abs(sum(p for _, p in outcomes) - 1) < 1e-9 and not state.legal_actions()
                state.apply(outcomes[rng.randrange(len(outcomes))][0])
                continue
            legal = state.legal_actions()
            assert legal and legal == sorted(legal) and len(set(legal)) == len(legal)
            assert not state.chance_outcomes()
            action = legal[rng.randrange(len(legal))]
            assert game.parse_action(action.notation(), state) == action
            copy = state.clone()
            state.apply(action)
            assert copy.legal_actions() == legal  # the clone did not move
        assert state.outcome().points and state.legal_actions() == [] and state.chance_outcomes() == []


@pytest.mark.parametrize("game_id", sorted(GAMES))
async def test_replays_of_every_game_verify(tmp_path, game_id):
    game = make_game(game_id)
    for seed in range(3):
        path = tmp_path / f"{seed}.jsonl"
        record = await play_game(
            game,
            [LocalPlayer(0, seeded_random), LocalPlayer(1, seeded_random)],
            match_id=f"c{seed}",
            seed=seed,
            clock=Clock(),
            replay=ReplayWriter(path),
        )
        assert record.faults == ()
        assert verify(read_replay(path)) == []


def test_registry_errors():
    with pytest.raises(UnknownGameError, match="known: durak, gapa, gaps, gjul-bara, tabla, tabla-match, tapa"):
        make_game("chess")
    with pytest.raises(InvalidOptionError, match="positive integer"):
        make_game("tabla", {"stuck_limit": "0"})
    assert make_game("gul-bara").id == "gjul-bara" and make_game("plakoto").id == "tapa"


VIEW_CASES = [(game_id, {}) for game_id in sorted(GAMES)] + [
    ("durak", {"seats": "4"}), ("durak", {"seats": "4", "teams": "2v2"}), ("durak", {"deals": "2"})]


def assert_no_such_seat(state, seats: int) -> None:
    for seat in (-1, -2, seats, seats + 5):
        with pytest.raises(ValueError):
            state.view(seat)


@pytest.mark.parametrize(("game_id", "options"), VIEW_CASES, ids=lambda case: str(case))
def test_a_view_of_a_seat_that_is_not_there_is_an_error(game_id, options):
    """Before anything else, at every step and at the end (a view is the one thing that keeps hidden cards
    hidden: a negative seat must not count from the end)."""
    game = make_game(game_id, options)
    rng = random.Random(game_id)
    state = game.new_state()
    assert_no_such_seat(state, game.num_seats)
    while not state.is_terminal():
        if state.current_player == CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        assert_no_such_seat(state, game.num_seats)
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    assert_no_such_seat(state, game.num_seats)


@pytest.mark.parametrize("game_id", sorted(GAMES))
async def test_every_game_ends_at_its_decision_limit_and_the_replay_says_so(tmp_path, game_id):
    game = make_game(game_id, {"decision_limit": "3"})
    path = tmp_path / "limit.jsonl"
    players = [LocalPlayer(seat, seeded_random) for seat in range(game.num_seats)]
    record = await play_game(game, players, match_id="limit", seed=1, clock=Clock(), replay=ReplayWriter(path))
    assert record.outcome == game.limit_outcome() and record.outcome.termination == "limit"
    assert record.decisions == 3 and record.faults == ()
    assert verify(read_replay(path)) == []
    lines = path.read_text().splitlines()
    last = max(index for index, line in enumerate(lines) if '"type":"action"' in line)
    (tmp_path / "short.jsonl").write_text("\n".join(lines[:last] + lines[last + 1:]) + "\n")
    assert verify(read_replay(tmp_path / "short.jsonl")) != []  # a replay that stops short of the limit
