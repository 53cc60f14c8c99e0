"""Schedules, duplicate units, resuming, and crash safety under SIGKILL."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ladder.arenas import arena_for_game, ensure_arena
from ladder.league import MissingBots, pairings, plan, plan_continuous, run_units
from ladder.registry import copies_folder
from ladder.standings import crosstable, standings
from ladder.store import now, open_store
from tests.runtime.hostile import processes_in

from ._fakes import FakeExecutor, counting_seeds, random_bot_folder

ROOT = Path(__file__).resolve().parents[2]


def seed_bots(db, count: int, game: str = "tapa") -> list[int]:
    """Register ``count`` fake bots in the arena of ``game`` (idempotent), their folders among the league's copies beside the
    database (empty: the fake executor plays for them); return their version ids."""
    with db.atomic():
        ensure_arena(db, arena_for_game(game))
        ids = []
        for index in range(count):
            name = f"bot{index}"
            if db["bots"].count_where("name = ?", [name]):
                ids.append(db.execute("select v.id from versions v join bots b on b.id=v.bot_id where b.name=?", [name]).fetchone()[0])
                continue
            bot_id = db["bots"].insert({"name": name, "created_at": now(), "retired": 0}).last_pk
            (copies_folder(db) / name).mkdir(parents=True, exist_ok=True)
            version = db["versions"].insert(
                {"bot_id": bot_id, "number": 1, "version": "1", "hash": f"h{index}", "path": f"{copies_folder(db).name}/bot{index}",
                 "language": "python", "author": "", "games": json.dumps([game]), "created_at": now()}
            ).last_pk
            db["entries"].insert({"arena_id": game, "version_id": version, "joined_at": now()})
            ids.append(version)
    return ids


def results(db) -> list[tuple]:
    return sorted(
        (row["id"], row["seats"], row["points"], row["status"])
        for row in db.query("select id, seats, points, status from matches")
    )


async def test_round_robin_duplicate_units(tmp_path):
    db = open_store(tmp_path / "l.db")
    ids = seed_bots(db, 3)
    assert plan(db, "rr", "tapa", "round-robin", 2) == 6
    assert plan(db, "rr", "tapa", "round-robin", 2) == 6  # idempotent
    fake = FakeExecutor()
    progress = await run_units(db, "rr", fake, concurrency=2)
    assert progress.done == progress.total == 12
    for unit in db["units"].rows:
        assert unit["status"] == "done"
        matches = list(db["matches"].rows_where("unit_id = ?", [unit["id"]], order_by="rotation"))
        assert len(matches) == 2 and matches[0]["seed"] == matches[1]["seed"]
        assert json.loads(matches[0]["seats"]) == list(reversed(json.loads(matches[1]["seats"])))
    assert len({job.seed for job in fake.jobs}) == 6
    table = standings(db, "tapa", fresh=True)
    assert sorted(s.version_id for s in table) == ids and all(s.games == 8 for s in table)
    labels, cross = crosstable(db, "tapa")
    assert len(labels) == 3 and cross[(labels[0], labels[1])][1] == 4
    # Running again finds nothing left to do.
    assert (await run_units(db, "rr", fake, concurrency=2)).total == 0


def test_every_unit_gets_its_own_secret_seed(tmp_path):
    db = open_store(tmp_path / "l.db")
    seed_bots(db, 3)
    plan(db, "secret", "tapa", "round-robin", 2)
    seeds = [unit["seed"] for unit in db["units"].rows]
    assert len(set(seeds)) == 6 and all(len(seed) == 64 for seed in seeds)
    for unit in db["units"].rows:  # nothing of the seed is in what a bot is sent (its match ids)
        assert unit["seed"][:8] not in unit["id"]


def test_a_patience_deal_is_never_given_to_a_late_joiner(tmp_path):
    """In a one-seat arena every bot entered plays the same deals; a bot that joins later gets new deals, which
    every bot plays again, never one whose seed its earlier replays have made public."""
    db = open_store(tmp_path / "l.db")
    early = seed_bots(db, 2, game="gaps")
    assert plan(db, "p", "gaps", "round-robin", 2, new_seed=counting_seeds("early")) == 4
    everybody = seed_bots(db, 3, game="gaps")
    assert plan(db, "p", "gaps", "round-robin", 2, new_seed=counting_seeds("late")) == 10
    assert plan(db, "p", "gaps", "round-robin", 2, new_seed=counting_seeds("again")) == 10  # idempotent
    deals: dict[str, set[int]] = {}
    for unit in db["units"].rows:
        deals.setdefault(unit["seed"], set()).update(json.loads(unit["versions"]))
    assert deals == {"early-0": set(early), "early-1": set(early), "late-0": set(everybody), "late-1": set(everybody)}


def test_gauntlet_and_errors():
    assert pairings("gauntlet", [1, 2, 3, 4], 2, challenger=2) == [(2, 1), (2, 3), (2, 4)]
    assert pairings("round-robin", [1, 2, 3, 4], 3)[0] == (1, 2, 3)
    with pytest.raises(ValueError):
        pairings("gauntlet", [1, 2], 2, challenger=9)
    with pytest.raises(ValueError):
        pairings("swiss", [1, 2], 2)


async def test_continuous_picks_the_least_played_pairing(tmp_path):
    db = open_store(tmp_path / "l.db")
    seed_bots(db, 3)
    fake = FakeExecutor()
    chosen = []
    for _ in range(6):
        chosen.append(plan_continuous(db, "c", "tapa"))
        await run_units(db, "c", fake)
    groups = [tuple(json.loads(db["units"].get(unit)["versions"])) for unit in chosen]
    assert sorted(groups[:3]) == [(1, 2), (1, 3), (2, 3)] and sorted(groups[3:]) == [(1, 2), (1, 3), (2, 3)]


async def test_ratings_find_the_stronger_bot(tmp_path):
    db = open_store(tmp_path / "l.db")
    seed_bots(db, 3)
    plan(db, "s", "tapa", "round-robin", 30, new_seed=counting_seeds())
    await run_units(db, "s", FakeExecutor(strengths={"bot0": 0.2, "bot1": 0.5, "bot2": 0.8}), concurrency=4)
    table = standings(db, "tapa", fresh=True)
    assert [s.bot for s in table] == ["bot2", "bot1", "bot0"]
    assert table[0].superiority > 0.9 and table[-1].superiority is None


async def test_gauntlet_league(tmp_path):
    db = open_store(tmp_path / "l.db")
    ids = seed_bots(db, 4)
    assert plan(db, "g", "tapa", "gauntlet", 2, challenger=ids[2]) == 6
    fake = FakeExecutor()
    await run_units(db, "g", fake, concurrency=3)
    assert all(ids[2] in json.loads(u["versions"]) for u in db["units"].rows)
    assert len(fake.jobs) == 12


def test_sigkill_at_random_moments_loses_nothing(tmp_path):
    reference = tmp_path / "reference.db"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    script = [sys.executable, "-m", "tests.ladder._league_script"]
    subprocess.run([*script, str(reference), "3"], check=True, cwd=ROOT, env=env, timeout=120)
    expected = results(open_store(reference))
    assert len(expected) == 36 and all(r[3] == "done" for r in expected)

    crashed = tmp_path / "crashed.db"
    rng = random.Random(3)
    kills = 0
    for _ in range(30):
        process = subprocess.Popen([*script, str(crashed), "3"], cwd=ROOT, env=env)
        time.sleep(rng.uniform(0.3, 1.2))
        if process.poll() is not None:
            break
        process.send_signal(signal.SIGKILL)
        process.wait()
        kills += 1
    subprocess.run([*script, str(crashed), "3"], check=True, cwd=ROOT, env=env, timeout=120)
    assert kills >= 2
    assert results(open_store(crashed)) == expected


def test_sigkill_with_real_referee_processes(tmp_path):
    """The same check with the local executor: real referee and bot processes, killed mid-league, against a run
    without kills of the same units (their secret seeds copied from the killed league)."""
    bot = random_bot_folder(tmp_path, "tapa-random")
    other = random_bot_folder(tmp_path, "other", extra="# other\n")
    ladder = [sys.executable, "-m", "ladder.cli"]

    def league(db: Path, check: bool = True) -> subprocess.Popen | None:
        command = [*ladder, "league", "--arena", "tapa", "--rounds", "3", "--db", str(db)]
        if check:
            subprocess.run(command, check=True, cwd=tmp_path, capture_output=True, timeout=300)
            return None
        return subprocess.Popen(command, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    outcomes = {}
    for name in ("crashed", "reference"):
        db = tmp_path / f"{name}.db"
        for path in (bot, other):
            subprocess.run([*ladder, "submit", str(path), "--db", str(db)], check=True, cwd=tmp_path, capture_output=True)
        if name == "crashed":
            rng = random.Random(5)
            for _ in range(2):
                process = league(db, check=False)
                time.sleep(rng.uniform(2.0, 5.0))
                process.send_signal(signal.SIGKILL)
                process.wait()
        else:
            crashed = open_store(tmp_path / "crashed.db")
            seeds = iter([unit["seed"] for unit in crashed.query("select seed from units order by rowid")])
            plan(open_store(db), "tapa-round-robin", "tapa", "round-robin", 3, new_seed=lambda: next(seeds))
        league(db)
        rows = open_store(db).query("select id, seats, points, status, faults from matches order by id")
        outcomes[name] = [(r["id"].split("-", 1)[1], r["seats"], r["points"], r["status"], r["faults"]) for r in rows]
    assert len(outcomes["reference"]) == 6 and all(r[3] == "done" for r in outcomes["reference"])
    assert outcomes["crashed"] == outcomes["reference"]
    # The killed ladders' referees and bots noticed and went away.
    deadline = time.monotonic() + 10
    while (left := processes_in(tmp_path)) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not left, f"processes left behind: {left}"


async def test_an_unplayable_match_is_an_executor_error_not_a_bot_fault(tmp_path):
    from ladder.executor import LocalExecutor

    db = open_store(tmp_path / "l.db")
    seed_bots(db, 2)  # their folders are empty: no bot.toml
    plan(db, "e", "tapa", "round-robin", 1)
    progress = await run_units(db, "e", LocalExecutor(), concurrency=2)
    assert progress.errors == 2 and progress.faults == 0
    assert len(progress.failures) == 2 and all("has no bot.toml" in line for line in progress.failures)
    unit = next(iter(db["units"].rows))
    assert unit["status"] == "error"
    for match in db["matches"].rows:
        assert match["status"] == "error" and "executor_error" in match["error"] and "has no bot.toml" in match["error"]
    assert standings(db, "tapa") == []


@pytest.mark.parametrize("where", ["/etc", "../elsewhere", "l-replays", "l-bots/link"])
async def test_the_league_runs_only_bots_it_copied(tmp_path, where):
    """A version whose path was changed in the database to a folder out of the league's copies (absolute, a
    neighbour, the replays, a link out of the copies) stops the league before any match."""
    db = open_store(tmp_path / "l.db")
    seed_bots(db, 2)
    plan(db, "m", "tapa", "round-robin", 1)
    (tmp_path.parent / "elsewhere").mkdir(exist_ok=True)
    (tmp_path / "l-replays").mkdir(exist_ok=True)
    (tmp_path / "l-bots" / "link").symlink_to("/etc")
    with db.atomic():
        db.execute("update versions set path = ? where id = 1", [where])
    fake = FakeExecutor()
    with pytest.raises(MissingBots, match=r"bots outside the league's copies .*: bot0 v1 at "):
        await run_units(db, "m", fake)
    assert fake.jobs == []


async def test_a_missing_bot_stops_the_league_before_any_match(tmp_path):
    db = open_store(tmp_path / "l.db")
    seed_bots(db, 2)
    plan(db, "m", "tapa", "round-robin", 1)
    (tmp_path / "l-bots" / "bot1").rmdir()
    fake = FakeExecutor()
    with pytest.raises(MissingBots, match=r"bots missing: bot1 v1 at .*/l-bots/bot1"):
        await run_units(db, "m", fake)
    assert fake.jobs == [] and {row["status"] for row in db["matches"].rows} == {"pending"}


async def test_durak_arenas_with_four_seats_and_teams(tmp_path):
    """Four Durak bots join durak-2, durak-4 and durak-2v2; four-seat and team units run for real, partners share
    their place, and every arena has standings."""
    from ladder.executor import LocalExecutor
    from ladder.registry import submit

    db_path = tmp_path / "l.db"
    db = open_store(db_path)
    executor = LocalExecutor()
    for name in ("a", "b", "c", "d"):
        report = await submit(db, db_path, str(random_bot_folder(tmp_path, name, '["durak"]')), executor)
        assert report.accepted, report.text()
    assert sorted(row["id"] for row in db["arenas"].rows) == ["durak-2", "durak-2v2", "durak-4"]
    assert plan(db, "L", "durak-4", "round-robin", 1) == 1
    assert plan(db, "L", "durak-2v2", "round-robin", 1) == 2  # units of the league so far
    progress = await run_units(db, "L", executor, concurrency=2)
    assert progress.done == progress.total == 8 and progress.errors == 0
    won: dict[int, int] = {}
    for row in db.query("select seats, points from matches where arena_id = 'durak-2v2'"):
        points = json.loads(row["points"])
        assert points[0] == points[2] and points[1] == points[3]
        for version, mine in zip(json.loads(row["seats"]), points):
            won[version] = won.get(version, 0) + (mine == max(points) and min(points) < max(points))
    kept = {row[0]: row[1:] for row in db.execute("select version_id, wins, draws from arena_bots "
                                                   "where arena_id = 'durak-2v2'")}
    assert {version: kept[version][0] for version in won} == won and sum(won.values()) > 0  # a team's win is W
    for arena in ("durak-4", "durak-2v2"):
        assert len(standings(db, arena)) == 4


async def test_matches_are_marked_running_while_they_play(tmp_path):
    db = open_store(tmp_path / "l.db")
    seed_bots(db, 2)
    plan(db, "r", "tapa", "round-robin", 1)
    seen = []

    class Watching(FakeExecutor):
        async def run(self, job):
            seen.append(db["matches"].get(job.match_id)["status"])
            return await super().run(job)

    await run_units(db, "r", Watching())
    assert seen == ["running", "running"] and {row["status"] for row in db["matches"].rows} == {"done"}
