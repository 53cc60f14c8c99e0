"""The sandbox: every escape a hostile bot tries fails and leaves the host unchanged, limits end a bot with a
resource_limit fault, the shipped bots play inside it, and ``--sandbox on`` refuses clearly where it cannot work."""

from __future__ import annotations

import os
import random
import signal
import socket
import stat
import tempfile
from pathlib import Path

import pytest
import trio
from click.testing import CliRunner

from referee.cli import main
from referee.games import CHANCE, make_game
from referee.runtime import Clock, resolve_bot, run_game
from referee.runtime import sandbox as sandbox_module
from referee.runtime.cgroups import BotCgroup
from referee.runtime.process import ProcessPlayer, bot_address
from referee.runtime.sandbox import Limits, sandbox_problem
from referee.wire import ActRequest, ClockInfo, LegalAction

ROOT = Path(__file__).resolve().parents[2]
ESCAPER = resolve_bot(Path(__file__).parent / "bots" / "escape_bot.py")
RANDOM = resolve_bot(ROOT / "bots" / "python" / "random_bot.py")
MARKER = "kafana-escape-marker"

needs_sandbox = pytest.mark.skipif(sandbox_problem() is not None, reason=f"no sandbox here: {sandbox_problem()}")


async def play(monkeypatch, misdeed, target="", limits=None, bots=None):
    monkeypatch.setenv("KAFANA_TEST_MISDEED", misdeed)
    monkeypatch.setenv("KAFANA_TEST_TARGET", str(target))
    monkeypatch.delenv("KAFANA_TEST_PIDS", raising=False)
    return await run_game(
        make_game("tapa"),
        bots or [ESCAPER, RANDOM],
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
async def test_writes_outside_tmp_fail(monkeypatch, tmp_path, misdeed):
    target = open_folder(tmp_path) / "escaped.txt"
    record = await play(monkeypatch, misdeed, target)
    assert record.faults == () and "DENIED" in said(record)
    assert not target.exists() and not (ESCAPER.cwd / "escape.txt").exists()


@needs_sandbox
async def test_other_bots_and_the_league_are_not_there(monkeypatch, tmp_path):
    secret = open_folder(tmp_path) / "league.db"
    secret.write_text("the league's secrets")
    secret.chmod(0o644)
    record = await play(monkeypatch, "read", secret)
    assert "DENIED" in said(record) and "secrets" not in said(record)
    other = await play(monkeypatch, "read", ROOT / "pyproject.toml")  # outside the bot's folder and the packages
    assert "DENIED" in said(other)


@needs_sandbox
async def test_no_network_not_even_loopback(monkeypatch):
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        listener.setblocking(False)
        record = await play(monkeypatch, "connect", f"127.0.0.1:{listener.getsockname()[1]}")
        with pytest.raises(BlockingIOError):
            listener.accept()
    assert "DENIED" in said(record)
    outside = await play(monkeypatch, "connect", "192.0.2.1:80")
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
@pytest.mark.parametrize("misdeed", ["daemon", "ignore-sigterm"])
async def test_nothing_outlives_the_bot(monkeypatch, misdeed):
    record = await play(monkeypatch, misdeed)
    assert record.faults == () and "DENIED" not in said(record)
    await trio.sleep(0.5)
    assert marked_processes() == []


async def test_without_the_sandbox_a_daemon_escapes(monkeypatch):
    """The control for the test above: outside the sandbox a daemon in its own session survives the game."""
    monkeypatch.setenv("KAFANA_TEST_MISDEED", "daemon")
    monkeypatch.delenv("KAFANA_TEST_PIDS", raising=False)
    record = await run_game(
        make_game("tapa"), [ESCAPER, RANDOM], match_id="control", seed=3, clock=Clock(), replay_path=None
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
async def test_limits_end_the_bot_with_a_resource_limit(monkeypatch, misdeed, limits, limit):
    record = await play(monkeypatch, misdeed, limits=limits)
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
async def test_cgroup_caps_end_the_bot_with_a_named_resource_limit(monkeypatch, misdeed, limits, limit):
    record = await play(monkeypatch, misdeed, limits=limits)
    assert [(f.seat, f.kind) for f in record.faults] == [(0, "resource_limit")]
    assert record.faults[0].message.startswith(f"{limit} limit"), record.faults[0].message


@needs_sandbox
async def test_the_starters_play_in_the_sandbox():
    bots = [resolve_bot(ROOT / "bots" / "go"), resolve_bot(ROOT / "bots" / "python" / "heuristic_bot.py")]
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
async def test_a_sandboxed_bot_outlives_the_thread_that_started_it(monkeypatch):
    """bubblewrap's --die-with-parent fires when the thread that forked it ends; trio forks from worker threads
    that retire after idling (10 s). A shell stays as bubblewrap's parent, so the bot lives on."""
    from trio._core import _thread_cache

    monkeypatch.setattr(_thread_cache, "IDLE_TIMEOUT", 0.1)
    player = ProcessPlayer(0, RANDOM, bot_address("unix", Path(tempfile.mkdtemp()), 0), "tapa", sandboxed=True)
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
