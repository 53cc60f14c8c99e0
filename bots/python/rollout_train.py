"""Train a points network of the Tabla family on positions valued by rollouts, beyond what self-play teaches it.

Usage: python -m bots.python.rollout_train --game tabla --init FILE [--games 1000] [--every 3] [--rollouts 36]
       [--plies 8] [--epochs 3] [--batch 64] [--rate 0.0003] [--seed 1] [--jobs 1] [--data FILE] [--out FILE]

First the positions: ``--games`` games of greedy self-play by the ``--init`` network in the native core, every
``--every``-th position where a turn passed (the side just moved against the side to roll: in Gjul Bara never within
a ladder's chain, nor after a remainder, whose receiver rolls next), each valued by ``--rollouts`` rollouts that
play on with the same network for ``--plies`` decisions of both sides (each stage of a ladder's chain one) and then
take its value (a game that ends, its points; in Tabla and Tapa a race of both sides bearing off, the exact bear-off
tables', in the choice of plays too, and a rollout stops there; Gjul Bara's races climb the ladder). The opponent's
first roll runs through the 36 in turn, so each roll weighs the same in every position (the variance of the first
roll is gone); a rollout is a better judge of a position than the network alone, since it sees what the next
decisions make of it. Then the network learns those values: minibatch gradient descent (Adam) on the squared error,
``--epochs`` passes over the positions in orders drawn from ``numpy.random.default_rng(seed)``. The dice come from
the playouts' stream seeded with ``--seed`` (:class:`referee.playouts.SplitMix64`; with ``--jobs N`` N threads share
the games, each on a stream drawn from it): the same command makes the same file on the same machine. With
``--data`` the positions and their values are written to that file, or read from it when it exists (to train another
network on them without rolling them out again). Progress is printed as positions are valued and after each epoch
(the mean squared error over the positions).
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from bots.python.td_inputs import check_suits, inputs
from bots.python.td_network import WEIGHTS, Network
from referee.games import make_game
from referee.games.engine import ACCELERATORS
from referee.games.tabla_family.features import FEATURES
from referee.playouts import SplitMix64

GAMES = ("tabla", "gjul-bara", "tapa")
"""The games whose positions are rolled out."""
CHUNK = 100
"""Self-play games between two progress reports."""


def rolled_out(network: Network, game_id: str, games: int, every: int, rollouts: int, plies: int, seed: int,
               report: Callable[[str], None] = print, jobs: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """The feature rows of the positions met in ``games`` games of ``network``'s self-play (every ``every``-th
    decision's) and their values for the side that just moved, by rollouts (:func:`kafana_native.bots.td_rollouts`).
    ``jobs`` threads share the games (the core runs them in parallel), each its share on a stream of its own drawn
    from ``seed``'s; their positions come in the order of the jobs.

    Raises:
        RuntimeError: the native core is not installed.
    """
    if ACCELERATORS is None:
        raise RuntimeError("the native core is not installed (pip install ./native)")
    net = network.native()
    options = make_game(game_id).core_options()
    begun, done = time.perf_counter(), [0, 0]
    lock = threading.Lock()

    def job(games: int, stream: int) -> tuple[list[np.ndarray], list[np.ndarray]]:
        rows, values = [], []
        for start in range(0, games, CHUNK):
            step = min(CHUNK, games - start)
            found, valued, stream = ACCELERATORS.td_rollouts(game_id, net, games=step, every=every,
                                                             rollouts=rollouts, plies=plies, rng=stream, **options)
            rows.append(np.frombuffer(found, dtype="<f4").reshape(-1, FEATURES))
            values.append(np.frombuffer(valued, dtype="<f4"))
            with lock:
                done[0] += step
                done[1] += len(values[-1])
                report(f"{game_id}: {done[0]} games, {done[1]} positions valued, {time.perf_counter() - begun:.0f} s")
        return rows, values

    shares = [games // jobs + (1 if k < games % jobs else 0) for k in range(jobs)]
    streams = [seed] if jobs == 1 else [SplitMix64(seed).next() ^ k for k in range(jobs)]
    with ThreadPoolExecutor(jobs) as pool:
        parts = list(pool.map(job, shares, streams))
    rows = [row for part, _ in parts for row in part]
    values = [value for _, part in parts for value in part]
    return np.concatenate(rows), np.concatenate(values).astype(np.float64)


class Adam:
    """Adam's steps (Kingma and Ba) on a network's parameters, in place."""

    def __init__(self, parameters: list[np.ndarray], rate: float) -> None:
        self.parameters, self.rate, self.steps = parameters, rate, 0
        self.first = [np.zeros_like(p) for p in parameters]
        self.second = [np.zeros_like(p) for p in parameters]

    def step(self, grads: list[np.ndarray], beta1: float = 0.9, beta2: float = 0.999, eps: float = 1e-8) -> None:
        """Move every parameter against its gradient."""
        self.steps += 1
        scale = self.rate * np.sqrt(1 - beta2 ** self.steps) / (1 - beta1 ** self.steps)
        for p, g, m, v in zip(self.parameters, grads, self.first, self.second):
            m *= beta1
            m += (1 - beta1) * g
            v *= beta2
            v += (1 - beta2) * g * g
            p -= scale * m / (np.sqrt(v) + eps)


def squared_error_gradient(network: Network, x: np.ndarray, targets: np.ndarray) -> tuple[float, list[np.ndarray]]:
    """Half the mean squared error of ``network`` on rows ``x`` (its inputs, extras included) against
    ``targets``, and its gradient by (w1, b1, w2, b2)."""
    units = 1 / (1 + np.exp(-(x @ network.w1.T + network.b1)))
    error = units @ network.w2 + network.b2 - targets
    slope = error / len(x)
    back = np.outer(slope, network.w2) * units * (1 - units)
    grads = [back.T @ x, back.sum(axis=0), units.T @ slope, np.array(slope.sum())]
    return float(error @ error) / (2 * len(x)), grads


def fit(network: Network, rows: np.ndarray, targets: np.ndarray, epochs: int, batch: int, rate: float, seed: int,
        report: Callable[[str], None] = print) -> Network:
    """``network`` (trained in place, float64) after ``epochs`` passes of Adam over the feature ``rows`` and their
    ``targets`` in minibatches of ``batch``."""
    x = inputs(rows, network.inputs).astype(np.float64)
    order_rng, adam = np.random.default_rng(seed), Adam(network.parameters(), rate)
    for epoch in range(1, epochs + 1):
        order = order_rng.permutation(len(x))
        for start in range(0, len(x), batch):
            at = order[start:start + batch]
            adam.step(squared_error_gradient(network, x[at], targets[at])[1])
        loss = squared_error_gradient(network, x, targets)[0]
        report(f"epoch {epoch}: mean squared error {2 * loss:.4f} over {len(x)} positions")
    return network


def training_arguments(parser: argparse.ArgumentParser, init: str) -> None:
    """Add the arguments of a command that fits a points network to valued positions: ``--init`` (helped by
    ``init``), ``--epochs``, ``--batch``, ``--rate``, ``--seed``, ``--data`` and ``--out``."""
    parser.add_argument("--init", type=Path, required=True, help=init)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--rate", type=float, default=0.0003, help="Adam's learning rate")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--data", type=Path, help="where to keep the valued positions (read back if it exists)")
    parser.add_argument("--out", type=Path, help=f"where to write the network (default {WEIGHTS}/<game>.npz)")


def train(parser: argparse.ArgumentParser, args: argparse.Namespace,
          valued: Callable[[Network], tuple[np.ndarray, np.ndarray]]) -> int:
    """Run a command of :func:`training_arguments`: ``args.init``'s network fit to the positions ``valued`` gives
    for it (or ``args.data``'s when that file exists; else they are kept there), written to ``args.out``. A bad
    ``--init`` or ``--data`` ends the command with the parser's one-line error."""
    if min(args.epochs, args.batch) < 1:
        parser.error("--epochs and --batch must be positive")
    if ACCELERATORS is None:
        parser.error("the native core is not installed (pip install ./native)")
    try:
        network = Network.load(args.init)
        check_suits(network.inputs, args.game)
        if args.data and args.data.exists():
            with np.load(args.data) as kept:
                rows, values = kept["rows"], kept["values"]
        else:
            rows = values = None
    except (ValueError, OSError, KeyError) as error:
        parser.error(f"{error}")
    start = time.perf_counter()
    if rows is None:
        rows, values = valued(network)
        if args.data:
            np.savez_compressed(args.data, rows=rows, values=values)
    network = Network(*(array.astype(np.float64) for array in network.parameters()), network.inputs)
    fit(network, rows, values, args.epochs, args.batch, args.rate, args.seed)
    out = args.out or WEIGHTS / f"{args.game}.npz"
    network.save(out)
    print(f"{out}: {len(values)} positions in {time.perf_counter() - start:.0f} s")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=GAMES, required=True)
    parser.add_argument("--games", type=int, default=1000, help="self-play games to draw positions from")
    parser.add_argument("--every", type=int, default=3, help="keep every how many decisions' position")
    parser.add_argument("--rollouts", type=int, default=36, help="rollouts per position (36: each first roll once)")
    parser.add_argument("--plies", type=int, default=8, help="decisions a rollout plays before the network values it")
    parser.add_argument("--jobs", type=int, default=1, help="threads to share the rollouts among (the data depends "
                        "on it: each has a stream of its own)")
    training_arguments(parser, "the points network to roll out with and train")
    args = parser.parse_args(argv)
    if min(args.games, args.every, args.rollouts, args.jobs) < 1 or args.plies < 0:
        parser.error("--games, --every, --rollouts and --jobs must be positive, --plies not negative")
    return train(parser, args, lambda network: rolled_out(network, args.game, args.games, args.every, args.rollouts,
                                                          args.plies, args.seed, jobs=args.jobs))


if __name__ == "__main__":
    sys.exit(main())
