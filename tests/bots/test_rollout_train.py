"""Training on positions valued by rollouts: the data the core makes and the fit to it."""

from __future__ import annotations

import numpy as np
import pytest

from bots.python import rollout_train
from bots.python.td_network import WEIGHTS, Network
from referee.games import CHANCE, OpeningThrow, Roll, make_game
from referee.games.engine import ACCELERATORS
from referee.games.tabla_family._movegen import count
from referee.games.tabla_family.features import FEATURES, encode
from referee.playouts import SplitMix64

native = pytest.mark.skipif(ACCELERATORS is None, reason="the native core is not installed")


def quiet(line: str) -> None:
    """Progress nobody reads."""


def test_the_squared_error_gradient_is_the_derivative():
    rng = np.random.default_rng(4)
    network = Network.new(5, rng)
    x, targets = rng.random((7, network.w1.shape[1])), rng.normal(size=7)
    _, grads = rollout_train.squared_error_gradient(network, x, targets)
    for parameter, grad in zip(network.parameters(), grads):
        for _ in range(3):
            at = tuple(int(rng.integers(0, size)) for size in parameter.shape)
            kept = parameter[at]
            parameter[at] = kept + 1e-6
            up = rollout_train.squared_error_gradient(network, x, targets)[0]
            parameter[at] = kept - 1e-6
            down = rollout_train.squared_error_gradient(network, x, targets)[0]
            parameter[at] = kept
            assert np.isclose((up - down) / 2e-6, grad[at], atol=1e-8)


def test_a_fit_learns_its_targets():
    rng = np.random.default_rng(6)
    network = Network.new(6, rng)
    rows = (rng.random((400, FEATURES)) < 0.1).astype(np.float32)
    targets = rows[:, :10].sum(axis=1) / 5 - 0.2
    before = rollout_train.squared_error_gradient(network, rows.astype(np.float64), targets)[0]
    rollout_train.fit(network, rows, targets, epochs=30, batch=32, rate=0.01, seed=1, report=quiet)
    after = rollout_train.squared_error_gradient(network, rows.astype(np.float64), targets)[0]
    assert after < before / 10


@native
@pytest.mark.parametrize("game_id", rollout_train.GAMES)
def test_rollouts_value_positions_as_the_network_roughly_does(game_id):
    """The values of positions by rollouts of zero decisions are the network's own (in Tabla and Tapa a race's,
    the bear-off tables'; Gjul Bara's races climb the ladder, which they do not know); with a few decisions they
    differ but agree in the main, and every value is about the game's points at most (the network's own may pass
    them a little); the same seed, the same data (the shipped networks)."""
    network = Network.load(WEIGHTS / f"{game_id}.npz")
    rows, values = rollout_train.rolled_out(network, game_id, 3, 2, 36, 0, seed=5, report=quiet)
    assert rows.shape == (len(values), FEATURES) and len(values) > 20
    exact = np.frombuffer(ACCELERATORS.bearoff_values(rows.astype("<f4").tobytes()), "<f4")
    if game_id == "gjul-bara":
        exact = np.full_like(exact, np.nan)
    assert np.allclose(values, np.where(np.isnan(exact), network.values(rows), exact), atol=1e-4)
    again = rollout_train.rolled_out(network, game_id, 3, 2, 36, 0, seed=5, report=quiet)
    assert np.array_equal(rows, again[0]) and np.array_equal(values, again[1])
    rows, values = rollout_train.rolled_out(network, game_id, 3, 2, 36, 4, seed=5, report=quiet)
    assert (np.abs(values) <= 2.5).all() and not np.allclose(values, network.values(rows), atol=1e-3)
    assert np.corrcoef(values, network.values(rows))[0, 1] > 0.5
    shared = [rollout_train.rolled_out(network, game_id, 3, 2, 36, 4, seed=5, report=quiet, jobs=2)
              for _ in range(2)]
    assert np.array_equal(shared[0][0], shared[1][0]) and np.array_equal(shared[0][1], shared[1][1])
    assert len(shared[0][1]) > 20 and not np.array_equal(shared[0][0][:20], rows[:20])  # streams of their own


def first_best(state) -> int:
    """The play of a network that values every position 0, on the Python engine: the first that ends the game for
    the most points (one that bears off the last checker, ``key`` being its end position), else the first listed."""
    mover, best, most = state.current_player, 0, 0
    for index, play in enumerate(state.legal_actions()):
        if count(play.key, 0) == 15:
            after = state.clone()
            after.apply(play)
            points = after.outcome().points
            if points[mover] - points[1 - mover] > most:
                best, most = index, points[mover] - points[1 - mover]
    return best


