"""A league on a real Dask cluster on loopback (a `dask scheduler` and two `dask worker` processes): one worker is
killed in the middle of a match, its match is played again elsewhere and counted once, and the stored results and
replays equal those of a local run of the same league (timings and the bots' storage paths aside)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ladder.dask_cluster import loopback_cluster
from ladder.dask_executor import DaskExecutor
from ladder.executor import LocalExecutor, MatchJob
from ladder.league import plan, run_units
from ladder.registry import submit
from ladder.store import open_store, resolved_path
from referee.replay import replay_bytes

from ._fakes import FakeExecutor, counting_seeds, random_bot_folder


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """A scheduler and two workers as separate processes; yields the address and the workers by name (the test
    that kills a worker runs last)."""
    with loopback_cluster(2, tmp_path_factory.mktemp("cluster-logs")) as running:
        yield running.address, running.workers


def stored(db) -> list[tuple]:
    """Every stored match: id, status, result and its replay without timings and storage paths."""
    rows = []
    for row in db.query("select * from matches order by id"):
        replay = []
        for line in replay_bytes(resolved_path(db, row["replay_path"])).decode().splitlines():
            record = json.loads(line)
            record.pop("ms", None)
            for seat in record.get("seats", []):
                seat.pop("path", None)
            replay.append(record)
        rows.append((row["id"], row["status"], row["termination"], row["points"], row["games"], row["faults"],
                     row["decisions"], replay))
    return rows


async def enter_bots(folder: Path):
    """A league database with two random bots entered in tapa (their conformance runs are not under test here)."""
    db_path = folder / "league.db"
    db = open_store(db_path)
    for name in ("calm", "quiet"):
        assert (await submit(db, db_path, str(random_bot_folder(folder, name)), FakeExecutor())).accepted
    return db, db_path


async def league(folder: Path, executor, on_progress=None):
    db, _ = await enter_bots(folder)
    # One pairing, three seeds, both seatings: 6 matches, the same seeds in every league.
    plan(db, "same", "tapa", "round-robin", 3, new_seed=counting_seeds())
    progress = await run_units(db, "same", executor, concurrency=2, on_progress=on_progress)
    assert progress.done == progress.total == 6 and progress.errors == 0
    return db


async def test_a_worker_without_the_bots_runtime_is_an_executor_error(tmp_path, cluster):
    address, _ = cluster
    bot = tmp_path / "exotic"
    bot.mkdir()
    bot.chmod(0o755)
    (bot / "bot.toml").write_text('name = "exotic"\nversion = "1"\ncommand = ["kafana-no-such-runtime", "bot.x"]\n')
    (bot / "bot.x").write_text("")
    executor = DaskExecutor(address)
    try:
        job = MatchJob("exotic-1", "tapa", {}, (str(bot), str(random_bot_folder(tmp_path, "calm"))), 1,
                       str(tmp_path / "replay.jsonl"))
        result = await executor.run(job)
    finally:
        executor.close()
    assert result.error is not None and result.error.kind == "bots"
    assert result.error.detail.startswith("cannot start") and "kafana-no-such-runtime" in result.error.detail
    assert str(result.error).startswith("executor_error (bots): cannot start")
    assert result.faults == () and not (tmp_path / "replay.jsonl").exists()


async def test_the_league_command_on_dask(tmp_path, cluster):
    address, _ = cluster
    ladder = str(Path(sys.executable).parent / "ladder")
    _, db_path = await enter_bots(tmp_path)
    db = str(db_path)
    done = subprocess.run([ladder, "league", "--arena", "tapa", "--executor", "dask", "--scheduler", address,
                           "--db", db], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2/2 matches done, 0 running, 0 faults, 0 errors" in done.stdout + done.stderr
    assert "calm v1" in done.stdout and "quiet v1" in done.stdout
    wrong = subprocess.run([ladder, "league", "--arena", "tapa", "--executor", "dask", "--db", db],
                           capture_output=True, text=True, timeout=60)
    assert wrong.returncode == 2 and "--executor dask and --scheduler go together" in wrong.stderr


async def test_a_killed_ladder_resumes_its_dask_league(tmp_path, cluster):
    """SIGKILL the ladder while the cluster plays its matches; the same command finishes the league, and every
    match is stored once."""
    address, _ = cluster
    ladder = str(Path(sys.executable).parent / "ladder")
    db, db_path = await enter_bots(tmp_path)
    command = [ladder, "league", "--arena", "tapa", "--rounds", "3", "--league", "resumed", "--executor", "dask",
               "--scheduler", address, "--db", str(db_path)]
    first = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not db.execute("select count(*) from units where status = 'done'").fetchone()[0]:
        time.sleep(0.2)
    first.send_signal(signal.SIGKILL)
    first.wait()
    done_before = db.execute("select count(*) from units where status = 'done'").fetchone()[0]
    assert 1 <= done_before < 3
    again = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stdout + again.stderr
    rows = list(db.query("select id, status from matches"))
    assert len(rows) == 6 and {row["status"] for row in rows} == {"done"}
    assert db.execute("select count(*) from units where status = 'done'").fetchone()[0] == 3


async def test_a_league_on_dask_survives_a_dead_worker_and_equals_a_local_run(tmp_path, cluster):
    address, workers = cluster
    local = await league(tmp_path / "local", LocalExecutor())
    executor = DaskExecutor(address)
    killed: list[str] = []

    def kill_a_busy_worker(progress) -> None:
        if killed or progress.done < 1:
            return
        info = executor.client.scheduler_info()["workers"]
        busy = [info[addr]["name"] for addr, keys in executor.client.processing().items() if keys and addr in info]
        if busy:
            workers[busy[0]].send_signal(signal.SIGKILL)
            killed.append(busy[0])

    try:
        remote = await league(tmp_path / "dask", executor, kill_a_busy_worker)
    finally:
        executor.close()
    assert killed, "no match was running when the first one finished"
    assert workers[killed[0]].wait(timeout=10) == -signal.SIGKILL
    assert stored(remote) == stored(local)


@pytest.mark.alone  # it looks for referees anywhere on the machine
def test_no_stray_processes_after_the_cluster(tmp_path):
    """The referees of a killed worker stop by themselves (they watch for their parent's death)."""
    time.sleep(0.5)
    left = subprocess.run(["pgrep", "-f", "referee.cli run-match"], capture_output=True, text=True).stdout.split()
    assert [pid for pid in left if int(pid) != os.getpid()] == []
