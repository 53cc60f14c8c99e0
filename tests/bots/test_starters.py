"""The starter bots in other languages (bots/javascript, bots/cpp, bots/go) build from the manifest, play every game
id through the referee against each other and the Python random bot with verified replays, and pass check-bot."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from referee.checkbot import check_bot
from referee.games import GAMES, make_game
from referee.replay import read_replay, verify
from referee.runtime import Clock, build_bot, resolve_bot, run_game

ROOT = Path(__file__).resolve().parents[2]
STARTERS = {
    "javascript": ROOT / "bots" / "javascript",
    "c++": ROOT / "bots" / "cpp",
    "go": ROOT / "bots" / "go",
    "python": ROOT / "bots" / "python" / "random_bot.py",
}
NAMES = {"javascript": "random-js", "c++": "random-cpp", "go": "random-go", "python": "random"}
PAIRINGS = [("javascript", "python"), ("c++", "javascript"), ("go", "c++"), ("python", "go")]
"""A cycle: every language plays first and second seat, and every compiled starter meets another language."""


@pytest.fixture(scope="module")
def starters():
    """The starter specs, built once."""
    specs = {language: resolve_bot(path) for language, path in STARTERS.items()}
    for spec in specs.values():
        build_bot(spec)
    return specs


@pytest.mark.parametrize("game_id", sorted(GAMES))
@pytest.mark.parametrize("first,second", PAIRINGS, ids=lambda language: language)
async def test_starters_play_every_game(tmp_path, starters, game_id, first, second):
    replay = tmp_path / "game.jsonl"
    game = make_game(game_id)
    record = await run_game(
        game,
        [starters[first], starters[second]][: game.num_seats],
        match_id=f"{first}-{second}-{game_id}",
        seed=2,
        clock=Clock(),
        replay_path=replay,
    )
    assert record.faults == (), record.faults
    assert record.bots == (NAMES[first], NAMES[second])[: game.num_seats]
    assert verify(read_replay(replay)) == []


@pytest.mark.parametrize("language", ["javascript", "c++", "go"])
async def test_starter_passes_check_bot(starters, language):
    report = await check_bot(starters[language])
    assert report.passed, [c.line() for c in report.checks if not c.ok]
    assert report.info.language == language
    assert report.checks[0].name == "build" and report.checks[0].ok


@pytest.mark.parametrize("language", ["javascript", "c++", "go"])
def test_starter_carries_the_contract(tmp_path, language):
    """Each kit holds bot.proto (a link to proto/), and a copy of the folder, as the ladder makes, holds the file."""
    own = STARTERS[language] / "proto" / "kafana" / "v1" / "bot.proto"
    canonical = ROOT / "proto" / "kafana" / "v1" / "bot.proto"
    assert own.read_bytes() == canonical.read_bytes()
    copy = tmp_path / "copy"
    shutil.copytree(STARTERS[language], copy, ignore=shutil.ignore_patterns("node_modules", "build"))
    copied = copy / "proto" / "kafana" / "v1" / "bot.proto"
    assert not copied.is_symlink() and copied.read_bytes() == canonical.read_bytes()
