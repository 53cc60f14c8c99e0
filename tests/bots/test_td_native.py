"""TD(λ) self-play in the native core against its numpy reference, ``td_train.train`` on the same dice."""

from __future__ import annotations

import numpy as np
import pytest

from bots.python import td_train
from bots.python.td_network import Network
from referee.games.engine import ACCELERATORS
from referee.games.registry import registration_of
from referee.playouts import SplitMix64

pytestmark = pytest.mark.skipif(ACCELERATORS is None, reason="the native core is not installed")


def quiet(line: str) -> None:
    """Progress nobody reads."""


@pytest.mark.parametrize(("game_id", "inputs", "games"), [("tabla", "plain", 6), ("tabla", "contact", 4),
                                                          ("gjul-bara", "primes", 4), ("tapa", "blocks", 6)])
def test_the_core_trains_as_the_reference_on_the_same_dice(game_id, inputs, games):
    """Every weight after a few games equal to float32's rounding, and far from where it started: the same plays,
    the same updates."""
    draws, rng = registration_of(game_id).playouts, SplitMix64(9)
    reference = td_train.train(game_id, games, 12, 9, 0.01, 0.7, report=quiet, inputs=inputs,
                               chance=lambda state: draws.chance(state, rng))
    native = td_train.train_native(game_id, games, 12, 9, 0.01, 0.7, report=quiet, inputs=inputs)
    begun = td_train.start(12, np.random.default_rng(9), inputs=inputs)
    for ours, theirs, first in zip(native.parameters(), reference.parameters(), begun.parameters()):
        assert ours.shape == theirs.shape
        assert np.abs(ours - theirs).max() < 1e-5 < np.abs(theirs - first).max()


def test_the_core_goes_on_from_a_network_grown_and_widened(tmp_path, capsys):
    """``--engine native --init`` with more units and a wider input set, reproducibly, in chunks of games as in
    one; numpy-only options are one line."""
    small, out, again = tmp_path / "small.npz", tmp_path / "out.npz", tmp_path / "again.npz"
    Network.new(4, np.random.default_rng(1)).save(small)
    for path in (out, again):
        assert td_train.main(["--engine", "native", "--game", "tabla", "--games", "3", "--hidden", "6",
                              "--inputs", "shots", "--init", str(small), "--out", str(path)]) == 0
    assert f"{out}: 3 games in" in capsys.readouterr().out
    first, second = Network.load(out), Network.load(again)
    assert first.w1.shape == (6, 244 + 8) and first.inputs == "shots"
    assert all(np.array_equal(a, b) for a, b in zip(first.parameters(), second.parameters()))
    whole = td_train.train_native("tapa", 5, 5, 2, 0.01, 0.7, report=quiet)
    lines: list[str] = []
    chunked = td_train.train_native("tapa", 5, 5, 2, 0.01, 0.7, report=lines.append, chunk=2)
    assert [line.split(" games")[0] for line in lines] == ["tapa: 2", "tapa: 4", "tapa: 5"]
    assert all(np.array_equal(a, b) for a, b in zip(whole.parameters(), chunked.parameters()))
    with pytest.raises(SystemExit):
        td_train.main(["--engine", "native", "--game", "tabla", "--outcomes"])
    assert "--outcomes trains in numpy only: leave out --engine native" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        td_train.main(["--engine", "native", "--game", "gjul-bara", "--init", str(small), "--inputs", "contact"])
    assert "inputs 'contact' read boards whose sides travel opposite ways, not gjul-bara's" in capsys.readouterr().err
