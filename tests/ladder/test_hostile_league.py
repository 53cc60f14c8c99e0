"""A hostile bot in a real league: it passes the conformance run, then answers league requests with 2 MB (over the
referee's 1 MiB limit). Its matches end in a recorded ``protocol_error`` and every other match is intact."""

from __future__ import annotations

import json
from pathlib import Path

from ladder.executor import LocalExecutor
from ladder.league import plan, run_units
from ladder.registry import submit
from ladder.store import open_store

from ._fakes import random_bot_folder

ESCAPER = Path(__file__).resolve().parents[1] / "runtime" / "bots" / "escape_bot.py"


async def test_a_hostile_bot_cannot_spoil_a_league(tmp_path, monkeypatch):
    monkeypatch.setenv("KAFANA_TEST_MISDEED", "huge-answer")
    db_path = tmp_path / "league.db"
    db = open_store(db_path)
    executor = LocalExecutor()
    for name in ("calm", "quiet"):
        assert (await submit(db, db_path, str(random_bot_folder(tmp_path, name)), executor)).accepted
    hostile = await submit(db, db_path, str(ESCAPER), executor)
    assert hostile.accepted, hostile.text()
    plan(db, "hostile", "tapa", "round-robin", 1)
    progress = await run_units(db, "hostile", executor, concurrency=2)
    assert progress.done == progress.total == 6 and progress.errors == 0
    for row in db.query("select seats, faults, status from matches"):
        seats, faults = json.loads(row["seats"]), json.loads(row["faults"])
        assert row["status"] == "done"
        if hostile.version_id in seats:
            assert [(f["seat"], f["kind"]) for f in faults] == [(seats.index(hostile.version_id), "protocol_error")]
            assert "answer too large" in faults[0]["message"]
        else:
            assert faults == []
