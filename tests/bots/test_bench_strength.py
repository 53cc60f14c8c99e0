"""bench/strength.py: its seats (a learned bot reading its networks from a folder of its own, beside the shipped one)
and its progress lines."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest
import trio

from bots.python import random_bot, td1_bot, td_bot
from bots.python.td_network import Network

BENCH = Path(__file__).resolve().parents[2] / "bench" / "strength.py"


@pytest.fixture(scope="module")
def strength():
    spec = importlib.util.spec_from_file_location("strength_bench", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_learned_bot_reads_networks_from_its_folder_and_leaves_the_shipped_bots_alone(strength, tmp_path):
    Network.new(6, np.random.default_rng(4)).save(tmp_path / "tapa.npz")
    copy = strength._module(f"td1_bot@{tmp_path}")
    assert copy is not td1_bot and copy.td_bot is not td_bot
    assert copy.td_bot.network("tapa").w1.shape[0] == 6
    assert td_bot.network("tapa").w1.shape[0] != 6
    assert sys.modules["bots.python.td_bot"] is td_bot and sys.modules["bots.python.td1_bot"] is td1_bot
    assert importlib.import_module("bots.python").td_bot is td_bot
    assert "bots.python.td2_bot" not in sys.modules or sys.modules["bots.python.td2_bot"].td_bot is td_bot


@pytest.mark.parametrize("name, error", [
    ("heuristic_bot@{folder}", "only a learned bot"),
    ("td_bot@{folder}/missing", "no such folder of networks"),
])
def test_a_folder_for_anything_else_is_refused(strength, tmp_path, name, error):
    with pytest.raises(ImportError, match=error):
        strength._module(name.format(folder=tmp_path))


def test_a_run_says_how_far_it_has_come_every_few_pairs_and_not_at_its_end(strength, monkeypatch, capsys):
    monkeypatch.setattr(strength, "PROGRESS", 2)
    scores, margins, played = trio.run(strength.duplicate, "tapa", random_bot.choose, random_bot.choose, 5, 10)
    assert len(scores) == 5 and len(margins) == played == 10
    lines = capsys.readouterr().err.splitlines()
    assert [line.split(" pairs played")[0] for line in lines] == ["seeds 10-14: 2", "seeds 10-14: 4"]
    assert all(line.endswith("% won") for line in lines)
