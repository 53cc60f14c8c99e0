"""The shipped bots against each other, in-process through the real game loop (seeded, deterministic)."""

from __future__ import annotations

import pytest

from bots.python import durak_search_bot, expectimax_bot, heuristic_bot, random_bot
from referee.games import make_game
from referee.runtime import Clock, LocalPlayer, play_game

UNLIMITED = Clock(bank=1e9, increment=0, cap=1e9)


async def wins_of(game_id: str, strong, weak, count: int) -> int:
    return await wins_of_with(game_id, {}, strong, weak, count)


async def wins_of_with(game_id: str, options: dict[str, str], strong, weak, count: int) -> int:
    game = make_game(game_id, options)
    wins = 0
    for index in range(count):
        seat = index % 2
        players = [LocalPlayer(0, weak.choose), LocalPlayer(1, weak.choose)]
        players[seat] = LocalPlayer(seat, strong.choose)
        record = await play_game(game, players, match_id=f"{game_id}-{index}", seed=index, clock=UNLIMITED)
        assert record.faults == ()
        wins += record.outcome.winner == seat
    return wins


async def test_heuristic_beats_random_in_tapa_games():
    assert await wins_of("tapa", heuristic_bot, random_bot, 200) >= 160


async def test_heuristic_beats_random_in_five_point_matches():
    assert await wins_of("tabla-match", heuristic_bot, random_bot, 30) >= 24


@pytest.mark.parametrize("game_id", ["tabla", "gjul-bara"])
async def test_heuristic_beats_random_in_single_games(game_id):
    assert await wins_of(game_id, heuristic_bot, random_bot, 60) >= 36


async def test_heuristic_beats_random_at_durak():
    assert await wins_of("durak", heuristic_bot, random_bot, 100) >= 80


async def test_durak_search_beats_the_heuristic(monkeypatch):
    monkeypatch.setattr(durak_search_bot, "BUDGET", 60.0)  # its twelve guesses, however busy the machine
    # It wins about three games in four (76 of seeds 0-99); an even bot reaches 24 of 40 one time in eight.
    assert await wins_of("durak", durak_search_bot, heuristic_bot, 40) >= 24


async def test_expectimax_plays_whole_matches_legally():
    assert await wins_of("tabla-match", expectimax_bot, random_bot, 2) == 2


def test_random_bot_plays_every_game_id():
    from referee.games import GAMES

    assert random_bot.GAMES == sorted(GAMES)


async def test_heuristic_beats_random_at_gapa():
    assert await wins_of("gapa", heuristic_bot, random_bot, 50) >= 40


async def test_heuristic_beats_random_at_gapa_with_the_penalty():
    assert await wins_of_with("gapa", {"gapa": "penalty"}, heuristic_bot, random_bot, 20) >= 16
