"""Each fault, with a real misbehaving bot process: a recorded loss with the right reason, no process left
behind, and a normal game right after."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest

from referee.games import make_game
from referee.replay import read_replay, verify
from referee.runtime import Clock, resolve_bot, run_game

HERE = Path(__file__).parent / "bots"
ROOT = Path(__file__).resolve().parents[2]
RANDOM = resolve_bot(ROOT / "bots" / "python" / "random_bot.py")
FAST_CLOCK = Clock(bank=20.0, increment=1.0, cap=1.0)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is gone for our purposes only once reaped; the referee waits for its children.
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().split()[2] != "Z"


CASES = [
    ("crash_bot.py", "crash", "exit code 3"),
    ("raising_bot.py", "crash", "raise KeyError(\"oops\") | KeyError: 'oops'"),
    ("sleepy_bot.py", "timeout", "limit"),
    ("wrong_id_bot.py", "illegal_action", "legal ids"),
    ("garbage_bot.py", "protocol_error", "the answer is not readable"),
    ("hangup_bot.py", "protocol_error", "Session failed"),
    ("silent_bot.py", "no_hello", "no answer to Hello"),
    ("flood_bot.py", "resource_limit", "output"),
    ("wrong_game_bot.py", "no_hello", "unknown game ids 'chess'"),
]
"""Each misbehaving bot (the kit's bots serve the Session stream), the fault it must get and words of its message."""
BY_CALLS = [
    ("crash_bot.py", "crash", "exit code 3"),
    ("raising_bot.py", "crash", "raise KeyError(\"oops\") | KeyError: 'oops'"),
    ("sleepy_bot.py", "timeout", "limit"),
    ("wrong_id_bot.py", "illegal_action", "legal ids"),
    ("hangup_bot.py", "protocol_error", "Act failed"),
]
"""The faults of an answer again, for bots that ask for one call per request (garbage_bot serves calls only)."""


@pytest.mark.parametrize(
    ("bot", "kind", "words", "calls"),
    [(*case, False) for case in CASES] + [(*case, True) for case in BY_CALLS],
    ids=[case[0] for case in CASES] + [f"{case[0]}-calls" for case in BY_CALLS],
)
async def test_fault_is_a_recorded_loss(tmp_path, bot, kind, words, calls, wire_client):
    pids = tmp_path / "pids"
    env = (("KAFANA_TEST_PIDS", str(pids)),) + ((("KAFANA_TEST_CALLS", "1"),) if calls else ())
    faulty = dataclasses.replace(resolve_bot(HERE / bot), env=env)
    game = make_game("tapa")
    replay = tmp_path / "faulty.jsonl"
    record = await run_game(
        game,
        [faulty, RANDOM],
        match_id="fault",
        seed=4,
        clock=FAST_CLOCK,
        replay_path=replay,
        startup_timeout=3.0,
        client=wire_client,
    )
    assert [f.kind for f in record.faults] == [kind]
    assert record.faults[0].seat == 0 and words in record.faults[0].message
    assert record.outcome.termination == "fault" and record.outcome.points == (0, 2)
    assert record.outcome.winner == 1
    written = read_replay(replay)
    assert written.result["faults"][0]["kind"] == kind
    assert verify(written) == []
    for pid in map(int, pids.read_text().split()):
        assert not alive(pid), f"{bot} left process {pid} behind"
    # The next game runs normally.
    again = await run_game(
        game, [RANDOM, RANDOM], match_id="after", seed=5, clock=FAST_CLOCK, replay_path=tmp_path / "after.jsonl",
        client=wire_client,
    )
    assert again.faults == () and again.outcome.termination != "fault"


async def test_tcp_transport_plays_a_game(tmp_path, wire_client):
    record = await run_game(
        make_game("tapa"),
        [RANDOM, RANDOM],
        match_id="tcp",
        seed=8,
        clock=Clock(),
        replay_path=tmp_path / "tcp.jsonl",
        transport="tcp",
        client=wire_client,
    )
    assert record.faults == () and record.decisions > 0
    assert verify(read_replay(tmp_path / "tcp.jsonl")) == []


async def test_missing_command_is_a_crash_fault(tmp_path):
    folder = tmp_path / "nobot"
    folder.mkdir()
    (folder / "bot.toml").write_text('name = "ghost"\ncommand = ["./does-not-exist"]\ngames = ["tapa"]\n')
    record = await run_game(
        make_game("tapa"), [RANDOM, resolve_bot(folder)], match_id="ghost", seed=1, clock=Clock(), replay_path=None
    )
    assert [(f.seat, f.kind) for f in record.faults] == [(1, "crash")]
    assert record.outcome.points == (2, 0)
