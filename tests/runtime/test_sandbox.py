"""The sandbox: every escape a hostile bot tries fails and leaves the host unchanged, limits end a bot with a
resource_limit fault, the shipped bots play inside it, and ``--sandbox on`` refuses clearly where it cannot work."""

from __future__ import annotations

import dataclasses
import os
import random
import signal
import socket
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
import trio
from click.testing import CliRunner

from referee.cli import main
from referee.games import CHANCE, make_game
from referee.runtime import BotSpec, Clock, default_store, prepare_bot, resolve_bot, run_game
from referee.runtime import sandbox as sandbox_module
from referee.runtime.cgroups import BotCgroup, enter_command
from referee.runtime.process import ProcessPlayer
from referee.runtime.sandbox import Limits, sandbox_problem
from referee.wire import ActRequest, ClockInfo, LegalAction

from .hostile import hostile_folder, processes_in, wait_for

ROOT = Path(__file__).resolve().parents[2]
ESCAPER = resolve_bot(Path(__file__).parent / "bots" / "escape_bot.py")
RANDOM = resolve_bot(ROOT / "bots" / "python" / "random_bot.py")
MARKER = "kafana-escape-marker"

needs_sandbox = pytest.mark.skipif(sandbox_problem() is not None, reason=f"no sandbox here: {sandbox_problem()}")


def escaper(misdeed: str, target: object = "") -> BotSpec:
    """The hostile bot, told its misdeed through the environment its manifest would declare."""
    return dataclasses.replace(ESCAPER, env=(("KAFANA_TEST_MISDEED", misdeed), ("KAFANA_TEST_TARGET", str(target))))


async def play(misdeed, target="", limits=None, bots=None):
    return await run_game(
        make_game("tapa"),
        bots or [escaper(misdeed, target), RANDOM],
        match_id=f"sandbox-{misdeed}",
        seed=3,
        clock=Clock(),
        replay_path=None,
        sandboxed=True,
        **({"limits": limits} if limits else {}),
    )


def said(record) -> str:
    return record.output[0]["stderr"]


def open_folder(tmp_path: Path) -> Path:
    """A folder other users may read, like a bot's folder in a league."""
    folder = tmp_path / "open"
    folder.mkdir()
    folder.chmod(0o755)
    return folder


@needs_sandbox
@pytest.mark.parametrize("misdeed", ["write", "write-own-folder"])
async def test_writes_outside_tmp_fail(tmp_path, misdeed):
    target = open_folder(tmp_path) / "escaped.txt"
    record = await play(misdeed, target)
    assert record.faults == () and "DENIED" in said(record)
    assert not target.exists() and not (ESCAPER.cwd / "escape.txt").exists()


@needs_sandbox
async def test_other_bots_and_the_league_are_not_there(tmp_path):
    secret = open_folder(tmp_path) / "league.db"
    secret.write_text("the league's secrets")
    secret.chmod(0o644)
    record = await play("read", secret)
    assert "DENIED" in said(record) and "secrets" not in said(record)
    other = await play("read", ROOT / "pyproject.toml")  # outside the bot's folder and the packages
    assert "DENIED" in said(other)


@needs_sandbox
async def test_no_network_not_even_the_hosts_loopback():
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        listener.setblocking(False)
        record = await play("connect", f"127.0.0.1:{listener.getsockname()[1]}")
        with pytest.raises(BlockingIOError):
            listener.accept()
    assert "DENIED" in said(record)
    outside = await play("connect", "192.0.2.1:80")
    assert "DENIED" in said(outside)


def marked_processes() -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if MARKER in (entry / "cmdline").read_bytes().decode(errors="replace"):
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


@needs_sandbox
@pytest.mark.alone  # it looks for hostile bots' processes anywhere on the machine
@pytest.mark.parametrize("misdeed", ["daemon", "ignore-sigterm", "double-fork"])
async def test_nothing_outlives_the_bot(misdeed):
    record = await play(misdeed)
    assert record.faults == () and "DENIED" not in said(record)
    await trio.sleep(0.5)
    assert marked_processes() == []


