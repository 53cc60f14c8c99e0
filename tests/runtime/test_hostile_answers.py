"""Hostile answers and a hostile use of the opponents' time, through the referee: a 100 MB answer, an answer
that trickles out for ever, a thread that spins while the others think (and the off-turn pause that stops it)."""

from __future__ import annotations

import json

import pytest

from referee.games import make_game
from referee.runtime import Clock, resolve_bot, run_game
from referee.runtime import process as process_module
from referee.runtime.sandbox import Limits, sandbox_problem

from .hostile import hostile_folder

needs_sandbox = pytest.mark.skipif(sandbox_problem() is not None, reason=f"no sandbox here: {sandbox_problem()}")


async def duel(tmp_path, misdeed, opponent="dawdle", **options):
    bots = [resolve_bot(hostile_folder(tmp_path / "a", misdeed)), resolve_bot(hostile_folder(tmp_path / "b", opponent))]
    options.setdefault("clock", Clock())
    return await run_game(
        make_game("tapa"), bots, match_id=f"hostile-{misdeed}", seed=3, replay_path=tmp_path / "replay.jsonl",
        sandboxed=sandbox_problem() is None, **options,
    )


async def test_a_100_mb_answer_is_a_protocol_error(tmp_path, wire_client):
    record = await duel(tmp_path, "huge-answer", opponent="nothing", client=wire_client)
    assert [(f.seat, f.kind) for f in record.faults] == [(0, "protocol_error")]
    assert "answer too large" in record.faults[0].message
    assert record.outcome.points == (0, 2)


async def test_an_endless_trickle_is_a_timeout(tmp_path, wire_client):
    record = await duel(tmp_path, "trickle", opponent="nothing", clock=Clock(bank=10, increment=0, cap=1),
                        client=wire_client)
    assert [(f.seat, f.kind) for f in record.faults] == [(0, "timeout")]
    assert "1.000s" in record.faults[0].message


def busy_figures(path) -> tuple[float, float, float]:
    """From the replay: the CPU seconds the busy bot (seat 0) burnt between its first and last answers, the
    seconds it spent on its own moves, and the seconds its opponent spent on its moves."""
    actions = [json.loads(line) for line in path.read_text().splitlines() if '"type":"action"' in line]
    reported = [float(a["comment"].split()[1]) for a in actions if a["seat"] == 0]
    own = sum(a["ms"] for a in actions if a["seat"] == 0) / 1000
    other = sum(a["ms"] for a in actions if a["seat"] == 1) / 1000
    return reported[-1] - reported[0], own, other


@pytest.mark.alone  # it measures how a core is shared between two bots
@pytest.mark.parametrize("cgroup", [True, False], ids=["cgroup", "descendants"])
async def test_the_off_turn_pause_stops_a_busy_bot_while_the_other_thinks(tmp_path, monkeypatch, cgroup):
    if not cgroup:  # its processes are then found as the bot's descendants
        monkeypatch.setattr(process_module.BotCgroup, "create", classmethod(lambda cls, *args, **kw: None))
    record = await duel(tmp_path, "busy-off-turn", pause_off_turn=True)
    assert record.faults == ()
    burnt, own, other = busy_figures(tmp_path / "replay.jsonl")
    assert other > 1.5  # 0.08 s a move
    assert burnt < own + 0.1 * other  # it spins only while it is its move


@pytest.mark.alone
async def test_without_the_pause_the_busy_bot_burns_the_opponents_time(tmp_path):
    """The control for the test above."""
    record = await duel(tmp_path, "busy-off-turn")
    assert record.faults == ()
    burnt, own, other = busy_figures(tmp_path / "replay.jsonl")
    assert burnt > own + 0.5 * other


@needs_sandbox
async def test_a_busy_bot_runs_into_its_cpu_limit(tmp_path):
    record = await duel(tmp_path, "busy-off-turn", limits=Limits(cpu_seconds=1))
    assert [(f.seat, f.kind) for f in record.faults] == [(0, "resource_limit")]
    assert record.faults[0].message.startswith("cpu limit")
