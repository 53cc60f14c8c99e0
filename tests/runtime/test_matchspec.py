"""The match spec a ladder sends a referee: checked whole when it arrives, each mistake named in one line, never
guessed (a forgotten ``seed_secret`` must not publish a ladder's seed)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from referee.matchspec import MatchSpec, SpecError
from referee.runtime.clock import Clock

ROOT = Path(__file__).resolve().parents[2]
BOT = str(ROOT / "bots" / "python" / "random_bot.py")
GOOD = {"game": "tapa", "bots": [BOT, BOT], "seed": "7", "seed_secret": True}


def test_a_spec_reads_back_what_it_writes():
    spec = MatchSpec(game="durak", bots=("a", "b", "c"), seed="s", seed_secret=True, options={"seats": "3"},
                     open_units=("u1",), pause_off_turn=False, entrants=({"name": "a"},) * 3, startup_timeout=5,
                     clock=Clock(10, 0.5, 2))
    assert spec.to_json()["clock"] == "10+0.5/2"
    assert MatchSpec.from_json(json.loads(json.dumps(spec.to_json()))) == spec
    assert MatchSpec(game="tapa", bots=("a", "b"), seed="1", seed_secret=False).to_json() == {
        "game": "tapa", "bots": ["a", "b"], "seed": "1", "seed_secret": False}


@pytest.mark.parametrize("change,error", [
    ({"seed_secret": None}, "'seed_secret' must be true or false, not None"),
    ({"sed": "1"}, "unknown key 'sed' in the match spec"),
    ({"bots": "a.py"}, "'bots' must be a list of strings, not 'a.py'"),
    ({"seed": 7}, "'seed' must be a string, not 7"),
    ({"options": {"seats": 4}}, "'options' must be an object of strings"),
    ({"startup_timeout": -1}, "'startup_timeout' must be a positive number"),
    ({"pause_off_turn": "yes"}, "'pause_off_turn' must be true or false"),
    ({"clock": 120}, "'clock' must be a string, not 120"),
    ({"clock": "0"}, "'clock': bad clock '0': bank and cap must be positive"),
])
def test_each_mistake_is_named(change, error):
    with pytest.raises(SpecError, match=error.replace("(", r"\(").replace(")", r"\)")):
        MatchSpec.from_json({**GOOD, **change})


@pytest.mark.parametrize("missing", ["game", "bots", "seed", "seed_secret"])
def test_no_key_without_a_safe_default_is_guessed(missing):
    with pytest.raises(SpecError, match=f"the match spec has no '{missing}'"):
        MatchSpec.from_json({key: value for key, value in GOOD.items() if key != missing})


def test_run_match_refuses_a_spec_in_one_line_and_plays_a_good_one(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({key: value for key, value in GOOD.items() if key != "seed_secret"}))
    done = subprocess.run([sys.executable, "-m", "referee.cli", "run-match", str(bad)], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 2 and "Error: " in done.stderr and "the match spec has no 'seed_secret'" in done.stderr
    assert "Traceback" not in done.stderr
    good = tmp_path / "good.json"
    good.write_text(json.dumps({**GOOD, "sandbox": "off", "replay": str(tmp_path / "m.jsonl")}))
    played = subprocess.run([sys.executable, "-m", "referee.cli", "run-match", str(good)], capture_output=True,
                            text=True, timeout=120)
    assert played.returncode == 0, played.stderr
    assert json.loads(played.stdout)["seed"] == "7" and (tmp_path / "m.jsonl").exists()
