"""Training on the values the network's own search gives two rolls ahead: the positions, their values and the
command."""

from __future__ import annotations

import numpy as np
import pytest

from bots.python import search_train, td2_bot, td_bot
from bots.python.td_bot import Values
from bots.python.td_network import WEIGHTS, Network
from referee.games import make_game
from referee.games.engine import ACCELERATORS

from .test_ladder_search import stages

pytestmark = pytest.mark.skipif(ACCELERATORS is None, reason="the native core is not installed")


def exact_values(rows: np.ndarray) -> np.ndarray:
    """The bear-off tables' value of each row, NaN where it is no race."""
    return np.frombuffer(ACCELERATORS.bearoff_values(np.ascontiguousarray(rows, dtype="<f4").tobytes()), "<f4")


@pytest.mark.parametrize("game_id", search_train.GAMES)
def test_a_position_is_valued_as_td2_values_the_play_that_leaves_it(game_id):
    game, judge = make_game(game_id), Values(game_id)
    net, checked = td_bot.network(game_id).native(), 0
    for state in list(stages(game_id, {}, 1, seed=6))[::6]:
        seat, plays = state.current_player, state.legal_actions()
        for index, value in td2_bot.two_rolls_ahead(state, judge, seat).items():
            after = state.clone()
            after.apply(plays[index])
            if after.is_terminal():
                continue
            sides = after.sides(seat)
            assert search_train.two_rolls_ahead(game, net, [sides])[0] == pytest.approx(value, abs=1e-5)
            checked += 1
    assert checked >= 12


@pytest.mark.parametrize("game_id", search_train.GAMES)
def test_the_positions_are_whole_and_their_values_are_the_searchs(game_id):
    """Each kept row is a position of 15 checkers a side; its value is the search's (the tables' in a race),
    near the network's own; the same seed makes the same data, and jobs draw streams of their own."""
    network = Network.load(WEIGHTS / f"{game_id}.npz")
    rows, values = search_train.searched(network, game_id, 60, 2, seed=3)
    assert rows.shape == (60, len(rows[0])) and values.shape == (60,)
    for side in (rows[:, :98], rows[:, 98:196]):
        points = side[:, :96].reshape(-1, 24, 4)
        checkers = points[:, :, :3].sum(axis=2) + 2 * points[:, :, 3]
        assert np.allclose(checkers.sum(axis=1) + 2 * side[:, 96] + 15 * side[:, 97], 15)
    exact = exact_values(rows)
    assert np.allclose(values[~np.isnan(exact)], exact[~np.isnan(exact)])
    own = network.values(rows)
    assert not np.allclose(values, own, atol=1e-3) and np.corrcoef(values, own)[0, 1] > 0.8
    again = search_train.searched(network, game_id, 60, 2, seed=3)
    assert np.array_equal(rows, again[0]) and np.array_equal(values, again[1])
    shared = search_train.searched(network, game_id, 60, 2, seed=3, jobs=2)
    assert shared[0].shape == rows.shape and not np.array_equal(shared[0], rows)
    one = search_train.searched(network, game_id, 1, 2, seed=3, jobs=2)  # a job with none to value
    assert one[0].shape == (1, rows.shape[1]) and one[1].shape == (1,)


def test_the_command_writes_a_network_and_keeps_its_data(tmp_path, capsys):
    init, data, out, again = (tmp_path / name for name in ("init.npz", "data.npz", "out.npz", "again.npz"))
    Network.new(6, np.random.default_rng(1), "shots").save(init)
    common = ["--game", "tapa", "--init", str(init), "--positions", "30", "--epochs", "2", "--data", str(data)]
    assert search_train.main([*common, "--out", str(out)]) == 0
    assert data.exists() and f"{out}: 30 positions" in capsys.readouterr().out
    assert search_train.main([*common, "--out", str(again)]) == 0  # from the data kept
    assert "positions valued" not in capsys.readouterr().out
    first, second = Network.load(out), Network.load(again)
    assert first.inputs == "shots" and all(np.array_equal(a, b) for a, b in zip(first.parameters(),
                                                                                    second.parameters()))
    with pytest.raises(SystemExit):
        search_train.main(["--game", "tapa", "--init", str(tmp_path / "missing.npz")])
    assert "missing.npz: not a saved network" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        search_train.main(["--game", "gjul-bara", "--init", str(init)])
    assert "invalid choice: 'gjul-bara'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        search_train.main([*common, "--positions", "0"])
    assert "must be positive" in capsys.readouterr().err
