"""The heuristic Tapa bot beats the random bot in at least 80% of 200 seeded games."""

from __future__ import annotations

from bots.python import random_bot, tapa_bot
from referee.games import make_game
from referee.runtime import Clock, LocalPlayer, play_game


async def test_heuristic_beats_random():
    game = make_game("tapa")
    wins = 0
    for index in range(200):
        heuristic_seat = index % 2
        players = [None, None]
        players[heuristic_seat] = LocalPlayer(heuristic_seat, tapa_bot.choose)
        players[1 - heuristic_seat] = LocalPlayer(1 - heuristic_seat, random_bot.choose)
        record = await play_game(game, players, match_id=f"h{index}", seed=index, clock=Clock())
        assert record.faults == ()
        wins += record.outcome.winner == heuristic_seat
    assert wins >= 160, f"heuristic won only {wins} of 200"
