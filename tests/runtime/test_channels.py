"""Two copies of one bot at one four-seat Durak table, each trying every channel it knows to reach the other
(the kernel keyring, locks on files both can read, inotify on them, System V shared memory, POSIX message queues,
abstract sockets, /proc): in the sandbox neither hears anything, with or without the off-turn pause; without it both hear each
other on every channel, which shows that the bot's ears work."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.games import make_game
from referee.runtime import Clock, resolve_bot, run_game
from referee.runtime.sandbox import sandbox_problem

ROOT = Path(__file__).resolve().parents[2]
COLLUDER = resolve_bot(Path(__file__).parent / "bots" / "colluder_bot.py")
RANDOM = resolve_bot(ROOT / "bots" / "python" / "random_bot.py")
CHANNELS = {"flock", "posix-lock", "ofd-lock", "inotify", "sysv-shm", "posix-mq", "abstract", "keyring"}

needs_sandbox = pytest.mark.skipif(sandbox_problem() is not None, reason=f"no sandbox here: {sandbox_problem()}")


async def heard_at_a_table(tmp_path: Path, sandboxed: bool, pause_off_turn: bool) -> tuple[set[str], list[str]]:
    """Play one four-seat game, the copies at seats 0 and 2: the channels heard (``flock:2``) and each copy's
    stderr."""
    record = await run_game(
        make_game("durak", {"seats": "4"}),
        [COLLUDER, RANDOM, COLLUDER, RANDOM],
        match_id=f"table-{sandboxed}-{pause_off_turn}",
        seed=5,
        clock=Clock(),
        replay_path=tmp_path / "game.jsonl",
        sandboxed=sandboxed,
        pause_off_turn=pause_off_turn,
    )
    assert record.faults == (), record.faults
    lines = [json.loads(line) for line in (tmp_path / "game.jsonl").read_text().splitlines()]
    comments = [line["comment"] for line in lines if line["type"] == "action" and "comment" in line]
    heard = {word for comment in comments if comment.startswith("HEARD ") for word in comment.split()[1:]}
    return heard, [record.output[seat]["stderr"] for seat in (0, 2)]


@needs_sandbox
@pytest.mark.parametrize("pause_off_turn", [False, True], ids=["running", "paused-off-turn"])
async def test_copies_at_one_table_hear_nothing_in_the_sandbox(tmp_path, pause_off_turn):
    heard, stderr = await heard_at_a_table(tmp_path, sandboxed=True, pause_off_turn=pause_off_turn)
    assert heard == set()
    for said in stderr:  # the beacons were tried, and the kernel refused those that would cross
        assert "'keyring': 'EPERM'" in said and "inotify refused: EPERM" in said


async def test_without_the_sandbox_they_hear_each_other_on_every_channel(tmp_path):
    heard, _ = await heard_at_a_table(tmp_path, sandboxed=False, pause_off_turn=False)
    assert {word.split(":")[0] for word in heard} >= CHANNELS, heard
    assert {word.split(":")[1] for word in heard if ":" in word} >= {"0", "2"}  # (keys outlive their makers)
