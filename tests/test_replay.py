"""The replay writer's hot lines (a chance step, a decision) are exactly what :func:`json.dumps` writes."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from referee.replay import ReplayWriter

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
