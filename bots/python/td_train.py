"""Train a Tabla-family value network by TD(lambda) self-play (TD-Gammon's method).

Usage: python -m bots.python.td_train --game tabla [--games 20000] [--hidden 40] [--seed 1] [--out FILE]

Both seats play the same network greedily: every decision takes the play whose position the network values
best for the mover (a play that ends the game is worth its points). Each seat learns from its own positions:
the value of its previous position moves toward the value of the position it chooses next, and at the end
toward the points it scored, with an eligibility trace per seat (lambda). Dice come from ``random.Random(seed)``
and the first weights from ``numpy.random.default_rng(seed)``: the same command makes the same file on the same
machine. Progress (games played, games/s) is printed every thousand games.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # small matrices: more threads only cost
import numpy as np  # noqa: E402

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bots.python.td_network import WEIGHTS, Network  # noqa: E402
from referee.games import CHANCE, make_game  # noqa: E402
from referee.games.tabla_family.features import after_features  # noqa: E402

GAMES = ("tabla", "gjul-bara", "tapa")


def choose(network: Network, state) -> tuple[int, np.ndarray, float, bool]:
    """The index of the mover's best play, its position's features, its value (its points if it ends the game)
    and whether it ends the game."""
    rows, outcomes = after_features(state)
    values = network.values(rows)
    for index, points in enumerate(outcomes):
        if points is not None:
            values[index] = points[0] - points[1]
    best = int(np.argmax(values))
    return best, rows[best], float(values[best]), outcomes[best] is not None


def train(game_id: str, games: int, hidden: int, seed: int, alpha: float, lam: float,
          report=print) -> Network:
    """A network trained by ``games`` games of self-play."""
    game = make_game(game_id)
    rng = random.Random(seed)
    network = Network.new(hidden, np.random.default_rng(seed))
    parameters = network.parameters()
    start = time.perf_counter()
    for number in range(1, games + 1):
        state = game.new_state()
        traces: list[list[np.ndarray] | None] = [None, None]
        last: list[np.ndarray | None] = [None, None]

        def learn(seat: int, target: float) -> None:
            """Move the value of ``seat``'s previous position toward ``target``."""
            row = last[seat]
            if row is None:
                return
            value, grads = network.gradient(row)
            trace = traces[seat]
            if trace is None:
                trace = traces[seat] = [np.zeros_like(p) for p in parameters]
            for t, g in zip(trace, grads):
                t *= lam
                t += g
            error = alpha * (target - value)
            for t, p in zip(trace, parameters):
                p += error * t

        ended, seat = False, 0
        while not state.is_terminal():
            if state.current_player == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            seat = state.current_player
            index, row, value, ended = choose(network, state)
            learn(seat, value)
            last[seat] = row
            state.apply(state.legal_actions()[index])
        points = state.outcome().points
        # The play that ended the game was valued by its points; the other seat (both, after a draw by the
        # stuck guard) learns the points it scored.
        for learner in (1 - seat,) if ended else (0, 1):
            learn(learner, float(points[learner] - points[1 - learner]))
        if number % 1000 == 0:
            elapsed = time.perf_counter() - start
            report(f"{game_id}: {number} games, {number / elapsed:.0f} games/s")
    return network


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=GAMES, required=True)
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--hidden", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--alpha", type=float, default=0.01, help="learning rate")
    parser.add_argument("--lam", type=float, default=0.7, help="trace decay (lambda)")
    parser.add_argument("--out", type=Path, help=f"where to write the network (default {WEIGHTS}/<game>.npz)")
    args = parser.parse_args(argv)
    if args.games < 1 or args.hidden < 1:
        parser.error("--games and --hidden must be positive")
    start = time.perf_counter()
    network = train(args.game, args.games, args.hidden, args.seed, args.alpha, args.lam)
    out = args.out or WEIGHTS / f"{args.game}.npz"
    network.save(out)
    print(f"{out}: {args.games} games in {time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
