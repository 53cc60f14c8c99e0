"""Durak between bot processes: four seats with transfers, and 2v2 teams, through the referee; replays verify."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.games import make_game
from referee.replay import read_replay, verify
from referee.runtime import Clock, resolve_bot, run_game

ROOT = Path(__file__).resolve().parents[2]
RANDOM = ROOT / "bots" / "python" / "random_bot.py"


@pytest.mark.parametrize(
    "options",
    [{"seats": "4", "variant": "perevodnoy"}, {"seats": "4", "teams": "2v2"}, {"seats": "6", "deck": "52"}],
    ids=["perevodnoy-4", "teams-2v2", "six-seats-52"],
)
async def test_durak_between_processes(tmp_path, options):
    replay = tmp_path / "durak.jsonl"
    seats = int(options["seats"])
    record = await run_game(
        make_game("durak", options),
        [resolve_bot(RANDOM)] * seats,
        match_id="durak-processes",
        seed=5,
        clock=Clock(),
        replay_path=replay,
    )
    assert record.faults == () and len(record.outcome.places) == seats
    assert record.decisions > 20
    assert verify(read_replay(replay)) == []
    header = read_replay(replay).header
    assert header["options"]["seats"] == options["seats"] and len(header["seats"]) == seats


async def test_a_faulty_seat_is_the_durak(tmp_path):
    """A bot that crashes in a 4-seat game is the durak (last place); the other three share first place."""
    crasher = resolve_bot(ROOT / "tests" / "runtime" / "bots" / "crash_bot.py")
    replay = tmp_path / "durak.jsonl"
    record = await run_game(
        make_game("durak", {"seats": "4"}),
        [resolve_bot(RANDOM), resolve_bot(RANDOM), crasher, resolve_bot(RANDOM)],
        match_id="durak-fault",
        seed=5,
        clock=Clock(),
        replay_path=replay,
    )
    assert [(f.seat, f.kind) for f in record.faults] == [(2, "crash")]
    assert record.outcome.termination == "fault" and record.outcome.places == (1, 1, 4, 1)
    assert record.outcome.points == (1, 1, 0, 1)
    assert verify(read_replay(replay)) == []
