"""The JavaScript starter bot (bots/javascript, @grpc/grpc-js) plays every game id against the Python random bot
through the referee, with verified replays, and passes check-bot."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.checkbot import check_bot
from referee.games import GAMES, make_game
from referee.replay import read_replay, verify
from referee.runtime import Clock, resolve_bot, run_game

ROOT = Path(__file__).resolve().parents[2]
JAVASCRIPT = ROOT / "bots" / "javascript"
PYTHON = ROOT / "bots" / "python" / "random_bot.py"


@pytest.mark.parametrize("game_id", sorted(GAMES))
async def test_javascript_plays_every_game(tmp_path, game_id):
    replay = tmp_path / "game.jsonl"
    record = await run_game(
        make_game(game_id),
        [resolve_bot(JAVASCRIPT), resolve_bot(PYTHON)],
        match_id=f"js-{game_id}",
        seed=2,
        clock=Clock(),
        replay_path=replay,
    )
    assert record.faults == (), record.faults
    assert record.bots[0] == "random-js"
    assert verify(read_replay(replay)) == []


async def test_javascript_passes_check_bot():
    report = await check_bot(resolve_bot(JAVASCRIPT))
    assert report.passed, [c.line() for c in report.checks if not c.ok]
    assert report.info.language == "javascript"