def private_random_bot(folder: Path) -> Path:
    """A copy of the random bot in ``folder`` (so that its processes are told apart by their folder)."""
    folder.mkdir(mode=0o755)
    (folder / "bot.py").write_text(RANDOM.path.read_text())
    return folder / "bot.py"


@needs_sandbox
@pytest.mark.parametrize("paused", [[], ["--pause-off-turn"]], ids=["running", "paused-off-turn"])
def test_a_sigkilled_referee_leaves_no_bot_behind(tmp_path, paused):
    """Daemons in new sessions, a double fork, a bot ignoring SIGTERM: SIGKILL of ``referee play`` mid-game, and
    2 s later nothing of any bot is left (the kernel ends the sandbox with the thread that started it), stopped
    off turn or not."""
    hostile = hostile_folder(tmp_path, "daemon+double-fork+ignore-sigterm+dawdle")
    referee = subprocess.Popen(
        [sys.executable, "-m", "referee.cli", "play", "tapa", str(hostile), str(private_random_bot(tmp_path / "r")),
         "--sandbox", "on", "--out", str(tmp_path / "replays"), *paused],
        stdout=(tmp_path / "out.txt").open("w"), stderr=subprocess.STDOUT,
    )
    try:
        assert wait_for(lambda: len(marked_processes()) >= 2, 30), (tmp_path / "out.txt").read_text()
        referee.send_signal(signal.SIGKILL)
        referee.wait()
        time.sleep(2)
        assert marked_processes() == [] and processes_in(tmp_path) == []
    finally:
        referee.kill()
        for pid in marked_processes():
            os.kill(pid, signal.SIGKILL)


def bots_running_in(folder: Path) -> list[int]:
    """Processes in ``folder`` that run as a sandbox's own uid: bots, past their sandbox's set-up."""
    return [pid for pid in processes_in(folder) if Path(f"/proc/{pid}").stat().st_uid != 0]


