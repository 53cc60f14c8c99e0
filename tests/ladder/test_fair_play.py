"""Fair play in a ladder, tried by bots that cheat: a seer deals the game again from every seed it could derive
from its requests (public seeds give it every hidden card; a ladder's secret ones give it nothing), a bot with a
memory looks for what it left in the other half of its duplicate unit (nothing reaches it, even with both halves
played at the same time, and nothing of the ladder's environment either), and a colluder tries every channel it
knows between its processes of the two halves (it hears nothing, with the halves one after the other or at once);
the replays, the database and the bots' Hellos agree on who played."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from ladder.executor import LocalExecutor
from ladder.league import plan, run_units
from ladder.registry import submit
from ladder.store import open_store, resolved_path
from referee.cli import main
from referee.replay import read_replay, replay_bytes, verify
from referee.runtime.sandbox import sandbox_problem

from ._fakes import random_bot_folder

BOTS = Path(__file__).resolve().parents[1] / "runtime" / "bots"
SEER = BOTS / "seer_bot.py"
MEMORY = BOTS / "memory_bot.py"
COLLUDER = BOTS / "colluder_bot.py"
needs_sandbox = pytest.mark.skipif(sandbox_problem() is not None, reason=f"no sandbox here: {sandbox_problem()}")


def first_comments(replay: Path, name: str) -> list[str]:
    """The comments of the seat named ``name``, in order."""
    records = [json.loads(line) for line in replay_bytes(replay).decode().splitlines()]
    seats = [seat["seat"] for seat in records[0]["seats"] if seat["name"] == name]
    return [r["comment"] for r in records if r["type"] == "action" and r["seat"] in seats and r.get("comment")]


def test_public_seeds_give_the_seer_every_card(tmp_path):
    """The control: with ``referee play --seed`` the seer finds the seed and deals exactly what it sees."""
    random_bot = str(Path(__file__).resolve().parents[2] / "bots" / "python" / "random_bot.py")
    for game in ("durak", "gapa"):
        done = CliRunner().invoke(main, ["play", game, str(SEER), random_bot, "--seed", "7", "--games", "2",
                                         "--out", str(tmp_path)])
        assert done.exit_code == 0, done.output
        saw = [first_comments(replay, "seer")[0] for replay in sorted(tmp_path.glob(f"{game}-*.jsonl"))]
        assert any(not comment.startswith("SAW 0 ") for comment in saw), saw


@needs_sandbox
async def test_a_league_gives_away_no_hidden_card_and_no_memory(tmp_path, monkeypatch):
    monkeypatch.setenv("KAFANA_OPERATOR_SECRET", "hunter2")  # the ladder's environment: not the bots'
    db_path = tmp_path / "league.db"
    db = open_store(db_path)
    executor = LocalExecutor(sandbox="on")
    for bot in (SEER, MEMORY, random_bot_folder(tmp_path, "plain", '["durak", "gapa"]')):
        report = await submit(db, db_path, str(bot), executor)
        assert report.accepted, report.text()
    for arena in ("durak-2", "gapa"):
        plan(db, "fair", arena, "round-robin", 1)
    progress = await run_units(db, "fair", executor, concurrency=2)  # both halves of a unit at once
    assert progress.done == progress.total == 12 and progress.errors == progress.faults == 0
    seer, memory = [], []
    for row in db.query("select replay_path from matches"):
        replay = resolved_path(db, row["replay_path"])
        assert verify(read_replay(replay)) == []  # the revealed seed matches its commitment and deals the game
        assert "seed" not in json.loads(replay_bytes(replay).decode().splitlines()[0])
        seer += first_comments(replay, "seer")[:1]
        memory += first_comments(replay, "memory")
    assert len(seer) == 8 and all(comment.startswith("SAW 0 OF ") for comment in seer), seer
    assert int(seer[0].split()[-1]) >= 10  # it tried every seed it could derive
    assert len(memory) == 8 and set(memory) == {"FRESH"}, memory


def all_comments(replay: Path, name: str) -> list[str]:
    """Every comment of the seats named ``name``."""
    records = [json.loads(line) for line in replay_bytes(replay).decode().splitlines()]
    seats = [seat["seat"] for seat in records[0]["seats"] if seat["name"] == name]
    return [r["comment"] for r in records if r["type"] == "action" and r["seat"] in seats and r.get("comment")]


@needs_sandbox
@pytest.mark.parametrize("concurrency", [1, 2], ids=["halves-in-turn", "halves-at-once"])
async def test_the_halves_of_a_unit_cannot_talk_and_everybody_agrees_who_played(tmp_path, concurrency):
    db_path = tmp_path / "league.db"
    db = open_store(db_path)
    executor = LocalExecutor(sandbox="on")
    for bot in (COLLUDER, random_bot_folder(tmp_path, "plain", '["durak"]')):
        report = await submit(db, db_path, str(bot), executor)
        assert report.accepted, report.text()
    plan(db, "sealed", "durak-2", "round-robin", 2)
    progress = await run_units(db, "sealed", executor, concurrency=concurrency)
    assert progress.done == progress.total == 4 and progress.errors == progress.faults == 0
    heard = []
    rows = db.query("select m.replay_path, m.seats, m.seed from matches m")
    for row in rows:
        replay = resolved_path(db, row["replay_path"])
        header = json.loads(replay_bytes(replay).decode().splitlines()[0])
        registered = [db.execute("select b.name, v.version from versions v join bots b on b.id = v.bot_id "
                                 "where v.id = ?", [version]).fetchone() for version in json.loads(row["seats"])]
        assert [(seat["name"], seat["version"]) for seat in header["seats"]] == [tuple(r) for r in registered]
        heard += all_comments(replay, "colluder")
    assert heard == []
