"""A long-running ladder keeps every result and every tournament's replays, and the other replays for the days
its operator chooses."""

from __future__ import annotations

import datetime

import trio
from click.testing import CliRunner

from ladder.cli import main
from ladder.league import plan, run_units
from ladder.retention import prune_replays
from ladder.store import now, open_store, resolved_path
from ladder.tournaments.record import league_of

from ._fakes import FakeExecutor, counting_seeds
from .test_league import seed_bots


def _played(tmp_path):
    db = open_store(tmp_path / "l.db")
    seed_bots(db, 3)
    with db.atomic():
        db["tournaments"].insert({"name": "cup", "format": "knockout", "arena_id": "tapa", "options": "{}",
                                  "entrants": "[]", "status": "done", "created_at": now(), "finished_at": now()})
    plan(db, "club", "tapa", "round-robin", 2, new_seed=counting_seeds("c"))
    plan(db, league_of("cup"), "tapa", "round-robin", 1, new_seed=counting_seeds("t"))
    trio.run(lambda: run_units(db, "club", FakeExecutor()))
    trio.run(lambda: run_units(db, league_of("cup"), FakeExecutor()))
    return db


def test_old_replays_go_and_results_and_tournaments_stay(tmp_path):
    db = _played(tmp_path)
    old = (datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(days=40)).isoformat(timespec="seconds")
    db.execute("update matches set finished_at = ? where rowid % 2 = 0", [old])
    before = {row["id"]: dict(row) for row in db.query("select * from matches")}
    assert all(resolved_path(db, row["replay_path"]).exists() for row in before.values())
    pruned = prune_replays(db, 30)
    after = {row["id"]: dict(row) for row in db.query("select m.*, u.league from matches m join units u on u.id = "
                                                      "m.unit_id")}
    gone = {m for m, row in after.items() if row["replay_path"] is None}
    expected = {m for m, row in after.items() if row["finished_at"] == old and row["league"] == "club"}
    assert gone == expected and pruned.replays == len(gone) > 0 and pruned.bytes > 0
    assert any(row["finished_at"] == old and row["league"] != "club" for row in after.values())  # a tournament's
    for match, row in after.items():
        assert (row["points"], row["replay_hash"], row["status"]) == (before[match]["points"],
                                                                      before[match]["replay_hash"], "done")
        stored = before[match]["replay_path"]
        assert resolved_path(db, stored).exists() == (match not in gone)
    assert prune_replays(db, 30).replays == 0  # nothing left to remove


def test_the_commands(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    db = _played(tmp_path)
    db.execute("update matches set finished_at = '2026-01-01T00:00:00+00:00'")
    db.conn.commit()
    runner = CliRunner()
    done = runner.invoke(main, ["prune", "--replays-older-than", "30", "--db", "l.db"])
    assert done.exit_code == 0 and done.output.startswith("removed 12 replays"), done.output  # the cup's 6 stay
    assert runner.invoke(main, ["prune", "--replays-older-than", "-1", "--db", "l.db"]).exit_code == 2
    alone = runner.invoke(main, ["serve", "--keep-replays", "3", "--db", "l.db"])
    assert alone.exit_code == 2 and "--keep-replays goes with --play" in alone.output
