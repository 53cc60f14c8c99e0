"""What a referee process prints at the end of a match, read by the ladder strictly: a result it cannot read is an
executor error naming what is wrong, never a guess stored as a result."""

from __future__ import annotations

import json

import pytest

from ladder.executor import referee_result

GOOD = {"match_id": "m", "game": "tapa", "seed": "7", "bots": ["a", "b"], "termination": "mars", "points": [2, 0],
        "games": [], "faults": [{"seat": 1, "kind": "timeout", "message": "late"}], "decisions": 40,
        "replay": "m.jsonl"}


def test_a_result_is_read_whole():
    result = referee_result(0, "progress\n" + json.dumps(GOOD), "", 1.5)
    assert result.error is None and result.termination == "mars" and result.points == (2, 0)
    assert result.faults == (GOOD["faults"][0],) and result.decisions == 40 and result.seconds == 1.5
    assert result.bots == ("a", "b")


@pytest.mark.parametrize(("change", "said"), [
    ({"points": [2, "0"]}, "the result's 'points' is [2, '0']"),
    ({"decisions": True}, "the result's 'decisions' is True"),
    ({"termination": None}, "the result's 'termination' is None"),
    ({"extra": 1}, "unknown key 'extra' in the result"),
    ({"points": None}, "the result's 'points' is None"),
])
def test_a_result_the_ladder_cannot_read_is_an_executor_error(change, said):
    result = referee_result(0, json.dumps({**GOOD, **change}), "", 1.0)
    assert result.error is not None and result.error.kind == "referee"
    assert result.error.detail == f"a result the ladder cannot read: {said}"


def test_a_missing_key_and_output_that_is_no_object_are_named():
    missing = referee_result(0, json.dumps({k: v for k, v in GOOD.items() if k != "points"}), "", 1.0)
    assert missing.error is not None and missing.error.detail.endswith("the result has no 'points'")
    listed = referee_result(0, "[1, 2]", "", 1.0)
    assert listed.error is not None and listed.error.detail.endswith("a result is a JSON object, not list")
