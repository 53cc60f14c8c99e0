"""``referee check-bot``: the random bot passes everything; each broken bot fails with a specific message."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.checkbot import check_bot
from referee.cli import main
from referee.runtime import resolve_bot
from referee.runtime.sandbox import sandbox_problem

ROOT = Path(__file__).resolve().parents[1]
HOSTILE = ROOT / "tests" / "runtime" / "bots"


def failures(report) -> dict[str, str]:
    return {c.name: c.detail for c in report.checks if not c.ok}


def test_the_random_bot_passes_and_exits_0():
    result = CliRunner().invoke(main, ["check-bot", str(ROOT / "bots" / "python" / "random_bot.py")])
    assert result.exit_code == 0, result.output
    assert "0 failed" in result.output
    for words in ("handshake", "the largest request", "a ladder stage", "a remainder", "ms left", "notify"):
        assert words in result.output
    assert "durak: a 6-seat throw-in poll" in result.output and "durak: a transfer" in result.output
    assert result.output.count("a full game against the random bot") == 7  # one per game id


async def test_wrong_game_claims():
    failed = failures(await check_bot(resolve_bot(HOSTILE / "wrong_game_bot.py")))
    assert failed["handshake"].startswith("no_hello: bad Hello: Hello lists unknown game ids 'chess' (known: ")


async def test_slow_handshake():
    failed = failures(await check_bot(resolve_bot(HOSTILE / "silent_bot.py"), startup_timeout=1.0))
    assert failed["handshake"].startswith("no_hello: no answer to Hello within 1s")


async def test_wrong_ids():
    failed = failures(await check_bot(resolve_bot(HOSTILE / "wrong_id_bot.py")))
    largest = next(detail for name, detail in failed.items() if name.startswith("tapa: the largest request"))
    assert "answered id" in largest
    assert failed["tapa: a full game against the random bot"].startswith("illegal_action")


def _bot_with_build(folder: Path, build: str) -> Path:
    folder.mkdir()
    (folder / "bot.toml").write_text(f'name = "b"\ncommand = ["build/bot"]\nbuild = {build}\n')
    return folder


async def test_failing_build(tmp_path):
    folder = _bot_with_build(tmp_path / "bot", '["sh", "-c", "echo missing header >&2; exit 3"]')
    report = await check_bot(resolve_bot(folder))
    assert [c.name for c in report.checks] == ["build"] and report.info is None
    assert "failed with exit code 3" in report.checks[0].detail and "missing header" in report.checks[0].detail


async def test_missing_toolchain(tmp_path):
    folder = _bot_with_build(tmp_path / "bot", '["no-such-compiler-kafana"]')
    report = await check_bot(resolve_bot(folder))
    assert "not found (is its toolchain installed?)" in failures(report)["build"]


def test_play_stops_on_a_failing_build(tmp_path):
    folder = _bot_with_build(tmp_path / "bot", '"false"')
    random_bot = str(ROOT / "bots" / "python" / "random_bot.py")
    result = CliRunner().invoke(main, ["play", "tapa", str(folder), random_bot, "--out", str(tmp_path)])
    assert result.exit_code == 1 and "build 'false' failed with exit code 1" in result.output


async def test_crash_in_one_game_only():
    report = await check_bot(resolve_bot(HOSTILE / "gjul_crash_bot.py"))
    failed = failures(report)
    assert failed and all(name.startswith("gjul-bara") for name in failed)
    assert failed["gjul-bara: a full game against the random bot"] == "crash: exited with exit code 4"
    assert any(c.ok and c.name == "tapa: a full game against the random bot" for c in report.checks)
    assert not report.passed and report.info.name == "gjul-crasher"


def test_a_link_out_of_the_bot_folder_gets_a_one_line_answer(tmp_path):
    folder = tmp_path / "linked"
    folder.mkdir()
    (folder / "bot.toml").write_text('name = "linked"\ncommand = ["node", "bot.js"]\ngames = ["tapa"]\n')
    (folder / "bot.proto").symlink_to(ROOT / "proto" / "kafana" / "v1" / "bot.proto")
    result = CliRunner().invoke(main, ["check-bot", str(folder)])
    assert result.exit_code == 2
    last = result.output.strip().splitlines()[-1]
    assert last.startswith("Error: ") and "bot.proto links to" in last and "outside the bot's folder" in last


@pytest.mark.skipif(sandbox_problem() is not None, reason=f"no sandbox here: {sandbox_problem()}")
async def test_a_sandboxed_check_builds_in_the_sandbox(tmp_path):
    """``check-bot --sandbox on`` runs the bot's build as the sandbox's own uid (it once built as the referee's):
    the build records its uid and tries to write beside its folder."""
    folder = tmp_path / "bot"
    folder.mkdir()
    (folder / "bot.py").write_text((ROOT / "kit" / "example" / "random_bot.py").read_text())
    (folder / "bot.toml").write_text(
        'name = "random-kit"\ncommand = ["python3", "bot.py"]\ngames = ["tapa"]\n'
        "build = [\"sh\", \"-c\", \"id -u > uid; touch ../escaped || true\"]\n"
    )
    report = await check_bot(resolve_bot(folder), sandboxed=True, store=tmp_path / "store")
    copy = next((tmp_path / "store").glob("*/uid"))
    assert int(copy.read_text()) != 0
    assert not (tmp_path / "store" / "escaped").exists() and not (tmp_path / "escaped").exists()
    assert report.checks[0].name == "build" and all(check.ok for check in report.checks), report.checks


async def test_a_manifest_and_a_hello_that_name_two_bots_fail(tmp_path):
    folder = tmp_path / "policy"
    folder.mkdir()
    (folder / "bot.toml").write_text('name = "my-policy"\ncommand = ["python3", "bot.py"]\n')
    (folder / "bot.py").write_text("from bots.python.kit import serve\nfrom bots.python.random_bot import choose\n"
                                   "serve(choose, name='policy-tapa', games=['tapa'])\n")
    failed = failures(await check_bot(resolve_bot(folder), store=tmp_path / "copies"))
    assert failed == {"name": "the manifest calls it 'my-policy' and its Hello 'policy-tapa': a bot has one name, in "
                              "both (a ladder refuses it)"}
