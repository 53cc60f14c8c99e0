"""A match worker's share of the cores (``referee serve-matches --cores``): the worker and the bots it starts play
on it, a sandboxed bot cannot move itself off it where cpuset cgroups can be made, and a share it cannot have is
refused in one line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from referee.runtime.affinity import format_cores, usable_cores
from referee.runtime.cgroups import BotCgroup
from referee.runtime.sandbox import sandbox_problem

CORES_BOT = Path(__file__).parent / "bots" / "cores_bot.py"
LAST = max(usable_cores())
"""The core the tests give a worker: the last this process may use."""


def _cpusets_here() -> bool:
    probe = BotCgroup.cores(f"probe-{os.getpid()}", [LAST])
    if probe is None:
        return False
    probe.remove()
    return True


def serve(tmp_path: Path, *options: str, matches: int = 1) -> subprocess.CompletedProcess:
    """``referee serve-matches`` with ``options``, playing ``matches`` tapa matches of the cores bot against
    itself."""
    bot = str(CORES_BOT)
    lines = "".join(
        json.dumps({"game": "tapa", "bots": [bot, bot], "seed": str(index), "seed_secret": True,
                    "match_id": f"m{index}", "unit": f"u{index}", "replay": str(tmp_path / f"m{index}.jsonl")}) + "\n"
        for index in range(matches)
    )
    return subprocess.run([sys.executable, "-m", "referee.cli", "serve-matches", *options], input=lines,
                          capture_output=True, text=True, timeout=300)


def bot_names(done: subprocess.CompletedProcess) -> list[str]:
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert all(answer["termination"] == "normal" for answer in answers), answers
    return [name for answer in answers for name in answer["bots"]]


def test_a_worker_given_cores_starts_its_bots_on_them(tmp_path):
    """Without the sandbox nothing holds a bot there: it starts on the worker's core and may leave."""
    names = bot_names(serve(tmp_path, "--sandbox", "off", "--cores", str(LAST), matches=2))
    assert len(names) == 4 and all(name.startswith(f"cores-{LAST}-then-") for name in names), names


@pytest.mark.skipif(sandbox_problem() is not None, reason=f"no sandbox here: {sandbox_problem()}")
@pytest.mark.skipif(not _cpusets_here(), reason="no writable cpuset cgroups here")
def test_a_sandboxed_bot_cannot_move_itself_off_its_workers_cores(tmp_path):
    names = bot_names(serve(tmp_path, "--sandbox", "on", "--cores", str(LAST)))
    assert names == [f"cores-{LAST}-then-{LAST}"] * 2


def test_a_worker_without_cores_leaves_its_bots_where_the_machine_puts_them(tmp_path):
    everywhere = ".".join(map(str, sorted(usable_cores())))
    assert bot_names(serve(tmp_path, "--sandbox", "off")) == [f"cores-{everywhere}-then-{everywhere}"] * 2


@pytest.mark.parametrize(
    ("cores", "said"),
    [
        ("9999", f"Error: cores 9999 are not among the usable {format_cores(usable_cores())}"),
        ("1-x", "Error: '1-x' is not a list of cores like 0-3,6"),
        ("3-1", "Error: '3-1' is not a list of cores like 0-3,6"),
    ],
)
def test_a_worker_refuses_cores_it_cannot_have_in_one_line(tmp_path, cores, said):
    done = serve(tmp_path, "--sandbox", "off", "--cores", cores, matches=0)
    assert done.returncode == 2 and done.stderr.strip().splitlines()[-1] == said
    assert "Traceback" not in done.stderr