@needs_sandbox
def test_a_terminated_check_bot_leaves_no_bot_behind(tmp_path):
    bot = private_random_bot(tmp_path / "r")
    checking = subprocess.Popen(
        [sys.executable, "-m", "referee.cli", "check-bot", str(bot), "--sandbox", "on"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        assert wait_for(lambda: bool(bots_running_in(tmp_path)), 30), "check-bot never started the bot"
        checking.send_signal(signal.SIGTERM)
        checking.wait(timeout=10)
        time.sleep(2)
        assert processes_in(tmp_path) == []
    finally:
        checking.kill()


@needs_sandbox
async def test_a_full_tmp_is_a_disk_resource_limit():
    """The bot's only writable place is its /tmp, in memory and capped; filling it is a recorded fault."""
    record = await play("fill-tmp", limits=Limits(tmp_bytes=16 << 20))
    assert [(f.seat, f.kind) for f in record.faults] == [(0, "resource_limit")]
    assert record.faults[0].message == "disk limit: filled its /tmp of 16 MiB"
    # the write failed (the referee, seeing the full /tmp, may end the bot before it says so)
    assert said(record).strip() in ("", "misdeed fill-tmp: DENIED OSError")


@needs_sandbox
async def test_the_operators_environment_stays_out(monkeypatch):
    monkeypatch.setenv("KAFANA_OPERATOR_SECRET", "hunter2")
    record = await play("read-env")
    names = said(record).split("ENV ", 1)[1].split("\n", 1)[0].split()
    assert sorted(names) == sorted(
        ["HOME", "KAFANA_BOT_ADDRESS", "KAFANA_TEST_MISDEED", "KAFANA_TEST_TARGET", "LANG", "PATH", "PWD",
         "PYTHONDONTWRITEBYTECODE", "PYTHONUNBUFFERED"]
    )


async def test_without_the_sandbox_a_daemon_escapes():
    """The control for the test above: outside the sandbox a daemon in its own session survives the game."""
    record = await run_game(
        make_game("tapa"), [escaper("daemon"), RANDOM], match_id="control", seed=3, clock=Clock(), replay_path=None
    )
    escaped = marked_processes()
    for pid in escaped:
        os.kill(pid, signal.SIGKILL)
    assert "SPAWNED" in said(record) and escaped


@needs_sandbox
@pytest.mark.parametrize(
    ("misdeed", "limits", "limit"),
    [
        ("burn-cpu", Limits(cpu_seconds=1), "cpu"),
        ("big-file", Limits(file_bytes=1 << 20, tmp_bytes=8 << 20), "file_size"),
    ],
)
async def test_limits_end_the_bot_with_a_resource_limit(misdeed, limits, limit):
    record = await play(misdeed, limits=limits)
    assert [(f.seat, f.kind) for f in record.faults] == [(0, "resource_limit")]
    assert record.faults[0].message.startswith(f"{limit} limit")


def _cgroups_here() -> bool:
    probe = BotCgroup.caps(f"probe-{os.getpid()}", 1 << 30, 64)
    if probe is None:
        return False
    probe.remove()
    return True


@needs_sandbox
@pytest.mark.skipif(not _cgroups_here(), reason="no writable memory and pids cgroups here")
@pytest.mark.parametrize(
    ("misdeed", "limits", "limit"),
    [
        ("memory-hog", Limits(resident_bytes=256 << 20), "memory"),
        ("fork-bomb", Limits(processes=32), "processes"),
    ],
)
async def test_cgroup_caps_end_the_bot_with_a_named_resource_limit(misdeed, limits, limit):
    record = await play(misdeed, limits=limits)
    assert [(f.seat, f.kind) for f in record.faults] == [(0, "resource_limit")]
    assert record.faults[0].message.startswith(f"{limit} limit"), record.faults[0].message


@needs_sandbox
async def test_the_starters_play_in_the_sandbox():
    go = prepare_bot(ROOT / "bots" / "go", default_store())
    bots = [go, resolve_bot(ROOT / "bots" / "python" / "heuristic_bot.py")]
    record = await run_game(
        make_game("tapa"), bots, match_id="sandboxed", seed=1, clock=Clock(), replay_path=None, sandboxed=True
    )
    assert record.faults == () and record.bots == ("random-go", "heuristic")


@needs_sandbox
async def test_an_unreadable_bot_folder_is_a_clear_fault(tmp_path):
    folder = tmp_path / "closed"
    folder.mkdir()
    (folder / "bot.py").write_text((ROOT / "bots" / "python" / "random_bot.py").read_text())
    folder.chmod(0o700)
    record = await run_game(
        make_game("tapa"), [resolve_bot(folder / "bot.py"), RANDOM], match_id="closed", seed=1, clock=Clock(),
        replay_path=None, sandboxed=True,
    )
    assert record.faults[0].kind == "crash" and "chmod o+rx" in record.faults[0].message
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700


def test_on_refuses_and_auto_falls_back_where_the_sandbox_cannot_work(monkeypatch, tmp_path):
    monkeypatch.setattr(sandbox_module, "sandbox_problem", lambda: "missing bwrap (Debian: apt-get install bubblewrap)")
    monkeypatch.setattr("referee.cli.sandbox_problem", sandbox_module.sandbox_problem)
    runner = CliRunner()
    bots = [str(RANDOM.path), str(RANDOM.path)]
    refused = runner.invoke(main, ["play", "tapa", *bots, "--sandbox", "on", "--out", str(tmp_path)])
    assert refused.exit_code == 2 and "cannot work here: missing bwrap" in refused.output
    fallback = runner.invoke(main, ["play", "tapa", *bots, "--sandbox", "auto", "--out", str(tmp_path)])
    assert fallback.exit_code == 0 and "sandbox: off (missing bwrap" in fallback.output
    assert os.path.exists(tmp_path / "tapa-s1-001.jsonl")


@needs_sandbox
async def test_a_sandboxed_bot_outlives_trios_worker_threads(monkeypatch):
    """bubblewrap's --die-with-parent fires when the thread that forked it ends; trio's worker threads retire
    after idling (10 s), but the bot is forked by the thread running trio, so it lives on."""
    from trio._core import _thread_cache

    monkeypatch.setattr(_thread_cache, "IDLE_TIMEOUT", 0.1)
    player = ProcessPlayer(0, RANDOM, None, "tapa", sandboxed=True)
    async with trio.open_nursery() as nursery:
        await nursery.start(player.run)
        await trio.sleep(1.5)  # the worker thread that started it has retired
        state = make_game("tapa").new_state()
        while state.current_player == CHANCE:
            state.apply(state.sample_chance(random.Random(1)))
        request = ActRequest("idle", 1, "tapa", state.current_player, {}, 0, state.view(state.current_player),
                             ClockInfo(5000, 0, 5000, 5000),
                             tuple(LegalAction(i, a.notation(), a) for i, a in enumerate(state.legal_actions())))
        player.seat = state.current_player
        answer = await player.act(request, 5.0)
        assert 0 <= answer.action_id < len(request.legal_actions)
        player.close()


def test_cgroups_of_dead_referees_are_swept(tmp_path):
    from referee.runtime.cgroups import GROUP, sweep_stale

    dead, alive, other = (tmp_path / "memory" / GROUP / name for name in ("99999999-0-a", f"{os.getpid()}-0-b", "x"))
    for folder in (dead, alive, other):
        folder.mkdir(parents=True)
    sweep_stale(tmp_path, ["memory", "pids"])
    assert not dead.exists() and alive.exists() and other.exists()


@pytest.mark.skipif(not _cgroups_here(), reason="no writable memory and pids cgroups here")
def test_what_a_dead_referee_left_in_its_cgroups_is_killed_by_the_next():
    """A referee killed while a sandbox was in its first milliseconds can leave it waiting for ever; the next
    referee to make a cgroup kills it and removes the group."""
    from referee.runtime.cgroups import ROOT as CGROUPS
    from referee.runtime.cgroups import sweep_stale

    group = BotCgroup.caps("99999999-0-left", 1 << 30, 64)  # no such pid: its referee is dead
    left = subprocess.Popen(enter_command([group]) + ["sleep", "60"])
    try:
        assert wait_for(lambda: str(left.pid) in (group.folders["pids"] / "cgroup.procs").read_text(), 5)
        sweep_stale(CGROUPS, ["memory", "pids"])
        assert left.wait(timeout=5) == -signal.SIGKILL
        assert not any(folder.exists() for folder in group.folders.values())
    finally:
        left.kill()
        group.remove()


@pytest.mark.skipif(not _cgroups_here(), reason="no writable memory and pids cgroups here")
def test_a_cap_hit_after_earlier_checks_is_seen():
    """The control files are read through descriptors kept open: a check after a clean one still sees the cap."""
    group = BotCgroup.caps(f"{os.getpid()}-0-recheck", 1 << 30, 2)
    assert group is not None
    try:
        assert group.exceeded() is None
        moves = enter_command([group])
        subprocess.run(moves + ["sh", "-c", "sleep 1 & sleep 1 & sleep 1 & wait"], capture_output=True, timeout=10)
        assert group.exceeded() == "processes"
    finally:
        group.remove()


def test_a_private_tmp_is_checked_through_its_descriptor(tmp_path):
    from referee.runtime.sandbox import PrivateTmp

    (tmp_path / "tmp").mkdir()
    tmp = PrivateTmp(os.open(tmp_path / "tmp", os.O_PATH | os.O_DIRECTORY))
    assert not tmp.full()
    (tmp_path / "tmp").rename(tmp_path / "moved")  # checks go through the descriptor, not the path
    assert not tmp.full()
    tmp.close()
    tmp.close()
    assert not tmp.full()  # a closed one is not full
