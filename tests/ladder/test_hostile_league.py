"""Hostile bots in a real ladder league. Each passes the conformance run (it misbehaves only in real games), then
commits its misdeed in its league matches: every fault is recorded with the right reason, the host is unchanged
(no stray process, no file written, no connection made, no cgroup left) and every other match is intact. What the
bots are told to attack comes through the environment their manifests declare: the operator's never reaches them."""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path

import pytest
import trio

from ladder.executor import LocalExecutor
from ladder.league import plan, run_units
from ladder.registry import submit
from ladder.store import open_store
from referee.runtime.cgroups import GROUP, ROOT, BotCgroup
from referee.runtime.clock import Clock
from referee.runtime.sandbox import FIRST_UID, UID_SPAN, sandbox_problem

from ..runtime.hostile import hostile_folder
from ._fakes import random_bot_folder

MARKER = "kafana-escape-marker"

EXPECTED = {
    "write+read+connect": None,
    "daemon+double-fork+ignore-sigterm": None,
    "busy-off-turn": None,
    "fork-bomb": ("resource_limit", "processes limit"),
    "memory-hog": ("resource_limit", "memory limit"),
    "fill-tmp": ("resource_limit", "disk limit"),
    "huge-answer": ("protocol_error", "answer too large"),
    "trickle": ("timeout", "no answer within"),
}
"""Each hostile bot's misdeeds, and the fault its matches must end with (None: the misdeed fails harmlessly)."""


def _cgroups_here() -> bool:
    probe = BotCgroup.caps(f"probe-{os.getpid()}", 1 << 30, 64)
    if probe is None:
        return False
    probe.remove()
    return True


def stray_processes() -> list[str]:
    """Processes left by a bot: run by a sandbox uid, or carrying the daemon's marker."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            uid = entry.stat().st_uid
            command = (entry / "cmdline").read_bytes().decode(errors="replace")
        except OSError:
            continue
        if FIRST_UID <= uid < FIRST_UID + UID_SPAN or MARKER in command:
            found.append(f"{entry.name} uid {uid}: {command!r}")
    return found


def leftover_cgroups() -> list[Path]:
    return [group for controller in ("memory", "pids", "cpuset")
            for group in (ROOT / controller / GROUP).glob("*") if group.is_dir()]


@pytest.mark.skipif(sandbox_problem() is not None, reason=f"no sandbox here: {sandbox_problem()}")
@pytest.mark.skipif(not _cgroups_here(), reason="no writable memory and pids cgroups here")
@pytest.mark.alone  # it looks for processes and cgroups left anywhere on the machine
async def test_hostile_bots_cannot_spoil_a_league(tmp_path):
    cgroups_before = set(leftover_cgroups())
    outside = tmp_path / "outside"
    outside.mkdir()
    outside.chmod(0o777)
    escaped = outside / "escaped.txt"
    db_path = tmp_path / "league.db"
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        listener.setblocking(False)
        targets = {"KAFANA_TEST_WRITE": str(escaped),
                   "KAFANA_TEST_CONNECT": f"127.0.0.1:{listener.getsockname()[1]},192.0.2.1:80"}
        db = open_store(db_path)
        executor = LocalExecutor(sandbox="on", limits={"resident_bytes": 512 << 20}, pause_off_turn=True)
        for name in ("calm", "quiet"):
            assert (await submit(db, db_path, str(random_bot_folder(tmp_path, name)), executor)).accepted
        calm_copy = next(db.query("select path from versions v join bots b on b.id = v.bot_id where b.name = 'calm'"))
        targets["KAFANA_TEST_READ"] = f"{db_path},{calm_copy['path']}/bot.py"
        hostile = {}

        async def enter(misdeed: str) -> None:
            report = await submit(db, db_path, str(hostile_folder(tmp_path / "hostile", misdeed, targets)), executor)
            assert report.accepted, report.text()
            hostile[report.version_id] = misdeed

        async with trio.open_nursery() as nursery:  # the conformance runs side by side, as in ladder demo
            for misdeed in EXPECTED:
                nursery.start_soon(enter, misdeed)
        calm = next(db.query("select v.id from versions v join bots b on b.id = v.bot_id where b.name = 'calm'"))["id"]
        plan(db, "hostile", "tapa", "gauntlet", 1, challenger=calm)
        async with executor.session(2):  # as a ladder plays: kept bots, each worker on its share of the cores
            progress = await run_units(db, "hostile", executor, concurrency=2, clock=Clock(60, 0, 3))
        with pytest.raises(BlockingIOError):
            listener.accept()
    assert progress.done == progress.total == 2 * (len(EXPECTED) + 1) and progress.errors == 0
    seen = set()
    for row in db.query("select seats, faults, status from matches"):
        seats, faults = json.loads(row["seats"]), json.loads(row["faults"])
        assert row["status"] == "done"
        villain = next((version for version in seats if version in hostile), None)
        expected = EXPECTED[hostile[villain]] if villain is not None else None
        if expected is None:
            assert faults == [], (hostile.get(villain), faults)
        else:
            kind, message = expected
            assert [(f["seat"], f["kind"]) for f in faults] == [(seats.index(villain), kind)], (hostile[villain], faults)
            assert message in faults[0]["message"], (hostile[villain], faults)
        seen.add(hostile.get(villain))
    assert seen == {None, *EXPECTED}
    assert not escaped.exists() and list(outside.iterdir()) == []
    assert stray_processes() == []
    assert set(leftover_cgroups()) <= cgroups_before