def reference_rollout(game, moved: tuple[int, int, int, int], rolls: list[int], first: tuple[int, int], plies: int,
                      rng: SplitMix64) -> int:
    """One rollout on the Python engine of the position ``moved`` (the side just moved first: its board, the
    other's, their pins) with ``rolls`` made (the side to roll's first), the side to roll opening with ``first``;
    its points for the side just moved less the other's (0 if ``plies`` decisions leave it unfinished, the zero
    network's value)."""
    state = game.new_state(starter=0)
    state._place([moved[1], moved[0]], [moved[3], moved[2]], list(rolls))
    decisions, dice = 0, first
    while not state.is_terminal():
        if state.current_player != CHANCE:
            state.apply(state.legal_actions()[first_best(state)])
            decisions += 1
        elif decisions >= plies:
            return 0
        else:
            high, low = dice or rng.dice()
            dice = None
            state.apply(Roll(max(high, low), min(high, low)))
    points = state.outcome().points
    return points[1] - points[0]


def reference_rolled_out(games: int, every: int, rollouts: int, plies: int, seed: int) -> tuple[list, list]:
    """:func:`rollout_train.rolled_out` of Gjul Bara by the zero network, written again on the Python engine:
    positions kept only where the turn passed to the other side, each rolled out with the rolls each side has
    made, one stream of dice for the games and their rollouts."""
    game, rng = make_game("gjul-bara").on("python"), SplitMix64(seed)
    rows, values = [], []
    for _ in range(games):
        state, decisions = game.new_state(), 0
        while not state.is_terminal():
            if state.current_player == CHANCE:
                first, second = rng.dice()
                state.apply(OpeningThrow((first, second)) if state._phase == "opening" else
                            Roll(max(first, second), min(first, second)))
                continue
            mover = state.current_player
            state.apply(state.legal_actions()[first_best(state)])
            decisions += 1
            if state.current_player == CHANCE and state._turn != mover and decisions % every == 0:
                moved = state.sides(mover)
                rolls = [state._rolls[1 - mover], state._rolls[mover]]
                rows.append(encode(moved[:2], moved[2:]))
                values.append(sum(reference_rollout(game, moved, rolls, (k % 36 // 6 + 1, k % 6 + 1), plies, rng)
                                  for k in range(rollouts)) / rollouts)
    return rows, values


@native
def test_gjul_bara_rollouts_keep_whole_turns_and_count_the_rolls():
    """The core's Gjul Bara data are a Python reference's on the Python engine, position for position and die for
    die: by a network that values every position 0 (so plays are the first listed, or the one that ends the game
    for the most points), with rollouts long enough to end most games. A position kept within a ladder's chain or
    before a remainder's receiver rolls, or a rollout started with other roll counts (the ladder climbs from each
    side's fourth roll), would draw other dice and part the two."""
    zero = Network.new(4, np.random.default_rng(3))
    zero.w2[:] = 0
    zero.b2 = np.zeros_like(zero.b2)
    rows, values = rollout_train.rolled_out(zero, "gjul-bara", 4, 2, 4, 60, seed=9, report=quiet)
    expected_rows, expected_values = reference_rolled_out(4, 2, 4, 60, seed=9)
    assert len(values) == len(expected_values) > 60
    assert np.array_equal(rows, np.array(expected_rows, dtype=np.float32))
    assert np.allclose(values, expected_values) and np.count_nonzero(values) > 40


@native
def test_the_command_writes_a_network_and_keeps_its_data(tmp_path, capsys):
    init, data, out, again = (tmp_path / name for name in ("init.npz", "data.npz", "out.npz", "again.npz"))
    Network.new(6, np.random.default_rng(1), "shots").save(init)
    common = ["--game", "tapa", "--init", str(init), "--games", "2", "--rollouts", "36", "--plies", "2",
              "--epochs", "2", "--data", str(data)]
    assert rollout_train.main([*common, "--out", str(out)]) == 0
    assert data.exists() and f"{out}:" in capsys.readouterr().out
    assert rollout_train.main([*common, "--out", str(again)]) == 0  # from the data kept
    assert "positions valued" not in capsys.readouterr().out
    first, second = Network.load(out), Network.load(again)
    assert first.inputs == "shots" and all(np.array_equal(a, b) for a, b in zip(first.parameters(),
                                                                                    second.parameters()))
    with pytest.raises(SystemExit):
        rollout_train.main(["--game", "tapa", "--init", str(tmp_path / "missing.npz")])
    assert "missing.npz: not a saved network" in capsys.readouterr().err
    Network.new(6, np.random.default_rng(1), "primes").save(init)
    with pytest.raises(SystemExit):
        rollout_train.main(common)
    assert "inputs 'primes' read boards whose sides travel the same way, not tapa's" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        rollout_train.main([*common, "--every", "0"])
    assert "must be positive" in capsys.readouterr().err
