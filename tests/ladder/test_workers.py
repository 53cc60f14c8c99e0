"""Match workers share the cores out: matches played at once each keep to their own share, and a worker that dies
hands its share to the one that replaces it."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
import trio

from ladder.executor import LocalExecutor, MatchJob, MatchResult
from ladder.workers import at_once, core_shares, sweep_folders
from referee.runtime.affinity import usable_cores

CORES_BOT = str(Path(__file__).resolve().parents[1] / "runtime" / "bots" / "cores_bot.py")


@pytest.mark.parametrize(
    ("workers", "cores", "shares"),
    [
        (1, [0, 1], []),
        (2, [0], []),
        (2, [0, 1], [(0,), (1,)]),
        (2, [5, 2, 7], [(2, 5), (7,)]),
        (3, range(8), [(0, 1, 2), (3, 4, 5), (6, 7)]),
        (4, range(4), [(0,), (1,), (2,), (3,)]),
        (5, [0, 1], [(0,), (1,), (0,), (1,), (0,)]),
    ],
)
def test_core_shares_are_as_even_as_can_be(workers, cores, shares):
    assert core_shares(workers, cores) == shares


def started_on(result: MatchResult) -> set[str]:
    """Where the match's bots were started (the cores bot says so in its name)."""
    assert not result.error, result.error
    return {name.split("-then-")[0].removeprefix("cores-") for name in result.bots}


async def test_matches_played_at_once_keep_to_their_own_cores_and_a_new_worker_takes_a_dead_ones(tmp_path):
    executor = LocalExecutor(sandbox="off")
    expected = [".".join(map(str, share)) for share in core_shares(2, usable_cores())] or [
        ".".join(map(str, sorted(usable_cores())))
    ] * 2
    results: list[MatchResult] = []

    async def play(number: int) -> None:
        job = MatchJob(match_id=f"m{number}", game="tapa", options={}, bots=(CORES_BOT, CORES_BOT),
                       seed=str(number), replay=str(tmp_path / f"m{number}.jsonl"), unit=f"u{number}")
        results.append(await executor.run(job))

    async def two_at_once(first: int) -> list[set[str]]:
        results.clear()
        async with trio.open_nursery() as nursery:
            nursery.start_soon(play, first)
            nursery.start_soon(play, first + 1)
        return [started_on(result) for result in results]

    async with executor.session(2):
        shares = await two_at_once(0)
        assert sorted(core for share in shares for core in share) == sorted(expected)
        pool = executor._workers
        assert pool is not None
        first = next(worker for worker in pool._all if worker.slot == 0)
        first.process.kill()
        await first.process.wait()
        again = await two_at_once(2)
        assert sorted(core for share in again for core in share) == sorted(expected)
        assert len(pool._all) == 3 and pool._all[-1].slot == 0


async def test_no_more_matches_play_at_once_than_there_are_cores(tmp_path):
    """Concurrency 4 on two cores plays two matches at a time on two workers, each on its own core, and the other
    two wait their turn (two matches on one core cost each more CPU than their overlap saves)."""
    executor = LocalExecutor(sandbox="off")
    playing = at_once(4, usable_cores())
    results: list[MatchResult] = []

    async def play(number: int) -> None:
        job = MatchJob(match_id=f"m{number}", game="tapa", options={}, bots=(CORES_BOT, CORES_BOT),
                       seed=str(number), replay=str(tmp_path / f"m{number}.jsonl"), unit=f"u{number}")
        results.append(await executor.run(job))

    async with executor.session(4):
        async with trio.open_nursery() as nursery:
            for number in range(4):
                nursery.start_soon(play, number)
        pool = executor._workers
        assert pool is not None and len(pool._all) == playing
        assert sorted(worker.slot for worker in pool._all) == list(range(playing))
    assert len(results) == 4 and all(not result.error for result in results)
    shares = {core for result in results for core in started_on(result)}
    assert shares == {".".join(map(str, share)) for share in core_shares(playing, usable_cores())} or playing == 1


async def test_workers_leave_no_temporary_folder_however_they_end(tmp_path, monkeypatch):
    """A worker killed in the middle (as a hung match's is) and workers stopped at the end remove their folders,
    their bot pools' inside them."""
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temporary))
    executor = LocalExecutor(sandbox="off")
    job = MatchJob(match_id="m", game="tapa", options={}, bots=(CORES_BOT, CORES_BOT), seed="1",
                   replay=str(tmp_path / "m.jsonl"), unit="u")
    async with executor.session(2):
        assert not (await executor.run(job)).error
        pool = executor._workers
        assert pool is not None and len(list(temporary.glob("kafana-worker-*/kafana-pool-*"))) == 1
        pool._all[0].process.kill()
        await pool._all[0].process.wait()
        await trio.sleep(0.1)
        assert list(temporary.iterdir()) == []
        assert not (await executor.run(job)).error
    assert list(temporary.iterdir()) == []


def test_the_folders_of_a_killed_ladders_workers_are_swept(tmp_path):
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    (tmp_path / f"kafana-worker-{dead.pid}-abc" / "kafana-pool-x").mkdir(parents=True)
    (tmp_path / f"kafana-worker-{os.getpid()}-def").mkdir()
    (tmp_path / "kafana-worker-unrelated").mkdir()
    assert sweep_folders(tmp_path) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"kafana-worker-{os.getpid()}-def", "kafana-worker-unrelated"]


def test_tables_of_more_than_two_seats_pause_their_bots_unless_told():
    def job(seats: int) -> MatchJob:
        return MatchJob("m", "durak", {}, ("bot.py",) * seats, "seed", "m.jsonl")

    by_default = LocalExecutor(sandbox="off")
    assert [by_default.spec(job(seats))["pause_off_turn"] for seats in (1, 2, 3, 4, 6)] == [False] * 2 + [True] * 3
    assert LocalExecutor(sandbox="off", pause_off_turn=False).spec(job(4))["pause_off_turn"] is False
    assert LocalExecutor(sandbox="off", pause_off_turn=True).spec(job(2))["pause_off_turn"] is True
