"""The TD(lambda) trainer and the learned bots: reproducible training, networks that load or fail in one line,
and the shipped networks playing legally, checked by ``referee check-bot``, stronger than the heuristic, and
stronger again one roll ahead (``td1_bot``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bots.python import heuristic_bot, random_bot, td1_bot, td_bot, td_train
from bots.python.td_network import WEIGHTS, Network
from referee.checkbot import check_bot
from referee.runtime import resolve_bot

from .test_strength import wins_of

ROOT = Path(__file__).resolve().parents[2]


def test_training_is_reproducible():
    first = td_train.train("tapa", 6, 8, seed=3, alpha=0.01, lam=0.7, report=lambda line: None)
    again = td_train.train("tapa", 6, 8, seed=3, alpha=0.01, lam=0.7, report=lambda line: None)
    other = td_train.train("tapa", 6, 8, seed=4, alpha=0.01, lam=0.7, report=lambda line: None)
    assert all(np.array_equal(a, b) for a, b in zip(first.parameters(), again.parameters()))
    assert not np.array_equal(first.w1, other.w1)
    start = Network.new(8, np.random.default_rng(3))
    assert not np.array_equal(first.w1, start.w1)  # it learnt something


def test_the_trainer_writes_a_network_that_loads(tmp_path, capsys):
    out = tmp_path / "gjul.npz"
    assert td_train.main(["--game", "gjul-bara", "--games", "3", "--hidden", "5", "--out", str(out)]) == 0
    assert f"{out}: 3 games in" in capsys.readouterr().out
    network = Network.load(out)
    assert network.w1.shape[0] == 5 and network.values(np.zeros((2, network.w1.shape[1]))).shape == (2,)


def test_a_broken_network_file_is_one_line(tmp_path):
    broken = tmp_path / "broken.npz"
    broken.write_bytes(b"not a network")
    with pytest.raises(ValueError, match="broken.npz: not a saved network"):
        Network.load(broken)
    wrong = tmp_path / "wrong.npz"
    np.savez(wrong, w1=np.zeros((3, 7)), b1=np.zeros(3), w2=np.zeros(3), b2=np.zeros(()))
    with pytest.raises(ValueError, match=r"wrong.npz: a network of \(3, 7\), not \(hidden, 244\)"):
        Network.load(wrong)


HIDDEN = {"tabla": 80, "gjul-bara": 40, "tapa": 40}
"""Hidden units of each shipped network (docs/performance.md says how each was trained)."""


@pytest.mark.parametrize("game_id", td_train.GAMES)
def test_every_game_has_a_shipped_network(game_id):
    assert Network.load(WEIGHTS / f"{game_id}.npz").w1.shape[0] == HIDDEN[game_id]


WINS_OF_200 = {"tabla": 135, "gjul-bara": 104, "tapa": 105}
"""Wins asserted in 200 games against the heuristic (seeds 0-199, seats alternating). Measured with the shipped
networks: tabla 146, gjul-bara 113, tapa 115."""


@pytest.mark.parametrize("game_id", ["tabla", "gjul-bara", "tapa"])
async def test_the_learned_bot_against_the_heuristic(game_id):
    assert await wins_of(game_id, td_bot, heuristic_bot, 200) >= WINS_OF_200[game_id]


async def test_the_learned_bot_plays_whole_matches():
    assert await wins_of("tabla-match", td_bot, random_bot, 4) >= 3


async def test_looking_one_roll_ahead_beats_the_learned_bot():
    """Measured with the shipped tabla network: 34 wins of 60."""
    assert await wins_of("tabla", td1_bot, td_bot, 60) >= 32


@pytest.mark.parametrize("bot", ["td_bot.py", "td1_bot.py"])
async def test_check_bot_accepts_the_learned_bots(bot):
    report = await check_bot(resolve_bot(ROOT / "bots" / "python" / bot))
    assert [check.name for check in report.checks if not check.ok] == []
