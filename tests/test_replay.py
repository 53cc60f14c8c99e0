"""The replay writer's hot lines (a chance step, a decision) are exactly what :func:`json.dumps` writes; a replay
edited to hold a step no parser can read is a problem ``referee verify`` names, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from referee.cli import main
from referee.replay import COMPRESSED, ReplayWriter, compress_replay, read_replay, replay_bytes

RANDOM = str(Path(__file__).resolve().parents[1] / "bots" / "python" / "random_bot.py")

texts = st.text(alphabet=st.characters(codec="utf-8"), max_size=30)


@given(seat=st.integers(0, 5), action_id=st.integers(0, 5000), notation=texts,
       ms=st.floats(min_value=0, max_value=1e7, allow_nan=False), comment=texts)
def test_a_decisions_line_is_json_dumps(tmp_path_factory, seat, action_id, notation, ms, comment):
    path = tmp_path_factory.mktemp("replay") / "r.jsonl"
    writer = ReplayWriter(path)
    writer.chance(notation)
    writer.action(seat, action_id, notation, ms, comment)
    writer.result(termination="normal")
    lines = path.read_text().splitlines()
    expected = {"type": "action", "seat": seat, "id": action_id, "notation": notation, "ms": round(ms, 3)}
    if comment:
        expected["comment"] = comment
    assert lines[0] == json.dumps({"type": "chance", "notation": notation}, separators=(",", ":"))
    assert lines[1] == json.dumps(expected, separators=(",", ":"))


@pytest.mark.parametrize("edit", [
    ("chance", "pile f2>s6"), ("chance", 5), ("chance", None), ("action", ["2D", "small_up>f0"]),
    ("action", "pile f2>s6"),
], ids=lambda edit: f"{edit[0]}-{edit[1]!r}")
def test_verify_reports_a_malformed_step_as_a_problem(tmp_path, edit):
    """A replay edited to hold a step no parser can read: ``referee verify`` names the step and exits 1, with no
    traceback."""
    done = CliRunner().invoke(main, ["play", "gapa", RANDOM, RANDOM, "--seed", "3", "--out", str(tmp_path)])
    assert done.exit_code == 0, done.output
    path = next(tmp_path.glob("gapa-*.jsonl"))
    records = [json.loads(line) for line in path.read_text().splitlines()]
    kind, notation = edit
    index = [i for i, record in enumerate(records) if record["type"] == kind][3]
    records[index]["notation"] = notation
    path.write_text("".join(json.dumps(record) + "\n" for record in records))
    checked = CliRunner().invoke(main, ["verify", str(path)])
    assert checked.exit_code == 1 and isinstance(checked.exception, SystemExit)
    assert "Traceback" not in checked.output and f"step {index}" in checked.output, checked.output


def test_a_compressed_replay_reads_as_its_text_and_one_cut_short_says_so(tmp_path):
    """A ladder keeps its replays compressed: read, verified and shown as they are; cut short, the steps it holds
    are read and the problem named; broken, a problem, never a traceback."""
    done = CliRunner().invoke(main, ["play", "tapa", RANDOM, RANDOM, "--seed", "3", "--out", str(tmp_path)])
    assert done.exit_code == 0, done.output
    plain = next(tmp_path.glob("tapa-*.jsonl"))
    text = plain.read_bytes()
    whole = read_replay(plain)
    packed = compress_replay(plain, text)
    assert not plain.exists() and packed.name.endswith(".jsonl.gz") and len(packed.read_bytes()) < len(text) / 3
    assert replay_bytes(packed) == text and read_replay(packed) == whole
    assert CliRunner().invoke(main, ["verify", str(packed)]).exit_code == 0
    assert CliRunner().invoke(main, ["show", str(packed)]).exit_code == 0
    cut = tmp_path / "cut.jsonl.gz"
    cut.write_bytes(packed.read_bytes()[: len(packed.read_bytes()) // 2])
    short = read_replay(cut)
    assert "the compressed file is cut short" in short.errors and 0 < len(short.steps) < len(whole.steps)
    broken = tmp_path / "broken.jsonl.gz"
    broken.write_bytes(COMPRESSED + b"not gzip at all")
    assert read_replay(broken).errors[0].startswith("the compressed file cannot be read")
    checked = CliRunner().invoke(main, ["verify", str(broken)])
    assert checked.exit_code == 1 and "Traceback" not in checked.output
