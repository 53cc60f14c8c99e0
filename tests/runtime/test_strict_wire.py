"""A strict wire: answers that are not exactly an ActResponse are protocol errors (not action 0), Hello fields are
bounded and plain, and what a bot writes reaches terminals with its control characters shown, not obeyed."""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.checkbot import check_bot
from referee.cli import main
from referee.games import make_game
from referee.replay import read_replay
from referee.runtime import Clock, probe_hello, resolve_bot, run_game

HERE = Path(__file__).parent / "bots"
ROOT = Path(__file__).resolve().parents[2]
RANDOM = resolve_bot(ROOT / "bots" / "python" / "random_bot.py")


def raw(mode: str, session: bool = False):
    """The raw bot in ``mode`` (see tests/runtime/bots/raw_bot.py), serving the Session stream if ``session``."""
    env = (("KAFANA_TEST_RAW", mode),) + ((("KAFANA_TEST_SESSION", "1"),) if session else ())
    return dataclasses.replace(resolve_bot(HERE / "raw_bot.py"), env=env)


@pytest.mark.parametrize(
    ("mode", "words"),
    [
        ("hello-bytes", "ActResponse expected, but the answer has field action_id with wire type 2, declared with"),
        ("echo", "the answer has field action_id with wire type 2"),  # match_id, field 1 of an ActRequest
        ("wrong-type", "field action_id with wire type 2, declared with wire type 0"),
        ("wide-id", "field action_id = 4294967297, which does not fit its type"),
        ("unknown-field", "the answer has unknown field 9 (wire type 0)"),
    ],
)
@pytest.mark.parametrize("session", [False, True], ids=["calls", "session"])
async def test_an_answer_that_is_not_an_act_response_is_a_protocol_error(tmp_path, mode, words, session, wire_client):
    record = await run_game(
        make_game("tapa"), [raw(mode, session), RANDOM], match_id=f"raw-{mode}", seed=1, clock=Clock(),
        replay_path=tmp_path / "raw.jsonl", client=wire_client,
    )
    assert [(f.seat, f.kind) for f in record.faults] == [(0, "protocol_error")], record.faults
    assert words in record.faults[0].message
    assert record.decisions == 0  # nothing it sent was played


@pytest.mark.parametrize(
    ("mode", "words"),
    [
        ("session-notified", "answered an act request on the Session stream with notified"),
        ("session-empty", "SessionResponse expected, but the answer has neither act nor notified"),
        ("session-both", "SessionResponse expected, but the answer has fields 1, 2 (one of 1 or 2 expected)"),
        ("session-close", "closed its Session stream"),
        ("session-ahead", "answered on its Session stream before it was asked"),
    ],
)
async def test_a_session_answer_out_of_turn_is_a_protocol_error(tmp_path, mode, words, wire_client):
    """No answer of the bot stands. The ahead bot answers as soon as the stream opens, before any request (an extra
    answer later in a game is the same fault when it comes before the next request; nothing on the wire tells it
    from that request's answer when it comes after)."""
    record = await run_game(
        make_game("tapa"), [raw(mode, session=True), RANDOM], match_id=f"raw-{mode}", seed=1, clock=Clock(),
        replay_path=tmp_path / "raw.jsonl", client=wire_client,
    )
    assert [(f.seat, f.kind) for f in record.faults] == [(0, "protocol_error")], record.faults
    assert words in record.faults[0].message
    steps = read_replay(tmp_path / "raw.jsonl").steps
    answers = sum(step["type"] == "action" and step["seat"] == 0 for step in steps)
    assert answers == 0


@pytest.mark.parametrize("session", [False, True], ids=["calls", "session"])
async def test_a_plain_answer_is_played(session, wire_client):
    record = await run_game(make_game("tapa"), [raw("plain", session), RANDOM], match_id="raw", seed=1,
                            clock=Clock(), replay_path=None, client=wire_client)
    assert record.faults == () and record.decisions > 10


@pytest.mark.parametrize(
    ("mode", "words"),
    [
        ("long-name", "name '\\x1b]0;owned\\x07nnn"),
        ("slash-name", "name '../a/b' must be 1-64 characters of A-Z a-z 0-9 . _ -"),
        ("escape-version", "version must be printable text of at most 32 characters"),
        ("no-name", "name '' must be 1-64 characters"),
    ],
)
async def test_a_hello_out_of_bounds_is_no_hello(mode, words, wire_client):
    info, fault, _ = await probe_hello(raw(mode), client=wire_client)
    assert info is None and fault.kind == "no_hello" and words in fault.message, fault
    assert fault.message.isprintable() and len(fault.message) < 400


async def test_a_game_listed_twenty_thousand_times_counts_once():
    start = time.monotonic()
    report = await check_bot(raw("many-games"))
    assert report.info.games == ("tapa",)
    assert time.monotonic() - start < 60 and sum(c.name.endswith("a full game against the random bot")
                                                 for c in report.checks) == 1


def test_a_bots_control_characters_are_shown_not_obeyed(tmp_path):
    """A comment and output full of terminal escapes: the replay and ``referee show`` carry them escaped."""
    folder = tmp_path / "loud"
    folder.mkdir()
    folder.chmod(0o755)
    (folder / "bot.py").write_text(
        "import sys\nfrom bots.python.kit import serve\nfrom referee.wire import ActResponse\n"
        "def choose(request):\n"
        "    print('\\x1b[2J\\x1b]0;owned\\x07 cleared', file=sys.stderr, flush=True)\n"
        "    return ActResponse(0, 'look \\x1b[31mred\\u202e')\n"
        "serve(choose, name='loud', games=['tapa'])\n"
    )
    (folder / "bot.toml").write_text('name = "loud"\ncommand = ["python3", "bot.py"]\ngames = ["tapa"]\n')
    random_bot = str(ROOT / "bots" / "python" / "random_bot.py")
    played = CliRunner().invoke(main, ["play", "tapa", str(folder), random_bot, "--out", str(tmp_path / "r")])
    assert played.exit_code == 0, played.output
    replay = next((tmp_path / "r").glob("*.jsonl"))
    text = replay.read_text()
    assert "\\u001b" not in text and "\\\\x1b[31mred\\\\u202e" in text
    assert "\\x1b]0;owned\\x07 cleared" in read_replay(replay).result["output"][0]["stderr"]
    shown = CliRunner().invoke(main, ["show", str(replay)])
    assert shown.exit_code == 0 and "\x1b" not in shown.output and "\u202e" not in shown.output
    assert "look \\x1b[31mred\\u202e" in shown.output
